"""Reader of `/etc/nv_tegra_release` (a Jetson's L4T release file), pasted or read live.

The first line is `# R<major> (release), REVISION: <minor>.<patch>, GCID: <n>, BOARD: <board>,
EABI: <abi>, DATE: <date>` (`# R36 (release), REVISION: 4.3, ...` is L4T 36.4.3). Newer releases
add `# KERNEL_VARIANT: oot` and `TARGET_USERSPACE_LIB_DIR*` lines; vendor images append their own
comment lines, which are kept as `extra_lines`. `parse` is shared with the live probe
(envdoctor/probes/platform_jetson.py); `read` fills `platform.jetson` (source
"pasted:tegra_release", confidence medium) with l4t_version, l4t_major, l4t_revision, gcid, board,
eabi, release_date, kernel_variant, userspace_lib_dir and l4t_source.
"""

from __future__ import annotations

import re
from typing import Any

from envdoctor.model.snapshot import Confidence, FactGroup, collected

NAME = "tegra-release"
SOURCE = "pasted:tegra_release"

_HEADER = re.compile(
    r"^#\s*R(?P<major>\d+)\s*\((?P<kind>[^)]*)\)\s*,\s*REVISION:\s*(?P<revision>\d+(?:\.\d+)*)"
    r"(?P<rest>.*)$"
)
_FIELD = re.compile(r"\b(GCID|BOARD|EABI|DATE)\s*:\s*([^,]*)")
_KERNEL_VARIANT = re.compile(r"^#\s*KERNEL_VARIANT:\s*(\S+)")
_LIB_DIR = re.compile(r"^TARGET_USERSPACE_LIB_DIR_PATH=(\S+)")


def parse(text: str) -> dict[str, Any] | None:
    """The facts of an nv_tegra_release text, or None when it has no release header line."""
    facts: dict[str, Any] | None = None
    extra: list[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        header = _HEADER.match(line)
        if header and facts is None:
            revision = header.group("revision")
            parts = revision.split(".")
            if len(parts) == 1:
                parts.append("0")
            fields = {k: v.strip() for k, v in _FIELD.findall(header.group("rest"))}
            facts = {
                "l4t_version": ".".join([header.group("major")] + parts[:2]),
                "l4t_major": int(header.group("major")),
                "l4t_revision": revision,
                "release_kind": header.group("kind").strip() or None,
                "gcid": fields.get("GCID") or None,
                "board": fields.get("BOARD") or None,
                "eabi": fields.get("EABI") or None,
                "release_date": fields.get("DATE") or None,
                "kernel_variant": None,
                "userspace_lib_dir": None,
                "l4t_source": "/etc/nv_tegra_release",
            }
            continue
        if facts is None:
            continue
        variant = _KERNEL_VARIANT.match(line)
        if variant:
            facts["kernel_variant"] = variant.group(1)
            continue
        lib_dir = _LIB_DIR.match(line)
        if lib_dir:
            facts["userspace_lib_dir"] = "/" + lib_dir.group(1).lstrip("/")
            continue
        if line.startswith("TARGET_USERSPACE_LIB_DIR="):
            continue
        extra.append(line[:200])
    if facts is not None:
        facts["extra_lines"] = extra[:10]
    return facts


def detect(text: str) -> bool:
    """Whether the text holds an nv_tegra_release header line."""
    head = text[:20000]
    return "(release), REVISION:" in head and any(
        _HEADER.match(line.strip()) for line in head.splitlines()
    )


def read(text: str) -> list[FactGroup]:
    """The `platform.jetson` group of a pasted release file."""
    facts = parse(text)
    if facts is None:
        return []
    summary = f"Jetson, L4T {facts['l4t_version']}" + (
        f" ({facts['board']})" if facts.get("board") else ""
    )
    return [
        collected("platform.jetson", SOURCE, facts, summary=summary, confidence=Confidence.MEDIUM)
    ]
