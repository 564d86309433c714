"""Round 16 sweep of the leftovers the maintainers listed (checks/signatures/{apps,torch,nccl}.toml): the
bare "CUDA error: invalid argument" (cudaErrorInvalidValue) that ComfyUI's pinned memory raises with
custom nodes that move model weights themselves; the "cuda runtime error (11) : invalid argument at
THCGeneral.cpp" of a PyTorch built for CUDA 9 on a Turing (RTX 20) GPU; and NCCL's "connecting to
address with family 0 is neither AF_INET(2) nor AF_INET6(10)" when the nodes load different NCCL
releases. Each message is verbatim from its thread; it reaches the cause the thread confirmed first,
and one of that cause's fixes names the knob the confirmed fix turned."""

from __future__ import annotations

from triage_lines import source_knob_test, source_lookalike_test

# (thread, message, the finding id first, a string one of its fixes' summaries or commands holds)
KNOB = [
    (
        # the reporter: "I can solve this issue by CUDA10" (torch 1.1.0 on an RTX 2080 Ti with CUDA 9.2)
        "https://github.com/IntelLabs/distiller/issues/299",
        "return error:\n"
        "RuntimeError: cuda runtime error (11) : invalid argument at /pytorch/aten/src/THC/THCGeneral.cpp:383\n\n"
        "This is my information:\n\nSystem is Ubuntu18.04 \n\nGPU: RTX2080TI",
        "torch.gpu-too-new-for-build",
        "cudatoolkit=10",
    ),
    (
        # the reporter: "While upgrade my pytorch with CUDA 10 stable version my issue was fixed."
        "https://github.com/Raschka-research-group/coral-cnn/issues/18",
        "THCudaCheck FAIL file=/pytorch/aten/src/THC/THCGeneral.cpp line=383 error=11 : invalid argument",
        "torch.gpu-too-new-for-build",
        "cudatoolkit=10",
    ),
    (
        # the reporter: with the maintainer's pinned-memory change (a ComfyUI update) "the error no
        # longer happens in the native workflow"; a custom node still raised it (KJNodes#430)
        "https://github.com/Comfy-Org/ComfyUI/issues/10662",
        "## Error Details\n"
        "- **Node ID:** 360\n"
        "- **Node Type:** SamplerCustom\n"
        "- **Exception Type:** torch.AcceleratorError\n"
        "- **Exception Message:** CUDA error: invalid argument\n"
        "Search for 'cudaErrorInvalidValue' in https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html"
        " for more information.",
        "app.comfyui.pinned-memory-conflict",
        "git pull",
    ),
    (
        # ComfyUI's support (quoted by the reporter): the Block Swap node is no longer supported and
        # crashes the new ComfyUI (ComfyUI#10732); a commenter on ComfyUI#11152: with
        # --disable-pinned-memory "it's solid as a rock"
        "https://github.com/kijai/ComfyUI-WanVideoWrapper/issues/1650",
        "Requested to load WAN21\n"
        "!!! Exception during processing !!! CUDA error: invalid argument\n"
        "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below"
        " might be incorrect.\n"
        "For debugging consider passing CUDA_LAUNCH_BLOCKING=1\n"
        "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n\n"
        "Traceback (most recent call last):\n"
        '  File "/wp/ComfyUI/execution.py", line 510, in execute',
        "app.comfyui.pinned-memory-conflict",
        "block swap",
    ),
    (
        # the write-up: one node loaded NCCL 2.14.3 (CUDA 11.7), the other 2.19.3; one nvidia-nccl-cu12
        # release on every node fixed it (the thread behind it: NVIDIA/nccl#1267)
        "https://blog.gitcode.com/9c47982ad56fb1a4dc5bbe32ab341394.html",
        "ncclSocketInit: connecting to address with family 0 is neither AF_INET(2) nor AF_INET6(10)\n"
        "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1275,"
        " internal error",
        "nccl.version-differs-across-nodes",
        "torch.cuda.nccl.version()",
    ),
]


test_a_message_reaches_its_confirmed_cause_and_knob = source_knob_test(KNOB)


# (thread, a real message of another cause, the cause that must not rank first)
LOOKALIKE = [
    # no ComfyUI: a torch / CUDA mismatch (the reporter) raised the same bare invalid argument
    (
        "https://github.com/garyzhao/SemGCN/issues/10",
        '  File "/home/dm/anaconda3/envs/py27/lib/python2.7/site-packages/torch/nn/functional.py", line 941, in relu\n'
        "    result = torch.relu_(input)\n"
        "RuntimeError: CUDA error: invalid argument",
        "app.comfyui.pinned-memory-conflict",
    ),
    # IPv6 switched off in the kernel: c10d cannot open the socket to localhost (not an NCCL release mismatch)
    (
        "https://github.com/anhvth/opensloth/issues/14",
        "[W729 12:37:15.952489580 socket.cpp:752] [c10d] The client socket cannot be initialized to connect to "
        "[localhost]:29501 (errno: 97 - Address family not supported by protocol).",
        "nccl.version-differs-across-nodes",
    ),
]


test_a_look_alike_message_is_not_read_as_the_cause = source_lookalike_test(LOOKALIKE, newline=True)
