"""CUDA toolkit and libraries, round 18 (checks/signatures/{torch,tensorrt,cuda}.toml and the entries it
extends): a build that runs nvcc by a toolkit path where no toolkit is installed
(/usr/local/cuda-X.Y/bin/nvcc, or /usr/local/cuda/bin/nvcc when the distribution's package put nvcc
in /usr/bin) reaches the missing toolkit with CUDA_HOME / CUDA_PATH in its fixes, not the "nvcc too
old for the GPU" guess; TensorRT's "linked against cuDNN X but loaded cuDNN Y" warning is told as a
warning; a build that finds no cudnn.h reaches the missing cuDNN (its developer files); and the cuDNN, nvcc, libcudart and loader-path messages earlier rounds cover keep their
cause and knob. Each message is copied from a public thread whose fix was confirmed (the reporter
says it worked, or a maintainer states cause and fix). Look-alike rows are real messages of other
causes a new pattern could catch: they must not rank the new cause first."""

from __future__ import annotations

import pytest

from tests.triage_lines import assert_first_naming, assert_not_first

# (message verbatim from the thread, the finding id first, text its fixes name, URL)
KNOB = [
    (
        "CUDA_PATH ?= /usr/local/cuda is not upto date for Ubuntu 20.04 ?\n\nWhen I run make I get :\n\n"
        "make[1]: /usr/local/cuda/bin/nvcc: Command not found\n"
        "make[1]: *** [Makefile:344: bicubicTexture.o] Error 127\n"
        "make[1]: Leaving directory '/home/sxv1kor/cuda-samples/Samples/5_Domain_Specific/bicubicTexture'\n"
        "make: *** [Makefile:45: Samples/5_Domain_Specific/bicubicTexture/Makefile.ph_build] Error \n\n"
        "Whereas the NVCC is installed elsewhere:\n\ncuda-samples$ which nvcc\n/usr/bin/nvcc",
        "torch.extension-cuda-toolkit-missing",
        "CUDA_PATH=/usr",
        # reporter: apt's nvidia-cuda-toolkit puts nvcc in /usr/bin; NVIDIA's installer works
        "https://github.com/NVIDIA/cuda-samples/issues/127",
    ),
    (
        "环境：\n- Ubuntu=18.04\n- pytorch= 1.7.1\n- python=3.6.6\n- CUDA Version: 11.4\n"
        "- NVIDIA-SMI 470.103.01\n\n编译：\n\n./make.sh\n\n出现错误1：\n"
        "`'/usr/local/cuda-11.0/bin/nvcc': No such file or directory`",
        "torch.extension-cuda-toolkit-missing",
        "export CUDA_HOME=/usr/local/cuda-11.0",
        # reporter's own fix: export CUDA_HOME=/usr/local/cuda-11.0 (no bin, no :$PATH)
        "https://github.com/lbin/DCNv2/issues/25",
    ),
    (
        "出现错误2：nvcc fatal : Unsupported gpu architecture ‘compute_86‘",
        "cuda.nvcc-too-old-for-gpu",
        "TORCH_CUDA_ARCH_LIST",
        # reporter's own fix: export TORCH_CUDA_ARCH_LIST="7.5"
        "https://github.com/lbin/DCNv2/issues/25",
    ),
    (
        "unable to execute \"'/usr/local/cuda'/bin/nvcc\": No such file or directory\n"
        "error: command \"'/usr/local/cuda'/bin/nvcc\" failed with exit status 1",
        "torch.extension-cuda-toolkit-missing",
        "CUDA_HOME",
        # maintainer: CUDA not installed, or its path not set as the install instructions say
        "https://github.com/MVIG-SJTU/AlphaPose/issues/765",
    ),
    (
        "[TRT] TensorRT was linked against cuDNN 8.9.0 but loaded cuDNN 8.8.0",
        "tensorrt.linked-library-version-warning",
        "cuDNN 8.9.0",
        # maintainer: this is a warning and you can ignore it
        "https://github.com/NVIDIA/TensorRT/issues/3534",
    ),
    (
        "git clone this,and i run this:\ncd cudnn.torch\nluarocks make\ncd test\nth test_spatiaFullConv.lua"
        "\n\nand get this error:\nError in CuDNN: CUDNN_STATUS_NOT_INITIALIZED\n\nis that I miss some "
        "install command?",
        "cuda.cudnn-mismatch",
        "cudnn",
        # reporter: fixed by replacing cuDNN 5.0.5 with 5.1.3 in /usr/local/cuda
        "https://github.com/karpathy/neuraltalk2/issues/122",
    ),
    (
        "/bin/sh: 1: nvcc: not found\nI have met this problem,but i have installed cuda-toolkit9.0 and i "
        'run nvcc -V shows\n" Cuda compilation tools, release 9.0, V9.0.176"',
        "cuda.env-not-inherited",
        "PATH",
        # the reporter pointed the Makefile at the nvcc path, which worked
        "https://github.com/sampepose/flownet2-tf/issues/73",
    ),
    (
        "facefusion-docker-facefusion-cuda-1  | Could not load library libcudnn_cnn_infer.so.8. Error: "
        "libnvrtc.so: cannot open shared object file: No such file or directory\n"
        "facefusion-docker-facefusion-cuda-1 exited with code 139",
        "cuda.cudnn-missing",
        "libnvrtc.so",
        # reporter's fix: link torch/lib's libnvrtc-*.so to libnvrtc.so; maintainer: done
        "https://github.com/facefusion/facefusion-docker/issues/9",
    ),
    (
        "RuntimeError: cuDNN version incompatibility: PyTorch was compiled against (8, 3, 2) but linked "
        "against (8, 0, 3)",
        "cuda.cudnn-mismatch",
        "LD_LIBRARY_PATH",
        # maintainers: a cuDNN 8.0.3 folder on LD_LIBRARY_PATH shadows the bundled one (message reworded)
        "https://github.com/pytorch/functorch/issues/926",
    ),
    (
        "cuDNN version incompatibility: PyTorch was compiled  against (8, 5, 0) but found runtime version "
        "(8, 3, 3). PyTorch already comes bundled with cuDNN. One option to resolving this error is to "
        "ensure PyTorch can find the bundled cuDNN.",
        "cuda.cudnn-mismatch",
        "cuDNN",
        # maintainer: reinstall pytorch with the right cuDNN version in your environment
        "https://github.com/RaleLee/Co-GAT/issues/2",
    ),
    (
        "OSError: cannot load library 'librmm.so': libcudart.so.9.2: cannot open shared object file: No "
        "such file or directory",
        "cuda.runtime-lib-major-missing",
        "9.2",
        # maintainer: install the cudf build for the CUDA installed (cuda10.0 label); it installed
        "https://github.com/NVIDIA/cudf/issues/496",
    ),
    (
        "CUDA Version: 10.2  \nOpenCV version: 4.9.1\nI want to train it on a Linux system with GPU, but "
        "there is an error when I compile it.  Any idea on how to solve it?\n"
        "fatal error: cudnn.h: No such file or directory",
        "cuda.cudnn-missing",
        "install cuDNN",
        # reporter: whereis cudnn.h found nothing, so cuDNN was not installed
        "https://github.com/AlexeyAB/darknet/issues/6586",
    ),
    (
        "fatal error C1083: Cannot open file included: “cudnn.h”: No such file or directory",
        "cuda.cudnn-missing",
        "install cuDNN",
        # maintainer: cuDNN was not properly installed
        "https://github.com/CMU-Perceptual-Computing-Lab/openpose/issues/50",
    ),
]

