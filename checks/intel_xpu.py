"""Intel GPUs with PyTorch XPU or Intel Extension for PyTorch: runtime, permissions, versions."""

from __future__ import annotations

import re

from envdoctor.checks import amd_facts as af
from envdoctor.installers.pip_commands import detect_installer, install
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.names import canonical_name
from envdoctor.model.snapshot import Snapshot

XPU_DOC = "https://docs.pytorch.org/docs/stable/notes/get_start_xpu.html"
DRIVER_DOC = "https://dgpu-docs.intel.com/driver/client/overview.html"
COMPUTE_RUNTIME = "https://github.com/intel/compute-runtime/releases"
IPEX_CHECK = "https://github.com/intel/intel-extension-for-pytorch/blob/main/intel_extension_for_pytorch/__init__.py"
IPEX_XPU_INDEX = "https://pytorch-extension.intel.com/release-whl/stable/xpu/us/"
_IPEX_NAMES = ("intel-extension-for-pytorch", "intel_extension_for_pytorch")


def _distro(snap: Snapshot) -> tuple[str, str]:
    data = snap.data("os") or {}
    return str(data.get("distro_id") or "").lower(), str(data.get("distro_version") or "")


def _runtime_install(snap: Snapshot) -> tuple[Fix, ...]:
    distro, version = _distro(snap)
    if distro == "ubuntu" and version[:2].isdigit() and int(version[:2]) >= 24:
        return (
            Fix(
                "Install Intel's GPU compute runtime (Level Zero driver, loader, OpenCL) from Ubuntu",
                ("sudo apt update", "sudo apt install libze1 libze-intel-gpu1 intel-opencl-icd"),
                Risk.SAFE,
                DRIVER_DOC,
            ),
        )
    if distro == "debian":
        return (
            Fix(
                "Install the Level Zero loader and Intel OpenCL from Debian, and Intel's Level Zero GPU "
                "driver from the compute-runtime release packages (Debian 12 does not package it)",
                ("sudo apt update", "sudo apt install libze1 intel-opencl-icd"),
                Risk.SAFE,
                COMPUTE_RUNTIME,
            ),
        )
    return (
        Fix(
            "Install Intel's client GPU driver stack (Level Zero GPU driver and loader, OpenCL) for this "
            "distribution",
            (),
            Risk.SAFE,
            DRIVER_DOC,
        ),
    )


