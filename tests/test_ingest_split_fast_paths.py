"""The ingest fast paths give what the plain ones gave: the splitter's interesting-line search that
jumps from line end to line end, free text appended by index (no copy or count of the rest), and
the driver's line shapes with the digits dropped from the UTF-8 bytes."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from envdoctor.ingest import splitting
from envdoctor.ingest.driver import line_shapes
from envdoctor.ingest.splitting import Part, Splitter, split_blocks

LINES = [
    "plain log line {n}",
    "",
    "   indented {n}",
    "```",
    "```python",
    "~~~",
    "Traceback (most recent call last):",
    '  File "/srv/app.py", line {n}, in <module>',
    "RuntimeError: CUDA error {n}",
    "Collecting environment information...",
    "PyTorch version: 2.5.1+cu124",
    "Versions of relevant libraries:",
    "[pip3] torch==2.5.1",
    "+-----------------------------------------------------------------------------+",
    "| NVIDIA-SMI 550.54.14    Driver Version: 550.54.14    CUDA Version: 12.4     |",
    "{",
    '  "key": {n}',
    "}",
    "[",
    "]",
    '[{"a": {n}}]',
    '<?xml version="1.0" ?>',
    "<nvidia_smi_log>",
    "</nvidia_smi_log>",
    "==============NVSMI LOG==============",
    "## envdoctor triage report",
    "Thu Dec  3 12:00:00 2026",
    "a long line " + "x" * 300,
]


def _reference_append_text(self, text: str) -> Iterator[Part]:  # noqa: ANN001 - as it was
    rest: str | None = text
    while rest is not None:
        text = rest
        room = splitting.TEXT_PART_CHARS - self.chars
        cut = -1
        if len(text) > room:
            cut = text.rfind("\n", 0, max(room, 1))
            if cut <= 0:
                cut = text.find("\n")
        allowed = max(splitting.TEXT_PART_LINES - self._text_lines, 1)
        if text.count("\n", 0, cut if cut >= 0 else len(text)) >= allowed:
            cut = -1
            for _ in range(allowed):
                cut = text.find("\n", cut + 1)
        if cut < 0:
            piece, rest = text, None
        else:
            piece, rest = text[:cut], text[cut + 1 :]
        count = piece.count("\n") + 1
        self.line_no += count
        self.part_last = self.line_no
        self.lines.append(piece)
        self.chars += len(piece) + 1
        self._text_lines += count
        if self.chars >= splitting.TEXT_PART_CHARS or self._text_lines >= splitting.TEXT_PART_LINES:
            yield from self._flush()


def _reference_next_interesting(block: str, position: int) -> int:
    found = splitting._INTERESTING.search(block, position)
    return found.start() if found else -1


def _text(rng: random.Random, lines: int) -> str:
    out = []
    for n in range(lines):
        if rng.random() < 0.5:
            out.append(LINES[0].format(n=n))
        elif rng.random() < 0.3:
            out.append("")
        else:
            out.append(rng.choice(LINES).replace("{n}", str(n)))
    return "\n".join(out)


def _blocks(text: str, rng: random.Random) -> list[str]:
    """The text cut at random line ends, as the decoder hands it over."""
    lines = text.split("\n")
    blocks, start = [], 0
    while start < len(lines):
        end = start + rng.randint(1, 400)
        blocks.append("\n".join(lines[start:end]))
        start = end
    return blocks


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize(("part_lines", "part_chars"), [(2000, 1024 * 1024), (37, 900), (5, 64)])
def test_fast_paths_give_the_same_parts(monkeypatch, seed, part_lines, part_chars):
    monkeypatch.setattr(splitting, "TEXT_PART_LINES", part_lines)
    monkeypatch.setattr(splitting, "TEXT_PART_CHARS", part_chars)
    rng = random.Random(seed)
    text = _text(rng, 3000)
    blocks = _blocks(text, rng)
    fast = list(split_blocks(blocks))
    monkeypatch.setattr(Splitter, "_append_text", _reference_append_text)
    monkeypatch.setattr(splitting, "_next_interesting", _reference_next_interesting)
    slow = list(split_blocks(blocks))
    assert fast == slow


@pytest.mark.parametrize("seed", range(20))
def test_next_interesting_finds_what_the_line_search_finds(seed):
    rng = random.Random(seed)
    block = _text(rng, 200)
    starts = [0] + [i + 1 for i, ch in enumerate(block) if ch == "\n"]
    for position in [*starts[:: max(1, len(starts) // 40)], len(block)]:
        assert splitting._next_interesting(block, position) == _reference_next_interesting(
            block, position
        )


def test_nth_newline():
    text = "a\nb\n\nc"
    assert splitting._nth_newline(text, 0, 1, len(text)) == 1
    assert splitting._nth_newline(text, 0, 3, len(text)) == 4
    assert splitting._nth_newline(text, 0, 4, len(text)) == -1
    assert splitting._nth_newline(text, 2, 2, len(text)) == 4
    assert splitting._nth_newline(text, 0, 3, 4) == -1  # the third is not before index 4
    assert splitting._nth_newline(text, 3, 1, len(text)) == 3  # a line end right at the start


@pytest.mark.parametrize("part_lines", [1, 2, 3])
@pytest.mark.parametrize("text", ["one\n\ntwo\n\n\nthree", "\n\n\na\n\nb\n", "a\n" * 7])
def test_empty_lines_at_a_part_limit(monkeypatch, part_lines, text):
    monkeypatch.setattr(splitting, "TEXT_PART_LINES", part_lines)
    blocks = [text, "\nafter an empty line"]  # the second block begins with an empty line
    fast = list(split_blocks(blocks))
    monkeypatch.setattr(Splitter, "_append_text", _reference_append_text)
    assert fast == list(split_blocks(blocks))


@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 64 * 1024])
def test_nth_newline_across_chunks(monkeypatch, chunk):
    monkeypatch.setattr(splitting, "_NTH_CHUNK", chunk)
    rng = random.Random(chunk)
    text = "".join(rng.choice("ab\n") for _ in range(300))
    ends = [i for i, ch in enumerate(text) if ch == "\n"]
    for start in (0, 1, 17, 150, 299, 300):
        after = [i for i in ends if i >= start]
        for n in (1, 2, 5, 40, 200):
            for before in (start, start + 30, len(text)):
                want = after[n - 1] if len(after) >= n and after[n - 1] < before else -1
                assert splitting._nth_newline(text, start, n, before) == want, (start, n, before)


def test_line_shapes_drop_exactly_the_ascii_digits():
    rng = random.Random(5)
    alphabet = (
        "ab 09\n٣\u4e00\ud800\U0001f600x7"  # an Arabic-Indic digit stays, as does a lone surrogate
    )
    for _ in range(200):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60)))
        drop = str.maketrans("", "", "0123456789")
        assert line_shapes(text) == "\n".join(dict.fromkeys(text.translate(drop).split("\n")))
