"""Building and installing compiled GPU packages (checks/signatures/*.toml and entries of
existing causes): each common build message reaches the cause its real threads confirmed, first,
with a fix naming the knob that fix turned (a package, a flag, an environment variable, a version)."""

from __future__ import annotations

import pytest

from tests.triage_lines import assert_not_first, command_test

# (message verbatim from the thread, the finding id first, a command one of its fixes gives, thread)
KNOB = [
    (
        "/usr/local/lib/python3.6/dist-packages/torch/include/ATen/cuda/CUDAContext.h:6:22: fatal "
        "error: cusparse.h: No such file or directory\ncompilation terminated.\n"
        "error: command '/usr/local/cuda/bin/nvcc' failed with exit status 1",
        "cuda.env-not-inherited",
        "cuda-libraries-dev",
        "https://github.com/facebookresearch/maskrcnn-benchmark/issues/685",  # cuda-cusparse-dev
    ),
    (
        "/opt/conda/envs/viscpm/lib/python3.10/site-packages/torch/include/ATen/cuda/CUDAContext.h:"
        "6:10: fatal error: cusparse.h: No such file or directory",
        "cuda.env-not-inherited",
        "export CUDA_HOME=",
        "https://github.com/OpenBMB/VisCPM/issues/5",  # maintainer: set CUDA_HOME to a full toolkit
    ),
    (
        "fatal error: cuda_runtime.h: No such file or directory",
        "torch.extension-cuda-toolkit-missing",
        "cuda-toolkit=<torch.version.cuda>",  # conda install -c nvidia (quoted in the fix)
        "https://github.com/NVIDIA/nccl/issues/131",  # conda install -c nvidia cuda-toolkit
    ),
    (
        "/home/mauriciog/.conda/envs/SComatic/include/python3.7m/Python.h:44:10: fatal error: "
        "crypt.h: No such file or directory\n       #include <crypt.h>\n                ^~~~~~~~~\n"
        "      compilation terminated.",
        "python.crypt-header-missing",
        "conda install -c conda-forge libxcrypt",
        "https://github.com/cortes-ciriano-lab/SComatic/issues/89",
    ),
    (
        "python 3.6m/Python.h:39:10: fatal error: 'crypt.h' file not found",
        "python.crypt-header-missing",
        "sudo apt-get install -y libcrypt-dev",
        "https://github.com/theimpostor/termux-vim-ycm/issues/1",  # libcrypt-dev: "It can work"
    ),
    (
        "/usr/bin/ld: cannot find -lcudart: No such file or directory",
        "cuda.link-library-not-found",
        "sudo ln -s /usr/local/cuda/lib64/libcudart.so /usr/lib/libcudart.so",
        "https://github.com/MrTornado24/Next3D/issues/25",
    ),
    (
        "../../x86_64-conda-linux-gnu/bin/ld: cannot find -lcudart: No such file or directory",
        "cuda.link-library-not-found",
        "export LIBRARY_PATH=$CUDA_HOME/lib64:$LIBRARY_PATH",
        "https://github.com/ivan-chai/torch-linear-assignment/issues/2",  # the system CUDA's lib64
    ),
    (
        "/usr/bin/ld: cannot find -lcuda\ncollect2: error: ld returned 1 exit status\n"
        "make: *** [lib/libmxnet.so] Error 1\nmake: *** Waiting for unfinished jobs....",
        "cuda.link-library-not-found",
        "export LIBRARY_PATH=$CUDA_HOME/lib64/stubs:$LIBRARY_PATH",
        "https://github.com/apache/mxnet/issues/2656",  # maintainer: the CUDA SDK is not on the path
    ),
    (
        "-- The CUDA compiler identification is unknown\n"
        "CMake Error at PyNvCodec/TC/CMakeLists.txt:20 (enable_language):\n"
        "  No CMAKE_CUDA_COMPILER could be found.\n\n"
        "  Tell CMake where to find the compiler by setting either the environment\n"
        '  variable "CUDACXX" or the CMake cache entry CMAKE_CUDA_COMPILER to the full\n'
        "  path to the compiler, or to the compiler name if it is in the PATH.",
        "cuda.cmake-no-cuda-compiler",
        "export CUDACXX=/usr/local/cuda/bin/nvcc",
        "https://github.com/NVIDIA/VideoProcessingFramework/issues/16",  # "It works!"
    ),
    (
        "-- The CUDA compiler identification is unknown\n"
        "CMake Error at CMakeLists.txt:43 (enable_language):\n  No CMAKE_CUDA_COMPILER could be found.",
        "cuda.cmake-no-cuda-compiler",
        "export CUDACXX=/usr/local/cuda/bin/nvcc",
        "https://github.com/ComputationalRadiationPhysics/cuda_memtest/issues/45",
    ),
    (
        "During the installation of OpenMVS library, while running the cmake using the command: "
        '"cmake ..", we are getting an error message like this: "No CMAKE_CUDA_COMPILER could be '
        'found".\nCUDA is already installed on the server',
        "cuda.cmake-no-cuda-compiler",
        "cmake .. -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc",
        "https://github.com/cdcseacave/openMVS/issues/930",
    ),
    (
        "OSError: Unknown compute capability. Specify the target compute capabilities in the "
        "TCNN_CUDA_ARCHITECTURES environment variable or install PyTorch with the CUDA backend to "
        "detect it automatically.",
        "torch.cuda-build-without-gpu",
        "export TCNN_CUDA_ARCHITECTURES=<compute capability without the dot, e.g. 86>",
        "https://github.com/nerfstudio-project/nerfstudio/issues/1642",
    ),
    (
        "g++: fatal error: Killed signal terminated program cc1plus\ncompilation terminated.\n"
        "make: *** [golpe/rules.mk:28: build/config.o] Error 1\n"
        "make: *** Waiting for unfinished jobs....",
        "memory.host-ram-exhausted",
        "MAX_JOBS=2 pip install --no-build-isolation <package>",
        "https://github.com/hoytech/strfry/issues/41",  # fewer parallel jobs / more RAM
    ),
    (
        "/tmp/pip-install-ogtmafks/mamba-ssm_fa1e7fb3478e4f2c98a605ddfb1e5d62/setup.py:119: "
        "UserWarning: mamba_ssm was requested, but nvcc was not found.  Are you sure your "
        "environment has nvcc available?\n"
        '        if bare_metal_version >= Version("11.8"):\n'
        "    NameError: name 'bare_metal_version' is not defined",
        "torch.extension-cuda-toolkit-missing",
        "conda install -c nvidia cuda-toolkit=X.Y",
        "https://github.com/state-spaces/mamba/issues/602",  # causal-conv1d#13: CUDA_HOME unset
    ),
    (
        "[  4%] Building CUDA object CMakeFiles/gsplat.dir/vendor/gsplat/forward.cu.o\n"
        "/usr/include/c++/11/bits/std_function.h:435:145: error: parameter packs not expanded "
        "with ‘...’:\n  435 |         function(_Functor&& __f)",
        "cuda.host-compiler-unsupported",
        "sudo apt-get install -y gcc-10 g++-10",
        "https://github.com/WebODM/OpenSplat/issues/61",  # maintainer: nvcc with g++ 11
    ),
    (
        "error C++14 or later compatible compiler is required to use PyTorch.",
        "torch.extension-cxx-standard-too-old",
        "extra_compile_args={'cxx': ['-std=c++14']}",
        "https://github.com/michaelzhang-ai/vid2vid/issues/7",  # -std=c++11 -> -std=c++14
    ),
    (
        "But when I'm trying to build my project \"C++17 or later compatible compiler is required "
        'to use PyTorch" error raises.\nIt seems to me that the C++ version in CMake file needs to '
        "be changed to 17.",
        "torch.extension-cxx-standard-too-old",
        "set(CMAKE_CXX_STANDARD 17)",
        "https://github.com/pytorch/pytorch/issues/103371",
    ),
    (
        "AssertionError: Unable to pre-compile async_io\n"
        "      DS_BUILD_OPS=1\n"
        "       [WARNING]  async_io requires the dev libaio .so object and headers but these were "
        "not found.\n"
        "       [WARNING]  If libaio is already installed (perhaps from source), try setting the "
        "CFLAGS and LDFLAGS environment variables to where it can be found.\n"
        "       [WARNING]  One can disable async_io with DS_BUILD_AIO=0\n"
        "       [ERROR]  Unable to pre-compile async_io",
        "deepspeed.async-io-libaio-missing",
        "DS_BUILD_OPS=1 DS_BUILD_AIO=0 pip install deepspeed",
        "https://github.com/deepspeedai/DeepSpeed/issues/3211",
    ),
    (
        "RuntimeError: Unable to JIT load the async_io op due to it not being compatible due to "
        "hardware/software issue.",
        "deepspeed.async-io-libaio-missing",
        "sudo apt-get install -y libaio-dev",
        "https://github.com/deepspeedai/DeepSpeed/issues/1037",  # maintainers: apt install libaio-dev
    ),
    (
        "ModuleNotFoundError: No module named 'torch'\n      [end of output]\n\n"
        "  note: This error originates from a subprocess, and is likely not a problem with pip.",
        "python.build-isolation-hides-torch",
        "pip install --no-build-isolation -e .",
        "https://github.com/Tencent-Hunyuan/Hunyuan3D-2.1/pull/205",
    ),
    (
        "pip install ./diff-gaussian-rasterization failed with no module named 'torch'\n"
        "D:\\codes\\LGM>pip install ./diff-gaussian-rasterization\n"
        "  Getting requirements to build wheel ... error\n  error: subprocess-exited-with-error\n\n"
        "  × Getting requirements to build wheel did not run successfully.",
        "python.build-isolation-hides-torch",
        "pip install --no-build-isolation -e .",
        "https://github.com/3DTopia/LGM/issues/64",  # fixed by LGM#73: --no-build-isolation
    ),
    (
        "The detected CUDA version (10.1) mismatches the version that was used to compile\n"
        "PyTorch (11.7). Please make sure to use the same CUDA versions.",
        "cuda.toolkits-disagree",
        "export CUDA_HOME=/usr/local/cuda-11.7",
        "https://github.com/aeolusguan/NMRF/issues/7",  # CUDA_HOME pointed at 10.1
    ),
    (
        "/usr/local/cuda-9.0/include/crt/host_config.h:119:2: error: #error -- unsupported GNU "
        "version! gcc versions later than 6 are not supported!",
        "cuda.host-compiler-unsupported",
        "sudo apt-get install -y gcc-6 g++-6",
        "https://github.com/adujardin/zed-openpose/issues/6",  # downgrade gcc to 6 or CUDA 10
    ),
]


