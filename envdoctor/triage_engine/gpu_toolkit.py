"""The GPU's generation against the CUDA toolkit a report names, from the tables.

"no kernel image is available" / "invalid device function" turn on one pairing: the GPU's compute
capability against the architectures the program's toolkit could build for. A GeForce GT 625M
(sm_21) with CUDA 9.1 (sm_30 and up) is too old for it; an RTX 2080 Ti (sm_75) under a CUDA 8
build (up to sm_62) is too new. These facts let signatures decide which, and let their fixes name
the toolkit that fits:

- `cuda.toolkit`: the CUDA toolkit in use (nvcc's, the runtime's, else the release the prose names:
  "cuda 9.1", "CUDA 8", "Cuda release 8.0", "CUDA版本9.0");
- `cuda.sm_min` / `cuda.sm_max`: the sm range that toolkit's nvcc builds for (nvcc_arch);
- `gpu.newest` / `gpu.oldest`: the named GPUs of highest and lowest capability (a report that
  names the old card and the new one: "worked on my GTX 1060, fails on the RTX 2080 Ti");
- `gpu.cuda_first`: the first CUDA release whose nvcc builds for the newest GPU (nvcc_arch);
- `gpu.cc_min`: the oldest GPU's compute capability as TORCH_CUDA_ARCH_LIST writes it ("3.5");
- `gpu.cuda_last`: the last CUDA release whose nvcc still builds for the oldest GPU (nvcc_arch,
  refined by nvidia_arch_support's last_cuda), None while the newest toolkit still does;
- `nvcc.refused_sm` / `nvcc.refused_cuda_first`: the architecture an nvcc or ptxas of the report
  refused ("Unsupported gpu architecture 'compute_75'", "Value 'sm_89' is not defined for option
  'gpu-name'") and the first CUDA release whose nvcc builds for it (nvcc_arch: 75 -> "10.0");
- `nvcc.refused_cuda_last`: for a refused architecture that the table's oldest toolkit already
  knew (one a later toolkit dropped: compute_30 under CUDA 11, compute_50 under CUDA 13), the last
  CUDA release whose nvcc still builds for it (nvcc_arch, refined by nvidia_arch_support: 30 ->
  "10.2", 50 -> "12.9").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

# A CUDA toolkit release in prose. Not nvidia-smi's "CUDA Version" (the driver's highest), not a
# "CUDA capability", not a device ("cuda:0"); a bare major only up to 10 ("CUDA 8" is 8.0; "CUDA
# 11" names no minor, and 11.0 and 11.1 build for different GPUs).
_TOOLKIT = re.compile(
    r"(?<![a-z0-9_.-])cuda(?:[\s_-]*(?:toolkit|tool\s*kit|sdk))?\s*(?:release|版本(?:是|为)?|"
    r"version(?!\s*[:：])|v)?\s*[:：=]?\s*v?"
    r"(?P<version>(?:[7-9]|1[0-3])\.\d(?!\d)|[7-9](?!\d|\.\d)|10(?!\d|\.\d))(?!\s*(?:\.\d|capab|cap\b))",
    re.IGNORECASE,
)
# an architecture nvcc / ptxas refused: the toolkit predates it
_REFUSED = re.compile(
    r"Unsupported gpu architecture '(?:compute|sm)_(?P<a>\d{2,3})a?'|"
    r"Value '(?:compute|sm)_(?P<b>\d{2,3})a?' is not defined for option 'gpu-(?:architecture|name)'|"
    # the same refusal retold in a title or prose: "sm_89 not defined for gpu-name"
    r"\b(?:compute|sm)_(?P<c>\d{2,3})a?'?\s+(?:is\s+)?not defined for (?:option\s+)?'?gpu-(?:architecture|name)",
    re.IGNORECASE,
)
_NOT_TOOLKIT = re.compile(r"driver version|cuda version\s*[:：]|capability|compute cap", re.I)


def named_toolkit(lines: Iterable[str]) -> str | None:
    """The CUDA toolkit release the report names in words ("cuda 9.1" -> "9.1", "CUDA 8" ->
    "8.0"), or None."""
    for line in lines:
        if _NOT_TOOLKIT.search(line):
            continue
        found = _TOOLKIT.search(line)
        if found:
            version = found.group("version")
            return version if "." in version else f"{version}.0"
    return None


def _named_gpus(ms: Any, values: dict[str, Any]) -> list[tuple[int, str]]:
    """(sm, name) of each named GPU the GPU table knows."""
    from envdoctor.queries.nvidia import capability_by_name
    from envdoctor.triage_engine.facts import sm_of

    out = []
    for name in values.get("gpu.names") or []:
        sm = sm_of(capability_by_name(ms, str(name)))
        if sm is not None:
            out.append((sm, str(name)))
    return out


def derive_gpu_toolkit(ms: Any, values: dict[str, Any], lines: list[str]) -> None:
    """Add the facts of the module docstring to `values` (facts.derive's)."""
    from envdoctor.queries.nvidia import first_cuda_for_sm, nvcc_targets
    from envdoctor.queries.nvidia_arch import last_toolkit_for_sm

    toolkit = values.get("cuda.nvcc") or values.get("cuda.runtime") or named_toolkit(lines)
    values["cuda.toolkit"] = str(toolkit) if toolkit else None
    targets = nvcc_targets(ms, str(toolkit)) if toolkit else None
    values["cuda.sm_min"], values["cuda.sm_max"] = targets if targets else (None, None)
    named = sorted(_named_gpus(ms, values))
    values["gpu.oldest"] = named[0][1] if named else values.get("gpu.name")
    values["gpu.newest"] = named[-1][1] if named else values.get("gpu.name")
    newest, oldest = values.get("gpu.sm"), values.get("gpu.sm_min")
    values["gpu.cuda_first"] = first_cuda_for_sm(ms, int(newest)) if newest else None
    values["gpu.cuda_last"] = last_toolkit_for_sm(ms, int(oldest)) if oldest else None
    values["gpu.cc_min"] = f"{int(oldest) // 10}.{int(oldest) % 10}" if oldest else None
    refused = refused_sm(lines)
    values["nvcc.refused_sm"] = refused
    added = cuda_that_added(ms, refused) if refused else None
    values["nvcc.refused_cuda_first"] = added
    # refused, yet older than the table's first toolkit: one a later toolkit dropped
    values["nvcc.refused_cuda_last"] = (
        last_toolkit_for_sm(ms, refused) if refused and not added else None
    )


def cuda_that_added(ms: Any, sm: int) -> str | None:
    """The first CUDA release whose nvcc builds for sm_`sm`, when one did not before it; None for
    an architecture the table's oldest toolkit already knew (sm_30 refused by CUDA 11 is one the
    toolkit dropped, not one it predates)."""
    from envdoctor.queries.nvidia import first_cuda_for_sm, nvcc_ranges

    ranges = nvcc_ranges(ms)
    if not ranges or ranges[0][1] <= sm <= ranges[0][2]:
        return None
    return first_cuda_for_sm(ms, sm)


def refused_sm(lines: Iterable[str]) -> int | None:
    """The architecture (75 for compute_75 / sm_75) an nvcc or ptxas of the report refused."""
    for line in lines:
        if "gpu" not in line.lower():
            continue
        found = _REFUSED.search(line)
        if found:
            return int(found.group("a") or found.group("b") or found.group("c"))
    return None
