"""Installed-package lists the platform probes read: dpkg's status file and pacman's local db.

Not a probe (no GROUPS): `installed_dpkg` and `installed_pacman` return {package: version} for the
packages installed on the target system (or under a prefix, such as Termux's $PREFIX), read through
the probe context so fake roots work. Missing or unreadable databases give {}.
"""

from __future__ import annotations

import re

from envdoctor.probes.context import ProbeContext

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
        name, version, status = (_field(stanza, key) for key in ("Package", "Version", "Status"))
        if name and version and status and status.split()[-1:] == ["installed"]:
            found[name] = version
    return found


def _field(stanza: str, key: str) -> str | None:
    """A field's value in one dpkg status stanza (found with str.find: the file holds ~1000)."""
    if stanza.startswith(key + ":"):
        start = len(key) + 1
    else:
        at = stanza.find("\n" + key + ":")
        if at < 0:
            return None
        start = at + len(key) + 2
    end = stanza.find("\n", start)
    return stanza[start : end if end >= 0 else len(stanza)].strip()


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
