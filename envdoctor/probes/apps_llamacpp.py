"""llama.cpp builds and the backend each was built with.

Fills `apps.llamacpp` (absent when no build is found) with `builds`: one entry per executable
found on PATH (`llama-server`, `llama-cli`, `llama-bench`) or in an `--app-dir` llama.cpp checkout
(`build/bin/`, `bin/`, the folder itself): {path, how, version, commit, built_with, backends
(cuda / rocm / vulkan / sycl / metal / cpu), backend_evidence, cuda_major, cuda_archs (from a
`CUDA : ARCHS = 520,610,...` line), devices [{name, compute}] (from `ggml_cuda_init` lines),
missing_libs ("libcudart.so.12 => not found"), errors}.

Where the backends come from, on the live machine: `ldd` of the executable and of the ggml backend
libraries beside it (libcudart/libcublas -> cuda, libamdhip64/libhipblas/librocblas -> rocm,
libvulkan -> vulkan, libsycl/libze_loader -> sycl), the backend libraries' own names
(libggml-cuda.so, ggml-hip.dll, ...) and `--version` (10 s: a CUDA build initialises CUDA and
prints its devices). An inspected `--root` tree gets the file names only (its libraries are not
this machine's).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from envdoctor.model.snapshot import FactGroup, absent, collected
from envdoctor.probes import apps_layout
from envdoctor.probes.context import ProbeContext

GROUPS = ("apps.llamacpp",)
TIMEOUT_S = 25.0
SOURCE = "probe:apps_llamacpp"
NAMES = ("llama-server", "llama-cli", "llama-bench")
MAX_BUILDS = 4

_LIB_BACKENDS = (
    ("cuda", re.compile(r"\blib(?:cudart|cublasLt|cublas)\.so(?:\.(\d+))?|\blibcuda\.so")),
    ("rocm", re.compile(r"\blib(?:amdhip64|hipblas|rocblas)\.so")),
    ("vulkan", re.compile(r"\blibvulkan\.so")),
    ("sycl", re.compile(r"\blib(?:sycl|ze_loader)\.so")),
)
_BACKEND_FILES = (
    ("cuda", "ggml-cuda"),
    ("cuda", "ggml_cuda"),
    ("rocm", "ggml-hip"),
    ("rocm", "ggml_hip"),
    ("vulkan", "ggml-vulkan"),
    ("sycl", "ggml-sycl"),
    ("metal", "ggml-metal"),
)
_VERSION = re.compile(r"^version:\s*(\d+)\s*\(([0-9a-f]+|unknown)\)", re.MULTILINE)
_BUILT = re.compile(r"^built with (.+?)\s*$", re.MULTILINE)
_DEVICE = re.compile(r"Device \d+:\s*(.+?), compute capability (\d+\.\d+)")
_ARCHS = re.compile(r"CUDA : ARCHS = ([\d,]+)")
_LOADED = re.compile(r"load_backend: loaded (\w+) backend")


def binaries_on_path(ctx: ProbeContext) -> list[str]:
    """llama.cpp executables found on PATH."""
    return [p for p in (ctx.which(n) for n in NAMES) if p]


def _candidates(ctx: ProbeContext) -> list[tuple[str, str]]:
    out = [(p, "PATH") for p in binaries_on_path(ctx)]
    for folder in ctx.options.app_dirs:
        if apps_layout.identify(ctx, folder) != "llamacpp" and not any(
            ctx.exists(apps_layout.join(folder, n)) for n in NAMES
        ):
            continue
        for sub in ("build/bin", "bin", ""):
            for name in NAMES:
                for exe in (name, f"{name}.exe"):
                    path = (
                        apps_layout.join(folder, sub, exe) if sub else apps_layout.join(folder, exe)
                    )
                    if ctx.exists(path):
                        out.append((path, "app-dir"))
    seen: set[str] = set()
    unique = []
    for path, how in out:
        key = os.path.realpath(ctx.path(path))
        if key not in seen:
            seen.add(key)
            unique.append((path, how))
    return unique[:MAX_BUILDS]


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Describe every llama.cpp build found."""
    builds = [describe(ctx, path, how) for path, how in _candidates(ctx)]
    if not builds:
        return [
            absent(
                "apps.llamacpp",
                SOURCE,
                "no llama.cpp build: no llama-server / llama-cli on PATH or in an --app-dir",
            )
        ]
    shown = [
        f"{Path(b['path']).name} ({', '.join(b['backends']) or 'backend unknown'})" for b in builds
    ]
    return [
        collected(
            "apps.llamacpp", SOURCE, {"builds": builds}, summary="llama.cpp: " + "; ".join(shown)
        )
    ]


