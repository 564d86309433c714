"""Misreadings in the NVIDIA / CUDA stack, round 16 sweep (checks/signatures/{cuda,libraries}.toml):
messages of programs other than torch (hashcat's NVRTC, a self-built TensorFlow, numba) that
had been given torch's cause or fix. Each message, verbatim from a public thread whose fix was
confirmed, reaches its cause first with a fix naming the knob that fix turned; look-alike
messages of other causes (verbatim too) are not read as the new entries' causes."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

# (message, the finding id first, a knob its fixes name, the thread)
KNOB = [
    (
        # maintainer: retry with the git version of hashcat; reporter: "it's worked"
        "nvrtcCompileProgram(): NVRTC_ERROR_INVALID_OPTION   \n"
        "nvrtc: error: invalid value for --gpu-architecture (-arch)\n"
        "* Device #1: Kernel /hashcat-6.1.1/OpenCL/shared.cl build failed.",
        "cuda.nvcc-too-old-for-gpu",
        "hashcat",
        "https://github.com/hashcat/hashcat/issues/2628",
    ),
    (
        # reporter: rebuilt TensorFlow from source with compute capability 6.1 (GTX 1070), works
        "InternalError: CUDA runtime implicit initialization on GPU:0 failed. Status: device "
        "kernel image is invalid.",
        "cuda.gpu-too-new-for-binary",
        "TF_CUDA_COMPUTE_CAPABILITIES",
        "https://github.com/tensorflow/tensorflow/issues/41976",
    ),
    (
        # a user with the same error: "I fixed it. `pip install numba==0.53` will solve this
        # problem" (a numba older than the 0.54 toolkit floor, for the env's cudatoolkit 10.1)
        "numba.cuda.cudadrv.error.NvvmSupportError: No supported GPU compute capabilities found. "
        "Please check your cudatoolkit version matches your CUDA version.",
        "numba.cuda-toolkit-unsupported",
        "numba",
        "https://github.com/zhangyp15/MonoFlex/issues/52",
    ),
    (
        # fixed by mapping torch to the cu128 index on Windows too (the linked PR #626)
        "Windows uv sync motrix resolves torch 2.7.0 cpu because pyproject maps torch to "
        "pytorch-cu128 only on linux. Expected Windows to use the cu128 PyTorch index too. Local "
        "repro reports torch 2.7.0+cpu, torch.version.cuda None, torch.cuda.is_available False.",
        "torch.cpu-build-on-gpu-host",
        "index",
        "https://github.com/Motphys/UniLab/issues/624",
    ),
]

# (message of another cause, the cause it must not be read as, the thread)
LOOKALIKE = [
    (
        # a torch project's NVRTC (TorchScript fuser): torch's own build, not a program's NVRTC
        "nvrtc: error: invalid value for --gpu-architecture (-arch)",
        "cuda.nvcc-too-old-for-gpu",
        "https://github.com/DAMO-NLP-SG/Video-LLaMA/issues/116",
    ),
    (
        # the GPU (compute capability 3.0) is older than the toolkit supports: not a toolkit
        # older than numba
        "E                   numba.cuda.cudadrv.error.NvvmSupportError: GPU compute capability "
        "3.0 is not supported (requires >=3.5)",
        "numba.cuda-toolkit-unsupported",
        "https://github.com/rapidsai/cusignal/issues/284",
    ),
]


test_a_common_message_gets_its_cause_and_the_knob = knob_test(KNOB, ids=[k[3] for k in KNOB])


test_a_lookalike_is_not_read_as_the_new_cause = lookalike_test(
    LOOKALIKE, ids=[k[2] for k in LOOKALIKE], may_be_empty=True
)
