"""End-user applications' frequent messages (checks/signatures/*.toml and the entries it
extends): ComfyUI / Stable Diffusion front ends and their upscalers, faster-whisper / WhisperX,
Whisper front ends, llama.cpp, the A1111 launcher on Windows. Each message is copied from a public
thread whose fix was confirmed (the reporter says it worked, or a maintainer states cause and fix);
it reaches that cause first, and one of the cause's fixes names the knob the confirmed fix turned.
Look-alike rows are real messages of other causes a new pattern could catch: they must not rank
the new cause first."""

from __future__ import annotations

from tests.triage_lines import command_test, lookalike_test

# (message verbatim from the thread, the finding id first, text a command of one of its fixes holds, URL)
KNOB = [
    (
        "No module named 'torchvision.transforms.functional_tensor'",
        "torchvision.functional-tensor-removed",
        "torchvision.transforms.functional import rgb_to_grayscale",
        "https://github.com/XPixelGroup/BasicSR/issues/663",  # reporter: renaming the import fixed it
    ),
    (
        "Requested float16 compute type, but the target device or backend do not support efficient "
        "float16 computation.",
        "fit.dtype-unsupported",
        'compute_type="float32"',
        "https://github.com/JarodMica/audiosplitter_whisper/issues/4",  # GTX 1070: float32 worked
    ),
    (
        '  File "/whisper/whisper-diarization/venv/lib/python3.8/site-packages/faster_whisper/'
        'transcribe.py", line 133, in __init__\n'
        "    self.model = ctranslate2.models.Whisper(\n"
        "ValueError: Requested float16 compute type, but the target device or backend do not support "
        "efficient float16 computation.",
        "fit.dtype-unsupported",
        'compute_type="float32"',
        "https://github.com/MahmoudAshraf97/whisper-diarization/issues/216",  # P40: float32 works
    ),
    (
        '    model = WhisperModel(model_path, device="cpu", compute_type="float16") # compute_type="float16"\n'
        '  File "/home/kris/faster-whisper/faster_whisper/transcribe.py", line 71, in __init__\n'
        "    self.model = ctranslate2.models.Whisper(\n"
        "ValueError: Requested float16 compute type, but the target device or backend do not support "
        "efficient float16 computation.`",
        "fit.dtype-unsupported",
        'compute_type="int8"',
        "https://github.com/SYSTRAN/faster-whisper/issues/14",  # maintainer: drop float16 on the CPU
    ),
    (
        "ValueError: Requested float16 compute type, but the target device or backend do not support "
        "efficient float16 computation.",
        "fit.dtype-unsupported",
        "--compute_type float32",
        "https://github.com/m-bain/whisperX/issues/878",  # M1: --compute_type float32 worked
    ),
    (
        "FileNotFoundError: [WinError 2] The system cannot find the file specified\n"
        "RuntimeWarning: Couldn't find ffmpeg or avconv - defaulting to ffmpeg, but may not work\n"
        '  warn("Couldn\'t find ffmpeg or avconv - defaulting to ffmpeg, but may not work", RuntimeWarning)',
        "app.ffmpeg-not-found",
        "ffmpeg -version",
        "https://github.com/mallorbc/whisper_mic/issues/9",  # maintainer: install ffmpeg, on PATH
    ),
    (
        "使用代码中工作流，运行报错如下：module 'torch' has no attribute 'float8_e4m3fn'。",
        "torch.release-too-old",
        "pip install -U torch",
        "https://github.com/kijai/ComfyUI-CogVideoXWrapper/issues/12",  # maintainer: torch too old
    ),
    (
        "ImportError: cannot import name 'cached_download' from 'huggingface_hub'",
        "python.hf-hub-api-removed",
        "huggingface_hub<0.26",
        "https://github.com/GaParmar/img2img-turbo/issues/97",  # reporter: older huggingface_hub worked
    ),
    (
        "    from huggingface_hub import HfFolder, cached_download, hf_hub_download, model_info\n"
        "ImportError: cannot import name 'cached_download' from 'huggingface_hub' "
        "(/home/anaconda3/envs/distifusion/lib/python3.10/site-packages/huggingface_hub/__init__.py)",
        "python.hf-hub-api-removed",
        "huggingface_hub<0.26",
        "https://github.com/mit-han-lab/distrifuser/issues/24",  # reporter: downgrading the hub fixed it
    ),
    (
        "Cannot import C:\\CondaUI\\custom_nodes\\comfyui-fluxtrainer module for custom nodes: cannot "
        "import name 'cached_download' from 'huggingface_hub' (C:\\Conda\\.conda_envs\\comfyui\\Lib\\"
        "site-packages\\huggingface_hub\\__init__.py)",
        "python.hf-hub-api-removed",
        "pip install -U diffusers",
        "https://github.com/kijai/ComfyUI-FluxTrainer/issues/178",  # maintainer: update diffusers; worked
    ),
    (
        "safetensors_rust.SafetensorError: Error while deserializing header: MetadataIncompleteBuffer",
        "model.file-incomplete",
        "--force-download",
        "https://github.com/lyogavin/airllm/issues/137",  # maintainer: partial download, fetch it again
    ),
    (
        "在训练环节卡在80%状态，log报错“safetensors_rust.SafetensorError: Error while deserializing "
        "header: MetadataIncompleteBuffer”，重新启动还是一样",
        "model.file-incomplete",
        "--force-download",
        "https://github.com/mindverse/Second-Me/issues/105",  # maintainer: not downloaded completely
    ),
    (
        "Couldn't launch python\n\nexit code: 9009\n\nstderr:\nPython was not found; run without "
        "arguments to install from the Microsoft Store, or disable this shortcut from Settings > Manage "
        "App Execution Aliases.\n\nLaunch unsuccessful. Exiting.",
        "windows.python-not-found",
        "set PYTHON=",
        "https://github.com/CompVis/stable-diffusion/issues/663",  # member: Python not installed / on PATH
    ),
    (
        "ggml_init_cublas: no CUDA devices found, CUDA will be disabled",
        "cuda.toolkit-newer-than-driver",
        "nvidia-smi",
        "https://github.com/ggml-org/llama.cpp/issues/6184",  # maintainer: driver older than toolkit; fixed
    ),
]


