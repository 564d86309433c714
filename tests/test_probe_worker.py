"""The forked probe worker: the same facts as threads alone, and a child that dies, hangs or
sends garbage becomes failed groups with the reason, never a hang or a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from envdoctor.probes import collect_all, worker
from envdoctor.probes.context import ProbeContext, ProbeOptions

pytestmark = pytest.mark.skipif(
    not hasattr(os, "fork") or (os.cpu_count() or 1) < 2,
    reason="the worker needs fork and two CPUs",
)

TESTS = Path(__file__).resolve().parent
MODULES = (
    "os_info",
    "python_env",
    "torch_build",
    "frameworks",
    "cuda_toolkit",
    "cuda_libraries",
    "nvidia_gpu",
)


def _groups(snapshot):
    out = {}
    for name, group in snapshot.groups.items():
        if name == "envdoctor.timings":
            continue
        d = group.to_dict(include_raw=True)
        d.pop("duration_ms", None)
        out[name] = d
    return out


def _share_rules() -> None:
    """worker.share's rules; needs a process with no other thread (see _in_fresh_process)."""
    assert threading.active_count() == 1, "another thread is alive in this process"
    names = MODULES
    assert worker.share(names) == (
        "python_env",
        "torch_build",
        "frameworks",
        "cuda_toolkit",
        "cuda_libraries",
    )
    assert worker.share(names, env={worker.SWITCH: "0"}) == ()
    assert worker.share(("os_info", "python_env", "torch_build")) == ()  # too small a share
    assert (
        worker.share(("python_env", "torch_build", "frameworks")) == ()
    )  # nothing left for the parent
    stop = threading.Event()
    extra = threading.Thread(target=stop.wait, daemon=True)
    extra.start()
    try:
        assert worker.share(names) == ()  # never fork a multi-threaded process
    finally:
        stop.set()
        extra.join()


def _forked_collection_equals_threads_alone() -> None:
    """With and without the worker, the same fact groups come back, in the same order."""
    assert threading.active_count() == 1, "another thread is alive in this process"
    calls = []
    real_start = worker.ForkedProbes.start

    def start(*args, **kwargs):
        forked = real_start(*args, **kwargs)
        calls.append(forked)
        return forked

    worker.ForkedProbes.start = start  # a fresh process of its own: nothing to restore
    forked = collect_all(ProbeContext(options=ProbeOptions(timeout_s=20)), MODULES).snapshot
    assert calls and calls[0] is not None and calls[0].pid > 0
    os.environ[worker.SWITCH] = "0"
    alone = collect_all(ProbeContext(options=ProbeOptions(timeout_s=20)), MODULES).snapshot
    assert list(forked.groups) == list(alone.groups)
    assert _groups(forked) == _groups(alone)
    names = [p["name"] for p in forked.groups["envdoctor.timings"].data["probes"]]
    assert names == list(MODULES)


def _in_fresh_process(function: str) -> None:
    """Run one of this module's functions in a new interpreter: the worker only forks a process
    with no other thread, and earlier tests in a full run leave threads alive in this one."""
    env = {k: v for k, v in os.environ.items() if k != worker.SWITCH}
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS), env.get("PYTHONPATH", "")])
    done = subprocess.run(
        [sys.executable, "-c", f"import test_probe_worker as t; t.{function}()"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=str(TESTS.parent),
    )
    assert done.returncode == 0, done.stderr[-4000:]


def test_share_rules():
    _in_fresh_process("_share_rules")


def test_forked_collection_equals_threads_alone():
    _in_fresh_process("_forked_collection_equals_threads_alone")


def _result(run, deadline_s=5.0):
    ctx = ProbeContext(options=ProbeOptions(timeout_s=deadline_s))
    forked = worker.ForkedProbes.start(
        ctx, ("python_env", "cuda_toolkit"), run, lambda name: (f"{name}.group",)
    )
    assert forked is not None
    start = time.monotonic()
    out = forked.result(start + deadline_s)
    with pytest.raises(ChildProcessError):
        os.waitpid(forked.pid, os.WNOHANG)  # reaped: no zombie left
    return out, time.monotonic() - start


def test_child_that_dies_gives_failed_groups():
    out, _ = _result(lambda ctx, names: os._exit(9))
    groups, timing = out["python_env"]
    assert groups[0].name == "python_env.group" and groups[0].status.value == "failed"
    assert (
        "probe worker process sent an unreadable answer" in groups[0].reason
        and timing["outcome"] == "crashed"
    )


def test_child_that_hangs_is_stopped_at_the_deadline():
    out, took = _result(lambda ctx, names: time.sleep(60), deadline_s=0.3)
    assert took < 0.3 + worker.GRACE_S + 3
    groups, _ = out["cuda_toolkit"]
    assert "did not answer by the overall deadline and was stopped" in groups[0].reason


def test_child_that_raises_or_sends_garbage_gives_failed_groups():
    out, _ = _result(lambda ctx, names: [("python_env", [object()], {})])  # not JSON
    assert out["python_env"][0][0].status.value == "failed"
    out, _ = _result(lambda ctx, names: 1 / 0)
    assert out["cuda_toolkit"][0][0].status.value == "failed"
