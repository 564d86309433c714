"""LLM serving runtimes and ONNX Runtime: frequent messages of vLLM, SGLang, TGI and ONNX Runtime
(checks/signatures/{serving,onnxruntime}.toml and the entries it extends). Each message is copied from a
public thread whose fix was confirmed (the reporter says it worked, or a maintainer states cause
and fix); it reaches that cause first, and one of the cause's fixes names the knob the confirmed
fix turned. Look-alike rows are real messages of other causes a new pattern could catch: they must
not rank the new cause first."""

from __future__ import annotations

from tests.triage_lines import command_test, lookalike_test

# (message verbatim from the thread, the finding id first, text a command of one of its fixes holds, URL)
KNOB = [
    # vLLM: bf16 on a Turing GPU; the reply: set vLLM's dtype parameter
    (
        "try to run XAgentLlama in docker, but Error out: Bfloat16 is only supported on GPUs with "
        "compute capability of at least 8.0. Your NVIDIA GeForce RTX ..GPU has compute capability 7.5.",
        "fit.dtype-unsupported",
        "--dtype half",
        "https://github.com/OpenBMB/XAgent/issues/379",
    ),
    # vLLM: 12 heads over 8 GPUs; the maintainer: use 4 GPUs
    (
        "raise ValueError(\nValueError: Total number of attention heads (12) must be divisible by "
        "tensor parallel size (8).",
        "vllm.tensor-parallel-size-not-divisible",
        "--tensor-parallel-size",
        "https://github.com/MIV-XJTU/FSDrive/issues/21",
    ),
    # vLLM: the maintainer points at enforce_eager (no CUDA graph memory) for the cache blocks
    (
        "ValueError: No available memory for the cache blocks. Try increasing "
        "`gpu_memory_utilization` when initializing the engine.",
        "app.vllm.kv-cache-insufficient",
        "--gpu-memory-utilization",
        "https://github.com/BatsResearch/bonito/issues/22",
    ),
    # vLLM: 29k context does not fit the KV cache, 20k does (the reporter's own runs)
    (
        "Maximum concurrency for 29000 tokens per request: 0.82x\n"
        "The model's max seq len (29000) is larger than the maximum number of tokens that can be "
        "stored in KV cache (23648). Try increasing `gpu_memory_utilization` or decreasing "
        "`max_model_len` when initializing the engine.",
        "app.vllm.kv-cache-insufficient",
        "--max-model-len",
        "https://github.com/vllm-project/vllm/issues/10517",
    ),
    # vLLM V1: 221000 tokens do not fit, 100000 do (the reporter's own runs)
    (
        "ValueError: To serve at least one request with the models's max seq len (221000), (10.12 "
        "GiB KV cache is needed, which is larger than the available KV cache memory (5.59 GiB). "
        "Based on the available memory, the estimated maximum model length is 122080. Try "
        "increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the "
        "engine.",
        "app.vllm.kv-cache-insufficient",
        "--max-model-len",
        "https://github.com/vllm-project/vllm/issues/25350",
    ),
    # vLLM: the prompt limit is max_model_len (the reply: set max_model_len when serving)
    (
        "scheduler.py:648] Input prompt (36893 tokens) is too long and exceeds limit of 1000",
        "vllm.prompt-exceeds-max-model-len",
        "--max-model-len",
        "https://github.com/vllm-project/vllm/issues/10440",
    ),
    # SGLang: the KV pool got no memory; the maintainers: only --mem-fraction-static
    # (https://github.com/sgl-project/sglang/pull/23181)
    (
        "RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.",
        "sglang.kv-pool-no-memory",
        "--mem-fraction-static",
        "https://github.com/sgl-project/sglang/issues/4330",
    ),
    # TGI warmup: the maintainer points at the message's own knobs
    (
        "Not enough memory to handle 16000 total tokens with 2 prefill tokens. You need to "
        "decrease `--max-batch-total-tokens` or `--max-batch-prefill-tokens",
        "tgi.warmup-not-enough-memory",
        "--max-batch-prefill-tokens",
        "https://github.com/huggingface/text-generation-inference/issues/710",
    ),
    # ONNX Runtime older than the model's IR version: the maintainer: upgrade onnxruntime
    (
        "onnxruntime.capi.onnxruntime_pybind11_state.Fail: [ONNXRuntimeError] : 1 : FAIL : Load "
        "model from ./640m.onnx failed:C:\\a\\_work\\1\\s\\onnxruntime\\core\\graph\\model.cc:150 "
        "onnxruntime::Model::Model Unsupported model IR version: 10, max supported IR version: 9",
        "onnxruntime.model-ir-version-too-new",
        "pip install -U onnxruntime",
        "https://github.com/notAI-tech/NudeNet/issues/156",
    ),
    # the same, IR 9 on an onnxruntime that reads 8: the author's fix, upgrade onnxruntime
    (
        "加载模型时报错： Model Unsupported model IR version: 9, max supported IR version: 8",
        "onnxruntime.model-ir-version-too-new",
        "pip install -U onnxruntime",
        "https://github.com/chenwei-zhao/captcha-recognizer/issues/1",
    ),
    # the same; the reporter exported again with an older onnx (IR version the runtime reads)
    (
        "onnxruntime.capi.onnxruntime_pybind11_state.Fail: [ONNXRuntimeError] : 1 : FAIL : Load "
        "model from positional_encoding_poly.onnx failed:/onnxruntime_src/onnxruntime/core/graph/"
        "model.cc:179 onnxruntime::Model::Model(onnx::ModelProto&&, const onnxruntime::PathString&, "
        "const onnxruntime::IOnnxRuntimeOpSchemaRegistryList*, const onnxruntime::logging::Logger&, "
        "const onnxruntime::ModelOptions&) Unsupported model IR version: 10, max supported IR "
        "version: 9",
        "onnxruntime.model-ir-version-too-new",
        "ir_version = 9",
        "https://github.com/microsoft/onnxruntime/issues/20559",
    ),
    # onnxruntime and onnxruntime-gpu share one folder: the maintainer, keep only one package
    (
        "AttributeError: module 'onnxruntime' has no attribute 'InferenceSession'",
        "onnxruntime.cpu-package-shadows-gpu",
        "pip uninstall -y onnxruntime onnxruntime-gpu",
        "https://github.com/Gourieff/comfyui-reactor-node/issues/236",
    ),
    # the maintainer: did you install onnxruntime or onnxruntime-gpu? only the second runs CUDA
    (
        "2023-07-31 14:22:06.483132863 [W:onnxruntime:Default, onnxruntime_pybind_state.cc:640 "
        "CreateExecutionProviderInstance] Failed to create CUDAExecutionProvider. Please reference "
        "https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html#requirements "
        "to ensure all dependencies are met.",
        "onnxruntime.cuda-deps-mismatch",
        "onnxruntime-gpu",
        "https://github.com/microsoft/onnxruntime/issues/16931",
    ),
]


