"""Round 7 field survey (sig7-hw): canonical lines users paste for hardware, GPU memory, NCCL and
Jetson causes reach the right cause.

Every line below is copied from the public page named beside it (issue threads, NVIDIA's
documentation), not from the triage corpus. For each, the expected finding must be among the
first two findings of `triage_text(line)`; where the cause has a knob (a flag, a provider option,
an environment variable, a command), the fixes of that finding must name it.
"""

from __future__ import annotations

import pytest
from triage_lines import fixes_text

from envdoctor.triage_engine import triage_text

# (line, expected ids (any), source URL, knob the fixes must name or None)
HARDWARE = [
    (
        "May 18 19:02:39 kernel: NVRM: Xid (PCI:0000:2b:00): 79, GPU has fallen off the bus.",
        ("nvidia.xid-fallen-off-bus",),
        "https://github.com/NVIDIA/open-gpu-kernel-modules/issues/1151",
        None,
    ),
    (
        "May 18 19:02:39 kernel: NVRM: GPU 0000:2b:00.0: GPU has fallen off the bus.",
        ("nvidia.xid-fallen-off-bus",),
        "https://github.com/NVIDIA/open-gpu-kernel-modules/issues/1151",
        None,
    ),
    (
        "Jan 18 11:38:05 localhost kernel: [ 269.516977] NVRM: GPU at 0000:01:00.0 has fallen off the bus.",
        ("nvidia.xid-fallen-off-bus",),
        "https://pastebin.com/xJaypMZt",
        None,
    ),
    (
        "[gpu-health] [CRITICAL] GPU-1234: XID: NVRM: Xid (PCI:0000:c6:00): 79, pid=1101234, "
        "name=nvc:[driver], GPU has fallen off the bus.",
        ("nvidia.xid-fallen-off-bus",),
        "https://modal.com/docs/guide/gpu-health",
        None,
    ),
    (
        "NVRM: Xid (PCI:0000:10:1c): 63, pid=1896, Row Remapper: New row marked for remapping, "
        "reset gpu to activate.",
        ("nvidia.row-remap-pending", "nvidia.xid-error"),
        "https://raw.githubusercontent.com/stas00/ml-engineering/7bc7c3054eb93c277a4755c597ae0864d77a63f1/compute/accelerator/nvidia/debug.md",
        None,
    ),
    (
        "NVRM: Xid (PCI:0000:9b:00): 94, pid=1234, name=python3, Contained ECC error",
        ("nvidia.ecc-uncorrected",),
        "https://github.com/leptonai/gpud/pull/1174",
        None,
    ),
    (
        "[Fri Aug 30 11:43:09 2024] NVRM: Xid (PCI:0000:cb:00): 13, pid='<unknown>', name=<unknown>, "
        "Graphics SM Warp Exception on (GPC 7, TPC 7, SM 0): Illegal Instruction Parameter",
        ("nvidia.xid-error",),
        "https://github.com/leptonai/gpud/pull/46",
        "compute-sanitizer",
    ),
    (
        "[24128.834365] NVRM: Xid (PCI:0000:01:00): 31, Ch 00000003, engmask 00000101, intr 10000000",
        ("nvidia.xid-error",),
        "https://github.com/Bumblebee-Project/Bumblebee/issues/677",
        None,
    ),
    (
        "kernel: NVRM: Xid (PCI:0000:dc:00): 45, pid=1818990, name=python3, Ch 00000001 caused by previous Xid 149",
        ("nvidia.xid-error",),
        "https://github.com/NVIDIA/open-gpu-kernel-modules/issues/1150",
        None,
    ),
    (
        "PCIe Bus Error: severity=Uncorrected (Fatal), type=Transaction Layer, (Receiver ID)",
        ("hardware.pcie-riser-link", "hardware.gpu-reseat"),
        "https://github.com/DualCoder/vgpu_unlock/issues/114",
        None,
    ),
    (
        "XID 48 An uncorrectable double bit error (DBE) has been detected on GPU (<id>)",
        ("nvidia.ecc-uncorrected",),
        "https://docs.nvidia.com/deploy/dynamic-page-retirement/visibility.html",
        None,
    ),
    (
        "XID 63 Dynamic Page Retirement: New retired page, reload the driver to activate. (<address>)",
        ("nvidia.ecc-uncorrected",),
        "https://docs.nvidia.com/deploy/dynamic-page-retirement/visibility.html",
        "PAGE_RETIREMENT",
    ),
    (
        "XID 64 Dynamic Page Retirement: Fatal error, unable to retire page (<address>)",
        ("nvidia.ecc-uncorrected",),
        "https://docs.nvidia.com/deploy/dynamic-page-retirement/visibility.html",
        "RMA",
    ),
    (
        "Timeout waiting for RPC from GSP!",
        ("nvidia.gsp-rpc-timeout",),
        "https://github.com/NVIDIA/open-gpu-kernel-modules/issues/446",
        None,
    ),
    (
        "训练显卡用不了Unable to determine the device handle for GPU0000:05:00.0: Unknown Error 需要重启显卡",
        ("hardware.gpu-reseat", "nvidia.xid-fallen-off-bus"),
        "https://github.com/liucongg/ChatGLM-Finetuning/issues/95",
        None,
    ),
    (
        "miller上 nvidia-smi 报错 Unable to determine the device handle for GPU0000:20:00.0: Unknown Error",
        ("hardware.gpu-reseat", "nvidia.xid-fallen-off-bus"),
        "https://github.com/cihlab/fics-cluster-guide/issues/53",
        None,
    ),
    (
        "Unable to determine the device handle for GPU 0000:02:00.0: GPU is lost. Reboot the system to recover this GPU",
        ("hardware.gpu-reseat", "nvidia.xid-fallen-off-bus"),
        "https://github.com/JosephKJ/OWOD/issues/81",
        "reseat",
    ),
    (
        "Unable to determine the device handle for GPU0000:4F:00.0: Unknown Error",
        ("hardware.gpu-reseat", "nvidia.xid-fallen-off-bus"),
        "https://github.com/haotian-liu/LLaVA/issues/1466",
        None,
    ),
    (
        "[Fri Mar  3 04:27:08 2023] NVRM: Xid (PCI:0000:61:00): 119, pid=1346198, name=nvidia-smi, Timeout waiting "
        "for RPC from GSP! Expected function 103 (GSP_RM_ALLOC) (0x80 0x38).",
        ("nvidia.gsp-rpc-timeout",),
        "https://github.com/NVIDIA/open-gpu-kernel-modules/issues/446",
        None,
    ),
    (
        "[Mon Mar  6 21:37:31 2023] NVRM: Xid (PCI:0000:61:00): 119, pid=905052, name=python, Timeout waiting for RPC "
        "from GSP! Expected function 76 (GSP_RM_CONTROL) (0x20801702 0x4).",
        ("nvidia.gsp-rpc-timeout",),
        "https://github.com/NVIDIA/nvidia-docker/issues/1648",
        None,
    ),
]

