"""envdoctor.queries.torch_platforms and forward_compat over the real bundled matrices.

Expected values are the sources' own: PyTorch 2.2.x is the last release for macOS x86_64 (2.2.0
release notes); the build matrix gives macOS CPU wheels only and Windows CPU + CUDA, no ROCm; NVIDIA
builds its own torch wheels for Jetson; cuda-compat works only on data-center GPUs, select NGC RTX
SKUs and Jetson boards.
"""

from __future__ import annotations

import pytest

from envdoctor.matrices import load_bundled
from envdoctor.queries import forward_compat as fc
from envdoctor.queries import torch_platforms as tp


@pytest.fixture(scope="module")
def ms():
    matrices = load_bundled()
    for name in ("torch_platforms", "torch_releases", "cuda_forward_compat", "nvidia_gpus"):
        assert matrices.get(name) is not None, f"{name} did not load: {matrices.errors}"
    return matrices


@pytest.mark.parametrize(
    "os, machine, jetson, key",
    [
        ("darwin", "x86_64", False, "macos-x86_64"),
        ("darwin", "arm64", False, "macos-arm64"),
        ("macos", "aarch64", False, "macos-arm64"),
        ("linux", "x86_64", False, "linux-x86_64"),
        ("linux", "aarch64", False, "linux-aarch64"),
        ("linux", "arm64", True, "linux-aarch64-jetson"),
        ("win32", "AMD64", False, "windows-x86_64"),
        ("wsl2", "x86_64", False, "linux-x86_64"),
        ("plan9", "x86_64", False, None),
        ("linux", "riscv64", False, None),
    ],
)
def test_platform_key(os, machine, jetson, key):
    assert tp.platform_key(os, machine, jetson) == key


@pytest.mark.parametrize(
    "torch, variant, os, machine, jetson, expected",
    [
        ("2.2.2", "cpu", "darwin", "x86_64", False, True),
        ("2.3.0", "cpu", "darwin", "x86_64", False, False),  # no Intel-Mac wheels after 2.2
        ("2.5.1", "cpu", "darwin", "x86_64", False, False),
        ("2.7.0", "cu128", "darwin", "arm64", False, False),  # no CUDA wheels for macOS
        ("2.7.0", "cpu", "darwin", "arm64", False, True),
        ("2.6.0", "rocm6.2.4", "win32", "AMD64", False, False),  # no ROCm wheels for Windows
        ("2.6.0", "cu126", "win32", "AMD64", False, None),  # Windows variant lists not in the table
        ("2.7.0", "cu128", "linux", "x86_64", False, True),
        ("2.7.0", "cu132", "linux", "x86_64", False, False),
        ("2.1.0", "cu121", "linux", "x86_64", False, True),
        ("2.4.0", "rocm6.1", "linux", "x86_64", False, True),
        ("2.5.0", "xpu", "linux", "x86_64", False, True),
        ("2.1.0", "xpu", "linux", "x86_64", False, False),
        ("2.11.0", "cu130", "linux", "aarch64", True, False),  # Jetson: NVIDIA's wheels only
        ("2.11.0", "cu130", "linux", "aarch64", False, None),
        ("9.9.0", "cpu", "linux", "x86_64", False, None),
        ("2.7.0", "nonsense", "linux", "x86_64", False, None),
    ],
)
def test_wheel_exists(ms, torch, variant, os, machine, jetson, expected):
    assert tp.wheel_exists(ms, torch, variant, os, machine, jetson) is expected


def test_wheel_kinds(ms):
    assert tp.wheel_kinds(ms, "darwin", "x86_64", "2.2") == ["cpu"]
    assert tp.wheel_kinds(ms, "darwin", "x86_64", "2.3") == []
    assert "rocm" not in tp.wheel_kinds(ms, "windows", "AMD64")
    assert "cuda" in tp.wheel_kinds(ms, "linux", "aarch64")
    assert tp.wheel_kinds(ms, "linux", "aarch64", jetson=True) == []
    assert tp.wheel_kinds(ms, "beos", "x86_64") is None


@pytest.mark.parametrize(
    "gpu, expected",
    [
        ("NVIDIA H100 80GB HBM3", True),
        ("Tesla T4", True),
        ("NVIDIA A100-SXM4-80GB", True),
        ("NVIDIA GeForce RTX 4090", False),
        ("NVIDIA GeForce RTX 3060 Laptop GPU", False),
        ("NVIDIA TITAN RTX", False),
        ("NVIDIA RTX A6000", None),  # 'select NGC Server Ready SKUs of RTX cards' only
        ("No Such GPU", None),
    ],
)
def test_forward_compat(ms, gpu, expected):
    assert fc.forward_compat_for_gpu(ms, gpu) is expected
