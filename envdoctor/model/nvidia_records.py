"""The shapes of the NVIDIA fact groups, shared by the live probes and the pasted-text readers.

Every source (NVML, `nvidia-smi -q -x`, the `nvidia-smi` table, `/proc/driver/nvidia`) fills the same
records, so checks never know where a fact came from. Unknown values are None, never guessed.

`nvidia.driver` data: driver_version ("550.54.14"), cuda_driver_max ("12.4", the newest CUDA the
driver supports: nvidia-smi's "CUDA Version", NVML's cudaDriverVersion), kernel_module ("open" |
"proprietary" | None), module_version (the loaded kernel module), library_version (user-space
libnvidia-ml), platform ("linux" | "windows" | "wsl" | None), gpu_count (GPUs the driver reports),
driver_loaded (True when the driver answered, False when a source says it is not loaded), smi_version (the nvidia-smi tool's own version, which differs from the driver on WSL2), nvml_error
({code, name, message} when NVML failed to start), smi_error (nvidia-smi's failure text), sources.

`nvidia.gpus` data: `gpus`, a list of records made by `new_gpu` (see its docstring for units).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, TypedDict, cast

# NVML return codes that matter to the checks (nvml.h; the same numbers as pynvml.NVML_ERROR_*).
NVML_ERROR_NAMES = {
    1: "UNINITIALIZED",
    2: "INVALID_ARGUMENT",
    3: "NOT_SUPPORTED",
    4: "NO_PERMISSION",
    6: "NOT_FOUND",
    9: "DRIVER_NOT_LOADED",
    10: "TIMEOUT",
    12: "LIBRARY_NOT_FOUND",
    13: "FUNCTION_NOT_FOUND",
    14: "CORRUPTED_INFOROM",
    15: "GPU_IS_LOST",
    16: "RESET_REQUIRED",
    17: "OPERATING_SYSTEM",
    18: "LIB_RM_VERSION_MISMATCH",
    20: "MEMORY",
    999: "UNKNOWN",
}
NVML_DRIVER_NOT_LOADED = 9
NVML_LIBRARY_NOT_FOUND = 12
NVML_GPU_IS_LOST = 15
NVML_LIB_RM_VERSION_MISMATCH = 18

# Clock event ("throttle") reasons: NVML bit -> the name used in `throttle_reasons`.
THROTTLE_BITS = {
    0x1: "gpu_idle",
    0x2: "applications_clocks_setting",
    0x4: "sw_power_cap",
    0x8: "hw_slowdown",
    0x10: "sync_boost",
    0x20: "sw_thermal_slowdown",
    0x40: "hw_thermal_slowdown",
    0x80: "hw_power_brake_slowdown",
    0x100: "display_clocks_setting",
}

VIRTUALIZATION_MODES = {0: "none", 1: "pass-through", 2: "vgpu", 3: "host-vgpu", 4: "host-vsga"}

_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?")
_NOT_A_VALUE = {
    "",
    "n/a",
    "[n/a]",
    "not found",
    "err!",
    "[unknown error]",
    "unknown error",
    "not supported",
    "[not supported]",
    "requested functionality has been deprecated",
    "insufficient permissions",
    "[insufficient permissions]",
    "gpu is lost",
    "[gpu is lost]",
}


def new_gpu(index: int | None) -> dict[str, Any]:
    """An empty GPU record with every key of the contract set to None.

    Units: memory in MiB, temperature in °C, power in W, utilisation in percent. mig_mode is
    "enabled" | "disabled"; persistence_mode / display_mode are booleans; virtualization_mode one of
    none / pass-through / vgpu / host-vgpu / host-vsga; pci_bus_id is lower case with a 4-digit
    domain ("0000:01:00.0"); throttle_reasons is the list of active reason names (THROTTLE_BITS).
    `errors` maps a field to why its value is missing ("Not Supported"), `mig_devices` lists MIG
    instances ({index, gpu_instance_id, compute_instance_id, uuid, profile, memory_total_mib}).
    """
    return {
        "index": index,
        "name": None,
        "pci_bus_id": None,
        "uuid": None,
        "serial": None,
        "compute_capability": None,
        "compute_capability_source": None,
        "memory_total_mib": None,
        "memory_used_mib": None,
        "mig_mode": None,
        "mig_mode_pending": None,
        "mig_devices": [],
        "virtualization_mode": None,
        "pcie": {
            "gen_current": None,
            "gen_max": None,
            "width_current": None,
            "width_max": None,
            "replay_counter": None,
        },
        "ecc": {
            "mode": None,
            "mode_pending": None,
            "volatile_uncorrected": None,
            "aggregate_uncorrected": None,
            "volatile_corrected": None,
            "aggregate_corrected": None,
            "sram_threshold_exceeded": None,
        },
        "remapped_rows": {
            "correctable": None,
            "uncorrectable": None,
            "pending": None,
            "failure": None,
        },
        "retired_pages": {"single_bit": None, "double_bit": None, "pending": None},
        "throttle_reasons": None,
        "temperature_c": None,
        "power_draw_w": None,
        "power_limit_w": None,
        "utilization_gpu_pct": None,
        "persistence_mode": None,
        "display_mode": None,
        "driver_model": None,
        "performance_state": None,
        "architecture": None,
        "device_id": None,
        "process_count": None,
        "lost": None,
        "errors": {},
    }


class NvmlError(TypedDict):
    """Why NVML could not start: its return code (NVML_*, None when the library did not load),
    the code's name, and NVML's message."""

    code: int | None
    name: str
    message: str


class NvidiaDriver(TypedDict, total=False):
    """The `nvidia.driver` record (the module docstring says what each key holds; `new_driver`
    sets the first twelve). Sources add: nvml_version (NVML's own version string), errors ({field:
    why it is missing}), cuda_version_printed (the CUDA nvidia-smi printed, as printed),
    jetson_l4t (the L4T release of a Jetson's /proc/driver/nvidia/version)."""

    driver_version: str | None
    cuda_driver_max: str | None
    kernel_module: str | None
    module_version: str | None
    library_version: str | None
    platform: str | None
    gpu_count: int | None
    smi_version: str | None
    driver_loaded: bool | None
    nvml_error: NvmlError | None
    smi_error: str | None
    sources: list[str]
    nvml_version: str | None
    errors: dict[str, str]
    cuda_version_printed: str | None
    jetson_l4t: str | None
    procfs_errors: list[str]


def new_driver() -> NvidiaDriver:
    """An empty `nvidia.driver` record (see the module docstring for the keys)."""
    return {
        "driver_version": None,
        "cuda_driver_max": None,
        "kernel_module": None,
        "module_version": None,
        "library_version": None,
        "platform": None,
        "gpu_count": None,
        "smi_version": None,
        "driver_loaded": None,
        "nvml_error": None,
        "smi_error": None,
        "sources": [],
    }


def fill_driver(target: NvidiaDriver, source: NvidiaDriver) -> None:
    """Fill what `target` lacks (None, [], {}) from `source`: several sources, one record."""
    merged = cast(dict[str, Any], target)  # key by key: the keys are the record's own
    for key, value in source.items():
        if merged.get(key) in (None, [], {}) and value not in (None, [], {}):
            merged[key] = value


def is_value(text: str | None) -> bool:
    """Whether a printed field holds a value (not "N/A", "ERR!", "[Not Supported]"...)."""
    return text is not None and str(text).strip().lower() not in _NOT_A_VALUE


def clean(text: str | None) -> str | None:
    """The stripped text, or None when it is a placeholder such as "N/A"."""
    return str(text).strip() if is_value(text) else None


def number(text: str | None) -> float | None:
    """The first number in "67.03 W", "27 C", "65 %"; None for placeholders."""
    if not is_value(text):
        return None
    match = _NUMBER.search(str(text))
    return float(match.group(0)) if match else None


def integer(text: str | None) -> int | None:
    """The first number as an int ("81920 MiB" -> 81920, "16x" -> 16)."""
    value = number(text)
    return None if value is None else int(value)


def yes_no(text: str | None) -> bool | None:
    """ "Yes"/"Enabled"/"On"/"Active" -> True, "No"/"Disabled"/"Off"/"Not Active" -> False."""
    value = clean(text)
    if value is None:
        return None
    lowered = value.lower()
    if lowered in {"yes", "enabled", "on", "active", "true", "1"}:
        return True
    if lowered in {"no", "disabled", "off", "not active", "false", "0"}:
        return False
    return None


def enabled_state(text: str | None) -> str | None:
    """ "Enabled"/"Disabled" (any case) -> "enabled"/"disabled", else None."""
    flag = yes_no(text)
    return None if flag is None else ("enabled" if flag else "disabled")


def bus_id(text: str | None) -> str | None:
    """A PCI address in one spelling: "00000000:01:00.0" / "0000:01:00.0" -> "0000:01:00.0".

    Kernel-log addresses without a function ("PCI:0000:01:00") keep that form ("0000:01:00").
    """
    value = clean(text)
    if value is None:
        return None
    value = value.strip().lower()
    if value.startswith("pci:"):
        value = value[4:]
    match = re.fullmatch(r"(?:([0-9a-f]{4,8}):)?([0-9a-f]{2}):([0-9a-f]{2})(?:\.([0-7]))?", value)
    if not match:
        return value
    domain = (match.group(1) or "0000")[-4:]
    address = f"{domain}:{match.group(2)}:{match.group(3)}"
    return f"{address}.{match.group(4)}" if match.group(4) is not None else address


def same_device(a: str | None, b: str | None) -> bool:
    """Whether two PCI addresses name the same device (a function-less address matches all functions)."""
    if not a or not b:
        return False
    a, b = bus_id(a) or a, bus_id(b) or b
    return a == b or a.startswith(b + ".") or b.startswith(a + ".")


def cuda_from_int(value: int | None) -> str | None:
    """NVML/CUDA's 1000*major + 10*minor encoding -> "major.minor" (12040 -> "12.4"); 0 -> None."""
    if not isinstance(value, int) or value <= 0:
        return None
    return f"{value // 1000}.{(value % 1000) // 10}"


def cudnn_release(version: str) -> str:
    """A cuDNN version as a release: TensorFlow 1.x and PyTorch print cuDNN's version code ("Loaded
    runtime CuDNN library: 6021 ... compiled with 5105", "PyTorch was compiled against 7102"; newer
    PyTorch prints "(8, 9, 2)"). CUDNN_VERSION = major*1000 + minor*100 + patch before cuDNN 9
    (6021 = 6.0.21) and major*10000 + minor*100 + patch from 9 on (90100 = 9.1.0)."""
    parts = re.fullmatch(r"(\d+), ?(\d+), ?(\d+)", version)
    if parts:
        return ".".join(parts.groups())
    if re.fullmatch(r"[3-8]\d{3}", version):  # 4007 = 4.0.7 (TensorFlow 0.x)
        return f"{version[0]}.{version[1]}.{int(version[2:])}"
    if re.fullmatch(r"9\d{4}", version):
        return f"9.{int(version[1:3])}.{int(version[3:])}"
    return version


def library_from_nvml_version(text: str | None) -> str | None:
    """The driver version inside NVML's version string ("12.550.54.14" -> "550.54.14")."""
    value = clean(text)
    if value is None:
        return None
    parts = value.split(".")
    if len(parts) >= 3 and parts[0].isdigit() and int(parts[0]) < 100:
        return ".".join(parts[1:])
    return value


def version_from_library_name(path: str) -> str | None:
    """The version in a driver library's file name ("libnvidia-ml.so.550.54.14" -> "550.54.14").

    Names such as "libcuda.so.1" (an ABI number, not a version) give None.
    """
    match = re.search(r"\.so\.(\d+(?:\.\d+)+)$", path)
    return match.group(1) if match else None


def gpu_summary(gpus: list[dict[str, Any]]) -> str:
    """ "2 × NVIDIA GeForce RTX 3090 (24576 MiB)" style one-liner for people."""
    if not gpus:
        return "no GPU"
    names: dict[str, int] = {}
    for gpu in gpus:
        label = gpu.get("name") or "unknown GPU"
        if gpu.get("memory_total_mib"):
            label += f" ({gpu['memory_total_mib']} MiB)"
        names[label] = names.get(label, 0) + 1
    return ", ".join(f"{n} × {label}" if n > 1 else label for label, n in names.items())


def driver_summary(driver: Mapping[str, Any]) -> str:
    """ "driver 550.54.14, supports CUDA ≤ 12.4, open kernel module" style one-liner (the CUDA is
    the newest the driver supports, `cuda_driver_max`, not an installed toolkit)."""
    parts = []
    if driver.get("driver_version"):
        parts.append(f"driver {driver['driver_version']}")
    elif driver.get("module_version"):
        parts.append(f"kernel module {driver['module_version']}")
    if driver.get("cuda_driver_max"):
        parts.append(f"supports CUDA ≤ {driver['cuda_driver_max']}")
    if driver.get("kernel_module"):
        parts.append(f"{driver['kernel_module']} kernel module")
    if driver.get("nvml_error"):
        parts.append(f"NVML: {driver['nvml_error'].get('message')}")
    elif driver.get("smi_error"):
        parts.append(f"nvidia-smi: {driver['smi_error']}")
    return ", ".join(parts) or "driver facts incomplete"
