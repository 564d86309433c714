"""Reader of `lspci -vv` link lines (LnkCap / LnkSta) for NVIDIA devices, whole or as a fragment.

    01:00.0 VGA compatible controller [0300]: NVIDIA Corporation AD102 [GeForce RTX 4090] [10de:2684]
            LnkCap: Port #0, Speed 16GT/s, Width x16, ASPM L1, Exit Latency L1 <16us
            LnkSta: Speed 2.5GT/s (downgraded), Width x16 (ok)

Fills `nvidia.pci` devices with the same link keys as the sysfs probe. A fragment without its
device header line is taken to be the NVIDIA device it was pasted for (`vendor_confirmed` False);
a header naming another vendor is skipped.
"""

from __future__ import annotations

import re
from typing import Any

from envdoctor.model.snapshot import Confidence, FactGroup, collected

NAME = "lspci"
SOURCE = f"pasted:{NAME}"
MARKERS = ("LnkSta:",)

_HEADER = re.compile(
    r"^(?P<addr>(?:[0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7])\s+(?P<rest>.+)$"
)
_CAP = re.compile(r"LnkCap:.*?Speed\s+(?P<speed>[\d.]+)GT/s,\s*Width\s+x(?P<width>\d+)")
_STA = re.compile(
    r"LnkSta:\s*Speed\s+(?P<speed>[\d.]+)GT/s(?P<sdown>\s*\(downgraded\))?[^,]*,\s*"
    r"Width\s+x(?P<width>\d+)(?P<wdown>\s*\(downgraded\))?"
)
_IDS = re.compile(r"\[(?P<vendor>[0-9a-fA-F]{4}):(?P<device>[0-9a-fA-F]{4})\]")

# PCIe transfer rate (GT/s) -> generation
GEN_BY_SPEED = {2.5: 1, 5.0: 2, 8.0: 3, 16.0: 4, 32.0: 5, 64.0: 6}


def gen_of(speed_gts: float | None) -> int | None:
    """PCIe generation of a link speed in GT/s (8 -> 3), or None."""
    return None if speed_gts is None else GEN_BY_SPEED.get(round(float(speed_gts), 1))


def detect(text: str) -> bool:
    """Whether the text holds lspci link-status lines."""
    return bool(_STA.search(text[:400000]))


def parse(text: str) -> list[dict[str, Any]]:
    """One device record per LnkSta line, with its header (if any) and LnkCap."""
    devices: list[dict[str, Any]] = []
    header: dict[str, Any] | None = None
    cap: tuple[float, int] | None = None
    for raw in text.replace("\r\n", "\n").splitlines():
        line = raw.rstrip()
        match = _HEADER.match(line)
        if match and not raw[:1].isspace():
            header = _header(match)
            cap = None
            continue
        driver = re.search(r"Kernel driver in use:\s*(\S+)", line)
        if driver and header is not None:
            header["driver"], header["driver_seen"] = driver.group(1), True
            for device in devices:
                if device["address"] == header["address"]:
                    device["driver"], device["driver_unknown"] = driver.group(1), False
            continue
        cap_match = _CAP.search(line)
        if cap_match:
            cap = (float(cap_match.group("speed")), int(cap_match.group("width")))
            continue
        sta = _STA.search(line)
        if not sta:
            continue
        if (
            header is not None
            and header.get("vendor_id") not in (None, "0x10de")
            and not header["nvidia"]
        ):
            continue
        speed = float(sta.group("speed"))
        device = {
            "address": header["address"] if header else None,
            "device_id": header.get("device_id") if header else None,
            "class": header.get("class") if header else None,
            "name": header.get("name") if header else None,
            "driver": header.get("driver") if header else None,
            "driver_unknown": not (header and header.get("driver_seen")),
            "vendor_confirmed": bool(header and header["nvidia"]),
            "link": {
                "speed_current_gts": speed,
                "gen_current": gen_of(speed),
                "width_current": int(sta.group("width")),
                "speed_max_gts": cap[0] if cap else None,
                "gen_max": gen_of(cap[0]) if cap else None,
                "width_max": cap[1] if cap else None,
                "speed_downgraded": bool(sta.group("sdown")),
                "width_downgraded": bool(sta.group("wdown")),
            },
            "aer": None,
        }
        devices.append(device)
    return devices


def _header(match: re.Match[str]) -> dict[str, Any]:
    rest = match.group("rest")
    ids = _IDS.search(rest)
    address = match.group("addr").lower()
    if address.count(":") == 1:
        address = "0000:" + address
    klass = None
    class_match = re.search(r"\[(0[0-9a-fA-F]{3})\]", rest)
    if class_match:
        klass = "0x" + class_match.group(1).lower()
    return {
        "address": address,
        "vendor_id": f"0x{ids.group('vendor').lower()}" if ids else None,
        "device_id": f"0x{ids.group('device').lower()}" if ids else None,
        "class": klass,
        "name": rest.split(": ", 1)[-1].strip() if ": " in rest else None,
        "driver": None,
        "driver_seen": False,
        "nvidia": "NVIDIA" in rest or bool(ids and ids.group("vendor").lower() == "10de"),
    }


def read(text: str) -> list[FactGroup]:
    """The `nvidia.pci` group of pasted lspci text."""
    devices = parse(text)
    if not devices:
        return []
    summary = f"{len(devices)} PCI link status line{'s' if len(devices) != 1 else ''} from lspci"
    return [
        collected(
            "nvidia.pci",
            SOURCE,
            {"devices": devices, "gpu_count": len(devices), "nvswitch_count": None},
            summary=summary,
            confidence=Confidence.MEDIUM,
        )
    ]
