"""Round 18 sweep of the CPU-only wheel on a GPU machine, third pass
(checks/signatures/torch.toml and the entries it extends): each message, verbatim from its
thread, reaches the cause the thread confirmed first, and that cause's fixes name the knob the
confirmed fix turned (PyTorch's CUDA index, WSL2 for JAX on Windows, the CPU package to remove)."""

from __future__ import annotations

import pytest
from triage_lines import assert_first_naming, source_knob_test, source_lookalike_test

# (thread, message, the finding id first, a string one of its fixes' summaries or commands holds)
KNOB = [
    (
        # maintainer: JAX has no Windows GPU support; use WSL2 (the JAX compatibility table)
        "https://github.com/RoboEden/jux/issues/11",
        "Does this work better in an environment other than Windows?\n I'm following a tutorial similar to 'pip install --upgrade \"jax[cuda11_cudnn82]==0.4.7\" -f https://storage.googleapis.com/jax-releases/jax_cuda_releases.html,' but it's not working well.\n\nThe main error message i got is \"ERROR: Could not find a version that satisfies the requirement jaxlib==0.4.7+cuda11.cudnn82 (from jax[cuda11-cudnn82]) (from versions: 0.4.13, 0.4.14, 0.4.16)\nERROR: No matching distribution found for jaxlib==0.4.7+cuda11.cudnn82\"",
        "python.no-matching-wheel",
        "WSL2",
    ),
    (
        # maintainer: JAX does not support CUDA on Windows, so the CUDA jaxlib cannot be installed there
        "https://github.com/ZhengYinan-AIR/FISOR/issues/3",
        "Windows install error\nERROR: Could not find a version that satisfies the requirement jaxlib==0.4.9+cuda12.cudnn88 (from versions: 0.4.13, 0.4.14, 0.4.16, 0.4.17, 0.4.18, 0.4.19, 0.4.20, 0.4.21, 0.4.22, 0.4.23, 0.4.25, 0.4.26, 0.4.27, 0.4.28, 0.4.29, 0.4.30)\nERROR: No matching distribution found for jaxlib==0.4.9+cuda12.cudnn88",
        "python.no-matching-wheel",
        "WSL2",
    ),
    (
        # JAX maintainer: no CUDA-enabled builds on Windows, only CPU-only wheels
        "https://github.com/jax-ml/jax/issues/17634",
        "jax 0.4.6 does not provide the extra 'cuda12_pip' | No GPU/TPU found, falling back to CPU\n C:\\Users\\rosha\\Downloads\\Compressed\\appp>pip install --upgrade \"jax[cuda12_pip]\" -f https://storage.googleapis.com/jax-releases/jax_cuda_releases.html\nLooking in links: https://storage.googleapis.com/jax-releases/jax_cuda_releases.html\nCollecting jax[cuda12_pip]\n  Using cached jax-0.4.14-py3-none-any.whl\nCollecting ml-dtypes>=0.2.0\n  Using cached ml_dtypes-0.2.0-cp310-cp310-win_amd64.whl (938 kB)",
        "jax.cuda-backend-failed",
        "WSL2",
    ),
    (
        # reporter: installing YOLOv8 pulled the CPU torch; the CUDA torch from PyTorch's index made CUDA work
        "https://github.com/ultralytics/ultralytics/issues/2964",
        "Thanks, @Denizzje . You are right, somehow when i install YOLOv8, it install the cpu version of torch.",
        "torch.cpu-build-on-gpu-host",
        "download.pytorch.org/whl/cu",
    ),
    (
        # uninstall torch and reinstall from --extra-index-url .../whl/cu124 worked (two commenters confirm)
        "https://github.com/Comfy-Org/ComfyUI/issues/4845",
        "Torch not being compiled with CUDA enabled",
        "torch.cpu-build-on-gpu-host",
        "download.pytorch.org/whl/cu",
    ),
    (
        # fresh Windows pip install took the CPU torch; the maintainers' fix (PR #2492) installs torch from download.pytorch.org's CUDA index
        "https://github.com/invoke-ai/InvokeAI/issues/2460",
        '[bug]: "Using device_type cpu" on fresh Windows install (via pip), not able to use GPU\n\n### OS\n\nWindows\n\n### GPU\n\ncuda\n\n### VRAM\n\n24\n\n### What happened?\n\nAfter following the [manual install via pip](https://invoke-ai.github.io/InvokeAI/installation/020_INSTALL_MANUAL/#introduction), the invokeai starts up with `Using device_type cpu`.',
        "torch.cpu-build-on-gpu-host",
        "download.pytorch.org/whl/cu",
    ),
    (
        # same thread: torch 1.13.1+cpu had replaced +cu117; the maintainers' fix (PR #2492) installs the
        # cu117 wheel from download.pytorch.org
        "https://github.com/invoke-ai/InvokeAI/issues/2460",
        'for Anyone having the issue "xformers pytorch 1.13.1+cpu instead 1.13.1+cu117" after installing 2.3.0rcx.x or suddenly invoke is using the cpu',
        "torch.cpu-build-on-gpu-host",
        "download.pytorch.org/whl/cu117",
    ),
    (
        # reporter: pip gave the CPU torch; the +cu111 wheel from download.pytorch.org fixed the error
        "https://github.com/Equim-chan/Mortal/issues/1",
        "You recommand installing pytorch with pip.\nBut I found that the default installation is the cpu version of PyTorch.\n\nI tried to test your code and got the error:\n`AssertionError: Torch not compiled with CUDA enabled`",
        "torch.cpu-build-on-gpu-host",
        "download.pytorch.org/whl/cu",
    ),
    (
        # reporter fixed it by uninstalling the CPU tensorflow package (tensorflow-gpu stays)
        "https://github.com/autorope/donkeycar/pull/346",
        "If you have tensorflow package installed, it apparently uses the CPU even if you have tensorflow-gpu and a properly set up GPU. I fixed this by uninstalling the tensorflow package manually using pip, but it would have been nice to realize this earlier.",
        "tensorflow.cpu-package-shadows-gpu",
        "pip uninstall",
    ),
    (
        # a commenter with the same error: pip install deep-daze gave a torch without CUDA; reinstalling the CUDA build from PyTorch's site fixed it
        "https://github.com/lucidrains/deep-daze/issues/161",
        "I'm not sure why but I don't think torch is using my GPU (RTX 2080 super) it gives me this error \n\n**error:**\n`:\\Users\\beaty\\AppData\\Local\\Programs\\Python\\Python39\\lib\\site-packages\\torch\\cuda\\amp\\grad_scaler.py:115: UserWarning: torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.\n  warnings.warn(\"torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.\")`\n\nAny help here?",
        "torch.cpu-build-on-gpu-host",
        "download.pytorch.org/whl/cu",
    ),
]


