"""The engine: skip with reasons, crash isolation, confidence caps, cause-first ordering."""

from __future__ import annotations

from envdoctor.diagnosis.engine import run_checks
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Finding, Severity, order
from envdoctor.model.snapshot import Confidence, Snapshot, absent, collected


def _snap() -> Snapshot:
    snap = Snapshot()
    snap.add(collected("os", "probe", {"kernel": "6.1"}))
    snap.add(absent("nvidia.gpus", "probe", "no NVIDIA device on the PCI bus"))
    snap.add(
        collected("pasted.text", "pasted:free-text", {"lines": ["boom"]}, confidence=Confidence.LOW)
    )
    return snap


@check("test.needs-gpu", needs=("nvidia.gpus",))
def needs_gpu(snap, ms):
    """Needs GPUs."""
    return Finding("test.needs-gpu", Severity.ERROR, "never")


@check("test.needs-table", needs=("os",), matrices=("no_such_table",))
def needs_table(snap, ms):
    """Needs a table."""
    return Finding("test.needs-table", Severity.ERROR, "never")


@check("test.crashes", needs=("os",))
def crashes(snap, ms):
    """Raises."""
    raise ZeroDivisionError("division by zero")


@check("test.passes", needs=("os",))
def passes(snap, ms):
    """Finds nothing."""
    return None


@check("test.from-paste", needs=("pasted.text",))
def from_paste(snap, ms):
    """Fires on pasted text."""
    return Finding("test.from-paste", Severity.WARNING, "seen in paste")


def test_skips_with_reason_and_isolates_crashes():
    outcome = run_checks(
        _snap(), MatrixSet(), [needs_gpu, needs_table, crashes, passes, from_paste]
    )
    skipped = {s.id: s.reason for s in outcome.skipped}
    assert (
        skipped["test.needs-gpu"] == "needs nvidia.gpus: absent (no NVIDIA device on the PCI bus)"
    )
    assert skipped["test.needs-table"].startswith("needs matrix no_such_table")
    assert outcome.passed == ["test.passes"]
    crash = [f for f in outcome.findings if f.id == "envdoctor.check-crashed"]
    assert (
        len(crash) == 1
        and "ZeroDivisionError" in crash[0].detail
        and "test.crashes" in crash[0].title
    )
    pasted = [f for f in outcome.findings if f.id == "test.from-paste"][0]
    assert pasted.confidence is Confidence.LOW


def test_root_cause_first_and_symptom_folded_under_it():
    symptom = Finding("torch.cuda-unavailable", Severity.ERROR, "no CUDA")
    other = Finding("a.warning", Severity.WARNING, "unrelated")
    cause = Finding(
        "nvidia.no-driver-bound",
        Severity.ERROR,
        "no driver",
        explains=("torch.cuda-unavailable", "missing.symptom"),
    )
    ranked = order([other, symptom, cause])
    assert [f.id for f in ranked] == [
        "nvidia.no-driver-bound",
        "torch.cuda-unavailable",
        "a.warning",
    ]
    assert ranked[1].explained_by == "nvidia.no-driver-bound"
    assert ranked[0].explained_by is None


def test_explanation_cycles_do_not_lose_findings():
    a = Finding("x.a", Severity.ERROR, "a", explains=("x.b",))
    b = Finding("x.b", Severity.ERROR, "b", explains=("x.a",))
    assert sorted(f.id for f in order([a, b])) == ["x.a", "x.b"]


def test_paste_only_checks_are_not_listed_as_skipped_on_a_live_machine():
    live = Snapshot(origin="live")
    live.add(collected("os", "probe", {"kernel": "6.1"}))
    outcome = run_checks(live, MatrixSet(), [from_paste, passes])
    assert outcome.skipped == [] and outcome.not_applicable == ["test.from-paste"]
    pasted = Snapshot(origin="pasted")
    outcome = run_checks(pasted, MatrixSet(), [from_paste])
    assert [s.id for s in outcome.skipped] == ["test.from-paste"]
