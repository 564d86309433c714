"""English prose about where it works and where it does not, round 15: a script's CUDA_VISIBLE_DEVICES on a
one-GPU machine, a tmux server that kept an older environment, a non-root container user without the
device nodes' group, WSL 2 reached over SSH (/usr/lib/wsl/lib not on PATH), and sudo running another
Python or dropping the PATH to nvcc. Each row is verbatim from one public thread whose fix was confirmed
(the reporter says it worked, or a maintainer states cause and fix); the cause ranks first and its fixes
name the knob the confirmed fix turned. Look-alike rows are real texts of other matters that the new
phrasings (checks/signatures/{python_env,cuda}.toml) could wrongly catch."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

HIDE = "cuda.visible-devices-hide-gpus"
ENV = "cuda.env-not-inherited"
NODE = "nvidia.device-node-permission"
WSLPATH = "wsl.lib-not-on-loader-path"
PYENV = "python.env-mismatch"

# (message verbatim, the finding id first, text one of its fixes names, thread URL)
KNOB = [
    (
        'Exception search.sh "Exception: No GPU found, please run without --cuda"\nin search.sh line 1 you set \n   CUDA_VISIBLE_DEVICES=1\n\nbecause of this I got the error:\n   File "search.py", line 33, in <module>\n       raise Exception("No GPU found, please run without --cuda")\n   Exception: No GPU found, please run without --cuda\n\nThis was caused, because torch.cuda.is_available() returned FALSE;\n\nBut when I executed the code manually I could not reproduce it, because torch.cuda.is_available() returned TRUE;',
        HIDE,
        "CUDA_VISIBLE_DEVICES",
        # the reporter: the script's CUDA_VISIBLE_DEVICES=1 on a one-GPU machine; =0 worked
        "https://github.com/XuelianCheng/LEAStereo/issues/10",
    ),
    (
        "Losing environment on tmux start\nOn previous installs on other machines never issues (many machines), however here, when I start a tmux session I lose all access to nvidia/CUDA drivers, and all my previous pip installed software, it seems an entirely new environment is created without any knowledge of my base environment.  This has never been a problem with tmux before as I have never encountered the issue. The machine is a GCP pre-built instance. The new environment cannot see anything, even the base GPU CUDA drivers.",
        ENV,
        "tmux",
        # maintainer: the tmux server was started from a shell without that environment; restart tmux
        "https://github.com/tmux/tmux/issues/2078",
    ),
    (
        "Running with non-root user\nI'm trying to create a chrome container based on this image (for rendering browser output headlessly), but am running into permission problems.\nRunning `nvidia-smi` gives the following error: `Failed to initialize NVML: Insufficient Permissions`\n\nMy application uses VirtualGL and Xvfb to render Chrome with a GPU if that's relevant. Works perfectly fine with the root user.\n\nWhat am I missing here? From what I've read, the group `video` should be adequate, but this is not the case.",
        NODE,
        "group",
        # the reporter: add the device nodes' group (gid) to the container user
        "https://github.com/selkies-project/docker-selkies-glx-desktop/issues/36",
    ),
    (
        "Can not found nvidia-smi after login via SSH\nWelcome to Ubuntu 20.04 LTS (GNU/Linux 5.10.16.3-microsoft-standard-WSL2 x86_64)\nLast login: Sun Sep  4 14:24:12 2022 from 172.28.16.1\n(base) ➜  ~ nvidia-smi\nzsh: command not found: nvidia-smi\n```\n\n### Expected Behavior\n\nShould successfully find the `nvidia-smi` after login via SSH! like (login via `Windows Terminal`):",
        WSLPATH,
        "/usr/lib/wsl/lib",
        # WSL 2 over SSH: /usr/lib/wsl/lib is not on the SSH login's PATH
        "https://github.com/microsoft/WSL/issues/8794",
    ),
    (
        "Unable to access CUDA on WSL2 via SSH\nCUDA is working properly. From Windows command prompt or within WSL, `nvidia-smi` outputs the expected information (see above).  When I connect to the machine via SSH, however, the command `nvidia-smi` is not found.",
        WSLPATH,
        "/usr/lib/wsl/lib",
        # the reporter: the non-local (SSH) login lacks /usr/lib/wsl/lib on PATH
        "https://github.com/microsoft/WSL/issues/9185",
    ),
    (
        'when I try to install the pcdet library by running the command `sudo python3 setup.py develop` I get:\n```\nTraceback (most recent call last):\n  File "setup.py", line 5, in <module>\n    from torch.utils.cpp_extension import BuildExtension, CUDAExtension\nModuleNotFoundError: No module named \'torch\'\n```\nBut it\'s strange since if I check my PyTorch version I get:\n```\nPython 3.8.5 (default, Jul 28 2020, 12:59:40) \n[GCC 9.3.0] on linux\nType "help", "copyright", "credits" or "license" for more information.\n>>> import torch\n>>> print(torch.__version__) \n1.6.0\n```',
        PYENV,
        "sudo",
        # maintainer: check which python `sudo python3` runs (not the environment's)
        "https://github.com/open-mmlab/OpenPCDet/issues/315",
    ),
    (
        "I am trying to run this line from `README.md`: `sudo python3 setup.py install --plugins` in part 2 of it, but I keep getting the error ```ModuleNotFoundError: No module named 'torch'```.  But I have already installed torch, torchvision, and torchaudio with ```pip3 install torch==1.9.0+cpu torchvision==0.10.0+cpu torchaudio==0.9.0 -f https://download.pytorch.org/whl/torch_stable.html```, so I do not know why I am still seeing this error.",
        PYENV,
        "sudo",
        # the reporter: torch was not installed for sudo's python; installing it there got past the error
        "https://github.com/NVIDIA-AI-IOT/trt_pose/issues/137",
    ),
    (
        "nvcc: not found\nbuild.sh: 11: build.sh: nvcc: not found\nhello，such problem hapeened,i have write the path in  ~/.bashrc ,do you have some solution?\nexport CUDA_HOME=/usr/local/cuda\nexport PATH=$PATH:/usr/local/cuda-9.0/bin\nexport PATH=/usr/local/cuda-9.0/bin${PATH:+:${PATH}}\nexport LD_LIBRARY_PATH=/usr/local/cuda-9.0/lib64${LD_LIBRARY_PATH:+:${LD_LIBRARY_PATH}}",
        ENV,
        "sudo",
        # maintainer: the script was run with sudo (sudo drops the PATH to nvcc); the reporter thanks
        "https://github.com/speedinghzl/CCNet/issues/56",
    ),
    (
        "Script fails if cuda sdk is installed by the script\nIf the script installs the Cuda SDK, it modifies the path in the script to include /usr/local/cuda/bin. However, the ffmpeg compilation is executed with sudo so it will never see that path and it throws an error:\n\n`ERROR: failed checking for nvcc.`",
        ENV,
        "PATH",
        # the compile runs under sudo without the PATH; sudo PATH="$PATH" make worked
        "https://github.com/slyfox1186/ffmpeg-build-script/issues/55",
    ),
]

# (a real text of another matter, the cause it must not be read as, thread URL)
LOOKALIKE = [
    (
        "Set CUDA_VISIBLE_DEVICES by exporting in tmux pane\n## Summary\n- export `CUDA_VISIBLE_DEVICES` directly in the tmux job pane before launching the command\n- keep the existing retry logging with explicit device info\n- avoid wrapping the command in an inline env prefix expression",
        ENV,
        # a change note that mentions tmux and the variable: no environment lost
        "https://github.com/hao-ai-lab/research-agent/pull/194",
    ),
]


test_reaches_the_cause_with_its_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_the_new_cause = lookalike_test(LOOKALIKE, may_be_empty=True)
