"""The stack causes as the field writes them (checks/signatures/stack_*.toml and the lines added to
torch / cuda / frameworks / apps.toml): each canonical line reaches its cause first, and the first
fixes name what the real fix turns on (the package, version, flag or variable); close lines with
another cause stay away from it."""

from __future__ import annotations

import pytest

from envdoctor.triage_engine import triage_text


def top(text: str) -> tuple[str, str]:
    """The first finding's id and its fixes' text (summaries and commands, lower-case)."""
    finding = triage_text(text).findings[0]
    fixes = " ".join(" ".join((f.summary, *f.commands)) for f in finding.fixes).lower()
    return finding.id, fixes


@pytest.mark.parametrize(
    "line, expected, names",
    [
        (
            "ImportError: /x/site-packages/selective_scan_cuda.cpython-310-x86_64-linux-gnu.so: "
            "undefined symbol: _ZN3c104cuda9SetDeviceEi",
            "torch.extension-abi-mismatch",
            ("mamba-ssm", "cxx11abi", "releases"),
        ),
        (
            "ImportError: libtorch_cpu.so: cannot open shared object file: No such file or "
            "directory\nfrom detectron2 import _C",
            "torch.extension-abi-mismatch",
            ("detectron2", "source"),
        ),
        (
            "ImportError: DLL load failed while importing flash_attn_2_cuda: The specified "
            "procedure could not be found.",
            "torch.extension-abi-mismatch",
            ("flash_attn_2_cuda",),
        ),
        (
            "WARNING - CUDA kernels for auto_gptq are not installed, this will result in very "
            "slow inference speed.",
            "autogptq.cuda-ext-not-installed",
            ("auto-gptq", "build_cuda_ext", "gptqmodel"),
        ),
        (
            "Could not locate cudnn_ops64_9.dll. Please make sure it is in your library path!\n"
            "faster_whisper ctranslate2",
            "cuda.cudnn-missing",
            ("ctranslate2==4.4.0", "torch to 2.4 or later"),
        ),
        (
            "CUDA_SETUP: WARNING! libcudart.so not found in any environmental path. Searching in "
            "backup paths...",
            "bitsandbytes.cudart-not-found",
            ("bitsandbytes>=0.43.0", "ld_library_path", "bnb_cuda_version"),
        ),
        (
            "RuntimeWarning: JAX plugin jax_cuda12_plugin version 0.9.2 is installed,\n"
            "but it is not compatible with the installed jaxlib version 0.9.0.1",
            "jax.cuda-plugin-mismatch",
            ("jax-cuda12-plugin==0.9.0.1",),
        ),
        (
            "RuntimeError: Failed to infer device type",
            "vllm.platform-not-detected",
            ("vllm_logging_level=debug",),
        ),
        (
            "RuntimeError: Failed to load shared library '/v/llama_cpp/lib/libllama.so': "
            "libcudart.so.12: cannot open shared object file: No such file or directory",
            "app.llamacpp.cuda-runtime-missing",
            ("nvidia-cuda-runtime-cu12", "ggml_cuda=on"),
        ),
        (
            "W tensorflow/core/common_runtime/gpu/gpu_device.cc] The installed Paddle is "
            "compiled with CUDNN 8.2, but CUDNN version in your machine is 8.1",
            "cuda.cudnn-mismatch",
            ("cudnn 8.2",),
        ),
        (
            "[W:onnxruntime:Default, onnxruntime_pybind_state.cc:541 CreateExecutionProviderInstance]"
            " Failed to create CUDAExecutionProvider. Please reference https://onnxruntime.ai/docs/"
            "execution-providers/CUDA-ExecutionProvider.html#requirements",
            "onnxruntime.cuda-deps-mismatch",
            ("onnxruntime-gpu",),
        ),
        (
            "ERROR: flash_attn-2.5.8+cu122torch2.3cxx11abiFALSE-cp310-cp310-linux_x86_64.whl is "
            "not a supported wheel on this platform.",
            "python.no-matching-wheel",
            ("cp310", "pip debug"),
        ),
        (
            "print(torch.cuda.is_available())\n# False\nprint(torch.__version__)\n# 2.3.1+cpu",
            "torch.cpu-build-on-gpu-host",
            ("torch==2.3.1", "whl/cu121"),
        ),
        (
            "ERROR: Could not find a version that satisfies the requirement tensorflow==2.12.0 "
            "(from versions: 2.16.1)\nERROR: No matching distribution found for tensorflow==2.12.0"
            "\nPython 3.12.2",
            "python.no-matching-wheel",
            ("python 3.11", "tensorflow==2.12.0"),
        ),
    ],
)
def test_the_field_line_reaches_its_cause_and_names_the_fix(
    line: str, expected: str, names: tuple[str, ...]
) -> None:
    found, fixes = top(line)
    assert found == expected
    for name in names:
        assert name in fixes, (name, fixes)


def test_an_xla_ptxas_warning_is_a_low_score_driver_cause() -> None:
    report = triage_text(
        "W external/xla/xla/service/gpu/nvptx_compiler.cc:744] The NVIDIA driver's CUDA version "
        "is 12.2 which is older than the ptxas CUDA version (12.3.107). Because the driver is "
        "older than the ptxas version, XLA is disabling parallel compilation"
    )
    [finding] = [f for f in report.findings if f.id == "cuda.toolkit-newer-than-driver"]
    assert finding.severity.value == "warning" and "12.3" in finding.fixes[0].summary


@pytest.mark.parametrize(
    "text, not_expected",
    [
        # a CPU-only collect_env: the fact checks speak for it, not the printed-version cause
        (
            "PyTorch version: 2.3.1+cpu\nCUDA used to build PyTorch: None\nIs CUDA available: No"
            "\nGPU models and configuration: No CUDA",
            "torch.cpu-build-on-gpu-host",
        ),
        # a failed CUDA EP is not the CPU-only onnxruntime package
        (
            "EP Error when using ['CUDAExecutionProvider'] Falling back to "
            "['CPUExecutionProvider'] and retrying.",
            "onnxruntime.cpu-package-shadows-gpu",
        ),
        # an Ollama with GPU runners is not the CPU-only build
        (
            'msg="Dynamic LLM libraries" runners="[cpu_avx2 cuda_v11 cuda_v12 rocm]"',
            "app.ollama-cpu-fallback",
        ),
    ],
)
def test_close_lines_with_another_cause_stay_away(text: str, not_expected: str) -> None:
    assert not_expected not in [f.id for f in triage_text(text).findings[:1]]
