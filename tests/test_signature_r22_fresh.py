"""Round 22's fresh development sample (tests/triage_corpus/train/, batch
bench/fresh_batch_2026-12-06v.txt): reports whose facts were misread, verbatim from their threads.
A report reaches its confirmed cause first with a fix naming the knob the confirmed fix turned."""

from __future__ import annotations

from tests.triage_lines import source_knob_test, training_case_test

GPU_TOO_OLD = "torch.gpu-too-old-for-build"
CUDA_TORCH_ON_AMD = "rocm.cuda-torch-on-amd"

# (thread, text, finding id, knob)
ROWS = [
    # the environment list typed with full-width colons ("PyTorch：2.8.0+cu128"): torch 2.8.0+cu128
    # starts at sm_70, so the P100 (sm_60) is too old for it
    (
        "https://github.com/index-tts/index-tts/issues/815",
        "环境\nGPU：NVIDIA Tesla P100 16GB（sm_60）\nPython：3.12\nPyTorch：2.8.0+cu128\n"
        "CUDA：12.8\nOS：Ubuntu\n问题\n\n当前 pyproject.toml 默认使用 PyTorch 2.8 + CUDA 12.8，"
        "但该 PyTorch 版本不支持 Tesla P100 的 sm_60 架构。\n\n运行 IndexTTS 时出现：\n\n"
        "Tesla P100-PCIE-16GB with CUDA capability sm_60 is not compatible with the current "
        "PyTorch installation.\n\nCUDA error: no kernel image is available for execution on the device",
        GPU_TOO_OLD,
        "cu126",
    ),
    # PyTorch 2.8+'s warning that lists the build's CCs, run together on one console line by the
    # launcher: a GTX 1070 Ti (6.1) below the first listed (7.5)
    (
        "https://github.com/LykosAI/StabilityMatrix/issues/1648",
        "J:\\LLM_Directory\\Packages\\forge-neo\\venv\\Lib\\site-packages\\torch\\cuda_init_.py:371: "
        "UserWarning: Found GPU0 NVIDIA GeForce GTX 1070 Ti which is of compute capability (CC) 6.1. "
        "The following list shows the CCs this version of PyTorch was built for and the hardware CCs "
        "it supports:\n• 7.5 which supports hardware CC >=7.5,<8.0\n"
        "• 8.0 which supports hardware CC >=8.0,<9.0",
        GPU_TOO_OLD,
        "cu126",
    ),
    # the same warning with no torch version at all: a GPU below sm_70 is never too new for a build
    (
        "https://github.com/index-tts/index-tts/issues/815",
        "Tesla P100-PCIE-16GB with CUDA capability sm_60 is not compatible with the current "
        "PyTorch installation.",
        GPU_TOO_OLD,
        "cu126",
    ),
    # an app's own "CPU is being used" line and "force it to use GPU" beside an RTX 4090
    (
        "https://github.com/dsymbol/decipher/issues/25",
        "I'm getting a message during the process\n`CPU is being used for this transcription, this "
        "process may take a while.` \nany way to force it to use GPU? I'm running a 4090, I've got "
        "the right CUDA stuff installed already, etc.",
        "torch.cpu-build-on-gpu-host",
        "download.pytorch.org/whl/",
    ),
    # "torch.cuda仍显示不可用" after reinstalling torch
    (
        "https://github.com/chatchat-space/Langchain-Chatchat/issues/1235",
        "尝试过重装torch，但torch.cuda仍显示不可用。",
        "torch.cpu-build-on-gpu-host",
        "download.pytorch.org/whl/",
    ),
    # a Radeon named by its number without a space, as the StableSwarmUI reporter wrote it
    # ("... ROCm 5.7 on a Radeon RX6800XT"; here without "Radeon"), beside the message of
    # ComfyUI's CUDA torch that the reporter describes ("telling me I don't have Nvidia dr...")
    (
        "https://github.com/Stability-AI/StableSwarmUI/issues/260",
        "Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and "
        "installed a driver\nRunning Ubuntu 22.04 with ROCm 5.7 on a RX6800XT",
        CUDA_TORCH_ON_AMD,
        "rocm",
    ),
]

test_fresh_reports_reach_their_cause = source_knob_test(ROWS)

# the development sample's cases as the corpus scores them (their own thread out of the case base):
# (training case, finding id, knob, thread)
CASES = [
    (
        "zh-4100-paddleocr-3090-cuda10.2-image-wrong-results.txt",
        "paddle.gpu-too-new-for-build",
        "11.2",
        "https://github.com/PaddlePaddle/PaddleOCR/issues/9249",
    ),
    (
        "en-4003-stabilitymatrix-forge-neo-gtx1070ti-cc61.txt",
        GPU_TOO_OLD,
        "cu126",
        "https://github.com/LykosAI/StabilityMatrix/issues/1648",
    ),
    (
        "zh-4106-indextts-p100-sm60-torch28-cu128.txt",
        GPU_TOO_OLD,
        "cu126",
        "https://github.com/index-tts/index-tts/issues/815",
    ),
    (
        "en-4005-decipher-whisper-cpu-being-used.txt",
        "torch.cpu-build-on-gpu-host",
        "download.pytorch.org/whl/",
        "https://github.com/dsymbol/decipher/issues/25",
    ),
]

test_development_cases_reach_their_cause = training_case_test(CASES, keywords=True)
