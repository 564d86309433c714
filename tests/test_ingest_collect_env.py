"""The collect_env reader on every real capture: torch version and build, CUDA available, driver,
GPUs and OS, as each capture prints them."""

from __future__ import annotations

from pathlib import Path

import pytest

from envdoctor.diagnosis.enrich import enrich
from envdoctor.ingest import collect_env, ingest_text
from envdoctor.matrix.loader import load_bundled
from envdoctor.model.snapshot import Confidence

TESTS = Path(__file__).resolve().parent
FORKS = TESTS / "fixtures" / "triage" / "collect_env"

# file -> (torch version, build, CUDA built with, cuda_available, driver, GPU names, system, distro id)
REAL = {
    "torch-0.5.0a0-macos-10.13-source-build-pytorch-issue-11157.txt": (
        "0.5.0a0+72f91b1",
        "cpu",
        None,
        False,
        None,
        [],
        "Darwin",
        "macos",
    ),
    "torch-1.0.0-ubuntu16.04-cuda-pytorch-issue-15271.txt": (
        "1.0.0",
        "cuda",
        "9.0.176",
        True,
        "396.44",
        ["GeForce GTX 980M"],
        "Linux",
        "ubuntu",
    ),
    "torch-1.1.0-windows10-cuda9.0-conda-pytorch-issue-20113.txt": (
        "1.1.0",
        "cuda",
        "9.0",
        True,
        "419.67",
        ["GeForce GTX 1080 Ti"],
        "Windows",
        "windows",
    ),
    "torch-1.10.1-arch-linux-cuda-pytorch-issue-70525.txt": (
        "1.10.1",
        "cuda",
        "11.5",
        True,
        "495.46",
        ["NVIDIA GeForce MX250"],
        "Linux",
        "arch",
    ),
    "torch-1.12.1+cu113-colab-cuda-available-false-pytorch-issue-84365.txt": (
        "1.12.1+cu113",
        "cuda",
        "11.3",
        False,
        None,
        [],
        "Linux",
        "ubuntu",
    ),
    "torch-1.12.1+cu116-ubuntu22.04-3x-rtx3090-conda-pytorch-issue-86556.txt": (
        "1.12.1+cu116",
        "cuda",
        "11.6",
        True,
        "515.65.01",
        ["NVIDIA GeForce RTX 3090"] * 3,
        "Linux",
        "ubuntu",
    ),
    "torch-1.12.1-macos12.5-arm64-pytorch-issue-83533.txt": (
        "1.12.1",
        "cpu",
        None,
        False,
        None,
        [],
        "Darwin",
        "macos",
    ),
    "torch-1.14.0.dev-macos13-arm64-conda-nightly-pytorch-issue-88820.txt": (
        "1.14.0.dev20221104",
        "cpu",
        None,
        False,
        None,
        [],
        "Darwin",
        "macos",
    ),
    "torch-1.3.0-ubuntu18.04-conda-cpuonly-pytorch-issue-29035.txt": (
        "1.3.0",
        "cpu",
        None,
        False,
        None,
        [],
        "Linux",
        "ubuntu",
    ),
    "torch-1.3.0a0-windows10-cp866-mojibake-os-pytorch-issue-28360.txt": (
        "1.3.0a0+de394b6",
        "cuda",
        "10.0",
        True,
        "411.31",
        ["GeForce GTX 1080 Ti"],
        "Windows",
        "windows",
    ),
    "torch-1.4.0+cpu-windows10-home-cpu-only-pytorch-issue-33473.txt": (
        "1.4.0+cpu",
        "cpu",
        None,
        False,
        None,
        [],
        "Windows",
        "windows",
    ),
    "torch-1.5.0+cu101-windows10-powershell-os-could-not-collect-pytorch-issue-39133.txt": (
        "1.5.0+cu101",
        "cuda",
        "10.1",
        True,
        "426.25",
        ["Quadro P1000"],
        None,
        None,
    ),
    "torch-1.7.0.dev+cpu-centos7-cpu-only-pytorch-issue-45558.txt": (
        "1.7.0.dev20200922+cpu",
        "cpu",
        None,
        False,
        None,
        [],
        "Linux",
        "centos",
    ),
    "torch-1.9.0+cu111-centos7-cuda-available-false-pytorch-issue-60258.txt": (
        "1.9.0+cu111",
        "cuda",
        "11.1",
        False,
        None,
        [],
        "Linux",
        "centos",
    ),
    "torch-2.0.0.dev+cpu-cxx11-abi-centos-stream8-pytorch-issue-97229.txt": (
        "2.0.0.dev20230228+cpu-cxx11-abi",
        "cpu",
        None,
        False,
        None,
        [],
        "Linux",
        "centos",
    ),
    "torch-2.1.2+rocm6.1.3-wsl2-radeon-rx6800xt-rocm-issue-3581.txt": (
        "2.1.2+rocm6.1.3",
        "rocm",
        None,
        True,
        None,
        ["AMD Radeon RX 6800 XT"],
        "Linux",
        "ubuntu",
    ),
    "torch-2.2.2-conda-cuda12.1-arch-linux-rtx3060ti-runpy-warning-em-op-extract.txt": (
        "2.2.2",
        "cuda",
        "12.1",
        True,
        "550.67",
        ["NVIDIA GeForce RTX 3060 Ti"],
        "Linux",
        "arch",
    ),
    "torch-2.5.1+rocm6.2-wsl2-rx7900xtx-conda-forge-runpy-warning-llm-tracker.txt": (
        "2.5.1+rocm6.2",
        "rocm",
        None,
        True,
        None,
        ["AMD Radeon RX 7900 XTX"],
        "Linux",
        "ubuntu",
    ),
}


