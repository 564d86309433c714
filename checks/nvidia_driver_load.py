"""Why the NVIDIA kernel module does not load, or loads the wrong version."""

from __future__ import annotations

from typing import Any

from envdoctor.checks import nvidia_facts as nf
from envdoctor.installers import os_packages as osp
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.nvidia_records import NVML_LIB_RM_VERSION_MISMATCH
from envdoctor.model.snapshot import Snapshot

_SYMPTOMS = (
    "nvidia.no-driver-bound",
    "torch.gpu-test-failed",
    "cuda.toolkit-without-driver",
    "app.ollama-cpu-fallback",
    "jax.cuda-backend-failed",
)
_MISMATCH_SYMPTOMS = (
    "torch.gpu-test-failed",
    "app.ollama-cpu-fallback",
    "jax.cuda-backend-failed",
    "container.nvml-unknown-error-cgroup",
)
_MOK_URL = "https://wiki.debian.org/SecureBoot#MOK_-_Machine_Owner_Key"


def _events(snap: Snapshot, kind: str) -> list[dict[str, Any]]:
    return [m for m in snap.fact("nvidia.events", "messages") or [] if m.get("kind") == kind]


def _kernel(snap: Snapshot) -> dict[str, Any]:
    return snap.data("nvidia.kernel") or {}


