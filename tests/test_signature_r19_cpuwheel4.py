"""The CPU-only PyTorch wheel on a GPU machine, round 19 (cpuwheel4): whole opening posts, in
English and Chinese, where the CPU build (from PyPI on Windows, from a mirror, or pulled back by a
dependency's requirements, a conda package or --extra-index-url falling back to PyPI) left
torch.cuda.is_available() False or raised "Torch not compiled with CUDA enabled", and a +cuXXX pin
that only PyTorch's index serves. Each verbatim post reaches its cause first and one of its fixes
names the knob the thread's confirmed fix turned (the index URL / CUDA tag that fits the CUDA in
the text, --index-url instead of --extra-index-url, the conda pytorch-cuda line, installing the
CUDA torch after the package that pulls the CPU one); look-alike rows are real messages of other
causes that the new phrasings must not read as the CPU build."""

from __future__ import annotations

from triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # the reporter: "我退回到cuda12.1 重新部署可以了" (went back to CUDA 12.1 and redeployed: works)
    (
        "Usage (in WebUI) 遇到提示Torch not compiled with CUDA enabled的错误，我已经按照要求安装了cuda12.3，请问这是什么导致的呢",
        "torch.cpu-build-on-gpu-host",
        "cu121",
        "https://github.com/modelscope/DiffSynth-Studio/issues/114",
    ),
    # the reporter: using --index-url (no "extra") instead of --extra-index-url fixes it
    (
        "i tried installing from source just now and had issues to get cuda support running on windows.\nturns out the issue was the installation instruction in the english readme:\npip install torch torchvision torchaudio --extra-index-url https://download.pytorch.org/whl/cu116\n\nthis causes pip to search for pypi/simple first and then the pytorch wheels second, grabbing the non-cuda pytorch version.",
        "torch.cpu-build-on-gpu-host",
        "--index-url",
        "https://github.com/dmMaze/BallonsTranslator/issues/139",
    ),
    # the reporter: dropping +cu121 installed but CUDA did not work; "pip install torch torchvision
    # torchaudio --index-url https://download.pytorch.org/whl/cu121" did; the maintainer: fixed
    (
        "ERROR: No matching distribution found for torch==2.1.2+cu121",
        "torch.cuda-pin-needs-pytorch-index",
        "download.pytorch.org/whl/cu121",
        "https://github.com/jianchang512/stt/issues/4",
    ),
    # the maintainer: the fix was to install ultralytics in the same conda line as pytorch with
    # pytorch-cuda=11.7 -c pytorch -c nvidia -c conda-forge
    (
        "Installing ultralytics with conda leads to an error where torch's CUDA is no longer enabled, even if it was previously downloaded with CUDA enabled (also using conda). I think this might be due to a dependency in the ultralytics conda package because installing ultralytics with pip does NOT lead to this issue.",
        "torch.cpu-build-on-gpu-host",
        "pytorch-cuda",
        "https://github.com/ultralytics/ultralytics/issues/4335",
    ),
    # the maintainer: peft/transformers' requirements pull torch; install them first, then the
    # GPU torch after them
    (
        "### Describe the Question\n每次安装的时候都会自动下载torch==2.0.1，但是我看requirements并没有要求。而且下载的是cpu版本，覆盖我的GPU版本。",
        "torch.cpu-build-on-gpu-host",
        "after",
        "https://github.com/shibing624/textgen/issues/34",
    ),
    # the maintainer: conda install torchvision=0.14.1 torchaudio=0.13.1 pytorch-cuda=11.7; the
    # reporter: "It does!"
    (
        "### Describe the bug\n\nFollowing the current readme instructions leads to a python setup where torch.cuda.is_available() is False. Pip also prints a warning about torch version conflicts between 0.13 and 2.0, although I don't have the log anymore.\n\nI suspect this was caused by the release of torchaudio 2.0 and torchvision 0.15 a few hours ago as of writing, since the install command doesn't specify a version for them.\n\n### Reproduction\n\n```\nconda create -n textgen\nconda activate textgen\nconda install torchvision torchaudio pytorch-cuda=11.7 git -c pytorch -c nvidia\ngit clone https://github.com/oobabooga/text-generation-webui\ncd text-generation-webui\npip install -r requirements.txt\n```\n\n### System Info\n\n```shell\nWindows 11\nGTX 1660\n```",
        "torch.cpu-build-on-gpu-host",
        "pytorch-cuda",
        "https://github.com/oobabooga/text-generation-webui/issues/347",
    ),
    # the reporter: installing torch from PyTorch's index (--index-url .../nightly/cu117) resolved it
    (
        "I created a venv and ran `pip install voicefixer==0.1.2`\n\nOn running voicefixer, only the CPU is used. The GPU is not utilized.\n\nI did not use the `--disable-cuda` argument.",
        "torch.cpu-build-on-gpu-host",
        "--index-url https://download.pytorch.org/whl/cu",
        "https://github.com/haoheliu/voicefixer/issues/44",
    ),
]

# (message verbatim from a thread of another cause, the cause it must not be read as, thread)
LOOKALIKE = [
    # a CUDA build (torch-2.1.1+cu121) on a driver too old for it (found version 11040), not the
    # CPU build
    (
        "C:\\Users\\ПК\\AppData\\Local\\Programs\\Python\\Python311\\Lib\\site-packages\\torch\\cuda\\__init__.py:138: UserWarning: CUDA initialization: The NVIDIA driver on your system is too old (found version 11040). Please update your GPU driver by downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx Alternatively, go to: https://pytorch.org to install a PyTorch version that has been compiled with your version of the CUDA driver. (Triggered internally at ..\\c10\\cuda\\CUDAFunctions.cpp:108.)\n  return torch._C._cuda_getDeviceCount() > 0\nUltralytics YOLOv8.0.227 🚀 Python-3.11.6 torch-2.1.1+cu121",
        "torch.cpu-build-on-gpu-host",
        "https://github.com/SunOner/sunone_aimbot/issues/117",
    ),
    # no wheel at all for this interpreter from the cu121 index: nothing was installed
    (
        "pip install torch torchvision torchaudio --index-url https://download.pytorch.org/whl/cu121\n\n### Versions\n\n**Ошибка:**\nERROR: Could not find a version that satisfies the requirement torch (from versions: none)\nERROR: No matching distribution found for torch\n\nWindows 11, версия драйвера 576.52, Python 3.10.11, pip 25.1.1",
        "torch.cpu-build-on-gpu-host",
        "https://github.com/pytorch/pytorch/issues/156024",
    ),
    # uv's --torch-backend=auto chose a CUDA 13 torch beside a vLLM wheel built for CUDA 12: a
    # CUDA-major mismatch (libcudart.so.12 missing), not the CPU build
    (
        "The current installation docs recommend:\n\n```bash\nuv pip install vllm==0.17.0 --torch-backend=auto\n```\n\nDefault prebuilt vllm0.17.0 binary requires CUDA 12.9.\nOn newer-driver setups(for me it is v591.xx), `--torch-backend=auto` may resolve to a newer torch CUDA backend like CUDA 13.0, which can lead to a mismatch with the prebuilt vLLM wheel and errors such as:\n\n```text\nImportError: libcudart.so.12: cannot open shared object file: No such file or directory\n```",
        "torch.cpu-build-on-gpu-host",
        "https://github.com/vllm-project/vllm-omni/issues/1919",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_this_cause = lookalike_test(LOOKALIKE)
