"""The torch checks on snapshots made of real captures (nvidia-smi, collect_env) plus torch facts
read from wheel layouts; and the variant choice against PyTorch's published build matrix."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import check_id_of
from test_torch_build import (
    LINUX_X86,
    REQUIRES_271_PYPI,
    VERSION_PY_271_CU126,
    VERSION_PY_2130_CPU,
    torch_facts,
)

from envdoctor.checks import load_checks
from envdoctor.diagnosis.engine import run_checks
from envdoctor.diagnosis.enrich import enrich
from envdoctor.ingest import ingest_text, torch_metadata
from envdoctor.matrix.loader import load_bundled
from envdoctor.model.snapshot import Snapshot, absent, collected
from envdoctor.model.versions import parse
from envdoctor.queries import torch as tq
from envdoctor.queries.torch_fixes import choose

MODULES = ("python_versions", "torch_gpu", "torch_packages", "torch_deep", "frameworks")


@pytest.fixture(scope="module")
def ms():
    return load_bundled()


def version_py(version: str, cuda: str | None) -> str:
    """torch/version.py: the real files for 2.7.1+cu126 and 2.13.0+cpu, else the layout of the
    real 2.7.1+cu126 file with another version."""
    if version == "2.13.0+cpu":
        return VERSION_PY_2130_CPU
    text = VERSION_PY_271_CU126.replace("2.7.1+cu126", version)
    return text.replace("'12.6'", repr(cuda) if cuda else "None")


def torch_group(
    ms,
    version: str,
    cuda: str | None,
    *,
    metadata_version: str | None = None,
    requires: list[str] | None = None,
    companions: dict[str, str] | None = None,
    environment: dict | None = None,
):
    dists = {
        "torch": {
            "version": metadata_version or version,
            "installer": "pip",
            "requires": requires or [],
            "files": {"torch/version.py": version_py(version, cuda)},
            "location": "/home/user/venv/lib/python3.11/site-packages",
        }
    }
    for name, v in (companions or {}).items():
        dists[name] = {"version": v}
    data = torch_facts(dists, environment or LINUX_X86, ms)
    return collected(
        "python.torch", "probe:torch_build", data, summary=torch_metadata.summary(data)
    )


def python_groups(
    packages: dict[str, str],
    *,
    platform: str = "linux",
    version: str = "3.11.7",
    environment: str = "venv",
    installers: dict[str, str] | None = None,
    executable: str = "/home/user/venv/bin/python",
):
    py = {
        "executable": executable,
        "version": version,
        "environment": environment,
        "prefix": str(Path(executable).parent.parent),
        "platform": platform,
        "machine": "x86_64",
    }
    pk = {
        "packages": packages,
        "installers": installers or {n: "pip" for n in packages},
        "locations": {},
    }
    return [
        collected("python", "probe:python_env", py),
        collected("python.packages", "probe:python_env", pk),
    ]


def nvidia_from(real_captures: Path, relative: str) -> Snapshot:
    """The nvidia.driver / nvidia.gpus groups a real capture gives."""
    return ingest_text((real_captures / relative).read_text(errors="replace"))


def nvidia_made(name: str, cc: str, driver: str, cuda_max: str, memory_mib: int) -> list:
    """nvidia groups with realistic values, for GPUs no shared capture shows (RTX 50 series)."""
    return [
        collected(
            "nvidia.driver",
            "probe:nvidia_gpu",
            {"driver_version": driver, "cuda_driver_max": cuda_max},
        ),
        collected(
            "nvidia.gpus",
            "probe:nvidia_gpu",
            {
                "gpus": [
                    {
                        "index": 0,
                        "name": name,
                        "compute_capability": cc,
                        "memory_total_mib": memory_mib,
                    }
                ]
            },
        ),
    ]


def run(snap: Snapshot, ms):
    """The checks on `snap` after the enrichment step, as a diagnosis runs them."""
    return run_checks(enrich(snap, ms), ms, load_checks(MODULES))


def ids(outcome) -> list[str]:
    return [f.id for f in outcome.findings]


def one(outcome, finding_id: str):
    found = [f for f in outcome.findings if f.id == finding_id]
    assert len(found) == 1, ids(outcome)
    return found[0]


# ----------------------------------------------------------------------------- CPU builds


def test_cpu_build_on_rtx3090_host_gets_the_cuda_wheel(real_captures, ms):
    snap = nvidia_from(
        real_captures, "nvidia-smi-q-x/telegraf-geforce-rtx3090-driver-525.147.05.xml"
    )
    snap.extend(python_groups({"torch": "2.13.0+cpu", "torchvision": "0.28.0+cpu"}))
    snap.add(torch_group(ms, "2.13.0+cpu", None, companions={"torchvision": "0.28.0+cpu"}))
    finding = one(run(snap, ms), "torch.cpu-build-on-gpu-host")
    assert finding.severity.value == "error" and "RTX 3090" in finding.title + finding.detail
    commands = finding.fixes[0].commands
    # driver 525.147.05 = CUDA 12.0: cu130/cu132 need 580, so the newest runnable is cu126
    assert commands == (
        "/home/user/venv/bin/python -m pip uninstall -y torch torchvision",
        "/home/user/venv/bin/python -m pip install torch==2.13.0 'torchvision==0.28.*' "
        "--index-url https://download.pytorch.org/whl/cu126",
        commands[2],
    )
    assert (
        commands[2].startswith("/home/user/venv/bin/python -c 'import torch;")
        and 'device="cuda"' in commands[2]
    )


def test_cpu_build_without_any_gpu_is_only_a_note(ms):
    """This machine: torch 2.13.0+cpu, no driver, no GPU -> info, nothing to fix."""
    snap = Snapshot()
    snap.extend(python_groups({"torch": "2.13.0+cpu"}))
    snap.add(torch_group(ms, "2.13.0+cpu", None))
    snap.add(absent("nvidia.gpus", "nvml", "no GPU facts without a driver"))
    snap.add(collected("nvidia.pci", "sysfs", {"devices": [], "gpu_count": 0}))
    outcome = run(snap, ms)
    note = one(outcome, "torch.cpu-build-no-gpu")
    assert note.severity.value == "info" and not note.fixes
    assert "nothing to fix for GPU use" in note.title
    assert not [f for f in outcome.findings if f.severity.value != "info"]


def test_cpu_build_with_a_gpu_on_the_pci_bus_but_no_driver_warns(ms):
    snap = Snapshot()
    snap.extend(python_groups({"torch": "2.13.0+cpu"}))
    snap.add(torch_group(ms, "2.13.0+cpu", None))
    snap.add(absent("nvidia.gpus", "nvml", "no GPU facts without a driver"))
    # 0x2684 is the PCI id of the GeForce RTX 4090 in the nvidia_gpus table
    row = next(
        r for r in ms.table("nvidia_gpus").rows if "0x2684" in (r.get("pci_device_ids") or [])
    )
    snap.add(
        collected(
            "nvidia.pci",
            "sysfs",
            {
                "devices": [
                    {
                        "address": "0000:01:00.0",
                        "device_id": "0x2684",
                        "is_gpu": True,
                        "driver": None,
                    }
                ]
            },
        )
    )
    finding = one(run(snap, ms), "torch.cpu-build-on-gpu-host")
    assert finding.severity.value == "warning" and row["name"] in finding.detail
    assert "No NVIDIA driver is loaded" in finding.detail


def test_cpu_build_with_windows_conda_installer(real_captures, ms):
    """Windows + conda-installed torch: conda removes it, pip in the same env installs the wheel."""
    snap = nvidia_from(
        real_captures, "nvidia-smi-q-x/telegraf-geforce-rtx3080-windows-driver-536.40.xml"
    )
    exe = r"C:\Users\ana\miniconda3\envs\ml\python.exe"
    snap.extend(
        python_groups(
            {"torch": "2.5.1+cpu"},
            platform="win32",
            environment="conda",
            installers={"torch": "conda"},
            executable=exe,
            version="3.11.9",
        )
    )
    snap.add(
        torch_group(ms, "2.5.1+cpu", None, environment={**LINUX_X86, "platform_system": "Windows"})
    )
    finding = one(run(snap, ms), "torch.cpu-build-on-gpu-host")
    commands = finding.fixes[0].commands
    assert commands[0].startswith("conda remove -y -p ") and commands[0].endswith(" pytorch")
    assert commands[1].startswith(
        exe + " -m pip install torch==2.5.1 --index-url https://download.pytorch.org/whl/cu12"
    )
    assert commands[2].startswith(exe + ' -c "import torch;')


# ----------------------------------------------------------------------------- driver


def test_cu124_on_a_535_driver_is_not_too_old(real_captures, ms):
    """Minor-version compatibility: a CUDA 12.4 build runs on driver 535 (CUDA 12.2)."""
    snap = nvidia_from(
        real_captures, "nvidia-smi-q-x/telegraf-a100-sxm4-80gb-mig-driver-535.54.03.xml"
    )
    snap.extend(python_groups({"torch": "2.5.1+cu124"}))
    snap.add(torch_group(ms, "2.5.1+cu124", "12.4"))
    outcome = run(snap, ms)
    assert "torch.driver-too-old" not in ids(outcome)
    assert "torch.driver-too-old" in outcome.passed


def test_cu130_on_a_570_driver_is_too_old(real_captures, ms):
    snap = nvidia_from(
        real_captures, "nvidia-smi-q-x/telegraf-geforce-rtx3060-driver-570.124.04.xml"
    )
    snap.extend(python_groups({"torch": "2.13.0"}))
    snap.add(torch_group(ms, "2.13.0+cu130", "13.0", metadata_version="2.13.0"))
    finding = one(run(snap, ms), "torch.driver-too-old")
    assert finding.severity.value == "error" and "580" in finding.detail
    first = finding.fixes[0]
    assert "Keep torch 2.13.0, switch to its cu126 build" in first.summary
    assert first.commands[1].endswith(
        "torch==2.13.0 --index-url https://download.pytorch.org/whl/cu126"
    )
    assert "580" in finding.fixes[-1].summary


def test_cu130_on_a_595_driver_is_fine(real_captures, ms):
    snap = nvidia_from(
        real_captures, "nvidia-smi-q-x/telegraf-geforce-rtx3080-driver-595.58.03-dtd-v13.xml"
    )
    snap.extend(python_groups({"torch": "2.13.0"}))
    snap.add(torch_group(ms, "2.13.0+cu130", "13.0", metadata_version="2.13.0"))
    outcome = run(snap, ms)
    assert not [f for f in outcome.findings if f.id.startswith("torch.")]


def test_cuda_10_build_on_a_410_driver_from_collect_env_era(real_captures, ms):
    """No minor-version compatibility before CUDA 11: 10.1 needs 418.39 on Linux."""
    snap = nvidia_from(
        real_captures, "nvidia-smi-q-x/openpai-geforce-rtx2080ti-x2-driver-410.73.xml"
    )
    snap.extend(python_groups({"torch": "1.13.1+cu117"}))
    snap.add(torch_group(ms, "1.13.1+cu117", "11.7"))
    finding = one(run(snap, ms), "torch.driver-too-old")
    assert "410.73" in finding.title


# ----------------------------------------------------------------------------- kernels


def test_rtx5090_with_the_cu126_wheel_of_2_7_is_too_new(ms):
    """Case 002: `pip install torch==2.7.*` on Linux gives cu126, which has no sm_120."""
    snap = Snapshot()
    snap.extend(nvidia_made("NVIDIA GeForce RTX 5090", "12.0", "570.124.04", "12.8", 32607))
    snap.extend(python_groups({"torch": "2.7.1"}))
    snap.add(
        torch_group(ms, "2.7.1+cu126", "12.6", metadata_version="2.7.1", requires=REQUIRES_271_PYPI)
    )
    finding = one(run(snap, ms), "torch.gpu-too-new-for-build")
    assert (
        "sm_120" in finding.title
        and "is what a plain `pip install torch==2.7.*` gets from PyPI" in finding.detail
    )
    fix = finding.fixes[0]
    # 2.7 has a cu128 build with sm_120 (measured, torch_arch), so the fix keeps the release
    assert "Keep torch 2.7.1" in fix.summary and "cu128" in fix.summary
    assert fix.commands[1].endswith(
        "pip install torch==2.7.1 --index-url https://download.pytorch.org/whl/cu128"
    )


def test_rtx5090_with_cu128_is_fine(ms):
    snap = Snapshot()
    snap.extend(nvidia_made("NVIDIA GeForce RTX 5090", "12.0", "570.124.04", "12.8", 32607))
    snap.extend(python_groups({"torch": "2.8.0"}))
    snap.add(torch_group(ms, "2.8.0+cu128", "12.8", metadata_version="2.8.0"))
    outcome = run(snap, ms)
    assert not [f for f in outcome.findings if f.id.startswith("torch.gpu-too")]
    assert "torch.gpu-too-new-for-build" in outcome.passed


def test_pascal_with_the_cu128_wheel_of_2_8_is_too_old(real_captures, ms):
    """Case 003 (GTX 1050, 2.8.0+cu128): keep 2.8.0, switch to cu126."""
    snap = nvidia_from(real_captures, "nvidia-smi-q-x/telegraf-quadro-p2000-driver-525.125.06.xml")
    snap.extend(python_groups({"torch": "2.8.0", "torchvision": "0.23.0"}))
    snap.add(
        torch_group(
            ms,
            "2.8.0+cu128",
            "12.8",
            metadata_version="2.8.0",
            companions={"torchvision": "0.23.0"},
        )
    )
    finding = one(run(snap, ms), "torch.gpu-too-old-for-build")
    assert "Quadro P2000 (sm_61) is too old" in finding.title
    assert finding.fixes[0].commands[1] == (
        "/home/user/venv/bin/python -m pip install torch==2.8.0 'torchvision==0.23.*' "
        "--index-url https://download.pytorch.org/whl/cu126"
    )


def test_deep_arch_list_wins_over_the_matrix(real_captures, ms):
    """What the wheel really holds (--deep get_arch_list) decides, not the table."""
    snap = nvidia_from(real_captures, "nvidia-smi-q-x/telegraf-quadro-p2000-driver-525.125.06.xml")
    snap.extend(python_groups({"torch": "2.8.0"}))
    snap.add(torch_group(ms, "2.8.0+cu128", "12.8", metadata_version="2.8.0"))
    snap.add(
        collected(
            "python.deep",
            "probe:deep",
            {
                "outcome": "ok",
                "arch_list": ["sm_60", "sm_70", "sm_80"],
                "devices": [],
                "cuda_available": True,
            },
        )
    )
    outcome = run(snap, ms)
    assert "torch.gpu-too-old-for-build" not in ids(outcome)
    assert check_id_of("torch.gpu-too-old-for-build") in outcome.passed


# ----------------------------------------------------------------------------- python


def test_python_outside_the_release_range(ms):
    snap = Snapshot()
    snap.extend(python_groups({"torch": "2.4.1+cu121"}, version="3.13.1"))
    snap.add(torch_group(ms, "2.4.1+cu121", "12.1"))
    finding = one(run(snap, ms), "torch.python-unsupported")
    assert finding.fixes[0].commands[0] == "python3.12 -m venv .venv-torch"
    assert finding.fixes[0].commands[1] == (
        ".venv-torch/bin/python -m pip install torch==2.4.1 "
        "--index-url https://download.pytorch.org/whl/cu121"
    )


def test_python_inside_the_release_range(ms):
    snap = Snapshot()
    snap.extend(python_groups({"torch": "2.4.1+cu121"}, version="3.12.4"))
    snap.add(torch_group(ms, "2.4.1+cu121", "12.1"))
    assert "torch.python-unsupported" in run(snap, ms).passed


def test_no_release_supports_a_future_python(ms):
    snap = Snapshot()
    snap.extend(python_groups({}, version="3.15.0"))
    finding = one(run(snap, ms), "torch.python-unsupported")
    assert "No PyTorch release supports Python 3.15" in finding.title


# ----------------------------------------------------------------------------- real collect_env


def test_collect_env_3x_rtx3090_cu116_on_515_passes(real_captures, ms):
    snap = ingest_text(
        (
            real_captures
            / "collect_env/torch-1.12.1+cu116-ubuntu22.04-3x-rtx3090-conda-pytorch-issue-86556.txt"
        ).read_text()
    )
    outcome = run(snap, ms)
    assert not [
        f for f in outcome.findings if f.id.startswith("torch.") and f.severity.value != "info"
    ]
    assert "torch.driver-too-old" in outcome.passed


def test_collect_env_windows_cpu_only_is_a_note(real_captures, ms):
    snap = ingest_text(
        (
            real_captures
            / "collect_env/torch-1.4.0+cpu-windows10-home-cpu-only-pytorch-issue-33473.txt"
        ).read_text()
    )
    note = one(run(snap, ms), "torch.cpu-build-no-gpu")
    assert note.confidence.value == "medium"  # pasted facts


def test_collect_env_conda_build_never_gets_a_wheel_arch_list(real_captures, ms):
    """A conda-built torch (no local label) is not judged by the PyPI wheel's arch list."""
    snap = ingest_text(
        (
            real_captures
            / "collect_env/torch-2.2.2-conda-cuda12.1-arch-linux-rtx3060ti-runpy-warning-em-op-extract.txt"
        ).read_text()
    )
    outcome = run(snap, ms)
    assert not [f for f in outcome.findings if f.id.startswith("torch.gpu-too")]


