"""Round 14 sweep, NCCL / torch.distributed hangs and network faults (checks/signatures/nccl.toml):
frequent messages from real threads (rank 0 tokenising alone until the process group times out, the
wrong or unreachable interface, Gloo resolving the host name to loopback, containers on bridge
networks, broken InfiniBand, peer-to-peer hangs on PCIe GPUs) reach the cause the thread confirmed,
first, with a fix naming the knob that fix turned (--ddp_timeout, NCCL_SOCKET_IFNAME,
GLOO_SOCKET_IFNAME, /etc/hosts, --network=host, NCCL_IB_DISABLE, NCCL_P2P_DISABLE, ...)."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, a knob its fixes name, thread)
KNOB = [
    # ---- rank 0 tokenises the dataset alone; the others wait in a barrier until the 30-minute timeout
    (
        "Running tokenizer on dataset:   9%|███████▊                                                                           "
        "| 280000/2969526 [29:55<4:48:08, 155.57 examples/s][E ProcessGroupNCCL.cpp:475] [Rank 2] Watchdog caught "
        "collective operation timeout: WorkNCCL(SeqNum=2, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, "
        "Timeout(ms)=1800000) ran for 1800328 milliseconds before timing out.",
        "nccl.collective-timeout",
        "ddp_timeout",
        "https://github.com/hiyouga/LlamaFactory/issues/2424",  # reporter: raised the timeout
    ),
    (
        "tokenizer的过程为什么不用GPU而要用cpu呢，这就导致数据量大几十G情况，超过30分钟还没有完成就会报超时错误\n"
        "我发现tokernize过程并没有用GPU，而是用的CPU，虽然可以通过preprocessing_num_workers 可以缓解，但是不能解决",
        "nccl.collective-timeout",
        "ddp_timeout",
        "https://github.com/hiyouga/LlamaFactory/issues/2656",  # maintainer: --ddp_timeout 180000
    ),
    (
        "我想问个问题就是每次多卡运行的时候因为分词得花很多时间，所以到30分钟的时候总会报错",
        "nccl.collective-timeout",
        "ddp_timeout",
        "https://github.com/shibing624/MedicalGPT/issues/129",  # maintainer: cache the tokenised set / ddp_timeout
    ),
    (
        "I was wondering why my dpo training scripts were failing when using big datasets and found out that it "
        "is happening always after 30 minutes. After a brief investigation I have discovered that the root cause "
        "was this nice context manager, allowing to tokenize only on the main process.",
        "nccl.collective-timeout",
        "ddp_timeout",
        "https://github.com/huggingface/trl/issues/1519",  # confirmed: TrainingArguments(ddp_timeout=...)
    ),
    (
        "8卡A100采用200万数据按照脚本训练，运行正常，但超过230万后，会在Running tokenizer on train dataset这一步时报错：\n"
        "This may indicate a possible application crash on rank 0 or a network set up issue.[7] is setting up NCCL "
        "communicator and retrieving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') "
        "got error: Socket Timeout",
        "nccl.collective-timeout",
        "init_distributed(timeout=",
        "https://github.com/SpongebBob/Finetune-ChatGLM2-6B/issues/13",  # reporter: DeepSpeed's timeout
    ),
    # ---- two machines, each with its own interface name
    (
        "I have two computer, when i do ifconfig, then one gives\n‘eno1\nlo’\n2nd computer gives\n‘eth0\nlo’\n"
        "What do I specify in nccl_socket_ifname on both nodes, do I specify lo on both?\n\nI receive error like\n"
        "RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:410, unhandled system error, "
        "NCCL version 2.4.8\nand \nconnection reset by peer",
        "nccl.socket-interface-wrong",
        "NCCL_SOCKET_IFNAME",
        "https://github.com/NVIDIA/nccl/issues/286",  # maintainer: NCCL_SOCKET_IFNAME=eno1,eth0
    ),
    # ---- Gloo resolves the host name to 127.0.1.1
    (
        "terminate called after throwing an instance of 'gloo::IoException'\n  what():  "
        "[/opt/conda/conda-bld/pytorch_1544084119927/work/third_party/gloo/gloo/transport/tcp/pair.cc:724] "
        "connect [127.0.1.1]:3210: Connection refused\nAborted (core dumped)",
        "nccl.socket-interface-wrong",
        "GLOO_SOCKET_IFNAME",
        "https://github.com/pytorch/pytorch/issues/15592",  # maintainer: GLOO_SOCKET_IFNAME; reporter: it works
    ),
    # ---- Gloo (the CPU group) resolves the host name to loopback / cannot reach the other node
    (
        "[Bug] multinode fails with RuntimeError: Gloo connectFullMesh failed with "
        "[../third_party/gloo/gloo/transport/tcp/pair.cc:144] no error",
        "nccl.socket-interface-wrong",
        "GLOO_SOCKET_IFNAME",
        "https://github.com/sgl-project/sglang/issues/3226",  # confirmed: GLOO_SOCKET_IFNAME works
    ),
    (
        "tcp connection refused when multinode training",
        "nccl.socket-interface-wrong",
        "GLOO_SOCKET_IFNAME",
        "https://github.com/meta-pytorch/data/issues/1142",  # reporter: export GLOO_SOCKET_IFNAME=eth0 fixes it
    ),
    (
        "[train] Gloo Connection refused\nI’m trying to use two hosts for pytorch training at the same time, and I’m "
        "not sure if I use it correctly.",
        "nccl.socket-interface-wrong",
        "/etc/hosts",
        "https://github.com/ray-project/ray/issues/37461",  # reporter: /etc/hosts 127.0.1.1 -> LAN address
    ),
    (
        "gloo出现connection refused\npaddlepaddle 2.2.0，用fleetrun启动，如果所有节点都在一台机器上正常，如果节点分布在多台机器上就会报如下错误",
        "nccl.socket-interface-wrong",
        "/etc/hosts",
        "https://github.com/PaddlePaddle/Paddle/issues/37951",  # reporter: fixed the hosts file
    ),
    # ---- the rendezvous address is not the master node's
    (
        "[W socket.cpp:663] [c10d] The client socket has failed to connect to [::ffff:255.255.0.0]:29500 (errno: 110 "
        "- Connection timed out).\n\nNPROC_PER_NODE=4\nNNODES=1\nRANK=0\nMASTER_ADDR=192.168.0.1\nMASTER_PORT=29500",
        "nccl.socket-interface-wrong",
        "--master_addr",
        "https://github.com/hiyouga/LlamaFactory/issues/3715",  # maintainer: configure the correct master addr
    ),
    # ---- containers on bridge networks
    (
        "Say we have two machines and in each machine we create a docker where pytorch runs in. Since the network "
        'mode is "bridge mode"  for the dockers, the process in docker of machine A cannot directly connect to that '
        "in docker of machine B. It makes the initialization of process group failed.",
        "nccl.container-network-isolated",
        "--network=host",
        "https://github.com/pytorch/pytorch/issues/12527",  # reporter: host mode works
    ),
    (
        "Distributed training on multi-node of containers failed.\n"
        "When I launch the training scripts.  The script stuck on main node and print below messages:",
        "nccl.container-network-isolated",
        "--network=host",
        "https://github.com/huggingface/accelerate/issues/2107",  # reporter: --network=host worked
    ),
    # ---- InfiniBand that does not work between the nodes
    (
        "RuntimeError: NCCL Error 2: unhandled system error (run with NCCL_DEBUG=INFO for details)\n\n"
        "Hello guys, I would like to try 2 node training with IB in my machine, but got some error below, do you "
        "guys have some idea?",
        "nccl.ib-roce-connection-fails",
        "NCCL_IB_DISABLE",
        "https://github.com/alibaba/Pai-Megatron-Patch/issues/612",  # reporter: NCCL_IB_DISABLE=1 works
    ),
    # ---- peer-to-peer over PCIe hangs
    (
        "When using the provided training script on 4 RTX 3090 GPUs, the training freezes or hangs with 100% GPU "
        "Utilization.",
        "nccl.p2p-broken-acs-iommu",
        "NCCL_P2P_DISABLE",
        "https://github.com/chenyilun95/DSGN2/issues/20",  # reporter: NCCL_P2P_DISABLE=1
    ),
    (
        "Multi-gpu example freeze and is not killable",
        "nccl.p2p-broken-acs-iommu",
        "NCCL_P2P_DISABLE",
        "https://github.com/pytorch/pytorch/issues/24081",  # NCCL_P2P_DISABLE=1 solved it (A5000s)
    ),
    (
        "Testing 2 GPUs on 1 node hangs after this:\n\n```sh\n$ NCCL_DEBUG=TRACE torchrun --nproc-per-node=2 "
        "t01_vllm_sandbox.py \nomega:53277:53277 [0] NCCL INFO Bootstrap : Using wlp38s0:192.168.1.19<0>\n"
        "omega:53277:53277 [0] NCCL INFO NET/Plugin : dlerror=libnccl-net.so: cannot open shared object file: No such "
        "file or directory No plugin found (libnccl-net.so), using internal implementation",
        "nccl.p2p-broken-acs-iommu",
        "NCCL_P2P_DISABLE",
        "https://github.com/vllm-project/vllm/issues/5484",  # reporter: NCCL_P2P_DISABLE=1 launched it
    ),
    (
        "training multi-gpu does not progress",
        "nccl.p2p-broken-acs-iommu",
        "NCCL_P2P_LEVEL",
        "https://github.com/shivammehta25/Matcha-TTS/issues/57",  # reporter: NCCL_P2P_LEVEL=NVL fixed it
    ),
    (
        "Hang with nccl all_reduce_perf on 8 cards RTX 4090",
        "nccl.p2p-broken-acs-iommu",
        "NCCL_P2P_DISABLE",
        "https://github.com/tinygrad/open-gpu-kernel-modules/issues/45",  # reporter: with P2P disabled all goes well
    ),
    # ---- two ranks on one GPU (NCCL names it)
    (
        "NCCL WARN Duplicate GPU detected : rank 0 and rank 3 both on CUDA device 0",
        "nccl.duplicate-gpu-rank",
        "set_device",
        "https://github.com/Lightning-AI/pytorch-lightning/issues/4420",  # maintainer: ranks share a device
    ),
    # ---- NVLink SHARP (NVLS) on an H100 box: init hangs beyond two GPUs
    (
        "For 4 GPUs: [all_reduce_4_gpus.txt](https://github.com/NVIDIA/nccl-tests/files/15401000/all_reduce_4_gpus.txt), "
        "the program hangs indefinitely. Final log line for all GPUs is something like\n``` txt\nc2ce1c877ea3:1023:1032 "
        "[0] NCCL INFO NVLS Bind mem 0xac0000000 UC handle 0x7f3310ccb240 MC handle 0x7f3310ccaa20 size 1073741824\n```",
        "nccl.nvls-multicast-fails",
        "NCCL_NVLS_ENABLE",
        "https://github.com/NVIDIA/nccl-tests/issues/216",  # maintainer: NCCL_NVLS_ENABLE=0; reporter: works
    ),
]

# (a real message of another cause, the cause a new pattern could wrongly put first, thread)
LOOKALIKE = [
    # a dataset map whose worker processes died: tokenising, but no timeout (not the process-group timeout)
    (
        "Running tokenizer on dataset 一直阻塞，然后subprocesses has abruptly died during map operation",
        "nccl.collective-timeout",
        "https://github.com/hiyouga/LlamaFactory/issues/5308",  # fixed by streaming / the dataset's columns
    ),
    (
        "I was trying to run a local demo but found that running tokenizer on a large dataset (here, ~1 M) will hang. "
        "I've tried different num_preprocessors (32, 64, 128, 512) and get the same outcome every time.",
        "nccl.collective-timeout",
        "https://github.com/Wiselnn570/VideoRoPE/issues/4",  # reporter: partitioning the data solved it
    ),
    # a watchdog timeout thousands of collectives into training: ranks out of step, not the P2P transport
    (
        "你好，新版代码use_fast_tokenizer=true时默认的，还是出现了NCCL timeout的问题。\n"
        "[rank0]:[E1123 00:52:57.664949121 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught collective operation "
        "timeout: WorkNCCL(SeqNum=1516, OpType=ALLREDUCE, NumelIn=25427968, NumelOut=25427968, Timeout(ms)=600000) "
        "ran for 600017 milliseconds before timing out.",
        "nccl.p2p-broken-acs-iommu",
        "https://github.com/hiyouga/LlamaFactory/issues/2902",
    ),
    # a hang after a day of training at 100% utilisation: an NCCL protocol bug (NCCL_PROTO), not PCIe P2P
    (
        "I found that tensorflow process gets stuck after training lasts almost 30 hours and this problem can be "
        "reproduced every time. The usages of all gpus are 100% when all processes hang up.",
        "nccl.p2p-broken-acs-iommu",
        "https://github.com/NVIDIA/nccl/issues/306",  # maintainer: try NCCL_PROTO=^LL
    ),
    # the ProcessGroupNCCL heartbeat monitor (a rank stuck inside a CUDA/NCCL call), not PCIe P2P
    (
        "[rank6]:[E429 13:55:49.384372190 ProcessGroupNCCL.cpp:1743] [PG ID 0 PG GUID 0(default_pg) Rank 6] "
        "ProcessGroupNCCL's watchdog got stuck for 480 seconds without making progress in monitoring enqueued "
        "collectives.",
        "nccl.p2p-broken-acs-iommu",
        "https://github.com/om-ai-lab/VLM-R1/issues/257",
    ),
]


test_message_reaches_confirmed_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_misread = lookalike_test(LOOKALIKE, may_be_empty=True)
