"""AMD GPUs: from the kernel first (no ROCm needed), then ROCm's tools for names and memory.

Fills `amd.gpus` with gpus [{index (HIP's device order), name, gfx_target ("gfx1100"),
gfx_target_version (KFD's integer, 110000), vram_mib (and memory_total_mib, the same), pci_bus_id, unique_id ("0x..." hex; the
`GPU-<hex>` id ROCR_VISIBLE_DEVICES accepts), is_apu, kfd_node, gpu_id, device_id, render_minor,
compute_units, driver (the PCI driver bound), sources}], count, kfd_present, pci_only (AMD display
devices no KFD node belongs to, e.g. amdgpu not bound), tools {rocminfo, amd-smi, rocm-smi: "ok" /
reason}, and raw captures of the tools. Sources, in order: the KFD topology
(/sys/class/kfd/kfd/topology), PCI (/sys/bus/pci/devices, vendor 0x1002), DRM (VRAM), libdrm's
amdgpu.ids (names), then `amd-smi static --json` (or `rocm-smi --json`) and `rocminfo`, each with a
timeout, run only when present. Absent when none of them shows an AMD GPU.
"""

from __future__ import annotations

from typing import Any

from envdoctor.model.snapshot import FactGroup, absent, collected, failed
from envdoctor.probes import amd_kfd, amd_sysfs
from envdoctor.probes.context import ProbeContext

