"""Round 5 canonical lines of local LLM runtimes (Ollama, llama.cpp and its bindings, vLLM,
bitsandbytes, Intel XPU, Apple silicon): each real line reaches its cause first, and the fix
names the knob the field's fix turns on. Each line is quoted from the thread or source file named
above it."""

from __future__ import annotations

import pytest
from triage_lines import assert_first_with_knob

from envdoctor.triage_engine import triage_text

LINES = [
    # https://github.com/ollama/ollama/issues/6647 (after suspend; docs: reload nvidia_uvm)
    (
        'time=2024-09-05T09:20:35.624+08:00 level=DEBUG source=gpu.go:533 msg="Unable to load '
        'cudart" library=/opt/cuda/lib64/libcudart.so.12.6.37 error="cudart init failure: 999"',
        "nvidia.uvm-stale-after-suspend",
        "modprobe nvidia_uvm",
    ),
    # https://github.com/ollama/ollama/issues/8638
    (
        'time=2025-01-28T17:02:55.661+03:00 level=WARN source=gpu.go:623 msg="unknown error '
        "initializing cuda driver library /usr/lib/x86_64-linux-gnu/libcuda.so.550.144.03: cuda "
        'driver library init failure: 999."',
        "nvidia.uvm-stale-after-suspend",
        "nvidia_uvm",
    ),
    # Ollama's own format string (discover/gpu.go, 2024 releases); docs/gpu.mdx: CC 5.0+
    (
        'time=2024-07-01T10:00:00.000Z level=INFO source=gpu.go:203 msg="[0] CUDA GPU is too '
        'old. Compute Capability detected: 3.5"',
        "app.llamacpp.gpu-arch-dropped",
        "CMAKE_CUDA_ARCHITECTURES",
    ),
    # https://github.com/ollama/ollama/issues/10920
    (
        "Error: model requires more system memory (164.8 GiB) than is available (13.4 GiB)",
        "memory.host-ram-exhausted",
        "num_ctx",
    ),
    # https://github.com/ollama/ollama/issues/707
    (
        "Error: listen tcp 127.0.0.1:11434: bind: address already in use",
        "app.ollama.server-already-running",
        "systemctl stop ollama",
    ),
    # https://github.com/ollama/ollama/issues/3575
    (
        "Error: listen tcp 127.0.0.1:11434: bind: Only one usage of each socket address "
        "(protocol/network address/port) is normally permitted.",
        "app.ollama.server-already-running",
        "OLLAMA_HOST",
    ),
    # Ollama's troubleshooting page: "signal: illegal instruction (core dumped)" = no AVX
    (
        "Error: llama runner process has terminated: signal: illegal instruction (core dumped)",
        "app.llamacpp.cpu-instruction-unsupported",
        "avx",
    ),
    # https://github.com/ggml-org/llama.cpp/issues/3905
    (
        "gguf_init_from_file: invalid magic characters tjgg9.\n"
        "llama_model_quantize: failed to quantize: llama_model_loader: failed to load model from "
        ".\\models\\7B\\ggml-model-f16.bin",
        "app.llamacpp.model-file-format",
        "gguf",
    ),
    # https://github.com/abetlen/llama-cpp-python/issues/1191 (a GGUF in an old loader)
    (
        "error loading model: unknown (magic, version) combination: 46554747, 00000003; is this "
        "really a GGML file?",
        "app.llamacpp.model-file-format",
        "upgrade llama-cpp-python",
    ),
    # https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/350
    (
        "llama.cpp error: 'error loading model vocabulary: unknown pre-tokenizer type: "
        "'deepseek-r1-qwen''",
        "app.llamacpp.unknown-architecture",
        "runtime",
    ),
    # vLLM's own log line and an OOM raised in capture_model (docs: conserving memory)
    (
        "INFO 07-23 20:49:35 model_runner.py:1415] If out-of-memory error occurs during "
        "cudagraph capture, consider decreasing `gpu_memory_utilization` or switching to eager "
        "mode.\n"
        '  File "/usr/local/lib/python3.10/dist-packages/vllm/worker/model_runner.py", line 1519,'
        " in capture_model\n"
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB.",
        "vllm.cuda-graph-capture-oom",
        "--enforce-eager",
    ),
    # vLLM's sampler warm-up message
    (
        "RuntimeError: CUDA out of memory occurred when warming up sampler with 1024 dummy "
        "requests. Please try lowering `max_num_seqs` or `gpu_memory_utilization` when "
        "initializing the engine.",
        "app.vllm.kv-cache-insufficient",
        "--max-num-seqs",
    ),
    # vLLM's config check (vllm/config), as users paste it
    (
        "ValueError: User-specified max_model_len (131072) is greater than the derived "
        "max_model_len (max_position_embeddings=32768 or model_max_length=None in model's "
        "config.json).",
        "vllm.max-model-len-exceeds-model",
        "VLLM_ALLOW_LONG_MAX_MODEL_LEN",
    ),
    # https://github.com/vllm-project/vllm/issues/2416
    (
        "ValueError: The number of required GPUs exceeds the total number of available GPUs in "
        "the placement group.",
        "vllm.tensor-parallel-exceeds-gpus",
        "--tensor-parallel-size",
    ),
    # vLLM 0.5's flash_attn backend
    (
        "ValueError: Please use Flashinfer backend for models with logits_soft_cap (i.e., "
        "Gemma-2). Otherwise, the output might be wrong. Set Flashinfer backend by export "
        "VLLM_ATTENTION_BACKEND=FLASHINFER.",
        "vllm.attention-backend-unsupported",
        "VLLM_ATTENTION_BACKEND=FLASHINFER",
    ),
    # pip's resolver line (https://github.com/vllm-project/vllm/issues/3147: torch 2.1.2 fixed it)
    (
        "vllm 0.3.2 requires torch==2.1.2, but you have torch 2.2.1 which is incompatible.",
        "torch.extension-abi-mismatch",
        "torch==2.1.2",
    ),
    # bitsandbytes' loader (bitsandbytes/cextension.py): no binary for torch's CUDA
    (
        "RuntimeError: Configured CUDA binary not found at /usr/local/lib/python3.12/"
        "dist-packages/bitsandbytes/libbitsandbytes_cuda131.so",
        "bitsandbytes.cudart-not-found",
        "pip install -U bitsandbytes",
    ),
    # https://github.com/bitsandbytes-foundation/bitsandbytes/issues/529 (author: use 4-bit)
    (
        "UserWarning: WARNING: Compute capability < 7.5 detected! Only slow 8-bit matmul is "
        "supported for your GPU!",
        "bitsandbytes.gpu-too-old-for-int8",
        "load_in_4bit",
    ),
    # transformers' bitsandbytes quantizer check
    (
        "RuntimeError: No GPU found. A GPU is needed for quantization.",
        "torch.cpu-build-on-gpu-host",
        "torch.cuda.is_available()",
    ),
    # ipex-llm's FAQ
    (
        "RuntimeError: PyTorch is not linked with support for xpu devices",
        "intel.ipex-cpu-only-build",
        "download.pytorch.org/whl/xpu",
    ),
    # https://github.com/lllyasviel/Fooocus/issues/2531
    (
        "RuntimeError: Current platform can NOT allocate memory block with size larger than 4GB!",
        "memory.out-of-memory",
        "enable_vae_tiling",
    ),
    # https://github.com/intel/intel-extension-for-pytorch/issues/394
    (
        "OSError: [WinError 126] The specified module could not be found. Error loading "
        '"C:\\venv\\lib\\site-packages\\intel_extension_for_pytorch\\bin\\'
        'intel-ext-pt-gpu.dll" or one of its dependencies.',
        "intel.oneapi-not-sourced",
        "setvars.bat",
    ),
    # https://github.com/vladmandic/sdnext/issues/2601 (2023.2 runtime packages restored it)
    (
        "after updating Intel libraries to 2024:\n"
        "    import intel_extension_for_pytorch._C\n"
        "ImportError: libmkl_sycl.so.3: cannot open shared object file: No such file or directory",
        "intel.oneapi-runtime-mismatch",
        "intel-oneapi-runtime-mkl",
    ),
    # ipex-llm's FAQ: 'could not create a primitive' with several GPUs
    (
        "RuntimeError: could not create a primitive\nintel_extension_for_pytorch on xpu, Arc A770",
        "intel.multi-gpu-device-selection",
        "ONEAPI_DEVICE_SELECTOR",
    ),
    # https://github.com/tensorflow/tensorflow/issues/44999
    (
        "zsh: illegal hardware instruction  python\nimport tensorflow on my M1 MacBook",
        "macos.rosetta-python",
        "arm64",
    ),
    # https://github.com/tensorflow/tensorflow/issues/58988 (downgrading fixed it)
    (
        "NOT_FOUND: could not find registered platform with id",
        "apple.tensorflow-metal-mismatch",
        "tensorflow-metal",
    ),
    # Ollama's scripts/install.sh; https://github.com/ollama/ollama/issues/4679
    (
        "WARNING: No NVIDIA/AMD GPU detected. Ollama will run in CPU-only mode.",
        "app.ollama-cpu-fallback",
        "install.sh",
    ),
    # zh-CN Windows' text of WSAEADDRINUSE for a second `ollama serve`
    (
        "Error: listen tcp 127.0.0.1:11434: bind: 通常每个套接字地址(协议/网络地址/端口)只允许使用一次。",
        "app.ollama.server-already-running",
        "systemctl stop ollama",
    ),
    # https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/1221 (the app's log line)
    (
        "[2025-11-12 10:06:11.994] [error] [LMSInternal][Client=LM Studio][Endpoint=loadModel] "
        "Error in channel handler: Error: No LM Runtime found for model format 'gguf'!",
        "app.lmstudio.no-runtime-for-format",
        "Ctrl+Shift+R",
    ),
    # Ollama's registry refusal, as pasted in many threads
    (
        "Error: pull model manifest: 412: The model you are attempting to pull requires a newer "
        "version of Ollama.",
        "app.llamacpp.unknown-architecture",
        "install.sh",
    ),
    # Chinese prose (bitsandbytes before 0.43 searched for libcudart itself)
    (
        "加载模型时 bitsandbytes 报错，提示找不到 CUDA，load_in_8bit 用不了",
        "bitsandbytes.cuda-setup-failed",
        "python -m bitsandbytes",
    ),
    # https://github.com/vllm-project/vllm/issues/4229 (run from outside the source checkout)
    (
        '  File "/home/user/vllm/vllm/_custom_ops.py", line 176, in reshape_and_cache\n'
        "ModuleNotFoundError: No module named 'vllm._C'",
        "vllm.compiled-ops-not-built",
        "VLLM_USE_PRECOMPILED",
    ),
    # https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/77 (newer LM Studio fixed it)
    (
        "llama_model_load: error loading model: done_getting_tensors: wrong number of tensors; "
        "expected 292, got 291",
        "app.llamacpp.unknown-architecture",
        "Ctrl+Shift+R",
    ),
    # ggml's CUDA init with a driver older than the build's CUDA runtime
    (
        "ggml_cuda_init: failed to initialize CUDA: CUDA driver version is insufficient for CUDA "
        "runtime version",
        "cuda.toolkit-newer-than-driver",
        "CUDA Version",
    ),
    # Ollama's discover/runner.go (Windows)
    (
        'level=WARN source=runner.go:739 msg="potentially incompatible library detected in PATH" '
        "location=C:\\llama.cpp\\ggml-base.dll",
        "app.ollama-cpu-fallback",
        "PATH",
    ),
    # Ollama's discover/runner.go
    (
        'level=WARN source=runner.go:722 msg="user overrode visible devices" CUDA_VISIBLE_DEVICES=1',
        "cuda.visible-devices-hide-gpus",
        "nvidia-smi -L",
    ),
    # ipex-llm's FAQ: first runs compile the kernels
    (
        "On my Arc A770 with ipex-llm the first run takes several minutes before the first token, "
        "later runs are fast",
        "intel.first-run-jit-compile",
        "SYCL_CACHE_PERSISTENT=1",
    ),
    # Chinese prose as users write it (vLLM's KV-cache check)
    (
        "vllm 启动时 max_model_len 太大 报错 KV cache 放不下",
        "app.vllm.kv-cache-insufficient",
        "--max-model-len",
    ),
    # llama-cpp-python's macOS notes: x86_64 Python builds without Metal
    (
        "On my M2 MacBook llama-cpp-python is very slow, it only uses the CPU",
        "app.llamacpp.cpu-build-on-gpu-host",
        "GGML_METAL",
    ),
    ("mac m2 上跑 llama.cpp 很慢 metal 没有用上", "app.llamacpp.cpu-build-on-gpu-host", "arm64"),
    ("用 ipex 跑模型 报错 找不到 libmkl_sycl.so.4", "intel.oneapi-not-sourced", "setvars.sh"),
    (
        "2080ti 上 vllm 报 FlashAttention 不支持",
        "flashattn.gpu-arch-unsupported",
        "VLLM_ATTENTION_BACKEND",
    ),
    # https://github.com/pytorch/pytorch/issues/78042 (predicting the whole test set at once)
    ("RuntimeError: Invalid buffer size: 9.75 GB", "apple.mps-tensor-size-limit", "in batches"),
]