def _gpu_names(snap) -> list[str]:
    names = []
    for group in ("nvidia.gpus", "amd.gpus"):
        names += [g["name"] for g in (snap.data(group) or {}).get("gpus", [])]
    return names


def test_every_real_capture_has_an_expectation(real_captures: Path) -> None:
    files = {p.name for p in (real_captures / "collect_env").iterdir() if p.is_file()}
    assert files == set(REAL), "a capture was added or renamed: give it its expected facts"


@pytest.mark.parametrize("name", sorted(REAL))
def test_real_capture_reads_into_the_right_facts(real_captures: Path, name: str) -> None:
    version, build, cuda, available, driver, gpus, system, distro = REAL[name]
    text = (real_captures / "collect_env" / name).read_text(encoding="utf-8")
    assert collect_env.detect(text)
    snap = ingest_text(text)
    assert snap.origin == "pasted"
    torch = snap.data("python.torch")
    assert torch is not None
    assert (torch["version"], torch["build"], torch["cuda"], torch["cuda_available"]) == (
        version,
        build,
        cuda,
        available,
    )
    assert snap.fact("nvidia.driver", "driver_version") == driver
    assert _gpu_names(snap) == gpus
    assert snap.fact("os", "system") == system
    assert snap.fact("os", "distro_id") == distro
    group = snap.group("python.torch")
    assert group.source == "pasted:collect_env" and group.confidence is Confidence.MEDIUM


def test_variant_comes_from_the_local_label(real_captures: Path) -> None:
    cases = {
        "torch-1.12.1+cu116-ubuntu22.04-3x-rtx3090-conda-pytorch-issue-86556.txt": "cu116",
        "torch-2.0.0.dev+cpu-cxx11-abi-centos-stream8-pytorch-issue-97229.txt": "cpu",
        "torch-2.5.1+rocm6.2-wsl2-rx7900xtx-conda-forge-runpy-warning-llm-tracker.txt": "rocm6.2",
        "torch-2.2.2-conda-cuda12.1-arch-linux-rtx3060ti-runpy-warning-em-op-extract.txt": None,
    }
    for name, variant in cases.items():
        snap = ingest_text((real_captures / "collect_env" / name).read_text(encoding="utf-8"))
        assert snap.fact("python.torch", "variant") == variant, name


