"""GPUs too new for the build, round 19 (gpunew4): RTX 50-series / Blackwell cards (sm_120) on
packages whose bundled or pinned build has no kernels for them, told as whole opening posts in
English and Chinese: a web UI reinstalled on an "RTX 50 series GPU" failing with "no kernel image",
a Forge user asking to "include this map" for a 5090, a Chinese post that no install route works on
a 5090, and CTranslate2 / faster-whisper failing with CUBLAS_STATUS_NOT_SUPPORTED on a 5080. Each
message reaches its cause first and one of its fixes names the knob the thread's fix turned (the
cu128 build of torch, or faster-whisper's compute_type); look-alike rows are "no kernel image"
reports from GPUs that are too OLD for the build, which must not be read as too new."""

from __future__ import annotations

from triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # a commenter: download the dev branch, "It supports 50 rtx series with cu128 pytorch version";
    # a second commenter agreed: the 12.0 in the cu128 build's arch list is the fix
    (
        "I’m getting the error ‘RuntimeError: CUDA error: no kernel image is available’ when trying to generate images.\nI believe it’s related to PyTorch, but I’m not sure how to fix it.\n\nMy Stable Diffusion setup was working before, and I recently reinstalled it.\nI’m using an RTX 50 series GPU.\n\nDoes anyone know what might be causing this or how to fix it?",
        "torch.gpu-too-new-for-build",
        "cu128",
        "https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/17296",
    ),
    # a commenter with the same problem on a 5070: "this how i fixed": replace torch/torchvision/
    # torchaudio inside Forge's Python with the CUDA 12.8 (cu128) builds
    (
        "Hi, I have an RTX 5090. Unfortunately, I'm getting errors as a kernel. Can you include this map? Because it's not that new anymore :)",
        "torch.gpu-too-new-for-build",
        "cu128",
        "https://github.com/lllyasviel/stable-diffusion-webui-forge/issues/3113",
    ),
    # the maintainer: install the 5090-capable torch with
    # pip3 install --pre torch torchvision torchaudio --index-url .../whl/nightly/cu128
    (
        "NVIDIA GeForce RTX 5090要求的cuda、torch均有特殊性，现在的方案中，无论时lmdeploy、vllm还是transformer都无法正确安装成功。",
        "torch.gpu-too-new-for-build",
        "cu128",
        "https://github.com/Yuliang-Liu/MonkeyOCR/issues/192",
    ),
    # the reporter: "this Is getting fixed by adding the argument --compute_type float16"
    (
        "I recently got this Error since I bought an RTX 5080:\nRuntimeError: cuBLAS failed with status CUBLAS_STATUS_NOT_SUPPORTED",
        "ctranslate2.int8-unsupported-on-blackwell",
        "compute_type",
        "https://github.com/Purfview/whisper-standalone-win/issues/542",
    ),
    # the reporter: adding --compute_type float16 "indeed it worked"
    (
        "Hi. I just changed my PC. Now I find the problem to use the whisper. Everytime I put into one video file, only empty file I got back.  Here the info of my PC nvidia:\n\nAnyway, I have found similar issues uploaded before, it seems related to the RTX 5070 or even other 50 series.\n\nI also tried to use the other faster-whisper product by Purfview, and it also made wrong:",
        "ctranslate2.int8-unsupported-on-blackwell",
        "compute_type",
        "https://github.com/SubtitleEdit/subtitleedit/issues/10129",
    ),
]

# (message verbatim from a thread of another cause, the cause it must not be read as, thread)
LOOKALIKE = [
    # a GTX 950 (sm_52): CTranslate2's build dropped the old card; the GPU is too old, not too new
    (
        "RuntimeError: parallel_for failed: cudaErrorNoKernelImageForDevice: no kernel image is available for execution on the device\nWhat is you GPU model?\nGeForce GTX 950",
        "torch.gpu-too-new-for-build",
        "https://github.com/SYSTRAN/faster-whisper/issues/806",
    ),
    # a GTX 980 Ti on Faster-Whisper-XXL: the maintainer sent CTranslate2 files built for compute 5.0
    (
        "This is what I get on my **NVIDIA GeForce GTX 980 Ti**. Latest CUDA is installed.\nRuntimeError: parallel_for failed: cudaErrorNoKernelImageForDevice: no kernel image is available for execution on the device",
        "torch.gpu-too-new-for-build",
        "https://github.com/Purfview/whisper-standalone-win/issues/314",
    ),
    # an RTX 2070 with --force-enable-xformers: that xformers build "only works for 30 series"
    (
        "--force-enable-xformers | Enables xformers above regardless of whether the program thinks you can run it or not.\nRuntimeError: CUDA error: no kernel image is available for execution on the device\nOn rtx 2070",
        "torch.gpu-too-new-for-build",
        "https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/2039",
    ),
    # GTX 950 again: CTranslate2 falls back from float16 on the old card; not a Blackwell card
    (
        "[ctranslate2] [thread 10436] [warning] The compute type inferred from the saved model is float16, but the target device or backend do not support efficient float16 computation. The model weights have been automatically converted to use the float32 compute type instead.\nGeForce GTX 950",
        "cuda.gpu-too-new-for-binary",
        "https://github.com/SYSTRAN/faster-whisper/issues/806",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_this_cause = lookalike_test(LOOKALIKE)
