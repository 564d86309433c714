"""Similar confirmed cases: the closest reports of the case base, shown as evidence.

The case base is the matrix table `triage_cases` (`matrices/triage_cases.toml`: one row per real
thread of the training corpus, its URL as `source`, the finding id of its confirmed cause and
the confirmed fix in our own words, and the distinctive words of its pasted text). Being a
matrix, it is replaced by `envdoctor matrices update` like any table. It is written by
`bench/build_case_base.py` from the training cases only (never the frozen test split).

Similarity is the share of a case's words found in the paste's notable lines (words are
lower-case tokens of 4+ characters and Chinese character pairs); a case counts when at least
`MIN_SHARE` of its words and `MIN_WORDS` of them are found. The closest `MAX_SHOWN` cases are
attached to the finding of their cause when present (else to the top finding).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from envdoctor.model.findings import Evidence, Finding
from envdoctor.model.snapshot import Snapshot

TABLE = "triage_cases"
MIN_SHARE = 0.35
MIN_WORDS = 4
MAX_SHOWN = 2
SUGGEST_SHARE = 0.35  # a case this close lifts its cause when no canonical line or cue matched
SUGGEST_WORDS = 4
SUGGEST_SCORE = 20
MAX_SUGGESTED = 2
_WORD = re.compile(r"[a-z_][a-z0-9_.+-]{3,40}")
_CJK_RUN = re.compile(r"[\u4e00-\u9fff]{2,}")
STOP = frozenset(
    [
        "this",
        "that",
        "with",
        "from",
        "have",
        "been",
        "were",
        "when",
        "what",
        "your",
        "file",
        "line",
        "most",
        "last",
        "call",
        "none",
        "true",
        "false",
        "self",
        "return",
        "error",
        "errors",
        "failed",
        "python",
        "site-packages",
        "traceback",
        "recent",
    ]
)


def words_of(lines: Iterable[str]) -> set[str]:
    """The comparable words of some text."""
    out: set[str] = set()
    for line in lines:
        low = line.lower()[:2000]
        out.update(w.strip(".-+") for w in _WORD.findall(low) if w not in STOP)
        for run in _CJK_RUN.findall(low):
            out.update(run[i : i + 2] for i in range(len(run) - 1))
    out.discard("")
    return out


def similar_cases(
    lines: Iterable[str],
    rows: Iterable[Mapping[str, Any]],
    min_share: float = MIN_SHARE,
    min_words: int = MIN_WORDS,
) -> list[tuple[float, Mapping[str, Any]]]:
    """(share of the case's words present, row) for the cases close enough, closest first."""
    present = words_of(lines)
    found = []
    for row in rows:
        words = {str(w) for w in row.get("words") or ()}
        if not words:
            continue
        shared = len(words & present)
        share = shared / len(words)
        if shared >= min_words and share >= min_share:
            found.append((share, row))
    return sorted(found, key=lambda pair: -pair[0])


def with_similar_cases(
    findings: list[Finding], snap: Snapshot, matrices: Any = None
) -> list[Finding]:
    """The findings with the closest confirmed cases added as evidence (`similar.case`)."""
    if not findings or not snap.has("pasted.text"):
        return findings
    rows = _rows(matrices)
    if not rows:
        return findings
    lines = [str(x) for x in (snap.data("pasted.text") or {}).get("lines", [])]
    close = similar_cases(lines, rows)[:MAX_SHOWN]
    if not close:
        return findings
    out = list(findings)
    positions = {f.id: i for i, f in enumerate(out)}
    for share, row in close:
        where = positions.get(str(row.get("cause")), 0)
        text = f"{row.get('source')} ({share:.0%} alike): {row.get('cause')}: {row.get('fix')}"
        target = out[where]
        out[where] = replace(target, evidence=(*target.evidence, Evidence("similar.case", text)))
    return out


def suggested_by_cases(snap: Snapshot, matrices: Any = None) -> list[Finding]:
    """When no cause matched the paste, the causes of the closest confirmed cases (at least
    SUGGEST_SHARE of their words and SUGGEST_WORDS words shared), as findings with a low score
    and the case as evidence: a report worded like a known one gets that one's diagnosis."""
    from envdoctor.triage_engine.evaluate import to_finding
    from envdoctor.triage_engine.facts import Facts
    from envdoctor.triage_engine.loader import by_id
    from envdoctor.triage_engine.model import Match

    if not snap.has("pasted.text"):
        return []
    rows = _rows(matrices)
    lines = [str(x) for x in (snap.data("pasted.text") or {}).get("lines", [])]
    present = words_of(lines)
    causes = by_id()
    facts = Facts(snap, matrices)
    out: list[Finding] = []
    for share, row in similar_cases(lines, rows, SUGGEST_SHARE, SUGGEST_WORDS):
        cause = str(row.get("cause"))
        shared = len(present & {str(w) for w in row.get("words") or ()})
        if share < SUGGEST_SHARE or shared < SUGGEST_WORDS:
            break
        if cause not in causes or any(f.id == cause for f in out):
            continue
        if any(_ruled_out(sig, facts) for sig in causes[cause]):
            continue
        score = SUGGEST_SCORE + round(20 * share)
        match = Match(causes[cause][0], score, lines[0] if lines else "", {}, [])
        finding = to_finding(match, facts, snap, matrices)
        text = f"{row.get('source')} ({share:.0%} alike): {cause}: {row.get('fix')}"
        evidence = (Evidence("similar.case", text), *finding.evidence[1:])
        out.append(replace(finding, evidence=evidence, origin=f"case:{row.get('source')}"))
        if len(out) >= MAX_SUGGESTED:
            break
    return out


def _ruled_out(signature: Any, facts: Any) -> bool:
    """Whether the paste rules the cause out: its canonical line is there but the signature did
    not apply (its facts refuted it), a refuting condition holds, or a required one is known to
    be false. A similar case does not override the facts."""
    from envdoctor.triage_engine.conditions import evaluate_condition
    from envdoctor.triage_engine.evaluate import _find

    if signature.match and _find(signature.match, facts)[0] is not None:
        return True  # the line was seen and evaluated: it did not apply

    if any(evaluate_condition(c, facts)[0] is True for c in signature.refute):
        return True
    return any(evaluate_condition(c, facts)[0] is False for c in signature.requires)


def _rows(matrices: Any) -> list[Mapping[str, Any]]:
    if matrices is None:
        from envdoctor.diagnosis.pipeline import active_matrices

        matrices = active_matrices()
    if not matrices.has(TABLE):
        return []
    return list(matrices.table(TABLE).rows)