def test_mojibake_windows_name_is_repaired(real_captures: Path) -> None:
    name = "torch-1.3.0a0-windows10-cp866-mojibake-os-pytorch-issue-28360.txt"
    snap = ingest_text((real_captures / "collect_env" / name).read_text(encoding="utf-8"))
    assert snap.fact("os", "distro_name") == "Майкрософт Windows 10 Pro"
    assert snap.fact("os", "os_line").startswith("Њ")


def test_os_could_not_collect_is_failed_not_guessed(real_captures: Path) -> None:
    name = "torch-1.5.0+cu101-windows10-powershell-os-could-not-collect-pytorch-issue-39133.txt"
    snap = ingest_text((real_captures / "collect_env" / name).read_text(encoding="utf-8"))
    group = snap.group("os")
    assert group is not None and not group.collected
    assert "Could not collect" in group.reason


def test_linux_details_from_python_platform(real_captures: Path) -> None:
    name = "torch-2.1.2+rocm6.1.3-wsl2-radeon-rx6800xt-rocm-issue-3581.txt"
    snap = ingest_text((real_captures / "collect_env" / name).read_text(encoding="utf-8"))
    os_facts = snap.data("os")
    assert os_facts["kernel"] == "5.15.153.1-microsoft-standard-WSL2"
    assert os_facts["virtualization"] == "wsl"
    assert os_facts["glibc"] == "2.35" and os_facts["arch"] == "x86_64"
    assert snap.data("amd.rocm") == {"hip_runtime": "6.1.40093", "miopen": "3.1.0"}


def test_packages_from_pip_and_conda_lines(real_captures: Path) -> None:
    name = "torch-2.2.2-conda-cuda12.1-arch-linux-rtx3060ti-runpy-warning-em-op-extract.txt"
    snap = ingest_text((real_captures / "collect_env" / name).read_text(encoding="utf-8"))
    packages = snap.data("python.packages")
    assert packages["packages"]["torch"] == "2.2.2"
    assert packages["packages"]["torchvision"] == "0.17.2"
    assert packages["conda_builds"]["torch"] == "py3.12_cuda12.1_cudnn8.9.2_0"
    assert packages["conda_builds"]["pytorch-mutex"] == "cuda"
    assert snap.fact("cuda.toolkits", "nvcc_version") == "12.4.99"
    assert snap.fact("cuda.cudnn", "version") == "8.9.7"


def test_oldest_format_parenthesised_pip_versions(real_captures: Path) -> None:
    name = "torch-0.5.0a0-macos-10.13-source-build-pytorch-issue-11157.txt"
    snap = ingest_text((real_captures / "collect_env" / name).read_text(encoding="utf-8"))
    assert snap.data("python.packages")["packages"]["numpy"] == "1.15.0"
    assert snap.fact("python.torch", "debug") is True


def test_compute_capability_from_the_gpu_table(real_captures: Path) -> None:
    name = "torch-1.12.1+cu116-ubuntu22.04-3x-rtx3090-conda-pytorch-issue-86556.txt"
    snap = ingest_text((real_captures / "collect_env" / name).read_text(encoding="utf-8"))
    gpus = snap.data("nvidia.gpus")["gpus"]
    assert [g["index"] for g in gpus] == [0, 1, 2]
    assert {g["compute_capability"] for g in gpus} == {None}  # filled by the enrichment step:
    enrich(snap, load_bundled())
    assert {g["compute_capability"] for g in gpus} == {"8.6"}
    assert {g["compute_capability_source"] for g in gpus} == {"matrix"}


