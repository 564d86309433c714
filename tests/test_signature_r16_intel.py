"""Intel XPU / IPEX / SYCL and Apple MPS, round 16 sweep (checks/signatures/{intel,memory,apple,hardware}.toml): each
common message, verbatim from a public thread whose fix was confirmed, reaches its cause first with a
fix naming the knob that fix turned; look-alike messages of other causes (verbatim too) are not read
as the new entries' causes."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

# (message, the finding id first, a knob its fixes name, the thread)
KNOB = [
    (
        # maintainer: "Add `import intel_extension_for_pytorch as ipex`?"
        "When I run the code, I got the AttributeError:\n** module 'torch' has no attribute 'xpu'**",
        "intel.ipex-cpu-only-build",
        "import intel_extension_for_pytorch",
        "https://github.com/intel/ipex-llm/issues/9768",
    ),
    (
        # the SYCL backend's maintainers: lower the context (the PR sets -c 8192 in the example)
        "Native API failed. Native API returns: -6 (PI_ERROR_OUT_OF_HOST_MEMORY) -6 "
        "(PI_ERROR_OUT_OF_HOST_MEMORY) -999 (UNKNOWN PI error)",
        "memory.out-of-memory",
        "--ctx-size",
        "https://github.com/ggml-org/llama.cpp/pull/9476",
    ),
    (
        # the fix: move the model to the device too (confirmed below it)
        "RuntimeError: Input type (MPSFloatType) and weight type (torch.FloatTensor) should be the same",
        "apple.mps-device-mismatch",
        "model.to(",
        "https://github.com/Mikubill/sd-webui-controlnet/issues/1649",
    ),
    (
        # a torch with pytorch/pytorch#114183 (Conv3D on MPS, macOS 13.2+) "gets me past" it
        "Conv3D is not supported on MPS",
        "apple.mps-op-unsupported",
        "pip install -U torch",
        "https://github.com/Comfy-Org/ComfyUI/issues/2044",
    ),
    (
        # the xe driver names the fix: Resizable BAR in the firmware setup
        "[   11.021461] xe 0000:19:00.0: [drm] Failed to resize BAR2 to 8192M (-ENOSPC). Consider "
        "enabling 'Resizable BAR' support in your BIOS\n"
        "[   11.052678] xe 0000:19:00.0: [drm] Small BAR device",
        "hardware.bios-rebar-above4g",
        "Above 4G Decoding",
        "https://github.com/xCuri0/ReBarUEFI/issues/261",
    ),
]

# (a message of another cause, verbatim, the new cause that must not be read first, the thread)
LOOKALIKE = [
    (
        # the input's dtype (uint8), not its device: convert it to float32
        "Input type (MPSByteType) and weight type (MPSFloatType) should be the same",
        "apple.mps-device-mismatch",
        "https://github.com/pytorch/pytorch/issues/88978",
    ),
    (
        # an old IPEX device name, not a missing import
        "RuntimeError: Expected one of cpu, cuda, xpu, mkldnn, opengl, opencl, ideep, hip, msnpu, "
        "xla, vulkan device type at start of device string: dpcpp",
        "intel.ipex-cpu-only-build",
        "https://github.com/intel/intel-extension-for-pytorch/issues/191",
    ),
    (
        # rebar working on an AMD card: the BAR line is not the Intel driver's failure
        "[5.706574] [drm] Detected VRAM RAM=8176M, BAR=8192M",
        "hardware.bios-rebar-above4g",
        "https://github.com/ilya-zlobintsev/LACT/issues/306",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_new_cause = lookalike_test(LOOKALIKE, may_be_empty=True)
