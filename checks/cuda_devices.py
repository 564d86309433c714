"""CUDA_VISIBLE_DEVICES against the GPUs that are really there."""

from __future__ import annotations

import re
import shlex
from typing import Any

from envdoctor.checks import cuda_shell
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.snapshot import Snapshot

_ENV_VARS = "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#env-vars"
_FORCE_CPU_IDIOMS = ("", "-1")


def _match(token: str, gpus: list[dict[str, Any]]) -> str | None:
    """The GPU (or MIG device) a CUDA_VISIBLE_DEVICES entry names, or None when it names none."""
    if re.fullmatch(r"\d+", token):
        index = int(token)
        return f"GPU {index}" if index < len(gpus) else None
    lowered = token.lower()
    if lowered.startswith("gpu-"):
        hits = [g for g in gpus if str(g.get("uuid") or "").lower().startswith(lowered)]
        return f"GPU {hits[0].get('index')}" if len(hits) == 1 else None
    if lowered.startswith("mig-gpu-"):  # legacy form MIG-GPU-<uuid>/<gi>/<ci>
        parts = token[len("MIG-") :].split("/")
        hits = [g for g in gpus if str(g.get("uuid") or "").lower() == parts[0].lower()]
        if len(hits) != 1 or len(parts) != 3:
            return None
        devices = hits[0].get("mig_devices") or []
        wanted = (parts[1], parts[2])
        ok = any(
            (str(m.get("gpu_instance_id")), str(m.get("compute_instance_id"))) == wanted
            for m in devices
        )
        return (
            f"MIG {parts[1]}/{parts[2]} on GPU {hits[0].get('index')}"
            if ok or not devices
            else None
        )
    if lowered.startswith("mig-"):
        mig_hits = [
            (g, m)
            for g in gpus
            for m in (g.get("mig_devices") or [])
            if str(m.get("uuid") or "").lower().startswith(lowered)
        ]
        return f"MIG device on GPU {mig_hits[0][0].get('index')}" if len(mig_hits) == 1 else None
    return None


@check("cuda.visible-devices-hide-gpus", needs=("cuda.env", "nvidia.gpus"))
def visible_devices_hide_gpus(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """CUDA_VISIBLE_DEVICES hides GPUs that are present.

    CUDA makes visible only the devices listed in CUDA_VISIBLE_DEVICES, in that order; entries are
    indices, GPU UUIDs (a unique prefix such as `GPU-8932f937` is enough) or MIG device UUIDs. At
    the first entry that names no device, CUDA stops reading: `0,2,-1,1` shows devices 0 and 2
    only. An empty value or `-1` hides every GPU (a common way to force CPU-only runs, often left
    behind in a shell profile or a job script). Indices follow CUDA's order, which matches
    nvidia-smi's only with CUDA_DEVICE_ORDER=PCI_BUS_ID. The result is "no CUDA-capable device is
    detected" or a smaller GPU count than nvidia-smi shows.

    Fix: unset it, or list GPUs that exist (`nvidia-smi -L` prints indices and UUIDs).
    """
    env = snap.data("cuda.env") or {}
    var = env.get("CUDA_VISIBLE_DEVICES") or {}
    gpus = snap.fact("nvidia.gpus", "gpus") or []
    if not var.get("set") or not gpus:
        return None
    value = var.get("value") or ""
    tokens = [t.strip() for t in value.split(",")] if value.strip() else []
    visible: list[str] = []
    named: list[str] = []
    bad = None
    for token in tokens:
        hit = _match(token, gpus)
        if hit is None:
            bad = token
            break
        visible.append(token)
        named.append(hit)
    hidden = len(gpus) - len({n for n in named if n.startswith("GPU ")})
    if bad is None and tokens:
        return None
    if bad is None and not tokens:
        why = "is set but empty, which hides every GPU"
    elif not visible:
        why = f"starts with {bad!r}, which names no GPU here, so CUDA sees none"
    else:
        why = (
            f"stops at {bad!r}, which names no GPU here: only {', '.join(visible)} stay visible and the "
            "entries after it are ignored"
        )
    idiom = value.strip() in _FORCE_CPU_IDIOMS
    severity = Severity.WARNING if idiom or visible else Severity.ERROR
    good = ",".join(visible) if visible else ",".join(str(i) for i in range(len(gpus)))
    fixes = [
        Fix("Let CUDA see every GPU again", ("unset CUDA_VISIBLE_DEVICES",), Risk.SAFE, _ENV_VARS),
        Fix(
            f"Or list GPUs that exist ({len(gpus)} here: indices 0-{len(gpus) - 1}; nvidia-smi -L prints their UUIDs)",
            (f"export CUDA_VISIBLE_DEVICES={shlex.quote(good)}", "nvidia-smi -L"),
            Risk.SAFE,
            _ENV_VARS,
        ),
    ]
    profile = cuda_shell.delete_lines_fix(
        cuda_shell.profile_lines(env, "CUDA_VISIBLE_DEVICES"),
        "so new shells stop setting CUDA_VISIBLE_DEVICES",
    )
    if profile:
        fixes.insert(1, profile)
    return Finding(
        id="cuda.visible-devices-hide-gpus",
        severity=severity,
        title=f"CUDA_VISIBLE_DEVICES={value!r} hides {hidden} of {len(gpus)} GPU{'s' if len(gpus) != 1 else ''}",
        detail=(
            f"CUDA_VISIBLE_DEVICES {why}. {len(gpus)} GPU{'s are' if len(gpus) != 1 else ' is'} present. "
            + (
                "An empty value or -1 is the usual way to force CPU-only runs; if that is not what you "
                "want here, unset it. "
                if idiom
                else ""
            )
            + "CUDA programs see only the listed devices: torch.cuda.device_count() is "
            f"{len(visible)}"
            + (', and they fail with "no CUDA-capable device is detected".' if not visible else ".")
        ),
        evidence=(
            Evidence(
                "CUDA_VISIBLE_DEVICES",
                repr(value),
                f"indices 0-{len(gpus) - 1} or GPU UUIDs present",
            ),
            Evidence("nvidia.gpus", f"{len(gpus)} GPU(s)"),
        ),
        fixes=tuple(fixes),
    )


CHECKS = [visible_devices_hide_gpus]
