"""ROCm installs: every /opt/rocm* side by side, the default one, HIP, packages.

Fills `amd.rocm` with installs [{path, version, version_source (".info/version",
"rocm_version.h", "folder name"), hip_version, libamdhip64 (the runtime library files)}],
default {path: "/opt/rocm", target (where the link or update-alternatives points), version},
version (the default install's, else the only one's, else the rocm-core package's), hip_version
(from include/hip/hip_version.h: "major.minor.patch"), packages {name: version} (dpkg: rocm-core,
rocm-hip-runtime, hip-runtime-amd, rocminfo, rocm-smi-lib, amd-smi-lib, amdgpu-dkms,
amdgpu-install), distro_libamdhip64 (a distribution's HIP runtime outside /opt, e.g. Debian's
libamdhip64-5), env {ROCM_PATH, HIP_PATH} and `several` (more than one install). Absent when
none of these exists.
"""

from __future__ import annotations

import os
import re
from typing import Any

from envdoctor.model.snapshot import FactGroup, absent, collected
from envdoctor.probes import amd_sysfs
from envdoctor.probes.context import ProbeContext

GROUPS = ("amd.rocm",)
TIMEOUT_S = 5.0
SOURCE = "probe:amd_rocm"
PACKAGES = (
    "rocm",
    "rocm-core",
    "rocm-hip-runtime",
    "hip-runtime-amd",
    "rocminfo",
    "rocm-smi-lib",
    "amd-smi-lib",
    "amdgpu-dkms",
    "amdgpu-install",
    "libamdhip64-5",
    "libamdhip64-6",
)
_DEFINE = re.compile(
    r"^#define\s+(ROCM_VERSION_MAJOR|ROCM_VERSION_MINOR|ROCM_VERSION_PATCH|HIP_VERSION_MAJOR|"
    r"HIP_VERSION_MINOR|HIP_VERSION_PATCH|HIP_VERSION_GITHASH)\s+\"?([\w.-]*)\"?",
    re.M,
)
_FOLDER_VERSION = re.compile(r"rocm-(\d+\.\d+(?:\.\d+)*)")


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Describe the ROCm installs of the target system."""
    paths = [p for p in ctx.glob("/opt/rocm-*") if ctx.is_dir(_resolve(ctx, p))]
    if ctx.is_dir(_resolve(ctx, "/opt/rocm")):
        paths.append("/opt/rocm")
    installs = [_install(ctx, p) for p in sorted(set(paths))]
    default = next((i for i in installs if i["path"] == "/opt/rocm"), None)
    real = [i for i in installs if i["path"] != "/opt/rocm"]
    target = _link_target(ctx, "/opt/rocm") if default else None
    packages = amd_sysfs.dpkg_versions(ctx, PACKAGES)
    distro_hip = amd_sysfs.find_libraries(ctx, ("libamdhip64.so*",), amd_sysfs.LIBRARY_DIRS)
    env = {k: ctx.env.get(k) for k in ("ROCM_PATH", "HIP_PATH") if ctx.env.get(k)}
    if not installs and not packages and not distro_hip:
        return [
            absent(
                "amd.rocm",
                SOURCE,
                "ROCm is not installed: no /opt/rocm*, no ROCm packages, no libamdhip64",
            )
        ]
    version = (
        (default or {}).get("version")
        or (real[0]["version"] if len(real) == 1 else None)
        or _package_version(packages.get("rocm-core"))
    )
    # the distribution's HIP runtime alone (Debian / Ubuntu libamdhip64-5 "5.7.1-3"), pulled in by
    # another package: a HIP version, not a ROCm install
    distro_package = next((n for n in ("libamdhip64-6", "libamdhip64-5") if n in packages), None)
    data: dict[str, Any] = {
        "installs": installs,
        "default": {"path": "/opt/rocm", "target": target, "version": default.get("version")}
        if default
        else None,
        "version": version,
        "hip_version": (default or (real[0] if len(real) == 1 else {})).get("hip_version")
        or (_package_version(packages[distro_package]) if distro_package else None),
        "distro_hip_package": distro_package,
        "packages": packages,
        "distro_libamdhip64": distro_hip,
        "env": env,
        "several": len({i["version"] or i["path"] for i in real}) > 1,
    }
    return [collected("amd.rocm", SOURCE, data, summary=_summary(data))]


def _resolve(ctx: ProbeContext, path: str) -> str:
    """`path` with its symbolic links followed inside the target root (update-alternatives makes
    /opt/rocm an absolute link to /etc/alternatives/rocm, itself a link to /opt/rocm-X.Y.Z)."""
    for _ in range(8):
        target = ctx.readlink(path)
        if target is None:
            return path
        path = (
            target
            if target.startswith("/")
            else os.path.normpath(os.path.join(os.path.dirname(path), target))
        )
    return path


def _install(ctx: ProbeContext, shown: str) -> dict[str, Any]:
    path = _resolve(ctx, shown)
    version, how = None, None
    text = amd_sysfs.read_small(ctx, f"{path}/.info/version")
    if text:
        version, how = text.splitlines()[0].strip(), ".info/version"
    if version is None:
        header = ctx.read_text(f"{path}/include/rocm-core/rocm_version.h") or ""
        found = dict(_DEFINE.findall(header))
        if "ROCM_VERSION_MAJOR" in found:
            version = ".".join(
                found.get(k, "0")
                for k in ("ROCM_VERSION_MAJOR", "ROCM_VERSION_MINOR", "ROCM_VERSION_PATCH")
            )
            how = "rocm_version.h"
    if version is None:
        match = _FOLDER_VERSION.search(os.path.basename(path))
        if match:
            version, how = match.group(1), "folder name"
    hip = dict(_DEFINE.findall(ctx.read_text(f"{path}/include/hip/hip_version.h") or ""))
    hip_version = None
    if "HIP_VERSION_MAJOR" in hip:
        hip_version = ".".join(
            hip.get(k, "0") for k in ("HIP_VERSION_MAJOR", "HIP_VERSION_MINOR", "HIP_VERSION_PATCH")
        )
        if hip.get("HIP_VERSION_GITHASH"):
            hip_version += f"-{hip['HIP_VERSION_GITHASH']}"
    return {
        "path": shown,
        "version": version,
        "version_source": how,
        "hip_version": hip_version,
        "libamdhip64": [os.path.basename(p) for p in ctx.glob(f"{path}/lib/libamdhip64.so*")],
    }


def _link_target(ctx: ProbeContext, path: str) -> str | None:
    """Where /opt/rocm points in the end (through /etc/alternatives), or None for a folder."""
    resolved = _resolve(ctx, path)
    return None if resolved == path else resolved


def _package_version(text: str | None) -> str | None:
    """dpkg's rocm-core version "6.2.4.60204-139~22.04" -> "6.2.4"."""
    match = re.match(r"^(\d+\.\d+\.\d+)", text or "")
    return match.group(1) if match else None


def _summary(data: dict[str, Any]) -> str:
    package = data.get("distro_hip_package")
    if not data["installs"] and not data.get("version") and package:
        hip = data.get("hip_version") or data["packages"][package]
        return f"no ROCm install (/opt/rocm); the distribution's HIP runtime {package} {hip}"
    installs = [i for i in data["installs"] if i["path"] != "/opt/rocm"]
    parts = [f"ROCm {data['version']}" if data.get("version") else "ROCm (version unknown)"]
    if data.get("default") and data["default"].get("target"):
        parts.append(f"/opt/rocm -> {data['default']['target']}")
    if len(installs) > 1:
        parts.append(
            f"{len(installs)} installs: " + ", ".join(i["version"] or i["path"] for i in installs)
        )
    if data.get("hip_version"):
        parts.append(f"HIP {data['hip_version']}")
    return ", ".join(parts)
