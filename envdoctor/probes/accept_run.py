"""Running `envdoctor accept`: the load in the target interpreter, NVML (or rocm-smi) sampled meanwhile, the
kernel log read before and after, and everything ended on Ctrl-C, SIGTERM or the deadline.

The load (`accept_load_script.py`) runs in its own process group; when the run ends for any
reason the whole group is killed and waited for, so no load is left on the GPU. The facts come
back as fact groups: `accept.run` (what was asked and how it ended), `accept.gpus` (each GPU's
identity and own limits), `accept.series` (the samples), `accept.results` (the load's results
per GPU, errors included) and `accept.xids` (Xid lines the kernel logged during the run).
"""

from __future__ import annotations

import json
import os
import queue
import signal
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from envdoctor.model.snapshot import FactGroup, collected
from envdoctor.probes import accept_sampler, accept_sampler_amd, nvidia_events
from envdoctor.probes.context import ProbeContext, end_process, start_streaming
from envdoctor.target import accept_load_script

SOURCE = "probe:accept"
# the time correctness, bandwidth and the VRAM patterns may take besides the load, per GPU
SETUP_ALLOWANCE_S = 180.0
KILL_GRACE_S = 2.0


class NoGpu(Exception):
    """No GPU to test here (the message says why, in one line)."""


@dataclass
class AcceptRequest:
    """What the user asked for."""

    python: str
    gpus: list[int] | None  # None: every GPU
    seconds: float
    memory_fraction: float
    interval_s: float = 1.0
    env: dict[str, str] = field(default_factory=lambda: dict(os.environ))


@dataclass
class LoadOutcome:
    """What the load process said, and how it ended."""

    events: list[dict[str, Any]] = field(default_factory=list)
    ended: str = "completed"  # completed / interrupted / deadline / crashed
    returncode: int | None = None
    stderr_tail: str = ""


class Backend(Protocol):
    """What the run needs of a GPU sampler: NVML (`accept_sampler.Nvml`) or rocm-smi
    (`accept_sampler_amd.RocmSmi`)."""

    name: str

    def init(self) -> str | None: ...
    def device_count(self) -> int: ...
    def describe(self, indices: list[int]) -> list[dict[str, Any]]: ...
    def read(self, indices: list[int]) -> list[dict[str, Any]]: ...
    def shutdown(self) -> None: ...


def open_backend(env: dict[str, str]) -> Backend:
    """NVML when it initialises, else rocm-smi when it lists GPUs; NoGpu (both reasons in one
    line) when neither does."""
    nvml = accept_sampler.Nvml()
    nvml_error = nvml.init()
    if nvml_error is None and nvml.device_count() > 0:
        return nvml
    if nvml_error is None:
        nvml.shutdown()
        nvml_error = "NVML lists no GPU"
    else:
        nvml_error = f"NVML says {nvml_error}"
    amd = accept_sampler_amd.RocmSmi(env)
    amd_error = amd.init()
    if amd_error is None:
        return amd
    raise NoGpu(f"no GPU can be tested here: {nvml_error}; {amd_error}")


def gpu_indices(backend: Backend, requested: list[int] | None) -> list[int]:
    """The GPUs to test; NoGpu (after closing the backend) when an index does not exist."""
    count = backend.device_count()
    indices = requested if requested else list(range(count))
    missing = [i for i in indices if not 0 <= i < count]
    if missing:
        backend.shutdown()
        raise NoGpu(f"no GPU with index {missing[0]} (this machine has {count}: 0..{count - 1})")
    return indices


def xid_lines(env: dict[str, str]) -> list[dict[str, Any]]:
    """The Xid entries of the kernel log now ([] when it cannot be read)."""
    (group,) = nvidia_events.collect(ProbeContext(env=env))
    return list((group.data or {}).get("xids", [])) if group.collected else []


