"""The AMD kernel side: the amdgpu driver, /dev/kfd, the render nodes and who may open them.

Fills `amd.kernel` with:
- kernel (running release); amdgpu {loaded, version (/sys/module/amdgpu/version: present for the
  amdgpu-dkms driver, absent for the in-tree one), refcount}; driver_source "dkms" / "in-tree" /
  None (which amdgpu.ko the running kernel has: updates/dkms vs kernel/drivers), dkms [versions
  under /var/lib/dkms/amdgpu], module_files;
- kfd {path, exists, mode, uid, gid, group, accessible}; kfd_sysfs (the KFD topology exists);
- render_nodes [{path, minor, mode, group, accessible, pci_address, vendor, driver}] of AMD GPUs
  (vendor 0x1002 or bound to amdgpu);
- user {uid, user, gids, groups (held now), member_of (in /etc/group: what a new login gets),
  in_render, in_video, render_pending (listed in /etc/group but not held by this process:
  log in again)};
- in_container, dxg (/dev/dxg: WSL2's paravirtual GPU, no /dev/kfd there).
Absent when there is no amdgpu driver, no /dev/kfd and no AMD render node.
"""

from __future__ import annotations

from typing import Any

from envdoctor.model.snapshot import FactGroup, absent, collected
from envdoctor.probes import amd_sysfs
from envdoctor.probes.context import ProbeContext

GROUPS = ("amd.kernel",)
TIMEOUT_S = 5.0
SOURCE = "probe:amd_kernel"
AMD_VENDOR = "0x1002"


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Gather the AMD kernel-side facts; absent without any AMD driver or device node."""
    if not ctx.exists("/proc") and not ctx.exists("/sys") and not ctx.exists("/dev"):
        return [absent("amd.kernel", SOURCE, "no /proc, /sys or /dev: not a Linux system")]
    identity = amd_sysfs.user_identity(ctx)
    kernel = amd_sysfs.running_kernel(ctx)
    module = amd_sysfs.kernel_module(ctx, "amdgpu")
    kfd = amd_sysfs.device_node(ctx, "/dev/kfd", identity)
    nodes = [
        n
        for n in amd_sysfs.render_nodes(ctx)
        if n.get("vendor") == AMD_VENDOR or n.get("driver") == "amdgpu"
    ]
    dxg = ctx.exists("/dev/dxg")
    if not module.get("loaded") and not kfd["exists"] and not nodes:
        why = "amdgpu is not loaded, and there is no /dev/kfd and no AMD render node"
        if dxg:
            why += " (/dev/dxg exists: WSL2, where ROCm reaches the GPU through DXCore)"
        return [absent("amd.kernel", SOURCE, why)]
    files = _module_files(ctx, kernel)
    data: dict[str, Any] = {
        "kernel": kernel,
        "amdgpu": module,
        "driver_source": _driver_source(files, module),
        "module_files": files,
        "dkms": sorted(ctx.listdir("/var/lib/dkms/amdgpu")),
        "kfd": kfd,
        "kfd_sysfs": ctx.is_dir("/sys/class/kfd/kfd/topology/nodes"),
        "render_nodes": nodes,
        "user": _user(identity),
        "in_container": amd_sysfs.in_container(ctx),
        "dxg": dxg,
    }
    return [collected("amd.kernel", SOURCE, data, summary=_summary(data))]


def _module_files(ctx: ProbeContext, kernel: str | None) -> list[str]:
    if not kernel:
        return []
    patterns = (
        f"/lib/modules/{kernel}/updates/dkms/amdgpu.ko*",
        f"/lib/modules/{kernel}/updates/amdgpu.ko*",
        f"/lib/modules/{kernel}/extra/amdgpu.ko*",
        f"/lib/modules/{kernel}/kernel/drivers/gpu/drm/amd/amdgpu/amdgpu.ko*",
    )
    found: list[str] = []
    for pattern in patterns:
        found += [p for p in ctx.glob(pattern) if p not in found]
    return found


def _driver_source(files: list[str], module: dict[str, Any]) -> str | None:
    if any("/updates/" in f or "/extra/" in f for f in files):
        return "dkms"
    if files:
        return "in-tree"
    if module.get("loaded"):
        return "dkms" if module.get("version") else "in-tree"
    return None


def _user(identity: dict[str, Any]) -> dict[str, Any]:
    held = set(identity["groups"])
    listed = set(identity["member_of"])
    return {
        "uid": identity["uid"],
        "user": identity["user"],
        "gids": identity["gids"],
        "groups": identity["groups"],
        "member_of": identity["member_of"],
        "in_render": "render" in held,
        "in_video": "video" in held,
        "render_pending": sorted(g for g in ("render", "video") if g in listed and g not in held),
    }


def _summary(data: dict[str, Any]) -> str:
    module = data["amdgpu"]
    parts = [
        "amdgpu "
        + ("loaded" if module.get("loaded") else "not loaded")
        + (f" {module['version']}" if module.get("version") else "")
        + (f" ({data['driver_source']})" if data.get("driver_source") else "")
    ]
    kfd = data["kfd"]
    if kfd["exists"]:
        parts.append(
            f"/dev/kfd {kfd['mode']} {kfd.get('group') or kfd.get('gid')}"
            + ("" if kfd.get("accessible") is not False else " (not accessible)")
        )
    else:
        parts.append("no /dev/kfd")
    parts.append(
        f"{len(data['render_nodes'])} AMD render node{'s' if len(data['render_nodes']) != 1 else ''}"
    )
    return ", ".join(parts)
