"""NVIDIA driver too old for the CUDA build, round 19 (sweep drvold3): whole opening posts where
the driver is older than the CUDA runtime a framework wheel was built for ("CUDA driver version
is insufficient for CUDA runtime version", cudaErrorInsufficientDriver), here PaddlePaddle's
variant in Chinese prose, whose confirmed fix was the paddlepaddle-gpu wheel built for the CUDA
the driver runs. Look-alike rows are real messages of other causes (a distribution that ships
only the newest driver, a CPU-only cluster that was given the CUDA build, a torch index that
installed another CUDA variant) that must not be read as this cause first.

Recorded in a short sweep: most threads found were already in the corpus (known list), so the
table is small; see the report for what was left."""

from __future__ import annotations

import pytest
from triage_lines import assert_not_first, knob_test

# (message verbatim from the thread, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # paddle 1.5.1 defaults to a CUDA 10 build on a 396 driver; the answer
    # `pip install paddlepaddle-gpu==1.5.1post97` was confirmed "楼上正解" by a Paddle member
    (
        "环境： cuda 9.2 nvidia driver: 396.26  paddlepaddle 1.5.1  tensorflow 1.9.0\ntest script:\ntensorflow: \n`\nimport tensorflow as tf\ntf.Session()\n`\n paddle:\n`\nfrom paddle.fluid import core\ncore.CUDAPlace(0)\n`\n\ntensorflow 可以正常运行，cuda 和 driver的版本是匹配的\n\npaddle 报错：\npaddle.fluid.core_avx.EnforceNotMet: cudaGetDeviceCount failed in paddle::platform::GetCUDADeviceCount: CUDA driver version is insufficient for CUDA runtime version at [/paddle/paddle/fluid/platform/gpu_info.cc:97] \n\n请问paddle 1.5.1 支持的cuda 和driver版本是什么",
        "cuda.toolkit-newer-than-driver",
        "paddlepaddle-gpu",
        "https://github.com/PaddlePaddle/Paddle/issues/19718",
    ),
]

# (message verbatim from a thread of another cause, the cause it must not be read as, thread,
#  whether no finding at all is acceptable)
LOOKALIKE = [
    # the distribution ships only the newest driver; a legacy 470 card is unsupported there
    # (maintainer): not a CUDA build newer than the driver
    pytest.param(
        "Drivers are incompatible in my case. from nvidia site is NVIDIA-Linux-x86_64-470.63.01 Can you pls added in the nest update? ty",
        "cuda.toolkit-newer-than-driver",
        "https://github.com/Nobara-Project/nobara-core-packages/issues/16",
        False,
        marks=pytest.mark.xfail(
            strict=True,
            reason="round 20: no signature reads this line, and the case base's new whisper.net#83 "
            "case (23% alike) suggests its cause on one word they share, 'site', which only that "
            "case holds: a rare English word tells a cause on one case (Chinese pairs need two)",
        ),
    ),
    # the cu118 index left torch 2.0.1+cu117 installed: a packaging mix-up, not a driver
    (
        "I tried to install Pytorch2+cu118 using\n\n```\npip install torch torchvision torchaudio --index-url https://download.pytorch.org/whl/cu118\n```\n\nbut when i execute `python collect_env.py`, it says that Pytorch2+cu117 has been installed.",
        "cuda.toolkit-newer-than-driver",
        "https://github.com/pytorch/pytorch/issues/103246",
        True,
    ),
    # the job ran on a CPU cluster with the CUDA build of paddle installed; the maintainer: a CPU
    # cluster should not get the CUDA build (no driver at all, not an old one)
    pytest.param(
        "CPU\npaddlecloud将trainer_count改成10出错\n具体错误：\nTue Nov 27 13:49:06 2018[1,10]<stdout>:F1127 13:49:06.743296 17418 hl_cuda_device.cc:565] Check failed: cudaSuccess == cudaStat (0 vs. 35) Cuda Error: CUDA driver version is insufficient for CUDA runtime version\nTue Nov 27 13:49:06 2018[1,10]<stdout>:*** Check failure stack trace: ***",
        "cuda.toolkit-newer-than-driver",
        "https://github.com/PaddlePaddle/Paddle/issues/14625",
        False,
        marks=pytest.mark.xfail(
            strict=True,
            reason="the message itself is the driver-too-old error; only the leading 'CPU' says "
            "there is no GPU, too weak a cue to outrank the canonical pattern honestly",
        ),
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


@pytest.mark.parametrize(("text", "tempting", "source", "may_be_empty"), LOOKALIKE)
def test_lookalike_is_not_read_as_this_cause(
    text: str, tempting: str, source: str, may_be_empty: bool
) -> None:
    assert_not_first(text, tempting, source, may_be_empty=may_be_empty)