test_a_common_message_gets_its_cause_and_the_knob_it_states = command_test(
    KNOB, ids=[k[3] for k in KNOB]
)


# (message of another cause, verbatim, the cause it must not be read as first, URL)
LOOKALIKE = [
    # the KV cache cannot hold max_model_len: the engine's sizing, not a request's prompt
    (
        "The model's max seq len (4096) is larger than the maximum number of tokens that can be "
        "stored in KV cache (1216). Try increasing `gpu_memory_utilization` or decreasing "
        "`max_model_len` when initializin",
        "vllm.prompt-exceeds-max-model-len",
        "https://github.com/hiyouga/LlamaFactory/issues/6472",
    ),
    # TGI's warmup succeeded (it set its budgets); the OOM came later, at serving time
    (
        "Default `max_batch_prefill_tokens` to 10049\n...\nWarming up model\nUsing optimized "
        "Triton indexing kernels.\nSetting max batch total tokens to 30816",
        "tgi.warmup-not-enough-memory",
        "https://github.com/huggingface/text-generation-inference/issues/2744",
    ),
    # vLLM's own KV-cache message: not SGLang's pool
    (
        "ValueError: No available memory for the cache blocks. Try increasing "
        "`gpu_memory_utilization` when initializing the engine.",
        "sglang.kv-pool-no-memory",
        "https://github.com/BatsResearch/bonito/issues/22",
    ),
]


test_a_look_alike_message_is_not_read_as_the_new_cause = lookalike_test(
    LOOKALIKE, ids=[k[2] for k in LOOKALIKE], may_be_empty=True
)