test_a_build_message_gets_its_cause_and_the_knob = command_test(KNOB, ids=[k[3] for k in KNOB])


# real messages of other causes that a new pattern could catch: (message, id it must not lead with)
LOOKALIKE = [
    # importing torch in a notebook kernel without it: not a build (jupyter/notebook#4629)
    (
        "ModuleNotFoundError                       Traceback (most recent call last)\n"
        "<ipython-input-10-eb42ca6e4af3> in <module>\n----> 1 import torch\n"
        "ModuleNotFoundError: No module named 'torch'",
        "python.build-isolation-hides-torch",
    ),
    # Triton's launcher linking -lcuda stays Triton's cause (its entry's example line, under inductor)
    (
        "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\n"
        "/usr/bin/ld: cannot find -lcuda: No such file or directory",
        "cuda.link-library-not-found",
    ),
    # a missing Python.h is the python3-dev cause, not crypt.h (torch.python-headers-missing's example)
    (
        "/tmp/tmpabc/main.c:5:10: fatal error: Python.h: No such file or directory",
        "python.crypt-header-missing",
    ),
]


@pytest.mark.parametrize(("text", "not_id"), LOOKALIKE)
def test_a_look_alike_is_not_read_as_the_build_cause(text, not_id) -> None:
    assert_not_first(text + "\n", not_id, None, may_be_empty=True)