# ----------------------------------------------------------------------------- build matrix agreement

DRIVERS = [  # (driver, the CUDA version nvidia-smi prints), each from a capture in tests/fixtures/real
    ("418.43", "10.1"),
    ("495.29.05", "11.5"),
    ("515.105.01", "11.7"),
    ("525.147.05", "12.0"),
    ("535.54.03", "12.2"),
    ("550.127.05", "12.4"),
    ("565.57.01", "12.7"),
    ("570.124.04", "12.8"),
    ("590.48.01", "13.1"),
    ("595.58.03", "13.2"),
]
GENERATIONS = [
    ("Kepler", "3.7"),
    ("Maxwell", "5.2"),
    ("Pascal", "6.1"),
    ("Volta", "7.0"),
    ("Turing", "7.5"),
    ("Ampere", "8.6"),
    ("Ada", "8.9"),
    ("Hopper", "9.0"),
    ("Blackwell DC", "10.0"),
    ("Blackwell RTX 50", "12.0"),
]


def _published(ms) -> list[tuple[str, str, list[str]]]:
    """(release, variant, arches) of every verified Linux CUDA wheel of a dated release."""
    dated = {r["torch"] for r in ms.table("torch_releases").rows if r.get("released")}
    return [
        (r["torch"], r["variant"], r["cuda_arches"])
        for r in ms.table("torch_arch").rows
        if r["os"] == "linux"
        and r["variant"].startswith("cu")
        and not r.get("unverified")
        and r["torch"] in dated
    ]


