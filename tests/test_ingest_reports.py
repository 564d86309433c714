"""envdoctor's own JSON and Markdown reports read back exactly; glxinfo -B captures."""

from __future__ import annotations

import json
from pathlib import Path

from core_samples import sample_report

from envdoctor.ingest import envdoctor_report, glxinfo, ingest_text
from envdoctor.model.snapshot import Confidence
from envdoctor.render import render


def _same_facts(snap) -> None:
    original = sample_report().snapshot
    for name, group in original.groups.items():
        read = snap.group(name)
        assert read is not None, name
        assert (
            read.status is group.status and read.data == group.data and read.reason == group.reason
        )
        assert read.source.startswith("pasted:envdoctor-report (") and group.source in read.source
        assert read.confidence is Confidence.MEDIUM


def test_json_report_reads_back_exactly() -> None:
    snap = ingest_text(render(sample_report(), "json"))
    _same_facts(snap)
    assert snap.fact("pasted.parts", "readers") == {"envdoctor-report": 1}
    assert not snap.has("pasted.text")  # a report is not an error message to match


def test_markdown_report_reads_back_exactly() -> None:
    snap = ingest_text(
        "Here is my report:\n\n" + render(sample_report(), "markdown") + "\nthanks\n"
    )
    _same_facts(snap)


def test_bare_snapshot_json() -> None:
    snap = ingest_text(sample_report().snapshot.to_json())
    _same_facts(snap)


def test_malformed_reports_are_not_read() -> None:
    assert envdoctor_report.read('{"schema_version": 1, "snapshot": 3}') == []
    assert envdoctor_report.read('{"schema_version": 99, "snapshot": {"schema_version": 99}}') == []
    assert envdoctor_report.read('not json at all, but mentions "schema_version"') == []
    deep = '{"schema_version": 1, "groups": ' + "[" * 5000 + "]" * 5000 + "}"
    assert envdoctor_report.read(deep) == []


def test_triage_of_a_report_runs_the_checks_again() -> None:
    from envdoctor.commands.triage import triage_text

    document = json.loads(render(sample_report(), "json"))
    report = triage_text(json.dumps(document, indent=2))
    assert report.kind == "triage"
    assert report.snapshot.fact("python.packages", "packages")["torch"] == "2.5.1+cpu"
    ids = [f.id for f in report.findings]
    assert {f.id for f in sample_report().findings} <= set(
        ids
    )  # the report's own findings come back
    assert len(ids) == len(set(ids))


def test_html_report_is_one_part_not_free_text() -> None:
    snap = ingest_text(render(sample_report(), "html"))
    assert snap.fact("pasted.parts", "readers") == {"envdoctor-report": 1}
    assert not snap.has("pasted.text")


def test_glxinfo_software_rendering(real_captures: Path) -> None:
    text = (
        real_captures
        / "misc"
        / "glxinfo-B-wsl2-llvmpipe-mesa-20.0.8-rtx3090-host-microsoft-WSL-issue-10245.txt"
    ).read_text(encoding="utf-8")
    (group,) = glxinfo.read(text)
    assert group.name == "platform.opengl"
    assert group.data["software"] is True and group.data["accelerated"] is False
    assert group.data["mesa_version"] == "20.0.8" and group.data["d3d12"] is False


def test_glxinfo_d3d12_in_wsl(real_captures: Path) -> None:
    text = (
        real_captures
        / "misc"
        / "glxinfo-B-wsl2-docker-d3d12-rtx3070ti-mesa-22.2.5-egl-in-docker.txt"
    ).read_text(encoding="utf-8")
    snap = ingest_text(text)
    data = snap.data("platform.opengl")
    assert data["d3d12"] is True and data["software"] is False and data["accelerated"] is True
    assert data["renderer"] == "D3D12 (NVIDIA GeForce RTX 3070 Ti)"
    assert data["video_memory_mib"] == 73430


def test_llvmpipe_in_wsl_is_software_rendering(real_captures: Path) -> None:
    from envdoctor.commands.triage import triage_text

    text = (
        real_captures
        / "misc"
        / "glxinfo-B-wsl2-llvmpipe-mesa-20.0.8-rtx3090-host-microsoft-WSL-issue-10245.txt"
    ).read_text(encoding="utf-8")
    assert [f.id for f in triage_text("On WSL2:\n" + text).findings][0] == "wsl.software-rendering"
    assert "wsl.software-rendering" not in [f.id for f in triage_text(text).findings]
