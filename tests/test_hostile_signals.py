"""Hostile use, processes and signals: Ctrl-C (SIGINT) or SIGTERM while a probe waits on a hung
tool ends every process envdoctor started (the tools run in their own sessions, so the signal
never reaches them by itself) before envdoctor exits with 128 + the signal; preflight knows a
command that cannot start before it writes its verdict, keeps its JSON document apart from the
command's output, and never prints a traceback for an empty command.

The hung tools are test_faults' fakes on PATH (`sleep` with a unique duration, each logging its
PID); whatever happens, every fake still running is killed when a test ends."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_faults import (
    TOOLS,
    _running,
    assert_no_survivors,
    invoked,
    sigint_as_at_a_terminal,
    write_tools,
)

START_WAIT_S = 20.0


def _kill_leftovers(log: Path) -> None:
    for pids in invoked(log).values():
        for pid in pids:
            if _running(pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)


def interrupted_run(
    tmp_path: Path, args: list[str], sig: int, env: dict[str, str] | None = None
) -> tuple[int, str, Path]:
    """Start `envdoctor ARGS` with every tool hung, signal it once a tool runs; (exit, stderr, log)."""
    log = tmp_path / "invoked.log"
    path = write_tools(tmp_path / "bin", "hang", log, TOOLS)
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    (tmp_path / "paste.txt").write_text("RuntimeError: CUDA error: out of memory\n")
    run_env = {
        "PATH": path,
        "HOME": str(home),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "LC_ALL": "C",
        "DOCKER_HOST": f"unix://{tmp_path}/no-docker.sock",
        **(env or {}),
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "envdoctor", *args],
        env=run_env,
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # our own group, so the test can end it all if it hangs
        preexec_fn=sigint_as_at_a_terminal,
    )
    try:
        deadline = time.monotonic() + START_WAIT_S
        while not invoked(log) and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        assert invoked(log), "no fake tool was started"
        time.sleep(0.3)  # let the other probes start theirs too
        proc.send_signal(sig)
        _out, err = proc.communicate(timeout=30)
        return proc.returncode, err, log
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        try:
            assert_no_survivors(log)
        finally:
            _kill_leftovers(log)


CASES = [
    (["check", "--timeout", "60"], signal.SIGINT, {}),
    (["check", "--timeout", "60"], signal.SIGTERM, {}),
    (["check", "--timeout", "60"], signal.SIGTERM, {"ENVDOCTOR_PROBE_WORKER": "0"}),
    (["check", "--timeout", "60"], signal.SIGINT, {"ENVDOCTOR_PROBE_WORKER": "0"}),
    (["report", "-o", "-", "--timeout", "60"], signal.SIGTERM, {}),
    (["preflight", "--require", "gpu", "--timeout", "60", "--", "true"], signal.SIGINT, {}),
    (["triage", "--here", "--timeout", "60", "paste.txt"], signal.SIGTERM, {}),
    (["fit", "--params", "7B", "--dtype", "bf16", "--task", "inference"], signal.SIGTERM, {}),
]


@pytest.mark.parametrize(
    ("args", "sig", "env"),
    CASES,
    ids=[f"{c[0][0]}-{c[1].name}-{'worker' if not c[2] else 'one-process'}" for c in CASES],
)
def test_a_signal_during_a_hung_probe_leaves_no_process(tmp_path, args, sig, env):
    code, err, log = interrupted_run(tmp_path, args, sig, env)
    assert code == 128 + sig, err
    assert "Traceback" not in err
    assert err.strip() == ("envdoctor: terminated" if sig == signal.SIGTERM else
                           "envdoctor: interrupted")  # fmt: skip
    assert invoked(log)  # the hung tools did run, and assert_no_survivors found none left


# -- preflight's command -----------------------------------------------------------------------


def preflight(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "envdoctor", "preflight", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        env=dict(os.environ, ENVDOCTOR_PROBE_WORKER="0"),
    )


@pytest.mark.parametrize("command", [[""], ["", "arg"]])
def test_an_empty_command_is_a_usage_error(tmp_path, command):
    result = preflight("--", *command, cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "empty" in result.stderr and len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("command", "code", "why"),
    [
        (["no-such-command-envdoctor-test"], 127, "not found on PATH"),
        (["/nonexistent/bin/tool"], 127, "no such file"),
        (["/etc/os-release"], 126, "not an executable file"),
        (["/"], 126, "not an executable file"),
    ],
)
@pytest.mark.parametrize("requirements", [[], ["--require", "gpu", "--warn-only"]])
def test_a_command_that_cannot_start_is_known_before_the_verdict(
    tmp_path, command, code, why, requirements
):
    result = preflight("--json", *requirements, "--", *command, cwd=tmp_path)
    assert result.returncode == code, result.stderr
    doc = json.loads(result.stdout)
    assert doc["ok"] is False and doc["starts_command"] is False
    assert why in doc["command_error"] and why in result.stderr


def test_the_json_document_is_the_first_line_before_the_commands_output(tmp_path):
    script = tmp_path / "workload.py"
    script.write_text('print("{\\"workload\\": true}")\nprint("line two")\n')
    result = preflight("--json", "--", sys.executable, str(script), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    first, *rest = result.stdout.splitlines()
    doc = json.loads(first)
    assert doc["kind"] == "preflight" and doc["starts_command"] is True
    assert rest == ['{"workload": true}', "line two"]


def test_without_a_command_the_json_document_stays_indented(tmp_path):
    result = preflight("--json", "--require", "gpu", cwd=tmp_path)
    assert result.returncode in (0, 1)
    assert json.loads(result.stdout)["kind"] == "preflight"
    assert result.stdout.startswith("{\n")
