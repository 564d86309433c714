"""Round 20 (amdllm): AMD and local-LLM launchers whose cause the start code missed. ZLUDA on
Windows after a HIP SDK / ROCm switch (the stale .zluda cache), an AMD Adrenalin release ZLUDA
does not run on, an AMD Instinct card passed through to a VM (ROCm supports it on bare metal
only), llamafile releases without their prebuilt ggml-cuda library, a manual Ollama upgrade over
the old /usr/lib/ollama, Jan's llama.cpp engine on Windows without the CUDA runtime, and Ollama in
Docker losing the GPU after a while (the systemd cgroup driver). Each verbatim message reaches its
cause first and one of its fixes names the knob the thread's confirmed fix turned; look-alike rows
are real messages of other causes that must not be read as these."""

from __future__ import annotations

import pytest
from triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # Forge for AMD (ZLUDA), 7900 XTX: the guide author: delete the .zluda folder built for the
    # previous HIP SDK; the reporter: "I deleted the zluda folder ... working again with ROCm 6.2.4"
    (
        "Rocm 5.7.1 is the only one that works from the tutorials. Rocm 6.2.4 and 6.2.1 only show blank images. I'm using Forge for AMD with 7900xtx.",
        "rocm.zluda-hip-sdk-mismatch",
        ".zluda",
        "https://github.com/CS1o/Stable-Diffusion-Info/issues/21",
    ),
    # Instinct MI60 passed through under ESXi 8: an AMD engineer: the virtualization use case was
    # never supported for MI50/MI60 (bare metal only); the reporter accepted it
    (
        "I have a Dell R7515 32 core AMD EPYC rackmount server.  I recently bought a second hand MI60 GPU to get some experience with AMD DC GPUs (It's my first AMD GPU).  \nThe Dell is running  VMware ESXi, 8.0.3, 24022510 as my hypervisor, and I've tried Ubuntu 22.04 and 24.04 guest VMs.  Unfortunately the card fails to initialize under a VM.  I have also tried it on bare metal Ubuntu 22.04 (same iso) on the same machine and works fine.\n\n[VM settings]\nReserved 32gb ram\npciPassthru.use64bitMMIO set to TRUE\npciPassthru.64bitMMIOSizeGB = 128,\nsecureboot = false\n\nI have tried doing PCI Passthrough with both Dymanic DirectPathIO and regular Directpath IO.",
        "rocm.gpu-virtualization-unsupported",
        "bare metal",
        "https://github.com/ROCm/legacy-rocm-build/issues/4017",
    ),
    # llamafile v0.10.1 on Windows 11: a maintainer: 0.10 no longer bundles the Windows CUDA
    # library; the reporter: "The C:\Users\[YOURNAME]\ggml-cuda.dll file works perfectly!"
    (
        "I'm using Windows 11 and llamafile, but it can't detect my graphics card.\n\n### Version\n\nllamafile v0.10.1\n\n### What operating system are you seeing the problem on?\n\nWindows\n\n### Relevant log output\n\n```shell\nwarning: no usable GPU found, --gpu-layers option will be ignored\nwarning: one possible reason is that llama.cpp was compiled without GPU support\nwarning: consult docs/build.md for compilation instructions",
        "app.llamafile.gpu-backend-not-bundled",
        "ggml-cuda.dll",
        "https://github.com/mozilla-ai/llamafile/issues/957",
    ),
    # llamafile 0.5 on Linux, RTX 3090: jart pointed to 0.6; the reporter: "On the 3090 it works
    # fine with version 0.6 (it was failing with 0.5)"
    (
        "I'm trying to use llamafile 0.5 on a Nvidia GPU using this command\n`./bin/llamafile --port 13333 -m mistral-7b-instruct-v0.1.Q4_K_M.gguf -c 512 -b 256 --log-disable --nobrowser -ngl 1`\n\nand I get the following error:\n```\ninitializing gpu module...\nnote: won't compile AMD GPU support because $HIP_PATH/bin/clang++ is missing\nprebuilt binary /zip/ggml-rocm.so not found\nprebuilt binary /zip/ggml-cuda.so not found\n...\n[1704796943] warming up the model with an empty run\nSegmentation fault (core dumped)\n```\n\nIt seems that the `ggml-cuda.so` is not included in the released llamafile, only the `ggml-cuda.dll`.",
        "app.llamafile.gpu-backend-not-bundled",
        "0.6",
        "https://github.com/mozilla-ai/llamafile/issues/185",
    ),
    # Ollama 0.5.4 on Linux: the reporter had not removed the old libraries before upgrading
    # ("forget remove lib"); Ollama's Linux docs: sudo rm -rf /usr/lib/ollama before upgrading
    (
        "0.5.4\nError: llama runner process has terminated: error:/usr/lib/ollama/runners/cuda_v12_avx/ollama_llama_server: undefined symbol: ggml_backend_cuda_reg.\n\nSame for 0.5.1 is running normally.",
        "app.ollama.stale-libs-after-manual-upgrade",
        "rm -rf /usr/lib/ollama",
        "https://github.com/ollama/ollama/issues/8149",
    ),
    # Jan 0.4.3 on Windows 10 with a 970 and a 3090, CPU mode: a Jan team member: users must
    # install CUDA themselves; another user confirmed installing the CUDA toolkit made it work
    (
        "I have a 970 and a 3090 installed on my system, but Jan decides to use CPU mode.\n\n**Environment details**\n- Operating System: windows 10\n- Jan Version: 0.4.3\n- Processor: amd 3900x\n- RAM: 96gb\n- 970 4gb, 3090 24gb",
        "app.llamacpp.cuda-runtime-missing",
        "CUDA toolkit",
        "https://github.com/janhq/jan/issues/1350",
    ),
    # Jan 0.6.4 on Windows hangs at 'loading model': a Jan team member: missing CUDA runtime
    # files of the llama.cpp CUDA 11 backend; fixed with the CUDA 11.7 runtime from the release
    pytest.param(
        " Using the Jan nano or Qwen3 0.6b, Jan just hangs with the message 'loading model'.\n\n## Steps to Reproduce\n1. I updated Jan to v0.6.4\n2. I restarted Windows (was advised to do this last timeI checked hardware in settings - Jan was recognising my GPU\n3. I set the model to be Jan-Nano-128k-Gguf\n4. I started a new chat, and Jan just hung exactly as it did in the first bug report\n\n## Operating System\n- [ ] MacOS\n- [x] Windows\n- [ ] Linux",
        "app.llamacpp.cuda-runtime-missing",
        "cudart",
        "https://github.com/janhq/jan/issues/5709",
        marks=pytest.mark.xfail(
            strict=True,
            reason="the OS is a checkbox list naming MacOS, Windows and Linux: the reader does not "
            "take the ticked box as the OS, and the Jan entry needs Windows",
        ),
    ),
    # ComfyUI-ZLUDA: the guide author: Adrenalin 25.5.1 is incompatible with ZLUDA, use 25.4.1;
    # the reporter: "Thanks, that fixed it!"
    pytest.param(
        "I got this error after following the install Guide for ComfyUI on AMD. It shows up every time i try to start the Start-ComfyUI.bat.",
        "rocm.zluda-driver-incompatible",
        "25.4.1",
        "https://github.com/CS1o/Stable-Diffusion-Info/issues/35",
        marks=pytest.mark.xfail(
            strict=True,
            reason="the post names neither the error, ZLUDA nor the driver: only the title says "
            "'CUDA unknown error'; nothing in the text points to the Adrenalin release",
        ),
    ),
    # Ollama in Docker, RTX 4090, GPU lost after idle: dhiltgen's PR #7519: exec-opts
    # native.cgroupdriver=cgroupfs in /etc/docker/daemon.json; a user confirmed it
    pytest.param(
        "### What is the issue?\n\n~$ nvidia-smi \nFri May 24 09:41:47 2024       \n+---------------------------------------------------------------------------------------+\n| NVIDIA-SMI 535.171.04             Driver Version: 535.171.04   CUDA Version: 12.2     |",
        "container.nvml-unknown-error-cgroup",
        "native.cgroupdriver=cgroupfs",
        "https://github.com/ollama/ollama/issues/4604",
        marks=pytest.mark.xfail(
            strict=True,
            reason="the post is a healthy nvidia-smi table: Docker and the GPU lost after idle "
            "are only in the title",
        ),
    ),
]

