"""Round 5's Chinese-ecosystem lines (checks/signatures/*.toml): each real line, as the source
threads quote it, reaches its cause first with the knob the confirmed fix turned on; the lines
that are noise in most logs do not."""

from __future__ import annotations

import pytest

from envdoctor.triage_engine import triage_text
from tests.triage_lines import assert_first_with_knob

PADDLE_MAXWELL = (  # PaddlePaddle/Paddle#74088
    "W0717 03:51:46.792800    14 gpu_resources.cc:96] The GPU architecture in your current machine "
    "is Maxwell, which is not compatible with Paddle installation with arch: 60 61 70 75 80 86 , it "
    "is recommended to install the corresponding wheel package according to the installation "
    "information on the official Paddle website.\n"
    "CUDA error 209 [/usr/local/cuda-11.8/include/cub/util_device.cuh, 375]: no kernel image is "
    "available for execution on the device"
)
PADDLE_AMPERE = (  # PaddlePaddle/PaddleOCR#13701
    "The GPU architecture in your current machine is Ampere, which is not compatible with Paddle "
    "installation with arch: 60 61 70 75 , it is recommended to install the corresponding wheel "
    "package according to the installation information on the official Paddle website."
)


@pytest.mark.parametrize(
    ("text", "cause", "knob"),
    [
        (PADDLE_MAXWELL, "paddle.gpu-too-old-for-build", "paddlepaddle-gpu"),
        (PADDLE_AMPERE, "paddle.gpu-too-new-for-build", "CUDA 11.2"),
        (
            # PaddlePaddle/Paddle#34689
            "    predictor = inference.create_predictor(config)\n"
            "RuntimeError: (Unavailable) Load tensorrt api getInferLibVersion failed\n"
            "  [Hint: p_getInferLibVersion should not be null.] (at "
            "/paddle/paddle/fluid/platform/dynload/tensorrt.h:114)",
            "tensorrt.lib-not-on-loader-path",
            "LD_LIBRARY_PATH",
        ),
        (
            # PaddlePaddle/PaddleFormers#548
            "RuntimeError: Attempt to use GPU for prediction, but environment variable "
            "CUDA_VISIBLE_DEVICES was not set correctly.",
            "cuda.env-not-inherited",
            "CUDA_VISIBLE_DEVICES",
        ),
        (
            # intel/intel-extension-for-pytorch#804
            'OSError: [WinError 126] 找不到指定的模块。 Error loading "E:\\programs\\python\\Python312'
            '\\Lib\\site-packages\\intel_extension_for_pytorch\\bin\\intel-ext-pt-gpu.dll" or one '
            "of its dependencies.",
            "intel.oneapi-not-sourced",
            "setvars",
        ),
        (
            "Jetson Xavier NX 上 import numpy 就报 Illegal instruction (core dumped)",
            "jetson.numpy-openblas-illegal-instruction",
            "OPENBLAS_CORETYPE",
        ),
    ],
)
def test_line_reaches_its_cause_with_the_knob(text: str, cause: str, knob: str) -> None:
    assert_first_with_knob(text, cause, knob)


def test_paddle_tensorrt_import_warning_does_not_outrank_the_real_error() -> None:
    # Paddle#29362: every TensorRT build prints it; harmless when TensorRT is not used
    text = (
        "W0829 19:15:43.720268  3556 tensorrt.cc:56] You are using Paddle compiled with TensorRT, "
        "but TensorRT dynamic library is not found. Ignore this if TensorRT is not needed.\n"
        "RuntimeError: Attempt to use GPU for prediction, but environment variable "
        "CUDA_VISIBLE_DEVICES was not set correctly."
    )
    assert triage_text(text).findings[0].id == "cuda.env-not-inherited"


def test_illegal_instruction_off_a_jetson_is_not_the_jetson_cause() -> None:
    ids = [f.id for f in triage_text("Illegal instruction (core dumped) on my Ryzen PC").findings]
    assert "jetson.numpy-openblas-illegal-instruction" not in ids


@pytest.mark.parametrize(
    ("text", "cause", "knob"),
    [
        # Diorser/LiteMonitor#499, AaronFeng753/Waifu2x-Extension-GUI#739
        (
            "为什么任务管理器独显占用为0，但软件一直显示显存占用",
            "platform.gpu-load-misread",
            "Cuda",
        ),
        (
            "在工作状态下任务管理器不显示GPU工作，但是在GPU-Z中显示100%",
            "platform.gpu-load-misread",
            "nvidia-smi",
        ),
        # QwenLM/Qwen#835
        (
            "vLLM 部署时会占用整个显存，这个有办法限制吗？比如限制只占用 50 % 的显存",
            "app.vllm.gpu-memory-utilization-too-high",
            "gpu-memory-utilization",
        ),
    ],
)
def test_chinese_prose_reaches_its_cause(text: str, cause: str, knob: str) -> None:
    assert_first_with_knob(text, cause, knob)


def test_an_idle_gpu_with_a_cpu_build_is_not_a_misread_graph() -> None:
    text = "CUDA完全不工作，torch.cuda.is_available() 返回 False，这正常吗"
    # (a similar thread of the case base may still be suggested, below the CPU-build cause)
    assert triage_text(text).findings[0].id == "torch.cpu-build-on-gpu-host"


def test_a_linux_server_has_no_task_manager() -> None:
    text = "在服务器上跑的，GPU利用率一直是0%，这正常吗"
    assert "platform.gpu-load-misread" not in [f.id for f in triage_text(text).findings]


def test_a_framework_that_preallocates_by_its_own_knob_is_not_vllm() -> None:
    text = "tensorflow 一启动就把显存吃满了，怎么限制显存占用"
    # (a similar vLLM thread of the case base may still be suggested, below the prose causes)
    assert triage_text(text).findings[0].id != "app.vllm.gpu-memory-utilization-too-high"


@pytest.mark.parametrize(
    ("text", "cause", "knob"),
    [
        (
            # 2noise/ChatTTS#886 (the Chinese locale) and pytorch/pytorch#41585 (English)
            "OSError: [WinError 193] %1 不是有效的 Win32 应用程序。 Error loading "
            '"D:\\Program Files\\Python311\\Lib\\site-packages\\torch\\lib\\cublas64_12.dll" or one '
            "of its dependencies.",
            "windows.dll-dependency-missing",
            "--force-reinstall",
        ),
        (
            "OSError: [WinError 193] %1 is not a valid Win32 application",
            "windows.dll-dependency-missing",
            "64-bit",
        ),
        (
            "ImportError: libnvinfer.so.8: 无法打开共享对象文件: 没有那个文件或目录",
            "tensorrt.lib-not-on-loader-path",
            "LD_LIBRARY_PATH",
        ),
    ],
)
def test_windows_and_locale_lines(text: str, cause: str, knob: str) -> None:
    assert_first_with_knob(text, cause, knob)
