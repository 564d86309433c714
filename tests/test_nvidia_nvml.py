"""NVML through the real pynvml binding, its functions patched to act as a driver would:
success, every init error, a field that is not supported, a lost GPU, and a hung library."""

from __future__ import annotations

import time
from types import SimpleNamespace

import pynvml
import pytest

from envdoctor.model.snapshot import Status
from envdoctor.probes import nvidia_gpu, nvidia_nvml
from envdoctor.probes.context import ProbeContext

MIB = 1024 * 1024


def _raise(code):
    def fail(*_args, **_kw):
        raise pynvml.NVMLError(code)

    return fail


class FakeDriver:
    """Two GPUs as NVML would report them: an A100 in MIG mode with two instances, an RTX 4090."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.gpus = [
            {
                "name": "NVIDIA A100-SXM4-80GB",
                "bus": b"00000000:07:00.0",
                "pci_id": 0x20B210DE,
                "uuid": "GPU-aaaa",
                "serial": "1650522003820",
                "cc": (8, 0),
                "total": 81920 * MIB,
                "used": 50 * MIB,
                "mig": [1, 1],
                "ecc": [1, 1],
                "unc_vol": 0,
                "unc_agg": 2,
                "rows": (0, 1, 1, 0),
                "util": 97,
                "gen": (4, 4),
                "width": (16, 16),
                "reasons": 0x4,
                "temp": 41,
                "power": 312_500,
                "limit": 400_000,
            },
            {
                "name": "NVIDIA GeForce RTX 4090",
                "bus": b"00000000:81:00.0",
                "pci_id": 0x268410DE,
                "uuid": "GPU-bbbb",
                "serial": None,
                "cc": (8, 9),
                "total": 24564 * MIB,
                "used": 2 * MIB,
                "mig": None,
                "ecc": None,
                "rows": None,
                "util": 0,
                "gen": (1, 4),
                "width": (16, 16),
                "reasons": 0x1,
                "temp": 30,
                "power": 20_000,
                "limit": 450_000,
            },
        ]

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        gpus = self.gpus

        def handle(index):
            return ("gpu", index)

        def gpu(h):
            return gpus[h[1]]

        def optional(key):
            def read(h, *_):
                value = gpu(h)[key]
                if value is None:
                    raise pynvml.NVMLError(pynvml.NVML_ERROR_NOT_SUPPORTED)
                return value

            return read

        def mig_handle(h, slot):
            if gpu(h)["mig"] is None or slot >= 2:
                raise pynvml.NVMLError(pynvml.NVML_ERROR_NOT_FOUND)
            return ("mig", h[1], slot)

        def name(h):
            if h[0] == "mig":
                return f"{gpus[h[1]]['name']} MIG {'3g.40gb' if h[2] == 0 else '2g.20gb'}"
            return gpu(h)["name"]

        def uuid(h):
            return f"MIG-{h[1]}-{h[2]}" if h[0] == "mig" else gpu(h)["uuid"]

        def memory(h):
            if h[0] == "mig":
                return SimpleNamespace(total=40192 * MIB, used=10 * MIB)
            return SimpleNamespace(total=gpu(h)["total"], used=gpu(h)["used"])

        def ecc_errors(h, kind, counter):
            if kind == pynvml.NVML_MEMORY_ERROR_TYPE_CORRECTED:
                return 5
            return gpu(h)["unc_vol"] if counter == pynvml.NVML_VOLATILE_ECC else gpu(h)["unc_agg"]

        patches = {
            "nvmlInit": lambda: self.calls.append("init"),
            "nvmlShutdown": lambda: self.calls.append("shutdown"),
            "nvmlSystemGetDriverVersion": lambda: "550.54.14",
            "nvmlSystemGetCudaDriverVersion_v2": lambda: 12040,
            "nvmlSystemGetNVMLVersion": lambda: "12.550.54.14",
            "nvmlDeviceGetCount": lambda: len(gpus),
            "nvmlDeviceGetHandleByIndex": handle,
            "nvmlDeviceGetName": name,
            "nvmlDeviceGetPciInfo": lambda h: SimpleNamespace(
                busId=gpu(h)["bus"], pciDeviceId=gpu(h)["pci_id"]
            ),
            "nvmlDeviceGetUUID": uuid,
            "nvmlDeviceGetSerial": optional("serial"),
            "nvmlDeviceGetCudaComputeCapability": lambda h: gpu(h)["cc"],
            "nvmlDeviceGetMemoryInfo": memory,
            "nvmlDeviceGetPersistenceMode": lambda h: 1,
            "nvmlDeviceGetDisplayMode": lambda h: 0,
            "nvmlDeviceGetMigMode": optional("mig"),
            "nvmlDeviceGetMaxMigDeviceCount": lambda h: 7,
            "nvmlDeviceGetMigDeviceHandleByIndex": mig_handle,
            "nvmlDeviceGetGpuInstanceId": lambda h: 1 + h[2],
            "nvmlDeviceGetComputeInstanceId": lambda h: 0,
            "nvmlDeviceGetVirtualizationMode": lambda h: pynvml.NVML_GPU_VIRTUALIZATION_MODE_NONE,
            "nvmlDeviceGetCurrPcieLinkGeneration": lambda h: gpu(h)["gen"][0],
            "nvmlDeviceGetMaxPcieLinkGeneration": lambda h: gpu(h)["gen"][1],
            "nvmlDeviceGetCurrPcieLinkWidth": lambda h: gpu(h)["width"][0],
            "nvmlDeviceGetMaxPcieLinkWidth": lambda h: gpu(h)["width"][1],
            "nvmlDeviceGetPcieReplayCounter": lambda h: 0,
            "nvmlDeviceGetEccMode": optional("ecc"),
            "nvmlDeviceGetTotalEccErrors": ecc_errors,
            "nvmlDeviceGetRemappedRows": optional("rows"),
            "nvmlDeviceGetRetiredPages": _raise(pynvml.NVML_ERROR_NOT_SUPPORTED),
            "nvmlDeviceGetRetiredPagesPendingStatus": _raise(pynvml.NVML_ERROR_NOT_SUPPORTED),
            "nvmlDeviceGetCurrentClocksEventReasons": lambda h: gpu(h)["reasons"],
            "nvmlDeviceGetTemperature": lambda h, sensor: gpu(h)["temp"],
            "nvmlDeviceGetPowerUsage": lambda h: gpu(h)["power"],
            "nvmlDeviceGetEnforcedPowerLimit": lambda h: gpu(h)["limit"],
            "nvmlDeviceGetUtilizationRates": lambda h: SimpleNamespace(
                gpu=gpu(h)["util"], memory=0
            ),
        }
        for attr, value in patches.items():
            monkeypatch.setattr(pynvml, attr, value)


@pytest.fixture()
def fake_driver(monkeypatch):
    driver = FakeDriver()
    driver.install(monkeypatch)
    return driver


def test_success_fills_every_field(fake_driver):
    result = nvidia_nvml.query(5)
    assert result.ok and fake_driver.calls == ["init", "shutdown"]
    driver = result.driver
    assert (driver["driver_version"], driver["cuda_driver_max"], driver["library_version"]) == (
        "550.54.14",
        "12.4",
        "550.54.14",
    )
    assert driver["gpu_count"] == 2 and driver["nvml_version"] == "12.550.54.14"
    a100, rtx = result.gpus
    assert (a100["name"], a100["pci_bus_id"], a100["uuid"], a100["serial"]) == (
        "NVIDIA A100-SXM4-80GB",
        "0000:07:00.0",
        "GPU-aaaa",
        "1650522003820",
    )
    assert a100["compute_capability"] == "8.0" and a100["compute_capability_source"] == "nvml"
    assert (a100["memory_total_mib"], a100["memory_used_mib"]) == (81920, 50)
    assert a100["device_id"] == "0x20b2"
    assert a100["mig_mode"] == "enabled"
    assert [
        (d["index"], d["uuid"], d["profile"], d["gpu_instance_id"], d["memory_total_mib"])
        for d in a100["mig_devices"]
    ] == [(0, "MIG-0-0", "3g.40gb", 1, 40192), (1, "MIG-0-1", "2g.20gb", 2, 40192)]
    assert a100["ecc"]["mode"] == "enabled" and a100["ecc"]["aggregate_uncorrected"] == 2
    assert a100["ecc"]["volatile_corrected"] == 5
    assert a100["remapped_rows"] == {
        "correctable": 0,
        "uncorrectable": 1,
        "pending": True,
        "failure": False,
    }
    assert a100["throttle_reasons"] == ["sw_power_cap"]
    assert (a100["power_draw_w"], a100["power_limit_w"], a100["temperature_c"]) == (
        312.5,
        400.0,
        41,
    )
    assert a100["persistence_mode"] is True and a100["display_mode"] is False
    assert a100["virtualization_mode"] == "none"
    assert a100["pcie"] == {
        "gen_current": 4,
        "gen_max": 4,
        "width_current": 16,
        "width_max": 16,
        "replay_counter": 0,
    }
    assert rtx["compute_capability"] == "8.9" and rtx["pcie"]["gen_current"] == 1


def test_not_supported_spoils_only_its_field(fake_driver):
    _, rtx = nvidia_nvml.query(5).gpus
    assert rtx["serial"] is None and rtx["errors"]["serial"] == "Not Supported"
    assert rtx["mig_mode"] is None and "mig_mode" in rtx["errors"]
    assert rtx["ecc"]["mode"] is None and rtx["remapped_rows"]["pending"] is None
    assert rtx["retired_pages"] == {"single_bit": None, "double_bit": None, "pending": None}
    assert rtx["name"] == "NVIDIA GeForce RTX 4090" and rtx["temperature_c"] == 30
    assert rtx["utilization_gpu_pct"] == 0 and rtx["lost"] is None


def test_gpu_is_lost_marks_the_gpu(fake_driver, monkeypatch):
    monkeypatch.setattr(pynvml, "nvmlDeviceGetTemperature", _raise(pynvml.NVML_ERROR_GPU_IS_LOST))
    a100, _ = nvidia_nvml.query(5).gpus
    assert a100["lost"] is True and a100["temperature_c"] is None
    assert a100["errors"]["temperature_c"] == "GPU is lost"


@pytest.mark.parametrize(
    "code,name",
    [
        (pynvml.NVML_ERROR_DRIVER_NOT_LOADED, "DRIVER_NOT_LOADED"),
        (pynvml.NVML_ERROR_LIB_RM_VERSION_MISMATCH, "LIB_RM_VERSION_MISMATCH"),
        (pynvml.NVML_ERROR_NO_PERMISSION, "NO_PERMISSION"),
        (pynvml.NVML_ERROR_UNKNOWN, "UNKNOWN"),
    ],
)
def test_init_errors(monkeypatch, code, name):
    monkeypatch.setattr(pynvml, "nvmlInit", _raise(code))
    result = nvidia_nvml.query(5)
    assert not result.ok
    assert result.error["code"] == code and result.error["name"] == name
    assert result.error["message"]


def test_library_not_found_is_the_real_binding_on_a_machine_without_a_driver(monkeypatch):
    monkeypatch.setattr(pynvml, "nvmlLib", None)
    monkeypatch.setattr(pynvml, "CDLL", _cdll_missing)
    result = nvidia_nvml.query(5)
    assert result.error["code"] == pynvml.NVML_ERROR_LIBRARY_NOT_FOUND
    assert result.error["message"] == "NVML Shared Library Not Found"


def _cdll_missing(name, *args, **kwargs):
    raise OSError(f"{name}: cannot open shared object file: No such file or directory")


def test_missing_binding(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_pynvml(name, *args, **kwargs):
        if name == "pynvml":
            raise ImportError("No module named 'pynvml'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pynvml)
    result = nvidia_nvml.query(5)
    assert result.unavailable and not result.ok and result.error is None


def test_hung_nvml_is_abandoned_at_its_deadline(monkeypatch):
    monkeypatch.setattr(pynvml, "nvmlInit", lambda: time.sleep(3))
    start = time.monotonic()
    result = nvidia_nvml.query(0.3)
    assert time.monotonic() - start < 1.5
    assert result.timed_out and result.error["name"] == "TIMEOUT"
    assert result.error["message"] == "NVML did not answer within 0.3 s"


# -- the probe on top of NVML -----------------------------------------------------------------


def _ctx(fake_root, fake_tools, files=None, tools=None):
    root = fake_root(files or {"/proc/version": "Linux version 6.8.0-45-generic (buildd@lcy02)\n"})
    path = fake_tools(tools or {})
    return ProbeContext(root=root, env={"PATH": path, "CUDA_VISIBLE_DEVICES": "MIG-0-0"})


def test_probe_with_nvml_and_procfs(fake_driver, fake_root, fake_tools):
    ctx = _ctx(
        fake_root,
        fake_tools,
        {
            "/proc/version": "Linux version 6.8.0-45-generic\n",
            "/proc/driver/nvidia/version": "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.14  "
            "Release Build  (dvs-builder@U16-I3-B04-3-1)  Thu Feb 22 01:25:25 UTC 2024\n"
            "GCC version:  gcc version 12.3.0 (Ubuntu 12.3.0-1ubuntu1~22.04)\n",
        },
    )
    driver, gpus = nvidia_gpu.gather(ctx, use_nvml=True)
    assert driver.status is Status.COLLECTED and driver.source == "nvml"
    assert driver.data["kernel_module"] == "open" and driver.data["module_version"] == "550.54.14"
    assert driver.data["sources"] == ["nvml", "procfs"] and driver.data["platform"] == "linux"
    assert gpus.collected and len(gpus.data["gpus"]) == 2
    assert gpus.data["env"]["CUDA_VISIBLE_DEVICES"] == "MIG-0-0"
    assert "NVIDIA A100-SXM4-80GB (81920 MiB)" in gpus.summary


def test_probe_driver_not_loaded(monkeypatch, fake_root, fake_tools):
    monkeypatch.setattr(pynvml, "nvmlInit", _raise(pynvml.NVML_ERROR_DRIVER_NOT_LOADED))
    driver, gpus = nvidia_gpu.gather(_ctx(fake_root, fake_tools), use_nvml=True)
    assert driver.status is Status.COLLECTED
    assert driver.data["driver_loaded"] is False and driver.data["nvml_error"]["code"] == 9
    assert gpus.status is Status.ABSENT and gpus.reason == "the NVIDIA kernel module is not loaded"


def test_probe_version_mismatch_keeps_the_module_version(monkeypatch, fake_root, fake_tools):
    monkeypatch.setattr(pynvml, "nvmlInit", _raise(pynvml.NVML_ERROR_LIB_RM_VERSION_MISMATCH))
    ctx = _ctx(
        fake_root,
        fake_tools,
        {
            "/proc/driver/nvidia/version": "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.173.02  "
            "Tue Jun 23 08:38:17 UTC 2026\n"
        },
    )
    driver, gpus = nvidia_gpu.gather(ctx, use_nvml=True)
    assert driver.collected and driver.data["nvml_error"]["code"] == 18
    assert (
        driver.data["module_version"] == "580.173.02"
        and driver.data["kernel_module"] == "proprietary"
    )
    assert gpus.status is Status.FAILED and "mismatch" in gpus.reason


def test_probe_hung_nvml_skips_nvidia_smi(monkeypatch, fake_root, fake_tools, tmp_path):
    monkeypatch.setattr(pynvml, "nvmlInit", lambda: time.sleep(3))
    marker = tmp_path / "smi-ran"
    ctx = _ctx(fake_root, fake_tools, tools={"nvidia-smi": f"#!/bin/sh\ntouch {marker}\n"})
    driver, gpus = nvidia_gpu.gather(ctx, use_nvml=True, nvml_timeout_s=0.3)
    assert driver.status is Status.FAILED and gpus.status is Status.FAILED
    assert "NVML did not answer within 0.3 s; the driver may be hung" in driver.reason
    assert not marker.exists()


# -- the library gate: no pynvml import when libnvidia-ml cannot load ---------------------------

_GATE = (
    "import sys; from envdoctor.probes import nvidia_nvml as n; r = n.query(5); "
    "print(r.error['name'] if r.error else None, 'pynvml' in sys.modules)"
)


def test_without_the_library_the_binding_is_not_imported():
    """This machine has no libnvidia-ml: the same LIBRARY_NOT_FOUND the binding gives, without it."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", _GATE], capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["LIBRARY_NOT_FOUND", "False"], out.stderr


