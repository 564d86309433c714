"""Knob gaps, round 19, pass E: training cases whose confirmed cause already ranks in the top three
but whose fixes named nothing the thread's real fix turned on. Each KNOB row reads the case's body
from its training file (bench/triage_corpus_score.py's read_case) and asserts the finding first
and the knob one of its fixes names. TensorFlow's "Loaded runtime CuDNN library: X but source was
compiled with Y" now also names the TensorFlow releases built for the cuDNN that was loaded
(python_frameworks: tested build configurations), the way out when that cuDNN cannot be
replaced; a CUDA runtime library missing on a Jetson names the JetPack that ships that CUDA
(jetpack table); DeepSpeed's "Installed CUDA version X does not match" names torch's wheel tag
for the installed toolkit (+cuXY). LOOKALIKE rows are real cuDNN mismatches of other frameworks (PyTorch, Paddle) from
existing test tables: they must not get that TensorFlow fix; and a missing CUDA runtime library
off a Jetson gets no JetPack fix."""

from __future__ import annotations

import pytest
from triage_lines import assert_first_naming, fixes_text, row_text, training_case_test

from envdoctor.triage_engine import triage_text

# (training case, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # maintainer nicolov: "Make sure to `pip install tensorflow-gpu==1.3.0`" (cuDNN 6 on the
    # server, no root to install cuDNN 5); the reporter: "Thanks, this fix my problem."
    (
        "en-0187-segmentation-keras-tf13-cudnn6.txt",
        "cuda.cudnn-mismatch",
        "1.3.0",
        "https://github.com/nicolov/segmentation_keras/issues/32",
    ),
    # reporter hamelsveld: "downgrading solves it" (JetPack 4.4 DP ships CUDA 10.2; the darknet
    # build wants libcudart.so.10.0, CUDA 10.0 of an older JetPack); the maintainer noted it
    (
        "en-1328-opendatacam-jetson-nano-jp44-libcudart-so-10-0.txt",
        "cuda.runtime-lib-major-missing",
        "downgrade",
        "https://github.com/opendatacam/opendatacam/issues/214",
    ),
    # reporter CupOfGeo installed the CUDA 11.1.1 toolkit; the maintainer: use the
    # pytorch-1-7-cu110 image (torch built for the system's CUDA 11.0)
    (
        "en-1203-finetune-gpt2xl-deepspeed-cuda-11.0-vs-torch-11.1.txt",
        "cuda.toolkits-disagree",
        "cu110",
        "https://github.com/Xirider/finetune-gpt2xl/issues/1",
    ),
]

# (message verbatim from a thread of another framework's cuDNN mismatch, thread or table)
LOOKALIKE = [
    # PyTorch's own check (tests/test_prose_facts.py)
    (
        "RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (8, 7, 0) but "
        "found runtime version (8, 2, 4).",
        "tests/test_prose_facts.py",
    ),
    # PyTorch's older wording (tests/test_prose_facts.py)
    (
        row_text("test_signature_r13_knobs", "https://github.com/xingyizhou/CenterNet/issues/119"),
        "tests/test_prose_facts.py",
    ),
    # Paddle's warning (tests/field_fixes_builds.py)
    (
        "WARNING: device: 0. The installed Paddle is compiled with CUDNN 7.6, but CUDNN version in "
        "your machine is 7.5, which may cause serious incompatible bug. Please recompile or "
        "reinstall Paddle with compatible CUDNN version.",
        "tests/field_fixes_builds.py",
    ),
]


test_case_reaches_its_cause_naming_the_knob = training_case_test(KNOB)


@pytest.mark.parametrize(("text", "source"), LOOKALIKE)
def test_other_frameworks_cudnn_mismatch_gets_no_tensorflow_release(text: str, source: str) -> None:
    findings = triage_text(text + "\n").findings
    assert findings, source
    for finding in findings[:3]:
        assert "tensorflow release built for" not in fixes_text(finding).lower(), (
            source,
            fixes_text(finding),
        )
        assert "tensorflow-gpu==" not in fixes_text(finding), (source, fixes_text(finding))


def test_tensorflow_release_follows_the_loaded_cudnn() -> None:
    """cuDNN 7.0.3 loaded (TensorFlow prints 7003): the releases built for cuDNN 7, none for 6."""
    text = (
        "E tensorflow/stream_executor/cuda/cuda_dnn.cc:364] Loaded runtime CuDNN library: 7003 "
        "(compatibility version 7000) but source was compiled with 6021 (compatibility version 6000)."
    )
    finding = assert_first_naming(
        text, "cuda.cudnn-mismatch", "1.5.0", "https://github.com/chineseocr/chinese-ocr/issues/20"
    )
    assert "1.3.0" not in fixes_text(finding)


def test_missing_cuda_runtime_off_a_jetson_names_no_jetpack() -> None:
    """A CUDA 10.0 library missing on an x86 machine (a Quadro P6000 under Ubuntu): the CUDA
    toolkit is the fix there, not a JetPack (https://github.com/tensorflow/tensorflow/issues/26182,
    its title)."""
    text = (
        "ImportError: libcublas.so.10.0: cannot open shared object file: No such file or directory"
    )
    findings = triage_text(text + "\n").findings
    assert findings
    assert all("JetPack" not in fixes_text(f) for f in findings[:3]), [
        fixes_text(f) for f in findings[:3]
    ]
