"""Android / Termux: the device, its Adreno GPU's kernel device, and Mesa's Turnip Vulkan driver.

Fills `platform.android` (absent elsewhere) with what is there, nothing inferred:
- `termux` (TERMUX_VERSION or a com.termux $PREFIX), `termux_version`, `prefix`, `proot` (PROOT_*
  variables: a proot distribution inside Termux).
- `android_release`, `android_sdk`, `device_model`, `board_platform`, `soc_model`, `egl_hardware`
  (`ro.hardware.egl`, "adreno" on Qualcomm devices), `vulkan_hardware` (`ro.hardware.vulkan`), from
  `getprop` or /system/build.prop and /vendor/build.prop.
- `kgsl` (/dev/kgsl-3d0: Qualcomm's KGSL GPU device, what Turnip's kgsl backend opens),
  `kgsl_gpu_model` (/sys/class/kgsl/kgsl-3d0/gpu_model, "Adreno740v2"), `dri_render_nodes`.
- `turnip_icds` (freedreno_icd*.json Vulkan ICD manifests under $PREFIX/share/vulkan/icd.d or
  /usr/share/vulkan/icd.d), `libvulkan_freedreno` (the driver library), `packages` {name: version}
  of the Mesa / Vulkan / Ollama packages dpkg records under $PREFIX (Termux uses dpkg/apt).
- `vendor_opencl` (/vendor/lib64/libOpenCL.so: the vendor's OpenCL driver).
The Vulkan devices a loader sees are in `platform.graphics` (vulkaninfo).
"""

from __future__ import annotations

import re
from typing import Any

from envdoctor.model.snapshot import FactGroup, absent, collected
from envdoctor.probes.context import ProbeContext
from envdoctor.probes.platform_packages import installed_dpkg

GROUPS = ("platform.android",)
TIMEOUT_S = 6.0
SOURCE = "probe:platform_android"
TERMUX_PREFIX = "/data/data/com.termux/files/usr"
PROPS = {
    "android_release": "ro.build.version.release",
    "android_sdk": "ro.build.version.sdk",
    "device_model": "ro.product.model",
    "board_platform": "ro.board.platform",
    "soc_model": "ro.soc.model",
    "egl_hardware": "ro.hardware.egl",
    "vulkan_hardware": "ro.hardware.vulkan",
}
_PACKAGE = re.compile(
    r"^(?:mesa.*|vulkan.*|.*freedreno.*|ollama.*|llama-cpp.*|virglrenderer.*|opencl.*)$"
)


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Describe the Android device, or say this is not Android."""
    env = ctx.env
    prefix_env = env.get("PREFIX") or ""
    termux = bool(env.get("TERMUX_VERSION")) or "com.termux" in prefix_env
    android = (
        termux
        or bool(env.get("ANDROID_ROOT") or env.get("ANDROID_DATA"))
        or ctx.exists("/system/build.prop")
    )
    if not android:
        return [
            absent(
                "platform.android",
                SOURCE,
                "not Android (no ANDROID_ROOT, no Termux, no /system/build.prop)",
            )
        ]
    prefix = (
        prefix_env
        if "com.termux" in prefix_env
        else (TERMUX_PREFIX if ctx.is_dir(TERMUX_PREFIX) else None)
    )
    data: dict[str, Any] = {
        "termux": termux or prefix is not None,
        "termux_version": env.get("TERMUX_VERSION") or None,
        "prefix": prefix,
        "proot": any(k.startswith("PROOT_") for k in env),
    }
    data.update(_props(ctx))
    data["kgsl"] = ctx.exists("/dev/kgsl-3d0")
    data["kgsl_gpu_model"] = (
        ctx.read_text("/sys/class/kgsl/kgsl-3d0/gpu_model") or ""
    ).strip() or None
    data["dri_render_nodes"] = ctx.glob("/dev/dri/renderD*")
    icd_dirs = ([f"{prefix}/share/vulkan/icd.d"] if prefix else []) + ["/usr/share/vulkan/icd.d"]
    data["turnip_icds"] = [p for d in icd_dirs for p in ctx.glob(f"{d}/freedreno_icd*.json")]
    data["libvulkan_freedreno"] = any(
        ctx.exists(f"{p}/lib/libvulkan_freedreno.so") for p in ([prefix] if prefix else [])
    ) or bool(
        ctx.glob("/usr/lib/*/libvulkan_freedreno.so") or ctx.glob("/usr/lib/libvulkan_freedreno.so")
    )
    packages = installed_dpkg(ctx, prefix) if prefix else {}
    data["packages"] = {n: v for n, v in sorted(packages.items()) if _PACKAGE.match(n)}
    data["vendor_opencl"] = ctx.exists("/vendor/lib64/libOpenCL.so")
    return [collected("platform.android", SOURCE, data, summary=_summary(data))]


def parse_build_prop(text: str) -> dict[str, str]:
    """key=value lines of a build.prop file."""
    out = {}
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            key, _, value = line.partition("=")
            out[key.strip()] = value.strip()
    return out


def _props(ctx: ProbeContext) -> dict[str, Any]:
    props: dict[str, str] = {}
    for path in ("/system/build.prop", "/vendor/build.prop"):
        props.update(parse_build_prop(ctx.read_text(path, max_bytes=262144) or ""))
    getprop = ctx.which("getprop")
    out = {}
    for key, prop in PROPS.items():
        value = props.get(prop)
        if not value and getprop:
            run = ctx.run([getprop, prop], 2.0)
            value = run.stdout.strip() if run.ok else None
        out[key] = value or None
    return out


def _summary(data: dict[str, Any]) -> str:
    parts = [f"Android {data.get('android_release') or '?'}"]
    if data.get("device_model"):
        parts.append(str(data["device_model"]))
    if data.get("termux"):
        parts.append("Termux" + (" (proot)" if data.get("proot") else ""))
    if data.get("kgsl_gpu_model") or data.get("kgsl"):
        parts.append(f"GPU {data.get('kgsl_gpu_model') or 'KGSL device'}")
    if data.get("turnip_icds"):
        parts.append("Turnip Vulkan ICD installed")
    return ", ".join(parts)
