"""Whether NVIDIA's CUDA forward-compatibility package (cuda-compat) can help on a GPU.

cuda-compat-<major>-<minor> lets a newer CUDA major run on an older driver branch, but NVIDIA allows
it only on data-center GPUs, select NGC Server Ready RTX products and Jetson boards: suggesting it
for a GeForce card is a fix that cannot work (cudaErrorCompatNotSupportedOnDevice, 804).

Tables used: cuda_forward_compat, nvidia_gpus (via queries.nvidia).
"""

from __future__ import annotations

from typing import Any

from envdoctor.queries import nvidia

__all__ = ["forward_compat_for_gpu", "forward_compat_for_segment"]


def forward_compat_for_segment(ms: Any, segment: str) -> bool | None:
    """True / False for a GPU segment of nvidia_gpus ("datacenter" / "geforce"); None when NVIDIA
    allows it for some products of the segment only ("workstation") or the segment is unknown."""
    try:
        rows = list(ms.table("cuda_forward_compat").rows)
    except (KeyError, AttributeError):
        return None
    for row in rows:
        if row.get("segment") == str(segment or "").strip().lower():
            return {"yes": True, "no": False}.get(str(row.get("supported")))
    return None


def forward_compat_for_gpu(ms: Any, printed_name: str) -> bool | None:
    """Whether cuda-compat can work on the GPU named as nvidia-smi prints it; None when unknown."""
    row = nvidia.gpu_by_name(ms, printed_name)
    if row is None or not row.get("segment"):
        return None
    return forward_compat_for_segment(ms, str(row["segment"]))
