"""NVIDIA driver and GPUs: NVML first, then `nvidia-smi -q -x`, then the kernel module's files.

Fills `nvidia.driver` and `nvidia.gpus` (shapes in `envdoctor.model.nvidia_records`). The group's
`source` names the source that answered ("nvml", "nvidia-smi", "procfs"); `sources` in the data
lists every one that contributed. With no driver at all both groups are absent with the reason;
a source that hung (NVML or nvidia-smi past its deadline) makes them failed, never a long wait:
NVML gets NVML_TIMEOUT_S and nvidia-smi SMI_TIMEOUT_S, and nvidia-smi is skipped when NVML hung.
"""

from __future__ import annotations

import sys
from typing import Any

from envdoctor.model import nvidia_records as rec
from envdoctor.model.snapshot import FactGroup, absent, collected, failed
from envdoctor.probes import nvidia_kernel, nvidia_nvml, nvidia_procfs, nvidia_smi
from envdoctor.probes.context import ProbeContext

GROUPS = ("nvidia.driver", "nvidia.gpus")
TIMEOUT_S = 15.0
NVML_TIMEOUT_S = 5.0
SMI_TIMEOUT_S = 5.0


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Driver and GPU facts of the target system (NVML only on the live root)."""
    return gather(ctx, use_nvml=str(ctx.root) == "/")


def gather(
    ctx: ProbeContext,
    use_nvml: bool,
    nvml_timeout_s: float = NVML_TIMEOUT_S,
    smi_timeout_s: float = SMI_TIMEOUT_S,
) -> list[FactGroup]:
    """The two groups, from the sources in order; tests call this with `use_nvml` on a fake root."""
    procfs = nvidia_procfs.read(ctx)
    libraries = nvidia_kernel.find_libraries(ctx)
    found = bool(
        libraries.get("libnvidia-ml")
    )  # libnvidia-ml.so.1 in the loader cache or a driver folder
    nvml = (
        nvidia_nvml.query(nvml_timeout_s, library_found=found)
        if use_nvml
        else nvidia_nvml.NvmlResult(unavailable="NVML is only asked on the live system")
    )
    driver = rec.new_driver()
    gpus: list[dict[str, Any]] = []
    source = None
    smi: nvidia_smi.SmiResult | None = None
    raw: dict[str, str] = dict(procfs.raw)
    if nvml.ok:
        driver.update(nvml.driver or {})
        gpus, source = nvml.gpus, "nvml"
    else:
        driver["nvml_error"] = nvml.error
        if not nvml.timed_out:
            smi = nvidia_smi.query(ctx, smi_timeout_s)
            if smi.raw:
                raw["nvidia-smi -q -x"] = smi.raw[:200000]
            if smi.driver is not None:
                rec.fill_driver(driver, smi.driver)
                if smi.ok:
                    gpus, source = smi.gpus, "nvidia-smi"
            if smi.failure and not smi.missing:
                driver["smi_error"] = driver.get("smi_error") or smi.failure
    _add_procfs(driver, procfs)
    if not gpus and procfs.gpus:
        gpus = procfs.gpus
        source = source or "procfs"
    if procfs.module_loaded:
        source = source or "procfs"
        driver["sources"] = _union(driver.get("sources"), ["procfs"])
    if driver["library_version"] is None:
        versions = [
            lib["version"] for lib in libraries.get("libnvidia-ml", []) if lib.get("version")
        ]
        driver["library_version"] = versions[0] if versions else None
    driver["platform"] = _platform(ctx) or driver.get("platform")
    driver_group = _driver_group(driver, source, nvml, smi, procfs, libraries, raw)
    return [driver_group, _gpus_group(ctx, gpus, driver, source, nvml, smi, driver_group)]


def _union(a: list[str] | None, b: list[str]) -> list[str]:
    out = list(a or [])
    out.extend(x for x in b if x not in out)
    return out


def _add_procfs(driver: rec.NvidiaDriver, procfs: nvidia_procfs.ProcfsResult) -> None:
    if procfs.version:
        driver["module_version"] = procfs.version["module_version"]
        driver["kernel_module"] = procfs.version["kernel_module"]
        if procfs.version.get("jetson_l4t"):
            driver["jetson_l4t"] = procfs.version["jetson_l4t"]
        elif driver["driver_version"] is None:
            driver["driver_version"] = procfs.version["module_version"]
    elif procfs.sys_module_version:
        driver["module_version"] = procfs.sys_module_version
        if driver["driver_version"] is None:
            driver["driver_version"] = procfs.sys_module_version
    if procfs.module_loaded and driver.get("driver_loaded") is not False:
        driver["driver_loaded"] = True
    if procfs.errors:
        driver["procfs_errors"] = list(procfs.errors)


def _platform(ctx: ProbeContext) -> str | None:
    if str(ctx.root) == "/" and sys.platform == "win32":
        return "windows"
    version = (ctx.read_text("/proc/version", 65536) or "").lower()
    if "microsoft" in version or ctx.is_dir("/usr/lib/wsl/lib"):
        return "wsl"
    if version or ctx.exists("/proc/driver") or ctx.exists("/sys/bus"):
        return "linux"
    return None


def _driver_group(
    driver: rec.NvidiaDriver,
    source: str | None,
    nvml: nvidia_nvml.NvmlResult,
    smi: nvidia_smi.SmiResult | None,
    procfs: nvidia_procfs.ProcfsResult,
    libraries: dict[str, list[dict[str, Any]]],
    raw: dict[str, str],
) -> FactGroup:
    known = nvml.ok or (smi is not None and smi.driver is not None) or procfs.module_loaded
    nvml_says = nvml.error["code"] if nvml.error else None
    if not known and nvml_says not in (None, rec.NVML_LIBRARY_NOT_FOUND):
        known = True  # NVML loaded its library and named a cause (driver not loaded, mismatch...)
        if nvml_says == rec.NVML_DRIVER_NOT_LOADED:
            driver["driver_loaded"] = False
    if known:
        return collected(
            "nvidia.driver",
            source or "nvml",
            dict(driver),
            summary=rec.driver_summary(driver),
            raw=raw,
        )
    hung = nvml.timed_out or (smi is not None and smi.timed_out)
    if hung:
        reason = (
            str(nvml.error["message"] if nvml.error else "")
            if nvml.timed_out
            else f"{smi.failure if smi is not None else ''}"
        )
        return failed(
            "nvidia.driver",
            "nvidia-smi" if smi else "nvml",
            f"{reason}; the driver may be hung",
            data=driver,
            raw=raw,
        )
    reasons = []
    if nvml.unavailable:
        reasons.append(nvml.unavailable)
    elif nvml.error:
        reasons.append(f"NVML: {nvml.error['message']}")
    if smi is not None and smi.missing:
        reasons.append("nvidia-smi not found")
    elif smi is not None and smi.failure:
        reasons.append(f"nvidia-smi: {smi.failure}")
    reasons.append("; ".join(procfs.errors) if procfs.errors else "no /proc/driver/nvidia")
    if not any(libraries.values()):
        reasons.append("no libnvidia-ml or libcuda on the system")
    return absent("nvidia.driver", "nvml", "no NVIDIA driver: " + ", ".join(reasons), data=driver)


def _gpus_group(
    ctx: ProbeContext,
    gpus: list[dict[str, Any]],
    driver: rec.NvidiaDriver,
    source: str | None,
    nvml: nvidia_nvml.NvmlResult,
    smi: nvidia_smi.SmiResult | None,
    driver_group: FactGroup,
) -> FactGroup:
    env = {
        key: ctx.env.get(key)
        for key in ("CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER")
    }
    if gpus:
        return collected(
            "nvidia.gpus",
            source or "nvml",
            {"gpus": gpus, "env": env},
            summary=rec.gpu_summary(gpus),
        )
    if not driver_group.collected:
        return FactGroup(
            "nvidia.gpus",
            driver_group.status,
            driver_group.source,
            reason=f"no GPU facts without a driver ({driver_group.reason})",
        )
    if driver.get("gpu_count") == 0:
        return absent("nvidia.gpus", source or "nvml", "the NVIDIA driver reports no GPU")
    if driver.get("driver_loaded") is False:
        return absent("nvidia.gpus", source or "nvml", "the NVIDIA kernel module is not loaded")
    if nvml.timed_out:
        return failed("nvidia.gpus", "nvml", f"{nvml.error['message']}; the driver may be hung")  # type: ignore[index]
    if smi is not None and smi.timed_out:
        return failed("nvidia.gpus", "nvidia-smi", f"{smi.failure}; the driver may be hung")
    count_error = (driver.get("errors") or {}).get("gpu_count")
    why = (
        (nvml.error["message"] if nvml.error else None)
        or (f"NVML could not count them: {count_error}" if count_error else None)
        or (smi.failure if smi else None)
        or "no source listed a GPU"
    )
    return failed("nvidia.gpus", source or "nvml", f"GPUs could not be listed: {why}")
