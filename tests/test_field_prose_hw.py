"""Round 8 prose survey (prose8-hw): how users DESCRIBE hardware, GPU memory, NCCL, driver,
container, Kubernetes, Slurm, WSL and VM causes in words reaches the right cause.

Every text below is copied verbatim from the public page named beside it (an issue title, its
first sentences, or the sentence of the thread that names the setup), not from the triage corpus.
The expected finding must be among the first three findings of `triage_text(text)`; where the text
gives the facts the fix turns on, that finding's fixes must name the knob. The second table holds
descriptions whose cause is something ELSE: the cause a cue could be tempted by must not rank first.
"""

from __future__ import annotations

import field_prose_hw_b as second
import pytest
from triage_lines import assert_not_first, assert_reaches

POWER = ("hardware.power-insufficient",)
DROPPED = (
    "hardware.gpu-reseat",
    "nvidia.xid-fallen-off-bus",
    "hardware.pcie-riser-link",
    "hardware.gpu-faulty",
)
CONTAINER = (
    "container.no-gpus-injected",
    "container.no-nvidia-runtime",
    "container.nvidia-runtime-not-configured",
    "container.driver-libs-not-injected",
)
K8S = (
    "k8s.runtimeclass-not-set",
    "container.nvidia-runtime-not-configured",
    "k8s.device-plugin-node-label-missing",
    "k8s.insufficient-gpus",
)
DKMS = ("nvidia.module-not-built-for-kernel", "nvidia.dkms-headers-missing")
WSL_OLD = ("wsl.wsl1-no-gpu", "wsl.windows-too-old", "wsl.platform-not-ready")
VM43 = ("vm.passthrough-code-43", "vm.hypervisor-not-hidden")

# (text, accepted ids, source URL, knob the fixes must name or None)
HARDWARE = [
    (
        "some GPUs missed in `nvidia-smi`\nHi, my device is `ubuntu1~18.04`, which has 7 Tesla T4 GPUs. "
        "It has worked well for over 2 years.\nHowever, in this morning, 2 GPUs disappeared in "
        "`nvidia-smi`.\nThen I reboot the device, and they reappeared.\nBut now, only after a few "
        "hours, 1 GPU disappears again, then another GPU disappears too.",
        DROPPED,
        "https://github.com/NVIDIA/gpu-operator/issues/643",
        "lspci",
    ),
    (
        "Nvidia Titan V in stout keeps disappearing\nOnly reboots help.",
        DROPPED,
        "https://github.com/illinois-scicomp/machine-shop-maintenance/issues/76",
        None,
    ),
    (
        "Machine restarts when running TensorFlow with GPU",
        POWER,
        "https://github.com/tensorflow/tensorflow/issues/8858",
        "nvidia-smi -pl",
    ),
    (
        "[BUG/Discussion] Single RTX 3080 shutdowns computer during training after a few epochs",
        POWER,
        "https://github.com/huggingface/pytorch-image-models/issues/965",
        "nvidia-smi -pl",
    ),
    (
        "PC restarts without warning while Multi-GPU training",
        POWER,
        "https://github.com/AlexeyAB/darknet/issues/2731",
        None,
    ),
    (
        "[bug:] PC shuts down during an iteration\nDuring an outpainting iteration, pc just shutdown "
        "(hard), i suspect its temperature issue, but it never happened before prior with InvokeAI.",
        POWER,
        "https://github.com/invoke-ai/InvokeAI/issues/1737",
        None,
    ),
    (
        "[Bug]: PC shuts down unceremoniously when trying to generate images",
        (*POWER, "hardware.gpu-overheating"),
        "https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/15226",
        None,
    ),
    (
        "reboot during training faster-rcnn with ubuntu 14.04 cuda-8.0 nvidia-driver:367.48",
        POWER,
        "https://github.com/rbgirshick/py-faster-rcnn/issues/404",
        None,
    ),
    (
        "Titan X thermo behavior might cause performance fluctuation",
        ("hardware.gpu-overheating",),
        "https://github.com/soumith/convnet-benchmarks/issues/71",
        "nvidia-smi -q -d TEMPERATURE",
    ),
    (
        "系统电源不够\n你好，在训练extremenet时候出现服务器重启，显示电源功率不够！我的是4快1080TI的显卡，"
        "怎么修改代码只使用2个显卡来训练",
        POWER,
        "https://github.com/xingyizhou/ExtremeNet/issues/31",
        "nvidia-smi -pl",
    ),
    (
        "The power keeps cutting off during training.\nI am using 2 x 3060oc 12gb for training.\n"
        "The power is cut off after 20 training sessions.",
        POWER,
        "https://github.com/IAHispano/Applio/issues/1016",
        None,
    ),
    (
        "Nnet3 training chrashing and rebooting server\nAll goes perfectly until it gets to the nnet3 "
        "training phase. It runs for a few iterations until it crashes and reboots the server.",
        POWER,
        "https://github.com/kaldi-asr/kaldi/issues/3111",
        None,
    ),
    (
        "Reboot dagobah make its slurmd can not run.\nAfter reboot, dagobah can not run its slurmd daemon. "
        "I think the reason is one GPU is loss after reboot.",
        (*DROPPED, "cluster.gres-config-mismatch"),
        "https://github.com/lyulyul/shine-cluster/issues/172",
        None,
    ),
    (
        "gpu-2-5 has lost a GPU\nThe node may need to be rebooted or the GPU reseated, @csirving.",
        DROPPED,
        "https://github.com/cBio/cbio-cluster/issues/24",
        "reseat",
    ),
    (
        "how to reboot computer after lost an nvidia gpu ?\nIs there a way to reboot the whole system when "
        "a gpu is lost ?\nI got 3 gpu's on my system and one is lost from time to time.",
        DROPPED,
        "https://github.com/MultiPoolMiner/MultiPoolMiner/issues/622",
        None,
    ),
    (
        "他熟练地登录服务器,运行nvidia-smi命令,却发现昨天还正常工作的A100显卡突然消失了",
        DROPPED,
        "https://www.67wa.com/145834.html",
        "reseat",
    ),
    (
        "当你正在运行一个深度学习训练任务时,突然发现终端不再输出新的日志,nvidia-smi命令显示某块GPU神秘消失",
        DROPPED,
        "https://www.67wa.com/141809.html",
        None,
    ),
    (
        "temperature will be higher when I using two different cards in the same machine\nHey, guys, I am "
        "trying to train a CNN model. My machine has 2 K40. When I run my model in the second card, the "
        "temperature  will be higher than running in the first card, and the training will be slower and slower.",
        ("hardware.gpu-overheating",),
        "https://github.com/tensorflow/tensorflow/issues/8741",
        "nvidia-smi -q -d TEMPERATURE",
    ),
]

