"""Snapshot and report JSON round trips, and malformed documents."""

from __future__ import annotations

import json

import pytest

from envdoctor.model.report import Report
from envdoctor.model.snapshot import SCHEMA_VERSION, Snapshot, Status, absent, collected
from tests.core_samples import sample_report, sample_snapshot


def test_snapshot_round_trip_is_lossless():
    snap = sample_snapshot()
    snap.groups["os"].raw["uname"] = "Linux host 6.8.0"
    again = Snapshot.from_json(snap.to_json())
    assert again.to_dict(include_raw=True) == snap.to_dict(include_raw=True)
    assert again.groups["cuda.toolkits"].status is Status.FAILED
    assert again.groups["cuda.toolkits"].reason == "nvcc timed out after 5 s"
    assert again.groups["os"].raw == {"uname": "Linux host 6.8.0"}


def test_report_round_trip_keeps_findings_and_ranks():
    report = sample_report()
    doc = json.loads(json.dumps(report.to_dict()))
    again = Report.from_dict(doc)
    assert [f.to_dict() for f in again.findings] == [f.to_dict() for f in report.findings]
    assert again.passed == report.passed and again.skipped == report.skipped
    assert doc["findings"][0]["fixes"][0]["rank"] == 1


def test_collected_group_is_not_replaced_by_a_failed_one():
    snap = Snapshot()
    snap.add(collected("os", "a", {"kernel": "6.1"}))
    snap.add(absent("os", "b", "no"))
    assert snap.fact("os", "kernel") == "6.1"


def test_merge_prefers_own_groups():
    pasted = Snapshot(origin="pasted")
    pasted.add(collected("python", "pasted:collect_env", {"version": "3.10.12"}))
    live = sample_snapshot()
    merged = pasted.merged_with(live)
    assert merged.fact("python", "version") == "3.10.12"
    assert merged.fact("os", "distro_id") == "ubuntu"


@pytest.mark.parametrize(
    "doc, message",
    [
        ("[]", "not a JSON object"),
        ('{"groups": {}}', "schema_version"),
        (json.dumps({"schema_version": SCHEMA_VERSION + 1}), "newer"),
        (json.dumps({"schema_version": 1, "groups": {"os": {"status": "bogus"}}}), "status"),
        (
            json.dumps(
                {"schema_version": 1, "groups": {"os": {"status": "collected", "data": []}}}
            ),
            "objects",
        ),
        ("{not json", "not valid JSON"),
    ],
)
def test_malformed_snapshots_are_rejected_with_a_reason(doc, message):
    with pytest.raises(ValueError, match=message):
        Snapshot.from_json(doc)


def test_report_rejects_non_reports():
    with pytest.raises(ValueError):
        Report.from_dict({"hello": 1})
    with pytest.raises(ValueError):
        Report.from_dict(
            {"schema_version": 1, "snapshot": {"schema_version": 1}, "findings": [{"id": "x"}]}
        )
