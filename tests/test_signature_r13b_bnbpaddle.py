"""bitsandbytes and PaddlePaddle, round 13 second sweep (checks/signatures/{quantization,paddle,cuda}.toml): each
common message, verbatim from a public thread whose fix was confirmed, reaches its cause first with a fix
naming the knob that fix turned; look-alike messages of other causes are not read as the new causes."""

from __future__ import annotations

import pytest

from envdoctor.triage_engine import triage_text

# (message, the finding id first, a command one of its fixes gives); the thread's URL above each row
KNOB = [
    # https://github.com/EvilBT/ComfyUI_SLK_joy_caption_two/issues/186 (upgrading bitsandbytes fixed it)
    (
        "function 'cdequantize_blockwise_fp32' not found",
        "bitsandbytes.windows-unsupported",
        "pip install -U 'bitsandbytes>=0.43.0'",
    ),
    # https://github.com/artidoro/qlora/issues/26 (install bitsandbytes 0.39.0 from PyPI)
    (
        "ValueError: 4 bit quantization requires bitsandbytes>=0.39.0 - please upgrade your "
        "bitsandbytes version",
        "bitsandbytes.transformers-import-check",
        "pip install -U 'bitsandbytes>=0.39.0'",
    ),
    # https://github.com/PaddlePaddle/PaddleOCR/issues/11630 (another paddlepaddle release ran)
    (
        "Error Message Summary:\n"
        "FatalError: `Illegal instruction` is detected by the operating system.\n"
        '  [TimeInfo: *** Aborted at 1709025734 (unix time) try "date -d @1709025734" if you are '
        "using GNU date ***]\n"
        "  [SignalInfo: *** SIGILL (@0x7f278b41e86a) received by PID 44052 (TID 0x7f2792799000) "
        "from PID 18446744071750936682 ***]",
        "paddle.cpu-instruction-unsupported",
        "pip index versions paddlepaddle",
    ),
    # https://github.com/PaddlePaddle/Paddle/issues/30933 (reinstalling the .post101 wheel ran)
    (
        "OSError: (External)  Cuda error(35), CUDA driver version is insufficient for CUDA runtime "
        "version.\n  [Advise: This indicates that the installed NVIDIA CUDA driver is older than the "
        "CUDA runtime library. This is not a supported configuration.Users should install an updated "
        "NVIDIA display driver to allow the application to run.] (at "
        "/paddle/paddle/fluid/platform/gpu_info.cc:78)",
        "cuda.toolkit-newer-than-driver",
        "python -m pip uninstall -y paddlepaddle-gpu",
    ),
    # https://github.com/PaddlePaddle/PaddleDetection/issues/8493 (maintainer: driver vs the wheel's CUDA)
    (
        "OSError: (External) CUDA error(35), CUDA driver version is insufficient for CUDA runtime "
        "version.\n  [Hint: 'cudaErrorInsufficientDriver'. This indicates that the installed NVIDIA "
        "CUDA driver is older than the CUDA runtime library. This is not a supported "
        "configuration.Users should install an updated NVIDIA display driver to allow the "
        "application to run.] (at ..\\paddle\\phi\\backends\\gpu\\cuda\\cuda_info.cc:67)",
        "cuda.toolkit-newer-than-driver",
        "nvidia-smi | grep 'CUDA Version'",
    ),
    # https://github.com/PaddlePaddle/Paddle/issues/66947 (removing / aligning nvidia-cudnn fixed it);
    # the message as https://github.com/PaddlePaddle/PaddleX/issues/1944 posted it
    (
        "OSError: [WinError 127] 找不到指定的程序。 Error loading "
        '"D:\\anaconda\\envs\\PaddleX\\lib\\site-packages\\paddle\\..\\nvidia\\cudnn\\bin\\'
        'cudnn_adv_infer64_8.dll" or one of its dependencies.',
        "paddle.cudnn-dll-clash",
        "pip uninstall -y nvidia-cudnn-cu12  # cu11 for a CUDA 11.8 Paddle; needs a system cuDNN "
        "afterwards",
    ),
    # https://github.com/PaddlePaddle/PaddleOCR/issues/9913 (the .post112 wheel for CUDA 11 fixed it)
    (
        "RuntimeError: (PreconditionNotMet) The third-party dynamic library (cudnn64_7.dll) that "
        "Paddle depends on is not configured correctly. (error code is 126)",
        "paddle.wheel-cuda-mismatch",
        "python -m pip install paddlepaddle-gpu==<version> -i "
        "https://www.paddlepaddle.org.cn/packages/stable/cu118/",
    ),
    # https://github.com/YaoFANGUK/video-subtitle-extractor/issues/45 (adding the CUDA folder to PATH fixed it)
    (
        "RuntimeError: (PreconditionNotMet) The third-party dynamic library (cudnn64_8.dll) that "
        "Paddle depends on is not configured correctly. (error code is 126)\n  Suggestions:\n"
        "  1. Check if the third-party dynamic library (e.g. CUDA, CUDNN) is installed correctly and "
        "its version is matched with paddlepaddle you installed.\n"
        "  2. Configure third-party dynamic library environment variables as follows:\n"
        "  - Linux: set LD_LIBRARY_PATH by `export LD_LIBRARY_PATH=...`\n"
        "  - Windows: set PATH by `set PATH=XXX; (at "
        "C:\\home\\workspace\\Paddle_release\\paddle\\fluid\\platform\\dynload\\dynamic_loader.cc:265)",
        "paddle.wheel-cuda-mismatch",
        "where cudnn64_*.dll",
    ),
    # https://github.com/PaddlePaddle/PaddleDetection/issues/7629 (maintainer: cuDNN not installed / not on the path)
    (
        "RuntimeError: (PreconditionNotMet) Cannot load cudnn shared library. Cannot invoke method "
        "cudnnGetVersion. [Hint: cudnn_dso_handle should not be null.] (at "
        "/paddle/paddle/phi/backends/dynload/cudnn.cc:64)",
        "cuda.cudnn-missing",
        "ldconfig -p | grep libcudnn",
    ),
    # https://github.com/eosphoros-ai/DB-GPT-Hub/issues/90 (upgrading bitsandbytes fixed it)
    (
        "AttributeError: /home/server/miniconda3/envs/dbgpt_env/lib/python3.10/site-packages/"
        "bitsandbytes/libbitsandbytes_cpu.so: undefined symbol: cquantize_blockwise_fp16_nf4",
        "bitsandbytes.cuda-setup-failed",
        "pip install -U 'bitsandbytes>=0.43.0'",
    ),
    # https://github.com/bitsandbytes-foundation/bitsandbytes/issues/1307 (bitsandbytes 0.43.1 worked)
    (
        "RuntimeError: CUDA Setup failed despite GPU being available. Please run the following "
        "command to get more information: python -m bitsandbytes Inspect the output of the command "
        "and see if you can locate CUDA libraries. You might need to add them to your LD_LIBRARY_PATH.",
        "bitsandbytes.cuda-setup-failed",
        "pip install -U 'bitsandbytes>=0.43.0'",
    ),
    # https://github.com/PaddlePaddle/PaddleDetection/issues/8873 (maintainer: install the wheel for this GPU/CUDA)
    (
        " The GPU architecture in your current machine is Pascal, which is not compatible with Paddle "
        "installation with arch: 70 75 80 86 , it is recommended to install the corresponding wheel "
        "package according to the installation information on the official Paddle website.",
        "paddle.gpu-too-old-for-build",
        "python -m pip uninstall -y paddlepaddle-gpu",
    ),
]


