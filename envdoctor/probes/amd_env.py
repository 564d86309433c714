"""The environment variables that decide which AMD GPUs ROCm shows and as what target.

Fills `amd.env` with variables {NAME: {set, value}} for HSA_OVERRIDE_GFX_VERSION (and its per-device
HSA_OVERRIDE_GFX_VERSION_<N> forms), ROCR_VISIBLE_DEVICES, HIP_VISIBLE_DEVICES,
CUDA_VISIBLE_DEVICES (HIP honours it too), GPU_DEVICE_ORDINAL, HCC_AMDGPU_TARGET,
PYTORCH_ROCM_ARCH, HSA_ENABLE_DXG_DETECTION; override {value, gfx} (the target the runtime will
report) and per_device_overrides {N: {value, gfx}}; slurm {job_id, job_gpus, step_gpus} when
running under Slurm; ollama {path, service_env {NAME: value} from the systemd unit and its
drop-ins, service_files} when Ollama is installed. Absent when none of the variables is set and
neither Slurm nor Ollama is there.
"""

from __future__ import annotations

import re
from typing import Any

from envdoctor.model import amd_gfx
from envdoctor.model.snapshot import FactGroup, absent, collected
from envdoctor.probes.context import ProbeContext

GROUPS = ("amd.env",)
TIMEOUT_S = 3.0
SOURCE = "probe:amd_env"
VARIABLES = (
    "HSA_OVERRIDE_GFX_VERSION",
    "ROCR_VISIBLE_DEVICES",
    "HIP_VISIBLE_DEVICES",
    "CUDA_VISIBLE_DEVICES",
    "GPU_DEVICE_ORDINAL",
    "HCC_AMDGPU_TARGET",
    "PYTORCH_ROCM_ARCH",
    "HSA_ENABLE_DXG_DETECTION",
)
OLLAMA_UNITS = (
    "/etc/systemd/system/ollama.service",
    "/usr/lib/systemd/system/ollama.service",
    "/lib/systemd/system/ollama.service",
)
_PER_DEVICE = re.compile(r"^HSA_OVERRIDE_GFX_VERSION_(\d+)$")
_ENVIRONMENT = re.compile(r"^\s*Environment\s*=\s*(.+)$", re.M)
_ASSIGNMENT = re.compile(r"\"([A-Za-z_][A-Za-z0-9_]*)=([^\"]*)\"|([A-Za-z_][A-Za-z0-9_]*)=(\S*)")


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Read the ROCm-related variables of this process (and Ollama's service)."""
    variables = {name: {"set": name in ctx.env, "value": ctx.env.get(name)} for name in VARIABLES}
    per_device = {}
    for name, value in sorted(ctx.env.items()):
        match = _PER_DEVICE.match(name)
        if match:
            per_device[match.group(1)] = {"value": value, "gfx": amd_gfx.gfx_from_override(value)}
    override = ctx.env.get("HSA_OVERRIDE_GFX_VERSION")
    data: dict[str, Any] = {
        "variables": variables,
        "override": {"value": override, "gfx": amd_gfx.gfx_from_override(override)}
        if override is not None
        else None,
        "per_device_overrides": per_device,
        "slurm": _slurm(ctx),
        "ollama": _ollama(ctx),
    }
    shown = [f"{k}={v['value']}" for k, v in variables.items() if v["set"]]
    if not shown and not per_device and data["ollama"] is None and data["slurm"] is None:
        return [
            absent(
                "amd.env",
                SOURCE,
                "no ROCm variable set (" + ", ".join(VARIABLES[:4]) + ") and no Ollama",
            )
        ]
    if data["ollama"] is not None:
        shown.append(f"Ollama at {data['ollama']['path'] or data['ollama']['service_files'][0]}")
    return [collected("amd.env", SOURCE, data, summary=", ".join(shown) or "no ROCm variables set")]


def _slurm(ctx: ProbeContext) -> dict[str, Any] | None:
    if not ctx.env.get("SLURM_JOB_ID"):
        return None
    return {
        "job_id": ctx.env.get("SLURM_JOB_ID"),
        "job_gpus": ctx.env.get("SLURM_JOB_GPUS"),
        "step_gpus": ctx.env.get("SLURM_STEP_GPUS"),
    }


def _ollama(ctx: ProbeContext) -> dict[str, Any] | None:
    path = ctx.which("ollama") or next(
        (p for p in ("/usr/local/bin/ollama", "/usr/bin/ollama") if ctx.exists(p)), None
    )
    files = [u for u in OLLAMA_UNITS if ctx.exists(u)]
    files += [p for p in ctx.glob("/etc/systemd/system/ollama.service.d/*.conf")]
    if path is None and not files:
        return None
    env: dict[str, str] = {}
    for file in files:
        for line in _ENVIRONMENT.findall(ctx.read_text(file) or ""):
            for quoted_name, quoted_value, name, value in _ASSIGNMENT.findall(line):
                env[quoted_name or name] = quoted_value if quoted_name else value
    return {"path": path, "service_files": files, "service_env": env}