MEMORY = [
    (
        "llama_model_load: error loading model: unable to allocate backend buffer",
        ("memory.out-of-memory",),
        "https://github.com/ggml-org/llama.cpp/issues/7366",
        "--n-gpu-layers",
    ),
    (
        "Error: llama runner process has terminated: error loading model: unable to allocate backend buffer",
        ("memory.out-of-memory",),
        "https://github.com/likelovewant/ollama-for-amd/issues/17",
        "num_gpu",
    ),
    (
        "alloc_tensor_range: failed to allocate CUDA0 buffer of size 151851674624",
        ("memory.out-of-memory",),
        "https://github.com/ggml-org/llama.cpp/issues/20431",
        "--n-gpu-layers",
    ),
    (
        "llama_model_load: error loading model: unable to allocate CUDA0 buffer",
        ("memory.out-of-memory",),
        "https://github.com/ggml-org/llama.cpp/issues/20431",
        None,
    ),
    (
        "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 144817.04 MiB on device 0: cudaMalloc failed: out of memory",
        ("memory.out-of-memory",),
        "https://github.com/ggml-org/llama.cpp/issues/20431",
        None,
    ),
    (
        "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 279356.51 MiB on device 0: cudaMalloc failed: out of memory",
        ("memory.out-of-memory",),
        "https://github.com/ikawrakow/ik_llama.cpp/issues/749",
        None,
    ),
    (
        "ollama  | llama_model_load: error loading model: unable to allocate CUDA0 buffer",
        ("memory.out-of-memory",),
        "https://github.com/ollama/ollama/issues/8447",
        "OLLAMA_CONTEXT_LENGTH",
    ),
    (
        "ggml_gallocr_reserve_n: failed to allocate CUDA4 buffer of size 150995968",
        ("memory.out-of-memory",),
        "https://github.com/ollama/ollama/issues/6860",
        None,
    ),
    (
        "llama_new_context_with_model: failed to allocate compute buffers",
        ("memory.out-of-memory",),
        "https://github.com/ollama/ollama/issues/6860",
        "--ctx-size",
    ),
    (
        "Error: llama runner process has terminated: CUDA error: out of memory",
        ("memory.out-of-memory",),
        "https://github.com/ollama/ollama/issues/9782",
        None,
    ),
    (
        "ggml_backend_cpu_buffer_type_alloc_buffer: failed to allocate buffer of size 437944320",
        ("memory.host-ram-exhausted",),
        "https://github.com/ollama/ollama/issues/12634",
        "mmap",
    ),
    (
        "llama_model_load: error loading model: unable to allocate CPU buffer",
        ("memory.host-ram-exhausted",),
        "https://github.com/ollama/ollama/issues/12634",
        "mmap",
    ),
    (
        "Non-zero status code returned while running ReduceSum node. onnxruntime::BFCArena::AllocateRawInternal "
        "Failed to allocate memory for requested buffer of size 939524096",
        ("memory.out-of-memory",),
        "https://github.com/microsoft/onnxruntime/issues/16307",
        "arena_extend_strategy",
    ),
    (
        "2024-09-05 15:15:49.9522079 [E:onnxruntime:, sequential_executor.cc:514 onnxruntime::ExecuteKernel] "
        "Non-zero status code returned while running FusedConv node. Name:'Conv_3' Status Message: "
        "D:\\a\\_work\\1\\s\\onnxruntime\\core\\framework\\bfc_arena.cc:376 onnxruntime::BFCArena::AllocateRawInternal "
        "Failed to allocate memory for requested buffer of size 643840",
        ("memory.out-of-memory",),
        "https://github.com/hacksider/Deep-Live-Cam/issues/547",
        "gpu_mem_limit",
    ),
    (
        "/workspace/onnxruntime/onnxruntime/core/framework/bfc_arena.cc:368 void* onnxruntime::BFCArena::AllocateRawInternal"
        "(size_t, bool, onnxruntime::Stream*, bool, onnxruntime::WaitNotificationFn) Failed to allocate memory for "
        "requested buffer of size 2830172160",
        ("memory.out-of-memory",),
        "https://github.com/microsoft/onnxruntime/issues/20038",
        "arena_extend_strategy",
    ),
    (
        "/onnxruntime_src/onnxruntime/core/framework/bfc_arena.cc:376 void* onnxruntime::BFCArena::AllocateRawInternal"
        "(size_t, bool, onnxruntime::Stream*, bool, onnxruntime::WaitNotificationFn) Failed to allocate memory for "
        "requested buffer of size 4585490524328388608",
        ("memory.out-of-memory",),
        "https://github.com/microsoft/onnxruntime/issues/22702",
        "shape",
    ),
    (
        "2025-05-13 09:18:55.172253: W external/xla/xla/tsl/framework/bfc_allocator.cc:501] Allocator (GPU_0_bfc) "
        "ran out of memory trying to allocate 95.40GiB (rounded to 102432004352)requested by op",
        ("memory.out-of-memory",),
        "https://github.com/openxla/xla/issues/27322",
        "XLA_PYTHON_CLIENT_PREALLOCATE",
    ),
    (
        "2025-05-13 09:18:45.074199: W external/xla/xla/hlo/transforms/simplifiers/hlo_rematerialization.cc:3021] "
        "Can't reduce memory use below 67.69GiB (72678595712 bytes) by rematerialization; only reduced to 95.40GiB "
        "(102432320060 bytes), down from 95.40GiB (102432320060 bytes) originally",
        ("memory.out-of-memory",),
        "https://github.com/openxla/xla/issues/27322",
        "batch",
    ),
    (
        "E0513 09:18:55.172311 1808266 pjrt_stream_executor_client.cc:2908] Execution of replica 0 failed: RESOURCE_EXHAUSTED:",
        ("memory.out-of-memory",),
        "https://github.com/openxla/xla/issues/27322",
        "XLA_PYTHON_CLIENT_MEM_FRACTION",
    ),
    (
        "2025-05-27 11:26:29.427895: W external/xla/xla/service/hlo_rematerialization.cc:3005] Can't reduce memory use "
        "below -20.61GiB (-22125470549 bytes) by rematerialization; only reduced to 28.35GiB (30443270400 bytes), "
        "down from 28.35GiB (30443270400 bytes) originally",
        ("memory.out-of-memory",),
        "https://github.com/google-deepmind/alphafold3/issues/432",
        None,
    ),
    (
        "2020-09-24 21:35:23.363348: W tensorflow/core/common_runtime/bfc_allocator.cc:246] Allocator (GPU_0_bfc) ran "
        "out of memory trying to allocate 1.02GiB with freed_by_count=0. The caller indicates that this is not a "
        "failure, but may mean that there could be performance gains if more memory were available.",
        ("memory.out-of-memory",),
        "https://github.com/tensorflow/tensorflow/issues/43546",
        "nothing is broken",
    ),
    (
        "2025-03-17 17:48:09.854267: I tensorflow/stream_executor/cuda/cuda_driver.cc:739] failed to allocate 2.12G "
        "(2282521344 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY: out of memory",
        ("memory.out-of-memory",),
        "https://github.com/talmolab/sleap/issues/2142",
        None,
    ),
    (
        "2025-03-17 17:48:09.854399: W tensorflow/core/common_runtime/bfc_allocator.cc:343] Garbage collection: "
        "deallocate free memory regions (i.e., allocations) so that we can re-allocate a larger region to avoid OOM "
        "due to memory fragmentation. If you see this message frequently, you are running near the threshold of the "
        "available device memory and re-allocation may incur great performance overhead. You may try smaller batch "
        "sizes to observe the performance impact. Set TF_ENABLE_GPU_GARBAGE_COLLECTION=false if you'd like to "
        "disable this feature.",
        ("memory.out-of-memory", "memory.allocator-fragmentation"),
        "https://github.com/talmolab/sleap/issues/2142",
        None,
    ),
    (
        "CUDA error 2 at /data/llama.cpp/ggml-cuda.cu:5509: out of memory",
        ("memory.out-of-memory",),
        "https://github.com/ggml-org/llama.cpp/issues/3199",
        "--n-gpu-layers",
    ),
    (
        "WSL: CUDA error 2 at ggml-cuda.cu:359: out of memory",
        ("memory.out-of-memory",),
        "https://github.com/ggml-org/llama.cpp/issues/1230",
        None,
    ),
    (
        "CUDA error: out of memory\n"
        "  current device: 0, in function ggml_cuda_pool_malloc_vmm at "
        "C:\\Users\\jmorg\\git\\ollama\\llm\\llama.cpp\\ggml-cuda.cu:8583\n"
        "  cuMemCreate(&handle, reserve_size, &prop, 0)\n"
        'GGML_ASSERT: C:\\Users\\jmorg\\git\\ollama\\llm\\llama.cpp\\ggml-cuda.cu:256: !"CUDA error"',
        ("memory.out-of-memory",),
        "https://github.com/ollama/ollama/issues/3237",
        "OLLAMA_CONTEXT_LENGTH",
    ),
    (
        "Processing...\n100%|██████████████████████████████████| 205944/205944 [18:54<00:00, 181.58it/s]\nKilled",
        ("memory.host-ram-exhausted",),
        "https://github.com/xk-huang/yet-another-vectornet/issues/37",
        "swap",
    ),
    (
        "[2021-02-12 03:31:37,319] [train] [INFO] Training Started.\n2021-02-12 03:31:37,319 INFO Training Started.\nKilled",
        ("memory.host-ram-exhausted",),
        "https://github.com/ildoonet/tf-pose-estimation/issues/674",
        None,
    ),
    (
        "报错信息：Out of memory error on GPU 0. Cannot allocate 1.531250GB memory on GPU 0, available memory is only \n"
        "                   416.625000MB.",
        ("memory.out-of-memory",),
        "https://github.com/PaddlePaddle/Paddle/issues/26892",
        None,
    ),
    (
        "W0713 16:34:31.576385   221 operator.cc:242] roi_align raises an exception "
        "paddle::memory::allocation::BadAlloc, ResourceExhaustedError: ",
        ("memory.out-of-memory",),
        "https://github.com/PaddlePaddle/PaddleDetection/issues/3679",
        None,
    ),
    (
        "Out of memory error on GPU 0. Cannot allocate 400.000244MB memory on GPU 0, 7.288696GB memory has been "
        "allocated and available memory is only 155.187500MB.",
        ("memory.out-of-memory",),
        "https://github.com/PaddlePaddle/PaddleSeg/issues/1723",
        None,
    ),
]

