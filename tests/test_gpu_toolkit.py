"""The GPU's generation against the toolkit / build (envdoctor.triage_engine.gpu_toolkit and the
signatures of checks/signatures/{cuda,torch,paddle}.toml, {cuda,hardware,nvidia_driver}.toml): the old GPU names
resolve to NVIDIA's capabilities, the facts pair them with nvcc's sm ranges, and the causes and
their fixes name the toolkit that fits."""

from __future__ import annotations

import pytest

from envdoctor.ingest import clean_block, ingest_blocks
from envdoctor.matrix.loader import load_bundled
from envdoctor.queries.nvidia import capability_by_name, first_cuda_for_sm, nvcc_targets
from envdoctor.queries.nvidia_arch import last_toolkit_for_sm
from envdoctor.triage_engine.facts import Facts
from envdoctor.triage_engine.gpu_toolkit import named_toolkit
from envdoctor.triage_engine.run import triage_text

MS = load_bundled()


@pytest.mark.parametrize(
    ("printed", "cc"),
    [
        ("GeForce GT 625M", "2.1"),  # Fermi notebook
        ("NVIDIA GeForce GTX 580", "2.0"),
        ("GeForce GTX 560 Ti", "2.1"),
        ("NVIDIA GeForce GT 750M", "3.0"),  # Kepler notebook
        ("GeForce 920M", "3.5"),
        ("NVIDIA GeForce GTX 850M", "5.0"),
        ("Quadro K610M", "3.5"),
        ("Quadro M1200", "5.0"),
        ("Tesla K40m", "3.5"),  # a board of the Tesla K40 family
        ("Tesla K20Xm", "3.5"),
        ("Tesla C2075", "2.0"),
    ],
)
def test_old_gpu_names_resolve(printed: str, cc: str) -> None:
    assert capability_by_name(MS, printed) == cc


def test_gpus_named_by_more_than_one_variant_stay_out() -> None:
    # NVIDIA lists the GT 730 under 3.5 and 2.1 and the GTX 860M under "3.0/5.0": one printed name
    assert capability_by_name(MS, "NVIDIA GeForce GT 730") is None
    assert capability_by_name(MS, "NVIDIA GeForce GTX 860M") is None


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ("GPU: GeForce GT 625M", "NVIDIA GeForce GT 625M"),
        ("NVIDIA GeForce GTX 960M", "NVIDIA GeForce GTX 960M"),  # not the GTX 960 (sm_52)
        ("a GeForce 940M laptop", "NVIDIA GeForce 940M"),
        ("GeForce GT 640M LE", "NVIDIA GeForce GT 640M LE"),
        ("NVIDIA GeForce RTX 4090 D", "NVIDIA GeForce RTX 4090 D"),
    ],
)
def test_free_text_keeps_notebook_suffixes(line: str, name: str) -> None:
    text = ingest_blocks([clean_block(line)]).data("pasted.text") or {}
    assert text.get("gpus") == [name]


@pytest.mark.parametrize(
    ("line", "version"),
    [
        ("i have cuda 9.1 on this laptop", "9.1"),
        ("my new GPU does not support CUDA 8.", "8.0"),
        ("CUDA版本是9.0", "9.0"),
        ("built with CUDA 10.2 and cudnn 7", "10.2"),
        ("| NVIDIA-SMI 535.54 Driver Version: 535.54 CUDA Version: 12.2 |", None),
        ("Device 0 has CUDA capability 7.5", None),
        ("CUDA 11 support?", None),  # no minor: 11.0 and 11.1 build for different GPUs
    ],
)
def test_named_toolkit(line: str, version: str | None) -> None:
    assert named_toolkit([line]) == version


def test_toolkit_tables() -> None:
    assert nvcc_targets(MS, "9.1") == (30, 72)
    assert nvcc_targets(MS, "8.0") == (20, 62)
    assert first_cuda_for_sm(MS, 75) == "10.0"
    assert first_cuda_for_sm(MS, 86) == "11.1"
    assert last_toolkit_for_sm(MS, 21) == "8.0"  # Fermi
    assert last_toolkit_for_sm(MS, 30) == "10.2"  # nvidia_arch_support names the last 10.x
    assert last_toolkit_for_sm(MS, 35) == "11.8"
    assert last_toolkit_for_sm(MS, 89) is None  # still built by the newest toolkit


def _facts(text: str) -> Facts:
    return Facts(ingest_blocks([clean_block(text)]), MS)


