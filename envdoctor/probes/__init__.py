"""Probes: the only code that looks at the live system, one module per layer.

Each probe module defines `GROUPS` (the fact-group names it fills), optionally `TIMEOUT_S`, and
`collect(ctx) -> list[FactGroup]`. `collect_all` runs them in parallel daemon threads under a
per-probe and an overall deadline: a probe that hangs or raises becomes failed fact groups with
the reason, never a traceback, and never holds up the exit.
"""

from __future__ import annotations

import importlib
import threading
import time
from dataclasses import dataclass, field
from datetime import timezone
from typing import Protocol, cast, runtime_checkable

from envdoctor import __version__
from envdoctor.model.snapshot import FactGroup, Snapshot, failed
from envdoctor.probes.context import ProbeContext, stopped_on_signals

# Listed explicitly, in display order. Add a module here when you add a probe.
PROBE_MODULES: tuple[str, ...] = (
    "os_info",
    "platform_wsl",
    "platform_windows",
    "platform_macos",
    "platform_jetson",
    "platform_android",
    "platform_vm",
    "platform_graphics",
    "python_env",
    "python_notebook",
    "installer_config",
    "torch_build",
    "frameworks",
    "deep",
    "container_inside",
    "container_docker",
    "container_toolkit",
    "container_cdi",
    "container_podman",
    "cuda_toolkit",
    "cuda_libraries",
    "nvidia_gpu",
    "nvidia_pci",
    "nvidia_kernel",
    "nvidia_events",
    "amd_gpu",
    "amd_kernel",
    "amd_rocm",
    "amd_env",
    "intel_gpu",
    "apps_detect",
    "apps_ollama",
    "apps_llamacpp",
    "apps_halcon",
    "apps_torchserve",
)

DEFAULT_PROBE_TIMEOUT_S = 10.0


@runtime_checkable
class ProbeModule(Protocol):
    """What a probe module defines (`TIMEOUT_S`, seconds, is optional)."""

    GROUPS: tuple[str, ...]

    def collect(self, ctx: ProbeContext) -> list[FactGroup]:
        """The fact groups this probe fills, collected through `ctx`."""
        ...


@dataclass
class ProbeTiming:
    """How long one probe took, and how it ended ("ok", "failed", "timeout", "crashed")."""

    name: str
    duration_ms: float
    outcome: str


@dataclass
class Collection:
    """The result of running probes: a snapshot and per-probe timings."""

    snapshot: Snapshot
    timings: list[ProbeTiming] = field(default_factory=list)


def collect_all(ctx: ProbeContext, modules: tuple[str, ...] | None = None) -> Collection:
    """Run the probes (all, `modules`, or ctx.options.only) and gather their facts: in threads, and
    on Linux part of them in a forked worker process (`envdoctor.probes.worker`) for a second core.
    SIGINT and SIGTERM meanwhile end every command started, and the worker, before envdoctor."""
    from envdoctor.probes import target_python

    names = modules or ctx.options.only or PROBE_MODULES
    ctx.options = target_python.resolved_options(ctx)  # one interpreter for every probe
    snapshot = Snapshot(
        origin="live",
        created_at=ctx.now().astimezone(timezone.utc).isoformat(),
        envdoctor_version=__version__,
    )
    overall_deadline = time.monotonic() + ctx.options.timeout_s
    stops: list = []  # run on SIGINT/SIGTERM after ctx.stop(): the worker process's end
    with stopped_on_signals(ctx, stops):
        return _collect(ctx, names, snapshot, overall_deadline, stops)


def _collect(
    ctx: ProbeContext,
    names: tuple[str, ...],
    snapshot: Snapshot,
    overall_deadline: float,
    stops: list,
) -> Collection:
    from envdoctor.probes import worker

    theirs = worker.share(tuple(names))
    forked = (
        worker.ForkedProbes.start(
            ctx,
            theirs,
            lambda c, n: [
                (name, groups, vars(timing))
                for name, groups, timing in _run_here(c, n, overall_deadline)
            ],
            lambda name: declared_groups(name) or (name,),
        )
        if theirs
        else None
    )
    if forked is not None:
        stops.append(forked.stop)
    mine = tuple(n for n in names if forked is None or n not in theirs)
    results = {
        name: (groups, timing) for name, groups, timing in _run_here(ctx, mine, overall_deadline)
    }
    if forked is not None:
        results.update(
            {
                name: (groups, ProbeTiming(**timing))
                for name, (groups, timing) in forked.result(overall_deadline).items()
            }
        )
    timings = []
    for name in names:
        groups, timing = results[name]
        snapshot.extend(groups)
        timings.append(timing)
    snapshot.add(_timings_group(timings))
    return Collection(snapshot, timings)


