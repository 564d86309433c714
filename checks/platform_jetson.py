"""NVIDIA Jetson: a PyPI torch wheel instead of NVIDIA's JetPack build, a JetPack whose CUDA is older
than what a package needs, and where GPU load is read on a Jetson (tegrastats, not nvidia-smi)."""

from __future__ import annotations

from typing import Any

from envdoctor.checks import platform_facts as pf
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.snapshot import Snapshot
from envdoctor.model.versions import parse

JETSON_TORCH_DOCS = (
    "https://docs.nvidia.com/deeplearning/frameworks/install-pytorch-jetson-platform/index.html"
)
JETSON_CUDA_UPGRADE = (
    "https://developer.nvidia.com/blog/simplifying-cuda-upgrades-for-nvidia-jetson-users/"
)
JETPACK_ARCHIVE = "https://developer.nvidia.com/embedded/jetpack-archive"
TEGRASTATS_DOCS = (
    "https://docs.nvidia.com/jetson/archives/l4t-archived/l4t-325/"
    "Tegra%20Linux%20Driver%20Package%20Development%20Guide/AppendixTegraStats.html"
)
JP6_INDEX = "https://pypi.jetson-ai-lab.dev/jp6/cu126"
# CUDA each JetPack major ships where the jetpack table has no row for the exact release (NVIDIA's
# pages: JetPack 4.x is CUDA 10.x; JetPack 5.0.2 ships CUDA 11.4)
_MAJOR_CUDA = {32: "10.2", 35: "11.4"}
_SYMPTOMS = (
    "torch.cpu-build-on-gpu-host",
    "torch.gpu-too-new-for-build",
    "torch.gpu-too-old-for-build",
    "torch.cuda-unavailable",
    "torch.driver-too-old",
)


def jetson_facts(snap: Snapshot) -> dict[str, Any] | None:
    """platform.jetson, else the L4T release nvidia.driver read from /proc/driver/nvidia/version, else
    a bare marker when pasted text mentions a Jetson. None when nothing says Jetson."""
    facts = snap.data("platform.jetson")
    if facts is not None:
        return dict(facts)
    l4t = snap.fact("nvidia.driver", "jetson_l4t")
    if l4t:
        return {
            "l4t_version": str(l4t),
            "l4t_major": int(str(l4t).split(".")[0]),
            "l4t_source": "nvidia.driver",
        }
    if "jetson" in [str(p) for p in (snap.data("pasted.text") or {}).get("platforms") or []]:
        return {"l4t_version": None, "l4t_major": None, "l4t_source": "pasted text"}
    return None


def jetpack_row(ms: Any, l4t: str | None) -> dict[str, Any] | None:
    """The jetpack-table row of an L4T release: exact ("36.4.3"), else the same release without a
    trailing .0 ("36.4.0" -> "36.4")."""
    table = ms.get("jetpack") if ms is not None else None
    wanted = parse(str(l4t)) if l4t else None
    if table is None or wanted is None:
        return None
    for row in table.rows:
        have = parse(str(row.get("l4t")))
        if have is not None and have == wanted:
            return row
    return None


def _l4t_text(facts: dict[str, Any], ms: Any) -> str:
    row = jetpack_row(ms, facts.get("l4t_version"))
    text = f"L4T {facts.get('l4t_version') or 'unknown'}"
    if row:
        text += f" (JetPack {row['jetpack']}{', as community tools map it' if row.get('unverified') else ''})"
    return text


def _pypi_build(torch: dict[str, Any]) -> str | None:
    """Why this torch is a generic (PyPI / pytorch.org) build, or None when it looks like NVIDIA's."""
    tags = [str(t) for t in torch.get("wheel_tags") or []]
    if any("manylinux" in t for t in tags):
        return f"wheel tag {tags[0]} (PyPI's generic aarch64 build)"
    bundled = torch.get("bundled_nvidia") or {}
    if bundled:
        return (
            "it pulls CUDA from pip wheels ("
            + ", ".join(sorted(bundled)[:3])
            + "), as PyPI's SBSA builds do"
        )
    return None


def _jetson_torch_fixes(major: int | None) -> tuple[Fix, ...]:
    check_release = Fix(
        "Check the JetPack (L4T) release, then install the torch wheel NVIDIA publishes for it",
        (
            "cat /etc/nv_tegra_release",
            "apt show nvidia-jetpack",
            "pip uninstall -y torch torchvision",
        ),
        Risk.SAFE,
        JETSON_TORCH_DOCS,
    )
    if major == 36:
        return (
            Fix(
                "JetPack 6: install torch from the Jetson AI Lab index for CUDA 12.6",
                (
                    "pip uninstall -y torch torchvision",
                    f"pip install torch torchvision --index-url {JP6_INDEX}",
                    'python3 -c "import torch; print(torch.cuda.is_available())"',
                ),
                Risk.SAFE,
                JETSON_TORCH_DOCS,
            ),
            check_release,
        )
    return (check_release,)


