"""Is there an NVIDIA GPU, and is a driver bound to it? The root of most "no GPU" reports."""

from __future__ import annotations

from envdoctor.checks import nvidia_facts as nf
from envdoctor.installers import os_packages as osp
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.nvidia_records import NVML_DRIVER_NOT_LOADED
from envdoctor.model.snapshot import Snapshot, Status
from envdoctor.remedies import fixes_for

_DRIVER_SYMPTOMS = (
    "torch.gpu-test-failed",
    "cuda.toolkit-without-driver",
    "app.ollama-cpu-fallback",
    "jax.cuda-backend-failed",
)
_NO_GPU_SYMPTOMS = ("cuda.toolkit-without-driver", "torch.cpu-build-no-gpu")
_CONTAINER_GUIDE = (
    "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/install-guide.html"
)


def _toolkit_sentence(snap: Snapshot) -> str:
    toolkits = snap.fact("cuda.toolkits", "toolkits") or []
    if not toolkits:
        return ""
    main = toolkits[0]
    version = main.get("version") or main.get("release") or "unknown version"
    where = main.get("real_path") or main.get("path") or ""
    return (
        f" The CUDA {version} toolkit{' at ' + where if where else ''} can compile CUDA code (nvcc "
        "works), but nothing can run CUDA code here: every CUDA call reports that there is no device."
    )


def _torch_sentence(snap: Snapshot) -> str:
    torch = snap.data("python.torch")
    if torch is not None and torch.get("version"):
        return (
            f" torch {torch['version']} will use the CPU: torch.cuda.is_available() is False on "
            "this machine whatever build is installed."
        )
    return " PyTorch and the other ML frameworks will use the CPU."


