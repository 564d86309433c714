"""Round 19 sweep (gpuold4): GPUs too old or too new for the build (PyTorch, TensorFlow, ONNX
Runtime, PyG extensions): Kepler/Maxwell/Pascal cards on wheels that dropped their kernels, and
Ampere cards on CUDA 10 wheels. Each KNOB row is text pasted verbatim in the thread it cites (the
opening post, or the comment that holds the error): it reaches the confirmed cause first, and that
cause's fixes name the knob the confirmed fix turned on. LOOKALIKE rows are real messages of other
causes the new phrasings must not read as theirs."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

# (message, the finding id first, a knob its fixes name, the thread)
KNOB = [
    # the maintainer: use the cuda-11-1 branch (a CUDA 11.1 torch); the reporter: "haven't
    # encountered any issues using this version"
    (
        "This error appears on my A6000 GPU running the software; I've already reinstalled CUDA and"
        " Torch to the appropriate versions.\n\n"
        "`UserWarning: NVIDIA RTX A6000 with CUDA capability sm_86 is not compatible with the"
        " current PyTorch installation. The current PyTorch install supports CUDA capabilities sm_37"
        " sm_50 sm_60 sm_61 sm_70 sm_75 compute_37.`",
        "torch.gpu-too-new-for-build",
        "CUDA 11",
        "https://github.com/voice-cloning-app/Voice-Cloning-App/issues/60",
    ),
    # the merged fix (the maintainer's own PR): cap torch below 2.4 from the CUDA 11.8 index
    # (cu118) so a GTX 1080 gets sm_61 kernels
    (
        "## Error that was happening:\n"
        "```\n"
        "NVIDIA GeForce GTX 1080 with CUDA capability sm_61 is not compatible with the current"
        " PyTorch installation.\n"
        "The current PyTorch install supports CUDA capabilities sm_70 sm_75 sm_80 sm_86 sm_90"
        " sm_100 sm_120.\n"
        "```",
        "torch.gpu-too-old-for-build",
        "cu118",
        "https://github.com/Aaronontheweb/witticism/pull/10",
    ),
    # the maintainer: prebuilt ONNX Runtime binaries don't support Pascal; compile ONNX Runtime
    # from source (for the P40's sm_61)
    (
        "环境: \n"
        "GPU: NVIDIA P40\n"
        "cuda: 12.6\n"
        "执行: examples/cudarc\n\n"
        "报error:\n"
        "2026-05-30T14:18:02.088066Z ERROR ort::logging: Non-zero status code returned while running"
        " Clip node. Name:'Clip_3' Status Message: CUDA error cudaErrorNoKernelImageForDevice:no"
        " kernel image is available for execution on the device",
        "onnxruntime.gpu-arch-not-built",
        "source",
        "https://github.com/pykeio/ort/issues/589",
    ),
    # the commenter (same card, CC 5.0): TensorFlow 2.1.1 works where 2.3.0 does not; the TF 2.3
    # release notes: PTX only for compute capability 7.0
    (
        "This issue is still there for me with the latest Tensorflow version (2.3.0). The error that"
        " I'm getting is almost identical to the error message given in this issue.\n\n"
        "I tried the following cases (All with official python release with `virtualenv` and"
        " `pip`)\n\n"
        "Python 3.8.5, Tensorflow 2.3.0 - Not working\n"
        "Python 3.7.8, Tensorflow 2.3.0 - Not working\n"
        "Python 3.7.8, Tensorflow 2.1.1 - **Working**\n\n"
        "My GPU: NVidia GTX 950M, CC: 5.0\n"
        "CUDA Toolkit 10.1 CUDNN 7.6.0\n"
        "OS: Windows 10 Home, the latest update",
        "tensorflow.gpu-too-old-for-build",
        "2.2",
        "https://github.com/tensorflow/tensorflow/issues/42052",
    ),
    # the maintainer (sanjoy) confirmed: TF 2.3 ships PTX only for compute capability 7.0
    (
        'Just wanted to mention that we get the same "_no kernel image is available for execution on'
        ' the device_" error with TensorFlow 2.3.0 on our NVidia 940MX cards (which are also compute'
        " capability 5.0, similar to author's 960M) in both precompiled python and c_api libraries."
        " However, the same code is running fine on NVidia 1080Ti (compute capability 6.1) and"
        " 2080Ti (compute capability 7.5) cards.",
        "tensorflow.gpu-too-old-for-build",
        "2.2",
        "https://github.com/tensorflow/tensorflow/issues/42467",
    ),
    # the reporter: downgraded to PyTorch 1.2 (K40m, CC 3.5); the maintainer: older extension
    # wheels (torch-scatter==1.4.0 ...) for old compute capabilities
    (
        "Version 1.3 no longer supporting Tesla K40m？ K40m has a compute capability of 3.5, which I"
        " believe we have dropped support of (https://developer.nvidia.com/cuda-gpus#compute). PyG"
        " needs pytorch 1.4 version. DOWNGRADED pytorch 1.2 version will be OK",
        "torch.gpu-too-old-for-build",
        "1.2",
        "https://github.com/pyg-team/pytorch_geometric/issues/1106",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


# (message of another cause, the cause it must not rank first, the thread)
LOOKALIKE = [
    (
        # an RTX 5060 Ti (sm_120) is too new for the image's torch, not too old
        "Got the following error after changing to a new GPU (GeForce RTX 5060 Ti):\n\n"
        "```\n"
        "!! Exception during processing !!! CUDA error: no kernel image is available for execution"
        " on the device\n"
        "CUDA kernel errors might be asynchronously reported at some other API call, so the"
        " stacktrace below might be incorrect.\n"
        "For debugging consider passing CUDA_LAUNCH_BLOCKING=1\n"
        "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n"
        "```",
        "torch.gpu-too-old-for-build",
        "https://github.com/sinfallas/comfy-ui-docker/issues/1",
    ),
    (
        # an RTX 5060 Ti again: the new card, not an old one
        "RTX 5060 TI to be supported\n\n"
        "### Actual Behavior\n\n"
        "CUDA error: no kernel image is available for execution on the device",
        "torch.gpu-too-old-for-build",
        "https://github.com/Comfy-Org/ComfyUI/issues/7677",
    ),
    (
        # a CUDA 12.4 driver question about image tags: not a card too old for the build
        "Which version/tag is compatible with cuda 12.4? thanks.",
        "torch.gpu-too-old-for-build",
        "https://github.com/lecode-official/comfyui-docker/issues/37",
    ),
]


test_lookalike_not_caught = lookalike_test(LOOKALIKE, may_be_empty=True)
