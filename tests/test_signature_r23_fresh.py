"""Round 23's changes from the development samples (tests/triage_corpus/train/): reports whose
cause envdoctor lacked or misread, verbatim from their threads. A report reaches its confirmed
cause first with a fix naming the knob the confirmed fix turned; look-alikes stay clear."""

from __future__ import annotations

from envdoctor.triage_engine import triage_text
from tests.triage_lines import source_knob_test, source_lookalike_test, training_case_test

# (thread, text, finding id, knob)
ROWS = [
    # Paddle's dynamic loader cannot open the unversioned libnccl.so: NCCL is not installed
    (
        "https://github.com/PaddlePaddle/PaddleOCR/issues/256",
        "训练的时候出现以下错误\nError: Failed to find dynamic library: libnccl.so ( libnccl.so: "
        "cannot open shared object file: No such file or directory )",
        "nccl.library-not-installed",
        "libnccl-dev",
    ),
    # the versioned soname that the libnccl2 package holds, as a loader error
    (
        "https://docs.nvidia.com/deeplearning/nccl/install-guide/index.html",
        "OSError: libnccl.so.2: cannot open shared object file: No such file or directory",
        "nccl.library-not-installed",
        "libnccl2",
    ),
    # an AMD user told by ComfyUI's CUDA torch that no NVIDIA driver is installed, in words; the
    # Intel CPU named beside the Radeon is not "only Intel graphics"
    (
        "https://github.com/Stability-AI/StableSwarmUI/issues/260",
        "Although I pick the AMD option during install, StableSwarm will install CUDA-libraries and "
        "once everything is installed I end up with a ComfyUI message telling me I don't have "
        "Nvidia drivers installed.\nRunning Ubuntu 22.04 with ROCm 5.7 on a Radeon RX6800XT and an "
        "Intel I7-12700k.",
        "rocm.cuda-torch-on-amd",
        "rocm",
    ),
    # training fills a 4 GB card, told in words: the batch size is the knob
    (
        "https://github.com/RVC-Project/Retrieval-based-Voice-Conversion-WebUI/issues/494",
        "I'm having trouble training my model. I always have the same error saying that Cuda used "
        "all my GPU's memory.\nmy gpu has 4 go of dedicated memory (idek if it's close to what's "
        "required here) and it has 7.7 go of shared memory",
        "memory.workload-does-not-fit",
        "batch size",
    ),
]

