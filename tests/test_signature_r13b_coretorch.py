"""Core PyTorch builds (checks/signatures/torch.toml and the entries it extends): each
common message, verbatim from the thread its row cites, reaches its confirmed cause first, and one of
that cause's fixes names the knob the confirmed fix turned on (the torch build / index, the driver,
the companion's CUDA index)."""

from __future__ import annotations

import pytest

from envdoctor.triage_engine import triage_text

# (thread, message, the finding id first, what one of its fixes names: a command or its summary)
KNOB = [
    (
        "https://github.com/OedoSoldier/chatglm_webui/issues/1",
        '  File "C:\\Users\\Administrator\\AppData\\Local\\Programs\\Python\\Python310\\lib\\site-packages\\torch\\cuda\\__init__.py", line 221, in _lazy_init\n    raise AssertionError("Torch not compiled with CUDA enabled")\nAssertionError: Torch not compiled with CUDA enabled',
        "torch.cpu-build-on-gpu-host",
        "download.pytorch.org/whl/cu",
    ),
    (
        "https://github.com/voicepaw/so-vits-svc-fork/issues/473",
        "Torch not compiled with CUDA enabled (on RTX 3060 6gb card with cuda 12.1 installed)",
        "torch.cpu-build-on-gpu-host",
        "download.pytorch.org/whl/cu",
    ),
    (
        "https://github.com/vladmandic/sdnext/issues/4232",
        'When starting SD.Next I have an error message indicating "GPU stats: Torch not compiled with CUDA enabled", leading to no CUDA acceleration, so only CPU was used.',
        "torch.cpu-build-on-gpu-host",
        "download.pytorch.org/whl/cu",
    ),
    (
        "https://github.com/octimot/StoryToolkitAI/issues/170",
        "Installation process of Windows git version of StoryToolkitAI 0.24.0 reinstalls non-Cuda version of Torch. This makes StoryToolkitAI 0.24 cannot use NVIDIA card even if one is available.\nYou can see the installation of storytookitai removes Torch with CUDA 2.21 cu118 and replaces it with Torch without CUDA version 2.1.2",
        "torch.cpu-build-on-gpu-host",
        "download.pytorch.org/whl/cu",
    ),
    (
        "https://github.com/kyutai-labs/delayed-streams-modeling/issues/131",
        "But when trying to directly use `uvx --with moshi`, the wrong pytorch version is installed. It defaults to the [cpu] version even when having cuda installed.",
        "torch.cpu-build-on-gpu-host",
        "download.pytorch.org/whl/cu",
    ),
    (
        "https://github.com/Eddycrack864/UVR5-UI/issues/31",
        "2025-02-06 11:05:28,056 - INFO - separator - PyTorch Version: 2.4.1+cpu\n2025-02-06 11:05:28,213 - INFO - separator - ONNX Runtime GPU package installed with version: 1.20.1\n2025-02-06 11:05:28,213 - INFO - separator - No hardware acceleration could be configured, running in CPU mode\n| NVIDIA-SMI 566.14                 Driver Version: 566.14         CUDA Version: 12.7     |",
        "torch.cpu-build-on-gpu-host",
        "download.pytorch.org/whl/cu",
    ),
    (
        "https://github.com/guoqincode/Open-AnimateAnyone/issues/114",
        "NVIDIA H100 PCIe with CUDA capability\nsm_90 is not compatible with the current PyTorch installation.\nThe current PyTorch\ninstall supports CUDA capabilities sm_37 sm_50 sm_60 sm_70 sm_75 sm_80 sm_86.",
        "torch.gpu-too-new-for-build",
        "download.pytorch.org/whl/cu",
    ),
    (
        "https://github.com/mistralai/mistral-inference/pull/43",
        "NVIDIA H100 PCIe with CUDA capability sm_90 is not compatible with the current PyTorch installation.\nThe current PyTorch install supports CUDA capabilities sm_37 sm_50 sm_60 sm_70 sm_75 sm_80 sm_86.\nIf you want to use the NVIDIA H100 PCIe GPU with PyTorch, please check the instructions at https://pytorch.org/get-started/locally/",
        "torch.gpu-too-new-for-build",
        "download.pytorch.org/whl/cu",
    ),
    (
        "https://github.com/pytorch/pytorch/issues/90761",
        '/home/schoerob/cuda_stuff/testnev/lib/python3.8/site-packages/torch/cuda/__init__.py:155: UserWarning:\nNVIDIA H100 PCIe with CUDA capability sm_90 is not compatible with the current PyTorch installation.\nThe current PyTorch install supports CUDA capabilities sm_37 sm_50 sm_60 sm_70 sm_75 sm_80 sm_86.\nIf you want to use the NVIDIA H100 PCIe GPU with PyTorch, please check the instructions at https://pytorch.org/get-started/locally/\n\n  warnings.warn(incompatible_device_warn.format(device_name, capability, " ".join(arch_list), device_name))',
        "torch.gpu-too-new-for-build",
        "download.pytorch.org/whl/cu",
    ),
    (
        "https://github.com/IAHispano/Applio/issues/1006",
        "C:\\AI\\APPLIO\\ApplioV3.2.8-bugfix\\env\\lib\\site-packages\\torch\\cuda\\__init__.py:209: UserWarning:\nNVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.\nThe current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_61 sm_70 sm_75 sm_80 sm_86 sm_90.\nIf you want to use the NVIDIA GeForce RTX 5090 GPU with PyTorch, please check the instructions at https://pytorch.org/get-started/locally/",
        "torch.gpu-too-new-for-build",
        "cu128",
    ),
    (
        "https://github.com/pytorch/pytorch/issues/45028",
        "A100-SXM4-40GB with CUDA capability sm_80 is not compatible with the current PyTorch installation.\nThe current PyTorch install supports CUDA capabilities sm_37 sm_50 sm_60 sm_70.\nIf you want to use the A100-SXM4-40GB GPU with PyTorch, please check the instructions at https://pytorch.org/get-started/locally/",
        "torch.gpu-too-new-for-build",
        "download.pytorch.org/whl/cu",
    ),
    (
        "https://github.com/pytorch/pytorch/issues/36315",
        "Found GPU0 GeForce GT 630M which is of cuda capability 2.1.\n    PyTorch no longer supports this GPU because it is too old.\n\n  warnings.warn(old_gpu_warn % (d, name, major, capability[1]))",
        "torch.gpu-too-old-for-build",
        "torch",
    ),
    (
        "https://github.com/nagadomi/nunif/issues/702",
        "RuntimeError: CUDA error: CUDA driver version is insufficient for CUDA runtime version",
        "cuda.toolkit-newer-than-driver",
        "driver",
    ),
    (
        "https://github.com/BobLiu20/YOLOv3_PyTorch/issues/12",
        "RuntimeError: cuda runtime error (35) : CUDA driver version is insufficient for CUDA runtime version at /opt/conda/conda-bld/pytorch_1524586445097/work/aten/src/THC/THCGeneral.cpp:70",
        "cuda.toolkit-newer-than-driver",
        "driver",
    ),
    (
        "https://github.com/open-mmlab/mmskeleton/issues/30",
        "RuntimeError: cuda runtime error (35) : CUDA driver version is insufficient for CUDA runtime version at torch/csrc/cuda/Module.cpp:107",
        "cuda.toolkit-newer-than-driver",
        "driver",
    ),
    (
        "https://github.com/rikdz/GraphWriter/issues/6",
        "The NVIDIA driver on your system is too old (found version 6050).\nPlease update your GPU driver by downloading and installing a new\nversion from the URL: http://www.nvidia.com/Download/index.aspx\nAlternatively, go to: https://pytorch.org to install\na PyTorch version that has been compiled with your version\nof the CUDA driver.",
        "torch.driver-too-old",
        "driver",
    ),
    (
        "https://github.com/pytorch/pytorch/issues/122494",
        "RuntimeError: operator torchvision::nms does not exist",
        "torch.companion-mismatch",
        "torchvision",
    ),
    (
        "https://github.com/vladmandic/sdnext/issues/3531",
        "RuntimeError: operator torchvision::nms does not exist\nPress any key to continue . . .\n(venv) C:\\Users\\jfran\\Documents\\Artificial Intelligence\\automatic>pip show torch\nName: torch\nVersion: 2.4.0+cu121\n(venv) C:\\Users\\jfran\\Documents\\Artificial Intelligence\\automatic>pip show torchvision\nName: torchvision\nVersion: 0.20.1+cu124",
        "torch.companion-mismatch",
        "torchvision",
    ),
    (
        "https://github.com/m-bain/whisperX/issues/320",
        '"RuntimeError: Detected that PyTorch and torchvision were compiled with different CUDA versions. PyTorch has CUDA Version=11.7 and torchvision has CUDA Version=11.8".',
        "torch.companion-mismatch",
        "download.pytorch.org/whl/cu117",
    ),
    (
        "https://github.com/geocine/sd-easy-mode/issues/18",
        "RuntimeError: Detected that PyTorch and torchvision were compiled with different\nCUDA versions. PyTorch has CUDA Version=11.7 and torchvision has CUDA \nVersion=11.8. Please reinstall the torchvision that matches your PyTorch \ninstall.",
        "torch.companion-mismatch",
        "download.pytorch.org/whl/cu117",
    ),
    (
        "https://github.com/Xilinx/Vitis-AI/issues/943",
        "RuntimeError: Couldn't load custom C++ ops.\n**This can happen if your PyTorch and torchvision versions are incompatible.**\npytorch version is: 1.10.1 and torchvision version is: 0.11.2+cu102.",
        "torch.companion-mismatch",
        "torchvision",
    ),
    (
        "https://github.com/ultralytics/yolov5/issues/5511",
        "I had this problem when i upgraded pytorch from version 1.9 to 1.10. The version of torchvision is 0.11.1.(Running detect.py \n v6.0)\n    The full error information is as follows:RuntimeError: Couldn't load custom C++ ops. This can happen if your PyTorch and torchvision versions are incompatible, or if you had errors while compiling torchvision from source. For further information on the compatible versions, check https://github.com/pytorch/vision#installation for the compatibility matrix. Please check your PyTorch version with torch.__version__ and your torchvision version with torchvision.__version__ and verify if they are compatible, and if not please reinstall torchvision so that it matches your PyTorch install.",
        "torch.companion-mismatch",
        "torchvision",
    ),
    (
        "https://github.com/pytorch/torchtitan/pull/3022",
        "Fix ` RuntimeError: operator torchvision::nms does not exist`. \nThe integration_test_8gpu_transformers_modeling_backend.yaml installs only torch (no torchvision), so the old torchvision 0.26.0 stays and is incompatible with the nightly torch.",
        "torch.companion-mismatch",
        "torchvision",
    ),
    (
        "https://github.com/vllm-project/vllm-ascend/pull/479",
        "Set torchvision<0.21.0 to match torch/torch_npu version to resolve `RuntimeError: operator torchvision::nms does not exist`.",
        "torch.companion-mismatch",
        "torchvision",
    ),
    (
        "https://github.com/zylo117/Yet-Another-EfficientDet-Pytorch/issues/696",
        "If the CPU is used, use_cuda=False, then cuda will not be used, and why will it report an error? RuntimeError: No such operator torchvision::nms\ntorch 1.4.0+cu92\ntorchvision 0.5.0",
        "torch.companion-mismatch",
        "torchvision",
    ),
    (
        "https://github.com/pytorch/pytorch/issues/920",
        "**error info:** NVIDIA driver on your system is too old (found version 6000)....\nso what's the pytorch's requirements for NVIDIA driver version, cuda version,and system version?",
        "torch.driver-too-old",
        "driver",
    ),
    (
        "https://github.com/pytorch/pytorch/pull/162531",
        "/opt/conda/envs/py_3.10/lib/python3.10/site-packages/torch/cuda/__init__.py:182: UserWarning: CUDA initialization: The NVIDIA driver on your system is too old (found version 12080). Please update your GPU driver by downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx Alternatively, go to: https://pytorch.org/ to install a PyTorch version that has been compiled with your version of the CUDA driver. (Triggered internally at /var/lib/jenkins/workspace/c10/cuda/CUDAFunctions.cpp:119.)\n  return torch._C._cuda_getDeviceCount() > 0",
        "torch.driver-too-old",
        "driver",
    ),
    (
        "https://github.com/Nerogar/OneTrainer/issues/138",
        "ERROR: Could not find a version that satisfies the requirement torch==2.1.2+cu118 (from versions: 1.11.0, 1.12.0, 1.12.1, 1.13.0, 1.13.1, 2.0.0, 2.0.1, 2.1.0, 2.1.1, 2.1.2)\nERROR: No matching distribution found for torch==2.1.2+cu118",
        "torch.cuda-pin-needs-pytorch-index",
        "--extra-index-url https://download.pytorch.org/whl/cu118",
    ),
    (
        "https://github.com/liucongg/ChatGLM-Finetuning/issues/17",
        "ERROR: Could not find a version that satisfies the requirement torch==1.13.1+cu116 (from versions: 1.11.0, 1.12.0, 1.12.1, 1.13.0, 1.13.1, 2.0.0)\nERROR: No matching distribution found for torch==1.13.1+cu116\n\n使用清华源下载 报错如上",
        "torch.cuda-pin-needs-pytorch-index",
        "--extra-index-url https://download.pytorch.org/whl/cu116",
    ),
    (
        "https://github.com/trungpx/xmdpt/issues/2",
        "ERROR: No matching distribution found for torch==1.12.1+cu116",
        "torch.cuda-pin-needs-pytorch-index",
        "--extra-index-url https://download.pytorch.org/whl/cu116",
    ),
]

