"""Intel GPUs (XPU / Arc: float64 on client GPUs with torch 2.4) and Apple MPS (macOS floors, the
MPS allocator's watermark variables), round 19 sweep: each opening post, verbatim from a public
thread whose fix was confirmed (the reporter says it worked, or a maintainer states cause and fix),
reaches its cause first with a fix naming the knob that fix turned; look-alike messages of other
causes (verbatim too) are not read as the new entries' causes."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

# (message, the finding id first, a knob its fixes name, the thread)
KNOB = [
    (
        # maintainer (huiyan2021): PyTorch 2.4 supports only the Data Center Max GPUs; client GPU
        # (Arc A380 here) support comes with PyTorch 2.5
        "Required aspect fp64 is not supported on the device when running cross_entropy",
        "intel.arc-no-fp64",
        "2.5",
        "https://github.com/intel/intel-extension-for-pytorch/issues/699",
    ),
    (
        # maintainers: the failures are gone on PyTorch main (torch-xpu-ops #511, which became
        # the 2.5 release that supports client GPUs); 2.4 keeps the fp64 kernels on A770
        "600 tests fail with PyTorch 2.4 on A770, for example:\n\n"
        "```\n"
        "FAILED language/test_standard.py::test_maximum_minium[maximum-bfloat16] - RuntimeError: "
        "Required aspect fp64 is not supported on the device\n"
        "```",
        "intel.arc-no-fp64",
        "2.5",
        "https://github.com/intel/intel-xpu-backend-for-triton/issues/1840",
    ),
    (
        # the reporter: "Solved: removed PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.7 from environment
        # variables" (a high watermark below the default low watermark 1.4 is refused)
        "Hi, \n\n"
        "I'm on M1 Mac Studio with 32GB RAM\n\n"
        "While starting training, the programme exits at the following steps:\n\n"
        "...\n"
        "loading u-net: <All keys matched successfully>\n"
        "loading vae: <All keys matched successfully>\n"
        "loading text encoder: <All keys matched successfully>\n"
        "import network module: networks.lora\n"
        "...\n"
        "RuntimeError: invalid low watermark ratio 1.4\n"
        "...\n\n"
        "Any idea what this error message is and how I can fix it?",
        "apple.mps-watermark-ratio-invalid",
        "unset PYTORCH_MPS_HIGH_WATERMARK_RATIO",
        "https://github.com/kohya-ss/sd-scripts/issues/603",
    ),
    (
        # the reporter: "passing device type in dataloaders the following solved the issue":
        # dls = bears.dataloaders(path, device='cpu') (macOS 12.7.6 is below the torch's floor)
        "When running the dataloaders I am getting the following error: `RuntimeError: The MPS "
        "backend is supported on MacOS 12.3+.Current OS version can be queried using `sw_vers``, "
        "even though my MacOs is `12.7.6`.\n\n"
        "The error seems related to torch library. Any idea how it could be fixed from fastai "
        "level?",
        "macos.mps-unavailable",
        "device='cpu'",
        "https://github.com/fastai/fastbook/issues/671",
    ),
]

# (a message of another cause, verbatim, the new cause that must not be read first, the thread)
LOOKALIKE = [
    (
        # an MPS out-of-memory with the variable already set: the allocator's cap, not an
        # invalid watermark pair
        "MPS backend out of memory (MPS allocated: 7.43 GB, other allocations: 24.46 GB, max "
        "allowed: 32.00 GB). Tried to allocate 129.21 MB on private pool. Use "
        "PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper limit for memory allocations (may "
        "cause system failure).",
        "apple.mps-watermark-ratio-invalid",
        "https://github.com/pytorch/pytorch/issues/96814",
    ),
    (
        # the reporter exported the variable and still ran out of MPS memory
        "I am training a model and this error appears I have already did  export "
        "PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0\nand still happening ...\n\n"
        "RuntimeError: MPS backend out of memory (MPS allocated: 5.50 GB, other allocations: "
        "14.76 GB, max allowed: 20.40 GB). Tried to allocate 147.24 MB on private pool. Use "
        "PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper limit for memory allocations (may "
        "cause system failure).",
        "apple.mps-watermark-ratio-invalid",
        "https://github.com/pytorch/pytorch/issues/130112",
    ),
    (
        # float64 on Apple MPS, not an Intel GPU
        "Cannot convert a MPS Tensor to float64 dtype as the MPS framework doesn't support "
        "float64. Please use float32 instead.",
        "intel.arc-no-fp64",
        "https://github.com/pytorch/pytorch/issues/79019",
    ),
    (
        # an XPU wheel's DLL that does not load on Windows: not float64
        "When attempting to import `torch` with version `2.5.1+xpu`, I encounter the following "
        'error:\n```\nError loading ".venv\\Lib\\site-packages\\torch\\lib\\c10_xpu.dll" or one '
        "of its dependencies\n```",
        "intel.arc-no-fp64",
        "https://github.com/pytorch/pytorch/issues/138986",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_new_cause = lookalike_test(LOOKALIKE, may_be_empty=True)
