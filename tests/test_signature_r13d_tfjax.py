"""TensorFlow / JAX / Keras sweep (checks/signatures/tensorflow_jax.toml): each common message, copied from
the thread cited beside it, reaches its cause first, and one of that cause's fixes names the knob the
thread's fix (or the message itself) turned on; look-alike messages of other causes are not caught."""

from __future__ import annotations

import pytest

from envdoctor.triage_engine import triage_text

# (message verbatim from the thread, the finding id first, a command one of its fixes gives, thread)
KNOB = [
    (
        "Could not load dynamic library 'libcudart.so.11.0'",
        "tensorflow.cuda-libs-not-found",
        "export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH",
        "https://github.com/tensorflow/tensorflow/issues/45930",
    ),
    (
        "ImportError: `keras.optimizers.legacy` is not supported in Keras 3. When using `tf.keras`, to "
        "continue using a `tf.keras.optimizers.legacy` optimizer, you can install the `tf_keras` "
        "package (Keras 2) and set the environment variable `TF_USE_LEGACY_KERAS=True` to configure "
        "TensorFlow to use `tf_keras` when accessing `tf.keras`.",
        "keras.keras3-breaks-keras2-code",
        "export TF_USE_LEGACY_KERAS=1",
        "https://github.com/deepchem/deepchem/issues/3980",
    ),
    (
        "ImportError: `keras.optimizers.legacy` is not supported in Keras 3. When using `tf.keras`, to "
        "continue using a `tf.keras.optimizers.legacy` optimizer, you can install the `tf_keras` "
        "package (Keras 2) and set the environment variable `TF_USE_LEGACY_KERAS=True` to configure "
        "TensorFlow to use `tf_keras` when accessing `tf.keras`.",
        "keras.keras3-breaks-keras2-code",
        "pip install tf-keras",
        "https://github.com/amaiya/ktrain/issues/525",
    ),
    (
        " filepath=/Users/zdu/anaconda3/envs/ccl-dev/lib/python3.11/site-packages/baccoemu/"
        "lpt_emulator_v2.0.0/lpt_emu_field0. Keras 3 only supports V3 `.keras` files and legacy H5 "
        "format files (`.h5` extension). Note that the legacy SavedModel format is not supported by "
        "`load_model()` in Keras 3. In order to reload a TensorFlow SavedModel a...",
        "keras.keras3-breaks-keras2-code",
        "pip install 'tensorflow<2.16'",  # the reporter went back to tensorflow / keras 2.12
        "https://github.com/LSSTDESC/CCL/issues/1171",
    ),
    (
        "ValueError: File format not supported: filepath=/tmp/tmpea7_jhpo/classifier. Keras 3 only "
        "supports V3 `.keras` files and legacy H5 format files (`.h5` extension). Note that the "
        "legacy SavedModel format is not supported by `load_model()` in Keras 3. In order to reload a "
        "TensorFlow SavedModel as an inference-only layer in Keras 3, use "
        "`keras.layers.TFSMLayer(/tmp/tmpea7_jhpo/classifier, call_endpoint='serving_default')",
        "keras.keras3-breaks-keras2-code",
        "layer = keras.layers.TFSMLayer(PATH, call_endpoint='serving_default')",
        "https://github.com/cbrnr/sleepecg/issues/214",
    ),
    (
        "ValueError: A KerasTensor cannot be used as input to a TensorFlow function. A KerasTensor is "
        "a symbolic placeholder for a shape and dtype, used when constructing Keras Functional models "
        "or Keras Functions. You can only use it as input to a Keras layer or a Keras operation (from "
        "the namespaces `keras.layers` and `keras.operations`).",
        "keras.keras3-breaks-keras2-code",
        # the PR wrapped the tf call in a layer; the maintainer: "caused by the version"
        "class MyLayer(keras.layers.Layer):\n    def call(self, x):\n        return tf_fn(x)",
        "https://github.com/czwchenzhun/tfinterpy/pull/4",
    ),
    (
        ": W tensorflow/compiler/xla/stream_executor/platform/default/dso_loader.cc:64] Could not load "
        "dynamic library 'libnvinfer.so.7'; dlerror: libnvinfer.so.7: cannot open shared object file: "
        "No such file or directory; LD_LIBRARY_PATH: /usr/lib64-nvidia\n"
        "2023-02-12 02:34:13.661201: W tensorflow/compiler/xla/stream_executor/platform/default/"
        "dso_loader.cc:64] Could not load dynamic library 'libnvinfer_plugin.so.7'; dlerror: "
        "libnvinfer_plugin.so.7: cannot open shared object file: No such file or directory; "
        "LD_LIBRARY_PATH: /usr/lib64-nvidia\n"
        ": W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: Cannot dlopen some "
        "TensorRT",
        "tensorflow.startup-log-noise",
        "export TF_CPP_MIN_LOG_LEVEL=2",  # the maintainer: "just a tensorflow msg, ignore it"
        "https://github.com/TheLastBen/fast-stable-diffusion/issues/1580",
    ),
    (
        "2023-02-20 11:35:53.200200: W tensorflow/stream_executor/platform/default/dso_loader.cc:64] "
        "Could not load dynamic library 'libnvinfer.so.7'; dlerror: libnvinfer.so.7: cannot open "
        "shared object file: No such file or directory; LD_LIBRARY_PATH: /usr/local/cuda-10.0/lib64:"
        "/usr/local/cuda-10.0/extras/CUPTI/lib64:/$\n"
        "2023-02-20 11:35:53.200264: W tensorflow/stream_executor/platform/default/dso_loader.cc:64] "
        "Could not load dynamic library 'libnvinfer_plugin.so.7'; dlerror: libnvinfer_plugin.so.7: "
        "cannot open shared object file: No such file or directory; LD_LIBRARY_PATH: "
        "/usr/local/cuda-10.0/lib64:/usr/local/cuda-10.0/extras/CUPTI/lib64:/$\n"
        "2023-02-20 11:35:53.200276: W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT "
        "Warning: Cannot dlopen some TensorRT libraries. If you would like to use Nvidia GPU with "
        "TensorRT, please make sure the missing libraries mentioned above are installed properly.",
        "tensorflow.startup-log-noise",
        "export TF_CPP_MIN_LOG_LEVEL=2",  # the reporter: "only a warning ... only relevant for TensorRT"
        "https://github.com/DeepLabCut/DeepLabCut/issues/2115",
    ),
    (
        "No PTX compilation provider is available. Neither ptxas/nvlink nor nvjtlink is available. As "
        "a fallback you can enable JIT compilation in the CUDA driver via the flag "
        "`--xla_gpu_unsafe_fallback_to_driver_on_ptxas_not_found`.",
        "xla.cuda-toolkit-files-not-found",
        "pip install nvidia-cuda-nvcc-cu12",
        "https://github.com/wutzebaer/tensorflow-5090/issues/3",
    ),
    (
        "2021-04-28 21:34:18.432071: W tensorflow/compiler/xla/service/gpu/nvptx_compiler.cc:70] Can't "
        "find ptxas binary in ${CUDA_DIR}/bin.  Will back to the GPU driver for PTX -> sass "
        "compilation.  This is OK so long as you don't see a warning below about an out-of-date "
        "driver version. Custom ptxas location can be specified using $PATH.",
        "xla.cuda-toolkit-files-not-found",
        "export XLA_FLAGS=--xla_gpu_cuda_data_dir=/usr/local/cuda",  # the knob the log names next
        "https://github.com/jax-ml/jax/issues/6583",
    ),
    (
        "NotFoundError: 2 root error(s) found.\n  (0) Not found: ./bin/ptxas not found\n"
        "\t [[{{node cluster_0_1/xla_compile}}]]",
        "xla.cuda-toolkit-files-not-found",
        "export XLA_FLAGS=--xla_gpu_cuda_data_dir=/usr/local/cuda",
        "https://github.com/tensorflow/models/issues/9847",
    ),
]