@pytest.mark.parametrize(
    ("url", "text", "finding_id", "knob"), KNOB, ids=[f"{i}-{k[0]}" for i, k in enumerate(KNOB)]
)
def test_a_cpuwheel_message_gets_its_cause_and_the_knob(url, text, finding_id, knob) -> None:
    assert_first_naming(text, finding_id, knob, url)


# the code asks for CUDA on a machine without an NVIDIA GPU: the new cause, not the wrong-wheel one
NO_GPU = [
    (
        # PyTorch maintainer: "that code requires cuda"; the reporter has no CUDA and wants the CPU
        "https://github.com/pytorch/pytorch/issues/28111",
        "Hi ... when i am running this code:\nhttps://github.com/Hananel-Hazan/bindsnet/blob/master/examples/mnist/reservoir.py\n\nI get this error:\n\n`AssertionError: Torch not compiled with CUDA enabled`\n\nI have not installed cuda and i don't want to do that\nHow can i run this code on CPU\nI will appreciate if anyone give me a help on this",
        "torch.cuda-requested-without-gpu",
        "only supports CUDA",
    ),
]


test_cuda_asked_for_without_a_gpu_is_not_a_wrong_wheel = source_knob_test(NO_GPU)


# real messages of other causes that the new entries could catch: they must not get that cause first
LOOKALIKE = [
    (
        # no GPU on the machine: a CPU torch is right there, the code asks for CUDA
        "https://github.com/NVlabs/neuralrgbd/issues/24",
        "I recieve this error when running `sh run_demo.sh `: \n\nAssertionError: Torch not compiled with CUDA enabled\n\nI've tried reinstalling torch in the conda environment as well as on my base installation. I've also made sure to install the version of torch that doesn't require CUDA. Since I don't have a GPU I don't need CUDA. So I have a 'cpu only' installation of torch, but still I am getting this error.",
        "torch.cpu-build-on-gpu-host",
    ),
    (
        # a +cu102 torch on a driver with CUDA 11.0: not a CPU wheel
        "https://github.com/pytorch/pytorch/issues/85332",
        "import torch\nprint(torch.cuda.is_available())\n\nreturn False\n\n### Versions\n\nnvidia-smi:NVIDIA-SMI 450.51.05    Driver Version: 450.51.05    CUDA Version: 11.0 \nnvcc -V:Cuda compilation tools, release 10.2, V10.2.89\ninstall : pip install torch==1.8.1+cu102 torchvision==0.9.1+cu102 torchaudio==0.8.1 -f https://download.pytorch.org/whl/torch_stable.html\n\nprint(torch.__version__)\n1.8.1+cu102",
        "torch.cpu-build-on-gpu-host",
    ),
    (
        # Python 3.14 has no torch 2.7.1 wheel on the cu118 index: the interpreter, not a CPU wheel
        "https://github.com/thomaswantstobeaskeleton/BallonsTranslator-Pro/issues/154",
        "Python version:  3.14.2 (tags/v3.14.2:df79316, Dec  5 2025, 17:18:21) [MSC v.1944 64 bit (AMD64)]\nPython executable:  C:\\Python314\\python.exe\nGPU profile: requested=auto, resolved=nvidia-cuda\nDetected physical GPUs: NVIDIA GeForce RTX 3070 Ti Laptop GPU, AMD Radeon(TM) Graphics\nReason: NVIDIA GPU detected; using CUDA PyTorch wheels.\nTorch install command: python -m pip install torch==2.7.1 torchvision==0.22.1 torchaudio==2.7.1 --index-url https://download.pytorch.org/whl/cu118 --disable-pip-version-check\nNVIDIA GPU detected but installed PyTorch is CPU-only or cannot use CUDA; installing CUDA-enabled PyTorch.\nInstalling GPU runtime packages\nLooking in indexes: https://download.pytorch.org/whl/cu118\nERROR: Could not find a version that satisfies the requirement torch==2.7.1 (from versions: none)\nERROR: No matching distribution found for torch==2.7.1",
        "torch.cpu-build-on-gpu-host",
    ),
    (
        # maintainer: on a MacBook there is no CUDA wheel; install the plain (CPU) torch
        "https://github.com/DeepGraphLearning/ULTRA/issues/8",
        "(custom_env) me@MY-MBP ULTRA % pip install torch==2.1.0 --index-url https://download.pytorch.org/whl/cu118\nLooking in indexes: https://download.pytorch.org/whl/cu118\nERROR: Could not find a version that satisfies the requirement torch==2.1.0 (from versions: none)\nERROR: No matching distribution found for torch==2.1.0",
        "torch.cpu-build-on-gpu-host",
    ),
]


test_a_look_alike_is_not_read_as_the_cpu_wheel = source_lookalike_test(
    LOOKALIKE, may_be_empty=True, newline=True
)
