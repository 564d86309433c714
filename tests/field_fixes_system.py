"""Round 9 field survey (topic `system`): do the fixes of a reached cause name the knob the real fix
turned on, for container runtime, Kubernetes, NCCL, driver/library mismatch, WSL, Windows DLL,
hardware and Jetson reports?

Every text below is the reporter's own words, copied verbatim (whole lines, error output and the
facts they gave, never the answer) from the public thread named beside it, where the fix was
confirmed in the thread: the reporter says it worked, or a maintainer states cause and fix. The
knob is what that fix turned on (a package, flag, env var, command or version). None of these
threads are in the triage corpus. The expected cause must be among the first three findings of
`triage_text(text)` and its fixes must name the knob. The second table holds reports whose cause is
something ELSE: the cause a cue could be tempted by must not rank first.
"""

from __future__ import annotations

TOOLKIT = ("container.no-nvidia-runtime", "container.nvidia-runtime-not-configured")
CAPS = (
    "container.driver-libs-not-injected",
    "container.no-gpus-injected",
    "container.nvidia-runtime-not-configured",
)
MISMATCH = ("nvidia.driver-library-mismatch",)

# (text, accepted ids, source URL, knob the fixes must name)
CASES = [
    (
        'UI fails to launch - could not select device driver "nvidia" with capabilities: [[gpu]]\n'
        "I tried to run the app with: ```sudo docker compose --profile auto up --build``` and got an "
        "error:\n```Attaching to webui-docker-auto-1```\n```Error response from daemon: could not "
        'select device driver "nvidia" with capabilities: [[gpu]]```\n - OS: Arch Linux\n'
        " - Docker Version: 20.10.18\n - Docker compose version: 2.11.2\n"
        "I'm trying to run this on a home server without Xorg, and would access the UI from another "
        "machine. Not sure if that changes anything. Also I do have the nvidia driver installed.",
        TOOLKIT,
        "https://github.com/AbdBarho/stable-diffusion-webui-docker/issues/130",
        "nvidia-container-toolkit",
    ),
    (
        "docker: Error response from daemon: unknown or invalid runtime name: nvidia.\n"
        "You can probably run into the following error when running the examples:\n"
        "Found compatible container dustynv/llava:r36.2.0 (2023-12-18, 8.0GB) - would you like to "
        "pull it? [Y/n] y\n**docker: Error response from daemon: unknown or invalid runtime name: "
        "nvidia.**\nSee 'docker run --help'.",
        TOOLKIT,
        "https://github.com/Seeed-Projects/jetson-examples/issues/1",
        "nvidia-container-toolkit",
    ),
    (
        "Failed to initialize NVML: Driver/library version mismatch\n"
        "Failed to initialize NVML: Driver/library version mismatch",
        MISMATCH,
        "https://github.com/qixuema/envs/issues/8",
        "reboot",
    ),
    (
        "nvidia-container-cli: initialization error: nvml error: driver/library version mismatch: "
        "unknown.",
        MISMATCH,
        "https://github.com/NVIDIA/nvidia-container-toolkit/issues/394",
        "reboot",
    ),
    (
        "Failed to dlopen libcuda.so in WSL environment\n```\nfrom cuda import cuda\n"
        "cuda.cuInit(0)\n```\nRuntimeError: Failed to dlopen libcuda.so",
        ("wsl.lib-not-on-loader-path", "wsl.libcuda-not-symlink"),
        "https://github.com/NVIDIA/cuda-python/issues/17",
        "/usr/lib/wsl/lib",
    ),
    (
        "CUDA runtime detection failure.\n```\ndeploy: # API dependent on compose version.\n"
        "  resources:\n    reservations:\n      devices:\n        - driver: nvidia\n"
        "          capabilities: [ gpu ]\n```\n"
        "The code above is not working in some versions of Docker Compose.",
        ("container.compose-too-old-for-gpus", *CAPS),
        "https://github.com/cresset-template/cresset/issues/216",
        "runtime: nvidia",
    ),
    (
        "gpu-operator failing on rke2\nI have a cluster running rke2 v1.22 with a worker node running "
        "Ubuntu 20.04 that has a Tesla-T4.\nThe gpu-operator fails with a message: \n"
        'time="2022-09-19T11:52:23Z" level=warning msg="Error signaling containerd, attempt 5/6: '
        "unable to dial: dial unix /runtime/sock-dir/containerd.sock: connect: no such file or "
        'directory"',
        ("k8s.operator-containerd-paths",),
        "https://github.com/NVIDIA/gpu-operator/issues/406",
        "CONTAINERD_SOCKET",
    ),
    (
        "CUDA Version: N/A\nnerdctl run -it --rm --gpus capabilities=utility,device=GPU-3a23c669-1f69-"
        "c64e-cf85-44e9b07e7a2a nvidia/cuda:9.0-base nvidia-smi\n"
        "when i use python pytorch,torch.cuda.is_available(),return false.",
        CAPS,
        "https://github.com/containerd/nerdctl/issues/1023",
        "compute",
    ),
    (
        'Failed to start docker compose --profile auto up --build get error " Found no NVIDIA driver '
        'on your system."',
        CAPS,
        "https://github.com/AbdBarho/stable-diffusion-webui-docker/issues/348",
        "NVIDIA_DRIVER_CAPABILITIES",
    ),
    (
        "Found no NVIDIA driver on your system\nI've installed the latest version of nvidia-docker "
        "(v2) in order to run PyTorch on the GPU from this container - "
        "https://hub.docker.com/r/allennlp/allennlp/.\nI've followed your instructions and am able to "
        "open nvidia-smi inside the container, which displays the driver version 387.12, same as my "
        "local machine.\nStill, whenever I try to use the GPU on PyTorch inside the container, I get "
        "the error 'Found no NVIDIA driver on your system', which is odd given that nvidia-smi seems "
        "to show everything fine.",
        CAPS,
        "https://github.com/NVIDIA/nvidia-docker/issues/533",
        "NVIDIA_DRIVER_CAPABILITIES",
    ),
    (
        "NCCL alltoall_perf errors with 5090",
        ("nccl.version-too-old",),
        "https://github.com/NVIDIA/nccl-tests/issues/291",
        "2.26",
    ),
    (
        "RuntimeError: DataLoader worker (pid 572) is killed by signal: Bus error. It is possible "
        "that dataloader's workers are out of shared memory. Please try to raise your shared memory "
        "limit.\nHi, could I get an idea of how much memory is required?\n"
        "I have one GPU (RTX 4090) and I just wanted to run inference. I tried "
        "`--data.num_dl_worker 1`, it didn't resolve the issue.",
        ("container.shm-too-small", "nccl.shm-too-small"),
        "https://github.com/bytedance/Protenix/issues/2",
        "--shm-size",
    ),
    (
        "mpi run on multi nodes does not work\nI build nccl test with nccl2.1, I can run the test on "
        "one node, when i run it on 2 node , it just gets stuck like this",
        ("nccl.socket-interface-wrong",),
        "https://github.com/NVIDIA/nccl-tests/issues/9",
        "NCCL_SOCKET_IFNAME",
    ),
    (
        "Could not locate zlibwapi.dll. Please make sure it is in your library path!\n"
        "用GPU的时候一直提示这个：Could not locate zlibwapi.dll. Please make sure it is in your "
        "library path! 然后就自己报错退出了",
        ("windows.cudnn-zlibwapi-missing",),
        "https://github.com/xaviviro/refacer/issues/35",
        "zlibwapi",
    ),
]


