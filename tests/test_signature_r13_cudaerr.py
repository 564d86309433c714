"""CUDA runtime and library error messages people paste (checks/signatures/{torch,cuda}.toml and
the entries it extends): each verbatim message from a thread whose fix was confirmed reaches that
cause first, and one of the cause's fixes names the knob the confirmed fix turned."""

from __future__ import annotations

import pytest
from triage_lines import command_test

from envdoctor.triage_engine import triage_text

# (message verbatim from the thread, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # ComfyUI's default cudaMallocAsync on a GTX 960M; --disable-cuda-malloc fixed it (reporter and others)
    (
        "Device: cuda:0 NVIDIA GeForce GTX 960M : cudaMallocAsync\n"
        "RuntimeError: CUDA error: operation not supported",
        "torch.cuda-malloc-async-unsupported",
        "--disable-cuda-malloc",
        "https://github.com/Comfy-Org/ComfyUI/issues/940",
    ),
    (
        "Error occurred when executing CLIPTextEncode:\n\nCUDA error: operation not supported\n"
        "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n\n"
        'File "C:\\Users\\AMT-WIN10\\Comfyui\\ComfyUI_windows_portable\\ComfyUI\\execution.py", '
        "line 152, in recursive_execute",
        "torch.cuda-malloc-async-unsupported",
        "--disable-cuda-malloc",
        "https://github.com/Comfy-Org/ComfyUI/issues/1150",
    ),
    # a system libcudnn8 in the image shadowed torch's; apt-get remove libcudnn8 fixed it
    # (the same reporter's log in dreamgaussian#91, the fix in cog#1430)
    (
        "Could not load library libcudnn_cnn_train.so.8. Error: /usr/lib/x86_64-linux-gnu/"
        "libcudnn_cnn_train.so.8: undefined symbol: _ZTIN10cask_cudnn14BaseKernelInfoE, version "
        "libcudnn_cnn_infer.so.8\n"
        "RuntimeError: GET was unable to find an engine to execute this computation",
        "cuda.ld-library-path-shadows-wheel",
        "sudo apt-get remove -y --allow-change-held-packages 'libcudnn8*'",
        "https://github.com/replicate/cog/issues/1430",
    ),
    # LD_LIBRARY_PATH set differently inside tmux; checking it fixed the reporter's run
    (
        "RuntimeError: GET was unable to find an engine to execute this computation",
        "cuda.ld-library-path-shadows-wheel",
        "echo $LD_LIBRARY_PATH",
        "https://github.com/pytorch/pytorch/issues/102535",
    ),
    # the maintainer: an installed CUDA on PATH conflicts with torch's; reinstall torch (Windows)
    (
        "点击run 报错 GET was unable to find an engine to execute this computation",
        "cuda.ld-library-path-shadows-wheel",
        "pip install --force-reinstall torch torchvision torchaudio --index-url",
        "https://github.com/dmMaze/BallonsTranslator/issues/382",
    ),
    # pyro's CI bumped its GCC after torch's headers asked for GCC 9
    (
        "/opt/hostedtoolcache/Python/3.8.18/x64/lib/python3.8/site-packages/torch/include/c10/util/"
        "C++17.h:16:2: error: #error \"You're trying to build PyTorch with a too old version of GCC. "
        'We need GCC 9 or later."',
        "torch.extension-compiler-too-old",
        "export CC=gcc-9 CXX=g++-9",
        "https://github.com/pyro-ppl/pyro/pull/3349",
    ),
    # solved by another torch release (reporter); the maintainer: a build that fits the GPU
    (
        "train error, RuntimeError: CuDNN error: CUDNN_STATUS_MAPPING_ERROR",
        "torch.cudnn-call-failed",
        "torch.cuda.get_arch_list()",
        "https://github.com/Duankaiwen/CenterNet/issues/111",
    ),
    (
        'when I run your code with my own data. I encounter this problem"CUDNN_STATUS_MAPPING_ERROR"'
        "，my pytorch version is 1.5,cuda 10.2. not the same as yours.",
        "torch.cudnn-call-failed",
        "torch.cuda.get_arch_list()",
        "https://github.com/jeya-maria-jose/KiU-Net-pytorch/issues/3",
    ),
    (
        "RuntimeError: cuDNN error: CUDNN_STATUS_MAPPING_ERROR\n"
        "```\ninterestingly, if I use:\n```torch.backends.cudnn.enabled = False```",
        "torch.cudnn-call-failed",
        "torch.backends.cudnn.enabled = False",
        "https://github.com/pytorch/pytorch/issues/27588",
    ),
    # an RTX 30 card under a CUDA 10 torch build: a CUDA 11 build fixed it
    (
        "RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED\n"
        "my environment: pytorch: 1.5.1+cu101\n                                           CUDA 10.1\n"
        "it is GeForce RTX 3080 Ti.",
        "torch.gpu-too-new-for-build",
        "--index-url https://download.pytorch.org/whl/",
        "https://github.com/zzhang1987/Factor-Graph-Neural-Network/issues/4",
    ),
    (
        "    training, momentum, eps, torch.backends.cudnn.enabled\n"
        "RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED",
        "torch.gpu-too-new-for-build",
        "--index-url https://download.pytorch.org/whl/",
        "https://github.com/astaka-pe/Dual-DMP/issues/2",
    ),
    (
        "When I run ```python train_classification.py --model pointnet2_cls_ssg --use_normals "
        "--log_dir pointnet2_cls_ssg_normal```,I met error CUDNN_STATUS_EXECUTION_FAILED。",
        "torch.gpu-too-new-for-build",
        "--index-url https://download.pytorch.org/whl/",
        "https://github.com/yanx27/Pointnet_Pointnet2_pytorch/issues/229",
    ),
    (
        "RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED\n"
        "My version information is as below:\ncuDNN:8.5.0\ncuda：11.7\npytorch=1.4.0\npython=3.6.6",
        "torch.gpu-too-new-for-build",
        "--index-url https://download.pytorch.org/whl/",
        "https://github.com/uci-cbcl/UFold/issues/20",
    ),
    # cuFFT of a cu117 torch on an Ada GPU; the cu118 wheel fixed it (reporter and another)
    (
        "RuntimeError: cuFFT error: CUFFT_INTERNAL_ERROR\n"
        "Running the model on a NVIDIA L4 with nvcc --version 11.7.",
        "torch.cufft-too-old-for-gpu",
        "--index-url https://download.pytorch.org/whl/",
        "https://github.com/HazyResearch/hyena-dna/issues/75",
    ),
    # labels against the model's number of classes (maintainers; reporters confirmed)
    (
        "RuntimeError: CUDA error: device-side assert triggered\n\n"
        "/pytorch/aten/src/THCUNN/SpatialClassNLLCriterion.cu:106: "
        "cunn_SpatialClassNLLCriterion_updateOutput_kernel: block: [0,0,0], thread: [725,0,0] "
        "Assertion `t >= 0 && t < n_classes` failed",
        "torch.device-side-assert",
        "print(labels.min().item(), labels.max().item(), num_classes)",
        "https://github.com/milesial/Pytorch-UNet/issues/258",
    ),
    (
        "/pytorch/aten/src/THCUNN/ClassNLLCriterion.cu:108: cunn_ClassNLLCriterion_updateOutput_kernel:"
        " block: [0,0,0], thread: [7,0,0] Assertion `t >= 0 && t < n_classes` failed.",
        "torch.device-side-assert",
        "print(labels.min().item(), labels.max().item(), num_classes)",
        "https://github.com/spmallick/learnopencv/pull/516",
    ),
    # the CPU loss's wording: labels of -1 (the reporter made them zero-based)
    (
        "RuntimeError: Assertion `cur_target >= 0 && cur_target < n_classes' failed.  at "
        "/Users/distiller/project/conda/conda-bld/pytorch_1556653464916/work/aten/src/THNN/generic/"
        "ClassNLLCriterion.c:92",
        "torch.device-side-assert",
        "print(labels.min().item(), labels.max().item(), num_classes)",
        "https://github.com/GilLevi/AgeGenderDeepLearning/issues/39",
    ),
    # a class count hard-coded in the loss (one-hot scatter) smaller than the data's
    (
        "void THCudaTensor_scatterFillKernel(TensorInfo<Real, IndexType>, TensorInfo<long, IndexType>,"
        " Real, int, IndexType) [with IndexType = unsigned int, Real = float, Dims = 2]: block: "
        "[0,0,0], thread: [1,0,0] Assertion `indexValue >= 0 && indexValue < tensor.sizes[dim]` "
        "failed.\nRuntimeError: CUDA error: device-side assert triggered",
        "torch.device-side-assert",
        "num_classes",
        "https://github.com/wei-tim/YOWO/issues/38",
    ),
    # the maintainer: build only for the architectures this nvcc knows (TORCH_CUDA_ARCH_LIST)
    (
        "nvcc fatal : Unsupported gpu architecture 'compute_75'",
        "cuda.nvcc-too-old-for-gpu",
        "TORCH_CUDA_ARCH_LIST",
        "https://github.com/pytorch/pytorch/issues/22129",
    ),
    # nvcc refusing a newer GCC inside the extension build; the maintainer: use an older GCC
    (
        "/usr/local/cuda-9.0/include/crt/host_config.h:119:2: error: #error -- unsupported GNU version!"
        " gcc versions later than 6 are not supported! #error -- unsupported GNU version! gcc "
        "versions later than 6",
        "cuda.host-compiler-unsupported",
        "gcc-6",
        "https://github.com/tianzhi0549/FCOS/issues/37",
    ),
    # the maintainer: try a newer PyTorch
    (
        '  File "/home/nnir712/anaconda3/envs/zzhpy36/lib/python3.6/site-packages/torch/nn/modules/'
        'batchnorm.py", line 74, in forward\n     self.num_batches_tracked + = 1\n'
        "RuntimeError: CUDA error: misaligned address",
        "nvidia.xid-error",
        "pip install -U torch",
        "https://github.com/pytorch/pytorch/issues/32893",
    ),
    # MXNet's wording of cuBLAS failing to create its handle: out of memory (the reporter made
    # the model smaller)
    (
        "Check failed: err == CUBLAS_STATUS_SUCCESS (1 vs. 0) : Create cublas handle failed",
        "memory.out-of-memory",
        "nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv",
        "https://github.com/awslabs/sockeye/issues/897",
    ),
]


