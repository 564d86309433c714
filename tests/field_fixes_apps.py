"""Round 9 field survey (apps): do the fixes of the cause a real report reaches name the knob its
confirmed fix turned on?

Families: CUDA out of memory (batch size, --lowvram/--medvram, gradient checkpointing, 4-bit and
int4 loading), vLLM (gpu_memory_utilization, max_model_len, tensor_parallel_size), Ollama and
llama.cpp (OLLAMA_KEEP_ALIVE, n_gpu_layers), bitsandbytes, Intel XPU, Apple MPS, ROCm / AMD
(HSA_OVERRIDE_GFX_VERSION), stable-diffusion-webui flags.

Every text is copied verbatim from the public thread named beside it (the reporter's own words:
an issue title, error lines and the facts they gave, never the answer), and each thread holds a
confirmed fix: the reporter says it worked, or a maintainer states cause and fix. The knob is the
thing that fix turned on; the accepted cause must be among the first three findings of
`triage_text(text)` and its fixes must name the knob (any case). The second table holds reports
whose cause is something else, which a cue added for the first table could wrongly catch.
"""

from __future__ import annotations

OOM = ("memory.out-of-memory", "memory.workload-does-not-fit", "memory.allocator-fragmentation")
VLLM_MEM = (
    "app.vllm.gpu-memory-utilization-too-high",
    "app.vllm.kv-cache-insufficient",
    "vllm.cuda-graph-capture-oom",
    "memory.out-of-memory",
    "memory.workload-does-not-fit",
)
KV = ("app.vllm.kv-cache-insufficient", "app.vllm.gpu-memory-utilization-too-high")
LLAMACPP_NGL = ("app.llamacpp.gpu-layers-not-set", "app.ollama.partial-offload")
OLLAMA_IDLE = ("app.ollama.model-unloaded-when-idle",)
ROCM_GFX = ("rocm.gfx-unsupported", "rocm.no-binary-for-gpu", "app.ollama-amd-unsupported-gfx")
MPS_OOM = ("apple.mps-out-of-memory",)
MPS_OP = ("apple.mps-op-unsupported",)
BNB = ("bitsandbytes.cuda-setup-failed", "bitsandbytes.cudart-not-found")
ORT_DEPS = ("onnxruntime.cuda-deps-mismatch",)