@check("nvidia.no-gpu", needs_any=("nvidia.pci", "nvidia.driver", "nvidia.gpus"))
def no_gpu(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """No NVIDIA GPU and no NVIDIA driver are present on this machine.

    envdoctor looked at the PCI bus (sysfs) and for the NVIDIA driver (NVML, nvidia-smi,
    /proc/driver/nvidia) and found neither. This is not a fault on a machine without an NVIDIA GPU:
    a CUDA toolkit still compiles CUDA code (nvcc needs no GPU), but nothing can run it, and
    PyTorch, TensorFlow and JAX use the CPU. In a container, a GPU of the host is only visible when
    the container is started with it (`docker run --gpus all` on a host with the NVIDIA Container
    Toolkit). Informational: nothing to fix unless this machine should have a GPU.
    """
    if nf.driver(snap) is not None or nf.gpus(snap):
        return None
    if nf.driver_status(snap) is Status.FAILED:
        return None  # the driver may exist but did not answer: not "absent"
    pci = snap.data("nvidia.pci")
    if pci is not None and pci.get("devices"):
        return None
    if pci is not None:
        seen = (
            f"none of the {pci['pci_device_count']} PCI devices is from NVIDIA"
            if pci.get("pci_device_count") is not None
            else "no NVIDIA device on the PCI bus"
        )
    else:
        group = snap.group("nvidia.pci")
        seen = (
            f"the PCI bus was not visible ({group.reason})"
            if group is not None and group.reason
            else "the PCI bus was not looked at"
        )
    detail = (
        f"No NVIDIA GPU is present ({seen}) and no NVIDIA driver is installed "
        f"({(nf.driver_reason(snap) or 'no driver found').removeprefix('no NVIDIA driver: ')})."
        + _toolkit_sentence(snap)
        + _torch_sentence(snap)
    )
    fixes: tuple[Fix, ...] = ()
    if nf.in_container(snap):
        detail += (
            " This is a container: if the host has an NVIDIA GPU, the container was started "
            "without it."
        )
        fixes = (
            Fix(
                "Start the container with the host's GPUs (the host needs the NVIDIA driver and the "
                "NVIDIA Container Toolkit)",
                ("docker run --gpus all IMAGE",),
                Risk.SAFE,
                _CONTAINER_GUIDE,
            ),
        )
    return Finding(
        id="nvidia.no-gpu",
        severity=Severity.INFO,
        title="No NVIDIA GPU or driver on this machine: CUDA code cannot run here, frameworks use the CPU",
        detail=detail,
        evidence=(
            Evidence("nvidia.pci", seen, "an NVIDIA GPU (vendor 0x10de, class 0x03xx)"),
            Evidence(
                "nvidia.driver", nf.driver_reason(snap) or "not found", "a loaded NVIDIA driver"
            ),
        ),
        fixes=fixes,
        explains=_NO_GPU_SYMPTOMS,
    )


def _kernel_state(snap: Snapshot) -> dict:
    return snap.data("nvidia.kernel") or {}


def _user_space_installed(snap: Snapshot) -> bool:
    libraries = _kernel_state(snap).get("libraries") or {}
    data = nf.driver(snap) or {}
    return bool(
        libraries.get("libnvidia-ml")
        or libraries.get("libcuda")
        or data.get("library_version")
        or data.get("smi_error")
        or (data.get("nvml_error") or {}).get("code") == NVML_DRIVER_NOT_LOADED
    )


def _install_fix(snap: Snapshot, ms: MatrixSet) -> tuple[Fix, ...]:
    """The chooser's driver install: the GPU's last branch where NVIDIA ended its architecture,
    the distribution's current driver otherwise; on Windows NVIDIA's page; never inside WSL2."""
    return fixes_for(snap, ms, "driver")


@check("nvidia.no-driver-bound", needs_any=("nvidia.pci", "nvidia.driver"))
def no_driver_bound(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """An NVIDIA GPU is present but the NVIDIA driver is not bound to it.

    The GPU shows on the PCI bus, but no `nvidia` kernel driver owns it, so nvidia-smi fails
    ("couldn't communicate with the NVIDIA driver"), CUDA finds no device and every framework falls
    back to the CPU. The usual causes, in the order envdoctor ranks them when the facts point at
    one: nouveau (the open-source driver) claimed the GPU first (nvidia.nouveau-loaded); the module
    was not built for the running kernel after a kernel update (nvidia.module-not-built-for-kernel);
    Secure Boot refused the unsigned module (nvidia.secure-boot-blocks-module); or no NVIDIA driver
    is installed at all. Those causes are reported separately and fold this finding under them.
    A GPU bound to vfio-pci is handed to virtual machines on purpose and is not reported, and
    neither is a machine whose PCI bus was read and holds no NVIDIA GPU (driver libraries left
    installed on a machine or image without one); without the bus (a pasted error) the driver's
    own "not loaded" is taken as the sign of a GPU without its driver.
    """
    devices = [d for d in nf.pci_gpus(snap) if not d.get("driver_unknown")]
    loaded = nf.nvidia_module_loaded(snap)
    data = nf.driver(snap)
    unbound = [
        d
        for d in devices
        if d.get("driver") != "nvidia" and d.get("driver") not in nf.PASSTHROUGH_DRIVERS
    ]
    if devices:
        if not unbound:
            return None
    elif data is None or data.get("driver_loaded") is not False or nf.platform(snap) == "wsl":
        return None  # WSL uses the Windows driver: the WSL checks explain a failure there
    elif (snap.fact("nvidia.pci", "pci_device_count") or 0) > 0:
        return None  # the bus was read and holds no NVIDIA GPU: driver software without a GPU is no fault
    facts = nf.os_facts(snap)
    kernel = nf.kernel_release(snap)
    names = "; ".join(
        nf.pci_label(ms, d) + f" bound to {d.get('driver') or 'no driver'}" for d in unbound
    )
    evidence = (
        [Evidence("nvidia.pci", names or "GPU not listed", "bound to the nvidia driver")]
        if unbound
        else []
    )
    if data is not None and (data.get("smi_error") or data.get("nvml_error")):
        said = data.get("smi_error") or (data.get("nvml_error") or {}).get("message")
        evidence.append(Evidence("nvidia.driver", str(said), "the driver answers"))
    if loaded is False:
        evidence.append(Evidence("nvidia.kernel.modules.nvidia", "not loaded", "loaded"))
    fixes = []
    nouveau = any(d.get("driver") == "nouveau" for d in unbound) or nf.module_loaded(
        snap, "nouveau"
    )
    if nouveau:
        fixes.append(
            Fix(
                "Blacklist nouveau so the NVIDIA driver can bind, rebuild the initramfs, reboot",
                osp.blacklist_nouveau(facts) + ("sudo reboot",),
                Risk.NEEDS_RESTART,
                osp.driver_docs_url(facts),
            )
        )
    present = (_kernel_state(snap).get("module_for_kernel") or {}).get("present")
    if present is False and _user_space_installed(snap):
        fixes.append(
            Fix(
                f"Build the NVIDIA module for the running kernel {kernel}, then load it",
                osp.rebuild_nvidia_module(facts, kernel) + ("sudo modprobe nvidia",),
                Risk.SAFE,
                osp.driver_docs_url(facts),
            )
        )
    if present is True:
        fixes.append(
            Fix(
                "Load the installed NVIDIA module and read why it fails if it does",
                ("sudo modprobe nvidia", "sudo dmesg | grep -iE 'nvrm|nvidia' | tail -n 20"),
                Risk.SAFE,
            )
        )
    if not _user_space_installed(snap) or present is None:
        fixes.extend(_install_fix(snap, ms))
    what = "the NVIDIA GPU" if len(unbound) <= 1 else f"{len(unbound)} NVIDIA GPUs"
    detail = (
        f"{names or 'An NVIDIA GPU'}: no NVIDIA driver is bound, so CUDA sees no device and "
        "frameworks fall back to the CPU."
    )
    if not _user_space_installed(snap):
        detail += (
            " No NVIDIA driver software (libnvidia-ml, libcuda, nvidia-smi) is installed either."
        )
    elif present is False:
        detail += f" The driver is installed, but no nvidia module exists for the running kernel {kernel}."
    return Finding(
        id="nvidia.no-driver-bound",
        severity=Severity.ERROR,
        title=f"No NVIDIA driver is bound to {what}",
        detail=detail,
        evidence=tuple(evidence),
        fixes=tuple(fixes),
        explains=_DRIVER_SYMPTOMS,
    )


@check("nvidia.driver-without-gpu", needs=("nvidia.driver",))
def driver_without_gpu(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """The NVIDIA driver is loaded but reports no GPU.

    nvidia-smi prints "No devices were found" and CUDA sees no device although the driver runs.
    Common causes: the GPU fell off the bus or failed to initialise (see the kernel log for NVRM
    lines and Xid 79), it is handed to a virtual machine (bound to vfio-pci), it is excluded by
    the driver, or it is in a different container or VM than this one.
    """
    data = nf.driver(snap) or {}
    if data.get("gpu_count") != 0 or data.get("driver_loaded") is False:
        return None
    devices = nf.pci_gpus(snap)
    passthrough = [d for d in devices if d.get("driver") in nf.PASSTHROUGH_DRIVERS]
    version = data.get("driver_version")
    detail = (
        f"The NVIDIA driver {version} is loaded but lists no GPU."
        if version
        else "The NVIDIA driver is loaded but lists no GPU."
    )
    if passthrough:
        detail += (
            " "
            + "; ".join(nf.pci_label(ms, d) for d in passthrough)
            + f" is bound to {passthrough[0]['driver']}: it is reserved for virtual machines."
        )
    elif devices:
        detail += (
            " The PCI bus shows "
            + "; ".join(nf.pci_label(ms, d) for d in devices)
            + ": the driver failed to initialise it (the kernel log says why)."
        )
    return Finding(
        id="nvidia.driver-without-gpu",
        severity=Severity.WARNING,
        title="The NVIDIA driver is loaded but reports no GPU",
        detail=detail,
        evidence=(Evidence("nvidia.driver.gpu_count", "0", "at least 1"),),
        fixes=(
            Fix(
                "Read what the driver said about the GPU at load time",
                ("sudo dmesg | grep -iE 'nvrm|xid' | tail -n 30",),
                Risk.SAFE,
            ),
        ),
        explains=_DRIVER_SYMPTOMS,
    )


@check("nvidia.driver-not-responding", needs_any=("nvidia.kernel", "nvidia.pci", "nvidia.events"))
def driver_not_responding(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """NVML or nvidia-smi did not answer within its deadline: the driver is probably hung.

    envdoctor gives NVML and `nvidia-smi -q -x` a few seconds each; a healthy driver answers in
    well under a second. A hang usually follows a GPU error (Xid 79 "fallen off the bus", Xid 119
    GSP timeout) or a process stuck in the driver; CUDA programs then hang as well. The kernel log
    says which; a reboot clears it.
    """
    group = snap.group("nvidia.driver")
    if group is None or group.status is not Status.FAILED or "hung" not in (group.reason or ""):
        return None
    return Finding(
        id="nvidia.driver-not-responding",
        severity=Severity.ERROR,
        title="The NVIDIA driver does not answer (NVML / nvidia-smi hung)",
        detail=f"{group.reason}. CUDA programs on this machine will hang the same way.",
        evidence=(Evidence("nvidia.driver", group.reason or "failed", "an answer within seconds"),),
        fixes=(
            Fix(
                "Read what the driver logged (Xid 79, 119 or a stuck process)",
                ("sudo dmesg | grep -iE 'nvrm|xid' | tail -n 30",),
                Risk.SAFE,
            ),
            Fix("Reboot the machine", ("sudo reboot",), Risk.NEEDS_RESTART),
        ),
        explains=_DRIVER_SYMPTOMS,
    )


CHECKS = [no_gpu, no_driver_bound, driver_without_gpu, driver_not_responding]
