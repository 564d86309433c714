"""Exact OS package-manager commands, per distribution family (apt, dnf, zypper, pacman).

Pure functions of the `os` fact group's data (distro_id, distro_version, distro_like, arch): no
I/O, so checks can call them. Every builder returns a tuple of shell command lines to run in
order, or () when the distribution is not one envdoctor knows (callers then show the doc URL).

    family(os_facts)                        -> "ubuntu" | "debian" | "fedora" | "rhel" | "opensuse" | "arch" | None
    package_manager(os_facts)               -> "apt" | "dnf" | "zypper" | "pacman" | None
    install_packages(os_facts, packages)    -> install named packages
    install_nvidia_driver(os_facts, branch=None, open_module=None)
                                            -> the distribution's recommended NVIDIA driver install
    rebuild_nvidia_module(os_facts, kernel) -> headers for `kernel` + rebuild the module (DKMS / akmods)
    blacklist_nouveau(os_facts)             -> blacklist file + initramfs rebuild (reboot afterwards)
    rebuild_initramfs(os_facts)             -> the initramfs tool of the distribution
    enroll_signing_key(os_facts)            -> enrol the module-signing key with MOK (Secure Boot)
    reload_nvidia_modules()                 -> unload and reload the NVIDIA modules (no GPU users)
    driver_docs_url(os_facts)               -> the distribution's NVIDIA driver page
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

OsFacts = Mapping[str, Any]

_FAMILY_IDS = {
    "ubuntu": "ubuntu",
    "pop": "ubuntu",
    "linuxmint": "ubuntu",
    "elementary": "ubuntu",
    "zorin": "ubuntu",
    "neon": "ubuntu",
    "debian": "debian",
    "raspbian": "debian",
    "kali": "debian",
    "fedora": "fedora",
    "nobara": "fedora",
    "ultramarine": "fedora",
    "rhel": "rhel",
    "centos": "rhel",
    "rocky": "rhel",
    "almalinux": "rhel",
    "ol": "rhel",
    "amzn": "rhel",
    "opensuse": "opensuse",
    "opensuse-leap": "opensuse",
    "opensuse-tumbleweed": "opensuse",
    "opensuse-slowroll": "opensuse",
    "sles": "opensuse",
    "sled": "opensuse",
    "arch": "arch",
    "manjaro": "arch",
    "endeavouros": "arch",
    "cachyos": "arch",
    "garuda": "arch",
    "arcolinux": "arch",
}
_MANAGER = {
    "ubuntu": "apt",
    "debian": "apt",
    "fedora": "dnf",
    "rhel": "dnf",
    "opensuse": "zypper",
    "arch": "pacman",
}
_DOCS = {
    "ubuntu": "https://ubuntu.com/server/docs/nvidia-drivers-installation",
    "debian": "https://wiki.debian.org/NvidiaGraphicsDrivers",
    "fedora": "https://rpmfusion.org/Howto/NVIDIA",
    "rhel": "https://docs.nvidia.com/datacenter/tesla/driver-installation-guide/index.html",
    "opensuse": "https://en.opensuse.org/SDB:NVIDIA_drivers",
    "arch": "https://wiki.archlinux.org/title/NVIDIA",
}
GENERIC_DRIVER_URL = "https://www.nvidia.com/en-us/drivers/"
BLACKLIST_FILE = "/etc/modprobe.d/blacklist-nouveau.conf"


def family(os_facts: OsFacts | None) -> str | None:
    """The distribution family, from distro_id and then distro_like."""
    if not os_facts:
        return None
    ids = [str(os_facts.get("distro_id") or "").lower()]
    ids += [str(x).lower() for x in (os_facts.get("distro_like") or [])]
    for distro in ids:
        if distro in _FAMILY_IDS:
            return _FAMILY_IDS[distro]
        if distro.startswith("opensuse"):
            return "opensuse"
    return None


def package_manager(os_facts: OsFacts | None) -> str | None:
    """The package manager of the family ("apt", "dnf", "zypper", "pacman")."""
    return _MANAGER.get(family(os_facts) or "")


def driver_docs_url(os_facts: OsFacts | None) -> str:
    """The distribution's own NVIDIA driver page (NVIDIA's download page when unknown)."""
    return _DOCS.get(family(os_facts) or "", GENERIC_DRIVER_URL)


def install_packages(os_facts: OsFacts | None, packages: Iterable[str]) -> tuple[str, ...]:
    """Install `packages` with the distribution's package manager."""
    names = " ".join(packages)
    manager = package_manager(os_facts)
    if not names or manager is None:
        return ()
    return {
        "apt": ("sudo apt-get update", f"sudo apt-get install -y {names}"),
        "dnf": (f"sudo dnf install -y {names}",),
        "zypper": (f"sudo zypper install -y {names}",),
        "pacman": (f"sudo pacman -S --needed {names}",),
    }[manager]


