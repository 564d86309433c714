"""The enrichment step: facts derived from the matrices, added to a snapshot before the checks run.

Probes and readers record what a source said; what the matrices imply from it is derived here,
once, for live, pasted and saved snapshots alike (so a pasted report and a live run derive the
same way):

- `nvidia.gpus`: the compute capability of a GPU whose source did not report it, from the
  `nvidia_gpus` row of its product name (rows marked unverified are not used);
  `compute_capability_source` "matrix".
- `amd.gpus`: the gfx target of a GPU known only by its product name (`gfx_target_source`
  "product-name", with `gfx_target_version`), `is_apu` from the target's row, and the product
  name of a GPU known only by its target when the matrices list exactly one product for it.
- `python.torch`: `arch_list` (what get_arch_list() holds) of an official wheel, from the
  `torch_arch` row of its release, variant and OS; `arch_list_source` "matrix:torch_arch".

Each derivation fills a value only where the source left it empty; running it twice changes
nothing. A matrix that cannot be read leaves the facts as they were.
"""

from __future__ import annotations

from typing import Any

from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.snapshot import Snapshot


def enrich(snapshot: Snapshot, ms: MatrixSet) -> Snapshot:
    """Add the matrix-derived facts to `snapshot` (in place) and return it."""
    nvidia = snapshot.group("nvidia.gpus")
    if nvidia is not None and nvidia.collected:
        nvidia_compute_capability(nvidia.data.get("gpus") or [], ms)
    amd = snapshot.group("amd.gpus")
    if amd is not None and amd.collected:
        gpus = amd.data.get("gpus") or []
        if amd_targets(gpus, ms):
            from envdoctor.ingest.rocminfo import gpu_summary

            amd.summary = gpu_summary(gpus)
    torch = snapshot.group("python.torch")
    if torch is not None and torch.collected:
        torch_arches(torch.data, ms)
    return snapshot


def needs_matrices(snapshot: Snapshot) -> bool:
    """Whether `enrich` has anything to derive here: a caller that pays for loading the matrices
    only when it must (preflight) asks this first."""
    nvidia = snapshot.data("nvidia.gpus") or {}
    if any(g.get("compute_capability") is None and g.get("name") for g in nvidia.get("gpus") or []):
        return True
    amd = snapshot.data("amd.gpus") or {}
    if any(
        (g.get("gfx_target") and (g.get("is_apu") is None or not g.get("name")))
        or (not g.get("gfx_target") and g.get("name"))
        for g in amd.get("gpus") or []
    ):
        return True
    torch = snapshot.data("python.torch") or {}
    return bool(
        torch.get("arch_list") is None
        and torch.get("version")
        and torch.get("variant")
        and torch.get("os")
    )


def nvidia_compute_capability(gpus: list[dict[str, Any]], ms: MatrixSet) -> None:
    """Fill compute_capability from the nvidia_gpus matrix for GPUs whose source gave none."""
    from envdoctor.queries.nvidia import gpu_by_name

    for gpu in gpus:
        if gpu.get("compute_capability") is not None or not gpu.get("name"):
            continue
        row = gpu_by_name(ms, str(gpu["name"]))
        value = row.get("compute_capability") if row and not row.get("unverified") else None
        if value:
            gpu["compute_capability"] = str(value)
            gpu["compute_capability_source"] = "matrix"


def amd_targets(gpus: list[dict[str, Any]], ms: MatrixSet) -> bool:
    """Fill gfx targets, APU flags and product names of AMD GPUs from the ROCm tables; whether a
    name or a target changed (the group's one-line summary shows them)."""
    from envdoctor.model.amd_gfx import target_version_of
    from envdoctor.queries import rocm as rq

    changed = False
    for gpu in gpus:
        if not gpu.get("gfx_target") and gpu.get("name"):
            looked_up = rq.gfx_for_product(ms, str(gpu["name"]))
            if looked_up:
                gpu["gfx_target"] = looked_up
                gpu["gfx_target_source"] = "product-name"
                gpu["gfx_target_version"] = target_version_of(looked_up)
                changed = True
        gfx = gpu.get("gfx_target")
        if not gfx:
            continue
        if gpu.get("is_apu") is None:
            gpu["is_apu"] = rq.is_apu(ms, gfx)
        if not gpu.get("name"):
            products = rq.products(ms, gfx)
            if len(products) == 1:
                gpu["name"] = products[0]
                changed = True
    return changed


def torch_arches(torch: dict[str, Any], ms: MatrixSet) -> None:
    """Fill arch_list of an official torch wheel from the torch_arch matrix."""
    if torch.get("arch_list") is not None:
        return
    version, variant, os_name = torch.get("version"), torch.get("variant"), torch.get("os")
    if not (version and variant and os_name):
        return
    from envdoctor.queries import torch as tq

    arches = tq.variant_arches(ms, str(version), str(variant), str(os_name))
    if arches is not None:
        torch["arch_list"] = arches
        torch["arch_list_source"] = "matrix:torch_arch"