MEMORY = [
    (
        "Memory error for batch size greater than 3\nHi, when I run the code for batch size greater "
        "than 3 I get CUDA out of memory error although memory is available.",
        ("memory.out-of-memory", "memory.workload-does-not-fit"),
        "https://github.com/nianticlabs/monodepth2/issues/236",
        "batch",
    ),
    (
        'CUDA out of memory 怎么办？\nUsing demo，when executing "python train.py configs/path_to_your_config"，'
        'my computer cannot run the code normally with an error "CUDA out of memory"，mine is 2G.',
        ("memory.workload-does-not-fit", "memory.out-of-memory"),
        "https://github.com/cfzd/Ultra-Fast-Lane-Detection/issues/175",
        None,
    ),
    (
        "请问Training的时候如何调整batch_size呢，我A4000的显卡，一直报CUDA out of memory",
        ("memory.out-of-memory", "memory.workload-does-not-fit"),
        "https://github.com/sstzal/DFRF/issues/29",
        "batch",
    ),
    (
        "GPU memory not release after interrupted the training script",
        ("memory.held-by-other-process",),
        "https://github.com/bharatsingh430/py-R-FCN-multiGPU/issues/15",
        "kill",
    ),
    (
        "NVIDIA memory not deallocated after interupt\nWhen I interrupt my Pytorch script using Ctrl-C "
        "occasionally GPU memory is not deallocated.",
        ("memory.held-by-other-process",),
        "https://github.com/pytorch/pytorch/issues/4031",
        "kill",
    ),
    (
        "GPU memory is not released after training process is stopped",
        ("memory.held-by-other-process",),
        "https://github.com/OpenDriveLab/UniAD/issues/180",
        "kill",
    ),
    (
        "ctrl+c stopped, gpu memory still using one",
        ("memory.held-by-other-process",),
        "https://github.com/Megvii-BaseDetection/YOLOX/issues/958",
        None,
    ),
    (
        "GPU memory doesn't release\nI used RT-DETR for training on my custom datasets. However, it "
        "doesn't release gpu memory when I interrupt training process.",
        ("memory.held-by-other-process",),
        "https://github.com/lyuwenyu/RT-DETR/issues/36",
        "kill",
    ),
    (
        "training process becomes zombie process and keeps occupying GPU memory",
        ("memory.held-by-other-process",),
        "https://github.com/apache/mxnet/issues/4242",
        "kill",
    ),
    (
        "显存占用却不释放:虽然进程已经关闭,但通过nvidia-smi命令查看时,GPU显存仍然显示被占用",
        ("memory.held-by-other-process",),
        "https://www.67wa.com/140490.html",
        "fuser",
    ),
]