def _major(os_facts: OsFacts) -> str:
    version = str(os_facts.get("distro_version") or "")
    match = re.match(r"\d+", version)
    return match.group(0) if match else ""


def install_nvidia_driver(
    os_facts: OsFacts | None, branch: int | None = None, open_module: bool | None = None
) -> tuple[str, ...]:
    """The recommended NVIDIA driver install for the distribution.

    `branch` (e.g. 550) pins a driver branch where the distribution packages branches (Ubuntu;
    RHEL's DKMS module streams); `open_module` picks the open kernel modules (Turing and newer)
    or the proprietary ones (needed for Maxwell, Pascal, Volta) where both are packaged.
    """
    fam = family(os_facts)
    if fam is None or os_facts is None:
        return ()
    if fam == "ubuntu":
        if branch is None:
            return ("sudo apt-get update", "sudo ubuntu-drivers install")
        suffix = "-open" if open_module else ""
        return ("sudo apt-get update", f"sudo apt-get install -y nvidia-driver-{branch}{suffix}")
    if fam == "debian":
        # contrib, non-free and non-free-firmware must be enabled in the apt sources
        headers = {"x86_64": "linux-headers-amd64", "aarch64": "linux-headers-arm64"}.get(
            str(os_facts.get("arch") or "x86_64"), "linux-headers-amd64"
        )
        return (
            "sudo apt-get update",
            f"sudo apt-get install -y {headers} nvidia-driver firmware-misc-nonfree",
        )
    if fam == "fedora":
        release = _major(os_facts)
        if not release:
            return ()
        return (
            f"sudo dnf install -y https://mirrors.rpmfusion.org/free/fedora/rpmfusion-free-release-{release}"
            f".noarch.rpm https://mirrors.rpmfusion.org/nonfree/fedora/rpmfusion-nonfree-release-{release}"
            ".noarch.rpm",
            "sudo dnf install -y akmod-nvidia xorg-x11-drv-nvidia-cuda",
        )
    if fam == "rhel":
        release = _major(os_facts)
        arch = "sbsa" if str(os_facts.get("arch") or "") in {"aarch64", "arm64"} else "x86_64"
        if release not in {"8", "9"}:
            return ()
        stream = "open-dkms" if open_module else (f"{branch}-dkms" if branch else "latest-dkms")
        return (
            f"sudo dnf config-manager --add-repo https://developer.download.nvidia.com/compute/cuda/repos/"
            f"rhel{release}/{arch}/cuda-rhel{release}.repo",
            f"sudo dnf module install -y nvidia-driver:{stream}",
        )
    if fam == "opensuse":
        if open_module is False:
            return ("sudo zypper install -y nvidia-video-G06 nvidia-compute-utils-G06",)
        return (
            "sudo zypper install -y nvidia-open-driver-G06-signed-kmp-default nvidia-compute-utils-G06",
        )
    if fam == "arch":
        if open_module is False:
            return ()  # the proprietary legacy branches for pre-Turing GPUs are AUR packages
        return ("sudo pacman -S --needed nvidia-open-dkms nvidia-utils linux-headers",)
    return ()


