"""Round 9 field survey (context): do the fixes name what the real fix turned on, for launch
context, notebooks, conda, Python/pip resolution, WSL, VMs and Windows hybrid graphics?

Every text below is the reporter's own words (an error line and the facts they gave, verbatim,
cut only at whole lines, with no answer text) from the public thread named beside it, where the
fix was confirmed (the reporter said it worked, or a maintainer stated cause and fix). None of
them comes from the triage corpus. The expected finding must be among the first three findings
of `triage_text(text)`, and its fixes must name the knob the confirmed fix turned on (the env var,
setting, package pin or command). The second table holds reports whose cause is something ELSE:
the cause a changed cue could be tempted by must not rank first.
"""

from __future__ import annotations

HYBRID = ("windows.hybrid-gpu-uses-igpu", "platform.hybrid-igpu-mode")
WSL_LIB = ("wsl.lib-not-on-loader-path", "wsl.libcuda-not-symlink")
TDR = ("windows.device-removed-tdr",)
CVD = ("cuda.visible-devices-renumbered", "cuda.visible-devices-hide-gpus")
ENV_LOST = ("cuda.env-not-inherited", "python.env-mismatch")
COLAB = ("python.notebook-no-gpu-runtime",)
CONDA_ENV = ("conda.env-not-activated", "python.env-mismatch")
VM43 = ("vm.passthrough-code-43", "vm.hypervisor-not-hidden")
NOWHEEL = ("python.no-matching-wheel",)
# (text, accepted ids, source URL, knob the fixes must name)
FIELD = [
    (
        "I followed the instructions in examples\\directml\\stable_diffusion, and I also updated the nvidia driver. But its running speed is much worse than the one from AUTOMATIC1111/stable-diffusion-webui.\nIt seems that it is running on my integrated graphic card.\nOS: win11 22h2, os build 22621.1778\npython: 3.10.11\nnvidia driver: 532.03 (rtx3070ti laptop)\nintel graphic driver: 31.0.101.4338",
        HYBRID,
        "https://github.com/microsoft/Olive/issues/307",
        "high performance",
    ),
    (
        "Failed to dlopen libcuda.so in WSL environment\n```\nfrom cuda import cuda\ncuda.cuInit(0)\n```\nFile ~/miniconda3/envs/dev/lib/python3.8/site-packages/cuda/_cuda/ccuda.pyx:424, in cuda._cuda.ccuda.cuPythonInit()\n\nRuntimeError: Failed to dlopen libcuda.so",
        WSL_LIB,
        "https://github.com/NVIDIA/cuda-python/issues/17",
        "/usr/lib/wsl/lib",
    ),
    (
        "GPU card resets after 2 seconds\nI'm using an NVIDIA geforce card that gives an error after 2 seconds if I try to run some CUDA program on it.",
        TDR,
        "http://stackoverflow.com/questions/9602312/gpu-card-resets-after-2-seconds",
        "TdrDelay",
    ),
    (
        "setting CUDA_VISIBLE_DEVICES just has no effect\nHi! I'm adding `os.environ['CUDA_VISIBLE_DEVICES'] = \"2\"` in my code does not work, the code always select first GPU, however `CUDA_VISIBLE_DEVICES=2 python train.py` works, I'm struggling to find the reason, but still has no clue...",
        CVD,
        "https://github.com/pytorch/pytorch/issues/9158",
        "before import",
    ),
    (
        "CUDA_VISIBLE_DEVICES setting unavailble after called torch.cuda.is_available function\nWhen i indicate cuda number directly by using os['CUDA_VISIBLE_DEVICES'] = cudaIndex, i found the function is unavailable. The program consistently use cuda index 0 by default.\npython version: 2.7.16\ntorch version:1.1.0\nlinux version:centos 7.6.1810",
        CVD,
        "https://github.com/pytorch/pytorch/issues/23544",
        "first CUDA call",
    ),
    (
        "When I added os.environ['CUDA_VISIBLE_DEVICES']='1' (or any gpu id that is not 0) in train.py,\nthe code will always use cuda:0,\nHowever, if I set CUDA_VISIBLE_DEVICES=1 in bash command, \nthe code will use cuda:1",
        CVD,
        "https://github.com/open-mmlab/mmdetection3d/issues/1020",
        "before import",
    ),
    (
        "CUDA_VISIBLE_DEVICES is not captured by torch\nFor example setting\n```\nhydra:\n  job:\n    env_set:\n      CUDA_VISIBLE_DEVICES: 4,5\n```\ndoes not work and the model will be loaded on devices 0, 1.",
        CVD,
        "https://github.com/huggingface/optimum-benchmark/issues/27",
        "before import",
    ),
    (
        "cant find library libcuda.so.xxx.xx.xx?\nWhen I run 'nvidia-smi', I got the following information:\n/tmp/cuda-control/src/loader.c:865 can't find library libcuda.so.418.87.01\n另外我发现了一个奇怪的情况，我在pod里装了ssh并做了端口映射，然后从vscode访问pod调用显卡，就提示上述错误。\n但从节点里exec直接进入这个pod，就一切正常。",
        ENV_LOST,
        "https://github.com/tkestack/gpu-manager/issues/134",
        "environment",
    ),
    (
        "AssertionError: CUDA is not available\nBug report for Colab: http://colab.research.google.com/.\n- Describe the current behavior:\n> assert torch.cuda.is_available() is returning False",
        COLAB,
        "https://github.com/googlecolab/colabtools/issues/482",
        "runtime type",
    ),
    (
        "SED_环境问题\n运行run.sh后报错\nCould not find conda environment: pytorch\nRuntimeError: CUDA error: no kernel image is available for execution on the device",
        CONDA_ENV,
        "https://github.com/chenxie95/deeplearning_course_sjtu/issues/14",
        "conda activate",
    ),
    (
        "Error, Code 52 -> Code 43\nI'm trying to get this work on Ovirt while running windows 10 with 1070.\nVM has in log file defined: -cpu Haswell-noTSX,hv_time,hv_relaxed,hv_vapic,hv_spinlocks=0x1fff,hv_vendor_id=123456789abc,kvm=off\nBut after this I'm back to the error code 43.",
        VM43,
        "https://github.com/sk1080/nvidia-kvm-patcher/issues/16",
        "OVMF",
    ),
    (
        "`sudo make install` doesn't work on ubuntu with GPU enabled\nsudo on ubuntu resets the $PATH, so even if you have cuda installed and /usr/local/cuda/bin in your PATH, the makefile can't find nvcc.",
        ENV_LOST,
        "https://github.com/NervanaSystems/neon/issues/37",
        'PATH="$PATH"',
    ),
    (
        "Linux install fails: \"unable to execute 'nvcc': No such file or directory\"\nTried to install using:\n```\nsudo python setup.py install \n```\nGot this error:\nunable to execute 'nvcc': No such file or directory\nerror: command 'nvcc' failed with exit status 1",
        ENV_LOST,
        "https://github.com/cudamat/cudamat/issues/98",
        "sudo",
    ),
    (
        "pip can't find tensorflow, amongst other dependencies, even though they exist\n* pip version: 19.3.1\n* Python version: 3.8.1\n* OS: Manjaro, with Kernel 54\nExecute `pip install tensorflow==1.15.0`\nERROR: Could not find a version that satisfies the requirement tensorflow==1.15.0 (from versions: none)\nERROR: No matching distribution found for tensorflow==1.15.0",
        NOWHEEL,
        "https://github.com/pypa/pip/issues/7565",
        "3.7",
    ),
]
CONDA_SOLVE = ("conda.cuda-virtual-package-missing", "cuda.conda-pip-cuda-mixed")
CPUB = ("torch.cpu-build-on-gpu-host",)
TCC = ("wsl.tcc-driver-model",)
FIELD += [
    (
        'Trouble installing pytorch with CUDA support on CPU resources\nI am trying to install pytorch with CUDA supports on the login node of our cluster (without any GPUs) using `micromamba install -c conda-forge pytorch "libtorch=*=cuda12*"`, where I encounter a huge trace, but my hunch for the most important error raised while solving the installation is this tiny line `__cuda =* *, which is missing on the system;` (would be happy to share the entire trace)\n- I tried the same installation on our cluster on a GPU node, and it works.',
        CONDA_SOLVE,
        "https://github.com/conda-forge/pytorch-cpu-feedstock/issues/364",
        "CONDA_OVERRIDE_CUDA",
    ),
    (
        "pc: windows 10\n(base) C:\\Users\\alexm>conda env update -f environment-cuda.yml\nCollecting package metadata (repodata.json): done\nSolving environment: |\nFound conflicts! Looking for incompatible packages.\nUnsatisfiableError: The following specifications were found to be incompatible with each other:\n\nPackage cudatoolkit conflicts for:\npytorch=1.3.1 -> cudatoolkit[version='>=10.1,<10.2']\ncudatoolkit=10.0",
        CONDA_SOLVE,
        "https://github.com/facebookresearch/demucs/issues/21",
        "cudatoolkit=10.1",
    ),
    (
        "[CUDA Environment Update] Incompatible speficiations between CudaToolkit 10.0 and PyTorch 1.3.1\n(base) ###\\demucs-master\\demucs-master>conda env update -f environment-cuda.yml\nCollecting package metadata (repodata.json): done\nSolving environment: |\nFound conflicts! Looking for incompatible packages.\nThis can take several minutes.  Press CTRL-C to abort.\nfailed\n\nUnsatisfiableError: The following specifications were found to be incompatible with each other:\n\nPackage cudatoolkit conflicts for:\npytorch=1.3.1 -> cudatoolkit[version='>=10.1,<10.2']\ncudatoolkit=10.0",
        CONDA_SOLVE,
        "https://github.com/facebookresearch/demucs/issues/10",
        "cudatoolkit=10.1",
    ),
    (
        "[BUG] Conda env installs pytorch-cpu on cuda 10.1\nSomehow `conda env -f ...` installs pytorch-cpu on cuda toolkit v10.1.\nTested only on Linux-GPU (DSVM NC6v3)\nUpdate cuda from v10.0 to v10.1 and create conda env by following SETUP.md",
        CPUB,
        "https://github.com/microsoft/computervision-recipes/issues/450",
        "cudatoolkit",
    ),
    (
        "Pytorch CPU and conda environment conflicts\nWhen trying to set up the Conda environment I was having trouble installing a Cuda-compatible version of Pytorch. The CPU version was automatically installed when using the default conda_env.yaml file.",
        CPUB,
        "https://github.com/BMIRDS/deepslide/issues/60",
        "pytorch-cuda",
    ),
    (
        "could not run GPU on jupyter\nTensorflow Version 2.12.0\nPython version 3.10.11\nI could not get Tensorflow to run on GPUs.\nTF sees the GPUs on terminal, but not on jupyter lab.",
        ENV_LOST + ("python.notebook-kernel-not-active-env",),
        "https://github.com/tensorflow/tensorflow/issues/60790",
        "LD_LIBRARY_PATH",
    ),
    (
        "ERROR (theano.sandbox.cuda): nvcc compiler not found on $PATH. Check your nvcc installation and try again\nI see the error as title when I run sudo python kfkd.py fit\nI pretty sure the CUDA7 is installed and works well in example of caffe, cuda-convnet or theano;\nubgpu@ubgpu:~$ which nvcc\n/usr/local/cuda/bin/nvcc\nmy  device is GTX970.",
        ENV_LOST,
        "https://github.com/dnouri/kfkd-tutorial/issues/15",
        "sudo",
    ),
    (
        "WSL/CUDA unsupported on H100\nHowever it turns out that WSL does not currently work at all on the latest generation of cards. Specifically for a PCIe  H100 cards the GPUs are not recognized by WSL even though the latest NVIDA drivers are installed.",
        TCC,
        "https://github.com/microsoft/WSL/issues/9952",
        "WDDM",
    ),
]

