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

from envdoctor.fix_effects import Effect, TorchBuild
from envdoctor.model.findings import Fix, RejectedFix
from envdoctor.model.snapshot import Snapshot
from envdoctor.model.versions import major_minor
from envdoctor.remedies.host import Host

# Patterns are strings: `re` compiles one when a host condition first needs it (import stays
# cheap for the common case of a Linux host with nothing to hold against it).
# tools of Linux systems (after any `sudo `); macOS has sudo, so sudo alone says nothing there
_LINUX_ONLY = (
    r"^(sudo )?(apt(-get)? |dnf |yum |zypper |pacman |systemctl |service |modprobe |rmmod |"
    r"usermod |update-initramfs|dracut |dkms |ubuntu-drivers |ldconfig|dmesg|journalctl |"
    r"newgrp |mokutil |nvidia-ctk |lsmod|setsebool |udevadm )|\| *sudo (tee|sh) /etc/"
)
_SUDO = r"^sudo |\| *sudo "
# programs the Windows driver installs too: `sudo` there means an administrator prompt
_SUDO_CROSS_PLATFORM = r"^sudo nvidia-smi\b"
# commands that only read the machine's state: a reader, then filters, nothing written
_LINUX_READER = r"^(?:sudo )?(?:lspci|dmesg|journalctl|lsmod|cat /proc/)"
_FILTER_STAGE = r"\| *(?:grep|head|tail|cut|sort|uniq|wc)\b"
_WINDOWS_ONLY = r"^(py -\d|\$env:|set [A-Z_]+=|winget |reg (add|query) |Remove-Item )"
_LINUX_DRIVER_INSTALL = (
    r"(install\b.*\b(nvidia-driver|cuda-drivers|akmod-nvidia|nvidia-open|"
    r"xorg-x11-drv-nvidia|nvidia-dkms|nvidia-kernel)|ubuntu-drivers (install|autoinstall)|"
    r"NVIDIA-Linux-x86_64.*\.run)"
)
_NVIDIA_CONTAINER = r"nvidia-container-toolkit|nvidia-ctk|nvidia-container-runtime"
_CUDA_INDEX = r"download\.pytorch\.org/whl/(cu\d+|nightly/cu\d+)"
_DOCKER_START = r"(service docker (re)?start|systemctl .*\b(start|restart)\b.*docker)"
_NEW_VENV = r"(^|\s)(python{0}|py -{0}) -m venv\b|uv venv --python {0}\b"
_INSTALL_PYTHON = r"\b[Ii]nstall Python (\d+\.\d+)\b"


def _reason(fix: Fix, host: Host, snap: Snapshot) -> str | None:
    """Why these commands cannot work here, or None."""
    commands = list(fix.commands)
    text = " ".join(commands)
    if host.os in ("windows", "macos"):
        linux = [c for c in commands if re.search(_LINUX_ONLY, c)]
        if host.os == "windows":
            linux += [c for c in commands if re.search(_SUDO, c)]
        if linux:
            where = "Windows" if host.os == "windows" else "macOS"
            return f"Linux commands on {where} ({linux[0].split()[0]} ...)"
    elif host.os == "linux" and not host.wsl and any(re.search(_WINDOWS_ONLY, c) for c in commands):
        return "Windows commands on Linux"
    cuda_index = "download.pytorch.org" in text and re.search(_CUDA_INDEX, text)
    if host.os == "macos" and cuda_index:
        return "a CUDA wheel index on macOS: PyTorch publishes no CUDA builds for macOS"
    if host.vendor in ("amd", "intel", "apple"):
        toolkit = "nvidia-c" in text and re.search(_NVIDIA_CONTAINER, text)
        if toolkit or cuda_index:
            what = "NVIDIA Container Toolkit steps" if toolkit else "a CUDA build"
            maker = "AMD" if host.vendor == "amd" else host.vendor.capitalize()
            return f"{what} on a machine whose GPU is {maker}"
    if (host.wsl or host.container) and re.search(_LINUX_DRIVER_INSTALL, text):
        if host.wsl:
            return "a Linux driver install inside WSL2: WSL uses the Windows driver"
        return "a driver install inside a container: the driver belongs to the host"
    if host.dockerd is False and "docker" in text and re.search(_DOCKER_START, text):
        return "no dockerd on this machine to start"
    if host.root is not True and host.sudo is False and re.search(_SUDO, text):
        return "sudo is not installed here"
    have = major_minor(snap.fact("python", "version"))
    if have and "Python" in fix.summary:
        wanted = re.search(_INSTALL_PYTHON, fix.summary)
        if wanted and wanted.group(1) == have:
            return f"Python {have} is the one already in use"
    if have and "venv" in text and re.search(_NEW_VENV.format(re.escape(have)), text):
        return f"a new environment with Python {have}, the one already in use"
    return None


