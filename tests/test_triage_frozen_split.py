"""Triage on the frozen test split of the corpus (tests/triage_corpus/test/, fixed by
bench/corpus_split.py before any case existed, never read while changing triage): with the
strict hit (the expected id in the top 3 AND its fixes naming the fix keywords), issue #20 asks
for at least 85% top 3 and 70% first, Chinese within five points of English, and "no signature
matched" on at most 10% of the problem reports. Only aggregate figures are computed and printed:
no case of the split is named."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
SCORER = REPO / "bench" / "triage_corpus_score.py"
MIN_CASES = 30


def _scorer() -> Any:
    spec = importlib.util.spec_from_file_location("triage_corpus_score", SCORER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)
    spec.loader.exec_module(module)
    return sys.modules[spec.name]


@pytest.fixture(scope="module")
def figures() -> dict[str, Any]:
    scorer = _scorer()
    cases = scorer.load_corpus(split="test")
    if len(cases) < MIN_CASES:
        pytest.skip(f"the frozen test split holds {len(cases)} cases (< {MIN_CASES})")
    return scorer.summary(scorer.score(cases))


def _show(figures: dict[str, Any]) -> str:
    langs = ", ".join(
        f"{name} {part['strict_top3_share']:.0%} top 3 ({part['cases']})"
        for name, part in figures["languages"].items()
    )
    return (
        f"frozen test split: {figures['cases']} cases, strict first "
        f"{figures['strict_first_share']:.0%}, strict top 3 {figures['strict_top3_share']:.0%}, "
        f"no signature matched {figures['no_match_share']:.0%}; {langs}"
    )


def test_strict_top3_and_first(figures: dict[str, Any]) -> None:
    assert figures["strict_top3_share"] >= 0.85, _show(figures)
    assert figures["strict_first_share"] >= 0.70, _show(figures)


def test_chinese_within_five_points_of_english(figures: dict[str, Any]) -> None:
    langs = figures["languages"]
    assert "zh" in langs and "en" in langs, _show(figures)
    gap = langs["en"]["strict_top3_share"] - langs["zh"]["strict_top3_share"]
    assert gap <= 0.05, _show(figures)


def test_no_match_on_few_problem_reports(figures: dict[str, Any]) -> None:
    assert figures["no_match_share"] <= 0.10, _show(figures)