def _commands(finding) -> str:
    return "\n".join(c for fix in finding.fixes for c in fix.commands)


test_a_cuda_error_reaches_its_cause_and_the_knob_its_fix_turned = command_test(
    KNOB, ids=[k[3] for k in KNOB]
)


def test_the_captured_knobs_reach_the_titles_and_fixes() -> None:
    gcc = triage_text(KNOB[5][0] + "\n").findings[0]
    assert "GCC 9 or later" in gcc.title
    cudnn = triage_text(KNOB[2][0] + "\n").findings[0]
    assert cudnn.fixes[0].commands[0].endswith("'libcudnn8*'")  # the system cuDNN's major leads
    comfy = triage_text(KNOB[1][0] + "\n").findings[0]
    assert "--disable-cuda-malloc" in comfy.fixes[0].commands[0]


def test_the_bare_extension_build_line_points_at_the_compiler_error_above_it() -> None:
    # the line alone names no cause: the first compiler error above it does
    text = (
        "subprocess.CalledProcessError: Command '['ninja', '-v']' returned non-zero exit status 1.\n\n"
        "The above exception was the direct cause of the following exception:\n\n"
        "RuntimeError: Error compiling objects for extension\n"
    )
    finding = triage_text(text).findings[0]
    assert finding.id == "torch.extension-build-failed"
    assert "grep -n -m5 -E 'error:|FAILED:|nvcc fatal' build.log" in _commands(finding)
    # with the compiler's own error above it, that error's cause leads
    with_cause = "nvcc fatal   : Unsupported gpu architecture 'compute_89'\n" + text
    assert triage_text(with_cause).findings[0].id == "cuda.nvcc-too-old-for-gpu"


