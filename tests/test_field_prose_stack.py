"""Round 8 prose survey of the stack families: how users DESCRIBE a cause in words.

Each text is an issue title, or a title and its first sentences, copied verbatim from the thread
named beside it; the thread confirmed the cause (or the text states it, like a warning the
library prints). The accepted cause must be among the first three findings of
`triage_text(text)`; where the cause has a knob (the package, version, flag, variable or command
the thread's fix turned on), that finding's fixes must name it.

The second list holds descriptions whose cause is something ELSE, next to the cause a widened
cue could wrongly lift: that tempting cause must not rank first.
"""

from __future__ import annotations

import field_prose_stack_b as second
import pytest
from triage_lines import assert_not_first, assert_reaches, lookalike_test

# (text, accepted ids (any), source URL, knob the fixes must name or None)
DESCRIPTIONS: list[tuple[str, tuple[str, ...], str, str | None]] = [
    # ---------------------------------------------------------------- CPU-only wheel
    (
        "torch.cuda.is_available()发现是False\nGPU版本的怎么安装？\n"
        "T4卡的服务器，直接按安装流程，上去就可以torch.cuda.is_available() 为True，所以我以为安装了直接就是GPU版本的了。\n"
        "后来我本地win10机器，本来就有cuda12.2，同样方法安装好后，torch.cuda.is_available() 就是False，不知道怎么办了。",
        ("torch.cpu-build-on-gpu-host",),
        "https://github.com/THU-MIG/yolov10/issues/218",
        "--index-url",
    ),
    (
        "CPU在跑,占用高, GPU空闲\n导入视频或文字生成都是一样,有没办法使用GPU而不是CPU?",
        ("torch.cpu-build-on-gpu-host",),
        "https://github.com/continue-revolution/sd-webui-animatediff/issues/322",
        None,
    ),
    (
        "Runs on CPU and not GPU\nhey, im new to this and dont really know much, i downloaded as shown on "
        "the readme page and ran the run.bat file... it started working but its slow i think its running "
        "on the cpu and gpu, before this i followed a video and got an error telling torch not compiled "
        "with cuda and also installed cuda from nvidia... is there a way to resolve this issue?",
        ("torch.cpu-build-on-gpu-host",),
        "https://github.com/lllyasviel/Fooocus/issues/1372",
        None,
    ),
    (
        "Environment.yml installs the cpu version of pytorch",
        ("torch.cpu-build-on-gpu-host",),
        "https://github.com/UlrikFriisJensen/CHILI/issues/16",
        None,
    ),
    (
        "自动安装的torch选择的是cpu版，对于有显卡的电脑来说有点浪费性能",
        ("torch.cpu-build-on-gpu-host",),
        "https://github.com/MarcelLeon/key-face-frame/issues/2",
        None,
    ),
    (
        "PyTorch pip installation command for CUDA 10.2 installs CPU-only version",
        ("torch.cpu-build-on-gpu-host",),
        "https://github.com/pytorch/pytorch/issues/43493",
        None,
    ),
    # ---------------------------------------------------------------- GPU too new for the build
    (
        "[Bug] RTX 5090 (sm_120) Not Yet Supported by Official PyTorch Builds – CUDA Error",
        ("torch.gpu-too-new-for-build",),
        "https://github.com/lllyasviel/FramePack/issues/550",
        "cu128",
    ),
    (
        "Support for NVIDIA RTX 5090 (CUDA SM_120)\nI’ve recently tested PyTorch (nightly build with "
        'CUDA 12.1) on an NVIDIA RTX 5090 and received a warning:\n"sm_120 is not supported"',
        ("torch.gpu-too-new-for-build",),
        "https://github.com/pytorch/pytorch/issues/166060",
        "cu128",
    ),
    (
        "5090不支持",
        ("torch.gpu-too-new-for-build",),
        "https://github.com/magicyuan876/mineru-tianshu/issues/62",
        "cu128",
    ),
    (
        "我的显卡是5070Ti 我看百度说这个显卡是sm_120算力哪个版本可以支持啊\n"
        "我正在用yolo进行视觉算法，但是我的显卡是5070Ti 所以跑的时候一直报错，我看网上说是因为50系列的这个是sm_120  "
        "pytorch不支持120的 我想了解一下哪个版本会支持50系列的显卡啊",
        ("torch.gpu-too-new-for-build",),
        "https://github.com/pytorch/pytorch/issues/171844",
        "cu128",
    ),
    (
        "Nvidia最新架构的显卡（5070 Ti）不兼容\n我的显卡是 Nvidia GeForce 5070Ti。",
        ("torch.gpu-too-new-for-build",),
        "https://github.com/antgroup/echomimic_v2/issues/161",
        "cu128",
    ),
    (
        "是不是不支持50系显卡啊，我用1050ti成功了，但是用5070有报错，跟torch相关。",
        ("torch.gpu-too-new-for-build",),
        "https://github.com/2noise/ChatTTS/issues/930",
        "cu128",
    ),
    (
        "预装的PyTorch 不支持5070显卡",
        ("torch.gpu-too-new-for-build",),
        "https://github.com/Akegarasu/ChatGLM-webui/issues/81",
        "cu128",
    ),
    (
        "5070报错",
        ("torch.gpu-too-new-for-build",),
        "https://github.com/SparkAudio/Spark-TTS/issues/233",
        "cu128",
    ),
    # ---------------------------------------------------------------- GPU too old for the build
    (
        "Information on the page for graphic cards with cuda capability < 3.0\nPlease provide information "
        "to people with older graphic cards that pytorch (with CUDA) won't work for them.",
        ("torch.gpu-too-old-for-build",),
        "https://github.com/pytorch/pytorch.github.io/issues/72",
        "get_arch_list",
    ),
    (
        "pytorch for NVIDIA GeForce GT 740M with the old CUDA\n1. pytorch for old CUDA : NVIDIA GeForce GT "
        "740M CUDA \nGPU is GeForce GT 740M | 3.0\nNow I can install pytorch with the CUDA 8 and later "
        "features.\nThe pytorch cannot detect the old CUDA.\nI can use pytorch just with CPU features but is "
        "a bad result.",
        ("torch.gpu-too-old-for-build",),
        "https://github.com/pytorch/pytorch/issues/14681",
        None,
    ),
    (
        "GeForce GTX 670M CUDA SDK 8.0 Suported GPU too old error\nI am working on an AI project so I need "
        "to use my GPU's for training some models.I have  GeForce GTX 670M, GeForce GT 750M and Quadro 600.",
        ("torch.gpu-too-old-for-build",),
        "https://github.com/pytorch/pytorch/issues/16712",
        None,
    ),
    (
        "CUDA 3.5 is not supported\nI have a Geforce GT 730 graphics card that uses CUDA version 3.5, but "
        "pyTorch does not support this version of CUDA. Is there some way to build pyTorch with this option "
        "supported?",
        ("torch.gpu-too-old-for-build",),
        "https://github.com/Anjok07/ultimatevocalremovergui/issues/45",
        "TORCH_CUDA_ARCH_LIST",
    ),
    (
        "[Feature Request]: Is there any way to use a nvidia gpu with 2.1 compute capability?\n"
        "I couldn't run stable diffusion automatic1111 using Nvidia GeForce GT 730.\n"
        "According to my searches, It's because of my old GPU and the number of my compute capability (2.1).",
        ("torch.gpu-too-old-for-build",),
        "https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/11255",
        "get_arch_list",
    ),
    # ---------------------------------------------------------------- TensorFlow / JAX, cuDNN
    (
        "4080 RTX not detected on windows 11 24H2\n### TensorFlow version\n\n2.18.0\n### Current behavior?\n\n"
        "physical_devices = tf.config.list_physical_devices() to return GPU information.  Instead, all I "
        "got was this:\n\n[PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')]",
        ("tensorflow.windows-native-no-gpu",),
        "https://github.com/tensorflow/tensorflow/issues/85006",
        "WSL2",
    ),
    (
        "TensorFlow 2.12.1 Not Recognizing GPU with CUDA 11 Installation\nI've installed TensorFlow-GPU "
        "version 2.12.1 and am trying to run it with a GPU on my Windows system. However, TensorFlow is "
        "unable to recognize the GPU.",
        ("tensorflow.windows-native-no-gpu",),
        "https://github.com/tensorflow/tensorflow/issues/62322",
        "WSL2",
    ),
    (
        "GPU not found after 2.10\nHi there, I am new at Tensorflow and AI programming. So forgive me if this "
        "is a dumb question.\n\n2.10 is the last GPU special version. I read that newer versions have GPU "
        "support included without a special gpu version, but no GPU is found under these new versions",
        ("tensorflow.windows-native-no-gpu",),
        "https://github.com/tensorflow/tensorflow/issues/60650",
        "WSL2",
    ),
    (
        "TensorFlow 2.12.0 WSL2 GPU support\nI had a TensorFlow 2.11 environment in WSL that works fine. It is "
        "installed using the conda-forge packages. For TensorFlow 2.12 I swapped to using the pip packages for "
        "tensorflow, keras, keras-tuner, tensorflow-hub, tensorflow-datasets, and tensorboard.\n\nAfter "
        "installation the conda environment for 2.12 can't find the GPU anymore. Swapping back over to my 2.11 "
        "environment, it still finds it fine.",
        ("tensorflow.cuda-libs-not-found",),
        "https://github.com/tensorflow/tensorflow/issues/60101",
        None,
    ),
    (
        "Install the TensorFlow-GPU and CUDA and CUDnn, but GPU not work when test.",
        ("tensorflow.cuda-libs-not-found",),
        "https://github.com/tensorflow/tensorflow/issues/38482",
        None,
    ),
    (
        "请问使用tensorflow-gpu 什么版本，CUDA和cudnn对应什么版本\n"
        "目前安装tensorflow 1.13.0  cuda 10.1，cudnn7.6 GPU利用率为0，cpu爆满，模型运行超慢，找不到原因",
        ("tensorflow.cuda-libs-not-found",),
        "https://github.com/macanv/BERT-BiLSTM-CRF-NER/issues/263",
        None,
    ),
    (
        "您的代码要求cudnn7的吗？我的电脑装的是cudnn6，运行时报cudnn版本不匹配？您能帮我解答吗？",
        ("cuda.cudnn-mismatch",),
        "https://github.com/huaifeng1993/FashionAI_Key_Points_Detection/issues/3",
        None,
    ),
    (
        "No GPU/TPU found error\nI am running on two PC with Windows 11 and Windows 10, each with Nvidia "
        "GPU, and facing same issue on both.",
        ("jax.cuda-backend-failed",),
        "https://github.com/google-research/maxim/issues/42",
        "jax[cuda12]",
    ),
    (
        "Jax version does not find GPU\nit seems like the current JAX version does not find the GPU.",
        ("jax.cuda-backend-failed",),
        "https://github.com/theislab/moscot/issues/56",
        None,
    ),
    # ---------------------------------------------------------------- ONNX Runtime
    (
        "Onnxruntime not running on GPU in python environment\nHere are my onnx and onnxruntime versions "
        "that i have installed in python 3.5\nonnx - 1.6.0\nonnxruntime 1.2.0\nonnxruntime-gpu  1.2.0",
        ("onnxruntime.cpu-package-shadows-gpu",),
        "https://github.com/microsoft/onnxruntime/issues/3787",
        "pip uninstall -y onnxruntime onnxruntime-gpu",
    ),
    (
        "CUDAExecutionProvider missing from available providers in ONNX Runtime\nCUDAExecutionProvider is "
        "not available in the list of execution providers when creating an ONNX Runtime inference session. "
        "Only AzureExecutionProvider and CPUExecutionProvider are listed, even though CUDA support was "
        "expected.",
        ("onnxruntime.cpu-package-shadows-gpu",),
        "https://github.com/nazdridoy/kokoro-tts/issues/59",
        "onnxruntime-gpu",
    ),
    (
        "CUDAExecutionProvider not available — ONNX will fall back to CPU",
        ("onnxruntime.cpu-package-shadows-gpu",),
        "https://github.com/TaterTotterson/microWakeWord-Trainer-Nvidia-Docker/issues/1",
        "onnxruntime-gpu",
    ),
    (
        "Install onnxruntime gpu version\nHi all, \nI am trying to install onnxruntime gpu version. As I got "
        "error, I have some questions about these.\nI already install onnxruntime cpu version before.\n\n1. I "
        "used `pip` to install onnxruntime-gpu, and when I run the it and use `get_provider()` that I got the "
        "`CPUExecutionProvider` so I wanna switch to cuda and then I used "
        "`sess.set_providers(['CUDAExecutionProvider'])`.",
        ("onnxruntime.cpu-package-shadows-gpu",),
        "https://github.com/microsoft/onnxruntime/issues/3326",
        "pip uninstall -y onnxruntime onnxruntime-gpu",
    ),
    (
        "Onnxruntime-gpu always runs on CPU and never on GPU, [yolo v5]\nCould not execute yolov5 small with "
        "CUDAExecutionProvider but always fall back to CPUExecutorProvider while I verified the "
        "CUDAExxecutionProvider is available.",
        ("onnxruntime.cpu-package-shadows-gpu",),
        "https://github.com/microsoft/onnxruntime/issues/9302",
        "onnxruntime-gpu",
    ),
    (
        "onnxruntime-gpu 1.27 silently falls back to CPU on CUDA 12.4/cuDNN mismatch",
        ("onnxruntime.cuda-deps-mismatch",),
        "https://github.com/dudarenok-maker/Castwright/issues/2534",
        "requirements table",
    ),
    (
        "[trusty-search] GPU reindex silently falls back to CPU — ONNX Runtime CUDA build vs instance CUDA "
        "toolkit mismatch",
        ("onnxruntime.cuda-deps-mismatch",),
        "https://github.com/bobmatnyc/trusty-tools/issues/695",
        "onnxruntime-gpu",
    ),
    (
        "[Bug]: GPU silent fallback to CPU on RTX 50 series (Blackwell sm_120) — onnxruntime cu12 vs torch "
        "cu13 mismatch",
        ("onnxruntime.cuda-deps-mismatch",),
        "https://github.com/infiniflow/ragflow/issues/14565",
        "onnxruntime-gpu",
    ),
    # ---------------------------------------------------------------- PaddlePaddle
    (
        "安装paddle-gpu无法识别gpu\npaddle团队你们好。我最近购置一台新电脑，win10系统，配置了3070ti独立显卡。"
        "在python pip安装paddlepaddle==2.3.2和paddlepaddle-gpu==2.3.2后，使用rocketqa等开源项目均无法使用gpu。\n"
        "print(paddle.device.get_device())，始终返回结果为cpu。",
        ("paddle.cpu-package-installed",),
        "https://github.com/PaddlePaddle/Paddle/issues/47950",
        "pip uninstall -y paddlepaddle",
    ),
    (
        "已安装paddlepaddle-gpu，但是提示没有GPU\n>>> import paddle\n>>> paddle.is_compiled_with_cuda()\nFalse",
        ("paddle.cpu-package-installed",),
        "https://github.com/PaddlePaddle/PaddleOCR/issues/13890",
        "paddlepaddle-gpu",
    ),
    (
        'gpu测试机上安装whl包后，无法使用gpu\nimport paddle后，报warning: "You are using GPU version Paddle, '
        'but your CUDA device is not set properly. CPU device will be used by default."',
        ("paddle.gpu-not-detected",),
        "https://github.com/PaddlePaddle/Paddle/issues/46492",
        None,
    ),
    # ---------------------------------------------------------------- Windows DLL dependencies
    (
        "FileNotFoundError when importing on Windows 10 2004\nOn Windows 10 2004, `import torch` will "
        "result in a FileNotFoundError.",
        ("windows.dll-dependency-missing",),
        "https://github.com/pytorch/pytorch/issues/39734",
        "Redistributable",
    ),
    (
        "windows install pytorch and import error\nwhen I install pytorch in windows, and import torch, I "
        'got a error, "from torch._C imort *" failed, how to fix it?',
        ("windows.dll-dependency-missing",),
        "https://github.com/pytorch/pytorch/issues/6937",
        "Redistributable",
    ),
    (
        "Issue when importing Torch on Python 3.7.7 and Windows 10\nI am a novice to PyTorch. Currently I "
        'have installed Python 3.7.7 and download PyTorch following the instruction "pip install '
        'torch==1.5.0+cu92 torchvision==0.6.0+cu92 -f https://download.pytorch.org/whl/torch_stable.html"\n\n'
        "However, there seems to be a bug when trying to import Torch. (below). Appreciate your advice.",
        ("windows.dll-dependency-missing",),
        "https://github.com/pytorch/pytorch/issues/39980",
        "Redistributable",
    ),
    (
        "Windows下pip安装PyTorch后出现“from torch._C import * ImportError: DLL load failed: 找不到指定的模块”"
        "错误的解决办法",
        ("windows.dll-dependency-missing",),
        "https://github.com/HuangCongQing/pytorch/issues/1",
        None,
    ),
    # ---------------------------------------------------------------- CUDA toolkit / nvcc
    (
        "CUDA version in nvcc -V and nvidia-smi different\nI'm using the lab's server from my school. The "
        "server contains different gpus with different cuda version. RTX A6000 has cuda version of 11.7. "
        "But the nvcc is still version of 10.1.",
        ("cuda.toolkits-disagree", "cuda.toolkit-too-old-for-source", "cuda.nvcc-too-old-for-gpu"),
        "https://github.com/john-hewitt/backpacks-flash-attn/issues/2",
        "CUDA_HOME",
    ),
    (
        "Great tutorial, i follow all the step to install Cuda 11.8 but i when i run nvcc -V, i get Cuda "
        "11.5. I have not install Cuda 11.5 before.",
        ("cuda.toolkits-disagree",),
        "https://github.com/FahimFBA/CUDA-WSL2-Ubuntu/issues/3",
        "PATH",
    ),
    (
        'after source the script, "nvcc -V" show the switched version while nvdia-smi didn\'t\nI got 2 '
        "versions of Nvidia toolkit: 12.2 and 11.3 on my ubuntu20.04 device, and the original one is the "
        "12.2 version. After I run the ```source switch-cuda.sh 11.3```, it output that the version has "
        "switched to 11.3, and ```nvcc -V``` shows 11.3 also. But ```nvidia-smi``` still shows the version "
        "of tookit be 12.2",
        ("cuda.toolkits-disagree",),
        "https://github.com/phohenecker/switch-cuda/issues/4",
        None,
    ),
    # ---------------------------------------------------------------- Prebuilt extension wheels
    (
        '"Building wheel for flash_attn (setup.py)..." Loading FOREVER\nEverything installed properly, but '
        "the line in the title has been loading for hours and it doesn't make sense. I have a 4060 and "
        "32gb of ram. CUDA 12.1 is installed and torch is installed.",
        ("flashattn.not-installable",),
        "https://github.com/Wan-Video/Wan2.1/issues/206",
        None,
    ),
    (
        "installation is too long\ncuda:12.1,torch:2.2.1  , vllm:0.6.7  , transformers : 4.37.2, \n\n"
        "when I run：pip install flash-attn==2.5.6 --no-build-isolation --extra-index-url "
        "https://pypi.nvidia.com --no-deps， \n\nit looks like being  stuck. ",
        ("flashattn.not-installable",),
        "https://github.com/Dao-AILab/flash-attention/issues/1567",
        None,
    ),
    (
        "why is the setup.py from flash attn so f#ck1n slow\nI wanted to install but it takes more than "
        "half an hour to install.",
        ("flashattn.not-installable",),
        "https://github.com/tdrussell/diffusion-pipe/issues/241",
        None,
    ),
    (
        "No module named 'mmcv._ext'\nI did exactly follow the installation process but each time I got the "
        "same error no matter what version do I use.",
        ("mmcv.ops-not-built",),
        "https://github.com/CarDD-USTC/CarDD-USTC.github.io/issues/4",
        "mmcv-full",
    ),
    # ---------------------------------------------------------------- cuDNN / CUDA libraries
    (
        "Please make sure cudnn_ops_infer64_8.dll is in your library path!\nGetting this error when trying "
        'whisper-faster.exe "....mp4" --language=English --model=medium\n\nAny ideas?\n\nI have already '
        "installed cuda_12.2.1_536.67_windows.exe",
        ("cuda.cudnn-missing", "windows.cuda-runtime-dll-missing"),
        "https://github.com/Purfview/whisper-standalone-win/issues/54",
        None,
    ),
    (
        "Could not locate cudnn_ops_infer64_8.dll\nHello,\nI'm encountering an error \"Could not locate "
        'cudnn_ops_infer64_8.dll. Please make sure it is in your library path!" \nwhen running the model '
        "with CUDA. Using CPU works fine.",
        ("cuda.cudnn-missing", "cuda.cudnn-mismatch"),
        "https://github.com/reriiasu/speech-to-text/issues/12",
        "nvidia-cudnn",
    ),
    (
        "🙋 聊天模式 faster_whisper报错：Could not locate cudnn_ops_infer64_8.dll. Please make sure it is in your "
        "library path!",
        ("cuda.cudnn-missing",),
        "https://github.com/Ikaros-521/AI-Vtuber/issues/775",
        "nvidia-cudnn",
    ),
    # ---------------------------------------------------------------- conda environments
    (
        "Conda activate does not activate environment\nWhen I activate an env, it is not activated. I have "
        "not yet installed anything.",
        ("python.env-mismatch", "conda.env-not-activated"),
        "https://github.com/conda/conda/issues/7968",
        "which -a python",
    ),
    (
        "[conda env error] After activating environment, python path is incorrect\nSSH to my development "
        "machine (ubuntu 18.04), some conda environment problems comes to me.\n\nAfter activating my env, "
        "the python path seems to be incorrect, which is not my env's python.",
        ("python.env-mismatch",),
        "https://github.com/conda/conda/issues/7854",
        "which -a python",
    ),
    (
        "global packages are used instead of local, despite an environment being active.\nWhen running "
        "python scripts with an environment activated, it still uses packages from `<anaconda install "
        "path>\\Lib\\site-packages\\` instead of `<anaconda install path>\\envs\\<env>\\Lib\\site-packages\\`",
        ("python.env-mismatch",),
        "https://github.com/conda/conda/issues/7230",
        None,
    ),
    (
        "Conda always pointing to base environment despite activating the environment",
        ("python.env-mismatch",),
        "https://github.com/conda/conda/issues/13402",
        None,
    ),
    (
        "conda activate fails to activate\nThis is on a new Mac running Catalina.\nTry to activate py383.  "
        "It says it worked. But it did not.",
        ("python.env-mismatch",),
        "https://github.com/conda/conda/issues/10209",
        None,
    ),
    (
        "conda在新环境通过代码无法返回默认环境\n当用键入代码conda激活newfuzaifei之后，在新的代码行的base换成了newfuzaifei。"
        "不过通过键入代码conda activate更改回默认环境没有成功，提示不是内部命令。",
        ("conda.not-on-path",),
        "https://github.com/selfteaching/selfteaching-python-camp/issues/63",
        "conda init",
    ),
    (
        "Window environment : Not Activated\nWarning:\nThis Python interpreter is in a conda environment, but "
        "the environment has\nnot been activated. Libraries may fail to load. To activate this environment\n"
        "please see https://conda.io/activation",
        ("conda.env-not-activated",),
        "https://github.com/conda/conda/issues/9277",
        "conda activate",
    ),
    (
        "ModuleNotFoundError: No module named 'torch'\n i installed CUDA drivers 13.1\nwhen i do `pip list'\n"
        "I can see the below packages installed \n```\ntorch                    2.9.1+cu130\n"
        "torchvision              0.24.1+cu130\n\n```\n\nBut when i do `import torch` it says No module .",
        ("python.env-mismatch",),
        "https://github.com/pytorch/pytorch/issues/172808",
        "python -m pip",
    ),
    (
        "Unable to import module\nHi, this is embarrassing but I did install with pip3 but I cant import in "
        "python3.",
        ("python.env-mismatch",),
        "https://github.com/pytorch/pytorch/issues/7472",
        "python -m pip",
    ),
    # ---------------------------------------------------------------- launch context
    (
        "I can not use CUDA in vscode jupyter notebook\nI can not use CUDA in vscode jupyter notebook. "
        "Because run the following code:\n```python\nimport torch\nprint(torch.cuda.is_available())\n```\n"
        "If I run it in vscode jupyter notebook, it returns False, while if i run the code in .py file in "
        "vscode or in browser jupyter notebook, they all return True. It was ok before, I don't know why "
        "suddenly it doesn't work.",
        ("python.notebook-kernel-not-active-env",),
        "https://github.com/microsoft/vscode-jupyter/issues/9081",
        "ipykernel",
    ),
    (
        "Environment PATH different in notebook than terminal\nPATH environment variable differ between "
        "notebook and terminal\nNotebook generates error - while it works fine in the terminal \n"
        '**In notebook I type:**\n!nvcc --version \n**it return :** \n"/bin/bash: nvcc: command not found"',
        ("cuda.env-not-inherited",),
        "https://github.com/jupyterhub/the-littlest-jupyterhub/issues/698",
        None,
    ),
    (
        "Not cuda toolkit\nWhen I run the code using pycharm, I get the following error message: NerfAcc: "
        "No CUDA toolkit found. NerfAcc will be disabled.\n, but it succeeds when using the command line.",
        ("cuda.env-not-inherited",),
        "https://github.com/nerfstudio-project/nerfacc/issues/208",
        "LD_LIBRARY_PATH",
    ),
    (
        "PyCharm won't correctly import tensorflow\nI get the following error when I try to run a python "
        "program:\n\n`ImportError: libcudnn.so.5: cannot open shared object file: No such file or "
        "directory`\n\nI understand this is a simple error most people would encounter when they start "
        "tensorflow. I did checked the solutions on Stackoverflow and I managed to run the same program in "
        "Terminal.",
        ("cuda.env-not-inherited",),
        "https://github.com/tensorflow/tensorflow/issues/9530",
        None,
    ),
    (
        "from paa_core import _C ImportError: libcudart.so.9.2: cannot open shared object file: No such "
        "file or directory\nwhen I use the terminal run the train_net.py ,it can running correctly,but when "
        "I use the pycharm IDE run the train_net,it will occur this problem!",
        ("cuda.env-not-inherited",),
        "https://github.com/kkhoot/PAA/issues/22",
        None,
    ),
    (
        "Nvidia-smi (No devices where found) if not using root in the container\nSorry if its a dumb "
        "question but, after creates a container with GPU / Cuda capabilites I cannot run nvidia-smi as "
        "user **ubuntu**, but is possible to run as user **root**",
        ("nvidia.device-node-permission",),
        "https://github.com/canonical/lxd/issues/4534",
        "usermod",
    ),
    (
        "No GPU access while non root user\nHello. I have a jetson orin nx 16BG with jetpack 6. I installed "
        "docker and I took the pytorch 2.1.0 r36 container to run my application. My actual problem is "
        "that torch finds GPU ony if I use the root user. For any non root user, I have "
        "torch.cuda.is_available() returning false",
        ("nvidia.device-node-permission",),
        "https://github.com/dusty-nv/jetson-containers/issues/1136",
        "video",
    ),
    (
        "Why I must run one of the  CUDA samples as root (for example the deviceQuery), then I can able to "
        "use CUDA based packages in Torch.\nBut when I  restart the computer, the CUDA will not be "
        "initialized, I must do that again to enable CUDA based packages in Torch.",
        ("nvidia.device-node-permission", "nvidia.uvm-not-loaded"),
        "https://github.com/torch/cutorch/issues/283",
        "nvidia-modprobe",
    ),
]