# (text, the cause a changed cue could wrongly lead with, source URL)
OTHER_CAUSE = [
    (
        "When running make.sh, it prompts that NVCC cannot be found\nI encountered a problem when establishing the DCN-V2 environment. After running this command in sh make.sh, it reported this error `/bin/sh: 1: :/usr/local/cuda/bin/nvcc: not found`, but I found this file on this path of my computer, and added (export PATH=$PATH:/usr/local/cuda/bin) to bashrc through `$ sudo vi ~/.bashrc` this command, and` source ~/bashrc ` restarted the service, but still reported the above error",
        "python.env-mismatch",
        "https://github.com/chengdazhi/Deformable-Convolution-V2-PyTorch/issues/86",
    ),
    (
        "torch.cuda.is_available () returning false in google coolab\nimport torch\ntorch.cuda.is_available()\n/usr/local/lib/python3.6/dist-packages/torch/cuda/__init__.py:52: UserWarning: CUDA initialization: The NVIDIA driver on your system is too old (found version 10010). Please update your GPU driver by downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx Alternatively, go to: https://pytorch.org to install a PyTorch version that has been compiled with your version of the CUDA driver.\n  return torch._C._cuda_getDeviceCount() > 0\nFalse",
        "python.notebook-no-gpu-runtime",
        "https://github.com/googlecolab/colabtools/issues/1773",
    ),
    (
        'Dependency Conflict Between torch and nvidia-cuda-nvrtc-cu12 in conda env create\nconda env create -f environment.yml\nThe conflict is caused by:\n    The user requested nvidia-cuda-nvrtc-cu12==12.4.99\n    torch 2.4.0 depends on nvidia-cuda-nvrtc-cu12==12.1.105; platform_system == "Linux" and platform_machine == "x86_64"\nTo fix this you could try to:\n1. loosen the range of package versions you\'ve specified\n2. remove package versions to allow pip to attempt to solve the dependency conflict',
        "cuda.conda-pip-cuda-mixed",
        "https://github.com/wrh14/deep_unlearning/issues/1",
    ),
    (
        "when 'conda env create -f environment.yml' got the conflict error\nThe conflict is caused by:\n    The user requested nvidia-cudnn-cu12==9.1.0.70\n    The user requested nvidia-cudnn-cu12==8.9.2.26",
        "cuda.conda-pip-cuda-mixed",
        "https://github.com/Asad-Ismail/MoneyPrinterTurbo-Extended/issues/4",
    ),
    (
        "App Ignoring High Performance Power Setting | Using CPU Graphics Instead of Discrete GPU\nMy machine is also set to use the discrete GPU in the GUI power settings and command line.\nOutput of `sudo system76-power graphics`:\nnvidia\nRunning a particular game does not utilize the discrete GPU unless the app is ran from the app library with `Run on NVIDIA ... [GeForce GTX 1660 Ti Mobile]`",
        "windows.hybrid-gpu-uses-igpu",
        "https://github.com/pop-os/cosmic-epoch/issues/1301",
    ),
    (
        "optimize: 总是强制使用独立显卡，不科学\n一旦我开启 mac gesture ，我的笔记本就会强制切换到独立显卡，导致功耗变高。",
        "windows.hybrid-gpu-uses-igpu",
        "https://github.com/MacGesture/MacGesture/issues/87",
    ),
    (
        "Nvidia GPU passthrough fails with GPUs not consistently in WDDM mode\ntake a sytem with at least two Nvidia CPUs, one in TCC mode and the other in WDDM mode\nrun nvidia-smi inside WSL ->\nUnable to determine the device handle for GPU0: 0000:C1:00.0: Unknown Error\nUnable to determine the device handle for GPU1: 0000:E1:00.0: Unknown Error\nNo devices were found",
        "wsl.windows-driver-too-old",
        "https://github.com/microsoft/WSL/issues/13027",
    ),
    (
        "error message: pip==20.2.3' distribution was not found and is required by the application\n* Python version: Python 2.7.10\n* Operating system:  high sierra osx 10.13.6\nbash-3.2$ python -m pip --version\npip 20.3.3 from /Users/xxx/Library/Python/2.7/lib/python/site-packages/pip (python 2.7)\n    raise DistributionNotFound(req, requirers)\npkg_resources.DistributionNotFound: The 'pip==20.2.3' distribution was not found and is required by the application",
        "python.no-matching-wheel",
        "https://github.com/pypa/pip/issues/9536",
    ),
    (
        "Failed to start nvidia-docker.service: Unit nvidia-docker.service not found.\n先安装了docker，sudo docker run hello-world测试成功;\n接着按照官网步骤安装后，用sudo systemctl start nvidia-docker出现错误：\nFailed to start nvidia-docker.service: Unit nvidia-docker.service not found.",
        "cuda.env-not-inherited",
        "https://github.com/NVIDIA/nvidia-docker/issues/1003",
    ),
    (
        "[BUG] Error ocurred while enabling NVIDIA Persistence Daemon\nwhen trying to change the graphics to nvidia only, an error is shown to enable a service\nRun `sudo envycontrol -s nvidia`\n - Model: Acer aspire 5\n - Distro: Fedora 39\n - Nvidia driver version: 545.29.06\nFailed to enable unit: Unit file nvidia-persistenced.service does not exist.\nERROR: An error ocurred while enabling service",
        "cuda.env-not-inherited",
        "https://github.com/bayasdev/envycontrol/issues/150",
    ),
    (
        "Misc. bug: ggml_cuda_init at boot races nvidia-uvm readiness - silent CPU fallback for systemd services\nGPU: NVIDIA GTX 1060 6GB, driver 535.309.01, CUDA 12.2.\nLinux (systemd user services, Ubuntu-based)\nWhen `llama-server` runs as a `systemd --user` service, user services start before the `nvidia-uvm` kernel module has finished initializing at cold boot. The result is a silent CPU fallback:\nggml_cuda_init: failed to initialize CUDA: no CUDA-capable device is detected\nwarning: no usable GPU found, --gpu-layers option will be ignored",
        "cuda.env-not-inherited",
        "https://github.com/ggml-org/llama.cpp/issues/27923",
    ),
]

# the shared names tests/test_field_fixes.py reads
REPORTS_ROWS = FIELD
OTHER_ROWS = OTHER_CAUSE
MAY_BE_EMPTY = True
