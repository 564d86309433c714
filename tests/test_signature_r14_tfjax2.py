"""TensorFlow / JAX / Keras version pairs, second pass (checks/signatures/{python_env,tensorflow_jax}.toml): each
common message, copied from the thread cited beside it, reaches its cause first, and that cause's
fixes name the knob the thread's confirmed fix turned on; look-alike messages of other causes are
not caught."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, a knob its fixes name, thread)
KNOB = [
    # protobuf 4 refusing the _pb2.py files an older protoc generated (TensorFlow < 2.9,
    # tensorflow_hub, many projects): the reporters pinned protobuf back to 3.20.x or lower
    (
        "TypeError: Descriptors cannot not be created directly.\n"
        "If this call came from a _pb2.py file, your generated code is out of date and must be "
        "regenerated with protoc >= 3.19.0.\n"
        "If you cannot immediately regenerate your protos, some other possible workarounds are:\n"
        " 1. Downgrade the protobuf package to 3.20.x or lower.\n"
        " 2. Set PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION=python (but this will use pure-Python "
        "parsing and will be much slower).",
        "python.protobuf-too-new-for-generated-code",
        "pip install 'protobuf==3.20.*'",  # the reporter: "downgraded my protobuf to 3.20.0"
        "https://github.com/neulab/prompt2model/issues/220",
    ),
    (
        "**If this call came from a _pb2.py file, your generated code is out of date and must be "
        "regenerated with protoc >= 3.19.0.\n"
        "If you cannot immediately regenerate your protos, some other possible workarounds are:\n"
        " 1. Downgrade the protobuf package to 3.20.x or lower.\n"
        " 2. Set PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION=python (but this will use pure-Python "
        "parsing and will be much slower).**",
        "python.protobuf-too-new-for-generated-code",
        "pip install 'protobuf==3.20.*'",  # the reporter: "Solved ... pip install protobuf==3.20.*"
        "https://github.com/ih-lab/STORK/issues/3",
    ),
    (
        "TypeError: Descriptors cannot be created directly.\n"
        "If this call came from a _pb2.py file, your generated code is out of date and must be "
        "regenerated with protoc >= 3.19.0.",
        "python.protobuf-too-new-for-generated-code",
        "protobuf<=3.20",  # the reporter: fixed by pip install --upgrade "protobuf<=3.20.1"
        "https://github.com/zachglick/apnet/issues/1",
    ),
    # Keras 3 (TensorFlow 2.16+) has no keras.src.engine, which code for Keras 2.13-2.15 imports
    (
        "No module named 'keras.src.engine'\n"
        "I checked: tensorflow 2.18.0, tensorflow-text 2.18.0, and keras 3.9.0",
        "keras.keras3-breaks-keras2-code",
        "tensorflow<2.16",  # the reporter: resolved after installing tensorflow and keras "with right version"
        "https://github.com/TensorSpeech/TensorFlowASR/issues/297",
    ),
    (
        " ModuleNotFoundError: No module named 'keras.src.engine' \"",
        "keras.keras3-breaks-keras2-code",
        "tensorflow<2.16",  # the fix that worked there: keras==2.12, tensorflow==2.12
        "https://github.com/faustomorales/vit-keras/issues/44",
    ),
    # TensorFlow 1.x graph-mode API (tf.Session, tf.placeholder) under TensorFlow 2
    (
        "AttributeError: module 'tensorflow' has no attribute 'Session'",
        "tensorflow.tf1-api-under-tf2",
        "tf.compat.v1.Session()",  # the reporter: tf.compat.v1.Session() "worked for me"
        "https://github.com/abishekvashok/Rep-Counter/issues/5",
    ),
    (
        "AttributeError: module 'tensorflow' has no attribute 'Session'\n"
        "Environment details : \nAnaconda Python : 3.6\ntensorflow version : 2.0.0",
        "tensorflow.tf1-api-under-tf2",
        "tf.compat.v1.Session()",  # the answer: use tf.compat.v1.Session() instead
        "https://github.com/tensorflow/tensorflow/issues/34658",
    ),
    (
        "module 'tensorflow' has no attribute 'Session'",
        "tensorflow.tf1-api-under-tf2",
        "tensorflow==1.15",  # the maintainer: "You should install TF 1.15 if you want to use Session"
        "https://github.com/tensorflow/tensorflow/issues/39208",
    ),
    (
        "    A = tf.placeholder(tf.float32, shape=(5, 5), name='A')\n"
        "AttributeError: module 'tensorflow' has no attribute 'placeholder'",
        "tensorflow.tf1-api-under-tf2",
        "tf.disable_v2_behavior()",  # the reporter: import tensorflow.compat.v1 as tf "solved it"
        "https://github.com/lazyprogrammer/machine_learning_examples/issues/66",
    ),
    (
        "AttributeError: module 'tensorflow' has no attribute 'placeholder'",
        "tensorflow.tf1-api-under-tf2",
        "tensorflow==1.15",  # the maintainer's workaround: pip install tensorflow==1.15.2
        "https://github.com/aparrish/pincelate/issues/8",
    ),
]


test_a_common_message_gets_its_cause_and_the_knob_it_states = knob_test(
    KNOB, ids=[k[3] for k in KNOB]
)


LOOKALIKE = [
    # tf.keras of TensorFlow 2.0 never exposed `engine`: a private import, not Keras 3
    (
        "ModuleNotFoundError: No module named 'tensorflow.keras.engine'",
        "keras.keras3-breaks-keras2-code",
        "https://github.com/tensorflow/tensorflow/issues/33786",
    ),
]


test_a_look_alike_message_is_not_read_as_the_cause = lookalike_test(
    LOOKALIKE, ids=[k[2] for k in LOOKALIKE], may_be_empty=True, newline=True
)