def test_facts_pair_the_newest_gpu_with_the_toolkit() -> None:
    facts = _facts(
        "It worked on my GeForce GTX 1060; after the upgrade to a GeForce RTX 2080 Ti it fails.\n"
        "The program was built with CUDA 8.0\n"
    )
    assert facts.get("gpu.newest") == "NVIDIA GeForce RTX 2080 Ti"
    assert (facts.get("cuda.sm_max"), facts.get("gpu.sm"), facts.get("gpu.cuda_first")) == (
        62,
        75,
        "10.0",
    )


def _top(text: str, count: int = 3) -> list:
    return triage_text(text).findings[:count]


def test_fermi_gpu_under_cuda_9_is_too_old_for_the_binary() -> None:
    top = _top(
        "CUDA Error: no kernel image is available for execution on the device\n"
        "GPU: NVIDIA GeForce GTX 480, toolkit: cuda 9.2\n"
    )
    assert top[0].id == "cuda.gpu-too-old-for-binary"
    fixes = " ".join(f.summary for f in top[0].fixes)
    assert "compute capability sm_20" in fixes and "CUDA 8.0" in fixes


def test_turing_gpu_under_a_cuda_8_build_is_too_new_for_the_binary() -> None:
    top = _top(
        "Check failed: error == cudaSuccess (8 vs. 0)  invalid device function\n"
        "The prebuilt binaries use CUDA 8.0; my card is a GeForce RTX 2070\n"
    )
    assert top[0].id == "cuda.gpu-too-new-for-binary"
    assert "CUDA 10.0 or newer" in " ".join(f.summary for f in top[0].fixes)


def test_the_torch_cause_keeps_torch_reports() -> None:
    top = _top(
        "RuntimeError: CUDA error: no kernel image is available for execution on the device\n"
        "torch 2.8.0+cu128, GPU: NVIDIA GeForce GTX 480, cuda 12.8\n"
    )
    assert top[0].id == "torch.gpu-too-old-for-build"


def test_an_old_gpu_asked_about_in_prose_gets_a_source_build() -> None:
    top = _top("新版本的pytorch能不能支持 tesla k40m 显卡")
    assert top[0].id == "torch.gpu-too-old-for-build"
    assert 'TORCH_CUDA_ARCH_LIST="3.5"' in " ".join(f.summary for f in top[0].fixes)


def test_paddle_on_a_new_series_names_cuda_11_1() -> None:
    top = _top("paddle 支持 30 系列显卡吗？我装的是 cuda 10.2 的版本")
    assert top[0].id == "paddle.gpu-too-new-for-build"
    assert any("CUDA 11.1" in f.summary for f in top[0].fixes)


def test_launch_failure_only_with_all_gpus_is_power() -> None:
    top = _top(
        "Training on both GPUs crashes, a single GPU works:\n"
        "Check failed: error == cudaSuccess (4 vs. 0)  unspecified launch failure\n"
    )
    assert top[0].id == "hardware.power-insufficient"


def test_a_launch_failure_alone_is_not_put_on_the_hardware() -> None:
    ids = [f.id for f in _top("RuntimeError: CUDA error: unspecified launch failure\n", 5)]
    assert "hardware.power-insufficient" not in ids


def test_a_launch_timeout_on_linux_is_the_display_watchdog() -> None:
    top = _top(
        "RuntimeError: CUDA error: the launch timed out and was terminated\n"
        "Ubuntu 22.04, the GTX 1080 also drives my monitor (Xorg)\n"
    )
    assert top[0].id == "nvidia.display-watchdog-timeout"
    assert any('"Interactive" "False"' in f.summary for f in top[0].fixes)


def test_a_launch_timeout_on_windows_stays_tdr() -> None:
    top = _top("RuntimeError: CUDA error: the launch timed out and was terminated\nWindows 10\n")
    assert top[0].id == "windows.device-removed-tdr"


def test_free_text_reads_tesla_board_names() -> None:
    for line, name in (
        ("Tesla K20Xm", "NVIDIA Tesla K20Xm"),
        ("Tesla C2075", "NVIDIA Tesla C2075"),
    ):
        text = ingest_blocks([clean_block(line)]).data("pasted.text") or {}
        assert text.get("gpus") == [name]


def test_paddle_no_kernel_image_names_the_first_cuda_for_the_gpu() -> None:
    top = _top(
        "ExternalError: CUDA error(209), no kernel image is available for execution on the device."
        " (at /paddle/paddle/phi/backends/gpu/cuda/cuda_info.cc:256)\n"
        "GPU: NVIDIA GeForce RTX 3080, paddlepaddle-gpu with cuda 10.2\n"
    )
    assert top[0].id == "paddle.gpu-too-new-for-build"
    assert any("CUDA 11.1 or newer" in f.summary for f in top[0].fixes)
