"""How Chinese-speaking users describe the frequent GPU / ML environment problems: the first post
of a public thread of a Chinese project (title + first sentences + any error line, verbatim) whose
fix was confirmed (the reporter says it worked, or a maintainer states cause and fix). A report in
prose reaches its confirmed cause among the first three findings with a fix that names the knob
the confirmed fix turned (tests/triage_lines.assert_reaches); a report with a canonical error line
ranks it first. Look-alike rows are Chinese reports of OTHER causes that the Chinese cue phrasings
(checks/signatures/{torch,memory}.toml) could wrongly catch: the tempting cause must not rank first."""

from __future__ import annotations

from tests.triage_lines import first_with_knob_test, lookalike_test, reach_test

CPU_BUILD = "torch.cpu-build-on-gpu-host"
ENV_MISMATCH = "python.env-mismatch"

# (first post verbatim, accepted causes, text one of the cause's fixes names, thread URL)
REACH = [
    (
        "windows下已经安装cuda 但程序提示没有cuda\n"
        "windows下cuda 12.8已经安装完毕，我看环境变量里也有，但是仍然识别不了GPU，请问关于cuda部分的配置"
        "主要涉及哪几个文件呢？",
        (CPU_BUILD,),
        "download.pytorch.org/whl/",
        # maintainer: install PyTorch for the CUDA version from pytorch.org (the toolkit is not enough)
        "https://github.com/JefferyHcool/BiliNote/issues/11",
    ),
    (
        "通过github源码，conda环境requirement安装，但是不能识别显卡\n"
        "我显卡是3070ti ,cuda 版本 12.2，我在Python源码中加上输出torch获取显卡信息，结果是False。\n"
        "我下载了整合包，结果能正确识别",
        (CPU_BUILD,),
        "download.pytorch.org/whl/",
        # collaborator: torch must come from PyTorch.org, not PyPI (the PyPI wheel on Windows is CPU-only)
        "https://github.com/RVC-Boss/GPT-SoVITS/issues/522",
    ),
    (
        "使用0306fix2整合包进行API调用时，使用CPU进行推理而不是GPU\n"
        "1. 使用了0306fix2整合包\n"
        "2. conda环境python3.10；pip install -r requirements.txt 安装了依赖并conda install ffmpeg\n"
        "3. 进行API调用时发现相较于webUI特别慢，于是print infer_device发现是CPU而不是GPU\n"
        "请问该如何解决",
        (CPU_BUILD, ENV_MISMATCH),
        "torch.version.cuda",
        # the conda env's torch was the CPU build; the bundle's own runtime python fixed it (reporter)
        "https://github.com/RVC-Boss/GPT-SoVITS/issues/1081",
    ),
    (
        "CUDA Version: 11.4 有没有解决的方法呢？\n问题1:torch与cuda版本不匹配",
        ("torch.driver-too-old",),
        "download.pytorch.org/whl/cu",
        # reporter: a torch wheel for the driver's CUDA (cu113 on a CUDA 11.4 driver) fixed it
        "https://github.com/opendatalab/PDF-Extract-Kit/issues/101",
    ),
    (
        "mode怎么改成int4,显存不够，只有12G",
        ("memory.workload-does-not-fit", "memory.out-of-memory"),
        "4-bit",
        # maintainer: quantised (4-bit) fine-tuning is supported, see README
        "https://github.com/hiyouga/ChatGLM-Efficient-Tuning/issues/11",
    ),
    (
        "[API Design]开发者您好，一个模型能否切分在多张显卡上进行微调训练？\n"
        "我使用1张Tesla T4(16G)对LLaMA-7B模型进行LoRA微调训练，提示CUDA OOM，显存不足。\n"
        "可以再增加一张Tesla T4(16G)，使显存达到2*16G=32G，切分LLaMA-7B模型分布在两张显卡上，从而解决显存"
        "不足的问题嘛？",
        ("memory.workload-does-not-fit", "memory.out-of-memory"),
        "zero",
        # maintainer: --deepspeed configs/ds_config_zero3.json splits the model; reporter: it worked
        "https://github.com/OptimalScale/LMFlow/issues/445",
    ),
    (
        "72b模型单机多卡训练，llamafctory对单卡的显存有要求么？",
        ("memory.workload-does-not-fit", "memory.out-of-memory"),
        "zero",
        # maintainer: use deepspeed zero3
        "https://github.com/hiyouga/LlamaFactory/issues/4584",
    ),
    (
        "为什么显示我显存不足，导致训练崩溃，无法进行下一步",
        ("memory.out-of-memory", "memory.workload-does-not-fit"),
        "batch",
        # maintainer: too little VRAM: lower the batch or the transformer layers (defaults fit 16 GB)
        "https://github.com/ShengbenBi/CTSAC/issues/22",
    ),
    (
        "安装paddlepaddleGPU版本出错\n"
        "前面的流程都很顺畅，结果在检验的时候报错cudnn64_7.dll not found。",
        ("cuda.cudnn-missing", "windows.cuda-runtime-dll-missing"),
        "cudnn",
        # maintainer: install cuDNN 7.6.5 from NVIDIA and copy it into the CUDA folder
        "https://github.com/PaddlePaddle/Paddle/issues/29524",
    ),
]

# (message verbatim, the finding id first, text one of its fixes names, thread URL)
KNOB = [
    (
        "[BUG] 内存不足的问题\n"
        "我用了本地的chatglm-6b-int4模型，然后显示了内存不足（win10+32G内存+1080ti11G），一般需要多少内存才"
        "足够？这个bug应该如何解决？\n"
        "RuntimeError: [enforce fail at\n"
        "C:\\actions-runner\\_work\\pytorch\\pytorch\\builder\\windows\\pytorch\\c10\\core\\impl\\alloc_cpu.cpp:72] "
        "data.\n"
        "DefaultCPUAllocator: not enough memory: you tried to allocate 1069285376 bytes.",
        "memory.host-ram-exhausted",
        "add RAM or enlarge the page file",
        # another user: the same error went away after adding RAM (host memory, not VRAM)
        "https://github.com/chatchat-space/Langchain-Chatchat/issues/470",
    ),
]

# (Chinese report of another cause, the cause a Chinese cue could wrongly put first, thread URL)
LOOKALIKE = [
    (
        "请问一下amd显卡有什么办法能使用GPT-SoVITS吗？\n"
        "最近在尝试使用各种办法让gpt-sovits调用amd显卡都失败了，各位有什么好办法吗？",
        CPU_BUILD,
        "https://github.com/RVC-Boss/GPT-SoVITS/issues/2560",  # an AMD GPU: no CUDA build applies
    ),
    (
        "您好！我是用docker来进行demo，但是运行的时候出现上面的错误，找不到gpu，我的机子上是有的，"
        "是哪里出现了问题呢，感谢您的回复",
        CPU_BUILD,
        # maintainer: points to getting Docker to see the NVIDIA driver (the container runtime)
        "https://github.com/aim-uofa/AdelaiDet/issues/348",
    ),
]


test_zh_report_reaches_cause_with_knob = reach_test(REACH)


test_zh_line_first_with_knob = first_with_knob_test(KNOB)


test_zh_lookalike_not_first = lookalike_test(LOOKALIKE, may_be_empty=True)