@pytest.mark.parametrize(("text", "finding_id", "command"), KNOB, ids=[k[1] for k in KNOB])
def test_a_common_message_gets_its_cause_and_the_knob_it_states(text, finding_id, command) -> None:
    finding = triage_text(text + "\n").findings[0]
    assert finding.id == finding_id
    assert command in [c for fix in finding.fixes for c in fix.commands]


def test_the_minimum_bitsandbytes_is_the_one_the_message_names() -> None:
    finding = triage_text(KNOB[1][0] + "\n").findings[0]
    assert "0.39.0" in finding.title


@pytest.mark.parametrize(
    ("text", "not_id"),
    [
        # Linux says "undefined symbol" for the same library: the CPU-library cause, not Windows
        (
            "/usr/local/lib/python3.10/dist-packages/bitsandbytes/libbitsandbytes_cpu.so: undefined "
            "symbol: cadam32bit_grad_fp32",
            "bitsandbytes.windows-unsupported",
        ),
        # a Jetson's SIGILL is OpenBLAS's core type (export OPENBLAS_CORETYPE=ARMV8, confirmed by
        # the reporter: https://github.com/NVIDIA-AI-IOT/torch2trt/issues/609), not Paddle's wheel
        (
            "I'am trying to install torch2trt at Jetson Nano, but `Illegal instruction` occured.",
            "paddle.cpu-instruction-unsupported",
        ),
        # WinError 127 on torch's own DLLs is two torch installs mixed (r12_vendors)
        (
            "OSError: [WinError 127] The specified procedure could not be found. Error loading "
            '"C:\\Python39\\lib\\site-packages\\torch\\lib\\c10_cuda.dll" or one of its dependencies.',
            "paddle.cudnn-dll-clash",
        ),
        # the driver-too-old message of torch is not Paddle's wheel
        (
            "RuntimeError: CUDA error: CUDA driver version is insufficient for CUDA runtime version",
            "paddle.wheel-cuda-mismatch",
        ),
    ],
)
def test_a_look_alike_message_is_not_read_as_the_cause(text, not_id) -> None:
    findings = triage_text(text + "\n").findings
    assert not findings or findings[0].id != not_id
