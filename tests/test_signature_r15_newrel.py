"""Round 15 sweep of the 2025-2026 new-release breakages (checks/signatures/{cuda,torch}.toml and the
entries it touched): an nvcc that refuses an architecture it dropped (compute_50 under CUDA 13,
compute_30 under CUDA 11) reaches the dropped-architecture cause, whose fixes take the target out
of the build's list (CMAKE_CUDA_ARCHITECTURES) or name the last toolkit that still builds it; the
"Found GPU0 ... Minimum and Maximum cuda capability supported by this version of PyTorch is (A) -
(B)" warning of a GB10 (12.1 under a build up to 12.0) is read as harmless, not as a GPU too old;
and the frequent torch 2.8+ cu128 Pascal, NumPy 2 ABI and Python 3.13 wheel messages keep their
causes. Each message is verbatim from its thread; it reaches the cause the thread confirmed first,
and one of that cause's fixes names the knob the confirmed fix turned."""

from __future__ import annotations

from triage_lines import fixes_text, source_knob_test, source_lookalike_test

# (thread, message, the finding id first, a string one of its fixes' summaries or commands holds)
KNOB = [
    (
        # the reporter: resolved by the project's commit dropping the old architectures
        "https://github.com/horsicq/Formats/issues/9",
        "Newer versions of CUDA dropped support for GPU architectures older than `compute_75`, which "
        "causes the build of XSIMD to fail.\n\n## Actual result\n\n`nvcc fatal   : Unsupported gpu "
        "architecture 'compute_50'`\n\n* CUDA version (`nvcc --version`)\n\n```\nnvcc: NVIDIA (R) Cuda "
        "compiler driver\nCopyright (c) 2005-2026 NVIDIA Corporation\nBuilt on Tue_Jun_09_02:43:40_PM_PDT_2026\n"
        "Cuda compilation tools, release 13.3, V13.3.73\nBuild cuda_13.3.r13.3/compiler.38244171_0\n```",
        "cuda.nvcc-arch-dropped",
        "CMAKE_CUDA_ARCHITECTURES",
    ),
    (
        # a maintainer: "It's an issue because of CUDA 11" (sm_30 dropped); the GPU is a GTX 1050 (sm_61)
        "https://github.com/flashlight/flashlight/issues/213",
        "nvcc fatal: Unsupported gpu architecture 'compute_30'\n\nHow can I pass compute_61 as nvcc flag "
        "which should be supported by my card GTX 1050\n\nUbuntu 20.2\nGeForce GTX 1050 (455.23.05)    \n"
        "CUDA: 11.1\nNVCC: 11.1.74\nCmake: 3.16.3",
        "cuda.nvcc-arch-dropped",
        "CMAKE_CUDA_ARCHITECTURES",
    ),
    (
        # a maintainer: fixed by a PyTorch change (2.11); the image maintainer: safe to ignore
        "https://github.com/eugr/spark-vllm-docker/issues/15",
        "Found GPU0 NVIDIA GB10 which is of cuda capability 12.1. Minimum and Maximum cuda capability "
        "supported by this version of PyTorch is (8.0) - (12.0)",
        "torch.gpu-newer-minor-than-build",
        "ignored",
    ),
    (
        "https://github.com/pytorch/pytorch/issues/172629",
        "UserWarning:\n    Found GPU0 NVIDIA GB10 which is of cuda capability 12.1.\n    Minimum and Maximum "
        "cuda capability supported by this version of PyTorch is\n    (8.0) - (12.0) ",
        "torch.gpu-newer-minor-than-build",
        "get_arch_list",
    ),
    (
        # the maintainer: cuda-12.6 images for GTX 10xx (the message itself names 12.6)
        "https://github.com/rishikanthc/Scriberr/issues/273",
        "/app/whisperx-env/WhisperX/.venv/lib/python3.10/site-packages/torch/cuda/__init__.py:283: UserWarning:\n\n"
        "Found GPU0 NVIDIA GeForce GTX 1070 Ti which is of cuda capability 6.1.\n\nMinimum and Maximum cuda "
        "capability supported by this version of PyTorch is (7.0) - (12.0)\n\nNVIDIA GeForce GTX 1070 Ti with "
        "CUDA capability sm_61 is not compatible with the current PyTorch installation.\n\nThe current PyTorch "
        "install supports CUDA capabilities sm_70 sm_75 sm_80 sm_86 sm_90 sm_100 sm_120.\n\nIf you want to use "
        "the NVIDIA GeForce GTX 1070 Ti GPU with PyTorch, please check the instructions at "
        "https://pytorch.org/get-started/locally/.\n\nPlease install PyTorch with a following CUDA "
        "configurations: 12.6",
        "torch.gpu-too-old-for-build",
        "cu126",
    ),
    (
        # the author (the maintainer): torch 2.9 cu128 wheels dropped sm_61
        "https://github.com/aaronsb/knowledge-graph-system/issues/208",
        "The current API container uses PyTorch 2.9+ with CUDA 12.8, which only includes kernels for newer "
        "GPU architectures (sm_70+). Older but still capable GPUs like the GTX 1070 (Pascal, compute "
        "capability 6.1) get this error:\n\n```\nCUDA error: no kernel image is available for execution on "
        "the device\n```",
        "torch.gpu-too-old-for-build",
        "cu126",
    ),
    (
        # the maintainer: pip install numpy==1.26.4
        "https://github.com/jianchang512/stt/issues/78",
        "A module that was compiled using NumPy 1.x cannot be run in\nNumPy 2.1.1 as it may crash. To support "
        "both 1.x and 2.x\nversions of NumPy, modules must be compiled with NumPy 2.0.\nSome module may need "
        "to rebuild instead e.g. with 'pybind11>=2.12'.\n\nIf you are a user of the module, the easiest "
        "solution will be to\ndowngrade to 'numpy<2' or try to upgrade the affected module.\nWe expect that "
        "some modules will need time to support NumPy 2.",
        "python.numpy2-abi",
        "numpy<2",
    ),
    (
        # a maintainer: vLLM support for torch 2.9 lands in the 0.11.1 release
        "https://github.com/vllm-project/vllm/issues/27228",
        "Is there a version of vllm that is compatible with the latest PyTorch release 2.9.0?\n\n```\npip "
        "install vllm==0.11.0\npip install torch==2.9.0\n```\n\n```\n$ vllm bench latency --input-len 256 "
        "--output-len 256 --model Qwen3/Qwen3-8B --batch-size 1\nterminate called after throwing an instance "
        "of 'std::bad_alloc'\n  what():  std::bad_alloc\nAborted (core dumped)\n```",
        "torch.extension-abi-mismatch",
        "vllm",
    ),
    (
        # a maintainer: no 3.13 wheels yet, use the nightly build (or an older Python)
        "https://github.com/microsoft/onnxruntime/issues/22523",
        "Trying to install after upgrading to Python 3.13\n\n```\npip install onnxruntime\n```\n\n### Target "
        "platform\n\nWindows 10 22H2\n\n### Error / output\n\n```\nERROR: Could not find a version that "
        "satisfies the requirement onnxruntime (from versions: none)\nERROR: No matching distribution found "
        "for onnxruntime\n\n```",
        "python.no-matching-wheel",
        "Python version",
    ),
    (
        # the maintainer: use python 3.10 or 3.11
        "https://github.com/hacksider/Deep-Live-Cam/issues/947",
        "ERROR: Could not find a version that satisfies the requirement onnxruntime-gpu==1.16.3 (from "
        "versions: 1.17.0, 1.17.1, 1.18.0, 1.18.1, 1.19.0, 1.19.2, 1.20.0, 1.20.1)\nERROR: No matching "
        "distribution found for onnxruntime-gpu==1.16.3",
        "python.no-matching-wheel",
        "Python version",
    ),
]

