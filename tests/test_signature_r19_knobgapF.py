"""Knob gaps, round 19, pass F: training cases whose confirmed cause already ranks in the top three
but whose fixes named nothing the thread's real fix turned on. Each KNOB row reads the case's body
from its training file (bench/triage_corpus_score.py's read_case, with the case's own thread left
out of the case base as the scorer does) and asserts an accepted finding in the top three whose
fixes name the knob. pip's "Could not find a version that satisfies the requirement X (from Y)"
after an install with one index (-i / --index-url) now names PyPI as an extra index
(--extra-index-url): -i replaces PyPI, and a dependency that index lacks is not found (pip's
docs). Paddle's "Cuda error(35)" with a paddlepaddle-gpu==2.0.x pin (PyPI's default build of 2.0
is CUDA 10.2) names that release's .post101 build for CUDA 10.1 (Paddle 2.0's install page).
A Jetson user's "doesn't seem to support a non-CPU execution provider" (ONNX Runtime through a
binding) now reads as the CPU-only ONNX Runtime of a Jetson (checks/signatures/onnxruntime.toml:
Jetson Zoo / Jetson AI Lab wheels, or a build from source with --use_cuda).
LOOKALIKE rows are real messages of other causes from existing test tables that must not get
those fixes: a requirement missing from every index ("from versions: ..."), and a CUDA error 35
of a later Paddle, and ONNX Runtime's CUDA provider failing off a Jetson."""

from __future__ import annotations

import pytest
from triage_lines import assert_not_first, fixes_text, row_text, training_case_test

from envdoctor.triage_engine import casebase, triage_text

# (training case, an accepted finding id, a knob one of its fixes names, thread)
KNOB = [
    # Paddle maintainer XieYunshen: the Windows dependencies were still being uploaded to the
    # cu126 index; meanwhile install with the index and `--extra-index-url` (a PyPI mirror)
    (
        "zh-1404-paddle3-windows-cu126-nvidia-cuda-runtime-not-found.txt",
        "python.no-matching-wheel",
        "extra-index-url",
        "https://github.com/PaddlePaddle/Paddle/issues/71987",
    ),
    # reporter lyl120117: "重装了paddlepaddle-gpu==2.0.0.post101这个版本可以运行了 ... 默认装的是10.2的"
    (
        "zh-1606-paddle-aistudio-cuda-error-35-post101.txt",
        "cuda.toolkit-newer-than-driver",
        "post101",
        "https://github.com/PaddlePaddle/Paddle/issues/30933",
    ),
    # ort maintainer decahedron1: "Microsoft doesn't provide prebuilt binaries for Jetson with
    # CUDA, so you'll have to build ONNX Runtime from source"
    (
        "en-2306-ort-rust-jetson-orin-cpu-only.txt",
        "onnxruntime.jetson-no-gpu-build",
        "from source",
        "https://github.com/pykeio/ort/issues/82",
    ),
]

# (message verbatim from a thread of another cause, the fix text it must not get, thread)
LOOKALIKE = [
    # no wheel on any index for this Python / OS (tests/test_signature_r18_paddle3.py)
    (
        row_text(
            "test_signature_r18_paddle3", "https://github.com/PaddlePaddle/Paddle/issues/54995"
        ),
        "pypi.org/simple",
        "https://github.com/PaddlePaddle/Paddle/issues/54995",
    ),
    # the PyTorch index was searched: the Python is too new (tests/test_signature_r13b_coretorch.py)
    (
        row_text(
            "test_signature_r13b_coretorch", "https://github.com/OpenTalker/SadTalker/issues/850"
        ),
        "pypi.org/simple",
        "https://github.com/OpenTalker/SadTalker/issues/850",
    ),
    # aarch64: no paddlepaddle-gpu on PyPI at all (tests/test_signature_r18_paddle3.py)
    (
        row_text(
            "test_signature_r18_paddle3", "https://github.com/PaddlePaddle/Paddle/issues/36742"
        ),
        "pypi.org/simple",
        "https://github.com/PaddlePaddle/Paddle/issues/36742",
    ),
    # a later Paddle (phi backend) on an old driver (tests/test_signature_r13b_bnbpaddle.py)
    (
        "OSError: (External) CUDA error(35), CUDA driver version is insufficient for CUDA runtime "
        "version.\n  [Hint: 'cudaErrorInsufficientDriver'. This indicates that the installed NVIDIA "
        "CUDA driver is older than the CUDA runtime library. This is not a supported "
        "configuration.Users should install an updated NVIDIA display driver to allow the "
        "application to run.] (at ..\\paddle\\phi\\backends\\gpu\\cuda\\cuda_info.cc:67)",
        "post101",
        "https://github.com/PaddlePaddle/PaddleDetection/issues/8493",
    ),
]

# (message verbatim from a thread of ONNX Runtime's CUDA provider failing off a Jetson, thread)
NOT_JETSON = [
    # tests/field_prose_stack_b.py: the CUDA libraries load only after import torch
    (
        "Only CPUExecutionProvider is loaded if not importing pytorch",
        "https://github.com/deepinsight/insightface/issues/2344",
    ),
    # tests: the maintainer said to install the onnxruntime-gpu matching CUDA/cuDNN
    (
        "Failed to create CUDAExecutionProvider. Please reference https://onnxruntime.ai/docs/reference/execution-providers/CUDA-ExecutionProvider.html#requirements to ensure all dependencies are met.",
        "https://github.com/Ki6an/fastT5/issues/53",
    ),
]


test_case_reaches_its_cause_naming_the_knob = training_case_test(KNOB)


@pytest.mark.parametrize(("text", "fix", "source"), LOOKALIKE)
def test_other_causes_do_not_get_the_new_fixes(text: str, fix: str, source: str) -> None:
    findings = triage_text(text + "\n").findings
    assert findings, source
    for finding in findings[:3]:
        assert fix not in fixes_text(finding).lower(), (source, finding.id, fixes_text(finding))


@pytest.mark.parametrize(("text", "source"), NOT_JETSON)
def test_cuda_provider_failing_off_a_jetson_is_not_the_jetson_build(text: str, source: str) -> None:
    assert_not_first(text + "\n", "onnxruntime.jetson-no-gpu-build", source)


def test_only_cpu_provider_on_a_jetson_reads_as_the_jetson_build(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The phrasing alone, no case base behind it: two lines of the training case's thread
    (https://github.com/pykeio/ort/issues/82) with the rest of the post left out."""
    text = (
        "Actually, I'm trying to use `ort` for inferencing onnx model in `Jetson nano orin`. \n"
        "But it doesn't seem to support a non-CPU execution provider. the CPU is only used when my "
        "code runs."
    )
    rows_of = casebase._rows
    source = "https://github.com/pykeio/ort/issues/82"
    monkeypatch.setattr(
        casebase, "_rows", lambda m: [r for r in rows_of(m) if r.get("source") != source]
    )
    findings = triage_text(text + "\n").findings
    assert findings and findings[0].id == "onnxruntime.jetson-no-gpu-build", [
        f.id for f in findings[:3]
    ]
    assert "build.sh" in fixes_text(findings[0])
