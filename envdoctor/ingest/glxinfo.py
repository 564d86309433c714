"""Reader of pasted `glxinfo -B` (or full `glxinfo`) output.

Fills `platform.opengl` (source "pasted:glxinfo", confidence medium): vendor, renderer, device,
accelerated (bool, from "Accelerated:"), mesa_version, video_memory_mib, direct_rendering (bool),
software (llvmpipe / softpipe / swrast: rendering on the CPU) and d3d12 (Mesa's D3D12 driver,
which only exists under WSL, so it also tells that the paste comes from WSL).
"""

from __future__ import annotations

import re
from typing import Any

from envdoctor.model.snapshot import Confidence, FactGroup, collected

NAME = "glxinfo"
SOURCE = f"pasted:{NAME}"
MARKERS = ("OpenGL renderer string:",)

_FIELD = re.compile(
    r"^\s*(?P<key>OpenGL vendor string|OpenGL renderer string|OpenGL version string|"
    r"OpenGL core profile version string|Vendor|Device|Version|Accelerated|Video memory|"
    r"direct rendering)\s*:\s*(?P<value>.*?)\s*$"
)
_MESA = re.compile(r"\bMesa (\d+\.\d+(?:\.\d+)?)")
_SOFTWARE = re.compile(r"\b(?:llvmpipe|softpipe|swrast)\b", re.IGNORECASE)
_HEX_SUFFIX = re.compile(r"\s*\(0x[0-9a-f]+\)\s*$", re.IGNORECASE)


def detect(text: str) -> bool:
    """Whether the text holds glxinfo's renderer lines."""
    return "OpenGL renderer string:" in text[:500000]


def read(text: str) -> list[FactGroup]:
    """The `platform.opengl` group."""
    fields: dict[str, str] = {}
    for line in text.splitlines():
        match = _FIELD.match(line)
        if match and match.group("key") not in fields:
            fields[match.group("key")] = _HEX_SUFFIX.sub("", match.group("value"))
    renderer = fields.get("OpenGL renderer string")
    if not renderer:
        return []
    versions = (
        " ".join(v for k, v in fields.items() if "version" in k.lower())
        + " "
        + fields.get("Version", "")
    )
    mesa = _MESA.search(versions)
    accelerated = fields.get("Accelerated", "").lower()
    video = re.match(r"(\d+)\s*MB", fields.get("Video memory", ""))
    data: dict[str, Any] = {
        "vendor": fields.get("OpenGL vendor string") or fields.get("Vendor"),
        "renderer": renderer,
        "device": fields.get("Device"),
        "accelerated": True if accelerated == "yes" else (False if accelerated == "no" else None),
        "mesa_version": mesa.group(1)
        if mesa
        else (fields.get("Version") if "Vendor" in fields else None),
        "video_memory_mib": int(video.group(1)) if video else None,
        "direct_rendering": {"yes": True, "no": False}.get(
            fields.get("direct rendering", "").lower()
        ),
        "software": bool(_SOFTWARE.search(renderer)),
        "d3d12": renderer.upper().startswith("D3D12"),
    }
    kind = "software rendering" if data["software"] else "GPU rendering"
    return [
        collected(
            "platform.opengl",
            SOURCE,
            data,
            summary=f"OpenGL: {renderer} ({kind})",
            confidence=Confidence.MEDIUM,
        )
    ]
