"""ONNX Runtime, vLLM and Intel XPU serving, round 19 (checks/signatures/intel.toml): an
onnxruntime-gpu CUDA 11 build asking for libcublasLt.so.11 on a CUDA 12 machine, a vLLM model
that loads on one GPU but not across several (NCCL peer-to-peer), and an Intel GPU whose runtime
cannot report free memory ("doesn't support querying the available free memory", the missing
ext_intel_free_memory aspect), which torch.xpu.mem_get_info and vLLM's XPU worker call at start.
Each verbatim message reaches its cause first and one of its fixes names the knob the thread's
confirmed fix turned; look-alike rows are real messages of other causes that the new phrasings
must not read as theirs."""

from __future__ import annotations

from triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # the maintainer pointed to onnxruntime-gpu's CUDA 12.x install; the reporter: "It works"
    (
        "Hi there, I got a issue on the final step of producing my own motion datas,\nwhen I was running the command: \n\npython -m scripts.data_processors.dwpose.generate_dwpose --input transferd_result/normal --output transferd_result/dwpose\n\nI got:\n\nFailed to load library libonnxruntime_providers_cuda.so with error: libcublasLt.so.11: cannot open shared object file: No such file or directory.",
        "onnxruntime.cuda-deps-mismatch",
        "onnxruntime-gpu",
        "https://github.com/fudan-generative-vision/champ/issues/95",
    ),
    # the reporter: "I set the env variable as `export NCCL_P2P_DISABLE=1` ... This works for me now."
    (
        "LLM is not getting loaded on multiple GPUs but works fine on a single GPU",
        "nccl.p2p-broken-acs-iommu",
        "NCCL_P2P_DISABLE",
        "https://github.com/vllm-project/vllm/issues/3974",
    ),
    # the maintainer: the driver only covers up to CUDA 11.4, "Please upgrade the NVIDIA driver"
    (
        "I tried to build vllm from the source code, but encountered the following error:\nRuntimeError: The NVIDIA driver on your system is too old",
        "torch.driver-too-old",
        "driver",
        "https://github.com/vllm-project/vllm/issues/1772",
    ),
    # the maintainer: "a known issue related to driver", workaround export
    # UR_L0_ENABLE_SYSMAN_ENV_DEFAULT=0 (closed as a duplicate of the driver issue); the reporter
    # also moved to a matching SYCL runtime
    (
        "On Intel(R) Core(TM) Ultra 7 258V CPU the below code fails as shown below.  The code is executed in a docker container produced from the following Dockerfile (https://github.com/vllm-project/vllm/blob/main/requirements/xpu.txt). This Dockerfile uses torch==2.7.0+xpu. XPU seems to work fine except the _xpu_getMemoryInfo call. \n\n```python\nimport torch\nprint(torch._C._xpu_getMemoryInfo(0))\n```\n\nRuntimeError: The device (Intel(R) Graphics [0x64a0]) doesn't support querying the available free memory. You can file an issue at http",
        "intel.xpu-free-memory-query-unsupported",
        "UR_L0_ENABLE_SYSMAN_ENV_DEFAULT",
        "https://github.com/pytorch/pytorch/issues/159728",
    ),
]

# (message verbatim from a thread of another cause, the cause it must not be read as, thread)
LOOKALIKE = [
    # a CUDA out-of-memory on an A30 (lowering gpu-memory-utilization helped a commenter): not Intel
    (
        "I have the same issue on A30 GPU. \n\ntorch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 270.00 MiB. GPU 0 has a total capacty of 23.50 GiB of which 42.06 MiB is free. Including non-PyTorch memory, this process has 23.40 GiB memory in use. Of the allocated memory 22.99 GiB is allocated by PyTorch, and 1.76 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF.\n\n- any solutions? I read somewhere to reduce the batch size. Does anyone know how to do that?",
        "intel.xpu-free-memory-query-unsupported",
        "https://github.com/vllm-project/vllm/issues/2554",
    ),
    # mem_get_info answers on XPU, but with a value that does not move: a reporting bug, not the
    # unsupported query
    (
        "The torch.xpu.mem_get_info()function incorrectly reports available free memory. After allocating a large tensor on the XPU device, the returned free_memoryvalue does not reflect the actual change in memory usage.",
        "intel.xpu-free-memory-query-unsupported",
        "https://github.com/pytorch/pytorch/issues/161381",
    ),
    # NCCL in vLLM tensor parallel: not an Intel memory query
    (
        "NCCL gives an error when I use tensor_parallel ：RuntimeError: NCCL error: invalid usage",
        "intel.xpu-free-memory-query-unsupported",
        "https://github.com/vllm-project/vllm/issues/7201",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_this_cause = lookalike_test(LOOKALIKE)