NCCL = [
    (
        "hungging up and the occupytion of some gpu is 100%\nI'm training a model with multi 3090 GPUs. "
        "It normally starts initially. But the program hangs up at the end of the training of an epoch, "
        "there is no more output, and some GPUs are 100% occupied, while others are 0%. The program "
        "ends when NCCL timeout.",
        ("nccl.collective-timeout",),
        "https://github.com/NVIDIA/nccl/issues/1033",
        "TORCH_DISTRIBUTED_DEBUG",
    ),
    (
        "有人知道为什么使用多卡训练会卡在Epoch 0的第30个iterations不动了",
        ("nccl.collective-timeout",),
        "https://github.com/Intellindust-AI-Lab/DEIMv2/issues/113",
        "find_unused_parameters",
    ),
    (
        "多卡做ernie语言模型任务的fine tune的时候，经常遇到，运行到一定步数就卡住的情况，卡住的时候，"
        "多卡中的部分卡依旧100%，部分卡0%。并且卡的步数没有规律。同步并不报错，怀疑是nccl的问题。",
        ("nccl.collective-timeout",),
        "https://github.com/PaddlePaddle/ERNIE/issues/129",
        None,
    ),
    (
        "训练到第26个epoch卡死，10分钟后报NCCL超时错误，这是什么原因啊，我就是把输入尺寸改成了[416, 768]",
        ("nccl.collective-timeout",),
        "https://github.com/Peterande/D-FINE/issues/316",
        None,
    ),
    (
        "NCCL all_reduce_perf test hangs with multiple RTX 4090 GPUs, works fine when I swap in 2080tis",
        ("nccl.p2p-broken-acs-iommu",),
        "https://github.com/NVIDIA/nccl-tests/issues/117",
        "NCCL_P2P_DISABLE",
    ),
]

