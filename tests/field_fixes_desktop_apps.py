"""Round 9 field survey (desktop apps): end-user GPU applications and their bundles. Do the fixes of
the cause a real report reaches name the knob its confirmed fix turned on?

Families: ComfyUI (portable, python_embeded), stable-diffusion-webui and its AMD fork, Forge,
Fooocus, FaceFusion / roop / Deep-Live-Cam (onnxruntime-gpu against onnxruntime, CUDA and cuDNN
DLLs), Whisper front-ends on faster-whisper / CTranslate2 (cuDNN and cuBLAS versions), TTS and voice
apps (GPT-SoVITS, CosyVoice), and RTX 50 / GTX 10 cards against the torch wheel an app bundles.

Every text is copied verbatim from the public GitHub thread named beside it (the reporter's own
words: an issue title, error lines and the facts they gave, never the answer), and each thread
holds a confirmed fix: the reporter says it worked, or a maintainer states cause and fix. The knob
is the thing that fix turned on; the accepted cause must be among the first three findings of
`triage_text(text)` and its fixes must name the knob (any case). The second table holds reports
whose cause is something else, which a cue added for the first table could wrongly catch.
"""

from __future__ import annotations

ORT_CPU = ("onnxruntime.cpu-package-shadows-gpu", "onnxruntime.providers-not-requested")
ORT_DEPS = ("onnxruntime.cuda-deps-mismatch", "cuda.cudnn-missing", "cuda.cudnn-mismatch")
TOO_NEW = ("torch.gpu-too-new-for-build",)
TOO_OLD = ("torch.gpu-too-old-for-build",)
AMD = ("rocm.cuda-torch-on-amd",)
NO_NVIDIA = ("rocm.cuda-torch-on-amd", "nvidia.no-driver-bound")
CUDNN = ("cuda.cudnn-missing", "cuda.cudnn-mismatch", "ctranslate2.built-without-cuda")