def _run_here(
    ctx: ProbeContext, names: tuple[str, ...], overall_deadline: float
) -> list[tuple[str, list[FactGroup], ProbeTiming]]:
    """Run `names` in this process, each on its own thread, under the deadlines."""
    runners = []
    for name in names:  # each starts as soon as its module is imported: its commands run meanwhile
        runner = _Runner(name, ctx)
        runner.thread.start()
        runners.append(runner)
    out = []
    for runner in runners:
        limit = min(runner.deadline, overall_deadline)
        runner.thread.join(max(0.0, limit - time.monotonic()))
        groups, timing = runner.outcome()
        out.append((runner.name, groups, timing))
    if any(timing.outcome == "timeout" for _, _, timing in out):
        ctx.stop()  # no command of an abandoned probe outlives envdoctor
    return out


_GROUPS_LINE = r"^GROUPS\s*(?::[^=\n]*)?=\s*(\([^)]*\)|\[[^\]]*\])"  # `GROUPS = ("a", "b")` in a module's source


def declared_groups(name: str) -> tuple[str, ...]:
    """A probe module's GROUPS, read from its source when it is a literal (so choosing the probes
    does not import all of them), else from the imported module; () when it cannot load."""
    import ast
    import os
    import re

    try:
        with open(
            os.path.join(os.path.dirname(__file__), f"{name}.py"), encoding="utf-8"
        ) as handle:
            match = re.search(_GROUPS_LINE, handle.read(), re.MULTILINE)
        if match:
            value = ast.literal_eval(match.group(1))
            if isinstance(value, (tuple, list)) and all(isinstance(g, str) for g in value):
                return tuple(value)
    except (OSError, ValueError, SyntaxError):
        pass
    try:
        module = importlib.import_module(f"envdoctor.probes.{name}")
    except Exception:  # noqa: BLE001 - a broken probe fills nothing; check reports it
        return ()
    return tuple(getattr(module, "GROUPS", (name,)))


class _Runner:
    """One probe on its own daemon thread."""

    def __init__(self, name: str, ctx: ProbeContext) -> None:
        self.name = name
        self.ctx = ctx
        self.groups: list[FactGroup] | None = None
        self.error: str | None = None
        self.group_names: tuple[str, ...] = (name,)
        self.timeout_s = DEFAULT_PROBE_TIMEOUT_S
        self.module: ProbeModule | None = None
        try:
            self.module = cast(ProbeModule, importlib.import_module(f"envdoctor.probes.{name}"))
            self.group_names = tuple(getattr(self.module, "GROUPS", (name,)))
            self.timeout_s = float(getattr(self.module, "TIMEOUT_S", DEFAULT_PROBE_TIMEOUT_S))
        except Exception as exc:  # noqa: BLE001 - a broken probe module is a fact, not a crash
            self.error = f"probe module could not load: {type(exc).__name__}: {exc}"
        self.started = time.monotonic()
        self.deadline = self.started + self.timeout_s
        self.finished: float | None = None
        self.thread = threading.Thread(target=self._work, name=f"probe-{name}", daemon=True)

    def _work(self) -> None:
        if self.module is None:
            self.finished = time.monotonic()
            return
        try:
            self.groups = list(self.module.collect(self.ctx))
        except Exception as exc:  # noqa: BLE001
            self.error = f"probe crashed: {type(exc).__name__}: {exc}"
        self.finished = time.monotonic()

    def outcome(self) -> tuple[list[FactGroup], ProbeTiming]:
        source = f"probe:{self.name}"
        if self.finished is None:
            elapsed = time.monotonic() - self.started
            reason = f"probe {self.name} did not finish within {elapsed:.1f} s and was abandoned"
            waiting_on = sorted(set(self.ctx.running(self.thread.name)))
            if waiting_on:
                reason += f" (still running: {', '.join(waiting_on)})"
            return (
                [failed(g, source, reason) for g in self.group_names],
                ProbeTiming(self.name, elapsed * 1000, "timeout"),
            )
        duration_ms = (self.finished - self.started) * 1000
        if self.error is not None or self.groups is None:
            reason = self.error or "probe returned nothing"
            return (
                [failed(g, source, reason) for g in self.group_names],
                ProbeTiming(self.name, duration_ms, "crashed"),
            )
        for group in self.groups:
            if group.duration_ms is None:
                group.duration_ms = duration_ms
        outcome = "ok" if all(g.status.value != "failed" for g in self.groups) else "failed"
        return self.groups, ProbeTiming(self.name, duration_ms, outcome)


def _timings_group(timings: list[ProbeTiming]) -> FactGroup:
    from envdoctor.model.snapshot import collected

    return collected(
        "envdoctor.timings",
        "envdoctor",
        {
            "probes": [
                {"name": t.name, "duration_ms": round(t.duration_ms, 1), "outcome": t.outcome}
                for t in timings
            ],
        },
        summary=f"{len(timings)} probes",
    )