# real messages of other causes that the new patterns could wrongly catch
LOOKALIKE = [
    # uv refusing a CPU wheel for the platform: not "the installer picked the CPU build"
    (
        "https://github.com/astral-sh/uv/issues/1497",
        "error: Distribution `torch==2.6.0 @ registry+https://download.pytorch.org/whl/cpu` can't be "
        "installed because it doesn't have a source distribution or wheel for the current platform\n\n"
        "hint: You're on Linux (`manylinux_2_35_x86_64`), but `torch` (v2.6.0) only has wheels for the "
        "following platform: `macosx_11_0_arm64`",
        "torch.cpu-build-on-gpu-host",
    ),
    # pip already searched PyTorch's cu113 index: the Python is too new for torch 1.12.1, not the index
    (
        "https://github.com/OpenTalker/SadTalker/issues/850",
        "pip install torch==1.12.1+cu113 torchvision==0.13.1+cu113 torchaudio==0.12.1 --extra-index-url "
        "https://download.pytorch.org/whl/cu113\nLooking in indexes: https://pypi.org/simple, "
        "https://download.pytorch.org/whl/cu113\n\nERROR: Could not find a version that satisfies the "
        "requirement torch==1.12.1+cu113 (from versions: 1.13.0, 1.13.1, 2.0.0, 2.0.1, 2.1.0, 2.1.1, "
        "2.1.2, 2.2.0, 2.2.1, 2.2.2)\n\nERROR: No matching distribution found for torch==1.12.1+cu113",
        "torch.cuda-pin-needs-pytorch-index",
    ),
    # "from versions: none": no torch wheel at all for this Python (fixed by installing Python 3.9)
    (
        "https://github.com/zeyad-mansour/lunar/issues/293",
        "ERROR: Could not find a version that satisfies the requirement torch==1.11.0+cu113 (from "
        "versions: none)\nERROR: No matching distribution found for torch==1.11.0+cu113",
        "torch.cuda-pin-needs-pytorch-index",
    ),
    # a CI job that wants the CPU-only wheel on purpose
    (
        "https://github.com/fmralign/fmralign/issues/91",
        "Torch is currently loaded with all cuda dependencies.\nThis should do the trick:\n"
        "`pip install torch --index-url https://download.pytorch.org/whl/cpu`",
        "torch.cpu-build-on-gpu-host",
    ),
]


