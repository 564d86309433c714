"""A report in another language: the words people read translated, the ids, commands, URLs,
versions and facts left as they are. Renderers call this for what they show; what they embed for
machines (the JSON document) stays the original."""

from __future__ import annotations

from dataclasses import replace

from envdoctor.i18n import Translator
from envdoctor.model.findings import Evidence, Finding, Fix, RejectedFix
from envdoctor.model.report import Report

# evidence that quotes text as it was written (the user's paste, a confirmed case's note from its
# thread): translating it would put words in someone's mouth ("fixes the error" -> "the 个错误")
QUOTED_FACTS = ("pasted.", "similar.case")


def finding(item: Finding, tr: Translator) -> Finding:
    """`item` with its title, detail, evidence expectations and fix summaries translated."""
    return replace(
        item,
        title=tr(item.title),
        detail=tr(item.detail),
        evidence=tuple(
            Evidence(
                e.fact,
                e.actual if e.fact.startswith(QUOTED_FACTS) else tr(e.actual),
                None if e.expected is None else tr(e.expected),
            )
            for e in item.evidence
        ),
        fixes=tuple(fix(f, tr) for f in item.fixes),
        rejected_fixes=tuple(RejectedFix(tr(r.summary), tr(r.reason)) for r in item.rejected_fixes),
    )


def fix(item: Fix, tr: Translator) -> Fix:
    """`item` with its summary and stated assumptions translated (commands and URL kept)."""
    return replace(
        item, summary=tr(item.summary), assumptions=tuple(tr(a) for a in item.assumptions)
    )


def report(original: Report, tr: Translator) -> Report:
    """A copy of `original` whose findings and skip reasons read in `tr`'s language."""
    if not tr.active:
        return original
    return replace(
        original,
        findings=[finding(f, tr) for f in original.findings],
        skipped=[replace(s, reason=tr(s.reason)) for s in original.skipped],
    )
