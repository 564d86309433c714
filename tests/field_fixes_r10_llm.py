"""Round 10 field survey (llm): do the fixes of the cause a real report reaches name the knob its
confirmed fix turned on?

Families: Ollama (a long context that pushes the model off the GPU, partial offload), llama.cpp /
llama-cpp-python (a CPU-only build, GGML_CUDA, a cached CPU wheel), LM Studio (the GPU runtime /
engine), bitsandbytes (Windows before its native Windows wheels), Intel XPU / Arc (the oneAPI
environment on Windows, a CUDA torch wheel where the XPU one was meant).

Every text is copied verbatim from the public thread named beside it (the reporter's own words:
an issue title, error lines and the facts they gave, never the answer), and each thread holds a
confirmed fix: the reporter says it worked, or a maintainer states cause and fix. The knob is the
thing that fix turned on; the accepted cause must be among the first three findings of
`triage_text(text)` and its fixes must name the knob (any case). The second table holds reports
whose cause is something else, which a cue added for the first table could wrongly catch.
"""

from __future__ import annotations

OLLAMA_SPLIT = ("app.ollama.partial-offload", "app.ollama-cpu-fallback")
OLLAMA_CTX = ("app.ollama.partial-offload",)
LLAMACPP_CPU = ("app.llamacpp.cpu-build-on-gpu-host",)
LMSTUDIO_RT = ("app.lmstudio.gpu-runtime",)
ONEAPI = ("intel.oneapi-not-sourced",)
XPU_WHEEL = ("intel.xpu-without-runtime", "intel.ipex-cpu-only-build")
BNB_WIN = ("bitsandbytes.windows-unsupported",)

