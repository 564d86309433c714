"""Knob gaps, round 19 (B): causes that triage already ranks right but whose fixes named nothing the
confirmed fix turned. Here "CUDA error: API call is not supported in the installed CUDA driver"
(cudaErrorCallRequiresNewerDriver) from a PyTorch app whose launcher turned on the cudaMallocAsync
allocator: the finding is the runtime-newer-than-driver cause, and one of its fixes must name the
allocator switch (ComfyUI's --disable-cuda-malloc, PYTORCH_CUDA_ALLOC_CONF's backend). Look-alike
rows are real messages of other causes that the new fix variant must not pull in."""

from __future__ import annotations

from triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # SDXL in ComfyUI on a 32 GB card; the maintainer (comfyanonymous): "Try: --disable-cuda-malloc",
    # and the issue was closed
    (
        '  File "/opt/conda/lib/python3.10/site-packages/torch/nn/modules/module.py", line 1147, in convert\n    return t.to(device, dtype if t.is_floating_point() or t.is_complex() else None, non_blocking)\nRuntimeError: CUDA error: API call is not supported in the installed CUDA driver\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1.\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n\nHow could this happen, 32GB should enough for SDXL, and my cuda enviroment runs anything else OK.',
        "cuda.toolkit-newer-than-driver",
        "disable-cuda-malloc",
        "https://github.com/Comfy-Org/ComfyUI/issues/1253",
    ),
]

# (message verbatim from a thread of another cause, the cause it must not be read as, thread)
LOOKALIKE = [
    # Fooocus on a Tesla T4 under Windows Server: "operation not supported" is the cudaMallocAsync
    # cause itself (commenting out cuda_malloc() in launch.py), not a driver older than the runtime
    (
        "RuntimeError: CUDA error: operation not supported\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.",
        "cuda.toolkit-newer-than-driver",
        "https://github.com/lllyasviel/Fooocus/issues/73",
    ),
    # a test that hard-codes 'cuda' run on an Intel XPU machine: a device mismatch, no driver
    (
        "    return self._apply(lambda t: t.cuda(device))\nRuntimeError: Invalid device, must be cuda device",
        "cuda.toolkit-newer-than-driver",
        "https://github.com/pytorch/pytorch/issues/143177",
    ),
    # TensorFlow cannot load cuDNN from LD_LIBRARY_PATH (CUDA 7.5 beside 8.0): a missing library
    (
        "Couldn't open CUDA library libcudnn.so. LD_LIBRARY_PATH: :/usr/local/cuda-7.5/lib64",
        "cuda.toolkit-newer-than-driver",
        "https://github.com/tensorflow/tensorflow/issues/4827",
    ),
    # R torch's CPU build asked for 'cuda': a CPU-only build, not a driver older than the runtime
    (
        "Error in (function (self, device, dtype, non_blocking, copy, memory_format)  : \n  PyTorch is not linked with support for cuda devices",
        "cuda.toolkit-newer-than-driver",
        "https://github.com/skeydan/Deep-Learning-and-Scientific-Computing-with-R-torch/issues/16",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_this_cause = lookalike_test(LOOKALIKE)
