"""TensorFlow / JAX / Keras GPU setup, round 18 (checks/signatures/{tensorflow_jax,cuda}.toml): each common
message, copied from the thread cited beside it, reaches its cause first, and that cause's fixes
name the knob the thread's confirmed fix turned on; look-alike messages of other causes are not
caught."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, a knob its fixes name, thread)
KNOB = [
    # "DNN library is not found": TensorFlow finds no cuDNN it can use for a convolution, on Colab
    # after TensorFlow moved past the image's cuDNN (maintainer: pip install -U tensorflow==2.8.2,
    # or apt install --allow-change-held-packages libcudnn8=8.1.0.77-1+cuda11.2)
    (
        "Node: 'sequential_2/conv2d_2/Conv2D'\n"
        "DNN library is not found.\n"
        "\t [[{{node sequential_2/conv2d_2/Conv2D}}]] [Op:__inference_train_function_32418]",
        "tensorflow.cuda-libs-not-found",
        "libcudnn8",
        "https://github.com/googlecolab/colabtools/issues/3013",
    ),
    (
        "**Describe the current behavior**\nDNN library is not found for Convolution operation",
        "tensorflow.cuda-libs-not-found",
        "tensorflow==",
        "https://github.com/googlecolab/colabtools/issues/3012",
    ),
    (
        'DNN library is not found. File "/usr/local/lib/python3.7/dist-packages/keras/backend.py", '
        "line 5366, in relu x = tf.nn.relu(x) Node: 'sequential/conv2d/Relu' "
        "[[{{node sequential/conv2d/Relu}}]] [Op:__",
        "tensorflow.cuda-libs-not-found",
        "libcudnn8",  # the maintainer: TensorFlow 2.10 was installed by hand; apt install libcudnn8=...
        "https://github.com/googlecolab/colabtools/issues/3073",
    ),
    (
        "Node: 'ssd_mobile_net_v2_fpn_keras_feature_extractor/model/Conv1/Conv2D'\n"
        "DNN library is not found.\n"
        "\t [[{{node ssd_mobile_net_v2_fpn_keras_feature_extractor/model/Conv1/Conv2D}}]] "
        "[Op:__inference__dummy_computation_fn_15089]",
        "tensorflow.cuda-libs-not-found",
        "libcudnn8",  # the reporter: the cuDNN had become incompatible with the TensorFlow
        "https://github.com/googlecolab/colabtools/issues/2818",
    ),
    # Keras 3 reads KERAS_BACKEND once, at its first import: set after it, the backend stays tensorflow
    (
        "Im looking at the following [colab](https://colab.research.google.com/github/keras-team/"
        "keras-io/blob/master/guides/ipynb/keras_core/getting_started_with_keras_core.ipynb"
        "#scrollTo=NzGdFzgkc0eM) and using `keras.backend.backend()` to verify Keras3 is using JAX. "
        "But it is printing tensorflow",
        "keras.backend-set-after-import",
        "KERAS_BACKEND",  # the maintainer: set the backend before importing any package; "that works"
        "https://github.com/keras-team/keras/issues/19423",
    ),
    (
        "Even after explicitly setting the backend to JAX,\n\n```\nimport os \n"
        'os.environ["KERAS_BACKEND"] = "jax"\n```\n\nIt still shows tensorflow when I call:\n\n'
        "`k.backend.backend()`\n\nWhat's something I am missing/doing incorrectly here?",
        "keras.backend-set-after-import",
        "before the first",  # fchollet: you need to do this *before* you import keras_core
        "https://github.com/keras-team/keras-core/issues/749",
    ),
    # CUPTI, CUDA's profiling library, named by the CUDA release the framework was built with
    (
        "I'm trying to use the Jax profiler however TensorFlow throws the following error\n```\n"
        "2022-01-21 00:07:31.649491: W external/org_tensorflow/tensorflow/stream_executor/platform/"
        "default/dso_loader.cc:64] Could not load dynamic library 'libcupti.so.11.4'; dlerror: "
        "libcupti.so.11.4: cannot open shared object file: No such file or directory; "
        "LD_LIBRARY_PATH: /usr/local/cuda-11.5/targets/x86_64-linux/lib/\n```",
        "cuda.cupti-not-found",
        "CUDA 11.4",  # the maintainer: the cuda11 jaxlib is built against CUDA 11.4
        "https://github.com/jax-ml/jax/issues/9272",
    ),
    (
        "`Could not load dynamic library 'libcupti.so.10.1'; dlerror: libcupti.so.10.1: cannot open "
        "shared object file:`\n\nIs it required to have exactly CUDA 10.1 for profiler to work?",
        "cuda.cupti-not-found",
        "cuda-10.1",  # the reporter: ln -s /usr/local/cuda-10.1 /usr/local/cuda fixed it
        "https://github.com/openxla/xprof/issues/209",
    ),
    (
        "2020-06-03 01:47:51.923816: W tensorflow/stream_executor/platform/default/dso_loader.cc:55] "
        "Could not load dynamic library 'libcupti.so.10.1'; dlerror: libcupti.so.10.1: cannot open "
        "shared object file: No such file or directory; LD_LIBRARY_PATH: /usr/local/openmpi/lib:"
        "/usr/local/nvidia/lib:/usr/local/nvidia/lib64",
        "cuda.cupti-not-found",
        "extras/CUPTI/lib64",  # the merged fix adds libcupti's folder to LD_LIBRARY_PATH
        "https://github.com/aws/deep-learning-containers/pull/251",
    ),
    (
        "W tensorflow/stream_executor/platform/default/dso_loader.cc:55] Could not load dynamic "
        "library 'libcupti.so.10.1'; dlerror: libcupti.so.10.1: cannot open shared object file: No "
        "such file or directory",
        "cuda.cupti-not-found",
        "extras/CUPTI/lib64",  # a commenter: appending the extras path to $LD_LIBRARY_PATH did help
        "https://github.com/tensorflow/tensorflow/issues/2626",
    ),
    (
        "Encountered error while starting profiler: Unavailable: CUPTI error: CUPTI could not be "
        "loaded or symbol could not be found.",
        "cuda.cupti-not-found",
        "extras\\CUPTI\\lib64",  # the maintainer: add <CUDA>\extras\CUPTI\lib64 to the path
        "https://github.com/tensorflow/tensorflow/issues/49977",
    ),
    # already reached before this round (counted in the sweep)
    (
        "CUDA backend failed to initialize: Found cuDNN version 8600, but JAX was built against "
        "version 8906, which is newer. The copy of cuDNN that is installed must be at least as new "
        "as the version against which JAX was built. (Set TF_CPP_MIN_LOG_LEVEL=0 and rerun for "
        "more info.)\n\nhow can I deal with this issue?",
        "jax.cudnn-too-old",
        "8906",  # a commenter: update CUDA and cuDNN
        "https://github.com/MIT-REALM/gcbfplus/issues/1",
    ),
    (
        "Cannot dlopen some GPU libraries. Please make sure the missing libraries mentioned above "
        "are installed properly if you would like to use GPU. Follow the guide at "
        "https://www.tensorflow.org/install/gpu for how to download and setup the required "
        "libraries for your platform.\nSkipping registering GPU devices...",
        "tensorflow.cuda-libs-not-found",
        "LD_LIBRARY_PATH",  # the maintainer: add cuda, cudnn, cupti to the environment path
        "https://github.com/tensorflow/tensorflow/issues/34287",
    ),
]

# real messages of other causes that a new pattern could catch: (message, tempting id, thread)
LOOKALIKE = [
    # the backend was switched (Using JAX backend): TensorFlow is only imported alongside
    (
        "When I import `keras_core`, it imports TensorFlow even when I set the backend to jax or "
        'torch:\n\n```python\n>>> import os\n>>> os.environ["KERAS_BACKEND"] = "jax"\n'
        ">>> import keras_core\n2023-06-12 11:14:46.431809: I tensorflow/core/platform/"
        "cpu_feature_guard.cc:182] This TensorFlow binary is optimized to use available CPU "
        "instructions in performance-critical operations.\nTo enable the following instructions: "
        "AVX2 FMA, in other operations, rebuild TensorFlow with the appropriate compiler flags.\n"
        "Using JAX backend.\n>>> keras_core.backend.backend()\n'jax'\n```",
        "keras.backend-set-after-import",
        "https://github.com/keras-team/keras/issues/18455",
    ),
    # CUPTI loads, but fails at run time (error 999): not a missing library
    (
        "2023-05-16 21:01:05.541307: E external/xla/xla/backends/profiler/gpu/"
        "cupti_error_manager.cc:137] cuptiGetTimestamp: error 999: \n"
        "2023-05-16 21:01:05.541339: E external/xla/xla/backends/profiler/gpu/"
        "cupti_error_manager.cc:186] cuptiSubscribe: ignored due to a previous error.",
        "cuda.cupti-not-found",
        "https://github.com/jax-ml/jax/issues/16030",
    ),
    # the CUDA math libraries and cuDNN are missing: TensorFlow's own CUDA set, not CUPTI
    (
        "tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library "
        "'libcusolver.so.11'; dlerror: libcusolver.so.11: cannot open shared object file: No such "
        "file or directory; LD_LIBRARY_PATH: /usr/local/lib/python3.7/dist-packages/cv2/../../lib64:"
        "/opt/ros/noetic/lib:/usr/local/nvidia/lib:/usr/local/nvidia/lib64:/usr/lib/x86_64-linux-gnu/"
        "gazebo-11/plugins",
        "cuda.cupti-not-found",
        "https://github.com/JdeRobot/BehaviorMetrics/issues/385",
    ),
]


test_message_reaches_cause_naming_knob = knob_test(KNOB)


test_lookalike_is_not_caught = lookalike_test(LOOKALIKE, may_be_empty=True)