# (text, accepted ids, source URL, knob the confirmed fix turned on)
CASES = [
    # ------------------------------------------------------------ Ollama: a long context
    (
        "num_ctx forces entire model to CPU\nApologies if this is covered somewhere, but I "
        "couldn't find any documentation for it and it doesn't seem intended.\n\nFor context, my "
        'GPU has 8GB VRAM, and the model I "discovered" this with was `llama3.2:3b-instruct-q8_0`, '
        "but it seems to occur for any other.\n\n`ollama ps` shows the model as `3.4 GB`\n\nWhen "
        "doing an API request without `num_ctx`, 100% of the model is loaded on the GPU.",
        OLLAMA_CTX,
        "https://github.com/ollama/ollama/issues/7198",
        "num_ctx",
    ),
    (
        "a model run at GPU and another model run at CPU\nIn docker, I copy the model from "
        "deepseek-r1:32b ,Add 2 parameter \nPARAMETER num_ctx 131072\nPARAMETER num_predict -1\nin "
        "Modelfile,\nnamed new model deepseek-r1:32b-max-context.\n\nrun "
        'deepseek-r1:32b-max-context,\nthen "ollama ps ":\nthe processors is 100%CPU,\nrun '
        'deepseek-r1:32b,\nthen "ollama ps ":\nthe processors is 100%GPU,',
        OLLAMA_CTX,
        "https://github.com/ollama/ollama/issues/9902",
        "num_ctx",
    ),
    (
        "Qwen3 Coder 480B on 8x GPU server only goes to CPU\nSystem is an 8x RTX 6000 build, 768GB "
        "of VRAM, when I use llama.cpp it works fine, when I use ollama, it continues to dump the "
        "model to CPU only and not use GPU at all saying that it can't load any layers to GPU when "
        "it shows clearly in the log that it has plenty of VRAM, and the layer size is only 8.6GB a "
        "piece.",
        OLLAMA_SPLIT,
        "https://github.com/ollama/ollama/issues/12389",
        "num_ctx",
    ),
    (
        "num_ctx causes 100% CPU with no GPU usage\nive tried to create a new model recently with "
        "only the parameter num_ctx, when I run the models it shows 100% CPU with no GPU usage, even "
        "if the model was too big I would assume it would report GPU/CPU 100%/???%\n\n### OS\n\n"
        "Docker\n\n### GPU\n\nNvidia\n\n### CPU\n\nIntel\n\n### Ollama version\n\n0.4.0",
        OLLAMA_CTX,
        "https://github.com/ollama/ollama/issues/7576",
        "num_ctx",
    ),
    (
        "GPT-OSS:20b offloaded partially to CPU despite enough VRAM\nI have a 16gb Nvidia GPU, but "
        "Ollama doesn't use all available VRAM unless I specify number of layers to use in "
        "OpenWebui.",
        OLLAMA_SPLIT,
        "https://github.com/ollama/ollama/issues/11747",
        "update ollama",
    ),
    # ------------------------------------------------------------ llama-cpp-python: a CPU build
    (
        "Running with CPU not GPU (llama-ccp-python not using CUDA). My fix and suggestion.\n"
        "**Problem/solution**\n2 other threads have identified the problem of using CPU instead of "
        "GPY, each with a fix the author found for their hardware.\n\nMy system is Ubuntu / Cu128, "
        "python 3.12, blackwell , ComfUI running in venv.",
        LLAMACPP_CPU,
        "https://github.com/SeargeDP/ComfyUI_Searge_LLM/issues/54",
        "GGML_CUDA",
    ),
    (
        "Node working well, just a comment re llama-cpp-python using CPU instead of GPU, and a Q "
        "on expected run duration.\nIn short, I was facing issues with llama-cpp-python using CPU "
        "not GPU in another LLM node",
        LLAMACPP_CPU,
        "https://github.com/1038lab/ComfyUI-MiniCPM/issues/16",
        "--force-reinstall",
    ),
    # ------------------------------------------------------------ LM Studio: the GPU runtime
    (
        "GPU Offload is inactive in version 0.2.25, but I can select it in 0.2.24\n"
        "vicuna-13b-v1.5.Q5_K_M\nAMD RX 6600 XT",
        LMSTUDIO_RT,
        "https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/40",
        "extension pack",
    ),
    (
        'NVidia GPU & Cuda 12.8 installed, Runtime updated to "CUDA 12 llama.cpp (Linux) v1.48.0" '
        "but only Vulkan detected in LM studio",
        LMSTUDIO_RT,
        "https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/966",
        "engine",
    ),
    (
        "LM Studio is unable to detect any compatible GPUs on my machine.\nI am running LM Studio on "
        "my laptop with an AMD Ryzen 3 5000 series CPU and AMD Radeon graphics. Whenever i launch "
        "lm studio and try selecting gpu offload, the option is grayed out. And i get the error "
        "message 'We are unable to detect any compatible GPUs on your machine, so GPU acceleration "
        "is disabled. If you believe this is a bug, please let us know on Discord or by emailing "
        "team@lmstudio.ai.'",
        LMSTUDIO_RT,
        "https://github.com/lmstudio-ai/.github/issues/61",
        "update lm studio",
    ),
    # ------------------------------------------------------------ Intel XPU / Arc
    (
        "[Issue]: IPEX Error loading c10_xpu.dll\nI recently installed SD.NEXT and have not been "
        "able to get it to run successfully. Every time I run it I get an error around the loading "
        "of C10_xpu.dll.",
        ONEAPI,
        "https://github.com/vladmandic/sdnext/issues/3548",
        "vars.bat",
    ),
    (
        "Docker Compose XPU profile builds CUDA PyTorch (+cu130) instead of XPU PyTorch on Intel "
        "Arc\nThe Docker Compose `xpu` profile does not produce an Intel XPU-enabled PyTorch "
        "environment.\n\ntorch: 2.11.0+cu130\ntorch.xpu.is_available(): False\n\nebook2audiobook "
        "subsequently reports that XPU is unsupported and falls back to CPU.",
        XPU_WHEEL,
        "https://github.com/DrewThomasson/ebook2audiobook/issues/2055",
        "whl/xpu",
    ),
    # ------------------------------------------------------------ bitsandbytes on Windows
    (
        "Problem with environment variables on Windows platform\n(venv) "
        "d:\\AI\\AUTOMATIC1111>python -m bitsandbytes\nFalse\n\nThe following directories listed "
        "in your path were found to be non-existent: {WindowsPath('tmp/restart')}\nCUDA_SETUP: "
        "WARNING! libcudart.so not found in any environmental path. Searching in backup paths...\n"
        "The following directories listed in your path were found to be non-existent: "
        "{WindowsPath('/usr/local/cuda/lib64')}\nDEBUG: Possible options found for libcudart.so: "
        "set()",
        BNB_WIN,
        "https://github.com/bitsandbytes-foundation/bitsandbytes/issues/811",
        "0.43",
    ),
]

