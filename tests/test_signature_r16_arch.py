"""Round 16 sweep of GPU architecture messages outside the plain PyTorch wheels
(checks/signatures/{cuda,torch}.toml): CuPy's and numba's run-time compilers, the driver's PTX JIT,
extensions built for another GPU (mmcv, detectron2), CMake / Makefile CUDA programs, and nvcc
refusing a dropped architecture. Each message, verbatim from its thread, reaches the cause the
thread confirmed first, and one of that cause's fixes names the knob the confirmed fix turned."""

from __future__ import annotations

from triage_lines import knob_test, lookalike_test

# (thread, message, the finding id first, a string one of its fixes' commands or summaries holds)
KNOB = [
    (
        # maintainer: NVRTC of CUDA 8.0 does not accept -arch=compute_61; CuPy was fixed to cap the
        # arch at the newest the loaded NVRTC knows (cupy/cupy#1055)
        "https://github.com/cupy/cupy/issues/1048",
        'NVRTC compilation error: nvrtc: error: invalid value for --gpu-architecture (-arch)\n\n-----\nName: \nOptions: -I/usr/local/lib/python3.5/dist-packages/cupy-4.0.0b2-py3.5-linux-x86_64.egg/cupy/core/include -ftz=true -arch=compute_61\nCUDA source:\n1 \n-----\nTraceback (most recent call last):\n  File "/usr/local/lib/python3.5/dist-packages/cupy-4.0.0b2-py3.5-linux-x86_64.egg/cupy/cuda/compiler.py", line 229, in compile\n    nvrtc.compileProgram(self.ptr, options)\n  File "cupy/cuda/nvrtc.pyx", line 98, in cupy.cuda.nvrtc.compileProgram\n  File "cupy/cuda/nvrtc.pyx", line 108, in cupy.cuda.nvrtc.compileProgram\n  File "cupy/cuda/nvrtc.pyx", line 53, in cupy.cuda.nvrtc.check_status\ncupy.cuda.nvrtc.NVRTCError: NVRTC_ERROR_INVALID_OPTION (5)',
        "cuda.nvcc-too-old-for-gpu",
        "cupy-cuda",
    ),
    (
        # merged fix for the V100: "Update CuPy"
        "https://github.com/linkernetworks/environments/pull/83",
        "cupy.cuda.compiler.CompileException: nvrtc: error: invalid value for --gpu-architecture (-arch)",
        "cuda.nvcc-too-old-for-gpu",
        "cupy-cuda",
    ),
    (
        # a GTX 580 (Fermi, compute_20): CuPy supports compute capability 3.0 and newer only
        # (maintainers, cupy/cupy#638 and #772)
        "https://github.com/cupy/cupy/issues/2853",
        "NVRTC compilation error: nvrtc: error: invalid value for --gpu-architecture (-arch)\n\n-----\nName:\nOptions: -I/home/liu/.local/lib/python2.7/site-packages/cupy/core/include -I /usr/local/cuda-9.0/include -ftz=true -arch=compute_20\nCUDA source:\n1\n-----",
        "cuda.gpu-too-old-for-binary",
        "compute capability 3.0",
    ),
    (
        # the CUDA 12.1 toolkit was installed without its driver; updating the driver to 530 fixed it
        "https://github.com/numba/numba/issues/8961",
        "numba.cuda.cudadrv.driver.LinkerError: [222] Call to cuLinkAddData results in UNKNOWN_CUDA_ERROR\nptxas application ptx input, line 9; fatal   : Unsupported .version 8.1; current version is '8.0'",
        "cuda.toolkit-newer-than-driver",
        "Update the NVIDIA driver",
    ),
    (
        # reporter: resolved by downgrading the conda cudatoolkit to 9.0 (what the driver supports)
        "https://github.com/numba/numba/issues/3794",
        "LinkerError: [218] Call to cuLinkAddData results in UNKNOWN_CUDA_ERROR\nptxas application ptx input, line 9; fatal   : Unsupported .version 6.3; current version is '6.1'\nptxas fatal   : Ptx assembly aborted due to errors",
        "cuda.toolkit-newer-than-driver",
        "cudatoolkit",
    ),
    (
        # Colab's driver (CUDA 12.4) is older than the runtime compiler (12.5): enabling pynvjitlink
        # fixed numba-cuda there (NVIDIA/accelerated-computing-hub#66)
        "https://github.com/googlecolab/colabtools/issues/5081",
        "LinkerError: [222] Call to cuLinkAddData results in CUDA_ERROR_UNSUPPORTED_PTX_VERSION\nptxas application ptx input, line 9; fatal   : Unsupported .version 8.5; current version is '8.4'",
        "cuda.toolkit-newer-than-driver",
        "CUDA_ENABLE_PYNVJITLINK",
    ),
    (
        # mmcv built on an A100 and run on a V100: export TORCH_CUDA_ARCH_LIST=7.0,8.0 and rebuild
        # mmcv-full; reporter: problem solved
        "https://github.com/open-mmlab/mmcv/issues/2201",
        'Exception has occurred: RuntimeError\nCUDA error: no kernel image is available for execution on the device\nCUDA kernel errors might be asynchronously reported at some other API call,so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1.\n  File "/root/mmcv/mmcv/ops/focal_loss.py", line 60, in forward\n    ext_module.sigmoid_focal_loss_forward(',
        "torch.extension-abi-mismatch",
        "TORCH_CUDA_ARCH_LIST",
    ),
    (
        # detectron2 compiled on a K80 and run on a P100: its kernels are built for the GPU of the
        # build machine unless TORCH_CUDA_ARCH_LIST names others (detectron2's install guide)
        "https://github.com/facebookresearch/detectron2/issues/233",
        "RuntimeError: CUDA error: no kernel image is available for execution on the device (ROIAlign_forward_cuda at /net/mraid11/export/data/Projects/detectron2/detectron2_repo/detectron2/layers/csrc/ROIAlign/ROIAlign_cuda.cu:361)\nframe #0: c10::Error::Error(c10::SourceLocation, std::string const&) + 0x47 (0x2af4cfc99687 in /home/data/Software/Anaconda3_2018/envs/detectron2/lib/python3.7/site-packages/torch/lib/libc10.so)\nframe #1: detectron2::ROIAlign_forward_cuda(at::Tensor const&, at::Tensor const&, float, int, int, int, bool) + 0x9f7 (0x2af4eab00151 in /net/mraid11/export/data/Projects/detectron2/detectron2_repo/detectron2/_C.cpython-37m-x86_64-linux-gnu.so)",
        "torch.extension-abi-mismatch",
        "TORCH_CUDA_ARCH_LIST",
    ),
    (
        # maintainer: compiled for another architecture than the RTX 4090; set CMAKE_CUDA_ARCHITECTURES
        "https://github.com/ingowald/cudaKDTree/issues/18",
        "terminate called after throwing an instance of thrust: system:: system_error'\nwhat(): parallel_for failed: cudErrorNoKernelImageForDevice: no kernel image is available for execution on the device.",
        "cuda.gpu-too-new-for-binary",
        "CMAKE_CUDA_ARCHITECTURES",
    ),
    (
        # commenters: the build script's arch line for the GPU (sm_70 / Turing) was commented out;
        # including it fixed the error
        "https://github.com/roytseng-tw/Detectron.pytorch/issues/168",
        "cudaCheckError() failed : no kernel image is available for execution on the device",
        "cuda.gpu-too-new-for-binary",
        "-gencode",
    ),
    (
        # Kepler was removed from CUDA 12: the XLA build still listed compute_35; the maintainer
        # points at the compute capabilities the build is configured with
        "https://github.com/pytorch/xla/issues/7823",
        "nvcc fatal   : Unsupported gpu architecture 'compute_35'",
        "cuda.nvcc-arch-dropped",
        "TF_CUDA_COMPUTE_CAPABILITIES",
    ),
    (
        # maintainer: upgrade CUDA to one that knows SM 9.0, or pass --cuda_compute_capabilities
        "https://github.com/jax-ml/jax/issues/16640",
        "    TF_CUDA_COMPUTE_CAPABILITIES=sm_52,sm_60,sm_70,sm_80,compute_90 nvcc fatal   : Unsupported gpu architecture 'compute_90'\nTarget //build:build_wheel failed to build",
        "cuda.nvcc-too-old-for-gpu",
        "11.8",
    ),
]


