"""NVIDIA Jetson: the L4T (Jetson Linux) release, the board, and where GPU load can be read.

Fills `platform.jetson` (absent on anything that is not a Jetson) with the facts of
/etc/nv_tegra_release (see envdoctor/ingest/tegra_release.py: l4t_version "36.4.3", l4t_major,
board, kernel_variant, ...), or, without that file, the L4T version from the `nvidia-l4t-core`
package (its version is "36.4.3-20250107174145") or `$JETSON_L4T`; `l4t_source` says which.
Also: `nvidia_l4t_core` and `nvidia_jetpack` (the installed package versions; the `nvidia-jetpack`
meta-package is what `apt show nvidia-jetpack` reports), `jetson_jetpack_env` ($JETSON_JETPACK),
`model` (/proc/device-tree/model), `compatible` (/proc/device-tree/compatible entries such as
"nvidia,tegra234"), `soc` ("tegra234"), `tegrastats` and `jtop` (paths, or None: Jetson has no
full NVML, these read GPU load), `gpu_load_percent` (the iGPU's sysfs load, per-mille / 10) and
`gpu_load_path`, `cuda_version_json` (/usr/local/cuda/version.json's cuda version, if present).
"""

from __future__ import annotations

import json
import re
from typing import Any

from envdoctor.ingest.tegra_release import parse as parse_release
from envdoctor.model.snapshot import FactGroup, absent, collected
from envdoctor.probes.context import ProbeContext
from envdoctor.probes.platform_packages import installed_dpkg

GROUPS = ("platform.jetson",)
TIMEOUT_S = 5.0
SOURCE = "probe:platform_jetson"
LOAD_FILES = (
    "/sys/devices/platform/gpu.0/load",
    "/sys/devices/platform/bus@0/17000000.gpu/load",
    "/sys/devices/gpu.0/load",
    "/sys/devices/platform/17000000.ga10b/load",
    "/sys/devices/platform/17000000.gv11b/load",
)


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Describe the Jetson, or say this is not one."""
    release_text = ctx.read_text("/etc/nv_tegra_release")
    facts = parse_release(release_text) if release_text else None
    packages = installed_dpkg(ctx)
    core = packages.get("nvidia-l4t-core")
    compatible = _strings(ctx.read_text("/proc/device-tree/compatible"))
    if facts is None:
        l4t = l4t_from_package(core) or _env_l4t(ctx.env.get("JETSON_L4T"))
        if l4t is None:
            if any(c.startswith("nvidia,tegra") for c in compatible):
                facts = {"l4t_version": None, "l4t_major": None, "l4t_source": "device-tree"}
            else:
                return [
                    absent(
                        "platform.jetson",
                        SOURCE,
                        "not a Jetson: no /etc/nv_tegra_release, no "
                        "nvidia-l4t-core package, no Tegra device tree",
                    )
                ]
        else:
            facts = {
                "l4t_version": l4t,
                "l4t_major": int(l4t.split(".")[0]),
                "l4t_source": "nvidia-l4t-core" if l4t_from_package(core) else "JETSON_L4T",
            }
    model = " ".join(_strings(ctx.read_text("/proc/device-tree/model"))) or None
    soc = next((c.split(",", 1)[1] for c in compatible if c.startswith("nvidia,tegra")), None)
    load, load_path = _gpu_load(ctx)
    data: dict[str, Any] = {
        **facts,
        "nvidia_l4t_core": core,
        "nvidia_jetpack": packages.get("nvidia-jetpack"),
        "jetson_jetpack_env": ctx.env.get("JETSON_JETPACK") or None,
        "model": model,
        "compatible": compatible,
        "soc": soc,
        "tegrastats": ctx.which("tegrastats")
        or ("/usr/bin/tegrastats" if ctx.exists("/usr/bin/tegrastats") else None),
        "jtop": ctx.which("jtop"),
        "gpu_load_percent": load,
        "gpu_load_path": load_path,
        "cuda_version_json": _cuda_json(ctx),
    }
    text = f"Jetson{' ' + model if model else ''}, L4T {data.get('l4t_version') or 'unknown'}"
    return [collected("platform.jetson", SOURCE, data, summary=text)]


def l4t_from_package(version: str | None) -> str | None:
    """The L4T release of an nvidia-l4t-core version: "36.4.3-20250107174145" -> "36.4.3"."""
    if not version:
        return None
    match = re.match(r"^(\d+\.\d+(?:\.\d+)?)", version)
    return match.group(1) if match else None


def _env_l4t(value: str | None) -> str | None:
    match = re.match(r"^\s*R?(\d+\.\d+(?:\.\d+)?)\s*$", value or "")
    return match.group(1) if match else None


def _strings(text: str | None) -> list[str]:
    """Device-tree string lists are NUL-separated."""
    if not text:
        return []
    return [s.strip() for s in text.replace("\x00", "\n").splitlines() if s.strip()]


def _gpu_load(ctx: ProbeContext) -> tuple[float | None, str | None]:
    for path in LOAD_FILES:
        text = (ctx.read_text(path) or "").strip()
        if text.isdigit():
            return int(text) / 10.0, path
    return None, None


def _cuda_json(ctx: ProbeContext) -> str | None:
    text = ctx.read_text("/usr/local/cuda/version.json", max_bytes=65536)
    if not text:
        return None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError:
        return None
    cuda = doc.get("cuda") if isinstance(doc, dict) else None
    return str(cuda.get("version")) if isinstance(cuda, dict) and cuda.get("version") else None
