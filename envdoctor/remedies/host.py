"""The machine as the chooser sees it: OS, WSL, container, privileges, GPU vendor, installer.

Read once per snapshot from the facts (no I/O). Each field is None when the facts do not say;
the chooser then states what it assumed, instead of guessing silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from envdoctor.installers.pip_commands import Installer, detect_installer
from envdoctor.model.snapshot import Snapshot


@dataclass(frozen=True)
class Host:
    """os: "linux" / "windows" / "macos"; machine: "x86_64", "aarch64", "arm64"; wsl: inside WSL
    (2 or 1); container: inside a container; root: running as root; sudo: a sudo binary exists;
    systemd: systemd is PID 1; vendor: "nvidia" / "amd" / "intel" / "apple" (the GPU's maker);
    installer: how Python packages get into the environment; dockerd: a Docker daemon binary
    exists here."""

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
    dockerd: bool | None = None

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
    names = " ".join(
        str(g.get("name") or "")
        for g in snap.fact("nvidia.gpus", "gpus") or []
        if isinstance(g, dict)
    ).lower()
    # a pasted GPU line lands in nvidia.gpus whatever its maker: the name says which
    if names and not any(w in names for w in ("nvidia", "geforce", "tesla", "quadro", "rtx")):
        if "intel" in names or "arc(" in names:
            return "intel"
        if "amd" in names or "radeon" in names or "instinct" in names:
            return "amd"
    if snap.fact("nvidia.gpus", "gpus") or snap.fact("nvidia.pci", "devices"):
        return "nvidia"
    if snap.fact("amd.gpus", "gpus"):
        return "amd"
    variant = str(snap.fact("python.torch", "variant") or "")
    if snap.has("amd.rocm") or variant.startswith("rocm"):
        return "amd"  # a ROCm stack and no NVIDIA GPU in sight: an AMD machine
    if snap.fact("intel.gpus", "gpus"):
        return "intel"
    if os_name == "macos" and machine in ("arm64", "aarch64"):
        return "apple"
    return _vendor_named(snap)


def _vendor_named(snap: Snapshot) -> str | None:
    """The maker of the GPUs a paste names in words ("我用的是A卡 RX 6600", "my Arc A770"),
    when they all come from one."""
    named = {str(n).split()[0].lower() for n in snap.fact("pasted.text", "gpus") or [] if n}
    makers = {"nvidia": "nvidia", "amd": "amd", "intel": "intel"}
    found = {makers[n] for n in named if n in makers}
    return found.pop() if len(found) == 1 else None


_ROOT_LINE = re.compile(r"\buid=0\(|^root@[^\s:]+:[^#\n]*# ")
_NO_SUDO = re.compile(r"\bsudo: (command )?not found")


def pasted_hints(snap: Snapshot) -> dict[str, bool]:
    """What a pasted shell session says about the user and the tools: `root` (an `id` printing
    uid=0, or a root prompt), `sudo` False ("sudo: command not found"), `dockerd` (what `which
    dockerd` printed: a path, or nothing before the next prompt)."""
    lines = [str(x) for x in snap.fact("pasted.text", "lines") or []]
    out: dict[str, bool] = {}
    for i, line in enumerate(lines):
        if _ROOT_LINE.search(line):
            out["root"] = True
        if _NO_SUDO.search(line):
            out["sudo"] = False
        if re.search(r"[#$] which dockerd\s*$", line):
            following = lines[i + 1].strip() if i + 1 < len(lines) else ""
            out["dockerd"] = following.startswith("/") and following.endswith("dockerd")
    return out


def host_of(snap: Snapshot) -> Host:
    """The Host the facts describe."""
    os_name, machine = _os(snap)
    wsl_version = snap.fact("platform.wsl", "wsl_version")
    wsl = (
        int(wsl_version)
        if isinstance(wsl_version, int)
        else (2 if snap.has("platform.wsl") else None)
    )
    kernel = str(snap.fact("os", "kernel") or "").lower()
    if wsl is None and ("microsoft" in kernel or snap.fact("os", "virtualization") == "wsl"):
        wsl = 2 if "wsl2" in kernel or "microsoft-standard" in kernel else 1
    inside = snap.fact("container.inside", "in_container")
    docker = snap.data("container.docker") or {}
    euid = snap.fact("os", "euid")
    sudo = snap.fact("os", "sudo")
    systemd = docker.get("systemd")
    if systemd is None:
        systemd = snap.fact("os", "systemd")
    hints = pasted_hints(snap) if snap.has("pasted.text") else {}
    root = (euid == 0) if isinstance(euid, int) else hints.get("root")
    if sudo is None and "sudo" in hints:
        sudo = hints["sudo"]
    dockerd = bool(docker.get("dockerd_path")) if "dockerd_path" in docker else hints.get("dockerd")
    return Host(
        os=os_name,
        machine=machine,
        wsl=wsl if os_name == "linux" else None,
        container=bool(inside) if inside is not None else None,
        root=root,
        sudo=bool(sudo) if sudo is not None else None,
        systemd=bool(systemd) if systemd is not None else None,
        vendor=_vendor(snap, os_name, machine),
        installer=detect_installer(snap.data("python"), snap.data("python.packages"), "torch"),
        distro=dict(snap.data("os") or {}),
        dockerd=dockerd,
    )