def _with_privilege(fix: Fix, host: Host) -> Fix:
    if not host.root or not any("sudo " in c for c in fix.commands):
        return fix
    commands = tuple(
        re.sub(r"\| *sudo ", "| ", c[5:] if c.startswith("sudo ") else c) for c in fix.commands
    )
    return replace(fix, commands=commands)


_TORCH_INDEX = r"download\.pytorch\.org/whl/(?:nightly/)?(cu\d+|rocm[\d.]+|cpu|xpu)\b"
_TORCH_PIN = r"""(?:^|\s)['"]?torch==(\d+\.\d+)(\.\d+)?(?:\.\*)?['"]?(?:\s|$)"""
_INSTALLS_TORCH = r"install\b.*\btorch\b"


_FAMILY = {"torch", "torchvision", "torchaudio"}
_PIP_RUNNER = r"^(?:(\S*python[\d.]*(?:\.exe)?['\"]?) -m pip|pip3?|uv pip) install\b"


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


_DRIVER_TEXT = (
    r"(?:[Uu]pdate|[Uu]pgrade|[Ii]nstall)(?: the)? NVIDIA driver(?: to)? "
    r"(\d{3}(?:\.\d+){0,2}) or newer"
)


def infer_effect(fix: Fix, ms: Any, snap: Snapshot | None = None) -> Effect | None:
    """The torch build a plain-command fix installs, read from its pip line: the index names
    the variant, a `torch==` pin the release; unpinned, the newest release with that variant."""
    from envdoctor.queries import torch as tq
    from envdoctor.queries.torch_fixes import released_minors

    for command in fix.commands:
        if "download.pytorch.org" not in command:
            continue
        index = re.search(_TORCH_INDEX, command)
        if not index or not re.search(_INSTALLS_TORCH, command):
            continue
        variant = index.group(1)
        runner = re.match(_PIP_RUNNER, command)
        if runner is None:
            return None  # not a pip line run here (a launcher's variable, a Dockerfile line)
        python = str(snap.fact("python", "executable") or "") if snap is not None else ""
        first = runner.group(1) or ""
        if first and python and first.strip("'\"") != python:
            return None  # another environment's torch (an application's venv): not these facts
        if _OTHER_PACKAGES(command):
            return None  # it changes more than the torch family: the effect is not modelled
        pin = re.search(_TORCH_PIN, command)
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
    if "NVIDIA driver" in fix.summary:
        driver = re.search(_DRIVER_TEXT, fix.summary)
        if driver:  # "Update the NVIDIA driver to 530.30.02 or newer": a driver of at least that
            return Effect(driver_min=driver.group(1))
    return None


def replacement(fix: Fix) -> str | None:
    """The remedy kind a plain fix was written for, so the chooser can write it for this host
    when the plain one cannot work here."""
    text = " ".join(fix.commands)
    if "nvidia-c" in text and re.search(_NVIDIA_CONTAINER, text):
        return "container-toolkit"  # its steps restart docker too: the toolkit is the point
    if "docker" in text and re.search(_DOCKER_START, text):
        return "start-docker"
    if "download.pytorch.org" in text and re.search(_CUDA_INDEX, text):
        return "torch-build-for-gpu"
    if re.search(_LINUX_DRIVER_INSTALL, text):
        return "driver"
    return None


