"""`--deep`: a real GPU test in the target interpreter, in a subprocess under a deadline.

Fills `python.deep` from the JSON lines `deep_script.py` prints: `outcome` ("ok",
"import-failed", "timeout", "crashed"), `cuda_available`, `backend` ("cuda" / "rocm" / "xpu" /
"mps" / None), `device_count`, `devices` [{index, device, name, capability, total_memory_mib,
matmul_ok, max_abs_err, error, backend}], `matmul_ok` {device: bool}, `arch_list` (what
`torch.cuda.get_arch_list()` said), `error` (the first exception text, exact), `warnings`,
`hung_at` (the step running when the deadline hit or the process died), `backends` (each backend's
own answer), `extensions` {module: {ok, error}}, `torch_version`, `cxx11_abi`, `duration_s`.

Absent unless `--deep` was given. The deadline holds whatever the script does: `ctx.run` kills
its whole process group when the time is up, and what it printed until then is kept.
"""

from __future__ import annotations

import json
import signal
from pathlib import Path
from typing import Any

from envdoctor.context import CommandResult, ProbeContext
from envdoctor.probes import deep_script
from envdoctor.snapshot import FactGroup, absent, collected, failed

GROUPS = ("python.deep",)
DEEP_MAX_S = 60.0  # the script's own deadline never exceeds this
TIMEOUT_S = DEEP_MAX_S + 5.0
MARGIN_S = 1.5  # left to the other probes' bookkeeping inside the overall deadline
MIN_S = 2.0


def deadline_s(ctx: ProbeContext) -> float:
    """How long the script may run: the overall deadline less a margin, within [2, 60] s."""
    return max(MIN_S, min(DEEP_MAX_S, ctx.options.timeout_s - MARGIN_S))


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Run the deep test when asked for."""
    source = "probe:deep"
    if not ctx.options.deep:
        return [absent("python.deep", source, "not requested (add --deep to run a GPU test)")]
    if ctx.options.python is None and str(ctx.root) != "/":
        reason = f"the GPU test runs an interpreter; the one under {ctx.root} is not started"
        return [absent("python.deep", source, reason)]
    python = ctx.options.python or _own_python()
    if python is None:
        return [failed("python.deep", source, "no interpreter to run the GPU test in")]
    limit = deadline_s(ctx)
    result = ctx.run([python, str(Path(deep_script.__file__))], timeout_s=limit)
    if result.error and result.returncode is None and not result.stdout:
        if "timed out" not in result.error:  # it never started
            return [failed("python.deep", source, f"could not run the GPU test: {result.error}")]
    data = interpret(result, limit)
    if data["outcome"] == "import-failed" and str(data["error"]).startswith(
        "ModuleNotFoundError: No module named 'torch'"
    ):
        return [
            absent("python.deep", source, f"torch is not installed in {python} (nothing to test)")
        ]
    return [
        collected(
            "python.deep",
            f"{source} ({python})",
            data,
            summary=_summary(data),
            raw={"deep_script": result.stdout[-20000:], "stderr": result.stderr[-4000:]},
        )
    ]


def _own_python() -> str | None:
    import sys

    return sys.executable or None


def interpret(result: CommandResult, limit_s: float) -> dict[str, Any]:
    """The python.deep facts from the script's output and how it ended."""
    events = _events(result.stdout)
    data: dict[str, Any] = {
        "outcome": "ok",
        "cuda_available": None,
        "backend": None,
        "device_count": 0,
        "devices": [],
        "matmul_ok": {},
        "arch_list": None,
        "error": None,
        "warnings": [],
        "hung_at": None,
        "backends": {},
        "extensions": {},
        "torch_version": None,
        "torch_cuda": None,
        "torch_hip": None,
        "cxx11_abi": None,
        "duration_s": round(result.duration_s, 3),
        "deadline_s": limit_s,
    }
    last_begin: str | None = None
    done = False
    for ev in events:
        kind = ev.get("event")
        if kind == "begin":
            last_begin = str(ev.get("step"))
        elif kind == "import":
            last_begin = None
            _first_error(data, ev.get("error"))
            _warn(data, ev.get("warnings"))
            if ev.get("ok"):
                data.update(
                    torch_version=ev.get("version"),
                    torch_cuda=ev.get("cuda"),
                    torch_hip=ev.get("hip"),
                    cxx11_abi=ev.get("cxx11_abi"),
                    import_s=ev.get("seconds"),
                )
            else:
                data["outcome"] = "import-failed"
        elif kind == "backend":
            last_begin = None
            _backend(data, ev)
        elif kind == "device":
            last_begin = None
            _device(data, ev)
        elif kind == "extension":
            last_begin = None
            data["extensions"][str(ev.get("module"))] = {
                "ok": bool(ev.get("ok")),
                "error": ev.get("error"),
                "version": ev.get("version"),
            }
        elif kind == "step-error":
            _first_error(data, ev.get("error"))
        elif kind == "done":
            done = True
    if not done:
        data["hung_at"] = last_begin or "start of the interpreter"
        if result.error and "timed out" in result.error:
            data["outcome"] = "timeout"
            reason = f"{data['hung_at']} did not finish within {limit_s:g} s (killed)"
        else:
            data["outcome"] = "crashed"
            reason = f"the interpreter died during {data['hung_at']}: {_death(result)}"
        data["error"] = data["error"] or reason
        data["failure"] = reason
    if data["cuda_available"] is None and data["outcome"] in ("ok", "import-failed"):
        data["cuda_available"] = False
    return data


