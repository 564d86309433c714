"""Round 16 sweep of "driver too old for the CUDA build" and the CPU-only torch wheel
(checks/signatures/torch.toml): each message, verbatim from its thread, reaches the cause the
thread confirmed first, and one of that cause's fixes names the knob the confirmed fix turned."""

from __future__ import annotations

from triage_lines import source_knob_test, source_lookalike_test

# (thread, message, the finding id first, a string one of its fixes' commands or summaries holds)
KNOB = [
    (
        # maintainer: for CUDA failure 804 the recommendation is to update the CUDA driver
        "https://github.com/microsoft/onnxruntime/issues/21435",
        "CUDA failure 804: forward compatibility was attempted on non supported HW",
        "cuda.toolkit-newer-than-driver",
        "driver",
    ),
    (
        # maintainer: caused by not having the correct driver version (driver 470 for CUDA 11.7)
        "https://github.com/PKU-YuanGroup/Video-LLaVA/issues/22",
        "UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 804: forward compatibility was attempted on non supported HW (Triggered internally at ../c10/cuda/CUDAFunctions.cpp:109.)\nRuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 804: forward compatibility was attempted on non supported HW",
        "cuda.toolkit-newer-than-driver",
        "driver",
    ),
    (
        # maintainer (soumith): upgrade the driver
        "https://github.com/torch/cutorch/issues/318",
        "luajit: cuda runtime error (35) : CUDA driver version is insufficient for CUDA runtime version at /tmp/luarocks_cutorch-scm-1-384/cutorch/lib/THC/THCGeneral.c:16",
        "cuda.toolkit-newer-than-driver",
        "driver",
    ),
    (
        # reporter: installing CUDA 8.0 with the driver it bundles fixed it (driver 352.99 was too old)
        "https://github.com/apache/mxnet/issues/3486",
        'I try to train a model on gpu, it crashes and throws an exception saying "CUDA driver version is insufficient for CUDA runtime version" with centos 7.0,cuda7.5,Driver Version: 352.99.',
        "cuda.toolkit-newer-than-driver",
        "driver",
    ),
    (
        # reporter: solved by the discuss.pytorch.org answer: update the driver for CUDA 9.2
        "https://github.com/phvu/cuda-smi/issues/10",
        "I got an error saying, `Error: CUDA driver version is insufficient for CUDA runtime version in cudaGetDeviceCount at ./cuda-smi.cpp:23`.",
        "cuda.toolkit-newer-than-driver",
        "driver",
    ),
    (
        # a pytorch maintainer: the runner's PIP_EXTRA_INDEX_URL points at the cpu slug, so pip
        # picks the +cpu final release over the cu130 nightly; work-around: clear it
        "https://github.com/pytorch/ci-infra/issues/661",
        "PIP_EXTRA_INDEX_URL=http://pypi-cache-cpu.pypi-cache.svc.cluster.local:8080/whl/cpu/\n```\n\nOn a CUDA job that pins `--index-url …/whl/nightly/cu130`, pip then sees torch from two indexes: the cu130 nightly (`2.12.0.dev…+cu130`, a pre-release) and the cpu cache (`2.12.0+cpu`, a final release). Per PEP 440 final > dev, so pip picks the **`+cpu`** wheel — the GPU job silently installs CPU torch.",
        "torch.cpu-build-on-gpu-host",
        "PIP_EXTRA_INDEX_URL",
    ),
    (
        # maintainer: tell pip which CUDA build to install (torch==2.9.1+cu128 with the cu128 index)
        "https://github.com/tonybaloney/CSnakes/issues/750",
        "--extra-index-url https://download.pytorch.org/whl/cu118\ntorch \ntorchvision \ntorchaudio \n\nultralytics\nuvicorn\neasyocr\nfastapi[standard]\nsupervision\n\nthins is requirements.txt file. when debug torch cpu version installed. how to solve this.",
        "torch.cpu-build-on-gpu-host",
        "download.pytorch.org/whl/cu",
    ),
    (
        # the fix that worked on an RTX 5090: uninstall, purge pip's cache, install the cu128 build
        "https://github.com/lllyasviel/Fooocus/issues/3862",
        "Fix: “Torch not compiled with CUDA enabled” in Automatic1111 on RTX 5090 (Windows)",
        "torch.cpu-build-on-gpu-host",
        "download.pytorch.org/whl/cu",
    ),
    (
        # maintainer: the GTX 1070 is supported but needs a recent driver (NVIDIA's driver page)
        "https://github.com/easydiffusion/easydiffusion/issues/379",
        "/home/drink/Software/stable-diffusion-ui/stable-diffusion/env/lib/python3.8/site-packages/torch/cuda/__init__.py:82: UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 803: system has unsupported display driver / cuda driver combination (Triggered internally at  /opt/conda/conda-bld/pytorch_1646755903507/work/c10/cuda/CUDAFunctions.cpp:112.)\n  return torch._C._cuda_getDeviceCount() > 0\nWARNING: No compatible GPU found. Using the CPU, but this will be very slow!",
        "cuda.toolkit-newer-than-driver",
        "install the current NVIDIA driver",
    ),
]


test_a_drivold_message_gets_its_cause_and_the_knob = source_knob_test(KNOB)


# real messages of other causes that the new entries could catch: they must not get that cause
LOOKALIKE = [
    (
        # uv installed the cu128 nightly; torch finds no driver at all: no CPU wheel
        "https://github.com/astral-sh/uv/issues/12404",
        "RuntimeError: Found no NVIDIA driver on your system",
        "torch.cpu-build-on-gpu-host",
    ),
]


test_a_drivold_lookalike_is_not_caught = source_lookalike_test(LOOKALIKE)
