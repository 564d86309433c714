"""Runs ml_metadata_script in the target interpreter and returns what it found.

Shared by the torch_build and frameworks probes. For the interpreter running envdoctor the script
is called in-process, once per context (`ctx.once`); for one named with `--python` it runs in a
subprocess under a deadline through `ctx.run`, which caches the result; on an image or `--root`
the image's interpreter is scanned from its files (`root_python.ml_scan`). Either way both probes
share one scan.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from envdoctor.context import ProbeContext
from envdoctor.probes import ml_metadata_script

TARGET_TIMEOUT_S = 12.0
_NAME = re.compile(r"\s*[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?")  # a PEP 508 name at the start
_SEPARATORS = re.compile(r"[-_.]+")  # PEP 503 normalization, as canonicalize_name does


@dataclass(frozen=True)
class MlMetadata:
    """The distributions found (normalized name -> entry), the marker environment, or an error."""

    distributions: dict[str, dict[str, Any]]
    environment: dict[str, str]
    source: str
    error: str | None = None


def read(ctx: ProbeContext, probe: str) -> MlMetadata:
    """Describe the target environment's ML distributions; never raises."""
    target = ctx.options.python
    if target is None and str(ctx.root) != "/":  # an image or --root: its Python, from files
        from envdoctor.probes import root_python

        source = f"probe:{probe} (files under {ctx.root})"
        try:
            scanned = ctx.once("root_python.ml_scan", lambda: root_python.ml_scan(ctx))
        except Exception as exc:  # noqa: BLE001 - a probe never raises
            return MlMetadata({}, {}, source, f"metadata scan crashed: {exc}")
        if scanned is None:
            return MlMetadata({}, {}, source, f"no Python interpreter under {ctx.root}")
        return _from_raw(scanned, source)
    if target is None:
        try:
            raw = ctx.once("ml_metadata_script.describe", ml_metadata_script.describe)
        except Exception as exc:  # noqa: BLE001 - a probe never raises
            return MlMetadata({}, {}, f"probe:{probe}", f"metadata scan crashed: {exc}")
        return _from_raw(raw, f"probe:{probe}")
    source = f"probe:{probe} ({target})"
    result = ctx.run([target, str(Path(ml_metadata_script.__file__))], timeout_s=TARGET_TIMEOUT_S)
    if not result.ok:
        return MlMetadata(
            {}, {}, source, f"could not inspect {target}: {result.describe_failure()}"
        )
    try:
        raw = json.loads(result.stdout)
    except json.JSONDecodeError:
        return MlMetadata({}, {}, source, f"{target} printed no JSON: {result.stdout[:120]!r}")
    return _from_raw(raw, source)


def _from_raw(raw: Any, source: str) -> MlMetadata:
    if not isinstance(raw, dict) or not isinstance(raw.get("distributions"), dict):
        return MlMetadata({}, {}, source, "metadata scan returned an unexpected shape")
    env = raw.get("environment") if isinstance(raw.get("environment"), dict) else {}
    error = raw.get("error")
    return MlMetadata(raw["distributions"], env, source, str(error) if error else None)


def _wanted_name(line: str, wanted: re.Pattern[str]) -> bool:
    head = _NAME.match(line)
    return head is not None and bool(
        wanted.match(_SEPARATORS.sub("-", head.group(0).strip()).lower())
    )


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
    from packaging.utils import canonicalize_name

    out = []
    for line in candidates:
        try:
            req = Requirement(str(line))
        except InvalidRequirement:
            continue
        name = canonicalize_name(req.name)
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
