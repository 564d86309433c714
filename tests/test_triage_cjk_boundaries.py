"""English words written flush against Chinese characters ("在WSL2里面", "装了torch之后") are still
words: Python's `\\b` treats CJK characters as word characters, so signature, cue, condition and
prose patterns are compiled with re.ASCII, where only ASCII letters and digits make a word."""

from __future__ import annotations

from envdoctor.triage_engine.conditions import parse_condition
from envdoctor.triage_engine.model import Pattern
from envdoctor.triage_engine.prose import prose_facts


def test_prose_context_next_to_chinese() -> None:
    facts = prose_facts(["在WSL2里面跑的，用的conda环境"])
    assert facts.get("os.wsl") is True and facts.get("ctx.conda") is True


def test_signature_pattern_next_to_chinese() -> None:
    pattern = Pattern(r"\btorch\b", ("torch",))
    line = "装了torch之后还是用不了显卡"
    assert pattern.search(line, line.lower()) is not None
    # and a word inside a longer English word is still not a word
    assert Pattern(r"\btorch\b", ("torch",)).search("pytorchx", "pytorchx") is None


def test_text_condition_next_to_chinese() -> None:
    (clauses,) = parse_condition(r"text ~ '\bnvidia-driver-\d{3}\b'").alternatives
    (clause,) = clauses
    assert clause.pattern is not None and clause.pattern.search(
        "我在ubuntu里面装了nvidia-driver-535"
    )
