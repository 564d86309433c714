"""Forum reports, round 18 (forums7): "all CUDA-capable devices are busy or unavailable" on Windows or
inside WSL 2 (where no exclusive compute mode exists: the Windows NVIDIA driver install or the Windows
build is at fault), plus forum-style reports of causes already covered (WSL libcuda path, TensorFlow's
cuDNN, CUDA_VISIBLE_DEVICES set too late or renumbered, Fabric Manager). Each KNOB row is verbatim from
one public thread whose fix was confirmed; the cause ranks first and its fixes name the knob the
confirmed fix turned. Look-alike rows are real texts of other matters the new entry
(checks/signatures/windows.toml) could wrongly catch."""

from __future__ import annotations

import pytest

from tests.triage_lines import assert_not_first, knob_test

# (message verbatim, the finding id first, text one of its fixes names, thread URL)
KNOB = [
    (
        "I installed everything and got cuda working on my Ubuntu-20 wsl instance but for some reason trying to import cudf or cugraph gives me this output: `RuntimeError: Failed to dlopen libcuda.so`",
        "wsl.lib-not-on-loader-path",
        "/usr/lib/wsl/lib",
        # maintainer (gmarkall, numba#7104 link): set LD_LIBRARY_PATH=/usr/lib/wsl/lib
        "https://github.com/NVIDIA/cudf/issues/10308",
    ),
    (
        "**System information**\n- Have I written custom code (as opposed to using a stock example script provided in TensorFlow): NO\n- OS Platform and Distribution (e.g., Linux Ubuntu 16.04): Ubuntu 20.04\n- TensorFlow installed from (source or binary): Binary\n- TensorFlow version (use command below): 2.3.0\n- Python version: 3.8.2\n- CUDA/cuDNN version: 10.2, 8.0.2\n- GPU model and memory: nVidia GeForce GT 710, 1GB of memory\n\n**Describe the current behavior**\n\nWhen i import tensorflow with `import tensorflow as tf` everything is fine. But when I try to test the if the gpu is working, this error shows up.\n`\nCould not load dynamic library 'libcudnn.so.7'; dlerror: libcudnn.so.7: cannot open shared object file: No such file or directory; LD_LIBRARY_PATH: /usr/lib/cuda/include:/usr/lib/cuda/lib64:/usr/lib/cuda/include:/usr/lib/cuda/lib64:\n`",
        "tensorflow.cuda-libs-not-found",
        "cuDNN 7.6",
        # maintainer: TF 2.3 is tested with CUDA 10.1 / cuDNN 7.6 (tested build configurations); cuDNN 8 does not provide libcudnn.so.7
        "https://github.com/tensorflow/tensorflow/issues/42309",
    ),
    (
        "When I added os.environ['CUDA_VISIBLE_DEVICES']='1' (or any gpu id that is not 0) in train.py,\nthe code will always use cuda:0,\nHowever, if I set CUDA_VISIBLE_DEVICES=1 in bash command, \nthe code will use cuda:1",
        "cuda.visible-devices-renumbered",
        "before import torch",
        # maintainer: set os.environ['CUDA_VISIBLE_DEVICES'] right after import os, before import torch; reporter: that solves my problem
        "https://github.com/open-mmlab/mmdetection3d/issues/1020",
    ),
    (
        "Hi! I'm adding `os.environ['CUDA_VISIBLE_DEVICES'] = \"2\"` in my code does not work, the code always select first GPU, however `CUDA_VISIBLE_DEVICES=2 python train.py` works, I'm struggling to find the reason, but still has no clue...",
        "cuda.visible-devices-renumbered",
        "before import torch",
        # maintainer (SsnL): you need to do that before import pytorch
        "https://github.com/pytorch/pytorch/issues/9158",
    ),
    (
        "When i indicate cuda number directly by using os['CUDA_VISIBLE_DEVICES'] = cudaIndex, i found the function is unavailable. The program consistently use cuda index 0 by default. after a long time debug, i suspect the sentence \" use_cuda = torch.cuda.is_available()\" make everything losing efficacy. When i reverse both of them, then it works. \n\npython version: 2.7.16\ntorch version:1.1.0\nlinux version:centos 7.6.1810",
        "cuda.visible-devices-renumbered",
        "before the first CUDA call",
        # maintainer (SsnL): the variable only has effect before pytorch accesses CUDA; reporter: thanks
        "https://github.com/pytorch/pytorch/issues/23544",
    ),
    (
        "Run 'CUDA_VISIBLE_DEVICES=5 python3 train.py'\noutput:\nVariable containing:\n  2.5000 -13.2386\n[torch.cuda.FloatTensor of size 1x2 (GPU 0)]   # Not on GPU 5\n\nAnd my machine has 7 GPU.\nIs this a bug?",
        "cuda.visible-devices-renumbered",
        "renumbered from 0",
        # maintainer (SsnL): not a bug, with CUDA_VISIBLE_DEVICES=5 device 0 in PyTorch is GPU 5
        "https://github.com/pytorch/pytorch/issues/3900",
    ),
    (
        "ggml_cuda_init: failed to initialize CUDA: system not yet initialized",
        "nvidia.fabric-manager-not-running",
        "nvidia-fabricmanager",
        # commenter: the fabric manager was the cause; reinstalling the right version and rebooting fixed it
        "https://github.com/ollama/ollama/issues/12136",
    ),
    (
        'Hello. I installed Stable Diffusion on a machine with an A5000 graphics card. But I get the error "RuntimeError: CUDA error: all CUDA-capable devices are busy or unavailable".\nWindows 10\nInstalled: VC_redist.x64.exe, vs_Community2017, cuda_11.3.1_win10_network\nHelp me please!',
        "windows.cuda-devices-unavailable",
        "clean installation",
        # reporter: the problem was in the drivers for the video card, which were not installed well
        "https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/2986",
    ),
    (
        '>>> import torch\n>>> torch.cuda.is_available()\nTrue\n>>> a = torch.tensor(1)\n>>> a.cuda()\nTraceback (most recent call last):\n  File "<stdin>", line 1, in <module>\nRuntimeError: CUDA error: all CUDA-capable devices are busy or unavailable\n\nwindows：20231.1005',
        "windows.cuda-devices-unavailable",
        "winver",
        # commenters: fixed in the next Windows build (20236); a known GPU compute issue of those Insider builds
        "https://github.com/microsoft/WSL/issues/6098",
    ),
]

