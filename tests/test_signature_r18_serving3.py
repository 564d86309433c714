"""LLM serving and training stacks (round 18 sweep, serving3): messages the field pastes from vLLM,
TensorRT-LLM, DeepSpeed, Unsloth and transformers reach their cause first, with a fix naming the
knob the confirmed fix turned on; look-alike messages of other causes do not rank the new patterns
first."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, finding id first, knob one of its fixes names, thread)
KNOB = [
    (
        '当用户尝试在Tesla V100-PCIE-16GB GPU上运行QAnything项目时,系统报错显示"Bfloat16 is only '
        'supported on GPUs with compute capability of at least 8.0"。这表明GPU的计算能力不足,无法支持'
        "项目默认设置的bfloat16数据类型。",
        "fit.dtype-unsupported",
        "float16",
        "https://blog.gitcode.com/5a308b645d773ca7ebe67c2180f24770.html",
    ),
    (
        "当尝试启动server.py时,系统会抛出错误提示:\"The model's max seq len (8192) is larger than the "
        'maximum number of tokens that can be stored in KV cache (4512)"。这个错误表明模型配置的序列'
        "长度超过了KV缓存的容量限制。",
        "app.vllm.kv-cache-insufficient",
        "--max-model-len 4512",
        "https://blog.gitcode.com/2b11e812b2243085ab8f77db7915f403.html",
    ),
    (
        "RuntimeError: \"addmm_impl_cpu_\" not implemented for 'Half'",
        "torch.cpu-build-on-gpu-host",
        "torch.float32",
        "https://github.com/bigscience-workshop/petals/issues/432",
    ),
    (
        "在回车后使用文本时，触发\"addmm_impl_cpu_\" not implemented for 'Half'\n"
        "输入图像后触发：\"slow_conv2d_cpu\" not implemented for 'Half'",
        "torch.cpu-build-on-gpu-host",
        "model.float()",
        "https://github.com/zai-org/VisualGLM-6B/issues/30",
    ),
    (
        "Assertion failed: Failed to deserialize cuda engine",
        "tensorrt.engine-version-mismatch",
        "tensorrt_llm",
        "https://github.com/NVIDIA/TensorRT-LLM/issues/1324",
    ),
    (
        'Failed to deserialize cuda engine when using "tp_size=4"',
        "tensorrt.engine-version-mismatch",
        "trtllm-build",
        "https://github.com/NVIDIA/TensorRT-LLM/issues/1038",
    ),
    (
        "[Bug]: ValueError: Ray does not allocate any GPUs on the driver node. Consider adjusting "
        "the Ray placement group or running the driver on a GPU node.",
        "vllm.ray-driver-node-no-gpu",
        "ray start --head",
        "https://github.com/vllm-project/vllm/issues/6956",
    ),
    (
        "(unsloth_env) C:\\Users\\Curtis\\Desktop\\CudaTraining>python "
        "multiple_datasets_and_only_alpaca_prompt.py\nTraceback (most recent call last):\n"
        '  File "C:\\Users\\Curtis\\Desktop\\CudaTraining\\multiple_datasets_and_only_alpaca_prompt.py",'
        " line 12, in <module>\n    from unsloth import FastLanguageModel #from unsloth\n"
        '  File "C:\\Users\\Curtis\\.conda\\envs\\unsloth_env\\lib\\site-packages\\unsloth\\__init__.py",'
        ' line 93, in <module>\n    raise NotImplementedError("Unsloth: No NVIDIA GPU found? '
        'Unsloth currently only supports GPUs!")\nNotImplementedError: Unsloth: No NVIDIA GPU '
        "found? Unsloth currently only supports GPUs!\n\nHave uninstalled, tried different python "
        "versions ... SAME CPU ONLY ...I have a 4060 ti with 16gb of ram and brand new drivers and "
        "brand new cuda ... the correct ones for the GPU.",
        "torch.cpu-build-on-gpu-host",
        "--index-url",
        "https://github.com/unslothai/unsloth/issues/2024",
    ),
    (
        "ValueError: Your setup doesn't support bf16/gpu. You need torch>=1.10, using Ampere GPU "
        "with cuda>=11.0\n\nGPU：2080Ti",
        "fit.dtype-unsupported",
        "--fp16",
        "https://github.com/OptimalScale/LMFlow/issues/88",
    ),
    (
        "运行环境是colab，gpu是tsla T4，torch版本是2.0，CUDA版本是11.8，训练模型的时候出现这个报错："
        "ValueError: Your setup doesn't support bf16/gpu. You need torch>=1.10, using Ampere GPU "
        "with cuda>=11.0",
        "fit.dtype-unsupported",
        "fp16",
        "https://github.com/OptimalScale/LMFlow/issues/251",
    ),
    (
        "ValueError: Your setup doesn't support bf16/gpu. You need torch>=1.10, using Ampere GPU "
        "with cuda>=11.0",
        "fit.dtype-unsupported",
        "fp16=True",
        "https://github.com/tatsu-lab/stanford_alpaca/issues/133",
    ),
    (
        "When I use --bd16 false in the command then I get another error\nValueError: --tf32 "
        "requires Ampere or a newer GPU arch, cuda>=11 and torch>=1.7",
        "fit.dtype-unsupported",
        "--tf32 False",
        "https://github.com/lm-sys/FastChat/issues/1191",
    ),
]

# (message verbatim from a thread of another cause, the cause that must not rank first, thread)
LOOKALIKE = [
    (
        "WARNING 02-22 21:02:44 ray_utils.py:180] tensor_parallel_size=2 is bigger than a reserved "
        "number of GPUs (1 GPUs) in a node c797a74e172f57f36312f0618dd4e52b02c6ad65733d6b51adf62ab6. "
        "Tensor parallel workers can be spread out to 2+ nodes which can degrade the performance "
        "unless you have fast interconnect across nodes, like Infiniband. To resolve this issue, "
        "make sure you have more than 2 GPUs available at each node.",
        "vllm.ray-driver-node-no-gpu",
        "https://github.com/vllm-project/vllm/issues/13521",
    ),
    (
        "[Bug] Unsloth cannot find any torch accelerator? You need a GPU.",
        "torch.cpu-build-on-gpu-host",
        "https://github.com/unslothai/unsloth/issues/5226",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_does_not_rank_new_cause_first = lookalike_test(LOOKALIKE)