# (message verbatim from a thread of another cause, the cause it must not be read as, thread)
LOOKALIKE = [
    # torchaudio 2.0.1 beside torch 2.1.1: reinstalled together (pip install -U torch torchaudio)
    (
        "OSError: /opt/conda/lib/python3.10/site-packages/torchaudio/lib/libtorchaudio.so: undefined symbol: _ZNK5torch8autograd4Node4nameB5cxx11Ev",
        "app.ollama.stale-libs-after-manual-upgrade",
        "https://github.com/coqui-ai/TTS/issues/3313",
    ),
    # ROCm under WSL2: an AMD engineer: the amdgpu driver is not loaded there, install on bare metal
    (
        "Running` /opt/rocm-5.2.3/bin/rocminfo` I get:\n\n`ROCk module is NOT loaded, possibly no GPU devices`\n\nNoting I am using Ubuntu 20.4 on WSL2. \n\nAs far as I am concerned, ROCm should support RDNA GPUs like the RX 6700s series, is that correct?",
        "rocm.gpu-virtualization-unsupported",
        "https://github.com/ROCm/legacy-rocm-build/issues/1794",
    ),
    # Fooocus on an AMD Windows machine: launched with --directml, which fixed it
    (
        "Hi the problem I am having is that after looking into the problem I believe has to do with the AMD on windows, that's what I have and after looking into it found that was a problem that might occur I was unable to find a solution to it though and when I look at the console I see that it should work from this code I found on a previous commit. The only thing I get coming up when I hit generate is error at the moment with no more information.",
        "rocm.zluda-hip-sdk-mismatch",
        "https://github.com/lllyasviel/Fooocus/issues/1502",
    ),
    # mmdetection's roi_align extension built against another torch: rebuilt it
    (
        "ImportError: /home/wangshuainan/mmdetection/mmdet/ops/roi_align/roi_align_cuda.cpython-36m-x86_64-linux-gnu.so: undefined symbol: _ZN2at5ErrorC1ENS_14SourceLocationESs",
        "app.ollama.stale-libs-after-manual-upgrade",
        "https://github.com/open-mmlab/mmdetection/issues/48",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_this_cause = lookalike_test(LOOKALIKE)
