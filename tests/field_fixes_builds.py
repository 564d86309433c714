"""Round 9 field survey (fix9-builds): do the fixes of build causes name the knob the real fix
turned on?

Build causes: a CPU-only PyTorch wheel, a driver too old for the CUDA build, a GPU too new or too
old for the build, prebuilt extension wheels (flash-attn, xformers, torch-scatter, deepspeed,
mmcv) paired with the wrong torch, TensorFlow / JAX / PaddlePaddle against their CUDA and cuDNN,
cuDNN and CUDA library versions, and the nvcc / CUDA toolkit an extension build uses.

Every text below is copied verbatim from the public thread named beside it (the reporter's own
title, error lines and the facts they gave; never the answer). Each thread has a fix that was
confirmed in it: the reporter said it worked, or a maintainer stated cause and fix. The knob is
what that fix turned on (a cu tag, a version, a package, an environment variable); the expected
finding must be among the first three findings of `triage_text(text)` and its fixes must name the
knob. The second table holds texts whose cause is something ELSE: the cause a cue could be
tempted by must not rank first.
"""

from __future__ import annotations

import pytest

NEW_GPU = ("torch.gpu-too-new-for-build",)
OLD_GPU = ("torch.gpu-too-old-for-build",)
OLD_DRIVER = ("torch.driver-too-old", "cuda.toolkit-newer-than-driver")
CPU_WHEEL = ("torch.cpu-build-on-gpu-host", "windows.pip-cpu-torch")
EXT_ABI = ("torch.extension-abi-mismatch",)
NVCC_MISMATCH = ("cuda.toolkits-disagree",)
CUDNN = ("cuda.cudnn-missing", "cuda.cudnn-mismatch")

# (text, accepted ids, source URL, knob the fixes must name or None)
GPU_TOO_NEW = [
    (
        "Error when trying to use nvidia 5090\nWhen trying to use my graphics card I get an error:\n\n"
        "RuntimeError:\nCUDA error: no kernel image is available for execution on the device CUDA "
        "kernel errors might be asynchronously reported at some other API call,so the stacktrace "
        "below might be incorrect. For debugging consider passing CUDA_LAUNCH_BLOCKING=1.\n\n"
        "I am running this on windows, using cpu works, but is very slow.  Would love to use my 5090.",
        NEW_GPU,
        "https://github.com/nagadomi/nunif/issues/308",
        "cu128",
    ),
    (
        "RuntimeError: CUDA error: no kernel image is available for execution on the device on "
        "5070TI\nFull issue:\n\nRuntimeError: CUDA error: no kernel image is available for execution "
        "on the device\nCUDA kernel errors might be asynchronously reported at some other API call, "
        "so the stacktrace below might be incorrect.\nFor debugging consider passing "
        "CUDA_LAUNCH_BLOCKING=1\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.",
        NEW_GPU,
        "https://github.com/lllyasviel/FramePack/issues/267",
        "cu128",
    ),
    (
        "CUDA capability sm_120\nI tried to run this container, but got a warning:\n"
        "/opt/venv/lib/python3.11/site-packages/torch/cuda/__init__.py:287: UserWarning:\n"
        "NVIDIA GeForce RTX 5060 Ti with CUDA capability sm_120 is not compatible with the current "
        "PyTorch installation.\nThe current PyTorch install supports CUDA capabilities sm_50 sm_60 "
        "sm_70 sm_75 sm_80 sm_86 sm_90.\nIf you want to use the NVIDIA GeForce RTX 5060 Ti GPU with "
        "PyTorch, please check the instructions at https://pytorch.org/get-started/locally/",
        NEW_GPU,
        "https://github.com/lmoe/wyoming-xtts/issues/1",
        "cu128",
    ),
    (
        "CUDA error on RTX 5080 (Linux/WSL): no kernel image is available for execution on the "
        "device\nI'm using an RTX 5080 on Linux/WSL, and I'm encountering the following error:\n\n"
        "`CUDA error: no kernel image is available for execution on the device`",
        NEW_GPU,
        "https://github.com/ubicomplab/rPPG-Toolbox/issues/409",
        "cu128",
    ),
    (
        "Support for CUDA capability sm_86\nWhen running the basic examples, using the installation "
        "instructions (pip install), I get the following error:\nRTX A6000 with CUDA capability "
        "sm_86 is not compatible with the current PyTorch installation.\nThe current PyTorch install "
        "supports CUDA capabilities sm_37 sm_50 sm_60 sm_70.",
        NEW_GPU,
        "https://github.com/nerfstudio-project/nerfacc/issues/80",
        "--index-url https://download.pytorch.org/whl/cu",
    ),
    (
        "[NVIDIA] [CUDA] Warning: NVIDIA GeForce RTX Laptop GPU with CUDA capability sm_86 is not "
        "compatible\nNVIDIA GeForce RTX 3080 Laptop GPU with CUDA capability sm_86 is not compatible "
        "with the current PyTorch installation.\nThe current PyTorch install supports CUDA "
        "capabilities sm_37 sm_50 sm_60 sm_70.\n\nMy compute capability: 8.6",
        NEW_GPU,
        "https://github.com/lucasxlu/ComboLoss/issues/3",
        "--index-url https://download.pytorch.org/whl/cu",
    ),
]

