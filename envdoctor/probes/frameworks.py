"""The neighbours of torch: other ML frameworks and the compiled extensions built against torch.

Fills `python.frameworks` with `packages`: {normalized distribution name: entry} for TensorFlow,
JAX / jaxlib and their CUDA plugins, CuPy, onnxruntime(-gpu), xformers, flash-attn, bitsandbytes,
triton, vllm, ctranslate2, deepspeed, the PyG extensions and the like. Each entry has `version`,
`installer`, `requires_torch` (torch's requirement in its metadata, markers evaluated for this
interpreter), `requires` ({dependency: specifier} for the NVIDIA / jax / torch dependencies) and
`built_for`: what the package itself says it was built for, each value with where it was read:
`torch`, `cuda`, `cuda_major`, `cudnn`, `python`, `cxx11_abi`, `gpu_build`, `rocm`,
`compute_capabilities`, `cuda_libraries` — from TensorFlow's build_info.py, xformers'
cpp_lib.json, onnxruntime's build_and_package_info.py, DeepSpeed's git_version_info_installed.py,
the wheel's local version label ("+cu12torch2.5cxx11abiFALSE", "+pt25cu124", "+cu118"), the
package name ("cupy-cuda12x", "jax-cuda12-plugin") or the libraries it ships
(libbitsandbytes_cuda124.so). Nothing is guessed; what a package does not say is left out.
Absent when none of them is installed.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Mapping
from typing import Any

from envdoctor.context import ProbeContext
from envdoctor.probes import ml_packages
from envdoctor.snapshot import FactGroup, absent, collected, failed

GROUPS = ("python.frameworks",)
TIMEOUT_S = 15.0

_SKIP = re.compile(r"^(torch|torchvision|torchaudio|nvidia-.*|cuda-.*)$")
_TRACKED_DEPS = re.compile(r"^(torch|jax|jaxlib|jax-cuda\d+-.*|nvidia-.*|tensorflow.*|triton)$")
_ASSIGN = re.compile(r"^(?P<key>\w+)\s*=\s*(?P<value>.+?)\s*$", re.MULTILINE)
_CUPY = re.compile(r"^cupy-cuda(?P<ver>\d+)(?P<x>x?)$")
_CUPY_ROCM = re.compile(r"^cupy-rocm-(?P<major>\d+)-(?P<minor>\d+)$")
_JAX_PLUGIN = re.compile(r"^jax-cuda(?P<major>\d+)-(?P<kind>plugin|pjrt)$")
_FLASH_LABEL = re.compile(
    r"cu(?P<cuda>\d+)torch(?P<torch>\d+\.\d+)cxx11abi(?P<abi>TRUE|FALSE)", re.I
)
_PYG_LABEL = re.compile(r"^pt(?P<torch>\d)(?P<tminor>\d+)(?P<dev>cu\d+|cpu)$")
_CU_LABEL = re.compile(r"^cu(?P<digits>\d{2,3})$")
_BNB_LIB = re.compile(r"^libbitsandbytes_(?P<kind>cuda|rocm|cpu|xpu)(?P<ver>\d*)")


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Describe the non-torch ML packages of the target environment."""
    meta = ml_packages.read(ctx, "frameworks")
    if meta.error and meta.error.startswith("no Python interpreter under"):
        return [absent("python.frameworks", meta.source, meta.error)]
    if meta.error and not meta.distributions:
        return [failed("python.frameworks", meta.source, meta.error)]
    packages = frameworks_facts(meta.distributions, meta.environment)
    if not packages:
        where = ctx.options.python or (
            "this interpreter" if str(ctx.root) == "/" else f"the Python under {ctx.root}"
        )
        return [
            absent(
                "python.frameworks",
                meta.source,
                f"no ML framework besides torch is installed in {where}",
            )
        ]
    return [
        collected(
            "python.frameworks", meta.source, {"packages": packages}, summary=summary(packages)
        )
    ]


