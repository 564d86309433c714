"""Round 17 sweep, NCCL / torch.distributed / multi-GPU engines, second pass
(checks/signatures/{serving,torch,nccl}.toml): frequent messages from real threads (an engine's custom all-reduce
without GPU peer access, init_process_group("nccl") in a process that sees no GPU, RDMA queue pairs
timing out between NICs, NCCL built for another CUDA, /dev/shm, NVLS, ports, interfaces) reach the cause
the thread confirmed, first, with a fix naming the knob that fix turned."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, a knob its fixes name, thread)
KNOB = [
    (
        "[3] include/shm.h:28 NCCL WARN Call to posix_fallocate failed : No space left on device\n[3] NCCL INFO include/shm.h:41 -> 2\n[3] include/shm.h:48 NCCL WARN Error while creating shared memory segment nccl-shm-recv-1462445a6f01cbfc-1-2-3 (size 9637888)",
        "nccl.shm-too-small",
        "NCCL_SHM_DISABLE",
        "https://github.com/NVIDIA/nccl/issues/525",  # reporter: NCCL_SHM_DISABLE=1 works; maintainer: /dev/shm is full
    ),
    (
        "[2026-04-22 21:34:20] mt-l-x86iavx512-45-172-t4-4-csmpw-runner-g4sfw-workflow:202016:202235 [0] misc/shmutils.cc:88 NCCL WARN Error: failed to extend /dev/shm/nccl-WU88OE to 9637892 bytes, error: No space left on device (28)\n\n[2026-04-22 21:34:20] mt-l-x86iavx512-45-172-t4-4-csmpw-runner-g4sfw-workflow:202016:202235 [0] misc/shmutils.cc:132 NCCL WARN Error while creating shared memory segment /dev/shm/nccl-WU88OE (size 9637888), error: No space left on device (28)",
        "nccl.shm-too-small",
        "medium: Memory",
        "https://github.com/pytorch/ci-infra/pull/490",  # merged: a memory-backed /dev/shm (emptyDir medium: Memory) for the pods
    ),
    (
        "Failed to bind NVLink SHARP (NVLS) Multicast memory: CUDA error 401",
        "nccl.nvls-multicast-fails",
        "NCCL_NVLS_ENABLE=0",
        "https://github.com/pytorch/ao/pull/3841",  # merged: NCCL_NVLS_ENABLE=0 fixes the CI runs
    ),
    (
        "transport/nvls.cc:287 NCCL WARN Failed to bind NVLink SHARP (NVLS) Multicast memory\n  of size 2097152 : CUDA error 401 'the operation cannot be performed in the present state'.\nDisable NVLS (NCCL_NVLS_ENABLE=0) if you wish to avoid this error in the future.",
        "nccl.nvls-multicast-fails",
        "NCCL_NVLS_ENABLE=0",
        "https://github.com/aarora79/agentic-coding-harness-benchmarks/pull/173",  # merged: NCCL_NVLS_ENABLE=0 lets every multi-GPU serve start
    ),
    (
        "RuntimeError: ProcessGroupNCCL is only supported with GPUs, no GPUs found!",
        "torch.cpu-build-on-gpu-host",
        "is_available",
        "https://github.com/hkchengrex/STCN/issues/14",  # maintainer: torch says CUDA is not available; reporter: got it
    ),
    (
        "RuntimeError: The server socket has failed to listen on any local network address. port: 29500, useIpv6: 0, code: -98, name: EADDRINUSE, message: address already in use",
        "nccl.master-port-in-use",
        "MASTER_PORT",
        "https://github.com/xdit-project/mochi-xdit/issues/22",  # maintainer: set MASTER_PORT; reporter: the port was hard-coded
    ),
    (
        "[2026-03-13 22:26:02] host-01.example.com:XXXXXX [5] ibvwrap.c:262 NCCL WARN Call to ibv_modify_qp failed with 110 Connection timed out, on dev mlx_x:1, curr state INIT, next state RTR, local GID index 3, local GID ::ffff:xxx.xx.xx.xx, remote GID ::ffff:xxx.xx.xxx.xx",
        "nccl.ib-roce-connection-fails",
        "NCCL_CROSS_NIC",
        "https://github.com/NVIDIA/nccl/issues/2013",  # maintainer: NCCL_CROSS_NIC=0; a reporter: it worked
    ),
    (
        "erro: Distributed package doesn't have NCCL built in",
        "nccl.windows-no-nccl",
        "gloo",
        "https://github.com/AntixK/PyTorch-VAE/issues/73",  # commenter: PL_TORCH_DISTRIBUTED_BACKEND=gloo got it working
    ),
    (
        "RuntimeError: Address already in use",
        "nccl.master-port-in-use",
        "port",
        "https://github.com/facebookresearch/SlowFast/issues/337",  # maintainer: change the port of --init_method; reporter: it works
    ),
    (
        "When I start sglang on 4090 with `--tensor-parallel-size=2`, it crashed with `RuntimeError: CUDART error: peer access is not supported between these two devices`, we must disable custom all reduce on these devices.",
        "vllm.custom-all-reduce-fails",
        "--disable-custom-all-reduce",
        "https://github.com/sgl-project/sglang/issues/4814",  # custom all-reduce must be disabled on 4090 (--disable-custom-all-reduce)
    ),
    (
        "Failed: Cuda error /home/runner/work/vllm/vllm/csrc/custom_all_reduce.cuh:307 'peer access is not supported between these two devices'\nFailed: Cuda error /home/runner/work/vllm/vllm/csrc/custom_all_reduce.cuh:307 'peer access is not supported between these two devices'",
        "vllm.custom-all-reduce-fails",
        "disable",
        "https://github.com/sgl-project/sglang/issues/552",  # maintainer: disable the custom allreduce (PR 531)
    ),
    (
        "[TensorRT-LLM][ERROR] [TensorRT-LLM][ERROR] CUDA runtime error in error: peer access is not supported between these two devices",
        "vllm.custom-all-reduce-fails",
        "use_custom_all_reduce",
        "https://github.com/NVIDIA/TensorRT-LLM/issues/1625",  # reporter: trtllm-build with --use_custom_all_reduce (disable) works
    ),
    (
        'I\'ve met a similar issue on my machine with pytorch 1.1, CUDA 10.0 and NCCL 2.4.2. The only difference is that my error message is "RuntimeError: ...... ProcessGroupNCCL.cpp:272, unhandled system error". I finally solved it with setting NCCL_SOCKET_IFNAME=ib0 and NCCL_IB_DISABLE=1.',
        "nccl.socket-interface-wrong",
        "NCCL_SOCKET_IFNAME",
        "https://github.com/pytorch/pytorch/issues/17349",  # commenter: NCCL_SOCKET_IFNAME=ib0 + NCCL_IB_DISABLE=1 solved it
    ),
    (
        "这个问题已经被修复了，该问题是由于nccl和cuda的版本不兼容导致的，可以通过重装nccl解决",
        "nccl.version-too-old",
        "nvidia-nccl",
        "https://github.com/InternLM/lmdeploy/issues/1803",  # commenter: NCCL and CUDA versions did not match; reinstalling NCCL fixed it
    ),
]

# (a real message of another cause, the cause a new pattern could wrongly put first, thread)
LOOKALIKE = [
    (
        "Cuda failure 217 'peer access is not supported between these two devices'",
        "vllm.custom-all-reduce-fails",
        "https://github.com/NVIDIA-NeMo/RL/issues/1683",  # NCCL's own P2P transport (Cuda failure 217), not an engine's custom all-reduce
    ),
    (
        '环境：windows11 python3.10  \n按照要求安装了环境，pip install "modelscope[nlp]" -f https://modelscope.oss-cn-beijing.aliyuncs.com/releases/repo.html和pip3 install torch torchvision torchaudio --index-url https://download.pytorch.org/whl/cu118，运行报错Distributed package doesn\'t have NCCL built in,查询资料发现windows系统不支持NCCL 需要改为gloo，请问是在代码的哪一处改？或者有其他解决方法？',
        "torch.cpu-build-on-gpu-host",
        "https://github.com/modelscope/modelscope/issues/334",  # Windows has no NCCL: still the Gloo cause
    ),
]


test_message_reaches_confirmed_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_misread = lookalike_test(LOOKALIKE, may_be_empty=True)