# (text, the tempting cause that must NOT rank first, the thread's cause, source URL)
OTHER_CAUSES: list[tuple[str, str, str, str]] = [
    (  # the notebook's PATH lacks the CUDA bin: an environment-variable cause, not the kernel
        "Environment PATH different in notebook than terminal\nPATH environment variable differ between "
        "notebook and terminal\nNotebook generates error - while it works fine in the terminal \n"
        '**In notebook I type:**\n!nvcc --version \n**it return :** \n"/bin/bash: nvcc: command not found"',
        "python.notebook-kernel-not-active-env",
        "cuda.env-not-inherited",
        "https://github.com/jupyterhub/the-littlest-jupyterhub/issues/698",
    ),
    (  # the user checked it is the CUDA build: low GPU use is the code's, not a CPU wheel
        "gpu没跑，一直是cpu在跑\n我配了pytorch1.13，验证过是gpu版本，但跑python fewrel_2shot.py，gpu占用率为0，是代码的问题吗？",
        "torch.cpu-build-on-gpu-host",
        "the code runs the model on the CPU",
        "https://github.com/XiudiChen/ConPL/issues/2",
    ),
    (  # the GPU build is installed; the CUDA device is not set up (driver / CUDA libraries)
        'gpu测试机上安装whl包后，无法使用gpu\nimport paddle后，报warning: "You are using GPU version Paddle, '
        'but your CUDA device is not set properly. CPU device will be used by default."',
        "paddle.cpu-package-installed",
        "paddle.gpu-not-detected",
        "https://github.com/PaddlePaddle/Paddle/issues/46492",
    ),
    (  # the GPU package is there; its CUDA libraries are missing
        "ONNX reports CUDAExecutionProvider as available even when it is not\n2024-03-05 11:40:14.847702004 "
        "[E:onnxruntime:Default, provider_bridge_ort.cc:1548 TryGetProviderInfo_CUDA] "
        "/onnxruntime_src/onnxruntime/core/session/provider_bridge_ort.cc:1209 onnxruntime::Provider& "
        "onnxruntime::ProviderLibrary::Get() [ONNXRuntimeError] : 1 : FAIL : Failed to load library "
        "libonnxruntime_providers_cuda.so with error: libcublasLt.so.11: cannot open shared object file: "
        "No such file or directory",
        "onnxruntime.cpu-package-shadows-gpu",
        "onnxruntime.cuda-deps-mismatch",
        "https://github.com/commaai/openpilot/issues/31708",
    ),
    (  # JAX on a CPU-only jaxlib: not a torch build
        "GPU not detected by JAX. Warning: No GPU/TPU found, falling back to CPU.\nJAX library does not use "
        "the GPU and shows warning",
        "torch.cpu-build-on-gpu-host",
        "jax.cuda-backend-failed",
        "https://github.com/jax-ml/jax/issues/4059",
    ),
    (  # a notebook case: the kernel, not the torch wheel
        "I can not use CUDA in vscode jupyter notebook\nI can not use CUDA in vscode jupyter notebook. "
        "Because run the following code:\n```python\nimport torch\nprint(torch.cuda.is_available())\n```\n"
        "If I run it in vscode jupyter notebook, it returns False, while if i run the code in .py file in "
        "vscode or in browser jupyter notebook, they all return True. It was ok before, I don't know why "
        "suddenly it doesn't work.",
        "torch.cpu-build-on-gpu-host",
        "python.notebook-kernel-not-active-env",
        "https://github.com/microsoft/vscode-jupyter/issues/9081",
    ),
    (  # root-only GPU access inside a Jetson container: device permissions, not the runtime config
        "No GPU access while non root user\nHello. I have a jetson orin nx 16BG with jetpack 6. I installed "
        "docker and I took the pytorch 2.1.0 r36 container to run my application. My actual problem is "
        "that torch finds GPU ony if I use the root user. For any non root user, I have "
        "torch.cuda.is_available() returning false",
        "container.nvidia-runtime-not-configured",
        "nvidia.device-node-permission",
        "https://github.com/dusty-nv/jetson-containers/issues/1136",
    ),
    (  # the VC++ warning itself: a DLL cause, not a conda activation one
        "Microsoft Visual C++ Redistributable is not installed, this may lead to the DLL load failure.\n"
        "I have installed this vc-resist.x64.exe. And there was no such warning before.I don't know what "
        "I've done recently that caused this warning to appear.I am using the Conda environment, and the "
        "pytorch installed in my other virtual environment did not show this warning.",
        "python.env-mismatch",
        "windows.dll-dependency-missing",
        "https://github.com/pytorch/pytorch/issues/126507",
    ),
    (  # an onnxruntime build for another CUDA major next to a torch for CUDA 13: not a torch wheel
        "[Bug]: GPU silent fallback to CPU on RTX 50 series (Blackwell sm_120) — onnxruntime cu12 vs torch "
        "cu13 mismatch",
        "torch.gpu-too-new-for-build",
        "onnxruntime.cuda-deps-mismatch",
        "https://github.com/infiniflow/ragflow/issues/14565",
    ),
    (  # both ORT packages installed: not a CUDA mismatch of onnxruntime-gpu
        "Install onnxruntime gpu version\nHi all, \nI am trying to install onnxruntime gpu version. As I got "
        "error, I have some questions about these.\nI already install onnxruntime cpu version before.\n\n1. I "
        "used `pip` to install onnxruntime-gpu, and when I run the it and use `get_provider()` that I got the "
        "`CPUExecutionProvider` so I wanna switch to cuda and then I used "
        "`sess.set_providers(['CUDAExecutionProvider'])`.",
        "onnxruntime.cuda-deps-mismatch",
        "onnxruntime.cpu-package-shadows-gpu",
        "https://github.com/microsoft/onnxruntime/issues/3326",
    ),
    (  # an ONNX Runtime CUDA mismatch: not a CPU-only torch
        "[trusty-search] GPU reindex silently falls back to CPU — ONNX Runtime CUDA build vs instance CUDA "
        "toolkit mismatch",
        "torch.cpu-build-on-gpu-host",
        "onnxruntime.cuda-deps-mismatch",
        "https://github.com/bobmatnyc/trusty-tools/issues/695",
    ),
    (  # TensorFlow under WSL2 that lost the GPU: its CUDA libraries, not native Windows
        "TensorFlow 2.12.0 WSL2 GPU support\nI had a TensorFlow 2.11 environment in WSL that works fine. It is "
        "installed using the conda-forge packages. For TensorFlow 2.12 I swapped to using the pip packages for "
        "tensorflow, keras, keras-tuner, tensorflow-hub, tensorflow-datasets, and tensorboard.\n\nAfter "
        "installation the conda environment for 2.12 can't find the GPU anymore. Swapping back over to my 2.11 "
        "environment, it still finds it fine.",
        "tensorflow.windows-native-no-gpu",
        "tensorflow.cuda-libs-not-found",
        "https://github.com/tensorflow/tensorflow/issues/60101",
    ),
    (  # the driver's CUDA version in nvidia-smi is not a toolkit: no driver to update
        "CUDA version in nvcc -V and nvidia-smi different\nI'm using the lab's server from my school. The "
        "server contains different gpus with different cuda version. RTX A6000 has cuda version of 11.7. "
        "But the nvcc is still version of 10.1.",
        "torch.driver-too-old",
        "the old nvcc on PATH",
        "https://github.com/john-hewitt/backpacks-flash-attn/issues/2",
    ),
]


