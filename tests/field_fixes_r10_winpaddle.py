"""Round 10 field survey (winpaddle): do the fixes of the cause a real report reaches name the knob
its confirmed fix turned on?

Families: PaddlePaddle (GPU wheels and their .postNNN CUDA builds, cuDNN DLLs, the Windows CPU
builds: AVX / noavx and MKL / openblas), Windows DLL dependencies (cudnn64_*.dll, msvcp140 /
vcruntime140_1.dll and the Visual C++ Redistributable), conda environments (a cudatoolkit in the
environment that does not match torch's CUDA libraries, a conda command that solves to the CPU
build). More than a third of the texts are Chinese (PaddlePaddle's own trackers).

Every text is copied verbatim from the public thread named beside it (the reporter's own words:
an issue title, error lines and the facts they gave, never the answer), and each thread holds a
confirmed fix: the reporter says it worked, or a maintainer states cause and fix. The knob is the
thing that fix turned on; the accepted cause must be among the first three findings of
`triage_text(text)` and its fixes must name the knob (any case). The second table holds reports
whose cause is something else, which a cue added for the first table could wrongly catch.
"""

from __future__ import annotations

CUDNN_DLL = (
    "cuda.cudnn-missing",
    "windows.dll-dependency-missing",
    "windows.cuda-runtime-dll-missing",
)
PADDLE_CUDA = ("paddle.wheel-cuda-mismatch", "cuda.cudnn-missing")
PADDLE_CORE = ("paddle.core-import-failed",)
VC_REDIST = ("windows.dll-dependency-missing",)
CONDA_CUDA_LIBS = ("cuda.ld-library-path-shadows-wheel", "cuda.conda-pip-cuda-mixed")
TORCH_CPU = ("torch.cpu-build-on-gpu-host",)

# (text, accepted ids, source URL, knob the confirmed fix turned on)
CASES = [
    # ------------------------------------------------------------ PaddlePaddle GPU wheels / cuDNN
    (
        "Could not locate cudnn_ops_infer64_8.dll. Please make sure it is in your library path!\n"
        "- 系统环境/System Environment：cuda 11.6 \n- 版本号/Version：\npaddlenlp               2.5.2\n"
        "paddleocr               2.6.1.3\npaddlepaddle            2.4.2\n"
        "paddlepaddle-gpu        2.4.2.post116\n"
        "- 完整报错/Complete Error Message：W0619 03:05:28.154407 19728 gpu_resources.cc:61] Please "
        "NOTE: device: 0, GPU Compute Capability: 6.1, Driver API Version: 11.6, Runtime API Version: "
        "11.6\nCould not locate cudnn_ops_infer64_8.dll. Please make sure it is in your library path!"
        "\n\n網路上的方式有嘗試過，但還是報錯",
        CUDNN_DLL,
        "https://github.com/PaddlePaddle/PaddleOCR/issues/10199",
        "cudnn",
    ),
    (
        "windows使用paddle报错: RuntimeError: (PreconditionNotMet) The third-party dynamic library\n"
        "RuntimeError: (PreconditionNotMet) The third-party dynamic library (cudnn64_7.dll) that "
        "Paddle depends on is not configured correctly. (error code is 126)\n"
        "运行os：windows10\npaddlepaddle-gpu        2.4.0\nCUDA：11.6\ntorch： 1.12.1+cu116",
        PADDLE_CUDA,
        "https://github.com/PaddlePaddle/Paddle/issues/50588",
        "paddlepaddle-gpu",
    ),
    (
        "paddle2.0beta 安装文档出现严重错误！\n下午尝试安装paddle2.0beta版本时参考ubuntu安装文档，确认到可以使用"
        "cuda10.1，但是一直出现报错:\n`Error: Failed to find dynamic library: libcublas.so ( "
        "libcublas.so: cannot open shared object file: No such file or directory ) `\n"
        "来回折腾一下午，甚至重装系统，从20.04降级到18.04，问题仍然无法解决。",
        PADDLE_CUDA,
        "https://github.com/PaddlePaddle/Paddle/issues/27794",
        "built for",
    ),
    # ------------------------------------------------------------ PaddlePaddle Windows CPU builds
    (
        "paddle 1.7-CPU版本 windows python3.6.6 安装后 import 出错\n"
        "paddle 1.7-CPU版本 windows python3.6.6 安装后 import 出错。使用的是 thinkpad，64位机器。采用 pip "
        "命令安装。MKL数学库不确定是否有使用。pip安装提示安装成功，但是在使用的时候报错。错误提示说加载不到 DLL 动态链接库\n"
        '  File "D:\\python\\lib\\site-packages\\paddle\\fluid\\core.py", line 167, in <module>\n'
        "    from .core_avx import *\nImportError: DLL load failed: 找不到指定的程序。",
        PADDLE_CORE,
        "https://github.com/PaddlePaddle/Paddle/issues/22797",
        "openblas",
    ),
    (
        "import paddle.fluid DLL load failed\nos window 10 1803\n\npython 3.6.3\npython 3.7.3\n\n"
        "pip install paddlepaddle\nsuccess\n\npy\nimport paddle.fluid\n\n"
        'ImportError: NOTE: You may need to run "set PATH=D:\\Program Files\\Python36;%PATH%"\n'
        '        if you encounters "DLL load failed" errors. If you have python\n'
        '        installed in other directory, replace "D:\\Program Files\\Python36" with your own\n'
        "        directory. The original error is:\n DLL load failed: 找不到指定的模块。",
        PADDLE_CORE,
        "https://github.com/PaddlePaddle/Paddle/issues/16784",
        "noavx",
    ),
    # ------------------------------------------------------------ Visual C++ runtime DLLs
    (
        "Missing MSVCP140.dll Install Errors\nThen running the installer on Windows 10 results in "
        "complaints about several missing MSVCP140.dlls when attempting to launch the application "
        "after the installer completes.",
        VC_REDIST,
        "https://github.com/TorchStudio/torchstudio/issues/20",
        "Visual C++ Redistributable",
    ),
    (
        "VCRUNTIME140_1.dll\nI'm mainly developing on Windows using a cpu. \nWhen loading the package "
        "again `library(torchr)` it complained about VCRUNTIME140_1.dll not being available on my "
        "computer.",
        VC_REDIST,
        "https://github.com/mlverse/torch/issues/36",
        "Visual C++ Redistributable",
    ),
    # ------------------------------------------------------------ conda environments
    (
        "Incompatible cudatoolkit Version in Conda Environment\nAfter installing virtual environment "
        "from `.yml`, I am getting the following error:\n\nOSError "
        "$ENV_PATH/torch/lib/../../../../libcublas.so.11: undefined symbol: cublasLt_for_cublas_HSS, "
        "version libcublasLt.so.11 when importing torch",
        CONDA_CUDA_LIBS,
        "https://github.com/steinst/SentAlign/issues/3",
        "cudatoolkit",
    ),
    (
        "conda pytorch wiki guide outdated\nThe wiki page [Jobs Conda Pytorch]"
        "(https://github.com/ai4d-iasc/trixie/wiki/Jobs-conda-pytorch) has this line that currently "
        "only installs cpu versions of pytorch:\n\n```\n# install pytorch dependencies via conda\n"
        "conda install pytorch torchvision cudatoolkit=10.1 -c pytorch\n```",
        TORCH_CPU,
        "https://github.com/ai4d-iasc/trixie/issues/73",
        "pytorch==",
    ),
]

