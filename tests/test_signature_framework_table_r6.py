"""Framework findings name what the framework table says for the release the paste gives
(matrices/python_frameworks.toml: TensorFlow's tested build configurations, ONNX Runtime's CUDA
requirements; a paddlepaddle-gpu wheel's .postNNN suffix), read from issue forms, pip / conda rows
and prose: the fix says "TensorFlow 2.1 was built with CUDA 10.1 and cuDNN 7.6", not "install the
CUDA of the table"."""

from __future__ import annotations

import pytest
from triage_lines import assert_first_with_knob, fixes_text

from envdoctor.triage_engine import triage_text

FIELD_LINES = [
    # (pasted text, expected first finding, what its fixes must name)
    (  # tensorflow/tensorflow#38090 (train/en-1332): TensorFlow's issue form, CUDA 10.2 installed
        "**System information**\n"
        "- OS Platform and Distribution: Windows 10\n"
        "- TensorFlow installed from: pip\n"
        "- TensorFlow version (use command below): 2.1.0\n"
        "- Python version: 3.7.7\n"
        "- CUDA/cuDNN version: 10.2.89\n"
        "- GPU model and memory: Nvidia GTX 1650\n"
        "When I run tf.config.list_physical_devices(None) I get only the CPU device",
        "tensorflow.cuda-libs-not-found",
        "CUDA 10.1 and cuDNN 7.6",
    ),
    (  # TensorFlow 2.0's import self-check on Windows (tensorflow.org/install/errors)
        ">>> import tensorflow as tf\n"
        "ImportError: Could not find 'cudart64_100.dll'. TensorFlow requires that this DLL be "
        "installed in a directory that is named in your %PATH% environment variable. Download and "
        "install CUDA 10.0 from this URL: https://developer.nvidia.com/cuda-90-download-archive",
        "tensorflow.cuda-libs-not-found",
        "CUDA 10.0",
    ),
    (  # TensorFlow 1.x on Linux (deepfakes/faceswap#118, train/en-1326): cuDNN 6 by soname
        "pip3 install --upgrade tensorflow-gpu==1.4\n"
        '  File "/usr/lib/python3/dist-packages/tensorflow/python/pywrap_tensorflow.py", line 58\n'
        "ImportError: libcudnn.so.6: cannot open shared object file: No such file or directory\n"
        "Failed to load the native TensorFlow runtime.",
        "tensorflow.cuda-libs-not-found",
        "cuDNN 6",
    ),
    (  # TensorFlow 1.x on Linux, CUDA 9.0 by soname (tensorflow.org/install/errors)
        ">>> import tensorflow as tf\n"
        "ImportError: libcublas.so.9.0: cannot open shared object file: No such file or directory\n"
        "Failed to load the native TensorFlow runtime.",
        "tensorflow.cuda-libs-not-found",
        "CUDA 9.0",
    ),
    (  # an onnxruntime-gpu release of the requirements table
        "pip install onnxruntime-gpu==1.18.1\n"
        "[E:onnxruntime:Default, provider_bridge_ort.cc:1548 TryGetProviderInfo_CUDA] Failed to "
        "load library libonnxruntime_providers_cuda.so with error: libcudnn.so.9: cannot open "
        "shared object file: No such file or directory",
        "onnxruntime.cuda-deps-mismatch",
        "onnxruntime-gpu 1.18.1 from PyPI is built for CUDA 11.8",
    ),
    (  # a paddlepaddle-gpu wheel names its CUDA in its .postNNN suffix
        "python -m pip install paddlepaddle-gpu==2.4.2.post117\n"
        "OSError: (PreconditionNotMet) The third-party dynamic library (libcudnn.so) that Paddle "
        "depends on is not configured correctly. (error code is libcudnn.so: cannot open shared "
        "object file: No such file or directory)",
        "paddle.wheel-cuda-mismatch",
        "CUDA 11.7",
    ),
]


@pytest.mark.parametrize(("text", "finding_id", "knob"), FIELD_LINES)
def test_framework_fix_names_the_table_row(text: str, finding_id: str, knob: str) -> None:
    findings = triage_text(text).findings
    found = [f for f in findings[:3] if f.id == finding_id]
    assert found, [f.id for f in findings[:3]]
    assert knob.lower() in fixes_text(found[0]).lower(), fixes_text(found[0])


def test_windows_native_gpu_by_the_tensorflow_release() -> None:
    # train/023-like: TensorFlow 2.12 on native Windows has no GPU build; 2.10 still had one
    new = "My system is Windows 11. My tensorflow version is 2.12.0.\ntf.config.list_physical_devices('GPU') returns []"
    assert_first_with_knob(new, "tensorflow.windows-native-no-gpu", "WSL2")
    old = new.replace("2.12.0", "2.10.0")
    ids = [f.id for f in triage_text(old).findings[:3]]
    assert "tensorflow.windows-native-no-gpu" not in ids, ids


def test_no_tensorflow_wheel_names_the_pythons_of_that_release() -> None:
    # tensorflow-gpu 1.15 on Python 3.8: the tested build configurations list 2.7, 3.3-3.7
    text = (
        "ERROR: Could not find a version that satisfies the requirement tensorflow-gpu==1.15 "
        "(from versions: 2.2.0, 2.2.1)\n"
        "ERROR: No matching distribution found for tensorflow-gpu==1.15"
    )
    assert_first_with_knob(text, "python.no-matching-wheel", "Python 2.7, 3.3-3.7")


def test_python_lists_read_as_their_source_writes_them() -> None:
    from envdoctor.triage_engine.facts import python_span

    assert python_span(["2.7", "3.3", "3.4", "3.5"]) == "2.7, 3.3-3.5"
    assert python_span(["3.9", "3.10", "3.11", "3.12"]) == "3.9-3.12"
    assert python_span([]) is None
