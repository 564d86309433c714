"""Round 38's changes: flash-attn 2.8.1's compressed kernels on an older driver, Python's
pyconfig.h stopping on a missing Windows SDK header, ggml's Metal shader source not found beside
a Homebrew binary, a wheel file name pip cannot parse, mmcv built without its CUDA ops, a
missing OpenVINO provider told in words, and a problem that began with a driver update."""

from __future__ import annotations

from envdoctor.triage_engine import triage_text
from tests.triage_lines import (
    assert_read_instead,
    finding_origins,
    fix_texts,
    source_knob_test,
    training_case_test,
)

ID_FA = "flashattn.wheel-needs-newer-driver"

FLASH_ATTN_1749 = (
    'flash_attn/flash_attn_interface.py", line 165, in _flash_attn_varlen_forward\n'
    "[rank0]:     out, softmax_lse, S_dmask, rng_state = flash_attn_gpu.varlen_fwd(\n"
    "[rank0]: RuntimeError: CUDA error: device kernel image is invalid\n"
    "[rank0]: CUDA kernel errors might be asynchronously reported at some other API call, so the "
    "stacktrace below might be incorrect."
)

METAL_1707 = (
    "I am using homebrew installed whisper-cpp on an Apple Silicon Mac. It complains\n"
    "ggml_metal_init: error: could not use bundle path to find ggml-metal.metal, falling back to "
    "trying cwd\n"
    "The file is located at\n/opt/homebrew/share/whisper-cpp/ggml-metal.metal"
)

OPENVINO_9387 = (
    "I am trying to run inference using OpenVINO execution provider but it is not found when "
    "running `ort.get_available_providers()`. As a response I am getting `['CPUExecutionProvider']`"
    "\nI am using python for inference code and installed onnxruntime and openvino from pypi."
)

DRIVER_6341 = (
    "GPU model\nRTX 3060 TI\n\nAfter upgrading the GPU driver to version 552.44 WHQL, the computer "
    "froze during generation. The machine was totally unresponsive."
)

# (thread, text, finding id, knob): lines verbatim from the threads named
ROWS = [
    (
        "https://github.com/Dao-AILab/flash-attention/issues/1749",
        FLASH_ATTN_1749,
        "flashattn.wheel-needs-newer-driver",
        "flash-attn==2.8.0.post2",
    ),
    (
        "https://github.com/RVC-Project/Retrieval-based-Voice-Conversion-WebUI/issues/1352",
        "c:\\users\\babud\\appdata\\local\\programs\\python\\python310\\include\\pyconfig.h(200): "
        "fatal error C1083: Cannot open include file: 'basetsd.h': No such file or directory\n"
        "  ERROR: Failed building wheel for fairseq",
        "windows.sdk-headers-missing",
        "Windows 11 SDK",
    ),
    (
        "https://github.com/ggml-org/whisper.cpp/issues/1707",
        METAL_1707,
        "app.llamacpp.metal-shader-source-missing",
        "GGML_METAL_PATH_RESOURCES",
    ),
    (
        "https://github.com/MooreThreads/torch_musa/issues/38",
        " pip install torch-2.0.0-cp310-cp310-linux_x86_64-S80_S3000.whl \n"
        "ERROR: torch-2.0.0-cp310-cp310-linux_x86_64-S80_S3000.whl is not a valid wheel filename.",
        "python.wheel-filename-mangled",
        "Rename",
    ),
    (
        "https://github.com/open-mmlab/mmdetection/issues/10841",
        'Errors reported during training, "RuntimeError: ms_deform_attn_impl_forward: '
        'implementation for device cuda:0 not found."\nmodule load cuda/11.7',
        "mmcv.ops-not-built",
        "FORCE_CUDA=1",
    ),
    (
        "https://github.com/microsoft/onnxruntime/issues/9387",
        OPENVINO_9387,
        "onnxruntime.cpu-package-shadows-gpu",
        "onnxruntime-openvino",
    ),
    (
        "https://github.com/NVIDIAGameWorks/kaolin/issues/561",
        "TypeError: unsupported operand type(s) for +: 'NoneType' and 'str' on line 105 File "
        '"setup.py" Raised when running "python setup.py develop"\nSpeculate may be the cuda_dir '
        "is None.\ntorch==1.10.2+cu113",
        "torch.extension-cuda-toolkit-missing",
        "CUDA_HOME",
    ),
    (
        "https://github.com/invoke-ai/InvokeAI/issues/6341",
        DRIVER_6341,
        "nvidia.driver-release-regression",
        "Roll back",
    ),
]