# (text, tempting cause that must not rank first, source URL): reports whose cause is something else
OTHER_CAUSES = [
    (
        "不支持 mac os 么？docker 方式启动会报错，去掉 gpu 配置的话也在页面上操作也无法进行训练，"
        "会提示未检测到 gpu 环境之类的\n希望可以在M3 上运行起来\n"
        "yangchao269@ZBMac-C02CW08SM LLaMA-Factory % docker run --gpus=all \\\n"
        'docker: Error response from daemon: could not select device driver "" with capabilities: '
        "[[gpu]].",
        "container.no-nvidia-runtime",
        "https://github.com/hiyouga/LlamaFactory/issues/3990",
    ),
    (
        "[root@localhost ~]# minikube start --container-runtime=nvidia\n"
        "o   minikube v0.35.0 on linux (amd64)\n"
        '!   Failed to generate config: unknown runtime type: "nvidia"',
        "container.no-nvidia-runtime",
        "https://github.com/kubernetes/minikube/issues/4013",
    ),
    (
        "Error response from daemon: failed to create task for container: failed to create shim "
        "task: OCI runtime create failed: runc create failed: unable to start container process: "
        "error during container init: error running prestart hook #0: exit status 1, stdout: , "
        "stderr: Auto-detected mode as 'legacy'\nnvidia-container-cli: requirement error: "
        "unsatisfied condition: cuda>=12.9, please update your driver to a newer version, or use an "
        "earlier cuda container: unknown\n"
        "Checking with nvidia-smi: `NVIDIA-SMI 570.169                Driver Version: 570.169        "
        "CUDA Version: 12.8`",
        "container.nvidia-runtime-not-configured",
        "https://github.com/TabbyML/tabby/issues/4309",
    ),
    (
        "Upgrade to 3.3.3 breaks WSL2 GPU - Nvidia-Container-CLI initialization error\n"
        "Containers dependent on Nvidia GPU no longer start up.  Containers with no GPU dependency "
        "do start-up.  When starting containers using GPU get the following error:\n"
        "OCI runtime create failed: container_linux.go:367: starting container process caused: "
        "process_linux.go:495: container init caused: Running hook #0:: error running hook: exit "
        "status 1, stdout: , stderr: nvidia-container-cli: initialization error: driver error: "
        "failed to process request: unknown\n  - Docker Desktop Version: 3.3.3\n"
        "  - WSL2 or Hyper-V backend?  WSL2",
        "container.no-nvidia-runtime",
        "https://github.com/docker/for-win/issues/11309",
    ),
    (
        "docker desktop with wsl2 and nvidia cuda dose not work on latest version\n"
        "docker on ubuntu 20.04 does not start with nvidia driver \n"
        "this has smothing to do with the changes because it works with version 3.3.0 but not with "
        "3.3.3",
        "nvidia.driver-not-loaded",
        "https://github.com/docker/for-win/issues/11409",
    ),
    (
        "How to remove or disable Nvidia driver in WSL2\nI am using an Ubuntu 18.04 LTS distribution "
        "with WSL2.\nThe distribution comes with Nvidia drivers as a pre-installed virtual packages.\n"
        "However the program I was trying to run can only use CPU graphics, and an Nvidia driver will "
        "cause it to crash because Ubuntu will try to use graphic cards if Nvidia driver exists.",
        "wsl.lib-not-on-loader-path",
        "https://github.com/microsoft/WSL/issues/8687",
    ),
    (
        "RTX 5070 Ti PCIe Link Falls Back to Gen1 (2.5 GT/s) on Linux\n"
        "NVIDIA Open Kernel Module 590.48.01 causes RTX 5070 Ti (Blackwell GB203) to fall back to "
        "PCIe Gen1 (2.5 GT/s) instead of maintaining Gen4 (16 GT/s) on B760 motherboards. Windows "
        "with driver 581.80 works correctly at Gen4. This causes system instability, black screens, "
        "and crashes.",
        "hardware.power-insufficient",
        "https://github.com/NVIDIA/open-gpu-kernel-modules/issues/1010",
    ),
    (
        "cgy@cgy2:~$ sudo docker run --privileged=true  -v /home/cgy/sys/fs/vfs:/sys/fs/cgroup --rm "
        "--gpus all nvidia/cuda:12.1.1-base-ubuntu22.04 nvidia-smi\n"
        "nvidia-container-cli: mount error: mount operation failed: /home/cgy/docker/vfs/dir/"
        "4136651d020cab1c7290caefe7c69f4e233a6364f2ebae5694412f8f24359ea7/proc/driver/nvidia: "
        "permission denied: unknown.",
        "container.nvidia-runtime-not-configured",
        "https://github.com/NVIDIA/nvidia-container-toolkit/issues/1034",
    ),
    (
        "Question about multi-machine training\nI added 'os.environ['NCCL_DEBUG'] = 'INFO' to "
        "train.py\nand checked nccl log.",
        "nccl.shm-too-small",
        "https://github.com/wenet-e2e/wenet/issues/1490",
    ),
    (
        "torch error importing c10.dll\nWhen running the code in Widows I got a torch related error "
        "when loading the c10.dll library.",
        "windows.cudnn-zlibwapi-missing",
        "https://github.com/JiaxinWang123/StoManager1/issues/50",
    ),
    (
        "我是mac m2上运行也提示这个。。不知道咋解决了\n"
        'docker: Error response from daemon: could not select device driver "" with capabilities: '
        "[[gpu]].",
        "container.no-nvidia-runtime",
        "https://github.com/soulteary/docker-llama2-chat/issues/22",
    ),
    (
        "多机多卡预训练，从节点无法连接到主节点\n"
        "zgiot:1183664:1184669 [0] NCCL INFO socketPollConnect: connect returned No route to host, "
        "retrying (34/34) after sleep for 3400 msec",
        "nccl.p2p-broken-acs-iommu",
        "https://github.com/hiyouga/LlamaFactory/issues/8045",
    ),
    (
        "[Issue]: NCCL hangs during AllReduce with P2P enabled on dual RTX Pro 6000's (Blackwells)\n"
        "I hit this issue under vLLM, and have spent the day drilling in and trying to troubleshoot, "
        "and isolated it to NCCL.\n# NCCL version: 2.26.5, 2.27.7, 2.29.2 (all tested)\n"
        "# CUDA version: 12.9\n# GPUs: 2× RTX Pro 6000's Blackwell",
        "nccl.version-too-old",
        "https://github.com/NVIDIA/nccl/issues/1999",
    ),
    (
        "docker-compose: NVIDIA GPU not passed through to container — cookbook hardware detection "
        "always returns no GPU\nThe `odysseus` service in `docker-compose.yml` has no NVIDIA device "
        "reservation, so `nvidia-smi` is unavailable inside the container.\n"
        "- **Install method:** Docker (Docker Desktop, WSL2 backend)\n"
        "- **GPU:** NVIDIA GeForce RTX 5080 (16 GB)",
        "container.compose-too-old-for-gpus",
        "https://github.com/odysseus-dev/odysseus/issues/2659",
    ),
]

# the shared names tests/test_field_fixes.py reads
REPORTS_ROWS = CASES
OTHER_ROWS = OTHER_CAUSES
MAY_BE_EMPTY = True
