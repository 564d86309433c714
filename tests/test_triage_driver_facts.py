"""Triage's driver-vs-CUDA causes judge as the checks do (`queries.nvidia.driver_supports_cuda`):
the CUDA release counts, not nvcc's build number, and minor-version compatibility holds from
CUDA 11 on; a newer major never runs. Driver minimums: NVIDIA's CUDA compatibility tables
(https://docs.nvidia.com/deploy/cuda-compatibility/index.html), as in matrices/cuda_driver.toml."""

from __future__ import annotations

import pytest

from envdoctor.triage_engine.run import triage_text

NVIDIA_SMI = "| NVIDIA-SMI {v}    Driver Version: {v}    CUDA Version: {cuda} |"
ERRORS = {"torch.driver-too-old", "cuda.toolkit-newer-than-driver"}


def _errors(text: str) -> set[str]:
    report = triage_text(text)
    return {f.id for f in report.findings if f.severity.value == "error"} & ERRORS


def test_a_newer_cuda_major_than_the_driver_is_an_error() -> None:
    text = NVIDIA_SMI.format(v="470.82.01", cuda="11.4") + "\nI installed torch 2.4.1+cu121"
    assert "torch.driver-too-old" in _errors(text + ", cuda is not available")


@pytest.mark.parametrize(
    "driver, cuda_max, torch",
    [
        ("535.104.05", "12.2", "2.4.1+cu124"),  # 12.x on a 12.x driver: minor-version compatibility
        ("525.147.05", "12.0", "2.9.0+cu128"),
        ("580.65.06", "13.0", "2.9.0+cu130"),
    ],
)
def test_the_same_major_runs_through_minor_version_compatibility(
    driver: str, cuda_max: str, torch: str
) -> None:
    text = NVIDIA_SMI.format(v=driver, cuda=cuda_max) + f"\nI installed torch {torch}, driver ok?"
    assert _errors(text) == set()


def test_nvcc_build_numbers_are_not_newer_releases() -> None:
    text = (
        "Cuda compilation tools, release 12.4, V12.4.131\n"
        + NVIDIA_SMI.format(v="550.54.14", cuda="12.4")
        + "\nmy cuda toolkit and driver"
    )
    assert _errors(text) == set()
