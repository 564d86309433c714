"""The command line as a user meets it: real subprocesses, exit codes, one-line errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from envdoctor import __version__
from envdoctor.cli import main


def run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    full_env = dict(os.environ, **(env or {}))
    return subprocess.run(
        [sys.executable, "-m", "envdoctor", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=full_env,
    )


def test_check_json_is_one_valid_document():
    result = run("check", "--json")
    assert result.returncode in (0, 1), result.stderr
    doc = json.loads(result.stdout)
    assert doc["schema_version"] == 1
    assert isinstance(doc["findings"], list)
    for finding in doc["findings"]:
        assert {"id", "severity", "title", "fixes"} <= set(finding)
    assert doc["snapshot"]["groups"]["os"]["status"] == "collected"
    assert doc["snapshot"]["groups"]["python"]["status"] == "collected"
    expected_rc = 1 if any(f["severity"] == "error" for f in doc["findings"]) else 0
    assert result.returncode == expected_rc


def test_check_text_is_plain_when_piped():
    result = run("check")
    assert result.returncode in (0, 1), result.stderr
    assert "\x1b[" not in result.stdout
    assert "Operating system" in result.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (("check", "--bogus"), "unrecognized arguments: --bogus"),
        (("check", "--timeout", "-1"), "--timeout: '-1': must be positive"),
        (("check", "--format", "yaml"), "invalid choice"),
        (("explain", "no.such-id"), "no finding id 'no.such-id'"),
        (("matrices", "show", "nope"), "no matrix 'nope'"),
        (("frobnicate",), "invalid choice"),
        ((), "required"),
    ],
)
def test_usage_errors_are_one_line_with_exit_2(args, message):
    result = run(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr


def test_version():
    result = run("--version")
    assert result.returncode == 0 and result.stdout.strip() == f"envdoctor {__version__}"


def test_explain_prints_the_help_page():
    result = run("explain", "torch.python-unsupported")
    assert result.returncode == 0
    assert "supports" in result.stdout


def test_matrices_list_and_lint():
    listing = run("matrices", "list")
    assert listing.returncode == 0
    assert "cuda_driver" in listing.stdout and "2026-" in listing.stdout
    lint = run("matrices", "lint")
    assert lint.returncode == 0, lint.stdout
    assert "no errors" in lint.stdout


def test_internal_errors_exit_3_with_one_line(monkeypatch, capsys):
    import envdoctor.commands.explain as explain

    def boom(args):
        raise RuntimeError("kaboom")

    monkeypatch.setattr(explain, "run", boom)
    assert main(["explain", "x"]) == 3
    err = capsys.readouterr().err
    assert "internal error: RuntimeError: kaboom" in err and len(err.strip().splitlines()) == 1


def test_fail_on_warning_changes_the_exit_code(monkeypatch):
    from envdoctor.commands import check as check_cmd
    from envdoctor.diagnosis.pipeline import exit_code_for
    from tests.core_samples import sample_report

    report = sample_report()
    assert exit_code_for(report, "error") == 1
    report.findings = [f for f in report.findings if f.severity.value != "error"]
    assert exit_code_for(report, "error") == 0
    assert exit_code_for(report, "info") == 1
    assert check_cmd  # the module imports cleanly
