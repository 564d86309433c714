"""Reader of `/proc/driver/nvidia/version`: the loaded NVIDIA kernel module, open or proprietary.

    NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14  Thu Feb 22 01:44:30 UTC 2024
    NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  565.57.01  Release Build  (...)  <date>
    GCC version:  gcc version 13.3.0 (Ubuntu 13.3.0-6ubuntu2~24.04)

On Jetson the number is the L4T release ("35.3.1"), not a desktop driver version: it is kept as
`module_version` and `jetson_l4t`, and `driver_version` stays None.
"""

from __future__ import annotations

import re
from typing import Any

from envdoctor.model import nvidia_records as rec
from envdoctor.model.snapshot import Confidence, FactGroup, collected

NAME = "proc-driver-nvidia-version"
SOURCE = f"pasted:{NAME}"
MARKERS = ("NVRM version:",)

_LINE = re.compile(
    r"NVRM version:\s*NVIDIA UNIX\s+(Open\s+)?(?:(\S+)\s+)?Kernel Module(?:\s+for\s+(\S+))?"
    r"\s+(\d+(?:\.\d+)+)\s*(.*)$",
    re.M,
)
_GCC = re.compile(r"^GCC version:\s*(.+?)\s*$", re.M)


def detect(text: str) -> bool:
    """Whether the text holds the NVRM version line."""
    return bool(_LINE.search(text[:200000]))


def parse(text: str) -> dict[str, Any] | None:
    """{module_version, kernel_module, arch, build, gcc_version, jetson_l4t} or None."""
    match = _LINE.search(text)
    if not match:
        return None
    version = match.group(4)
    major = int(version.split(".")[0])
    rest = match.group(5).strip()
    gcc = _GCC.search(text)
    return {
        "module_version": version,
        "kernel_module": "open" if match.group(1) else "proprietary",
        "arch": match.group(3) or match.group(2),
        "build": rest or None,
        "gcc_version": gcc.group(1) if gcc else None,
        "jetson_l4t": version if major < 100 else None,
    }


def driver_record(parsed: dict[str, Any]) -> rec.NvidiaDriver:
    """The `nvidia.driver` record the version file alone supports."""
    driver = rec.new_driver()
    driver["module_version"] = parsed["module_version"]
    driver["kernel_module"] = parsed["kernel_module"]
    if not parsed.get("jetson_l4t"):
        driver["driver_version"] = parsed["module_version"]
    else:
        driver["jetson_l4t"] = parsed["jetson_l4t"]
    driver["driver_loaded"] = True
    driver["platform"] = "linux"
    driver["sources"] = ["procfs"]
    return driver


def read(text: str) -> list[FactGroup]:
    """The `nvidia.driver` group of a pasted version file."""
    parsed = parse(text)
    if parsed is None:
        return []
    driver = driver_record(parsed)
    return [
        collected(
            "nvidia.driver",
            SOURCE,
            dict(driver),
            summary=rec.driver_summary(driver),
            confidence=Confidence.MEDIUM,
        )
    ]