@check("nvidia.nouveau-loaded", needs_any=("nvidia.kernel", "nvidia.pci", "nvidia.events"))
def nouveau_loaded(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """nouveau, the open-source NVIDIA driver, owns the GPU, so the NVIDIA driver cannot bind.

    nouveau is loaded at boot unless it is blacklisted, and a GPU it claims is unavailable to
    NVIDIA's driver: the kernel log then says "The NVIDIA probe routine was not called for 1
    device(s)... nouveau, rivafb, nvidiafb or rivatv was loaded and obtained ownership of the NVIDIA
    device(s)". nouveau has no CUDA. Driver packages normally install a blacklist; it goes missing
    after a manual (.run) install, or when the initramfs still loads nouveau. The fix: blacklist
    nouveau, rebuild the initramfs so the blacklist applies at boot, reboot.
    """
    owners = [d for d in nf.pci_gpus(snap) if d.get("driver") == "nouveau"]
    loaded = nf.module_loaded(snap, "nouveau")
    logged = snap.fact("nvidia.events", "nouveau_devices") or []
    said = _events(snap, "nouveau-owns-device") + _events(snap, "probe-not-called")
    if nf.driver_works(snap) and nf.module_loaded(snap, "nvidia") and not owners:
        return None
    if not (owners or loaded or said or (logged and not nf.driver_works(snap))):
        return None
    facts = nf.os_facts(snap)
    evidence = []
    if owners:
        evidence.append(
            Evidence(
                "nvidia.pci",
                "; ".join(nf.pci_label(ms, d) for d in owners) + " bound to nouveau",
                "bound to nvidia",
            )
        )
    if loaded:
        evidence.append(Evidence("nvidia.kernel.modules.nouveau", "loaded", "not loaded"))
    if said:
        evidence.append(Evidence("nvidia.events", said[0]["text"][:200]))
    elif logged:
        evidence.append(Evidence("nvidia.events.nouveau_devices", ", ".join(logged)))
    blacklisted = _kernel(snap).get("nouveau_blacklisted")
    detail = (
        "nouveau has claimed the NVIDIA GPU, so the NVIDIA driver cannot bind to it and CUDA sees no "
        "device."
    )
    if blacklisted:
        detail += (
            " A blacklist exists, but nouveau still loaded: the initramfs was built before it "
            "(rebuild it) or the kernel command line loads nouveau."
        )
    fixes = [
        Fix(
            "Blacklist nouveau, rebuild the initramfs and reboot",
            osp.blacklist_nouveau(facts) + ("sudo reboot",),
            Risk.NEEDS_RESTART,
            osp.driver_docs_url(facts),
        )
    ]
    install = osp.install_nvidia_driver(facts)
    if install and not (snap.fact("nvidia.kernel", "libraries") or {}).get("libnvidia-ml"):
        fixes.append(
            Fix(
                "Install the NVIDIA driver (its packages also blacklist nouveau), then reboot",
                install + ("sudo reboot",),
                Risk.NEEDS_RESTART,
                osp.driver_docs_url(facts),
            )
        )
    return Finding(
        id="nvidia.nouveau-loaded",
        severity=Severity.ERROR,
        title="nouveau owns the NVIDIA GPU: the NVIDIA driver cannot bind",
        detail=detail,
        evidence=tuple(evidence),
        fixes=tuple(fixes),
        explains=_SYMPTOMS,
    )


@check("nvidia.module-not-built-for-kernel", needs=("nvidia.kernel",))
def module_not_built(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """The NVIDIA driver is installed but has no kernel module for the running kernel.

    The kernel module must be compiled for each kernel. Distribution packages do it through DKMS
    (or akmods on Fedora) when a kernel is installed; when that fails (missing kernel headers,
    a compiler error with a kernel newer than the driver supports) the new kernel boots without
    an nvidia module, nvidia-smi "couldn't communicate with the NVIDIA driver" and `modprobe nvidia`
    says the module is not found. The fix: install the headers of the running kernel and rebuild
    the module (dkms autoinstall / akmods), or boot the older kernel that still has one.
    """
    kernel_facts = _kernel(snap)
    kernel = kernel_facts.get("kernel")
    present = (kernel_facts.get("module_for_kernel") or {}).get("present")
    if present is not False or nf.module_loaded(snap, "nvidia"):
        return None
    built = kernel_facts.get("dkms") or []
    others = [k for k in kernel_facts.get("kernels_with_module") or [] if k != kernel]
    libraries = kernel_facts.get("libraries") or {}
    installed = bool(built or others or libraries.get("libnvidia-ml") or libraries.get("libcuda"))
    if not installed:
        return None  # nothing installed: nvidia.no-driver-bound says to install it
    facts = nf.os_facts(snap)
    evidence = [
        Evidence(
            "nvidia.kernel.module_for_kernel",
            f"no nvidia module under /lib/modules/{kernel}",
            f"an nvidia module built for {kernel}",
        )
    ]
    if built:
        evidence.append(
            Evidence(
                "nvidia.kernel.dkms",
                ", ".join(f"{b['module']}/{b['version']} for {b['kernel']}" for b in built[:6]),
            )
        )
    if others:
        evidence.append(Evidence("nvidia.kernel.kernels_with_module", ", ".join(others)))
    fixes = [
        Fix(
            f"Install the headers for {kernel} and rebuild the NVIDIA module, then load it",
            osp.rebuild_nvidia_module(facts, kernel) + ("sudo modprobe nvidia",),
            Risk.SAFE,
            osp.driver_docs_url(facts),
        )
    ]
    if others:
        fixes.append(
            Fix(
                f"Or boot a kernel that has the module ({', '.join(others)}) from the boot menu",
                (),
                Risk.NEEDS_RESTART,
            )
        )
    detail = (
        f"The NVIDIA driver is installed, but no nvidia kernel module exists for the running kernel "
        f"{kernel}, so the driver cannot load."
    )
    if built:
        detail += " DKMS built it for " + ", ".join(sorted({b["kernel"] for b in built})) + " only."
    return Finding(
        id="nvidia.module-not-built-for-kernel",
        severity=Severity.ERROR,
        title=f"No NVIDIA kernel module for the running kernel {kernel}",
        detail=detail,
        evidence=tuple(evidence),
        fixes=tuple(fixes),
        explains=_SYMPTOMS,
    )


@check("nvidia.secure-boot-blocks-module", needs_any=("nvidia.kernel", "nvidia.events"))
def secure_boot_blocks(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """Secure Boot rejects the NVIDIA kernel module because it is not signed with a trusted key.

    With Secure Boot on, the kernel loads only modules signed by a key it trusts. A module built
    locally (DKMS, akmods, the .run installer) is signed with a Machine Owner Key (MOK) that must
    be enrolled once: until then `modprobe nvidia` fails with "Key was rejected by service" and the
    kernel log says "Loading of unsigned module is rejected". Fix: enrol the signing key (you set
    a one-time password, then confirm it in the blue MOK manager screen at the next boot), use
    the distribution's pre-signed modules, or turn Secure Boot off in the firmware.
    """
    kernel_facts = _kernel(snap)
    enabled = (kernel_facts.get("secure_boot") or {}).get("enabled")
    if enabled is None:
        enabled = snap.fact("nvidia.events", "secure_boot")
    rejected = _events(snap, "unsigned-module-rejected")
    if nf.module_loaded(snap, "nvidia") or (nf.driver_works(snap) and not rejected):
        return None
    modinfo = (kernel_facts.get("module_for_kernel") or {}).get("modinfo") or {}
    present = (kernel_facts.get("module_for_kernel") or {}).get("present")
    unsigned = (
        present is True and bool(modinfo) and "error" not in modinfo and not modinfo.get("signer")
    )
    if not rejected and not (enabled and unsigned):
        return None
    facts = nf.os_facts(snap)
    evidence = [
        Evidence(
            "nvidia.kernel.secure_boot",
            "enabled" if enabled else "unknown",
            "disabled, or the key enrolled",
        )
    ]
    if rejected:
        evidence.append(Evidence("nvidia.events", rejected[0]["text"][:200]))
    if unsigned:
        evidence.append(
            Evidence(
                "nvidia.kernel.module_for_kernel.modinfo.signer", "none", "a key enrolled with MOK"
            )
        )
    fixes = []
    enroll = osp.enroll_signing_key(facts)
    if enroll:
        fixes.append(
            Fix(
                "Enrol the module-signing key with MOK, then reboot and confirm it in the MOK manager",
                enroll + ("sudo reboot",),
                Risk.NEEDS_RESTART,
                _MOK_URL,
            )
        )
    if osp.family(facts) == "opensuse":
        fixes.append(
            Fix(
                "Use openSUSE's pre-signed open kernel modules",
                ("sudo zypper install -y nvidia-open-driver-G06-signed-kmp-default",),
                Risk.NEEDS_RESTART,
                osp.driver_docs_url(facts),
            )
        )
    fixes.append(
        Fix(
            "Or disable Secure Boot in the firmware setup, then reboot",
            ("mokutil --sb-state",),
            Risk.NEEDS_RESTART,
        )
    )
    return Finding(
        id="nvidia.secure-boot-blocks-module",
        severity=Severity.ERROR,
        title="Secure Boot blocks the unsigned NVIDIA kernel module",
        detail=(
            "Secure Boot is on and the NVIDIA module is not signed with a key the kernel trusts, "
            "so it is not loaded and CUDA sees no GPU."
        ),
        evidence=tuple(evidence),
        fixes=tuple(fixes),
        explains=_SYMPTOMS,
    )


def _versions(snap: Snapshot) -> tuple[str | None, str | None, str]:
    """(kernel module version, user-space library version, where the library version came from)."""
    data = nf.driver(snap) or {}
    module = data.get("module_version") if not data.get("jetson_l4t") else None
    for mismatch in [
        m for m in snap.fact("nvidia.events", "messages") or [] if m.get("kind") == "api-mismatch"
    ]:
        module = module or mismatch.get("module_version")
        if mismatch.get("client_version"):
            return module, mismatch["client_version"].split("-")[0], "the kernel log (API mismatch)"
    library = data.get("library_version")
    if library:
        return module, library, "NVML"
    for lib in (snap.fact("nvidia.kernel", "libraries") or {}).get("libnvidia-ml", []):
        if lib.get("version"):
            return module, lib["version"], lib.get("resolved") or lib["path"]
    return module, None, ""


@check("nvidia.driver-library-mismatch", needs_any=("nvidia.driver", "nvidia.events"))
def library_mismatch(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """The loaded NVIDIA kernel module and the user-space driver libraries are different versions.

    NVML and CUDA refuse to work across versions: nvidia-smi prints "Failed to initialize NVML:
    Driver/library version mismatch" and the kernel log says "NVRM: API mismatch". It almost always
    follows a driver upgrade (often an unattended one) while the old module stays loaded; a reboot
    loads the new one. Without a reboot, the modules can be reloaded when no process uses the GPU.
    If the versions still differ after a reboot, the module for this kernel was not rebuilt (DKMS
    failed) or two installs (a .run file and packages) are mixed.
    """
    data = nf.driver(snap) or {}
    module, library, where = _versions(snap)
    nvml_says = (data.get("nvml_error") or {}).get("code") == NVML_LIB_RM_VERSION_MISMATCH
    api = bool(_events(snap, "api-mismatch"))
    differs = bool(module and library and module != library)
    if not (nvml_says or api or differs):
        return None
    facts = nf.os_facts(snap)
    evidence = []
    if module:
        evidence.append(
            Evidence("nvidia.driver.module_version", module, library or "the library's version")
        )
    if library:
        evidence.append(
            Evidence("nvidia.driver.library_version", f"{library} ({where})", module or None)
        )
    if nvml_says:
        evidence.append(Evidence("nvidia.driver.nvml_error", "Driver/library version mismatch"))
    detail = (
        "The NVIDIA kernel module "
        + (f"{module} " if module else "")
        + "and the user-space driver libraries "
        + (f"{library} " if library else "")
        + "differ, so NVML and CUDA refuse to start. This follows a driver upgrade without a reboot."
    )
    fixes = [
        Fix(
            "Reboot to load the kernel module that matches the installed libraries",
            ("sudo reboot",),
            Risk.NEEDS_RESTART,
        ),
        Fix(
            "Or, when no process uses the GPU, reload the NVIDIA modules",
            ("sudo lsof /dev/nvidia*",) + osp.reload_nvidia_modules(),
            Risk.SAFE,
        ),
    ]
    kernel = nf.kernel_release(snap)
    rebuild = osp.rebuild_nvidia_module(facts, kernel)
    if rebuild:
        fixes.append(
            Fix(
                f"If they still differ after the reboot, rebuild the module for {kernel}",
                rebuild,
                Risk.NEEDS_RESTART,
                osp.driver_docs_url(facts),
            )
        )
    return Finding(
        id="nvidia.driver-library-mismatch",
        severity=Severity.ERROR,
        title="NVIDIA driver/library version mismatch"
        + (f": kernel module {module}, libraries {library}" if module and library else ""),
        detail=detail,
        evidence=tuple(evidence),
        fixes=tuple(fixes),
        explains=_MISMATCH_SYMPTOMS,
    )


CHECKS = [nouveau_loaded, module_not_built, secure_boot_blocks, library_mismatch]
