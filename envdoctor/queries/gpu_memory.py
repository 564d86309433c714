"""How much memory an NVIDIA GPU has, from the nvidia_gpus matrix (for `fit --gpu NAME`).

Two columns answer it: memory_gib, the size the printed product name states ("H100 80GB HBM3"), and
memory_mib_measured, the total a real nvidia-smi / NVML capture of the product printed. A product
with several sizes gives the smallest, so a fit judged on it holds on every variant.

Tables used: nvidia_gpus (via queries.nvidia).
"""

from __future__ import annotations

from typing import Any

from envdoctor.queries import nvidia

__all__ = ["memory_gib_for_gpu", "memory_gib_for_row"]

_MIB_PER_GIB = 1024


def memory_gib_for_row(row: dict[str, Any] | None) -> tuple[float, str] | None:
    """(GiB, how it is known) for an nvidia_gpus row, or None when the row gives no size.

    The stated size wins ("stated in the product name"); else the measured total in GiB
    ("measured: nvidia-smi printed N MiB").
    """
    if not row:
        return None
    stated = [v for v in row.get("memory_gib") or [] if isinstance(v, int) and v > 0]
    if stated:
        return float(min(stated)), "stated in the product name"
    measured = [v for v in row.get("memory_mib_measured") or [] if isinstance(v, int) and v > 0]
    if measured:
        smallest = min(measured)
        return smallest / _MIB_PER_GIB, f"measured: nvidia-smi printed {smallest} MiB"
    return None


def memory_gib_for_gpu(ms: Any, printed_name: str) -> float | None:
    """The GPU's memory in GiB by printed name, or None when the matrix does not give it."""
    found = memory_gib_for_row(nvidia.gpu_by_name(ms, printed_name))
    return found[0] if found else None