DRIVER = [
    (
        "Pytorch does not see GPUs\nI installed a local anaconda version and installed pytorch via:\n"
        "```\nconda install pytorch torchvision cudatoolkit=10.2 -c pytorch\n```\n"
        "| NVIDIA-SMI 418.67       Driver Version: 418.67       CUDA Version: 10.1     |",
        ("torch.driver-too-old", "cuda.toolkit-newer-than-driver"),
        "https://github.com/ai4d-iasc/trixie/issues/6",
        None,
    ),
    (
        "After I update the pytorch version from 1.0 to 1.2 and cuda.is_available return FALSE\n"
        "when i run my program，the msg is that my Nvidia version is too old.",
        ("torch.driver-too-old",),
        "https://github.com/pytorch/pytorch/issues/28195",
        None,
    ),
    (
        # the old collect_env form ("PyTorch version 1.5.0", no colon) is not read as torch's build
        # yet, so the driver floor (440.33 for CUDA 10.2) is not asserted here
        "torch.cuda.is_available() get false on cuda10\nPyTorch version 1.5.0\nIs debug build: No\n"
        "CUDA used to build PyTorch: 10.2\n\nOs: Ubuntu 18.04.3 LTS\nIs CUDA available: No\n"
        "Nvidia driver version: 410.104",
        ("torch.driver-too-old",),
        "https://github.com/pytorch/pytorch/issues/37320",
        None,
    ),
    (
        "CUDA unavailable when pytorch 1.3.0. installed with cudatoolkit 10.1\ntorch.cuda.is_available "
        "returns false\nPyTorch version: 1.3.0\nIs debug build: No\nCUDA used to build PyTorch: 10.1.243\n"
        "Is CUDA available: No\nNvidia driver version: 410.104",
        ("torch.driver-too-old",),
        "https://github.com/pytorch/pytorch/issues/28321",
        "418.39",
    ),
    (
        "19.10: Nvidia driver stops working after installing updates\nAfter installing system updates, "
        "some DKMS stuff gets rebuilt. After a reboot, my external monitor cannot be enabled and "
        "`nvidia-smi` reports that the nvidia driver is not running.",
        DKMS,
        "https://github.com/pop-os/pop/issues/690",
        None,
    ),
    (
        "NVIDIA GPU driver stops working after Ubuntu kernel update\nFrom time to time the NVIDIA GPU "
        "driver stops working. I found out that this error relates to kernel updates.",
        DKMS,
        "https://github.com/ai2ys/Deep-Learning-Workstation-Setup/issues/1",
        "dkms",
    ),
    (
        "Nvidia drivers not working after Pop OS 22.04 update that resulted in installing kernel 5.17.5 "
        "instead of 5.16.19",
        DKMS,
        "https://github.com/pop-os/pop/issues/2369",
        None,
    ),
    (
        "NVIDIA driver lost after os upgrade and reboot\nNVIDIA driver is lost after rebooting the "
        "machine (as required by os upgrade).",
        DKMS,
        "https://github.com/NVIDIA/nvidia-docker/issues/804",
        "dkms",
    ),
    (
        "NVIDIA Driver Update\nEric and I were dismayed to find our program crashing on startup during "
        "OpenGL function calls. It looks like the NVIDIA drivers were updated, but not reloaded onto the "
        "graphics cards, so a reboot fixed it.",
        ("nvidia.driver-library-mismatch",),
        "https://github.com/wyegelwel/snow/issues/13",
        "rmmod",
    ),
    (
        "GeForce GT 330M - CUDA driver version is insufficient for CUDA runtime version\nI have an Nvidia "
        "GeForce GT 330M and am trying to run EWBF's Zcash CUDA miner 0.3.4b. I know it's old and not the "
        "most powerful GPU for mining, but I have an old laptop that I figured I'd try to get some use out of.",
        (
            "nvidia.gpu-needs-legacy-driver",
            "cuda.toolkit-newer-than-driver",
            "cuda.gpu-too-old-for-binary",
        ),
        "https://github.com/Creepsky/creepMiner/issues/225",
        None,
    ),
    (
        "Pytorch 1.3.0 cuda not detected\nTo reproduce :\n\n1. Create venv and install dependencies\n2. "
        "`python -c 'import torch;print(torch.cuda.is_available())'` gives `False`\n\nPossibly a driver "
        "version and not CUDA version issue?",
        ("torch.driver-too-old",),
        "https://github.com/ivadomed/ivadomed/issues/69",
        None,
    ),
    (
        "Modules missing after a couple of kernel upgrades\nThis guide has been very useful for me. However, "
        "after a couple of months, i always end up in situation where a kernel upgrade breaks havoc in the "
        "system. Booting gets stuck on loading graphics.",
        (*DKMS, "nvidia.driver-too-old-for-kernel"),
        "https://github.com/korvahannu/arch-nvidia-drivers-installation-guide/issues/37",
        None,
    ),
    (
        "Updating from kernel 5.15 to 5.19 doesn't work. Nvidia driver DKMS make fails (`Kernel "
        "configuration is invalid`)\n* GPU: GeForce GTX 650. Driver `470.103.01-0ubuntu2`.",
        (*DKMS, "nvidia.driver-too-old-for-kernel"),
        "https://github.com/linuxmint/cinnamon/issues/11589",
        None,
    ),
]

