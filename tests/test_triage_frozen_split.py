"""Triage on the frozen test split of the corpus (tests/triage_corpus/test/, fixed by
bench/corpus_split.py before any case existed, never read while changing triage). Only aggregate
figures are computed and printed: no case of the split is named.

Issue #20 asks, with the strict hit (the expected id in the top 3 AND its fixes naming the fix
keywords), for at least 85% top 3 and 70% first, Chinese within five points of English, and "no
signature matched" on at most 10% of the problem reports. Measured at the end of round 6 of that
work (2026-12-03; README, "Triage accuracy"), on 221 cases: 57.0% strict top 3, 50.7% strict
first, 4.1% no match; English 56.9%, Chinese 57.4% strict top 3 (0.5 points apart). With the 7
cases of round 7's first harvest (228, the same code): 55.7%, 49.1%, 3.9%; 55.1% / 57.1%. At the
end of round 7 (2026-12-04), on 242 cases: 57.0%, 50.0%, 3.7%; English 55.6%, Chinese 60.3% (4.7
points apart; the round's starting code on the same 242: 56.6%, 49.6%, 3.7%). Round 20's harvest
added 20 cases (placed by the keyed hash before any code changed): on that round's starting code
(17667f0) the 301 cases score 58.1% (175), 51.5% (155), 4.0% (12), against 59.4%, 53.0%, 3.9% on
the 281 before, so the floors below were re-based to the 301; at the end of round 20: 57.8% (174),
51.8% (156), 4.0% (12): one top-3 place lost, one first place gained (the 281: 167 -> 166 and
149 -> 149; the 20 new: 8 -> 8 and 6 -> 7), so the top-3 floor holds the end's level. So:
- the no-match and the five-point requirements are met and asserted as the issue states them;
- the 85% / 70% requirements are asserted as the issue states them and marked as expected
  failures (strict: the day they pass, pytest fails until the marker is removed);
- the measured level is held as a floor (a ceiling for no match), so no change slides back.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import bench_scripts
import pytest

REPO = Path(__file__).resolve().parent.parent
MIN_CASES = 30


def _scorer() -> Any:
    return bench_scripts.load("triage_corpus_score")


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


# the level measured at the end of the work (README), less a small margin for ties
# round 36 end: 322 / 282 / 46 of 842 (round 35's 809: 311 / 272 / 43 -> 311 / 273 / 45, moved by
# the intakes' case-base rebuilds; its 33 new cases scored 10 / 8 / 1 on the code at their intakes)
FLOOR_STRICT_TOP3 = 0.361  # round 40 end: 350 of 969, 36.12% (round 39 end: 342 of 935)
FLOOR_STRICT_FIRST = 0.317  # round 40 end: 308 of 969, 31.79% (round 39 end: 301 of 935)
CEILING_NO_MATCH = 0.053  # round 40 end: 51 of 969, 5.26% (round 39 end: 48 of 935)
NOT_MET = "issue #20's target is not met on the frozen split (README, Triage accuracy)"


def _gap(figures: dict[str, Any]) -> float:
    langs = figures["languages"]
    assert "zh" in langs and "en" in langs, _show(figures)
    return float(langs["en"]["strict_top3_share"] - langs["zh"]["strict_top3_share"])


def test_strict_top3_and_first_stay_at_the_measured_level(figures: dict[str, Any]) -> None:
    assert figures["strict_top3_share"] >= FLOOR_STRICT_TOP3, _show(figures)
    assert figures["strict_first_share"] >= FLOOR_STRICT_FIRST, _show(figures)


def test_no_match_on_at_most_ten_percent_of_problem_reports(figures: dict[str, Any]) -> None:
    assert figures["no_match_share"] <= 0.10, _show(figures)
    assert figures["no_match_share"] <= CEILING_NO_MATCH, _show(figures)


@pytest.mark.xfail(strict=True, reason=NOT_MET)
def test_issue_target_strict_top3_85_and_first_70(figures: dict[str, Any]) -> None:
    assert figures["strict_top3_share"] >= 0.85, _show(figures)
    assert figures["strict_first_share"] >= 0.70, _show(figures)


def test_issue_target_chinese_within_five_points_of_english(figures: dict[str, Any]) -> None:
    assert _gap(figures) <= 0.05, _show(figures)


def test_the_split_is_where_the_keyed_hash_put_it() -> None:
    """No case was moved by hand between train/ and test/."""
    import subprocess

    check = subprocess.run(
        [sys.executable, str(REPO / "bench" / "corpus_split.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert check.returncode == 0, check.stderr
