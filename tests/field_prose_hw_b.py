"""Round 8, second pass (prose8b-hw): more of how users DESCRIBE hardware, GPU memory, NCCL,
driver, container, Kubernetes, Slurm and WSL causes in words reaches the right cause.

Every text below is copied verbatim from the public page named beside it (an issue title, its
first sentences, or the sentence of the thread that names the setup), not from the triage corpus
and not from the first pass (tests/test_field_prose_hw.py). The expected finding must be among the
first three findings of `triage_text(text)`; where the text gives the facts the fix turns on, that
finding's fixes must name the knob. The second table holds descriptions whose cause is something
ELSE: the cause a cue could be tempted by must not rank first.

Data only: tests/test_field_prose_hw.py runs these with the first pass's.
"""

from __future__ import annotations

DROPPED = (
    "hardware.gpu-reseat",
    "nvidia.xid-fallen-off-bus",
    "hardware.pcie-riser-link",
    "hardware.gpu-faulty",
)
OOM = ("memory.out-of-memory", "memory.workload-does-not-fit")
HELD = ("memory.held-by-other-process",)
GROWS = ("memory.out-of-memory",)  # its prose form for memory that grows step after step
NO_GPUS = ("container.no-gpus-injected",)
NO_RUNTIME = ("container.no-nvidia-runtime",)
K8S_NODE = ("k8s.insufficient-gpus", "k8s.kubelet-stale-gpu-allocation")

# (text, accepted ids, source URL, knob the fixes must name or None)
HARDWARE = [
    (
        "显卡出问题了，掉卡了，通常表现为 nvidia_smi 命令卡住出不来，或命令报错 nable to determine the "
        "device handle for GPU0000:CF:00.0: Unknown Errornon-zero return code 。使用 nvidia_smi -L "
        "命令可以看到正常的卡和错误的卡。",
        DROPPED,
        "https://github.com/flashcatcloud/categraf/issues/1056",
        "dmesg",
    ),
    (
        "训练显卡用不了Unable to determine the device handle for GPU0000:05:00.0: Unknown Error 需要重启显卡\n"
        "之前用python直接训练没用出现过这种情况，这是第一次用deepspeed框架训练",
        (*DROPPED, "hardware.gpu-overheating"),
        "https://github.com/liucongg/ChatGLM-Finetuning/issues/95",
        None,
    ),
    (
        "GPU 温度过高\n? 貌似89度不算高，风扇还是跑不到全满",
        ("hardware.gpu-overheating",),
        "https://github.com/junxnone/tio/issues/303",
        "nvidia-smi -q -d TEMPERATURE",
    ),
    (
        "每次 nvidia-smi 输出结果慢，怎么办？",
        ("nvidia.persistence-mode-off",),
        "https://github.com/qixuema/envs/issues/10",
        "nvidia-smi -pm 1",
    ),
    (
        "enable nvidia persistence daemon\nnvidia-smi takes forever without it.",
        ("nvidia.persistence-mode-off",),
        "https://github.com/GoogleCloudPlatform/ai-infra-cluster-provisioning/issues/227",
        "nvidia-persistenced",
    ),
    (
        "nnvidia-container-cli: driver error: timed out when persistence mode is disabled | Azure N-nvidiaSeries VMs",
        ("nvidia.persistence-mode-off",),
        "https://github.com/NVIDIA/nvidia-docker/issues/723",
        "nvidia-smi -pm 1",
    ),
]

