"""Jetson / aarch64 and AMD ROCm, round 17 sweep (checks/signatures/{extensions,jetson,amd_rocm,torch}.toml): each
message, verbatim from a thread whose fix was confirmed, reaches its cause first and that cause's
fixes name the knob the confirmed fix turned on (a build flag, a wheel index, a package, an
environment variable); look-alike messages of other causes are not caught by the new patterns."""

from __future__ import annotations

from triage_lines import assert_first_naming, fixes_text, source_knob_test, source_lookalike_test

# (thread, message, the finding id first, a string one of its fixes' summaries or commands holds)
KNOB = [
    (
        # the author: with -DAMDGPU_TARGETS set (6700 XT, HSA_OVERRIDE_GFX_VERSION=10.3.0) all works
        "https://github.com/ggml-org/llama.cpp/pull/4454",
        "CUDA error 98 at /source/llama.cpp/ggml-cuda.cu:7788: invalid device function\n"
        "current device: 0\n"
        'GGML_ASSERT: /source/llama.cpp/ggml-cuda.cu:7788: !"CUDA error"\n'
        "ptrace: Operation not permitted.",
        "app.llamacpp.gpu-arch-dropped",
        "AMDGPU_TARGETS",
    ),
    (
        # a maintainer: configure cmake with -DAMDGPU_TARGETS=gfx1100; a user: "Can confirm that
        # for me at least the cuda error 98 error no longer occurs"
        "https://github.com/ggml-org/llama.cpp/issues/3320",
        "ROCm error: ggml-cuda.cu:6246: invalid device function\n"
        "ggml_init_cublas: found 1 ROCm devices:\n"
        "  Device 0: AMD Radeon RX 7900 XTX, compute capability 11.0",
        "rocm.no-binary-for-gpu",
        "AMDGPU_TARGETS",
    ),
    (
        # a maintainer: the nightly aarch64 CUDA wheels install with --index-url .../nightly/cu124;
        # the reporter: "Excellent, thank you so much!"
        "https://github.com/pytorch/builder/issues/1856",
        "I'm interested in trying out a Pytorch build for CUDA 12.4 and aarch64 architecture.\n\n"
        "Are those available anywhere?",
        "torch.cpu-build-on-gpu-host",
        "download.pytorch.org/whl/nightly/cu124",
    ),
    (
        # a user with the same error: "Jetson needed a different torch installation package", the
        # Jetson Zoo's PyTorch wheels
        "https://github.com/pytorch/pytorch/issues/71473",
        "I installed torch and torchvision for jetson nano from this link. "
        "https://forums.developer.nvidia.com/t/pytorch-for-jetson-version-1-10-now-available/72048. "
        "With this command 'pip install torch==1.8.1+cu102 torchvision==0.9.1+cu102 torchaudio==0.8.1 "
        "-f https://download.pytorch.org/whl/torch_stable.html'\n"
        "ERROR: Could not find a version that satisfies the requirement torch==1.8.1+cu102 "
        "(from versions: 1.8.0, 1.8.1, 1.9.0, 1.10.0, 1.10.1)\n"
        "ERROR: No matching distribution found for torch==1.8.1+cu102",
        "jetson.pypi-wheel",
        "Jetson_Zoo",
    ),
    (
        # the reporter: after adding arch=compute_87,code=sm_87 to flash-attention's setup.py and
        # building it, "it works!"
        "https://github.com/Dao-AILab/flash-attention/issues/1146",
        "Hi I'm currently using jetson agx orin and i've just installed the latest version of "
        'flash-attention via "pip install flash-attn". It went smoothly but when i tried to use it '
        "in QServe i got the message: CUDA Error： no kernel image is available for execution on "
        "the device",
        "flashattn.gpu-arch-unsupported",
        "sm_87",
    ),
    (
        # a user: the WSL GPU passthrough does not work on RDNA 2 (the override only helps native
        # Linux); the reporter closed the issue
        "https://github.com/Comfy-Org/ComfyUI/issues/5406",
        "AMD GPU with WSL & ROCm\n"
        "Then Run the test script again\n"
        "```\n"
        "python3 -c \"import torch; print(f'device name [0]:', torch.cuda.get_device_name(0))\"\n"
        "```\n"
        "See the result\n"
        "```\n"
        "No HIP GPUs are available\n"
        "```",
        "rocm.wsl-release-unsupported",
        "WSL compatibility matrix",
    ),
    (
        # a maintainer: fixed in rocm-libraries; users confirm MIOPEN_FIND_MODE=2 and
        # MIOPEN_DEBUG_AMD_WINOGRAD_FURY_RXS_F2X3=0 fix it
        "https://github.com/ROCm/TheRock/issues/3044",
        "[Issue]: [gfx1103] HSA_ERROR_INVALID_ISA error occurred during calculation in FP16",
        "rocm.no-binary-for-gpu",
        "MIOPEN_DEBUG_AMD_WINOGRAD_FURY_RXS_F2X3=0",
    ),
    (
        # the reporter: the numpy fix of the linked onnx thread solved it ("好的，已经解决了，多谢")
        "https://github.com/jkjung-avt/tensorrt_demos/issues/349",
        "import onnx 出现Illegal instruction (core dumped)，版本也是对的，1.4.1，就是报错，protbuf也装了\n"
        "我还有个疑问，我在jetson nano上测试了一下，只有6帧左右，没有文档里说的那样快，是有什么问题吗",
        "jetson.numpy-openblas-illegal-instruction",
        "numpy",
    ),
    (
        # the reporter: with HSA_OVERRIDE_GFX_VERSION=10.3.0 the app runs fine on the RX 6700 XT
        "https://github.com/ace-step/ACE-Step-1.5/issues/658",
        "I'm using an RX 6700 XT (gfx1031), which requires `HSA_OVERRIDE_GFX_VERSION` environment "
        "variable to be set to 10.3.0 in order for the card to work in ROCm. If this variable is not "
        "present, the app will crash on start. But the value that is currently set in "
        "`start_gradio_ui_rocm.sh`, causes my whole desktop environment to crash, which is worse.",
        "rocm.gfx-unsupported",
        "HSA_OVERRIDE_GFX_VERSION=10.3.0",
    ),
]


