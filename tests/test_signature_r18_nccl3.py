"""Round 18 sweep, NCCL / torch.distributed / multi-GPU launchers, third pass
(checks/signatures/{nccl,extensions}.toml plus small pattern additions to existing entries): frequent
messages from real threads (the c10d client socket that cannot reach MASTER_ADDR, the DeepSpeed
launcher's ssh check, an NCCL built without this GPU's architecture, RDMA memory registration,
two NCCL wheels of different CUDA majors, /dev/shm, P2P on GeForce cards, socket interfaces) reach
the cause the thread confirmed, first, with a fix naming the knob that fix turned."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, a knob its fixes name, thread)
KNOB = [
    # ---- the c10d store (MASTER_ADDR:MASTER_PORT) cannot be reached
    (
        "The client socket has failed to connect to any network address of (hcp-bb-03, 52873). The client socket has failed to connect to hcp-bb-03:52873 (errno: 110 - Connection timed out)",
        "nccl.socket-interface-wrong",
        "master_addr",
        "https://github.com/hpcaitech/ColossalAI-Examples/issues/207",  # reporter: --master_addr localhost made it train
    ),
    # ---- the DeepSpeed launcher's passwordless-ssh check
    (
        "subprocess.CalledProcessError: Command '['ssh', '-o', 'PasswordAuthentication=no', 'manager', 'hostname']' returned non-ze",
        "deepspeed.hostfile-ssh-unreachable",
        "--no_ssh",
        "https://github.com/deepspeedai/DeepSpeed/issues/6875",  # reporter: deepspeed --hostfile=hostfile --no_ssh --node_rank=0 starts the training
    ),
    # ---- NCCL built without this GPU's architecture
    (
        "gcn75:2336636:2336906 [0] enqueue.cc:58 NCCL WARN Cuda failure 'named symbol not found'",
        "nccl.version-too-old",
        "NVCC_GENCODE",
        "https://github.com/NVIDIA/nccl/issues/1372",  # reporter: NCCL built for sm_80 only; rebuilding with compute_90 in NVCC_GENCODE fixed it
    ),
    # ---- RDMA memory registration fails
    (
        "[2025-06-16 17:17:39] kilo:318:3584 [5] misc/ibvwrap.cc:183 NCCL WARN Call to ibv_reg_dmabuf_mr failed with error Cannot allocate memory",
        "nccl.ib-memlock-limit",
        "NCCL_BUFFSIZE",
        "https://github.com/vllm-project/vllm/issues/19613",  # reporter: NCCL_BUFFSIZE was set too large; the default made it go away
    ),
    # ---- two NCCL wheels / an NCCL that does not match torch
    (
        "Importing Pytorch results in undefined symbol ncclCommResume",
        "nccl.version-too-old",
        "nvidia-nccl-cu12",
        "https://github.com/pytorch/pytorch/issues/186591",  # maintainer: nvidia-nccl-cu12 and -cu13 both installed; uninstall nvidia-nccl-cu12
    ),
    (
        "paddle.fluid.core.EnforceNotMet: unhandled cuda error at [/workspace/agent/work/62dea99fa81a5ba4/paddle/fluid/platform/nccl_helper.h:93]",
        "nccl.version-too-old",
        "libnccl2",
        "https://github.com/PaddlePaddle/Paddle/issues/10608",  # reporter: NCCL was not installed; installing it fixed it
    ),
    # ---- the network between the ranks
    (
        "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1333, remote process exited or there was a network error, NCCL version 2.18.6",
        "nccl.collective-timeout",
        "NCCL_SOCKET_IFNAME",
        "https://github.com/NVIDIA/nccl/issues/1141",  # reporter: the socket interface; NCCL_SOCKET_IFNAME (+ NCCL_IB_DISABLE) solved it
    ),
    (
        "Failed to create NCCL communicator: INTERNAL: ncclCommInitRankConfig(...) failed:\ninvalid usage ... Last NCCL warning(error): 'Bootstrap : no socket interface found'",
        "nccl.socket-interface-wrong",
        "NCCL_SOCKET_IFNAME",
        "https://github.com/marin-community/marin/issues/7018",  # root cause: NCCL_SOCKET_IFNAME left non-routable interfaces
    ),
    (
        "Test NCCL failure common.cu:959 'internal error - please report this issue to the NCCL developers / '",
        "nccl.socket-interface-wrong",
        "NCCL_SOCKET_IFNAME",
        "https://github.com/NVIDIA/nccl-tests/issues/219",  # reporter: listing both interface names in NCCL_SOCKET_IFNAME worked
    ),
    (
        "jnlh102072:8969:8969 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 10.37.12.78<46417> failed : Software caused connection abort\n...\nRuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)",
        "nccl.socket-interface-wrong",
        "GLOO_SOCKET_IFNAME",
        "https://blog.gitcode.com/c78323ca6ecbd73b92ec3459c9ac1ed1.html",  # NCCL_SOCKET_IFNAME=bond0 and GLOO_SOCKET_IFNAME=bond0 on every server
    ),
    (
        "aigc-maas-instance-leader-0:1639:1915 [0] NCCL INFO Call to ibv_set_ece failed with error Operation not supported errno 95\n\naigc-maas-instance-leader-0:1639:1915 [0] misc/ibvwrap.cc:206 NCCL WARN Call to ibv_modify_qp failed with error No such device errno 19",
        "nccl.ib-roce-connection-fails",
        "NCCL_IB_GID_INDEX",
        "https://github.com/NVIDIA/nccl/issues/1657",  # resolved by dropping the manual NCCL_IB_GID_INDEX (and a newer NCCL)
    ),
    # ---- GeForce cards without P2P
    (
        "使用40系显卡做微调出现的报错\n[BUG] <title>Using RTX 4000 series doesn't support faster communication broadband via P2P or IB.",
        "nccl.p2p-broken-acs-iommu",
        "NCCL_P2P_DISABLE",
        "https://github.com/QwenLM/Qwen-VL/issues/447",  # commenter: export NCCL_P2P_DISABLE=1 NCCL_IB_DISABLE=1
    ),
    (
        "Single machine multi-gpus ddp training stuck",
        "nccl.p2p-broken-acs-iommu",
        "NCCL_P2P_DISABLE",
        "https://github.com/Lightning-AI/pytorch-lightning/issues/19425",  # reporter: setting NCCL_P2P_DISABLE=1 did indeed resolve the problem
    ),
]

# (a real message of another cause, the cause a new pattern could wrongly put first, thread)
LOOKALIKE = [
    (
        "[W socket.cpp:558] [c10d] The client socket has failed to connect to [localhost]:29500 (errno: 99 - Cannot assign requested address).",
        "nccl.socket-interface-wrong",
        "https://github.com/pytorch/PiPPy/issues/158",  # a local port reused too soon, not an unreachable MASTER_ADDR
    ),
    (
        "[W socket.cpp:401] [c10d] The server socket has failed to listen on [::]:47531 (errno: 98 - Address already in use).",
        "nccl.socket-interface-wrong",
        "https://github.com/pytorch/pytorch/issues/85604",  # the port is taken on this machine: MASTER_PORT, not the address
    ),
    (
        "terminate called after throwing an instance of 'EPException'\n  what():  Failed: CUDA error /opt/DeepEP/csrc/kernels/runtime.cu:25 'named symbol not found'",
        "nccl.version-too-old",
        "https://github.com/deepseek-ai/DeepEP/issues/87",  # DeepEP's own kernels / NVSHMEM, not NCCL
    ),
    (
        "trainer-2: torch.distributed.DistNetworkError: The client socket has failed to connect to any network address of (192.168.121.122, 1040). The client socket has failed to connect to 192.168.121.122:1040 (errno: 113 - No route to host).\ntrainer-2: [2024-02-24 04:37:50,964] [INFO] [launch.py:315:sigkill_handler] Killing subprocess 18507\npdsh@vnode1: trainer-2: ssh exited with exit code 1",
        "deepspeed.hostfile-ssh-unreachable",
        "https://github.com/huggingface/accelerate/issues/2468",  # ssh reached the node; its rank could not reach the rendezvous address
    ),
]


test_message_reaches_confirmed_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_misread = lookalike_test(LOOKALIKE, may_be_empty=True)
