"""Intel GPUs and the compute runtime PyTorch XPU and oneAPI need.

Fills `intel.gpus` with gpus [{index, pci_bus_id, device_id, name (sysfs label, else pci.ids),
driver ("i915" / "xe" bound), render_node {path, mode, group, accessible}, discrete (class 0x0300
on a bus other than 00: Arc / Data Center GPUs; integrated graphics sit at 0000:00:02.0)}], count.
Absent without a PCI display device of vendor 0x8086.

Fills `intel.runtime` with modules {i915, xe: {loaded, version}}, level_zero {loader, gpu_driver}
(libze_loader.so* / libze_intel_gpu.so* found), opencl_icd (/etc/OpenCL/vendors/intel*.icd),
packages {name: version} (dpkg: intel-opencl-icd, libze1, libze-intel-gpu1, intel-level-zero-gpu,
level-zero), oneapi {root, exists, setvars (path), components (folders under the root), sourced
(SETVARS_COMPLETED=1 or ONEAPI_ROOT set)}, env {ONEAPI_DEVICE_SELECTOR, ZE_AFFINITY_MASK,
SYCL_DEVICE_FILTER, ZE_ENABLE_PCI_ID_DEVICE_ORDER} and user (the groups held and in /etc/group).
Absent when none of the drivers, libraries, packages or oneAPI is present.
"""

from __future__ import annotations

from typing import Any

from envdoctor.model.snapshot import FactGroup, absent, collected
from envdoctor.probes import amd_sysfs
from envdoctor.probes.context import ProbeContext

GROUPS = ("intel.gpus", "intel.runtime")
TIMEOUT_S = 5.0
SOURCE = "probe:intel_gpu"
INTEL_VENDOR = "0x8086"
PACKAGES = (
    "intel-opencl-icd",
    "libze1",
    "libze-intel-gpu1",
    "intel-level-zero-gpu",
    "level-zero",
    "libze-intel-gpu-legacy1-1",
    "intel-oneapi-runtime-libs",
)
ONEAPI_ROOT = "/opt/intel/oneapi"
ENV = (
    "ONEAPI_DEVICE_SELECTOR",
    "ZE_AFFINITY_MASK",
    "SYCL_DEVICE_FILTER",
    "ZE_ENABLE_PCI_ID_DEVICE_ORDER",
)


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Describe the Intel GPUs and their runtime (the runtime only when it is wanted)."""
    return [_gpus(ctx)] + ([_runtime(ctx)] if ctx.wants("intel.runtime") else [])


def _gpus(ctx: ProbeContext) -> FactGroup:
    devices = amd_sysfs.pci_devices(ctx, INTEL_VENDOR)
    if not devices:
        return absent("intel.gpus", SOURCE, "no PCI display device of vendor 0x8086")
    nodes = {n["pci_address"]: n for n in amd_sysfs.render_nodes(ctx) if n.get("pci_address")}
    names = _pci_names(ctx, {d["device_id"] for d in devices if d.get("device_id")})
    gpus = []
    for index, device in enumerate(devices):
        node = nodes.get(device["address"])
        label = amd_sysfs.read_small(ctx, f"/sys/bus/pci/devices/{device['address']}/label")
        gpus.append(
            {
                "index": index,
                "pci_bus_id": device["address"],
                "device_id": device.get("device_id"),
                "name": label or names.get(str(device.get("device_id") or "").removeprefix("0x")),
                "driver": device.get("driver"),
                "render_node": {
                    k: node[k] for k in ("path", "exists", "mode", "group", "gid", "accessible")
                }
                if node
                else None,
                "discrete": device["address"].split(":")[1] != "00",
            }
        )
    shown = ", ".join(
        f"{g['name'] or g['device_id']} ({g['driver'] or 'no driver bound'})" for g in gpus
    )
    return collected(
        "intel.gpus",
        SOURCE,
        {"gpus": gpus, "count": len(gpus)},
        summary=f"{len(gpus)} Intel GPU{'s' if len(gpus) != 1 else ''}: {shown}",
    )


def _pci_names(ctx: ProbeContext, device_ids: set[str]) -> dict[str, str]:
    """Device names of vendor 8086 from the pci.ids database, for the ids present."""
    wanted = {d.lower().removeprefix("0x") for d in device_ids}
    for path in ("/usr/share/misc/pci.ids", "/usr/share/hwdata/pci.ids"):
        text = ctx.read_text(path)
        if not text:
            continue
        out: dict[str, str] = {}
        inside = False
        for line in text.splitlines():
            if line and not line.startswith(("\t", "#")):
                inside = line.startswith("8086 ")
                continue
            if inside and line.startswith("\t") and not line.startswith("\t\t"):
                code, _, name = line.strip().partition(" ")
                if code.lower() in wanted:
                    out[code.lower()] = name.strip()
        return out
    return {}


def _runtime(ctx: ProbeContext) -> FactGroup:
    modules = {name: amd_sysfs.kernel_module(ctx, name) for name in ("i915", "xe")}
    loader = amd_sysfs.find_libraries(ctx, ("libze_loader.so*",), amd_sysfs.LIBRARY_DIRS)
    driver = amd_sysfs.find_libraries(ctx, ("libze_intel_gpu.so*",), amd_sysfs.LIBRARY_DIRS)
    icd = ctx.glob("/etc/OpenCL/vendors/intel*.icd")
    packages = amd_sysfs.dpkg_versions(ctx, PACKAGES)
    root = ctx.env.get("ONEAPI_ROOT") or ONEAPI_ROOT
    oneapi = None
    if ctx.is_dir(root):
        oneapi = {
            "root": root,
            "exists": True,
            "setvars": f"{root}/setvars.sh" if ctx.exists(f"{root}/setvars.sh") else None,
            "components": [n for n in ctx.listdir(root) if ctx.is_dir(f"{root}/{n}")],
            "sourced": ctx.env.get("SETVARS_COMPLETED") == "1" or bool(ctx.env.get("ONEAPI_ROOT")),
        }
    env = {k: ctx.env.get(k) for k in ENV if k in ctx.env}
    loaded = [n for n, m in modules.items() if m.get("loaded")]
    if not loaded and not loader and not driver and not icd and not packages and oneapi is None:
        return absent(
            "intel.runtime", SOURCE, "no i915/xe driver, Level Zero, Intel OpenCL or oneAPI found"
        )
    identity = amd_sysfs.user_identity(ctx)
    data: dict[str, Any] = {
        "modules": modules,
        "level_zero": {"loader": loader, "gpu_driver": driver},
        "opencl_icd": icd,
        "packages": packages,
        "oneapi": oneapi,
        "env": env,
        "user": {
            "user": identity["user"],
            "groups": identity["groups"],
            "member_of": identity["member_of"],
        },
    }
    parts = [
        ("driver " + "/".join(loaded)) if loaded else "no i915/xe loaded",
        "Level Zero GPU driver " + ("found" if driver else "missing"),
    ]
    if oneapi:
        parts.append("oneAPI " + ("sourced" if oneapi["sourced"] else "not sourced"))
    return collected("intel.runtime", SOURCE, data, summary=", ".join(parts))
