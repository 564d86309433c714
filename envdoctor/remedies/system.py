"""System remedies: drivers, services, groups, environment variables, OS packages, the NVIDIA
Container Toolkit. Commands are written for this host: root runs them bare, a user with sudo
through sudo, WSL2 updates the Windows driver, Windows and macOS get no Linux commands.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from envdoctor.fix_effects import Assumes, Effect
from envdoctor.installers import os_packages
from envdoctor.model.findings import Fix, Risk
from envdoctor.model.snapshot import Snapshot
from envdoctor.model.versions import parse
from envdoctor.remedies.host import Host
from envdoctor.remedies.spec import NeedsFact, RemedySpec

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


def _cc(capability: str) -> tuple[int, int]:
    major, _, minor = capability.partition(".")
    return (int(major), int(minor or 0)) if major.isdigit() and (minor or "0").isdigit() else (0, 0)


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
        need = nq.driver_floor(ms, cuda, os_name, snap.fact("nvidia.driver", "cuda_driver_max"))
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
    minimum = str(need).split(".")[0] if need else None
    # no floor and no branch: the current driver (on Linux the one the distribution recommends),
    # said in sentences of its own ("Install NVIDIA driver the current one" reads as a glitch)
    label = f"{minimum} or newer" if minimum else (f"the {branch} branch" if branch else "")
    effect = Effect(
        driver_min=str(need) if need else None,
        driver_branch=f"R{branch}" if branch and not need else None,
    )
    # the open kernel modules start at Turing (7.5): older GPUs need the proprietary ones
    open_module = False if any(_cc(c) < (7, 5) for c in capabilities) else None
    if host.container:
        return []  # a driver is installed on the host, never inside a container
    if host.wsl:
        return [
            Fix(
                (
                    f"Update the NVIDIA driver on Windows (not inside WSL) to {label} ({why}): "
                    "WSL2 uses the Windows driver; then run `wsl --shutdown`"
                    if why and label
                    else f"Update the NVIDIA driver on Windows (not inside WSL) to {label}: WSL2 "
                    "uses the Windows driver; then run `wsl --shutdown`"
                    if label
                    else "Update the NVIDIA driver on Windows (not inside WSL) to the current one "
                    f"({why}): WSL2 uses the Windows driver; then run `wsl --shutdown`"
                    if why
                    else "Update the NVIDIA driver on Windows (not inside WSL) to the current one: "
                    "WSL2 uses the Windows driver; then run `wsl --shutdown`"
                ),
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
                (
                    f"Install NVIDIA driver {label} ({why}) from NVIDIA's download page, then reboot"
                    if why and label
                    else f"Install NVIDIA driver {label} from NVIDIA's download page, then reboot"
                    if label
                    else f"Install the current NVIDIA driver ({why}) from NVIDIA's download page, "
                    "then reboot"
                    if why
                    else "Install the current NVIDIA driver from NVIDIA's download page, then reboot"
                ),
                (),
                Risk.NEEDS_RESTART,
                DRIVER_DOWNLOADS,
                effect=effect,
                assumes=Assumes(os=("windows",) if host.os else None, vendor="nvidia"),
                assumptions=() if host.os else ("the operating system was not given",),
            )
        ]
    pin = int(minimum) if minimum and minimum.isdigit() else branch
    commands = os_packages.install_nvidia_driver(host.distro, pin, open_module)
    repo = spec.param("repo")  # NVIDIA's CUDA repository for this distribution ("debian12")
    if repo and os_packages.family(host.distro) != "ubuntu":
        meta = f"cuda-drivers-{branch}" if branch else "cuda-drivers"
        keyring = (
            "https://developer.download.nvidia.com/compute/cuda/repos/"
            f"{repo}/x86_64/cuda-keyring_1.1-1_all.deb"
        )
        commands = (
            f"wget {keyring}",
            "sudo dpkg -i cuda-keyring_1.1-1_all.deb",
            "sudo apt-get update",
            f"sudo apt-get install {meta}",
        )
    cmds, notes = as_root(host, commands) if commands else ((), ())
    if not commands:
        notes = (*notes, "your distribution was not recognised: use its driver page")
    return [
        Fix(
            (
                f"Install NVIDIA driver {label} ({why}), then reboot"
                if why and label
                else f"Install NVIDIA driver {label}, then reboot"
                if label
                else f"Install the NVIDIA driver your distribution recommends ({why}), then reboot"
                if why
                else "Install the NVIDIA driver your distribution recommends, then reboot"
            ),
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
    dockerd = host.dockerd
    if dockerd is False:
        # only the client is here: nothing to start; Docker Engine is what is missing
        install = os_packages.install_packages(host.distro, ["docker.io"])
        cmds, notes = as_root(host, install) if install else ((), ())
        if not install:
            notes = (*notes, "your distribution was not recognised: follow Docker's install guide")
        return [
            Fix(
                "No Docker daemon (dockerd) is installed here: install Docker Engine (or point "
                "the client at a machine that runs one: `docker context use NAME` or DOCKER_HOST)",
                cmds,
                Risk.SAFE,
                "https://docs.docker.com/engine/install/",
                effect=Effect(services_started=("docker",)),
                assumes=Assumes(os=("linux",), privilege=host.privilege),
                assumptions=notes,
            )
        ]
    if host.container and not dockerd:
        return []  # no dockerd in this container: the daemon to start is the host's
    if host.systemd is False:
        start = "service docker start"
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
    """Give Docker containers the GPU: for NVIDIA, install the NVIDIA Container Toolkit from
    NVIDIA's repository and register its runtime (checks.container_fixes writes the commands per
    package manager); for AMD, pass the ROCm devices instead (no toolkit exists or is needed).
    Linux hosts only; param `package` ("nvidia-container-toolkit-base" for CDI only)."""
    from envdoctor.checks import container_fixes as cf

    if host.os not in ("linux", None):
        return []
    if host.vendor == "amd":
        return [
            Fix(
                "AMD GPUs need no NVIDIA toolkit: pass the ROCm devices to the container",
                (
                    "docker run --device=/dev/kfd --device=/dev/dri --group-add video "
                    "--security-opt seccomp=unconfined IMAGE",
                ),
                Risk.SAFE,
                "https://rocm.docs.amd.com/projects/install-on-linux/en/latest/how-to/docker.html",
                assumes=Assumes(os=("linux",), vendor="amd"),
            )
        ]
    if host.vendor not in ("nvidia", None):
        return []
    out = []
    package = str(spec.param("package") or "nvidia-container-toolkit")
    for fix in (cf.install_toolkit(snap, package), cf.configure_docker_runtime(snap)):
        cmds, notes = as_root(host, fix.commands)
        if not fix.commands:
            notes = (*notes, "your distribution was not recognised: follow NVIDIA's install guide")
        out.append(
            replace(
                fix,
                commands=cmds,
                assumes=Assumes(os=("linux",), vendor="nvidia", privilege=host.privilege),
                assumptions=notes,
            )
        )
    return out


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
