"""Distribution names in one spelling: PEP 503 normalisation, as pip and packaging compare them.

`canonical_name` is exactly `packaging.utils.canonicalize_name` (runs of "-", "_", "." become
one "-", lower case; tests/test_properties.py holds them equal on arbitrary text). It is spelt
here rather than imported because `packaging.utils` imports `packaging.tags` (~20 ms of
sysconfig and platform probing) on a path that runs on every `envdoctor check` and `preflight`.
The scripts run in a target interpreter (`envdoctor.target`) keep their own standard-library copy.
"""

from __future__ import annotations

import re

_SEPARATORS = re.compile(r"[-_.]+")


def canonical_name(name: str) -> str:
    """ "Flash_Attn" -> "flash-attn", "nvidia.cudnn-cu12" -> "nvidia-cudnn-cu12"."""
    return _SEPARATORS.sub("-", name).lower()