@pytest.mark.parametrize(("url", "text", "finding_id", "knob"), KNOB, ids=[k[0] for k in KNOB])
def test_a_core_torch_message_gets_its_cause_and_the_knob(url, text, finding_id, knob) -> None:
    finding = triage_text(text + "\n").findings[0]
    assert finding.id == finding_id, url
    named = [c for fix in finding.fixes for c in (*fix.commands, fix.summary)]
    assert any(knob in c for c in named), (url, named)


@pytest.mark.parametrize(("url", "text", "not_id"), LOOKALIKE, ids=[k[0] for k in LOOKALIKE])
def test_a_look_alike_is_not_read_as_the_new_cause(url, text, not_id) -> None:
    findings = triage_text(text + "\n").findings
    assert not findings or findings[0].id != not_id, url


def test_the_fixes_name_the_versions_the_messages_state() -> None:
    pin = triage_text("ERROR: No matching distribution found for torch==2.1.2+cu118\n").findings[0]
    assert pin.title == "torch==2.1.2+cu118 is only on PyTorch's index, which pip did not search"
    assert (
        "pip install torch==2.1.2+cu118 --extra-index-url https://download.pytorch.org/whl/cu118"
        in (pin.fixes[0].summary)
    )
    text = (
        "RuntimeError: Detected that PyTorch and torchvision were compiled with different CUDA "
        "versions. PyTorch has CUDA Version=11.7 and torchvision has CUDA Version=11.8. Please "
        "reinstall the torchvision that matches your PyTorch install.\n"
    )
    companion = triage_text(text).findings[0]
    assert "cu117" in companion.title
    assert any("download.pytorch.org/whl/cu117" in c for c in companion.fixes[0].commands)
