"""The machine as the chooser sees it: OS, WSL, container, privileges, GPU vendor, installer.

Read once per snapshot from the facts (no I/O). Each field is None when the facts do not say;
the chooser then states what it assumed, instead of guessing silently.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from envdoctor.pip_commands import Installer, detect_installer
from envdoctor.snapshot import Snapshot


@dataclass(frozen=True)
class Host:
    """os: "linux" / "windows" / "macos"; machine: "x86_64", "aarch64", "arm64"; wsl: inside WSL
    (2 or 1); container: inside a container; root: running as root; sudo: a sudo binary exists;
    systemd: systemd is PID 1; vendor: "nvidia" / "amd" / "intel" / "apple" (the GPU's maker);
    installer: how Python packages get into the environment."""

    os: str | None
    machine: str | None
    wsl: int | None
    container: bool | None
    root: bool | None
    sudo: bool | None
    systemd: bool | None
    vendor: str | None
    installer: Installer
    distro: dict[str, Any]

    def privileged(self, command: str) -> str | None:
        """`command` as this user must type it to run it as root: as is for root, with sudo for a
        user with sudo, None when neither is known to be possible (say so instead)."""
        if self.root:
            return command
        if self.sudo is False:
            return None
        return f"sudo {command}"

    @property
    def privilege(self) -> str:
        """ "root", "sudo" or "user" (the latter when sudo is known absent)."""
        if self.root:
            return "root"
        return "user" if self.sudo is False else "sudo"

    def privilege_assumption(self) -> str | None:
        """The stated assumption behind a sudo prefix when the facts do not say."""
        if self.root is None and self.sudo is None:
            return "assumes a user with sudo (whether you are root was not given)"
        return None


def _os(snap: Snapshot) -> tuple[str | None, str | None]:
    python = snap.data("python") or {}
    platform = str(python.get("platform") or "").lower()
    machine = str(python.get("machine") or snap.fact("os", "arch") or "").lower() or None
    system = str(snap.fact("os", "system") or "").lower()
    if platform.startswith("win") or system == "windows" or snap.has("platform.windows"):
        return "windows", machine
    if platform == "darwin" or system == "darwin" or snap.has("platform.macos"):
        return "macos", machine
    if platform.startswith("linux") or system == "linux" or snap.has("platform.wsl"):
        return "linux", machine
    torch_os = str(snap.fact("python.torch", "os") or "")
    if torch_os:
        return ("linux" if torch_os.startswith("linux") else torch_os), machine
    return None, machine


def _vendor(snap: Snapshot, os_name: str | None, machine: str | None) -> str | None:
    if snap.fact("nvidia.gpus", "gpus") or snap.fact("nvidia.pci", "devices"):
        return "nvidia"
    if snap.fact("amd.gpus", "gpus"):
        return "amd"
    if snap.fact("intel.gpus", "gpus"):
        return "intel"
    if os_name == "macos" and machine in ("arm64", "aarch64"):
        return "apple"
    return None


def host_of(snap: Snapshot) -> Host:
    """The Host the facts describe."""
    os_name, machine = _os(snap)
    wsl_version = snap.fact("platform.wsl", "wsl_version")
    wsl = (
        int(wsl_version)
        if isinstance(wsl_version, int)
        else (2 if snap.has("platform.wsl") else None)
    )
    inside = snap.fact("container.inside", "in_container")
    docker = snap.data("container.docker") or {}
    euid = snap.fact("os", "euid")
    sudo = snap.fact("os", "sudo")
    systemd = docker.get("systemd")
    if systemd is None:
        systemd = snap.fact("os", "systemd")
    return Host(
        os=os_name,
        machine=machine,
        wsl=wsl if os_name == "linux" else None,
        container=bool(inside) if inside is not None else None,
        root=(euid == 0) if isinstance(euid, int) else None,
        sudo=bool(sudo) if sudo is not None else None,
        systemd=bool(systemd) if systemd is not None else None,
        vendor=_vendor(snap, os_name, machine),
        installer=detect_installer(snap.data("python"), snap.data("python.packages"), "torch"),
        distro=dict(snap.data("os") or {}),
    )
