"""Podman, and the CDI settings it would use for GPUs.

Fills `container.podman` with: path, version (from `podman info --format json`, else
`podman --version`), rootless, cgroup_manager, cgroup_version ("v1"/"v2"), oci_runtime,
cdi_spec_dirs (the `cdi_spec_dirs` of containers.conf when set there; Podman's defaults are
/etc/cdi and /var/run/cdi), oci_hook_file (a leftover NVIDIA OCI hook, which conflicts with
CDI injection), info_error. Absent when `podman` is not on PATH.
"""

from __future__ import annotations

import json
import re
from typing import Any

from envdoctor.context import ProbeContext
from envdoctor.probes.container_toolkit import OCI_HOOK_FILE
from envdoctor.snapshot import FactGroup, absent, collected

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

GROUPS = ("container.podman",)
TIMEOUT_S = 12.0
INFO_TIMEOUT_S = 8.0
SOURCE = "probe:container_podman"
CONTAINERS_CONF = ("/etc/containers/containers.conf", "/usr/share/containers/containers.conf")


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Describe Podman, when it is installed."""
    path = ctx.which("podman")
    if path is None:
        return [absent(GROUPS[0], SOURCE, "podman is not on PATH")]
    data: dict[str, Any] = {"path": path}
    result = ctx.run([path, "info", "--format", "json"], timeout_s=INFO_TIMEOUT_S)
    info = None
    if result.ok:
        try:
            info = json.loads(result.stdout)
        except json.JSONDecodeError:
            info = None
    if isinstance(info, dict):
        data.update(facts_from_info(info))
    else:
        data["info_error"] = result.describe_failure() if not result.ok else "podman info printed no JSON"
        version = ctx.run([path, "--version"], timeout_s=3.0)
        match = re.search(r"version\s+(\S+)", version.stdout)
        data["version"] = match.group(1) if match else None
    data["cdi_spec_dirs"] = _configured_cdi_dirs(ctx)
    data["oci_hook_file"] = ctx.exists(OCI_HOOK_FILE)
    summary = f"Podman {data.get('version') or '?'}" + (" (rootless)" if data.get("rootless") else "")
    return [collected(GROUPS[0], SOURCE, data, summary=summary)]


def facts_from_info(info: dict[str, Any]) -> dict[str, Any]:
    """The facts envdoctor uses from `podman info --format json`."""
    host = info.get("host") if isinstance(info.get("host"), dict) else {}
    security = host.get("security") if isinstance(host.get("security"), dict) else {}
    runtime = host.get("ociRuntime") if isinstance(host.get("ociRuntime"), dict) else {}
    version = info.get("version") if isinstance(info.get("version"), dict) else {}
    return {
        "version": version.get("Version"),
        "api_version": version.get("APIVersion"),
        "rootless": bool(security.get("rootless")),
        "cgroup_manager": host.get("cgroupManager"),
        "cgroup_version": host.get("cgroupVersion"),
        "oci_runtime": runtime.get("name"),
    }


def _configured_cdi_dirs(ctx: ProbeContext) -> list[str] | None:
    for path in CONTAINERS_CONF:
        text = ctx.read_text(path)
        if not text:
            continue
        try:
            doc = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            continue
        engine = doc.get("engine") if isinstance(doc.get("engine"), dict) else {}
        dirs = engine.get("cdi_spec_dirs")
        if isinstance(dirs, list):
            return [str(d) for d in dirs]
    return None
