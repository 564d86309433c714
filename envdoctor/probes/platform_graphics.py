"""OpenGL and Vulkan renderers: the GPU, or software rendering on the CPU (llvmpipe)?

Fills `platform.graphics` with:
- `renderer`, `vendor`, `device`, `accelerated`, `mesa_version`, `software` (llvmpipe / softpipe /
  swrast), `d3d12` (Mesa's D3D12 driver: WSL's GPU path) from `glxinfo -B` (read with the glxinfo
  reader, envdoctor/ingest/glxinfo.py), run only when a display (DISPLAY / WAYLAND_DISPLAY) is set;
  `glxinfo` "ok" / the reason it did not run.
- `vulkan`: [{device_name, driver_name, driver_info, device_type, software}] from
  `vulkaninfo --summary`; `vulkaninfo` "ok" / reason.
- `overrides`: the environment variables that steer Mesa ({GALLIUM_DRIVER, LIBGL_ALWAYS_SOFTWARE,
  MESA_LOADER_DRIVER_OVERRIDE, MESA_D3D12_DEFAULT_ADAPTER_NAME, __GLX_VENDOR_LIBRARY_NAME,
  VK_ICD_FILENAMES, VK_DRIVER_FILES} that are set); `forces_software` lists the ones that force
  the CPU renderer (LIBGL_ALWAYS_SOFTWARE=1/true, GALLIUM_DRIVER=llvmpipe/softpipe/swrast).
- `mesa_package` {name, version, upstream} from dpkg / pacman; `d3d12_driver` (d3d12_dri.so found
  in a DRI folder; None when no DRI folder exists), `dri_dirs`.
Absent when there is no renderer to ask, no Mesa and no override (a headless server or container).
"""

from __future__ import annotations

import re
from typing import Any

from envdoctor.ingest import glxinfo as glxinfo_reader
from envdoctor.model.snapshot import FactGroup, absent, collected
from envdoctor.probes.context import ProbeContext
from envdoctor.probes.platform_packages import installed_dpkg, installed_pacman, upstream_version

GROUPS = ("platform.graphics",)
TIMEOUT_S = 12.0
SOURCE = "probe:platform_graphics"
TOOL_TIMEOUT_S = 5.0