MEMORY = [
    (
        "训练时 CUDA out of memory 爆显存\n网上说，调小config里的batch_size，能解决问题；可我调小到1后仍然不能解决。\n"
        "是否是因为显存本身太小？请问有什么解决办法吗？",
        OOM,
        "https://github.com/innnky/so-vits-svc/issues/59",
        None,
    ),
    (
        "RuntimeError: CUDA out of memory\n我使用4个3090GPU训练，设置batchsize为2，仍然会报显存不够的错，"
        "一定要8个GPU才能进行训练吗",
        OOM,
        "https://github.com/MasterHow/CoBEV/issues/3",
        None,
    ),
    (
        "训练进程意外中止时有僵尸进程，无法释放占用显存",
        HELD,
        "https://github.com/VankouF/FreeMotion-Codes/issues/6",
        "fuser",
    ),
    (
        "代码报错之后显存得不到释放\n1. 运行一个代码后报错，然后显存就被占满，得不到释放。我目前不知道怎么解决，只能重启。",
        HELD,
        "https://github.com/Oneflow-Inc/oneflow/issues/6967",
        "fuser",
    ),
    (
        "How to deal with a process holding GPU memory after termination？",
        HELD,
        "https://github.com/qizhou000/VisEdit/issues/5",
        "fuser",
    ),
    (
        "复现\n为什么我在训练的时候显存会一直增加到爆了",
        GROWS,
        "https://github.com/McGregorWwww/UDTransNet/issues/21",
        "loss.item()",
    ),
    (
        "训练时内存占用一直增加\n作者大大，我在单gpu服务器上训练模型的时候，内存占用一直增加，直到最后进程会被kill掉，"
        "请问这是怎么回事？我应该如何修改代码呢？",
        (*GROWS, "memory.host-ram-exhausted"),
        "https://github.com/VISION-SJTU/DiffusionTrack/issues/2",
        None,
    ),
    (
        # the thread's cause: later samples are longer (the fix names inputs of growing size)
        "疑似显存泄露的问题\n你好，我在训练的过程中发现显存在持续性增长（4卡，训练了十几个小时），batch-size为8，"
        "显存占用由最初的十几个GB直到out of memory，如果我设置batch-size为16，一会儿就出现out of memory。",
        (*GROWS, *OOM),
        "https://github.com/OpenSenseNova/piccolo-embedding/issues/10",
        None,
    ),
    (
        "[Bug]训练过程中存在显存泄露的问题，当训练iter超过了156以后显存会逐渐增长，显存到578个iter就会爆满，"
        "项目地址：https://aistudio.baidu.com/aistudio/clusterprojectdetail/3936351",
        GROWS,
        "https://github.com/PaddlePaddle/PaddleSeg/issues/2078",
        "torch.no_grad()",
    ),
]

NCCL = [
    (
        "报错：NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1169, unhandled system error, "
        "NCCL version 21.0.3 ncclSystemError: System call (socket, malloc, munmap, etc) failed.\n"
        "似乎是多卡训练NCCL通信的问题，哪位大神解答一下，十分感谢",
        ("nccl.shm-too-small",),
        "https://github.com/LianjiaTech/BELLE/issues/136",
        "--ipc=host",
    ),
    (
        "在尝试进行多卡微调的时候报错，这是因为nccl版本的问题吗？\n"
        "Error while creating shared memory segment /dev/shm/nccl-CsYXMW (size 9637888)",
        ("nccl.shm-too-small",),
        "https://github.com/WangRongsheng/XrayGLM/issues/83",
        "--shm-size",
    ),
    (
        "Submitit puts all tasks on a single GPU",
        ("nccl.duplicate-gpu-rank",),
        "https://github.com/facebookincubator/submitit/issues/1704",
        "set_device",
    ),
]

DRIVER = [
    (
        "服务器更新 nvidia driver 后遇到以下问题: Failed to initialize NVML: Driver/library version mismatch",
        ("nvidia.driver-library-mismatch",),
        "https://github.com/xxmyjk/xxmyjk.github.io/issues/5",
        "rmmod",
    ),
    (
        "torch.cuda.is_available() is False\nhi,Dear\nJust want to install the great pytorch, but when I use "
        "pip ,ups the error\n ```\n$ pip install torch===1.3.0 torchvision===0.4.1 -f "
        "https://download.pytorch.org/whl/torch_stable.html\n$ python3\nPython 3.7.5 (default, Oct 25 2019, 15:51:11) \n"
        "[GCC 7.3.0] :: Anaconda, Inc. on linux\n"
        'Type "help", "copyright", "credits" or "license" for more information.\n>>> import torch\n'
        ">>> torch.cuda.is_available()\nFalse",
        ("torch.driver-too-old",),
        "https://github.com/pytorch/pytorch/issues/31243",
        None,
    ),
    (
        "For computers with Asus motherboards: login loop issues & possible solution\nThank you Sai, your "
        "tutorial really saved my day.\n\nBut I found something that might be helpful for other newcomers: "
        "you might want to disable **_Secure Boot_** in **_bios settings_** before you install Nvidia driver "
        "(my computer has an Asus motherboard), otherwise you might run into a **_login loop_** after "
        "restarting linux.",
        ("nvidia.secure-boot-blocks-module",),
        "https://github.com/floydhub/dl-setup/issues/10",
        "mokutil",
    ),
    (
        "[BUG] Nvidia driver install on secureboot\nwhen installing NVIDIA drivers from discover does not install or "
        "prompt to setup and sign secureboot keys bricks system (black screen) after reboot and unable to use TTY",
        ("nvidia.secure-boot-blocks-module",),
        "https://github.com/Ultramarine-Linux/triage/issues/108",
        "mokutil",
    ),
    (
        "I don't have a solid opinion on secure boot, if it's worth it or not, but at least on my system, if it's "
        "enabled, nvidia drivers don't work (iiuc because it needs signing which according to #100 might be broken).",
        ("nvidia.secure-boot-blocks-module",),
        "https://github.com/linuxmint/mintdrivers/issues/103",
        "mokutil",
    ),
]

