"""The torch build against the GPU and driver it has to run on: CPU-only builds, drivers too old
for the build's CUDA, GPUs the wheel has no kernels for (too new or too old)."""

from __future__ import annotations

from envdoctor.checkdef import check
from envdoctor.checks.torch_context import TorchContext, torch_context
from envdoctor.findings import Evidence, Finding, Fix, Severity
from envdoctor.matrixset import MatrixSet
from envdoctor.pip_commands import TorchTarget
from envdoctor.queries import nvidia as nq
from envdoctor.queries import torch as tq
from envdoctor.queries.torch_fixes import missing_kernels
from envdoctor.remedies import fixes_for
from envdoctor.snapshot import Snapshot
from envdoctor.versions import major_minor, parse

_DRIVER_DOWNLOADS = "https://www.nvidia.com/en-us/drivers/"
PREVIOUS_URL = "https://pytorch.org/get-started/previous-versions/"
_COMPAT = "https://docs.nvidia.com/deploy/cuda-compatibility/minor-version-compatibility.html"
_SYMPTOM = ("torch.gpu-test-failed",)
_TORCH_MATRICES = ("torch_releases", "torch_arch", "torch_index")


def _gpu_names(ctx: TorchContext) -> str:
    names = [
        f"{g.get('name') or 'GPU'} (sm_{str(g['capability']).replace('.', '')})"
        if g.get("capability")
        else str(g.get("name") or "GPU")
        for g in ctx.gpus
    ]
    return ", ".join(names)


def _remedies(snap: Snapshot, ms: MatrixSet, *kinds: str, **params: str) -> tuple[Fix, ...]:
    """The chooser's fixes for these remedy kinds, in the order named (least disruptive first)."""
    return fixes_for(snap, ms, *kinds, **params)