# (text, accepted ids, source URL, knob the confirmed fix turned on)
CASES = [
    # ------------------------------------------------------------ FaceFusion: the CPU onnxruntime
    (
        "facefusion EXECUTION PROVIDERS NOT cuda options?\n\nmy pc is windows10, 2080Ti  install "
        "facefusion 2.1.3 version",
        ORT_CPU,
        "https://github.com/facefusion/facefusion/issues/278",
        "onnxruntime-gpu",
    ),
    (
        "not have cuda and tensorrt\n1.3.1   EXECUTION PROVIDERS only azure  and cpu,not have cuda "
        "and tensorrt",
        ORT_CPU,
        "https://github.com/facefusion/facefusion/issues/156",
        "onnxruntime-gpu",
    ),
    (
        "Only CPU shows as execution provider for 3.0.0\nwhen installing version 3.0.0 only CPU shows "
        "for execution provider, when trying to validate with conda list cudatoolkit command it "
        "doesnt show anything. i already installed cuda 12.4.1, made sure of the variables "
        "reinstalled all of it again and still doesnt show cuda and tensort as options.",
        ORT_CPU,
        "https://github.com/facefusion/facefusion/issues/771",
        "--onnxruntime cuda",
    ),
    # ------------------------------------------------------------ Whisper front-ends: cuDNN / cuBLAS
    (
        "RTX 50 Series Fix\nkept getting these errors...\n\nCould not locate cudnn_ops_infer64_8.dll. "
        "Please make sure it is in your library path!\nCould not locate cublasLt64_12.dll. Please "
        "make sure it is in your library path!\n\nUserWarning:\nNVIDIA GeForce RTX 5080 with CUDA "
        "capability sm_120 is not compatible with the current PyTorch installation.\nThe current "
        "PyTorch install supports CUDA capabilities sm_37 sm_50 sm_60 sm_61 sm_70 sm_75 sm_80 sm_86 "
        "sm_90 compute_37.",
        TOO_NEW,
        "https://github.com/Pikurrot/whisper-gui/issues/45",
        "cu128",
    ),
    (
        "Unable to load any of {libcudnn_ops.so.9.1.0, libcudnn_ops.so.9.1, libcudnn_ops.so.9, "
        "libcudnn_ops.so} Invalid handle. Cannot load symbol cudnnCreateTensorDescriptor\nplease help"
        "\nIt was working perfectly, but suddenly this error appeared on Tuesday. Btw I am using it on "
        "runpod instance.",
        CUDNN,
        "https://github.com/MahmoudAshraf97/whisper-diarization/issues/259",
        "libcudnn9-cuda-12",
    ),
    # ------------------------------------------------------------ AMD GPUs in CUDA-only apps
    (
        "[Bug]: --use-directml doesn't work anymore on AMD, without it it runs correctly on CPU, "
        "clean installation of directml stable diffusion\nEdit `webui.bat`: added in the top `set "
        "COMMANDLINE_ARGS= --backend directml`.\nRun webui.bat.\nAnd received error:\nRuntimeError: "
        "Torch is not able to use GPU; add --skip-torch-cuda-test to COMMANDLINE_ARGS variable to "
        "disable this check\nWin10, Python 3.10.6, Radeon RX 580 2048SP.",
        AMD,
        "https://github.com/lshqqytiger/stable-diffusion-webui-amdgpu/issues/469",
        "--use-directml",
    ),
    (
        "[Bug]: RunTime Error: Found no NVIDIA driver in your system.\nCan't launch the application "
        "as it runs into error while loading saying that it cant find NVIDIA driver. This is correct "
        "since I don't have NVIDIA GPU. But I can't imagine that the application cant be run without "
        "that?\n### What browsers do you use to access Fooocus?\nGoogle Chrome\nRuntime error: Found "
        "no NVIDIA driver on your system. Please check that you have an NVIDIA driver.",
        NO_NVIDIA,
        "https://github.com/lllyasviel/Fooocus/issues/3737",
        "--directml",
    ),
    # ------------------------------------------------------------ RTX 50 / GTX 10 against the bundled torch
    (
        "[Bug]: RuntimeError: CUDA error\nHello. I need some advice. When I try to generate an image, "
        "I get this error.\nRuntimeError: CUDA error: no kernel image is available for execution on "
        "the device CUDA kernel errors might be asynchronously reported at some other API call, so "
        'the stacktrace below might be incorrect.\n"nvidia_gpu_models": "GPU 0: NVIDIA GeForce RTX '
        '5060 Ti",',
        TOO_NEW,
        "https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/17199",
        "cu128",
    ),
    # ------------------------------------------------------------ Deep-Live-Cam: both onnxruntime wheels
    (
        "The program does not use GPU acceleration.\nHello! The program is work but dont use my rtx "
        "3080 cause i checked it load its idling. The fps is very baad... I installed nvidia toolkit "
        "and pip install onnxruntime-gpu==1.16.3",
        ORT_CPU,
        "https://github.com/hacksider/Deep-Live-Cam/issues/163",
        "pip uninstall -y onnxruntime onnxruntime-gpu",
    ),
    # ------------------------------------------------------------ an upscaler out of GPU memory
    (
        "CUDA out of memory on NVIDIA 3070 8GB\n[python] [upscale] Real-ESRGAN failed: CUDA out of "
        "memory. Tried to allocate 2.68 GiB. GPU 0 has a total capacity of 7.63 GiB of which 1.61 GiB "
        "is free. Process 16904 has 6.00 GiB memory in use. Of the allocated memory 4.21 GiB is "
        "allocated by PyTorch, and 1.61 GiB is reserved by PyTorch but unallocated.",
        ("memory.out-of-memory", "memory.workload-does-not-fit", "memory.allocator-fragmentation"),
        "https://github.com/snapotter-hq/SnapOtter/issues/191",
        "tile",
    ),
]

