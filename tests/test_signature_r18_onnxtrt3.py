"""ONNX Runtime and TensorRT, round 18 (checks/signatures/{tensorflow_jax,tensorrt,onnxruntime}.toml and the entries it
extends): TensorFlow's "TensorRT mismatch. Compiled against version X, but loaded Y" (the fix names
the TensorRT the build links), a TensorRT library file that is truncated ("file too short": replace
it, the loader path is fine), Python code written for an older TensorRT API (max_workspace_size
removed: set_memory_pool_limit on the builder config), a face-swap app whose --execution-provider
choices lack DirectML (install onnxruntime-directml), ONNX Runtime's bare "install the correct
version of CUDA and cuDNN" line, and the loader-path / IR-version messages earlier rounds cover.
Each message is copied from a public thread whose fix was confirmed (the reporter says it worked,
or a maintainer states cause and fix); it reaches that cause first, and one of the cause's fixes
names the knob the confirmed fix turned. Look-alike rows are real messages of other causes a new
pattern could catch: they must not rank the new cause first."""

from __future__ import annotations

import pytest

from tests.triage_lines import assert_first_naming, assert_not_first

# (message verbatim from the thread, the finding id first, text its fixes name, URL)
KNOB = [
    (
        "WARNING:tensorflow:TensorRT mismatch. Compiled against version 5.0.2, but loaded 5.1.2. "
        "Things may not work.",
        "tensorflow.tensorrt-version-mismatch",
        "TensorRT 5.0.2",
        # maintainer: TF's PyPI build links TensorRT 5.0; 5.1 needs NVIDIA's container or a TF build
        "https://github.com/tensorflow/tensorrt/issues/85",
    ),
    (
        "[10/25/2023-11:34:04] [E] Uncaught exception detected: Unable to open library: "
        "libnvinfer_plugin.so.8 due to /home/cwang/work/depend/TensorRT-8.6.0.12/targets/"
        "x86_64-linux-gnu/lib/libnvinfer_plugin.so.8: file too short",
        "tensorrt.library-file-damaged",
        "download the TensorRT package again",
        "https://github.com/NVIDIA/TensorRT/issues/3402",  # maintainer: the .so is broken, download again
    ),
    (
        "AttributeError: 'tensorrt_bindings.tensorrt.IBuilderConfig' object has no attribute "
        "'max_workspace_size'",
        "tensorrt.python-api-removed",
        "set_memory_pool_limit",
        # maintainer: removed, use config.set_memory_pool_limit; reporter: solved
        "https://github.com/NVIDIA/TensorRT/issues/3923",
    ),
    (
        "The following codes will invoke `AttributeError: 'tensorrt.tensorrt.Builder' object has no "
        "attribute 'max_workspace_size'` in the TensorRT 8.0.0.3. So it seems that "
        "`max_workspace_size` attribute has been removed in TensorRT8",
        "tensorrt.python-api-removed",
        "create_builder_config",
        # maintainer: the API changed in TensorRT 8.0; the tool was updated to the builder config
        "https://github.com/microsoft/nni/issues/3857",
    ),
    (
        "The example in image_classification/conversion.ipynb fails with the error "
        "'tensorrt.tensorrt.Builder' object has no attribute 'max_workspace_size'.",
        "tensorrt.python-api-removed",
        "update the tool",
        # a torch2trt release fixed for TensorRT 8 worked
        "https://github.com/NVIDIA-AI-IOT/torch2trt/issues/592",
    ),
    (
        "run.py: error: argument --execution-provider: invalid choice: 'directml'",
        "onnxruntime.cpu-package-shadows-gpu",
        "pip install onnxruntime-directml",
        # maintainer: uninstall onnxruntime onnxruntime-directml, install onnxruntime-directml
        "https://github.com/hacksider/Deep-Live-Cam/issues/1278",
    ),
    (
        "Please install the correct version of CUDA andcuDNN as mentioned in the GPU requirements page.",
        "onnxruntime.cuda-deps-mismatch",
        "CUDA 11.8",
        # reporter: installing CUDA toolkit 11.8 (for the onnxruntime-gpu in use) solved it
        "https://github.com/hacksider/Deep-Live-Cam/issues/288",
    ),
    (
        "Uncaught exception detected: Unable to open library: libnvinfer_plugin.so.8 due to "
        "libnvinfer_plugin.so.8: cannot open shared object file: No such file or directory",
        "tensorrt.lib-not-on-loader-path",
        "LD_LIBRARY_PATH",
        "https://github.com/AUTOMATIC1111/stable-diffusion-webui-tensorrt/pull/4",  # merged: LD_LIBRARY_PATH
    ),
    (
        "[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Failed to load model with error: "
        "D:\\a\\_work\\1\\s\\onnxruntime\\core\\graph\\model.cc:181 onnxruntime::Model::Model "
        "Unsupported model IR version: 11, max supported IR version: 10",
        "onnxruntime.model-ir-version-too-new",
        "ir_version",
        # the model's ir_version set to 10 when converting loaded
        "https://github.com/microsoft/onnxruntime/issues/23602",
    ),
]


