"""What the platform checks read from a snapshot, gathered in one place (pure; no check lives here).

Each platform fact can come from several groups: WSL from `platform.wsl` (live), the `os` group's
virtualization hint and kernel, nvidia-smi's WSL signature (`nvidia.driver.platform`), Mesa's
D3D12 renderer (`platform.opengl` from a pasted glxinfo, `platform.graphics` live) or what pasted
free text mentions. The helpers here take the most direct source first and say which one they used.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from envdoctor.model.snapshot import Snapshot
from envdoctor.model.versions import parse
from envdoctor.model.wheel_variant import torch_variant

WSL_GPU_DOCS = "https://docs.nvidia.com/cuda/wsl-user-guide/index.html"
WSL_INSTALL_DOCS = "https://learn.microsoft.com/en-us/windows/wsl/install"
WSL_CONFIG_DOCS = "https://learn.microsoft.com/en-us/windows/wsl/wsl-config"
WSLG_README = "https://github.com/microsoft/wslg/blob/main/README.md"
NVIDIA_DRIVERS = "https://www.nvidia.com/Download/index.aspx"


@dataclass(frozen=True)
class WslState:
    """Whether this is WSL, which version, and the evidence (fact name, value) for it."""

    is_wsl: bool | None
    version: int | None = None
    evidence: tuple[tuple[str, str], ...] = ()
    live: bool = False  # platform.wsl was collected on the machine itself
    distro_name: str | None = None
    windows_build: int | None = None
    facts: dict[str, Any] = field(default_factory=dict)  # platform.wsl data when collected


def wsl_state(snap: Snapshot) -> WslState:
    """WSL facts from the most direct source available."""
    wsl = snap.data("platform.wsl")
    build = windows_build(snap)
    if wsl is not None:
        return WslState(
            True,
            wsl.get("wsl_version"),
            tuple(("platform.wsl.version_evidence", e) for e in wsl.get("version_evidence") or []),
            True,
            wsl.get("distro_name"),
            build,
            dict(wsl),
        )
    group = snap.group("platform.wsl")
    if group is not None and group.status.value == "absent":
        return WslState(False)
    os_facts = snap.data("os") or {}
    kernel = str(os_facts.get("kernel") or "")
    lowered = kernel.lower()
    if "microsoft" in lowered:
        version = (
            2
            if ("wsl2" in lowered or "microsoft-standard" in lowered)
            else (1 if re.search(r"microsoft\s*$", lowered) else None)
        )
        return WslState(True, version, (("os.kernel", kernel),), windows_build=build)
    if os_facts.get("virtualization") == "wsl":
        return WslState(True, None, (("os.virtualization", "wsl"),), windows_build=build)
    if snap.fact("nvidia.driver", "platform") == "wsl":
        driver = snap.data("nvidia.driver") or {}
        shown = (
            f"NVIDIA-SMI {driver.get('smi_version')}, Driver Version {driver.get('driver_version')}"
        )
        return WslState(
            True, 2, (("nvidia.driver.platform", f"wsl ({shown})"),), windows_build=build
        )
    gfx = graphics(snap)
    if gfx and gfx.get("d3d12"):
        return WslState(
            True, 2, (("OpenGL renderer", str(gfx.get("renderer"))),), windows_build=build
        )
    mentions = [str(m) for m in (snap.data("pasted.text") or {}).get("os_mentions") or []]
    if "wsl" in mentions:
        return WslState(True, None, (("pasted.text", "mentions WSL"),), windows_build=build)
    if os_facts.get("system") or kernel:
        return WslState(False)
    return WslState(None)


def windows_build(snap: Snapshot) -> int | None:
    """The Windows build number from any source (WSL interop, native Windows, collect_env, text)."""
    for value in (
        snap.fact("platform.wsl", "windows_build"),
        snap.fact("platform.windows", "windows_build"),
        snap.fact("os", "windows_build"),
        (snap.data("pasted.text") or {}).get("windows_build"),
    ):
        if isinstance(value, int) or (isinstance(value, str) and value.isdigit()):
            return int(value)
    return None


def graphics(snap: Snapshot) -> dict[str, Any] | None:
    """The renderer facts: live `platform.graphics` completed by a pasted `platform.opengl`."""
    live = snap.data("platform.graphics")
    pasted = snap.data("platform.opengl")
    if live is None and pasted is None:
        return None
    merged: dict[str, Any] = dict(pasted or {})
    for key, value in (live or {}).items():
        if value not in (None, [], {}) or key not in merged:
            merged[key] = value
    mesa = merged.get("mesa_version") or ((merged.get("mesa_package") or {}).get("upstream"))
    merged["mesa"] = mesa
    merged["source_group"] = "platform.graphics" if live is not None else "platform.opengl"
    return merged


def os_system(snap: Snapshot) -> str | None:
    """ "Linux" / "Windows" / "Darwin" from the os group, collect_env or the Python platform."""
    system = snap.fact("os", "system")
    if system:
        return str(system)
    platform = str(snap.fact("python", "platform") or "")
    return {"win32": "Windows", "darwin": "Darwin", "linux": "Linux"}.get(platform)


def distro(snap: Snapshot) -> tuple[str | None, str | None, list[str]]:
    """(distro id, version, ID_LIKE list), lower case ids."""
    os_facts = snap.data("os") or {}
    text = snap.data("pasted.text") or {}
    distro_id = os_facts.get("distro_id") or text.get("distro")
    like = [str(x).lower() for x in os_facts.get("distro_like") or []]
    return (str(distro_id).lower() if distro_id else None, os_facts.get("distro_version"), like)


def family(snap: Snapshot) -> str | None:
    """The package-manager family: "debian", "fedora", "arch", "suse", or None."""
    distro_id, _, like = distro(snap)
    names = [distro_id or ""] + like
    for name, fam in (
        ("ubuntu", "debian"),
        ("debian", "debian"),
        ("fedora", "fedora"),
        ("rhel", "fedora"),
        ("centos", "fedora"),
        ("arch", "arch"),
        ("manjaro", "arch"),
        ("suse", "suse"),
        ("opensuse", "suse"),
    ):
        if any(n.startswith(name) for n in names):
            return fam
    return None


def torch_facts(snap: Snapshot) -> dict[str, Any]:
    """python.torch, or what python.packages / pasted text say about torch (version, variant)."""
    torch = dict(snap.data("python.torch") or {})
    if not torch.get("version"):
        version = ((snap.data("python.packages") or {}).get("packages") or {}).get("torch") or (
            (snap.data("pasted.text") or {}).get("versions") or {}
        ).get("torch")
        if version:
            torch["version"] = str(version)
            torch.setdefault("variant", torch_variant(version))
    if torch.get("version") and not torch.get("backend"):
        variant = str(torch.get("variant") or "")
        torch["backend"] = (
            "cpu"
            if variant == "cpu"
            else "cuda"
            if variant.startswith("cu")
            else "rocm"
            if variant.startswith("rocm")
            else "xpu"
            if variant == "xpu"
            else ("cuda" if torch.get("cuda") else None)
        )
    return torch


def nvidia_gpus(snap: Snapshot) -> list[dict[str, Any]]:
    """The NVIDIA GPU records, [] when none were collected."""
    return [g for g in snap.fact("nvidia.gpus", "gpus") or [] if isinstance(g, dict)]


def gpu_total_mib(snap: Snapshot) -> int | None:
    """Total memory of the NVIDIA GPUs in MiB, None when unknown."""
    sizes = [g.get("memory_total_mib") for g in nvidia_gpus(snap)]
    known = [int(s) for s in sizes if isinstance(s, (int, float))]
    return sum(known) if known else None


def version_lt(a: Any, b: Any) -> bool | None:
    """a < b as versions, None when either does not parse."""
    va, vb = parse(str(a)) if a is not None else None, parse(str(b)) if b is not None else None
    if va is None or vb is None:
        return None
    return va < vb


def requirement(ms: Any, name: str) -> str | None:
    """The min_version of a row of the wsl matrix."""
    table = ms.get("wsl") if ms is not None else None
    if table is None:
        return None
    rows = table.where(requirement=name)
    return str(rows[0]["min_version"]) if rows else None


def requirement_source(ms: Any, name: str) -> str | None:
    """The source URL of a row of the wsl matrix."""
    table = ms.get("wsl") if ms is not None else None
    rows = table.where(requirement=name) if table is not None else []
    return str(rows[0]["source"]) if rows else None


def framework_gpu_intent(snap: Snapshot) -> list[str]:
    """Signs the Python environment was set up for a GPU: a CUDA/ROCm torch, CUDA runtime wheels."""
    reasons = []
    torch = torch_facts(snap)
    if torch.get("backend") in ("cuda", "rocm"):
        reasons.append(f"torch {torch.get('version')} is a {torch['backend'].upper()} build")
    packages = (snap.data("python.packages") or {}).get("packages") or {}
    wheels = sorted(
        n for n in packages if str(n).startswith(("nvidia-cuda-runtime", "nvidia-cudnn"))
    )
    if wheels:
        reasons.append("CUDA wheels installed (" + ", ".join(wheels[:3]) + ")")
    return reasons


def gpu_intent(snap: Snapshot) -> list[str]:
    """Signs that GPU use is wanted here: framework_gpu_intent, an NVIDIA / AMD GPU or driver seen,
    a CUDA toolkit. [] when none."""
    reasons = framework_gpu_intent(snap)
    if nvidia_gpus(snap):
        reasons.append("an NVIDIA GPU is listed")
    if snap.fact("nvidia.driver", "driver_version"):
        reasons.append(f"NVIDIA driver {snap.fact('nvidia.driver', 'driver_version')}")
    if toolkit_version(snap):
        reasons.append(f"CUDA toolkit {toolkit_version(snap)}")
    if [g for g in snap.fact("amd.gpus", "gpus") or [] if isinstance(g, dict)]:
        reasons.append("an AMD GPU is listed")
    return reasons


def toolkit_version(snap: Snapshot) -> str | None:
    """The CUDA toolkit version nvcc on PATH reports, else the first toolkit found."""
    toolkits = snap.data("cuda.toolkits") or {}
    on_path = toolkits.get("nvcc_on_path") or {}
    if on_path.get("version"):
        return str(on_path["version"])
    for toolkit in toolkits.get("toolkits") or []:
        if isinstance(toolkit, dict) and toolkit.get("version"):
            return str(toolkit["version"])
    return None
