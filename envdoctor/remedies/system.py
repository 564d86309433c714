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


def _gpu_capabilities(snap: Snapshot, ms: Any) -> list[str]:
    from envdoctor.checks.torch_context import _gpus

    return [str(g["capability"]) for g in _gpus(snap, ms) if g.get("capability")]


def driver_fixes(spec: RemedySpec, snap: Snapshot, ms: Any, host: Host) -> list[Fix] | NeedsFact:
    """ "driver-for-torch": a driver that supports this torch build's CUDA (or `cuda` given);
    "driver": a driver of at least `min` (or the newest branch the GPUs can run). The minimum
    comes from the tables; whether the GPU's architecture is still supported there is checked by
    the verifier (nvidia.driver-drops-gpu). Never a Linux driver inside WSL2 or a container."""
    from envdoctor.queries import nvidia as nq
    from envdoctor.queries import nvidia_arch as na

    os_name = "windows" if host.os == "windows" or host.wsl else "linux"
    capabilities = _gpu_capabilities(snap, ms)
    if spec.kind == "driver-for-torch":
        cuda = str(spec.param("cuda") or _torch_cuda(snap) or "")
        version = parse(cuda) if cuda else None
        if version is None:
            return NeedsFact(
                "the CUDA version torch was built with",
                "include `python -m torch.utils.collect_env`",
            )
        major = version.release[0]
        floor = nq.compat_floor(ms, major, os_name) if major >= 11 else None
        need = floor or nq.min_driver_for_cuda(ms, cuda, os_name)
        if not need:
            return []
        why = f"CUDA {cuda} needs driver {need} or newer"
        branch = None
    else:
        need = spec.param("min")
        branches = [na.newest_driver_branch_for_arch(ms, cc) for cc in capabilities]
        known = [b for b in branches if b is not None]
        # GPUs whose support ended: the newest branch they all still run (Kepler -> 470)
        ended = [na.last_driver_branch_for_arch(ms, cc) for cc in capabilities]
        branch = min(e for e in ended if e is not None) if any(ended) else None
        if need is None and branch is None and known:
            need = None  # the distribution's current driver
        why = str(spec.param("reason") or "")
        if need is None and branch is None and not why:
            why = "the distribution's recommended driver"
    minimum = str(need).split(".")[0] if need else None
    label = f"{minimum} or newer" if minimum else (f"the {branch} branch" if branch else "")
    effect = Effect(
        driver_min=str(need) if need else None, driver_branch=f"R{branch}" if branch else None
    )
    open_module = None
    if capabilities:
        open_module = False if any(parse(c) < parse("7.5") for c in capabilities) else None
    tail = f" ({why})" if why else ""
    if host.container:
        return []  # a driver is installed on the host, never inside a container
    if host.wsl:
        return [
            Fix(
                f"Update the NVIDIA driver on Windows (not inside WSL) to {label}{tail}: WSL2 "
                "uses the Windows driver; then run `wsl --shutdown`",
                (),
                Risk.NEEDS_RESTART,
                WSL_CUDA_GUIDE,
                effect=effect,
                assumes=Assumes(os=("linux",), wsl=True, vendor="nvidia"),
            )
        ]
    if host.os == "macos":
        return []
    if host.os != "linux":
        return [
            Fix(
                f"Install NVIDIA driver {label}{tail} from NVIDIA's download page, then reboot",
                (),
                Risk.NEEDS_RESTART,
                DRIVER_DOWNLOADS,
                effect=effect,
                assumes=Assumes(os=("windows",) if host.os else None, vendor="nvidia"),
                assumptions=() if host.os else ("the operating system was not given",),
            )
        ]
    pin = branch or (int(minimum) if minimum and minimum.isdigit() else None)
    commands = os_packages.install_nvidia_driver(host.distro, pin, open_module)
    cmds, notes = as_root(host, commands) if commands else ((), ())
    if not commands:
        notes = (*notes, "your distribution was not recognised: use its driver page")
    return [
        Fix(
            f"Install NVIDIA driver {label}{tail}, then reboot".replace("driver  ", "driver "),
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
