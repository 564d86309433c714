"""The corpus scorer's strict hit, and the case base's origin (training cases only)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import bench_scripts
import tomllib

REPO = Path(__file__).resolve().parent.parent


def _module(name: str) -> Any:
    return bench_scripts.load(name)


def _case(scorer: Any, **header: str) -> Any:
    return scorer.Case(Path("x.txt"), dict(header), "body", "train")


def test_strict_hit_needs_the_keywords_in_that_findings_fixes() -> None:
    scorer = _module("triage_corpus_score")
    case = _case(scorer, expected="a.cause", also="b.cause", keywords="cu128|12.8; index-url")
    result = scorer.Result(
        case,
        ["other.id", "a.cause", "b.cause"],
        ["pip install --index-url x/cu128", "install cu128", "pip install --index-url .../cu128"],
    )
    assert result.position == 2  # loose: the expected id is second
    assert result.strict_position == 3  # a.cause's fixes lack index-url; b.cause (also) has both


def test_case_without_keywords_is_strict_when_loose() -> None:
    scorer = _module("triage_corpus_score")
    result = scorer.Result(_case(scorer, expected="a.cause"), ["a.cause"], ["anything"])
    assert result.strict_position == result.position == 1


def test_title_view_puts_the_title_above_a_body_that_lacks_it() -> None:
    scorer = _module("triage_corpus_score")
    titled = _case(scorer, title="AssertionError: Torch not compiled with CUDA enabled")
    assert scorer.with_title(titled).body == (
        "AssertionError: Torch not compiled with CUDA enabled\nbody"
    )
    assert titled.body == "body"  # the case itself is unchanged
    holds = scorer.Case(Path("x.txt"), {"title": "CUDA Error"}, "log\ncuda error: x", "train")
    assert scorer.with_title(holds).body == "log\ncuda error: x"  # already in the body
    assert scorer.with_title(_case(scorer)).body == "body"  # no title


def test_no_match_counts_only_problem_reports() -> None:
    scorer = _module("triage_corpus_score")
    results = [
        scorer.Result(_case(scorer, expected="a.cause"), ["triage.no-signature-matched"], [""]),
        scorer.Result(_case(scorer, expected="a.cause"), ["a.cause"], [""]),
    ]
    assert scorer.figures(results)["no_match_share"] == 0.5


def test_case_base_holds_training_cases_only() -> None:
    split = _module("corpus_split")
    scorer = _module("triage_corpus_score")
    legacy = {c.header.get("url") for c in scorer.load_corpus(split="legacy")}
    table = tomllib.loads((REPO / "matrices" / "triage_cases.toml").read_text(encoding="utf-8"))
    rows = table["rows"]
    assert len(rows) >= 100
    for row in rows:
        # a thread of the frozen test split never enters the case base (legacy cases predate it)
        assert row["source"] in legacy or not split.is_test(row["source"]), row["source"]


def test_uncited_leaves_out_the_cases_whose_thread_a_signature_cites() -> None:
    """`--uncited`: the cases no signature was written on (by the threads the signature files
    cite), compared without fragment, query, trailing slash or case."""
    scorer = _module("triage_corpus_score")
    cited = scorer.cited_threads()
    # checks/signatures/jetson.toml cites it among its sources
    assert "https://github.com/paddlepaddle/paddleocr/issues/8326" in cited
    kept = _case(scorer, url="https://example.org/forum/t/1")
    citing = _case(scorer, url="https://github.com/PaddlePaddle/PaddleOCR/issues/8326/#top")
    assert scorer.uncited([kept, citing], cited) == [kept]
    training = scorer.load_corpus(scorer.CORPUS, "train")
    left = scorer.uncited(training, cited)
    assert 0 < len(left) < len(training)