ROWS += [
    # an RTX 50 card, a 575 install, a black screen at boot: Blackwell needs the open module
    (
        "https://github.com/devleonardoamaral/debian-nvidia-installer/issues/44",
        "I ran the installer with driver version 575. Everything went smooth. On reboot, I get "
        "stuck on a black screen with a cursor right after selecting OS to boot in GRUB.\n"
        "Use the script to install v575 on Debian 13 with RTX 5060\n- GPU: RTX 5060 8GB OC",
        "nvidia.gpu-requires-open-module",
        "nvidia-open",
    ),
    # k3s: the GPU is visible in the pod only once the nvidia.com/gpu limit is removed
    (
        "https://github.com/k3s-io/k3s/issues/12802",
        "It works, GPU is visible in pods, but only when I remove:\n```\n    resources:\n"
        "      limits:\n        nvidia.com/gpu: 1\n```\nk3s: `k3s version v1.33.3+k3s1`",
        "k8s.insufficient-gpus",
        "device plugin",
    ),
    # Smart App Control told in words
    (
        "https://github.com/qualcomm/GenieX/issues/1398",
        "Windows Smart App control has begun blocking one of genie's dll files",
        "windows.app-control-blocks-dll",
        "Smart App Control",
    ),
    # Triton's cuda_utils on Windows
    (
        "https://github.com/pinokiofactory/wan/issues/15",
        "ImportError: DLL load failed while importing cuda_utils: The specified module could not "
        "be found.",
        "torch.triton-missing",
        "triton-windows",
    ),
    # clinfo finds no platform after intel-opencl-icd was installed
    (
        "https://github.com/intel/compute-runtime/issues/350",
        "On my laptop UHD 630 with ubuntu 20.04\nAfter installing intel-opencl-icd I got\n"
        "$ clinfo\nNumber of platforms                               0",
        "intel.render-node-permission",
        "render",
    ),
    # a Jetson slower than the project's benchmark
    (
        "https://github.com/enazoe/yolo-tensorrt/issues/164",
        "The inference time I tested is longer than the time you mentioned in your benchmark.\n"
        "My environment:\nJetson XAVIER NX\nTensorRT7.1.3",
        "jetson.power-mode-limited",
        "nvpmodel",
    ),
    # oneDNN's "could not create an engine" on an Arc B580 beside an iGPU
    (
        "https://github.com/pytorch/pytorch/issues/143914",
        "RuntimeError: could not create an engine\nThe code is running fine if I set the device "
        "to 'cpu'. But when I set it to 'xpu', I got the above error.\nGPU: Intel ARC B580",
        "intel.multi-gpu-device-selection",
        "ONEAPI_DEVICE_SELECTOR",
    ),
    # uv's resolver (in pixi) on a +cu121 pin: PyTorch's index, declared in pyproject.toml
    (
        "https://github.com/prefix-dev/pixi/issues/2398",
        "failed to resolve pypi dependencies\n  Because there is no version of torch==2.5.1+cu121 "
        "and you require torch==2.5.1+cu121, we can conclude that your requirements are "
        "unsatisfiable.\n[tool.pixi.pypi-dependencies]",
        "torch.cuda-pin-needs-pytorch-index",
        "extra-index-urls",
    ),
    # CUDA_VISIBLE_DEVICES set in the code, "the program still run in [0,1]"
    (
        "https://github.com/NVIDIA/DALI/issues/2014",
        "In my code, I write `os.environ['CUDA_VISIBLE_DEVICES']=\"3,4\"`, but the program still "
        "run in [0,1].",
        "cuda.visible-devices-renumbered",
        "CUDA_VISIBLE_DEVICES=",
    ),
    # "安装了CPU和GPU两个版本" of Paddle
    (
        "https://github.com/PaddlePaddle/Paddle/issues/55409",
        "服务器上安装了CPU和GPU两个版本，但似乎是默认使用CPU版本。\nprint(paddle.device.get_device())\n--> cpu",
        "paddle.cpu-package-installed",
        "paddlepaddle-gpu",
    ),
]

test_fresh_reports_reach_their_cause = source_knob_test(ROWS)

# (thread, text, finding id that must not be in the findings)
LOOKALIKES = [
    # no NVIDIA drivers installed is not "no NVIDIA GPU": the Intel-graphics entry stays out
    (
        "https://github.com/Stability-AI/StableSwarmUI/issues/260",
        "once everything is installed I end up with a ComfyUI message telling me I don't have "
        "Nvidia drivers installed. Running Ubuntu 22.04 on a Radeon RX6800XT and an Intel "
        "I7-12700k.",
        "nvidia.no-driver-bound",
    ),
    # a large card's memory used up by a model is not a small card (no "N GB" of 1-8)
    (
        "https://huggingface.co/docs/transformers/main/en/perf_train_gpu_one",
        "The training used all of my GPU memory on the 24 GB card after the first epoch.",
        "memory.workload-does-not-fit",
    ),
]

LOOKALIKES += [
    # a black screen on an RTX 40 card is not Blackwell's open-module requirement
    (
        "https://github.com/devleonardoamaral/debian-nvidia-installer/issues/44",
        "I ran the installer with driver version 575. On reboot, I get stuck on a black screen "
        "with a cursor. GPU: RTX 4060",
        "nvidia.gpu-requires-open-module",
    ),
    # the open module already installed: another cause
    (
        "https://github.com/devleonardoamaral/debian-nvidia-installer/issues/44",
        "I installed nvidia-open 575 on Debian 13 with an RTX 5060 and get stuck on a black screen",
        "nvidia.gpu-requires-open-module",
    ),
    # a Jetson already in MAXN with jetson_clocks: not the power mode
    (
        "https://github.com/enazoe/yolo-tensorrt/issues/164",
        "The inference time is longer than your benchmark on my Jetson Xavier NX, already in MAXN "
        "with jetson_clocks on",
        "jetson.power-mode-limited",
    ),
    # clinfo without platforms on an AMD machine is not Intel's render group
    (
        "https://github.com/intel/compute-runtime/issues/350",
        "$ clinfo\nNumber of platforms                               0\nRadeon RX 6600 with ROCm",
        "intel.render-node-permission",
    ),
]

