"""Round 16 sweep of LLM serving messages (checks/signatures/{serving,quantization}.toml and the entries it
extends): vLLM's start-up failures (a CUDA graph capture that hits an operation capture does
not allow, a tensor-parallel size that splits a quantized weight's groups, a transformers 5 release
under a vLLM written for 4.x), ExLlama's autosplit that finds no room for the cache, and Triton's
"device kernel image is invalid" under a serving engine. Each message is verbatim from its thread;
it reaches the cause the thread confirmed first, and one of that cause's fixes names the knob the
confirmed fix turned."""

from __future__ import annotations

from triage_lines import source_knob_test, source_lookalike_test

# (thread, message, the finding id first, a string one of its fixes' summaries or commands holds)
KNOB = [
    (
        # resolved by a newer CUDA driver (11.8 -> 12.2), or by giving Triton the local ptxas
        "https://github.com/vllm-project/vllm/issues/5713",
        '"Triton Error [CUDA]: device kernel image is invalid" when loading Mixtral-8x7B-Instruct-v0.1 in '
        "fused_moe.py",
        "cuda.toolkit-newer-than-driver",
        "ptxas",
    ),
    (
        # the maintainer suspected the node's driver; a host with driver 535 worked
        "https://github.com/predibase/lorax/issues/237",
        '"Triton Error [CUDA]: device kernel image is invalid" when running at runpod.io',
        "cuda.toolkit-newer-than-driver",
        "NVIDIA driver",
    ),
    (
        # the reporter: enforce_eager=True runs in both places, enforce_eager=False fails in K8S
        "https://github.com/vllm-project/vllm/issues/9094",
        'VLLM Model Fails on Kubernetes with "CUDA error: operation not permitted when stream is capturing"',
        "vllm.cuda-graph-capture-unsupported-op",
        "enforce_eager=True",
    ),
    (
        # merged fix: --enforce-eager added to the vLLM command
        "https://github.com/xencon/aixcl/pull/682",
        "- `cudaErrorStreamCaptureUnsupported` - operation not permitted when stream is capturing\n"
        "- `cudaErrorStreamCaptureInvalidated` - previous error during capture",
        "vllm.cuda-graph-capture-unsupported-op",
        "--enforce-eager",
    ),
    (
        # a maintainer: "transformers 5.3.0 please use 4.57.6 ... vllm doesn't support v5 yet"; the
        # reporter: works
        "https://github.com/QwenLM/Qwen3-VL/issues/2058",
        "(APIServer pid=75487) AttributeError: Qwen2Tokenizer has no attribute all_special_tokens_extended. "
        "Did you mean: 'num_special_tokens_to_add'?",
        "vllm.transformers-too-new",
        "transformers<5",
    ),
    (
        # the maintainer: the model's default 32768-token context is too much for 8 GB; set a lower
        # context length; the reporter: right
        "https://github.com/turboderp-org/exui/issues/11",
        'exui insists "RuntimeError: Insufficient VRAM for model and cache"',
        "exllama.insufficient-vram-for-cache",
        "max_seq_len",
    ),
    (
        # the maintainer: the tensor-parallel size must divide the intermediate size and, for
        # quantized models, the quantized weight shape (intermediate size / group size); pad the model
        "https://github.com/QwenLM/Qwen3/issues/698",
        '"The input size is not aligned with the quantized weight shape. This can be caused by too large '
        'tensor parallel size."',
        "vllm.tensor-parallel-size-not-divisible",
        "--tensor-parallel-size",
    ),
    (
        # the thread: only torch builds for CUDA 12.8 have sm_120 kernels
        "https://github.com/vllm-project/vllm/issues/13306",
        "NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch "
        "installation.\nThe current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 sm_80 "
        "sm_86 sm_90.\nIf you want to use the NVIDIA GeForce RTX 5090 GPU with PyTorch, please check the "
        "instructions at https://pytorch.org/get-started/locally/\nRuntimeError: CUDA error: no kernel image "
        "is available for execution on the device",
        "torch.gpu-too-new-for-build",
        "--index-url",
    ),
]

# (thread, a real message of another cause, the new cause it must not reach first)
LOOKALIKE = [
    (
        # a tokenizer object passed where vLLM expects a name, not a transformers 5 removal
        "https://github.com/vllm-project/vllm/issues/13127",
        "AttributeError: Qwen2Tokenizer has no attribute lower",
        "vllm.transformers-too-new",
    ),
    (
        # the GPU's capability is below the quantization method's floor: not a tensor-parallel split
        "https://github.com/vllm-project/vllm/issues/22422",
        "Value error, The quantization method mxfp4 is not supported for the current GPU. Minimum "
        "capability: 100. Current capability: 86. [type=value_error, input_value=ArgsKwargs((), "
        "{'model_co...additional_config': {}}), input_type=ArgsKwargs]",
        "vllm.tensor-parallel-size-not-divisible",
    ),
    (
        # vLLM's own KV cache sizing, not ExLlama's autosplit
        "https://github.com/vllm-project/vllm/issues/17431",
        "A800 GPU set VLLM_USE_V1=1 ValueError: No available memory for the cache blocks",
        "exllama.insufficient-vram-for-cache",
    ),
]


test_message_reaches_its_cause_with_the_knob = source_knob_test(KNOB)


test_lookalike_is_not_read_as_the_new_cause = source_lookalike_test(LOOKALIKE)
