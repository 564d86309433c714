"""Fixes written before the chooser (plain commands, no declared assumptions) held to the host.

Many checks and signatures still write their own commands. Until each names a remedy, their fixes
pass through here: the assumptions their commands imply are read from the commands themselves
(a `sudo`, `apt-get`, `systemctl` line is for Linux; `nvidia-ctk` is for NVIDIA GPUs; a
download.pytorch.org/whl/cuXXX index is for NVIDIA GPUs on Linux or Windows), and a fix whose
commands cannot work on this host is dropped with the reason, as the verifier drops one that
does not clear its finding. For root, `sudo` prefixes are removed.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from envdoctor.findings import Fix, RejectedFix
from envdoctor.fix_effects import Effect, TorchBuild
from envdoctor.remedies.host import Host
from envdoctor.snapshot import Snapshot
from envdoctor.versions import major_minor

# tools of Linux systems (after any `sudo `); macOS has sudo, so sudo alone says nothing there
_LINUX_ONLY = re.compile(
    r"^(sudo )?(apt(-get)? |dnf |yum |zypper |pacman |systemctl |service |modprobe |rmmod |"
    r"usermod |update-initramfs|dracut |dkms |ubuntu-drivers |ldconfig|dmesg|journalctl |"
    r"newgrp |mokutil |nvidia-ctk |lsmod|setsebool |udevadm )|\| *sudo (tee|sh) /etc/"
)
_SUDO = re.compile(r"^sudo |\| *sudo ")
_WINDOWS_ONLY = re.compile(r"^(py -\d|\$env:|set [A-Z_]+=|winget |reg (add|query) |Remove-Item )")
_LINUX_DRIVER_INSTALL = re.compile(
    r"(install\b.*\b(nvidia-driver|cuda-drivers|akmod-nvidia|nvidia-open|"
    r"xorg-x11-drv-nvidia|nvidia-dkms|nvidia-kernel)|ubuntu-drivers (install|autoinstall)|"
    r"NVIDIA-Linux-x86_64.*\.run)"
)
_NVIDIA_CONTAINER = re.compile(r"nvidia-container-toolkit|nvidia-ctk|nvidia-container-runtime")
_CUDA_INDEX = re.compile(r"download\.pytorch\.org/whl/(cu\d+|nightly/cu\d+)")
_DOCKER_START = re.compile(r"(service docker (re)?start|systemctl .*\b(start|restart)\b.*docker)")
_INSTALL_PYTHON = re.compile(r"\b[Ii]nstall Python (\d+\.\d+)\b")


def _reason(fix: Fix, host: Host, snap: Snapshot) -> str | None:
    """Why these commands cannot work here, or None."""
    commands = list(fix.commands)
    linux = [c for c in commands if _LINUX_ONLY.search(c)]
    if host.os == "windows":
        linux += [c for c in commands if _SUDO.search(c)]
    if host.os in ("windows", "macos") and linux:
        where = "Windows" if host.os == "windows" else "macOS"
        return f"Linux commands on {where} ({linux[0].split()[0]} ...)"
    if host.os == "linux" and not host.wsl and any(_WINDOWS_ONLY.search(c) for c in commands):
        return "Windows commands on Linux"
    text = " ".join(commands)
    if host.os == "macos" and _CUDA_INDEX.search(text):
        return "a CUDA wheel index on macOS: PyTorch publishes no CUDA builds for macOS"
    if host.vendor in ("amd", "intel", "apple") and (
        _NVIDIA_CONTAINER.search(text) or _CUDA_INDEX.search(text)
    ):
        what = (
            "NVIDIA Container Toolkit steps" if _NVIDIA_CONTAINER.search(text) else "a CUDA build"
        )
        return f"{what} on a machine whose GPU is {host.vendor.upper() if host.vendor == 'amd' else host.vendor.capitalize()}"
    if host.wsl and _LINUX_DRIVER_INSTALL.search(text):
        return "a Linux driver install inside WSL2: WSL uses the Windows driver"
    if host.container and _LINUX_DRIVER_INSTALL.search(text):
        return "a driver install inside a container: the driver belongs to the host"
    docker = snap.data("container.docker") or {}
    if _DOCKER_START.search(text) and "dockerd_path" in docker and not docker.get("dockerd_path"):
        return "no dockerd on this machine to start"
    wanted = _INSTALL_PYTHON.search(fix.summary)
    have = major_minor(snap.fact("python", "version"))
    if wanted and have and wanted.group(1) == have:
        return f"Python {have} is the one already in use"
    return None


def _with_privilege(fix: Fix, host: Host) -> Fix:
    if not host.root or not any("sudo " in c for c in fix.commands):
        return fix
    commands = tuple(
        re.sub(r"\| *sudo ", "| ", c[5:] if c.startswith("sudo ") else c) for c in fix.commands
    )
    return replace(fix, commands=commands)


_TORCH_INDEX = re.compile(r"download\.pytorch\.org/whl/(?:nightly/)?(cu\d+|rocm[\d.]+|cpu|xpu)\b")
_TORCH_PIN = re.compile(r"""(?:^|\s)['"]?torch==(\d+\.\d+)(\.\d+)?(?:\.\*)?['"]?(?:\s|$)""")
_INSTALLS_TORCH = re.compile(r"install\b.*\btorch\b")


