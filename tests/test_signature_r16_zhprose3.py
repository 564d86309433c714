"""Chinese users' reports, round 16 third pass (checks/signatures/{windows,other_accelerators,amd_rocm}.toml, and one
pattern added to ascend.torch-npu-mismatch in {other_accelerators,python_env,windows}.toml): a model or cache file whose path
has Chinese characters (a Chinese Windows user name), Moore Threads' torch_musa against another
MUSA SDK, a Hygon DCU build of Paddle that finds no DCU, and a torch_npu submodule missing an
attribute. These matched nothing or fell to similar-case guesses (triton, cuDNN, a torch ABI
mismatch, the NVIDIA advice of paddle.gpu-not-detected). Each row is the text of one public
thread, verbatim, whose fix was confirmed (the reporter or another user says it worked, or a
maintainer states cause and fix): its cause ranks first and one of that cause's fixes names the
knob the confirmed fix turned. Look-alike rows are real messages of OTHER causes that the new
patterns could catch: the new cause must not rank first."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

PATH = "windows.install-path-special-chars"
MUSA = "musa.torch-musa-sdk-mismatch"
DCU = "rocm.container-devices-missing"
NPU_PAIR = "ascend.torch-npu-mismatch"
CANN_ENV = "ascend.cann-env-incomplete"

# (message verbatim, the finding id first, text one of its fixes names, thread URL)
KNOB = [
    (
        "2023-06-11 13:55:37.197 | INFO     | lama_cleaner.helper:load_jit_model:102 - Loading model "
        "from: C:\\Users\\斌\\.cache\\torch\\hub\\checkpoints\\big-lama.pt\n"
        "2023-06-11 13:55:37.801 | ERROR    | lama_cleaner.helper:handle_error:89 - Failed to load "
        "model C:\\Users\\斌\\.cache\\torch\\hub\\checkpoints\\big-lama.pt,please submit an issue at "
        "https://github.com/Sanster/lama-cleaner/issues and include a screenshot of the error:\n"
        "open file failed because of errno 2 on fopen: No such file or directory, file path: "
        "C:\\Users\\斌\\.cache\\torch\\hub\\checkpoints\\big-lama.pt\n"
        "是否是因为模型路径存在中文，因为用户名是`斌`",
        PATH,
        "TORCH_HOME",
        # reporter: solved by setting TORCH_HOME to C:\Users\Public
        "https://github.com/Sanster/IOPaint/issues/324",
    ),
    (
        "open file failed because of errno 2 on fopen: No such file or directory, file path: "
        "F:\\数字人专用comfyui\\ComfyUI-aki-v1.5\\models\\sonic\\yoloface_v5m.pt\n"
        "Suddenly an error occurred, but the file yoloface_v5m.pt exists.",
        PATH,
        "ASCII",
        # maintainer: do not use Chinese in the path
        "https://github.com/smthemex/ComfyUI_Sonic/issues/46",
    ),
    (
        "paddleocr加载模型时，模型路径含有中文，无法加载。\n"
        "NotFoundError: Cannot open file ./涓枃/models/cls/ch_cls_infer/inference.pdmodel, please "
        "confirm whether the file is normal.\n"
        "  [Hint: Expected static_cast<bool>(fin.is_open()) == true, but received "
        "static_cast<bool>(fin.is_open()):0 != true:1.] (at "
        "C:\\home\\workspace\\Paddle_release\\paddle\\fluid\\inference\\api\\analysis_predictor.cc:1116)",
        PATH,
        "ASCII",
        # another user: put the model in a folder without Chinese; the reporter solved it
        "https://github.com/PaddlePaddle/PaddleOCR/issues/5580",
    ),
    (
        "用户安装w10的时候 用户名取得就是中文   \n导致paddlehub 解压模型到有中文路径的\n但是读取不到",
        PATH,
        "HUB_HOME",
        # maintainer: a Chinese install path is not recognised; set HUB_HOME to change the folder
        "https://github.com/PaddlePaddle/PaddleFormers/issues/1573",
    ),
    (
        "model_path = 'data\\\\测试\\\\small'\n\n"
        "i ran debug , and find it's error from ctranslate2, I think maybe it's because it's writen "
        "in c, so not support non-english path\n"
        "    self.model = ctranslate2.models.Whisper(\n"
        "RuntimeError: Unable to open file 'model.bin' in model 'data\\测试\\small'",
        PATH,
        "ASCII",
        # reporter: with no Chinese folder in the path it works
        "https://github.com/SYSTRAN/faster-whisper/issues/238",
    ),
    (
        "所有用户名为中文名的WIN用户可以告别这个软件了\n"
        "因为模型会强制存放到C:\\Users\\你的中文名用户\\Appdata……文件夹里且不可更改，到提取字幕那一步直接显示：",
        PATH,
        "ASCII",
        # maintainer: the model folder can now be chosen (kept off the Chinese user folder)
        "https://github.com/buxuku/SmartSub/issues/106",
    ),
    (
        " import torch\nTraceback (most recent call last):\n"
        '  File "/opt/conda/envs/py38/lib/python3.8/site-packages/torch_musa-2.0.0-py3.8-linux-x86_64.egg'
        '/torch_musa/__init__.py", line 27, in <module>\n'
        "    import torch_musa._MUSAC\n"
        "ImportError: /usr/local/musa/lib/libmusa.so.1.0: undefined symbol: PVRSRVGetDevInfo\n\n"
        "The above exception was the direct cause of the following exception:\n\n"
        "Traceback (most recent call last):\n"
        '  File "<stdin>", line 1, in <module>\n'
        '  File "/opt/conda/envs/py38/lib/python3.8/site-packages/torch_musa-2.0.0-py3.8-linux-x86_64.egg'
        '/torch_musa/__init__.py", line 29, in <module>\n'
        '    raise ImportError("Please try running Python from a different directory!") from err\n'
        "ImportError: Please try running Python from a different directory!",
        MUSA,
        "MUSA SDK",
        # maintainer: install the newer MUSA SDK that the torch_musa release names
        "https://github.com/MooreThreads/torch_musa/issues/24",
    ),
    (
        "libmusa.so.4.0: cannot open shared object file: No such file or directory\n"
        "哪有libmusa.so.4.0？最新的sdk里面是libmusa.so.1.5.4",
        MUSA,
        "MUSA SDK",
        # maintainer: the matching MUSA SDK is being published; install MUSA SDK 4.2.0 with torch_musa v2.1.0
        "https://github.com/MooreThreads/torch_musa/issues/83",
    ),
    (
        '我在安装paddlepaddle-dcu时，使用命令"python -c "import paddle; paddle.utils.run_check()""'
        "验证是否安装成功时，遇到下面的命令行报错信息：显示我安装的版本是gpu的，报错信息为"
        '"W0219 17:50:59.087286 3972 init.cc:181] Compiled with WITH_GPU, but no GPU found in runtime.\n'
        "/opt/py310/lib/python3.10/site-packages/paddle/base/framework.py:805: UserWarning: You are "
        "using GPU version Paddle, but your CUDA device is not set properly. CPU device will be used by "
        'default.\n  warnings.warn(\n3.0.0\n"',
        DCU,
        "/dev/kfd",
        # reporter: solved with the DCU image; maintainer: the container start command was the
        # problem, docker run with --device=/dev/kfd --device=/dev/dri -v /opt/hyhal:/opt/hyhal works
        "https://github.com/PaddlePaddle/PaddleX/issues/3415",
    ),
    (
        "import torch_npu时报错：AttributeError: module 'torch_npu.dynamo.torchair' has no attribute "
        "'get_npu_backend'\n"
        "硬件：910B3\n版本：npu-smi 24.1.rc1\nPython 3.10.1\ntorch 2.1.0\ntorch_npu 2.1.0\ncann 8.0.RC1",
        NPU_PAIR,
        "torch_npu",
        # reporter: upgrading torch_npu 2.1.0.post4 to 2.1.0.post5 fixed it
        "https://github.com/Ascend/pytorch/issues/37",
    ),
    (
        "ValueError: (InvalidArgument) Fail to open library: /data/miniconda3/envs/env-3.9.16/lib/"
        "python3.9/site-packages/paddle_custom_device/libpaddle-custom-npu.so with error: libatb.so: "
        "cannot open shared object file: No such file or directory\n"
        "  [Hint: dso_handle should not be null.] (at /paddle/paddle/fluid/platform/init.cc:149)",
        CANN_ENV,
        "set_env.sh",
        # maintainer: source the atb set_env.sh under /usr/local/Ascend (or install the atb package)
        "https://github.com/PaddlePaddle/Paddle/issues/69146",
    ),
]

# (a real message of another cause, the new cause that must not rank first, thread URL)
LOOKALIKE = [
    (
        "我下载的是MiuerU1.3.2的版本，cuda使用的是11.8 , pytorch使用的是2.3.1 , torchvision使用的是0.18.1 "
        ",并且torch.cuda.is_available()显示的是true\n\n可是运行\n"
        'magic-pdf --path "C:\\Users\\XXX\\MinerU\\PDF_input\\XXX.pdf" --output-dir '
        '"C:\\Users\\XXX\\MinerU\\PDF_output" --method auto命令还是报AssertionError: Torch not '
        "compiled with CUDA enabled的错，请问这个是什么问题",
        PATH,
        # maintainer: torch is not the CUDA build in the environment that runs the command
        "https://github.com/opendatalab/MinerU/issues/2247",
    ),
    (
        "[root@localhost ~]# python3\n"
        ">>> import paddle\n"
        "W0106 18:12:16.305999 14974 init.cc:182] Compiled with WITH_GPU, but no GPU found in runtime.\n"
        "/opt/rh/rh-python38/root/usr/local/lib64/python3.8/site-packages/paddle/fluid/framework.py:634: "
        "UserWarning: You are using GPU version Paddle, but your CUDA device is not set properly. CPU "
        "device will be used by default.\n"
        "环境：centos7 python3.8 pip22.3.1 nccl-2.13.4-1+cuda11.7  显卡GeForce RTX 2080 Ti",
        DCU,
        # an NVIDIA machine: not a DCU
        "https://github.com/PaddlePaddle/Paddle/issues/49609",
    ),
    (
        '  File "/home/hinson/.local/lib/python3.8/site-packages/torch/__init__.py", line 290, in <module>\n'
        "    from torch._C import *  # noqa: F403\n"
        "ImportError: libcudnn.so.9: cannot open shared object file: No such file or directory",
        MUSA,
        # a CUDA torch missing cuDNN: not MUSA
        "https://github.com/airockchip/rknn-toolkit2/issues/111",
    ),
]


test_field_message_reaches_its_cause_with_the_knob = knob_test(KNOB)


test_lookalike_is_not_caught_by_the_new_pattern = lookalike_test(LOOKALIKE)