DRIVER_TOO_OLD = [
    (
        "pytorch版本问题\n使用CPU没问题，使用GPU时会报错，错误如下：\n UserWarning: CUDA initialization: "
        "The NVIDIA driver on your system is too old (found version 10010). Please update your GPU "
        "driver by downloading and installing a new version from the URL: "
        "http://www.nvidia.com/Download/index.aspx Alternatively, go to: https://pytorch.org to "
        "install a PyTorch version that has been compiled with your version of the CUDA driver.\n"
        "AssertionError: CUDA unavailable, invalid device 2 requested\n\n"
        "torch==1.5.1，cuda是10.0版本，想问下是什么问题？是pytorch和cuda版本不匹配吗？",
        OLD_DRIVER,
        "https://github.com/PeterH0323/Smart_Construction/issues/39",
        "cu101",
    ),
]

CPU_ONLY = [
    (
        "CUDA after update\nI ran the update bat and after it seemed to go back to using pytorch CPU "
        "instead of GPU.",
        CPU_WHEEL,
        "https://github.com/Brekel/VisionCaptioner/issues/19",
        "--index-url",
    ),
]

EXTENSIONS = [
    (
        "flash-attn error flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so: undefined symbol: "
        "_ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE\n"
        "My environment is as follows：\n\nCuda compilation tools, release 12.3, V12.3.107\n\n"
        "torch==2.3.0\n\nhow to solve this problem",
        EXT_ABI,
        "https://github.com/Dao-AILab/flash-attention/issues/940",
        "flash-attn",
    ),
    (
        "linux-gnu.so: undefined symbol: _ZN3c104impl3cow11cow_deleterEPv\nENV\n"
        "- torch                     2.1.2\n- flash-attn                2.5.8 \n- cuda 11.7\n\nERROR\n"
        "`flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined\n symbol: "
        "_ZN3c104impl3cow11cow_deleterEPv`",
        EXT_ABI,
        "https://github.com/Dao-AILab/flash-attention/issues/950",
        "flash-attn",
    ),
    (
        "undefined symbol: _ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basic_stringIcSt11char_"
        "traitsIcESaIcEEE\npython 3.12.7+gc\ncuda 12.8\ntorch 2.6.0\nflash-attn 2.6.3\n\n"
        "import flash_attn_2_cuda as flash_attn_cuda\nImportError: /opt/lib/python3.12/site-packages/"
        "flash_attn_2_cuda.cpython-312-x86_64-linux-gnu.so: undefined symbol: "
        "_ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE",
        EXT_ABI,
        "https://github.com/Dao-AILab/flash-attention/issues/1832",
        "flash-attn",
    ),
    (
        "Failed to build xformers\nmy cuda version is 12.1 but I install pytorch version 2.0.0 + "
        "cu118 for there is no cu121. when I build xformers it raise an error: The detected CUDA "
        "version (12.1) mismatches the version that was used to compile\n      PyTorch (11.8). "
        "Please make sure to use the same CUDA versions\ndo I have to change my CUDA to 11.8?",
        NVCC_MISMATCH,
        "https://github.com/facebookresearch/xformers/issues/748",
        "11.8",
    ),
    (
        "Incompatible with torch 2.1.0-dev\nI try to install `PyG` with the latest `torch` but it "
        "seems the current `PyG` is incompatible with `torch-2.1.0.dev` on cuda, which would raise "
        "the most common error: `undefined symbol: _ZN2at4_ops6narrow4callERKNS_6TensorElll`.\n"
        "* PyTorch version: `2.1.0.dev20230309+cu117`\n* How you installed PyTorch and PyG (`conda`, "
        "`pip`, source): `pip3 install --pre torch --index-url "
        "https://download.pytorch.org/whl/nightly/cu117` and `pip install torch_scatter "
        "torch_sparse torch_cluster torch_spline_conv torch_geometric -f "
        "https://data.pyg.org/whl/torch-1.13.0+cu117.html`",
        EXT_ABI,
        "https://github.com/pyg-team/pytorch_geometric/issues/6900",
        "source",
    ),
    (
        "undefined symbol with torch2.4.0,cuda12.4\nI'm nvidia mirror `nvcr.io/nvidia/pytorch:24.05-"
        "py3` ，安装torch-scatter,`pip install --no-cache-dir torch-scatter==2.1.2 -f "
        "https://data.pyg.org/whl/torch-2.4.0+cu124.html`, but wrong run times\n"
        "OSError: /usr/local/lib/python3.10/dist-packages/torch_scatter/_version_cuda.so: undefined "
        "symbol: _ZN5torch3jit17parseSchemaOrNameERKSsb\n"
        "the version torch==2.4.0a0+07cecf4168,cuda==12.4, how can I solve this?",
        EXT_ABI,
        "https://github.com/rusty1s/pytorch_scatter/issues/462",
        "source",
    ),
    (
        "torch_sparse/_convert_cpu.so: undefined symbol: _ZNK2at6Tensor5zero_Ev\nI'm trying to solve "
        "the same problem under `torch 1.10.0+cu111`, but after re-installing torch-scatter and "
        "torch-sparse the problem is still unsolved.\n\ncommand I used:\n`\npip uninstall "
        "torch-scatter\npip uninstall torch-sparse\npip install torch-sparse -f "
        "https://data.pyg.org/whl/torch-1.10.0+cu111.html\npip install torch-scatter -f "
        "https://data.pyg.org/whl/torch-1.10.0+cu111.html\n`",
        EXT_ABI,
        "https://github.com/rusty1s/pytorch_scatter/issues/248",
        "torch-scatter==",
    ),
]

