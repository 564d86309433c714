"""NCCL / multi-GPU / Kubernetes, round 19 (checks/signatures/{nccl,kubernetes}.toml): whole opening
posts where envdoctor had the cause below a symptom (an InfiniBand transport that fails while
sockets work, read as /dev/shm; a Ray multi-node NCCL error that only works with one worker) and
the GPU Operator's MIG strategy (nvidia.com/gpu next to nvidia.com/mig-* resources, or MIG slices
wanted as nvidia.com/gpu), which had no cause. Each verbatim message reaches its cause first and one
of its fixes names the knob the thread's confirmed fix turned; look-alike rows are real messages of
other causes that the new phrasings must not read as theirs."""

from __future__ import annotations

from triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # the maintainer (cfregly): on p5.48xlarge set NCCL_SOCKET_IFNAME=enp to fix it
    (
        'File "/opt/conda/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 1906, in broadcast 10: work = default_pg.broadcast([tensor], opts) 10: torch.distributed.DistBackendError: NCCL error in: /opt/conda/conda-bld/pytorch_1696588393313/work/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1331, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.5 10: ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. 10: Last error: 10: socketStartConnect: Connect to 127.0.0.1<45069> failed : Software caused connection abort',
        "nccl.socket-interface-wrong",
        "NCCL_SOCKET_IFNAME",
        "https://github.com/awslabs/awsome-distributed-ai/issues/192",
    ),
    # the reporter: with NCCL_IB_DISABLE=1 the job runs well (RDMA tools pass; NCCL's IB transport fails)
    (
        "Below are errors when running tests based on https://github.com/PaddlePaddle/Paddle/pull/10349\n\n***NOTE: if set NCCL_IB_DISABLE=1, the job can run well, and RDMA test tools has passed (udaddy, ib_write_bw)***\n\n### case 1:\nsettings:\n\n`export NCCL_IB_CUDA_SUPPORT=0`\n\nerror log:\n\nserver 1:\n\n```\ninstance-fjhn02ur:454:484 [0] include/socket.h:185 WARN Call to connect failed : Connection refused\ninstance-fjhn02ur:454:484 [0] INFO transport/net_socket.cu:101 -> 2\ninstance-fjhn02ur:454:484 [0] INFO include/net.h:28 -> 2 [Net]\ninstance-fjhn02ur:454:484 [0] INFO bootstrap.cu:76 -> 2 [bthread]\n\ninstance-fjhn02ur:454:587 [0] include/socket.h:196 WARN Connection closed by remote peer\ninstance-fjhn02ur:454:587 [0] INFO transport/net_socket.cu:149 -> 2",
        "nccl.ib-roce-connection-fails",
        "NCCL_IB_DISABLE",
        "https://github.com/PaddlePaddle/Paddle/issues/10499",
    ),
    # the reporter: NCCL_SOCKET_IFNAME (passed through Ray's runtime_env) "works"; the default list
    # missed the wireless interface
    (
        "### What happened + What you expected to happen\n\n1. Created a cluster using yaml file from on-prem cluster using docker, ran pytorch test script from the website.\n    Everything works fine without GPU, but with GPU, NCCL Error occurs.\n    GPU only works if I set `--num_workers=1`\n    Tried `export NCCL_IB_DISABLE=1` and `export NCCL_P2P_DISABLE=1`, both didnt work\n    Tried `export NCCL_DEBUG=WARN` but I cannot see any logs printed on my console\n\n2. works fine with multiple GPU",
        "nccl.socket-interface-wrong",
        "NCCL_SOCKET_IFNAME",
        "https://github.com/ray-project/ray/issues/30333",
    ),
    # the reporter: "限制了 NCCL_SOCKET_IFNAME=bond0 后起起来了" (NCCL also used a veth interface)
    (
        "多机训练报错\nNCCL debug打开后log:\n\nm5-autorl-test01:47324:48509 [0] NCCL INFO Bootstrap : Using bond0:172.27.231.79<0>\nm5-autorl-test01:47324:48509 [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so), using internal implementation\nm5-autorl-test01:47324:48509 [0] NCCL INFO Failed to open libibverbs.so[.1]\nm5-autorl-test01:47324:48509 [0] NCCL INFO NET/Socket : Using [0]bond0:172.27.231.79<0> [1]veth8739016:fe80::5804:edff:fe5b:6570%veth8739016<0>\nm5-autorl-test01:47324:48509 [0] NCCL INFO Using network Socket\nNCCL version 2.12.10+cuda11.2\nm5-autorl-test01:47325:48508 [1] NCCL INFO P2P is disabled between connected GPUs 1 and 0. You can repress this message with NCCL_IGNORE_DISABLED_P2P=1.",
        "nccl.socket-interface-wrong",
        "NCCL_SOCKET_IFNAME",
        "https://github.com/Oneflow-Inc/libai/issues/415",
    ),
    # the maintainer (shivamerla): set mig.strategy=single in the ClusterPolicy and all GPUs are
    # advertised as nvidia.com/gpu
    (
        "**tl;dr** I want to request just `nvidia.com/gpu` - I don't care about the actual GPU layout.\n\nThis is the problem I try to solve:\n- I have MIG GPUs and regular GPUs in my cluster\n- I need to automatically schedule workloads on my GPUs\n- I don't care on which GPU my workload is running\n- All GPUs should be fully utilized.\n\nI want to avoid doing manual checks a lá:\n> \"are all `nvidia.com/mig-1g.10gb` resources allocated? then request `nvidia.com/gpu` for the next job\"\n\nsince this can lead to race-conditions when multiple jobs are being requested at the same time.\n\nIs it possible to rename mig resources? E.g. `nvidia.com/mig-1g.10gb` -> `nvidia.com/gpu`\n\nAny other solutions?",
        "k8s.mig-strategy-mismatch",
        "mig.strategy",
        "https://github.com/NVIDIA/gpu-operator/issues/518",
    ),
    # the maintainer (shivamerla): this is controlled by the mig.strategy mixed parameter (non-MIG GPUs
    # as nvidia.com/gpu, MIG devices as nvidia.com/mig-<profile>)
    (
        "### 2. Issue or feature description\nWhen MIG is enabled, both MIG resource and `nvidia.com/gpu` resource are reported as allocatable:\n```\nAllocatable:\n  cerit.io/gpu-count:      2\n  cerit.io/gpu-mem:        0\n  cpu:                     64\n  ephemeral-storage:       7104643354787\n  hugepages-1Gi:           0\n  hugepages-2Mi:           0\n  memory:                  519659388Ki\n  nvidia.com/gpu:          2\n  nvidia.com/mig-1g.10gb:  6\n  nvidia.com/mig-2g.20gb:  4\n  nvidia.com/mig-3g.40gb:  0\n  pods:                    160\n```\n\nwhich means that both requests `nvidia.com/gpu` and `nvidia.com/mig-1g.10gb` can land on the node, however, the `nvidia.com/gpu` request fails to inject GPU.\n\n### 3. Steps to reproduce the issue\nEnable MIG on A100 GPU.\n\nThis may be just a bug in Kubernetes, not the gpu operator itself.",
        "k8s.mig-strategy-mismatch",
        "mig.strategy",
        "https://github.com/NVIDIA/gpu-operator/issues/637",
    ),
]

