#!/usr/bin/env python3
"""How well the data-driven part of triage (the case base of similar confirmed cases) carries to
reports it has not seen, measured on the TRAINING cases only (the frozen test split is never
opened): k-fold cross-validation where each fold's case base is rebuilt from the other folds
(its words chosen, and weighed, without the held-out cases).

- `--by thread` (default): folds by thread URL; `--by repo`: folds by repository (GitHub
  owner/name, else the host), so no project's threads are on both sides: the stricter view, close
  to a fresh sample from projects the corpus has never met.
- Figures: the scorer's (strict / loose first and top 3, "no signature matched") with each fold's
  case base; the case base alone: how often the cause it supports best (top 3) is the
  confirmed one; and the suggestions triage showed in its top 3 (causes similar cases suggested,
  `origin` "case:..."): how many, and how many of them were the confirmed cause. A suggestion
  that is wrong costs nothing in the hit rates but is noise on the user's screen: the
  thresholds are chosen to cut those without losing hits.

    python bench/casebase_cv.py [--folds 5] [--by thread|repo] [--json]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

import build_case_base  # noqa: E402
import triage_corpus_score as scorer  # noqa: E402

_GITHUB = re.compile(r"https?://(?:www\.)?github\.com/([^/#?]+/[^/#?]+)", re.IGNORECASE)


def group_of(url: str, by: str) -> str:
    """The unit kept on one side of a split: the thread, or its repository (host elsewhere)."""
    if by == "thread":
        return url
    found = _GITHUB.match(url)
    if found:
        return found.group(1).lower()
    return re.sub(r"^https?://", "", url).split("/", 1)[0].lower()


def fold_of(group: str, folds: int) -> int:
    """A stable fold number for a group (a hash, so reruns and machines agree)."""
    return int(hashlib.sha256(group.encode("utf-8")).hexdigest(), 16) % folds


def case_base_only(cases: list[Any], rows: list[dict[str, Any]]) -> dict[str, list[int]]:
    """Per language (and "all"): [cases, whose confirmed cause the case base supports best, in
    its top 3, with support at the suggestion threshold] for held-out cases against a case base."""
    from envdoctor.ingest import free_text
    from envdoctor.triage_engine.casebase import SUGGEST_SUPPORT, cause_support

    counts: dict[str, list[int]] = {}
    for case in cases:
        groups = free_text.read(case.body)
        lines = [str(x) for x in (groups[0].data.get("lines", []) if groups else [])]
        ranked = cause_support(lines, rows)
        causes = [cause for _, cause, _ in ranked[:3]]
        hit = (
            1,
            int(bool(causes) and causes[0] in case.accepted),
            int(any(c in case.accepted for c in causes)),
            int(bool(ranked) and ranked[0][0] >= SUGGEST_SUPPORT),
        )
        for key in ("all", case.lang):
            counts[key] = [a + b for a, b in zip(counts.get(key, [0, 0, 0, 0]), hit, strict=True)]
    return counts


def _recording_suggestions(shown: list[list[str]]) -> Any:
    """`casebase.with_similar_cases` (the last step of a triage, on the ranked findings) that
    also appends the ids of the similar cases' suggestions in the top 3 to `shown`."""
    from envdoctor.triage_engine import casebase

    original = casebase.with_similar_cases

    def recording(findings: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        shown.append(
            [f.id for f in findings[:3] if str(getattr(f, "origin", "")).startswith("case:")]
        )
        return original(findings, *args, **kwargs)

    return recording


def cross_validate(folds: int, by: str) -> dict[str, Any]:
    """The scorer's figures over all folds (each case triaged once, with the case base of the
    other folds) and the case base's own hit rates."""
    from envdoctor.triage_engine import casebase

    cases = build_case_base.training_cases()
    parts: list[list[Any]] = [[] for _ in range(folds)]
    for case in cases:
        parts[fold_of(group_of(case.header.get("url", ""), by), folds)].append(case)
    results: list[Any] = []
    counts: dict[str, list[int]] = {}
    shown: list[list[str]] = []
    original, showing = casebase._rows, casebase.with_similar_cases
    casebase.with_similar_cases = _recording_suggestions(shown)  # type: ignore[assignment]
    try:
        for number, held_out in enumerate(parts):
            if not held_out:
                continue
            rest = [c for i, part in enumerate(parts) if i != number for c in part]
            rows = build_case_base.case_rows(rest)
            casebase._rows = lambda matrices, rows=rows: rows  # type: ignore[assignment]
            results += scorer.score(held_out)
            for key, hit in case_base_only(held_out, rows).items():
                counts[key] = [a + b for a, b in zip(counts.get(key, [0] * 4), hit, strict=True)]
    finally:
        casebase._rows = original  # type: ignore[assignment]
        casebase.with_similar_cases = showing  # type: ignore[assignment]
    figures = scorer.summary(results)
    pairs = list(zip(results, shown, strict=True))  # one triage per case, in order
    figures["suggestions"] = {
        "shown": sum(len(ids) for _, ids in pairs),
        "right": sum(1 for r, ids in pairs for i in ids if i in r.case.accepted),
        "cases_with": sum(1 for _, ids in pairs if ids),
        "cases_all_wrong": sum(
            1 for r, ids in pairs if ids and not any(i in r.case.accepted for i in ids)
        ),
    }
    figures["case_base_only"] = {
        key: {
            "cases": n,
            "first_share": first / n,
            "top3_share": top3 / n,
            "supported_share": supported / n,
        }
        for key, (n, first, top3, supported) in sorted(counts.items())
        if n
    }
    figures["folds"], figures["by"] = folds, by
    return figures


def main(argv: list[str] | None = None) -> int:
    """Print the cross-validated figures (per language too)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--by", choices=("thread", "repo"), default="thread")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = cross_validate(max(2, args.folds), args.by)
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    for name, part in figures["languages"].items():
        print(f"language {name:<8} {scorer._line(part)}")
    print(f"{args.folds}-fold by {args.by:<6} {scorer._line(figures)}")
    shown = figures["suggestions"]
    print(
        f"suggestions in the top 3: {shown['shown']} in {shown['cases_with']} cases, "
        f"{shown['right']} of them the confirmed cause; {shown['cases_all_wrong']} cases with "
        "only wrong ones"
    )
    for key, only in figures["case_base_only"].items():
        print(
            f"case base alone, {key:<4} {only['cases']:>4} cases: confirmed cause first "
            f"{only['first_share']:.0%}, top 3 {only['top3_share']:.0%}; support at the "
            f"suggestion threshold {only['supported_share']:.0%}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
