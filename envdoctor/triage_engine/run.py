"""The triage entry points: text, lines or cleaned blocks in, a ranked report out.

The input streams through the readers (`envdoctor.ingest`) into one snapshot of origin "pasted";
`here=True` completes it with this machine's live facts (live facts win where both exist, since
they are first-hand). The fact checks run on it (`envdoctor.diagnosis.pipeline`, without the signature
module), the causes are evaluated once (`evaluate.signature_findings`) and their fixes proven by
the same verifier as the checks' (`envdoctor.remedies.verify`), a pasted envdoctor
report's own findings are added, and everything is ranked (`rank.rank_for_triage`); the closest
confirmed cases of the case base are attached as evidence to the top finding.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from envdoctor.model.findings import Finding
from envdoctor.model.report import Report
from envdoctor.model.snapshot import Snapshot

SIGNATURE_MODULE = "signatures"


def triage_text(text: str, here: bool = False, timeout_s: float = 20.0) -> Report:
    """The triage report of a text (for tests and library use)."""
    from envdoctor.ingest import clean_block

    return triage_blocks([clean_block(text)] if text else [], here, timeout_s)


def triage_lines(lines: Iterable[str], here: bool = False, timeout_s: float = 20.0) -> Report:
    """The triage report of an input given line by line."""
    from envdoctor.ingest import _blocks_of

    return triage_blocks(_blocks_of(lines), here, timeout_s)


def triage_blocks(blocks: Iterable[str], here: bool = False, timeout_s: float = 20.0) -> Report:
    """The triage report of an input given as cleaned blocks of whole lines."""
    from envdoctor.checks import CHECK_MODULES, load_checks_for
    from envdoctor.diagnosis.pipeline import active_matrices, diagnose
    from envdoctor.ingest import ingest_blocks
    from envdoctor.package_index import keep_user_index
    from envdoctor.remedies.verify import verify_findings
    from envdoctor.triage_engine.casebase import with_similar_cases, with_suggestions
    from envdoctor.triage_engine.evaluate import signature_findings
    from envdoctor.triage_engine.facts import Facts
    from envdoctor.triage_engine.loader import DATA
    from envdoctor.triage_engine.remedies import with_prose_groups

    snapshot = ingest_blocks(blocks)
    if here:
        snapshot = with_live_facts(snapshot, timeout_s)
    matrices = active_matrices()
    fact_modules = tuple(m for m in CHECK_MODULES if m != SIGNATURE_MODULE)
    report = diagnose(snapshot, kind="triage", matrices=matrices, check_modules=fact_modules)
    facts = Facts(snapshot, matrices)
    found = signature_findings(snapshot, matrices, facts=facts)
    found = with_suggestions(found, snapshot, matrices)  # no cause applied: the similar cases'
    # the causes' fixes are proven like the checks' (a K80 on 470 is never told "driver 525"),
    # against the facts the chooser chose them by: the paste's groups completed from its prose
    proven_on = with_prose_groups(snapshot, facts)
    collected = {name for name in proven_on.groups if proven_on.has(name)}
    found = verify_findings(found, proven_on, matrices, load_checks_for(collected, fact_modules))
    # the causes' install commands keep the user's mirror and say when they need the PyTorch
    # index, as the checks' do (the engine adapts only the findings it produced)
    found = keep_user_index(found, snapshot)
    findings = report.findings + found + reported_findings(snapshot)
    ranked = rank_for_triage_data(findings, DATA.conflicts)
    report.findings = with_similar_cases(ranked, snapshot, matrices)
    return report


def rank_for_triage_data(
    findings: list[Finding], conflicts: Iterable[Iterable[str]]
) -> list[Finding]:
    """`rank.rank_for_triage` (named here so the pipeline reads in one place)."""
    from envdoctor.triage_engine.rank import rank_for_triage

    return rank_for_triage(findings, conflicts)


def reported_findings(snapshot: Snapshot) -> list[Finding]:
    """The findings of a pasted envdoctor report (`pasted.report`), those that still parse."""
    out = []
    for item in (snapshot.data("pasted.report") or {}).get("findings", []):
        try:
            out.append(replace(Finding.from_dict(item), explained_by=None))
        except ValueError:
            continue
    return out


def with_live_facts(pasted: Snapshot, timeout_s: float) -> Snapshot:
    """The pasted snapshot completed with this machine's live facts; live groups win."""
    from envdoctor.commands import UsageError
    from envdoctor.diagnosis.pipeline import collect_live
    from envdoctor.probes.context import ProbeOptions

    if timeout_s <= 0:
        raise UsageError(f"--timeout must be positive, not {timeout_s:g}")
    live = collect_live(ProbeOptions(timeout_s=timeout_s))
    merged = live.merged_with(pasted)
    merged.origin = "pasted"
    return merged
