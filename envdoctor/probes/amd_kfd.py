"""The AMD KFD topology in sysfs: GPUs and their gfx targets without any ROCm installed.

`/sys/class/kfd/kfd/topology/nodes/<N>/properties` holds one "key value" pair per line (decimal
integers) for every HSA node; CPU nodes come first and have gfx_target_version 0. For a GPU node:
gfx_target_version (major*10000 + minor*100 + stepping), vendor_id (4098 = 0x1002), device_id,
location_id (PCI bus << 8 | device << 3 | function) and domain, drm_render_minor (its
/dev/dri/renderD<N>), simd_count and simd_per_cu (compute units = simd_count / simd_per_cu),
cpu_cores_count (non-zero on an APU node that carries CPU cores), unique_id. `gpu_id` is a separate
file (0 on CPU nodes on most kernels); `mem_banks/<M>/properties` give heap_type and size_in_bytes
(heap 1 / 2 = frame buffer, public / private).
"""

from __future__ import annotations

from typing import Any

from envdoctor.probes.amd_sysfs import SMALL_READ, read_small
from envdoctor.probes.context import ProbeContext

TOPOLOGY = "/sys/class/kfd/kfd/topology"
NODES = f"{TOPOLOGY}/nodes"
FRAME_BUFFER_HEAPS = (1, 2)


def parse_properties(text: str | None) -> dict[str, int]:
    """A KFD properties file -> {key: integer}; malformed lines are skipped."""
    out: dict[str, int] = {}
    for line in (text or "").splitlines():
        parts = line.split()
        if len(parts) == 2:
            try:
                out[parts[0]] = int(parts[1])
            except ValueError:
                continue
    return out


def pci_address(domain: int | None, location_id: int | None) -> str | None:
    """KFD's domain + location_id -> "0000:03:00.0"; None for 0 (no PCI address)."""
    if not location_id:
        return None
    bus, devfn = location_id >> 8, location_id & 0xFF
    return f"{domain or 0:04x}:{bus:02x}:{devfn >> 3:02x}.{devfn & 7:x}"


def read_topology(ctx: ProbeContext) -> dict[str, Any]:
    """{present, readable, nodes: [{node, gpu_id, name, properties, vram_bytes}], errors} where
    `present` is whether the topology folder exists and `errors` lists unreadable nodes (a
    cgroup-masked GPU inside a container reads as permission denied)."""
    if not ctx.is_dir(NODES):
        return {"present": False, "nodes": [], "errors": []}
    nodes: list[dict[str, Any]] = []
    errors = []
    for name in ctx.listdir(NODES):
        if not name.isdigit():
            continue
        base = f"{NODES}/{name}"
        read = ctx.read(f"{base}/properties", SMALL_READ)
        if read.text is None:
            errors.append(read.error or f"{base}/properties unreadable")
            continue
        gpu_id = read_small(ctx, f"{base}/gpu_id")
        nodes.append(
            {
                "node": int(name),
                "gpu_id": int(gpu_id) if gpu_id and gpu_id.isdigit() else None,
                "name": read_small(ctx, f"{base}/name") or None,
                "properties": parse_properties(read.text),
                "vram_bytes": _frame_buffer_bytes(ctx, base),
            }
        )
    nodes.sort(key=lambda n: n["node"])
    return {"present": True, "nodes": nodes, "errors": errors}


def _frame_buffer_bytes(ctx: ProbeContext, base: str) -> int | None:
    total = 0
    seen = False
    for bank in ctx.listdir(f"{base}/mem_banks"):
        props = parse_properties(ctx.read_text(f"{base}/mem_banks/{bank}/properties", SMALL_READ))
        if props.get("heap_type") in FRAME_BUFFER_HEAPS and props.get("size_in_bytes"):
            total += props["size_in_bytes"]
            seen = True
    return total if seen else None


def is_gpu_node(node: dict[str, Any]) -> bool:
    """A GPU node states a gfx target (CPU nodes say 0) or has SIMDs and a gpu_id."""
    props = node["properties"]
    if props.get("gfx_target_version"):
        return True
    return bool(props.get("simd_count")) and bool(node.get("gpu_id"))


def gpu_records(topology: dict[str, Any]) -> list[dict[str, Any]]:
    """One record per GPU node in node order, HIP's device order ("index" 0 = first GPU node)."""
    nodes = [n for n in topology["nodes"] if is_gpu_node(n)]
    if not nodes:
        return []
    from envdoctor.model import amd_gfx

    out: list[dict[str, Any]] = []
    for node in nodes:
        props = node["properties"]
        version = props.get("gfx_target_version")
        simd_per_cu = props.get("simd_per_cu")
        vendor = props.get("vendor_id")
        record: dict[str, Any] = {
            "index": len(out),
            "kfd_node": node["node"],
            "gpu_id": node.get("gpu_id"),
            "gfx_target": amd_gfx.gfx_from_target_version(version),
            "gfx_target_version": version,
            "vendor_id": f"0x{vendor:04x}" if vendor else None,
            "device_id": f"0x{props['device_id']:04x}" if props.get("device_id") else None,
            "pci_bus_id": pci_address(props.get("domain"), props.get("location_id")),
            "render_minor": props.get("drm_render_minor") or None,
            "compute_units": (props["simd_count"] // simd_per_cu)
            if props.get("simd_count") and simd_per_cu
            else None,
            "unique_id": str(props["unique_id"]) if props.get("unique_id") else None,
            "cpu_cores_count": props.get("cpu_cores_count"),
            "num_xcc": props.get("num_xcc"),
            "vram_mib": (node["vram_bytes"] // (1024 * 1024)) if node.get("vram_bytes") else None,
            "kfd_name": node.get("name"),
        }
        out.append(record)
    return out


def drm_vram_mib(ctx: ProbeContext, render_minor: int | None, pci: str | None) -> int | None:
    """VRAM from the DRM device (mem_info_vram_total, bytes) of a render node or PCI address."""
    paths = []
    if render_minor:
        paths.append(f"/sys/class/drm/renderD{render_minor}/device/mem_info_vram_total")
    if pci:
        paths.append(f"/sys/bus/pci/devices/{pci}/mem_info_vram_total")
    for path in paths:
        text = read_small(ctx, path)
        if text and text.isdigit():
            return int(text) // (1024 * 1024)
    return None


def marketing_names(ctx: ProbeContext) -> dict[tuple[str, str], str]:
    """libdrm's amdgpu.ids table: (device id, revision) lower-case hex without 0x -> product name."""
    for path in ("/usr/share/libdrm/amdgpu.ids", "/opt/amdgpu/share/libdrm/amdgpu.ids"):
        text = ctx.read_text(path)
        if not text:
            continue
        table: dict[tuple[str, str], str] = {}
        for line in text.splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            parts = [p.strip() for p in line.split(",", 2)]
            if len(parts) == 3 and parts[0] and parts[1]:
                table[(parts[0].lower(), parts[1].lower())] = parts[2]
        if table:
            return table
    return {}


def product_name(
    ctx: ProbeContext, pci: str | None, device_id: str | None, names: dict[tuple[str, str], str]
) -> str | None:
    """The marketing name of a PCI GPU: sysfs product_name (Instinct boards), else amdgpu.ids."""
    if pci:
        text = read_small(ctx, f"/sys/bus/pci/devices/{pci}/product_name")
        if text:
            return text
    if device_id and names:
        revision = (read_small(ctx, f"/sys/bus/pci/devices/{pci}/revision") or "") if pci else ""
        key = (device_id.lower().removeprefix("0x"), revision.lower().removeprefix("0x"))
        if key in names:
            return names[key]
    return None