LIBRARIES = [
    (
        "Fails with `Could not load library libcudnn_cnn_infer.so.8. Error: libnvrtc.so`\nCopied "
        "the repo, installed the conda env, but the evaluation fails with\n`Could not load library "
        "libcudnn_cnn_infer.so.8. Error: libnvrtc.so: cannot open shared object file: No such file "
        "or directory`.",
        (*CUDNN, "cuda.lib-not-symlink", "cuda.runtime-lib-major-missing"),
        "https://github.com/v-iashin/Synchformer/issues/9",
        "cudnn",
    ),
    (
        "Could not load library libcudnn_cnn_infer.so.8\nCUDA Dockerfile is broken.\n\n"
        "Could not load library libcudnn_cnn_infer.so.8. Error: libnvrtc.so: cannot open shared "
        "object file: No such file or directory",
        (*CUDNN, "cuda.lib-not-symlink", "cuda.runtime-lib-major-missing"),
        "https://github.com/facefusion/facefusion-docker/issues/8",
        "2.0.1",
    ),
    (
        "Could not load library libcudnn_cnn_infer.so.8\nRight after the model checkpoint is loaded, "
        "the following error occurs:\n\n```\nError: Could not load library libcudnn_cnn_infer.so.8\n```",
        CUDNN,
        "https://github.com/AILab-CVC/Make-Your-Video/issues/4",
        "cudnn",
    ),
    (
        "paddle whl安装成功，运行测试程序报错\nW0507 15:06:34.751360 39714 device_context.h:397] "
        "WARNING: device: 0. The installed Paddle is compiled with CUDNN 7.6, but CUDNN version in "
        "your machine is 7.5, which may cause serious incompatible bug. Please recompile or "
        "reinstall Paddle with compatible CUDNN version.",
        (*CUDNN, "paddle.wheel-cuda-mismatch"),
        "https://github.com/PaddlePaddle/Paddle/issues/42566",
        "7.6",
    ),
    (
        '"Build from source" cuDNN documented version is not correct for TF 2.15.0\n'
        "### TensorFlow version\n\n2.15.0.post1\n\nhttps://www.tensorflow.org/install/source#gpu_"
        "support_2 reports cudnn version 8.8 is needed. However, after installing that, and running "
        "TensorFlow, it complains:\n\n> 2023-12-12 16:48:40.306928: E external/local_xla/xla/"
        "stream_executor/cuda/cuda_dnn.cc:447] Loaded runtime CuDNN library: 8.8.0 but source was "
        "compiled with: 8.9.4.  CuDNN library needs to have matching major version and equal or "
        "higher minor version. If using a binary install, upgrade your CuDNN library.",
        CUDNN,
        "https://github.com/tensorflow/tensorflow/issues/62626",
        "8.9",
    ),
    (
        'Error\nTraceback (most recent call last):\n  File "/home/ygr/miniconda3/envs/mujo_rl/lib/'
        'python3.11/site-packages/jax_plugins/xla_cuda12/__init__.py", line 139, in _version_check\n'
        "    raise RuntimeError(err_msg) from e\nRuntimeError: Unable to load cuSPARSE. Is it "
        "installed?\nWARNING:2025-06-06 20:45:54,562:jax._src.xla_bridge:791: An NVIDIA GPU may be "
        "present on this machine, but a CUDA-enabled jaxlib is not installed. Falling back to cpu.\n"
        "cpu",
        ("jax.cuda-plugin-mismatch", "jax.cuda-backend-failed", "jax.jaxlib-version-mismatch"),
        "https://github.com/google-deepmind/mujoco_playground/issues/137",
        "jax[cuda12]",
    ),
]

