"""Lines of styled text for a terminal or a file: wrapped by display cells (a Chinese character
takes two), each style written as an ANSI SGR code when colour is on.

The terminal view needs only this: words wrapped under their indentation, an over-long word
folded, a one-line summary cut with "…", a few colours. rich did it before, and importing rich was
a tenth of a short triage's time; the layout rules below are rich's (a line breaks before the word
that does not fit, the spaces at a break are dropped, a word wider than the line is folded).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence

Part = tuple[str, str | None]  # a run of text and its style ("bold red"), None for none

_SGR = {
    "bold": "1",
    "dim": "2",
    "underline": "4",
    "red": "31",
    "green": "32",
    "yellow": "33",
    "magenta": "35",
    "cyan": "36",
}
_RESET = "\x1b[0m"
# control characters that would move the cursor or ring: dropped, as rich dropped them
_DROP = dict.fromkeys((7, 8, 11, 12, 13))
_ZERO_WIDTH = frozenset(("Mn", "Me", "Cf", "Cc"))


def cell_len(text: str) -> int:
    """How many terminal columns `text` takes (East Asian wide and full-width characters two,
    combining marks and control characters none)."""
    if text.isascii() and text.isprintable():
        return len(text)
    return sum(_char_cells(ch) for ch in text)


def _char_cells(ch: str) -> int:
    if ch.isascii():
        return 1 if ch.isprintable() else 0
    if unicodedata.category(ch) in _ZERO_WIDTH:
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def fit_cells(text: str, cells: int) -> str:
    """The longest start of `text` that takes at most `cells` columns."""
    used = 0
    for position, ch in enumerate(text):
        used += _char_cells(ch)
        if used > cells:
            return text[:position]
    return text


def wrapped(parts: Sequence[Part], width: int, indent: int = 0, color: bool = False) -> list[str]:
    """The parts as lines of at most `width` columns, each `indent` spaces in: the text's own
    line breaks kept, words wrapped, a word wider than the room folded."""
    room = max(1, width - indent)
    plain, spans = _flatten(parts)
    out: list[str] = []
    start = 0
    for piece in plain.split("\n"):
        for begin, end in _breaks(piece, room):
            text = piece[begin:end].rstrip(" ")
            out.append(" " * indent + _styled(text, start + begin, spans, color))
        start += len(piece) + 1
    return out


def one_line(
    parts: Sequence[Part], width: int, indent: int = 0, clip: bool = False, color: bool = False
) -> str:
    """The parts on one line, `indent` spaces in; with `clip`, cut to `width` columns, the last
    one an ellipsis."""
    plain, spans = _flatten(parts)
    plain = plain.replace("\n", " ")
    if clip and cell_len(plain) + indent > width:
        kept = fit_cells(plain, max(0, width - indent - 1))
        return " " * indent + _styled(kept, 0, spans, color) + "…"
    return " " * indent + _styled(plain, 0, spans, color)


def _flatten(parts: Iterable[Part]) -> tuple[str, list[tuple[int, int, str]]]:
    """The parts' text (tabs expanded, cursor controls dropped) and where each style applies."""
    texts: list[str] = []
    spans: list[tuple[int, int, str]] = []
    at = 0
    for text, style in parts:
        text = text.translate(_DROP).expandtabs(8)
        if style and text:
            spans.append((at, at + len(text), style))
        texts.append(text)
        at += len(text)
    return "".join(texts), spans


def _words(text: str) -> list[tuple[int, int]]:
    """(start, end) of each word with the spaces after it (the first with those before it)."""
    found: list[tuple[int, int]] = []
    position, size = 0, len(text)
    while position < size:
        start = position
        while position < size and text[position] == " ":
            position += 1
        while position < size and text[position] != " ":
            position += 1
        while position < size and text[position] == " ":
            position += 1
        found.append((start, position))
    return found


def _breaks(text: str, room: int) -> list[tuple[int, int]]:
    """(start, end) of each wrapped line of `text` (one line of its own: no line breaks)."""
    if cell_len(text) <= room:
        return [(0, len(text))]
    starts = [0]
    used = 0
    for start, end in _words(text):
        word = text[start:end]
        cells = cell_len(word.rstrip(" "))
        if cells <= room - used:
            used += cell_len(word)
            continue
        if cells > room:  # wider than a line: folded, starting on a line of its own
            if start:
                starts.append(start)
            used = 0
            stripped = start + len(word.rstrip(" "))
            for position in range(start, stripped):  # one pass: a long word costs its length
                width = _char_cells(text[position])
                if used and used + width > room:
                    starts.append(position)
                    used = 0
                used += width
            used += end - stripped  # the spaces after it
        else:
            starts.append(start)
            used = cell_len(word)
    ends = [*starts[1:], len(text)]
    return [(a, b) for a, b in zip(starts, ends, strict=True) if a < b or a == 0]


def _styled(text: str, start: int, spans: list[tuple[int, int, str]], color: bool) -> str:
    """`text` (found at `start` of the flattened parts) with its styles as SGR codes."""
    if not color or not spans:
        return text
    end = start + len(text)
    out: list[str] = []
    at = start
    for span_start, span_end, style in spans:
        if span_end <= at or span_start >= end:
            continue
        if span_start > at:
            out.append(text[at - start : span_start - start])
            at = span_start
        stop = min(span_end, end)
        codes = ";".join(_SGR[word] for word in style.split() if word in _SGR)
        segment = text[at - start : stop - start]
        out.append(f"\x1b[{codes}m{segment}{_RESET}" if codes and segment else segment)
        at = stop
    out.append(text[at - start :])
    return "".join(out)
