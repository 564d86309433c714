"""matrices/jetpack.toml and matrices/wsl.toml against the verbatim source text they were read from
(tests/fixtures/platform/source_quotes.toml), and the query that maps an L4T release to its row."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from envdoctor.checks.platform_jetson import jetpack_row
from envdoctor.matrix.loader import load_bundled

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

QUOTES = tomllib.loads(
    (Path(__file__).resolve().parent / "fixtures" / "platform" / "source_quotes.toml").read_text(
        encoding="utf-8"
    )
)["quotes"]
MS = load_bundled()


def _row(quote):
    table = MS.table(quote["table"])
    key = "l4t" if quote["table"] == "jetpack" else "requirement"
    rows = table.where(**{key: quote[key]})
    assert len(rows) == 1, f"no single {quote['table']} row for {quote[key]}"
    return rows[0]


@pytest.mark.parametrize(
    "quote", QUOTES, ids=lambda q: f"{q['table']}:{q.get('l4t') or q.get('requirement')}"
)
def test_row_values_are_in_the_source_text(quote):
    row = _row(quote)
    urls = [row["source"], *row.get("sources", [])]
    assert quote["url"] in urls
    for field in quote["fields"]:
        value = str(row[field])
        assert value in quote["quote"], f"{field} = {value} is not in the quoted source"


def test_every_confirmed_row_has_a_quote_and_unconfirmed_rows_are_marked():
    quoted = {(q["table"], q.get("l4t") or q.get("requirement")) for q in QUOTES}
    for name, key in (("jetpack", "l4t"), ("wsl", "requirement")):
        for row in MS.table(name).rows:
            if row.get("unverified"):
                assert "not read" in row["note"], row
                continue
            assert (name, row[key]) in quoted, f"{name} row {row[key]} has no source quote"


def test_jetpack_rows_by_l4t_release():
    assert jetpack_row(MS, "36.4.3")["jetpack"] == "6.2"
    assert jetpack_row(MS, "35.1.0")["jetpack"] == "5.0.2"  # nv_tegra_release says REVISION: 1.0
    assert jetpack_row(MS, "32.4.4")["jetpack"] == "4.4.1"
    assert jetpack_row(MS, "35.3.1") is None  # not read at NVIDIA: no row, no guess
    assert jetpack_row(MS, None) is None
