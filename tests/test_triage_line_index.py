"""patterns.LineIndex: the lines holding one of a pattern's anchors, found with str.find on the
joined lines, are exactly those a test of every line finds (plus, harmlessly, a line where an
anchor only spans a line end); the first line a pattern matches is the one it always was."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from envdoctor.triage_engine.loader import DATA
from envdoctor.triage_engine.patterns import LineIndex

CORPUS = Path(__file__).resolve().parent / "triage_corpus"


def _brute(lowered: list[str], anchors: list[str]) -> list[int]:
    return [i for i, line in enumerate(lowered) if any(a in line for a in anchors)]


@pytest.mark.parametrize("seed", range(30))
def test_lines_with_matches_a_test_of_every_line(seed):
    rng = random.Random(seed)
    alphabet = "ab c\u00e9"
    lowered = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12))) for _ in range(40)]
    index = LineIndex(lowered)
    for _ in range(20):
        anchors = ["".join(rng.choice("abc ") for _ in range(rng.randint(1, 3))) for _ in range(3)]
        got = list(index.lines_with(anchors))
        assert got == sorted(set(got))  # in order, each line once
        assert got == _brute(lowered, anchors)  # no anchor holds a line end here


def test_an_anchor_across_a_line_end_is_checked_by_the_pattern():
    index = LineIndex(["no kern", "el image"])
    assert list(index.lines_with(["kern\nel"])) == [0]  # the pattern's search rules it out
    assert list(index.lines_with(["kernel"])) == []


def test_no_lines():
    assert list(LineIndex([]).lines_with(["error"])) == []


def test_the_first_matching_line_of_every_signature_pattern_is_unchanged():
    paths = sorted((CORPUS / "train").glob("*.txt"))[:60]
    lines = [line for p in paths for line in p.read_text(encoding="utf-8").split("\n")][:3000]
    lowered = [line.lower() for line in lines]
    index = LineIndex(lowered)
    for signature in DATA.signatures:
        for pattern in (*signature.match, *signature.capture):
            brute = next(
                (i for i, (line, low) in enumerate(zip(lines, lowered, strict=True))
                 if pattern.search(line, low)),
                None,
            )  # fmt: skip
            fast = next(
                (i for i in index.lines_with(pattern.anchors)
                 if pattern.search(lines[i], lowered[i])),
                None,
            )  # fmt: skip
            assert fast == brute, pattern.text
