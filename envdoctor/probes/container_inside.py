"""Whether envdoctor runs inside a container or a Kubernetes pod, and what GPU parts it was given.

Fills `container.inside` with: in_container, engine ("docker", "podman", "kubernetes",
"containerd", "lxc", or None), evidence (what gave it away), env (the NVIDIA_* / CUDA_VERSION
variables the image or the runtime set: NVIDIA_VISIBLE_DEVICES, NVIDIA_DRIVER_CAPABILITIES,
NVIDIA_REQUIRE_*, NVIDIA_DISABLE_REQUIRE, NVIDIA_CTK_LIBCUDA_DIR, CUDA_VERSION), device_nodes
(the /dev/nvidia* names present), dxg (/dev/dxg, the WSL2 paravirtual GPU), libcuda and
libnvidia_ml (where `libcuda.so.1` / `libnvidia-ml.so.1` were found: the loader cache or the
usual driver dirs), nvidia_smi (path or None).

Fills `container.kubernetes` (absent outside a pod) with: namespace, pod (HOSTNAME),
service_host, gpu_env (NVIDIA_VISIBLE_DEVICES as the device plugin set it), devices_allocated
(GPU device nodes present), gpu_device_count.
"""

from __future__ import annotations

import re
from typing import Any

from envdoctor.model.snapshot import FactGroup, absent, collected
from envdoctor.probes.context import ProbeContext
from envdoctor.probes.nvidia_kernel import DRIVER_LIBRARY_DIRS

GROUPS = ("container.inside", "container.kubernetes")
TIMEOUT_S = 5.0
SOURCE = "probe:container_inside"
SERVICE_ACCOUNT = "/var/run/secrets/kubernetes.io/serviceaccount"
ENV_KEYS = (
    "NVIDIA_VISIBLE_DEVICES",
    "NVIDIA_DRIVER_CAPABILITIES",
    "NVIDIA_DISABLE_REQUIRE",
    "NVIDIA_CTK_LIBCUDA_DIR",
    "CUDA_VERSION",
)
_GPU_NODE = re.compile(r"^nvidia\d+$")
_CGROUP_ENGINES = (
    ("kubepods", "kubernetes"),
    ("libpod", "podman"),
    ("docker", "docker"),
    ("containerd", "containerd"),
    ("lxc", "lxc"),
    ("crio", "kubernetes"),
)


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Detect the container and what it was given."""
    engine, evidence = detect_engine(ctx)
    env = {k: v for k, v in ctx.env.items() if k in ENV_KEYS or k.startswith("NVIDIA_REQUIRE_")}
    nodes = sorted(n for n in ctx.listdir("/dev") if n.startswith("nvidia"))
    data: dict[str, Any] = {
        "in_container": engine is not None,
        "engine": engine,
        "evidence": evidence,
        "env": env,
        "device_nodes": nodes,
        "dxg": ctx.exists("/dev/dxg"),
        "libcuda": find_library(ctx, "libcuda.so.1", env.get("NVIDIA_CTK_LIBCUDA_DIR")),
        "libnvidia_ml": find_library(ctx, "libnvidia-ml.so.1", env.get("NVIDIA_CTK_LIBCUDA_DIR")),
        "nvidia_smi": ctx.which("nvidia-smi") if str(ctx.root) == "/" else None,
    }
    gpus = [n for n in nodes if _GPU_NODE.match(n)]
    if engine is None:
        summary = "not in a container"
    else:
        summary = f"inside a {engine} container, " + (
            f"{len(gpus)} GPU device node(s)" if gpus or data["dxg"] else "no GPU devices injected"
        )
    groups = [collected("container.inside", SOURCE, data, summary=summary)]
    groups.append(_kubernetes(ctx, gpus))
    return groups


def detect_engine(ctx: ProbeContext) -> tuple[str | None, list[str]]:
    """The container engine envdoctor runs under, and the evidence for it."""
    evidence: list[str] = []
    engine: str | None = None
    if ctx.env.get("KUBERNETES_SERVICE_HOST") or ctx.is_dir(SERVICE_ACCOUNT):
        evidence.append(
            "KUBERNETES_SERVICE_HOST is set"
            if ctx.env.get("KUBERNETES_SERVICE_HOST")
            else f"{SERVICE_ACCOUNT} exists"
        )
        engine = "kubernetes"
    if ctx.exists("/run/.containerenv"):
        evidence.append("/run/.containerenv exists")
        engine = engine or "podman"
    if ctx.exists("/.dockerenv"):
        evidence.append("/.dockerenv exists")
        engine = engine or "docker"
    cgroup = ctx.read_text("/proc/1/cgroup") or ""
    for marker, name in _CGROUP_ENGINES:
        if re.search(rf"[/:]{marker}[-/.:]", cgroup):
            evidence.append(f"/proc/1/cgroup mentions {marker}")
            engine = engine or name
            break
    hint = ctx.env.get("container", "").strip()
    if hint:
        evidence.append(f"container={hint} in the environment")
        engine = engine or hint
    return engine, evidence


def find_library(ctx: ProbeContext, soname: str, extra_dir: str | None = None) -> list[str]:
    """Where `soname` can be loaded from: the loader cache, or the usual driver dirs."""
    found = []
    cache = ctx.read_text("/etc/ld.so.cache") or ""
    if soname + "\0" in cache or soname + "\ufffd" in cache:
        found.append("ld.so.cache")
    dirs = list(DRIVER_LIBRARY_DIRS)
    if extra_dir:
        dirs = [d for d in extra_dir.split(":") if d] + dirs
    for folder in dirs:
        if ctx.exists(f"{folder}/{soname}"):
            found.append(f"{folder}/{soname}")
    return found


def _kubernetes(ctx: ProbeContext, gpus: list[str]) -> FactGroup:
    host = ctx.env.get("KUBERNETES_SERVICE_HOST")
    if not host and not ctx.is_dir(SERVICE_ACCOUNT):
        return absent(
            "container.kubernetes",
            SOURCE,
            "not in a Kubernetes pod (no KUBERNETES_SERVICE_HOST, no service account)",
        )
    namespace = (ctx.read_text(f"{SERVICE_ACCOUNT}/namespace") or "").strip() or None
    data = {
        "namespace": namespace,
        "pod": ctx.env.get("HOSTNAME"),
        "service_host": host,
        "gpu_env": ctx.env.get("NVIDIA_VISIBLE_DEVICES"),
        "devices_allocated": bool(gpus),
        "gpu_device_count": len(gpus),
    }
    summary = (
        f"Kubernetes pod {data['pod'] or '?'} in {namespace or '?'}, {len(gpus)} GPU(s) allocated"
    )
    return collected("container.kubernetes", SOURCE, data, summary=summary)
