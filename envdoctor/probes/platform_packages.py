"""Installed-package lists the platform probes read: dpkg's status file and pacman's local db.

Not a probe (no GROUPS): `installed_dpkg` and `installed_pacman` return {package: version} for the
packages installed on the target system (or under a prefix, such as Termux's $PREFIX), read through
the probe context so fake roots work. Missing or unreadable databases give {}.
"""

from __future__ import annotations

import re

from envdoctor.context import ProbeContext

DPKG_STATUS = "/var/lib/dpkg/status"
PACMAN_LOCAL = "/var/lib/pacman/local"
_PACMAN_DIR = re.compile(r"^(?P<name>.+)-(?P<version>[^-]+-[^-]+)$")


def installed_dpkg(ctx: ProbeContext, prefix: str = "") -> dict[str, str]:
    """{package: version} of the packages dpkg marks installed under `prefix` ("" = the system);
    parsed once per context, however many probes ask."""
    return dict(ctx.once(f"installed_dpkg:{prefix}", lambda: _parse_dpkg_status(ctx, prefix)))  # type: ignore[call-overload]


def _parse_dpkg_status(ctx: ProbeContext, prefix: str) -> dict[str, str]:
    text = ctx.read_text(prefix.rstrip("/") + DPKG_STATUS)
    if not text:
        return {}
    found: dict[str, str] = {}
    for stanza in text.split("\n\n"):
        name = version = status = None
        for line in stanza.splitlines():
            if line.startswith("Package:"):
                name = line.partition(":")[2].strip()
            elif line.startswith("Version:"):
                version = line.partition(":")[2].strip()
            elif line.startswith("Status:"):
                status = line.partition(":")[2].split()
        if name and version and status and status[-1] == "installed":
            found[name] = version
    return found


def installed_pacman(ctx: ProbeContext) -> dict[str, str]:
    """{package: version} from pacman's local database folder names (`mesa-1:24.2.7-1`)."""
    found: dict[str, str] = {}
    for entry in ctx.listdir(PACMAN_LOCAL):
        match = _PACMAN_DIR.match(entry)
        if match:
            found[match.group("name")] = match.group("version")
    return found


def upstream_version(version: str | None) -> str | None:
    """The upstream part of a distribution version: "1:22.2.5-0ubuntu0.1" -> "22.2.5"."""
    if not version:
        return None
    text = version.split(":", 1)[-1]
    match = re.match(r"(\d+(?:\.\d+)*)", text)
    return match.group(1) if match else None