def _events(stdout: str) -> list[dict[str, Any]]:
    events = []
    for line in stdout.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue  # torch and extensions may print their own chatter
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(obj, dict) and "event" in obj:
            events.append(obj)
    return events


def _backend(data: dict[str, Any], ev: dict[str, Any]) -> None:
    name = str(ev.get("backend"))
    entry = {k: ev.get(k) for k in ("built", "available", "device_count", "arch_list", "error")}
    data["backends"][name] = entry
    _warn(data, ev.get("warnings"))
    if name in ("cuda", "rocm"):
        data["cuda_available"] = bool(ev.get("available"))
        data["arch_list"] = ev.get("arch_list")
        if ev.get("built"):
            _first_error(data, ev.get("error"))
    elif ev.get("available") or ev.get("built"):
        _first_error(data, ev.get("error") if ev.get("built") else None)
    if ev.get("available") and data["backend"] is None:
        data["backend"] = name
        data["device_count"] = int(ev.get("device_count") or 0)
        if name not in ("cuda", "rocm") and ev.get("arch_list"):
            data["arch_list"] = ev.get("arch_list")


def _device(data: dict[str, Any], ev: dict[str, Any]) -> None:
    device = {
        k: ev.get(k)
        for k in (
            "index",
            "device",
            "backend",
            "name",
            "capability",
            "total_memory_mib",
            "gcn_arch",
            "matmul_ok",
            "max_abs_err",
        )
    }
    error = ev.get("matmul_error") or ev.get("error")
    device["error"] = error
    data["devices"].append(device)
    data["matmul_ok"][str(ev.get("device"))] = bool(ev.get("matmul_ok"))
    _warn(data, ev.get("warnings"))
    _first_error(data, error)


def _first_error(data: dict[str, Any], error: Any) -> None:
    if error and not data["error"]:
        data["error"] = str(error)


def _warn(data: dict[str, Any], warnings: Any) -> None:
    for text in warnings or []:
        if text not in data["warnings"]:
            data["warnings"].append(str(text))


def _death(result: CommandResult) -> str:
    code = result.returncode
    if code is not None and code < 0:
        try:
            how = f"killed by {signal.Signals(-code).name}"
        except ValueError:
            how = f"killed by signal {-code}"
    elif code is not None:
        how = f"exit status {code}"
    else:
        how = result.error or "no exit status"
    tail = (result.stderr.strip().splitlines() or [""])[-1][:300]
    return f"{how}{': ' + tail if tail else ''}"


def _summary(data: dict[str, Any]) -> str:
    if data["outcome"] in ("timeout", "crashed"):
        return f"GPU test failed: {data.get('failure')}"
    if data["outcome"] == "import-failed":
        return f"import torch failed: {data['error']}"
    if not data["devices"]:
        return f"torch {data['torch_version']}: no usable GPU ({data['error'] or 'none found'})"
    good = sum(1 for d in data["devices"] if d.get("matmul_ok"))
    return (
        f"torch {data['torch_version']}: {len(data['devices'])} {data['backend']} device(s), "
        f"matmul correct on {good}"
    )