NCCL = [
    (
        "a100-st-p4d24xlarge-22:183006:183220 [1] misc/socket.cc:518 NCCL WARN Net : Call to recv from "
        "10.200.84.247<58355> failed : Broken pipe",
        ("nccl.collective-timeout",),
        "https://github.com/NVIDIA/nccl/issues/795",
        "TORCH_NCCL_ASYNC_ERROR_HANDLING",
    ),
    (
        "a100-st-p4d24xlarge-22:183006:183181 [1] misc/socket.cc:538 NCCL WARN Net : Connection closed by remote peer "
        "a100-st-p4d24xlarge-22.luciodelelis-92732890-0458-4f76-8369-c4fee80b23e7.pcluster<47861>",
        ("nccl.collective-timeout",),
        "https://github.com/NVIDIA/nccl/issues/795",
        None,
    ),
    (
        "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1347, "
        "remote process exited or there was a network error, NCCL version 2.18.5\n"
        "ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.",
        ("nccl.collective-timeout",),
        "https://github.com/NVIDIA/nccl/issues/934",
        "TORCH_NCCL_ASYNC_ERROR_HANDLING",
    ),
    (
        "torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.hpp:268, "
        "remote process exited or there was a network error, NCCL version 2.21.5\n"
        "ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.\n"
        "Last error:\n"
        "socketProgressOpt: Call to recv from 172....<33759> failed : Connection reset by peer",
        ("nccl.collective-timeout",),
        "https://github.com/NVIDIA/nccl/issues/2076",
        None,
    ),
    (
        "kolyoz2:25146:25854 [0] ib_plugin.c:1105 NCCL WARN NET/IB : Got completion from peer 10.0.35.1<49189> "
        "with error 4, opcode 5327, len 5327, vendor err 81 (Send)",
        ("nccl.ib-roce-connection-fails",),
        "https://github.com/NVIDIA/nccl-tests/issues/252",
        None,
    ),
    (
        "NCCL error: remote process exited or there was a network error, NCCL version 2.20.5  ncclRemoteError: A call "
        "failed possibly due to a network error or a remote process exiting prematurely.  Last error:  NET/IB : Got "
        "completion from peer 172.21.17.89<38536> with error 5, opcode 48, len 32710, vendor err 249",
        ("nccl.ib-roce-connection-fails",),
        "https://github.com/deepseek-ai/DeepEP/issues/106",
        None,
    ),
    (
        "ubuntu:39964:40075 [0] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to 10.0.0.2<45763> failed : "
        "Software caused connection abort",
        ("nccl.socket-interface-wrong", "nccl.container-network-isolated"),
        "https://github.com/NVIDIA/nccl-tests/issues/166",
        "NCCL_SOCKET_IFNAME",
    ),
    (
        "ubuntu:39964:40044 [0] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by remote peer node1<57557>",
        ("nccl.collective-timeout",),
        "https://github.com/NVIDIA/nccl-tests/issues/166",
        None,
    ),
    (
        "[80746] [rank0]:[E321 02:07:08.408271257 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught collective "
        "operation timeout: WorkNCCL(SeqNum=1580, OpType=ALLREDUCE, NumelIn=466119168, NumelOut=466119168, "
        "Timeout(ms)=600000) ran for 600060 milliseconds before timing out.",
        ("nccl.collective-timeout",),
        "https://github.com/hiyouga/LlamaFactory/issues/7396",
        None,
    ),
    (
        "[rank1]:[E626 06:24:44.906457629 ProcessGroupNCCL.cpp:1785] [PG ID 0 PG GUID 0(default_pg) Rank 1] Exception "
        "(either an error or timeout) detected by watchdog at work: 808, last enqueued NCCL work: 811, last completed "
        "NCCL work: 807.",
        ("nccl.collective-timeout",),
        "https://github.com/XPixelGroup/BasicSR/issues/737",
        None,
    ),
    (
        "[E ProcessGroupNCCL.cpp:737] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=469508, "
        "OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1802212 milliseconds before timing out.",
        ("nccl.collective-timeout",),
        "https://github.com/OFA-Sys/OFA/issues/271",
        None,
    ),
    (
        "[E ProcessGroupNCCL.cpp:458] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=96120, "
        "OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 25624887 milliseconds before timing out.",
        ("nccl.collective-timeout",),
        "https://github.com/pytorch/pytorch/issues/118369",
        None,
    ),
    (
        "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=49, OpType=ALLREDUCE, Timeout(ms)=18000000) "
        "ran for 18005607 milliseconds before timing out.",
        ("nccl.collective-timeout",),
        "https://github.com/agiresearch/InstructGLM/issues/3",
        None,
    ),
    (
        "include/shm.h:28 NCCL WARN Call to posix_fallocate failed : No space left on device",
        ("nccl.shm-too-small",),
        "https://github.com/NVIDIA/nccl/issues/290",
        "shm-size",
    ),
    (
        "Error while creating shared memory segment /dev/shm/nccl-CsYXMW (size 9637888)",
        ("nccl.shm-too-small",),
        "https://github.com/WangRongsheng/XrayGLM/issues/83",
        "shm-size",
    ),
    (
        "RuntimeError: NCCL error in: ../torch/lib/c10d/ProcessGroupNCCL.cpp:839, unhandled system error, NCCL version "
        "2.8.3\nncclSystemError: System call (socket, malloc, munmap, etc) failed.",
        ("nccl.shm-too-small",),
        "https://github.com/NVIDIA/Megatron-LM/issues/71",
        None,
    ),
    (
        "[Usage]: ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.",
        ("nccl.shm-too-small",),
        "https://github.com/vllm-project/vllm/issues/6574",
        None,
    ),
    (
        "72bf7b08-26f3-4ebc-8b9d-85df3e4414c0:76786:77145 [3] misc/ibvwrap.cc:284 NCCL WARN Call to ibv_modify_qp "
        "failed with error No such device",
        ("nccl.ib-roce-connection-fails",),
        "https://github.com/NVIDIA/nccl/issues/799",
        "NCCL_IB_GID_INDEX",
    ),
    (
        "misc/ibvwrap.cc:187 NCCL WARN Call to ibv_modify_qp failed with error Network is unreachable",
        ("nccl.ib-roce-connection-fails", "nccl.roce-gid-index-wrong"),
        "https://github.com/NVIDIA/nccl-tests/issues/185",
        "NCCL_IB_GID_INDEX",
    ),
    (
        "I ran torch based multi-machine multi-card model training in docker container, nccl 2.7.8,cuda 11.1.\n"
        "misc/ibvwrap.cc:280 NCCL WARN Call to ibv_create_qp failed",
        ("nccl.ib-roce-connection-fails",),
        "https://github.com/NVIDIA/nccl/issues/1129",
        "--device=/dev/infiniband",
    ),
]

