"""PyTorch builds that do not fit the AMD machine: another ROCm major, or CUDA / CPU builds."""

from __future__ import annotations

import re

from envdoctor.checkdef import check
from envdoctor.checks import amd_facts as af
from envdoctor.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.matrixset import MatrixSet
from envdoctor.remedies import fixes_for
from envdoctor.snapshot import Snapshot

_TORCH_TABLES = ("torch_releases", "torch_index")
_KMD_MATRIX = "https://rocm.docs.amd.com/projects/install-on-linux/en/latest/reference/user-kernel-space-compat-matrix.html"


def _major(version: str | None) -> int | None:
    match = re.match(r"\D*(\d+)", str(version or ""))
    return int(match.group(1)) if match else None


@check("rocm.torch-rocm-mismatch", needs=("python.torch", "amd.rocm"), matrices=_TORCH_TABLES)
def torch_rocm_mismatch(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """The torch ROCm wheel was built for another ROCm major than the one installed.

    An official torch ROCm wheel (`2.5.1+rocm6.2`, torch.version.hip "6.2.41133-...") ships the ROCm
    user-space libraries it was built with, so the system ROCm is not what it runs on; what it needs
    from the machine is an amdgpu kernel driver that supports that user space (AMD: up to +/- 2
    releases apart before ROCm 6.4, about a year apart from 6.4). Across a major version (a rocm5.x
    wheel on ROCm 6, a rocm6.x wheel on ROCm 7) that window is usually exceeded, and mixing the two
    (the system ROCm on LD_LIBRARY_PATH, extensions built against /opt/rocm) fails with undefined
    symbols, hipErrorNoDevice or wrong results.

    Fix: the newest torch wheel for the installed ROCm major (from PyTorch's own index), or a
    system ROCm of the wheel's major.
    """
    rocm = af.rocm_version(snap)
    if af.torch_backend(snap) != "rocm" or rocm is None:
        return None
    torch = snap.data("python.torch") or {}
    variant = af.torch_variant(snap) or ""
    built = variant[4:] if variant.startswith("rocm") else str(torch.get("hip") or "")
    if _major(built) is None or _major(built) == _major(rocm):
        return None
    choice = af.rocm_choice_for(snap, ms, rocm)
    fixes = list(
        af.torch_fixes(
            snap, ms, choice, f"built for ROCm {_major(rocm)}.x like the installed {rocm}"
        )
    )
    fixes.append(
        af.install_rocm_fix(
            snap, ".".join(built.split(".")[:2]), "the release the wheel was built for"
        )
    )
    return Finding(
        id="rocm.torch-rocm-mismatch",
        severity=Severity.WARNING,
        title=f"torch {torch.get('version')} is built for ROCm {built}, but ROCm {rocm} is installed",
        detail=(
            f"The wheel carries ROCm {built} user-space libraries; the system has ROCm {rocm} and its "
            "amdgpu driver. Across a major version the driver may not support the wheel's runtime, and "
            "anything that mixes the two (LD_LIBRARY_PATH=/opt/rocm/lib, extensions built against "
            "/opt/rocm) breaks."
        ),
        evidence=(
            Evidence(
                "python.torch.variant", variant or str(torch.get("hip")), f"rocm{_major(rocm)}.x"
            ),
            Evidence("amd.rocm.version", rocm),
        ),
        fixes=tuple(fixes)
        or (Fix("See which driver supports which user space", (), Risk.SAFE, _KMD_MATRIX),),
        explains=("torch.gpu-test-failed",),
    )


@check("rocm.cuda-torch-on-amd", needs=("python.torch", "amd.gpus"), matrices=_TORCH_TABLES)
def cuda_torch_on_amd(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """A CUDA or CPU build of PyTorch on a machine whose only GPUs are AMD.

    `pip install torch` on Linux gives the CUDA build from PyPI, and many requirements files pin a
    `+cu12x` or `+cpu` wheel. Neither can use an AMD GPU: torch.cuda.is_available() is False
    ("Found no NVIDIA driver on your system"). AMD GPUs need a ROCm build (`+rocm6.x`), which
    PyTorch publishes for Linux only on its own index (download.pytorch.org/whl/rocmX.Y), not on
    PyPI. On Windows there is no official ROCm wheel at all: use WSL2 with ROCm, or a CPU build.

    Fix: uninstall the torch packages and install the ROCm wheel for the installed ROCm major
    (or the newest ROCm variant when ROCm is not installed: the wheel brings its own ROCm
    libraries and needs only the amdgpu driver).
    """
    backend = af.torch_backend(snap)
    if backend not in ("cuda", "cpu"):
        return None
    gpus = [g for g in snap.fact("amd.gpus", "gpus") or [] if isinstance(g, dict)]
    if not gpus or snap.fact("nvidia.gpus", "gpus"):
        return None
    torch = snap.data("python.torch") or {}
    version = torch.get("version")
    names = ", ".join(
        sorted(
            {
                f"{g.get('name') or 'AMD GPU'}"
                + (f" ({g['gfx_target']})" if g.get("gfx_target") else "")
                for g in gpus
            }
        )
    )
    system = str(
        (snap.data("os") or {}).get("system") or (snap.data("python") or {}).get("platform") or ""
    )
    windows = system.lower().startswith("win")
    if windows:
        fixes: tuple[Fix, ...] = (
            Fix(
                "PyTorch publishes no ROCm wheels for Windows: run it in WSL2 with ROCm "
                "(then run envdoctor check there for the exact wheel)",
                ("wsl --install -d Ubuntu-24.04",),
                Risk.NEEDS_RESTART,
                "https://learn.microsoft.com/windows/wsl/install",
            ),
        )
    else:
        fixes = fixes_for(snap, ms, "torch-build-for-gpu", vendor="amd")
    kind = "CUDA" if backend == "cuda" else "CPU-only"
    return Finding(
        id="rocm.cuda-torch-on-amd",
        severity=Severity.ERROR,
        title=f"torch {version} is a {kind} build, but this machine's GPUs are AMD ({names})",
        detail=(
            f"A {kind} build of PyTorch cannot use AMD GPUs: torch.cuda.is_available() is False. "
            "AMD GPUs need a ROCm build from PyTorch's own index"
            + (" (Linux only)." if not windows else "; PyTorch publishes none for Windows.")
        ),
        evidence=(
            Evidence("python.torch.version", str(version), "a +rocm build"),
            Evidence("amd.gpus", names),
            Evidence("nvidia.gpus", "none"),
        ),
        fixes=fixes,
        explains=("torch.cpu-build-on-gpu-host", "torch.gpu-test-failed", "torch.driver-too-old"),
    )


CHECKS = [torch_rocm_mismatch, cuda_torch_on_amd]
