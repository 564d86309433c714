"""The Requires-Dist lines of a distribution's metadata: which dependencies apply here.

Shared by the torch and framework metadata parsers (live probes and the pip-list reader alike).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from envdoctor.model.names import canonical_name

_NAME = re.compile(r"\s*[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?")  # a PEP 508 name at the start


def _wanted_name(line: str, wanted: re.Pattern[str]) -> bool:
    head = _NAME.match(line)
    return head is not None and bool(wanted.match(canonical_name(head.group(0).strip())))


def requirements(
    lines: Iterable[str],
    environment: Mapping[str, str] | None,
    wanted: re.Pattern[str],
    extras: bool = False,
) -> list[tuple[str, Any]]:
    """(normalized name, packaging Requirement) of the Requires-Dist lines whose name matches
    `wanted` and whose markers hold for `environment` (all when it is unknown). With `extras`, a
    line behind `extra == "x"` counts as if that extra had been asked for."""
    # a cheap test of the name first: packaging's import and each Requirement parse cost
    candidates = [str(line) for line in lines if _wanted_name(str(line), wanted)]
    if not candidates:
        return []
    from packaging.markers import InvalidMarker, UndefinedEnvironmentName
    from packaging.requirements import InvalidRequirement, Requirement

    out = []
    for line in candidates:
        try:
            req = Requirement(str(line))
        except InvalidRequirement:
            continue
        name = canonical_name(req.name)
        if not wanted.match(name):
            continue
        if req.marker is not None and environment:
            extra = (
                re.search(r"extra\s*==\s*['\"]([^'\"]+)['\"]", str(req.marker)) if extras else None
            )
            try:
                if not req.marker.evaluate(
                    {**environment, "extra": extra.group(1) if extra else ""}
                ):
                    continue
            except (InvalidMarker, UndefinedEnvironmentName):
                pass
        out.append((name, req))
    return out