@check("intel.xpu-without-runtime", needs=("python.torch",))
def xpu_without_runtime(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """A PyTorch XPU build without Intel's GPU runtime (Level Zero driver) on the machine.

    PyTorch's XPU wheels (`+xpu`, from download.pytorch.org/whl/xpu) bring the SYCL runtime as pip
    packages, but not the GPU driver: "To use PyTorch on Intel GPUs, you need to install the Intel
    GPUs driver first". Without the Level Zero GPU driver (libze_intel_gpu.so, package
    libze-intel-gpu1 / intel-level-zero-gpu) and the loader (libze1), torch.xpu.is_available() is
    False. Raised only from live facts (the intel probe ran); a pasted collect_env says nothing
    about the runtime.
    """
    if af.torch_backend(snap) != "xpu":
        return None
    runtime_group = snap.group("intel.runtime")
    if runtime_group is None:
        return None
    torch = snap.data("python.torch") or {}
    runtime = snap.data("intel.runtime") or {}
    level_zero = runtime.get("level_zero") or {}
    gpus = snap.fact("intel.gpus", "gpus") or []
    has_driver = bool(level_zero.get("gpu_driver"))
    has_loader = bool(level_zero.get("loader"))
    if runtime_group.collected and has_driver and has_loader:
        return None
    if not gpus and not snap.has("intel.gpus") and snap.group("intel.gpus") is not None:
        return Finding(
            id="intel.xpu-without-runtime",
            severity=Severity.WARNING,
            title=f"torch {torch.get('version')} is an XPU build, but this machine has no Intel GPU",
            detail="The XPU build only runs on Intel GPUs (Arc, Data Center GPU Max / Flex, recent integrated "
            "graphics); none was found on the PCI bus.",
            evidence=(
                Evidence("python.torch.version", str(torch.get("version"))),
                Evidence("intel.gpus", "none", "an Intel GPU"),
            ),
            fixes=(
                Fix(
                    "Install the build for the GPU this machine has (envdoctor check shows it), or the CPU build",
                    (
                        install(
                            detect_installer(snap.data("python"), snap.data("python.packages")),
                            ["torch"],
                            "https://download.pytorch.org/whl/cpu",
                        ),
                    ),
                    Risk.SAFE,
                    XPU_DOC,
                ),
            ),
        )
    missing = [
        n
        for n, ok in (
            ("Level Zero GPU driver (libze_intel_gpu)", has_driver),
            ("Level Zero loader (libze_loader)", has_loader),
        )
        if not ok
    ]
    return Finding(
        id="intel.xpu-without-runtime",
        severity=Severity.ERROR,
        title=f"torch {torch.get('version')} is an XPU build, but Intel's GPU runtime is missing",
        detail=(
            "PyTorch XPU needs Intel's GPU driver stack on the machine; missing: "
            + ", ".join(missing)
            + ". torch.xpu.is_available() stays False until it is installed."
        ),
        evidence=(
            Evidence("python.torch.variant", str(torch.get("variant") or "xpu")),
            Evidence(
                "intel.runtime.level_zero",
                ", ".join(missing) + " not found",
                "libze_intel_gpu.so.1 and libze_loader.so.1",
            ),
        ),
        fixes=_runtime_install(snap)
        + (
            Fix(
                "Then check that PyTorch sees the GPU",
                ('python -c "import torch; print(torch.xpu.is_available())"',),
                Risk.SAFE,
                XPU_DOC,
            ),
        ),
        explains=("torch.gpu-test-failed",),
    )


@check("intel.render-node-permission", needs=("intel.gpus",))
def render_node_permission(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """This user cannot open the Intel GPU's /dev/dri/renderD* node.

    Level Zero and OpenCL open the GPU's render node, which belongs to the `render` group (`video`
    on older distributions: Ubuntu 18, Fedora 30, SLES 15 SP1), mode 0660. Outside the group the
    runtime finds no device: torch.xpu.is_available() is False, clinfo lists no GPU platform.
    """
    gpus = [g for g in snap.fact("intel.gpus", "gpus") or [] if isinstance(g, dict)]
    blocked = [g for g in gpus if (g.get("render_node") or {}).get("accessible") is False]
    if not blocked:
        return None
    node = blocked[0]["render_node"]
    group = node.get("group") or f"gid {node.get('gid')}"
    fixes = []
    if af.in_container(snap):
        fixes.append(
            Fix(
                "Start the container with the render node and the host's render gid",
                (
                    "ls -ln /dev/dri/renderD*",
                    f"docker run --device=/dev/dri --group-add {node.get('gid')} IMAGE",
                ),
                Risk.NEEDS_RESTART,
                "https://docs.docker.com/reference/cli/docker/container/run/#device",
            )
        )
    fixes.append(
        Fix(
            f"Add the user to the {group if node.get('group') else 'render'} group, then log out and back in",
            (
                f"sudo usermod -a -G {node.get('group') or 'render'} $LOGNAME",
                f"newgrp {node.get('group') or 'render'}",
                "id",
            ),
            Risk.NEEDS_RESTART,
            "https://intelpython.github.io/numba-dpex/latest/user_guide/debugging/set_up_machine.html",
        )
    )
    return Finding(
        id="intel.render-node-permission",
        severity=Severity.ERROR,
        title=f"This user cannot open {node.get('path')} (group {group}, mode {node.get('mode')})",
        detail="Intel's GPU runtime (Level Zero, OpenCL) opens the render node; without read and write access "
        "it sees no GPU.",
        evidence=tuple(
            Evidence(
                "intel.gpus.render_node",
                f"{(g['render_node'] or {}).get('path')} "
                f"{(g['render_node'] or {}).get('mode')} group {(g['render_node'] or {}).get('group')}",
                "read and write for this user",
            )
            for g in blocked
        ),
        fixes=tuple(fixes),
        explains=("intel.xpu-without-runtime", "torch.gpu-test-failed"),
    )


def _ipex(snap: Snapshot) -> tuple[str | None, str | None]:
    packages = (snap.data("python.packages") or {}).get("packages") or {}
    normalized = {canonical_name(str(k)): str(v) for k, v in packages.items()}
    ipex = next((normalized[n] for n in ("intel-extension-for-pytorch",) if n in normalized), None)
    torch = (snap.data("python.torch") or {}).get("version") or normalized.get("torch")
    return ipex, torch


def _minor(version: str | None) -> str | None:
    match = re.match(r"^\s*(\d+)\.(\d+)", str(version or ""))
    return f"{match.group(1)}.{match.group(2)}" if match else None


@check("intel.ipex-torch-mismatch", needs=("python.packages",))
def ipex_torch_mismatch(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """Intel Extension for PyTorch (IPEX) belongs to another torch release than the one installed.

    Each IPEX release is built for one torch minor: IPEX 2.3.x with torch 2.3.x, 2.1.x with 2.1.x.
    On import it checks this itself and exits: "ERROR! Intel® Extension for PyTorch* needs to work
    with PyTorch 2.6.*, but PyTorch 2.7.0+cpu is found. Please switch to the matching version and
    run again." (exit code 127). It happens when pip upgrades torch under an installed IPEX.

    Fix: the IPEX release for the installed torch, or the torch release IPEX was built for (XPU
    builds of IPEX come from Intel's wheel index, CPU builds from PyPI).
    """
    ipex, torch = _ipex(snap)
    if not ipex or not torch or _minor(ipex) is None or _minor(ipex) == _minor(torch):
        return None
    installer = detect_installer(snap.data("python"), snap.data("python.packages"))
    xpu = "xpu" in ipex or "xpu" in str(torch)
    extra = IPEX_XPU_INDEX if xpu else None
    fixes = (
        Fix(
            f"Install the IPEX release for torch {_minor(torch)}",
            (
                install(
                    installer,
                    [f"intel-extension-for-pytorch=={_minor(torch)}.*"],
                    extra_index_url=extra,
                ),
            ),
            Risk.SAFE,
            IPEX_CHECK,
        ),
        Fix(
            f"Or install the torch release IPEX {ipex} was built for",
            (install(installer, [f"torch=={_minor(ipex)}.*"], extra_index_url=extra),),
            Risk.SAFE,
            IPEX_CHECK,
        ),
    )
    return Finding(
        id="intel.ipex-torch-mismatch",
        severity=Severity.ERROR,
        title=f"intel-extension-for-pytorch {ipex} needs torch {_minor(ipex)}.*, but torch {torch} is installed",
        detail=(
            'IPEX checks the torch version when it is imported and exits with "Intel® Extension for PyTorch* '
            f'needs to work with PyTorch {_minor(ipex)}.*".'
        ),
        evidence=(
            Evidence("python.packages.intel-extension-for-pytorch", ipex),
            Evidence("python.torch.version", str(torch), f"{_minor(ipex)}.*"),
        ),
        fixes=fixes,
    )


@check("intel.oneapi-not-sourced", needs=("intel.runtime", "python.packages"))
def oneapi_not_sourced(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """oneAPI is installed but its environment (setvars.sh) is not loaded, and IPEX for XPU needs it.

    The oneAPI Base Toolkit installs into /opt/intel/oneapi and puts nothing on the library path by
    itself: `source /opt/intel/oneapi/setvars.sh` does (it sets ONEAPI_ROOT and
    SETVARS_COMPLETED=1). XPU builds of Intel Extension for PyTorch that use the toolkit's
    runtime fail to import without it (missing libsycl / libmkl / oneDNN libraries). Raised only
    when such an IPEX is installed and the environment shows setvars.sh was not sourced.
    """
    runtime = snap.data("intel.runtime") or {}
    oneapi = runtime.get("oneapi") or {}
    if not oneapi.get("exists") or oneapi.get("sourced") or not oneapi.get("setvars"):
        return None
    ipex, _torch = _ipex(snap)
    if not ipex or "xpu" not in ipex:
        return None
    setvars = oneapi["setvars"]
    return Finding(
        id="intel.oneapi-not-sourced",
        severity=Severity.WARNING,
        title=f"oneAPI is installed ({oneapi.get('root')}) but setvars.sh was not sourced",
        detail=(
            f"intel-extension-for-pytorch {ipex} runs on the oneAPI runtime libraries; this shell has not "
            f"loaded them ({setvars} was not sourced: SETVARS_COMPLETED and ONEAPI_ROOT are unset)."
        ),
        evidence=(
            Evidence("intel.runtime.oneapi.sourced", "false", "true"),
            Evidence("python.packages.intel-extension-for-pytorch", ipex),
        ),
        fixes=(
            Fix(
                "Load the oneAPI environment in this shell, and in every new one",
                (f"source {setvars}", f"echo 'source {setvars} > /dev/null' >> ~/.bashrc"),
                Risk.SAFE,
            ),
        ),
    )


CHECKS = [xpu_without_runtime, render_node_permission, ipex_torch_mismatch, oneapi_not_sourced]
