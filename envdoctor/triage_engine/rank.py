"""Ranking for triage: one finding per id, causes above their symptoms, one consistent story.

- One finding per id: when a fact check and a signature report the same id, the fact-based
  finding is the base (its evidence is exact) and gains the signature's matched lines, fixes,
  score and origin (`merge_duplicates`).
- A cause keeps its symptoms folded under it. When two findings each claim to explain the other,
  the more severe stays on top (then the higher score): the other's claim is dropped.
- Findings that contradict each other (`conflicts` in signatures/_common.toml: "too new" and
  "too old" for one GPU) are not both shown: an established one (fact check, canonical line)
  stays over a guess from prose, then the one with the better score.
- Blocks are ordered by the best score in them (how telling the evidence is), then by the
  root's severity and confidence.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import replace

from envdoctor.model.findings import SEVERITY_ORDER, Finding, Fix, order
from envdoctor.model.snapshot import CONFIDENCE_ORDER

MAX_FIXES = 6


def with_fixes(
    fixes: Iterable[Fix],
    more: Iterable[Fix],
    skip: Collection[str] = (),
    limit: int | None = MAX_FIXES,
) -> list[Fix]:
    """`fixes`, then the fixes of `more` whose summary is new and not in `skip`, `limit` in all
    (None: no limit). The one way findings of one cause pool their fixes."""
    out = list(fixes)
    for fix in more:
        if limit is not None and len(out) >= limit:
            break
        if fix.summary not in skip and all(fix.summary != f.summary for f in out):
            out.append(fix)
    return out


def merge_duplicates(findings: Iterable[Finding]) -> list[Finding]:
    """One finding per id, in first-seen order. A fact-based finding is kept as the base; the
    other's evidence and fixes it lacks are added (never one either side's verifier rejected: the
    rejected fixes of both are kept); the higher severity, confidence and score win."""
    merged: dict[str, Finding] = {}
    for finding in findings:
        have = merged.get(finding.id)
        merged[finding.id] = finding if have is None else _merge(have, finding)
    return list(merged.values())


def _merge(a: Finding, b: Finding) -> Finding:
    base, other = (b, a) if a.from_signature and not b.from_signature else (a, b)
    evidence = list(base.evidence)
    for ev in other.evidence:
        if all((ev.fact, ev.actual) != (e.fact, e.actual) for e in evidence):
            evidence.append(ev)
    rejected = list(base.rejected_fixes)
    for gone in other.rejected_fixes:
        if all(gone.summary != r.summary for r in rejected):
            rejected.append(gone)
    # a fix one side's verifier rejected is not brought back by the other side
    fixes = with_fixes(base.fixes, other.fixes, skip={r.summary for r in rejected})
    severity = min((base.severity, other.severity), key=lambda s: SEVERITY_ORDER[s])
    confidence = min((base.confidence, other.confidence), key=lambda c: CONFIDENCE_ORDER[c])
    explains = tuple(dict.fromkeys(base.explains + other.explains))
    scored = max((a, b), key=lambda f: f.score or 0)
    return replace(
        base,
        evidence=tuple(evidence),
        fixes=tuple(fixes),
        rejected_fixes=tuple(rejected),
        severity=severity,
        confidence=confidence,
        explains=explains,
        explained_by=None,
        score=scored.score,
        origin=base.origin or other.origin,
    )


def _strength(finding: Finding) -> tuple[int, int]:
    """Higher is stronger: severity first, then score."""
    return (-SEVERITY_ORDER[finding.severity], finding.score or 0)


def break_mutual_claims(findings: list[Finding]) -> list[Finding]:
    """When A explains B and B explains A, the weaker one (less severe, then lower score) loses
    its claim, so the more severe finding stays on top."""
    by_id = {f.id: f for f in findings}
    out = []
    for finding in findings:
        drop = {
            other
            for other in finding.explains
            if other in by_id
            and finding.id in by_id[other].explains
            and _strength(finding) < _strength(by_id[other])
        }
        out.append(replace(finding, explains=tuple(e for e in finding.explains if e not in drop)))
    return out


CANONICAL_SCORE = 45  # the lowest score of a finding reached by a canonical error line


def _guess(finding: Finding) -> bool:
    """Whether a finding was reached by prose or similar cases alone (no canonical line, no
    fact check): it yields to a finding the facts or an error line established."""
    drawn = finding.from_signature or (finding.origin or "").startswith("case:")
    return drawn and (finding.score or 0) < CANONICAL_SCORE


def drop_conflicts(findings: list[Finding], conflicts: Iterable[Iterable[str]]) -> list[Finding]:
    """Of findings that contradict each other, keep only one: an established finding (a fact
    check's, or a canonical line's) over a guess from prose, then the best-scoring."""
    present = {f.id: f for f in findings}
    dropped: set[str] = set()
    for group in conflicts:
        here = [present[i] for i in group if i in present]
        if len(here) > 1:
            keep = max(
                here,
                key=lambda f: (not _guess(f), f.score or 0, -SEVERITY_ORDER[f.severity]),
            )
            dropped |= {f.id for f in here if f is not keep}
    return [f for f in findings if f.id not in dropped]


def _evidence(finding: Finding) -> int:
    """How a finding was reached: 2 by a canonical line or a fact check, 1 by the paste's own
    phrasings alone (a guess), 0 by the words it shares with similar cases."""
    if (finding.origin or "").startswith("case:"):
        return 0
    return 1 if _guess(finding) else 2


def drop_weaker_claims(findings: list[Finding]) -> list[Finding]:
    """A cause folds only symptoms reached by evidence no stronger than its own: a guess from
    prose or similar cases that claims to explain an established finding would sit on top of
    better evidence (a prose "broke after the update" over nvidia-smi's canonical line; a
    similar case over the paste's own phrasing). Prose guesses still fold prose guesses
    ("显存被占用" folds a prose OOM); causes similar cases suggest fold nothing (they keep the
    order of their support)."""
    strength = {f.id: _evidence(f) for f in findings}
    out = []
    for finding in findings:
        own = strength[finding.id]
        kept = tuple(e for e in finding.explains if strength.get(e, -1) <= own) if own else ()
        out.append(finding if kept == finding.explains else replace(finding, explains=kept))
    return out


def rank_for_triage(
    findings: Iterable[Finding], conflicts: Iterable[Iterable[str]] = ()
) -> list[Finding]:
    """Deduplicated, consistent findings, causes first with their symptoms folded under them,
    blocks ordered by the best score in them."""
    unique = [replace(f, explained_by=None) for f in merge_duplicates(findings)]
    unique = break_mutual_claims(drop_weaker_claims(drop_conflicts(unique, conflicts)))
    blocks: list[list[Finding]] = []
    for finding in order(unique):
        if finding.explained_by is None or not blocks:
            blocks.append([finding])
        else:
            blocks[-1].append(finding)

    def key(block: list[Finding]) -> tuple[int, int, int, str]:
        root = block[0]
        score = max(f.score or 0 for f in block)
        return (-score, SEVERITY_ORDER[root.severity], CONFIDENCE_ORDER[root.confidence], root.id)

    return [f for block in sorted(blocks, key=key) for f in block]
