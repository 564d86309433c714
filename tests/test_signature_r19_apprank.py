"""A symptom outranking its cause, round 19 (apprank): applications that fall back to the CPU
('No compatible GPU found. Using the CPU', Ollama's driver check, 'it can only use cpu') next to
the CUDA error that made them fall back. Each verbatim message reaches its cause first (the
symptom folds under it) and one of its fixes names the knob the thread's confirmed fix turned;
look-alike rows are real messages of other causes (no NVIDIA GPU or driver at all, a missing
cuDNN on a machine forced to the CPU) that must not be read as a driver too old."""

from __future__ import annotations

import pytest
from triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # Easy Diffusion, GTX 1080 Ti on Pop!_OS: the reporter: "I was able to fix this by installing
    # the latest nvidia driver"
    (
        'I get the following error after clicking on "Make Image":\n```Error: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 803: system has unsupported display driver / cuda driver combination```\n\nSystem Specs:\nCPU: Intel Core i7-6700K CPU @ 4.00GHZ x 8\nGPU: NVIDIA GP102 GeForce GTX 1080 Ti\nOS: Pop!_OS 22.04 LTS',
        "cuda.toolkit-newer-than-driver",
        "driver",
        "https://github.com/easydiffusion/easydiffusion/issues/134",
    ),
    # Ollama 0.30 on GTX 1070 Ti, the model ran on the CPU: the reporter upgraded the driver from
    # 535 to 570 ("Ollama required driver 570 or newer") and the GPUs were used again
    (
        'msg="NVIDIA driver too old" device="NVIDIA GeForce GTX 1070 Ti" compute=6.1 driver=535 required_driver="570 or newer"\n\nAfter that, CUDA failed with this error:\n\nggml_cuda_init: failed to initialize CUDA: CUDA driver version is insufficient for CUDA runtime version',
        "cuda.toolkit-newer-than-driver",
        "570",
        "https://github.com/ollama/ollama/issues/16415",
    ),
    # voice-changer (RVC) on a GTX 1050 laptop, only the CPU offered: the reporter: "turns out it
    # just need a driver update..."
    pytest.param(
        "### OS\n\nWindows 10\n\n### GPU\n\nNvidia GTX 1050 (Laptop)\n\n### Voice Changer type\n\nRVC\n\n### Model type\n\npyTorch\n\n### Situation\n\nit doesn't detect the nvidia gpu, and can only use cpu",
        "torch.driver-too-old",
        "driver",
        "https://github.com/w-okada/voice-changer/issues/479",
        marks=pytest.mark.xfail(
            strict=True,
            reason="the paste names no driver, no CUDA version and no error: nothing in it points to "
            "the driver over a CPU-only build, and guessing the driver would mislead the other readings",
        ),
    ),
]

# (message verbatim from a thread of another cause, the cause it must not be read as, thread)
LOOKALIKE = [
    # WSL without an NVIDIA GPU: the maintainer: force the CPU with --device=cpu; that solved it
    (
        "Standalone Faster-Whisper r167.4 running on: CUDA\n\n\nStarting transcription on: chatgpt.mp4\n\nCould not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file: No such file or directory\nPlease make sure libcudnn_ops_infer.so.8 is in your library path!\nAborted\n```\nEven though my system doesn't have Nvidia GPU.",
        "cuda.toolkit-newer-than-driver",
        "https://github.com/Purfview/whisper-standalone-win/issues/171",
    ),
    # an Intel-graphics laptop: the maintainer: no NVIDIA driver installed; --always-cpu
    (
        "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx.What does that mean?",
        "cuda.toolkit-newer-than-driver",
        "https://github.com/lllyasviel/Fooocus/issues/2370",
    ),
    # cuDNN 8 missing for faster-whisper: the reporter set the local model to cpu, which solved it
    (
        "Could not load library cudnn_ops_infer64_8.dll. Error code 126\nPlease make sure cudnn_ops_infer64_8.dll is in your library path!\n\nTried on Windows 10 and 11.",
        "torch.driver-too-old",
        "https://github.com/savbell/whisper-writer/issues/29",
    ),
    # after an A1111 update: no driver line at all, only the launcher's check
    (
        "after the new update it cannot find my GPU.\nReinstalled everything including deleting files, tried python .6 and .9\nAnd reinstalled Cuda core drivers too be sure.\nnomatter what i try i still get:\nAssertionError: Torch is not able to use GPU; add --skip-torch-cuda-test to COMMANDLINE_ARGS variable to disable this check\n\nAdding that will make it run from my CPU.",
        "cuda.toolkit-newer-than-driver",
        "https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/9995",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_this_cause = lookalike_test(LOOKALIKE)
