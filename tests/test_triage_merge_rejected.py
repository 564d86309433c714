"""Triage merges a check's finding and a cause's finding of the same id; what either side's
verifier rejected stays rejected (issue #18: a K80 on driver 470 is never told "driver 525")."""

from __future__ import annotations

from envdoctor.model.findings import Finding, Fix, RejectedFix, Severity
from envdoctor.triage_engine.rank import merge_duplicates

DRIVER_525 = "Install NVIDIA driver 525 or newer, then reboot"
WHEEL = "Keep torch 2.1.0, switch to its cu118 build"
KEPLER = "driver 525: no branch after 470 supports Tesla K80 (Kepler)"


def _finding(fixes: tuple[Fix, ...], rejected: tuple[RejectedFix, ...], origin: str | None):
    return Finding(
        id="torch.driver-too-old",
        severity=Severity.ERROR,
        title="driver too old",
        detail="",
        fixes=fixes,
        rejected_fixes=rejected,
        origin=origin,
    )


def test_a_fix_rejected_on_one_side_is_not_revived_by_the_other() -> None:
    check = _finding((Fix(WHEEL),), (RejectedFix(DRIVER_525, KEPLER),), None)
    cause = _finding(
        (Fix(DRIVER_525), Fix("Or keep this driver")),
        (RejectedFix("Update the driver to 530", "driver 530: " + KEPLER[11:]),),
        "signature:torch.driver-too-old.facts",
    )
    for order in ((check, cause), (cause, check)):
        [merged] = merge_duplicates(order)
        shown = [f.summary for f in merged.fixes]
        assert DRIVER_525 not in shown
        assert WHEEL in shown and "Or keep this driver" in shown
        assert {r.summary for r in merged.rejected_fixes} == {
            DRIVER_525,
            "Update the driver to 530",
        }
