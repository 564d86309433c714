"""Round 8 prose survey, second pass, of the stack families: more ways users DESCRIBE a cause in words.

Each text is an issue title, or a title and its first sentences, copied verbatim from the thread
named beside it (40% written in Chinese); the thread confirmed the cause, or the text states it.
The accepted cause must be among the first three findings of `triage_text(text)`; where the cause
has a knob (the package, version, flag, variable or command the thread's fix turned on), that
finding's fixes must name it. None of these threads is in tests/test_field_prose_stack.py.

The second list holds descriptions whose cause is something ELSE, next to the cause a widened
cue could wrongly lift: that tempting cause must not rank first.

Data only: tests/test_field_prose_stack.py runs these with the first pass's.
"""

from __future__ import annotations

# (text, accepted ids (any), source URL, knob the fixes must name or None)
DESCRIPTIONS: list[tuple[str, tuple[str, ...], str, str | None]] = [
    (
        "自动检测显卡驱动问题\n报错提示：\nE0224 15:37:10.817626 18616 place.cc:359] Cannot use GPU because you have installed CPU version PaddlePaddle.\nIf you want to use GPU, please try to install GPU version PaddlePaddle by: pip install paddlepaddle-gpu\nIf you only have CPU, please change CUDAPlace(0) to be CPUPlace().\n飞浆版本为：2.4 CPU版本",
        ("paddle.cpu-package-installed",),
        "https://github.com/PaddlePaddle/Paddle/issues/50873",
        "paddlepaddle-gpu",
    ),
    (
        "在推理的时候遇到GPU的cuda能力与pytorch不匹配",
        ("torch.gpu-too-new-for-build",),
        "https://github.com/astra-vision/MonoScene/issues/80",
        None,
    ),
    (
        "DLL load failed: 找不到指定的模块\nImportError: DLL load failed: 找不到指定的模块。没有找到模块，什么问题呢？",
        ("windows.dll-dependency-missing",),
        "https://github.com/PaddlePaddle/PaddleGAN/issues/216",
        "Visual C++",
    ),
    (
        "Building wheel for flash-attn (setup.py)耗费时间过长",
        ("flashattn.not-installable",),
        "https://github.com/microsoft/GUI-Actor/issues/44",
        "prebuilt",
    ),
    (
        "推理调用cudnn的时候报错：Could not load library cudnn_cnn_infer64_8.dll. Error code 127",
        (
            "cuda.cudnn-missing",
            "cuda.cudnn-mismatch",
            "windows.cuda-runtime-dll-missing",
        ),
        "https://github.com/PaddlePaddle/PaddleDetection/issues/8265",
        "cuDNN",
    ),
    (
        "pytorch无法安装gpu版本\n我知道如果想要使用清华源安装pytorch的话，要把官方提供命令的指定channel参数去掉，但是我去掉后在清华源搜索出来的安装包只能是cpu版本的，而官方的频道提供的是正常的安装包",
        ("torch.cpu-build-on-gpu-host",),
        "https://github.com/tuna/issues/issues/681",
        None,
    ),
    (
        "paddlepaddle的版本和cuda和cudnn不匹配，建议按照教程的版本安装，别的版本没试过",
        ("paddle.wheel-cuda-mismatch",),
        "https://github.com/YaoFANGUK/video-subtitle-extractor/issues/155",
        "post",
    ),
    (
        '使用命令"pip install paddlepaddle-gpu" for CUDA9, 但是自动安装的版本是paddlepaddle-gpu-0.14.0.post87, 这个是cuda8的版本, 怎么办?',
        ("paddle.wheel-cuda-mismatch",),
        "https://github.com/PaddlePaddle/Paddle/issues/13062",
        "paddlepaddle-gpu",
    ),
    (
        'fbgemm.dll 加载失败\nOSError: [WinError 126] The specified module could not be found. Error loading "C:\\Users\\username\\AppData\\Local\\Programs\\Python\\Python312\\Lib\\site-packages\\torch\\lib\\fbgemm.dll" or one of its dependencies.\n  \n确认这个文件在这个位置\n环境win11',
        ("windows.dll-dependency-missing",),
        "https://github.com/modelscope/FunClip/issues/105",
        "libomp140",
    ),
    (
        '执行main.py的时候报"OSError: [WinError 126] 找不到指定的模块。 Error loading "D:\\environment\\pythton310\\lib\\site-packages\\torch\\lib\\fbgemm.dll" or one of its dependencies."\n所有相关的依赖都下载完了，配置文件也配置好了，但是启动的时候就报“OSError: [WinError 126] 找不到指定的模块。 Error loading "D:\\environment\\pythton310\\lib\\site-packages\\torch\\lib\\fbgemm.dll" or one of its dependencies.”',
        ("windows.dll-dependency-missing",),
        "https://github.com/xszyou/Fay/issues/130",
        None,
    ),
    (
        "tensorflow-gpu==1.14.0下默认使用cpu进行训练\n我train代码的时候tensorflow默认使用cpu，楼主大大这是啥情况啊？",
        (
            "tensorflow.cuda-libs-not-found",
            "cuda.cudnn-mismatch",
        ),
        "https://github.com/youdao-ai/SRNet/issues/13",
        None,
    ),
    (
        "feat: 对gpu章节补充版本说明\n在使用gpu推理时 遇到`cuda`和`onnxruntime torch`版本不匹配导致推理失败的问题。",
        ("onnxruntime.cuda-deps-mismatch",),
        "https://github.com/Zeyi-Lin/HivisionIDPhotos/pull/113",
        "cuDNN",
    ),
    (
        "【论文复现】cudnn不匹配问题\n框架版本为1.8.3，查本机cudnn版本为7.6.5，但是在运行程序时会被识别为7.3。\n通过 export LD_LIBRARY_PATH=/home/aistudio/cuda/cuda-9.2/lib64:$LD_LIBRARY_PATH 命令无法排除问题。",
        (
            "paddle.wheel-cuda-mismatch",
            "cuda.cudnn-mismatch",
        ),
        "https://github.com/PaddlePaddle/Paddle/issues/26954",
        "LD_LIBRARY_PATH",
    ),
    (
        "请问cuda 和 cudnn版本是多少？\n报如下错误：\n2017-12-24 22:58:35.383218: E tensorflow/stream_executor/cuda/cuda_dnn.cc:364] Loaded runtime CuDNN library: 7003 (compatibility version 7000) but source was compiled with 6021 (compatibility version 6000).  If using a binary install, upgrade your CuDNN library to match.  If building from sources, make sure the library loaded at runtime matches a compatible version specified during compile configuration.",
        ("cuda.cudnn-mismatch",),
        "https://github.com/chineseocr/chinese-ocr/issues/20",
        "cuDNN",
    ),
    (
        "paddle需要指定cuda版本，不能向上兼容\n1，paddle框架只能选择相同的cuda版本进行安装，cuda版本不一样需要自行编译安装，希望可以和pytorch一样向上兼容cuda版本，不然更新/切换cuda版本paddle需要重新编译/安装",
        ("paddle.wheel-cuda-mismatch",),
        "https://github.com/PaddlePaddle/Paddle/issues/54744",
        "paddlepaddle-gpu",
    ),
    (
        "pytorch support for A100 sm_80",
        ("torch.gpu-too-new-for-build",),
        "https://github.com/andreimargeloiu/WPFS/issues/3",
        None,
    ),
    (
        "The support for 3080 or 3090\nHi! I have got several 3080 GPUs. However, I find some problems.\nThe system is Ubuntu 16.04, the version of PyTorch is 1.1.0.",
        ("torch.gpu-too-new-for-build",),
        "https://github.com/pytorch/pytorch/issues/45021",
        None,
    ),
    (
        "Tensorflow 2.3.0 stopped detecting GPU suddenly while it used to detect in past",
        ("tensorflow.cuda-libs-not-found",),
        "https://github.com/tensorflow/tensorflow/issues/43785",
        "PATH",
    ),
    (
        "conda env failed to find packages\nMiniconda would fail to find numpy package if we start a new bash within the activated virtualenv",
        (
            "python.env-mismatch",
            "conda.env-not-activated",
        ),
        "https://github.com/conda/conda/issues/7068",
        None,
    ),
    (
        "Only CPUExecutionProvider is loaded if not importing pytorch",
        ("onnxruntime.cuda-deps-mismatch",),
        "https://github.com/deepinsight/insightface/issues/2344",
        "import torch",
    ),
    (
        "ModuleNotFoundError: No module named 'torch' Error when trying to run setup.py\nHi, I've done every step before this and they all works.\n\nWhen I try to run `sudo python3 setup.py develop` it returns no module named torch error but torch is installed and it works. How can I fix this problem.",
        ("python.env-mismatch",),
        "https://github.com/Xharlie/BtcDet/issues/6",
        "sudo",
    ),
    (
        "Which version can I use in cuda12.1 and cuDNN 8.9\nIn my env the default CUDA==12.1 and cuDNN==8.9； When I install the torch, there is a relative nvidia-cudnn-cu12==8.9.26 installed for my env.    \nWhen I install the onnxruntime-gpu==1.19.2,  create onnxruntime InferenceSession failed.  it will report lost of libcudnn.so.9, which needs cuDNN >=9",
        ("onnxruntime.cuda-deps-mismatch",),
        "https://github.com/microsoft/onnxruntime/issues/22198",
        "onnxruntime-gpu",
    ),
    (
        "【CUDA does not work】onnxruntime-gpu==1.19.0\nI used onnxruntime-gpu==1.18.1 before, it can load onnx and work in CUDA（11.7）.\n\nToday, after upgrading to onnxruntime-gpu==1.19.0, it prompts that CUDA does not work",
        ("onnxruntime.cuda-deps-mismatch",),
        "https://github.com/microsoft/onnxruntime/issues/21769",
        "cuDNN 9",
    ),
    (
        "flash_atten\nflash_attn is always building , what's the matter?",
        ("flashattn.not-installable",),
        "https://github.com/Wan-Video/Wan2.1/issues/38",
        "wheel",
    ),
    (
        "install cuda version always get cpuonly\nI found that when installing PyTorch with CUDA version 1.9.1 or below, the cpuonly library is also installed, which prevents training from using the GPU. Even after uninstalling cpuonly, it still doesn’t work.",
        ("torch.cpu-build-on-gpu-host",),
        "https://github.com/pytorch/pytorch/issues/106565",
        None,
    ),
    (
        "To install pytorch gpu version but provides cpu version",
        ("torch.cpu-build-on-gpu-host",),
        "https://github.com/conda/conda/issues/11001",
        "cpuonly",
    ),
    (
        "NVIDIA jaxlib not installled\nI'm following the README instructions but encountered the following errors. Any suggestions are appreciated! \n\n`An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed. Falling back to cpu.\n`",
        (
            "jax.cpu-only-jaxlib",
            "jax.cuda-backend-failed",
            "jax.cuda-plugin-mismatch",
        ),
        "https://github.com/JeffSHF/ColabDock/issues/28",
        "jax[cuda12]",
    ),
    (
        "Cuda version mismatch between Paddle (cuda 11.7) and linux machine (cuda 11.4)",
        ("paddle.wheel-cuda-mismatch",),
        "https://github.com/PaddlePaddle/PaddleSeg/issues/3470",
        "paddlepaddle-gpu",
    ),
    (
        "English documentation needs information about how to select CUDA version\nThe documentation is here https://www.paddlepaddle.org.cn/documentation/docs/en/install/index_en.html  \nScreenshot shows support for CUDA 11, but the pip install command later down the page only works for CUDA 10.2.",
        ("paddle.wheel-cuda-mismatch",),
        "https://github.com/PaddlePaddle/Paddle/issues/54074",
        "post",
    ),
    (
        "Changing PyTorch version\nHello,\n\nSorry I am not familiar with python and wondering how would I downgrade the pytorch library? will it even work?\n\n`    Found GPU0 NVIDIA GeForce GTX 680 which is of cuda capability 3.0.\n    PyTorch no longer supports this GPU because it is too old.\n    The minimum cuda capability supported by this library is 3.7.\n`",
        ("torch.gpu-too-old-for-build",),
        "https://github.com/rupeshs/diffusionmagic/issues/12",
        "TORCH_CUDA_ARCH_LIST",
    ),
    (
        "Pytorch support for Pascal GPUs",
        ("torch.gpu-too-old-for-build",),
        "https://github.com/Comfy-Org/desktop/issues/1300",
        None,
    ),
    (
        "NVIDIA GeForce GTX 1080 Error\nThis issue started with version 0.4.0; version 0.3.0 worked well.\n\ntorch.AcceleratorError: CUDA error: no kernel image is available for execution on the device",
        ("torch.gpu-too-old-for-build",),
        "https://github.com/jamiepine/voicebox/issues/540",
        "cu126",
    ),
    (
        "Version 1.3 no longer supporting Tesla K40m?",
        ("torch.gpu-too-old-for-build",),
        "https://github.com/pytorch/pytorch/issues/30532",
        "TORCH_CUDA_ARCH_LIST",
    ),
    (
        "pip don't change with the change of conda virtual environment in powershell",
        ("python.env-mismatch",),
        "https://github.com/conda/conda/issues/8559",
        "python -m pip",
    ),
    (
        'Cannot install to non-root env with pip\nRunning "pip install <pkg>" is consistently installing <pkg> into the root env, instead of my active env. I have reproduced this from a clean (py3.6) install of anaconda:',
        ("python.env-mismatch",),
        "https://github.com/conda/conda/issues/5666",
        "conda install -n",
    ),
    (
        "[windows 7] Not using CUDA. No errors or messages indicating dlls have been loaded in log.\nIssue: after upgrading from 0.12 to 1.0.1, I lost GPU support. On 0.12, there were log entries indicating successful loading of cuda/cudnn dlls and log entries if dlls weren't found. On 1.0.1, I don't see any log entries when importing tensorflow, but GPU is no longer listed amongst available devices.",
        (
            "tensorflow.cuda-libs-not-found",
            "cuda.cudnn-mismatch",
        ),
        "https://github.com/tensorflow/tensorflow/issues/8835",
        "cuDNN",
    ),
    (
        "Physical devices not shown when I do have one\nI first import TensorFlow and try to find a GPU configure but it shows nothing.",
        ("tensorflow.cuda-libs-not-found",),
        "https://github.com/tensorflow/tensorflow/issues/45072",
        "PATH",
    ),
    (
        "为什么设置了set CUDA_VISIBLE_DEVICES=1 ，但并没有选择，标号为1的gpu进行训练",
        ("cuda.visible-devices-renumbered",),
        "https://github.com/hiyouga/LlamaFactory/issues/2430",
        "CUDA_VISIBLE_DEVICES",
    ),
    (
        '脚本里的export CUDA_VISIBLE_DEVICES不起作用\n脚本里的export CUDA_VISIBLE_DEVICES不起作用，main函数里的os.environ["CUDA_VISIBLE_DEVICES"] = "1"也没有作用，不论设置多少值都会默认在0号卡上运行。',
        ("cuda.visible-devices-renumbered",),
        "https://github.com/alibaba/EasyNLP/issues/35",
        "import torch",
    ),
    (
        "非常感谢贵团队共享的代码。有一个疑问想请教贵团队\n我在configurator文件中指定了3号显卡，但是报错却是0号显卡内存不足，请问这种情况我还怎么处理，感谢。",
        ("cuda.visible-devices-renumbered",),
        "https://github.com/HKUDS/SSLRec/issues/23",
        "cuda:0",
    ),
    (
        "指定特殊GPU出现错误,\n设置CUDA_VISIBLE_DEVICES=1后，出出错的Log看依然使用的是GPU0 (cuda:0)",
        ("cuda.visible-devices-renumbered",),
        "https://github.com/airockchip/rknn-llm/issues/349",
        "cuda:0",
    ),
    (
        "CUDA_VISIBLE_DEVICES not working?\ngpu0 is used by other guys, So I want to use another gpu to run cifar10_train(cifar10_multi_gpu_train).\nBut it seems that tensorflow still try to use gpu0 even I specify CUDA_VISIBLE_DEVICES=2",
        ("cuda.visible-devices-renumbered",),
        "https://github.com/tensorflow/tensorflow/issues/2653",
        "CUDA_DEVICE_ORDER",
    ),
    (
        'CUDA_VISIBLE_DEVICE makes CUDA Error : invalid device ordinal\nI think models from smp **use first GPU (CUDA 0) Unconditionally**\nwhen i write `os.environ["CUDA_VISIBLE_DEVICES"]="5"` at first row, it reproduces error that "RuntimeError : CUDA Error : invalid device ordinal"',
        (
            "cuda.visible-devices-renumbered",
            "cuda.visible-devices-hide-gpus",
            "cuda.device-ordinal-exceeds-gpu-count",
        ),
        "https://github.com/qubvel-org/segmentation_models.pytorch/issues/289",
        None,
    ),
    (
        "problems running htmd on crontab\nI'm running an adaptive simulation, but fails to do the analysis because it can't find the natsort package, but seems to be installed and importable (tried with python command line)",
        (
            "cuda.env-not-inherited",
            "python.env-mismatch",
        ),
        "https://github.com/Acellera/htmd/issues/104",
        "crontab",
    ),
    (
        "Module not found with cron\nHi,\n\nI installed hampel on my computer and then on a server. It's called by a single python script using `import hampel`\nwhen I run it manually or on a notebook it works perfect, however when it passes through a crontab I get this execution message",
        (
            "cuda.env-not-inherited",
            "python.env-mismatch",
        ),
        "https://github.com/MichaelisTrofficus/hampel_filter/issues/2",
        "full path",
    ),
    (
        "Xformers安装一直失败\n我在安装xformers时，每次安装到最后面，他就卸载我的torch和cuda，然后自动就失败，导致我cuda不可用，下面是安装信息，我的依赖也在下面给出。",
        ("torch.extension-abi-mismatch",),
        "https://github.com/baichuan-inc/Baichuan2/issues/307",
        "--no-deps",
    ),
    (
        "执行 preprocess_hubert_f0.py 环节找不到 caffe2_nvrtc.dll\n顺着提示的路径找了，caffe2_nvrtc.dll 存在",
        (
            "windows.dll-dependency-missing",
            "windows.cuda-runtime-dll-missing",
        ),
        "https://github.com/innnky/so-vits-svc/issues/162",
        None,
    ),
    (
        "Looks like xformers brought in old pytorch\nInstalling the existing xformers wheel replaced our PyTorch with 2.7.1 - drop it for now, will have to build it from source.",
        ("torch.extension-abi-mismatch",),
        "https://github.com/radiatingreverberations/comfyui-docker/pull/32",
        "--no-deps",
    ),
    (
        "xformers installs overwrites torch with 2.2.1\nThe current instructions may need to be updated. This particular set of code results in xformers replacing torch with the latest version:",
        ("torch.extension-abi-mismatch",),
        "https://github.com/Stability-AI/stablediffusion/issues/363",
        "xformers",
    ),
    (
        "install xformers alway re-install torch with cuda-11.7\nHi,  when I use pip install xformers, it will re-install the torch==2.0.1 with cuda-11.x, even if I have the torch=2.1.0 with cuda 12.1 in nvcr.io/nvidia/pytorch:23.06-py3.  Does it support the latest cuda and torch?",
        ("torch.extension-abi-mismatch",),
        "https://github.com/facebookresearch/xformers/issues/802",
        "xformers",
    ),
    (
        "Error run_windows.bat FileNotFoundError: Could not find module\nHi in step **run_windows.bat** there is a error;\n\nFileNotFoundError: Could not find module 'C:\\Users\\junpa\\.conda\\envs\\avatarify\\lib\\site-packages\\torch\\lib\\caffe2_nvrtc.dll' (or one of its dependencies). Try using the full path with constructor syntax.",
        (
            "windows.dll-dependency-missing",
            "windows.cuda-runtime-dll-missing",
        ),
        "https://github.com/alievk/avatarify-python/issues/116",
        "nvcuda.dll",
    ),
]

