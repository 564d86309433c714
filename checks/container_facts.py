"""Reading the container fact groups for the container checks (pure functions of a snapshot).

Not a check module (no CHECKS): the helpers the container checks share, so each check reads the
facts the same way.
"""

from __future__ import annotations

from typing import Any

from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.snapshot import Snapshot, Status
from envdoctor.model.versions import at_least

NO_GPU_VALUES = ("", "void", "none")


def status(snap: Snapshot, name: str) -> str:
    """ "collected", "absent", "failed", or "missing" (no such group in the snapshot)."""
    group = snap.group(name)
    return "missing" if group is None else group.status.value


def toolkit_absent(snap: Snapshot) -> bool:
    """The toolkit probe looked and found no NVIDIA Container Toolkit."""
    group = snap.group("container.toolkit")
    if group is None or group.status is Status.FAILED:
        return False
    if group.status is Status.ABSENT:
        return True
    return not group.get("installed", bool(group.get("binaries")))


def toolkit_binary(snap: Snapshot, name: str) -> dict[str, Any] | None:
    """{"path", "version"} of a toolkit binary found on PATH, or None."""
    binaries = snap.fact("container.toolkit", "binaries") or {}
    found = binaries.get(name)
    return found if isinstance(found, dict) else None


def toolkit_version(snap: Snapshot) -> str | None:
    """The toolkit's version (nvidia-ctk's, else any binary's)."""
    for name in (
        "nvidia-ctk",
        "nvidia-container-runtime",
        "nvidia-container-runtime-hook",
        "nvidia-cdi-hook",
        "nvidia-container-cli",
    ):
        found = toolkit_binary(snap, name)
        if found and found.get("version"):
            return str(found["version"])
    return None


def gpus(snap: Snapshot) -> list[dict[str, Any]]:
    """The NVIDIA GPU records of `nvidia.gpus` (its `gpus` list)."""
    data = snap.data("nvidia.gpus") or {}
    found = data.get("gpus")
    return [g for g in found if isinstance(g, dict)] if isinstance(found, list) else []


def nvidia_gpu_host(snap: Snapshot) -> bool:
    """Whether the facts show an NVIDIA GPU or a working NVIDIA driver on this host."""
    if gpus(snap):
        return True
    driver = snap.data("nvidia.driver") or {}
    return bool(driver.get("driver_version")) or bool(driver.get("gpu_count"))


def host_driver(snap: Snapshot) -> str | None:
    """The host's NVIDIA driver version, when known."""
    return snap.fact("nvidia.driver", "driver_version")


def host_cuda_driver_max(snap: Snapshot) -> str | None:
    """The newest CUDA the host driver supports, when known."""
    return snap.fact("nvidia.driver", "cuda_driver_max")


def docker(snap: Snapshot) -> dict[str, Any]:
    """The `container.docker` facts ({} when not collected)."""
    return snap.data("container.docker") or {}


def daemon_configs(snap: Snapshot) -> list[dict[str, Any]]:
    """The daemon.json entries the toolkit probe read."""
    return [
        c for c in snap.fact("container.toolkit", "daemon_configs") or [] if isinstance(c, dict)
    ]


def daemon_config_for(snap: Snapshot) -> dict[str, Any]:
    """The daemon.json of the daemon in use (the rootless one for a rootless daemon)."""
    configs = daemon_configs(snap)
    rootless = bool(docker(snap).get("rootless"))
    for config in configs:
        if str(config.get("path", "")).startswith("/etc/") != rootless:
            return config
    return configs[0] if configs else {}


def cdi_enabled(snap: Snapshot) -> bool | None:
    """Whether the daemon in use has CDI on: `features.cdi` in its daemon.json when set, else
    whether the daemon reports CDI spec dirs (it reports none while CDI is off). None: unknown."""
    config = daemon_config_for(snap)
    if config.get("cdi_feature") is not None:
        return bool(config["cdi_feature"])
    dirs = docker(snap).get("cdi_spec_dirs")
    return None if dirs is None else bool(dirs)


def stack_minimum(ms: MatrixSet, component: str, feature: str) -> str | None:
    """min_version of a container_stack row, or None when the table lacks it."""
    table = ms.get("container_stack")
    if table is None:
        return None
    for row in table.rows:
        if (
            row.get("component") == component
            and row.get("feature") == feature
            and not row.get("unverified")
        ):
            return str(row["min_version"])
    return None


def docker_at_least(snap: Snapshot, ms: MatrixSet, feature: str) -> bool | None:
    """Whether the daemon's version has `feature` (None when either is unknown)."""
    return at_least(docker(snap).get("server_version"), stack_minimum(ms, "docker", feature))


def nvidia_cdi_spec(snap: Snapshot) -> list[dict[str, Any]]:
    """The readable CDI specs of kind nvidia.com/gpu."""
    specs = snap.fact("container.cdi", "specs") or []
    return [
        s
        for s in specs
        if isinstance(s, dict) and s.get("kind") == "nvidia.com/gpu" and not s.get("error")
    ]


def gpu_requested(env: dict[str, Any]) -> bool:
    """Whether NVIDIA_VISIBLE_DEVICES asks for GPUs (set, and not void / none / empty)."""
    value = env.get("NVIDIA_VISIBLE_DEVICES")
    return value is not None and str(value).strip().lower() not in NO_GPU_VALUES
