"""GPU hardware and memory, round 18 (checks/signatures/memory.toml and small edits to
checks/signatures/*.toml, checks/signatures/*.toml and checks/signatures/*.toml): TensorFlow's "Blas GEMM launch failed" (matched
nothing), its failed pinned host allocation, JAX's allocator variables set after jax is imported,
a CUDA context that cannot be created for lack of memory, random out-of-memory errors that
expandable_segments fixed, and a reboot under load that a BIOS change fixed. Each verbatim message
reaches its cause first and one of its fixes names the knob the thread's confirmed fix turned;
look-alike rows are real messages of other causes that the new phrasings must not read as theirs."""

from __future__ import annotations

from triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # the reporter asked whether it was OOM; the maintainer: "ecc error is machine problem"
    (
        "RuntimeError: CUDA error: uncorrectable ECC error encountered！！！\n训练了几个step后遇到这样的错误，是OOM了吗？",
        "nvidia.ecc-uncorrected",
        "nvidia-smi",
        "https://github.com/verl-project/verl/issues/407",
    ),
    # set after jax was imported: moving os.environ[...] before the import fixed it (reporter)
    (
        'Despite the presence of `os.environ["XLA_PYTHON_CLIENT_PREALLOCATE"] = "false"`, this configuration (even in the `!export XLA_PYTHON_CLIENT_PREALLOCATE=false` and `os.environ["XLA_PYTHON_CLIENT_MEM_FRACTION"] = ".X"` variants) is completely ignored, resulting in a 90% GPU allocation to the first JAX instruction.',
        "memory.out-of-memory",
        "before jax is imported",
        "https://github.com/jax-ml/jax/issues/5555",
    ),
    # tf.Session(config=config) with gpu_options.allow_growth = True resolved it (reporter)
    (
        "2018-04-19 09:42:36.892837: W ./tensorflow/core/common_runtime/gpu/pool_allocator.h:195] could not allocate pinned host memory of size: 2304\n2018-04-19 09:42:36.892859: E tensorflow/stream_executor/cuda/cuda_driver.cc:967] failed to alloc 2304 bytes on host: CUDA_ERROR_UNKNOWN",
        "memory.out-of-memory",
        "allow_growth",
        "https://github.com/rishizek/tensorflow-deeplab-v3-plus/issues/8",
    ),
    # the maintainer: lower the batch size; the reporter thanked and closed
    (
        'I encountered an Error saying "CUDA out of memory. Tried to allocate 2.93 GiB (GPU 0; 23.80 GiB total capacity; 12.04 GiB already allocated; 2.82 GiB free; 19.69 GiB reserved in total by Pytorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation. See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF".',
        "memory.out-of-memory",
        "batch size",
        "https://github.com/mlverse/torch/issues/1222",
    ),
    # the maintainer: the batch size is the -b option
    (
        '@YantaoShen ,Hello, I get "cuda runtime error: out of memory" and i know i should decrease the batchsize but i cant find that part of the code ,can you please help me?',
        "memory.out-of-memory",
        "batch size",
        "https://github.com/YantaoShen/kpm_rw_person_reid/issues/3",
    ),
    # reboots when training: "fixed by downgrading the bios (asus X299 sage)" (reporter)
    (
        "Every time i run the train.py, my computer restarts, either for Train with a single GPU or Train with multiple GPUs, while test.py is fine.",
        "hardware.power-insufficient",
        "BIOS",
        "https://github.com/open-mmlab/mmdetection/issues/1207",
    ),
    # the maintainer: TensorFlow takes all the GPU memory; it cannot run with other programs active
    (
        "InternalError: Blas GEMM launch failed",
        "memory.out-of-memory",
        "nvidia-smi",
        "https://github.com/tensorflow/tensorflow/issues/11812",
    ),
    # random OOMs after many images: PYTORCH_ALLOC_CONF=expandable_segments:True "really fixes it" (reporter)
    (
        "Recently I’m getting more often pretty random OOMs with fp4 Flux-klein. While I would not expect to ever see OOM with this model at all with 16 GB GPU, after all the fp4 model of Klein is smaller than SDXL...\nI don’t have a 100% repo step but the chance is higher that it happens if I generated a large batch of images before.",
        "memory.out-of-memory",
        "expandable_segments",
        "https://github.com/Haoming02/sd-webui-forge-classic/issues/1049",
    ),
    # the maintainer: shared machines, another process is using the GPU memory
    (
        "jpype._jexception.CudaExceptionPyRaisable: jcuda.CudaException: CUDA_ERROR_OUT_OF_MEMORY\n\njcuda.CudaException: CUDA_ERROR_OUT_OF_MEMORY\n    at jcuda.driver.JCudaDriver.checkResult(JCudaDriver.java:337)\n    at jcuda.driver.JCudaDriver.cuCtxCreate(JCudaDriver.java:1514)",
        "memory.held-by-other-process",
        "nvidia-smi",
        "https://github.com/donaldlab/OSPREY3/issues/67",
    ),
]

# (message verbatim from a thread of another cause, the cause it must not be read as, thread)
LOOKALIKE = [
    # "Blas GEMM launch failed" with TensorFlow 1.13 on an A100: the maintainer: that TensorFlow's
    # CUDA does not support the A100; not memory
    (
        "Blas GEMM launch failed\n请问这个bug如何解决？我的tensorflow-gpu=1.13.1，keras=2.2.4，显卡是A100，cuda=10.0.130？尝试过CPU能跑起来，换到CPU就不行了？网上查了很多办法都不行。。。",
        "memory.out-of-memory",
        "https://github.com/taoqi98/KIM/issues/7",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_this_cause = lookalike_test(LOOKALIKE)
