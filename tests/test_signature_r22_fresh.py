"""Round 22's fresh development sample (tests/triage_corpus/train/, batch
bench/fresh_batch_2026-12-06v.txt): reports whose facts were misread, verbatim from their threads.
A report reaches its confirmed cause first with a fix naming the knob the confirmed fix turned."""

from __future__ import annotations

from tests.triage_lines import source_knob_test

GPU_TOO_OLD = "torch.gpu-too-old-for-build"
CUDA_TORCH_ON_AMD = "rocm.cuda-torch-on-amd"

# (thread, text, finding id, knob)
ROWS = [
    # the environment list typed with full-width colons: torch 2.8.0+cu128 starts at sm_70,
    # so the P100 (sm_60) is too old for it (it had read as "too new": no torch version seen)
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
    # the same warning with no torch version at all: a GPU below sm_70 is never too new for a build
    (
        "https://github.com/index-tts/index-tts/issues/815",
        "Tesla P100-PCIE-16GB with CUDA capability sm_60 is not compatible with the current "
        "PyTorch installation.",
        GPU_TOO_OLD,
        "cu126",
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
