"""llama.cpp builds against the GPUs here: a CPU-only build on a GPU machine, a build for another
vendor's GPUs, and a CUDA build whose CUDA runtime libraries are not found."""

from __future__ import annotations

from typing import Any

from envdoctor.checks import apps_facts as af
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.snapshot import Snapshot
from envdoctor.queries import apps as aq

RELEASES = "https://github.com/ggml-org/llama.cpp/releases"


def _builds(snap: Snapshot) -> list[dict[str, Any]]:
    return [b for b in snap.fact("apps.llamacpp", "builds") or [] if isinstance(b, dict)]


def _host_vendors(snap: Snapshot, ms: MatrixSet) -> list[str]:
    vendors = []
    if af.nvidia_gpus(snap, ms):
        vendors.append("nvidia")
    if af.amd_gpus(snap):
        vendors.append("amd")
    return vendors


def _build_fix(ms: MatrixSet, vendor: str) -> Fix:
    fact = {"nvidia": "cuda-build", "amd": "hip-build"}.get(vendor, "vulkan-build")
    row = aq.row(ms, "llamacpp", fact) or {}
    what = {"nvidia": "CUDA (NVIDIA)", "amd": "HIP (AMD, needs ROCm)"}.get(vendor, "Vulkan")
    return Fix(
        f"Rebuild llama.cpp with its {what} backend in the checkout (or download a release built for it)",
        (row["command"],) if row.get("command") else (),
        Risk.SAFE,
        row.get("source") or RELEASES,
    )


@check(
    "app.llamacpp.cpu-build-on-gpu-host",
    "app.llamacpp.backend-mismatch",
    needs=("apps.llamacpp",),
    matrices=("apps",),
)
def llamacpp_backend(snap: Snapshot, ms: MatrixSet) -> list[Finding]:
    """A llama.cpp build has no backend for the GPUs of this machine.

    `app.llamacpp.cpu-build-on-gpu-host`: the build links no GPU runtime and ships no GPU backend
    library (ldd shows no libcudart / libcublas / libamdhip64 / libvulkan, no libggml-cuda.so
    beside it, `--version` initialises no GPU), so every layer runs on the CPU although an NVIDIA or
    AMD GPU is here. `app.llamacpp.backend-mismatch`: it was built for another vendor (CUDA on a
    machine with only AMD GPUs, HIP with only NVIDIA GPUs). Fixes: rebuild with the matching
    backend (-DGGML_CUDA=ON, -DGGML_HIP=ON, or -DGGML_VULKAN=ON for any GPU) or download the
    matching release build. A build whose backends could not be read is not judged.
    """
    vendors = _host_vendors(snap, ms)
    if not vendors:
        return []
    findings = []
    for build in _builds(snap):
        backends = set(build.get("backends") or [])
        if not backends:
            continue
        evidence = (
            Evidence(
                "apps.llamacpp backends",
                ", ".join(sorted(backends)),
                " / ".join({"nvidia": "cuda", "amd": "rocm"}[v] for v in vendors) + " (or vulkan)",
            ),
            Evidence(
                "evidence", "; ".join(build.get("backend_evidence") or ["no GPU library linked"])
            ),
        )
        if backends == {"cpu"}:
            findings.append(
                Finding(
                    id="app.llamacpp.cpu-build-on-gpu-host",
                    severity=Severity.WARNING,
                    title=f"llama.cpp at {build['path']} is a CPU-only build on a machine with a GPU",
                    detail="This build has no GPU backend, so -ngl offloads nothing and every layer runs on the CPU.",
                    evidence=evidence,
                    fixes=tuple(_build_fix(ms, v) for v in vendors) + (_build_fix(ms, "vulkan"),),
                )
            )
            continue
        usable = (
            "vulkan" in backends
            or ("cuda" in backends and "nvidia" in vendors)
            or ("rocm" in backends and "amd" in vendors)
        )
        if usable or not backends & {"cuda", "rocm"}:
            continue
        built_for = "CUDA (NVIDIA)" if "cuda" in backends else "HIP/ROCm (AMD)"
        here = " and ".join({"nvidia": "NVIDIA", "amd": "AMD"}[v] for v in vendors)
        findings.append(
            Finding(
                id="app.llamacpp.backend-mismatch",
                severity=Severity.WARNING,
                title=f"llama.cpp at {build['path']} is built for {built_for}, but the GPU here is {here}",
                detail=f"The build's GPU backend cannot drive the {here} GPU, so it runs on the CPU.",
                evidence=evidence,
                fixes=tuple(_build_fix(ms, v) for v in vendors) + (_build_fix(ms, "vulkan"),),
            )
        )
    return findings


@check("app.llamacpp.cuda-runtime-missing", needs=("apps.llamacpp",), matrices=("apps",))
def llamacpp_missing_libs(snap: Snapshot, ms: MatrixSet) -> list[Finding]:
    """A llama.cpp CUDA build cannot start because the dynamic loader does not find its CUDA
    runtime libraries (ldd: "libcudart.so.12 => not found", "libcublas.so.12 => not found"): the
    CUDA toolkit (or its runtime) of that major is missing, or its lib directory is not on the
    loader path. Fixes: install that CUDA major's runtime libraries, or point LD_LIBRARY_PATH at
    the toolkit that has them, or use a release build that bundles them."""
    findings = []
    for build in _builds(snap):
        missing = [
            m
            for m in build.get("missing_libs") or []
            if any(k in m for k in ("libcudart", "libcublas"))
        ]
        if not missing:
            continue
        major = build.get("cuda_major")
        toolkit = snap.fact("cuda.toolkits", "toolkits") or []
        fixes = [
            Fix(
                f"Install the CUDA {major or ''} runtime libraries (cudart, cuBLAS) the build was linked "
                "against, or rebuild llama.cpp against the CUDA toolkit installed here",
                tuple(
                    c for c in [(aq.row(ms, "llamacpp", "cuda-build") or {}).get("command")] if c
                ),
                Risk.SAFE,
                "https://developer.nvidia.com/cuda-downloads",
            )
        ]
        if toolkit:
            fixes.append(
                Fix(
                    "Or put an installed toolkit's lib64 on the loader path for this shell",
                    ("export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH",),
                )
            )
        findings.append(
            Finding(
                id="app.llamacpp.cuda-runtime-missing",
                severity=Severity.ERROR,
                title=f"llama.cpp at {build['path']} cannot load its CUDA runtime ({missing[0].split(' ')[0]} not found)",
                detail="The executable (or its CUDA backend library) links CUDA runtime libraries the loader does not find: "
                + "; ".join(missing[:3]),
                evidence=(Evidence("ldd", "; ".join(missing[:3]), "every library found"),),
                fixes=tuple(fixes),
            )
        )
    return findings


CHECKS = [llamacpp_backend, llamacpp_missing_libs]
