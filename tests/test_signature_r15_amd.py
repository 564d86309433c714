"""AMD ROCm and Intel XPU, round 15 sweep (checks/signatures/{amd_rocm,intel}.toml): each common message,
verbatim from a public thread whose fix was confirmed, reaches its cause first with a fix naming the
knob that fix turned; look-alike messages of other causes (verbatim too) are not read as the new
entries' causes."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

# (message, the finding id first, a knob its fixes name, the thread)
KNOB = [
    (
        "Memory access fault by GPU node-1 (Agent handle: 0x724828692930) on address "
        "0x72370e95c000. Reason: Page not present or supervisor privilege.\n"
        '[GIN] 2025/08/31 - 13:43:37 | 500 | 32.614108095s |       127.0.0.1 | POST     "/api/generate"',
        "rocm.gfx-unsupported",
        "HSA_OVERRIDE_GFX_VERSION",
        "https://github.com/ollama/ollama/issues/12131",
    ),
    (
        '  File "/geti_prompt/.venv/lib/python3.12/site-packages/torch/xpu/__init__.py", line 138, '
        "in _lazy_init\n"
        "    torch._C._xpu_init()\n"
        "RuntimeError: No XPU devices are available.",
        "intel.xpu-without-runtime",
        "--device /dev/dri",
        "https://github.com/open-edge-platform/geti-instant-learn/issues/583",
    ),
    (
        "libze_loader.so.1: cannot open shared object file: no such file or directory",
        "intel.xpu-without-runtime",
        "level-zero",
        "https://github.com/oneapi-src/level-zero/issues/125",
    ),
    (
        "HIP error: invalid device function\n"
        "HIP kernel errors might be asynchronously reported at some other API call, so the "
        "stacktrace below might be incorrect.\n"
        "For debugging consider passing AMD_SERIALIZE_KERNEL=3.\n"
        "Compile with `TORCH_USE_HIP_DSA` to enable device-side assertions.",
        "rocm.no-binary-for-gpu",
        "HSA_OVERRIDE_GFX_VERSION",
        "https://github.com/YanWenKun/ComfyUI-Docker/pull/67",
    ),
]

# (message of another cause, the cause it must not be read as, the thread)
LOOKALIKE = [
    (
        # the override set to the wrong family: the misapplied-override entry, not an unlisted GPU
        "Memory access fault by GPU node-1 (Agent handle: 0x5635e3db2590) on address "
        "0x7f189722f000. Reason: Page not present or supervisor privilege. (ollama via docker)\n"
        "Nevermind, I had HSA_OVERRIDE_GFX_VERSION set to 11.0.0 instead of 10.3.0. Sry.",
        "rocm.gfx-unsupported",
        "https://github.com/ollama/ollama/issues/8851",
    ),
    (
        # a CPU build of torch: not an XPU build that found no device
        '    raise AssertionError("Torch not compiled with XPU enabled")\n'
        "AssertionError: Torch not compiled with XPU enabled",
        "intel.xpu-without-runtime",
        "https://github.com/intel/intel-xpu-backend-for-triton/issues/2014",
    ),
    (
        # oneMKL's SYCL library: oneAPI's environment, not the Level Zero loader package
        "ImportError: libmkl_sycl.so.3: cannot open shared object file: No such file or directory",
        "intel.xpu-without-runtime",
        "https://github.com/intel/intel-extension-for-pytorch/issues/417",
    ),
]


test_message_reaches_its_cause_with_the_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_the_new_cause = lookalike_test(LOOKALIKE)
