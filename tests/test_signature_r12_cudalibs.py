"""CUDA math-library and kernel-execution errors (checks/signatures/*.toml): each common
message reaches the cause its real threads confirmed, first, with a fix naming the knob that fix
turned (a torch build, a cuDNN setting, a batch size, the launch configuration, a load option)."""

from __future__ import annotations

import pytest

from tests.triage_lines import assert_not_first, command_test

# (message verbatim from the thread, the finding id first, a command one of its fixes gives, thread)
KNOB = [
    (
        "RuntimeError: CUDNN_STATUS_EXECUTION_FAILED\nubuntu 16.0.4\npytorch 0.4.0\npython 3.6.5\ncuda 9.0",
        "torch.gpu-too-new-for-build",
        "--index-url https://download.pytorch.org/whl/",
        "https://github.com/ChenRocks/fast_abs_rl/issues/36",  # fixed: CUDA 10 build of torch 1.0
    ),
    (
        "RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasSgemm( handle,"
        " opa, opb, m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc)`\n"
        "My  environment: Geforce RTX 3080,cudatoolkit 10.0,pytorch 1.3.1with conda.",
        "torch.gpu-too-new-for-build",
        "--index-url https://download.pytorch.org/whl/",
        "https://github.com/facebookresearch/SparseConvNet/issues/208",
    ),
    (
        "Unfortunately, the following error occurred：failed to run cuBLAS routine cublasSgemm_v2: "
        "CUBLAS_STATUS_EXECUTION_FAILED\nMy environment：cudatoolkit 9.0 cudnn 7.3 ubutu18 tensorflow 1.14.0",
        "cuda.gpu-too-new-for-binary",
        "nvidia-smi --query-gpu=name,compute_cap --format=csv",
        "https://github.com/QingyongHu/SensatUrban/issues/25",  # maintainer: RTX 30 needs CUDA 11
    ),
    (
        "When I use **torch.backends.cudnn.benchmark = True** in Conv3d, it returned error \n"
        "**RuntimeError: cuDNN error: CUDNN_STATUS_INTERNAL_ERROR**",
        "torch.cudnn-call-failed",
        "torch.backends.cudnn.benchmark = False",
        "https://github.com/pytorch/pytorch/issues/13636",
    ),
    (
        "But I got RuntimeError: CuDNN error: CUDNN_STATUS_INTERNAL_ERROR,\n"
        "when ```torch.backends.cudnn.benchmark = True```.",
        "torch.cudnn-call-failed",
        "torch.backends.cudnn.benchmark = False",
        "https://github.com/pytorch/pytorch/issues/14019",
    ),
    (
        "When I set the batch size as 128, there will occurs an problem. CUDNN_STATUS_NOT_SUPPORTED. "
        "This error may appear if you passed in a non-contiguous input.",
        "torch.cudnn-call-failed",
        "DataLoader(dataset, batch_size=<smaller>)",
        "https://github.com/microsoft/NeuronBlocks/issues/26",
    ),
    (
        "CUDNN_STATUS_NOT_SUPPORTED. This error may appear if you passed in a non-contiguous input.\n"
        "out = out.permute(0, 3, 1, 2)",
        "torch.cudnn-call-failed",
        "x = x.contiguous()",
        "https://github.com/loeweX/Greedy_InfoMax/issues/3",
    ),
    (
        "RuntimeError: CUDNN_STATUS_NOT_SUPPORTED. This error may appear if you passed in a "
        "non-contiguous input.\nI'm using pytorch 0.2.0_3, with CUDA 8.0 and cudnn 6.0.20",
        "torch.cudnn-call-failed",
        "pip install -U torch",
        "https://github.com/pytorch/pytorch/issues/3038",  # fixed in the next release
    ),
    (
        "RuntimeError: cuDNN error: CUDNN_STATUS_NOT_SUPPORTED. This error may appear if you passed "
        "in a non-contiguous input.",
        "torch.cudnn-call-failed",
        "pip install -U torch",
        "https://github.com/megvii-research/DPGN/issues/15",  # fixed: a newer cudatoolkit build
    ),
    (
        "Cublas error, `CUSOLVER_STATUS_INTERNAL_ERROR`. An internal cuSolver operation failed.",
        "memory.out-of-memory",
        "nvidia-smi --query-gpu=memory.used,memory.total --format=csv",
        "https://github.com/PaddlePaddle/PaddleX/issues/740",  # maintainer: GPU memory, smaller batch
    ),
    (
        "reference_voxel = reference_voxel @ torch.inverse(uni_rot_aug)[:,None,None]\n"
        "RuntimeError: cusolver error: CUSOLVER_STATUS_INTERNAL_ERROR, when calling "
        "`cusolverDnCreate(handle)",
        "memory.out-of-memory",
        "torch.backends.cuda.preferred_linalg_library('magma')",
        "https://github.com/JIA-Lab-research/UVTR/issues/13",  # maintainer: GPU memory
    ),
    (
        "CUSOLVER_STATUS_INTERNAL_ERROR on 40 series gpu\n"
        "running pytorch 1.9.0+cu111 and torchvision 1.10.0+cu111, 109 is simply incompatible with "
        "40 series cards",
        "torch.gpu-too-new-for-build",
        "--index-url https://download.pytorch.org/whl/",
        "https://github.com/graphdeco-inria/gaussian-splatting/issues/486",
    ),
    (
        "Device Tesla K40m\nterminate called after throwing an instance of 'std::runtime_error'\n"
        "  what():  [FT][ERROR] CUDA runtime error: CUBLAS_STATUS_ARCH_MISMATCH "
        "/workspace/tf_case/FasterTransformer/fastertransformer/cuda/open_attention.h:171",
        "cuda.gpu-too-old-for-binary",
        "nvidia-smi --query-gpu=name,compute_cap --format=csv",
        "https://github.com/NVIDIA/DeepLearningExamples/issues/147",  # solved: K40m's capability
    ),
    (
        "[Device Tesla K80\n  what():  [FT][ERROR] CUDA runtime error: CUBLAS_STATUS_ARCH_MISMATCH "
        "/root/DeepLearningExamples-master/FasterTransformer/v1/fastertransformer/cuda/open_attention.h:171",
        "cuda.gpu-too-old-for-binary",
        "nvidia-smi --query-gpu=name,compute_cap --format=csv",
        "https://github.com/NVIDIA/FasterTransformer/issues/25",  # maintainer: GemmEx needs 5.0+
    ),
    (
        "RuntimeError: CUDA error: misaligned address",
        "nvidia.xid-error",
        "CUDA_LAUNCH_BLOCKING=1 python train.py",
        "https://github.com/valeoai/WaffleIron/issues/4",  # fixed: another torch build
    ),
    (
        "RuntimeError: CUDA error: misaligned address\nCUDA kernel errors might be asynchronously "
        "reported at some other API call, so the stacktrace below might be incorrect.\nFor debugging "
        "consider passing CUDA_LAUNCH_BLOCKING=1\nCompile with `TORCH_USE_CUDA_DSA` to enable "
        "device-side assertions.",
        "nvidia.xid-error",
        "compute-sanitizer --tool memcheck python train.py",
        "https://github.com/drubinstein/pokemonred_puffer/issues/8",
    ),
    (
        "    return F.conv3d(input, self.weight, self.bias, self.stride,\n"
        "RuntimeError: CUDA error: an illegal memory access was encountered",
        "nvidia.xid-error",
        "pip install -U torch",
        "https://github.com/pytorch/pytorch/issues/51333",  # works on a recent PyTorch
    ),
    (
        "RuntimeError: CUDA error: an illegal memory access was encountered",
        "nvidia.xid-error",
        "CUDA_LAUNCH_BLOCKING=1 python train.py",
        "https://github.com/pytorch/pytorch/issues/21819",
    ),
    (
        "[CUDA ERROR]: Too many resources requested for launch",
        "cuda.launch-out-of-resources",
        "__launch_bounds__",
        "https://github.com/laugh12321/TensorRT-YOLO/issues/11",  # fixed: 16x16 threads per block
    ),
    (
        "RuntimeError: CUDA error: too many resources requested for launch",
        "cuda.launch-out-of-resources",
        "__launch_bounds__",
        "https://github.com/sxyu/svox2/issues/6",  # fixed: launch_bounds
    ),
    (
        "<2020-09-29 15:40:22.879> CudaLog(Error)::cuCheckForError: too many resources requested for "
        "launch(7) in /root/gpu-voxels/packages/gpu_voxels/src/gpu_voxels/octree/NTree.hpp on line 557.",
        "cuda.launch-out-of-resources",
        "-maxrregcount",
        "https://github.com/fzi-forschungszentrum-informatik/gpu-voxels/issues/112",
    ),
    (
        "Runtime Error(801) operation not supported at "
        "C:\\w\\1\\s\\windows\\pytorch\\torch/csrc/generic/StorageSharing.cpp:245",
        "torch.cuda-tensor-sharing-unsupported",
        "DataLoader(dataset, num_workers=0)",
        "https://github.com/pytorch/pytorch/issues/36037",  # maintainer: no CUDA IPC on Windows
    ),
    (
        "ForkingPickler(file, protocol).dump(obj)\nBrokenPipeError: [Errno 32] Broken pipe",
        "python.multiprocessing-main-guard",
        "DataLoader(dataset, num_workers=0)",
        "https://github.com/pytorch/pytorch/issues/31469",
    ),
    (
        "BrokenPipeError: [Errno 32] Broken pipe\nthrown from Line 60 in "
        "fastai\\lib\\multiprocessing\\reduction.py\nfunction def dump. line 60 call to "
        "ForkingPickle(file,protocol).dump(obj)",
        "python.multiprocessing-main-guard",
        "DataLoader(dataset, num_workers=0)",
        "https://github.com/pytorch/tutorials/issues/457",  # fixed: no num_workers
    ),
    (
        "RuntimeError: Error(s) in loading state_dict for VGG:\n"
        'Missing key(s) in state_dict: "features.0.weight", "features.0.bias"...\n'
        'Unexpected key(s) in state_dict: "module.features.0.weight", "module.features.0.bias"...',
        "torch.state-dict-mismatch",
        "torch.nn.modules.utils.consume_prefix_in_state_dict_if_present(state_dict, 'module.')",
        "https://github.com/abeardear/pytorch-YOLO-v1/issues/4",  # maintainer: DataParallel prefix
    ),
    (
        "RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available()"
        " is False. If you are running on a CPU-only machine, please use torch.load with "
        "map_location=torch.device('cpu') to map your storages to the CPU.\n"
        "no,i'm not train,i have a model,but i only have cpu in my computer。",
        "torch.cuda-checkpoint-on-cpu-machine",
        "torch.load(path, map_location='cpu')",
        "https://github.com/hkchengrex/Cutie/issues/37",
    ),
    (
        "RuntimeError: expected scalar type Float but found Half",
        "torch.dtype-mismatch",
        "with torch.autocast('cuda', dtype=torch.float16):",
        "https://github.com/NVIDIA/apex/issues/965",
    ),
    (
        '"expected scalar type Half but found Float" in motion_module_ad.py',
        "torch.dtype-mismatch",
        "with torch.autocast('cuda', dtype=torch.float16):",
        "https://github.com/Kosinkadink/ComfyUI-AnimateDiff-Evolved/issues/493",
    ),
]