CONTAINERS = [
    (
        "CLI example missing --gpus option for nvidia?\nThanks for this!\n\nIt seems that Docker-native GPU "
        "support seems to require passing an option like `--gpus all` to `docker run` - my GPU is not used "
        "without it.",
        NO_GPUS,
        "https://github.com/stefancrain/folding-at-home/issues/3",
        "--gpus all",
    ),
    (
        "GPU not found on docker\nHello,\nas i tried to train a model, docker could not see my GPU.",
        (*NO_GPUS, *NO_RUNTIME),
        "https://github.com/tomdbar/ecord/issues/1",
        "--gpus all",
    ),
    (
        "Gpu isnt recognized after install . Docker .",
        NO_GPUS,
        "https://github.com/odysseus-dev/odysseus/issues/458",
        "reservations",
    ),
    (
        "Enabling this for compose files\nSorry to ask a dumb question but I keep seeing different answers and "
        "just wanted a clear one. What do I add into my docker compose files to have them make use of the GPU "
        "in the system? I already have the NCT installed fine and the test container from nvidia shows the "
        "nvidia-smi so it is working but none of my other containers seem to see it.",
        NO_GPUS,
        "https://github.com/NVIDIA/nvidia-container-toolkit/issues/422",
        "reservations",
    ),
    (
        # nvidia-smi is mounted from the host by the NVIDIA runtime when the GPUs are requested
        "[bug] nvidia-smi not available on GPU inference images",
        NO_GPUS,
        "https://github.com/aws/deep-learning-containers/issues/598",
        "--gpus all",
    ),
    (
        "Can't find `nvidia-smi` in 2.1.4-py3-tf-gpu\n```\n$ docker run --runtime=nvidia -it --rm "
        "gw000/keras:2.1.4-py3-tf-gpu nvidia-smi \ndocker: Error response from daemon: OCI runtime create failed: "
        'container_linux.go:296: starting container process caused "exec: \\"nvidia-smi\\": executable file '
        'not found in $PATH": unknown.\n```',
        NO_GPUS,
        "https://github.com/gw0/docker-keras/issues/7",
        "NVIDIA_DRIVER_CAPABILITIES",
    ),
    (
        'Docker option "--gpus all" causes an error',
        NO_RUNTIME,
        "https://github.com/isri-aist/BaselineWalkingController/issues/21",
        "nvidia-container-toolkit",
    ),
    (
        'docker启动如何设置不使用gpu\ndocker: Error response from daemon: could not select device driver "" '
        "with capabilities: [[gpu]].",
        NO_RUNTIME,
        "https://github.com/xusenlinzy/api-for-open-llm/issues/2",
        "nvidia-ctk runtime configure",
    ),
]

CLUSTERS = [
    (
        "Insufficient GPUs during pod creation connected to 8-GPU node\nI'm having an issue getting a GPU-connected "
        "pod running. It appears there are a lot of issues related to this one in the repository, though the "
        "resolutions presented in those were unsuccessful here.",
        K8S_NODE,
        "https://github.com/NVIDIA/k8s-device-plugin/issues/102",
        "nvidia-device-plugin",
    ),
    (
        # the cluster's nodes are CPU instances: no node offers nvidia.com/gpu
        "ComfyUI pod in pending state\nThe two nodes created in the cluster is running on t3x.large instance type. "
        "Is this expected or it should be running on a gpu instance type like g4dn??",
        K8S_NODE,
        "https://github.com/aws-samples/comfyui-on-eks/issues/16",
        "Allocatable",
    ),
    (
        "Insufficient GPU on Node: xxx\nlog总是报这个，GPU数量设为0就正常。。。。",
        K8S_NODE,
        "https://github.com/pokerfaceSad/GPUMounter/issues/18",
        None,
    ),
    (
        "The resource nvidia.com/gpu is 0, but the device plugin pod is running normally",
        K8S_NODE,
        "https://github.com/NVIDIA/k8s-device-plugin/issues/1228",
        "nvidia-device-plugin",
    ),
    (
        "allocatable stuck at zero\ni have a kubernetes node on `1.10.2` with `nvidia/k8s-device-plugin:1.10`. "
        "Everything worked great initially, but now i can't schedule any pods with `nvidia.com/gpu`.",
        K8S_NODE,
        "https://github.com/NVIDIA/k8s-device-plugin/issues/58",
        "nvidia-device-plugin",
    ),
]

