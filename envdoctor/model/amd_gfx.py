"""The names of AMD GPU targets, and the numbers they are written as.

A gfx target is named `gfx` + major (decimal) + minor and stepping (one hexadecimal digit each):
gfx90a = 9.0.10, gfx1103 = 11.0.3. The KFD sysfs topology writes it as the integer
major*10000 + minor*100 + stepping (90010, 110003); HSA_OVERRIDE_GFX_VERSION as "major.minor.stepping"
with decimal parts ("9.0.10", "11.0.0"). Pure functions: the probes, the readers and the ROCm
queries all spell targets through these.
"""

from __future__ import annotations

import re
from typing import Any

_GFX = re.compile(r"^gfx(\d{1,2})([0-9a-f])([0-9a-f])$")
_OVERRIDE = re.compile(r"^\s*(\d{1,2})\.(\d{1,2})\.(\d{1,2})\s*$")


def normalize_gfx(text: Any) -> str | None:
    """ "gfx942:sramecc+:xnack-" / "amdgcn-amd-amdhsa--gfx90a" / "GFX1100" -> "gfx942" / "gfx90a" /
    "gfx1100"; None when no gfx name is there."""
    match = re.search(r"gfx[0-9a-f]{3,4}", str(text or "").lower())
    if not match:
        return None
    name = match.group(0)
    return name if _GFX.match(name) else None


def gfx_parts(gfx: str) -> tuple[int, int, int] | None:
    """(major, minor, stepping) of a gfx name: "gfx90a" -> (9, 0, 10)."""
    name = normalize_gfx(gfx)
    match = _GFX.match(name or "")
    if not match:
        return None
    return int(match.group(1)), int(match.group(2), 16), int(match.group(3), 16)


def gfx_from_target_version(value: Any) -> str | None:
    """KFD's gfx_target_version integer -> gfx name (110003 -> "gfx1103"); None for 0 (a CPU node)
    or a value whose minor or stepping does not fit one hexadecimal digit."""
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        return None
    if number <= 0:
        return None
    major, minor, stepping = number // 10000, (number // 100) % 100, number % 100
    if minor > 15 or stepping > 15 or major == 0:
        return None
    return f"gfx{major}{minor:x}{stepping:x}"


def target_version_of(gfx: str) -> int | None:
    """gfx name -> KFD's integer form ("gfx90a" -> 90010)."""
    parts = gfx_parts(gfx)
    if parts is None:
        return None
    major, minor, stepping = parts
    return major * 10000 + minor * 100 + stepping


def gfx_from_override(value: Any) -> str | None:
    """An HSA_OVERRIDE_GFX_VERSION value -> the gfx target it makes the runtime report
    ("10.3.0" -> "gfx1030", "9.0.10" -> "gfx90a"); a literal "gfx1030" is accepted too."""
    text = str(value or "").strip()
    if text.lower().startswith("gfx"):
        return normalize_gfx(text)
    match = _OVERRIDE.match(text)
    if not match:
        return None
    major, minor, stepping = (int(g) for g in match.groups())
    if minor > 15 or stepping > 15 or major == 0:
        return None
    return f"gfx{major}{minor:x}{stepping:x}"


def override_string(gfx: str) -> str | None:
    """gfx name -> the HSA_OVERRIDE_GFX_VERSION spelling of it ("gfx1030" -> "10.3.0")."""
    parts = gfx_parts(gfx)
    return None if parts is None else ".".join(str(p) for p in parts)


def family_of(gfx: str) -> str | None:
    """The first three characters after "gfx" for 4-digit names, two for 3-digit ones:
    gfx1031 -> "gfx103", gfx90a -> "gfx90"."""
    name = normalize_gfx(gfx)
    if name is None:
        return None
    return name[:-1]
