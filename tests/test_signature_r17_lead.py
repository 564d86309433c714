"""Paddle's startup line, round 17 (checks/signatures/paddle.toml and the facts it needs):
"Please NOTE: device: 0, GPU Compute Capability: 8.6, Driver API Version: 11.4, Runtime API
Version: 10.2" gives the GPU's capability, the driver's CUDA and the CUDA the paddlepaddle-gpu
build runs on. A runtime older than the first CUDA that knows the GPU is the cause, named with the
CUDA the GPU needs; the line of a build that does know the GPU is no cause."""

from __future__ import annotations

import pytest
from triage_lines import knob_test, lookalike_test

from envdoctor.ingest.free_text_vocabulary import CC, cc_of
from envdoctor.triage_engine.prose import prose_facts

# (text verbatim from the thread, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # RTX 3060 with a CUDA 10.2 paddlepaddle-gpu 2.2.2; a maintainer: "3060 ->cuda 11.1"
    (
        ">>> import paddle\n>>> paddle.utils.run_check()\nRunning verify PaddlePaddle program ... \n"
        "W0214 14:20:51.479054 24961 device_context.cc:447] Please NOTE: device: 0, GPU Compute "
        "Capability: 8.6, Driver API Version: 11.4, Runtime API Version: 10.2\n"
        "W0214 14:20:51.479620 24961 device_context.cc:465] device: 0, cuDNN Version: 8.3.\n"
        "RuntimeError: parallel_for failed: cudaErrorNoKernelImageForDevice: no kernel image is "
        "available for execution on the device",
        "paddle.gpu-too-new-for-build",
        "11.1",
        "https://github.com/PaddlePaddle/PaddleDetection/issues/5206",
    ),
    # RTX 3060 Laptop on Windows, paddlepaddle-gpu 2.2.2 for CUDA 10.2; Paddle's maintainers
    # (#44077, citing this issue): the 30 series does not support CUDA 10, upgrade the CUDA build
    (
        "W0126 22:57:04.184931  6884 device_context.cc:447] Please NOTE: device: 0, GPU Compute "
        "Capability: 8.6, Driver API Version: 11.6, Runtime API Version: 10.2",
        "paddle.gpu-too-new-for-build",
        "post112",
        "https://github.com/PaddlePaddle/Paddle/issues/39256",
    ),
]

# real startup lines of builds that know their GPU: no cause of this kind
LOOKALIKE = [
    # H100 with the CUDA 11.8 build (sm_90 is known from CUDA 11.8 on); the thread's problem is
    # Paddle's own capability list, reported on its own line
    (
        "gpu_resources.cc:119] Please NOTE: device: 0, GPU Compute Capability: 9.0, Driver API "
        "Version: 12.8, Runtime API Version: 11.8",
        "paddle.gpu-too-new-for-build",
        "https://github.com/PaddlePaddle/PaddleHelix/issues/369",
    ),
    # a Pascal GPU under a CUDA 11.8 build without sm_60: too old for the build, not too new
    (
        "W0909 09:52:47.539053   455 gpu_resources.cc:96] The GPU architecture in your current "
        "machine is Pascal, which is not compatible with Paddle installation with arch: 61 70 75 80 "
        "86 , it is recommended to install the corresponding wheel package according to the "
        "installation information on the official Paddle website.\n"
        "W0909 09:52:47.539069   455 gpu_resources.cc:119] Please NOTE: device: 0, GPU Compute "
        "Capability: 6.0, Driver API Version: 11.8, Runtime API Version: 11.8",
        "paddle.gpu-too-new-for-build",
        "https://github.com/PaddlePaddle/Paddle/issues/54713",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_this_cause = lookalike_test(LOOKALIKE, may_be_empty=True)


@pytest.mark.parametrize(
    ("line", "capability"),
    [
        (KNOB[1][0], "8.6"),
        # older Paddle releases ran the digits together (the training case of
        # PaddlePaddle/models#4145)
        ("device_context.cc:236] Please NOTE: device: 0, CUDA Capability: 61, Driver API", "6.1"),
    ],
)
def test_capability_forms(line: str, capability: str) -> None:
    assert [cc_of(m) for m in CC.finditer(line)] == [capability]


def test_driver_api_version_is_the_drivers_cuda() -> None:
    assert prose_facts([KNOB[1][0]])["driver.cuda_max"] == "11.6"