WSL = [
    (
        "I can't access GPU after installing NVIDIA drivers\nI just installed Windows Preview and WSL 2 and I did "
        "\n\n```\nsudo apt install nvidia-driver-440\nsudo apt install nvidia-utils-440\n```",
        ("wsl.linux-driver-inside-wsl",),
        "https://github.com/microsoft/WSL/issues/5265",
        "wsl --shutdown",
    ),
    (
        '"Found no NVIDIA driver on your system"\nI\'m trying to install the webui on wsl but no luck. I get the '
        'error "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU '
        'and installed a driver from http://www.nvidia.com/Download/index.aspx" \nI tried reinstalling '
        "multiple times and I always get cuda errors. I'm using wsl 1 on windows 10.",
        ("wsl.wsl1-no-gpu", "wsl.windows-too-old"),
        "https://github.com/oobabooga/textgen/issues/458",
        "wsl --set-version",
    ),
]

VMS = [
    (
        "testing NVIDIA GPU passthrough , driver error code 43 . kubevirt not support set features.kvm.hidden = on",
        ("vm.passthrough-code-43", "vm.hypervisor-not-hidden"),
        "https://github.com/kubevirt/kubevirt/issues/3285",
        "hidden state='on'",
    ),
]

# (text, the cause a cue could be tempted by, source URL): the description's own cause is another
OTHER_CAUSE = [
    (
        # the user suspects the NCCL version; the log names /dev/shm: the container's shared memory is too small
        "在尝试进行多卡微调的时候报错，这是因为nccl版本的问题吗？\n"
        "Error while creating shared memory segment /dev/shm/nccl-CsYXMW (size 9637888)",
        "nccl.version-too-old",
        "https://github.com/WangRongsheng/XrayGLM/issues/83",
    ),
    (
        # the memory grows inside the training run (a loss kept without .item()): no other process holds it
        "复现\n为什么我在训练的时候显存会一直增加到爆了",
        "memory.held-by-other-process",
        "https://github.com/McGregorWwww/UDTransNet/issues/21",
    ),
    (
        # host RAM grows inside the run until the process is killed: not memory left by another process
        "训练时内存占用一直增加\n作者大大，我在单gpu服务器上训练模型的时候，内存占用一直增加，直到最后进程会被kill掉，"
        "请问这是怎么回事？我应该如何修改代码呢？",
        "memory.held-by-other-process",
        "https://github.com/VISION-SJTU/DiffusionTrack/issues/2",
    ),
    (
        # memory left behind after the program failed: not growth step after step
        "代码报错之后显存得不到释放\n1. 运行一个代码后报错，然后显存就被占满，得不到释放。我目前不知道怎么解决，只能重启。",
        "memory.out-of-memory",
        "https://github.com/Oneflow-Inc/oneflow/issues/6967",
    ),
    (
        # a zombie process keeps the memory: not growth inside the run
        "训练进程意外中止时有僵尸进程，无法释放占用显存",
        "memory.out-of-memory",
        "https://github.com/VankouF/FreeMotion-Codes/issues/6",
    ),
    (
        # the NVIDIA Container Toolkit works (NVIDIA's test container sees the GPU): the compose files ask for none
        "Enabling this for compose files\nSorry to ask a dumb question but I keep seeing different answers and "
        "just wanted a clear one. What do I add into my docker compose files to have them make use of the GPU "
        "in the system? I already have the NCT installed fine and the test container from nvidia shows the "
        "nvidia-smi so it is working but none of my other containers seem to see it.",
        "container.no-nvidia-runtime",
        "https://github.com/NVIDIA/nvidia-container-toolkit/issues/422",
    ),
    (
        # the fix was the missing --gpus flag, not installing the toolkit
        "CLI example missing --gpus option for nvidia?\nThanks for this!\n\nIt seems that Docker-native GPU "
        "support seems to require passing an option like `--gpus all` to `docker run` - my GPU is not used "
        "without it.",
        "container.no-nvidia-runtime",
        "https://github.com/stefancrain/folding-at-home/issues/3",
    ),
    (
        # a hot GPU whose fans do not reach full speed: not a power supply that trips
        "GPU 温度过高\n? 貌似89度不算高，风扇还是跑不到全满",
        "hardware.power-insufficient",
        "https://github.com/junxnone/tio/issues/303",
    ),
    (
        # docker itself rejects --gpus (the toolkit is missing): not a container started without --gpus
        'docker启动如何设置不使用gpu\ndocker: Error response from daemon: could not select device driver "" '
        "with capabilities: [[gpu]].",
        "container.no-gpus-injected",
        "https://github.com/xusenlinzy/api-for-open-llm/issues/2",
    ),
    (
        # the GPU answers on the host agent but hangs / reports Unknown Error: a card lost on the bus, not a container's cgroup
        "显卡出问题了，掉卡了，通常表现为 nvidia_smi 命令卡住出不来，或命令报错 nable to determine the "
        "device handle for GPU0000:CF:00.0: Unknown Errornon-zero return code 。使用 nvidia_smi -L "
        "命令可以看到正常的卡和错误的卡。",
        "container.nvml-unknown-error-cgroup",
        "https://github.com/flashcatcloud/categraf/issues/1056",
    ),
]
