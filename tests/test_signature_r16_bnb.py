"""bitsandbytes and quantised-model loading, round 16 sweep (checks/signatures/{quantization,libraries}.toml): each
common message, verbatim from a public thread, reaches its cause first with a fix naming the knob
the thread's fix turned; look-alike messages of other causes are not read as the new causes."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

# (message, the finding id first, the knob one of its fixes names, the thread)
KNOB = [
    # a commenter confirmed "It can work, Thanks" after setting disable_exllama in quantization_config
    (
        "ValueError: Found modules on cpu/disk. Using Exllama backend requires all the modules to be "
        "on GPU.You can deactivate exllama backend by setting `disable_exllama=True` in the "
        "quantization config objec",
        "gptq.exllama-modules-offloaded",
        "disable_exllama",
        "https://github.com/lm-sys/FastChat/issues/2459",
    ),
    # fixed by loading without 8-bit (load_in_8bit=False) on the GPU that raised it
    (
        "cuBLAS API failed with status 15",
        "bitsandbytes.int8-cublaslt-unsupported-gpu",
        "load_in_8bit",
        "https://github.com/tloen/alpaca-lora/issues/174",
    ),
    # the maintainer: upgrade bitsandbytes and try again
    (
        "Error loading models: `.to` is not supported for `4-bit` or `8-bit` bitsandbytes models. "
        "Please use the model as it is, since the model has already been set to the correct devices "
        "and casted to the correct `dtype`.",
        "bitsandbytes.model-move-unsupported",
        "bitsandbytes>=0.43.2",
        "https://github.com/TTPlanetPig/Comfyui_JC2/issues/26",
    ),
    # the Intel maintainer: install GPTQModel (it runs GPTQ models without a CUDA GPU)
    (
        "RuntimeError: GPU is required to quantize or run quantize model",
        "gptq.gpu-required",
        "gptqmodel",
        "https://github.com/intel/torch-xpu-ops/issues/2052",
    ),
    # vLLM's quantizer names the bitsandbytes release it needs (the issue was closed)
    (
        'raise ImportError("Please install bitsandbytes>=0.44.0 via "\n'
        "ImportError: Please install bitsandbytes>=0.44.0 via `pip install bitsandbytes>=0.44.0` to "
        "use bitsandbytes quantizer.",
        "bitsandbytes.transformers-import-check",
        "bitsandbytes>=0.44.0",
        "https://github.com/sgl-project/sglang/issues/2769",
    ),
    # transformers names the library the AWQ checkpoint needs (the issue was closed)
    (
        "ImportError: Loading an AWQ quantized model requires auto-awq library (`pip install "
        "autoawq`)",
        "transformers.quant-backend-missing",
        "pip install autoawq",
        "https://github.com/chatchat-space/Langchain-Chatchat/issues/3794",
    ),
]


test_a_common_message_gets_its_cause_and_the_knob = knob_test(KNOB, ids=[k[3] for k in KNOB])


# (a message of another cause, the new cause it must not be read as, the thread)
LOOKALIKE = [
    # torch could not use the GPU (the driver was too old): not a GPTQ backend question
    (
        'raise RuntimeError("No GPU found. A GPU is needed for quantization.")',
        "gptq.gpu-required",
        "https://github.com/zai-org/CogVLM2/issues/177",
    ),
    # a cuBLAS fp16 GEMM failure, not bitsandbytes' int8 matmul
    (
        "RuntimeError: CUDA error: CUBLAS_STATUS_INVALID_VALUE when calling `cublasGemmEx( handle, "
        "opa, opb, m, n, k, &falpha, a, CUDA_R_16F, lda, b, CUDA_R_16F, ldb, &fbeta, c, CUDA_R_16F, "
        "ldc, CUDA_R_32F, CUBLAS_GEMM_DFALT_TENSOR_OP)`",
        "bitsandbytes.int8-cublaslt-unsupported-gpu",
        "https://github.com/bitsandbytes-foundation/bitsandbytes/issues/205",
    ),
    # transformers' minimum bitsandbytes check, not a missing GPTQ/AWQ library
    (
        "ValueError: 4 bit quantization requires bitsandbytes>=0.39.0 - please upgrade your "
        "bitsandbytes version",
        "transformers.quant-backend-missing",
        "https://github.com/bitsandbytes-foundation/bitsandbytes/issues/815",
    ),
    # TGI's own exllamav2 kernels are missing: not a model offloaded to the CPU
    (
        "2024-04-30T19:23:57.486233Z ERROR text_generation_launcher: exllamav2_kernels not "
        "installed.",
        "gptq.exllama-modules-offloaded",
        "https://github.com/huggingface/text-generation-inference/issues/1837",
    ),
    # a pipeline move that needs a newer accelerate, not transformers' model.to check
    (
        "ValueError: You are trying to call `.to('cuda')` on a pipeline that has models quantized "
        "with `bitsandbytes`. Your current `accelerate` installation does not support it. Please "
        "upgrade the installation.",
        "bitsandbytes.model-move-unsupported",
        "https://github.com/jax-explorer/ComfyUI-easycontrol/issues/23",
    ),
]


test_a_look_alike_message_is_not_read_as_the_new_cause = lookalike_test(
    LOOKALIKE, ids=[k[2] for k in LOOKALIKE], may_be_empty=True
)