CONTAINERS = [
    (
        "CUDA not found in docker image\nI pulled the official docker image but after installing all "
        "the dependencies, I'm getting torch.cuda.is_available() = False.",
        CONTAINER,
        "https://github.com/zzzyuqing/DreamMat/issues/14",
        "--gpus",
    ),
    (
        "Using docker build makes torch cuda is_available to False!\nI've GPU attached in my system. I "
        "tried to run [Dockerfile](https://github.com/openvinotoolkit/anomalib/blob/main/Dockerfile), "
        "and expected that the image will be built with GPU support. But it isn't.",
        CONTAINER,
        "https://github.com/open-edge-platform/anomalib/issues/584",
        "--gpus",
    ),
    (
        "nvidia/cuda:11.5.1-base-ubuntu20.04, torch.cuda.is_available() false\nI pulled the image named "
        "nvidia/cuda:11.5.1-base-ubuntu20.04 and I expected that if I do torch.cuda.is_available(), the "
        "result has to be true. However it was not. When I enter the container cli and input "
        "nvidia-smi, it answered that nvidia-smi is not supported. \nDo I have to install gpu driver "
        "in the image?",
        CONTAINER,
        "https://github.com/NVIDIA/nvidia-docker/issues/1679",
        "--gpus",
    ),
    (
        "GPUs are not visible from the container",
        CONTAINER,
        "https://github.com/jhj0517/Whisper-WebUI/issues/293",
        "--gpus",
    ),
    (
        "Cuda not found after pulling docker image at docker pull anibali/pytorch:1.4.0-cuda10.1\n"
        "I've run command  `docker pull anibali/pytorch:1.4.0-cuda10.1`\nafter connected to container "
        "with command  `docker run -it anibali/pytorch:1.4.0-cuda10.1 sh` \nboth nvcc and nvidia-smi "
        "not found.",
        CONTAINER,
        "https://github.com/anibali/docker-pytorch/issues/27",
        "--gpus",
    ),
    (
        "docker 镜像内无法检测到GPU\n提供的 registry.baidubce.com/paddlepaddle/serving:0.5.0-devel "
        "这个镜像进去之后nvidia-smi ，bash: nvidia-smi: command not found，宿主机执行nvidia-smi是可以检测到的",
        CONTAINER,
        "https://github.com/PaddlePaddle/Serving/issues/1220",
        "--gpus",
    ),
    (
        'could not select device driver "" with capabilities: [[gpu]].\n我是在Ubuntu下docker运行的：\n'
        "docker run --gpus all -it --volume=/home/moss-moon-003-sft-plugin-int4:/mnt/llm -d "
        "linonetwo/moss:int4\n提示报错，请问如何解决？",
        CONTAINER,
        "https://github.com/linonetwo/MOSS-DockerFile/issues/2",
        "nvidia-ctk",
    ),
    (
        "我已经在容器里装了PyTorch为什么CUDA还是不可用",
        CONTAINER,
        "http://www.scrxy.com/dcac/iutec1x1.html",
        None,
    ),
    (
        "我明明安装了CUDA Toolkit为什么nvidia-smi在容器里看不到GPU",
        CONTAINER,
        "http://www.scrxy.com/dcac/iutec1x1.html",
        None,
    ),
    (
        "docker run -it --rm --gpus all ubuntu nvidia-smi does not compute\n@p1-0tr thank you for your "
        "reply, I do indeed use Docker Desktop.\nE.G. I start it by running `systemctl --user start "
        "docker-desktop`",
        ("container.docker-desktop-linux-no-gpu",),
        "https://github.com/docker/docs/issues/19366",
        "docker context use default",
    ),
    (
        "Nvidia-CTK can't be configured for Docker-Desktop\nSo I had to revert to the Docker standard "
        "engine, losing the benefits of Docker-Desktop, because I can't configure Nvidia-CTK with it.",
        ("container.docker-desktop-linux-no-gpu",),
        "https://github.com/docker/roadmap/issues/693",
        "docker context use default",
    ),
    (
        "Cannot get nvidia-docker2 to run\nAfter following the steps [here](https://docs.nvidia.com/"
        "datacenter/cloud-native/container-toolkit/install-guide.html#docker), I'm not able to run my "
        "NVIDIA Container Toolkit properly\nAt first, I got my Docker Desktop running on `Ubuntu 22.04` "
        "then I did the following:",
        ("container.docker-desktop-linux-no-gpu",),
        "https://github.com/NVIDIA/nvidia-docker/issues/1742",
        "docker context use default",
    ),
    (
        "Docker Desktop and Nvidia Runtime inoperable across multiple distros\nOn Arch (EndeavourOS) and "
        "Ubuntu (20.04 and 22.04), attempts to utilize nvidia runtime through any image via Docker Desktop "
        "fail with this error:",
        ("container.docker-desktop-linux-no-gpu",),
        "https://github.com/NVIDIA/nvidia-docker/issues/1717",
        "docker context use default",
    ),
    (
        "Update docs, don't use docker desktop\nDocker desktop doesn't work well out of the box for Nvidia "
        "GPU. Use Nvidia's recommended way instead",
        ("container.docker-desktop-linux-no-gpu",),
        "https://github.com/castacks/AirStack/issues/149",
        "docker context use default",
    ),
]