# Reports whose cause is another one: (text, the cause a cue could be tempted by, source URL)
OTHER_CAUSE = [
    # the user wants Ollama on the CPU: nothing is wrong with the context or the offload
    (
        "Is it possible to force ollama to run on CPU instead of GPU?\nFor benchmarking reasons, "
        "to measure ollama performance on CPU, I need to force ollama to run on CPU.\nHowever, I "
        "just could not do that. It keeps using GPU, so I am not able to measure its performance "
        "on CPU.",
        "app.ollama.partial-offload",
        "https://github.com/ollama/ollama/issues/9046",
    ),
    # no GPU at all: the CPU is simply the bottleneck
    (
        "Ollama only runs off CPU in Ubuntu\nI am trying to run Dolphin Mistral on CPU and RAM (no "
        "GPU) I have 188gb available but it uses 100% of the CPU at full capacity. Before this I was "
        "running it on a virtual machine with the same OS and it used RAM.",
        "app.ollama.partial-offload",
        "https://github.com/ollama/ollama/issues/2993",
    ),
    (
        "ollama barely uses any Ram\nI run ollama on docker and use mostly 7b models. But my Ram "
        "usage stays under 4 GB. Sometimes even below 3 GB.\n\nBut the recommendations are 8 GB of "
        "Ram.\n\nIt has 4 Core CPU, and it generates very slow even though I got 24 GB of Ram. I "
        "don't have a Video Card, though.",
        "app.ollama.partial-offload",
        "https://github.com/ollama/ollama/issues/1867",
    ),
    # LM Studio's offload slider had reset to fewer layers: not a missing GPU runtime
    (
        "Apparent performance issue on local GPU\nHello, I noticed that token generation on local "
        "GPU is accelerated but still slower than using a similar frontend also powered by "
        "llama.cpp that uses the http server and streams the output.\n\nRunning lm studio 0.3.0 on "
        "Windows 10.0.19045.4651 using NVIDIA GeForce RTX 2060 (6GB). Model fits on GPU.",
        "app.lmstudio.gpu-runtime",
        "https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/88",
    ),
    # a 20 GB model on an 8 GB card: too many layers asked for, not a missing runtime
    (
        "[BUG] Qwen3-48B-A4B GGUFモデルでCUDAオフロードが機能しない (v0.3.36)\nGPU: NVIDIA GeForce "
        "RTX 4060 (VRAM 8 GB)\nLM Studio バージョン: 0.3.36 (Build 1)\n使用エンジン: GGUF / CUDA 12 "
        "llama.cpp (Windows) v1.65.0\n問題が発生しているモデル:\n"
        "qwen3-48b-a4b-deadpan-savant-12x-closed-open-source-distill-i1 (形式: Q4_K_M, ファイル"
        "サイズ: 約20.41 GB)",
        "app.lmstudio.gpu-runtime",
        "https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/1330",
    ),
    # IPEX with an iGPU and a dGPU: the wrong device is xpu:0, not a missing oneAPI environment
    (
        "LangChain-Chatchat shows RuntimeError: could not create a primitive\ni'm using NUC with "
        "win 11 on ARC 770 (driver version: 31.0.101.5379) and UHD Graphics 770 (iGPU). Shows error "
        "(RuntimeError: could not create a primitive) by following up the latest instruction of "
        "LangChain-ChatChat. please see below capture. ARC 770 is on device 0.",
        "intel.oneapi-not-sourced",
        "https://github.com/intel/ipex-llm/issues/10605",
    ),
]

# a short report may reach no cause at all; it must only not lead with the tempting one
MAY_BE_EMPTY_URLS = {
    "https://github.com/ollama/ollama/issues/9046",
    "https://github.com/ollama/ollama/issues/2993",
    "https://github.com/ollama/ollama/issues/1867",
    "https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/88",
    "https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/1330",
}

# the shared names tests/test_field_fixes.py reads
REPORTS_ROWS = CASES
OTHER_ROWS = OTHER_CAUSE
MAY_BE_EMPTY = MAY_BE_EMPTY_URLS
