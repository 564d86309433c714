"""The accelerator families (ROCm, Intel XPU, Apple MPS/Metal, Jetson): each cause ranks first on
a line as the field writes it (taken from the threads the signatures cite), its fix names the
thing the confirmed fixes turn on, and close pastes with another cause are not blamed on it."""

from __future__ import annotations

import pytest

from envdoctor.commands.triage import triage_text


def findings(text: str) -> list:
    return list(triage_text(text).findings)


def ids(text: str) -> list[str]:
    return [f.id for f in findings(text)]


def fix_words(text: str, finding_id: str) -> str:
    """Every summary and command of the finding's fixes, lower-cased."""
    found = next(f for f in findings(text) if f.id == finding_id)
    return " ".join(part for fix in found.fixes for part in (fix.summary, *fix.commands)).lower()


@pytest.mark.parametrize(
    "text, expected, keyword",
    [
        (
            'level=WARN source=amd_windows.go:140 msg="amdgpu is not supported '
            '(supported types:[])" gpu_type=gfx1031 gpu=0',
            "rocm.hsa-override-misapplied",
            "hsa_override_gfx_version",
        ),
        (
            "RuntimeError: HIP error: invalid device function\n"
            "For debugging consider passing AMD_SERIALIZE_KERNEL=3",
            "rocm.no-binary-for-gpu",
            "hsa_override_gfx_version",
        ),
        (
            "rocBLAS error: Could not load C:\\Program Files\\AMD\\ROCm\\6.1\\bin\\/rocblas/"
            "library/TensileLibrary_lazy_gfx1103.dat",
            "rocm.gfx-unsupported",
            "hsa_override_gfx_version",
        ),
        (
            "ROCk module is loaded\nUnable to open /dev/kfd read-write: Operation not permitted",
            "rocm.kfd-permission",
            "render",
        ),
        (
            "docker: Error response from daemon: error gathering device information while adding "
            'custom device "/dev/kfd": no such file or directory.',
            "rocm.driver-not-loaded",
            "amdgpu",
        ),
        (
            "ImportError: flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: "
            "undefined symbol: hipGetDevicePropertiesR0600",
            "rocm.torch-rocm-mismatch",
            "torch.version.hip",
        ),
        (
            "RuntimeError: Torch is not able to use GPU; add --skip-torch-cuda-test to "
            "COMMANDLINE_ARGS variable to disable this check\nMy GPU is an AMD RX 570 series 4GB",
            "rocm.cuda-torch-on-amd",
            "--use-directml",
        ),
        (
            'level=WARN source=amd_linux.go:346 msg="amdgpu detected, but no compatible rocm '
            'library found.  Either install rocm v6"',
            "app.ollama-cpu-fallback",
            "ollama-linux-amd64-rocm",
        ),
        (
            "ImportError: libmkl_sycl.so.3: cannot open shared object file: No such file or "
            "directory\nimport intel_extension_for_pytorch as ipex",
            "intel.oneapi-not-sourced",
            "setvars",
        ),
        (
            "RuntimeError: Native API failed. Native API returns: -1102 (PI_ERROR_UNINITIALIZED) "
            "-1102 (PI_ERROR_UNINITIALIZED)\ntorch.xpu.device_count()",
            "intel.xpu-without-runtime",
            "level",
        ),
        (
            "Ran into seg faults trying to run Ollama on Ubuntu 24.04 with an Intel Arc A750",
            "intel.compute-runtime-address-space",
            "overridegpuaddressspace",
        ),
        (
            "ERROR! Intel® Extension for PyTorch* needs to work with PyTorch/libtorch 1.13.*, "
            "but PyTorch/libtorch 2.0.1+cu117 is found.",
            "intel.ipex-torch-mismatch",
            "1.13",
        ),
        (
            "RuntimeError: The MPS backend is supported on MacOS 14.0+. Current OS version can "
            "be queried using `sw_vers`",
            "macos.mps-unavailable",
            "sw_vers",
        ),
        (
            "Python platform: macOS-10.16-x86_64-i386-64bit\nCPU:\nApple M2 Pro",
            "macos.rosetta-python",
            "arm64",
        ),
        ("TypeError: BFloat16 is not supported on MPS", "fit.dtype-unsupported", "float16"),
        (
            "ggml_metal_graph_compute: command buffer 3 failed with status 5\n"
            "error: Insufficient Memory (00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)",
            "apple.mps-out-of-memory",
            "wired_limit",
        ),
        (
            "Jetson Nano, JetPack 4.6\nOSError: libmpi_cxx.so.40: cannot open shared object file",
            "jetson.wheel-system-deps-missing",
            "libopenmpi-dev",
        ),
        (
            "I installed pytorch on my jetson nano; import torch says\n"
            "Illegal instruction (core dumped)",
            "jetson.numpy-openblas-illegal-instruction",
            "openblas_coretype",
        ),
    ],
)
def test_cause_ranks_first_and_names_its_fix(text: str, expected: str, keyword: str) -> None:
    assert ids(text)[:1] == [expected]
    assert keyword in fix_words(text, expected)


def test_no_binary_fix_names_no_canned_rocm_index() -> None:
    words = fix_words(
        "hipErrorNoBinaryForGpu: Unable to find code object for all current devices!",
        "rocm.no-binary-for-gpu",
    )
    assert "whl/rocm" not in words and "hsa_override_gfx_version" in words


def test_ipex_and_torch_of_one_minor_are_not_a_mismatch() -> None:
    text = "intel-extension-for-pytorch 2.1.10+xpu\ntorch 2.1.0a0+cxx11.abi\n"
    assert "intel.ipex-torch-mismatch" not in ids(text)


def test_cuda_build_on_a_laptop_with_an_nvidia_gpu_is_not_blamed_on_amd() -> None:
    text = (
        "AssertionError: Torch not compiled with CUDA enabled\n"
        "GPUs: AMD Radeon(TM) Graphics, NVIDIA GeForce RTX 3060 Laptop GPU\n"
    )
    assert "rocm.cuda-torch-on-amd" not in ids(text)[:1]


def test_a_segfault_without_an_intel_gpu_is_not_the_compute_runtime_bug() -> None:
    text = "Segmentation fault (core dumped)\nnvidia-smi shows an RTX 4090, CUDA error"
    assert "intel.compute-runtime-address-space" not in ids(text)


def test_illegal_instruction_on_an_x86_desktop_is_not_jetson() -> None:
    text = "import tensorflow\nIllegal instruction (core dumped)\nCPU: Intel Pentium G4560 (no AVX)"
    assert "jetson.numpy-openblas-illegal-instruction" not in ids(text)


@pytest.mark.parametrize(
    "need, have, index",
    [
        ("2.8", "2.7.1+cpu", "whl/cpu"),  # IPEX on the CPU: the CPU wheels
        ("2.6", "2.5.1+xpu", "whl/xpu"),  # XPU wheels exist from torch 2.5 on
        ("2.1", "2.2.0", None),  # an older XPU IPEX: no PyTorch index has that torch for XPU
    ],
)
def test_ipex_torch_pair_fix_uses_an_index_that_has_the_build(
    need: str, have: str, index: str | None
) -> None:
    text = (
        f"ERROR! Intel® Extension for PyTorch* needs to work with PyTorch {need}.*, "
        f"but PyTorch {have} is found. Please switch to the matching version and run again."
    )
    commands = fix_words(text, "intel.ipex-torch-mismatch")
    if index is None:
        assert "download.pytorch.org" not in commands
    else:
        assert f"torch=={need}.*' --index-url https://download.pytorch.org/{index}" in commands
