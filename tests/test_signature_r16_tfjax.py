"""TensorFlow / JAX / Keras version pairs, round 16 (checks/signatures/{tensorflow_jax,python_env}.toml): each common
message, copied from the thread cited beside it, reaches its cause first, and that cause's fixes
name the knob the thread's confirmed fix turned on; look-alike messages of other causes are not
caught."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, a knob its fixes name, thread)
KNOB = [
    # A TensorFlow custom-op library (tensorflow-addons, tf_sentencepiece) built against another
    # TensorFlow release: TensorFlow's C++ symbols it links to are missing
    (
        "NotFoundError: tensorflow_addons/custom_ops/activations/_activation_ops.so: undefined "
        "symbol: _ZN10tensorflow12OpDefBuilder4AttrESs",
        "tensorflow.custom-op-built-for-other-tensorflow",
        "TensorFlow it was built against",  # the maintainer: Addons 0.5 was built against 2.0.0rc0
        "https://github.com/tensorflow/addons/issues/470",
    ),
    (
        "NotFoundError: /usr/local/lib/python3.6/dist-packages/tensorflow_addons/custom_ops/image/"
        "_image_ops.so: undefined symbol",
        "tensorflow.custom-op-built-for-other-tensorflow",
        "pip install -U",  # the maintainer: pip install -U tensorflow-addons (Colab was behind)
        "https://github.com/tensorflow/addons/issues/2251",
    ),
    (
        "tensorflow.python.framework.errors_impl.NotFoundError: /opt/conda/lib/python3.6/"
        "site-packages/tf_sentencepiece/_sentencepiece_processor_ops.so: undefined symbol: "
        "_ZN10tensorflow8internal21CheckOpMessageBuilder9NewStringEv",
        "tensorflow.custom-op-built-for-other-tensorflow",
        "pip install -U",  # the maintainer rebuilt it for TF 1.11 and published a new pip package
        "https://github.com/google/sentencepiece/issues/212",
    ),
    # protobuf runtime older than the protoc (>= 3.20) that generated the _pb2.py files
    (
        "ImportError: cannot import name 'builder' from 'google.protobuf.internal'",
        "python.protobuf-too-old-for-generated-code",
        "protobuf==3.20",  # a commenter: "通过pip install protobuf==3.20 解决"
        "https://github.com/Akegarasu/lora-scripts/issues/250",
    ),
    (
        "ImportError: cannot import name 'builder' from 'google.protobuf.internal' \n"
        "(/usr/local/lib/python3.9/dist-packages/google/protobuf/internal/__init__.py)",
        "python.protobuf-too-old-for-generated-code",
        "protobuf==3.20",  # the answer: pip install protobuf==3.20.0
        "https://github.com/chatchat-space/Langchain-Chatchat/issues/147",
    ),
    (
        "ImportError: cannot import name 'builder' from 'google.protobuf.internal'",
        "python.protobuf-too-old-for-generated-code",
        "protobuf>=3.20",  # the maintainer: new generated code does not work with an old runtime
        "https://github.com/protocolbuffers/protobuf/issues/9778",
    ),
    # jax.tree_multimap, removed in JAX 0.3.16
    (
        ">     state = jax.tree_multimap(\n"
        "> AttributeError: module 'jax' has no attribute 'tree_multimap'",
        "jax.api-removed-in-newer-jax",
        "Upgrade the package",  # the reporter: the new gymnax release fixed it
        "https://github.com/RobertTLange/gymnax-blines/issues/3",
    ),
    (
        "fix module 'jax' has no attribute 'tree_multimap'",
        "jax.api-removed-in-newer-jax",
        "jax<0.3.16",  # the pull request pins jax==0.3.15
        "https://github.com/magenta/mt3/pull/72",
    ),
    (
        "`module 'jax' has no attribute 'tree_multimap'`",
        "jax.api-removed-in-newer-jax",
        "jax.tree_util.tree_map",  # fixed in the project by calling tree_map instead
        "https://github.com/google/trajax/issues/9",
    ),
    # Keras 2.4+ is only a front end of tf.keras and needs TensorFlow 2.2+
    (
        "Keras requires TensorFlow 2.2 or higher error message",
        "keras.standalone-needs-tensorflow",
        "keras==2.3.1",  # the reporter: "I solved the issue by installing keras==2.3.1"
        "https://github.com/TKassis/OrgaQuant/issues/7",
    ),
    # jaxlib older than this jax accepts
    (
        "报错：ValueError: jaxlib is version 0.1.69, but this version of jax requires version 0.1.74.",
        "jax.cuda-plugin-mismatch",
        "older jax",  # the maintainer: pip install jax==0.2.14; the reporter: "可以了"
        "https://github.com/Zuricho/ParallelFold/issues/13",
    ),
    (
        "Fixes error: `ValueError: jaxlib is version 0.1.41, but this version of jax requires "
        "version 0.1.43.`",
        "jax.cuda-plugin-mismatch",
        "jaxlib>=0.1.43",  # the pull request upgrades jaxlib
        "https://github.com/Kaggle/docker-python/pull/771",
    ),
    (
        "ValueError: jaxlib is version 0.1.23, but this version of jax requires version 0.1.26.",
        "jax.cuda-plugin-mismatch",
        "jaxlib>=0.1.26",  # the reporter installed jaxlib 0.1.26; the maintainer: docs were behind
        "https://github.com/jax-ml/jax/issues/1297",
    ),
]


test_a_common_message_gets_its_cause_and_the_knob_it_states = knob_test(
    KNOB, ids=[k[3] for k in KNOB]
)


LOOKALIKE = [
    # a PyTorch extension's undefined symbol is torch's ABI, not TensorFlow's
    (
        "OSError: /root/miniconda3/envs/nerf/lib/python3.10/site-packages/torch_scatter/"
        "_version_cuda.so: undefined symbol: _ZN5torch3jit17parseSchemaOrNameERKSs",
        "tensorflow.custom-op-built-for-other-tensorflow",
        "https://github.com/rusty1s/pytorch_scatter/issues/348",
    ),
    # protobuf too NEW for old _pb2 files is the other direction
    (
        "TypeError: Descriptors cannot not be created directly.\n"
        "If this call came from a _pb2.py file, your generated code is out of date and must be "
        "regenerated with protoc >= 3.19.0.",
        "python.protobuf-too-old-for-generated-code",
        "https://github.com/tensorflow/tensorflow/issues/56266",
    ),
]


test_a_look_alike_message_is_not_read_as_the_cause = lookalike_test(
    LOOKALIKE, ids=[k[2] for k in LOOKALIKE], may_be_empty=True, newline=True
)
