"""Access to the AMD GPU device nodes: permissions, and devices a container was not given."""

from __future__ import annotations

from typing import Any

from envdoctor.checks import amd_facts as af
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.snapshot import Snapshot

_UDEV_RULE = (
    'printf \'SUBSYSTEM=="kfd", KERNEL=="kfd", GROUP="render", MODE="0660"\\n'
    'SUBSYSTEM=="drm", KERNEL=="renderD*", GROUP="render", MODE="0660"\\n\' '
    "| sudo tee /etc/udev/rules.d/70-amdgpu-compute.rules"
)


@check("rocm.kfd-permission", needs=("amd.kernel",))
def kfd_permission(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """This user cannot open /dev/kfd or the GPU's /dev/dri/renderD* node.

    ROCm reaches the GPU through two device nodes: /dev/kfd (compute) and the GPU's render node
    /dev/dri/renderD<N>. Both are group-owned, by `render` on current distributions (Ubuntu 20.04
    and later) and by `video` on older ones, mode 0660. A user outside that group gets
    "Unable to open /dev/kfd read-write: Permission denied", rocminfo adds '<user> is not member of
    "render" group', and PyTorch reports no GPU. A group added with usermod only takes effect in a
    new login session: until then the process still lacks it. Inside a container the node's
    group is the host's numeric gid, which the container may not know by name.

    Fix: add the user to render and video and log in again (AMD's prerequisites page), or, in a
    container, pass the host gid with --group-add; a udev rule can set the group and mode of the
    nodes for everyone.
    """
    data = snap.data("amd.kernel") or {}
    kfd = data.get("kfd") or {}
    nodes = [n for n in data.get("render_nodes") or [] if n.get("exists", True)]
    blocked_nodes = [n for n in nodes if n.get("accessible") is False]
    user = data.get("user") or {}
    kfd_blocked = kfd.get("exists") and kfd.get("accessible") is False
    not_member = user.get("not_in_group")
    if not kfd_blocked and not (nodes and len(blocked_nodes) == len(nodes)) and not not_member:
        return None
    evidence = []
    if kfd_blocked:
        evidence.append(
            Evidence(
                "amd.kernel.kfd",
                _node_text(kfd) + (f": {kfd['error']}" if kfd.get("error") else ""),
                "read and write for this user",
            )
        )
    for node in blocked_nodes[:4]:
        evidence.append(
            Evidence("amd.kernel.render_nodes", _node_text(node), "read and write for this user")
        )
    if not_member:
        evidence.append(
            Evidence("amd.kernel.user", f"{user.get('user')} is not in group {not_member}")
        )
    elif user.get("groups") is not None:
        evidence.append(
            Evidence(
                "amd.kernel.user.groups",
                ", ".join(user.get("groups") or []) or "none",
                "render (and video)",
            )
        )
    groups = sorted(
        {g for g in [kfd.get("group")] + [n.get("group") for n in blocked_nodes] if g} or {"render"}
    )
    pending = user.get("render_pending") or []
    fixes: list[Fix] = []
    if af.in_container(snap):
        gids = sorted(
            {str(n.get("gid")) for n in [kfd, *blocked_nodes] if n.get("gid") is not None}
        )
        add = " ".join(f"--group-add {g}" for g in gids) or "--group-add video --group-add render"
        fixes.append(
            Fix(
                "Start the container with the host's GPU groups (numeric gids, since the names "
                "may not exist inside the image)",
                (
                    "ls -ln /dev/kfd /dev/dri/renderD*",
                    f"docker run --device=/dev/kfd --device=/dev/dri {add} IMAGE",
                ),
                Risk.NEEDS_RESTART,
                af.DOCKER_DOC,
            )
        )
    if pending:
        fixes.append(
            Fix(
                f"You are already in {', '.join(pending)} in /etc/group, but this session started "
                "before: log out and back in (or start a shell with the group)",
                ("newgrp render", "id"),
                Risk.NEEDS_RESTART,
                af.GROUPS_DOC,
            )
        )
    else:
        fixes.append(
            Fix(
                "Add the user to the render and video groups, then log out and back in",
                ("sudo usermod -a -G render,video $LOGNAME", "newgrp render", "id"),
                Risk.NEEDS_RESTART,
                af.GROUPS_DOC,
            )
        )
    fixes.append(
        Fix(
            "Or make the nodes group render, mode 0660, for every user in render (udev rule)",
            (_UDEV_RULE, "sudo udevadm control --reload-rules", "sudo udevadm trigger"),
            Risk.NEEDS_RESTART,
            af.GROUPS_DOC,
        )
    )
    who = user.get("user") or "this user"
    return Finding(
        id="rocm.kfd-permission",
        severity=Severity.ERROR,
        title=f"{who} cannot open "
        + ("/dev/kfd" if kfd_blocked or not_member else "the AMD render node")
        + f" (group {', '.join(groups)})",
        detail=(
            "ROCm needs read and write access to /dev/kfd and the GPU's /dev/dri/renderD* node; "
            f"{who} has neither the group nor a mode that allows it, so ROCm sees no GPU "
            '("Unable to open /dev/kfd read-write: Permission denied").'
        ),
        evidence=tuple(evidence),
        fixes=tuple(fixes),
        explains=(
            "torch.gpu-test-failed",
            "app.ollama-cpu-fallback",
            "rocm.visible-devices-hide-gpus",
        ),
    )


def _node_text(node: dict[str, Any]) -> str:
    owner = node.get("group") or (f"gid {node['gid']}" if node.get("gid") is not None else "?")
    return f"{node.get('path')} {node.get('mode') or ''} group {owner}".replace("  ", " ")


@check("rocm.container-devices-missing", needs=("amd.kernel",))
def container_devices_missing(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """A container runs a ROCm stack but was not given /dev/kfd or /dev/dri.

    Containers see no device nodes unless they are passed in: ROCm containers need
    `--device=/dev/kfd --device=/dev/dri` (Docker, Podman) or the AMD GPU device plugin
    (Kubernetes). The host's driver is visible from inside (/proc/modules lists amdgpu, and
    /sys/class/kfd shows the GPUs), but without the nodes rocminfo says "Unable to open /dev/kfd"
    or ROCm reports no GPU. On SELinux hosts containers may also need
    `setsebool container_use_devices=1`. Only raised when ROCm or a ROCm torch is installed here.
    """
    data = snap.data("amd.kernel") or {}
    if not af.in_container(snap) or not data.get("kfd_sysfs"):
        return None
    kfd = data.get("kfd") or {}
    nodes = data.get("render_nodes") or []
    missing = ([] if kfd.get("exists") else ["/dev/kfd"]) + (
        [] if any(n.get("exists") for n in nodes) else ["/dev/dri"]
    )
    if not missing:
        return None
    wants = snap.has("amd.rocm") or af.torch_backend(snap) == "rocm"
    if not wants:
        return None
    return Finding(
        id="rocm.container-devices-missing",
        severity=Severity.ERROR,
        title="This container was started without " + " and ".join(missing),
        detail=(
            "The host has AMD GPUs (its KFD topology is visible here) and this container holds a ROCm "
            f"stack, but {' and '.join(missing)} {'was' if len(missing) == 1 else 'were'} not passed in, "
            "so ROCm finds no GPU."
        ),
        evidence=(
            Evidence("amd.kernel.kfd_sysfs", "true"),
            Evidence("amd.kernel.kfd.exists", str(bool(kfd.get("exists"))).lower(), "true"),
            Evidence("amd.kernel.render_nodes", str(len(nodes)), "at least one"),
        ),
        fixes=(
            Fix(
                "Restart the container with the AMD GPU devices and groups",
                (
                    "docker run --device=/dev/kfd --device=/dev/dri --group-add video --group-add render "
                    "--security-opt seccomp=unconfined IMAGE",
                ),
                Risk.NEEDS_RESTART,
                af.DOCKER_DOC,
            ),
            Fix(
                "On SELinux hosts, allow containers to use devices",
                ("sudo setsebool -P container_use_devices=1",),
                Risk.SAFE,
                "https://github.com/ollama/ollama/blob/main/docs/gpu.mdx",
            ),
        ),
        explains=("rocm.kfd-permission", "torch.gpu-test-failed", "app.ollama-cpu-fallback"),
    )


CHECKS = [kfd_permission, container_devices_missing]