# (thread, a real message of another cause, the cause it must not reach first)
LOOKALIKE = [
    (
        # CUDA 11.0 predates sm_86: the toolkit is too old, it dropped nothing
        "https://github.com/CMU-Perceptual-Computing-Lab/openpose/issues/2053",
        "-- CUDA detected: 11.0\n-- Found cuDNN: ver. 8.3.2 found (include: /usr/local/cuda/include, library: "
        "/usr/local/cuda/lib64/libcudnn.so)\n-- Automatic GPU detection failed. Building for all known "
        "architectures.\n-- Added CUDA NVCC flags for: sm_35 sm_37 sm_50 sm_52 sm_53 sm_60 sm_61 sm_62 sm_70 "
        "sm_72 sm_75 sm_80 sm_86\n```\n```\n[  6%] Building NVCC (Device) object src/caffe/CMakeFiles/"
        "cuda_compile_1.dir/layers/cuda_compile_1_generated_batch_norm_layer.cu.o\nnvcc fatal   : Unsupported "
        "gpu architecture 'compute_86'\nnvcc fatal   : Unsupported gpu architecture 'compute_86'",
        "cuda.nvcc-arch-dropped",
    ),
    (
        # CUDA 7.5 predates Pascal (sm_60): too old, not dropped
        "https://github.com/CMU-Perceptual-Computing-Lab/caffe_rtpose/issues/10",
        "NVCC src/caffe/util/im2col.cu\nnvcc fatal   : Unsupported gpu architecture 'compute_60'\nmake: *** "
        "[.build_release/cuda/src/caffe/util/im2col.o] Error 1\nmake: *** Waiting for unfinished jobs....\n"
        "which cudnn and cuda do you use? in my case I use cudnn4 and cuda7.5",
        "cuda.nvcc-arch-dropped",
    ),
    (
        # a GPU below the build's minimum stays the too-old cause, not the harmless newer-minor one
        "https://github.com/rishikanthc/Scriberr/issues/273",
        "Found GPU0 NVIDIA GeForce GTX 1070 Ti which is of cuda capability 6.1.\n\nMinimum and Maximum cuda "
        "capability supported by this version of PyTorch is (7.0) - (12.0)",
        "torch.gpu-newer-minor-than-build",
    ),
]


test_message_reaches_its_cause_with_the_knob = source_knob_test(KNOB)


test_lookalike_is_not_read_as_the_new_cause = source_lookalike_test(LOOKALIKE)


def test_dropped_architecture_names_the_last_toolkit() -> None:
    """compute_50 under CUDA 13.3: the last toolkit that still builds sm_50 is a CUDA 12 release
    (nvcc_arch's 12.9 row), named in the fix for a GPU that is itself sm_50."""
    from envdoctor.triage_engine import triage_text

    text = KNOB[0][1]
    found = triage_text(text + "\n").findings[0]
    assert found.id == "cuda.nvcc-arch-dropped"
    assert "CUDA 12." in fixes_text(found), fixes_text(found)