@check(
    "torch.cpu-build-on-gpu-host",
    "torch.cpu-build-no-gpu",
    needs=("python.torch",),
    matrices=_TORCH_MATRICES,
)
def cpu_build(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """PyTorch is a CPU-only build.

    A CPU-only wheel (`torch.__version__` ends in `+cpu`, `torch.version.cuda` is None) can never
    use a GPU: `torch.cuda.is_available()` is False and `.cuda()` raises "Torch not compiled with
    CUDA enabled". It is what `pip install torch` gives on Windows (PyPI hosts only the CPU build
    there), what the CPU index gives everywhere, and what many requirements files pin. On a
    machine with an NVIDIA or AMD GPU that is a mistake; the fix is the CUDA (or ROCm) wheel of the
    newest variant that has kernels for the GPU and that the driver can run, from PyTorch's own
    index. On a machine without a GPU a CPU build is right and there is nothing to fix: envdoctor
    then only notes it (torch.cpu-build-no-gpu, info).
    """
    ctx = torch_context(snap, ms)
    if ctx.backend != "cpu":
        return None
    version = ctx.torch.get("version")
    evidence = [
        Evidence("python.torch.version", str(version)),
        Evidence("python.torch.cuda", str(ctx.torch.get("cuda")), "a CUDA version for GPU use"),
    ]
    if ctx.gpus:
        loaded = ctx.driver_version is not None
        fixes = _remedies(snap, ms, "torch-build-for-gpu")
        detail = (
            f"torch {version} is a CPU-only build, but this machine has {_gpu_names(ctx)}. "
            "torch.cuda.is_available() is False with this build whatever the driver does."
        )
        if not loaded:
            detail += (
                " No NVIDIA driver is loaded either: the new build needs one "
                "(see the NVIDIA layer)."
            )
        return Finding(
            id="torch.cpu-build-on-gpu-host",
            severity=Severity.ERROR if loaded else Severity.WARNING,
            title=f"torch {version} is a CPU-only build on a machine with an NVIDIA GPU",
            detail=detail,
            evidence=tuple(evidence + [Evidence("nvidia.gpus", _gpu_names(ctx))]),
            fixes=fixes,
            explains=_SYMPTOM,
        )
    if ctx.amd_gpus and (ctx.os or "").startswith("linux"):
        targets = ", ".join(
            str(g.get("gfx_target") or g.get("name") or "AMD GPU") for g in ctx.amd_gpus
        )
        fixes = _remedies(snap, ms, "torch-build-for-gpu", vendor="amd")
        return Finding(
            id="torch.cpu-build-on-gpu-host",
            severity=Severity.ERROR,
            title=f"torch {version} is a CPU-only build on a machine with an AMD GPU",
            detail=(
                f"torch {version} has no ROCm support, but this machine has {targets}. Install a "
                "ROCm wheel (check that your GPU's gfx target is among those ROCm supports)."
            ),
            evidence=tuple(evidence + [Evidence("amd.gpus", targets)]),
            fixes=fixes,
            explains=_SYMPTOM,
        )
    if ctx.os == "macos":
        return None  # macOS wheels are CPU + MPS builds: the Apple GPU is reached through MPS
    intent = _cuda_packages(ctx)
    if intent and not any(snap.group(g) for g in ("nvidia.gpus", "nvidia.pci", "amd.gpus")):
        return Finding(
            id="torch.cpu-build-on-gpu-host",
            severity=Severity.WARNING,
            title=f"torch {version} is a CPU-only build next to CUDA packages ({', '.join(intent)})",
            detail=(
                f"This environment holds CUDA runtime packages ({', '.join(intent)}), so it was meant "
                f"for a GPU, but torch {version} is a CPU-only build and can never use one. No GPU "
                "facts were given; run envdoctor check on that machine for the exact reinstall command."
            ),
            evidence=tuple(evidence + [Evidence("CUDA packages", ", ".join(intent))]),
            fixes=_cpu_to_cuda_hint(ctx, ms),
            explains=_SYMPTOM,
        )
    return _no_gpu_note(snap, ctx, str(version))


def _cuda_packages(ctx: TorchContext) -> list[str]:
    """CUDA runtime packages in the environment: signs it was meant for a GPU."""
    wanted = (
        "cudatoolkit",
        "pytorch-cuda",
        "cuda-runtime",
        "cuda-cudart",
        "nvidia-cuda-runtime-cu",
    )
    return [f"{n} {v}" for n, v in sorted(ctx.installed.items()) if n.startswith(wanted)]


def _cpu_to_cuda_hint(ctx: TorchContext, ms: MatrixSet) -> tuple[Fix, ...]:
    """Without GPU facts: the release's PyPI-default CUDA wheel for Linux, from its index."""
    version = str(ctx.torch.get("version") or "")
    variant = tq.pypi_default(ms, version, "linux")
    url = tq.index_url(ms, variant) if variant else None
    if not variant or not url or not str(variant).startswith("cu"):
        return ()
    comp = tq.companion_versions(ms, version)
    target = TorchTarget(
        version.split("+")[0],
        variant,
        url,
        comp.get("torchvision"),
        comp.get("torchaudio"),
        exact=True,
    )
    from envdoctor.pip_commands import torch_reinstall

    commands = torch_reinstall(
        ctx.installer,
        target,
        ctx.installed or {"torch": version},
        dict(ctx.packages.get("installers") or {}),
    )
    return (
        Fix(
            f"Reinstall torch {target.torch} as its {variant} build (the CUDA build PyPI ships on Linux; "
            "check it has kernels for your GPU)",
            commands,
            url="https://pytorch.org/get-started/locally/",
        ),
    )


def _no_gpu_note(snap: Snapshot, ctx: TorchContext, version: str) -> Finding:
    group = snap.group("nvidia.gpus")
    pci = snap.data("nvidia.pci")
    if pci is not None and not [
        d for d in pci.get("devices") or [] if isinstance(d, dict) and d.get("is_gpu")
    ]:
        seen = "no NVIDIA device on the PCI bus"
    elif group is None:
        seen = (
            "no GPU facts were given" if snap.origin == "pasted" else "no GPU probe reported a GPU"
        )
    elif group.collected:
        seen = "nvidia.gpus lists no GPU"
    elif group.status.value == "failed":
        seen = f"GPU presence unknown: {group.reason or 'the GPU probe failed'}"
    else:
        seen = f"no NVIDIA GPU ({group.reason or group.status.value})"
    title = (
        f"torch {version} is a CPU-only build and no GPU was found: nothing to fix for GPU use"
        if group is not None or snap.origin != "pasted"
        else f"torch {version} is a CPU-only build (the pasted text shows no GPU)"
    )
    return Finding(
        id="torch.cpu-build-no-gpu",
        severity=Severity.INFO,
        title=title,
        detail=(
            f"This environment's torch runs on the CPU only, which is right for a machine "
            f"without a GPU ({seen}). If you move it to a GPU machine, reinstall torch from the "
            "CUDA index there; envdoctor check on that machine prints the exact command."
        ),
        evidence=(Evidence("python.torch.version", version), Evidence("GPUs", seen)),
    )


@check(
    "torch.driver-too-old",
    needs=("python.torch", "nvidia.driver"),
    matrices=_TORCH_MATRICES + ("cuda_compat",),
)
def driver_too_old(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """The NVIDIA driver is too old for the CUDA this torch was built with.

    A CUDA build of torch loads only on a driver that supports its CUDA version. Since CUDA 11,
    minor-version compatibility lets a build of CUDA X.y run on any driver of the X major's branch
    floor (CUDA 12.x: 525 or newer; CUDA 13.x: 580 or newer), so torch cu124 runs on a 535 driver
    that nvidia-smi reports as "CUDA Version: 12.2" -- no problem. Across majors it does not:
    torch cu130 / cu132 need a 580-series driver, and an older one gives "The NVIDIA driver on
    your system is too old" and is_available() False. Kernels that exist only as PTX are
    JIT-compiled by the driver, which needs the build's full CUDA version. The fix is either a
    torch variant the driver supports (fastest, no reboot) or a newer driver.
    """
    ctx = torch_context(snap, ms)
    cuda = ctx.torch.get("cuda")
    if ctx.backend != "cuda" or not cuda or not ctx.driver_version:
        return None
    os_name = "windows" if ctx.os == "windows" else "linux"
    runs = nq.driver_supports_cuda(ms, ctx.driver_version, cuda, os_name)
    if runs is None:
        return None
    version = ctx.torch.get("version")
    evidence = [
        Evidence("python.torch.cuda", str(cuda)),
        Evidence("nvidia.driver.driver_version", str(ctx.driver_version)),
        Evidence("nvidia.driver.cuda_driver_max", str(ctx.driver_max_cuda)),
    ]
    major = parse(cuda).release[0] if parse(cuda) else 0
    floor = nq.compat_floor(ms, major, os_name)
    if runs:
        return _ptx_only_warning(snap, ctx, ms, cuda, evidence)
    need = nq.min_driver_for_cuda(ms, cuda, os_name) or floor
    # the wheel first (no reboot), the driver after: the verifier drops a driver the GPU cannot run
    kinds = ("torch-build-for-driver",) if ctx.capabilities else ()
    fixes = _remedies(snap, ms, *kinds, "driver-for-torch")
    return Finding(
        id="torch.driver-too-old",
        severity=Severity.ERROR,
        title=f"torch {version} needs CUDA {cuda}; driver {ctx.driver_version} is too old for it",
        detail=(
            f"torch {version} was built with CUDA {cuda}. Driver {ctx.driver_version} supports "
            f"CUDA {ctx.driver_max_cuda or 'an older major'}, and CUDA {major}.x builds need at "
            f"least driver {floor or need} even with minor-version compatibility, so torch "
            'cannot initialise CUDA ("The NVIDIA driver on your system is too old").'
        ),
        evidence=tuple(
            evidence + [Evidence("driver floor", str(ctx.driver_version), f">= {floor or need}")]
        ),
        fixes=tuple(fixes),
        explains=_SYMPTOM,
    )


def _ptx_only_warning(
    snap: Snapshot, ctx: TorchContext, ms: MatrixSet, cuda: str, evidence: list[Evidence]
) -> Finding | None:
    """Minor-version compatibility holds, but a GPU served only by PTX needs the full driver."""
    drv = parse(ctx.driver_max_cuda) if ctx.driver_max_cuda else None
    build = parse(major_minor(cuda))
    if drv is None or build is None or drv >= build:
        return None
    arches, _ = ctx.arches(ms)
    if arches is None:
        return None
    ptx_only = [
        g
        for g in ctx.gpus
        if g.get("capability")
        and not missing_kernels(arches, [g["capability"]])
        and not any(a.startswith("sm_") and tq.has_kernels([a], g["capability"]) for a in arches)
    ]
    if not ptx_only:
        return None
    names = ", ".join(str(g.get("name")) for g in ptx_only)
    return Finding(
        id="torch.driver-too-old",
        severity=Severity.WARNING,
        title=f"{names}: torch's kernels are PTX only and driver {ctx.driver_version} is older than CUDA {cuda}",
        detail=(
            f"torch {ctx.torch.get('version')} has no compiled kernels for {names}, only PTX that the "
            f"driver must JIT-compile; PTX from CUDA {cuda} needs a driver supporting CUDA {cuda}, "
            f"and this one supports {ctx.driver_max_cuda}. Expect 'the provided PTX was compiled "
            "with an unsupported toolchain'."
        ),
        evidence=tuple(evidence),
        fixes=_remedies(snap, ms, "torch-build-for-gpu"),
        explains=_SYMPTOM,
    )


@check(
    "torch.gpu-too-new-for-build",
    "torch.gpu-too-old-for-build",
    needs=("python.torch", "nvidia.gpus"),
    matrices=_TORCH_MATRICES,
)
def gpu_kernels(snap: Snapshot, ms: MatrixSet) -> list[Finding]:
    """The GPU's compute capability is not in the torch wheel's architecture list.

    Every official wheel carries compiled kernels (SASS) for a fixed list of architectures
    (`torch.cuda.get_arch_list()`), sometimes plus PTX for the newest. A GPU outside the list gets
    "no kernel image is available for execution on the device" on its first kernel, even though
    torch.cuda.is_available() is True. Too new: RTX 50 series / RTX PRO Blackwell (sm_120) need
    torch 2.7 or newer with cu128 or a later CUDA; `pip install torch==2.7.*` on Linux gives the
    cu126 build, which has no sm_120. Too old: Maxwell and Pascal (sm_50 / sm_6x) were dropped from
    the cu128 builds of 2.8 and later and the cu130 / cu132 builds start at sm_75 (Volta's sm_70 is
    gone from cu128 in 2.11 as well), so cu126 is the last variant for them. The fix proposes the
    newest variant that has kernels for every GPU here and that the driver can run.
    """
    ctx = torch_context(snap, ms)
    if ctx.backend != "cuda" or not ctx.capabilities:
        return []
    arches, source = ctx.arches(ms)
    if arches is None:
        return []
    missing = missing_kernels(arches, ctx.capabilities)
    if not missing:
        return []
    compiled = sorted({int(a.split("_")[1]) for a in arches if a.split("_")[-1].isdigit()})
    findings = []
    for cc in sorted(set(missing)):
        sm = int(cc.replace(".", ""))
        too_new = bool(compiled) and sm > max(compiled)
        findings.append(_kernel_finding(snap, ctx, ms, cc, too_new, arches, source))
    return findings


def _kernel_finding(
    snap: Snapshot,
    ctx: TorchContext,
    ms: MatrixSet,
    cc: str,
    too_new: bool,
    arches: list[str],
    source: str | None,
) -> Finding:
    version = str(ctx.torch.get("version"))
    gpus = ", ".join(str(g.get("name")) for g in ctx.gpus if g.get("capability") == cc)
    sm = f"sm_{cc.replace('.', '')}"
    variant = ctx.build_variant(ms)
    default = tq.pypi_default(ms, version, ctx.os or "") if ctx.os else None
    pypi_note = (
        f" {variant} is what a plain `pip install torch=={major_minor(version)}.*` gets from PyPI on "
        f"{'Linux' if ctx.os == 'linux' else ctx.os}."
        if variant and variant == default
        else ""
    )
    fixes = _remedies(snap, ms, "torch-build-for-gpu")
    which = "too new" if too_new else "too old"
    fix_id = "torch.gpu-too-new-for-build" if too_new else "torch.gpu-too-old-for-build"
    return Finding(
        id=fix_id,
        severity=Severity.ERROR,
        title=f"{gpus} ({sm}) is {which} for torch {version}: no kernels for it",
        detail=(
            f"torch {version} ({variant or 'unlabelled build'}) has kernels for {' '.join(arches)} "
            f"(from {source}); {gpus} has compute capability {cc}, so every CUDA kernel fails with "
            '"no kernel image is available for execution on the device" although '
            f"torch.cuda.is_available() is True.{pypi_note}"
        ),
        evidence=(
            Evidence("python.torch.version", version),
            Evidence("GPU compute capability", cc),
            Evidence("arch list", " ".join(arches), f"{sm} (or PTX below it)"),
        ),
        fixes=fixes,
        explains=_SYMPTOM,
    )


CHECKS = [cpu_build, driver_too_old, gpu_kernels]