test_message_reaches_its_cause_with_the_knob = knob_test(
    KNOB, columns=("source", "text", "finding_id", "knob")
)


# (thread, a real message of another cause, the cause it must not be read as)
LOOKALIKE = [
    (
        # torch's own jiterator (CUDA 11.3 torch on a newer GPU): the torch build, not CuPy or numba
        "https://github.com/PRBonn/MaskPLS/issues/18",
        "RuntimeError: nvrtc: error: invalid value for --gpu-architecture (-arch)\n\nnvrtc compilation failed: \n\n#define NAN __int_as_float(0x7fffffff)\n#define POS_INFINITY __int_as_float(0x7f800000)\n#define NEG_INFINITY __int_as_float(0xff800000)",
        "cuda.nvcc-too-old-for-gpu",
    ),
    (
        # torch's own kernel in a torch traceback: the torch build, not an extension
        "https://github.com/ademakdogan/nails_segmentation/issues/8",
        '  File "/home/yanhao/anaconda3/envs/nailseg/lib/python3.8/site-packages/torch/nn/modules/batchnorm.py", line 148, in forward\n    self.num_batches_tracked.add_(1)  # type: ignore[has-type]\nRuntimeError: CUDA error: no kernel image is available for execution on the device',
        "torch.extension-abi-mismatch",
    ),
    (
        # the same torch-build cause: must not be read as a CMake / Makefile CUDA program
        "https://github.com/ademakdogan/nails_segmentation/issues/8",
        '  File "/home/yanhao/anaconda3/envs/nailseg/lib/python3.8/site-packages/torch/nn/modules/batchnorm.py", line 148, in forward\n    self.num_batches_tracked.add_(1)  # type: ignore[has-type]\nRuntimeError: CUDA error: no kernel image is available for execution on the device',
        "cuda.gpu-too-new-for-binary",
    ),
]


test_lookalike_is_not_read_as_the_new_cause = lookalike_test(
    LOOKALIKE, columns=("source", "text", "tempting")
)