@pytest.mark.parametrize(
    ("text", "not_id", "url"),
    [
        # sharing a CUDA tensor between processes on Windows: not the allocator
        (
            'When i run the trainning project, the compiler report the "Runtime Error(801) operation '
            'not supported at C:\\w\\1\\s\\windows\\pytorch\\torch/csrc/generic/StorageSharing.cpp:245".',
            "torch.cuda-malloc-async-unsupported",
            "https://github.com/pytorch/pytorch/issues/36037",
        ),
        # nvcc refusing a too new GCC (the build's ninja lines after it) is the opposite fix of
        # PyTorch's headers refusing a too old one, and more than the bare build line
        (
            "/usr/local/cuda-11.8/include/crt/host_config.h:132:2: error: #error -- unsupported GNU "
            "version! gcc versions later than 11 are not supported! The nvcc flag "
            "'-allow-unsupported-compiler' can be used to override this version check; however, using"
            " an unsupported host compiler may cause compilation failure or incorrect run time "
            "execution. Use at your own risk.\n\n......\n ninja: build stopped: subcommand failed.\n"
            "      subprocess.CalledProcessError: Command '['ninja', '-v', '-j', '23']' returned "
            "non-zero exit status 1.",
            "torch.extension-compiler-too-old",
            "https://github.com/open-mmlab/mmcv/issues/2900",
        ),
        (
            "/usr/local/cuda-11.8/include/crt/host_config.h:132:2: error: #error -- unsupported GNU "
            "version! gcc versions later than 11 are not supported!\n"
            " ninja: build stopped: subcommand failed.\n"
            "RuntimeError: Error compiling objects for extension",
            "torch.extension-build-failed",
            "https://github.com/open-mmlab/mmcv/issues/2900",
        ),
        # a cuDNN DLL that cannot be located is a missing cuDNN, not two mixed
        (
            "Could not locate cudnn_ops_infer64_8.dll. Please make sure it is in your library path!",
            "cuda.ld-library-path-shadows-wheel",
            "https://github.com/dmMaze/BallonsTranslator/issues/382",
        ),
        # the bare extension-build line must not be read as NCCL's shared memory (a similar-case guess)
        (
            "      RuntimeError: Error compiling objects for extension\n"
            "      [end of output]\n  \n"
            "  note: This error originates from a subprocess, and is likely not a problem with pip.\n"
            "  ERROR: Failed building wheel for pointnet2-ops",
            "nccl.shm-too-small",
            "https://github.com/erikwijmans/Pointnet2_PyTorch/issues/166",
        ),
    ],
)
def test_a_look_alike_message_is_not_read_as_the_cause(text, not_id, url) -> None:
    findings = triage_text(text + "\n").findings
    assert not findings or findings[0].id != not_id, url