# Reports whose cause is another one: (text, the cause a cue could be tempted by, source URL)
OTHER_CAUSE: list[tuple[str, str, str]] = [
    # onnxruntime-gpu is installed; its CUDA / cuDNN DLLs do not load: not the CPU wheel
    (
        "Error code\nWhen i run  deep live cam, choose a picture and click on live i get this error "
        "code \n\nRuntimeError: D:\\al_work\\l\\s\\onnxruntime\\python\\onnxruntine_pybind_state.cc:743 "
        "onnxruntime::pythoni:CreateExecution provider instance CUDA PATH is set but CUDA wasn't able "
        "to be loaded, Please install the correct version of CUDA and CuDNN as mentioned in the GPU "
        "requirenents page\nI have onnxruntime 1.16 and cuda 11.8",
        "onnxruntime.cpu-package-shadows-gpu",
        "https://github.com/hacksider/Deep-Live-Cam/issues/1103",
    ),
    (
        "CUDA_PATH is set but CUDA wasnt able....\nAs i can see the cpu usage is 100% when running GPU "
        "is not utilized at all.\nI installed CUDA 11.8 and cudnn 8.7.0\nFAIL : LoadLibrary failed "
        'with error 126 "" when trying to load "C:\\Users\\30346\\AppData\\Local\\Programs\\Python\\'
        'Python311\\Lib\\site-packages\\onnxruntime\\capi\\onnxruntime_providers_cuda.dll"',
        "onnxruntime.cpu-package-shadows-gpu",
        "https://github.com/C0untFloyd/roop-unleashed/issues/445",
    ),
    (
        'Some problems with "onnxruntime_providers_cuda.dll"\nMy "onnxruntime-gpu" version is '
        '**1.16.3**\n"CUDA Toolkit" version is **11.8**\nFAIL : LoadLibrary failed with error 126 '
        '"" when trying to load "G:\\python\\IDE\\Deep-Live-Cam-main\\lib\\site-packages\\onnxruntime'
        '\\capi\\onnxruntime_providers_cuda.dll"\nI can use it normally, but it run only CPU. GPU '
        "usage is 0%.\nApplied providers: ['CPUExecutionProvider'], with options: "
        "{'CPUExecutionProvider': {}}",
        "onnxruntime.cpu-package-shadows-gpu",
        "https://github.com/hacksider/Deep-Live-Cam/issues/477",
    ),
    (
        "Deep live cam works on CPU but not GPU\nI'm having issues with running Deep Live Cam on the "
        "GPU. It works fine on the CPU but I've tried on 2 completely different computers and have "
        "had exactly the same problem. I have tried installing cuDNN, which may have already been "
        "installed as it had no effect, CUDA version is correct at 11.8.",
        "onnxruntime.cpu-package-shadows-gpu",
        "https://github.com/hacksider/Deep-Live-Cam/issues/1035",
    ),
    # a GTX 10 card under a torch build that dropped it: too old, not too new
    (
        "CUDA error: no kernel image is available for execution on the device\n- NVIDIA GeForce GTX "
        "1080 Ti\n- Windows 10\n- 2.8.0+cu128",
        "torch.gpu-too-new-for-build",
        "https://github.com/Comfy-Org/ComfyUI/issues/9650",
    ),
    # no NVIDIA driver found on an Intel GPU: not an AMD one
    (
        "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA "
        "GPU and installed a driver from http://www.nvidia.com/Download/index.aspx\nIs there a way to "
        "use Fooocus from an Intel GPU. Was looking in the read.me section, but found no information "
        "about it.",
        "rocm.cuda-torch-on-amd",
        "https://github.com/lllyasviel/Fooocus/issues/1227",
    ),
    # an NVIDIA GPU on Ubuntu that the app does not find: not a machine without one
    (
        'Unfortunately there is no compatible GPU available to support your training.\nI see "No '
        'supported Nvidia GPU found, use CPU instead" and then "Unfortunately there is no '
        'compatible GPU available to support your training". I tried to install Torch but nothing '
        "helps.\nHas anyone had a similar problem, but on Ubuntu and Nvidia?",
        "rocm.cuda-torch-on-amd",
        "https://github.com/RVC-Project/Retrieval-based-Voice-Conversion-WebUI/issues/1230",
    ),
    # cuBLAS, not cuDNN
    (
        "RuntimeError: Library libcublas.so.12 is not found or cannot be loaded\nloading faster "
        'whisper model: large large\n  File "/home/heike/anaconda3/envs/GPT-SoVITS-beta0306/lib/'
        'python3.9/site-packages/faster_whisper/transcribe.py", line 762, in encode\n    return '
        "self.model.encode(features, to_cpu=to_cpu)\nRuntimeError: Library libcublas.so.12 is not "
        "found or cannot be loaded\nASR报错不知道怎么解决",
        "cuda.cudnn-missing",
        "https://github.com/RVC-Boss/GPT-SoVITS/issues/727",
    ),
    (
        "Error Encountered During Faster-Whisper Update (cublas64_12.dll Missing)\nI have tried "
        "updating to faster-whisper 1.0.1 but I have this error:\n\nError transcribing file on line "
        "Library cublas64_12.dll is not found or cannot be loaded",
        "cuda.cudnn-missing",
        "https://github.com/jhj0517/Whisper-WebUI/issues/111",
    ),
]

# a bare title may reach no cause at all; it must only not lead with the tempting one
TITLE_ONLY: set[str] = set()

# the shared names tests/test_field_fixes.py reads
REPORTS_ROWS = CASES
OTHER_ROWS = OTHER_CAUSE
MAY_BE_EMPTY = TITLE_ONLY
