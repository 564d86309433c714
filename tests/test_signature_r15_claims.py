"""Round 15 sweep of fixes as claims: a fix shown must be true for the facts of the paste (the GPU's
maker, the OS, the distribution). Each message is verbatim from its thread (the URL beside it).

KNOB rows: the cause the thread confirmed (or the message itself states) ranks first and one of its
fixes names the knob. FOREIGN rows: the first finding's fixes hold no command of another vendor, OS
or distribution than the paste shows (an AMD paste gets no nvidia-smi, a macOS paste no CUDA wheel
and no Windows venv command, a Fedora paste no apt). KEEP rows: an NVIDIA paste of the same
message still gets the NVIDIA command, so the gates do not hide what holds."""

from __future__ import annotations

import pytest
from triage_lines import fixes_text, knob_test

from envdoctor.triage_engine import triage_text

HIP_COMFYUI = "HIP out of memory. Tried to allocate 432.00 MiB. GPU 0 has a total capacity of 15.92 GiB of which 7.12 GiB is free. Of the allocated memory 8.08 GiB is allocated by PyTorch, and 321.96 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_HIP_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)\nThis error means you ran out of memory on your GPU."
HIP_FLUX_NOBARA = '> torch.OutOfMemoryError: HIP out of memory. Tried to allocate 80.00 MiB. GPU 0 has a total capacity of 15.98 GiB of which 84.00 MiB is free. Of the allocated memory 15.44 GiB is allocated by PyTorch, and 267.59 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_HIP_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)\n\nIt seems to happen around here:\n\n>  File "/home/rw/pinokio/api/flux-webui.git/app.py", line 72, in infer\n>     pipe.to(device)\n\nMy machine:\n\nOS: Linux Nubara 40\nGPU: AMD RX6950XT (16GB VRAM)\nCPU: Ryzen 3600\nRAM: 64GB'
HIP_STRIX_UBUNTU = 'Hi , I using Ubuntu 24.04 ,when try to us the EVo X2 (128GB)\n File "/opt/venv/lib64/python3.13/site-packages/torch/utils/_device.py", line 104, in __torch_function__\n    return func(*args, **kwargs)\ntorch.OutOfMemoryError: HIP out of memory. Tried to allocate 3.31 GiB. GPU 0 has a total capacity of 128.00 GiB of which 780.24 MiB is free. Of the allocated memory 57.70 GiB is allocated by PyTorch, and 75.82 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_HIP_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)'
HIP_LEMONADE_GFX1151 = "Lemonade 10.4.0, Ubuntu 26.04, Linux 7.0.0-15, gfx1151... Freshly rebooted\n\n2026-05-08 11:47:02.257 [Error] (Process) (EngineCore pid=2651) torch.OutOfMemoryError: HIP out of memory. Tried to allocate 12.95 GiB. GPU 0 has a total capacity of 127.00 GiB of which 18.55 GiB is free. Of the allocated memory 99.37 GiB is allocated by PyTorch, and 121.80 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)"
MAC_TENSORGP = '  File "/Users/keior/miniforge3/envs/tf_m1/lib/python3.9/site-packages/torch/utils/_device.py", line 77, in __torch_function__\n    return func(*args, **kwargs)\n  File "/Users/keior/miniforge3/envs/tf_m1/lib/python3.9/site-packages/torch/cuda/__init__.py", line 293, in _lazy_init\n    raise AssertionError("Torch not compiled with CUDA enabled")\nAssertionError: Torch not compiled with CUDA enabled'
MAC_MOCHI = "AssertionError: Torch not compiled with CUDA enabled\n```\n\nI tried uninstalling Torch and installing the [nightly version](https://download.pytorch.org/whl/nightly/cpu), but still getting the same error. I looked at the code and appears that there's tight coupling to Torch-CUDA. \n\n**Machine config:**\n```\nGraphics/Displays:\n\n    Apple M3 Max:\n\n      Chipset Model: Apple M3 Max\n      Type: GPU\n      Bus: Built-In\n      Total Number of Cores: 40\n      Vendor: Apple (0x106b)\n      Metal Support: Metal 3"
MAC_DEEPVECFONT = '`anaconda3/envs/dvf_v2_10/lib/python3.10/site-packages/torch/cuda/__init__.py", line 239, in _lazy_init\n    raise AssertionError("Torch not compiled with CUDA enabled")\nAssertionError: Torch not compiled with CUDA enabled`\n\nwhen i\'m using training mode, my current machine is MacBook Pro 2021 with M1 Pro Chip, and 16 GB RAM, hoping some helps, thanks!'
A1111_MAC = 'RuntimeError: Error running command.\nCommand: "/Users/marcelomrios/stable-diffusion-webui/venv/bin/python3.10" -c "import torch; assert torch.cuda.is_available(), \'Torch is not able to use GPU; add --skip-torch-cuda-test to COMMANDLINE_ARGS variable to disable this check\'"\nError code: 1\nstdout: <empty>\nstderr: Traceback (most recent call last):\n  File "<string>", line 1, in <module>\nAssertionError: Torch is not able to use GPU; add --skip-torch-cuda-test to COMMANDLINE_ARGS variable to disable this check'
A1111_UBUNTU = 'I tried to run webui.sh on an Ubuntu 22.04 server, and get:\nTraceback (most recent call last):\nFile "/home/user/stable-diffusion-webui/launch.py", line 38, in\nmain()\nFile "/home/user/stable-diffusion-webui/launch.py", line 29, in main\nprepare_environment()\nFile "/home/user/stable-diffusion-webui/modules/launch_utils.py", line 257, in prepare_environment\nraise RuntimeError(\nRuntimeError: Torch is not able to use GPU; add --skip-torch-cuda-test to COMMANDLINE_ARGS variable to disable this check\n\nBut I have a GPU (RTX 3060) and think I have installed cuda correctly (have done the same in WSL enviroment of the same PC and get webui working), and oobabooga run correctly on GPU. I kind of suspect that it is because the PC have two GPU, one iGPU (togather with an AMD CPU) and one RTX 3060.'
OLLAMA_WINDOWS_RYZEN = 'Getting "no compatible GPUs were discovered".\ntime=2025-03-03T18:44:25.279Z level=INFO source=gpu.go:217 msg="looking for compatible GPUs"\ntime=2025-03-03T18:44:25.279Z level=INFO source=gpu_windows.go:167 msg=packages count=1\ntime=2025-03-03T18:44:25.279Z level=INFO source=gpu_windows.go:214 msg="" package=0 cores=8 efficiency=0 threads=8\ntime=2025-03-03T18:44:25.439Z level=WARN source=amd_windows.go:99 msg="get mem info" id=0 error="failed call to hipMemGetInfo: 1011 The operation completed successfully."\ntime=2025-03-03T18:44:25.458Z level=WARN source=amd_windows.go:99 msg="get mem info" id=1 error="failed call to hipMemGetInfo: 1011 The operation completed successfully."\ntime=2025-03-03T18:44:25.523Z level=INFO source=gpu.go:377 msg="no compatible GPUs were discovered"\n\nI\'m on Windows 11, AMD Ryzen 7 4700U, which should translate to gfx90c GPU according to this:'
DOCKER_FEDORA = "docker run --rm --gpus all ubuntu:latest nvidia-smi\ndocker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]]\n\nRun 'docker run --help' for more information\n\nSystem: Fedora 41\n\nnvidia-ctk --version\nNVIDIA Container Toolkit CLI version 1.17.3"
FEDORA_NVIDIA_SMI = "`nvidia-smi` fails with: \"couldn't communicate with the NVIDIA driver\" on Fedora 43 on a 5060 laptop (with an AMD cpu), despite `akmod-nvidia` and CUDA driver packages being installed. I have followed the guide and as you can see in the following, the drivers are installed, but nvidia-smi (and fastfetch) seem to not recognize the presence of the discrete graphics card. I have also tried to re-enroll MOK keys to no avail. \n\n## Environment\n- OS: Fedora 43 \n- NVIDIA driver (module version): 580.105.08\n- RPM Fusion repos: rpmfusion-free-release-43-1, rpmfusion-nonfree-release-43-1\n\nUseful outputs:\n```bash\n$ nvidia-smi\n```\nNVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.\n```bash\n$ modinfo -F version nvidia\n``` \n580.105.08"
BNB_WINDOWS = "C:\\Users\\14908>python -m bitsandbytes\nD:\\Anaconda\\lib\\site-packages\\bitsandbytes\\cextension.py:34: UserWarning: The installed version of bitsandbytes was compiled without GPU support. 8-bit optimizers, 8-bit multiplication, and GPU quantization are unavailable.\n  warn(\"The installed version of bitsandbytes was compiled without GPU support. \"\n'NoneType' object has no attribute 'cadam32bit_grad_fp32'"
ARC_COMFYUI = '  _*-display                 \n       description: VGA compatible controller\n       product: DG2 [Arc A770]\n       vendor: Intel Corporation\n       physical id: 0\n       bus info: pci@0000:03:00.0\n       logical name: /dev/fb0\n       version: 08\n       width: 64 bits\n       clock: 33MHz\n       capabilities: pciexpress msi pm vga_controller bus_master cap_list rom fb\n       configuration: depth=32 driver=i915 latency=0 resolution=1920,1080\n       resources: iomemory:400-3ff irq:159 memory:81000000-81ffffff memory:4000000000-43ffffffff memory:82000000-821fffff_\n\n# ComfyUI Error Report\n## Error Details\n- **Node ID:** 19\n- **Node Type:** Ruyi_I2VSampler\n- **Exception Type:** AssertionError\n- **Exception Message:** Torch not compiled with CUDA enabled\n## Stack Trace\n```\n  File "/home/junwei161/ComfyUI/execution.py", line 327, in execute'
ARC_KRITA = "When installing, I get the error “Torch not compiled with CUDA enabled” even if I am using XPU, being on an Intel GPU (in my case the model is Intel(R) Arc(TM) Graphics (128 MB))."
BNB_MAC_TEXTGEN = 'Gradio HTTP request redirected to localhost :)\nbin /Users/siming/anaconda3/envs/textgen/lib/python3.10/site-packages/bitsandbytes/libbitsandbytes_cpu.so\n/Users/siming/anaconda3/envs/textgen/lib/python3.10/site-packages/bitsandbytes/cextension.py:33: UserWarning: The installed version of bitsandbytes was compiled without GPU support. 8-bit optimizers, 8-bit multiplication, and GPU quantization are unavailable.\n  warn("The installed version of bitsandbytes was compiled without GPU support. "\n```\n\n### System Info\n\n```shell\nMac M1 Pro\n```'
CUDA_OOM_4090 = "I use RTX 4090 24GB GPU.\nWhen I do inference using i2vgen-xl, there is an error with CUDA out of memory issue.\n\n`torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 550.00 MiB. GPU 0 has a total capacity of 23.64 GiB of which 319.38 MiB is free. Including non-PyTorch memory, this process has 22.88 GiB memory in use. Of the allocated memory 19.75 GiB is allocated by PyTorch, and 999.90 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)`"

