"""Chinese users' reports, round 17 fifth pass (checks/signatures/{memory,amd_rocm}.toml, and one pattern
added to paddle.cpu-package-installed in checks/signatures/*.toml): Chinese prose around English errors, or
Chinese alone, from ChatGLM/GLM-4, Qwen, MinerU, GPT-SoVITS, FunASR/CosyVoice, VideoLingo and
similar projects. Four of them matched nothing or fell to similar-case guesses: a report that the
GPU has no bf16 ("显卡不支持BF16"), cuFFT refusing half-precision signals on a GPU below SM_53,
Paddle inference's "Please use PaddlePaddle with GPU version" (the CPU package), and an AMD user
asking for DirectML (read as a GPU too old for the torch build). Each row is the text of one public
thread, verbatim, whose fix was confirmed (the reporter or another user says it worked, or a
maintainer states cause and fix): its cause ranks first and one of that cause's fixes names the
knob the confirmed fix turned. Look-alike rows are real messages of OTHER causes that the new
patterns could catch: the new cause must not rank first."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

DTYPE = "fit.dtype-unsupported"
PADDLE_CPU = "paddle.cpu-package-installed"
AMD = "rocm.cuda-torch-on-amd"

# (message verbatim, the finding id first, text one of its fixes names, thread URL)
KNOB = [
    (
        "老的显卡不支持BF16还能跑GLM4吗？\n希望能支持。\n运行发现报错。",
        DTYPE,
        "float16",
        # maintainer: it can infer (not fine-tune) on such a card: just run inference in FP16
        "https://github.com/zai-org/GLM-4/issues/188",
    ),
    (
        "RuntimeError: cuFFT doesn't support signals of half type with compute capability less than "
        "SM_53, but the device containing input half tensor only has SM_52",
        DTYPE,
        "5.3",
        # maintainer: the card is too old; a user with the same error: a Tesla P100 instead of an
        # M40 solved it
        "https://github.com/RVC-Boss/GPT-SoVITS/issues/280",
    ),
    (
        "安装了 paddlepaddle-gpu 之后，还显示 Please use PaddlePaddle with GPU version",
        PADDLE_CPU,
        "paddlepaddle-gpu",
        # maintainer: install magic-pdf first and paddlepaddle-gpu after it (magic-pdf pulled the CPU
        # paddlepaddle back in); the reporter: it worked
        "https://github.com/opendatalab/MinerU/issues/1645",
    ),
    (
        "能支持使用 DirectML 设备吗\n"
        "本人是 Windows 平台 AMD 6800xt 显卡，在使用 StableDiffusion 的时候有对应的 Directml 版本的仓库，"
        "ComfyUI 也有对 DirectML的支持，不然 CPU 跑这个实在是太慢了 T_T ，一个字一个字的蹦，所以希望能支持 "
        "DirectML。",
        AMD,
        "ROCm",
        # maintainer: DirectML is not supported; ROCm is, but only on Linux
        "https://github.com/zai-org/ChatGLM3/issues/1115",
    ),
    (
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 128.00 MiB (GPU 0; 10.90 "
        "GiB total capacity; 10.62 GiB already allocated; 16.81 MiB free; 10.62 GiB reserved in total "
        "by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid "
        "fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF\n"
        "我在执行python web_demo.py时遇到这种情况，我应该怎么办，我的gpu足够的才对，请问我应该如何更改配置？",
        "memory.out-of-memory",
        "PYTORCH_CUDA_ALLOC_CONF",
        # a user with the same error: export PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:... solved it
        "https://github.com/zai-org/ChatGLM-6B/issues/1119",
    ),
    (
        "这啥错误啊\n"
        "RuntimeError: D:\\a\\_work\\1\\s\\onnxruntime\\python\\onnxruntime_pybind_state.cc:739 "
        "onnxruntime::python::CreateExecutionProviderInstance CUDA_PATH is set but CUDA wasn't able to "
        "be loaded. Please install the correct version of CUDA and cuDNN as mentioned in the GPU "
        "requirements page (https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html"
        "#requirements), make sure they're in the PATH, and that your GPU is supported.",
        "onnxruntime.cuda-deps-mismatch",
        "onnxruntime-gpu",
        # a user: onnxruntime-gpu does not match CUDA; installing the matching onnxruntime-gpu fixed it
        "https://github.com/v3ucn/CosyVoice_For_Windows/issues/24",
    ),
    (
        "请问我部署qwen2VL-7b-awq模型，使用VLLM镜像，总是会报超过显存的问题。\n我使用的是A10的24Gb的卡。",
        "app.vllm.kv-cache-insufficient",
        "gpu-memory-utilization",
        # a user: set --gpu-memory-utilization lower, e.g. 0.7; the reporter: after that it works
        "https://github.com/QwenLM/Qwen3-VL/issues/482",
    ),
    (
        "貌似只能使用0号显卡，换成其他显卡会报错  RuntimeError: CUDA error: invalid device ordinal\n"
        "请问有啥参数可以指定用除了0之外的显卡吗？",
        "cuda.device-ordinal-exceeds-gpu-count",
        "CUDA_VISIBLE_DEVICES",
        # maintainer: export CUDA_VISIBLE_DEVICES=0,1 makes the GPUs visible (nvidia-smi -L lists them)
        "https://github.com/shibing624/pycorrector/issues/194",
    ),
    (
        "No module named 'triton'\n"
        "大佬们!请问这是什么问题?\n"
        "pip install triton\n"
        "ERROR: Could not find a version that satisfies the requirement triton (from versions: none)\n"
        "ERROR: No matching distribution found for triton",
        "torch.triton-missing",
        "triton-windows",
        # users: a Windows build of triton installed with pip works (\"working perfectly\")
        "https://github.com/zai-org/VisualGLM-6B/issues/332",
    ),
    (
        "A matching Triton is not available, some optimizations will not be enabled\n"
        "Traceback (most recent call last):\n"
        '  File "X:\\Hunyuan3D2_WinPortable\\python_standalone\\Lib\\site-packages\\xformers\\__init__.py", '
        "line 57, in _is_triton_available\n"
        "    import triton  # noqa\n"
        "    ^^^^^^^^^^^^^\n"
        "ModuleNotFoundError: No module named 'triton'\n"
        "我也遇到相同问题，求解决，我的是python313版本，不知要下载哪个whl文件",
        "torch.triton-missing",
        "triton-windows",
        # maintainer: install triton-windows (or use the new package that bundles it)
        "https://github.com/YanWenKun/Hunyuan3D-2-WinPortable/issues/60",
    ),
    (
        "出现报错Could not locate cudnn_ops64_9.dll\n"
        "Loading WHISPER model: large-v3 ... No language specified, language will be first be detected "
        "for each audio file (increases inference time). ⠴ Transcribing... 0:00:00Could not locate "
        "cudnn_ops64_9.dll. Please make sure it is in your library path! Invalid handle. Cannot load "
        "symbol cudnnCreateTensorDescriptor 请按任意键继续. . .",
        "cuda.cudnn-missing",
        "PATH",
        # maintainer: add the folder holding cudnn_ops64_9.dll to the system PATH and restart
        "https://github.com/Huanshere/VideoLingo/issues/183",
    ),
]

# (message verbatim, the cause a new pattern could wrongly rank first, thread URL)
LOOKALIKE = [
    (
        "    return _VF.stft(input, n_fft, hop_length, win_length, window,  # type: ignore[attr-defined]\n"
        "RuntimeError: cuFFT error: CUFFT_INTERNAL_ERROR",
        DTYPE,
        # cuFFT of an old CUDA build on a new GPU: not half precision on an old GPU
        "https://github.com/haoheliu/AudioLDM/issues/49",
    ),
    (
        "I am trying to run YoloV8 on my AMD RX550 using DirectML and every time i run the training it"
        " fails with this error\n"
        "RuntimeError: Cannot set version_counter for inference tensor",
        AMD,
        # DirectML already runs; torch.inference_mode is the cause (no_grad instead works)
        "https://github.com/microsoft/DirectML/issues/622",
    ),
    (
        ">>> import paddle\n"
        "grep: warning: GREP_OPTIONS is deprecated; please use an alias or script\n"
        "/usr/local/python3.7.0/lib/python3.7/site-packages/paddle/fluid/framework.py:299: UserWarning: "
        "You are using GPU version Paddle, but your CUDA device is not set properly. CPU device will be "
        "used by default.\n"
        '  "You are using GPU version Paddle, but your CUDA device is not set properly. CPU device will '
        'be used by default."',
        PADDLE_CPU,
        # the GPU package is installed but the container sees no GPU: not the CPU package
        "https://github.com/PaddlePaddle/PaddleClas/issues/1725",
    ),
]


test_field_message_reaches_its_cause_with_the_knob = knob_test(KNOB)


test_lookalike_is_not_caught_by_the_new_pattern = lookalike_test(LOOKALIKE)
