"""matrices/nvidia_arch_support.toml says what NVIDIA's text says.

The quotes in tests/data/source_quotes/nvidia_arch_support.toml are verbatim lines of NVIDIA's
architecture matrix, its "Current releases" post and its deprecation schedule. Each test reads the
values out of a quote the way a person reading that page would and compares them with the rows, so a
typo in the table (or a quote pasted for the wrong architecture) fails. tomllib reads both files
directly, independent of the matrix loader.
"""

from __future__ import annotations

import datetime
import re
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parents[1]
TABLE = tomllib.loads((ROOT / "matrices" / "nvidia_arch_support.toml").read_text(encoding="utf-8"))
QUOTES = tomllib.loads(
    (ROOT / "tests" / "data" / "source_quotes" / "nvidia_arch_support.toml").read_text(
        encoding="utf-8"
    )
)["quotes"]
ROWS = {row["compute_capability"]: row for row in TABLE["rows"]}
# NVIDIA's matrix names -> the names nvidia_gpus uses
ARCH_NAMES = {"Ada": "Ada Lovelace", "NVIDIA Ampere architecture": "Ampere"}


def _per_capability(cell: str, count: int, pattern: str) -> list[str]:
    """The values of one cell, one per capability (a single value stands for all of them)."""
    values = re.findall(pattern, cell)
    if len(values) == 1:
        return values * count
    return values[:count]


def _matrix_quotes() -> list[dict]:
    return [q for q in QUOTES if q["kind"] == "matrix"]


@pytest.mark.parametrize("quote", _matrix_quotes(), ids=lambda q: q["quote"][:24])
def test_matrix_rows_match_the_quote(quote):
    cells = [c.strip() for c in quote["quote"].split("|")]
    arch = ARCH_NAMES.get(cells[0], cells[0])
    capabilities = cells[1].split()
    firsts = _per_capability(cells[2], len(capabilities), r"CUDA (\d+\.\d+)")
    lasts = (
        _per_capability(cells[3], len(capabilities), r"CUDA (\d+\.(?:\d+|x))|Ongoing")
        if len(cells) > 3
        else []
    )
    drivers = (
        _per_capability(cells[4], len(capabilities), r"R(\d+)|Ongoing") if len(cells) > 4 else []
    )
    for i, cc in enumerate(capabilities):
        row = ROWS.get(cc)
        assert row is not None, f"no row for compute capability {cc}"
        assert row["arch"] == arch, cc
        assert row["first_cuda"] == firsts[0], cc  # Hopper prints two; the table keeps the first
        if quote.get("cut"):
            cut = re.search(r"CUDA (\d+)$", cells[3]) if len(cells) > 3 else None
            if cut:
                assert row["last_cuda"].split(".")[0] == cut.group(1), cc
            continue
        printed_last = lasts[i] or "Ongoing"
        assert row["last_cuda"] == printed_last, cc
        if drivers[i]:
            assert row["driver_support"] == "ended", cc
            assert row["last_driver_branch"] == int(drivers[i]), cc
        else:
            assert row["driver_support"] == "ongoing", cc
            assert "last_driver_branch" not in row, cc


def test_every_row_is_quoted_or_sourced_elsewhere():
    quoted = set()
    for quote in _matrix_quotes():
        quoted.update(quote["quote"].split("|")[1].split())
    by_arch = {q["arch"] for q in QUOTES if q["kind"] != "matrix"}
    for cc, row in ROWS.items():
        assert cc in quoted or row["arch"] in by_arch, cc


@pytest.mark.parametrize(
    "quote", [q for q in QUOTES if q["kind"] != "matrix"], ids=lambda q: q["arch"]
)
def test_last_branch_sentences_match(quote):
    if quote["kind"] == "legacy_release":
        match = re.match(r"(\d+)\.\d+", quote["quote"])
        assert match and quote["arch"] in quote["quote"]
    else:
        match = re.search(r"supported through the release (\d+) legacy branch", quote["quote"])
        assert match and quote["quote"].startswith(quote["arch"])
    rows = [r for r in ROWS.values() if r["arch"] == quote["arch"]]
    assert rows
    for row in rows:
        assert row["last_driver_branch"] == int(match.group(1)), row["compute_capability"]


def test_rows_carry_provenance_and_cite_a_quoted_url():
    urls = {q["url"] for q in QUOTES}
    assert TABLE["name"] == "nvidia_arch_support"
    for row in TABLE["rows"]:
        assert row["source"].startswith("https://")
        assert row["source"] in urls, row["compute_capability"]
        assert isinstance(row["checked"], datetime.date)
        assert (row["driver_support"] == "ended") == ("last_driver_branch" in row)
