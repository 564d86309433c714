"""NVML through the real `pynvml` binding (nvidia-ml-py): the first source of driver and GPU facts.

Not a probe of its own: `envdoctor.probes.nvidia_gpu` calls `query`. pynvml is imported lazily; a
missing binding, a missing libnvidia-ml or a failing nvmlInit becomes a result with the reason, and
one failing NVML call only leaves its own field None (the reason goes to the GPU's `errors`). NVML
runs on a daemon thread with a deadline, because a hung driver can block it for minutes.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from envdoctor.model import nvidia_records as rec

_MIB = 1024 * 1024
LINUX_LIBRARY = "libnvidia-ml.so.1"  # what pynvml dlopens on Linux


@dataclass
class NvmlResult:
    """What NVML said. `driver` is None when NVML did not start (see `error` / `unavailable`)."""

    driver: rec.NvidiaDriver | None = None
    gpus: list[dict[str, Any]] = field(default_factory=list)
    error: rec.NvmlError | None = None  # of a failed nvmlInit
    unavailable: str | None = None  # the binding itself is missing
    timed_out: bool = False
    timeout_s: float = 0.0

    @property
    def ok(self) -> bool:
        """True when NVML started and answered."""
        return self.driver is not None


def query(timeout_s: float, library_found: bool | None = None) -> NvmlResult:
    """Ask NVML for the driver and every GPU, giving up after `timeout_s` seconds.

    `library_found=False` says the library search (the loader cache and the driver's folders)
    found no libnvidia-ml.so.1: with LD_LIBRARY_PATH unset, where else the loader looks, the
    library cannot load, and neither the binding nor ctypes is imported to be told so."""
    if (
        library_found is False
        and "pynvml" not in sys.modules
        and not os.environ.get("LD_LIBRARY_PATH")
    ):
        return NvmlResult(error=_not_found("NVML Shared Library Not Found"))
    box: dict[str, NvmlResult] = {}

    def work() -> None:
        try:
            box["result"] = _query()
        except Exception as exc:  # noqa: BLE001 - the binding must never crash a probe
            box["result"] = NvmlResult(
                error={"code": None, "name": type(exc).__name__, "message": str(exc)[:200]}
            )

    thread = threading.Thread(target=work, name="nvml-query", daemon=True)
    thread.start()
    thread.join(timeout_s)
    if thread.is_alive() or "result" not in box:
        return NvmlResult(
            timed_out=True,
            timeout_s=timeout_s,
            error={
                "code": None,
                "name": "TIMEOUT",
                "message": f"NVML did not answer within {timeout_s:g} s",
            },
        )
    return box["result"]


def error_record(nv: Any, exc: BaseException) -> rec.NvmlError:
    """{code, name, message} for an NVMLError (or any exception the binding raised)."""
    code = getattr(exc, "value", None)
    try:
        message = str(exc)
    except Exception:  # noqa: BLE001 - str() of an NVMLError may call into the library
        message = f"NVML error {code}"
    if not isinstance(code, int):
        return {"code": None, "name": type(exc).__name__, "message": message[:200]}
    return {
        "code": code,
        "name": rec.NVML_ERROR_NAMES.get(code, str(code)),
        "message": message[:200],
    }


def library_missing() -> str | None:
    """Why libnvidia-ml cannot load (None when it can, or when this cannot tell), found the way
    the binding loads it (`dlopen("libnvidia-ml.so.1")` on Linux) before paying for the binding's
    import (about a third of a preflight's time on a machine without a driver). Once the binding
    is imported anyway, the binding decides."""
    if "pynvml" in sys.modules or not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        ctypes.CDLL(LINUX_LIBRARY)
    except OSError:
        return "NVML Shared Library Not Found"  # the binding's words for the same failure
    return None


def _not_found(message: str) -> rec.NvmlError:
    return {"code": rec.NVML_LIBRARY_NOT_FOUND, "name": "LIBRARY_NOT_FOUND", "message": message}


def _query() -> NvmlResult:
    missing = library_missing()
    if missing is not None:
        return NvmlResult(error=_not_found(missing))
    try:
        import pynvml as nv
    except ImportError:
        return NvmlResult(unavailable="the NVML binding (nvidia-ml-py) is not installed")
    try:
        nv.nvmlInit()
    except nv.NVMLError as exc:
        return NvmlResult(error=error_record(nv, exc))
    except OSError as exc:
        return NvmlResult(error={"code": None, "name": "OSError", "message": str(exc)[:200]})
    try:
        return NvmlResult(driver=_driver(nv), gpus=_gpus(nv))
    finally:
        with contextlib.suppress(Exception):  # a failed shutdown changes nothing collected
            nv.nvmlShutdown()


class _Fields:
    """Calls NVML for one record; a failing call leaves its field None and notes why."""

    def __init__(self, nv: Any, errors: dict[str, str]) -> None:
        self.nv = nv
        self.errors = errors
        self.lost = False

    def get(self, name: str, function: Callable[..., Any], *args: Any) -> Any:
        try:
            return function(*args)
        except self.nv.NVMLError as exc:
            self.errors[name] = error_record(self.nv, exc)["message"]
            if getattr(exc, "value", None) == rec.NVML_GPU_IS_LOST:
                self.lost = True
            return None
        except Exception as exc:  # noqa: BLE001 - e.g. a function missing from an old library
            self.errors[name] = f"{type(exc).__name__}: {exc}"[:200]
            return None


def _text(value: Any) -> str | None:
    if isinstance(value, bytes):
        value = value.decode("utf-8", errors="replace")
    return rec.clean(value) if value is not None else None


def _driver(nv: Any) -> rec.NvidiaDriver:
    errors: dict[str, str] = {}
    calls = _Fields(nv, errors)
    driver = rec.new_driver()
    driver["driver_version"] = _text(calls.get("driver_version", nv.nvmlSystemGetDriverVersion))
    cuda = calls.get(
        "cuda_driver_max",
        getattr(nv, "nvmlSystemGetCudaDriverVersion_v2", nv.nvmlSystemGetCudaDriverVersion),
    )
    driver["cuda_driver_max"] = rec.cuda_from_int(cuda)
    nvml_version = _text(calls.get("nvml_version", nv.nvmlSystemGetNVMLVersion))
    driver["nvml_version"] = nvml_version
    driver["library_version"] = rec.library_from_nvml_version(nvml_version)
    driver["gpu_count"] = calls.get("gpu_count", nv.nvmlDeviceGetCount)
    driver["driver_loaded"] = True
    driver["errors"] = errors
    driver["sources"] = ["nvml"]
    return driver


def _gpus(nv: Any) -> list[dict[str, Any]]:
    try:
        count = int(nv.nvmlDeviceGetCount())
    except nv.NVMLError:
        return []
    return [_gpu(nv, index) for index in range(count)]


def _gpu(nv: Any, index: int) -> dict[str, Any]:
    gpu = rec.new_gpu(index)
    calls = _Fields(nv, gpu["errors"])
    handle = calls.get("handle", nv.nvmlDeviceGetHandleByIndex, index)
    if handle is None:
        gpu["lost"] = calls.lost or None
        return gpu
    gpu["name"] = _text(calls.get("name", nv.nvmlDeviceGetName, handle))
    pci = calls.get("pci_bus_id", nv.nvmlDeviceGetPciInfo, handle)
    if pci is not None:
        gpu["pci_bus_id"] = rec.bus_id(_text(getattr(pci, "busId", None)))
        device = getattr(pci, "pciDeviceId", None)
        if isinstance(device, int) and device & 0xFFFF == 0x10DE:
            gpu["device_id"] = f"0x{device >> 16:04x}"
    gpu["uuid"] = _text(calls.get("uuid", nv.nvmlDeviceGetUUID, handle))
    gpu["serial"] = _text(calls.get("serial", nv.nvmlDeviceGetSerial, handle))
    cc = calls.get("compute_capability", nv.nvmlDeviceGetCudaComputeCapability, handle)
    if cc:
        gpu["compute_capability"] = f"{cc[0]}.{cc[1]}"
        gpu["compute_capability_source"] = "nvml"
    memory = calls.get("memory", nv.nvmlDeviceGetMemoryInfo, handle)
    if memory is not None:
        gpu["memory_total_mib"] = int(memory.total) // _MIB
        gpu["memory_used_mib"] = int(memory.used) // _MIB
    gpu["persistence_mode"] = _flag(
        calls.get("persistence_mode", nv.nvmlDeviceGetPersistenceMode, handle)
    )
    gpu["display_mode"] = _flag(calls.get("display_mode", nv.nvmlDeviceGetDisplayMode, handle))
    _mig(nv, calls, handle, gpu)
    mode = calls.get("virtualization_mode", nv.nvmlDeviceGetVirtualizationMode, handle)
    gpu["virtualization_mode"] = (
        rec.VIRTUALIZATION_MODES.get(mode) if isinstance(mode, int) else None
    )
    gpu["pcie"] = {
        "gen_current": calls.get(
            "pcie.gen_current", nv.nvmlDeviceGetCurrPcieLinkGeneration, handle
        ),
        "gen_max": calls.get("pcie.gen_max", nv.nvmlDeviceGetMaxPcieLinkGeneration, handle),
        "width_current": calls.get("pcie.width_current", nv.nvmlDeviceGetCurrPcieLinkWidth, handle),
        "width_max": calls.get("pcie.width_max", nv.nvmlDeviceGetMaxPcieLinkWidth, handle),
        "replay_counter": calls.get(
            "pcie.replay_counter", nv.nvmlDeviceGetPcieReplayCounter, handle
        ),
    }
    _ecc(nv, calls, handle, gpu)
    rows = calls.get("remapped_rows", nv.nvmlDeviceGetRemappedRows, handle)
    if rows is not None:
        gpu["remapped_rows"] = {
            "correctable": int(rows[0]),
            "uncorrectable": int(rows[1]),
            "pending": bool(rows[2]),
            "failure": bool(rows[3]),
        }
    _retired(nv, calls, handle, gpu)
    reasons_fn = (
        getattr(nv, "nvmlDeviceGetCurrentClocksEventReasons", None)
        or nv.nvmlDeviceGetCurrentClocksThrottleReasons
    )
    mask = calls.get("throttle_reasons", reasons_fn, handle)
    if isinstance(mask, int):
        gpu["throttle_reasons"] = [name for bit, name in rec.THROTTLE_BITS.items() if mask & bit]
    gpu["temperature_c"] = calls.get(
        "temperature_c", nv.nvmlDeviceGetTemperature, handle, nv.NVML_TEMPERATURE_GPU
    )
    power = calls.get("power_draw_w", nv.nvmlDeviceGetPowerUsage, handle)
    gpu["power_draw_w"] = round(power / 1000, 2) if isinstance(power, (int, float)) else None
    limit = calls.get("power_limit_w", nv.nvmlDeviceGetEnforcedPowerLimit, handle)
    gpu["power_limit_w"] = round(limit / 1000, 2) if isinstance(limit, (int, float)) else None
    utilization = calls.get("utilization_gpu_pct", nv.nvmlDeviceGetUtilizationRates, handle)
    gpu["utilization_gpu_pct"] = int(utilization.gpu) if utilization is not None else None
    gpu["lost"] = True if calls.lost else None
    return gpu


def _flag(value: Any) -> bool | None:
    return bool(value) if isinstance(value, int) else None


def _mig(nv: Any, calls: _Fields, handle: Any, gpu: dict[str, Any]) -> None:
    modes = calls.get("mig_mode", nv.nvmlDeviceGetMigMode, handle)
    if not modes:
        return
    gpu["mig_mode"] = "enabled" if modes[0] == nv.NVML_DEVICE_MIG_ENABLE else "disabled"
    gpu["mig_mode_pending"] = "enabled" if modes[1] == nv.NVML_DEVICE_MIG_ENABLE else "disabled"
    if gpu["mig_mode"] != "enabled":
        return
    count = calls.get("mig_devices", nv.nvmlDeviceGetMaxMigDeviceCount, handle) or 0
    for slot in range(int(count)):
        try:
            mig = nv.nvmlDeviceGetMigDeviceHandleByIndex(handle, slot)
        except nv.NVMLError:
            continue  # an empty slot answers NOT_FOUND
        inner = _Fields(nv, {})
        name = _text(inner.get("name", nv.nvmlDeviceGetName, mig))
        memory = inner.get("memory", nv.nvmlDeviceGetMemoryInfo, mig)
        gpu["mig_devices"].append(
            {
                "index": slot,
                "gpu_instance_id": inner.get("gi", nv.nvmlDeviceGetGpuInstanceId, mig),
                "compute_instance_id": inner.get("ci", nv.nvmlDeviceGetComputeInstanceId, mig),
                "uuid": _text(inner.get("uuid", nv.nvmlDeviceGetUUID, mig)),
                "profile": name.rsplit("MIG ", 1)[-1] if name and "MIG " in name else None,
                "memory_total_mib": int(memory.total) // _MIB if memory is not None else None,
            }
        )


def _ecc(nv: Any, calls: _Fields, handle: Any, gpu: dict[str, Any]) -> None:
    modes = calls.get("ecc.mode", nv.nvmlDeviceGetEccMode, handle)
    ecc = gpu["ecc"]
    if modes:
        ecc["mode"] = "enabled" if modes[0] else "disabled"
        ecc["mode_pending"] = "enabled" if modes[1] else "disabled"
    if ecc["mode"] != "enabled":
        return
    total = nv.nvmlDeviceGetTotalEccErrors
    unc, cor = nv.NVML_MEMORY_ERROR_TYPE_UNCORRECTED, nv.NVML_MEMORY_ERROR_TYPE_CORRECTED
    ecc["volatile_uncorrected"] = calls.get(
        "ecc.volatile_uncorrected", total, handle, unc, nv.NVML_VOLATILE_ECC
    )
    ecc["aggregate_uncorrected"] = calls.get(
        "ecc.aggregate_uncorrected", total, handle, unc, nv.NVML_AGGREGATE_ECC
    )
    ecc["volatile_corrected"] = calls.get(
        "ecc.volatile_corrected", total, handle, cor, nv.NVML_VOLATILE_ECC
    )
    ecc["aggregate_corrected"] = calls.get(
        "ecc.aggregate_corrected", total, handle, cor, nv.NVML_AGGREGATE_ECC
    )


def _retired(nv: Any, calls: _Fields, handle: Any, gpu: dict[str, Any]) -> None:
    pages = gpu["retired_pages"]
    single = calls.get(
        "retired_pages.single_bit",
        nv.nvmlDeviceGetRetiredPages,
        handle,
        nv.NVML_PAGE_RETIREMENT_CAUSE_MULTIPLE_SINGLE_BIT_ECC_ERRORS,
    )
    double = calls.get(
        "retired_pages.double_bit",
        nv.nvmlDeviceGetRetiredPages,
        handle,
        nv.NVML_PAGE_RETIREMENT_CAUSE_DOUBLE_BIT_ECC_ERROR,
    )
    pages["single_bit"] = len(single) if single is not None else None
    pages["double_bit"] = len(double) if double is not None else None
    pending = calls.get("retired_pages.pending", nv.nvmlDeviceGetRetiredPagesPendingStatus, handle)
    pages["pending"] = bool(pending) if isinstance(pending, int) else None
