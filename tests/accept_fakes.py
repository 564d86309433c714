"""Stand-ins for `envdoctor accept` tests: NVML as a driver would answer it for a healthy card
and for a worn one (it throttles for heat, its link drops to Gen1 x4 under load, a previous
owner capped its power), a kernel log that gains an Xid line during the run, and a wrapper
interpreter whose VRAM read-back returns wrong values at 7 addresses.

Importable from pytest and from a subprocess (the Ctrl-C test runs the CLI with these installed).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pynvml

HERE = Path(__file__).resolve().parent
MIB = 2**20

HEALTHY = {
    "name": "NVIDIA GeForce RTX 3090",
    "uuid": "GPU-11111111-2222-3333-4444-555555555555",
    "serial": "1324021012345",
    "default_mw": 350_000,
    "enforced_mw": 350_000,
    "gen": 4,
    "width": 16,
    "hot_after": None,  # sample number from which the card reports thermal slowdown
}
WORN = {
    **HEALTHY,
    "uuid": "GPU-66666666-7777-8888-9999-000000000000",
    "serial": "1324021099999",
    "enforced_mw": 262_000,  # 25% below the default: a previous owner's `nvidia-smi -pl`
    "gen": 1,
    "width": 4,  # a mining riser
    "hot_after": 2,
}


class FakeNvml:
    """NVML for the given cards; readings depend on how many samples a card has given."""

    def __init__(self, cards: list[dict[str, Any]]) -> None:
        self.cards = cards
        self.samples = [0] * len(cards)
        self.lock = threading.Lock()

    def install(self, setattr_: Any = setattr) -> None:
        card = lambda h: self.cards[h]  # noqa: E731
        nvml = {
            "nvmlInit": lambda: None,
            "nvmlShutdown": lambda: None,
            "nvmlDeviceGetCount": lambda: len(self.cards),
            "nvmlDeviceGetHandleByIndex": lambda i: i,
            "nvmlDeviceGetName": lambda h: card(h)["name"],
            "nvmlDeviceGetUUID": lambda h: card(h)["uuid"],
            "nvmlDeviceGetSerial": lambda h: card(h)["serial"],
            "nvmlDeviceGetMemoryInfo": lambda h: SimpleNamespace(total=24576 * MIB, used=300 * MIB),
            "nvmlDeviceGetPowerManagementDefaultLimit": lambda h: card(h)["default_mw"],
            "nvmlDeviceGetEnforcedPowerLimit": lambda h: card(h)["enforced_mw"],
            "nvmlDeviceGetMaxClockInfo": lambda h, kind: (
                2100 if kind == pynvml.NVML_CLOCK_SM else 9751
            ),
            "nvmlDeviceGetMaxPcieLinkGeneration": lambda h: 4,
            "nvmlDeviceGetMaxPcieLinkWidth": lambda h: 16,
            "nvmlDeviceGetGpuMaxPcieLinkGeneration": lambda h: 4,
            "nvmlDeviceGetTemperatureThreshold": lambda h, kind: (
                91 if kind == pynvml.NVML_TEMPERATURE_THRESHOLD_SLOWDOWN else 98
            ),
            "nvmlDeviceGetTemperature": self._temperature,
            "nvmlDeviceGetPowerUsage": lambda h: min(card(h)["enforced_mw"], 330_000),
            "nvmlDeviceGetClockInfo": lambda h, kind: (
                (1400 if self._hot(h) else 1890) if kind == pynvml.NVML_CLOCK_SM else 9751
            ),
            "nvmlDeviceGetCurrentClocksThrottleReasons": lambda h: 0x20 if self._hot(h) else 0,
            "nvmlDeviceGetCurrPcieLinkGeneration": lambda h: card(h)["gen"],
            "nvmlDeviceGetCurrPcieLinkWidth": lambda h: card(h)["width"],
            "nvmlDeviceGetUtilizationRates": lambda h: SimpleNamespace(gpu=99, memory=60),
            "nvmlDeviceGetTotalEccErrors": self._not_supported,
            "nvmlDeviceGetRemappedRows": self._not_supported,
        }
        for name, function in nvml.items():
            setattr_(pynvml, name, function)

    def _temperature(self, h: int, sensor: int) -> int:
        with self.lock:  # called once per sample and card: counts the samples
            self.samples[h] += 1
        return 86 if self._hot(h) else 64

    def _hot(self, h: int) -> bool:
        after = self.cards[h]["hot_after"]
        return after is not None and self.samples[h] > after

    @staticmethod
    def _not_supported(*_: Any) -> Any:
        raise pynvml.NVMLError(pynvml.NVML_ERROR_NOT_SUPPORTED)


XID_LINE = (
    "[ 5123.456789] NVRM: Xid (PCI:0000:02:00): 79, pid=4321, name=python, "
    "GPU has fallen off the bus."
)


def fake_tools(folder: Path, torch_python: str) -> dict[str, str]:
    """A `dmesg` that logs an Xid from its second call on, and a wrapper interpreter whose VRAM
    read-back is wrong at 7 addresses; returns {name: path}."""
    folder.mkdir(parents=True, exist_ok=True)
    dmesg = folder / "dmesg"
    count = folder / "dmesg.calls"
    dmesg.write_text(
        "#!/bin/sh\n"
        f'n=$(cat "{count}" 2>/dev/null || echo 0); echo $((n+1)) > "{count}"\n'
        "echo '[    1.000000] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  550.54.14'\n"
        f"[ \"$n\" -ge 1 ] && echo '{XID_LINE}'\n"
        "exit 0\n"
    )
    faulty = folder / "python-faulty-vram"
    faulty.write_text(f'#!/bin/sh\nexec "{torch_python}" "{HERE / "accept_faulty_vram.py"}" "$@"\n')
    for path in (dmesg, faulty):
        path.chmod(0o755)
    return {"dmesg": str(dmesg), "faulty_python": str(faulty)}


def test_environment(folder: Path) -> dict[str, str]:
    """The environment of a test run: the CPU stands in for the GPU, the fake dmesg first."""
    return {
        "ENVDOCTOR_ACCEPT_DEVICE": "cpu",
        "PATH": f"{folder}:{os.environ.get('PATH', '')}",
    }
