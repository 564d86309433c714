"""Runs ml_metadata_script in the target interpreter and returns what it found.

Shared by the torch_build and frameworks probes. For the interpreter running envdoctor the script
is called in-process, once per context (`ctx.once`); for one named with `--python` it runs in a
subprocess under a deadline through `ctx.run`, which caches the result; on an image or `--root`
the image's interpreter is scanned from its files (`root_python.ml_scan`). Either way both probes
share one scan.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from envdoctor.model.json_values import as_dict
from envdoctor.probes.context import ProbeContext
from envdoctor.target import ml_metadata_script

TARGET_TIMEOUT_S = 12.0


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
    env = as_dict(raw.get("environment"))
    error = raw.get("error")
    return MlMetadata(raw["distributions"], env, source, str(error) if error else None)