# The thread's torch (1.5.1) predates the release tables (matrices/torch_releases.toml starts at
# 1.13), so the cu101 wheel its driver (CUDA 10.1) runs cannot be derived without inventing it.
NOT_DERIVABLE = {"https://github.com/PeterH0323/Smart_Construction/issues/39"}

CASES = [
    pytest.param(
        text,
        ids,
        url,
        knob,
        id=f"{family}-{n}",
        marks=[pytest.mark.xfail(strict=True, reason="torch older than the release tables")]
        if url in NOT_DERIVABLE
        else [],
    )
    for family, rows in (
        ("new-gpu", GPU_TOO_NEW),
        ("old-driver", DRIVER_TOO_OLD),
        ("cpu-wheel", CPU_ONLY),
        ("ext", EXTENSIONS),
        ("libs", LIBRARIES),
    )
    for n, (text, ids, url, knob) in enumerate(rows)
]

# (text, the cause a cue could be tempted by, source URL)
OTHER_CAUSE = [
    (
        # a Kepler K40c (sm_35) under torch 1.3: too old for the build, not too new
        "RuntimeError: parallel_for failed: cudaErrorNoKernelImageForDevice with v1.3.1 and a Tesla "
        "K40c\nWhen I place a `torch.arange()` tensor on a GPU I get the following error:\n\n"
        "RuntimeError: parallel_for failed: cudaErrorNoKernelImageForDevice: no kernel image is "
        "available for execution on the device\n\nThis occurs on a system where I have a Tesla K80 "
        "and two Tesla K40c cards (also a GeForce 710 which is just for display purposes). It seems "
        "to be only related to the K40c cards and not the K80",
        "torch.gpu-too-new-for-build",
        "https://github.com/pytorch/pytorch/issues/31319",
    ),
    (
        # a 4090 (sm_89) under a cu10x build: too new for the build, not too old
        'About 4090\n"NVIDIA GeForce RTX 4090 with CUDA capability sm_89 is not compatible with the '
        "current PyTorch installation.\nThe current PyTorch install supports CUDA capabilities sm_37 "
        'sm_50 sm_60 sm_70."\n\nSo I cant train the models with the 4090?',
        "torch.gpu-too-old-for-build",
        "https://github.com/akshaydudhane16/Burstormer/issues/19",
    ),
    (
        # xformers complains because torch itself is the CPU build: not an extension ABI mismatch
        "Can't load xFormers because of PyTorch 2.1.0+cu121\nI installed everything from the "
        "requirements, but when I run the demo, it tells me:\n\n>WARNING[XFORMERS]: xFormers can't "
        "load C++/CUDA extensions. xFormers was built for:\n>   PyTorch 2.1.0+cu121 with CUDA 1201 "
        "(you have 2.1.0+cpu)\n>    Python  3.10.11 (you have 3.10.11)",
        "torch.extension-abi-mismatch",
        "https://github.com/mistralai/mistral-inference/issues/59",
    ),
    (
        # TensorFlow's stub message on a 4090: not PyTorch's driver check
        "tensorflow/tsl/cuda/cudart_stub.cc:28] Could not find cuda drivers on your machine, GPU "
        "will not be used.\n### TensorFlow version\n\n2.13.1\n### CUDA/cuDNN version\n\nCUDA 12.4"
        "\n\n### GPU model and memory\n\nGEFORCE GTX 4090\n\ntensorflow does not detect the CUDA "
        "drivers but they are there and added to PATH.",
        "torch.driver-too-old",
        "https://github.com/tensorflow/tensorflow/issues/66750",
    ),
    (
        # cuDNN is there but older than the one Paddle was built with
        "cudnn兼容\n通过指令安装paddle：conda install paddlepaddle-gpu=1.7.1 cudatoolkit=10.0，默认依赖"
        "cudnn的版本是7.3.1，但是WARNING: device: 0. The installed Paddle is compiled with CUDNN 7.6, "
        "but CUDNN version in your machine is 7.3, which may cause serious incompatible bug。然后训练"
        "导致运行出错[Hint: CUDNN_STATUS_BAD_PARAM] at (/paddle/paddle/fluid/operators/"
        "batch_norm_op.cu:287)",
        "cuda.cudnn-missing",
        "https://github.com/PaddlePaddle/Paddle/issues/23922",
    ),
    (
        # TensorFlow's XLA cuDNN line: its fix is TensorFlow's cuDNN, not jax[cuda12]
        "Loaded runtime CuDNN library: 8.5.0 but source was compiled with: 8.6.0. - even in TF 2.12 "
        "and last update of cuda drivers\nNode: 'vq_vae/encoder/conv2d_24/Relu'\nDNN library is "
        "not found.",
        "jax.cudnn-too-old",
        "https://github.com/tensorflow/tensorflow/issues/60913",
    ),
    (
        # JAX without its CUDA plugin: not a CPU-only torch
        "An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed. "
        "Falling back to cpu.\nUsing a GCP VM of type N1 with Tesla T1 GPU.\nI updated jax to 6.0.1 "
        "and getting error with recognizing the GPU.",
        "torch.cpu-build-on-gpu-host",
        "https://github.com/jax-ml/jax/issues/29068",
    ),
    (
        # nvcc 11.5 against a cu121 torch: the toolkits disagree, the driver is not the problem
        "Cannot install apex on the machine of CUDA 12.2\ntorch.__version__  = 2.1.2+cu121\n\n"
        "Compiling cuda extensions with\nnvcc: NVIDIA (R) Cuda compiler driver\nCuda compilation "
        "tools, release 11.5, V11.5.119\nfrom /usr/bin\n\nRuntimeError: Cuda extensions are being "
        "compiled with a version of Cuda that does not match the version used to compile Pytorch "
        "binaries.  Pytorch binaries were compiled with Cuda 12.1.",
        "torch.driver-too-old",
        "https://github.com/NVIDIA/apex/issues/1761",
    ),
    (
        # a prebuilt torch-scatter of another torch release: no nvcc is involved
        "Undefined symbol error with `torch==2.5.1`\nI'm getting an error on Ubuntu when installing "
        "torch_scatter via `conda install pytorch-scatter -c pyg`. No error at install time, but when "
        "I import torch_scatter, it seems like it's compiled for the wrong torch version:\n>>> "
        "torch.__version__\n'2.5.1+cu124'\n>>> import torch_scatter\nOSError: /home/dave/miniconda3/"
        "envs/ENV/lib/python3.10/site-packages/torch_scatter/_version_cuda.so: undefined symbol: "
        "_ZN3c1017RegisterOperatorsD1Ev",
        "cuda.toolkits-disagree",
        "https://github.com/rusty1s/pytorch_scatter/issues/476",
    ),
    (
        # deepspeed's build needs the CUDA toolkit: not a CPU-only torch
        "ubuntu 22.04 conda 安装deepspeed 出错\nCollecting deepspeed==0.12.4 (from resemble-enhance)\n"
        '          raise MissingCUDAException("CUDA_HOME does not exist, unable to compile CUDA '
        'op(s)")\n      op_builder.builder.MissingCUDAException: CUDA_HOME does not exist, unable '
        "to compile CUDA op(s)",
        "torch.cpu-build-on-gpu-host",
        "https://github.com/CCmahua/ChatTTS-Enhanced/issues/3",
    ),
    (
        # an AMD ROCm build asking for CUDA_HOME: not a CPU-only torch
        "[Issue]: CUDA_HOME environment variable is needed\nWhen running the following command:\n "
        "`python3 setup.py --variant rocm build develop`\nI encounter the following error:\n"
        "`OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install "
        "root.`\n### GPU\n\n8 x AMD Instinct MI300X\n\n### ROCm Version\n\nROCm 6.4.2",
        "torch.cpu-build-on-gpu-host",
        "https://github.com/ROCm/DeepEP/issues/1",
    ),
]

# the shared names tests/test_field_fixes.py reads
REPORTS_ROWS = CASES
OTHER_ROWS = OTHER_CAUSE
MAY_BE_EMPTY = frozenset()
