"""ROCR_VISIBLE_DEVICES / HIP_VISIBLE_DEVICES / CUDA_VISIBLE_DEVICES against the AMD GPUs present."""

from __future__ import annotations

import re
from typing import Any

from envdoctor.checks import amd_facts as af
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.snapshot import Snapshot


def _select(
    value: str | None, devices: list[dict[str, Any]], uuids: bool
) -> tuple[list[dict[str, Any]], list[str]]:
    """The devices a visibility list keeps (in its order) and the entries that name none."""
    if value is None:
        return devices, []
    tokens = [t.strip() for t in value.split(",")] if value.strip() else []
    kept: list[dict[str, Any]] = []
    bad: list[str] = []
    for token in tokens:
        hit = None
        if re.fullmatch(r"\d+", token):
            position = int(token)
            hit = devices[position] if position < len(devices) else None
        elif uuids and token.upper().startswith("GPU-"):
            wanted = _hex(token[4:])
            hits = [
                d for d in devices if d.get("unique_id") and _hex(str(d["unique_id"])) == wanted
            ]
            hit = hits[0] if len(hits) == 1 else None
        if hit is None:
            bad.append(token or "(empty)")
        elif hit not in kept:
            kept.append(hit)
    return kept, bad


def _hex(text: str) -> str:
    """A unique id as bare lower-case hex without leading zeros ("0x0213fb" -> "213fb")."""
    return text.strip().lower().removeprefix("0x").lstrip("0")


@check("rocm.visible-devices-hide-gpus", needs=("amd.env", "amd.gpus"))
def visible_devices_hide_gpus(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """ROCR_VISIBLE_DEVICES, HIP_VISIBLE_DEVICES or CUDA_VISIBLE_DEVICES leaves no AMD GPU visible.

    ROCm filters GPUs in two steps: ROCR_VISIBLE_DEVICES (indices, or `GPU-<unique id>` as rocminfo
    prints them) selects among all GPUs; HIP_VISIBLE_DEVICES (or CUDA_VISIBLE_DEVICES, which HIP
    honours too) then indexes into what is left. An empty value, `-1`, an index past the last GPU or
    an id from another machine leaves nothing, and PyTorch reports "No HIP GPUs are available" or
    hipErrorNoDevice while rocm-smi, which ignores the variables, still lists the GPUs. Job
    schedulers set these for you: Slurm exports ROCR_VISIBLE_DEVICES for the GPUs a job was given,
    so a job started without a GPU request (or a script that overwrites the variable) sees none.

    Fix: unset the variables, or list GPUs that exist; under Slurm request GPUs with --gpus or
    --gres=gpu:N instead of setting the variable yourself.
    """
    env = snap.data("amd.env") or {}
    variables = env.get("variables") or {}
    gpus = [g for g in snap.fact("amd.gpus", "gpus") or [] if isinstance(g, dict)]
    if not gpus:
        return None
    nvidia = bool(snap.fact("nvidia.gpus", "gpus"))

    def value(name: str) -> str | None:
        entry = variables.get(name) or {}
        return entry.get("value") if entry.get("set") else None

    rocr, hip, cuda = (
        value("ROCR_VISIBLE_DEVICES"),
        value("HIP_VISIBLE_DEVICES"),
        value("CUDA_VISIBLE_DEVICES"),
    )
    if rocr is None and hip is None and (cuda is None or nvidia):
        return None
    after_rocr, bad_rocr = _select(rocr, gpus, uuids=True)
    second = hip if hip is not None else (cuda if not nvidia else None)
    visible, bad_second = _select(second, after_rocr, uuids=False)
    if visible and not bad_rocr and not bad_second:
        return None
    evidence = [Evidence("amd.gpus", f"{len(gpus)} GPU{'s' if len(gpus) != 1 else ''}")]
    shown = []
    for name, val in (
        ("ROCR_VISIBLE_DEVICES", rocr),
        ("HIP_VISIBLE_DEVICES", hip),
        ("CUDA_VISIBLE_DEVICES", cuda if not nvidia else None),
    ):
        if val is not None:
            evidence.append(Evidence(f"amd.env.{name}", repr(val)))
            shown.append(name)
    bad = bad_rocr + bad_second
    slurm = env.get("slurm")
    fixes = [
        Fix(
            "Unset the variables and check what ROCm sees",
            (f"unset {' '.join(shown)}", "rocminfo | grep -E 'Marketing Name|Uuid'"),
            Risk.SAFE,
            af.ISOLATION_DOC,
        )
    ]
    if slurm:
        fixes.insert(
            0,
            Fix(
                "Request the GPUs from Slurm and let it set ROCR_VISIBLE_DEVICES "
                "(do not set it in the job script)",
                ("srun --gpus=1 rocminfo", "sbatch --gres=gpu:1 job.sh"),
                Risk.SAFE,
                "https://slurm.schedmd.com/gres.html",
            ),
        )
    if af.in_container(snap):
        fixes.append(
            Fix(
                "In a container, pass the GPUs you want instead of hiding them",
                (
                    "docker run --device=/dev/kfd --device=/dev/dri --group-add video --group-add render IMAGE",
                ),
                Risk.NEEDS_RESTART,
                af.DOCKER_DOC,
            )
        )
    if not visible:
        title = f"{', '.join(shown)} hide{'s' if len(shown) == 1 else ''} every AMD GPU from ROCm"
        severity = Severity.ERROR
    else:
        title = f"{', '.join(shown)} name{'s' if len(shown) == 1 else ''} GPUs that do not exist ({', '.join(bad)})"
        severity = Severity.WARNING
    detail = (
        f"This machine has {len(gpus)} AMD GPU{'s' if len(gpus) != 1 else ''}; with these variables ROCm "
        f"shows {len(visible)}."
        + (f" Entries naming no GPU: {', '.join(bad)}." if bad else "")
        + (f" (Slurm job {slurm.get('job_id')}.)" if slurm else "")
    )
    return Finding(
        id="rocm.visible-devices-hide-gpus",
        severity=severity,
        title=title,
        detail=detail,
        evidence=tuple(evidence),
        fixes=tuple(fixes),
        explains=("torch.gpu-test-failed",),
    )


CHECKS = [visible_devices_hide_gpus]