MPS_OOM_SWARM = "RuntimeError: MPS backend out of memory (MPS allocated: 15.05 GB, other allocations: 11.91 GB, max allowed: 27.20 GB). Tried to allocate 1.16 GB on private pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper limit for memory allocations (may cause system failure).\n>> An error was detected while running rl-swarm. See /users/mengqf-202506/gensy/rl-swarm/logs for full logs.\n>> Shutting down trainer...\nzsh: terminated  ./run_rl_swarm.sh"
GPUSTAT_WINDOWS = "C:\\>gpustat -cp\n'nvidia-smi' is not recognized as an internal or external command,\noperable program or batch file.\nError on calling nvidia-smi"

KNOB = [
    # ROCm's own out-of-memory message names its allocator variable: the fix names it too
    (
        "https://github.com/Comfy-Org/ComfyUI/issues/9529",
        HIP_COMFYUI,
        "memory.out-of-memory",
        "PYTORCH_HIP_ALLOC_CONF",
    ),
    (
        "https://github.com/pinokiofactory/flux-webui/issues/25",
        HIP_FLUX_NOBARA,
        "memory.out-of-memory",
        "PYTORCH_HIP_ALLOC_CONF",
    ),
    # a macOS home folder (/Users/<name>/) in the traceback: a Mac, so MPS and not a CUDA wheel
    ("https://github.com/cdvetal/TensorGP/issues/5", MAC_TENSORGP, "macos.cuda-requested", "mps"),
    (
        "https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/8711",
        A1111_MAC,
        "macos.cuda-requested",
        "--skip-torch-cuda-test",
    ),
    ("https://github.com/genmoai/mochi/issues/74", MAC_MOCHI, "macos.cuda-requested", "mps"),
    (
        "https://github.com/yizhiwang96/deepvecfont-v2/issues/9",
        MAC_DEEPVECFONT,
        "macos.cuda-requested",
        "mps",
    ),
    # Fedora named beside an ubuntu:latest image: the toolkit comes from the dnf repository
    (
        "https://github.com/NVIDIA/nvidia-container-toolkit/issues/1011",
        DOCKER_FEDORA,
        "container.no-nvidia-runtime",
        "dnf",
    ),
    (
        "https://github.com/bitsandbytes-foundation/bitsandbytes/issues/749",
        BNB_WINDOWS,
        "bitsandbytes.windows-unsupported",
        "bitsandbytes>=0.43.0",
    ),
    (
        "https://github.com/IamCreateAI/Ruyi-Models/issues/31",
        ARC_COMFYUI,
        "intel.ipex-cpu-only-build",
        "xpu",
    ),
    (
        "https://github.com/Acly/krita-ai-diffusion/issues/2572",
        ARC_KRITA,
        "intel.ipex-cpu-only-build",
        "xpu",
    ),
    (
        "https://github.com/oobabooga/textgen/issues/1931",
        BNB_MAC_TEXTGEN,
        "bitsandbytes.apple-silicon-unsupported",
        "mps",
    ),
    # the Apple GPU's own cap, named in the message
    (
        "https://github.com/gensyn-ai/rl-swarm/issues/341",
        MPS_OOM_SWARM,
        "apple.mps-out-of-memory",
        "PYTORCH_MPS_HIGH_WATERMARK_RATIO",
    ),
]