GROUPS = ("amd.gpus",)
TIMEOUT_S = 20.0
TOOL_TIMEOUT_S = 8.0
SOURCE = "probe:amd_gpu"
ROCM_BIN_DIRS = ("/opt/rocm/bin",)
AMD_VENDOR = "0x1002"


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Describe the AMD GPUs of the target system."""
    topology = amd_kfd.read_topology(ctx)
    gpus = amd_kfd.gpu_records(topology)
    pci = amd_sysfs.pci_devices(ctx, AMD_VENDOR)
    names = amd_kfd.marketing_names(ctx)
    sources = ["kfd"] if gpus else []
    for gpu in gpus:
        gpu["sources"] = ["kfd"]
        _from_pci(ctx, gpu, pci, names)
    known = {g.get("pci_bus_id") for g in gpus}
    pci_only = [d for d in pci if d["address"] not in known]
    tools: dict[str, str] = {}
    raw: dict[str, str] = {}
    wsl_dxg = ctx.exists("/dev/dxg")
    if (
        gpus
        or pci
        or wsl_dxg
        or _tool(ctx, "rocminfo")
        or _tool(ctx, "amd-smi")
        or _tool(ctx, "rocm-smi")
    ):
        _enrich_from_tools(ctx, gpus, tools, raw, sources)
    if not gpus and pci:
        gpus = [_pci_record(ctx, i, d, names) for i, d in enumerate(pci)]
        sources.append("pci")
        pci_only = []
    if not gpus:
        reasons = [r for r in tools.values() if r != "ok"]
        if reasons and (wsl_dxg or any(_tool(ctx, t) for t in ("rocminfo", "amd-smi", "rocm-smi"))):
            return [failed("amd.gpus", SOURCE, "no AMD GPU found: " + "; ".join(reasons), raw=raw)]
        why = "no KFD topology, no PCI display device of vendor 0x1002"
        if topology["errors"]:
            why += f" (KFD nodes unreadable: {topology['errors'][0]})"
        return [absent("amd.gpus", SOURCE, why)]
    # the tool parsers are imported only on a machine with an AMD GPU; what the ROCm tables say
    # of a target (APU, product name) is added by the enrichment step (envdoctor.diagnosis.enrich)
    from envdoctor.ingest import rocminfo

    for gpu in gpus:
        gpu["is_apu"] = True if gpu.get("cpu_cores_count") else gpu.get("is_apu")
    rocminfo.with_memory_alias(gpus)
    data: dict[str, Any] = {
        "gpus": gpus,
        "count": len(gpus),
        "kfd_present": topology["present"],
        "kfd_errors": topology["errors"],
        "pci_only": pci_only,
        "tools": tools,
        "sources": sources,
    }
    return [
        collected(
            "amd.gpus",
            SOURCE + " (" + ", ".join(sources) + ")",
            data,
            summary=rocminfo.gpu_summary(gpus),
            raw=raw,
        )
    ]


def _tool(ctx: ProbeContext, name: str) -> str | None:
    found = ctx.which(name)
    if found:
        return found
    for folder in ROCM_BIN_DIRS:
        path = f"{folder}/{name}"
        if str(ctx.root) == "/" and ctx.exists(path):
            return path
    return None


def _from_pci(
    ctx: ProbeContext,
    gpu: dict[str, Any],
    pci: list[dict[str, Any]],
    names: dict[tuple[str, str], str],
) -> None:
    address = gpu.get("pci_bus_id")
    device = next((d for d in pci if d["address"] == address), None)
    if device is not None:
        gpu["driver"] = device.get("driver")
        gpu["device_id"] = gpu.get("device_id") or device.get("device_id")
    gpu["vram_mib"] = gpu.get("vram_mib") or amd_kfd.drm_vram_mib(
        ctx, gpu.get("render_minor"), address
    )
    gpu["name"] = amd_kfd.product_name(ctx, address, gpu.get("device_id"), names)
    if gpu.get("unique_id") and str(gpu["unique_id"]).isdigit():
        gpu["unique_id"] = f"0x{int(gpu['unique_id']):x}"


def _pci_record(
    ctx: ProbeContext, index: int, device: dict[str, Any], names: dict[tuple[str, str], str]
) -> dict[str, Any]:
    return {
        "index": index,
        "name": amd_kfd.product_name(ctx, device["address"], device.get("device_id"), names),
        "gfx_target": None,
        "gfx_target_version": None,
        "vram_mib": amd_kfd.drm_vram_mib(ctx, None, device["address"]),
        "pci_bus_id": device["address"],
        "unique_id": None,
        "is_apu": None,
        "device_id": device.get("device_id"),
        "driver": device.get("driver"),
        "sources": ["pci"],
    }


def _enrich_from_tools(
    ctx: ProbeContext,
    gpus: list[dict[str, Any]],
    tools: dict[str, str],
    raw: dict[str, str],
    sources: list[str],
) -> None:
    """Merge amd-smi / rocm-smi and rocminfo into the records (matched by PCI address, else by
    index); when sysfs gave nothing (WSL2, a masked container) the tools' GPUs are the records."""
    from envdoctor.ingest import rocm_smi, rocminfo

    smi = None
    for name, argv in (
        ("amd-smi", ["static", "--json"]),
        (
            "rocm-smi",
            [
                "--showproductname",
                "--showbus",
                "--showmeminfo",
                "vram",
                "--showuniqueid",
                "--showdriverversion",
                "--json",
            ],
        ),
    ):
        path = _tool(ctx, name)
        if path is None:
            continue
        result = ctx.run([path, *argv], TOOL_TIMEOUT_S)
        if not result.ok:
            tools[name] = result.describe_failure()
            if result.error and "timed out" in result.error:
                break  # the other SMI uses the same library: it would hang as well
            continue
        raw[f"{name}.json"] = result.stdout
        parsed = rocm_smi.parse(result.stdout)
        if parsed["gpus"]:
            tools[name] = "ok"
            smi = parsed
            break
        tools[name] = f"{name} listed no GPU"
    path = _tool(ctx, "rocminfo")
    info = None
    if path is not None:
        result = ctx.run([path], TOOL_TIMEOUT_S)
        raw["rocminfo.txt"] = (result.stdout + result.stderr)[:1_000_000]
        if result.error:
            tools["rocminfo"] = result.error
        else:
            info = rocminfo.parse(result.stdout + "\n" + result.stderr)
            tools["rocminfo"] = (
                "ok"
                if info["gpus"]
                else (
                    f"rocminfo listed no GPU agent ({info['kfd_error'] or result.describe_failure()})"
                    if not result.ok or info["kfd_error"]
                    else "rocminfo listed no GPU agent"
                )
            )
    for label, found in (
        ("rocminfo", info and info["gpus"]),
        (smi and smi["format"], smi and smi["gpus"]),
    ):
        if not found:
            continue
        if not gpus:
            for record in found:
                record["sources"] = [label]
            gpus.extend(found)
            sources.append(str(label))
            continue
        sources.append(str(label))
        for record in found:
            target = _match(gpus, record)
            if target is None:
                continue
            target.setdefault("sources", []).append(str(label))
            for key, value in record.items():
                if key in ("index", "sources") or value is None:
                    continue
                if target.get(key) is None:
                    target[key] = value


def _match(gpus: list[dict[str, Any]], record: dict[str, Any]) -> dict[str, Any] | None:
    pci = record.get("pci_bus_id")
    if pci:
        for gpu in gpus:
            if gpu.get("pci_bus_id") == pci:
                return gpu
        return None
    node = record.get("kfd_node")
    if node is not None:
        for gpu in gpus:
            if gpu.get("kfd_node") == node:
                return gpu
    return next((g for g in gpus if g.get("index") == record.get("index")), None)
