"""Multi-GPU / multi-node training and serving errors (checks/signatures/{torch,nccl,extensions,serving}.toml):
each common message of torch.distributed, NCCL, DeepSpeed, accelerate and vLLM tensor parallelism
reaches the cause its real threads confirmed, first, with a fix naming the knob that fix turned (a
launcher flag, an NCCL variable, a DDP argument, a Docker flag, a build variable)."""

from __future__ import annotations

import pytest

from tests.triage_lines import assert_not_first, command_test

# (message verbatim from the thread, the finding id first, a command one of its fixes gives, thread)
KNOB = [
    # ---- reached before this sweep (kept as a guard)
    (
        "torch.distributed.DistNetworkError: The server socket has failed to listen on any local "
        "network address. The server socket has failed to bind to [::]:29500 (errno: 98 - Address "
        "already in use). The server socket has failed to bind to ?UNKNOWN? (errno: 98 - Address "
        "already in use).",
        "nccl.master-port-in-use",
        "--master_port",
        "https://github.com/meta-pytorch/torchtune/issues/1025",  # maintainer: 29500 is the default
    ),
    (
        "[W socket.cpp:436] [c10d] The server socket has failed to bind to [::]:50002 (errno: 98 - "
        "Address already in use).\n[W socket.cpp:436] [c10d] The server socket has failed to bind to "
        "0.0.0.0:50002 (errno: 98 - Address already in use).\n[E socket.cpp:472] [c10d] The server "
        "socket has failed to listen on any local network address.",
        "nccl.master-port-in-use",
        "kill <PID>",
        "https://github.com/bytedance/GR-MG/issues/11",  # maintainer: end the lingering processes
    ),
    (
        "[8d6bf97c3bf4:3039 :0:3095] Caught signal 7 (Bus error: nonexistent physical address)\n"
        "==== backtrace (tid:   3095) ====\n 0 0x0000000000043090 killpg()  ???:0\n"
        " 1 0x000000000018bb41 __nss_database_lookup()  ???:0\n 2 0x000000000007587d ncclGroupEnd()  ???:0\n"
        " 3 0x000000000007b0ef ncclGroupEnd()  ???:0\n 4 0x0000000000059e97 ncclGetUniqueId()  ???:0\n"
        " 5 0x00000000000489b1 ???()  /usr/lib/x86_64-linux-gnu/libnccl.so.2:0\n"
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:",
        "nccl.shm-too-small",
        "--shm-size",
        "https://github.com/msr-fiddle/pipedream/issues/76",  # reporter: docker run --shm-size
    ),
    (
        "Stuck during training\nIn my case, my server has a strict network communication constrains.",
        "nccl.p2p-broken-acs-iommu",
        "NCCL_P2P_DISABLE=1",
        "https://github.com/huggingface/open-r1/issues/319",  # reporter: export NCCL_P2P_DISABLE=1
    ),
    (
        "RuntimeErrorRuntimeError: CUDA error: invalid device ordinal\nCompile with `TORCH_USE_CUDA_DSA` "
        "to enable device-side assertions.\n: CUDA error: invalid device ordinal\nCompile with "
        "`TORCH_USE_CUDA_DSA` to enable device-side assertions.",
        "cuda.device-ordinal-exceeds-gpu-count",
        "--nproc_per_node",
        "https://github.com/hustvl/Vim/issues/61",  # solved: nproc_per_node 8 -> the 4 GPUs there
    ),
    (
        "I get the following error after installing apex\n`RuntimeError: CUDA error: invalid device ordinal`",
        "cuda.device-ordinal-exceeds-gpu-count",
        "--nproc_per_node",
        "https://github.com/NVIDIA/apex/issues/1138",  # reporter: forgot to change nproc_per_node
    ),
    (
        "Rccl error, unhandled system error\nBTW, also tried two nodes and connecting network by docker "
        "swarm, and same issue as above.",
        "nccl.container-network-isolated",
        "NCCL_SOCKET_IFNAME",
        "https://github.com/ROCm/rccl/issues/328",  # reporter: resolved by NCCL_SOCKET_IFNAME=eth0
    ),
    # ---- torch.distributed used without a process group (matched nothing or a GPU-memory guess)
    (
        'hello, when i run with only one GPU, i get the error "RuntimeError: Default process group has '
        'not been initialized, please make sure to call init_process_group."',
        "torch.distributed-not-initialized",
        "init_process_group",
        "https://github.com/megvii-model/YOLOF/issues/11",  # reporter: init_process_group(world_size=1)
    ),
    (
        "I melt the issue when training the model with a single 3090 GPU. I cannot sort out the source "
        "of the issue.\n\n>RuntimeError: Default process group has not been initialized, please make "
        "sure to call init_process_group.",
        "torch.distributed-not-initialized",
        "SyncBN",
        "https://github.com/VCIP-RGBD/DFormer/issues/2",  # maintainer: syncBN -> BN on one GPU
    ),
    (
        "my gpu is 3070m with windows. When start train  it show RuntimeError: Default process group "
        "has not been initialized, please make sure to call init_process_group.",
        "torch.distributed-not-initialized",
        "SyncBatchNorm",
        "https://github.com/NiccoloCavagnero/PEM/issues/10",  # reporter: changed SyncBatchNorm, works
    ),
    (
        "Default process group has not been initialized, please make sure to call init_process_group.",
        "torch.distributed-not-initialized",
        "SyncBN",
        "https://github.com/zcablii/LSKNet/issues/54",  # maintainer: 'SyncBN' -> 'BN'; reporter: useful
    ),
    (
        "RuntimeError: Default process group has not been initialized, please make sure to call "
        "init_process_group.",
        "torch.distributed-not-initialized",
        "--launcher pytorch",
        "https://github.com/SLDGroup/GreedyViG/issues/1",  # reporter: added --launcher pytorch
    ),
    (
        "[BUG/Help] p-tuning v2 报错：RuntimeError: Default process group has not been initialized, "
        "please make sure to call init_process_group.",
        "torch.distributed-not-initialized",
        "SyncBatchNorm",
        "https://github.com/zai-org/ChatGLM-6B/issues/981",  # SyncBatchNorm -> BatchNorm2d, confirmed
    ),
    # ---- DDP: parameters that did not take part in the loss (a cuDNN-mismatch guess before)
    (
        "RuntimeError: Expected to have finished reduction in the prior iteration before starting a new "
        "one. This error indicates that your module has parameters that were not used in producing loss. "
        "You can e",
        "torch.ddp-unused-parameters",
        "find_unused_parameters=True",
        "https://github.com/aliyun/conditional-lane-detection/issues/29",
    ),
    (
        "RuntimeError: Expected to have finished reduction in the prior iteration before starting a new "
        "one. This error indicates that your module has parameters that were not used in producing loss.",
        "torch.ddp-unused-parameters",
        "find_unused_parameters=True",
        "https://github.com/HamPerdredes/SOOD/issues/33",  # maintainer + reporter: resolved
    ),
    (
        '"RuntimeError: Expected to have finished reduction in the prior iteration before starting a new '
        "one. This error indicates that your module has parameters that were not used in producing loss. "
        "You can enable unused parameter detection by passing the keyword argument "
        '`find_unused_parameters=True` to `torch.nn.parallel.DistributedDataParallel`"',
        "torch.ddp-unused-parameters",
        "find_unused_parameters=True",
        "https://github.com/ZhengYinan-AIR/Diffusion-Planner/issues/65",
    ),
    # ---- a rank killed by SIGBUS (-7): shared memory exhausted (matched nothing)
    (
        "Exits with return code = -7 [Usage]",
        "nccl.shm-too-small",
        "--shm-size",
        "https://github.com/haotian-liu/LLaVA/issues/739",  # reporter: docker shm_size bigger
    ),
    (
        '[BUG] Have "exits with return code = -7" without any error message',
        "nccl.shm-too-small",
        "--shm-size",
        "https://github.com/deepspeedai/DeepSpeed/issues/4002",  # maintainer: --shm-size; confirmed
    ),
    # ---- DeepSpeed's CPU Adam op never built (ZeRO-Offload): a GPU-memory guess before
    (
        "AttributeError: 'DeepSpeedCPUAdam' object has no attribute 'ds_opt_adam'\n"
        "我是直接 pip install DeepSpeed 的   安装的 deepspeed=0.9.2，是否是版本的问题？",
        "deepspeed.cpu-adam-not-built",
        "DS_BUILD_CPU_ADAM=1",
        "https://github.com/ymcui/Chinese-LLaMA-Alpaca/issues/368",  # reporter: DS_BUILD_CPU_ADAM=1 build
    ),
    # ---- vLLM's custom all-reduce (CUDA IPC) on a topology it does not support
    (
        "`Failed: Cuda error /workspace/csrc/custom_all_reduce.cuh:455 'invalid argument'` (vLLM's "
        "CUDA-IPC custom all-reduce), while NCCL itself works on the node.",
        "vllm.custom-all-reduce-fails",
        "--disable-custom-all-reduce",
        "https://github.com/benchflow-ai/posttrainarena/pull/46",  # disable_custom_all_reduce=True
    ),
    (
        "[Bug]: Engine startup deadlocks on V100 (SM70, TP=2): custom_all_reduce kernel spins forever",
        "vllm.custom-all-reduce-fails",
        "--disable-custom-all-reduce",
        "https://github.com/1CatAI/1Cat-vLLM/issues/652",  # reporter: starts with the flag
    ),
    (
        '[Bug]: Obvious hang caused by Custom All Reduce OP\nThe problem I encountered was "NCCL hangs '
        'and causes timeout"',
        "vllm.custom-all-reduce-fails",
        "--disable-custom-all-reduce",
        "https://github.com/vllm-project/vllm/issues/8410",  # reporter: --disable_custom_all_reduce works
    ),
    # ---- the cause was reached, the knob the confirmed fix turned was not
    (
        "I've installed on Windows 11, following the instructions, including the optional dependencies, "
        "with python 3.11 and Pytorch 2.51, but training will not start, complaining about "
        '"\\lib\\site-packages\\torch\\distributed\\rendezvous.py", line 185, in _create_c10d_store '
        'return TCPStore(RuntimeError: use_libuv was requested but PyTorch was build without libuv support"',
        "torch.distributed-libuv-windows",
        "accelerate config",
        "https://github.com/kohya-ss/musubi-tuner/issues/100",  # reporter: accelerate config, one GPU
    ),
    (
        "I'm trying to fine tune with this on Windows. Whenever I try to run it, I get the 'use_libuv was "
        "requested but PyTorch was build without libuv support' error.",
        "torch.distributed-libuv-windows",
        "python train.py",
        "https://github.com/Intellindust-AI-Lab/DEIM/issues/31",  # torchrun -> python train.py
    ),
    (
        'I tried to run train_small.sh and got an NCCL error which suggests "ncclInvalidUsage" with '
        '"Duplicate GPU detected". I think it requested 4 NCCL processes while I only have 1 GPU.',
        "nccl.duplicate-gpu-rank",
        "--num_processes",
        "https://github.com/facebookresearch/ViewDiff/issues/24",
    ),
]


