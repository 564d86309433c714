"""macOS: Apple silicon or Intel, the macOS release, and whether Python runs under Rosetta 2.

Fills `platform.macos` (absent elsewhere) with `macos_version` ("14.5") and `macos_build` from
/System/Library/CoreServices/SystemVersion.plist (or `sw_vers`), `apple_silicon` (True when
`sysctl -n hw.optional.arm64` is 1: the hardware, whatever architecture the asking process has),
`hardware_arch` ("arm64" / "x86_64"), `cpu_brand` (`machdep.cpu.brand_string`, "Apple M2 Pro"),
`model` (`hw.model`), `envdoctor_translated` (this process runs under Rosetta 2:
`sysctl.proc_translated` is 1), `envdoctor_machine`, and `python_file` (what `file` says about the
target interpreter: "Mach-O universal binary with 2 architectures: [x86_64 ...] [arm64 ...]").
The target Python's own architecture is `python.machine` (python_env probe): an x86_64 there on
Apple silicon hardware means Rosetta.
"""

from __future__ import annotations

import platform
import plistlib
import sys
from typing import Any

from envdoctor.model.snapshot import FactGroup, absent, collected
from envdoctor.probes.context import ProbeContext

GROUPS = ("platform.macos",)
TIMEOUT_S = 6.0
SOURCE = "probe:platform_macos"
PLIST = "/System/Library/CoreServices/SystemVersion.plist"
TOOL_TIMEOUT_S = 2.0


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Describe the Mac, or say this is not macOS."""
    live = str(ctx.root) == "/"
    plist_text = ctx.read_text(PLIST)
    if not (live and platform.system() == "Darwin") and plist_text is None:
        return [absent("platform.macos", SOURCE, "not macOS")]
    version, build = _plist_version(plist_text)
    if version is None:
        run = ctx.run(["sw_vers", "-productVersion"], TOOL_TIMEOUT_S)
        version = run.stdout.strip() or None if run.ok else None
    if version is None and live:
        version = platform.mac_ver()[0] or None
    arm64 = _sysctl(ctx, "hw.optional.arm64")
    brand = _sysctl(ctx, "machdep.cpu.brand_string")
    translated = _sysctl(ctx, "sysctl.proc_translated")
    apple = (
        True if arm64 == "1" else (False if arm64 == "0" or (brand and "Intel" in brand) else None)
    )
    if apple is None and brand and brand.startswith("Apple"):
        apple = True
    data: dict[str, Any] = {
        "macos_version": version,
        "macos_build": build,
        "apple_silicon": apple,
        "hardware_arch": "arm64" if apple else ("x86_64" if apple is False else None),
        "cpu_brand": brand,
        "model": _sysctl(ctx, "hw.model"),
        "envdoctor_translated": True
        if translated == "1"
        else (False if translated == "0" else None),
        "envdoctor_machine": platform.machine() if live else None,
        "python_file": _python_file(ctx, live),
    }
    chip = brand or ("Apple silicon" if apple else "Intel" if apple is False else "unknown CPU")
    return [collected("platform.macos", SOURCE, data, summary=f"macOS {version or '?'} on {chip}")]


def _plist_version(text: str | None) -> tuple[str | None, str | None]:
    if not text:
        return None, None
    try:
        doc = plistlib.loads(text.encode("utf-8"))
    except Exception:  # noqa: BLE001 - plistlib raises several types for bad input
        return None, None
    if not isinstance(doc, dict):
        return None, None
    return (
        str(doc["ProductVersion"]) if doc.get("ProductVersion") else None,
        str(doc["ProductBuildVersion"]) if doc.get("ProductBuildVersion") else None,
    )


def _sysctl(ctx: ProbeContext, name: str) -> str | None:
    run = ctx.run(["sysctl", "-n", name], TOOL_TIMEOUT_S)
    return run.stdout.strip() or None if run.ok else None


def _python_file(ctx: ProbeContext, live: bool) -> str | None:
    target = ctx.options.python or (sys.executable if live else None)
    if not target or not ctx.which("file"):
        return None
    run = ctx.run(["file", "-bL", target], TOOL_TIMEOUT_S)
    return run.stdout.strip()[:300] or None if run.ok else None
