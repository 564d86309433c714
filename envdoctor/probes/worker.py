"""A second process for some probes, so a full collection uses two CPU cores instead of one.

Probes are mostly Python work (parsing /proc, sysfs, package metadata, tool output), and Python
threads share one core: on a 2-core machine a full `check` spent ~130 ms of its ~220 ms
collecting, one probe after another in effect. `ForkedProbes.start` forks the process (before
any probe thread exists: forking is safe only from a single-threaded process); the child runs its
share of the probes under the same per-probe and overall deadlines, writes their fact groups and
timings as JSON to a pipe and ends with `os._exit`; the parent runs the rest meanwhile, then reads
the pipe. A child that dies, hangs past the overall deadline or writes garbage becomes failed
groups with the reason, like a probe that crashes or hangs; a hung child is terminated (its
running commands are stopped first) and reaped.

Only on Linux with more than one CPU, from a single-threaded process, and when the share is
worth a fork; `ENVDOCTOR_PROBE_WORKER=0` turns it off. The share (`WORKER_PROBES`) is the
Python-environment and CUDA probes, the heaviest, which share their caches (the metadata scan,
the loader cache) with each other rather than with the rest, and three AMD probes and the kernel
log, which share nothing with the parent's: measured on this 2-core machine, the two halves then
finish within a few milliseconds of each other.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from envdoctor.model.snapshot import FactGroup, failed

if TYPE_CHECKING:
    from envdoctor.probes.context import ProbeContext

WORKER_PROBES: tuple[str, ...] = (
    "python_env",
    "torch_build",
    "frameworks",
    "deep",
    "apps_detect",
    "cuda_toolkit",
    "cuda_libraries",
    "amd_gpu",
    "amd_kernel",
    "amd_env",
    "nvidia_events",
)
MIN_SHARE = 3  # fewer worker probes than this are not worth a fork
SWITCH = "ENVDOCTOR_PROBE_WORKER"
GRACE_S = 1.0  # after the overall deadline, how long the child has to answer before it is stopped

# probe name -> (its groups, its timing row {name, duration_ms, outcome}) for each probe the child ran
WorkerResult = dict[str, tuple[list[FactGroup], dict]]


def share(names: tuple[str, ...], env: dict[str, str] | None = None) -> tuple[str, ...]:
    """The probes of `names` to hand to a worker process; () when no worker should be used."""
    switch = (os.environ if env is None else env).get(SWITCH, "1")
    if (
        switch == "0"
        or not sys.platform.startswith("linux")
        or not hasattr(os, "fork")
        or (os.cpu_count() or 1) < 2
        or threading.active_count() != 1
    ):
        return ()
    mine = tuple(n for n in names if n in WORKER_PROBES)
    return mine if len(mine) >= MIN_SHARE and len(mine) < len(names) else ()


class ForkedProbes:
    """The child process running `names`, and how to get their groups back."""

    def __init__(
        self,
        pid: int,
        read_fd: int,
        names: tuple[str, ...],
        groups_of: Callable[[str], tuple[str, ...]],
    ) -> None:
        self.pid = pid
        self.read_fd = read_fd
        self.names = names
        self.groups_of = groups_of
        self.reaped = False  # the child has been waited for (its pid may be reused after)

    @classmethod
    def start(
        cls,
        ctx: ProbeContext,
        names: tuple[str, ...],
        run: Callable[[ProbeContext, tuple[str, ...]], list[tuple[str, list[FactGroup], dict]]],
        groups_of: Callable[[str], tuple[str, ...]],
    ) -> ForkedProbes | None:
        """Fork a child that calls `run(ctx, names)` (-> [(probe, groups, timing row)]) and sends
        back what it returns; None when the fork failed (the caller then runs `names` itself).
        `groups_of(probe)` names a probe's groups, for the failed groups of a worker that failed."""
        try:
            read_fd, write_fd = os.pipe()
        except OSError:
            return None
        try:
            pid = os.fork()
        except OSError:
            os.close(read_fd)
            os.close(write_fd)
            return None
        if pid == 0:  # the child: never returns
            _child(ctx, names, run, read_fd, write_fd)
        os.close(write_fd)
        return cls(pid, read_fd, names, groups_of)

    def result(self, deadline: float) -> WorkerResult:
        """The child's groups and timings by probe; failed groups for what it did not deliver."""
        import select

        chunks: list[bytes] = []
        why = None
        try:
            while True:
                left = deadline + GRACE_S - time.monotonic()
                if left <= 0:
                    why = "did not answer by the overall deadline and was stopped"
                    break
                ready, _, _ = select.select([self.read_fd], [], [], left)
                if not ready:
                    continue
                chunk = os.read(self.read_fd, 1 << 16)
                if not chunk:
                    break
                chunks.append(chunk)
        finally:
            os.close(self.read_fd)
        status = self._reap(stop=why is not None)
        if why is None:
            try:
                return self._decode(b"".join(chunks))
            except (ValueError, KeyError, TypeError) as exc:
                why = (
                    f"sent an unreadable answer ({type(exc).__name__}: {exc}; exit status {status})"
                )
        return self._all_failed(f"probe worker process {why}")

    def stop(self) -> None:
        """End the child now (it stops its commands on SIGTERM first) and reap it: on a signal
        to envdoctor, so that neither the child nor its tools outlive the parent."""
        if not self.reaped:
            self._reap(stop=True)

    def _reap(self, stop: bool) -> int | None:
        status = self._wait(stop)
        self.reaped = True
        return status

    def _wait(self, stop: bool) -> int | None:
        import signal

        if stop:
            for sig, wait_s in ((signal.SIGTERM, 0.5), (signal.SIGKILL, 2.0)):
                try:
                    os.kill(self.pid, sig)
                except ProcessLookupError:
                    break
                end = time.monotonic() + wait_s
                while time.monotonic() < end:
                    pid, status = os.waitpid(self.pid, os.WNOHANG)
                    if pid:
                        return status
                    time.sleep(0.01)
        try:
            return os.waitpid(self.pid, 0)[1]
        except ChildProcessError:
            return None

    def _decode(self, payload: bytes) -> WorkerResult:
        import json

        doc = json.loads(payload.decode("utf-8"))
        out: WorkerResult = {}
        for name in self.names:
            entry = doc["probes"][name]
            groups = [FactGroup.from_dict(g, obj) for g, obj in entry["groups"].items()]
            out[name] = (groups, dict(entry["timing"]))
        return out

    def _all_failed(self, reason: str) -> WorkerResult:
        return {
            name: (
                [failed(g, f"probe:{name}", reason) for g in self.groups_of(name)],
                {"name": name, "duration_ms": 0.0, "outcome": "crashed"},
            )
            for name in self.names
        }