CLUSTERS = [
    (
        "Locally-created containers have access to GPUs, but Kubernetes-created containers do not",
        K8S,
        "https://github.com/NVIDIA/k8s-device-plugin/issues/250",
        "runtimeClassName",
    ),
    (
        "Why there is no GPU resource allocatable on a GPU cloud instance\nwhen i describe node, there "
        "is no gpu resource, why?",
        K8S,
        "https://github.com/NVIDIA/k8s-device-plugin/issues/834",
        "device plugin",
    ),
    (
        "Following the QuickStart but my pod is stuck in pending state\nI had modified the .yaml to set "
        "`nvidia.com/gpu: 1` because I only have one gpu on each of my nodes.  However my pod stays in "
        "the pending state:",
        K8S,
        "https://github.com/NVIDIA/k8s-device-plugin/issues/176",
        None,
    ),
    (
        "GPU's suddenly unavailable when deploying on Kubernetes due to Insufficient nvidia.com/gpu [question]",
        K8S,
        "https://github.com/determined-ai/determined/issues/7044",
        None,
    ),
    (
        "Kubernetes 环境下 Pod 无法使用 GPU\n部署k8s-device-plugin过程没问题，但是无法获取到nvidia.com/gpu",
        K8S,
        "https://github.com/NascentCore/3k/issues/1",
        "device plugin",
    ),
    (
        'When booting a container on k8s (via k3s) I notice my container doesn\'t contain "nvidia-smi" in '
        "/usr/bin or elsewhere. When I launch the same image/container not via k8s I do get the command.",
        K8S,
        "https://github.com/NVIDIA/k8s-device-plugin/issues/346",
        "runtimeClassName",
    ),
    (
        "k8s pod ,After running for a while, the GPU cannot be found in the pod",
        ("container.nvml-unknown-error-cgroup",),
        "https://github.com/NVIDIA/k8s-device-plugin/issues/981",
        "create-dev-char-symlinks",
    ),
    (
        "pod fail to find gpu some time after created\nAt first, pod was able to get gpu resource, and "
        "some time after, pod cannot find gpu with error:",
        ("container.nvml-unknown-error-cgroup",),
        "https://github.com/NVIDIA/k8s-device-plugin/issues/289",
        "compatWithCPUManager",
    ),
    (
        "Only one GPU is being used on SLURM cluster",
        ("cluster.launch-not-via-srun", "cluster.slurm-per-task-gpu-binding"),
        "https://github.com/Lightning-AI/pytorch-lightning/issues/18950",
        "srun",
    ),
    (
        "[Bug] 查找服务器GPU宕机原因并修复\n当前服务器运行一段时间后，会出现掉gpu的情况，具体体现如下\n```\n"
        "root@239f910629d5:/workspace# nvidia-smi\nFailed to initialize NVML: Unknown Error\n```\n\n"
        "可能是installation的容器配置问题",
        ("container.nvml-unknown-error-cgroup",),
        "https://github.com/RIDE-Lab/SAGE/issues/185",
        "create-dev-char-symlinks",
    ),
    (
        "申请了gpu的pod在运行一段时间之后 容器内会出现找不到显卡\npod一开始是可以的，但是运行一段时间之后，"
        "有概率出现掉显卡的现象。\n进入容器内执行nvidia-smi也会提示显卡错误",
        ("container.nvml-unknown-error-cgroup",),
        "https://github.com/AliyunContainerService/gpushare-scheduler-extender/issues/230",
        "create-dev-char-symlinks",
    ),
    (
        "When submitting a job using GPU, I am required to add ```--gres=gpu```.\n\nUnfortunately, when I use "
        "PySlurm I do not get GPU, whereas when I use a bash script I get it.",
        ("cluster.no-gpu-allocated",),
        "https://github.com/PySlurm/pyslurm/issues/337",
        "--gres",
    ),
]

WSL = [
    (
        "[GPU and pytorch related]: after cuda installation, 'nvcc -V' works fine but 'nvidia-smi' returns "
        "errors. While using pytorch (python), 'torch.cuda.is_available()' always returns 'false' in wsl.\n"
        "Microsoft Windows [Version 10.0.19042.1052]",
        WSL_OLD,
        "https://github.com/microsoft/WSL/issues/7056",
        "19044",
    ),
    (
        "In WSL, the default user can execute `nvidia-smi`, but the root user does not have the "
        "environment variable set.",
        ("wsl.lib-not-on-loader-path",),
        "https://github.com/gpustack/gpustack/issues/1297",
        "/usr/lib/wsl/lib",
    ),
    (
        "In WSL+ubuntu, “sudo nvidia-smi” could not find the file nvidia-smi.",
        ("wsl.lib-not-on-loader-path",),
        "https://github.com/gpustack/gpustack/issues/1297",
        "/usr/lib/wsl/lib",
    ),
    (
        'Ubuntu18.04 running on WSL2: "libcuda.so.1" does not exist. How to create that?',
        ("wsl.lib-not-on-loader-path", "wsl.libcuda-not-symlink"),
        "https://github.com/tensorflow/tensorflow/issues/45882",
        "/usr/lib/wsl/lib",
    ),
]

