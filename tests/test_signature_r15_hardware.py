"""Round 15 sweep, hardware at run time (checks/signatures/hardware.toml): real messages of
GPU memory errors, unstable overclocks and weak power supplies, each from a thread where the fix
was confirmed, reach their cause first with a fix naming the knob the confirmed fix turned on; and
messages of other causes are not taken for a weak power supply."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

# (message verbatim, the finding id first, a knob one of its fixes names, the thread)
KNOB = [
    # maintainer: a hardware fault; run on each GPU to find the defective one
    (
        "RuntimeError: cuda runtime error (39) : uncorrectable ECC error encountered at "
        "/pytorch/aten/src/THC/THCCachingHostAllocator.cpp:265\n"
        "terminate called without an active exception",
        "nvidia.ecc-uncorrected",
        "nvidia-smi -q -d ECC",
        "https://github.com/NVIDIA/semantic-segmentation/issues/33",
    ),
    # closed with the maintainer's "Hardware bug" label
    (
        "CUDA Error: uncorrectable ECC error encountered\n"
        "CUDA Error: uncorrectable ECC error encountered\n"
        "CUDA Error: uncorrectable ECC error encountered: Success\n"
        "CUDA Error: uncorrectable ECC error encountered: Cannot allocate memory\n"
        "darknet: ./src/utils.c:293: error: Assertion `0' failed.",
        "nvidia.ecc-uncorrected",
        "RMA",
        "https://github.com/AlexeyAB/darknet/issues/3496",
    ),
    # "Reduce your OC" -> reporter: "Works fine"
    (
        'The miner show  "Memory access fault by GPU node-1 (Agent handle: 0x5555570f0520) on '
        'address 0x6590c6c73000. Reason: Page not present or supervisor privilege" in my rig with '
        "9 6600 non xt.Anyidea?",
        "hardware.overclock-unstable",
        "overclock",
        "https://github.com/andru-kun/wildrig-multi/issues/217",
    ),
    # the commenter's own fix: a 2000W supply instead of the 1200W one (was read as a PCIe P2P fault)
    (
        "My workstation used to lost the connection with its hard-drive a short while after the "
        "beginning of the training everytime. After a long-time troubleshooting, it turns out that "
        "the power supply of the workstation was weak, I changed the supply from 1200W to 2000W and "
        "the problem disappeared.",
        "hardware.power-insufficient",
        "nvidia-smi -pl",
        "https://github.com/matterport/Mask_RCNN/issues/1106",
    ),
]


test_a_hardware_message_gets_its_cause_and_knob = knob_test(KNOB, ids=[k[3] for k in KNOB])


# (message verbatim of another cause, the cause it must not be taken for, the thread)
LOOKALIKE = [
    # an uncorrectable ECC error on a 4-GPU server: GPU memory, not the power supply
    (
        "1.运行openai_api一段时间后，报错：\n"
        "RuntimeError: CUDA error: uncorrectable ECC error encountered\n"
        "CUDA kernel errors might be asynchronously reported at some other API call, so the "
        "stacktrace below might be incorrect.\n"
        "For debugging consider passing CUDA_LAUNCH_BLOCKING=1.",
        "hardware.power-insufficient",
        "https://github.com/zai-org/ChatGLM3/issues/681",
    ),
    # CUDA lost after the laptop slept: the driver's state after resume, not the power supply
    (
        "Occasionally, especially after waking the laptop up from sleep, running `python`\n"
        "```python\n"
        "> import torch; torch.cuda.is_available()\n"
        "```\n"
        "Results in this:\n"
        "```\n"
        "pip_packages/lib/python3.11/site-packages/torch/cuda/__init__.py:128: UserWarning: CUDA "
        "initialization: CUDA unknown error - this may be due to an incorrectly set up environment, "
        "e.g. changing env variable CUDA_VISIBLE_DEVICES after program start. Setting the available "
        "devices to be zero. (Triggered internally at ../c10/cuda/CUDAFunctions.cpp:108.)\n"
        "  return torch._C._cuda_getDeviceCount() > 0\n"
        "False\n"
        "```",
        "hardware.power-insufficient",
        "https://github.com/NixOS/nixpkgs/issues/348769",
    ),
]


test_another_cause_is_not_taken_for_a_weak_power_supply = lookalike_test(
    LOOKALIKE, ids=[k[2] for k in LOOKALIKE], newline=True
)
