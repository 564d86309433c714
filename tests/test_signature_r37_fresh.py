"""Round 37's changes: an application launcher that refuses the Python it runs under (kohya_ss's
setup, InvokeAI's installer), a Paddle setup on a CUDA older than its GPU, a paste naming two
GPUs whose name and compute capability were taken from different cards, the Python a message asks
for read as the one in use, an insufficient driver with no versions offering no driver update,
and a release's Python versions written as a range that could hide one it skips."""

from __future__ import annotations

from envdoctor.triage_engine import triage_text
from tests.triage_lines import (
    finding_ids,
    finding_origins,
    fix_texts,
    source_knob_test,
    training_case_test,
)

# (thread, text, finding id, knob): canonical lines verbatim from the threads named
ROWS = [
    (
        "https://github.com/bmaltais/kohya_ss/issues/2617",
        "21:51:54-791080 ERROR    The current version of python (sys.version_info(major=3, minor=11, "
        "micro=2, releaselevel='final', serial=0)) is not appropriate to run Kohya_ss GUI\n"
        "21:51:54-793654 ERROR    The python version needs to be greater or equal to 3.10.9 and "
        "less than 3.11.0",
        "python.no-matching-wheel",
        "Python 3.10",
    ),
    (
        "https://github.com/bmaltais/kohya_ss/issues/1361",
        "**20:01:15-133757 ERROR    Incompatible Python version: 3.11.3 required 3.[9, 10]**",
        "python.no-matching-wheel",
        "3.10",
    ),
    (
        "https://github.com/invoke-ai/InvokeAI/issues/7334",
        "A suitable Python interpreter could not be found\nPlease install Python 3.10.0 or higher "
        "(maximum 3.11.100) before running this script. See instructions at  for help.\n"
        "InvokeAI-Installer python --version\nPython 3.12.7",
        "python.no-matching-wheel",
        "Python 3.10",
    ),
]

test_canonical_lines_reach_their_cause = source_knob_test(ROWS)

# (training case, finding id, knob, its thread): scored as the corpus scores them
CASES = [
    (
        "en-31401-kohya-debian-python311-needs-310.txt",
        "python.no-matching-wheel",
        "python 3.10",
        "https://github.com/bmaltais/kohya_ss/issues/2617",
    ),
    (
        "zh-31102-paddle-2080ti-cuda9-cudnn-exec-failed.txt",
        "paddle.gpu-too-new-for-build",
        "CUDA 10.0 or newer",
        "https://github.com/PaddlePaddle/Paddle/issues/22874",
    ),
    (
        "en-31402-kohya-python-3113-incompatible.txt",
        "python.no-matching-wheel",
        "3.10",
        "https://github.com/bmaltais/kohya_ss/issues/1361",
    ),
]

test_development_cases_reach_their_cause = training_case_test(CASES, keywords=True)


def test_the_launcher_reading_comes_from_its_own_signature() -> None:
    text = ROWS[0][1]
    assert "signature:python.launcher-python-range" in finding_origins(text)


def test_the_python_a_message_asks_for_is_not_the_one_in_use() -> None:
    """ "Please install Python 3.10.0 or higher" names the Python wanted: with no other Python
    named, the fix to install 3.10 is shown, not rejected as 'the one already in use'."""
    text = ROWS[2][1].split("\nInvokeAI-Installer")[0]
    assert any(
        "uv python install 3.10" in fix for fix in fix_texts(text, "python.no-matching-wheel")
    )


def test_a_pip_requires_python_line_is_not_read_as_a_launcher_check() -> None:
    text = "ERROR: Package 'vllm' requires a different Python: 3.8.10 not in '>=3.9'"
    origins = finding_origins(text)
    assert "signature:python.launcher-python-range" not in origins, origins
    assert "python.no-matching-wheel" in finding_ids(text)


def test_two_named_gpus_keep_each_name_beside_its_own_capability() -> None:
    """A Tesla K80 (sm_37) that a build dropped, and the V100 (sm_70) the reporter moved to: the
    too-old reading names the K80 with sm_37, not the K80 with the V100's sm_70, and the build it
    proposes has kernels for both."""
    text = (
        "RuntimeError: CUDA error: no kernel image is available for execution on the device\n"
        "My GPU is a Tesla K80, which is not compatible. I change to a V100-SXM2, then it works"
    )
    found = triage_text(text).findings
    old = next(f for f in found if f.id == "torch.gpu-too-old-for-build")
    assert "K80 (sm_37)" in old.title, old.title
    assert "sm_70)" not in old.title, old.title
    proposed = " ".join(fix.summary for fix in old.fixes)
    assert "sm_37" in proposed, proposed


