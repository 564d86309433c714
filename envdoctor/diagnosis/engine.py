"""The engine: runs checks against a snapshot and the matrices, and ranks what they find.

A check whose needed facts are missing is skipped with the reason; a check that raises becomes an
`envdoctor.check-crashed` finding instead of a traceback. Findings drawn from pasted facts carry
at most the confidence of those facts.
"""

from __future__ import annotations

from collections.abc import Iterable

from envdoctor.matrix.loader import MatrixSet, MissingMatrix
from envdoctor.model.checkdef import Check
from envdoctor.model.findings import Evidence, Finding, Severity, order
from envdoctor.model.report import CheckOutcome, Skipped
from envdoctor.model.snapshot import CONFIDENCE_ORDER, Confidence, Snapshot, Status


def not_applicable(check: Check, snap: Snapshot) -> bool:
    """A check of pasted text (triage signatures) has nothing to look at on a live machine: it is
    neither run nor listed as skipped there."""
    return snap.origin == "live" and any(
        n.startswith("pasted.") and snap.group(n) is None for n in check.needs
    )


def missing_reason(check: Check, snap: Snapshot, matrices: MatrixSet) -> str | None:
    """Why `check` cannot run on `snap` with `matrices`, or None when its needs are met. Facts are
    looked at first, and tables are read only when the check asks for them."""
    for name in check.needs:
        group = snap.group(name)
        if group is None:
            return f"needs {name}: not collected"
        if not group.collected:
            return f"needs {name}: {group.status.value} ({group.reason or 'no reason given'})"
    if check.needs_any and not any(snap.has(name) for name in check.needs_any):
        return "needs one of " + ", ".join(check.needs_any)
    for table in check.matrices:  # read only when the check asks for it
        if not matrices.has(table):
            return f"needs matrix {table}: not in the {matrices.origin} set"
    return None


def run_checks(
    snap: Snapshot, matrices: MatrixSet, checks: Iterable[Check], verify: bool = True
) -> CheckOutcome:
    """Run every check; never raises because of a check. With `verify`, every fix that declares
    an effect is re-diagnosed before it is kept (envdoctor.remedies.verify)."""
    outcome = CheckOutcome()
    checks = list(checks)
    for chk in checks:
        if not_applicable(chk, snap):
            outcome.not_applicable.append(chk.id)
            continue
        reason = missing_reason(chk, snap, matrices)
        if reason is not None:
            outcome.skipped.append(Skipped(chk.id, reason, _subject_absent(chk, snap)))
            continue
        try:
            found = chk.run(snap, matrices)
        except MissingMatrix as exc:  # a declared table whose file failed validation when read
            outcome.skipped.append(Skipped(chk.id, f"needs {exc.args[0]}"))
            continue
        except Exception as exc:  # noqa: BLE001 - a broken check must not break the report
            outcome.findings.append(_crash_finding(chk, exc))
            continue
        cap = _weakest_confidence(snap, chk.needs + tuple(n for n in chk.needs_any if snap.has(n)))
        if not found:
            outcome.passed.append(chk.id)
        outcome.findings.extend(f.with_confidence_at_most(cap) for f in found)
    if verify and any(x.fixes for x in outcome.findings):
        from envdoctor.remedies.verify import verify_findings

        outcome.findings = verify_findings(outcome.findings, snap, matrices, checks)
    if any(fix.commands for x in outcome.findings for fix in x.fixes):
        from envdoctor.package_index import keep_user_index

        outcome.findings = keep_user_index(outcome.findings, snap)
    outcome.findings = order(outcome.findings)
    return outcome


def _subject_absent(check: Check, snap: Snapshot) -> bool:
    """True when every unmet need is a group probed and found absent."""
    unmet = [snap.group(n) for n in check.needs if not snap.has(n)]
    if check.needs_any and not any(snap.has(n) for n in check.needs_any):
        unmet += [snap.group(n) for n in check.needs_any]
    return bool(unmet) and all(g is not None and g.status is Status.ABSENT for g in unmet)


def _weakest_confidence(snap: Snapshot, names: Iterable[str]) -> Confidence:
    weakest = Confidence.HIGH
    for name in names:
        group = snap.group(name)
        if group is not None and CONFIDENCE_ORDER[group.confidence] > CONFIDENCE_ORDER[weakest]:
            weakest = group.confidence
    return weakest


def _crash_finding(chk: Check, exc: Exception) -> Finding:
    import traceback

    where = traceback.extract_tb(exc.__traceback__)[-1:]
    location = f" at {where[0].filename.rsplit('/', 1)[-1]}:{where[0].lineno}" if where else ""
    return Finding(
        id="envdoctor.check-crashed",
        severity=Severity.WARNING,
        title=f"Check {chk.id} failed inside envdoctor",
        detail=(
            f"The check raised {type(exc).__name__}: {exc}{location}. Its verdict is unknown; "
            "the other checks are unaffected. Please report this to the envdoctor developers."
        ),
        evidence=(Evidence("check", chk.id),),
    )