test_canonical_lines_reach_their_cause = source_knob_test(ROWS)

# (training case, finding id, knob, its thread): scored as the corpus scores them
CASES = [
    (
        "en-33000-flashattn-281-kernel-image-invalid.txt",
        "flashattn.wheel-needs-newer-driver",
        "2.8.0",
        "https://github.com/Dao-AILab/flash-attention/issues/1749",
    ),
    (
        "en-33305-whisper-cpp-homebrew-metal-resources-path.txt",
        "app.llamacpp.metal-shader-source-missing",
        "GGML_METAL_PATH_RESOURCES",
        "https://github.com/ggml-org/whisper.cpp/issues/1707",
    ),
    (
        "en-33603-mmdet-ms-deform-attn-mmcv-built-cpu-login-node.txt",
        "mmcv.ops-not-built",
        "FORCE_CUDA",
        "https://github.com/open-mmlab/mmdetection/issues/10841",
    ),
    (
        "en-33403-ort-openvino-ep-not-in-pypi.txt",
        "onnxruntime.cpu-package-shadows-gpu",
        "onnxruntime-openvino",
        "https://github.com/microsoft/onnxruntime/issues/9387",
    ),
]

test_development_cases_reach_their_cause = training_case_test(CASES, keywords=True)


def test_the_kernel_image_line_without_flash_attn_is_not_this_reading() -> None:
    """The same CUDA error from TensorFlow's start-up names no flash-attn: another reading."""
    text = (
        "InternalError: CUDA runtime implicit initialization on GPU:0 failed. Status: device "
        "kernel image is invalid"
    )
    assert_read_instead(text, "flashattn.wheel-needs-newer-driver", "cuda.gpu-too-new-for-binary")


def test_the_driver_update_fix_steps_aside_on_a_new_enough_driver() -> None:
    """The driver update is offered where the paste's driver is older than 550.54.14, not
    where it is already newer (then only the flash-attn release is left)."""
    old = FLASH_ATTN_1749 + "\nDriver Version: 535.247.01   CUDA Version: 12.2"
    new = FLASH_ATTN_1749 + "\nDriver Version: 560.35.03   CUDA Version: 12.6"
    assert any("update the NVIDIA driver" in t for t in fix_texts(old, ID_FA))
    assert not any("update the NVIDIA driver" in t for t in fix_texts(new, ID_FA))
    assert any("2.8.0.post2" in t for t in fix_texts(new, ID_FA))


def test_a_metal_file_found_after_the_warning_is_not_a_missing_shader() -> None:
    """ggml warns that the bundle path failed and then loads the file from the folder it falls
    back to: nothing is missing."""
    found = (
        "ggml_metal_init: error: could not use bundle path to find ggml-metal.metal, falling "
        "back to trying cwd\n"
        "ggml_metal_init: loading '/Users/me/whisper.cpp/ggml-metal.metal'\n"
        "whisper_init_state: failed to allocate memory"
    )
    assert "app.llamacpp.metal-shader-source-missing" not in [
        f.id for f in triage_text(found).findings
    ]
    assert "app.llamacpp.metal-shader-source-missing" in [
        f.id for f in triage_text(METAL_1707).findings
    ]


def test_the_homebrew_fix_leads_only_for_homebrew() -> None:
    """The Homebrew share folder is named first for a Homebrew install, not for a build run
    from another folder."""
    built = (
        "ggml_metal_init: error: could not use bundle path to find ggml-metal.metal, falling back "
        "to trying cwd\n./main -m models/ggml-base.en.bin"
    )
    brew_first = fix_texts(METAL_1707, "app.llamacpp.metal-shader-source-missing")[0]
    assert "brew --prefix" in brew_first
    assert not any(
        "brew --prefix" in t for t in fix_texts(built, "app.llamacpp.metal-shader-source-missing")
    )


