"""Round 8 prose survey, second pass, of the application and accelerator families: more ways
users DESCRIBE these causes in words (an issue title and its first sentences, English and
Chinese), other than the first pass's (tests/test_field_prose_apps.py). Each text is quoted
verbatim from the thread named beside it (issue-template headings left out), whose cause the
thread confirmed. An accepted cause must be among the first three findings and, where the text
gives enough facts, its fixes must name the knob the thread's fix turned on. The second table
holds descriptions of OTHER causes that a cue of these families could wrongly lift: the
tempting cause must not rank first on them.

Data only: tests/test_field_prose_apps.py runs these with the first pass's.
"""

from __future__ import annotations

GH = "https://github.com/"

# (verbatim text, accepted ids, source URL, knob the fix names or None)
DESCRIPTIONS: list[tuple[str, tuple[str, ...], str, str | None]] = [
    # ---------------------------------------------------------------- GPU applications: a CPU torch
    (
        "Windows环境，单独使用命令行为啥都只能用CPU渲染？\n使用python inference.py命令，看到CPU上升，"
        "但是GPU没有上升。\n本地已经安装了CUDA118。但是PIP环境中貌似torch是安装的2.0，是必须安装1.12.1 + "
        "CU113吗？",
        ("torch.cpu-build-on-gpu-host",),
        GH + "OpenTalker/SadTalker/issues/557",
        "download.pytorch.org",
    ),
    (
        "1、安装顺序：先whisperX，再PyTorch\n如果先安装PyTorch，然后whisperX，会发现安装好的pytorch被覆盖为 "
        "2.6.0+cpu False，并且报错：",
        ("torch.cpu-build-on-gpu-host",),
        GH + "m-bain/whisperX/issues/1117",
        "download.pytorch.org",
    ),
    (
        "torch.cuda.is_available()发现是False\nGPU版本的怎么安装？\nT4卡的服务器，直接按安装流程，上去就可以"
        "torch.cuda.is_available() 为True，所以我以为安装了直接就是GPU版本的了。\n后来我本地win10机器，"
        "本来就有cuda12.2，同样方法安装好后，torch.cuda.is_available() 就是False，不知道怎么办了。",
        ("torch.cpu-build-on-gpu-host",),
        GH + "THU-MIG/yolov10/issues/218",
        "download.pytorch.org",
    ),
    (
        "how to make gpt-sovits recognize my gpu?\ni just installed gpt-sovit manually and one thing "
        "that stood out is that there is no gpu name it says (0CPU)\nso does that mean i can't train "
        "model or what?",
        ("torch.cpu-build-on-gpu-host",),
        GH + "RVC-Boss/GPT-SoVITS/issues/2109",
        "download.pytorch.org",
    ),
    (
        "Whisper does not invoke the GPU; it uses the CPU instead\nThe openai-whisper package "
        "installed Torch without the CUDA version, but I installed Torch using",
        ("torch.cpu-build-on-gpu-host",),
        GH + "raryelcostasouza/pyTranscriber/issues/56",
        "download.pytorch.org",
    ),
    (
        "Not Using GPU (Windows)\nRunning on windows via miniconda3. I am using the large model and "
        "it is not touching my VRAM, just spiking my CPU to about 50%.",
        ("torch.cpu-build-on-gpu-host",),
        GH + "mallorbc/whisper_mic/issues/18",
        None,
    ),
    # ---------------------------------------------------------------- faster-whisper: cuDNN not found
    (
        "An error lead my Spyder to restart the kernel\nI'm attempting to install and utilize the "
        "`faster_whisper` package in a new environment on Anaconda.\nBefore I created a new "
        "environment in Anaconda, GPU support had already been installed on the system.\n"
        "Afterward, I configured the logging and followed the code usage guidelines in README.md. "
        "However, my spyder will restart the kernel after an INFO message `INFO:faster_whisper: "
        "Processing audio with duration 00:15.372`",
        ("cuda.cudnn-missing",),
        GH + "SYSTRAN/faster-whisper/issues/253",
        "cudnn",
    ),
    # ---------------------------------------------------------------- AMD GPUs with CUDA-only apps, in Chinese
    (
        "AMD卡不支持CUDA可以跑吗\n我的电脑用的是AMD显卡，请问predict_speech_file.py这个文件能跑起来吗",
        ("rocm.cuda-torch-on-amd",),
        GH + "nl8590687/ASRT_SpeechRecognition/issues/300",
        None,
    ),
    (
        "AMD显卡不能用吗？\n老久之前下载的老版本，可以跑起来，当时也是AMD显卡，是使用CPU进行图像识别的\n"
        "最近拉了下最新版代码，发现我电脑用不了，最新版不能使用CPU识别图像了，强制要求GPU，怎么办？",
        ("rocm.cuda-torch-on-amd",),
        GH + "lazydog28/mc_auto_boss/issues/121",
        None,
    ),
    (
        "让A卡在windows下跑cuda\nAMD好像在最近放出了个sdk\n能让A卡变相跑cuda\n而且支持在win下运行\n"
        "希望能够支持",
        ("rocm.cuda-torch-on-amd",),
        GH + "dmMaze/BallonsTranslator/issues/193",
        None,
    ),
    # ---------------------------------------------------------------- Intel Arc with a CUDA-only app
    (
        "Unfortunately, there is no compatible GPU available to support your training. 怎么办？？\n"
        "我用的gpu是Intel Arc Graphic AI卡",
        ("intel.ipex-cpu-only-build",),
        GH + "RVC-Boss/GPT-SoVITS/issues/883",
        None,
    ),
    (
        "Intel Arc A770 - RuntimeError: No CUDA GPUs are available\nI recently bought the new intel "
        "gpu due to the 16gb of VRAM that it has in order to be able to generate the regularization "
        "images. However when running stable_txt2img.py I get a runtime error saying that no CUDA "
        "GPUs are available. Is it only possible to run this with an Nvidia GPU?",
        ("intel.ipex-cpu-only-build",),
        GH + "XavierXiao/Dreambooth-Stable-Diffusion/issues/114",
        "xpu",
    ),
    # ---------------------------------------------------------------- ROCm: GPUs outside its list
    (
        "ROCm dose not detect my GPU ( AMD Radeon R7 M265)\nenter in terminal 'rocm-smi' and says "
        "No AMD GPUs specified",
        ("rocm.gfx-unsupported",),
        GH + "ROCm/legacy-rocm-build/issues/1492",
        "vulkan",
    ),
    (
        "ROCm support for AMD Radeon PRO W6600\nIf ROCm can support AMD Radeon PRO W6600? If not, "
        "is there an AMD GPU type support list ?",
        ("rocm.gfx-unsupported",),
        GH + "ROCm/ROCm-docker/issues/105",
        None,
    ),
    # ---------------------------------------------------------------- Ollama on an AMD GPU
    (
        "AMD Gpu RX 6600 on WIndows 10\nI'm having trouble using my AMD GPU RX 6600 on Windows 10 "
        "with Ollama. Could someone please assist me and provide any workarounds to make this AMD "
        "GPU RX 6600 function?",
        ("app.ollama-amd-unsupported-gfx",),
        GH + "ollama/ollama/issues/4335",
        None,
    ),
    # ---------------------------------------------------------------- llama.cpp / llama-cpp-python
    (
        "请问使用 llama.cpp推理模型是否支持GPU加速",
        ("app.llamacpp.cpu-build-on-gpu-host", "app.llamacpp.gpu-layers-not-set"),
        GH + "ymcui/Chinese-LLaMA-Alpaca/issues/853",
        None,
    ),
    (
        "您好 ，请问我使用 llama.cpp推理模型是否支持GPU加速，目前执行如下脚本，只使用了cpu资源，gpu资源未被"
        "调用，每轮propmt耗时比较久， CPU是4核32G，GPU是A100 32G",
        ("app.llamacpp.cpu-build-on-gpu-host", "app.llamacpp.gpu-layers-not-set"),
        GH + "ymcui/Chinese-LLaMA-Alpaca/issues/853",
        None,
    ),
    (
        "Issue: LlamaCPP still uses cpu after passing the n_gpu_layer param",
        ("app.llamacpp.cpu-build-on-gpu-host",),
        GH + "langchain-ai/langchain/issues/5187",
        "GGML_CUDA",
    ),
    (
        "GPU usage 0 even with n_gpu_layers.\nGPU usage doesn't change and my Local Llama model only "
        "runs under CPU",
        ("app.llamacpp.cpu-build-on-gpu-host",),
        GH + "langchain-ai/langchain/issues/10276",
        "GGML_CUDA",
    ),
    (
        "CUDA unsupported, installation bypasses CUDA at all\nAlthough llama.cpp is installed "
        "perfectly and uses my GPU (RTX 4000), the Python bindings don't use the GPU. They stick "
        "with the CPU. I also had no impression that any CUDA-related libraries were used during "
        "the installation of this package.",
        ("app.llamacpp.cpu-build-on-gpu-host",),
        GH + "abetlen/llama-cpp-python/issues/1693",
        "GGML_CUDA",
    ),
    (
        "This plugin doesn't use the GPU.\nSo I wound up tinkering with llm / llm-gguf tonight, and "
        "I realized that it wasn't utilizing my RTX 4080 16GB GPU, even though I had compiled the "
        "llama-cpp-python library with CUDA support.",
        ("app.llamacpp.gpu-layers-not-set",),
        GH + "simonw/llm-gguf/issues/8",
        "n_gpu_layers",
    ),
    # ---------------------------------------------------------------- bitsandbytes on a Mac
    (
        'GPU is needed for quantization in M2 MacOS\nI am getting this issue " No GPU found. A GPU '
        'is needed for quantization." for the following code snippet trying to be implemented in '
        "M2 MacOS that has 12 CPU and 38 GPU in it. How is QLORA/quantization will work on M2 MacOS "
        'systems that has "mps" in it?',
        ("bitsandbytes.apple-silicon-unsupported",),
        GH + "huggingface/transformers/issues/23970",
        "mps",
    ),
    # ---------------------------------------------------------------- Jetson: PyPI's CPU wheel
    (
        "On jetson AGX Orin no gpu used to train policy : We recommend that you migrate to "
        "TorchCodec\n- PyTorch version: 2.7.1+cpu\n- Is PyTorch built with CUDA support?: False",
        ("jetson.pypi-wheel",),
        GH + "huggingface/lerobot/issues/2363",
        "nv_tegra_release",
    ),
    # ---------------------------------------------------------------- torch.compile on Windows
    (
        "RuntimeError: Windows not yet supported for torch.compile,将def _load()里面的compile 改为False "
        "无效，还是弹这个错误信息",
        ("torch.triton-missing",),
        GH + "2noise/ChatTTS/issues/145",
        None,
    ),
    (
        "only support windows,very not friendly\nwindows not yet supported for torch.compile "
        "该怎么解决，在windows下运行",
        ("torch.triton-missing",),
        GH + "Lornatang/ESRGAN-PyTorch/issues/38",
        None,
    ),
    (
        'Windows not yet supported for torch.compile\nraise RuntimeError("Windows not yet '
        'supported for torch.compile")\nRuntimeError: Windows not yet supported for torch.compile\n\n'
        "I get this error, is that means torch.compile can not support Windows?",
        ("torch.triton-missing",),
        GH + "haoheliu/AudioLDM2/issues/39",
        None,
    ),
    # ---------------------------------------------------------------- vLLM on native Windows: the missing vllm._C
    (
        "ModuleNotFoundError: No module named 'vllm._C'\nwindows上运行报错\n请问如何解决？",
        ("vllm.windows-native-unsupported",),
        GH + "Ksuriuri/index-tts-vllm/issues/6",
        "WSL",
    ),
    (
        "[Installation]: installation succeeded but No module named 'vllm._C'\nMy operation system "
        "is Windows, and i use anaconda3 to manage my virtual environment and site-packages. I "
        "create a new virtual environment with python 3.10.",
        ("vllm.windows-native-unsupported",),
        GH + "vllm-project/vllm/issues/15286",
        "WSL",
    ),
    (
        "vllm serve fails with ModuleNotFoundError: No module named 'vllm._C'\nI am following "
        "installation guide on Windows 11 x64.",
        ("vllm.windows-native-unsupported",),
        GH + "microsoft/fara/issues/28",
        "WSL",
    ),
    # ---------------------------------------------------------------- ComfyUI on AMD GPUs
    (
        "Amd显卡\nFound no NVIDIA driver on your system. Please check that you have an NVIDIA GPU "
        "and installed a driver from http://www.nvidia.com/Download/index.aspx",
        ("rocm.cuda-torch-on-amd",),
        GH + "Comfy-Org/ComfyUI/issues/8638",
        None,
    ),
    # the answer: too old, ROCm support starts at GCN 5 and the RX 580 is GCN 4
    (
        "AMD RX580 can use comfyui ?\nAMD RX580 can use comfyui ?   @ComfyUI-Community",
        ("rocm.gfx-unsupported",),
        GH + "Comfy-Org/ComfyUI/issues/14780",
        "directml",
    ),
    # ---------------------------------------------------------------- Ollama: part of the model on the CPU
    (
        "请问，我想让ollama每次调用模型的时候，默认全部加载到GPU，有什么办法吗？\n每次调用的时候，经常会出现，"
        "GPU调用不到百分百，有时候一半CPU，一般GPU，有的时候甚至全部调用CPU，有办法强制只调用GPU吗？",
        ("app.ollama.partial-offload",),
        GH + "ollama/ollama/issues/7479",
        None,
    ),
    (
        "ollama is using too much CPU\nThe num_gpu parameter is set to default to 1, which means "
        "that ollama will only load one layer of the model to the GPU.",
        ("app.ollama.partial-offload",),
        GH + "archi-physics/archi/issues/272",
        "num_gpu",
    ),
    # ---------------------------------------------------------------- Apple silicon: an app hard-wired to CUDA
    (
        "10s_distil on CPU\nIs there a way to run any of the models on a CPU or the built-in mps GPU "
        "in Mac Pro M3?\n```\nUser provided device_type of 'cuda', but CUDA is not available\n```\n"
        "```\nAssertionError: Torch not compiled with CUDA enabled\n```",
        ("macos.cuda-requested",),
        GH + "kandinskylab/kandinsky-5/issues/36",
        "mps",
    ),
    # ---------------------------------------------------------------- the app's own words: it chose the CPU
    (
        "Chosen device: cpu\n我的显卡是4080 16G 运行时却选择了cpu指令如下",
        ("torch.cpu-build-on-gpu-host",),
        GH + "Tongyi-MAI/Z-Image/issues/79",
        "download.pytorch.org",
    ),
    # resolved by redeploying with a torch build for CUDA 12.1
    (
        "Usage (in WebUI) 遇到提示Torch not compiled with CUDA enabled的错误，我已经按照要求安装了cuda12.3，"
        "请问这是什么导致的呢",
        ("torch.cpu-build-on-gpu-host",),
        GH + "modelscope/DiffSynth-Studio/issues/114",
        "download.pytorch.org",
    ),
    (
        "I use python's llama-cpp package to run the code. There is a cuda environment and the "
        "contents of llama.cpp (compiled), but I still cannot use the GPU.",
        ("app.llamacpp.cpu-build-on-gpu-host", "app.llamacpp.build-flag-renamed"),
        GH + "ggml-org/llama.cpp/issues/6898",
        "GGML_CUDA",
    ),
]

