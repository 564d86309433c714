"""Small readers of the NVIDIA fact groups, shared by the nvidia_* check modules (no checks here).

They turn the groups into plain values, so each check reads as its rule: the GPUs on the PCI bus,
the driver's state, the loaded modules, a GPU's label for people, the product name of a PCI
device id (from the nvidia_gpus matrix).
"""

from __future__ import annotations

from typing import Any

from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.nvidia_records import (
    NVML_DRIVER_NOT_LOADED,
    NVML_LIB_RM_VERSION_MISMATCH,
    same_device,
)
from envdoctor.model.snapshot import Snapshot, Status

CHECKS: list = []

# Bound drivers that mean the GPU is deliberately given to something else (VM pass-through).
PASSTHROUGH_DRIVERS = {"vfio-pci", "pci-stub", "pciback", "xen-pciback"}


def os_facts(snap: Snapshot) -> dict[str, Any]:
    """The `os` group's data (empty when missing), as os_packages expects it."""
    return snap.data("os") or {}


def kernel_release(snap: Snapshot) -> str | None:
    """The running kernel release, from nvidia.kernel or os."""
    return snap.fact("nvidia.kernel", "kernel") or snap.fact("os", "kernel")


def pci_gpus(snap: Snapshot) -> list[dict[str, Any]]:
    """NVIDIA display-class devices on the PCI bus (sysfs or pasted lspci)."""
    return [d for d in snap.fact("nvidia.pci", "devices") or [] if d.get("is_gpu", True)]


def gpus(snap: Snapshot) -> list[dict[str, Any]]:
    """The GPUs the driver reports (nvidia.gpus)."""
    return list(snap.fact("nvidia.gpus", "gpus") or [])


def driver(snap: Snapshot) -> dict[str, Any] | None:
    """The nvidia.driver data when collected, else None."""
    return snap.data("nvidia.driver")


def driver_status(snap: Snapshot) -> Status | None:
    """The status of nvidia.driver (None when the group is missing)."""
    group = snap.group("nvidia.driver")
    return group.status if group is not None else None


def driver_reason(snap: Snapshot) -> str | None:
    """Why nvidia.driver is absent or failed."""
    group = snap.group("nvidia.driver")
    return group.reason if group is not None else None


def driver_works(snap: Snapshot) -> bool:
    """True when a driver answered (NVML or nvidia-smi listed it, or the module is loaded)."""
    data = driver(snap)
    if data is None:
        return False
    error = (data.get("nvml_error") or {}).get("code")
    return data.get("driver_loaded") is not False and error not in (
        NVML_DRIVER_NOT_LOADED,
        NVML_LIB_RM_VERSION_MISMATCH,
    )


def module_loaded(snap: Snapshot, name: str) -> bool | None:
    """Whether a kernel module is loaded per nvidia.kernel (None when unknown)."""
    modules = snap.fact("nvidia.kernel", "modules") or {}
    info = modules.get(name) or {}
    return info.get("loaded")


def nvidia_module_loaded(snap: Snapshot) -> bool | None:
    """Whether the nvidia module is loaded: nvidia.kernel, else the driver's own files."""
    loaded = module_loaded(snap, "nvidia")
    if loaded is not None:
        return loaded
    data = driver(snap)
    if data is not None and data.get("module_version"):
        return True
    return None


def device_nodes(snap: Snapshot) -> list[dict[str, Any]]:
    """/dev/nvidia* records from nvidia.kernel."""
    return list(snap.fact("nvidia.kernel", "devices") or [])


def in_container(snap: Snapshot) -> bool:
    """True when the snapshot says envdoctor ran inside a container."""
    return bool(snap.fact("container.inside", "in_container"))


def platform(snap: Snapshot) -> str | None:
    """linux / windows / wsl, from the driver facts or the OS facts."""
    value = snap.fact("nvidia.driver", "platform")
    if value:
        return value
    if snap.fact("os", "virtualization") == "wsl":
        return "wsl"
    system = str(snap.fact("os", "system") or "").lower()
    return system or None


def pci_product(ms: MatrixSet, device_id: str | None) -> str | None:
    """The product name the nvidia_gpus matrix lists for a PCI device id ("0x2684")."""
    table = ms.get("nvidia_gpus")
    if table is None or not device_id:
        return None
    wanted = device_id.lower().removeprefix("0x")
    for row in table.rows:
        for listed in row.get("pci_device_ids") or []:
            if str(listed).lower().removeprefix("0x") == wanted:
                return row.get("name")
    return None


def pci_label(ms: MatrixSet, device: dict[str, Any]) -> str:
    """ "0000:01:00.0 (NVIDIA GeForce RTX 4090, 10de:2684)" for people."""
    product = device.get("name") or pci_product(ms, device.get("device_id"))
    ident = f"10de:{str(device.get('device_id') or '????').removeprefix('0x')}"
    inside = f"{product}, {ident}" if product else ident
    return f"{device.get('address') or 'unknown address'} ({inside})"


def gpu_label(gpu: dict[str, Any]) -> str:
    """ "GPU 0 (NVIDIA A100-SXM4-80GB, 0000:01:00.0)" for people."""
    parts = [p for p in (gpu.get("name"), gpu.get("pci_bus_id")) if p]
    index = gpu.get("index")
    head = f"GPU {index}" if index is not None else "GPU"
    return f"{head} ({', '.join(parts)})" if parts else head


def gpu_at(snap: Snapshot, pci: str | None) -> dict[str, Any] | None:
    """The nvidia.gpus record at a PCI address (a kernel-log address matches its functions)."""
    for gpu in gpus(snap):
        if same_device(gpu.get("pci_bus_id"), pci):
            return gpu
    return None
