"""The diagnosis pipeline shared by commands: probes -> snapshot -> checks -> report."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from envdoctor.diagnosis.engine import run_checks
from envdoctor.diagnosis.enrich import enrich
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.findings import Severity
from envdoctor.model.report import Report
from envdoctor.model.snapshot import Snapshot

if TYPE_CHECKING:  # the probe machinery is imported by `collect_live` (triage never probes)
    from envdoctor.probes.context import ProbeOptions


def active_matrices() -> MatrixSet:
    """The matrix set in use: the newest valid installed update, else the bundled set."""
    from envdoctor.matrix.update import load_active

    return load_active()


def collect_live(
    options: ProbeOptions,
    root: str = "/",
    env: Mapping[str, str] | None = None,
    modules: tuple[str, ...] | None = None,
) -> Snapshot:
    """Run the probes on this machine (or an unpacked root) and return the snapshot."""
    from envdoctor.probes import collect_all
    from envdoctor.probes.context import ProbeContext

    ctx = ProbeContext(root=root, env=env, options=options)
    return collect_all(ctx, modules).snapshot


def diagnose(
    snapshot: Snapshot,
    kind: str = "check",
    matrices: MatrixSet | None = None,
    check_modules: tuple[str, ...] | None = None,
) -> Report:
    """Enrich a snapshot from the matrices, run the checks on it and bundle the report (on a live
    snapshot, without the text-only check modules, whose checks could not apply; the acceptance
    checks only for a snapshot of an acceptance run)."""
    from envdoctor.checks import (
        ACCEPT_CHECK_MODULES,
        CHECK_MODULES,
        TEXT_ONLY_CHECK_MODULES,
        load_checks_for,
    )

    if check_modules is None:
        skip = () if snapshot.has("accept.run") else ACCEPT_CHECK_MODULES  # only for a test run
        if snapshot.origin == "live":
            skip += TEXT_ONLY_CHECK_MODULES
        check_modules = tuple(m for m in CHECK_MODULES if m not in skip)
    matrices = matrices if matrices is not None else active_matrices()
    enrich(snapshot, matrices)
    # only the modules with a check that can run on this snapshot are imported
    collected = {name for name in snapshot.groups if snapshot.has(name)}
    outcome = run_checks(snapshot, matrices, load_checks_for(collected, check_modules))
    return Report.from_outcome(snapshot, outcome, kind)


def exit_code_for(report: Report, fail_on: str) -> int:
    """0 when no finding reaches `fail_on`, else 1 (see README, "Exit codes")."""
    return 1 if report.worst_at_least(Severity(fail_on)) else 0
