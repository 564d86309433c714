"""Container Device Interface specs: what GPUs a CDI-aware engine could inject.

Fills `container.cdi` with: spec_dirs (scanned: /etc/cdi, /var/run/cdi and the `cdi-spec-dirs`
of /etc/docker/daemon.json), specs (one per file: path, cdi_version, kind, devices (names),
uuids (GPU-/MIG- device names), driver_version (the driver whose libraries the spec mounts, from
`libcuda.so.<version>` / `libnvidia-ml.so.<version>` host paths or `--host-driver-version`),
device_nodes (per-device /dev nodes), error when unreadable), kinds and devices (fully
qualified, "nvidia.com/gpu=0"). Absent when no spec file exists in any of the dirs.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

from envdoctor.model.snapshot import FactGroup, absent, collected
from envdoctor.probes import container_cdi_yaml, container_toolkit
from envdoctor.probes.context import ProbeContext

GROUPS = ("container.cdi",)
TIMEOUT_S = 5.0
SOURCE = "probe:container_cdi"
DEFAULT_SPEC_DIRS = ("/etc/cdi", "/var/run/cdi")
SPEC_SUFFIXES = (".yaml", ".yml", ".json")
MAX_SPEC_BYTES = 4 * 1024 * 1024
_DRIVER_LIB = re.compile(r"/lib(?:cuda|nvidia-ml)\.so\.(\d{3,}\.\d+(?:\.\d+)?)$")
_HOST_DRIVER_ARG = re.compile(r"^--host-driver-version=(\d{3,}\.\d+(?:\.\d+)?)$")


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Read every CDI spec in the spec dirs."""
    dirs = spec_dirs(ctx)
    seen: set[str] = set()
    specs = []
    for folder in dirs:
        for name in ctx.listdir(folder):
            if not name.endswith(SPEC_SUFFIXES):
                continue
            path = f"{folder.rstrip('/')}/{name}"
            real = os.path.realpath(ctx.path(path))
            if real in seen:
                continue
            seen.add(real)
            specs.append(read_spec(ctx, path))
    if not specs:
        return [absent(GROUPS[0], SOURCE, "no CDI specs in " + ", ".join(dirs))]
    kinds = sorted({s["kind"] for s in specs if s.get("kind")})
    devices = sorted(
        {f"{s['kind']}={d}" for s in specs if s.get("kind") for d in s.get("devices", [])}
    )
    data = {"spec_dirs": dirs, "specs": specs, "kinds": kinds, "devices": devices}
    summary = f"{len(specs)} CDI spec(s): " + (", ".join(kinds) or "unreadable")
    return [collected(GROUPS[0], SOURCE, data, summary=summary)]


def spec_dirs(ctx: ProbeContext) -> list[str]:
    """The default CDI spec dirs plus those Docker is configured with."""
    dirs = list(DEFAULT_SPEC_DIRS)
    docker = container_toolkit.read_daemon_json(ctx, container_toolkit.SYSTEM_DAEMON_JSON) or {}
    for folder in docker.get("cdi_spec_dirs") or []:
        if folder not in dirs:
            dirs.append(folder)
    return dirs


def read_spec(ctx: ProbeContext, path: str) -> dict[str, Any]:
    """The facts of one spec file (with `error` when it cannot be read)."""
    text = ctx.read_text(path, max_bytes=MAX_SPEC_BYTES)
    if text is None:
        return {"path": path, "error": ctx.read(path).error or "unreadable"}
    return {"path": path, **spec_facts(text, path)}


def spec_facts(text: str, path: str = "spec") -> dict[str, Any]:
    """cdi_version, kind, devices, uuids, driver_version and device_nodes of a spec's text."""
    try:
        doc = json.loads(text) if path.endswith(".json") else container_cdi_yaml.loads(text)
    except ValueError as exc:
        return {"error": f"cannot parse {path}: {exc}"}
    if not isinstance(doc, dict):
        return {"error": f"{path} is not a CDI spec (no top-level mapping)"}
    devices = [d for d in doc.get("devices") or [] if isinstance(d, dict)]
    names = [str(d.get("name")) for d in devices if d.get("name") is not None]
    nodes = {str(d.get("name")): _device_nodes(d.get("containerEdits")) for d in devices}
    facts: dict[str, Any] = {
        "cdi_version": _str(doc.get("cdiVersion")),
        "kind": _str(doc.get("kind")),
        "devices": names,
        "uuids": [n for n in names if n.startswith(("GPU-", "MIG-"))],
        "device_nodes": nodes,
        "driver_version": _driver_version(doc),
    }
    return {k: v for k, v in facts.items() if v is not None}


def _device_nodes(edits: Any) -> list[str]:
    if not isinstance(edits, dict):
        return []
    return [
        str(n.get("path"))
        for n in edits.get("deviceNodes") or []
        if isinstance(n, dict) and n.get("path")
    ]


def _driver_version(doc: dict[str, Any]) -> str | None:
    """The host driver version the spec was generated for."""
    edits = [doc.get("containerEdits")] + [
        d.get("containerEdits") for d in doc.get("devices") or [] if isinstance(d, dict)
    ]
    for edit in edits:
        if not isinstance(edit, dict):
            continue
        for mount in edit.get("mounts") or []:
            match = (
                _DRIVER_LIB.search(str(mount.get("hostPath", "")))
                if isinstance(mount, dict)
                else None
            )
            if match:
                return match.group(1)
        for hook in edit.get("hooks") or []:
            for arg in (hook.get("args") or []) if isinstance(hook, dict) else []:
                match = _HOST_DRIVER_ARG.match(str(arg))
                if match:
                    return match.group(1)
    return None


def _str(value: Any) -> str | None:
    return None if value is None else str(value)
