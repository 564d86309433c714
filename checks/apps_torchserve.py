"""TorchServe's config.properties against the GPUs it can see: number_of_gpu above what is there,
or 0 on a GPU machine."""

from __future__ import annotations

import shlex

from envdoctor.checks import apps_facts as af
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.snapshot import Snapshot
from envdoctor.queries import apps as aq


def _visible(snap: Snapshot, ms: MatrixSet) -> tuple[int, str]:
    """How many NVIDIA GPUs TorchServe would see, and why."""
    gpus = len(af.nvidia_gpus(snap, ms))
    visible = snap.fact("apps.torchserve", "cuda_visible_devices")
    if visible is None:
        return gpus, f"{gpus} NVIDIA GPU(s)"
    ids = [v for v in str(visible).split(",") if v.strip()]
    if any(v.strip().startswith("-") for v in ids):
        ids = ids[: [i for i, v in enumerate(ids) if v.strip().startswith("-")][0]]
    return min(gpus, len(ids)), f"{gpus} NVIDIA GPU(s), CUDA_VISIBLE_DEVICES={visible!r}"


@check("app.torchserve.gpu-count", needs=("apps.torchserve", "nvidia.gpus"), matrices=("apps",))
def torchserve_gpus(snap: Snapshot, ms: MatrixSet) -> list[Finding]:
    """TorchServe's `number_of_gpu` does not match the GPUs it can see.

    TorchServe's configuration docs: "number_of_gpu: Maximum number of GPUs that TorchServe can use
    for inference. Default: all available GPUs in system." A value above the visible GPUs
    (CUDA_VISIBLE_DEVICES counted) is a warning: the workers get only what is there, so a
    deployment sized for more runs short. 0 on a GPU machine is info: every worker runs on the CPU.
    Fix: set number_of_gpu to the GPUs you want (or remove the line to use all).
    """
    row = aq.row(ms, "torchserve", "number-of-gpu") or {}
    visible, why = _visible(snap, ms)
    findings = []
    for config in snap.fact("apps.torchserve", "configs") or []:
        wanted = config.get("number_of_gpu")
        if wanted is None or visible == 0:
            continue
        path = shlex.quote(str(config.get("path")))
        if wanted > visible:
            findings.append(
                Finding(
                    id="app.torchserve.gpu-count",
                    severity=Severity.WARNING,
                    title=f"TorchServe is configured for {wanted} GPUs; it can see {visible}",
                    detail=f"{config.get('path')} sets number_of_gpu={wanted}, but {why}. {row.get('text', '')}",
                    evidence=(
                        Evidence("config.properties number_of_gpu", str(wanted), f"<= {visible}"),
                    ),
                    fixes=(
                        Fix(
                            f"Set number_of_gpu={visible} (or make the other GPUs visible), then restart TorchServe",
                            (f"sed -i 's/^number_of_gpu=.*/number_of_gpu={visible}/' {path}",),
                            Risk.NEEDS_RESTART,
                            row.get("source"),
                        ),
                    ),
                )
            )
        elif wanted == 0:
            findings.append(
                Finding(
                    id="app.torchserve.gpu-count",
                    severity=Severity.INFO,
                    title=f"TorchServe is configured for the CPU only (number_of_gpu=0) on a machine with {visible} GPU(s)",
                    detail=f"{config.get('path')} sets number_of_gpu=0, so every worker runs on the CPU. {row.get('text', '')}",
                    evidence=(
                        Evidence(
                            "config.properties number_of_gpu", "0", f"1..{visible} to use the GPUs"
                        ),
                    ),
                    fixes=(
                        Fix(
                            "Let TorchServe use the GPUs: remove the line (default: all GPUs), then restart it",
                            (f"sed -i '/^number_of_gpu=/d' {path}",),
                            Risk.NEEDS_RESTART,
                            row.get("source"),
                        ),
                    ),
                )
            )
    return findings


CHECKS = [torchserve_gpus]