test_a_message_gets_its_cause_and_the_knob = knob_test(
    KNOB, columns=("source", "text", "finding_id", "knob")
)


FOREIGN = [
    ("https://github.com/Comfy-Org/ComfyUI/issues/9529", HIP_COMFYUI, ("nvidia-smi",)),
    ("https://github.com/pinokiofactory/flux-webui/issues/25", HIP_FLUX_NOBARA, ("nvidia-smi",)),
    (
        "https://github.com/kyuz0/amd-strix-halo-image-video-toolboxes/issues/3",
        HIP_STRIX_UBUNTU,
        ("nvidia-smi",),
    ),
    ("https://github.com/lemonade-sdk/vllm-rocm/issues/5", HIP_LEMONADE_GFX1151, ("nvidia-smi",)),
    ("https://github.com/cdvetal/TensorGP/issues/5", MAC_TENSORGP, ("/whl/cu", "nvidia-smi")),
    ("https://github.com/genmoai/mochi/issues/74", MAC_MOCHI, ("/whl/cu", "nvidia-smi")),
    (
        "https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/8711",
        A1111_MAC,
        ("/whl/cu", "venv\\Scripts", "rmdir /s /q"),
    ),
    (
        "https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/11389",
        A1111_UBUNTU,
        ("venv\\Scripts", "rmdir /s /q"),
    ),
    (
        "https://github.com/likelovewant/ROCmLibs-for-gfx1103-AMD780M-APU/issues/31",
        OLLAMA_WINDOWS_RYZEN,
        ("nvidia-smi",),
    ),
    (
        "https://github.com/NVIDIA/nvidia-container-toolkit/issues/1011",
        DOCKER_FEDORA,
        ("apt-get install", "Debian/Ubuntu"),
    ),
    (
        "https://github.com/fady-saied/Nvidia-Fedora-Guide/issues/9",
        FEDORA_NVIDIA_SMI,
        ("apt install", "apt-get install"),
    ),
    (
        "https://github.com/bitsandbytes-foundation/bitsandbytes/issues/749",
        BNB_WINDOWS,
        ("LD_LIBRARY_PATH",),
    ),
    (
        "https://github.com/IamCreateAI/Ruyi-Models/issues/31",
        ARC_COMFYUI,
        ("/whl/cu", "nvidia-smi"),
    ),
    (
        "https://github.com/oobabooga/textgen/issues/1931",
        BNB_MAC_TEXTGEN,
        ("LD_LIBRARY_PATH", "/whl/cu"),
    ),
    (
        "https://github.com/gensyn-ai/rl-swarm/issues/341",
        MPS_OOM_SWARM,
        ("nvidia-smi", "PYTORCH_CUDA_ALLOC_CONF"),
    ),
    # cmd.exe's "is not recognized as an internal or external command": Windows, no lspci / dpkg
    ("https://github.com/wookayin/gpustat/issues/74", GPUSTAT_WINDOWS, ("lspci", "dpkg -l")),
]


