"""The installed PyTorch build, read from its files without importing it.

Fills `python.torch` (absent when torch is not installed):
- `version`: torch.__version__ as torch/version.py spells it ("2.7.1+cu128"); `metadata_version`
  what pip records (PyPI uploads strip the local label from the dist-info only).
- `variant`: the local label ("cu128", "cpu", "rocm6.3", "xpu"), None for an unlabelled build;
  `backend`: "cuda" / "rocm" / "xpu" / "cpu" as the build says (version.py, then the label).
- `cuda`, `hip`, `xpu`, `git_version`, `debug`: torch/version.py's values, read as text.
- `bundled_nvidia` {name: version}: the NVIDIA CUDA wheels installed beside it;
  `nvidia_requirements` {name: pinned version} torch's own Requires-Dist pins that apply here,
  with `nvidia_missing` / `nvidia_mismatched` where the installed ones differ.
- `arch_list` (get_arch_list() names) from the build matrix for official wheels, with
  `arch_list_source` ("matrix:torch_arch"; None when the matrix has no row).
- `torchvision`, `torchaudio`, `triton` (versions or None), `location`, `installer`,
  `requires_python`, `wheel_tags`, `compiled_backends` (from the libraries in torch/lib).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from envdoctor.context import ProbeContext
from envdoctor.probes import ml_packages
from envdoctor.snapshot import FactGroup, absent, collected, failed

GROUPS = ("python.torch",)
TIMEOUT_S = 15.0

_VERSION_PY = re.compile(
    r"^(?P<key>__version__|cuda|hip|xpu|rocm|git_version|debug)\s*(?::\s*[\w\[\].]+)?\s*=\s*"
    r"(?P<value>None|True|False|'[^']*'|\"[^\"]*\")\s*$",
    re.MULTILINE,
)
_NVIDIA_LIB = re.compile(
    r"^(nvidia-(cublas|cuda-|cudnn|cufft|cufile|curand|cusolver|cusparse|nccl|"
    r"nvtx|nvjitlink|nvshmem|nvrtc)|cuda-toolkit$)"
)
_LIB_BACKENDS = (
    ("cuda", ("libtorch_cuda", "torch_cuda")),
    ("rocm", ("libtorch_hip", "torch_hip")),
    ("xpu", ("libtorch_xpu", "torch_xpu")),
)


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Describe the torch build of the target environment."""
    meta = ml_packages.read(ctx, "torch_build")
    if meta.error and meta.error.startswith("no Python interpreter under"):
        return [absent("python.torch", meta.source, meta.error)]
    if meta.error and not meta.distributions:
        return [failed("python.torch", meta.source, meta.error)]
    where = ctx.options.python or (
        "this interpreter" if str(ctx.root) == "/" else f"the Python under {ctx.root}"
    )
    if "torch" not in meta.distributions:
        return [absent("python.torch", meta.source, f"torch is not installed in {where}")]
    data = torch_facts(meta.distributions, meta.environment, _matrices())
    return [collected("python.torch", meta.source, data, summary=summary(data))]


def _matrices() -> Any:
    try:
        from envdoctor.matrix_update import (
            load_active as active_matrices,  # not diagnose: no engine import
        )

        return active_matrices()
    except Exception:  # noqa: BLE001 - without matrices the arch list is simply unknown
        return None


def parse_version_py(text: str | None) -> dict[str, Any]:
    """The assignments of torch/version.py ({"__version__": "2.7.1+cu126", "cuda": "12.6", ...})."""
    out: dict[str, Any] = {}
    for match in _VERSION_PY.finditer(text or ""):
        raw = match.group("value")
        value: Any = {"None": None, "True": True, "False": False}.get(raw, raw[1:-1])
        out[match.group("key")] = value
    return out


def torch_facts(
    dists: Mapping[str, Mapping[str, Any]],
    environment: Mapping[str, str] | None = None,
    ms: Any = None,
) -> dict[str, Any]:
    """python.torch facts from the ML distributions (as ml_metadata_script reports them).

    Works with partial entries too (a pasted `pip list` gives only versions).
    """
    torch = dists["torch"]
    files = torch.get("files") or {}
    version_py = parse_version_py(files.get("torch/version.py"))
    metadata_version = torch.get("version")
    version = version_py.get("__version__") or metadata_version
    from envdoctor.queries import torch as tq

    variant = _variant(tq.parse_local_variant(version))
    cuda, hip = version_py.get("cuda"), version_py.get("hip")
    os_name = _os_name(environment or {})
    data: dict[str, Any] = {
        "version": version,
        "metadata_version": metadata_version,
        "variant": variant,
        "backend": _backend(version_py, variant, files),
        "build": None,  # filled below: the same value under collect_env's key
        "cuda": cuda,
        "hip": hip,
        "xpu": version_py.get("xpu"),
        "git_version": version_py.get("git_version"),
        "debug": version_py.get("debug"),
        "version_py_read": "torch/version.py" in files,
        "location": torch.get("location"),
        "installer": torch.get("installer"),
        "requires_python": torch.get("requires_python"),
        "wheel_tags": list(torch.get("wheel_tags") or []),
        "direct_url": (torch.get("direct_url") or {}).get("url"),
        "torchvision": _version_of(dists, "torchvision"),
        "torchaudio": _version_of(dists, "torchaudio"),
        "triton": _version_of(dists, "triton") or _version_of(dists, "pytorch-triton"),
        "compiled_backends": _compiled_backends(torch),
        "os": os_name,
    }
    data.update(_nvidia(dists, torch, environment))
    arches, source = None, None
    if ms is not None and variant and os_name:
        arches = tq.variant_arches(ms, version, variant, os_name)
        source = "matrix:torch_arch" if arches is not None else None
    data["arch_list"] = arches
    data["arch_list_source"] = source
    data["build"] = data["backend"]
    return data


