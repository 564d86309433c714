"""Readings of `rocm-smi ... --json`: what each AMD GPU is doing now, for `envdoctor accept`.

`rocm-smi --showtemp --showpower --showmaxpower --showclocks --showuse --showmemuse --showbus
--json` (and `-a --json`) print {"card0": {...}, ...}; the keys vary by ROCm release, so each
reading is looked for under its spellings (captures: tests/fixtures/real/rocm-smi/):

- temperatures: "Temperature (Sensor edge) (C)", "... junction ...", "... memory/mem ...";
- power: "Average Graphics Package Power (W)" (ROCm 5-6), "Current Socket Graphics Package
  Power (W)" (MI300), and the cap "Max Graphics Package Power (W)";
- clocks: "sclk clock speed:" / "sclk clock speed" as "(300Mhz)" or "808Mhz", likewise mclk;
- use: "GPU use (%)", "GPU memory use (%)"; VRAM used: "VRAM Total Used Memory (B)";
- the PCIe link of the current DPM level: "pcie clock level" = "0 (16.0GT/s x16)";
- the PCI address: "PCI Bus" (only with --showbus).

Values that are "N/A", absent or not numbers are None. Units are in the key names.
"""

from __future__ import annotations

import json
import re
from typing import Any

_CARD = re.compile(r"card(\d+)")
_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?")
_LINK = re.compile(r"(?P<speed>\d+(?:\.\d+)?)\s*GT/s\s*x(?P<width>\d+)", re.I)
# PCIe transfer rate per lane -> generation (PCI-SIG: 2.5, 5, 8, 16, 32, 64 GT/s)
GT_PER_S_GENERATION = {2.5: 1, 5.0: 2, 8.0: 3, 16.0: 4, 32.0: 5, 64.0: 6}


def cards(text: str) -> dict[int, dict[str, Any]]:
    """{card number: {lower-case key: value}} of a rocm-smi JSON text ({} when it is not one)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return {}
    if not isinstance(data, dict):
        return {}
    out = {}
    for key, fields in data.items():
        match = _CARD.fullmatch(str(key))
        if match and isinstance(fields, dict):
            out[int(match.group(1))] = {
                str(k).strip().rstrip(":").strip().lower(): v for k, v in fields.items()
            }
    return dict(sorted(out.items()))


def _number(fields: dict[str, Any], *keys: str) -> float | None:
    for key in keys:
        value = fields.get(key)
        if value is None:
            continue
        match = _NUMBER.search(str(value))
        if match:
            return float(match.group())
    return None


def _whole(value: float | None) -> int | None:
    return None if value is None else round(value)


def pcie_link(fields: dict[str, Any]) -> tuple[int | None, int | None]:
    """(generation, width) of the "pcie clock level" reading, (None, None) when absent."""
    match = _LINK.search(str(fields.get("pcie clock level") or ""))
    if not match:
        return None, None
    generation = GT_PER_S_GENERATION.get(float(match.group("speed")))
    return generation, int(match.group("width"))


def reading(fields: dict[str, Any]) -> dict[str, Any]:
    """One card's reading in the sample schema of `accept_sampler` (None where not reported)."""
    generation, width = pcie_link(fields)
    vram_used = _number(fields, "vram total used memory (b)")
    return {
        "temp_c": _whole(_number(fields, "temperature (sensor edge) (c)")),
        "temp_junction_c": _whole(_number(fields, "temperature (sensor junction) (c)")),
        "temp_memory_c": _whole(
            _number(fields, "temperature (sensor memory) (c)", "temperature (sensor mem) (c)")
        ),
        "power_w": _number(
            fields,
            "average graphics package power (w)",
            "current socket graphics package power (w)",
        ),
        "sm_clock_mhz": _whole(_number(fields, "sclk clock speed")),
        "mem_clock_mhz": _whole(_number(fields, "mclk clock speed")),
        "util_pct": _whole(_number(fields, "gpu use (%)")),
        "memory_util_pct": _whole(_number(fields, "gpu memory use (%)")),
        "vram_used_mib": None if vram_used is None else int(vram_used) // 2**20,
        "pcie_gen": generation,
        "pcie_width": width,
        "reasons": None,  # rocm-smi's JSON carries no clock-event reasons
    }


def power_cap_w(fields: dict[str, Any]) -> float | None:
    """The enforced package power cap ("Max Graphics Package Power (W)")."""
    return _number(fields, "max graphics package power (w)")


def pci_address(fields: dict[str, Any]) -> str | None:
    """The card's PCI address ("0000:03:00.0"), lower-case, when --showbus was given."""
    value = str(fields.get("pci bus") or "").strip().lower()
    return value if re.fullmatch(r"[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]", value) else None
