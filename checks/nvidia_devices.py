"""The NVIDIA device nodes (/dev/nvidia*) and the nvidia_uvm module that CUDA opens."""

from __future__ import annotations

import re

from envdoctor.checks import nvidia_facts as nf
from envdoctor.installers import os_packages as osp
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.snapshot import Snapshot

_SYMPTOMS = ("torch.gpu-test-failed", "app.ollama-cpu-fallback", "jax.cuda-backend-failed")
_DEVICE_FILES_URL = "https://download.nvidia.com/XFree86/Linux-x86_64/latest/README/faq.html"


def _skip_host_checks(snap: Snapshot) -> bool:
    """Containers get their nodes from the runtime (container checks) and WSL uses /dev/dxg."""
    return nf.in_container(snap) or nf.platform(snap) in {"wsl", "windows"}


@check("nvidia.device-nodes-missing", needs=("nvidia.kernel",))
def nodes_missing(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """The NVIDIA module is loaded but its device files (/dev/nvidiactl, /dev/nvidiaN) are missing.

    CUDA and NVML open /dev/nvidiactl and one /dev/nvidiaN per GPU. They are created by udev rules
    of the driver packages or, on demand, by the setuid helper nvidia-modprobe; a minimal install,
    a missing nvidia-modprobe or a cleaned /dev leaves them out, and CUDA then reports no device
    although the module is loaded. `nvidia-modprobe -c=N` (or running nvidia-smi once as root)
    creates them.
    """
    if _skip_host_checks(snap) or nf.module_loaded(snap, "nvidia") is not True:
        return None
    paths = {d["path"] for d in nf.device_nodes(snap)}
    count = (
        len(nf.gpus(snap))
        or len([d for d in nf.pci_gpus(snap) if d.get("driver") == "nvidia"])
        or 1
    )
    missing = [] if "/dev/nvidiactl" in paths else ["/dev/nvidiactl"]
    missing += [f"/dev/nvidia{i}" for i in range(count) if f"/dev/nvidia{i}" not in paths]
    if not missing:
        return None
    minors = [
        m.removeprefix("/dev/nvidia") for m in missing if re.fullmatch(r"/dev/nvidia\d+", m)
    ] or ["0"]
    commands = tuple(f"sudo nvidia-modprobe -c={minor}" for minor in minors)
    return Finding(
        id="nvidia.device-nodes-missing",
        severity=Severity.ERROR,
        title="NVIDIA device files missing: " + ", ".join(missing),
        detail=(
            f"The nvidia module is loaded, but {', '.join(missing)} do not exist, so CUDA and NVML cannot "
            "open the GPU."
        ),
        evidence=(
            Evidence(
                "nvidia.kernel.devices",
                ", ".join(sorted(paths)) or "none",
                "/dev/nvidiactl and /dev/nvidia0.." + str(count - 1),
            ),
        ),
        fixes=(
            Fix(
                "Create the device files with nvidia-modprobe",
                commands,
                Risk.SAFE,
                _DEVICE_FILES_URL,
            ),
            Fix("Or let nvidia-smi create them once as root", ("sudo nvidia-smi",), Risk.SAFE),
        ),
        explains=_SYMPTOMS,
    )


@check("nvidia.device-node-permission", needs=("nvidia.kernel",))
def node_permission(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """This user may not open the NVIDIA device files, so CUDA works only as root.

    The device files are usually mode 0666. Some distributions and hardening guides make them
    0660 with a group (video, render) instead; a user outside that group then gets "no CUDA-capable
    device is detected" or NVML "Insufficient Permissions" while root works. Fix: add the user to
    the group (then log in again), or set the mode the driver creates them with
    (NVreg_DeviceFileMode / NVreg_DeviceFileGID module options).
    """
    if _skip_host_checks(snap):
        return None
    blocked = [
        d for d in nf.device_nodes(snap) if d.get("accessible") is False and d["path"] != "/dev/dxg"
    ]
    if not blocked:
        return None
    groups = sorted({d.get("group") or str(d.get("gid")) for d in blocked})
    group = groups[0]
    listing = ", ".join(
        f"{d['path']} ({d['mode']}, group {d.get('group') or d.get('gid')})" for d in blocked
    )
    return Finding(
        id="nvidia.device-node-permission",
        severity=Severity.ERROR,
        title=f"This user cannot open the NVIDIA device files (group {group} needed)",
        detail=f"{listing}: this user (uid {(snap.fact('nvidia.kernel', 'user') or {}).get('uid')}) is neither "
        "their owner nor in their group, so CUDA finds no device unless run as root.",
        evidence=(
            Evidence("nvidia.kernel.devices", listing, "read and write access for this user"),
        ),
        fixes=(
            Fix(
                f"Add this user to the {group} group, then log out and in again",
                (f"sudo usermod -aG {group} $USER",),
                Risk.SAFE,
                _DEVICE_FILES_URL,
            ),
            Fix(
                "Or make the driver create the files readable by everyone (mode 0666), then reboot",
                (
                    "printf 'options nvidia NVreg_DeviceFileMode=0666\\n' | sudo tee /etc/modprobe.d/nvidia-device-mode.conf",
                    *osp.rebuild_initramfs(nf.os_facts(snap)),
                    "sudo reboot",
                ),
                Risk.NEEDS_RESTART,
                _DEVICE_FILES_URL,
            ),
        ),
        explains=_SYMPTOMS,
    )


@check("nvidia.uvm-not-loaded", needs=("nvidia.kernel",))
def uvm_not_loaded(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """nvidia_uvm (CUDA's unified-memory module) is not loaded and nothing will load it.

    CUDA needs the nvidia_uvm module and /dev/nvidia-uvm besides the nvidia module. libcuda loads it
    on first use through the setuid helper nvidia-modprobe; where that helper is missing (minimal
    installs, some containers) CUDA fails with error 999 / "unknown error" or finds no device.
    After suspend and resume a stale nvidia_uvm gives the same error: reloading it helps there too.
    """
    if _skip_host_checks(snap):
        return None
    facts = snap.data("nvidia.kernel") or {}
    if not facts.get("modules_readable") or nf.module_loaded(snap, "nvidia") is not True:
        return None
    uvm_loaded = nf.module_loaded(snap, "nvidia_uvm")
    helper = facts.get("nvidia_modprobe") or {}
    if uvm_loaded or (helper.get("path") and helper.get("setuid")):
        return None
    nodes = {d["path"] for d in nf.device_nodes(snap)}
    return Finding(
        id="nvidia.uvm-not-loaded",
        severity=Severity.ERROR,
        title="nvidia_uvm is not loaded: CUDA cannot start",
        detail=(
            "The nvidia module is loaded but nvidia_uvm is not"
            + ("" if "/dev/nvidia-uvm" in nodes else " (no /dev/nvidia-uvm)")
            + ", and no setuid nvidia-modprobe exists to load it on demand: CUDA fails with error 999 "
            "or finds no device."
        ),
        evidence=(
            Evidence("nvidia.kernel.modules.nvidia_uvm", "not loaded", "loaded"),
            Evidence(
                "nvidia.kernel.nvidia_modprobe",
                str(helper.get("path") or "not installed"),
                "a setuid nvidia-modprobe",
            ),
        ),
        fixes=(
            Fix("Load nvidia_uvm and create /dev/nvidia-uvm", osp.load_uvm(), Risk.SAFE),
            Fix(
                "Load it at every boot",
                ("echo nvidia_uvm | sudo tee /etc/modules-load.d/nvidia-uvm.conf",),
                Risk.SAFE,
            ),
        ),
        explains=_SYMPTOMS,
    )


CHECKS = [nodes_missing, node_permission, uvm_not_loaded]