@pytest.mark.parametrize(("text", "finding_id", "command", "url"), KNOB, ids=[k[3] for k in KNOB])
def test_a_common_message_gets_its_cause_and_the_knob_it_states(
    text, finding_id, command, url
) -> None:
    finding = triage_text(text + "\n").findings[0]
    assert finding.id == finding_id, url
    assert any(command in fix.commands for fix in finding.fixes), url


@pytest.mark.parametrize(
    ("text", "not_id", "url"),
    [
        # TF 2.3's Keras 2 refusing a non-Input tensor: not Keras 3
        (
            "ValueError: Input tensors to a Functional must come from `tf.keras.Input`. \n"
            'Received: Tensor("keras_learning_phase:0", shape=(), dtype=bool) \n'
            "(missing previous layer metadata).",
            "keras.keras3-breaks-keras2-code",
            "https://github.com/tensorflow/tensorflow/issues/42014",
        ),
        # the driver's PTX JIT library (libnvidia-ptxjitcompiler) missing, not a toolkit's ptxas
        (
            "RuntimeError: UNKNOWN: PTX JIT compiler library not found\n"
            "in external/org_tensorflow/tensorflow/stream_executor/cuda/cuda_asm_compiler.cc(56): "
            "'cuLinkCreate(0, nullptr, nullptr, &link_state)'",
            "xla.cuda-toolkit-files-not-found",
            "https://github.com/jax-ml/jax/issues/9644",
        ),
    ],
)
def test_a_look_alike_message_is_not_read_as_the_cause(text, not_id, url) -> None:
    findings = triage_text(text + "\n").findings
    assert not findings or findings[0].id != not_id, url