# real messages of other causes that a new pattern could catch: (message, tempting id, URL)
LOOKALIKE = [
    (
        # TensorRT's warning followed by the cuDNN error that stops the run: not the warning alone
        "[07/14/2021-14:31:41] [W] [TRT] TensorRT was linked against cuDNN 8.1.0 but loaded cuDNN 8.0.2\n"
        "[07/14/2021-14:32:05] [E] [TRT] C:\\source\\rtSafe\\cuda\\cudaConvolutionRunner.cpp (483) - "
        "Cudnn Error in nvinfer1::rt::cuda::CudnnConvolutionRunner::executeConv: 8 "
        "(CUDNN_STATUS_EXECUTION_FAILED)",
        "tensorrt.linked-library-version-warning",
        "https://github.com/NVIDIA/TensorRT/issues/1371",
    ),
    (
        # an nvcc that exists but is too old for the GPU
        "nvcc fatal   : Unsupported gpu architecture 'compute_89'",
        "torch.extension-cuda-toolkit-missing",
        "https://github.com/CMU-Perceptual-Computing-Lab/openpose/issues/2258",
    ),
    (
        # TensorRT's warning is followed by the error that stops it: not the warning alone
        "[2022-03-24 00:18:45.801] [mmdeploy] [warning] TRTNet: TensorRT was linked against cuBLAS/cuBLAS "
        "LT 11.6.5 but loaded cuBLAS/cuBLAS LT 11.2.1\n"
        "[2022-03-24 00:18:49.177] [mmdeploy] [error] TRTNet: 1: [graphContext.h::MyelinGraphContext::24] "
        "Error Code 1: Myelin (Compiled against cuDNN 10.2.1.0 but running against cuDNN 11.2.1.0.)",
        "tensorrt.linked-library-version-warning",
        "https://github.com/open-mmlab/mmdeploy/issues/266",
    ),
    (
        # the same warning with TensorRT's lazy-loading hint: nothing holds the GPU's memory
        "[05/27/2023-19:14:07] [TRT] [W] TensorRT was linked against cuDNN 8.9.0 but loaded cuDNN 8.7.0\n"
        " CUDA lazy loading is not enabled. Enabling it can significantly reduce device memory usage and "
        'speed up TensorRT initialization. See "Lazy Loading" section of CUDA documentation '
        "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#lazy-loading\n\n"
        "Is this normal behavior or is this an issue?",
        "memory.held-by-other-process",
        "https://github.com/AUTOMATIC1111/stable-diffusion-webui-tensorrt/issues/3",
    ),
]


@pytest.mark.parametrize(("message", "finding_id", "knob", "url"), KNOB)
def test_message_reaches_cause_and_knob(message: str, finding_id: str, knob: str, url: str) -> None:
    assert_first_naming(message, finding_id, knob, url)


@pytest.mark.parametrize(("message", "tempting", "url"), LOOKALIKE)
def test_lookalike_not_caught(message: str, tempting: str, url: str) -> None:
    assert_not_first(message, tempting, url)