test_a_distributed_error_gets_its_cause_and_the_knob = command_test(KNOB, ids=[k[3] for k in KNOB])


@pytest.mark.parametrize(
    ("text", "not_id"),
    [
        # a DataLoader worker's bus error is the DataLoader's shared memory (its own entry), and a
        # rank killed by SIGKILL (-9) is the host's RAM, not the SIGBUS (-7) entry
        (
            "RuntimeError: DataLoader worker (pid 3456) is killed by signal: Bus error. It is possible "
            "that dataloader's workers are out of shared memory. Please try to raise your shared memory "
            "limit.",
            "torch.ddp-unused-parameters",
        ),
        (
            "Loading checkpoint shards:  57% 4/7 [00:40<00:29,  9.96s/it]ERROR:torch.distributed.elastic."
            "multiprocessing.api:failed (exitcode: -9) local_rank: 0 (pid: 31631) of binary: /usr/bin/python3",
            "nccl.shm-too-small",
        ),
        # Windows without NCCL stays its own cause, not a missing process group
        # (https://github.com/Alpha-VLLM/LLaMA2-Accessory/issues/166)
        (
            "RuntimeError: Distributed package doesn't have NCCL built in",
            "torch.distributed-not-initialized",
        ),
        # NCCL's own P2P transport failing to open an IPC handle is the PCIe P2P cause, not vLLM's
        # custom all-reduce (https://github.com/ray-project/ray_lightning/issues/24)
        (
            "(pid=909608) z-pc:909608:910337 [0] transport/p2p.cc:238 NCCL WARN failed to open CUDA IPC "
            "handle : 217 peer access is not supported between these two devices",
            "vllm.custom-all-reduce-fails",
        ),
        # DeepSpeed without a CUDA toolkit to build its ops stays the toolkit cause
        # (https://github.com/thinhlpg/vixtts-demo/issues/12)
        (
            "deepspeed.ops.op_builder.builder.MissingCUDAException: CUDA_HOME does not exist, unable to "
            "compile CUDA op(s)",
            "deepspeed.cpu-adam-not-built",
        ),
    ],
)
def test_a_look_alike_is_not_taken_for_these_causes(text, not_id) -> None:
    assert_not_first(text + "\n", not_id, None, may_be_empty=False)