FORK_CASES = {
    "TRUNCATED-vllm-0.7-padded-sections-rhel8.3-torch-2.5.1+cu124-vllm-issue-21310.txt": (
        "2.5.1+cu124",
        "12.4",
        None,
        "rhel",
        [],
    ),
    "TRUNCATED-scalellm-fork-gpu-topology-nccl-a100-torch-2.4.0+cu124-scalellm-pr-288.txt": (
        "2.4.0+cu124",
        "12.4",
        "550.90.07",
        "ubuntu",
        ["NVIDIA A100 80GB PCIe"],
    ),
    "TRUNCATED-wsl2-cuda-init-warning-8x-rtx4000-ada-torch-2.4.0+cu121-vllm-issue-8255.txt": (
        "2.4.0+cu121",
        "12.1",
        None,
        "ubuntu",
        ["NVIDIA RTX 4000 Ada Generation"] * 6,
    ),
    "TRUNCATED-runpy-warning-two-lines-3x-v100s-torch-2.5.1+cu118-vllm-issue-10147.txt": (
        "2.5.1+cu118",
        "11.8",
        None,
        "ubuntu",
        ["Tesla V100S-PCIE-32GB"] * 3,
    ),
    "TRUNCATED-vgpu-l40s-48c-cudnn9-rhel8.10-torch-2.4.0+cu121-vllm-issue-7890.txt": (
        "2.4.0+cu121",
        "12.1",
        "535.129.03",
        "rhel",
        ["NVIDIA L40S-48C"] * 3,
    ),
    "macos-apple-m1-torch-2.7.0-cpu-section-vllm-pr-18285.txt": ("2.7.0", None, None, "macos", []),
    "TRUNCATED-windows11-wmic-cpu-section-gtx1050ti-torch-2.0.1+cu117-pytorch-issue-51858.txt": (
        "2.0.1+cu117",
        "11.7",
        "535.98",
        "windows",
        ["NVIDIA GeForce GTX 1050 Ti"],
    ),
    "TRUNCATED-blockquoted-windows-server-2019-2x-titan-rtx-torch-1.5.0+cu101-pytorch-issue-40682.txt": (
        "1.5.0+cu101",
        "10.1",
        "442.92",
        "windows",
        ["TITAN RTX", "TITAN RTX"],
    ),
}


def test_windows_build_from_python_platform() -> None:
    name = (
        "TRUNCATED-windows11-wmic-cpu-section-gtx1050ti-torch-2.0.1+cu117-pytorch-issue-51858.txt"
    )
    snap = ingest_text((FORKS / name).read_text(encoding="utf-8"))
    assert snap.fact("os", "windows_build") == 22621
    assert snap.fact("python.packages", "packages")["torchaudio"] == "2.0.2+cu117"


@pytest.mark.parametrize("name", sorted(FORK_CASES))
def test_forks_and_warnings(name: str) -> None:
    version, cuda, driver, distro, gpus = FORK_CASES[name]
    snap = ingest_text((FORKS / name).read_text(encoding="utf-8"))
    assert snap.fact("python.torch", "version") == version
    assert snap.fact("python.torch", "cuda") == cuda
    assert snap.fact("nvidia.driver", "driver_version") == driver
    assert snap.fact("os", "distro_id") == distro
    assert _gpu_names(snap) == gpus


def test_every_fork_fixture_is_tested() -> None:
    assert {p.name for p in FORKS.glob("*.txt")} == set(FORK_CASES)


def test_not_collect_env() -> None:
    assert not collect_env.detect("PyTorch is great\nnothing else here")
    assert collect_env.read("just: words\nmore: words") == []


@pytest.mark.parametrize(
    "name, no_nvidia",
    [
        ("torch-1.4.0+cpu-windows10-home-cpu-only-pytorch-issue-33473.txt", True),
        ("torch-1.7.0.dev+cpu-centos7-cpu-only-pytorch-issue-45558.txt", True),
        # a CUDA torch with nvidia-smi answering: the GPU and driver fields are filled
        ("torch-1.12.1+cu116-ubuntu22.04-3x-rtx3090-conda-pytorch-issue-86556.txt", False),
    ],
)
def test_no_cuda_in_gpu_and_driver_fields_is_no_nvidia_driver(
    real_captures: Path, name: str, no_nvidia: bool
) -> None:
    """collect_env prints 'No CUDA' in both fields only when nvidia-smi gave neither a driver
    version nor a GPU: read as nvidia.gpus absent, so no CUDA wheel is assumed for the paste."""
    groups = {
        g.name: g for g in collect_env.read((real_captures / "collect_env" / name).read_text())
    }
    gpus = groups.get("nvidia.gpus")
    if no_nvidia:
        assert gpus is not None and not gpus.collected and "No CUDA" in str(gpus.reason)
    else:
        assert gpus is not None and gpus.collected