def test_the_sdk_title_names_the_header_of_the_paste() -> None:
    basetsd = ROWS[1][1]
    corecrt = (
        "crtdefs.h(10): fatal error C1083: Cannot open include file: 'corecrt.h': No such file "
        "or directory"
    )
    titles = {
        t: next(f.title for f in triage_text(t).findings if f.id == "windows.sdk-headers-missing")
        for t in (basetsd, corecrt)
    }
    assert "basetsd.h" in titles[basetsd] and "corecrt.h" not in titles[basetsd]
    assert "corecrt.h" in titles[corecrt]


def test_an_openvino_provider_in_words_is_not_the_cpu_package_reading() -> None:
    """The paste lists only the CPU provider, but the provider it asks for is OpenVINO: the
    fix is OpenVINO's package, not onnxruntime-gpu; a CUDA paste keeps the CPU-package fix."""
    assert "signature:onnxruntime.other-ep-package-missing" in finding_origins(OPENVINO_9387)
    assert not any(
        "install only onnxruntime-gpu" in t
        for t in fix_texts(OPENVINO_9387, "onnxruntime.cpu-package-shadows-gpu")
    )
    cuda = (
        "UserWarning: Specified provider 'CUDAExecutionProvider' is not in available provider "
        "names.Available providers: 'CPUExecutionProvider'"
    )
    assert "signature:onnxruntime.cpu-package-shadows-gpu" in finding_origins(cuda)


def test_a_driver_update_that_fixed_things_is_not_a_regression() -> None:
    """'After updating the driver it works' and a driver the software calls too old are other
    stories; the freeze after an update is read as the release's regression."""
    fixed = (
        "RuntimeError: The NVIDIA driver on your system is too old (found version 11010).\n"
        "After updating the NVIDIA driver to the latest version 560.94 the error is gone."
    )
    assert "nvidia.driver-release-regression" not in [f.id for f in triage_text(fixed).findings]
    works = (
        "ComfyUI crashed with CUDA error: an illegal memory access was encountered.\n"
        "After updating the NVIDIA driver to 552.44 it works again."
    )
    assert "nvidia.driver-release-regression" not in [f.id for f in triage_text(works).findings]
    assert triage_text(DRIVER_6341).findings[0].id == "nvidia.driver-release-regression"


def test_a_chinese_driver_update_report_is_read_the_same_way() -> None:
    text = "更新显卡驱动到 552.44 之后，生成图片时电脑直接卡死，只能重启。"
    assert triage_text(text).findings[0].id == "nvidia.driver-release-regression"


def test_a_none_concatenation_outside_a_cuda_build_is_not_a_missing_toolkit() -> None:
    """The same Python type error from a script that builds nothing with CUDA is another story."""
    text = (
        'File "app.py", line 12, in <module>\n    name = prefix + "_out"\n'
        "TypeError: unsupported operand type(s) for +: 'NoneType' and 'str'"
    )
    assert "torch.extension-cuda-toolkit-missing" not in [f.id for f in triage_text(text).findings]
    assert triage_text(ROWS[6][1]).findings[0].id == "torch.extension-cuda-toolkit-missing"


HANG_306 = (
    "I found that tensorflow process gets stuck after training lasts almost 30 hours and this "
    "problem can be reproduced every time. The usages of all gpus are 100% when all processes hang up."
)


def test_a_hang_after_hours_at_full_utilisation_is_read_as_a_stuck_collective() -> None:
    """nccl#306: hours of training, then every GPU spinning at 100%: a stuck NCCL collective
    (the maintainer's answer was a protocol switch), not a broken P2P path; a hang at start-up
    with no hours named is not this reading."""
    found = triage_text(HANG_306).findings
    assert found[0].id == "nccl.release-bug-needs-upgrade", [f.id for f in found[:3]]
    assert any("NCCL_PROTO" in t for t in fix_texts(HANG_306, "nccl.release-bug-needs-upgrade"))
    at_start = "Training hangs at the first allreduce. The usages of all gpus are 100%."
    assert "nccl.release-bug-needs-upgrade" not in [f.id for f in triage_text(at_start).findings]


def test_the_wheel_rename_command_runs_in_any_shell() -> None:
    """The rename is a Python call (cmd.exe has no mv), on the file the paste names."""
    [rename, *_] = fix_texts(ROWS[3][1], "python.wheel-filename-mangled")
    assert "os.rename('torch-2.0.0-cp310-cp310-linux_x86_64-S80_S3000.whl'" in rename
    assert " mv " not in f" {rename} "
