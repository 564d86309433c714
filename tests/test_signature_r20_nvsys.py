"""NVIDIA system-level causes, round 20 (nvsys): NCCL's NVLS set-up failing after a Fabric Manager
restart without a GPU reset, a source-built PyTorch extension compiled without the GPU's
architecture (the embedded PTX then fails), a prebuilt mmcv-full wheel for another torch/CUDA pair,
a Jetson tool (jetson-stats) or a jetson-containers CUDA that the JetPack/L4T release does not
support, and a GPU that Windows disabled in Device Manager. Each verbatim message reaches its cause
first and one of its fixes names the knob the thread's confirmed fix turned; look-alike rows are
real messages of other causes (P2P hangs, an nvcc too old for the GPU, an extension ABI mismatch,
a plain CUDA program built without the GPU's arch) that must not be read as these."""

from __future__ import annotations

import pytest
from triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # 8x H200, nccl-tests: an NCCL developer: FM stopped/restarted without a GPU reset; the
    # reporter: "Fabric manager was indeed showing a 'non critical error'. We finally got around
    # to reset GM/GPU."
    (
        "1. HW:  \n    - CPU: 2x XEON(R) PLATINUM 8558\n    - GPU: 8x H200 (Driver: 550.90.07) \n    - IB: NDR 400 Gbs (MT4129)\n    - Fabric: MLNX_OFED_LINUX-23.10-0.5.5.0     \n\n2. SW: \n    - OS: CentOS 7.9.2009 \n    - CUDA: 12.3 \n    - MPI: HPC-X 2.18.1 \n    - NCCL:  v2.23.4\n\ngpu47:4962:5097 [1] transport/nvls.cc:223 NCCL WARN Cuda failure 999 'unknown error",
        "nvidia.fabric-manager-restart-needs-gpu-reset",
        "nvidia-smi -r",
        "https://github.com/NVIDIA/nccl-tests/issues/276",
    ),
    # H100, NCCL 2.18: the NCCL maintainer: "usually due to nv-fabricmanager having been manually
    # restarted while processes were still holding resources on the GPU. Rebooting the node is
    # usually the easiest solution"
    (
        "NCCL version 2.18.5+cuda12.2\n...\ntransport/nvls.cc:165 NCCL WARN Cuda failure 'invalid argument'\nNCCL INFO transport/nvls.cc:324 -> 1\nNCCL INFO init.cc:1093 -> 1\nNCCL INFO init.cc:1358 -> 1\nNCCL INFO init.cc:1598 -> 1",
        "nvidia.fabric-manager-restart-needs-gpu-reset",
        "nvidia-fabricmanager",
        "https://github.com/NVIDIA/nccl/issues/976",
    ),
    # pointnet2_ops on an RTX A5000: the reporter: 'I added "8.6" in the TORCH_CUDA_ARCH_LIST ...
    # and it solved the issue.'
    (
        "```CUDA error: the provided PTX was compiled with an unsupported toolchain.```\n\nThis error only happens when I import as ```from pointnet2_ops import pointnet2_utils``` (commenting it has no error). And the error also only happens when I use Nvidia Ampere arc, specifically, Nvidia A5000. Here is my other setting:\n1. Python: ver 3.9\n2. Pytorch: ver 1.9, with cuda 11.1\n3. Cuda driver in my Ubuntu machine: 11.3",
        "torch.extension-arch-not-built",
        'TORCH_CUDA_ARCH_LIST="8.6"',
        "https://github.com/ma-xu/pointMLP-pytorch/issues/89",
    ),
    # mmdet 2.28.1 with an mmcv-full 1.7.2 wheel: the reporter's follow-up: took the cu117/torch1.13.0
    # mmcv_full-1.7.2 wheel and the error went away
    (
        "I am getting RuntimeError: no kernel image is available for execution on this device. below if my config\n\npython- 3.8\nmmcv- 1.7.2(wheel file isntallation)\nmmdet-2.28.1\ntorch==2.1.0\ntorchvision=0.16.0\nCUDA-12.1\n\nthe error starts from mmdet/api/inference.py(line 157) then it goes to mmcv/ops/nms.py(line 350)",
        "mmcv.prebuilt-wheel-mismatch",
        "cu117",
        "https://github.com/open-mmlab/mmdetection/issues/11412",
    ),
    # jetson-stats 4.2.6 on L4T 35.5.0: the maintainer: "Fixed with the new release. Please update
    # to **4.2.9**"
    (
        "Please update jetson-stats with new jetpack\n\n### Linux for Tegra\n\n - L4T: 35.5.0\n\n### Jetson-Stats\n\n - Version: 4.2.6",
        "jetson.jtop-l4t-unsupported",
        "pip3 install -U jetson-stats",
        "https://github.com/rbonghi/jetson_stats/issues/568",
    ),
    # jetson-containers cuda:12.2 on JetPack 5: dusty-nv: CUDA 12.2 is not available on JetPack 5;
    # the reporter: "It explains everything, I guess. I am using Jetpack 5."
    (
        "jetson-containers build --build-flags=--no-cache --name=cu122 cuda:12.2\n\nEDIT: Now I can not install anything, each command gives me:\n\n`\npython3.8\nLooking in indexes: http://jetson.webredirect.org/jp5/cu122\nERROR: Could not find a version that satisfies the requirement pip (from versions: none)\nERROR: No matching distribution found for pip",
        "jetson.jetpack-too-old",
        "JetPack 6",
        "https://github.com/dusty-nv/jetson-containers/issues/600",
    ),
    # Fooocus, GTX 1060: the reporter: "My PC simply shut down my gpu due to some error just
    # needed to reactivate in the device manager."
    pytest.param(
        "Whenever i run any of the launcher it starts as normal but as soons as is start generating i get a runtime error: no cuda gp available. My gpu in this setup is a 1060 6gb",
        "windows.gpu-disabled-in-device-manager",
        "Device Manager",
        "https://github.com/lllyasviel/Fooocus/issues/1189",
        marks=pytest.mark.xfail(
            strict=True,
            reason="the paste says only that no CUDA GPU is available: nothing in it points to a "
            "device Windows disabled over a missing driver or a CPU-only torch",
        ),
    ),
]