@check("jetson.pypi-wheel", needs_any=("platform.jetson", "nvidia.driver"), matrices=("jetpack",))
def pypi_wheel(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """A generic (PyPI / pytorch.org) torch wheel on a Jetson instead of NVIDIA's JetPack build.

    PyPI's aarch64 torch wheels are CPU-only or CUDA builds for Arm servers (SBSA) with data-center
    GPU architectures; the Jetson's integrated GPU (Orin, Xavier, Nano) and its L4T CUDA driver need
    the build NVIDIA makes for each JetPack release (NVIDIA's "Installing PyTorch for Jetson
    Platform", the Jetson AI Lab index for JetPack 6). With a generic wheel
    `torch.cuda.is_available()` is False. envdoctor tells the builds apart by the wheel's platform tag
    (PyPI's are manylinux_*_aarch64, NVIDIA's linux_aarch64) and by the pip CUDA wheels PyPI's CUDA
    builds pull in. From Jetson Linux 38 (JetPack 7, Thor) Jetson follows SBSA, so only a CPU-only
    build is reported there.
    """
    facts = jetson_facts(snap)
    torch = pf.torch_facts(snap)
    if facts is None or not torch.get("version"):
        return None
    major = facts.get("l4t_major")
    cpu = torch.get("backend") == "cpu" or (
        torch.get("version") and not torch.get("cuda") and torch.get("variant") == "cpu"
    )
    generic = None if cpu else _pypi_build(torch)
    if not cpu and (generic is None or (isinstance(major, int) and major >= 38)):
        return None
    where = _l4t_text(facts, ms)
    why = "a CPU-only build" if cpu else f"a generic aarch64 CUDA build ({generic})"
    return Finding(
        id="jetson.pypi-wheel",
        severity=Severity.ERROR,
        title=f"torch {torch.get('version')} on this Jetson ({where}) is {why}, not NVIDIA's JetPack build",
        detail=(
            "Jetson's integrated GPU needs the torch build NVIDIA makes for its JetPack release; with this one "
            "torch.cuda.is_available() is False. Replace it with the JetPack wheel."
        ),
        evidence=(
            Evidence("python.torch.version", str(torch.get("version")), "NVIDIA's Jetson build"),
            Evidence("Jetson L4T", str(facts.get("l4t_version")), None),
            Evidence("torch build", why),
        ),
        fixes=_jetson_torch_fixes(major if isinstance(major, int) else None),
        explains=_SYMPTOMS,
    )


@check(
    "jetson.jetpack-too-old", needs_any=("platform.jetson", "nvidia.driver"), matrices=("jetpack",)
)
def jetpack_too_old(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """The JetPack release ships an older CUDA than a package needs.

    On Jetson the CUDA driver is part of the Jetson Linux BSP and each JetPack ships one CUDA
    release (matrices/jetpack.toml). NVIDIA: "Starting with CUDA Toolkit 11.8, Jetson users on NVIDIA
    JetPack 5.0 and later can upgrade to the latest CUDA release without updating the NVIDIA JetPack
    version", so on JetPack 5+ a newer CUDA toolkit can be installed; JetPack 4.x (L4T R32) stays on
    CUDA 10.x, and a package built for CUDA 11 or newer needs a newer JetPack (JetPack 5.0.2 supports
    the Xavier and Orin modules, not Nano, TX1 or TX2). envdoctor compares the CUDA torch was built with (or the
    installed toolkit) with the CUDA of this L4T release.
    """
    facts = jetson_facts(snap)
    if facts is None or not isinstance(facts.get("l4t_major"), int):
        return None
    major = facts["l4t_major"]
    torch = pf.torch_facts(snap)
    need = str(torch["cuda"]) if torch.get("backend") == "cuda" and torch.get("cuda") else None
    if need is None:
        return None
    row = jetpack_row(ms, facts.get("l4t_version"))
    have = pf.toolkit_version(snap) or (row or {}).get("cuda") or _MAJOR_CUDA.get(major)
    if have is None:
        return None
    wanted, got = parse(need), parse(str(have))
    if wanted is None or got is None or tuple(wanted.release[:2]) <= tuple(got.release[:2]):
        return None
    where = _l4t_text(facts, ms)
    evidence = (
        Evidence("python.torch.cuda", need, f"<= {have}"),
        Evidence("Jetson", where),
        Evidence("CUDA on this Jetson", str(have)),
    )
    if major <= 32:
        return Finding(
            id="jetson.jetpack-too-old",
            severity=Severity.ERROR,
            title=f"torch {torch.get('version')} needs CUDA {need}; JetPack 4 ({where}) stays on CUDA {have}",
            detail=(
                "JetPack 4.x cannot move past CUDA 10.x: CUDA upgrades on Jetson start with JetPack 5.0. Use a torch "
                "built for this JetPack, or reflash the Jetson (Xavier / Orin) with JetPack 5 or 6."
            ),
            evidence=evidence,
            fixes=(
                Fix(
                    "Install the torch wheel NVIDIA built for this JetPack 4 release",
                    ("cat /etc/nv_tegra_release",),
                    Risk.SAFE,
                    JETSON_TORCH_DOCS,
                ),
                Fix(
                    "Or reflash a Xavier / Orin with a current JetPack (SDK Manager)",
                    url=JETPACK_ARCHIVE,
                    risk=Risk.DESTRUCTIVE,
                ),
            ),
            explains=_SYMPTOMS,
        )
    return Finding(
        id="jetson.jetpack-too-old",
        severity=Severity.WARNING,
        title=f"torch {torch.get('version')} needs CUDA {need}; this Jetson ({where}) has CUDA {have}",
        detail=(
            "On JetPack 5.0 and later a newer CUDA toolkit can be installed without changing JetPack (from CUDA "
            "11.8 on); otherwise use the torch built for this JetPack, or upgrade JetPack."
        ),
        evidence=evidence,
        fixes=(
            Fix(
                "Install the torch wheel NVIDIA built for this JetPack release",
                ("cat /etc/nv_tegra_release",),
                Risk.SAFE,
                JETSON_TORCH_DOCS,
            ),
            Fix(
                f"Or install the CUDA {'.'.join(str(p) for p in wanted.release[:2])} toolkit for Jetson from NVIDIA's "
                "repository (CUDA upgrades on JetPack 5+)",
                url=JETSON_CUDA_UPGRADE,
            ),
        ),
        explains=_SYMPTOMS,
    )


@check("jetson.gpu-monitoring", needs=("platform.jetson",), matrices=("jetpack",))
def gpu_monitoring(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """On a Jetson, GPU load comes from tegrastats (or jtop), not nvidia-smi.

    The Jetson's integrated GPU is not a PCIe device with the full NVML: before JetPack 6
    `nvidia-smi` does not exist, and on Orin with JetPack 6 it lists `Orin (nvgpu)` with utilisation,
    memory and clocks "N/A". `tegrastats` (part of Jetson Linux) prints RAM, CPU and GPU (GR3D_FREQ)
    load every second; `jtop` from the jetson-stats package shows the same interactively. GPU memory
    is the shared system RAM.
    """
    facts = snap.data("platform.jetson") or {}
    load = facts.get("gpu_load_percent")
    tools = [t for t in (facts.get("tegrastats"), facts.get("jtop")) if t]
    evidence = [
        Evidence(
            "Jetson", _l4t_text(facts, ms) + (f", {facts['model']}" if facts.get("model") else "")
        )
    ]
    if load is not None:
        evidence.append(Evidence(str(facts.get("gpu_load_path") or "GPU load"), f"{load:g} %"))
    evidence.append(Evidence("tegrastats / jtop", ", ".join(tools) or "not found"))
    return Finding(
        id="jetson.gpu-monitoring",
        severity=Severity.INFO,
        title="GPU load on this Jetson: use tegrastats (GR3D_FREQ) or jtop, not nvidia-smi"
        + (f" (now {load:g} %)" if load is not None else ""),
        detail="nvidia-smi and NVML report little or nothing for the Jetson's integrated GPU; tegrastats reads it.",
        evidence=tuple(evidence),
        fixes=(
            Fix(
                "Watch GPU, CPU and memory load once a second",
                ("sudo tegrastats",),
                Risk.SAFE,
                TEGRASTATS_DOCS,
            ),
            Fix(
                "Or install jtop (jetson-stats) for an interactive view",
                ("sudo pip3 install -U jetson-stats", "jtop"),
                Risk.SAFE,
                "https://github.com/rbonghi/jetson_stats",
            ),
        ),
    )


CHECKS = [pypi_wheel, jetpack_too_old, gpu_monitoring]
