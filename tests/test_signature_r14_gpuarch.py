"""Round 14 sweep of GPU architecture support beyond the torch wheel (checks/signatures/{paddle,torch,apps,cuda}.toml
and the fix it added to onnxruntime's no-kernel-image entry in checks/signatures/*.toml): each message, verbatim
from its thread, reaches the cause the thread confirmed first, and one of that cause's fixes names the
knob the confirmed fix turned."""

from __future__ import annotations

from triage_lines import source_knob_test, source_lookalike_test

# (thread, message, the finding id first, a string one of its fixes' commands or summaries holds)
KNOB = [
    (
        # maintainer: RTX 50 needs the cu129 wheel (paddlepaddle-gpu==3.2.0 from the cu129 index)
        "https://github.com/PaddlePaddle/Paddle/issues/75016",
        "E0901 21:40:14.737040 47228 gpu_resources.cc:98] Mismatched GPU Architecture: The installed PaddlePaddle package was compiled for 61 75 80 86 ,but your current GPU is 120 Solution: Install the correct wheel package built for your GPU from the official PaddlePaddle website: https://www.paddlepaddle.org.cn/",
        "paddle.gpu-too-new-for-build",
        "packages/stable/cu129/",
    ),
    (
        # maintainer: remove the plan and regenerate it on the device; reporter rebuilt it
        "https://github.com/NVIDIA/TensorRT/issues/2177",
        "6: The engine plan file is generated on an incompatible device, expecting compute 6.1 got compute 8.6, please rebuild.\n4: [runtime.cpp::deserializeCudaEngine::76] Error Code 4: Internal Error (Engine deserialization failed.)",
        "tensorrt.engine-built-on-other-gpu",
        "trtexec",
    ),
    (
        # reporter: the engine was generated with a different version; reconverting it worked
        "https://github.com/NVIDIA/TensorRT/issues/2105",
        "[06/29/2022-16:20:45] [TRT] [E] 1: [stdArchiveReader.cpp::StdArchiveReader::35] Error Code 1: Serialization (Serialization assertion safeVersionRead == safeSerializationVersion failed.Version tag does not match. Note: Current Version: 0, Serialized Engine Version: 43)\n[06/29/2022-16:20:45] [TRT] [E] 4: [runtime.cpp::deserializeCudaEngine::50] Error Code 4: Internal Error (Engine deserialization failed.)",
        "tensorrt.engine-version-mismatch",
        "trtexec",
    ),
    (
        # the build flag that lists the compute capabilities (TF_CUDA_COMPUTE_CAPABILITIES) was the cause
        "https://github.com/tensorflow/tensorflow/issues/4002",
        "Ignoring gpu device (device: 0, name: GRID K520, pci bus id: 0000:00:03.0) with Cuda compute capability 3.0. The minimum required Cuda capability is 3.5.",
        "torch.gpu-too-old-for-build",
        "TF_CUDA_COMPUTE_CAPABILITIES",
    ),
    (
        # maintainer: Quadro RTX 5000 is Turing, not supported by FlashAttention 2
        "https://github.com/Dao-AILab/flash-attention/issues/762",
        "RuntimeError: FlashAttention only supports Ampere GPUs or newer.",
        "flashattn.gpu-arch-unsupported",
        "sdpa",
    ),
    (
        # reporter: xformers built from the current source no longer fails on the RTX 5090
        "https://github.com/facebookresearch/xformers/issues/1251",
        "CUDA error (/__w/xformers/xformers/third_party/flash-attention/hopper/flash_fwd_launch_template.h:175): no kernel image is available for execution on the device",
        "torch.extension-abi-mismatch",
        "xformers",
    ),
    (
        # reporter: the only way it works on the RTX 50 GPU is NVIDIA's NGC TensorFlow container
        "https://github.com/tensorflow/tensorflow/issues/99592",
        "W tensorflow/compiler/mlir/tools/kernel_gen/tf_gpu_runtime_wrappers.cc:40] 'cuModuleLoadData(&module, data)' failed with 'CUDA_ERROR_INVALID_PTX'\nW tensorflow/compiler/mlir/tools/kernel_gen/tf_gpu_runtime_wrappers.cc:40] 'cuModuleGetFunction(&function, module, kernel_name)' failed with 'CUDA_ERROR_INVALID_HANDLE'",
        "torch.gpu-too-new-for-build",
        "nvcr.io/nvidia/tensorflow",
    ),
    (
        # maintainer: build with the latest CUDA and CMAKE_CUDA_ARCHITECTURES=121 for the GB10
        # (round 19: ONNX Runtime's own cause, where torch's stood in before)
        "https://github.com/microsoft/onnxruntime/issues/27528",
        "When i build for , i have error: \n` 2026-03-03 19:21:46.614105057 [E:onnxruntime:, sequential_executor.cc:572 ExecuteKernel] Non-zero status code returned while running Relu node. Name:'Relu_2' Status Message: CUDA error cudaErrorNoKernelImageForDevice:no kernel image is available for execution on the device",
        "onnxruntime.gpu-arch-not-built",
        "CMAKE_CUDA_ARCHITECTURES",
    ),
    (
        # maintainer: an RTX 4080 (compute capability 8.9) needs CuPy v11 or later
        "https://github.com/cupy/cupy/issues/8045",
        "CUDA_ERROR_INVALID_SOURCE: device kernel image is invalid",
        "cuda.gpu-too-new-for-binary",
        "CuPy",
    ),
    (
        # maintainer: the program loaded NVRTC 11.2, which does not know --gpu-architecture=sm_89
        "https://github.com/eyalroz/cuda-api-wrappers/issues/509",
        "`Failed invoking compiler for CUDA C++ program at 0x07fae240a1c80: NVRTC_ERROR_INVALID_OPTION`",
        "cuda.nvcc-too-old-for-gpu",
        "libnvrtc",
    ),
]


test_a_gpu_arch_message_gets_its_cause_and_the_knob = source_knob_test(KNOB)


# real messages the new patterns (or an unrelated cause) could catch: they must not get that cause
LOOKALIKE = [
    (
        # ggml's missing device code is no DKMS kernel-module build failure
        "https://github.com/mozilla-ai/llamafile/issues/434",
        "ggml-cuda.cu:1412: ERROR: CUDA kernel vec_dot_q4_K_q8_1_impl_vmmq has no device code compatible with CUDA arch 600. ggml-cuda.cu was compiled for: 500,600,700,800,900",
        "nvidia.module-not-built-for-kernel",
    ),
    (
        # an invalid PTX from tinygrad's own code generator, not a TensorFlow build older than the GPU
        "https://github.com/tinygrad/tinygrad/issues/5334",
        "`CUDA=1 PTX=1` -> `RuntimeError: module load failed with status code 218: CUDA_ERROR_INVALID_PTX`",
        "torch.gpu-too-new-for-build",
    ),
]


test_a_look_alike_is_not_read_as_the_new_cause = source_lookalike_test(
    LOOKALIKE, may_be_empty=True, newline=True
)