def adapt(fix: Fix, host: Host, snap: Snapshot, ms: Any = None) -> Fix | RejectedFix:
    """A fix without declared assumptions, held to this host (see module doc); a torch
    reinstall written as plain commands gets the effect its pip line implies, so the verifier
    judges it like the chooser's."""
    if fix.assumes is not None:
        return fix
    reason = _reason(fix, host, snap)
    if reason is not None and reason.startswith("Linux commands on"):
        fix = _without_linux_checks(fix, host)
        reason = _reason(fix, host, snap)
    if reason is not None and reason.startswith("Linux commands on Windows"):
        fix = _as_windows_admin(fix)
        reason = _reason(fix, host, snap)
    if reason is not None:
        return RejectedFix(fix.summary, reason)
    fix = _with_privilege(fix, host)
    if fix.effect is None and ms is not None:
        effect = infer_effect(fix, ms, snap)
        if effect is not None:
            cuda = effect.torch is not None and effect.torch.variant.startswith("cu")
            installed = str(snap.fact("python.torch", "variant") or "")
            # turning a non-CUDA torch into a CUDA one claims an NVIDIA GPU; a CUDA build's
            # variant change does not (the verifier still states what it assumes)
            if (
                cuda
                and not installed.startswith("cu")
                and host.vendor is None
                and not _nvidia_seen(snap)
            ):
                return RejectedFix(fix.summary, NO_GPU_GIVEN)
            fix = replace(fix, effect=effect)
    return fix


def _without_linux_checks(fix: Fix, host: Host) -> Fix:
    """The fix without the Linux commands that do not fit this Windows or macOS host, when its
    action still holds there: commands that only read state (`sudo lspci ...`, `dmesg | grep`:
    swap the riser, set the BIOS option), or any Linux command when the summary itself says
    what to do on this OS ("580.65.06 on Linux, 580.88 on Windows"). Otherwise the Linux
    command that changes something stays, and rejects the fix."""
    windows = host.os == "windows"
    covers_host = re.search(rf"\b{'Windows' if windows else 'macOS'}\b", fix.summary) is not None

    def linux_only(command: str) -> bool:  # as _reason judges it: macOS has sudo, Windows not
        return bool(re.search(_LINUX_ONLY, command) or (windows and re.search(_SUDO, command)))

    kept = tuple(
        c for c in fix.commands if not _reads_only(c) and not (covers_host and linux_only(c))
    )
    return fix if len(kept) == len(fix.commands) else replace(fix, commands=kept)


def _as_windows_admin(fix: Fix) -> Fix:
    """On Windows, `sudo nvidia-smi ...` is the same command run from an administrator prompt
    (the Windows driver installs nvidia-smi; Windows has no sudo): the fix with those commands
    without `sudo`, saying where to run them. Other `sudo` lines are left to reject the fix."""
    if not any(re.match(_SUDO_CROSS_PLATFORM, c) for c in fix.commands):
        return fix
    commands = tuple(c[5:] if re.match(_SUDO_CROSS_PLATFORM, c) else c for c in fix.commands)
    note = "Windows: run the nvidia-smi commands in an administrator prompt (Windows has no sudo)"
    return replace(fix, commands=commands, assumptions=(*fix.assumptions, note))


def _reads_only(command: str) -> bool:
    """Whether a Linux command only reads state: a reader, each later stage a filter."""
    if not re.search(_LINUX_READER, command) or ">" in command or ";" in command:
        return False
    stages = re.findall(r"\| *\S+", re.sub(r"'[^']*'|\"[^\"]*\"|\$\([^)]*\)", "", command))
    return all(re.match(_FILTER_STAGE, stage) for stage in stages)


NO_GPU_GIVEN = "a CUDA build, but no NVIDIA GPU or driver was given: the GPU decides the build"


def _nvidia_seen(snap: Snapshot) -> bool:
    return any(snap.has(g) for g in ("nvidia.gpus", "nvidia.pci", "nvidia.driver"))
