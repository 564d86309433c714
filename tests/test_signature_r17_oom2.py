"""GPU out-of-memory messages, round 17 (checks/signatures/memory.toml and the entries it extends):
each verbatim message from a thread whose fix was confirmed reaches that cause first, and one of its
fixes names the knob the confirmed fix turned (batch size, AWQ build, num_workers, fuser, the
TensorFlow 1.x memory fraction). Look-alike rows are real messages of other causes that the new
phrasings must not read as theirs."""

from __future__ import annotations

from triage_lines import assert_first_naming, knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # CUBLAS_STATUS_ALLOC_FAILED while training: a smaller batch size fixed it (reporter: "It did. Thank you!")
    (
        "RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)",
        "memory.out-of-memory",
        "batch size",
        "https://github.com/RVC-Project/Retrieval-based-Voice-Conversion-WebUI/issues/915",
    ),
    # MXNet fcn training on a Titan X: a smaller input (cut_off_size 400 -> 300) made it fit (reporter)
    (
        "My device is TitanX(Maxwell) and dataset is VOC2012.When I run run_fcns.sh,it will raise Error: cudaMalloc failed: out of memory.",
        "memory.out-of-memory",
        "--batch-size",
        "https://github.com/apache/mxnet/issues/3913",
    ),
    # Paddle node2vec: --batch_size 128 (default 1024) worked (reporter: "It works")
    (
        "0223 18:59:36.058634 11348 operator.cc:179] lookup_table raises an exception paddle::memory::allocation::BadAlloc, \n\nOut of memory error on GPU 0. Cannot allocate 6.933594GB memory on GPU 0, available memory is only 726.750000MB.\n\nPlease check whether there is any other process using GPU 0.\n1. If yes, please stop them, or start PaddlePaddle on another GPU.\n2. If no, please try one of the following suggestions:\n   1) Decrease the batch size of your model.\n   2) FLAGS_fraction_of_gpu_memory_to_use is 0.92 now, please set it to a higher value but less than 1.0.\n      The command is `export FLAGS_fraction_of_gpu_memory_to_use=xxx`.\n\n at (/paddle/paddle/fluid/memory/detail/system_allocator.cc:151)",
        "memory.out-of-memory",
        "batch_size",
        "https://github.com/PaddlePaddle/PGL/issues/26",
    ),
    # PaddleVideo training: decrease the batch_size (maintainer)
    (
        "Out of memory error on GPU 0. Cannot allocate 80.000000MB memory on GPU 0, 10.647278GB memory has been allocated and available memory is only 108.750000MB.",
        "memory.out-of-memory",
        "batch_size",
        "https://github.com/PaddlePaddle/PaddleVideo/issues/502",
    ),
    # older Paddle's "Cannot malloc ... GPU memory": batch 96 works, 128 does not (reporter; maintainers: change batch_size)
    (
        "`Cannot malloc 49.0002 MB GPU memory. Please shrink FLAGS_fraction_of_gpu_memory_to_use or FLAGS_initial_gpu_memory_in_mb or FLAGS_reallocate_gpu_memory_in_mbenvironment variable to a lower value. Current FLAGS_fraction_of_gpu_memory_to_use value is 0.1. Current FLAGS_initial_gpu_memory_in_mb value is 0. Current FLAGS_reallocate_gpu_memory_in_mb value is 0.`",
        "memory.out-of-memory",
        "batch_size",
        "https://github.com/PaddlePaddle/models/issues/3011",
    ),
    # 69 MiB allocated on a 7.92 GiB card: a zombie process held it; the admin killed it (reporter: works now)
    (
        "Tried to allocate 216.00 MiB (GPU 0; 7.92 GiB total capacity; 69.17 MiB already allocated; 24.56 MiB free; 86.00 MiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF",
        "memory.held-by-other-process",
        "nvidia-smi",
        "https://github.com/LISTatSNU/FastMRI_challenge/issues/238",
    ),
    # 13 GB held with no process listed: the reporter's own finding was memory held outside their runs
    (
        "Ok, I think I have found the cause of my OOM issues.\nEven when I do not have any CrossE processes running, my GPU still seems to have almost 13GB allocated by someone. No processes seem to be using it:",
        "memory.held-by-other-process",
        "fuser",
        "https://github.com/wencolani/CrossE/issues/2",
    ),
    # MXNet pooled storage: the maintainer said reduce the batch size; batch size 2 worked (reporter)
    (
        'mxnet.base.MXNetError: Traceback (most recent call last):\n  File "src/storage/./pooled_storage_manager.h", line 161\nMXNetError: cudaMalloc retry failed: out of memory',
        "memory.out-of-memory",
        "--batch-size",
        "https://github.com/apache/mxnet/issues/19499",
    ),
    # Mistral-7B in fp16 on an 11 GB RTX 2080 Ti in vLLM: an AWQ build with --quantization awq worked (reporter)
    (
        "With Mistral as well on Ubuntu, I'm getting the CUDA out of memory error, and playing with `--gpu-memory-utilization` doesn't seem to make a difference. \n\n```bash\npython -u -m vllm.entrypoints.openai.api_server --host 0.0.0.0 --model mistralai/Mistral-7B-v0.1 --dtype half --gpu-memory-utilization 0.8  --max-model-len 4096\n```\n\nresults in:\n\n> torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 224.00 MiB (GPU 0; 10.73 GiB total capacity; 9.85 GiB already allocated; 46.44 MiB free; 9.86 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.",
        "memory.workload-does-not-fit",
        "AWQ",
        "https://github.com/vllm-project/vllm/issues/188",
    ),
    # DataLoader worker killed: num_worker=0 in train.py worked (two commenters)
    (
        "RuntimeError: DataLoader worker (pid 1620) is killed by signal: Killed.",
        "memory.host-ram-exhausted",
        "num_workers",
        "https://github.com/dbolya/yolact/issues/680",
    ),
    # TensorFlow's "not a failure" warning, wrapped by the web page; the run finished (test accuracy); per_process_gpu_memory_fraction = 0.90 silenced it (reporter: "Fix!")
    (
        "step 19900, training accuracy 1\n2017-07-02 15:57:33.230281: W tensorflow/core/common_runtime/http://bfc_allocator.cc:217]\n Allocator (GPU_0_bfc) ran out of memory trying to allocate 2.59GiB. The\n caller indicates that this is not a failure, but may mean that there \ncould be performance gains if more memory is available.\n2017-07-02 15:57:34.382333: W tensorflow/core/common_runtime/http://bfc_allocator.cc:217]\n Allocator (GPU_0_bfc) ran out of memory trying to allocate 3.90GiB. The\n caller indicates that this is not a failure, but may mean that there \ncould be performance gains if more memory is available.\ntest accuracy 0.9919",
        "memory.out-of-memory",
        "per_process_gpu_memory_fraction",
        "https://github.com/CharlesShang/TFFRCNN/issues/68",
    ),
]