def _child(
    ctx: ProbeContext, names: tuple[str, ...], run: Callable, read_fd: int, write_fd: int
) -> None:
    """Run the probes, write the answer, and end this process whatever happens."""
    import json
    import signal

    code = 1
    try:
        os.close(read_fd)
        for sig in (signal.SIGTERM, signal.SIGINT):  # Ctrl-C reaches the child too
            if sig == signal.SIGTERM or signal.getsignal(sig) is not signal.SIG_IGN:
                signal.signal(sig, lambda *_: _stop_and_exit(ctx))
        results = run(ctx, names)
        payload = json.dumps(
            {
                "probes": {
                    name: {
                        "groups": {g.name: g.to_dict(include_raw=True) for g in groups},
                        "timing": timing,
                    }
                    for name, groups, timing in results
                }
            }
        ).encode("utf-8")
        view = memoryview(payload)
        while view:
            view = view[os.write(write_fd, view) :]
        code = 0
    except BaseException:  # noqa: BLE001 - the parent reports a child that sent nothing
        code = 2
    finally:
        os._exit(code)


def _stop_and_exit(ctx: ProbeContext) -> None:
    """SIGTERM (or Ctrl-C) in the worker: stop the commands it started, then end at once."""
    ctx.stop()
    os._exit(3)
