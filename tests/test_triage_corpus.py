"""Triage on the corpus of real reports (tests/triage_corpus): the fix the thread confirmed must be
in the top three findings for at least 90% of the legacy cases (`NNN-slug.txt`: the original set and
the held-out set, `#! set: holdout`), and first for at least 75%. The harvested train/ and test/
cases are scored by test_triage_frozen_split.py."""

from __future__ import annotations

from pathlib import Path

import bench_scripts
import pytest

REPO = Path(__file__).resolve().parent.parent


def _scorer():
    return bench_scripts.load("triage_corpus_score")


@pytest.fixture(scope="module")
def results():
    scorer = _scorer()
    cases = scorer.load_corpus(split="legacy")
    assert len(cases) >= 40, "the corpus must hold at least 40 real reports"
    return scorer, scorer.score(cases)


def test_every_case_has_a_url_an_expected_id_and_a_confirmed_fix(results) -> None:  # noqa: ANN001
    _, scored = results
    for result in scored:
        header = result.case.header
        assert header.get("url", "").startswith("https://"), result.case.path.name
        assert header.get("expected") and header.get("fix"), result.case.path.name
        assert result.case.body.strip(), result.case.path.name


def test_confirmed_fix_ranks_high_enough(results, capsys) -> None:  # noqa: ANN001
    scorer, scored = results
    figures = scorer.figures(scored)
    misses = [
        f"{r.case.path.name}: expected {r.case.expected}, got {r.ids[:3]}"
        for r in scored
        if r.position is None or r.position > 3
    ]
    with capsys.disabled():
        print(
            f"\ntriage corpus: {figures['cases']} cases, first {figures['first']} "
            f"({figures['first_share']:.0%}), top 3 {figures['top3']} ({figures['top3_share']:.0%})"
        )
        for name in sorted({r.case.set for r in scored}):
            part = scorer.figures([r for r in scored if r.case.set == name])
            print(
                f"  set {name}: {part['cases']} cases, first {part['first']}, top 3 {part['top3']}"
            )
    assert figures["top3_share"] >= 0.90, "\n".join(misses)
    assert figures["first_share"] >= 0.75, "\n".join(misses)


def test_each_case_triages_quickly(results) -> None:  # noqa: ANN001
    _, scored = results
    slow = [(r.case.path.name, round(r.seconds, 2)) for r in scored if r.seconds > 2.0]
    assert not slow, slow
