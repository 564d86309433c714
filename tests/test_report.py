"""`envdoctor report`: formats, output file handling (atomic, never clobbered on failure),
redaction on the live path, and reading a report back."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from envdoctor.commands import UsageError
from envdoctor.commands import report as report_cmd
from envdoctor.model.report import Report, extract_embedded

REPO = Path(__file__).resolve().parent.parent


def envdoctor(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    full_env = {**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1", **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "envdoctor", *args],
        cwd=cwd,
        env=full_env,
        text=True,
        capture_output=True,
        timeout=120,
    )


def test_default_file_is_markdown_with_the_json_embedded(tmp_path):
    result = envdoctor("report", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    path = tmp_path / "envdoctor-report.md"
    assert "wrote envdoctor-report.md (markdown" in result.stderr and "Redacted:" in result.stderr
    doc = json.loads(extract_embedded(path.read_text()))
    assert doc["kind"] == "report" and "python.packages" in doc["snapshot"]["groups"]
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    assert [p.name for p in tmp_path.iterdir()] == ["envdoctor-report.md"]  # no temp file left


@pytest.mark.parametrize(
    "name, check",
    [
        ("r.json", lambda t: json.loads(t)["kind"] == "report"),
        ("r.html", lambda t: t.startswith("<!DOCTYPE html>") and extract_embedded(t) is not None),
        ("r.txt", lambda t: t.startswith("envdoctor ")),
    ],
)
def test_format_follows_the_extension(tmp_path, name, check):
    result = envdoctor("report", "-o", name, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert check((tmp_path / name).read_text())


def test_format_option_wins_and_dash_is_stdout(tmp_path):
    result = envdoctor("report", "-o", "-", "--format", "json", cwd=tmp_path)
    assert result.returncode == 0
    assert json.loads(result.stdout)["kind"] == "report"
    assert list(tmp_path.iterdir()) == []


def test_live_identifiers_are_redacted_unless_asked(tmp_path):
    """A home path from the environment and this host's name never reach the file."""
    env = {"LD_LIBRARY_PATH": "/home/zoe-q/cuda/lib64", "HOME": "/home/zoe-q", "USER": "zoe-q"}
    plain = envdoctor("report", "--no-redact", "-o", "plain.json", cwd=tmp_path, env=env)
    assert plain.returncode == 0 and "Not redacted" in plain.stderr
    assert "/home/zoe-q/cuda/lib64" in (tmp_path / "plain.json").read_text()  # the probe records it
    assert stat.S_IMODE((tmp_path / "plain.json").stat().st_mode) == 0o600
    for fmt in ("json", "md", "html", "txt"):
        result = envdoctor("report", "-o", f"r.{fmt}", cwd=tmp_path, env=env)
        text = (tmp_path / f"r.{fmt}").read_text()
        assert result.returncode == 0 and "zoe-q" not in text
    assert "/home/&lt;user-1&gt;/cuda/lib64" in (tmp_path / "r.html").read_text()


def test_missing_folder_is_a_usage_error(tmp_path):
    result = envdoctor("report", "-o", str(tmp_path / "nope" / "r.md"), cwd=tmp_path)
    assert result.returncode == 2 and "does not exist" in result.stderr


def test_failed_write_keeps_the_old_report(tmp_path, monkeypatch):
    target = tmp_path / "r.md"
    target.write_text("the earlier report\n")

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError):
        report_cmd.write_atomically(target, "new text")
    assert target.read_text() == "the earlier report\n"
    assert [p.name for p in tmp_path.iterdir()] == ["r.md"]


def test_write_replaces_atomically(tmp_path):
    target = tmp_path / "r.md"
    target.write_text("old")
    report_cmd.write_atomically(target, "new ✓ text")
    assert target.read_text(encoding="utf-8") == "new ✓ text"


def test_unwritable_folder_is_reported_and_nothing_changes(tmp_path, monkeypatch):
    import argparse

    target = tmp_path / "r.md"
    target.write_text("old")
    monkeypatch.setattr(
        report_cmd,
        "write_atomically",
        lambda *a, **k: (_ for _ in ()).throw(PermissionError(13, "Permission denied")),
    )
    parser = argparse.ArgumentParser()
    report_cmd.add_parser(parser.add_subparsers())
    args = parser.parse_args(["report", "-o", str(target)])
    with pytest.raises(UsageError, match="Permission denied; nothing was changed"):
        report_cmd.run(args)
    assert target.read_text() == "old"


def test_a_leak_after_rendering_refuses_to_write(monkeypatch):
    """If a renderer ever re-introduced a replaced value, build() must refuse, not write it."""
    from envdoctor.model.snapshot import Snapshot, collected

    snap = Snapshot()
    snap.add(collected("os", "p", {"hostname": "leaky-host-3"}, summary="Debian 12"))
    report = Report(snap, kind="report")
    import envdoctor.render as render

    real = render.render
    monkeypatch.setattr(render, "render", lambda r, fmt, **o: real(r, fmt, **o) + "leaky-host-3\n")
    with pytest.raises(RuntimeError, match="host value survived"):
        report_cmd.build(report, "markdown", env={}, hostnames=())


def test_raw_captures_are_included(real_captures):
    from envdoctor.ingest import nvidia_smi_xml
    from envdoctor.model.snapshot import Snapshot

    xml = (real_captures / "nvidia-smi-q-x" / "telegraf-tesla-t4-driver-515.105.01.xml").read_text()
    snap = Snapshot()
    for group in nvidia_smi_xml.read(xml):
        group.raw = {"nvidia-smi -q -x": xml}
        snap.add(group)
    for fmt in ("json", "markdown", "html"):
        text, _ = report_cmd.build(Report(snap, kind="report"), fmt, env={}, hostnames=())
        doc = json.loads(text if fmt == "json" else extract_embedded(text))
        raw = doc["snapshot"]["groups"]["nvidia.gpus"]["raw"]["nvidia-smi -q -x"]
        assert "<product_name>Tesla T4</product_name>" in raw


def test_machine_identifiers():
    users, hosts = report_cmd.machine_identifiers(
        {"USER": "kim", "HOME": "/home/kim.l", "HOSTNAME": "n1"}, hostnames=("box.example.com",)
    )
    assert users == {"kim", "kim.l"} and hosts == {"n1", "box.example.com"}
