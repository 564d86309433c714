"""Reader of pasted `ldconfig -p` (often `| grep cud`) and `ldd` output for CUDA libraries.

    ldd .../site-packages/torch/lib/../../nvidia/cusparse/lib/libcusparse.so.12
            libnvJitLink.so.12 => /usr/local/cuda-12.1/lib64/libnvJitLink.so.12 (0x000070ddad800000)
            libcudnn_ops_infer.so.8 => not found
    ldconfig -p | grep cudnn
            libcudnn.so.8 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcudnn.so.8

Fills `cuda.libraries` with the copies these lines show (`via` "ldconfig" or "ldd"; an ldd line
also gives `needed_by`, the library ldd was run on) and `missing`: [{soname, needed_by}] for
"not found" lines. Only the CUDA families the live probe tracks are kept.
"""

from __future__ import annotations

import re
from typing import Any

from envdoctor.model.snapshot import Confidence, FactGroup, collected

NAME = "ldd-ldconfig"
MARKERS = ("=>",)  # every ldd and ldconfig -p line that detect() accepts has one

# The CUDA libraries envdoctor tracks (shared with the live cuda_libraries probe): name -> family;
# every libcudnn_* sub-library is family "cudnn" too.
LIB_NAME_PATTERN = (
    r"libcudart|libcublasLt|libcublas|libcudnn(?:_[a-z_]+)?|libnccl|libnvJitLink|libcusparse"
    r"|libnvinfer(?:_plugin)?|libcuda"
)
FAMILIES = {
    "libcudart": "cudart",
    "libcublas": "cublas",
    "libcublasLt": "cublas",
    "libcudnn": "cudnn",
    "libnccl": "nccl",
    "libnvJitLink": "nvjitlink",
    "libcusparse": "cusparse",
    "libnvinfer": "tensorrt",
    "libnvinfer_plugin": "tensorrt",
    "libcuda": "driver",
}
_SONAME = re.compile(rf"^(?P<lib>{LIB_NAME_PATTERN})\.so\.(?P<major>\d+)(?:\.\d+)?$")
LDCONFIG_LINE = re.compile(
    r"^\s*(?P<soname>\S+)\s+\((?P<flags>[^)]*)\)\s+=>\s+(?P<path>/\S+)\s*$"
)  # `ldconfig -p`
_LDD = re.compile(
    r"^\s+(?P<soname>\S+)\s+=>\s+(?:(?P<path>/\S+)\s+\(0x[0-9a-f]+\)|(?P<missing>not found))\s*$"
)
_LDD_SUBJECT = re.compile(
    r"^(?:.*\$\s*)?ldd\s+(?:-\S+\s+)*(?P<path>/\S+)\s*$|^(?P<header>/\S+):\s*$"
)


def origin(path: str) -> str:
    """Where a library path comes from, judged from the path alone."""
    if re.search(r"/(?:site|dist)-packages/nvidia/|/tensorrt_libs/", path):
        return "pip-wheel"
    if re.search(r"/(?:site|dist)-packages/", path):
        return "pip-bundled"
    if re.search(
        r"/(?:ana|mini|micro)?conda\d*/|/envs/[^/]+/lib/|/mambaforge/|/miniforge\d*/", path
    ):
        return "conda"
    if re.search(r"/cuda(?:-\d+(?:\.\d+)*)?/|/hpc_sdk/", path):
        return "toolkit"
    return "system"


def _entries(text: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    copies: list[dict[str, Any]] = []
    missing: list[dict[str, Any]] = []
    subject = None
    for line in text.splitlines():
        head = _LDD_SUBJECT.match(line)
        if head:
            subject = head["path"] or head["header"]
            continue
        ldconfig = LDCONFIG_LINE.match(line)
        ldd = None if ldconfig else _LDD.match(line)
        match = ldconfig or ldd
        if not match:
            continue
        name = _SONAME.match(match["soname"])
        if not name:
            continue
        if ldd and ldd["missing"]:
            missing.append({"soname": match["soname"], "needed_by": subject})
            continue
        if ldconfig and "64" not in ldconfig["flags"]:
            continue
        path = match["path"]
        real = path.replace("/lib/../../", "/")
        copies.append(
            {
                "library": name["lib"],
                "family": FAMILIES.get(name["lib"], "cudnn"),
                "soname": match["soname"],
                "path": path,
                "real_path": real,
                "version": None,
                "version_source": None,
                "origin": origin(real),
                "via": "ldconfig" if ldconfig else "ldd",
                "routes": ["ldconfig" if ldconfig else "ldd"],
                "package": None,
                "package_version": None,
                "site": None,
                "wins": False,
                "shadowed_by": None,
                "needed_by": None if ldconfig else subject,
            }
        )
    return copies, missing


def detect(text: str) -> bool:
    """Whether the text holds an ldconfig or ldd line for a CUDA library."""
    copies, missing = _entries(text)
    return bool(copies or missing)


def read(text: str) -> list[FactGroup]:
    """`cuda.libraries` from the pasted lines."""
    copies, missing = _entries(text)
    if not copies and not missing:
        return []
    winners: dict[str, str] = {}
    for copy in copies:
        if copy["via"] == "ldconfig" and copy["soname"] not in winners:
            winners[copy["soname"]] = copy["path"]
            copy["wins"] = True
    data = {
        "copies": copies,
        "winners": winners,
        "wheels": [],
        "conda": [],
        "consumers": [],
        "framework_requires": {},
        "cudnn_headers": [],
        "missing": missing,
        "ldconfig": {
            "ran": any(c["via"] == "ldconfig" for c in copies),
            "error": None,
            "entries": sum(1 for c in copies if c["via"] == "ldconfig"),
        },
        "site_dirs": [],
    }
    summary = (
        f"{len(copies)} CUDA library lines"
        + (f", {len(missing)} not found" if missing else "")
        + ", pasted"
    )
    return [
        collected(
            "cuda.libraries", f"pasted:{NAME}", data, summary=summary, confidence=Confidence.MEDIUM
        )
    ]