def _serves(arches: list[str], cc: str) -> bool:
    """NVIDIA's compatibility rule, written out independently of the queries."""
    major, minor = (int(x) for x in cc.split("."))
    for arch in arches:
        kind, digits = arch.split("_")
        a_major, a_minor = int(digits[:-1]), int(digits[-1])
        if kind == "sm" and a_major == major and a_minor <= minor:
            return True
        if kind == "compute" and (a_major, a_minor) <= (major, minor):
            return True
    return False


def _sass(arches: list[str], cc: str) -> bool:
    return _serves([a for a in arches if a.startswith("sm_")], cc)


def _runs(variant: str, cuda_max: str, driver: str, arches: list[str], cc: str) -> bool:
    build = parse(f"{variant[2:-1]}.{variant[-1]}")
    have = parse(cuda_max)
    if have.release[0] != build.release[0]:
        return have.release[0] > build.release[0]
    floor = {11: "450.80.02", 12: "525", 13: "580"}[build.release[0]]
    if parse(driver) < parse(floor):
        return False
    return have >= build or _sass(arches, cc)  # PTX-only kernels need the full CUDA version


@pytest.mark.parametrize("driver,cuda_max", DRIVERS)
@pytest.mark.parametrize("generation,cc", GENERATIONS)
def test_chosen_variant_agrees_with_the_published_build_matrix(
    ms, driver, cuda_max, generation, cc
):
    fitting = [
        (parse(rel), parse(f"{v[2:-1]}.{v[-1]}"), rel, v)
        for rel, v, arches in _published(ms)
        if _serves(arches, cc) and _runs(v, cuda_max, driver, arches, cc)
    ]
    choices = choose(ms, [cc], "linux", driver_max_cuda=cuda_max, driver_version=driver)
    if not fitting:
        assert choices == [], f"{generation} on {driver}: nothing published fits, got {choices}"
        return
    newest = max(fitting)
    assert choices, f"{generation} on {driver}: expected torch {newest[2]} {newest[3]}"
    chosen = choices[0]
    assert (chosen.release, chosen.variant) == (newest[2], newest[3])
    arches = tq.variant_arches(ms, chosen.release, chosen.variant, "linux")
    assert (
        _serves(arches, cc)
        and chosen.index_url == f"https://download.pytorch.org/whl/{chosen.variant}"
    )


