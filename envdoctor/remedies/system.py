"""System remedies: drivers, services, groups, environment variables, OS packages, the NVIDIA
Container Toolkit. Commands are written for this host: root runs them bare, a user with sudo
through sudo, WSL2 updates the Windows driver, Windows and macOS get no Linux commands.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from envdoctor import os_packages
from envdoctor.findings import Fix, Risk
from envdoctor.fix_effects import Assumes, Effect
from envdoctor.remedies.host import Host
from envdoctor.remedies.spec import NeedsFact, RemedySpec
from envdoctor.snapshot import Snapshot
from envdoctor.versions import parse

DRIVER_DOWNLOADS = "https://www.nvidia.com/en-us/drivers/"
WSL_CUDA_GUIDE = "https://docs.nvidia.com/cuda/wsl-user-guide/index.html"
DOCKER_START = "https://docs.docker.com/engine/daemon/start/"
TOOLKIT_INSTALL = (
    "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/install-guide.html"
)


def as_root(host: Host, commands: Iterable[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """`commands` (written with a leading `sudo`) for this user, and the assumptions made:
    root runs them bare; without root and without sudo they are kept bare and say so."""
    out = []
    for command in commands:
        bare = command[5:] if command.startswith("sudo ") else command
        if command.startswith("sudo ") or command.startswith("| sudo"):
            out.append(host.privileged(bare) or bare)
        else:
            out.append(command.replace("| sudo ", "| ") if host.root else command)
    notes: list[str] = []
    if host.root is False and host.sudo is False:
        notes.append("needs root: you are not root and sudo was not found (ask an administrator)")
    elif (note := host.privilege_assumption()) is not None:
        notes.append(note)
    return tuple(out), tuple(notes)


def _torch_cuda(snap: Snapshot) -> str | None:
    cuda = snap.fact("python.torch", "cuda")
    return str(cuda) if cuda else None


def driver_fixes(spec: RemedySpec, snap: Snapshot, ms: Any, host: Host) -> list[Fix] | NeedsFact:
    """A driver that supports this torch build's CUDA (or `cuda` given): its minimum from the
    tables; whether the GPU's architecture is still supported there is the verifier's job."""
    from envdoctor.queries import nvidia as nq

    cuda = str(spec.param("cuda") or _torch_cuda(snap) or "")
    if not cuda or parse(cuda) is None:
        return NeedsFact(
            "the CUDA version torch was built with", "include `python -m torch.utils.collect_env`"
        )
    version = parse(cuda)
    major = version.release[0] if version else 0
    os_name = "windows" if host.os == "windows" or host.wsl else "linux"
    floor = nq.compat_floor(ms, major, os_name) if major >= 11 else None
    need = floor or nq.min_driver_for_cuda(ms, cuda, os_name)
    if not need:
        return []
    minimum = str(need).split(".")[0]
    effect = Effect(driver_min=str(need))
    why = f"CUDA {cuda} needs driver {need} or newer"
    if host.wsl:
        return [
            Fix(
                f"Update the NVIDIA driver on Windows (not inside WSL) to {minimum} or newer ({why}); "
                "WSL2 uses the Windows driver, then run `wsl --shutdown`",
                (),
                Risk.NEEDS_RESTART,
                WSL_CUDA_GUIDE,
                effect=effect,
                assumes=Assumes(os=("linux",), wsl=True, vendor="nvidia"),
            )
        ]
    if host.os in ("windows", None) or host.os == "macos":
        if host.os == "macos":
            return []
        return [
            Fix(
                f"Upgrade the NVIDIA driver to {minimum} or newer ({why}), then reboot",
                (),
                Risk.NEEDS_RESTART,
                DRIVER_DOWNLOADS,
                effect=effect,
                assumes=Assumes(os=("windows",) if host.os else None, vendor="nvidia"),
                assumptions=() if host.os else ("the operating system was not given",),
            )
        ]
    commands = os_packages.install_nvidia_driver(
        host.distro, int(minimum) if minimum.isdigit() else None
    )
    cmds, notes = as_root(host, commands) if commands else ((), ())
    if host.container:
        return []  # a driver is installed on the host, never inside a container
    return [
        Fix(
            f"Upgrade the NVIDIA driver to {minimum} or newer ({why}), then reboot",
            cmds,
            Risk.NEEDS_RESTART,
            os_packages.driver_docs_url(host.distro),
            effect=effect,
            assumes=Assumes(
                os=("linux",), wsl=False, container=False, vendor="nvidia", privilege=host.privilege
            ),
            assumptions=notes,
        )
    ]


def start_docker(spec: RemedySpec, snap: Snapshot, ms: Any, host: Host) -> list[Fix]:
    """Start the daemon the client talks to, the way this host starts services."""
    docker = snap.data("container.docker") or {}
    if host.os == "windows" or host.os == "macos" or docker.get("docker_desktop"):
        return [
            Fix(
                "Start Docker Desktop (its daemon runs in Docker Desktop's VM)",
                ()
                if host.os != "linux"
                else ("systemctl --user start docker-desktop", "docker info"),
                Risk.SAFE,
                DOCKER_START,
                effect=Effect(
                    services_started=("docker",), settings={"container.docker.state": "running"}
                ),
                assumes=Assumes(os=(host.os,) if host.os else None),
            )
        ]
    effect = Effect(services_started=("docker",), settings={"container.docker.state": "running"})
    if docker.get("rootless"):
        return [
            Fix(
                "Start your rootless Docker daemon",
                ("systemctl --user start docker", "docker info"),
                Risk.SAFE,
                DOCKER_START,
                effect=effect,
                assumes=Assumes(os=("linux",), privilege="user", needs=("systemctl",)),
            )
        ]
    dockerd = docker.get("dockerd_path")
    if dockerd is None and "dockerd_path" in docker:
        # only the client is here: nothing to start on this machine
        return [
            Fix(
                "No Docker daemon is installed here: point the client at the machine that runs "
                "one (`docker context use NAME` or DOCKER_HOST), or install Docker Engine",
                (),
                Risk.SAFE,
                "https://docs.docker.com/engine/install/",
                assumes=Assumes(os=("linux",)),
            )
        ]
    if host.container:
        return []  # a daemon is started on the host, not inside this container
    if host.systemd is False:
        start = "service docker start" if not host.wsl else "service docker start"
        needs: tuple[str, ...] = ("service",)
    else:
        start = "systemctl enable --now docker"
        needs = ("systemctl",)
    cmds, notes = as_root(host, (f"sudo {start}",))
    return [
        Fix(
            "Start the Docker daemon",
            (*cmds, "docker info"),
            Risk.SAFE,
            DOCKER_START,
            effect=effect,
            assumes=Assumes(os=("linux",), privilege=host.privilege, needs=needs),
            assumptions=notes,
        )
    ]


def container_toolkit(spec: RemedySpec, snap: Snapshot, ms: Any, host: Host) -> list[Fix]:
    """Install and configure the NVIDIA Container Toolkit (NVIDIA GPUs on Linux only)."""
    if host.vendor not in ("nvidia", None) or host.os not in ("linux", None):
        return []
    manager = os_packages.package_manager(host.distro)
    install = (
        os_packages.install_packages(host.distro, ["nvidia-container-toolkit"]) if manager else ()
    )
    commands = (
        *install,
        "sudo nvidia-ctk runtime configure --runtime=docker",
        "sudo systemctl restart docker"
        if host.systemd is not False
        else "sudo service docker restart",
    )
    cmds, notes = as_root(host, commands)
    if not manager:
        notes = (*notes, "add NVIDIA's package repository first (see the install guide)")
    return [
        Fix(
            "Install the NVIDIA Container Toolkit and register its runtime with Docker",
            cmds,
            Risk.NEEDS_RESTART,
            TOOLKIT_INSTALL,
            effect=Effect(settings={"container.toolkit.installed": True}),
            assumes=Assumes(os=("linux",), vendor="nvidia", privilege=host.privilege),
            assumptions=notes,
        )
    ]


def join_group(spec: RemedySpec, snap: Snapshot, ms: Any, host: Host) -> list[Fix] | NeedsFact:
    """Add the user to a group; a new login session (or `newgrp`) picks it up."""
    group = str(spec.param("group") or "")
    if not group:
        return NeedsFact("the group to join", "the remedy names none")
    if host.os not in ("linux", None):
        return []
    cmds, notes = as_root(host, (f"sudo usermod -aG {group} $USER",))
    return [
        Fix(
            f"Add your user to the {group} group, then log out and in (or run `newgrp {group}`)",
            (*cmds, f"newgrp {group}", "id"),
            Risk.SAFE,
            spec.param("url"),
            effect=Effect(groups_joined=(group,)),
            assumes=Assumes(os=("linux",), privilege=host.privilege),
            assumptions=notes,
        )
    ]


def env_fixes(spec: RemedySpec, snap: Snapshot, ms: Any, host: Host) -> list[Fix] | NeedsFact:
    """Set or unset an environment variable in this shell's syntax."""
    name = str(spec.param("name") or "")
    if not name:
        return NeedsFact("the variable's name", "the remedy names none")
    if spec.kind == "env-unset":
        command = f"Remove-Item Env:{name}" if host.os == "windows" else f"unset {name}"
        effect = Effect(env_unset=(name,))
        summary = f"Unset {name}"
    else:
        value = str(spec.param("value") or "")
        command = f'$env:{name}="{value}"' if host.os == "windows" else f"export {name}={value}"
        effect = Effect(env_set={name: value})
        summary = f"Set {name}={value}"
    return [
        Fix(
            str(spec.param("summary") or summary),
            (command,),
            Risk.SAFE,
            spec.param("url"),
            effect=effect,
            assumes=Assumes(os=(host.os,) if host.os else None),
        )
    ]
