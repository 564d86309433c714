"""os_packages: the exact package-manager commands per distribution."""

from __future__ import annotations

import pytest

from envdoctor.installers import os_packages as osp

UBUNTU = {
    "distro_id": "ubuntu",
    "distro_version": "24.04",
    "distro_like": ["debian"],
    "arch": "x86_64",
}
DEBIAN = {"distro_id": "debian", "distro_version": "12", "distro_like": [], "arch": "x86_64"}
FEDORA = {"distro_id": "fedora", "distro_version": "40", "distro_like": []}
ROCKY = {
    "distro_id": "rocky",
    "distro_version": "9.4",
    "distro_like": ["rhel", "centos", "fedora"],
    "arch": "x86_64",
}
TUMBLEWEED = {
    "distro_id": "opensuse-tumbleweed",
    "distro_version": "20240601",
    "distro_like": ["opensuse", "suse"],
}
CACHYOS = {"distro_id": "cachyos", "distro_version": "", "distro_like": ["arch"]}
MINT = {"distro_id": "linuxmint", "distro_version": "21.3", "distro_like": ["ubuntu", "debian"]}


@pytest.mark.parametrize(
    "facts,family,manager",
    [
        (UBUNTU, "ubuntu", "apt"),
        (DEBIAN, "debian", "apt"),
        (FEDORA, "fedora", "dnf"),
        (ROCKY, "rhel", "dnf"),
        (TUMBLEWEED, "opensuse", "zypper"),
        (CACHYOS, "arch", "pacman"),
        (MINT, "ubuntu", "apt"),
        ({"distro_id": "gentoo"}, None, None),
        ({}, None, None),
    ],
)
def test_family(facts, family, manager):
    assert osp.family(facts) == family and osp.package_manager(facts) == manager


def test_driver_install_per_distribution():
    assert osp.install_nvidia_driver(UBUNTU) == (
        "sudo apt-get update",
        "sudo ubuntu-drivers install",
    )
    assert (
        osp.install_nvidia_driver(UBUNTU, branch=550, open_module=True)[-1]
        == "sudo apt-get install -y nvidia-driver-550-open"
    )
    assert (
        osp.install_nvidia_driver(DEBIAN)[-1]
        == "sudo apt-get install -y linux-headers-amd64 nvidia-driver firmware-misc-nonfree"
    )
    fedora = osp.install_nvidia_driver(FEDORA)
    assert "rpmfusion-nonfree-release-40.noarch.rpm" in fedora[0]
    assert fedora[1] == "sudo dnf install -y akmod-nvidia xorg-x11-drv-nvidia-cuda"
    rocky = osp.install_nvidia_driver(ROCKY, branch=550)
    assert rocky == (
        "sudo dnf config-manager --add-repo https://developer.download.nvidia.com/compute/cuda/repos/rhel9/"
        "x86_64/cuda-rhel9.repo",
        "sudo dnf module install -y nvidia-driver:550-dkms",
    )
    assert osp.install_nvidia_driver(TUMBLEWEED) == (
        "sudo zypper install -y nvidia-open-driver-G06-signed-kmp-default nvidia-compute-utils-G06",
    )
    assert osp.install_nvidia_driver(CACHYOS) == (
        "sudo pacman -S --needed nvidia-open-dkms nvidia-utils linux-headers",
    )
    assert osp.install_nvidia_driver({"distro_id": "gentoo"}) == ()


def test_module_rebuild_headers_and_initramfs():
    assert osp.rebuild_nvidia_module(UBUNTU, "6.8.0-45-generic") == (
        "sudo apt-get update",
        "sudo apt-get install -y linux-headers-6.8.0-45-generic dkms",
        "sudo dkms autoinstall -k 6.8.0-45-generic",
    )
    assert osp.rebuild_nvidia_module(FEDORA, "6.9.4-200.fc40.x86_64") == (
        "sudo dnf install -y kernel-devel-6.9.4-200.fc40.x86_64",
        "sudo akmods --force --kernels 6.9.4-200.fc40.x86_64",
    )
    assert (
        osp.rebuild_nvidia_module(CACHYOS, "6.9.7-2-cachyos")[0]
        == "sudo pacman -S --needed linux-cachyos-headers dkms"
    )
    assert osp.arch_headers_package("6.6.35-1-lts") == "linux-lts-headers"
    assert osp.arch_headers_package("6.9.7-arch1-1") == "linux-headers"
    assert osp.rebuild_nvidia_module(UBUNTU, None) == ()
    assert osp.rebuild_initramfs(DEBIAN) == ("sudo update-initramfs -u",)
    assert osp.rebuild_initramfs(ROCKY) == ("sudo dracut --force",)
    assert osp.rebuild_initramfs(CACHYOS) == ("sudo mkinitcpio -P",)


def test_nouveau_blacklist_and_mok():
    commands = osp.blacklist_nouveau(FEDORA)
    assert commands == (
        "printf 'blacklist nouveau\\noptions nouveau modeset=0\\n' | sudo tee "
        "/etc/modprobe.d/blacklist-nouveau.conf",
        "sudo dracut --force",
    )
    assert osp.blacklist_nouveau({"distro_id": "gentoo"}) == ()
    assert osp.enroll_signing_key(UBUNTU) == ("sudo update-secureboot-policy --enroll-key",)
    assert osp.enroll_signing_key(DEBIAN) == ("sudo mokutil --import /var/lib/dkms/mok.pub",)


def test_install_packages_and_docs():
    assert osp.install_packages(UBUNTU, ["nvidia-fabricmanager-550"]) == (
        "sudo apt-get update",
        "sudo apt-get install -y nvidia-fabricmanager-550",
    )
    assert osp.install_packages(TUMBLEWEED, ["dkms"]) == ("sudo zypper install -y dkms",)
    assert osp.install_packages(UBUNTU, []) == ()
    assert osp.driver_docs_url(FEDORA) == "https://rpmfusion.org/Howto/NVIDIA"
    assert osp.driver_docs_url(None) == osp.GENERIC_DRIVER_URL