@pytest.mark.parametrize(
    "cc,driver,cuda_max,expected",
    [
        ("12.0", "570.124.04", "12.8", ("2.11", "cu128")),  # RTX 50 on its first driver branch
        ("12.0", "595.58.03", "13.2", ("2.13", "cu132")),
        ("6.1", "595.58.03", "13.2", ("2.13", "cu126")),  # Pascal: cu126 is the last variant
        ("7.0", "595.58.03", "13.2", ("2.13", "cu126")),  # Volta: not in cu130 / cu132
        ("7.5", "595.58.03", "13.2", ("2.13", "cu132")),  # sm_75 is the floor of CUDA 13 builds
        ("8.6", "535.54.03", "12.2", ("2.13", "cu126")),  # no false alarm, and no CUDA 13 on 535
        ("9.0", "515.105.01", "11.7", ("2.5", "cu118")),
        ("8.9", "418.43", "10.1", None),  # no official wheel for a CUDA 10.1 driver any more
    ],
)
def test_known_answers(ms, cc, driver, cuda_max, expected):
    choices = choose(ms, [cc], "linux", driver_max_cuda=cuda_max, driver_version=driver)
    assert ((choices[0].release, choices[0].variant) if choices else None) == expected


def test_mixed_gpus_get_a_variant_with_kernels_for_both(ms):
    choice = choose(
        ms, ["6.1", "12.0"], "linux", driver_max_cuda="13.2", driver_version="595.58.03"
    )
    assert choice == []  # no published wheel has both sm_61 and sm_120
    choice = choose(ms, ["6.1", "8.6"], "linux", driver_max_cuda="13.2", driver_version="595.58.03")
    assert (choice[0].release, choice[0].variant) == ("2.13", "cu126")