# (text, accepted ids, source URL, knob the confirmed fix turned on)
CASES = [
    # ------------------------------------------------------------ CUDA out of memory
    (
        "trl v0.7.2 is causing CUDA out of memory for Mistral Instruct on A100 GPU (on Colab)\n"
        "Fine-tuning Mistral instruct model using trl v0.7.2 is causing a CUDA OOM error on A100 GPU "
        "on Colab regardless of batch size, gradient accumulation steps, or precision level (fp16 or "
        "bf16). Leaving all hyperparameters unchanged, but reverting trl back to v0.7.1, I'm able to "
        "run the fine-tuning job without any errors.",
        OOM,
        "https://github.com/huggingface/trl/issues/876",
        "gradient_checkpointing",
    ),
    (
        "Some question about out of memory?\nHello,  In the paper you say the code can run  under a "
        "16G GPU when batch is under 4 . but It still showed  out of the memory when I tested. What "
        "should I do",
        OOM,
        "https://github.com/amazon-science/earth-forecasting-transformer/issues/20",
        "batch",
    ),
    (
        "OutOfMemoryError: CUDA out of memory. Is it a matter of data size?",
        OOM,
        "https://github.com/huggingface/peft/issues/525",
        "gradient_checkpointing",
    ),
    (
        "--medvram OOMs\nMy video card is GTX 1650 4GB and I am running the script with\n\n"
        "`python stable-diffusion-webui/webui.py --medvram --precision full --no-half`\n\n"
        "I have noticed that the new `--medvram` option is not equivalent to the old `--lowvram` "
        "option. In this new implementation, I am unable to generate txt2img with 512x512 or 448x448 "
        "resolutions like I could before.",
        OOM,
        "https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/42",
        "--lowvram",
    ),
    (
        "[Bug]: CUDA out of memory when generate pictures on web UI\n(Add) Firstly I launch web UI "
        "and generate, it takes 7.11s and then showed RuntimeError, and after that, each subsequent "
        "generate only takes less than 0.1s.",
        OOM,
        "https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/3213",
        "--xformers",
    ),
    (
        "RuntimeError: Not enough memory, use lower resolution (max approx. 448x448). Need: 0.0GB "
        "free, Have:0.0GB free\nmost of them time when switching models or all of the time when "
        "using 'AND' generation, the fork will use all of my vram and refuse to let it go until i "
        "close and reopen it.\n - OS: Windows 10\n -RTX 3050TI 4gb",
        OOM,
        "https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/1883",
        "--medvram",
    ),
    # ------------------------------------------------------------ vLLM memory
    (
        "Using VLLM0.7.2 server to start DeepSeek-R1 model on 8xNVIDIA-H200, there is a phenomenon "
        "of cuda out of memory and service shutting down.",
        VLLM_MEM,
        "https://github.com/vllm-project/vllm/issues/13582",
        "gpu-memory-utilization",
    ),
    (
        "cuda error: out of memory at /workspace/csrc/cumem_allocator.cpp:62",
        VLLM_MEM,
        "https://github.com/verl-project/verl/issues/302",
        "gpu_memory_utilization",
    ),
    (
        "[Usage]: memory out of use\n原模型Mixtral-8x7B-v0.1单卡A100可以跑，用了80G内存以内，使用了vllm后，"
        "要两张A100才能跑起来，内存达到了160G。这个有什么参数可以优化吗",
        VLLM_MEM,
        "https://github.com/vllm-project/vllm/issues/3494",
        "gpu-memory-utilization",
    ),
    (
        "vllm 72b启动失败\n为什么使用huggingface可以启动72b-chat模型直接推理，但是用vllm不行呢。报错信息是："
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 384.00 MiB. GPU 0 has a "
        "total capacty of 79.33 GiB of which 351.81 MiB is free. Including non-PyTorch memory, this "
        "process has 78.97 GiB memory in use. Of the allocated memory 78.33 GiB is allocated by "
        "PyTorch, and 12.36 MiB is reserved by PyTorch but unallocated.\n\n"
        "8张A800的显存，启动huggingface版本都是OK的，但是vllm却报错OOM?\n\nvllm启动脚本：\n"
        "CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 python -m vllm.entrypoints.openai.api_server \\\n"
        "--model qwen/Qwen1.5-72B-Chat",
        VLLM_MEM,
        "https://github.com/QwenLM/Qwen3/issues/67",
        "tensor-parallel-size",
    ),
    (
        "Use vLLM to load model that exceed the memory size of a single graphics card\nCan "
        "increasing tensor_parallel_size parameter solve the problem that the single graphics card's "
        "memory is not enough to deploy the model? Apart from modifying this parameter, is there any "
        "way to solve this problem when loading the model using vLLM?",
        VLLM_MEM,
        "https://github.com/vllm-project/vllm/issues/1449",
        "max-model-len",
    ),
    (
        "ValueError: The model's max seq len (4096) is larger than the maximum number of tokens that "
        "can be stored in KV cache (3664). Try increasing `gpu_memory_utilization` or decreasing "
        "`max_model_len` when\nI followed the Quickstart tutorial and deployed the "
        "Chinese-llama-alpaca-2 model using vllm, and I got the following error.",
        KV,
        "https://github.com/vllm-project/vllm/issues/2418",
        "max_model_len",
    ),
    (
        "vllm deploy failed\n**deploy platform：**RTX3090-24G\n**model：**Qwen1.5-7B-Chat-GPTQ-Int4\n"
        "**bash:**\n`CUDA_VISIBLE_DEVICES=7 python -m vllm.entrypoints.openai.api_server     --model "
        "qwen/Qwen1.5-7B-Chat-GPTQ-Int4     --served-model-name qwen/Qwen1.5-7B-Chat-GPTQ-Int4     "
        "--quantization gptq`\n\n**error:**\n`ValueError: The model's max seq len (32768) is larger "
        "than the maximum number of tokens that can be stored in KV cache (24320). Try increasing "
        "`gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.`",
        KV,
        "https://github.com/QwenLM/Qwen3/issues/16",
        "--max-model-len",
    ),
    # ------------------------------------------------------------ Ollama / llama.cpp
    (
        "GPU offload layers greater than 1?\nI've compiled llama.cpp python binding with CUDA "
        "support enabled and the GPU offload is working:\n\n```\nllm_load_tensors: using CUDA for "
        "GPU acceleration\nllm_load_tensors: mem required  = 3767.53 MB (+ 2000.00 MB per state)\n"
        "llm_load_tensors: offloading 1 repeating layers to GPU\nllm_load_tensors: offloaded 1/35 "
        "layers to GPU\nllm_load_tensors: VRAM used: 124 MB\n```\n\nHowever, it looks like "
        "`n_gpu_layers` is set to 1 and can't be changed?",
        LLAMACPP_NGL,
        "https://github.com/simonw/llm-llama-cpp/issues/19",
        "n_gpu_layers",
    ),
    (
        "ollama free GPU memory itself\nHello, nice work.  Below is my problem:\nif no request to "
        "ollama for a few minutes, it will free GPU memory， when a new request comes, it will load "
        "the model and response, so this will about 5 seconds.  How to make  ollama hold the GPU "
        "memory",
        OLLAMA_IDLE,
        "https://github.com/ollama/ollama/issues/2974",
        "keep_alive",
    ),
    (
        "how can I make ollama always run models?\nIf the model does not run for a while, the model "
        "will stop and reloading will consume a lot of time.So the user experience is not good",
        OLLAMA_IDLE,
        "https://github.com/ollama/ollama/issues/4340",
        "keep_alive",
    ),
    (
        "ollama默认在5分钟未使用后会将模型从显存中卸载，导致下次调用时会经历较长时间的加载过程，较为影响使用体验。",
        OLLAMA_IDLE,
        "https://github.com/nextai-translator/nextai-translator/issues/1536",
        "keep_alive",
    ),
    # ------------------------------------------------------------ ROCm / AMD
    (
        "[Feature]: Support for gfx1036\nCould you please add support for gfx1036?\n\n"
        "### Operating System\n\nExherbo Linux\n\n### GPU\n\nRyzen 7 7700\n\n### ROCm Component\n\n"
        "rocBLAS",
        ROCM_GFX,
        "https://github.com/ROCm/Tensile/issues/1907",
        "HSA_OVERRIDE_GFX_VERSION=10.3.0",
    ),
    # ------------------------------------------------------------ Apple MPS
    (
        "MPS version not working\nThis still doesn't work and gives the following error:\n\n"
        "NotImplementedError: The operator \\'aten::roll\\' is not currently implemented for the "
        "MPS device. If you want this op to be added in priority during the prototype phase of this "
        "feature, please comment on https://github.com/pytorch/pytorch/issues/77764. As a temporary "
        "fix, you can set the environment variable `PYTORCH_ENABLE_MPS_FALLBACK=1` to use the CPU as "
        "a fallback for this op. WARNING: this will be slower than running natively on MPS.",
        MPS_OP,
        "https://github.com/datalab-to/marker/issues/42",
        "-U torch",
    ),
    (
        "Still don't understand where to type PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable the "
        "upper limit to fix the problem\nI am a total noob and I don't know where to type "
        "PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 and i get this error:\n\nRuntimeError: MPS backend out "
        "of memory (MPS allocated: 8.89 GB, other allocations: 172.98 MB, max allowed: 9.07 GB). "
        "Tried to allocate 6.25 MB on private pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to "
        "disable upper limit for memory allocations (may cause system failure).\nTotal time: 129.38 "
        "seconds",
        MPS_OOM,
        "https://github.com/lllyasviel/Fooocus/issues/1271",
        "export PYTORCH_MPS_HIGH_WATERMARK_RATIO",
    ),
    # ------------------------------------------------------------ bitsandbytes
    (
        "RuntimeError: CUDA Setup failed despite GPU being available.\n"
        "peft                      0.4.0                    pypi_0    pypi\n"
        "pillow                    11.0.0                   pypi_0    pypi\n"
        "pip                       24.2            py310h06a4308_0",
        BNB,
        "https://github.com/bitsandbytes-foundation/bitsandbytes/issues/1434",
        "upgrade",
    ),
]