def _live(ctx: ProbeContext, path: str) -> bool:
    return ctx.root == Path("/") or ctx.which(Path(path).name) == path


def describe(ctx: ProbeContext, path: str, how: str) -> dict[str, Any]:
    """One build: version, backends and the evidence for each."""
    build: dict[str, Any] = {
        "path": path,
        "how": how,
        "version": None,
        "commit": None,
        "built_with": None,
        "backends": [],
        "backend_evidence": [],
        "cuda_major": None,
        "cuda_archs": None,
        "devices": [],
        "missing_libs": [],
        "errors": [],
    }
    found: dict[str, list[str]] = {}
    folder = str(Path(path).parent)
    libs = []
    for lib_dir in (folder, str(Path(folder).parent / "lib")):
        for name in ctx.listdir(lib_dir):
            for backend, stem in _BACKEND_FILES:
                if stem in name and (name.endswith((".so", ".dll", ".dylib")) or ".so." in name):
                    found.setdefault(backend, []).append(f"{lib_dir}/{name}")
                    libs.append(f"{lib_dir}/{name}")
    live = _live(ctx, path)
    if live and ctx.which("ldd") and not path.lower().endswith(".exe"):
        for target in [path] + [lib for lib in libs if lib.endswith(".so") or ".so." in lib][:3]:
            _ldd(ctx, target, build, found)
    if live and not path.lower().endswith(".exe"):
        result = ctx.run([path, "--version"], timeout_s=10.0)
        _version_output(result.stdout + "\n" + result.stderr, build, found)
        if not result.ok:
            build["errors"].append(result.describe_failure())
    build["backends"] = sorted(found) or (["cpu"] if build.get("_read") else [])
    build["backend_evidence"] = [
        f"{b}: {e}" for b, items in sorted(found.items()) for e in items[:2]
    ]
    build.pop("_read", None)
    return build


def _ldd(
    ctx: ProbeContext, target: str, build: dict[str, Any], found: dict[str, list[str]]
) -> None:
    result = ctx.run(["ldd", target], timeout_s=5.0)
    if not result.ok:
        if target == build["path"]:
            build["errors"].append(f"ldd: {result.describe_failure()}")
        return
    build["_read"] = True
    for line in result.stdout.splitlines():
        if "not found" in line:
            build["missing_libs"].append(line.strip())
        for backend, pattern in _LIB_BACKENDS:
            match = pattern.search(line)
            if match:
                found.setdefault(backend, []).append(
                    f"ldd {Path(target).name}: {line.strip().split(' ')[0]}"
                )
                if backend == "cuda" and match.group(1) and build["cuda_major"] is None:
                    build["cuda_major"] = int(match.group(1))


def _version_output(text: str, build: dict[str, Any], found: dict[str, list[str]]) -> None:
    version, built = _VERSION.search(text), _BUILT.search(text)
    if version:
        build["version"], build["commit"] = version.group(1), version.group(2)
        build["_read"] = True
    if built:
        build["built_with"] = built.group(1)
    for name, compute in _DEVICE.findall(text):
        build["devices"].append({"name": name.strip(), "compute": compute})
    if "ggml_cuda_init" in text:
        found.setdefault("cuda", []).append("--version: ggml_cuda_init")
    for backend in _LOADED.findall(text):
        key = {
            "cuda": "cuda",
            "rocm": "rocm",
            "hip": "rocm",
            "vulkan": "vulkan",
            "sycl": "sycl",
            "metal": "metal",
        }.get(backend.lower())
        if key:
            found.setdefault(key, []).append(f"--version: loaded {backend} backend")
    if "ggml_vulkan:" in text:
        found.setdefault("vulkan", []).append("--version: ggml_vulkan")
    archs = _ARCHS.search(text)
    if archs:
        build["cuda_archs"] = [int(a) for a in archs.group(1).split(",") if a]