VMS = [
    (
        "GPU doesn't seem to work\nI managed to complete the whole process, my 1080ti is visible inside "
        "the VM, I installed the Nvidia drivers, but still, under device manager, GPU has an exclamation "
        "mark and does not work.",
        VM43,
        "https://github.com/vanities/GPU-Passthrough-Arch-Linux-to-Windows10/issues/1",
        "hidden state='on'",
    ),
    (
        "Code43\nHi i always get code43 ..i tried everything\nmake hyperv to off and also kvm hidden and "
        "the rom in the pace but nothing .\nmy card is NVIDIA GT710",
        VM43,
        "https://github.com/joeknock90/Single-GPU-Passthrough/issues/5",
        None,
    ),
    (
        "Code 43 in guest when passing through NVIDIA GPU",
        VM43,
        "https://github.com/cyberus-technology/virtualbox-kvm/issues/34",
        "R465",
    ),
    (
        "The preparation for the Passthrough is not working - vfio-pc not showing on gpu kernel\nI have "
        "followed the preparation of the GPU to be used in passthrough that you provided on your README.\n"
        "But for some reason the vfio-pc is not added to the kernel driver from the GPU.",
        ("vm.gpu-not-bound-to-vfio",),
        "https://github.com/NVIDIA/kubevirt-gpu-device-plugin/issues/45",
        "vfio-pci ids",
    ),
]