def test_with_a_loadable_library_the_binding_decides(tmp_path):
    """A shared object named libnvidia-ml.so.1 that loads (a copy of libz): pynvml is imported and
    its nvmlInit fails on the missing entry point, not on the library."""
    import os
    import shutil
    import subprocess
    import sys

    libz = next(
        (
            p
            for p in (
                "/lib/x86_64-linux-gnu/libz.so.1",
                "/usr/lib/x86_64-linux-gnu/libz.so.1",
                "/lib/aarch64-linux-gnu/libz.so.1",
            )
            if os.path.exists(p)
        ),
        None,
    )
    if libz is None:
        pytest.skip("no libz.so.1 to stand in for a loadable library")
    shutil.copy(libz, tmp_path / "libnvidia-ml.so.1")
    env = dict(os.environ, LD_LIBRARY_PATH=str(tmp_path))
    out = subprocess.run(
        [sys.executable, "-c", _GATE], capture_output=True, text=True, timeout=60, env=env
    )
    name, imported = out.stdout.split()
    assert imported == "True" and name != "LIBRARY_NOT_FOUND", out.stdout + out.stderr


def test_probe_without_a_library_anywhere_imports_neither_binding_nor_ctypes():
    """This machine: no libnvidia-ml in the loader cache or the driver folders, no LD_LIBRARY_PATH:
    the probe says LIBRARY_NOT_FOUND, as the binding would, without importing it or ctypes."""
    import os
    import subprocess
    import sys

    code = (
        "import sys; from envdoctor.probes.context import ProbeContext; from envdoctor.probes import nvidia_gpu; "
        "driver, gpus = nvidia_gpu.collect(ProbeContext()); "
        "print(driver.data.get('nvml_error', {}).get('name') if driver.data else driver.reason, "
        "'pynvml' in sys.modules, 'ctypes' in sys.modules)"
    )
    env = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env
    )
    if "LIBRARY_NOT_FOUND" not in out.stdout:
        pytest.skip(
            f"this machine has an NVIDIA library or driver: {out.stdout.strip()} {out.stderr[-200:]}"
        )
    assert out.stdout.split()[-2:] == ["False", "False"], out.stdout