@pytest.mark.parametrize(
    ("text", "accepted", "source", "knob"),
    DESCRIPTIONS + second.DESCRIPTIONS,
    ids=[row[2] for row in DESCRIPTIONS + second.DESCRIPTIONS],
)
def test_description_reaches_its_cause(
    text: str, accepted: tuple[str, ...], source: str, knob: str | None
) -> None:
    assert_reaches(text, accepted, source, knob)


@pytest.mark.parametrize(
    ("text", "tempting", "cause", "source"),
    OTHER_CAUSES + second.OTHER_CAUSES,
    ids=[row[3] for row in OTHER_CAUSES + second.OTHER_CAUSES],
)
def test_other_cause_is_not_taken_for_the_tempting_one(
    text: str, tempting: str, cause: str, source: str
) -> None:
    assert_not_first(text, tempting, f"{source} ({cause})")


def test_every_description_cites_its_thread() -> None:
    sources = [row[2] for row in DESCRIPTIONS] + [row[3] for row in OTHER_CAUSES]
    assert all(s.startswith("https://") for s in sources)
    assert len(DESCRIPTIONS) >= 40
    assert len(OTHER_CAUSES) >= 8


def test_the_second_pass_cites_new_threads_and_a_share_in_chinese() -> None:
    sources = [row[2] for row in second.DESCRIPTIONS] + [row[3] for row in second.OTHER_CAUSES]
    assert all(s.startswith("https://") for s in sources)
    assert len({row[2] for row in second.DESCRIPTIONS}) == len(second.DESCRIPTIONS)
    assert len(second.DESCRIPTIONS) >= 30 and len(second.OTHER_CAUSES) >= 8
    chinese = [row for row in second.DESCRIPTIONS if any("\u4e00" <= c <= "\u9fff" for c in row[0])]
    assert len(chinese) * 10 >= len(second.DESCRIPTIONS) * 4, (
        f"{len(chinese)} of {len(second.DESCRIPTIONS)}"
    )


# Text that announces support is no report of its absence (a cue 'support for' once lifted the
# RTX 50 prose form on it): the tempting cause must not come first, and nothing need be found.
ANNOUNCEMENTS = [
    (
        "A central focal point in PyTorch 2.7 is the newly added support for NVIDIA Blackwell GPUs.",
        "torch.gpu-too-new-for-build",
        "https://ephan.knacksnews.com/pytorch-2-7-brings-nvidia-blackwell-support-mega-cache-flexattention-updates-and-more.html",
    ),
]


test_an_announcement_of_support_is_not_read_as_its_absence = lookalike_test(
    ANNOUNCEMENTS, may_be_empty=True
)