def new_entries(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Entries of `after` beyond those already in `before` (a multiset difference)."""
    seen = Counter(json.dumps(x, sort_keys=True) for x in before)
    out = []
    for entry in after:
        key = json.dumps(entry, sort_keys=True)
        if seen[key]:
            seen[key] -= 1
        else:
            out.append(entry)
    return out


def run(request: AcceptRequest) -> list[FactGroup]:
    """Run the acceptance test (NoGpu when there is nothing to test); KeyboardInterrupt is
    re-raised after the load is ended, with the facts gathered so far in `.groups`."""
    backend = open_backend(request.env)
    indices = gpu_indices(backend, request.gpus)
    started_at = time.time()
    try:
        gpus = backend.describe(indices)
        xids_before = xid_lines(request.env)
        sampler = accept_sampler.Sampler(indices, request.interval_s, backend.read).start()
        interrupted: BaseException | None = None
        try:
            outcome = _run_load(request, indices, sampler)
        except KeyboardInterrupt as exc:
            outcome, interrupted = getattr(exc, "outcome", LoadOutcome(ended="interrupted")), exc
        samples = sampler.stop()
        xids = new_entries(xids_before, xid_lines(request.env))
    finally:
        backend.shutdown()
    groups = _groups(request, indices, gpus, samples, outcome, xids, time.time() - started_at)
    if interrupted is not None:
        interrupted.groups = groups  # type: ignore[attr-defined]
        raise interrupted
    return groups


def _run_load(
    request: AcceptRequest, indices: list[int], sampler: accept_sampler.Sampler
) -> LoadOutcome:
    argv = [
        request.python,
        str(Path(accept_load_script.__file__)),
        "--gpus",
        ",".join(str(i) for i in indices),
        "--seconds",
        repr(request.seconds),
        "--memory-fraction",
        repr(request.memory_fraction),
    ]
    deadline = time.monotonic() + request.seconds + SETUP_ALLOWANCE_S * len(indices)
    outcome = LoadOutcome()
    previous_term = signal.getsignal(signal.SIGTERM)
    in_main = threading.current_thread() is threading.main_thread()
    if in_main:  # SIGTERM ends the run like Ctrl-C: the load is killed, then we exit
        signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        process = start_streaming(argv, request.env)  # its own process group, killed as a whole
    except OSError as exc:
        if in_main:
            signal.signal(signal.SIGTERM, previous_term)
        return LoadOutcome(ended="crashed", stderr_tail=f"could not start {request.python}: {exc}")
    lines: queue.Queue[str | None] = queue.Queue()
    stderr: list[str] = []
    readers = [
        threading.Thread(target=_pump_lines, args=(process.stdout, lines), daemon=True),
        threading.Thread(target=_pump_text, args=(process.stderr, stderr), daemon=True),
    ]
    for reader in readers:
        reader.start()
    try:
        while True:
            try:
                line = lines.get(timeout=max(0.0, min(0.5, deadline - time.monotonic())))
            except queue.Empty:
                if time.monotonic() >= deadline:
                    outcome.ended = "deadline"
                    break
                continue
            if line is None:  # the load closed its output: it has ended
                break
            event = _event(line)
            if event is None:
                continue
            outcome.events.append(event)
            if event.get("event") == "phase":
                sampler.phase = str(event.get("phase"))
    except KeyboardInterrupt as exc:
        outcome.ended = "interrupted"
        exc.outcome = outcome  # type: ignore[attr-defined]
        raise
    finally:
        end_process(process, KILL_GRACE_S)
        for reader in readers:
            reader.join(timeout=1.0)
        sampler.phase = "idle"
        if in_main:
            signal.signal(signal.SIGTERM, previous_term)
        outcome.returncode = process.returncode
        outcome.stderr_tail = "".join(stderr)[-2000:]
    if outcome.ended == "completed" and not any(e.get("event") == "done" for e in outcome.events):
        outcome.ended = "crashed"
    return outcome


def _raise_interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def _pump_lines(stream: Any, lines: queue.Queue[str | None]) -> None:
    """Queue a pipe's lines, then None when it closes."""
    for raw in iter(stream.readline, b""):
        lines.put(raw.decode("utf-8", "replace"))
    lines.put(None)


def _pump_text(stream: Any, chunks: list[str]) -> None:
    """Keep what a pipe says (stderr: the load's warnings and tracebacks)."""
    for raw in iter(stream.readline, b""):
        chunks.append(raw.decode("utf-8", "replace"))


def _event(line: str) -> dict[str, Any] | None:
    try:
        event = json.loads(line)
    except json.JSONDecodeError:
        return None
    return event if isinstance(event, dict) else None


def per_gpu_results(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The phases' results gathered per GPU: [{index, device, correctness, bandwidth, ...}]."""
    by_index: dict[int, dict[str, Any]] = {}
    for event in events:
        if event.get("event") == "result" and isinstance(event.get("index"), int):
            entry = by_index.setdefault(
                event["index"], {"index": event["index"], "device": event.get("device")}
            )
            entry[str(event.get("phase"))] = event.get("data")
    return [by_index[i] for i in sorted(by_index)]


def _groups(
    request: AcceptRequest,
    indices: list[int],
    gpus: list[dict[str, Any]],
    samples: list[dict[str, Any]],
    outcome: LoadOutcome,
    xids: list[dict[str, Any]],
    duration_s: float,
) -> list[FactGroup]:
    results = per_gpu_results(outcome.events)
    errors = [e for e in outcome.events if e.get("event") == "error"]
    start = next((e for e in outcome.events if e.get("event") == "start"), {})
    run_facts = {
        "gpus": indices,
        "seconds_requested": request.seconds,
        "memory_fraction": request.memory_fraction,
        "python": request.python,
        "torch": start.get("torch"),
        "device_override": request.env.get("ENVDOCTOR_ACCEPT_DEVICE"),
        "ended": outcome.ended,
        "returncode": outcome.returncode,
        "duration_s": round(duration_s, 1),
        "errors": errors,
        "stderr_tail": outcome.stderr_tail if outcome.ended != "completed" else "",
    }
    names = ", ".join(str(g.get("name")) for g in gpus)
    return [
        collected(
            "accept.run", SOURCE, run_facts, summary=f"{outcome.ended} in {duration_s:.0f} s"
        ),
        collected("accept.gpus", SOURCE, {"gpus": gpus}, summary=names),
        collected("accept.series", SOURCE, {"samples": samples}, summary=f"{len(samples)} samples"),
        collected("accept.results", SOURCE, {"gpus": results}, summary=f"{len(results)} GPU(s)"),
        collected("accept.xids", SOURCE, {"xids": xids}, summary=f"{len(xids)} new Xid line(s)"),
    ]