@pytest.mark.parametrize(("text", "finding_id", "knob", "url"), KNOB, ids=[r[3] for r in KNOB])
def test_message_reaches_confirmed_cause_with_its_knob(
    text: str, finding_id: str, knob: str, url: str
) -> None:
    assert url.startswith("https://")
    assert_first_naming(text, finding_id, knob, url)


# (real message of another cause, the new cause it must not rank first, URL)
LOOKALIKE = [
    (
        "2018-04-17 21:36:12.158184: E T:\\src\\github\\tensorflow\\tensorflow\\stream_executor\\cuda\\"
        "cuda_dnn.cc:396] Loaded runtime CuDNN library: 7103 (compatibility version 7100) but source "
        "was compiled with 7003 (compatibility version 7000).  If using a binary install, upgrade "
        "your CuDNN library to match.  If building from sources, make sure the library loaded at "
        "runtime matches a compatible version specified during compile configuration.",
        "tensorflow.tensorrt-version-mismatch",
        "https://github.com/tensorflow/models/issues/3835",
    ),
    (
        "ImportError: libnvinfer.so.8: cannot open shared object file: No such file or directory",
        "tensorrt.library-file-damaged",
        "https://github.com/wang-xinyu/tensorrtx/issues/1501",
    ),
    (
        "Uncaught exception detected: Unable to open library: libnvinfer_plugin.so.8 due to "
        "libnvinfer_plugin.so.8: cannot open shared object file: No such file or directory",
        "tensorrt.library-file-damaged",
        "https://github.com/AUTOMATIC1111/stable-diffusion-webui-tensorrt/pull/4",
    ),
    (
        "I've tried other versions of CUDA but nothing works.\"\n\n2025-03-08 00:06:52.6821857 "
        "[E:onnxruntime:Default, provider_bridge_ort.cc:1480 onnxruntime::TryGetProviderInfo_CUDA] "
        "D:\\a\\_work\\1\\s\\onnxruntime\\core\\session\\provider_bridge_ort.cc:1193 "
        "onnxruntime::ProviderLibrary::Get [ONNXRuntimeError] : 1 : FAIL : LoadLibrary failed with "
        'error 126 "" when trying to load '
        '"C:\\Python310\\lib\\site-packages\\onnxruntime\\capi\\onnxruntime_providers_cuda.dll"',
        "onnxruntime.cpu-package-shadows-gpu",
        "https://github.com/hacksider/Deep-Live-Cam/issues/977",
    ),
]


@pytest.mark.parametrize(("text", "tempting", "url"), LOOKALIKE, ids=[r[2] for r in LOOKALIKE])
def test_lookalike_is_not_read_as_the_new_cause(text: str, tempting: str, url: str) -> None:
    assert_not_first(text, tempting, url)
