"""Intel GPUs (XPU / IPEX / SYCL / OpenVINO) and Apple MPS, round 17 sweep
(checks/signatures/intel.toml): each common message, verbatim from a public thread whose
fix was confirmed (the reporter says it worked, or a maintainer states cause and fix), reaches its
cause first with a fix naming the knob that fix turned; look-alike messages of other causes
(verbatim too) are not read as the new entries' causes."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

# (message, the finding id first, a knob its fixes name, the thread)
KNOB = [
    (
        # the reporter: "sudo usermod -a -G video/render $LOGNAME" resolved it ("This fixed the
        # issue for me" from a second user)
        "The command `sudo clinfo` finds the GPU but `clinfo` results in:\n\n"
        "``Number of platforms                               0``",
        "intel.render-node-permission",
        "render",
        "https://github.com/intel/compute-runtime/issues/478",
    ),
    (
        # maintainer: the GPU driver is not (correctly) installed; the reporter installed the
        # driver packages of Intel's GPU guide and the device was found
        "I'm using Ubuntu 22.04 with TigerLake-LP GT2 graphics and i915 driver, and cpu is "
        'i5-11320H. After setting up oneapi and installing "patched" torch packages, I tried use '
        'xpu on torch, but it always says\n"RuntimeError: Number of dpcpp devices should be '
        'greater than zero!"\nand torch.xpu.is_available returns false',
        "intel.xpu-without-runtime",
        "intel-opencl-icd",
        "https://github.com/intel/intel-extension-for-pytorch/issues/292",
    ),
    (
        # Intel's own report: the same model passes with batch size 1
        "hf_distil_whisper got UR_RESULT_ERROR_OUT_OF_RESOURCES, but passed with 2.8.0\n"
        "And passed with 2.9.0 & batch size = 1",
        "memory.out-of-memory",
        "batch size",
        "https://github.com/intel/torch-xpu-ops/issues/2059",
    ),
    (
        # maintainer: one Flex 170 has only 16GB, the model does not fit the cards given
        "Getting PI_ERROR_OUT_OF_RESOURCES -- resolved",
        "memory.out-of-memory",
        "smaller",
        "https://github.com/intel/ipex-llm/issues/10597",
    ),
    (
        # compute-runtime maintainer (intel/compute-runtime#610): Arc needs a 6.2 kernel; the
        # reporter's kernel upgrade fixed the same error
        "OS: Clear Linux 37450\nLinux Kernel: 6.0.2-1201.native\n"
        "CPU: 12th Gen Intel® Core™ i7-12700 × 20\nGPU: Mesa Intel® Arc™ A750 Graphics (DG2)\n"
        "## Error\n```\njulia> a = oneArray(rand(Float32, 2,2))\n"
        "ERROR: ZeError: unknown or internal error (code 2147483646, ZE_RESULT_ERROR_UNKNOWN)",
        "intel.gpu-not-supported-by-kernel",
        "uname -r",
        "https://github.com/JuliaGPU/oneAPI.jl/issues/228",
    ),
    (
        # the thread's title: Rocket Lake's Xe GPU needs a newer OpenCL driver (compute runtime);
        # installing the newer compute-runtime release made clinfo list it
        "RuntimeError: Failed to create plugin "
        "/home/tidy/Deepvino/openvino/installed/runtime/lib/intel64/libclDNNPlugin.so for device GPU\n"
        "Please, check your environment\n[CLDNN ERROR]. clGetPlatformIDs error -1001",
        "intel.xpu-without-runtime",
        "intel-opencl-icd",
        "https://github.com/openvinotoolkit/openvino/issues/8003",
    ),
    (
        # maintainer (malfet): one of the tensors is on the CPU while the other is on MPS, a bug
        # in the training code: move it to the device
        "Training on M1 MBP: Placeholder storage has not been allocated on MPS device",
        "apple.mps-device-mismatch",
        ".to(",
        "https://github.com/pytorch/pytorch/issues/130790",
    ),
]

# (a message of another cause, verbatim, the new cause that must not be read first, the thread)
LOOKALIKE = [
    (
        # clinfo as root finds no platform because the kernel gave the GPU no /dev/dri at all:
        # not a group permission
        "clinfo:\nroot@tgl1-SYSTEM-PRODUCT-NAME:~# clinfo\n"
        "Number of platforms                               0",
        "intel.render-node-permission",
        "https://github.com/openvinotoolkit/openvino/issues/6984",
    ),
    (
        # an OpenCL kernel's local work size too large for the device, not memory
        "OpenCL error Error: [ComputeCpp:RT0208] Failed to enqueue OpenCL command "
        "(clEnqueueNDRangeKernel) CL_OUT_OF_RESOURCES",
        "memory.out-of-memory",
        "https://github.com/lukeiwanski/tensorflow/issues/172",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_new_cause = lookalike_test(LOOKALIKE, may_be_empty=True)