def test_one_named_gpu_keeps_the_same_reading() -> None:
    text = (
        "RuntimeError: CUDA error: no kernel image is available for execution on the device\n"
        "GPU: Tesla K80"
    )
    old = next(f for f in triage_text(text).findings if f.id == "torch.gpu-too-old-for-build")
    assert "Tesla K80 (sm_37)" in old.title, old.title


PADDLE_ON_OLD_CUDA = (  # Paddle#22874's lines, verbatim
    "显卡是RTX2080Ti\n"
    "我是在anaconda的虚拟环境下跑的训练，网络为ResNet50_vd\n"
    "paddle1.7.0.post97 + cuda9.0 + cudnn7.3.1"
)


def test_paddle_on_a_cuda_older_than_its_gpu_is_read_first() -> None:
    """CUDA 9.0 builds up to sm_72; an RTX 2080 Ti is sm_75 (nvcc from CUDA 10.0): the
    fact-proven reading comes before the unproven 'a build for another CUDA'."""
    assert finding_ids(PADDLE_ON_OLD_CUDA)[0] == "paddle.gpu-too-new-for-build"
    fixes = fix_texts(PADDLE_ON_OLD_CUDA, "paddle.gpu-too-new-for-build")
    assert any("CUDA 10.0 or newer" in fix for fix in fixes), fixes


def test_paddle_on_a_cuda_that_knows_the_gpu_is_not_called_too_old() -> None:
    """An RTX 3090 (sm_86): CUDA 11.2 builds for it, CUDA 10.2 does not (the boundary, both sides)."""
    key = "signature:paddle.cuda-older-than-gpu.prose"
    assert key not in finding_origins("显卡是RTX3090\npaddle2.4.2.post112 + cuda11.2 + cudnn8.2")
    assert key in finding_origins("显卡是RTX3090\npaddle2.4.2.post102 + cuda10.2 + cudnn7.6")


def test_a_torch_paste_on_an_old_cuda_gets_no_paddle_reading() -> None:
    """The same lines with Paddle's build instead of torch's get the Paddle reading."""
    error = "\nRuntimeError: CUDNN_STATUS_EXECUTION_FAILED"
    torch_text = "显卡是RTX2080Ti\ntorch 1.0.0 + cuda9.0 + cudnn7.3.1" + error
    paddle_text = "显卡是RTX2080Ti\npaddle1.7.0.post97 + cuda9.0 + cudnn7.3.1" + error
    assert "paddle.gpu-too-new-for-build" not in finding_ids(torch_text)
    assert "paddle.gpu-too-new-for-build" in finding_ids(paddle_text)


def test_a_paddle_cudnn_error_on_a_gpu_newer_than_its_cuda_names_the_cuda_it_needs() -> None:
    text = PADDLE_ON_OLD_CUDA + "\nError: cudnn error, CUDNN_STATUS_EXECUTION_FAILED"
    origins = finding_origins(text)
    assert origins[0] == "signature:paddle.cuda-error.cuda-older-than-gpu", origins


CTRANSFORMERS_DRIVER = (  # marella/ctransformers#90's line, verbatim
    "CUDA error 35 at /home/runner/work/ctransformers/ctransformers/models/ggml/ggml-cuda.cu:4236: "
    "CUDA driver version is insufficient for CUDA runtime version"
)


def test_an_insufficient_driver_without_versions_still_leads_with_a_driver_update() -> None:
    """No driver or CUDA version in the paste: the reading's first fix updates the driver (its
    title's advice), instead of starting with 'Or keep the driver'."""
    fixes = fix_texts(CTRANSFORMERS_DRIVER, "cuda.toolkit-newer-than-driver")
    assert fixes[0].startswith("Update the NVIDIA driver to one whose CUDA Version"), fixes


def test_the_generic_driver_update_steps_aside_when_the_versions_are_known() -> None:
    text = (
        CTRANSFORMERS_DRIVER
        + "\ntorch 2.5.1+cu124\nDriver Version: 470.82.01    CUDA Version: 11.4"
    )
    fixes = fix_texts(text, "cuda.toolkit-newer-than-driver")
    assert not any("the paste names neither" in fix for fix in fixes), fixes
    assert any("Update the NVIDIA driver to 525 or newer" in fix for fix in fixes), fixes