JETSON = [
    (
        "ERROR: torch-2.0.0+nv23.05-cp38-cp38-linux_aarch64.whl is not a supported wheel on this platform.",
        ("jetson.pypi-wheel",),
        "https://github.com/JuliaPy/CondaPkg.jl/issues/97",
        "python3.8 -m pip",
    ),
    (
        "ERROR: tensorflow-2.3.1-cp36-cp36m-linux_aarch64.whl is not a supported wheel on this platform.",
        ("jetson.pypi-wheel",),
        "https://github.com/Qengineering/TensorFlow-JetsonNano/issues/2",
        "-m pip install",
    ),
    (
        "ERROR: torch-1.6.0-cp36-cp36m-linux_aarch64.whl is not a supported wheel on this platform.",
        ("jetson.pypi-wheel",),
        "https://github.com/NVIDIA-AI-IOT/jetcard/issues/47",
        None,
    ),
    (
        "nvidia@tegra-ubuntu:~/tensorflow$ pip install /tmp/tensorflow_pkg/tensorflow-1.6.0rc0-cp27-cp27mu-linux_aarch64.whl \n"
        "tensorflow-1.6.0rc0-cp27-cp27mu-linux_aarch64.whl is not a supported wheel on this platform.",
        ("jetson.pypi-wheel",),
        "https://github.com/jetsonhacks/installTensorFlowJetsonTX/issues/9",
        None,
    ),
    (
        "ERROR: onnxruntime_gpu-1.16.0-cp38-cp38m-linux_aarch64.whl is not a supported wheel on this platform.",
        ("jetson.pypi-wheel",),
        "https://github.com/microsoft/onnxruntime/issues/18951",
        "rename it to cp38-cp38",
    ),
    (
        "ERROR: onnxruntime_gpu-1.22.0-cp312-cp312-manylinux2014_aarch64.whl is not a supported wheel on this platform.",
        ("jetson.pypi-wheel",),
        "https://github.com/microsoft/onnxruntime/issues/24380",
        None,
    ),
    (
        "ImportError: libcufft.so.10.0: cannot open shared object file: No such file or directory\n"
        "My device is Jetson Nano, using JetPack4.3.",
        ("jetson.pypi-wheel",),
        "https://github.com/pytorch/pytorch/issues/41975",
        "nv_tegra_release",
    ),
    (
        "OSError: libcurand.so.10: cannot open shared object file: No such file or directory\nJetson Nano, Jetpack 4.6",
        ("jetson.pypi-wheel",),
        "https://github.com/Qengineering/PyTorch-Jetson-Nano/issues/5",
        None,
    ),
    (
        "max@jetson-tx2-0:~$ sudo docker run -it --rm --runtime nvidia --network host "
        "nvcr.io/nvidia/l4t-pytorch:r32.4.2-pth1.5-py3\n"
        "OSError: libnvToolsExt.so.1: cannot open shared object file: No such file or directory",
        ("jetson.pypi-wheel", "jetson.container-l4t-mismatch"),
        "https://github.com/dusty-nv/jetson-containers/issues/9",
        None,
    ),
    (
        "Installing PyTorch -> ImportError: libcudart.so.10.0: cannot open shared object file: No such file or directory\n"
        "Jetson Nano",
        ("jetson.pypi-wheel",),
        "https://github.com/dusty-nv/jetson-inference/issues/559",
        None,
    ),
    (
        "Package manager install on Nvidia Grace Hopper does not make cuda available",
        ("jetson.pypi-wheel", "torch.cpu-build-on-gpu-host"),
        "https://github.com/pytorch/pytorch/issues/123835",
        None,
    ),
    (
        "PyTorch version: 2.2.2\nIs debug build: False\nCUDA used to build PyTorch: Could not collect\n"
        "OS: Ubuntu 22.04.4 LTS (aarch64)\nIs CUDA available: False\nGPU models and configuration: GPU 0: NVIDIA GH200 480GB",
        ("jetson.pypi-wheel", "torch.cpu-build-on-gpu-host"),
        "https://github.com/pytorch/pytorch/issues/123835",
        None,
    ),
    (
        "Errors were encountered while processing:\n nvidia-l4t-bootloader\nE: Sub-process /usr/bin/dpkg returned an error code (1)",
        ("jetson.l4t-package-upgrade-fails",),
        "https://github.com/NVIDIA-AI-IOT/jetcard/issues/46",
        "dpkg --configure -a",
    ),
    (
        "dpkg: error processing package avt-nvidia-l4t-bootloader (--configure):\n"
        " installed avt-nvidia-l4t-bootloader package post-installation script subprocess returned error exit status 1",
        ("jetson.l4t-package-upgrade-fails",),
        "https://github.com/alliedvision/linux_nvidia_jetson/issues/59",
        "BSP",
    ),
    (
        "ERROR. Procedure for bl_update_payload update FAILED.",
        ("jetson.l4t-package-upgrade-fails",),
        "https://github.com/alliedvision/linux_nvidia_jetson/issues/59",
        None,
    ),
    (
        "Setting up nvidia-l4t-bootloader (36.4.4-20250616085344) ...\nWarning: Cannot get compatible board name.",
        ("jetson.l4t-package-upgrade-fails",),
        "https://github.com/Seeed-Studio/Linux_for_Tegra/issues/41",
        "nv_tegra_release",
    ),
]

CASES = [
    pytest.param(line, ids, url, knob, id=f"{family}-{n}")
    for family, rows in (("hw", HARDWARE), ("mem", MEMORY), ("nccl", NCCL), ("jetson", JETSON))
    for n, (line, ids, url, knob) in enumerate(rows)
]


@pytest.mark.parametrize(("line", "expected", "url", "knob"), CASES)
def test_field_line_reaches_its_cause(
    line: str, expected: tuple[str, ...], url: str, knob: str | None
) -> None:
    """The expected cause is among the first two findings, and its fixes name the knob."""
    assert url.startswith("https://")
    findings = triage_text(line).findings[:2]
    hits = [f for f in findings if f.id in expected]
    assert hits, (url, [f.id for f in findings])
    if knob:
        fixes = fixes_text(hits[0])
        assert knob.lower() in fixes.lower(), (url, fixes)