def test_python_version_limits_the_release(ms):
    choice = choose(
        ms, ["8.6"], "linux", driver_max_cuda="12.4", driver_version="550.127.05", python="3.8.18"
    )
    assert (choice[0].release, choice[0].variant) == ("2.4", "cu124")


def test_ptx_only_kernels_on_an_older_minor_driver_warn(real_captures, ms):
    """Minor-version compatibility runs cu128 on 535 (CUDA 12.2), but not PTX from CUDA 12.8."""
    snap = nvidia_from(
        real_captures, "nvidia-smi-q-x/telegraf-a100-sxm4-80gb-mig-driver-535.54.03.xml"
    )
    snap.extend(python_groups({"torch": "2.8.0+cu128"}))
    snap.add(torch_group(ms, "2.8.0+cu128", "12.8"))
    # a custom build (measured by --deep) with SASS for sm_75 only and PTX for compute_80
    snap.add(
        collected(
            "python.deep",
            "probe:deep",
            {
                "outcome": "ok",
                "arch_list": ["sm_75", "compute_80"],
                "devices": [],
                "cuda_available": True,
            },
        )
    )
    finding = one(run(snap, ms), "torch.driver-too-old")
    assert finding.severity.value == "warning" and "PTX only" in finding.title
    snap.add(
        collected(
            "python.deep",
            "probe:deep",
            {
                "outcome": "ok",
                "arch_list": ["sm_75", "sm_80"],
                "devices": [],
                "cuda_available": True,
            },
        )
    )
    assert "torch.driver-too-old" in run(snap, ms).passed