# Reports whose cause is another one: (text, the cause a cue could be tempted by, source URL)
OTHER_CAUSE = [
    # Ollama: the client gave up while the model loaded, not an idle unload
    (
        "ollama keep reload the same model(Qwen2.5-70B)\ntime=2024-10-29T03:24:27.778Z level=INFO "
        'source=server.go:621 msg="waiting for server to become available" status="llm server '
        'loading model"\n^C^Ctime=2024-10-29T03:24:29.283Z level=WARN source=server.go:594 '
        'msg="client connection closed before server finished loading, aborting load"\n'
        'time=2024-10-29T03:24:29.283Z level=ERROR source=sched.go:455 msg="error loading llama '
        'server" error="timed out waiting for llama runner to start: context canceled"\n\n'
        "## I have set the parameter OLLAMA_KEEP_ALIVE=-1,but it don't works.",
        "app.ollama.model-unloaded-when-idle",
        "https://github.com/ollama/ollama/issues/7408",
    ),
    # Ollama on the CPU: a GPU that is not used, not a model that is unloaded
    (
        "When used, it is always cpu full instead of gpu full, and gpu usage is almost zero\n"
        "### OS\n\nWindows\n\n### GPU\n\nAMD\n\n### CPU\n\nAMD\n\n### Ollama version\n\n0.1.32",
        "app.ollama.model-unloaded-when-idle",
        "https://github.com/ollama/ollama/issues/3975",
    ),
    (
        "Ollama will run in CPU-only mode.\nWARNING: No NVIDIA GPU detected. Ollama will run in "
        "CPU-only mode.",
        "app.ollama.model-unloaded-when-idle",
        "https://github.com/ollama/ollama/issues/2784",
    ),
    # Apple MPS out of memory in an image UI or script: Apple's cause, not CUDA's
    (
        "MS backend out of memory\nRuntimeError: MPS backend out of memory (MPS allocated: 5.56 GB, "
        "other allocations: 1.10 GB, max allowed: 6.80 GB). Tried to allocate 768.00 MB on private "
        "pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0\n\nHow to turn on mps? \nadd it before "
        "starting in the virtual environment?",
        "memory.out-of-memory",
        "https://github.com/Comfy-Org/ComfyUI/issues/2489",
    ),
    (
        "MPS backend out of memory OSX\nruns quite well exept when i try to use the mode **best** "
        "it returns following error \n\nMPS backend out of memory (MPS allocated: 6.04 GB, other "
        "allocations: 1.04 GB, max allowed: 6.77 GB). Tried to allocate 459.07 MB on private pool. "
        "Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper limit for memory allocations "
        "(may cause system failure)\n\nSystem Mac Ventura rund without nivida or CUDE \nAny "
        "workaround exept PYTORCH_MPS_HIGH_WATERMARK_RATIO in the Stabel difussion config",
        "memory.out-of-memory",
        "https://github.com/pharmapsychotic/clip-interrogator-ext/issues/74",
    ),
    (
        "MPS backend out of memory\nI'm on a M1 Max 64 Gb Macbook Pro\n\nI'm trying to run this "
        "command \npython run_hyvideo.py\n\nand it fails after a bit with:\nRuntimeError: MPS "
        "backend out of memory (MPS allocated: 72.40 GB, other allocations: 15.71 GB, max allowed: "
        "81.60 GB). Tried to allocate 256 bytes on shared pool. Use "
        "PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper limit for memory allocations (may "
        "cause system failure).",
        "memory.out-of-memory",
        "https://github.com/BoBo0037/bobo-fun/issues/8",
    ),
    (
        "MPS memory issue, MPS backend out of memory, but works if I empty the MPS cache",
        "memory.out-of-memory",
        "https://github.com/pytorch/pytorch/issues/105839",
    ),
    (
        "ollama ps runtime shows using GPU but actually logs using cpu",
        "app.ollama.model-unloaded-when-idle",
        "https://github.com/ollama/ollama/issues/10369",
    ),
    # the web UI loading a checkpoint into system RAM, not the GPU's memory
    (
        "Loading large models will consume too much RAM, causing low RAM devices to crash",
        "memory.out-of-memory",
        "https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/3143",
    ),
    # the llama.cpp log line shared with Ollama: an Ollama report keeps Ollama's cause
    (
        'GPU NOT used during "normal generation" when ONE LAYER offloaded (But GPU used in prompt '
        "evaluation)\nI am using a GGUF version of dolphin-2.2-mistral-7B-GGUF "
        "(dolphin-2.2-mistral-7b.Q8_0.gguf) and have offloaded **ONLY ONE LAYER** of the model on "
        'the GPU using the "n-gpu-layers" options (since I am using a GPU having 2GB VRAM I can '
        "not offload anymore without getting a CUDA out of memory error during inference)",
        "app.ollama.partial-offload",
        "https://github.com/ggml-org/llama.cpp/issues/3860",
    ),
]

# a bare title may reach no cause at all; it must only not lead with the tempting one
TITLE_ONLY = {"https://github.com/ollama/ollama/issues/10369"}

# the shared names tests/test_field_fixes.py reads
REPORTS_ROWS = CASES
OTHER_ROWS = OTHER_CAUSE
MAY_BE_EMPTY = TITLE_ONLY
