"""The Linux distribution release a pasted report names, and the manylinux wheels it can install.

"Ubuntu 18.04", "CentOS Linux release 7.9.2009", "Debian GNU/Linux 10" in a report name the system
pip runs on; matrices/manylinux.toml (pypa/manylinux's compatibility lists) says from which release
of each family the wheels of a manylinux tag install. A report naming two different releases tells
none (a host and a container, an upgrade story). Container image tags ("ubuntu:22.04",
"-runtime-ubuntu22.04") are not read: the report may run pip elsewhere.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from envdoctor.model.versions import parse as parse_version

_RELEASE = re.compile(
    r"(?<![\w/:.-])(?:"
    r"(?P<ubuntu>ubuntu)[ _-]?(?P<uv>\d{2}\.\d{2})"
    r"|(?P<debian>debian)(?: gnu/linux)?[ _]?(?P<dv>\d{1,2})(?![\d.])"
    r"|(?P<fedora>fedora)(?: linux)?[ _]?(?P<fv>\d{2})(?!\d)"
    r"|(?P<rhel>centos|rocky|almalinux|rhel|red hat enterprise linux)"
    r"(?: linux)?(?: server)?(?: release)?[ _]?(?P<rv>\d{1,2})(?:\.\d+)*(?![\d])"
    r")(?![\w:-])",
    re.IGNORECASE,
)


def named_release(lines: Iterable[str]) -> tuple[str, str, str] | None:
    """(family, version, as written) of the one distribution release the lines name, else None."""
    found: dict[tuple[str, str], str] = {}
    for line in lines:
        for m in _RELEASE.finditer(line):
            for family, group in (
                ("ubuntu", "uv"),
                ("debian", "dv"),
                ("fedora", "fv"),
                ("rhel", "rv"),
            ):
                if m.group(family):
                    found.setdefault((family, m.group(group)), m.group(0))
    if len(found) != 1:
        return None
    (family, version), written = next(iter(found.items()))
    return family, version, " ".join(written.split())


def distro_facts(lines: Iterable[str], ms: Any) -> dict[str, Any]:
    """os.release (as the report writes it) and os.pre_manylinux_2_28: whether pypa/manylinux
    lists that family's first manylinux_2_28 release as newer than this one (unknown for a
    family the table does not list)."""
    release = named_release(lines)
    if release is None:
        return {}
    family, version, written = release
    facts: dict[str, Any] = {"os.release": written}
    table = ms.get("manylinux") if ms is not None else None
    rows = table.where(tag="manylinux_2_28", distro=family) if table is not None else []
    have = parse_version(version)
    first = parse_version(str(rows[0]["first_release"])) if rows else None
    if have is not None and first is not None:
        facts["os.pre_manylinux_2_28"] = have < first
    return facts
