"""Reader of `nvidia-container-cli info` (and `nvidia-container-cli -k -d /dev/tty info`).

`parse_info(text)` is shared with the live toolkit probe (`container_toolkit`), which runs the
same command, so a paste and the live machine give the same facts: nvrm_version (the driver the
container stack sees), cuda_version (the highest CUDA that driver supports), and per device:
index, minor, model, brand, uuid, bus_id, architecture (compute capability). `error_line(text)`
picks the `nvidia-container-cli: <stage> error: ...` line when the command failed.

A paste fills `container.toolkit` (`cli_info`) and, because the info block is the driver's own
answer, `nvidia.driver` with `driver_version` and `cuda_driver_max` only.
"""

from __future__ import annotations

import re
from typing import Any

from envdoctor.model.snapshot import Confidence, FactGroup, collected

NAME = "nvidia-container-cli-info"
MARKERS = ("NVRM version:",)  # detect() needs it

_FIELD = re.compile(
    r"^(NVRM version|CUDA version|Device Index|Device Minor|Model|Brand|GPU UUID|"
    r"Bus Location|Architecture):\s*(.*?)\s*$",
    re.M,
)
_DEVICE_KEYS = {
    "Device Index": "index",
    "Device Minor": "minor",
    "Model": "model",
    "Brand": "brand",
    "GPU UUID": "uuid",
    "Bus Location": "bus_id",
    "Architecture": "architecture",
}
_ERROR = re.compile(r"nvidia-container-cli: ((?:[a-z]+ )?error): (.+?)(?:: unknown\.?)?\s*$", re.M)


def detect(text: str) -> bool:
    """Whether `text` holds the info block of `nvidia-container-cli info`."""
    return bool(
        re.search(r"^NVRM version:", text, re.M) and re.search(r"^CUDA version:", text, re.M)
    )


def read(text: str) -> list[FactGroup]:
    """`container.toolkit` (cli_info) and `nvidia.driver` (driver_version, cuda_driver_max)."""
    info = parse_info(text)
    if info is None:
        return []
    source = f"pasted:{NAME}"
    groups = [
        collected(
            "container.toolkit",
            source,
            {"cli_info": info},
            summary=f"nvidia-container-cli sees driver {info.get('nvrm_version')}, "
            f"{len(info['devices'])} GPU(s)",
            confidence=Confidence.MEDIUM,
            raw={NAME: text[:20000]},
        )
    ]
    driver = {
        k: v
        for k, v in (
            ("driver_version", info.get("nvrm_version")),
            ("cuda_driver_max", info.get("cuda_version")),
        )
        if v
    }
    if driver:
        groups.append(
            collected(
                "nvidia.driver",
                source,
                driver,
                summary=f"driver {driver.get('driver_version')} "
                f"(CUDA {driver.get('cuda_driver_max')})",
                confidence=Confidence.MEDIUM,
            )
        )
    return groups


def parse_info(text: str) -> dict[str, Any] | None:
    """The info block as facts, or None when `text` has none. Debug log lines are ignored."""
    if not detect(text):
        return None
    info: dict[str, Any] = {"devices": []}
    device: dict[str, Any] | None = None
    for match in _FIELD.finditer(text):
        key, value = match.group(1), match.group(2)
        if key == "NVRM version":
            info["nvrm_version"] = value or None
        elif key == "CUDA version":
            info["cuda_version"] = value or None
        elif key == "Device Index":
            device = {"index": _int(value)}
            info["devices"].append(device)
        elif device is not None:
            field = _DEVICE_KEYS[key]
            device[field] = _int(value) if field == "minor" else (value or None)
    return info


def error_line(text: str) -> str | None:
    """The first `nvidia-container-cli: ... error: ...` line, without a trailing ": unknown"."""
    match = _ERROR.search(text)
    if not match:
        return None
    return f"nvidia-container-cli: {match.group(1)}: {match.group(2)}"


def _int(value: str) -> int | None:
    try:
        return int(value)
    except ValueError:
        return None
