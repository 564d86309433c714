"""Reader of pasted `nvcc --version` (or `nvcc -V`) output.

    nvcc: NVIDIA (R) Cuda compiler driver
    Copyright (c) 2005-2025 NVIDIA Corporation
    Built on Wed_Aug_20_01:58:59_PM_PDT_2025
    Cuda compilation tools, release 13.0, V13.0.88
    Build cuda_13.0.r13.0/compiler.36424714_0

Fills `cuda.toolkits` with the toolkit that nvcc belongs to (its path is unknown from a paste) as
the nvcc on PATH. `parse_nvcc` is also what the live cuda_toolkit probe uses on nvcc's output.
"""

from __future__ import annotations

import re
from typing import Any

from envdoctor.model.snapshot import Confidence, FactGroup, collected

NAME = "nvcc-version"

_RELEASE_LINE = re.compile(
    r"Cuda compilation tools,\s*release\s+(?P<release>\d+\.\d+)\s*,\s*V(?P<version>\d+(?:\.\d+){1,3})"
)
_BUILT_ON = re.compile(r"^Built on (?P<built>\S+)", re.MULTILINE)
_BUILD = re.compile(r"^Build (?P<build>\S+)", re.MULTILINE)


def parse_nvcc(text: str | None) -> dict[str, Any] | None:
    """{"version": "13.0.88", "release": "13.0", "built_on", "build"} from nvcc's version text,
    or None when the text holds no "Cuda compilation tools, release" line."""
    if not text:
        return None
    match = _RELEASE_LINE.search(text)
    if not match:
        return None
    built = _BUILT_ON.search(text)
    build = _BUILD.search(text)
    return {
        "version": match["version"],
        "release": match["release"],
        "built_on": built["built"] if built else None,
        "build": build["build"] if build else None,
    }


def detect(text: str) -> bool:
    """Whether the text contains nvcc's version banner."""
    return _RELEASE_LINE.search(text) is not None


def read(text: str) -> list[FactGroup]:
    """The toolkit the pasted nvcc belongs to, as `cuda.toolkits`."""
    nvcc = parse_nvcc(text)
    if nvcc is None:
        return []
    toolkit = {
        "path": None,
        "real_path": None,
        "version": nvcc["version"],
        "release": nvcc["release"],
        "version_source": "nvcc",
        "nvcc": None,
        "nvcc_version": nvcc["version"],
        "origin": None,
        "found_via": ["pasted nvcc --version"],
    }
    data = {
        "toolkits": [toolkit],
        "default_path": None,
        "default_link": None,
        "nvcc_on_path": {"path": None, "resolved": None, "via": None, **nvcc},
        "nvcc_all_on_path": [],
        "cuda_home": {},
        "conda": [],
        "pip": [],
    }
    return [
        collected(
            "cuda.toolkits",
            f"pasted:{NAME}",
            data,
            summary=f"nvcc {nvcc['version']} (CUDA {nvcc['release']}), pasted",
            confidence=Confidence.MEDIUM,
        )
    ]