# (text, the tempting cause that must not rank first, the thread's cause, source URL)
OTHER_CAUSES: list[tuple[str, str, str, str]] = [
    (  # the CPU package of PaddlePaddle, not a torch build
        "自动检测显卡驱动问题\n报错提示：\nE0224 15:37:10.817626 18616 place.cc:359] Cannot use GPU because you have installed CPU version PaddlePaddle.\nIf you want to use GPU, please try to install GPU version PaddlePaddle by: pip install paddlepaddle-gpu\nIf you only have CPU, please change CUDAPlace(0) to be CPUPlace().\n飞浆版本为：2.4 CPU版本",
        "torch.cpu-build-on-gpu-host",
        "the CPU package of PaddlePaddle, not a torch build",
        "https://github.com/PaddlePaddle/Paddle/issues/50873",
    ),
    (  # TensorFlow's GPU setup, not a CPU-only torch
        "GPU无法使用\n大佬你好，我想问下我这边用的tensorflow训练的时候，gpu一直启用不了，config里面也设置了一个，但是跑的时候一直是使用的cpu，是不是我还有哪个位置没有设置呢？能否解答一下，谢谢！",
        "torch.cpu-build-on-gpu-host",
        "TensorFlow's GPU setup, not a CPU-only torch",
        "https://github.com/cardwing/Codes-for-Lane-Detection/issues/297",
    ),
    (  # onnxruntime-gpu 1.19 needs CUDA 12 / cuDNN 9: not the CPU package
        "【CUDA does not work】onnxruntime-gpu==1.19.0\nI used onnxruntime-gpu==1.18.1 before, it can load onnx and work in CUDA（11.7）.\n\nToday, after upgrading to onnxruntime-gpu==1.19.0, it prompts that CUDA does not work",
        "onnxruntime.cpu-package-shadows-gpu",
        "onnxruntime-gpu 1.19 needs CUDA 12 / cuDNN 9: not the CPU package",
        "https://github.com/microsoft/onnxruntime/issues/21769",
    ),
    (  # a cuDNN DLL of another version (error code 127), not the VC++ runtime
        "推理调用cudnn的时候报错：Could not load library cudnn_cnn_infer64_8.dll. Error code 127",
        "windows.dll-dependency-missing",
        "a cuDNN DLL of another version (error code 127), not the VC++ runtime",
        "https://github.com/PaddlePaddle/PaddleDetection/issues/8265",
    ),
    (  # a CPU-only jaxlib, not torch
        "NVIDIA jaxlib not installled\nI'm following the README instructions but encountered the following errors. Any suggestions are appreciated! \n\n`An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed. Falling back to cpu.\n`",
        "torch.cpu-build-on-gpu-host",
        "a CPU-only jaxlib, not torch",
        "https://github.com/JeffSHF/ColabDock/issues/28",
    ),
    (  # the paddlepaddle-gpu build for another CUDA, not the CPU package
        '使用命令"pip install paddlepaddle-gpu" for CUDA9, 但是自动安装的版本是paddlepaddle-gpu-0.14.0.post87, 这个是cuda8的版本, 怎么办?',
        "paddle.cpu-package-installed",
        "the paddlepaddle-gpu build for another CUDA, not the CPU package",
        "https://github.com/PaddlePaddle/Paddle/issues/13062",
    ),
    (  # the conda environment not activated, not a missing VC++ DLL
        "[Windows] Environment has not been activated\nWarning:\nThis Python interpreter is in a conda environment, but the environment has\nnot been activated.  Libraries may fail to load.  To activate this environment\nplease see https://conda.io/activation",
        "windows.dll-dependency-missing",
        "the conda environment not activated, not a missing VC++ DLL",
        "https://github.com/conda/conda/issues/8412",
    ),
    (  # TensorFlow 1.0.1 built for another cuDNN: native Windows GPU support ended only with 2.11
        'Cannot install to non-root env with pip\nRunning "pip install <pkg>" is consistently installing <pkg> into the root env, instead of my active env. I have reproduced this from a clean (py3.6) install of anaconda:',
        "tensorflow.windows-native-no-gpu",
        "TensorFlow 1.0.1 built for another cuDNN: native Windows GPU support ended only with 2.11",
        "https://github.com/conda/conda/issues/5666",
    ),
    (  # an RTX 3080 is too new for PyTorch 1.1, not too old
        "The support for 3080 or 3090\nHi! I have got several 3080 GPUs. However, I find some problems.\nThe system is Ubuntu 16.04, the version of PyTorch is 1.1.0.",
        "torch.gpu-too-old-for-build",
        "an RTX 3080 is too new for PyTorch 1.1, not too old",
        "https://github.com/pytorch/pytorch/issues/45021",
    ),
    (  # a GTX 1080 (Pascal) dropped by a newer torch build: too old, not too new
        "Pytorch support for Pascal GPUs",
        "torch.gpu-too-new-for-build",
        "a GTX 1080 (Pascal) dropped by a newer torch build: too old, not too new",
        "https://github.com/Comfy-Org/desktop/issues/1300",
    ),
    (  # onnxruntime-gpu against the installed CUDA, not a CPU-only torch
        "feat: 对gpu章节补充版本说明\n在使用gpu推理时 遇到`cuda`和`onnxruntime torch`版本不匹配导致推理失败的问题。",
        "torch.cpu-build-on-gpu-host",
        "onnxruntime-gpu against the installed CUDA, not a CPU-only torch",
        "https://github.com/Zeyi-Lin/HivisionIDPhotos/pull/113",
    ),
    (  # cron runs another environment; the word notebook names where it worked
        "Module not found with cron\nHi,\n\nI installed hampel on my computer and then on a server. It's called by a single python script using `import hampel`\nwhen I run it manually or on a notebook it works perfect, however when it passes through a crontab I get this execution message",
        "python.notebook-kernel-not-active-env",
        "cron does not read the shell's profile, not a notebook kernel",
        "https://github.com/MichaelisTrofficus/hampel_filter/issues/2",
    ),
    (  # renumbered visible GPUs: the error names card 0, not memory held by another process
        "非常感谢贵团队共享的代码。有一个疑问想请教贵团队\n我在configurator文件中指定了3号显卡，但是报错却是0号显卡内存不足，请问这种情况我还怎么处理，感谢。",
        "memory.held-by-other-process",
        "CUDA_VISIBLE_DEVICES renumbers GPU 3 as cuda:0",
        "https://github.com/HKUDS/SSLRec/issues/23",
    ),
    (  # xformers' torch pin replaced the CUDA torch: the pin, not a CPU wheel chosen by the user
        "Xformers安装一直失败\n我在安装xformers时，每次安装到最后面，他就卸载我的torch和cuda，然后自动就失败，导致我cuda不可用，下面是安装信息，我的依赖也在下面给出。",
        "torch.cpu-build-on-gpu-host",
        "installing xformers uninstalled the CUDA torch it does not pin",
        "https://github.com/baichuan-inc/Baichuan2/issues/307",
    ),
]