test_a_library_or_kernel_error_gets_its_cause_and_the_knob = command_test(
    KNOB, ids=[f"{k[1]}-{i}" for i, k in enumerate(KNOB)]
)


@pytest.mark.parametrize(
    ("text", "not_id"),
    [
        # TensorFlow's cuDNN handle failure is the cuDNN-mismatch / memory-taken cause, not a cuDNN
        # call of PyTorch (the example line of r4_stack's cuda.cudnn-mismatch entry)
        ("Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR", "torch.cudnn-call-failed"),
        # bf16 GEMM on an old GPU stays fit.dtype-unsupported (the example line of r4_stack's entry)
        (
            "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasGemmStridedBatchedEx("
            "handle, opa, opb, (int)m, (int)n, (int)k, (void*)&falpha, a, CUDA_R_16BF, (int)lda, stridea, "
            "b, CUDA_R_16BF, (int)ldb, strideb, (void*)&fbeta, c, CUDA_R_16BF, (int)ldc, stridec, "
            "(int)num_batches, compute_type, CUBLAS_GEMM_DEFAULT_TENSOR_OP)`",
            "torch.gpu-too-new-for-build",
        ),
        # a device-side assert is its own cause, not a memory fault
        ("RuntimeError: CUDA error: device-side assert triggered", "nvidia.xid-error"),
        # a machine with an RTX 3080 Ti: the torch cannot use it (CPU build), no map_location
        # (https://github.com/nicolai256/Stable-textual-inversion_win/issues/26)
        (
            "Hey, I'm trying the run the code on win 11, latest update, RTX 3080 Ti\nI'm getting this error "
            "constantly.\n\nRuntimeError: Attempting to deserialize object on a CUDA device but "
            "torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use "
            "torch.load with map_location=torch.device('cpu') to map your storages to the CPU.",
            "torch.cuda-checkpoint-on-cpu-machine",
        ),
    ],
)
def test_a_look_alike_is_not_taken_for_these_causes(text, not_id) -> None:
    assert_not_first(text + "\n", not_id, None, may_be_empty=False)