# (text, the cause a cue could be tempted by, source URL): the real cause is another one
OTHER_CAUSE = [
    (
        # DKMS rebuilt the module for the updated kernel: not a library left behind by an upgrade
        "19.10: Nvidia driver stops working after installing updates\nAfter installing system updates, "
        "some DKMS stuff gets rebuilt. After a reboot, my external monitor cannot be enabled and "
        "`nvidia-smi` reports that the nvidia driver is not running.",
        "nvidia.driver-library-mismatch",
        "https://github.com/pop-os/pop/issues/690",
    ),
    (
        # Docker Desktop's VM has no GPU: the toolkit on the host is not what is missing
        "docker run -it --rm --gpus all ubuntu nvidia-smi does not compute\n@p1-0tr thank you for your "
        "reply, I do indeed use Docker Desktop.\nE.G. I start it by running `systemctl --user start "
        "docker-desktop`",
        "container.no-nvidia-runtime",
        "https://github.com/docker/docs/issues/19366",
    ),
    (
        # root's PATH lacks /usr/lib/wsl/lib: WSL itself reaches the GPU
        "In WSL, the default user can execute `nvidia-smi`, but the root user does not have the "
        "environment variable set.",
        "wsl.wsl1-no-gpu",
        "https://github.com/gpustack/gpustack/issues/1297",
    ),
    (
        # docker run works on the node: the pods' runtime, not Docker's
        "Locally-created containers have access to GPUs, but Kubernetes-created containers do not",
        "container.no-nvidia-runtime",
        "https://github.com/NVIDIA/k8s-device-plugin/issues/250",
    ),
    (
        # a hang at the end of an epoch with some GPUs busy: ranks out of step, not the P2P transport
        "hungging up and the occupytion of some gpu is 100%\nI'm training a model with multi 3090 GPUs. "
        "It normally starts initially. But the program hangs up at the end of the training of an epoch, "
        "there is no more output, and some GPUs are 100% occupied, while others are 0%. The program "
        "ends when NCCL timeout.",
        "nccl.p2p-broken-acs-iommu",
        "https://github.com/NVIDIA/nccl/issues/1033",
    ),
    (
        "多卡做ernie语言模型任务的fine tune的时候，经常遇到，运行到一定步数就卡住的情况，卡住的时候，"
        "多卡中的部分卡依旧100%，部分卡0%。并且卡的步数没有规律。同步并不报错，怀疑是nccl的问题。",
        "nccl.p2p-broken-acs-iommu",
        "https://github.com/PaddlePaddle/ERNIE/issues/129",
    ),
    (
        # the GPU is passed through (Code 43 in the guest): not a VM without passthrough
        "Code43\nHi i always get code43 ..i tried everything\nmake hyperv to off and also kvm hidden and "
        "the rom in the pace but nothing .\nmy card is NVIDIA GT710",
        "vm.no-gpu-passthrough",
        "https://github.com/joeknock90/Single-GPU-Passthrough/issues/5",
    ),
    (
        # the thread's cause was the power supply (replaced), though heat is what users suspect first
        "Machine restarts when running TensorFlow with GPU",
        "hardware.gpu-overheating",
        "https://github.com/tensorflow/tensorflow/issues/8858",
    ),
    (
        # the pod had the GPU at first: its device cgroup lost it, not a pod started under runc
        "k8s pod ,After running for a while, the GPU cannot be found in the pod",
        "k8s.runtimeclass-not-set",
        "https://github.com/NVIDIA/k8s-device-plugin/issues/981",
    ),
    (
        # a server that reboots under a training load: power, not a driver left behind by an upgrade
        "Nnet3 training chrashing and rebooting server\nAll goes perfectly until it gets to the nnet3 "
        "training phase. It runs for a few iterations until it crashes and reboots the server.",
        "nvidia.driver-library-mismatch",
        "https://github.com/kaldi-asr/kaldi/issues/3111",
    ),
    (
        # the node advertises no nvidia.com/gpu: not a CPU-only torch
        "Kubernetes 环境下 Pod 无法使用 GPU\n部署k8s-device-plugin过程没问题，但是无法获取到nvidia.com/gpu",
        "torch.cpu-build-on-gpu-host",
        "https://github.com/NascentCore/3k/issues/1",
    ),
    (
        # "掉gpu" inside a container with NVML's Unknown Error: the device cgroup, not a card off the bus
        "[Bug] 查找服务器GPU宕机原因并修复\n当前服务器运行一段时间后，会出现掉gpu的情况，具体体现如下\n```\n"
        "root@239f910629d5:/workspace# nvidia-smi\nFailed to initialize NVML: Unknown Error\n```\n\n"
        "可能是installation的容器配置问题",
        "hardware.gpu-reseat",
        "https://github.com/RIDE-Lab/SAGE/issues/185",
    ),
    (
        # the pod had the GPU at first: not a container started without the NVIDIA runtime
        "申请了gpu的pod在运行一段时间之后 容器内会出现找不到显卡\npod一开始是可以的，但是运行一段时间之后，"
        "有概率出现掉显卡的现象。\n进入容器内执行nvidia-smi也会提示显卡错误",
        "container.no-nvidia-runtime",
        "https://github.com/AliyunContainerService/gpushare-scheduler-extender/issues/230",
    ),
    (
        # drivers updated but the old module still loaded: not a toolkit newer than the driver
        "NVIDIA Driver Update\nEric and I were dismayed to find our program crashing on startup during "
        "OpenGL function calls. It looks like the NVIDIA drivers were updated, but not reloaded onto the "
        "graphics cards, so a reboot fixed it.",
        "cuda.toolkit-newer-than-driver",
        "https://github.com/wyegelwel/snow/issues/13",
    ),
]

CASES = [
    pytest.param(text, ids, url, knob, id=f"{family}-{n}")
    for family, rows in (
        ("hw", HARDWARE + second.HARDWARE),
        ("mem", MEMORY + second.MEMORY),
        ("nccl", NCCL + second.NCCL),
        ("driver", DRIVER + second.DRIVER),
        ("container", CONTAINERS + second.CONTAINERS),
        ("cluster", CLUSTERS + second.CLUSTERS),
        ("wsl", WSL + second.WSL),
        ("vm", VMS + second.VMS),
    )
    for n, (text, ids, url, knob) in enumerate(rows)
]


@pytest.mark.parametrize(("text", "expected", "url", "knob"), CASES)
def test_description_reaches_its_cause(
    text: str, expected: tuple[str, ...], url: str, knob: str | None
) -> None:
    """The described cause is among the first three findings, and its fixes name the knob."""
    assert_reaches(text, expected, url, knob)


@pytest.mark.parametrize(
    ("text", "tempted", "url"),
    [
        pytest.param(t, c, u, id=f"other-{n}")
        for n, (t, c, u) in enumerate(OTHER_CAUSE + second.OTHER_CAUSE)
    ],
)
def test_description_of_another_cause_does_not_lead_with_the_tempting_one(
    text: str, tempted: str, url: str
) -> None:
    """A description whose cause is another one does not rank the tempting cause first."""
    assert_not_first(text, tempted, url)
