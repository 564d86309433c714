"""The terminal view's layout (`envdoctor.render.text_layout`): display cells, wrapping under an
indentation, folding, cutting one line with an ellipsis, and colour as ANSI SGR codes."""

from __future__ import annotations

import pytest

from envdoctor.render.text_layout import cell_len, fit_cells, one_line, wrapped


@pytest.mark.parametrize(
    ("text", "cells"),
    [
        ("abc", 3),
        ("驱动版本", 8),  # wide
        ("（全角）", 8),  # full-width
        ("✗ → • …", 7),  # symbols one cell each
        ("e\u0301", 1),  # a combining accent takes none
        ("a\x1bb", 2),  # nor a control character
        ("", 0),
    ],
)
def test_cell_len(text, cells):
    assert cell_len(text) == cells


def test_fit_cells_never_splits_a_wide_character():
    assert fit_cells("驱动版本", 5) == "驱动"
    assert fit_cells("abc", 10) == "abc"


def test_words_wrap_under_the_indentation_and_the_spaces_at_a_break_go():
    lines = wrapped([("install the current NVIDIA driver and reboot", None)], 20, indent=4)
    assert lines == ["    install the", "    current NVIDIA", "    driver and", "    reboot"]
    assert all(cell_len(line) <= 20 for line in lines)


def test_a_word_wider_than_the_line_is_folded_on_lines_of_its_own():
    url = "https://download.pytorch.org/whl/cu128"
    lines = wrapped([("see " + url + " now", None)], 14)
    assert lines[0] == "see"
    assert "".join(lines[1:-1]) + lines[-1].split(" ")[0] == url
    assert all(cell_len(line) <= 14 for line in lines)
    assert lines[-1].endswith(" now")


def test_chinese_text_wraps_by_cells():
    text = "驱动版本太低，请升级到 580 或更新的驱动"
    lines = wrapped([(text, None)], 12)
    assert all(cell_len(line) <= 12 for line in lines)
    assert "".join(line.replace(" ", "") for line in lines) == text.replace(" ", "")


def test_the_text_s_own_line_breaks_are_kept():
    assert wrapped([("first\nsecond", None)], 40, indent=2) == ["  first", "  second"]


def test_one_line_is_cut_with_an_ellipsis_only_when_clipped():
    parts = [("[✗] ", None), ("Python and ML packages", "bold"), (" torch 2.7.1+cu128", None)]
    clipped = one_line(parts, 20, clip=True)
    assert clipped.endswith("…") and cell_len(clipped) == 20
    assert one_line(parts, 20, clip=False) == "[✗] Python and ML packages torch 2.7.1+cu128"


def test_colour_is_sgr_codes_and_plain_has_none():
    parts = [("✗", "bold red"), (" ", None), ("title", "bold"), ("  (low confidence)", "dim")]
    plain = wrapped(parts, 80)
    assert plain == ["✗ title  (low confidence)"] and "\x1b" not in plain[0]
    coloured = wrapped(parts, 80, color=True)[0]
    assert coloured == "\x1b[1;31m✗\x1b[0m \x1b[1mtitle\x1b[0m\x1b[2m  (low confidence)\x1b[0m"


def test_a_style_spanning_a_break_is_closed_and_reopened_per_line():
    lines = wrapped([("alpha beta gamma delta", "cyan")], 12, color=True)
    assert len(lines) == 2
    assert all(line.startswith("\x1b[36m") and line.endswith("\x1b[0m") for line in lines)


def test_cursor_controls_in_text_are_dropped():
    assert wrapped([("a\rb\x08c\x07d", None)], 40) == ["abcd"]


def test_a_very_long_word_folds_in_one_pass():
    """A pasted line with no space (a base64 blob, a minified URL) folds in time linear in its
    length: 200 000 characters at 80 columns are 2 500 lines, each at most 80 cells."""
    lines = wrapped([("x" * 200_000, None)], 80)
    assert len(lines) == 2_500 and all(cell_len(line) == 80 for line in lines)