def frameworks_facts(
    dists: Mapping[str, Mapping[str, Any]], environment: Mapping[str, str] | None = None
) -> dict[str, dict[str, Any]]:
    """{name: entry} for every described distribution that is not torch itself or a CUDA wheel."""
    out: dict[str, dict[str, Any]] = {}
    for name, dist in sorted(dists.items()):
        if _SKIP.match(name):
            continue
        requires = _requirements(dist.get("requires") or [], environment)
        entry: dict[str, Any] = {
            "version": dist.get("version"),
            "installer": dist.get("installer"),
            "requires_torch": requires.get("torch"),
            "requires": requires,
            "built_for": _built_for(name, dist),
        }
        out[name] = entry
    return out


def _requirements(lines: list[str], environment: Mapping[str, str] | None) -> dict[str, str]:
    found: dict[str, str] = {}
    for name, req in ml_packages.requirements(lines, environment, _TRACKED_DEPS, extras=True):
        found.setdefault(name, str(req.specifier) or "*")
    return found


def _label(version: Any) -> str:
    text = str(version or "")
    return text.split("+", 1)[1] if "+" in text else ""


def _built_for(name: str, dist: Mapping[str, Any]) -> dict[str, Any]:
    files = dist.get("files") or {}
    listings = dist.get("listings") or {}
    label = _label(dist.get("version"))
    built: dict[str, Any] = {}

    def put(key: str, value: Any, source: str) -> None:
        if value is not None and key not in built:
            built[key] = {"value": value, "source": source}

    if name.startswith(("tensorflow", "tf-nightly")):
        info = _tf_build_info(files.get("tensorflow/python/platform/build_info.py"))
        src = "tensorflow/python/platform/build_info.py"
        put("gpu_build", info.get("is_cuda_build"), src)
        put("rocm", info.get("is_rocm_build") or None, src)
        put("cuda", info.get("cuda_version"), src)
        put("cudnn", info.get("cudnn_version"), src)
        put("compute_capabilities", info.get("cuda_compute_capabilities"), src)
    match = _JAX_PLUGIN.match(name)
    if match:
        put("cuda_major", int(match.group("major")), "package name")
    match = _CUPY.match(name)
    if match:
        digits = match.group("ver")
        if match.group("x"):
            put("cuda_major", int(digits), "package name")
        elif len(digits) >= 3:
            put("cuda", f"{int(digits[:-1])}.{digits[-1]}", "package name")
            put("cuda_major", int(digits[:-1]), "package name")
    match = _CUPY_ROCM.match(name)
    if match:
        put("rocm", f"{match.group('major')}.{match.group('minor')}", "package name")
    if name.startswith("onnxruntime"):
        info = _assignments(files.get("onnxruntime/capi/build_and_package_info.py"))
        src = "onnxruntime/capi/build_and_package_info.py"
        put("cuda", info.get("cuda_version") or None, src)
        put("cudnn", info.get("cudnn_version") or None, src)
        put(
            "gpu_build", name == "onnxruntime-gpu" or bool(info.get("cuda_version")), "package name"
        )
    if name == "xformers":
        _xformers(files.get("xformers/cpp_lib.json"), put)
    if name.startswith("flash-attn"):
        match = _FLASH_LABEL.search(label)
        if match:
            put(
                "cuda_major",
                int(match.group("cuda")[:2])
                if len(match.group("cuda")) > 2
                else int(match.group("cuda")),
                "version label",
            )
            put("torch", match.group("torch"), "version label")
            put("cxx11_abi", match.group("abi").upper() == "TRUE", "version label")
        modules = listings.get(".") or []
        put(
            "compiled_module",
            next((m for m in modules if "cuda" in m and m.endswith((".so", ".pyd"))), None),
            "site-packages listing",
        )
    if name == "bitsandbytes":
        libs = []
        for lib in listings.get("bitsandbytes") or []:
            m = _BNB_LIB.match(lib)
            if m and m.group("kind") in ("cuda", "rocm"):
                ver = m.group("ver")
                libs.append(f"{m.group('kind')}{ver}")
        put("cuda_libraries", sorted(set(libs)) or None, "bitsandbytes/ listing")
    if name == "deepspeed":
        info = _assignments(files.get("deepspeed/git_version_info_installed.py"))
        torch_info = info.get("torch_info") if isinstance(info.get("torch_info"), dict) else {}
        src = "deepspeed/git_version_info_installed.py"
        put("torch", torch_info.get("version"), src)
        cuda = torch_info.get("cuda_version")
        put("cuda", cuda if cuda and cuda != "0.0" else None, src)
    match = _PYG_LABEL.match(label)
    if match:
        put("torch", f"{match.group('torch')}.{match.group('tminor')}", "version label")
        dev = match.group("dev")
        put("cuda", _cu_digits(dev[2:]) if dev.startswith("cu") else None, "version label")
        put("gpu_build", dev != "cpu", "version label")
    match = _CU_LABEL.match(label)
    if match:
        put("cuda", _cu_digits(match.group("digits")), "version label")
    if label in ("cpu",):
        put("gpu_build", False, "version label")
    return built