test_message_reaches_its_cause_with_the_knob = source_knob_test(KNOB)


# (thread, a real message of another cause, the finding id that must not rank first)
LOOKALIKE = [
    (
        # torch's own build on a Jetson (PyTorch's nightly cu124 index), no flash-attn involved
        "https://github.com/pytorch/pytorch/issues/145560",
        "I am using Jetpack 6.2 with cuda12.4 on a Jetson orin agx developer kit. I am able to put "
        "tensors to the device, but for some reason I am getting an error when trying to do the `!=` "
        "operation.\n"
        "pip3 install --pre torch --index-url https://download.pytorch.org/whl/nightly/cu124\n"
        "RuntimeError: CUDA error: no kernel image is available for execution on the device",
        "flashattn.gpu-arch-unsupported",
    ),
    (
        # a desktop GPU's extension build (no flash-attn, no Jetson): fixed with TORCH_CUDA_ARCH_LIST
        "https://github.com/thomasbrandon/mish-cuda/issues/10",
        "RuntimeError: CUDA error: no kernel image is available for execution on the device\n"
        "Built with pytorch 1.7, cuda 10.2, TITAN X, got this error.",
        "flashattn.gpu-arch-unsupported",
    ),
    (
        # native Linux (ROCm 4.2 and its rocm4.2 torch), not WSL
        "https://github.com/pytorch/pytorch/issues/70036",
        "I installed rocm  4.2 according to the documentation. The GPU is recognized by the rocm "
        "tooling. However, pytorch does not detect the GPU.\n"
        "RuntimeError: No HIP GPUs are available\n"
        "pip3 install torch torchvision==0.11.2 -f https://download.pytorch.org/whl/rocm4.2/torch_stable.html",
        "rocm.wsl-release-unsupported",
    ),
    (
        # a Jetson on JetPack 5.1.2: NVIDIA's JetPack builds, not PyTorch's aarch64 CUDA index
        "https://github.com/dusty-nv/jetson-inference/issues/1932",
        "Hi, I tried <...>/build/.install_pytorch.sh, but it only offers pytorch for python 3.8. "
        "Unfortunately I need python>10 to run Llama and Jetpack<6 to support ubuntu20. I also tried "
        'to install pytorch from the official website using "pip3 install torch torchvision '
        'torchaudio". But when I checked "torch.cuda.is_available", it returned false.',
        "torch.cpu-build-on-gpu-host",
    ),
]


test_lookalike_is_not_caught = source_lookalike_test(LOOKALIKE)


def test_invalid_isa_of_a_discrete_card_keeps_the_override_fixes():
    """An RX 7600 XT's INVALID_ISA (its gfx1102 needs the gfx1100 override) does not get the APU's
    MIOpen Winograd fix. https://github.com/ROCm/legacy-rocm-build/issues/3054"""
    text = (
        "[Issue]: rocm 6.1.0 with wheel pytorch at rx7600xt and running stable diffusion => "
        "HSA_STATUS_ERROR_INVALID_ISA: The instruction set architecture is invalid. code: 0x100f"
    )
    finding = assert_first_naming(
        text,
        "rocm.no-binary-for-gpu",
        "HSA_OVERRIDE_GFX_VERSION=11.0.0",
        "https://github.com/ROCm/legacy-rocm-build/issues/3054",
    )
    assert "MIOPEN_DEBUG_AMD_WINOGRAD_FURY_RXS_F2X3" not in fixes_text(finding)