test_lookalikes_stay_clear = source_lookalike_test(LOOKALIKES, may_be_empty=True)

# the development sample's cases as the corpus scores them (their own thread out of the case base):
# (training case, finding id, knob, thread)
CASES = [
    (
        "zh-4210-paddleocr-libnccl-not-found.txt",
        "nccl.library-not-installed",
        "libnccl",
        "https://github.com/PaddlePaddle/PaddleOCR/issues/256",
    ),
    (
        "en-4014-stableswarmui-amd-installs-cuda-torch.txt",
        "rocm.cuda-torch-on-amd",
        "rocm",
        "https://github.com/Stability-AI/StableSwarmUI/issues/260",
    ),
    (
        "en-4019-rvc-webui-train-oom-4gb-shared-memory.txt",
        "memory.workload-does-not-fit",
        "batch size",
        "https://github.com/RVC-Project/Retrieval-based-Voice-Conversion-WebUI/issues/494",
    ),
]

CASES += [
    (name, finding, knob, source)
    for name, finding, knob, source in [
        (
            "en-5004-debian-rtx5060-needs-open-module.txt",
            "nvidia.gpu-requires-open-module",
            "nvidia-open",
            "https://github.com/devleonardoamaral/debian-nvidia-installer/issues/44",
        ),
        (
            "en-5101-k3s-nvidia-gpu-resource-not-visible.txt",
            "k8s.insufficient-gpus",
            "device plugin",
            "https://github.com/k3s-io/k3s/issues/12802",
        ),
        (
            "en-5204-yolo-trt-xavier-nx-power-mode.txt",
            "jetson.power-mode-limited",
            "nvpmodel",
            "https://github.com/enazoe/yolo-tensorrt/issues/164",
        ),
        (
            "en-5207-geniex-smart-app-control-dll.txt",
            "windows.app-control-blocks-dll",
            "Smart App Control",
            "https://github.com/qualcomm/GenieX/issues/1398",
        ),
        (
            "en-5209-compute-runtime-clinfo-render-group.txt",
            "intel.render-node-permission",
            "render",
            "https://github.com/intel/compute-runtime/issues/350",
        ),
        (
            "en-5300-wan-cuda-utils-dll-triton-windows.txt",
            "torch.triton-missing",
            "triton-windows",
            "https://github.com/pinokiofactory/wan/issues/15",
        ),
        (
            "en-5405-pixi-torch-cu121-pin-no-index.txt",
            "torch.cuda-pin-needs-pytorch-index",
            "download.pytorch.org/whl/cu121",
            "https://github.com/prefix-dev/pixi/issues/2398",
        ),
    ]
]

test_development_cases_reach_their_cause = training_case_test(CASES, keywords=True)


VC_RUNTIME_ENTRY = "signature:windows.dll.vc-runtime-dll-missing-prose"


def test_vc_runtime_entry_stays_out_when_the_runtime_is_there() -> None:
    """The reporter already has the Visual C++ runtime (msvcp140 present in System32, the
    redistributable installed to no avail: tensorflow#10033, whose fix was cuDNN's folder on PATH):
    the missing-runtime entry does not apply; it still does to a plain report of the DLL missing."""
    present = (
        "Someone in the linked issue suggested that this was caused by a missing MSVCP140.DLL, but "
        "this file is present in both my System32 and SysWOW64 folders (I have seen both "
        "mentioned). I have also installed the suggested Visual C++ Redistributable Update 3 with "
        "no luck."
    )
    missing = "it complained about VCRUNTIME140_1.dll not being available on my computer."
    assert VC_RUNTIME_ENTRY not in [f.origin for f in triage_text(present).findings]
    assert VC_RUNTIME_ENTRY in [f.origin for f in triage_text(missing).findings]