@pytest.mark.parametrize(("text", "expected", "knob"), LINES)
def test_cause_ranks_first_and_names_its_knob(text: str, expected: str, knob: str) -> None:
    assert_first_with_knob(text, expected, knob)


def test_ollama_driver_floor_is_the_one_its_log_names() -> None:
    line = (
        'time=2025-10-01T10:00:00.000Z level=WARN source=cuda_compat.go:65 msg="NVIDIA driver '
        'too old" device="NVIDIA GeForce GTX 1080" compute=6.1 driver=535 '
        'required_driver="570 or newer"'
    )
    assert_first_with_knob(line, "cuda.toolkit-newer-than-driver", "570")


def test_ggml_cuda_init_failure_is_not_read_as_a_cpu_only_build() -> None:
    """ "ggml_cuda_init: failed to initialize CUDA" comes from a CUDA build that found no usable
    GPU: rebuilding with -DGGML_CUDA=on is not its fix."""
    ids = [
        f.id
        for f in triage_text(
            "ggml_cuda_init: failed to initialize CUDA: no CUDA-capable device is detected"
        ).findings
    ]
    assert "app.llamacpp.cpu-build-on-gpu-host" not in ids[:2], ids


def test_illegal_instruction_on_a_jetson_stays_jetson() -> None:
    ids = [
        f.id
        for f in triage_text(
            "Jetson Orin, llama.cpp python bindings\nIllegal instruction (core dumped)"
        ).findings
    ]
    assert ids and ids[0] != "app.llamacpp.cpu-instruction-unsupported", ids
