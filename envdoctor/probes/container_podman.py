"""Podman, and the CDI settings it would use for GPUs.

Fills `container.podman` with: path, version (from dpkg when the binary is the packaged one, else
`podman --version`; `version_source` says which), rootless (Podman's own rule:
not run as root), cgroup_version ("v2" when /sys/fs/cgroup is the unified hierarchy, else "v1"),
cgroup_manager and oci_runtime (only when containers.conf sets them), cdi_spec_dirs (the
`cdi_spec_dirs` of containers.conf when set there; Podman's defaults are /etc/cdi and
/var/run/cdi), oci_hook_file (a leftover NVIDIA OCI hook, which conflicts with CDI injection) and
version_error when `podman --version` fails. Absent when `podman` is not on PATH.

`podman info` and `podman version` are not run: both set up Podman's storage on first use
(/var/lib/containers/storage, or ~/.local/share/containers for a user, where rootless Podman also
starts its pause process), which a doctor must not do, and take ~0.3 s. `facts_from_info` reads
a `podman info --format json` document someone captured.
"""

from __future__ import annotations

import os
import re
from typing import Any

from envdoctor.model.json_values import as_dict
from envdoctor.model.snapshot import FactGroup, absent, collected
from envdoctor.probes.container_toolkit import OCI_HOOK_FILE
from envdoctor.probes.context import ProbeContext

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

GROUPS = ("container.podman",)
TIMEOUT_S = 12.0
VERSION_TIMEOUT_S = 3.0
SOURCE = "probe:container_podman"
DPKG_LIST = "/var/lib/dpkg/info/podman.list"  # the files of Debian's / Ubuntu's podman package
CONTAINERS_CONF = ("/etc/containers/containers.conf", "/usr/share/containers/containers.conf")


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Describe Podman, when it is installed."""
    path = ctx.which("podman")
    if path is None:
        return [absent(GROUPS[0], SOURCE, "podman is not on PATH")]
    data: dict[str, Any] = {"path": path}
    packaged = packaged_version(ctx, path)
    if (
        packaged is not None
    ):  # the binary on PATH is the distribution's: its version, without running it
        data["version"], data["version_source"] = packaged, "dpkg"
    else:
        result = ctx.run([path, "--version"], timeout_s=VERSION_TIMEOUT_S)
        match = re.search(r"version\s+(\S+)", result.stdout) if result.ok else None
        data["version"], data["version_source"] = (
            (match.group(1) if match else None),
            "podman --version",
        )
        if not match:
            data["version_error"] = (
                result.describe_failure()
                if not result.ok
                else "podman --version printed no version"
            )
    data["rootless"] = os.geteuid() != 0 if hasattr(os, "geteuid") else None
    if ctx.exists("/sys/fs/cgroup/cgroup.controllers"):
        data["cgroup_version"] = "v2"
    elif ctx.is_dir("/sys/fs/cgroup"):
        data["cgroup_version"] = "v1"
    engine = _engine_table(ctx)
    for key, conf_key in (("cgroup_manager", "cgroup_manager"), ("oci_runtime", "runtime")):
        if isinstance(engine.get(conf_key), str):
            data[key] = engine[conf_key]
    dirs = engine.get("cdi_spec_dirs")
    data["cdi_spec_dirs"] = [str(d) for d in dirs] if isinstance(dirs, list) else None
    data["oci_hook_file"] = ctx.exists(OCI_HOOK_FILE)
    summary = f"Podman {data.get('version') or '?'}" + (
        " (rootless)" if data.get("rootless") else ""
    )
    return [collected(GROUPS[0], SOURCE, data, summary=summary)]


def packaged_version(ctx: ProbeContext, path: str) -> str | None:
    """Podman's upstream version from dpkg when `path` is a file of the installed `podman` package
    (its .list names it): what `podman --version` prints, without starting the Go runtime (~20 ms
    of CPU). None when dpkg does not own that file, and the binary is asked instead."""
    from envdoctor.probes.platform_packages import installed_dpkg, upstream_version

    owned = set((ctx.read_text(DPKG_LIST) or "").splitlines())
    link = ctx.readlink(path)
    names = {path} | (
        {os.path.normpath(os.path.join(os.path.dirname(path), link))} if link else set()
    )
    if not names & owned:
        return None
    return upstream_version(installed_dpkg(ctx).get("podman"))


def facts_from_info(info: dict[str, Any]) -> dict[str, Any]:
    """The facts envdoctor uses from `podman info --format json`."""
    host = as_dict(info.get("host"))
    security = as_dict(host.get("security"))
    runtime = as_dict(host.get("ociRuntime"))
    version = as_dict(info.get("version"))
    return {
        "version": version.get("Version"),
        "api_version": version.get("APIVersion"),
        "rootless": bool(security.get("rootless")),
        "cgroup_manager": host.get("cgroupManager"),
        "cgroup_version": host.get("cgroupVersion"),
        "oci_runtime": runtime.get("name"),
    }


def _engine_table(ctx: ProbeContext) -> dict[str, Any]:
    """The [engine] settings of containers.conf: each key from the first file that sets it
    (/etc/containers overrides /usr/share/containers), {} when none parses."""
    merged: dict[str, Any] = {}
    for path in CONTAINERS_CONF:
        text = ctx.read_text(path)
        if not text:
            continue
        try:
            doc = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            continue
        engine = doc.get("engine")
        if isinstance(engine, dict):
            for key, value in engine.items():
                merged.setdefault(key, value)
    return merged
