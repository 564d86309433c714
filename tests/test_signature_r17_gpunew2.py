"""Round 17 sweep (gpunew2): GPUs too new or too old for a build outside the torch wheel
(checks/signatures/{tensorrt,memory,cuda}.toml). Each row is a message pasted verbatim in the thread it
cites: it reaches the confirmed cause first, and that cause's fixes name the knob the confirmed
fix turned on. LOOKALIKE rows are real messages of other causes a new pattern must not catch."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

# (message, the finding id first, a knob its fixes name, the thread)
KNOB = [
    (
        "[07/19/2025-23:34:55] [E] Error[9]: IBuilder::buildSerializedNetwork: Error Code 9: API Usage"
        " Error (Target GPU SM 120 is not supported by this TensorRT release.)  \n"
        "[07/19/2025-23:34:55] [E] Engine could not be created from network  ",
        "tensorrt.gpu-arch-unsupported",
        "CUDA 12.8",  # the reporter's fix: CUDA 12.8 and a TensorRT built for it (RTX 5070 Ti)
        "https://github.com/DDTRobot/tita_rl_sim2sim2real/issues/7",
    ),
    (
        "[04/25/2024-15:52:54] [TRT] [E] 1: Unsupported SM: 0x601\n"
        "[04/25/2024-15:52:54] [TRT] [E] 1: [caskUtils.cpp::nvinfer1::rt::task::trtSmToCask::193] Error"
        " Code 1: Internal Error (Unsupported SM: 0x601)",
        "tensorrt.gpu-arch-unsupported",
        "8.5",  # TensorRT 10.0.1 does not support SM 6.1: downgrade to 8.5
        "https://github.com/NVIDIA/TensorRT/issues/3826",
    ),
    (
        "INTERNAL_ERROR: Assertion failed: Unsupported SM.\n"
        "../rtSafe/cuda/caskUtils.cpp:80\n"
        "Aborting...\n\n"
        "ERROR: ../rtSafe/cuda/caskUtils.cpp (80) - Assertion Error in trtSmToCask: 0 (Unsupported SM.)",
        "tensorrt.gpu-arch-unsupported",
        "upgrade TensorRT",  # TRT 7.0 does not support RTX A6000: upgrade to TRT 8.4
        "https://github.com/NVIDIA/TensorRT/issues/2332",
    ),
    (
        "Internal Error(Unsupported SM: 0x809, Assertion engine != nullptr failed.), TensorRT 8.4"
        " support RTX 4080?",
        "tensorrt.gpu-arch-unsupported",
        "TensorRT 8.5",  # the reporter: TensorRT 8.5.1.7 supports RTX 4080's SM
        "https://github.com/NVIDIA/TensorRT/issues/2727",
    ),
    (
        "[02/18/2025-07:04:51] [TRT] [E] IBuilder::buildSerializedNetwork: Error Code 9: API Usage Error"
        " (Target GPU SM 61 is not supported by this TensorRT release.)",
        "tensorrt.gpu-arch-unsupported",
        "Pascal",  # a TensorRT older than 10.x for the Pascal GPU
        "https://github.com/NVIDIA/TensorRT/issues/4359",
    ),
    (
        'ValueError("type fp8e4nv not supported in this architecture. The supported fp8 dtypes are'
        " ('fp8e4b15', 'fp8e5')\")', please check the stack trace above for the root cause",
        "fit.dtype-unsupported",
        "8.9",  # the maintainer: FP8 checkpoints need compute capability >= 8.9
        "https://github.com/QwenLM/Qwen3.8-Flash-Next/issues/7",
    ),
    (
        "Error: Falling back to the CUDA driver for PTX compilation; ptxas does not support CC 8.9",
        "cuda.nvcc-too-old-for-gpu",
        "ptxas",
        "https://github.com/kalininalab/alphafold_non_docker/issues/75",
    ),
    (
        "[2024-06-18 19:45:55,713] torch._dynamo.convert_frame: [WARNING] RuntimeError: Found NVIDIA"
        " GeForce GTX 1080 Ti which is too old to be supported by the triton GPU compiler, which is used"
        " as the backend. Triton only supports devices of CUDA Capability >= 7.0, but your device is of"
        " CUDA capability 6.1",
        "torch.triton-gpu-too-old",
        "TORCHDYNAMO_DISABLE=1",
        "https://github.com/2noise/ChatTTS/issues/341",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


# (message of another cause, the new cause it must not rank first, the thread)
LOOKALIKE = [
    (
        # a PTX newer than the local ptxas: not a GPU the ptxas does not know
        "ptxas /tmp/tinycuda_03fe6308def2ec1dd6c3b1a96681a0fc.ptx, line 9; fatal   : Unsupported"
        " .version 8.5; current version is '7.5'\n"
        "ptxas fatal   : Ptx assembly aborted due to errors",
        "cuda.nvcc-too-old-for-gpu",
        "https://github.com/tinygrad/tinygrad/issues/7729",
    ),
    (
        # the GPU is too old for Triton's compiler altogether, not for a TensorRT release
        "[2024-06-18 19:45:55,713] torch._dynamo.convert_frame: [WARNING] RuntimeError: Found NVIDIA"
        " GeForce GTX 1080 Ti which is too old to be supported by the triton GPU compiler, which is used"
        " as the backend. Triton only supports devices of CUDA Capability >= 7.0, but your device is of"
        " CUDA capability 6.1",
        "tensorrt.gpu-arch-unsupported",
        "https://github.com/2noise/ChatTTS/issues/341",
    ),
]


test_lookalike_not_caught = lookalike_test(LOOKALIKE)