# (real message of another matter, the id it must not rank first, why, thread URL)
LOOKALIKE = [
    (
        "Im using PyTorch within the `big` partition, where Im using all the 8 GPUs of a computing node. Some times my program is running normally, but a lot of times I get the following error and then my program is terminated,\n\nTHCudaCheck FAIL file=/opt/conda/conda-bld/pytorch_1518244421288/work/torch/lib/THC/THCStream.cpp line=40 error=46 : all CUDA-capable devices are busy or unavailable",
        "windows.cuda-devices-unavailable",
        # Linux cluster node: the compute-mode / shared-GPU reading stays first
        "https://github.com/jade-hpc-gpu/jade-hpc-gpu.github.io/issues/40",
    ),
    (
        'When transfer tensors or load model to GPU returns the error "RuntimeError: CUDA error: CUDA-capable device(s) is/are busy or unavailable"',
        "windows.cuda-devices-unavailable",
        # Linux server with Tesla T4s
        "https://github.com/pytorch/pytorch/issues/100691",
    ),
    (
        "```none\nMicrosoft Windows [Version 10.0.21343.1000]\nUbuntu Release:        20.04\nLinux version 5.4.91-microsoft-standard-WSL2 (oe-user@oe-host) (gcc version 9.3.0 (GCC)) #1 SMP Mon Jan 25 18:39:31 UTC 2021\nLatest Nvidia Win10 driver 465.89\nCUDA 11.1 and 11.2 both installed.  /usr/local/cuda points to 11.2.\n```\n\n# Steps to reproduce\n\n```\n\nMyId@DESKTOP-930EG0A:~$ nvidia-smi\nNVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.\n\nMyId@DESKTOP-930EG0A:~$ /usr/local/cuda/samples/1_Utilities/deviceQuery/deviceQuery\n/usr/local/cuda/samples/1_Utilities/deviceQuery/deviceQuery Starting...\n\n CUDA Device Query (Runtime API) version (CUDART static linking)\n\ncudaGetDeviceCount returned 100\n-> no CUDA-capable device is detected\nResult = FAIL\n```",
        "windows.cuda-devices-unavailable",
        # WSL, but nvidia-smi cannot reach the driver (another matter)
        "https://github.com/microsoft/WSL/issues/6772",
    ),
]


test_knob_rows = knob_test(KNOB, ids=[row[3] for row in KNOB])


@pytest.mark.parametrize(
    ("text", "finding_id", "source"), LOOKALIKE, ids=[row[2] for row in LOOKALIKE]
)
def test_lookalike_rows(text: str, finding_id: str, source: str) -> None:
    assert_not_first(text, finding_id, source)
