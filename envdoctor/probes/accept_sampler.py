"""NVML readings for `envdoctor accept` (AMD: `accept_sampler_amd`): what each GPU says it should do, and samples over time.

`describe(indices)` reads each GPU's own limits once (default and enforced power limit, maximum
SM and memory clocks, the PCIe link it and the slot can train to, the slowdown and shutdown
temperatures its VBIOS sets). `Sampler` reads temperature, power, clocks, clock-event (throttle)
reasons, the current PCIe link, utilisation, volatile uncorrected ECC errors and remapped rows
every `interval_s`, in a thread, until stopped. A value NVML does not support on a GPU is None.
Units are in the key names (°C, W, MHz); `t_s` is seconds since the sampler started.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from typing import Any

from envdoctor.model.nvidia_records import THROTTLE_BITS


def reason_names(mask: int | None) -> list[str]:
    """The names of the bits set in a clock-event reason mask."""
    if mask is None:
        return []
    return [name for bit, name in THROTTLE_BITS.items() if mask & bit]


def _read(call: Callable[..., Any], *args: Any) -> Any:
    """One NVML read, `call(*args)`; None when the GPU does not support it or NVML fails for it."""
    import pynvml

    try:
        return call(*args)
    except pynvml.NVMLError:
        return None


def _text(value: Any) -> str | None:
    return value.decode() if isinstance(value, bytes) else value


def init() -> str | None:
    """Initialise NVML; the error text when it cannot be (no driver, no library)."""
    import pynvml

    try:
        pynvml.nvmlInit()
    except pynvml.NVMLError as exc:
        return str(exc)
    except OSError as exc:  # the library failed to load
        return str(exc)
    return None


def shutdown() -> None:
    import pynvml

    with contextlib.suppress(pynvml.NVMLError):
        pynvml.nvmlShutdown()


def device_count() -> int:
    import pynvml

    return int(_read(pynvml.nvmlDeviceGetCount) or 0)


def describe(indices: list[int]) -> list[dict[str, Any]]:
    """Each GPU's identity and its own limits (NVML must be initialised)."""
    import pynvml

    out = []
    for index in indices:
        h = pynvml.nvmlDeviceGetHandleByIndex(index)
        memory = _read(pynvml.nvmlDeviceGetMemoryInfo, h)
        default_mw = _read(pynvml.nvmlDeviceGetPowerManagementDefaultLimit, h)
        enforced_mw = _read(pynvml.nvmlDeviceGetEnforcedPowerLimit, h)
        out.append(
            {
                "index": index,
                "name": _text(_read(pynvml.nvmlDeviceGetName, h)),
                "uuid": _text(_read(pynvml.nvmlDeviceGetUUID, h)),
                "serial": _text(_read(pynvml.nvmlDeviceGetSerial, h)),
                "memory_total_mib": memory.total // 2**20 if memory is not None else None,
                "power_default_limit_w": default_mw / 1000 if default_mw else None,
                "power_enforced_limit_w": enforced_mw / 1000 if enforced_mw else None,
                "sm_clock_max_mhz": _read(
                    pynvml.nvmlDeviceGetMaxClockInfo, h, pynvml.NVML_CLOCK_SM
                ),
                "mem_clock_max_mhz": _read(
                    pynvml.nvmlDeviceGetMaxClockInfo, h, pynvml.NVML_CLOCK_MEM
                ),
                # the link this GPU in this slot can train to, and the GPU's own maximum
                "pcie_gen_max": _read(pynvml.nvmlDeviceGetMaxPcieLinkGeneration, h),
                "pcie_width_max": _read(pynvml.nvmlDeviceGetMaxPcieLinkWidth, h),
                "pcie_gen_gpu_max": _read(pynvml.nvmlDeviceGetGpuMaxPcieLinkGeneration, h),
                "slowdown_temp_c": _read(
                    pynvml.nvmlDeviceGetTemperatureThreshold,
                    h,
                    pynvml.NVML_TEMPERATURE_THRESHOLD_SLOWDOWN,
                ),
                "shutdown_temp_c": _read(
                    pynvml.nvmlDeviceGetTemperatureThreshold,
                    h,
                    pynvml.NVML_TEMPERATURE_THRESHOLD_SHUTDOWN,
                ),
            }
        )
    return out