def _cu_digits(digits: str) -> str:
    """ "124" -> "12.4", "118" -> "11.8", "12" -> "12"."""
    return f"{int(digits[:-1])}.{digits[-1]}" if len(digits) >= 3 else digits


def _xformers(text: str | None, put) -> None:  # noqa: ANN001
    if not text:
        return
    try:
        meta = json.loads(text)
    except ValueError:
        return
    version = meta.get("version") if isinstance(meta, dict) else None
    if not isinstance(version, dict):
        return
    src = "xformers/cpp_lib.json"
    put("torch", version.get("torch"), src)
    cuda = version.get("cuda")
    if isinstance(cuda, int) and cuda > 0:  # 1201 = CUDA 12.1, 1108 = 11.8 (major * 100 + minor)
        put("cuda", f"{cuda // 100}.{cuda % 100}", src)
    put("rocm", version.get("hip") or None, src)
    put("python", version.get("python"), src)


def _assignments(text: str | None) -> dict[str, Any]:
    """name = literal assignments of a generated Python file."""
    out: dict[str, Any] = {}
    for match in _ASSIGN.finditer(text or ""):
        try:
            out[match.group("key")] = ast.literal_eval(match.group("value"))
        except (ValueError, SyntaxError):
            continue
    return out


def _tf_build_info(text: str | None) -> dict[str, Any]:
    """TensorFlow's generated build_info.py: `build_info = collections.OrderedDict([(key, value),
    ...])` (tensorflow/tools/build_info/gen_build_info.py writes the sorted pairs)."""
    if not text:
        return {}
    match = re.search(
        r"build_info\s*=\s*(?:collections\.OrderedDict\()?(?P<body>[\[{].*[\]}])\)?\s*$",
        text,
        re.DOTALL | re.MULTILINE,
    )
    if not match:
        return {}
    try:
        value = ast.literal_eval(match.group("body"))
    except (ValueError, SyntaxError):
        return {}
    if isinstance(value, list):
        try:
            return dict(value)
        except (TypeError, ValueError):
            return {}
    return value if isinstance(value, dict) else {}


def summary(packages: Mapping[str, Mapping[str, Any]]) -> str:
    """One line: "tensorflow 2.16.1 (CUDA 12.3), xformers 0.0.28.post3 (torch 2.5.1+cu124)"."""
    parts = []
    for name, entry in packages.items():
        built = entry.get("built_for") or {}
        hint = ""
        if "torch" in built:
            hint = f" (torch {built['torch']['value']})"
        elif "cuda" in built:
            hint = f" (CUDA {built['cuda']['value']})"
        elif "cuda_major" in built:
            hint = f" (CUDA {built['cuda_major']['value']})"
        parts.append(f"{name} {entry.get('version')}{hint}")
    head = ", ".join(parts[:6])
    return head + (f", +{len(parts) - 6} more" if len(parts) > 6 else "")