def arch_headers_package(kernel: str) -> str:
    """The Arch headers package for a kernel release ("6.9.7-arch1-1" -> linux-headers)."""
    for flavour in ("lts", "zen", "hardened", "rt", "cachyos"):
        if re.search(rf"[-.]{flavour}\b", kernel):
            return f"linux-{flavour}-headers"
    return "linux-headers"


def rebuild_nvidia_module(os_facts: OsFacts | None, kernel: str | None) -> tuple[str, ...]:
    """Install the headers of `kernel` and rebuild the NVIDIA module for it (DKMS or akmods)."""
    fam = family(os_facts)
    if fam is None or not kernel:
        return ()
    if fam in {"ubuntu", "debian"}:
        return (
            "sudo apt-get update",
            f"sudo apt-get install -y linux-headers-{kernel} dkms",
            f"sudo dkms autoinstall -k {kernel}",
        )
    if fam == "fedora":
        return (
            f"sudo dnf install -y kernel-devel-{kernel}",
            f"sudo akmods --force --kernels {kernel}",
        )
    if fam == "rhel":
        return (
            f"sudo dnf install -y kernel-devel-{kernel} kernel-headers-{kernel} dkms",
            f"sudo dkms autoinstall -k {kernel}",
        )
    if fam == "opensuse":
        return (
            "sudo zypper install -y kernel-default-devel dkms",
            f"sudo dkms autoinstall -k {kernel}",
        )
    if fam == "arch":
        return (
            f"sudo pacman -S --needed {arch_headers_package(kernel)} dkms",
            f"sudo dkms autoinstall -k {kernel}",
        )
    return ()


def rebuild_initramfs(os_facts: OsFacts | None) -> tuple[str, ...]:
    """Rebuild the initramfs so module changes (blacklists, new modules) apply at boot."""
    fam = family(os_facts)
    if fam in {"ubuntu", "debian"}:
        return ("sudo update-initramfs -u",)
    if fam in {"fedora", "rhel", "opensuse"}:
        return ("sudo dracut --force",)
    if fam == "arch":
        return ("sudo mkinitcpio -P",)
    return ()


def blacklist_nouveau(os_facts: OsFacts | None) -> tuple[str, ...]:
    """Stop nouveau from claiming the GPU: a modprobe.d blacklist, then the initramfs rebuild."""
    initramfs = rebuild_initramfs(os_facts)
    if not initramfs:
        return ()
    return (
        f"printf 'blacklist nouveau\\noptions nouveau modeset=0\\n' | sudo tee {BLACKLIST_FILE}",
        *initramfs,
    )


def enroll_signing_key(os_facts: OsFacts | None) -> tuple[str, ...]:
    """Enrol the key that signs locally built NVIDIA modules with MOK (asks for a one-time
    password, then confirm it in the blue MOK manager screen at the next boot)."""
    fam = family(os_facts)
    if fam == "ubuntu":
        return ("sudo update-secureboot-policy --enroll-key",)
    if fam == "fedora":
        return ("sudo kmodgenca -a", "sudo mokutil --import /etc/pki/akmods/certs/public_key.der")
    if fam in {"debian", "rhel", "arch", "opensuse"}:
        return ("sudo mokutil --import /var/lib/dkms/mok.pub",)
    return ()


def reload_nvidia_modules() -> tuple[str, ...]:
    """Unload and reload the NVIDIA kernel modules (only when no process uses the GPU)."""
    return (
        "sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia",
        "sudo modprobe nvidia",
        "sudo modprobe nvidia_uvm",
    )


def load_uvm() -> tuple[str, ...]:
    """Load nvidia_uvm and create /dev/nvidia-uvm (the way NVIDIA's README does without the helper)."""
    return (
        "sudo modprobe nvidia_uvm",
        "sudo mknod -m 666 /dev/nvidia-uvm c $(grep nvidia-uvm /proc/devices | awk '{print $1}') 0",
    )