_VARIANT = re.compile(r"^(cpu|cu\d+|rocm\d+(?:\.\d+)*|xpu)")


def _variant(label: str | None) -> str | None:
    """The variant at the start of a local label ("cpu-cxx11-abi" -> "cpu"); other labels as is."""
    if not label:
        return None
    match = _VARIANT.match(label)
    return match.group(1) if match else label


def _os_name(environment: Mapping[str, str]) -> str | None:
    system = str(environment.get("platform_system") or "").lower()
    machine = str(environment.get("platform_machine") or "").lower()
    if system == "windows":
        return "windows"
    if system == "linux" and machine in ("x86_64", "amd64"):
        return "linux"  # the torch_arch rows describe Linux x86_64 wheels only
    return None


def _backend(
    version_py: Mapping[str, Any], variant: str | None, files: Mapping[str, str]
) -> str | None:
    if version_py.get("hip"):
        return "rocm"
    if version_py.get("cuda"):
        return "cuda"
    if version_py.get("xpu") or variant == "xpu":
        return "xpu"
    if variant:
        if variant.startswith("cu"):
            return "cuda"
        if variant.startswith("rocm"):
            return "rocm"
        if variant == "cpu":
            return "cpu"
    if "torch/version.py" in files:
        return "cpu"  # version.py read and it names no GPU runtime
    return None  # only a version number is known (a pasted list)


def _version_of(dists: Mapping[str, Mapping[str, Any]], name: str) -> str | None:
    entry = dists.get(name)
    return str(entry.get("version")) if entry and entry.get("version") else None


def _compiled_backends(torch: Mapping[str, Any]) -> list[str] | None:
    names = (torch.get("listings") or {}).get("torch/lib")
    if not names:
        return None
    found = [
        backend
        for backend, stems in _LIB_BACKENDS
        if any(n.startswith(stem) for n in names for stem in stems)
    ]
    return found or ["cpu"]


def _nvidia(
    dists: Mapping[str, Mapping[str, Any]],
    torch: Mapping[str, Any],
    environment: Mapping[str, str] | None,
) -> dict[str, Any]:
    bundled = {
        name: str(entry.get("version"))
        for name, entry in sorted(dists.items())
        if _NVIDIA_LIB.match(name)
    }
    pins: dict[str, str] = {}
    for name, req in ml_packages.requirements(
        torch.get("requires") or [], environment, _NVIDIA_LIB
    ):
        exact = [s.version for s in req.specifier if s.operator in ("==", "===")]
        pins[name] = exact[0] if exact else str(req.specifier)
    missing = sorted(n for n in pins if n not in bundled)
    mismatched = {
        n: {"required": pins[n], "installed": bundled[n]}
        for n in sorted(pins)
        if n in bundled and not _satisfies(bundled[n], pins[n])
    }
    return {
        "bundled_nvidia": bundled,
        "nvidia_requirements": pins,
        "nvidia_missing": missing,
        "nvidia_mismatched": mismatched,
    }


def _satisfies(installed: str, required: str) -> bool:
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    try:
        spec = SpecifierSet(required if required[:1] in "<>=!~" else f"=={required}")
        return spec.contains(installed, prereleases=True)
    except InvalidSpecifier:
        return True


def summary(data: Mapping[str, Any]) -> str:
    """One line for people: "torch 2.7.1+cu128 (CUDA 12.8 build), torchvision 0.22.1"."""
    backend = data.get("backend")
    if backend == "cuda":
        kind = f"CUDA {data.get('cuda')} build" if data.get("cuda") else "CUDA build"
    elif backend == "rocm":
        kind = f"ROCm build (HIP {data.get('hip')})" if data.get("hip") else "ROCm build"
    elif backend == "xpu":
        kind = "Intel XPU build"
    elif backend == "cpu":
        kind = "CPU-only build"
    else:
        kind = "build unknown"
    parts = [f"torch {data.get('version')} ({kind})"]
    for name in ("torchvision", "torchaudio"):
        if data.get(name):
            parts.append(f"{name} {data[name]}")
    return ", ".join(parts)
