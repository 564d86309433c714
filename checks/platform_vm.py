"""Virtual machines: an NVIDIA vGPU without a licence, and a guest that sees only an emulated display
adapter (no GPU passed through)."""

from __future__ import annotations

from envdoctor.checks import platform_facts as pf
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.snapshot import Snapshot

VGPU_LICENSING = "https://docs.nvidia.com/vgpu/latest/grid-licensing-user-guide/index.html"
VSPHERE_PASSTHROUGH = "https://docs.vmware.com/en/VMware-vSphere/index.html"
HYPERV_DDA = "https://learn.microsoft.com/en-us/windows-server/virtualization/hyper-v/deploy/deploying-graphics-devices-using-dda"
LIBVIRT_HOSTDEV = "https://libvirt.org/formatdomain.html#host-device-assignment"


def _vgpu_mode(snap: Snapshot) -> list[str]:
    """Names of the GPUs NVML / nvidia-smi report in vGPU (guest) mode."""
    return [
        str(g.get("name") or g.get("index"))
        for g in pf.nvidia_gpus(snap)
        if str(g.get("virtualization_mode") or "").lower() == "vgpu"
    ]


@check("nvidia.vgpu-unlicensed", needs_any=("platform.vm", "nvidia.gpus"))
def vgpu_unlicensed(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """An NVIDIA vGPU in this VM has no licence, or cannot get one.

    A vGPU guest (nvidia-smi's "Virtualization Mode: VGPU", a profile name such as "NVIDIA
    H100-80C" as the product) needs a licence from NVIDIA's license service. `nvidia-smi -q` shows it
    in the "vGPU Software Licensed Product" section: "License Status : Licensed (Expiry: …)",
    "Unlicensed (Unrestricted)" (running at full speed while the grace period lasts) or "Unlicensed
    (Restricted)" (performance capped: CUDA throttled, frame rate limited). The guest's nvidia-gridd
    service obtains the licence using the client configuration token in /etc/nvidia/ClientConfigToken
    and the settings in /etc/nvidia/gridd.conf; `journalctl -u nvidia-gridd` says why it failed.
    """
    vm = snap.data("platform.vm") or {}
    vgpu = vm.get("vgpu") or {}
    licenses = [lic for lic in vgpu.get("licenses") or [] if isinstance(lic, dict)]
    unlicensed = [lic for lic in licenses if lic.get("licensed") is False]
    vgpu_gpus = _vgpu_mode(snap)
    fixes = (
        Fix(
            "Install the client configuration token from your license server, restart nvidia-gridd, check the status",
            (
                "sudo cp client_configuration_token_*.tok /etc/nvidia/ClientConfigToken/",
                "sudo systemctl restart nvidia-gridd",
                "nvidia-smi -q | grep -A2 'vGPU Software Licensed Product'",
            ),
            Risk.NEEDS_RESTART,
            VGPU_LICENSING,
        ),
        Fix(
            "Read why nvidia-gridd could not get a licence",
            ("sudo journalctl -u nvidia-gridd --no-pager | tail -n 30",),
            Risk.SAFE,
            VGPU_LICENSING,
        ),
    )
    if unlicensed:
        restricted = [lic for lic in unlicensed if lic.get("restricted")]
        shown = ", ".join(
            f"{lic.get('product_name') or 'vGPU'}: {lic.get('license_status')}"
            for lic in unlicensed
        )
        evidence = [Evidence("nvidia-smi -q License Status", shown, "Licensed")]
        evidence.append(
            Evidence(
                "nvidia-gridd",
                str(
                    vgpu.get("gridd_active")
                    or ("installed" if vgpu.get("gridd_installed") else "not installed")
                ),
                "active",
            )
        )
        evidence.append(
            Evidence(
                "/etc/nvidia/ClientConfigToken/*.tok", str(vgpu.get("client_tokens", 0)), ">= 1"
            )
        )
        feature = (vgpu.get("gridd_conf") or {}).get("feature_type")
        if feature is not None:
            evidence.append(
                Evidence(
                    "gridd.conf FeatureType",
                    str(feature),
                    "1 (vGPU), 2 (RTX Virtual Workstation) or 4 (Virtual Compute Server)",
                )
            )
        return Finding(
            id="nvidia.vgpu-unlicensed",
            severity=Severity.ERROR if restricted else Severity.WARNING,
            title=(
                "This vGPU is unlicensed and already restricted (throttled)"
                if restricted
                else "This vGPU is unlicensed: it runs at full speed only until the grace period ends"
            ),
            detail=(
                "The vGPU has no licence from the license server, so NVIDIA's driver limits it "
                + ("now." if restricted else "once the grace period is over.")
                + " nvidia-gridd must obtain a licence with the client configuration token."
            ),
            evidence=tuple(evidence),
            fixes=fixes,
            explains=("torch.gpu-test-failed",),
        )
    if vgpu_gpus and not licenses:
        problems = []
        if not vgpu.get("gridd_installed"):
            problems.append("nvidia-gridd is not installed (the vGPU guest driver provides it)")
        if not (vgpu.get("gridd_conf") or {}).get("present"):
            problems.append("/etc/nvidia/gridd.conf is missing")
        if not vgpu.get("client_tokens"):
            problems.append("no client configuration token in /etc/nvidia/ClientConfigToken")
        if (vgpu.get("gridd_conf") or {}).get("feature_type") == 0:
            problems.append(
                "gridd.conf sets FeatureType=0, which the driver's template calls the unlicensed state"
            )
        if not problems or not vm:
            return None
        return Finding(
            id="nvidia.vgpu-unlicensed",
            severity=Severity.WARNING,
            title=f"A vGPU ({', '.join(vgpu_gpus)}) without the licensing setup: it will run unlicensed",
            detail="; ".join(problems)
            + ". Without a licence the vGPU's performance is capped after the grace period.",
            evidence=tuple(Evidence("vGPU licensing", p) for p in problems)
            + (Evidence("nvidia.gpus virtualization_mode", "vgpu"),),
            fixes=(
                Fix(
                    "Create gridd.conf from the driver's template",
                    ("sudo cp /etc/nvidia/gridd.conf.template /etc/nvidia/gridd.conf",),
                    Risk.SAFE,
                    VGPU_LICENSING,
                ),
            )
            + fixes,
        )
    return None


@check("vm.no-gpu-passthrough", needs=("platform.vm",))
def no_passthrough(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """This VM sees only an emulated display adapter: no GPU is passed through to it.

    Hypervisors give every guest an emulated adapter for its console (VMware SVGA, QXL, virtio-gpu,
    the QEMU/Bochs VGA, Hyper-V's synthetic video, the EC2 VGA). A GPU reaches a guest only by PCI
    passthrough (VMware DirectPath I/O, Hyper-V DDA, VFIO under KVM) or as an NVIDIA vGPU profile, and
    then appears as an NVIDIA/AMD/Intel PCI device beside the emulated one. With only the emulated
    adapter, CUDA finds no device and OpenGL renders in software; cloud desktops and VDI sessions
    without a GPU profile look the same.
    """
    if pf.wsl_state(snap).is_wsl:
        return None
    vm = snap.data("platform.vm") or {}
    adapters = [a for a in vm.get("display_adapters") or [] if isinstance(a, dict)]
    virtual = [a for a in adapters if a.get("kind") == "virtual"]
    real = [a for a in adapters if a.get("kind") in ("nvidia", "amd", "intel")]
    if not virtual or real or pf.nvidia_gpus(snap) or snap.fact("amd.gpus", "gpus"):
        return None
    names = ", ".join(str(a.get("name")) for a in virtual)
    hypervisor = str(vm.get("hypervisor") or "this hypervisor")
    fixes = []
    lowered = hypervisor.lower()
    if "vmware" in lowered:
        fixes.append(
            Fix(
                "In vSphere, with the VM powered off, add the GPU as a PCI device (DirectPath I/O) or an NVIDIA "
                "vGPU profile (Edit Settings > Add New Device > PCI Device)",
                risk=Risk.NEEDS_RESTART,
                url=VSPHERE_PASSTHROUGH,
            )
        )
    elif "hyper-v" in lowered:
        fixes.append(
            Fix(
                "On the Hyper-V host (administrator PowerShell), assign the GPU to the VM with Discrete Device "
                "Assignment",
                (
                    "Dismount-VMHostAssignableDevice -LocationPath $locationPath -Force",
                    "Add-VMAssignableDevice -LocationPath $locationPath -VMName $vmName",
                ),
                Risk.NEEDS_RESTART,
                HYPERV_DDA,
            )
        )
    elif "kvm" in lowered or "qemu" in lowered:
        fixes.append(
            Fix(
                "On the KVM host, pass the GPU through with VFIO (libvirt <hostdev>), with the VM shut off",
                ("virsh nodedev-list --cap pci", "virsh edit VM_NAME"),
                Risk.NEEDS_RESTART,
                LIBVIRT_HOSTDEV,
            )
        )
    else:
        fixes.append(
            Fix(
                f"Attach a GPU to the VM in {hypervisor} (PCI passthrough or a vGPU profile), or choose a GPU "
                "instance type in the cloud",
                risk=Risk.NEEDS_RESTART,
            )
        )
    fixes.append(
        Fix(
            "Check inside the guest that a GPU appears beside the emulated adapter",
            ("lspci -nn | grep -Ei 'vga|3d|display'",),
        )
    )
    return Finding(
        id="vm.no-gpu-passthrough",
        severity=Severity.WARNING if pf.framework_gpu_intent(snap) else Severity.INFO,
        title=f"This {hypervisor} VM has only an emulated display adapter ({names}): no GPU is passed through",
        detail=(
            "The guest sees no NVIDIA, AMD or Intel GPU, only the hypervisor's console adapter, so CUDA has no device "
            "and OpenGL renders on the CPU. Give the VM a GPU in the hypervisor."
        ),
        evidence=(
            Evidence("platform.vm.display_adapters", names, "an NVIDIA / AMD / Intel GPU"),
            Evidence("platform.vm.hypervisor", hypervisor),
        ),
        fixes=tuple(fixes),
        explains=(
            "platform.software-rendering",
            "windows.d3d11-required",
            "torch.cuda-unavailable",
            "cuda.toolkit-without-driver",
        ),
    )


CHECKS = [vgpu_unlicensed, no_passthrough]
