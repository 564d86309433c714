"""Round 17 sweep of the CPU-only torch wheel on a GPU machine (checks/signatures/torch.toml):
each message, verbatim from its thread, reaches the cause the thread confirmed first, and one of that
cause's fixes names the knob the confirmed fix turned (the index, the installer's source, the build
string)."""

from __future__ import annotations

from triage_lines import source_knob_test, source_lookalike_test

# (thread, message, the finding id first, a string one of its fixes' commands or summaries holds)
KNOB = [
    (
        # ComfyUI-Manager's maintainer confirms the fix: reinstall torch into python_embeded from
        # PyTorch's cu118 index (an update had pulled the default CPU wheel)
        "https://github.com/Comfy-Org/ComfyUI/issues/2427",
        'File "C:\\Users\\Luna\\Documents\\ComfyUI_windows_portable\\python_embeded\\lib\\site-packages\\torch\\cuda\\__init__.py", line 289, in _lazy_init\n    raise AssertionError("Torch not compiled with CUDA enabled")\nAssertionError: Torch not compiled with CUDA enabled',
        "torch.cpu-build-on-gpu-host",
        "download.pytorch.org/whl/cu",
    ),
    (
        # reporter: installing the package with --extra-index-url .../cu118 keeps the CUDA torch
        "https://github.com/pyannote/pyannote-audio/issues/1675",
        "If I install pyannote.audio in an env in which torch with cuda is already installed, then during installation the torch with cuda is removed and torch cpu is installed. Even though the torch versions satisfy requirements.txt.",
        "torch.cpu-build-on-gpu-host",
        "--extra-index-url",
    ),
    (
        # PyTorch release engineer: pin the build string pytorch=*=*cuda* so conda errors out
        # instead of falling back on the CPU build
        "https://github.com/pytorch/test-infra/issues/4567",
        "With missing cuda builds we want to error out rather then install cpu version.\n\nWith following command:\n``conda install pytorch torchvision torchaudio pytorch-cuda=12.1 -c pytorch-nightly -c nvidia``\nIf CUDA 12.1 builds are missing conda will fallback on cpu builds.",
        "torch.cpu-build-on-gpu-host",
        "pytorch=*=*cuda*",
    ),
    (
        # "pytorch=*=*cuda*" (with the nvidia channel) resolved it for the commenters
        "https://github.com/mamba-org/mamba/issues/1617",
        'mamba installs PyTorch CPU version instead of the CUDA version\nThe latest mamba still tries to install Pytorch "CPU".',
        "torch.cpu-build-on-gpu-host",
        "pytorch=*=*cuda*",
    ),
    (
        # merged fix: the [tool.uv.sources] marker for the CUDA index now includes Windows (AMD64)
        "https://github.com/talmolab/sleap-nn/pull/479",
        "On Windows, `platform_machine` is `'AMD64'`, not `'x86_64'`, so the marker didn't match. This caused uv to fall back to the default PyPI index, which serves the CPU-only version of PyTorch.",
        "torch.cpu-build-on-gpu-host",
        "[tool.uv.sources]",
    ),
    (
        # merged fix: tool.uv.sources sends torch to the cu128 index on Windows too
        "https://github.com/ScrollPrize/villa/pull/1584",
        "spiral: the CUDA torch index is gated to Linux, so Windows installs a CPU-only build",
        "torch.cpu-build-on-gpu-host",
        "[tool.uv.sources]",
    ),
]


test_a_cpuwheel_message_gets_its_cause_and_the_knob = source_knob_test(KNOB)


# real messages of other causes that the new entries could catch: they must not get that cause
LOOKALIKE = [
    (
        # maintainer: "Has to be Nvidia": a Radeon GPU, not a CPU wheel on an NVIDIA machine
        "https://github.com/ogkalu2/comic-translate/issues/210",
        "Radeon GPU and Cuda incompatibility\nIs there any way I could possibly utilize this application with pytorch instead using my cpu? Or do I need a nvidia GPU to use this application?\n\nError Info\n```An error occurred:\nValueError: Invalid CUDA 'device=0' requested. Use 'device=cpu' or pass valid CUDA device(s) if available, i.e. 'device=0' or 'device=0,1,2,3' for Multi-GPU.\n\ntorch.cuda.is_available(): False\ntorch.cuda.device_count(): 0\nos.environ['CUDA_VISIBLE_DEVICES']: \nSee https://pytorch.org/get-started/locally/ for up-to-date torch install instructions if no CUDA devices are seen by torch.```",
        "torch.cpu-build-on-gpu-host",
    ),
    (
        # uv added torch and it runs with CUDA: no CPU wheel was taken
        "https://github.com/astral-sh/uv/issues/7202",
        "Contrary to the original poster, I actually can get Pytorch (with the CUDA 12.4 runtime) working with just `uv add torch torchvision torchaudio`.",
        "torch.cpu-build-on-gpu-host",
    ),
    (
        # xformers replaced torch with another CUDA build (cuda-11.x), not a CPU one
        "https://github.com/facebookresearch/xformers/issues/802",
        "Hi,  when I use pip install xformers, it will re-install the torch==2.0.1 with cuda-11.x, even if I have the torch=2.1.0 with cuda 12.1 in nvcr.io/nvidia/pytorch:23.06-py3.  Does it support the latest cuda and torch?",
        "torch.cpu-build-on-gpu-host",
    ),
]


test_a_look_alike_is_not_read_as_the_new_cause = source_lookalike_test(
    LOOKALIKE, may_be_empty=True, newline=True
)
