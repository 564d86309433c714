"""Prose reports, round 18 (prose6): "torch.version.cuda is X but nvcc is Y", nvcc that runs only by
its full path, "nvcc" not found while building, "CUDA X requires driver N" with an older driver, an
Ubuntu nvidia-NNN driver without its libcuda package (error 35), "I set one GPU but it runs on all
of them", the Go CUDA binding's "panic: Unknown" (nvidia_uvm), and CPU builds of torch reported in
prose (a +cpu banner, a cpu index, a leftover cpuonly). Each row is verbatim from one public thread
whose fix was confirmed (the reporter says it worked, or a maintainer states cause and fix); the
cause ranks first and its fixes name the knob the confirmed fix turned. Look-alike rows are real
texts of other matters the new entries (checks/signatures/{cuda,torch,nvidia_driver}.toml) could wrongly catch."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

# (message verbatim, the finding id first, text one of its fixes names, thread URL)
KNOB = [
    (
        "Ultralytics YOLOv8.0.53 Python-3.9.1 torch-1.8.1+cu111 CUDA:0 (NVIDIA GeForce RTX 3070, 8192MiB)\nUltralytics YOLOv8.0.54 Python-3.10.6 torch-2.0.0+cpu CPU\nin window10,same environment,latest YOLOv8 can't use GPU for training",
        "torch.cpu-build-on-gpu-host",
        "download.pytorch.org/whl/cu",
        # maintainer: `yolo train device=0` fails when only torch CPU is installed; commenter: reinstall from the cu117 index
        "https://github.com/ultralytics/ultralytics/issues/1495",
    ),
    (
        "YOLOv8 using my cpu instead of gpu\neven tho i installed it with this commend pip install torch==2.2.0 torchvision==0.17.0 torchaudio==2.2.0 --index-url https://download.pytorch.org/whl/cpu",
        "torch.cpu-build-on-gpu-host",
        "download.pytorch.org/whl/cu",
        # reporter: fixed by reinstalling torch from https://download.pytorch.org/whl/cu121
        "https://github.com/ultralytics/ultralytics/issues/8869",
    ),
    (
        "hi, i have a problem: my torch.version.cuda is 9.0.176, but my nvcc --version is 10.0  what can I do to fix the problem? thank you.",
        "cuda.toolkits-disagree",
        "(10.0)",
        # reporter: installed the wrong pytorch; the torch build for CUDA 10.0 (nvcc's) works
        "https://github.com/rusty1s/pytorch_scatter/issues/45",
    ),
    (
        'Cuda was installed successfully but there were some issues:\n1:  When installed according to these instructions cuda is not found by default within cmake ( I had to set CUDA_TOOLKIT_ROOT_DIR to "/usr/lib/cuda")\n\n2: Cuda executables are not runnable from Everywhere.  for example running  "nvcc -V" fails but "/usr/lib/cuda/bin/nvcc -V" runs fine',
        "cuda.env-not-inherited",
        "PATH",
        # maintainer: restart after installing the toolkit (the PATH set by its profile script); reporter: that did the trick
        "https://github.com/system76/docs/issues/156",
    ),
    (
        "I had the same issue with `cuda.is_available()`. In the end the issue is not pytorch related, it was coming of improper installation of cuda-toolkit. I have `ubuntu 18.04` and `Cuda 9.2`. While runing `./deviceQuery` in cuda samples I found that I have an nvidea driver 390; however, cuda 9.2 requires driver 396.xx.",
        "cuda.toolkit-newer-than-driver",
        "396",
        # commenter: after re-installing the driver (396, what CUDA 9.2 requires) everything worked
        "https://github.com/pytorch/pytorch/issues/6098",
    ),
    (
        "Currently, it is a bit tricky to switch from CPU build to CUDA build. Users will sometimes forget to specify the cudatoolkit requirement and find out that they installed the CPU build. Then they will attempt to follow the steps on pytorch.org, that is `conda install -c pytorch cudatoolkit=x.x pytorch`. But actually that is not enough because `cpuonly` is still there.",
        "torch.cpu-build-on-gpu-host",
        "cpuonly",
        # maintainer (peterjc123): the cpuonly package still pins the CPU build; remove it
        "https://github.com/pytorch/pytorch/issues/39619",
    ),
    (
        "when I run the code `pip install --upgrade ultralytics boxmot` ,it will install the latest versions of the ultralytics and boxmot, it  also will be automatically installed torch-2.3.1-cp39-cp39-win_amd64.whl，which can't use gpu.",
        "torch.cpu-build-on-gpu-host",
        "download.pytorch.org/whl/cu",
        # reporter: the upgrade pulled the CPU-only Windows torch wheel from PyPI; solved with another (CUDA) version
        "https://github.com/ultralytics/ultralytics/issues/13903",
    ),
    (
        '"nvcc" not found when installing pycuda\nI\'m using a Jetson Nano and im getting this error when installing from the .sh script, what can i do to fix this.\nThanks for any time and help spent on this.',
        "torch.extension-cuda-toolkit-missing",
        "PATH",
        # reporter: solved by adding the nvcc path (PATH) to ~/.bashrc
        "https://github.com/jkjung-avt/tensorrt_demos/issues/389",
    ),
    (
        "Exception: Installed CUDA version 9.0 does not match the version torch was compiled with 10.1, unable to compile cuda/cpp extensions without a matching cuda version.",
        "cuda.toolkits-disagree",
        "10.1",
        # maintainer: reinstall torch with your CUDA version
        "https://github.com/bytedance/lightseq/issues/158",
    ),
    (
        'When I set gpu_devices = 0, it will run all gpus in the server. And I tried to put "CUDA_VISIBLE_DEVICES=0" before "python scripts/main.py",  the same thing occurred.',
        "cuda.visible-devices-renumbered",
        "before import torch",
        # reporter: setting CUDA_VISIBLE_DEVICES at the very beginning of main.py (before torch) worked (pytorch#9158)
        "https://github.com/KaiyangZhou/deep-person-reid/issues/267",
    ),
    (
        "While running the jupyter notebooks as such , I am getting \nModuleNotFoundError: No module named 'torch'\neven though I've stable Pytorch1.0 installed in conda env where I am running the notebooks.\nWhat could be the reasons?",
        "python.notebook-kernel-not-active-env",
        "ipykernel",
        # maintainer: make sure jupyter runs in your conda env (its kernel)
        "https://github.com/unit8co/vegans/issues/1",
    ),
    (
        "cudaSuccess 35vs0\nHello there,\nI've installed the nvidia-384.98 driver and cuda 8.0. Then when I'm running cuda samples (like .deviceQuery), I've just got a error 35: cuda driver is insufficent. I'm with a Nvidia Quadro M2200.\nCould you please help me out? Thank you!",
        "cuda.toolkit-newer-than-driver",
        "libcuda1",
        # reporter: solved, installing libcuda1-384 (the driver branch's libcuda package)
        "https://github.com/chahatdeep/ubuntu-for-robotics/issues/3",
    ),
    (
        "With the error:\n```\npanic: Unknown\n\ngoroutine 1 [running]:\ngithub.com/chewxy/cu.init.1()\n\tgithub.com/chewxy/cu/cu.go:13 +0x5e\ngithub.com/chewxy/cu.init()\n\tgithub.com/chewxy/cu/_obj/_cgo_import.go:87 +0x11d\nmain.init()\n\tgithub.com/chewxy/cu/cmd/cudatest/main.go:27 +0x49\n```\n\nGo: 1.8\nnvidia-smi -i 0 output:\n```\n...\nNVIDIA-SMI 375.26                 Driver Version: 375.26\n...\n```",
        "nvidia.uvm-not-loaded",
        "modprobe nvidia-uvm",
        # reporter: had not done `modprobe nvidia_uvm`; after it and a reboot the problem is gone; maintainer: thanks, will document
        "https://github.com/gorgonia/cu/issues/2",
    ),
]

# (a real text of another matter, the cause it must not be read as, thread URL)
LOOKALIKE = [
    (
        "When I try to run a model across 4 GPUs using the PyTorch launcher and Apex DDP, I see GPU usage like this: https://i.imgur.com/TFCemy8.png\n\nThe processes that were spun up on GPUs 1, 2, and 3 are using almost a GB each of space on GPU0. Is this expected behavior? If not, what are some possible culprits?",
        "cuda.visible-devices-renumbered",
        # every DDP process touched GPU 0: set_device per process and map_location in torch.load (maintainer), not the variable set late
        "https://github.com/NVIDIA/apex/issues/222",
    ),
    (
        "error: [Errno 2] No such file or directory: '/usr/local/cuda-10.0/bin/nvcc': '/usr/local/cuda-10.0/bin/nvcc'\nwhen running 'bash make_bash.sh',  reported this error.\nBut the cuda was installed normally. Why is it",
        "cuda.env-not-inherited",
        # the build script names a CUDA path this machine does not have (answer: set your own machine's cuda path in it), not PATH
        "https://github.com/suyukun666/S2CNet/issues/3",
    ),
]


test_reaches_the_cause_with_its_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_the_new_cause = lookalike_test(LOOKALIKE, may_be_empty=True)
