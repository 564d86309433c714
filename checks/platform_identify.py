"""Which platform a pasted output comes from (WSL 2, native Windows, macOS, Jetson, a VM), and the
rules that platform brings. Live checks show the platform in the platform.* fact groups instead."""

from __future__ import annotations

from typing import Any

from envdoctor.checks import platform_facts as pf
from envdoctor.checks.platform_jetson import jetpack_row, jetson_facts
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Severity
from envdoctor.model.snapshot import Snapshot

_NEEDS = ("nvidia.driver", "nvidia.gpus", "os", "platform.opengl", "platform.jetson")


def _gpu_names(snap: Snapshot) -> str:
    names = [str(g.get("name")) for g in pf.nvidia_gpus(snap) if g.get("name")]
    return ", ".join(names)


def _jetson(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    facts = jetson_facts(snap)
    if facts is None:
        return None
    l4t = facts.get("l4t_version")
    row = jetpack_row(ms, l4t) or {}
    parts = [f"{k} {row[k]}" for k in ("cuda", "cudnn", "tensorrt") if row.get(k)]
    jetpack = f"JetPack {row['jetpack']}" if row.get("jetpack") else None
    title = (
        "The pasted output comes from an NVIDIA Jetson"
        + (f", L4T {l4t}" if l4t else "")
        + (f" ({jetpack})" if jetpack else "")
    )
    detail = (
        "Jetson rules: the CUDA driver is part of Jetson Linux (L4T), torch must be NVIDIA's JetPack build, and GPU "
        "load is read with tegrastats or jtop, not nvidia-smi."
    )
    if parts:
        detail += (
            f" {jetpack} ships "
            + ", ".join(
                p.replace("cuda", "CUDA").replace("cudnn", "cuDNN").replace("tensorrt", "TensorRT")
                for p in parts
            )
            + (
                " (as community tools map this L4T release; NVIDIA's page for it was not read)"
                if row.get("unverified")
                else ""
            )
            + "."
        )
    evidence = [
        Evidence("L4T", str(l4t or "unknown")),
        Evidence("L4T from", str(facts.get("l4t_source"))),
    ]
    if jetpack:
        evidence.append(Evidence("JetPack", str(row["jetpack"])))
    return Finding(
        id="platform.identified",
        severity=Severity.INFO,
        title=title,
        detail=detail,
        evidence=tuple(evidence),
        fixes=(
            Fix(
                "On the Jetson, show the release and watch GPU load",
                ("cat /etc/nv_tegra_release", "apt show nvidia-jetpack", "sudo tegrastats"),
            ),
        ),
    )


def _wsl(snap: Snapshot) -> Finding | None:
    state = pf.wsl_state(snap)
    if not state.is_wsl:
        return None
    driver: dict[str, Any] = snap.data("nvidia.driver") or {}
    version = f"WSL {state.version}" if state.version else "WSL"
    gpus = _gpu_names(snap)
    title = f"The pasted output comes from {version}"
    if driver.get("driver_version"):
        title += f", on Windows NVIDIA driver {driver['driver_version']}"
        if driver.get("smi_version") and driver.get("smi_version") != driver.get("driver_version"):
            title += f" (the Linux nvidia-smi is {driver['smi_version']})"
    detail = (
        'In WSL 2 the GPU driver is the Windows one: nvidia-smi\'s "Driver Version" is the Windows driver, '
        "CUDA's libcuda.so.1 comes from /usr/lib/wsl/lib, and a Linux NVIDIA driver must never be installed inside "
        "WSL (install only cuda-toolkit-X-Y there). Driver updates happen on Windows."
    )
    if gpus:
        detail += f" GPU: {gpus}."
    gfx = pf.graphics(snap)
    if gfx and gfx.get("renderer"):
        detail += f" OpenGL renderer: {gfx['renderer']}."
    evidence = tuple(Evidence(f, v) for f, v in state.evidence)
    if state.windows_build:
        evidence += (Evidence("Windows build", str(state.windows_build)),)
    return Finding(
        id="platform.identified",
        severity=Severity.INFO,
        title=title,
        detail=detail,
        evidence=evidence,
        fixes=(
            Fix(
                "Update the GPU driver on Windows, and WSL from PowerShell",
                ("wsl --update",),
                url=pf.WSL_GPU_DOCS,
            ),
        ),
    )


def _windows(snap: Snapshot) -> Finding | None:
    driver = snap.data("nvidia.driver") or {}
    if driver.get("platform") != "windows" and pf.os_system(snap) != "Windows":
        return None
    models = sorted(
        {str(g.get("driver_model")) for g in pf.nvidia_gpus(snap) if g.get("driver_model")}
    )
    title = "The pasted output comes from native Windows" + (
        f", NVIDIA driver {driver['driver_version']}" if driver.get("driver_version") else ""
    )
    if models:
        title += f" ({'/'.join(models)} mode)"
    detail = (
        "Windows rules: plain `pip install torch` gives the CPU-only build (CUDA builds come from "
        "download.pytorch.org), TensorFlow 2.11 and newer has no GPU support on native Windows (use WSL 2), and "
        "a GPU in TCC mode does no graphics while WDDM GPUs are subject to TDR resets."
    )
    evidence = [
        Evidence("nvidia.driver.platform", str(driver.get("platform") or pf.os_system(snap)))
    ]
    if models:
        evidence.append(Evidence("driver model", ", ".join(models)))
    return Finding(
        id="platform.identified",
        severity=Severity.INFO,
        title=title,
        detail=detail,
        evidence=tuple(evidence),
    )


def _macos(snap: Snapshot) -> Finding | None:
    if pf.os_system(snap) != "Darwin":
        return None
    arch = snap.fact("os", "arch") or snap.fact("python", "machine")
    title = "The pasted output comes from macOS" + (f" ({arch})" if arch else "")
    detail = (
        "macOS rules: no CUDA; torch reaches the Apple GPU through MPS, which needs Apple silicon, an arm64 Python "
        "(not x86_64 under Rosetta) and a recent macOS (14 or later for current PyTorch)."
    )
    return Finding(
        id="platform.identified",
        severity=Severity.INFO,
        title=title,
        detail=detail,
        evidence=(Evidence("os.system", "Darwin"),)
        + ((Evidence("arch", str(arch)),) if arch else ()),
    )


def _vm(snap: Snapshot) -> Finding | None:
    modes = sorted(
        {
            str(g.get("virtualization_mode"))
            for g in pf.nvidia_gpus(snap)
            if str(g.get("virtualization_mode") or "none").lower()
            not in ("none", "host-vgpu", "host-vsga")
        }
    )
    if not modes:
        return None
    kind = "with an NVIDIA vGPU" if "vgpu" in modes else "with a GPU passed through"
    detail = "The GPU is " + (
        "a vGPU: it needs a licence (nvidia-smi -q, 'vGPU Software Licensed Product'), or it is "
        "throttled after the grace period."
        if "vgpu" in modes
        else "passed through to the VM: the guest driver works as on bare metal."
    )
    return Finding(
        id="platform.identified",
        severity=Severity.INFO,
        title=f"The pasted output comes from a virtual machine {kind} ({_gpu_names(snap)})",
        detail=detail,
        evidence=(Evidence("virtualization mode", ", ".join(modes)),),
    )


@check("platform.identified", needs_any=_NEEDS, matrices=("jetpack",))
def identified(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """Names the platform a pasted output comes from and the rules it brings.

    Triage reads nvidia-smi tables, glxinfo, collect_env dumps and release files without knowing where
    they were taken. Some formats tell: nvidia-smi inside WSL 2 prints the Linux tool's version beside
    the Windows driver's ("NVIDIA-SMI 545.46  Driver Version: 546.80"); Mesa's D3D12 renderer exists
    only in WSL; a Driver-Model column or C:\\ paths mean native Windows; /etc/nv_tegra_release means a
    Jetson; "Pass-Through" / "VGPU" virtualization modes mean a VM. Reported for pasted input only
    (a live check shows the platform in its platform.* facts).
    """
    if snap.origin != "pasted":
        return None
    for finder in (
        lambda: _jetson(snap, ms),
        lambda: _wsl(snap),
        lambda: _windows(snap),
        lambda: _macos(snap),
        lambda: _vm(snap),
    ):
        found = finder()
        if found is not None:
            return found
    return None


CHECKS = [identified]