test_a_common_message_gets_its_cause_and_the_knob_it_states = command_test(
    KNOB, ids=[k[3] for k in KNOB]
)


# (a real message of another cause, the new cause it must not be read as, URL)
LOOKALIKE = [
    # torchvision 0.15/0.16 only warn: the module is still there
    (
        "C:\\Users\\lin\\stable-diffusion-webui-directml\\venv\\lib\\site-packages\\torchvision\\transforms\\"
        "functional_tensor.py:5: UserWarning: The torchvision.transforms.functional_tensor module is "
        "deprecated in 0.15 and will be **removed in 0.17**. Please don't rely on it.",
        "torchvision.functional-tensor-removed",
        "https://github.com/lshqqytiger/stable-diffusion-webui-amdgpu/issues/38",
    ),
    # an FFmpeg that is there but too new for the driver's NVENC API
    (
        "[h264_nvenc @ 0x7ff3e9b83c00] Driver does not support the required nvenc API version. "
        "Required: 9.1 Found: 9.0\n[h264_nvenc @ 0x7ff3e9b83c00] The minimum required Nvidia driver "
        "for nvenc is 418.30 or newer",
        "app.ffmpeg-not-found",
        "https://github.com/livepeer/go-livepeer/pull/1106",
    ),
    # a GGML-era file in a GGUF reader: the format, not a partial download
    (
        "gguf_init_from_file: invalid magic characters tjgg9.\n"
        "llama_model_quantize: failed to quantize: llama_model_loader: failed to load model from "
        ".\\models\\7B\\ggml-model-f16.bin",
        "model.file-incomplete",
        "https://github.com/ggml-org/llama.cpp/issues/3905",
    ),
]


test_a_look_alike_message_is_not_read_as_the_new_cause = lookalike_test(
    LOOKALIKE, ids=[k[1] for k in LOOKALIKE], may_be_empty=True
)