OVERRIDE_VARS = (
    "GALLIUM_DRIVER",
    "LIBGL_ALWAYS_SOFTWARE",
    "MESA_LOADER_DRIVER_OVERRIDE",
    "MESA_D3D12_DEFAULT_ADAPTER_NAME",
    "__GLX_VENDOR_LIBRARY_NAME",
    "VK_ICD_FILENAMES",
    "VK_DRIVER_FILES",
)
SOFTWARE_DRIVERS = ("llvmpipe", "softpipe", "swrast")
DRI_DIRS = (
    "/usr/lib/x86_64-linux-gnu/dri",
    "/usr/lib/aarch64-linux-gnu/dri",
    "/usr/lib64/dri",
    "/usr/lib/dri",
)
MESA_PACKAGES = ("libgl1-mesa-dri", "mesa-libgallium", "libglx-mesa0", "mesa")
_VK_FIELD = re.compile(r"^\s*(deviceName|driverName|driverInfo|deviceType)\s*=\s*(.*?)\s*$")


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Describe the OpenGL / Vulkan renderers and what steers them."""
    env = ctx.env
    overrides = {k: env[k] for k in OVERRIDE_VARS if env.get(k)}
    data: dict[str, Any] = {"overrides": overrides, "forces_software": forced_software(overrides)}
    data.update(_glxinfo(ctx))
    data.update(_vulkan(ctx))
    data.update(_mesa(ctx))
    if (
        data.get("renderer") is None
        and not data.get("vulkan")
        and not data.get("mesa_package")
        and not overrides
        and not data.get("dri_dirs")
    ):
        return [
            absent(
                "platform.graphics",
                SOURCE,
                f"no OpenGL/Vulkan renderer to ask ({data['glxinfo']}) and no Mesa installed",
            )
        ]
    return [collected("platform.graphics", SOURCE, data, summary=_summary(data))]


def forced_software(overrides: dict[str, str]) -> list[str]:
    """The overrides that force rendering on the CPU."""
    out = []
    if str(overrides.get("LIBGL_ALWAYS_SOFTWARE", "")).strip().lower() in ("1", "true", "yes"):
        out.append(f"LIBGL_ALWAYS_SOFTWARE={overrides['LIBGL_ALWAYS_SOFTWARE']}")
    for key in ("GALLIUM_DRIVER", "MESA_LOADER_DRIVER_OVERRIDE"):
        if str(overrides.get(key, "")).strip().lower() in SOFTWARE_DRIVERS:
            out.append(f"{key}={overrides[key]}")
    return out


def _glxinfo(ctx: ProbeContext) -> dict[str, Any]:
    out: dict[str, Any] = {"renderer": None, "glxinfo": None}
    if not (ctx.env.get("DISPLAY") or ctx.env.get("WAYLAND_DISPLAY")):
        out["glxinfo"] = "no DISPLAY or WAYLAND_DISPLAY set"
        return out
    tool = ctx.which("glxinfo")
    if tool is None:
        out["glxinfo"] = "glxinfo not installed (Debian/Ubuntu: mesa-utils)"
        return out
    run = ctx.run([tool, "-B"], TOOL_TIMEOUT_S)
    if not run.ok:
        out["glxinfo"] = run.describe_failure()
        return out
    groups = glxinfo_reader.read(run.stdout)
    if not groups:
        out["glxinfo"] = "glxinfo printed no renderer"
        return out
    out.update({k: v for k, v in groups[0].data.items()})
    out["glxinfo"] = "ok"
    return out


def parse_vulkan_summary(text: str) -> list[dict[str, Any]]:
    """The devices of `vulkaninfo --summary` (its Devices section)."""
    devices: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    for line in text.splitlines():
        if re.match(r"^\s*GPU\d+:\s*$", line):
            current = {
                "device_name": None,
                "driver_name": None,
                "driver_info": None,
                "device_type": None,
            }
            devices.append(current)
            continue
        match = _VK_FIELD.match(line)
        if match and current is not None:
            key = {
                "deviceName": "device_name",
                "driverName": "driver_name",
                "driverInfo": "driver_info",
                "deviceType": "device_type",
            }[match.group(1)]
            current[key] = match.group(2)
    for device in devices:
        name = f"{device.get('device_name') or ''} {device.get('device_type') or ''}".lower()
        device["software"] = "llvmpipe" in name or "physical_device_type_cpu" in name
    return devices


def _vulkan(ctx: ProbeContext) -> dict[str, Any]:
    tool = ctx.which("vulkaninfo")
    if tool is None:
        return {"vulkan": [], "vulkaninfo": "vulkaninfo not installed"}
    run = ctx.run([tool, "--summary"], TOOL_TIMEOUT_S)
    if not run.ok:
        return {"vulkan": [], "vulkaninfo": run.describe_failure()}
    return {"vulkan": parse_vulkan_summary(run.stdout), "vulkaninfo": "ok"}


def _mesa(ctx: ProbeContext) -> dict[str, Any]:
    packages = installed_dpkg(ctx)
    pacman = installed_pacman(ctx)
    found = None
    for name in MESA_PACKAGES:
        version = packages.get(name) or pacman.get(name)
        if version:
            found = {"name": name, "version": version, "upstream": upstream_version(version)}
            break
    dri_dirs = [d for d in DRI_DIRS if ctx.is_dir(d)]
    d3d12 = any(ctx.exists(f"{d}/d3d12_dri.so") for d in dri_dirs) if dri_dirs else None
    return {"mesa_package": found, "dri_dirs": dri_dirs, "d3d12_driver": d3d12}


def _summary(data: dict[str, Any]) -> str:
    if data.get("renderer"):
        kind = "software rendering" if data.get("software") else "GPU rendering"
        text = f"OpenGL: {data['renderer']} ({kind})"
    elif data.get("vulkan"):
        text = "Vulkan: " + ", ".join(str(d.get("device_name")) for d in data["vulkan"])
    else:
        mesa = (data.get("mesa_package") or {}).get("upstream")
        text = (
            f"Mesa {mesa}" + (" with the d3d12 driver" if data.get("d3d12_driver") else "")
            if mesa
            else "Mesa"
        ) + f"; no renderer read ({data.get('glxinfo')})"
        return text + (
            ", forced to software by " + ", ".join(data["forces_software"])
            if data.get("forces_software")
            else ""
        )
    mesa = (data.get("mesa_package") or {}).get("upstream") or data.get("mesa_version")
    if mesa:
        text += f", Mesa {mesa}"
    if data.get("forces_software"):
        text += ", forced to software by " + ", ".join(data["forces_software"])
    return text