def sample(index: int) -> dict[str, Any]:
    """One reading of one GPU."""
    import pynvml

    h = pynvml.nvmlDeviceGetHandleByIndex(index)
    power_mw = _read(pynvml.nvmlDeviceGetPowerUsage, h)
    utilization = _read(pynvml.nvmlDeviceGetUtilizationRates, h)
    remapped = _read(pynvml.nvmlDeviceGetRemappedRows, h)
    reasons = _read(pynvml.nvmlDeviceGetCurrentClocksThrottleReasons, h)
    return {
        "index": index,
        "temp_c": _read(pynvml.nvmlDeviceGetTemperature, h, pynvml.NVML_TEMPERATURE_GPU),
        "power_w": round(power_mw / 1000, 1) if power_mw is not None else None,
        "sm_clock_mhz": _read(pynvml.nvmlDeviceGetClockInfo, h, pynvml.NVML_CLOCK_SM),
        "mem_clock_mhz": _read(pynvml.nvmlDeviceGetClockInfo, h, pynvml.NVML_CLOCK_MEM),
        "reasons": reason_names(reasons),
        "pcie_gen": _read(pynvml.nvmlDeviceGetCurrPcieLinkGeneration, h),
        "pcie_width": _read(pynvml.nvmlDeviceGetCurrPcieLinkWidth, h),
        "util_pct": utilization.gpu if utilization is not None else None,
        "ecc_uncorrected_volatile": _read(
            pynvml.nvmlDeviceGetTotalEccErrors,
            h,
            pynvml.NVML_MEMORY_ERROR_TYPE_UNCORRECTED,
            pynvml.NVML_VOLATILE_ECC,
        ),
        "remapped_rows_failure": bool(remapped[3]) if remapped is not None else None,
        "remapped_rows_pending": bool(remapped[2]) if remapped is not None else None,
    }


def read(indices: list[int]) -> list[dict[str, Any]]:
    """One reading of each GPU; an error entry for a GPU lost mid-run (a fact, not a crash)."""
    out = []
    for index in indices:
        try:
            out.append(sample(index))
        except Exception as exc:  # noqa: BLE001 - a GPU lost mid-run is a fact, not a crash
            out.append({"index": index, "error": f"{type(exc).__name__}: {exc}"})
    return out


class Nvml:
    """The NVIDIA sampling backend (the AMD one is `accept_sampler_amd.RocmSmi`)."""

    name = "nvml"

    def init(self) -> str | None:
        return init()

    def device_count(self) -> int:
        return device_count()

    def describe(self, indices: list[int]) -> list[dict[str, Any]]:
        return [{**gpu, "vendor": "nvidia"} for gpu in describe(indices)]

    def read(self, indices: list[int]) -> list[dict[str, Any]]:
        return read(indices)

    def shutdown(self) -> None:
        shutdown()


class Sampler:
    """Samples the GPUs in a daemon thread; `phase` (set by the caller) tags each sample.
    `read` takes the indices and returns one reading per GPU (a backend's `read`)."""

    def __init__(
        self,
        indices: list[int],
        interval_s: float = 1.0,
        read: Callable[[list[int]], list[dict[str, Any]]] = read,
    ) -> None:
        self.indices = indices
        self.interval_s = interval_s
        self.read = read
        self.samples: list[dict[str, Any]] = []
        self.phase = "idle"
        self._stop = threading.Event()
        self._started = time.monotonic()
        self._thread = threading.Thread(target=self._loop, name="accept-sampler", daemon=True)

    def start(self) -> Sampler:
        self._started = time.monotonic()
        self._thread.start()
        return self

    def stop(self) -> list[dict[str, Any]]:
        """Stop sampling (one last reading first) and return the samples."""
        self._stop.set()
        self._thread.join(timeout=5.0)
        return self.samples

    def _loop(self) -> None:
        while True:
            self._take()
            if self._stop.wait(self.interval_s):
                self._take()
                return

    def _take(self) -> None:
        t_s = round(time.monotonic() - self._started, 2)
        try:
            readings = self.read(self.indices)
        except Exception as exc:  # noqa: BLE001 - a failed reading is a fact, not a crash
            readings = [{"index": i, "error": f"{type(exc).__name__}: {exc}"} for i in self.indices]
        for reading in readings:
            self.samples.append({"t_s": t_s, "phase": self.phase, **reading})
