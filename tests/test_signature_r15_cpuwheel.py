"""Round 15 sweep of the CPU-only torch wheel, the CUDA toolkit / nvcc and WSL graphics
(checks/signatures/{torch,cuda,python_env}.toml): each message, verbatim from its thread, reaches the cause
the thread confirmed first, and one of that cause's fixes names the knob the confirmed fix turned."""

from __future__ import annotations

from triage_lines import source_knob_test, source_lookalike_test

# (thread, message, the finding id first, a string one of its fixes' commands or summaries holds)
KNOB = [
    (
        # maintainer: the requirements leave out the CUDA build on purpose; the reporter installs
        # the +cu113 wheel from the PyTorch index
        "https://github.com/ahrm/UnstableFusion/issues/15",
        "Installed all dependencies using `pip install -r requirements.txt` but receive this error: `AssertionError: Torch not compiled with CUDA enabled`",
        "torch.cpu-build-on-gpu-host",
        "download.pytorch.org/whl/cu",
    ),
    (
        # a user with the same error: installing torch from the CUDA index (and taking torch out of
        # requirements.txt) solved it
        "https://github.com/zhuang2002/Cobra/issues/4",
        "AssertionError: Torch not compiled with CUDA enabled",
        "torch.cpu-build-on-gpu-host",
        "download.pytorch.org/whl/cu",
    ),
    (
        # reporter's solution: pip reused its cached CPU wheel; --no-cache-dir fetched the +cu117 one
        "https://github.com/Sanster/IOPaint/issues/425",
        "> pip install torch==1.13.1+cu117 --extra-index-url https://download.pytorch.org/whl/cu117\nERROR: Could not find a version that satisfies the requirement torch==1.13.1+cu117 (from versions: 1.11.0, 1.12.0, 1.12.1, 1.13.0, 1.13.1, 2.0.0, 2.0.1, 2.1.0, 2.1.1, 2.1.2)\nERROR: No matching distribution found for torch==1.13.1+cu117",
        "torch.cuda-pin-needs-pytorch-index",
        "--no-cache-dir",
    ),
    (
        # maintainer: setup.py's PATH is not where nvcc is searched; the shell's PATH (sudo resets it)
        "https://github.com/cudamat/cudamat/issues/36",
        "unable to execute nvcc: No such file or directory\nerror: command 'nvcc' failed with exit status 1",
        "torch.extension-cuda-toolkit-missing",
        "PATH",
    ),
    (
        # maintainer: install the CUDA toolkit, or put /usr/local/cuda/bin on PATH
        "https://github.com/dnouri/kfkd-tutorial/issues/6",
        "ERROR (theano.sandbox.cuda): nvcc compiler not found on $PATH. Check your nvcc installation and try again.",
        "torch.extension-cuda-toolkit-missing",
        "/usr/local/cuda/bin",
    ),
    (
        # maintainer: CUDA_HOME is how pytorch finds nvcc, which conda's CUDA does not ship
        "https://github.com/CSAILVision/gandissect/issues/19",
        "OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root.",
        "torch.extension-cuda-toolkit-missing",
        "CUDA_HOME",
    ),
    (
        # maintainer: the CUDA environment is not set; check nvcc --version
        "https://github.com/sp-uhh/storm/issues/14",
        "raise EnvironmentError('CUDA_HOME environment variable is not set. '\nOSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root.",
        "torch.extension-cuda-toolkit-missing",
        "nvcc --version",
    ),
    (
        # reporter's workaround: append -allow-unsupported-compiler to the nvcc flags
        "https://github.com/NVIDIA/cuda-samples/issues/179",
        "#error -- unsupported GNU version! gcc versions later than 11 are not supported! The nvcc flag '-allow-unsupported-compiler' can be used to override this version check; however, using an unsupported host compiler may cause compilation failure or incorrect run time execution. Use at your own risk.",
        "cuda.host-compiler-unsupported",
        "-allow-unsupported-compiler",
    ),
    (
        # the PR's author: CUDA 13.3 supports gcc 15 at most; point nvcc at an older gcc
        "https://github.com/cms-patatrack/pixeltrack-standalone/pull/432",
        "In file included from /usr/local/cuda/include/cuda_runtime.h:82,\n                 from <command-line>:\n/usr/local/cuda/include/crt/host_config.h:137:2: error: #error -- unsupported GNU version! gcc versions later than 15 are not supported! The nvcc flag '-allow-unsupported-compiler' can be used to override this version check; however, using an unsupported host compiler may cause compilation failure or incorrect run time execution. Use at your own risk.",
        "cuda.host-compiler-unsupported",
        "gcc 15",
    ),
    (
        # maintainer: build with an older gcc (cudaGcc = pkgs.gcc11)
        "https://github.com/abysssol/ollama-flake/issues/3",
        " #error -- unsupported GNU version! gcc versions later than 11 are not supported! The nvcc flag '-allow-unsupported-compiler' can be used to override this version check; however, using an unsupported host compiler may cause compilation failure or incorrect run time execution. Use at your own risk.\nI have an NVidia 3060 Laptop.",
        "cuda.host-compiler-unsupported",
        "gcc 11",
    ),
    (
        # maintainer: the compiler check is wrong for this pair; work-around TORCH_DONT_CHECK_COMPILER_ABI=1
        "https://github.com/conda-forge/pytorch-cpu-feedstock/issues/507",
        '    File "$PREFIX/lib/python3.11/site-packages/torch/utils/cpp_extension.py", line 716, in build_extensions\n      _check_cuda_version(compiler_name, compiler_version)\n    File "$PREFIX/lib/python3.11/site-packages/torch/utils/cpp_extension.py", line 574, in _check_cuda_version\n      raise RuntimeError(\n  RuntimeError: The current installed version of $BUILD_PREFIX/bin/x86_64-conda-linux-gnu-c++ (>=6.0.0, <14.0).',
        "cuda.host-compiler-unsupported",
        "TORCH_DONT_CHECK_COMPILER_ABI",
    ),
    (
        # maintainer (ptrblck): CUDA 10.2 limits gcc; install an older gcc
        "https://github.com/pytorch/pytorch/issues/33530",
        "However, when I try to compile the source codes, I see that cuda 10.2 does not support the\ngcc > 7.0.  Why there is a such a restriction? Can I use gcc > 8 to compile pytorch?",
        "cuda.host-compiler-unsupported",
        "gcc",
    ),
    (
        # maintainer: compute_86 (RTX 3090) needs CUDA 11; upgrade CUDA
        "https://github.com/CMU-Perceptual-Computing-Lab/openpose/issues/1805",
        "ubuntu 18.04\ncuda 10.1\nrtx3090 <------\n@/@\n\nmake\nsrc/openpose/CMakeFiles/openpose.dir/build.make:70: recipe for target 'src/openpose/CMakeFiles/openpose.dir/gpu/openpose_generated_cuda.cu.o' failed\nmake[2]: *** [src/openpose/CMakeFiles/openpose.dir/gpu/openpose_generated_cuda.cu.o] Error 1\nnvcc fatal   : Unsupported gpu architecture 'compute_86'",
        "cuda.nvcc-too-old-for-gpu",
        "11.1",
    ),
    (
        # reporter: the CUDA version was not new enough for the GPU; 11.8 is required
        "https://github.com/enhuiz/vall-e/issues/71",
        "Unsupported gpu architecture 'compute_89'",
        "cuda.nvcc-too-old-for-gpu",
        "11.8",
    ),
    (
        # reporter's own solution: CUDA 11.0 cannot build compute_86; use a newer CUDA, or build
        # for compute_80 instead
        "https://github.com/GXYM/DRRG/issues/31",
        "When i used 3090 cuda11.0+ to run the code 'make -j4' in './csrc', i met error 'Unsupported gpu architecture 'compute_86''.",
        "cuda.nvcc-too-old-for-gpu",
        "11.1",
    ),
    (
        # maintainer: a local CUDA 11.2 against a torch built for 10.2: install the torch that
        # matches the local CUDA (CUDA 11.*)
        "https://github.com/rusty1s/pytorch_sparse/issues/189",
        "RuntimeError:\n    The detected CUDA version (11.2) mismatches the version that was used to compile\n    PyTorch (10.2). Please make sure to use the same CUDA versions.",
        "cuda.toolkits-disagree",
        "torch build for CUDA 11",
    ),
    (
        # reporter's workaround: --torch-backend=auto breaks on nvidia-smi's one line per GPU; pass
        # the backend (--torch-backend=cuXXX) that nvidia-smi allows
        "https://github.com/astral-sh/uv/issues/14647",
        'uv pip install -U "vllm[audio]" --torch-backend=auto\nerror: after parsing `572.60\n`, found `572.60\n`, which is not part of a valid version',
        "uv.torch-backend-auto-failed",
        "--torch-backend=cu",
    ),
]


test_a_cpuwheel_message_gets_its_cause_and_the_knob = source_knob_test(KNOB)


# real messages of other causes that the new entries could catch: they must not get that cause
LOOKALIKE = [
    (
        # an nvcc that ran and failed (an old /usr/bin/nvcc; a fresh CUDA install fixed it): nvcc
        # was found, so it is no missing toolkit
        "https://github.com/ucbdrive/few-shot-object-detection/issues/11",
        "nvcc fatal   : Unsupported gpu architecture 'compute_61\nerror: command '/usr/bin/nvcc' failed with exit status 1",
        "torch.extension-cuda-toolkit-missing",
    ),
    (
        # --torch-backend=auto ran and picked the CPU wheel: no failure to read the driver
        "https://github.com/astral-sh/uv/issues/17236",
        'Ran command `uv pip install "torch" --torch-backend=auto`\n\nFor both cases, this is the output I get. Note that the PyTorch wheel for 2.9.1+cpu has been installed.',
        "uv.torch-backend-auto-failed",
    ),
]


test_a_look_alike_is_not_read_as_the_new_cause = source_lookalike_test(
    LOOKALIKE, may_be_empty=True, newline=True
)
