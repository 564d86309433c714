"""NVIDIA devices on the PCI bus, read from sysfs, so a GPU is seen even without a driver.

Fills `nvidia.pci` with `devices`: one record per function with vendor 0x10de: address
("0000:01:00.0"), device_id ("0x2684"), class ("0x030000"), is_gpu (display class 0x03xx),
is_nvswitch (bridge class 0x0680), driver (the bound driver's name or None), link {speed_current_gts,
gen_current, width_current, speed_max_gts, gen_max, width_max} and aer {correctable, nonfatal,
fatal} totals where the kernel exposes them; plus gpu_count, nvswitch_count and pci_device_count
(every device seen, NVIDIA or not). Collected with an empty list when no NVIDIA device is present;
absent when there is no PCI bus in sysfs (WSL2, Windows, macOS, some containers).
"""

from __future__ import annotations

import re
from typing import Any

from envdoctor.ingest.lspci_link import gen_of
from envdoctor.model.snapshot import FactGroup, absent, collected
from envdoctor.probes.context import ProbeContext

GROUPS = ("nvidia.pci",)
TIMEOUT_S = 5.0

PCI_DEVICES = "/sys/bus/pci/devices"
NVIDIA_VENDOR = "0x10de"


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Read every PCI function and keep NVIDIA's."""
    if not ctx.is_dir(PCI_DEVICES):
        return [absent("nvidia.pci", "sysfs", f"no PCI bus in sysfs ({PCI_DEVICES} is missing)")]
    addresses = ctx.listdir(PCI_DEVICES)
    devices = []
    for address in addresses:
        base = f"{PCI_DEVICES}/{address}"
        vendor = _read(ctx, f"{base}/vendor")
        if vendor is None or vendor.lower() != NVIDIA_VENDOR:
            continue
        devices.append(device(ctx, base, address))
    gpus = [d for d in devices if d["is_gpu"]]
    switches = [d for d in devices if d["is_nvswitch"]]
    data = {
        "devices": devices,
        "gpu_count": len(gpus),
        "nvswitch_count": len(switches),
        "pci_device_count": len(addresses),
    }
    return [
        collected("nvidia.pci", "sysfs", data, summary=_summary(gpus, switches, len(addresses)))
    ]


def _summary(gpus: list[dict[str, Any]], switches: list[dict[str, Any]], total: int) -> str:
    if not gpus and not switches:
        return f"no NVIDIA device on the PCI bus ({total} PCI devices seen)"
    parts = []
    for gpu in gpus:
        parts.append(f"{gpu['address']} {gpu['device_id']} driver={gpu['driver'] or 'none'}")
    if switches:
        parts.append(f"{len(switches)} NVSwitch")
    return "; ".join(parts)


def _read(ctx: ProbeContext, path: str) -> str | None:
    text = ctx.read_text(path, max_bytes=4096)
    return text.strip() if text is not None and text.strip() else None


def _speed(text: str | None) -> float | None:
    """ "16.0 GT/s PCIe" / "8 GT/s" / "2.5 GT/s" -> GT/s; "Unknown" -> None."""
    if not text:
        return None
    match = re.match(r"([\d.]+)\s*GT/s", text)
    return float(match.group(1)) if match else None


def _int(text: str | None) -> int | None:
    return int(text) if text is not None and text.isdigit() else None


def device(ctx: ProbeContext, base: str, address: str) -> dict[str, Any]:
    """One PCI function's record from its sysfs folder."""
    klass = (_read(ctx, f"{base}/class") or "").lower() or None
    driver_link = ctx.readlink(f"{base}/driver")
    current = _speed(_read(ctx, f"{base}/current_link_speed"))
    maximum = _speed(_read(ctx, f"{base}/max_link_speed"))
    return {
        "address": address.lower(),
        "device_id": (_read(ctx, f"{base}/device") or "").lower() or None,
        "subsystem_vendor": (_read(ctx, f"{base}/subsystem_vendor") or "").lower() or None,
        "subsystem_device": (_read(ctx, f"{base}/subsystem_device") or "").lower() or None,
        "class": klass,
        "is_gpu": bool(klass and klass.startswith("0x03")),
        "is_nvswitch": bool(klass and klass.startswith("0x0680")),
        "driver": driver_link.rstrip("/").rsplit("/", 1)[-1] if driver_link else None,
        "numa_node": _numa(_read(ctx, f"{base}/numa_node")),
        "link": {
            "speed_current_gts": current,
            "gen_current": gen_of(current),
            "width_current": _int(_read(ctx, f"{base}/current_link_width")),
            "speed_max_gts": maximum,
            "gen_max": gen_of(maximum),
            "width_max": _int(_read(ctx, f"{base}/max_link_width")),
        },
        "aer": _aer(ctx, base),
    }


def _numa(text: str | None) -> int | None:
    try:
        value = int(text) if text is not None else None
    except ValueError:
        return None
    return value if value is not None and value >= 0 else None


def _aer(ctx: ProbeContext, base: str) -> dict[str, int | None] | None:
    """AER totals from aer_dev_correctable / _nonfatal / _fatal ("TOTAL_ERR_COR 0" lines)."""
    out: dict[str, int | None] = {}
    seen = False
    for kind, total_key in (
        ("correctable", "TOTAL_ERR_COR"),
        ("nonfatal", "TOTAL_ERR_NONFATAL"),
        ("fatal", "TOTAL_ERR_FATAL"),
    ):
        text = ctx.read_text(f"{base}/aer_dev_{kind}", max_bytes=8192)
        if text is None:
            out[kind] = None
            continue
        seen = True
        counts = {}
        for line in text.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[1].isdigit():
                counts[parts[0]] = int(parts[1])
        out[kind] = counts.get(total_key, sum(counts.values()) if counts else None)
    return out if seen else None