# (message verbatim from a thread of another cause, the cause it must not be read as, thread)
LOOKALIKE = [
    # /dev/shm too small (the issue: "This means the size of shared memory is too low"), not the network
    (
        "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.cpp:81, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5\nncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.\nLast error:\nError while creating shared memory segment /dev/shm/nccl-vzIpS6 (size 9637888)",
        "nccl.socket-interface-wrong",
        "https://github.com/sgl-project/sgl-project.github.io/issues/5",
    ),
    # a socket connection aborted on the loopback address (fixed with NCCL_SOCKET_IFNAME), not InfiniBand
    (
        'File "/opt/conda/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 1906, in broadcast 10: work = default_pg.broadcast([tensor], opts) 10: torch.distributed.DistBackendError: NCCL error in: /opt/conda/conda-bld/pytorch_1696588393313/work/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1331, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.5 10: ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. 10: Last error: 10: socketStartConnect: Connect to 127.0.0.1<45069> failed : Software caused connection abort',
        "nccl.ib-roce-connection-fails",
        "https://github.com/awslabs/awsome-distributed-ai/issues/192",
    ),
    # no GPU advertised at all on a minikube node (no MIG in play): not the MIG strategy
    (
        "I'm trying to prepare GPU worker nodes and enable GPU support on Kubernetes to use GPU nodes. I followed the steps in the README file, but the pod always remains pending and is not working.Itried to use cuda 10 as tuto and also i changed to 12 and always not working.\nEvents:\n  Type     Reason            Age                  From               Message\n  ----     ------            ----                 ----               -------\n  Warning  FailedScheduling  26m (x150 over 12h)  default-scheduler  0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: 0/1 nodes are available: 1 No preemption victims",
        "k8s.mig-strategy-mismatch",
        "https://github.com/NVIDIA/k8s-device-plugin/issues/852",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_this_cause = lookalike_test(LOOKALIKE)