# llama.cpp's own cudaMalloc failure keeps the llama.cpp reading (offload fewer layers, a shorter
# context), not the batch-size one the MXNet / plain-CUDA entry gives
LLAMA_CPP = (
    "1.06.520.077 E ggml_backend_cuda_buffer_type_alloc_buffer: allocating 51748.72 MiB on device 1: cudaMalloc failed: out of memory\n1.06.520.084 E ggml_gallocr_reserve_n_impl: failed to allocate CUDA1 buffer of size 54262464512\n1.06.520.086 E graph_reserve: failed to allocate compute buffers",
    "https://github.com/ggml-org/llama.cpp/pull/26297",
)

LOOKALIKE = [
    # persistence mode keeps the driver loaded "even when no active clients ... exist": a hot idle
    # GPU, not memory held by a process nvidia-smi does not list
    (
        "It turns out, the solution is to run `sudo nvidia-smi -pm 1` after every reboot.\n\nThe theory may be this:\n\n`nvidia-smi -pm 1` enables the persistent mode, meaning  When persistence mode is enabled the NVIDIA driver remains loaded even when no  active  clients, such  as  X11  or  nvidia-smi,  exist.",
        "memory.held-by-other-process",
        "https://github.com/lyulyul/shine-cluster/issues/54",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_this_cause = lookalike_test(LOOKALIKE, may_be_empty=True)


def test_llama_cpp_cudamalloc_keeps_its_offload_fix() -> None:
    assert_first_naming(LLAMA_CPP[0], "memory.out-of-memory", "--n-gpu-layers", LLAMA_CPP[1])
