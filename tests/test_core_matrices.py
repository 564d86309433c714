"""The matrix loader and linter: every rule rejects what it should, and the bundled set is clean."""

from __future__ import annotations

import textwrap

import pytest

from envdoctor.matrix.loader import lint, load_bundled, parse_matrix

HEADER = """
schema_version = 1
name = "t"
title = "A test table"
key = ["cuda"]
no_overlap = ["torch"]
[columns]
cuda = "version"
torch = "range"
"""


def _errors(rows: str, header: str = HEADER) -> list[str]:
    matrix, errors = parse_matrix(textwrap.dedent(header) + textwrap.dedent(rows), "t.toml", "t")
    return [str(e) for e in errors]


GOOD_ROW = """
[[rows]]
cuda = "12.4"
torch = { min = "2.3", max = "2.5" }
source = "https://docs.nvidia.com/cuda/"
checked = 2026-12-02
"""


def test_a_good_file_loads():
    matrix, errors = parse_matrix(textwrap.dedent(HEADER) + GOOD_ROW, "t.toml", "t")
    assert errors == [] and matrix is not None and matrix.rows[0]["cuda"] == "12.4"


def test_row_without_source_is_rejected_with_its_line():
    errors = _errors("""
    [[rows]]
    cuda = "12.4"
    checked = 2026-12-02
    """)
    text = textwrap.dedent(HEADER) + "\n"
    rows_line = text.count("\n") + 1  # the [[rows]] header follows the blank line
    assert len(errors) == 1
    assert errors[0].startswith(f"t.toml:{rows_line}: cuda=12.4: no source"), errors


@pytest.mark.parametrize(
    "row, message",
    [
        ('cuda = "12.4"\nsource = "http://x.org"\nchecked = 2026-12-02', "not an https URL"),
        ('cuda = "12.4"\nsource = "https://x.org"', "no checked date"),
        ('cuda = "twelve"\nsource = "https://x.org"\nchecked = 2026-12-02', "is not a version"),
        (
            'cuda = "12.4"\ncdua = "1"\nsource = "https://x.org"\nchecked = 2026-12-02',
            "unknown column 'cdua'",
        ),
        (
            'torch = { min = "2.5", max = "2.3" }\nsource = "https://x.org"\nchecked = 2026-12-02',
            "key column",
        ),
    ],
)
def test_row_rules(row, message):
    errors = _errors("[[rows]]\n" + row + "\n")
    assert any(message in e for e in errors), errors


def test_duplicate_keys_and_overlapping_ranges_are_rejected():
    errors = _errors(GOOD_ROW + GOOD_ROW)
    assert any("duplicate key" in e for e in errors)
    header = HEADER.replace('key = ["cuda"]', 'key = ["cuda", "torch"]')
    second = GOOD_ROW.replace('min = "2.3", max = "2.5"', 'min = "2.4"')
    errors = _errors(GOOD_ROW + second, header)
    assert any("range overlaps" in e for e in errors), errors
    third = GOOD_ROW.replace('min = "2.3", max = "2.5"', 'min = "2.5"')
    assert _errors(GOOD_ROW + third, header) == []


def test_newer_schema_is_refused():
    errors = _errors(GOOD_ROW, HEADER.replace("schema_version = 1", "schema_version = 99"))
    assert any("newer than this envdoctor supports" in e for e in errors)


def test_min_envdoctor_is_enforced():
    text = 'schema_version = 1\nmin_envdoctor = "99.0"\nname = "t"\ntitle = "x"\n[columns]\na = "int"\n'
    _, errors = parse_matrix(text, "t.toml", "t")
    assert any("needs envdoctor >= 99.0" in str(e) for e in errors)


def test_broken_toml_reports_its_line():
    _, errors = parse_matrix("schema_version = 1\nname = \n", "t.toml", "t")
    assert str(errors[0]).startswith("t.toml:2: not valid TOML")


def test_cross_file_references_resolve(tmp_path):
    (tmp_path / "a.toml").write_text(
        textwrap.dedent("""
        schema_version = 1
        name = "a"
        title = "A"
        key = ["torch"]
        [columns]
        torch = "version"
        [[rows]]
        torch = "2.7"
        source = "https://x.org"
        checked = 2026-12-02
        """)
    )
    (tmp_path / "b.toml").write_text(
        textwrap.dedent("""
        schema_version = 1
        name = "b"
        title = "B"
        references = { torch = "a.torch" }
        [columns]
        torch = "version"
        [[rows]]
        torch = "2.8"
        source = "https://x.org"
        checked = 2026-12-02
        """)
    )
    _, errors = lint(tmp_path)
    assert [e.message for e in errors] == ["torch '2.8' is not in a.torch"]


def test_bundled_matrices_lint_clean():
    ms, errors = lint()
    assert errors == [], "\n".join(str(e) for e in errors)
    assert ms.names(), "no bundled matrices"
    for name in ms.names():
        table = ms.table(name)
        assert table.rows, f"{name} has no rows"
        assert all(row["source"].startswith("https://") for row in table.rows)


def test_load_bundled_is_the_package_data():
    assert "cuda_driver" in load_bundled().names()


def test_checked_dates_in_the_future_are_rejected():
    errors = _errors(GOOD_ROW.replace("checked = 2026-12-02", "checked = 2999-01-01"))
    assert any("is in the future" in e for e in errors), errors