# (verbatim text, the tempting cause that must NOT rank first, source URL)
# Two more belong here but still fail because a general prose form of the CPU-only torch build
# (not of these families) ranks first: "No GPU found. A GPU is needed for quantization" on an M2
# Mac (transformers#23970, right cause second) and a 3070 whose VRAM fills while the CPU computes
# (ollama#3837: a model larger than VRAM, the text never says Ollama).
NOT_FIRST: list[tuple[str, str, str]] = [
    (
        "部署Qwen-14B-Chat-Int4，推理时GPU几乎不工作，CPU小量工作就输出了，这种情况是性能冗余吗？那么能否加速推理"
        "的速度？如何做？",
        "torch.cpu-build-on-gpu-host",
        GH + "QwenLM/Qwen/issues/362",
    ),
    (
        "Macbook M1 Max und PyTorch\nHow can I enable the GPU of a Macbook M1 Max?\nPyTorch with "
        "Apple's Metal Performance Shaders (MPS) is installed. https://pytorch.org/get-started/"
        'locally/\nThe flag "-m gpu" does not bring GPU support. Only the CPU is used.',
        "torch.cpu-build-on-gpu-host",
        GH + "tfaehse/DashcamCleaner/issues/76",
    ),
    (
        "Macbook M1 Max und PyTorch\nHow can I enable the GPU of a Macbook M1 Max?\nPyTorch with "
        "Apple's Metal Performance Shaders (MPS) is installed. https://pytorch.org/get-started/"
        'locally/\nThe flag "-m gpu" does not bring GPU support. Only the CPU is used.',
        "bitsandbytes.apple-silicon-unsupported",
        GH + "tfaehse/DashcamCleaner/issues/76",
    ),
    (
        "how to make gpt-sovits recognize my gpu?\ni just installed gpt-sovit manually and one thing "
        "that stood out is that there is no gpu name it says (0CPU)\nso does that mean i can't train "
        "model or what?",
        "intel.ipex-cpu-only-build",
        GH + "RVC-Boss/GPT-SoVITS/issues/2109",
    ),
    (
        "AMD Gpu RX 6600 on WIndows 10\nI'm having trouble using my AMD GPU RX 6600 on Windows 10 "
        "with Ollama. Could someone please assist me and provide any workarounds to make this AMD "
        "GPU RX 6600 function?",
        "rocm.hsa-override-misapplied",
        GH + "ollama/ollama/issues/4335",
    ),
    (
        "Intel Arc A770 - RuntimeError: No CUDA GPUs are available\nI recently bought the new intel "
        "gpu due to the 16gb of VRAM that it has in order to be able to generate the regularization "
        "images. However when running stable_txt2img.py I get a runtime error saying that no CUDA "
        "GPUs are available. Is it only possible to run this with an Nvidia GPU?",
        "cuda.visible-devices-hide-gpus",
        GH + "XavierXiao/Dreambooth-Stable-Diffusion/issues/114",
    ),
    (
        "ROCm dose not detect my GPU ( AMD Radeon R7 M265)\nenter in terminal 'rocm-smi' and says "
        "No AMD GPUs specified",
        "app.ollama-amd-unsupported-gfx",
        GH + "ROCm/legacy-rocm-build/issues/1492",
    ),
    (
        "AMD显卡不能用吗？\n老久之前下载的老版本，可以跑起来，当时也是AMD显卡，是使用CPU进行图像识别的\n"
        "最近拉了下最新版代码，发现我电脑用不了，最新版不能使用CPU识别图像了，强制要求GPU，怎么办？",
        "app.ollama.partial-offload",
        GH + "lazydog28/mc_auto_boss/issues/121",
    ),
    (
        "An error lead my Spyder to restart the kernel\nI'm attempting to install and utilize the "
        "`faster_whisper` package in a new environment on Anaconda.\nBefore I created a new "
        "environment in Anaconda, GPU support had already been installed on the system.",
        "torch.cpu-build-on-gpu-host",
        GH + "SYSTRAN/faster-whisper/issues/253",
    ),
    (
        "This plugin doesn't use the GPU.\nSo I wound up tinkering with llm / llm-gguf tonight, and "
        "I realized that it wasn't utilizing my RTX 4080 16GB GPU, even though I had compiled the "
        "llama-cpp-python library with CUDA support.",
        "app.llamacpp.cpu-build-on-gpu-host",
        GH + "simonw/llm-gguf/issues/8",
    ),
    (
        "GPU usage 0 even with n_gpu_layers.\nGPU usage doesn't change and my Local Llama model only "
        "runs under CPU",
        "app.llamacpp.gpu-layers-not-set",
        GH + "langchain-ai/langchain/issues/10276",
    ),
    (
        "1、安装顺序：先whisperX，再PyTorch\n如果先安装PyTorch，然后whisperX，会发现安装好的pytorch被覆盖为 "
        "2.6.0+cpu False，并且报错：",
        "cuda.cudnn-mismatch",
        GH + "m-bain/whisperX/issues/1117",
    ),
    (
        "RuntimeError: Windows not yet supported for torch.compile,将def _load()里面的compile 改为False "
        "无效，还是弹这个错误信息",
        "vllm.windows-native-unsupported",
        GH + "2noise/ChatTTS/issues/145",
    ),
    (
        "[Installation]: installation succeeded but No module named 'vllm._C'\nMy operation system "
        "is Windows, and i use anaconda3 to manage my virtual environment and site-packages. I "
        "create a new virtual environment with python 3.10.",
        "vllm.compiled-ops-not-built",
        GH + "vllm-project/vllm/issues/15286",
    ),
    (
        "AMD RX580 can use comfyui ?\nAMD RX580 can use comfyui ?   @ComfyUI-Community",
        "rocm.hsa-override-misapplied",
        GH + "Comfy-Org/ComfyUI/issues/14780",
    ),
]
