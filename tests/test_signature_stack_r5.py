"""The framework-stack causes of round 5 (checks/signatures/*.toml), each on lines users
pasted in the issue threads its signature cites: the right cause comes first and its fix names
the knob the thread's fix turned (the flag, env var, function argument or command)."""

from __future__ import annotations

import pytest
from triage_lines import assert_first_with_knob

from envdoctor.triage_engine import triage_text

FIELD_LINES = [
    # (pasted text, expected finding id, a word the fixes must name)
    (  # NVIDIA/TensorRT#564
        "[TensorRT] ERROR: INVALID_CONFIG: The engine plan file is generated on an incompatible "
        "device, expecting compute 6.1 got compute 7.5, please rebuild.\n"
        "[TensorRT] ERROR: engine.cpp (1407) - Serialization Error in deserialize: 0 (Core engine "
        "deserialization failure)",
        "tensorrt.engine-built-on-other-gpu",
        "--saveEngine",
    ),
    (  # LuyaooChen/uninformed-students-pytorch#3
        "    return t.to(device, dtype if t.is_floating_point() else None, non_blocking)\n"
        "RuntimeError: CUDA error: invalid device ordinal",
        "cuda.device-ordinal-exceeds-gpu-count",
        "cuda:0",
    ),
    (  # ZQPei/deep_sort_pytorch#51
        "RuntimeError: Attempting to deserialize object on CUDA device 2 but "
        "torch.cuda.device_count() is 1. Please use torch.load with map_location to map your "
        "storages to an existing device.",
        "cuda.device-ordinal-exceeds-gpu-count",
        "map_location",
    ),
    (  # XLA's backend check, as TensorFlow prints it
        "tensorflow.python.framework.errors_impl.InvalidArgumentError: Invalid device ordinal "
        "value (1). Valid range is [0, 0].\n\twhile setting up XLA_GPU_JIT device number 1",
        "cuda.device-ordinal-exceeds-gpu-count",
        "CUDA_VISIBLE_DEVICES",
    ),
    (  # colmap/colmap#1905
        "ERROR: Dense stereo reconstruction requires CUDA, which is not available on your system.",
        "colmap.built-without-cuda",
        "CMAKE_CUDA_ARCHITECTURES",
    ),
    (  # colmap/colmap#1485
        "Exhaustive feature matching\nShader not supported by your hardware!\n"
        "ERROR: SiftGPU not fully supported",
        "colmap.built-without-cuda",
        "SiftMatching.use_gpu",
    ),
    (  # stereolabs/zed-sdk#175
        "ERROR : Found CUDA 10.1 but the ZED SDK requires 10.0\n"
        "The ZED will NOT work with this CUDA version (10.1), Continue  [Y/n] ?",
        "cuda.sdk-requires-other-toolkit",
        "cuda-10.0",
    ),
    (  # inducer/pycuda#440
        "[command: nvcc --cubin -arch sm_89 -m64 kernel.cu]\n"
        "nvcc fatal   : Value 'sm_89' is not defined for option 'gpu-architecture'",
        "cuda.nvcc-too-old-for-gpu",
        "11.8",
    ),
    (  # NVIDIA/warp#219
        "Warp CUDA error: Failed to get driver entry point 'cuDriverGetVersion' (CUDA error 34)\n"
        "Warp CUDA warning: Unable to determine CUDA driver version",
        "cuda.stub-libcuda-loaded",
        "stubs",
    ),
    (  # Purfview/whisper-standalone-win#50
        'File "faster_whisper\\transcribe.py", line 125, in __init__\n'
        "RuntimeError: CUDA failed with error out of memory",
        "memory.workload-does-not-fit",
        "int8_float16",
    ),
    (  # microsoft/WSL#8447: the pinned-memory thread of a DataLoader
        '  File "torch/utils/data/_utils/pin_memory.py", line 31, in _pin_memory_loop\n'
        "RuntimeError: CUDA error: out of memory",
        "memory.out-of-memory",
        "pin_memory=False",
    ),
    (  # diffusers' memory guide: offload and VAE tiling are the knobs
        "pipe = StableDiffusionXLPipeline.from_pretrained(MODEL)\n"
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB (GPU 0; "
        "7.79 GiB total capacity; 5.00 GiB already allocated)",
        "memory.out-of-memory",
        "enable_model_cpu_offload",
    ),
    (  # modelscope/FunASR#755: batches counted in tokens
        "funasr 0.7.0\ntorch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 336.00 "
        "MiB (GPU 0; 11.77 GiB total capacity; 10.46 GiB already allocated)",
        "memory.out-of-memory",
        "batch_size_token",
    ),
    (  # PaddlePaddle/Paddle#74088: a Maxwell card under Paddle 3.0's cu118 wheel
        "W0717 03:51:46.792800    14 gpu_resources.cc:96] The GPU architecture in your current "
        "machine is Maxwell, which is not compatible with Paddle installation with arch: 60 61 70 "
        "75 80 86 , it is recommended to install the corresponding wheel package according to the "
        "installation information on the official Paddle website.\n"
        "CUDA error 209 [util_device.cuh, 375]: no kernel image is available for execution on the "
        "device",
        "paddle.gpu-too-old-for-build",
        "cu118",
    ),
    (  # PaddlePaddle/PaddleOCR#13701: an Ampere card under a wheel built up to sm_75
        "The GPU architecture in your current machine is Ampere, which is not compatible with "
        "Paddle installation with arch: 60 61 70 75 , it is recommended to install the "
        "corresponding wheel package according to the installation information on the official "
        "Paddle website.",
        "paddle.gpu-too-new-for-build",
        "paddle.utils.run_check",
    ),
    (  # PaddlePaddle/PaddleX#844: no 'paddle' on the failing line, a post101 build in the prose
        "安装的 paddlepaddle-gpu 2.1.0.post101，系统ubuntu18.04\n"
        "gaussian_random raises an exception thrust::system::system_error, parallel_for failed: "
        "no kernel image is available for execution on the device",
        "paddle.gpu-too-new-for-build",
        "post112",
    ),
    (  # PaddlePaddle/PaddleOCR#300
        "Error: Cannot load cudnn shared library. Cannot invoke method cudnnGetVersion at "
        "(/paddle/paddle/fluid/platform/dynload/cudnn.cc:63)",
        "cuda.cudnn-missing",
        "LD_LIBRARY_PATH",
    ),
    (  # Paddle 2.x wording of the same
        "OSError: (PreconditionNotMet) The third-party dynamic library (libcudnn.so) that Paddle "
        "depends on is not configured correctly. (error code is libcudnn.so: cannot open shared "
        "object file: No such file or directory)",
        "cuda.cudnn-missing",
        "LD_LIBRARY_PATH",
    ),
    (  # AUTOMATIC1111/stable-diffusion-webui#3157: a CPU torch in the web UI's venv
        "NVIDIA GeForce RTX 3060, driver 552.22\n"
        "RuntimeError: Torch is not able to use GPU; add --skip-torch-cuda-test to "
        "COMMANDLINE_ARGS variable to disable this check",
        "torch.cpu-build-on-gpu-host",
        "venv",
    ),
    (  # fo40225's TensorFlow 1.15 Windows wheel built for CUDA 10.1
        "W tensorflow/stream_executor/platform/default/dso_loader.cc:55] Could not load dynamic "
        "library 'cudart64_101.dll'; dlerror: cudart64_101.dll not found",
        "tensorflow.cuda-libs-not-found",
        "CUDA 10.1",
    ),
    (  # PaddlePaddle/PaddleFormers#993 (PaddleHub's lac module)
        "RuntimeError: Environment Variable CUDA_VISIBLE_DEVICES is not set correctly. If you "
        "wanna use gpu, please set CUDA_VISIBLE_DEVICES as cuda_device_id.",
        "cuda.env-not-inherited",
        "export CUDA_VISIBLE_DEVICES=0",
    ),
    (  # PaddlePaddle/PaddleClas#1215
        "You are using Paddle compiled with TensorRT, but TensorRT dynamic library is not found.\n"
        "RuntimeError: (Unavailable) Load tensorrt api getInferLibVersion failed",
        "tensorrt.lib-not-on-loader-path",
        "LD_LIBRARY_PATH",
    ),
    (  # microsoft/onnxruntime#26221: onnxruntime-gpu 1.23.0 on an RTX 5090
        "RTX 5090, onnxruntime-gpu==1.23.0\n"
        "[E:onnxruntime:, sequential_executor.cc:572 onnxruntime::ExecuteKernel] Non-zero status "
        "code returned while running Relu node. Name:'Relu_2' Status Message: CUDA error "
        "cudaErrorNoKernelImageForDevice:no kernel image is available for execution on the device",
        "torch.gpu-too-new-for-build",
        "onnxruntime-gpu==1.22.0",
    ),
    (  # PaddlePaddle/PaddleSeg#1723
        "Out of memory error on GPU 0. Cannot allocate 400.000244MB memory on GPU 0, 7.288696GB "
        "memory has been allocated and available memory is only 155.187500MB.",
        "memory.out-of-memory",
        "batch_size_per_card",
    ),
    (  # PaddlePaddle/PaddleOCR#1505 wording of Paddle 1.x / 2.0
        "Error: Cannot load cublas shared library. Cannot invoke method cublasCreate_v2 at "
        "(/paddle/paddle/fluid/platform/dynload/cublas.h:45)",
        "paddle.wheel-cuda-mismatch",
        "paddlepaddle-gpu",
    ),
    (  # QwenLM/Qwen#120, EleutherAI/lm-evaluation-harness#1689
        "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`",
        "memory.out-of-memory",
        "CUDA_LAUNCH_BLOCKING=1",
    ),
]


@pytest.mark.parametrize(("text", "finding_id", "knob"), FIELD_LINES)
def test_field_line_reaches_its_cause_with_the_knob(text: str, finding_id: str, knob: str) -> None:
    assert_first_with_knob(text, finding_id, knob)


def test_a_specific_ordinal_story_still_outranks_the_generic_one() -> None:
    """MIG and Slurm explain an invalid ordinal better than a hard-coded index: they stay first."""
    mig = (
        "RuntimeError: CUDA error: invalid device ordinal\n"
        "GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-5f1c3a2e)\n"
        "  MIG 3g.40gb     Device  0: (UUID: MIG-7a2b9c1d)"
    )
    assert triage_text(mig).findings[0].id != "cuda.device-ordinal-exceeds-gpu-count"
    slurm = (
        "#SBATCH --gpus-per-task=1\nsrun -n 4 python train.py\n"
        "RuntimeError: CUDA error: invalid device ordinal"
    )
    assert triage_text(slurm).findings[0].id == "cluster.slurm-per-task-gpu-binding"


def test_an_old_architecture_the_toolkit_dropped_is_not_called_too_old() -> None:
    """sm_30 with CUDA 11 is an architecture the toolkit dropped, not a toolkit older than the GPU."""
    found = triage_text(
        "nvcc fatal   : Value 'sm_30' is not defined for option 'gpu-architecture'"
    ).findings
    assert not any("does not know sm_30" in f.title for f in found), [f.title for f in found]


def test_titles_read_well_without_captures() -> None:
    """A case-base suggestion renders the signature with its defaults only: no stray phrasing."""
    found = triage_text("Use repo's trt model on Tesla P4 leads to the error above").findings
    assert found and found[0].id == "tensorrt.engine-built-on-other-gpu"
    assert "{{" not in found[0].title and "another GPU" not in found[0].title


def test_a_diffusion_pipeline_gets_its_own_lever_first() -> None:
    """from_pretrained loads diffusion pipelines too: the LLM quantisation fix does not lead there."""
    found = triage_text(
        "pipe = StableDiffusionXLPipeline.from_pretrained(MODEL)\n"
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB"
    ).findings
    assert found[0].id == "memory.out-of-memory"
    assert "enable_model_cpu_offload" in found[0].fixes[0].summary


def test_oom_title_reads_well_without_the_card_size() -> None:
    found = triage_text("torch.cuda.OutOfMemoryError: CUDA out of memory.").findings
    assert found[0].id == "memory.out-of-memory"
    assert "GiB card" not in found[0].title and "not shown" in found[0].title


def test_the_a1111_check_on_an_amd_gpu_is_the_amd_story() -> None:
    found = triage_text(
        "GPU: AMD Radeon RX 6800\nRuntimeError: Torch is not able to use GPU; add "
        "--skip-torch-cuda-test to COMMANDLINE_ARGS variable to disable this check"
    ).findings
    assert found[0].id == "rocm.cuda-torch-on-amd"


def test_the_tf_216_fix_stays_with_216() -> None:
    """The 2.16.1 and-cuda regression fix is not offered for a TensorFlow 1.x Windows paste."""
    found = triage_text(
        "Could not load dynamic library 'cudart64_101.dll'; dlerror: cudart64_101.dll not found"
    ).findings
    assert not any("2.16" in f.summary for f in found[0].fixes)


def test_a_new_gpu_with_an_old_toolkit_described_in_prose() -> None:
    """NVlabs/tiny-cuda-nn#239 in the reporter's words: the toolkit, not torch, is too old."""
    found = triage_text(
        "Graphics card: rtx4090\nCUDA Version: 11.3\npytorch: 1.10\nwhen installing tiny_cuda_nn, "
        "I checked online and found that the calculation power does not match."
    ).findings
    assert found and found[0].id == "cuda.nvcc-too-old-for-gpu"
    assert "TCNN_CUDA_ARCHITECTURES" in " ".join(f.summary for f in found[0].fixes)


def test_pip_names_the_python_range_it_skipped() -> None:
    """pip's 'Requires-Python' note is the knob: the fix names the range."""
    found = triage_text(
        "ERROR: Ignored the following versions that require a different python version: 1.21.2 "
        "Requires-Python >=3.7,<3.11; 1.21.3 Requires-Python >=3.7,<3.11\n"
        "ERROR: Could not find a version that satisfies the requirement numpy==1.21.3 (from "
        "versions: 1.26.0, 1.26.1)\nERROR: No matching distribution found for numpy==1.21.3"
    ).findings
    assert found[0].id == "python.no-matching-wheel"
    assert ">=3.7,<3.11" in found[0].fixes[0].summary