# (message verbatim from a thread of another cause, the cause it must not be read as, thread)
LOOKALIKE = [
    # PCIe P2P through PXB/PIX hangs: NCCL_P2P_DISABLE=1 worked around it (ACS)
    (
        "\tGPU0\tGPU1\tGPU2\tGPU3\tCPU Affinity\tNUMA Affinity\nGPU0\t X \tPXB\tSYS\tSYS\t0-27,56-83\t0\nGPU1\tPXB\t X \tSYS\tSYS\t0-27,56-83\t0\nGPU2\tSYS\tSYS\t X \tPIX\t28-55,84-111\t1\nGPU3\tSYS\tSYS\tPIX\t X \t28-55,84-111\t1\n\nThe topology is as above.\n\nall_reduce_perf works fine only with those linked through SYS. The rest will result in hanging.\n\nSetting NCCL_P2P_DISABLE=1 did workaround but got really low speed.\n\nNCCL version 2.10.X",
        "nvidia.fabric-manager-restart-needs-gpu-reset",
        "https://github.com/NVIDIA/nccl/issues/667",
    ),
    # detectron2 built with CUDA 9.2 for an RTX 2060: nvcc too old for compute_75
    (
        "Thanks for your sharing,but when I install it on my compute ,I meet the error:\"Unsupported gpu architecture 'compute_75'\".\n\n## Environment\n\nRTX2060\nCUDA9.2\n\npython3.6.2\ntorch1.3.0",
        "torch.extension-arch-not-built",
        "https://github.com/facebookresearch/detectron2/issues/272",
    ),
    # mmdet's roi_align built against another torch: an ABI mismatch, not a wheel for another CUDA
    (
        "ImportError: /home/wangshuainan/mmdetection/mmdet/ops/roi_align/roi_align_cuda.cpython-36m-x86_64-linux-gnu.so: undefined symbol: _ZN2at5ErrorC1ENS_14SourceLocationESs",
        "mmcv.prebuilt-wheel-mismatch",
        "https://github.com/open-mmlab/mmdetection/issues/48",
    ),
    # tensorRT_Pro: a plain CUDA program built without the GPU's -gencode, not a torch extension
    (
        "[error][simple_yolo.cu:556]:launch failed: no kernel image is available for execution on the device\n[error][simple_yolo.cu:450]:launch failed: no kernel image is available for execution on the device",
        "torch.extension-arch-not-built",
        "https://github.com/shouxieai/tensorRT_Pro/issues/162",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_this_cause = lookalike_test(LOOKALIKE)