@pytest.mark.parametrize(("url", "text", "foreign"), FOREIGN)
def test_the_fixes_shown_hold_no_command_foreign_to_the_paste(
    url: str, text: str, foreign: tuple[str, ...]
) -> None:
    findings = triage_text(text + "\n").findings
    assert findings, url
    shown = fixes_text(findings[0])
    assert not [f for f in foreign if f in shown], (url, findings[0].id, shown)


KEEP = [
    # an NVIDIA card's out-of-memory keeps nvidia-smi and its allocator variable
    (
        "https://github.com/ali-vilab/VGen/issues/104",
        CUDA_OOM_4090,
        "memory.out-of-memory",
        ("nvidia-smi", "PYTORCH_CUDA_ALLOC_CONF"),
    ),
    # a Linux web UI gets the Linux way to rebuild its venv
    (
        "https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/11389",
        A1111_UBUNTU,
        "torch.cpu-build-on-gpu-host",
        ("venv/bin/activate",),
    ),
]


@pytest.mark.parametrize(("url", "text", "finding_id", "kept"), KEEP)
def test_a_paste_of_the_vendor_keeps_its_commands(
    url: str, text: str, finding_id: str, kept: tuple[str, ...]
) -> None:
    findings = triage_text(text + "\n").findings
    assert findings and findings[0].id == finding_id, (url, [f.id for f in findings[:3]])
    shown = fixes_text(findings[0])
    assert all(k in shown for k in kept), (url, shown)