# Reports whose cause is another one: (text, the cause a cue could be tempted by, source URL)
OTHER_CAUSE = [
    # a CUDA 10.2 DLL of a Paddle GPU wheel, not the Visual C++ runtime (error code 126 as well)
    (
        "CUDA 10.2 Paddle depends on is not configured correctly\npaddle: 2.3 和 develope\ncuda： 10.2 \n\n"
        "RuntimeError: (PreconditionNotMet) The third-party dynamic library "
        "(cublas64_102.dll;cublas64_10.dll) that Paddle depends on is not configured correctly. "
        "(error code is 126)",
        "windows.dll-dependency-missing",
        "https://github.com/PaddlePaddle/Paddle/issues/43197",
    ),
    # cuDNN not found in a conda environment: a missing library, not conda's copy shadowing torch's
    (
        "W0421 22:18:47.915446 58190 dynamic_loader.cc:287] The third-party dynamic library "
        "(libcudnn.so) that Paddle depends on is not configured correctly. (error code is "
        "/usr/local/cuda/lib64/libcudnn.so: cannot open shared object file: No such file or "
        "directory)\n本人系统ubuntu20.04 显卡是3060 是用的Conda的虚拟环境 cudnn是7.6.5 cudatoolkit=10.2 "
        "系统的cuda版本是11.6，是不是和cuda版本对不上有关呢\n"
        "`conda install pytorch torchvision torchaudio cudatoolkit=10.2 -c pytorch`",
        "cuda.ld-library-path-shadows-wheel",
        "https://github.com/PaddlePaddle/PaddleDetection/issues/5795",
    ),
    # an extension build against another CUDA in a conda env: not a shadowed library
    (
        "Cuda 12.4 mismatches the pytorch build version 11.3 when installing TorchSDF with setup.py\n"
        "I tried to install TorchSDF according to the link, in the conda env hoifhli_env, but it "
        "seemed that Pytorch of TorchSDF 0.1.0 was built from an ancient cuda version (11.3), and it "
        "receives a RuntimeError telling me Please make sure to use the same CUDA versions, but "
        "downgrading cuda to 11.3 on 4090 is impossible.",
        "cuda.ld-library-path-shadows-wheel",
        "https://github.com/zhenkirito123/hoifhli_release/issues/5",
    ),
    # a cuDNN DLL of the nvidia wheels clashing in a conda env: not Paddle's core failing to load
    (
        'import paddle错误 Error loading "D:\\anaconda\\envs\\PaddleX\\lib\\site-packages\\paddle\\..\\'
        'nvidia\\cudnn\\bin\\cudnn_adv_infer64_8.dll" or one of its dependencies.\n'
        'OSError: [WinError 127] 找不到指定的程序。 Error loading "D:\\anaconda\\envs\\PaddleX\\lib\\'
        'site-packages\\paddle\\..\\nvidia\\cudnn\\bin\\cudnn_adv_infer64_8.dll" or one of its '
        "dependencies.\n\n该conda环境下已配置好cuda 和cudnn，并且在这个路径也找到了该文件",
        "paddle.core-import-failed",
        "https://github.com/PaddlePaddle/PaddleX/issues/1944",
    ),
]

# a bare title may reach no cause at all; it must only not lead with the tempting one
TITLE_ONLY: set[str] = set()

# the shared names tests/test_field_fixes.py reads
REPORTS_ROWS = CASES
OTHER_ROWS = OTHER_CAUSE
MAY_BE_EMPTY = TITLE_ONLY
