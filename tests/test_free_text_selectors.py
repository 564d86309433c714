"""The free-text reader's selectors: the keyword regex (only the words that hold no other word)
finds exactly the lines the trie of every keyword finds, and the deep selector, compiled on first
use with the head lines' anchors noted then, leaves every fact as an eager one did."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from envdoctor.ingest import free_text
from envdoctor.triage_engine.loader import anchors, match_anchors

CORPUS = Path(__file__).resolve().parent / "triage_corpus"


def _words() -> list[str]:
    vocabulary = set(free_text.GENERIC_KEYWORDS) | set(free_text.FACT_KEYWORDS) | anchors()
    return sorted(w for w in vocabulary if w)


def _corpus_lines() -> list[str]:
    paths = [*sorted((CORPUS / "train").glob("*.txt")), *sorted(CORPUS.glob("[0-9]*.txt"))]
    return [line.lower() for p in paths for line in p.read_text(encoding="utf-8").split("\n")]


def test_the_keyword_regex_finds_the_lines_the_full_trie_finds():
    words = _words()
    full = re.compile(free_text._trie_regex(words))
    short = re.compile(free_text._keyword_regex(words))
    rng = random.Random(3)
    lines = _corpus_lines()
    lines += [" ".join(rng.sample(words, 2)) for _ in range(500)]  # words side by side
    lines += [w[1:] + " " + w[:-1] for w in words]  # near misses
    assert len(short.pattern) < len(full.pattern) / 2
    for line in lines:
        assert bool(full.search(line)) == bool(short.search(line)), line


def test_every_dropped_keyword_holds_a_kept_one():
    words = _words()
    kept = set(re.compile(free_text._keyword_regex(words)).findall("\n".join(words)))
    assert kept and all(any(k in w for k in kept) for w in words)


def _read(text: str) -> dict:
    collector = free_text.collector()
    position = 0
    while True:  # parts of whole lines, as the driver feeds them
        end = text.find("\n", position + 50_000)
        if end < 0:
            collector.feed(text[position:])
            break
        collector.feed(text[position:end])
        position = end + 1
    (group,) = collector.groups()
    selector = collector.anchor_selector  # compiles it (if still pending) and notes the head
    state = (collector.seen_anchors, collector.newly_seen, selector is None)
    return {**group.data, "state": state}


@pytest.mark.parametrize("lines", [30, 450, 3000, 9000])
def test_a_deep_selector_compiled_on_first_use_changes_nothing(monkeypatch, lines):
    rng = random.Random(lines)
    pool = [line for line in _corpus_lines() if line.strip()]
    joined = "\n".join(pool)
    rare = next(a for a in sorted(match_anchors(), reverse=True) if a not in joined)
    # the first notable line brings an anchor no other line has
    text = "\n".join([f"note: {rare}", *(rng.choice(pool) for _ in range(lines))])
    lazy = _read(text)
    monkeypatch.setattr(free_text, "PENDING_NOTE_CHARS", -1)  # compiled on the first head line
    assert _read(text) == lazy


def _read_all(text: str) -> dict:
    collector = free_text.collector()
    collector.feed(text)
    (group,) = collector.groups()
    return group.data


@pytest.mark.parametrize("seed", range(4))
def test_the_python_keyword_finder_keeps_the_lines_the_regex_keeps(monkeypatch, seed):
    rng = random.Random(seed)
    pool = _corpus_lines()
    words = _words()
    texts = [
        "\n".join(rng.choice(pool) for _ in range(rng.randint(1, 300))),
        "\n".join(rng.choice(words)[1:] + " x " + rng.choice(words)[:-1] for _ in range(200)),
        "\n".join(rng.choice([*pool[:50], "İstanbul error", "ok"]) for _ in range(100)),
    ]
    assert free_text._keyword_finder() is not None  # else both reads below use the regex
    monkeypatch.setattr(free_text, "SMALL_INPUT_CHARS", 1 << 40)  # always the finder
    found = [_read_all(t) for t in texts]
    monkeypatch.setattr(free_text, "SMALL_INPUT_CHARS", -1)  # always the regex
    assert [_read_all(t) for t in texts] == found
    assert any(f["lines"] for f in found)


def test_the_keyword_finder_finds_the_first_keyword():
    finder = free_text._KeywordFinder(("error", "rtx", "报错"))
    assert finder.first("no problem here") == -1
    assert finder.first("an error and rtx") == 3
    assert finder.first("an error and rtx", 4) == 13
    assert finder.first("出现报错") == 2
    assert finder.first("rt") == -1


def test_the_keyword_finder_finds_a_one_character_keyword():
    # the vocabulary has one-character Chinese counters ("两台", "四张卡"): they once made the
    # finder give up, so every short paste compiled the whole keyword regex
    finder = free_text._KeywordFinder(("error", "台"))
    assert finder.first("两台机器") == 1
    assert finder.first("机器两台") == 3  # the last character too
    assert finder.first("an error, 两台", 4) == 11
    assert finder.first("机器") == -1