_FAMILY = {"torch", "torchvision", "torchaudio"}
_PIP_RUNNER = re.compile(r"^(?:(\S*python[\d.]*(?:\.exe)?['\"]?) -m pip|pip3?|uv pip) install\b")


def _OTHER_PACKAGES(command: str) -> bool:  # noqa: N802 - reads like the patterns beside it
    """Whether a pip install line names packages outside the torch family."""
    words = command.split(" install ", 1)[-1].split()
    names = []
    skip = False
    for word in words:
        if skip:
            skip = False
            continue
        if word.startswith("-"):
            skip = word in ("--index-url", "--extra-index-url", "-i", "--python", "-c")
            continue
        names.append(re.split(r"[=<>~!\[]", word.strip("'\""), maxsplit=1)[0].lower())
    return any(n and n not in _FAMILY for n in names)


def infer_effect(fix: Fix, ms: Any, snap: Snapshot | None = None) -> Effect | None:
    """The torch build a plain-command fix installs, read from its pip line: the index names
    the variant, a `torch==` pin the release; unpinned, the newest release with that variant."""
    from envdoctor.queries import torch as tq
    from envdoctor.queries.torch_fixes import released_minors

    for command in fix.commands:
        index = _TORCH_INDEX.search(command)
        if not index or not _INSTALLS_TORCH.search(command):
            continue
        variant = index.group(1)
        runner = _PIP_RUNNER.match(command)
        if runner is None:
            return None  # not a pip line run here (a launcher's variable, a Dockerfile line)
        python = str(snap.fact("python", "executable") or "") if snap is not None else ""
        first = runner.group(1) or ""
        if first and python and first.strip("'\"") != python:
            return None  # another environment's torch (an application's venv): not these facts
        if _OTHER_PACKAGES(command):
            return None  # it changes more than the torch family: the effect is not modelled
        pin = _TORCH_PIN.search(command)
        if pin:
            minor, patch = pin.group(1), pin.group(2)
            exact = f"{minor}{patch}" if patch else None
            return Effect(torch=TorchBuild(minor, variant, exact))
        for minor in released_minors(ms):
            row = tq.release_row(ms, minor) or {}
            offered = [*(row.get("cuda_variants") or []), *(row.get("rocm_variants") or [])]
            if variant in offered or variant == "cpu":
                return Effect(torch=TorchBuild(minor, variant))
        return None
    return None


def adapt(fix: Fix, host: Host, snap: Snapshot, ms: Any = None) -> Fix | RejectedFix:
    """A fix without declared assumptions, held to this host (see module doc); a torch
    reinstall written as plain commands gets the effect its pip line implies, so the verifier
    judges it like the chooser's."""
    if fix.assumes is not None:
        return fix
    reason = _reason(fix, host, snap)
    if reason is not None:
        return RejectedFix(fix.summary, reason)
    fix = _with_privilege(fix, host)
    if fix.effect is None and ms is not None:
        effect = infer_effect(fix, ms, snap)
        if effect is not None:
            fix = replace(fix, effect=effect)
    return fix
