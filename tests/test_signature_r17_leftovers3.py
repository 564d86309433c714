"""Round-17 leftovers (checks/signatures/cuda.toml and the Paddle entry it extends):
CMake stopping because CMAKE_CUDA_ARCHITECTURES ended up empty or invalid (its CUDA compiler
detection failed, or the project requires the variable), and Paddle's "Operator X raises an
thrust::system::system_error ... no kernel image" line where the word paddle is not in the
paste. Each message is copied from a public thread whose fix was confirmed (the reporter says it
worked, or a maintainer states cause and fix); it reaches that cause first, and one of the
cause's fixes names the knob the confirmed fix turned. Look-alike rows are real messages of
other causes a new pattern could catch: they must not rank the new cause first."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, text its fixes name, URL)
KNOB = [
    (
        "You must set CMAKE_CUDA_ARCHITECTURES to e.g.  'native', 'all-major', '70'",
        "cuda.cmake-cuda-architectures-empty",
        "-DCMAKE_CUDA_ARCHITECTURES=",
        # maintainer: pass -DCMAKE_CUDA_ARCHITECTURES; the reporter got past CMake with 70
        "https://github.com/colmap/colmap/issues/1799",
    ),
    (
        "CMAKE_CUDA_ARCHITECTURES must be valid if set",
        "cuda.cmake-cuda-architectures-empty",
        "cmake<3.23",
        # reporter (CMake 3.23.2): going back to CMake 3.22.5 fixed it
        "https://github.com/NVlabs/instant-ngp/issues/753",
    ),
    (
        "CMake Error at E:/Software/cmake/share/cmake-3.23/Modules/CMakeDetermineCUDACompiler.cmake:311 "
        "(message):\n"
        "  CMAKE_CUDA_ARCHITECTURES must be valid if set.\n"
        "Call Stack (most recent call first):\n"
        "  CMakeLists.txt:11 (project)",
        "cuda.cmake-cuda-architectures-empty",
        "reinstall the CUDA toolkit",
        # reporter: uninstalled CUDA and installed it from scratch, then cmake ran
        "https://github.com/bycloudai/instant-ngp-Windows/issues/4",
    ),
    (
        "训练过程中出现SystemError: (Fatal) Operator gaussian_random raises an class "
        "thrust::system::system_error exception.\n"
        "The exception content is\n"
        ":parallel_for failed: cudaErrorNoKernelImageForDevice: no kernel image is available for "
        "execution on the device. ",
        "paddle.gpu-too-new-for-build",
        "paddlepaddle-gpu",
        # maintainer: that PaddleX build needs CUDA 11.2; the reporter ran another Paddle build
        "https://github.com/PaddlePaddle/PaddleX/issues/1071",
    ),
    (
        "SystemError: (Fatal) Operator uniform_random raises an thrust::system::system_error "
        "exception.\n"
        "The exception content is\n"
        ":parallel_for failed: cudaErrorNoKernelImageForDevice: no kernel image is available for "
        "execution on the device. (at /paddle/paddle/fluid/imperative/tracer.cc:172)",
        "paddle.gpu-too-new-for-build",
        "paddlepaddle-gpu",
        # maintainer: on the A100 use Paddle's CUDA 11 build (install page)
        "https://github.com/PaddlePaddle/PaddleNLP/issues/262",
    ),
]


test_a_leftover_message_reaches_its_cause_with_its_knob = knob_test(KNOB, ids=[k[3] for k in KNOB])


# (a real message of another cause, the new cause it must not rank first, URL)
LOOKALIKE = [
    # nvcc too old for CMake's 'native' value: not an empty architecture list
    (
        "nvcc fatal   : Unsupported gpu architecture 'compute_native'",
        "cuda.cmake-cuda-architectures-empty",
        "https://github.com/colmap/colmap/issues/2464",
    ),
    # libtorch built without this GPU's arch, raising a thrust-free c10::Error: not a Paddle wheel
    (
        "terminate called after throwing an instance of 'c10::Error'\n"
        "  what():  CUDA error: no kernel image is available for execution on the device",
        "paddle.gpu-too-new-for-build",
        "https://github.com/pytorch/pytorch/issues/54053",
    ),
]


test_a_look_alike_message_is_not_read_as_the_new_cause = lookalike_test(
    LOOKALIKE, ids=[k[2] for k in LOOKALIKE], may_be_empty=True
)
