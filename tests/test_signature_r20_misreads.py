"""Misreads, round 20 (misreads): a cause read from an incidental word of the paste. A DKMS
cause suggested because "kernel" is part of a Python package's name ("sgl-kernel"), a power-supply
cause suggested because the report names ComfyUI and two GPUs (the load such reboots happen
under, not the reboot itself), and a driver-too-old reading of a container that was started
without --gpus: NVML cannot initialise at all and CUDA finds no driver (not an old one). Each
verbatim message reaches its cause first and one of its fixes names the knob the thread's
confirmed fix turned; look-alike rows are real messages of other causes that must not be read as
the cause the misread gave."""

from __future__ import annotations

import pytest
from triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # SGLang, sgl-kernel built for sm_120: an SGLang kernel contributor: "Not support torch2.7
    # now"; users confirmed torch 2.6 with sgl-kernel 0.1.1 imports (title and first post)
    (
        "[Bug] common_ops.abi3.so: undefined symbol: _ZN5torch3jit17parseSchemaOrNameERKSsb\n"
        "I successfully built the sgl-kernel with sm_120 (NVIDIA RTX 50 series) and CUDA 12.8, but encountered the following issue when running `sglang.launch_server `command. Please help.",
        "torch.extension-abi-mismatch",
        "sgl-kernel",
        "https://github.com/sgl-project/sglang/issues/5100",
    ),
    # ComfyUI on CentOS 7.9 with two A100s: the maintainer (ltdrdata): "Literally, you need to
    # update your GPU driver" (title and first post)
    (
        "RuntimeError: The NVIDIA driver on your system is too old\n"
        "我使用centos7.9系统安装了comfyUI    使用了两张A100 80G显卡，运行python main.py报错\n"
        "I installed ComfyUI on  CentOS 7.9 system with two A100 80G GPUs. When I run python main.py, an error occurred.",
        "torch.driver-too-old",
        "driver",
        "https://github.com/Comfy-Org/ComfyUI/issues/6226",
    ),
    # FastDeploy GPU image (Triton server inside): the reporter: "docker run时，忘记加--gpus all了"
    (
        "Error: Failed to initialize NVML\n"
        "W0303 09:57:36.731008 125 metrics.cc:221] DCGM unable to start: DCGM initialization error\n"
        "W0303 09:57:36.731207 125 pinned_memory_manager.cc:236] Unable to allocate pinned system memory, pinned memory pool will not be available: CUDA driver version is insufficient for CUDA runtime version\n"
        "I0303 09:57:36.731222 125 cuda_memory_manager.cc:115] CUDA memory pool disabled",
        "container.no-gpus-injected",
        "--gpus",
        "https://github.com/PaddlePaddle/FastDeploy/issues/2390",
    ),
    # MOSS under WSL: the reporter: "确认是WSL的内存设置问题" (fixed with .wslconfig memory=)
    pytest.param(
        "RuntimeError: CUDA error: out of memory\n"
        "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\n"
        "For debugging consider passing CUDA_LAUNCH_BLOCKING=1.\n"
        "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.",
        "wsl.memory-limit",
        "memory=",
        "https://github.com/OpenMOSS/MOSS/issues/328",
        marks=pytest.mark.xfail(
            strict=True,
            reason="the paste never names WSL: a plain CUDA out-of-memory is read as such; "
            "reading WSL's memory limit into it would misread every other OOM",
        ),
    ),
    # vLLM in Docker Desktop with Windows driver 555.85: an NVIDIA engineer (cliffwoolley):
    # "Docker Desktop 4.31 ... includes NVIDIA Container Toolkit 1.15.0, which resolves this issue"
    pytest.param(
        "2024-05-24 23:49:38 WARNING 05-24 15:49:38 utils.py:327] Not found nvcc in /usr/local/cuda. Skip cuda version check!\n"
        "2024-05-24 23:49:38 WARNING 05-24 15:49:38 config.py:405] Possibly too large swap space. 4.00 GiB out of the 9.71 GiB total CPU memory is allocated for the swap space.",
        "wsl.docker-desktop-too-old-for-driver",
        "Docker Desktop 4.31",
        "https://github.com/vllm-project/vllm/issues/5035",
        marks=pytest.mark.xfail(
            strict=True,
            reason="the pasted lines are vLLM's start-up warnings: no error, no driver version, "
            "no Docker Desktop; nothing in them names the cause",
        ),
    ),
]

# (message verbatim from a thread of another cause, the cause it must not be read as, thread)
LOOKALIKE = [
    # the MOSS WSL memory limit above: a CUDA error names "kernel" (a CUDA kernel), not DKMS
    (
        "RuntimeError: CUDA error: out of memory\n"
        "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\n"
        "For debugging consider passing CUDA_LAUNCH_BLOCKING=1.",
        "nvidia.module-not-built-for-kernel",
        "https://github.com/OpenMOSS/MOSS/issues/328",
    ),
    # Caffe with the 6.5 toolkit on a K10 whose driver is older (corpus train case): an old
    # driver, NVML not involved: not a container started without GPUs
    (
        '"Check failed: error == cudaSuccess (35 vs. 0) CUDA driver version is insufficient for CUDA runtime version"\n'
        "I installed the 6.5 toolkit. Is there something I'm missing? Certain libs that I should copy anywhere. etc.?",
        "container.no-gpus-injected",
        "https://github.com/niuzhiheng/caffe/issues/33",
    ),
    # the ComfyUI driver-too-old thread above without its error line: two A100s and ComfyUI are
    # no power-supply report
    (
        "我使用centos7.9系统安装了comfyUI    使用了两张A100 80G显卡，运行python main.py报错\n"
        "I installed ComfyUI on  CentOS 7.9 system with two A100 80G GPUs. When I run python main.py, an error occurred.",
        "hardware.power-insufficient",
        "https://github.com/Comfy-Org/ComfyUI/issues/6226",
    ),
    # the SGLang thread's first post alone: sgl-kernel is a Python package, not the Linux kernel
    (
        "I successfully built the sgl-kernel with sm_120 (NVIDIA RTX 50 series) and CUDA 12.8, but encountered the following issue when running `sglang.launch_server `command. Please help.",
        "nvidia.module-not-built-for-kernel",
        "https://github.com/sgl-project/sglang/issues/5100",
    ),
]

test_message_reaches_cause_with_knob = knob_test(KNOB)
test_lookalike_is_not_read_as_this_cause = lookalike_test(LOOKALIKE)
