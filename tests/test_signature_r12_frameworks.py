"""The non-PyTorch frameworks' frequent messages (checks/signatures/*.toml and the entries
it extends): TensorFlow / XLA, JAX, PaddlePaddle, ONNX Runtime, TensorRT, CuPy and transformers' TensorFlow
side. Each message, copied from a public thread whose fix was confirmed (the reporter says it worked, or a
maintainer states the cause and the fix), reaches its cause first, and one of that cause's fixes names the
knob the confirmed fix turned (a package and its version, an environment variable, a flag). Look-alike
rows are real messages of other causes that a new pattern could catch: they must not rank the new cause
first."""

from __future__ import annotations

from envdoctor.triage_engine import triage_text
from tests.triage_lines import command_test, lookalike_test

# (message verbatim from the thread, the finding id first, text a command of one of its fixes holds, URL)
KNOB = [
    (
        "ImportError: libcudart.so.11.0: cannot open shared object file: No such file or directory",
        "cuda.runtime-lib-major-missing",
        "LD_LIBRARY_PATH",
        "https://github.com/CannyLab/tsne-cuda/issues/126",  # maintainer: put libcudart.so.11.0 on the link path / LD_LIBRARY_PATH
    ),
    (
        "2024-05-10 11:33:14.068255: I tensorflow/core/platform/cpu_feature_guard.cc:210] This TensorFlow binary is optimized to use available CPU instructions in performance-critical operations.\nTo enable the following instructions: AVX2 AVX512F FMA, in other operations, rebuild TensorFlow with the appropriate compiler flags.\n2024-05-10 11:33:15.185131: W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: Could not find TensorRT",
        "tensorflow.startup-log-noise",
        "TF_CPP_MIN_LOG_LEVEL",
        "https://github.com/hiyouga/LlamaFactory/issues/3673",  # maintainer: just ignore it (informational)
    ),
    (
        "Node: 'residual_unet/conv2d/Conv2D'\nDNN library is not found.\n\t [[{{node residual_unet/conv2d/Conv2D}}]] [Op:__inference_predict_function_9480]\n\npython version 3.8\ntensorflow: 2.8.0\ncuDNN: 8.1.1\ncuda: 11.2",
        "tensorflow.cuda-libs-not-found",
        "libcudnn",
        "https://github.com/apapiu/guided-diffusion-keras/issues/8",  # reporter: TensorFlow was loading another cuDNN
    ),
    (
        "2023-06-06 21:40:11.673259: W tensorflow/compiler/xla/service/gpu/llvm_gpu_backend/gpu_backend_lib.cc:274] libdevice is required by this HLO module but was not found at ./libdevice.10.bc\n2023-06-06 21:40:11.673658: W tensorflow/core/framework/op_kernel.cc:1830] OP_REQUIRES failed at xla_ops.cc:362 : INTERNAL: libdevice not found at ./libdevice.10.bc",
        "xla.cuda-toolkit-files-not-found",
        "--xla_gpu_cuda_data_dir",
        "https://github.com/tensorflow/tensorflow/issues/58681",  # TF install guide: cuda-nvcc + XLA_FLAGS
    ),
    (
        "2022-12-12 09:21:38.279776: W tensorflow/compiler/xla/service/gpu/nvptx_helper.cc:56] Can't find libdevice directory ${CUDA_DIR}/nvvm/libdevice. This may result in compilation or runtime failures, if the program we try to run uses routines from libdevice.\nSearched for CUDA in the following directories:\n  ./cuda_sdk_lib\n  /usr/local/cuda-11.2\n  /usr/local/cuda\n  .\nYou can choose the search directory by setting xla_gpu_cuda_data_dir in HloModule's DebugOptions.  For most apps, setting the environment variable XLA_FLAGS=--xla_gpu_cuda_data_dir=/path/to/cuda will work.",
        "xla.cuda-toolkit-files-not-found",
        "--xla_gpu_cuda_data_dir",
        "https://github.com/tensorflow/tensorflow/issues/58859",  # same fix (TF install guide, quoted in #58681)
    ),
    (
        "ValueError: Your currently installed version of Keras is Keras 3, but this is not yet supported in Transformers. Please install the backwards-compatible tf-keras package with `pip install tf-keras`.",
        "transformers.keras3-unsupported",
        "tf-keras",
        "https://github.com/atomashevic/transforEmotion/issues/16",  # the message names it: pip install tf-keras; maintainer fixed the package
    ),
    (
        "jaxlib version 0.3.20 is newer than and incompatible with jax version 0.3.15. Please update your jax and/or jaxlib packages.",
        "jax.cuda-plugin-mismatch",
        "jaxlib==0.3.15",
        "https://github.com/instadeepai/Mava/pull/771",  # merged: jaxlib pinned back to jax's release, checks pass
    ),
    (
        "jaxlib version 0.4.31 is newer than and incompatible with jax version 0.4.20",
        "jax.cuda-plugin-mismatch",
        "jaxlib==0.4.20",
        "https://github.com/octo-models/octo/issues/125",  # reporter: pip install jaxlib==0.4.20
    ),
    (
        "RuntimeError: Backend 'cuda' failed to initialize: Unable to use CUDA because of the following issues with CUDA components:\n"
        "Outdated cuDNN installation found.\nVersion JAX was built against: 8907\nMinimum supported: 9100\nInstalled version: 8907\n"
        "The local installation version must be no lower than 9100.. Available backends are ['cpu']",
        "jax.cudnn-too-old",
        "cudnn>=9.1",
        "https://github.com/rgommers/pixi-dev-scipystack/issues/1",  # closed as the conda-forge cuDNN below jaxlib's minimum
    ),
    (
        "jaxlib.xla_extension.XlaRuntimeError: FAILED_PRECONDITION: DNN library initialization failed. Look at the errors above for more details.",
        "jax.cudnn-too-old",
        "jax[cuda12]",
        "https://github.com/mdsunivie/deeperwin/issues/7",  # commenter: upgrading to the cuda12 jax wheel fixed it
    ),
    (
        "RuntimeError: (PreconditionNotMet) The third-party dynamic library (libcublas.so) that Paddle depends on is not configured correctly. (error code is libcublas.so: cannot open shared object file: No such file or directory)\n  Suggestions:\n  1. Check if the third-party dynamic library (e.g. CUDA, CUDNN) is installed correctly and its version is matched with paddlepaddle you installed.\n  2. Configure third-party dynamic library environment variables as follows:\n  - Linux: set LD_LIBRARY_PATH by `export LD_LIBRARY_PATH=...`\n  - Windows: set PATH by `set PATH=XXX; (at /paddle/paddle/fluid/platform/dynload/dynamic_loader.cc:285)",
        "paddle.wheel-cuda-mismatch",
        "LD_LIBRARY_PATH",
        "https://github.com/PaddlePaddle/Paddle/issues/25219",  # maintainer: libcublas.so on LD_LIBRARY_PATH / version
    ),
    (
        "The third-party dynamic library (cufft64_120.dll;cufft64_12.dll;cufft64_10.dll) that Paddle depends on is not configured correctly. (error code is 126)",
        "paddle.wheel-cuda-mismatch",
        "paddlepaddle-gpu",
        "https://github.com/PaddlePaddle/Paddle/issues/57347",  # reporter: other versions (paddlepaddle-gpu 2.4.2.post117) worked
    ),
    (
        "[root@iZ28zy4uk59Z bin]# ./paddle_trainer \nIllegal instruction",
        "paddle.cpu-instruction-unsupported",
        "WITH_AVX=OFF",
        "https://github.com/PaddlePaddle/Paddle/issues/58",  # maintainer: CPU without AVX, -DWITH_AVX=OFF worked
    ),
    (
        "Failed to create CUDAExecutionProvider. Please reference https://onnxruntime.ai/docs/reference/execution-providers/CUDA-ExecutionProvider.html#requirements to ensure all dependencies are met.",
        "onnxruntime.cuda-deps-mismatch",
        "onnxruntime-gpu",
        "https://github.com/Ki6an/fastT5/issues/53",  # maintainer: install the onnxruntime-gpu matching CUDA/cuDNN
    ),
    (
        "D:\\a\\_work\\1\\s\\onnxruntime\\python\\onnxruntime_pybind_state.cc:857 onnxruntime::python::CreateExecutionProviderInstance CUDA_PATH is set but CUDA wasnt able to be loaded. Please install the correct version of CUDA andcuDNN as mentioned in the GPU requirements page (https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html#requirements), make sure they're in the PATH, and that your GPU is supported.",
        "onnxruntime.cuda-deps-mismatch",
        "nvidia-cudnn-cu12",
        "https://github.com/cubiq/ComfyUI_InstantID/issues/27",  # reporter: CUDA 11.8 + cuDNN 8.9 then it worked
    ),
    (
        "EP Error /onnxruntime_src/onnxruntime/core/session/provider_bridge_ort.cc:1193 onnxruntime::Provider& onnxruntime::ProviderLibrary::Get() [ONNXRuntimeError] : 1 : FAIL : Failed to load library libonnxruntime_providers_tensorrt.so with error: libnvinfer.so.8: cannot open shared object file: No such file or directory\n when using ['TensorrtExecutionProvider', 'CUDAExecutionProvider', 'AzureExecutionProvider', 'CPUExecutionProvider']\nFalling back to ['CUDAExecutionProvider', 'CPUExecutionProvider'] and retrying.\nRunning on CUDAExecutionProvider.",
        "onnxruntime.cuda-deps-mismatch",
        "tensorrt_libs",
        "https://github.com/ORB-HD/deface/issues/53",  # commenter: tensorrt lib not linked; LD_LIBRARY_PATH to it
    ),
    (
        "[11/08/2024-08:46:50] [E] [TRT] 1: [stdArchiveReader.cpp::StdArchiveReader::40] Error Code 1: Serialization (Serialization assertion stdVersionRead == serializationVersion failed.Version tag does not match. Note: Current Version: 213, Serialized Engine Version: 232)\n[11/08/2024-08:46:50] [E] [TRT] 4: [runtime.cpp::deserializeCudaEngine::50] Error Code 4: Internal Error (Engine deserialization failed.)",
        "tensorrt.engine-version-mismatch",
        "trtexec",
        "https://github.com/HKUST-Aerial-Robotics/D2SLAM/issues/52",  # engine of another TensorRT release
    ),
    (
        "[2024-01-12 12:53:54.250] [mmdeploy] [error] [trt_net.cpp:28] TRTNet: 1: [stdArchiveReader.cpp::StdArchiveReader::30] Error Code 1: Serialization (Serialization assertion magicTagRead == magicTag failed.Magic tag does not match)\n[2024-01-12 12:53:54.251] [mmdeploy] [error] [trt_net.cpp:28] TRTNet: 4: [runtime.cpp::deserializeCudaEngine::50] Error Code 4: Internal Error (Engine deserialization failed.)",
        "tensorrt.engine-version-mismatch",
        "trtexec",
        "https://github.com/open-mmlab/mmdeploy/issues/2639",  # built with TRT 8.6 on a PC, run with 8.2 on a Jetson
    ),
    (
        "ImportError: libnvinfer.so.8: cannot open shared object file: No such file or directory",
        "tensorrt.lib-not-on-loader-path",
        "LD_LIBRARY_PATH",
        "https://github.com/open-mmlab/mmdeploy/issues/913",  # maintainer: LD_LIBRARY_PATH names another TensorRT's libs
    ),
    (
        "RuntimeError: CuPy failed to load libnvrtc.so.12: OSError: libnvrtc.so.12: cannot open shared object file: No such file or directory",
        "cuda.runtime-lib-major-missing",
        "nvidia-cuda-nvrtc-cu12",
        "https://github.com/cupy/cupy/issues/8317",  # CuPy 13 needs the toolkit's NVRTC on the loader path
    ),
    (
        '" 428 cuda_blas.cc:1413] Unable to register cuBLAS factory: Attempting to register factory for plugin cuBLAS when one has already been registered"\n" 581 computation_placer.cc:177] computation placer already registered. Please check linkage and avoid linking the same target more than once."',
        "tensorflow.startup-log-noise",
        "TF_CPP_MIN_LOG_LEVEL",
        "https://github.com/volnas10/DeepFaceLab-RTX5000/issues/2",  # maintainer: just warnings
    ),
    (
        "An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed. Falling back to CPU.",
        "jax.cpu-only-jaxlib",  # JAX's own words: the CPU-only jaxlib (round 32: its own cause)
        "jax[cuda12]",
        "https://github.com/ziatdinovmax/gpax/issues/63",  # maintainer: install the CUDA jax per instructions; reporter: works
    ),
    (
        "I tensorflow/core/util/port.cc:153] oneDNN custom operations are on. You may see slightly different numerical results due to floating-point round-off errors from different computation orders. To turn them off, set the environment variable `TF_ENABLE_ONEDNN_OPTS=0`.",
        "tensorflow.startup-log-noise",
        "TF_ENABLE_ONEDNN_OPTS=0",
        "https://github.com/lllyasviel/stable-diffusion-webui-forge/issues/1573",  # maintainer: informational message
    ),
    (
        "您好，我按照你们的quick start配置好了环境，运行train.sh的时候报了错误：\n`/usr/local/bin/paddle: line 46:  4977 Illegal instruction     (core dumped) ${DEBUGGER} $MYDIR/../opt/paddle/bin/paddle_trainer ${@:2}`",
        "paddle.cpu-instruction-unsupported",
        "WITH_AVX=OFF",
        "https://github.com/PaddlePaddle/Paddle/issues/43",  # reporter: no AVX; cmake -DWITH_AVX=OFF worked
    ),
]


test_a_common_message_gets_its_cause_and_the_knob_it_turns = command_test(
    KNOB, ids=[k[3] for k in KNOB]
)


def test_the_titles_carry_what_the_message_names() -> None:
    jax = triage_text(
        "jaxlib version 0.4.31 is newer than and incompatible with jax version 0.4.20\n"
    )
    assert (
        jax.findings[0].title
        == "jaxlib 0.4.31 is newer than jax 0.4.20: install jax and jaxlib at one release"
    )
    trt = triage_text(
        "EP Error : FAIL : Failed to load library libonnxruntime_providers_tensorrt.so with error: "
        "libnvinfer.so.10: cannot open shared object file: No such file or directory\n"
    )
    assert "libnvinfer.so.10" in trt.findings[0].title
    assert any("tensorrt==10.*" in c for fix in trt.findings[0].fixes for c in fix.commands)


# real messages of other causes a new pattern could catch (message, the id it must not lead with, URL)
LOOKALIKE = [
    (
        # TensorFlow finds no CUDA driver (maintainer: the message is clear, the install is not right):
        # the informational lines around it are not the answer
        "[2023-05-01 12:17:25 +0000] [8] [INFO] Booting worker with pid: 8\n"
        "2023-05-01 12:17:26.167599: I tensorflow/core/util/port.cc:110] oneDNN custom operations are on. You "
        "may see slightly different numerical results due to floating-point round-off errors from different "
        "computation orders. To turn them off, set the environment variable `TF_ENABLE_ONEDNN_OPTS=0`.\n"
        "2023-05-01 12:17:26.168772: I tensorflow/tsl/cuda/cudart_stub.cc:28] Could not find cuda drivers on "
        "your machine, GPU will not be used.\n"
        "2023-05-01 12:17:26.189715: I tensorflow/tsl/cuda/cudart_stub.cc:28] Could not find cuda drivers on "
        "your machine, GPU will not be used.\n"
        "2023-05-01 12:17:26.189953: I tensorflow/core/platform/cpu_feature_guard.cc:182] This TensorFlow "
        "binary is optimized to use available CPU instructions in performance-critical operations.\n"
        "To enable the following instructions: AVX2 AVX512F AVX512_VNNI AVX512_BF16 FMA, in other operations, "
        "rebuild TensorFlow with the appropriate compiler flags.\n"
        "2023-05-01 12:17:26.572682: W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: "
        "Could not find TensorRT",
        "tensorflow.startup-log-noise",
        "https://github.com/serengil/deepface/issues/739",
    ),
    (
        "2022-05-22 03:31:41.057907: W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could "
        "not load dynamic library 'libcusolver.so.11'; dlerror: libcusolver.so.11: cannot open shared object "
        "file: No such file or directory; LD_LIBRARY_PATH: /usr/local/cuda/lib64:/usr/local/cuda/lib\n"
        "2022-05-22 03:31:41.087295: W tensorflow/core/common_runtime/gpu/gpu_device.cc:1850] Cannot dlopen "
        "some GPU libraries. Please make sure the missing libraries mentioned above are installed properly "
        "if you would like to use GPU.",
        "tensorflow.startup-log-noise",
        "https://github.com/Kaggle/docker-python/issues/1164",
    ),
    (
        # Keras 3 without TensorFlow installed: not transformers' Keras 3 refusal
        '  File "C:\\Users\\...\\AppData\\Local\\Programs\\Python\\Python312\\Lib\\site-packages\\keras\\'
        "src\\backend\\__init__.py\", line 3\nModuleNotFoundError: No module named 'tensorflow'",
        "transformers.keras3-unsupported",
        "https://github.com/keras-team/keras/issues/18888",
    ),
    (
        # an old ptxas is a warning about miscompiles, not a missing toolkit file
        "2022-06-28 19:26:35.110279: W external/org_tensorflow/tensorflow/stream_executor/gpu/asm_compiler.cc:111] "
        "*** WARNING *** You are using ptxas 11.0.221, which is older than 11.1. ptxas before 11.1 is known to "
        "miscompile XLA code, leading to incorrect results or invalid-address errors.",
        "xla.cuda-toolkit-files-not-found",
        "https://github.com/google/flax/issues/2249",
    ),
]


test_a_look_alike_message_is_not_read_as_the_new_cause = lookalike_test(
    LOOKALIKE, ids=[k[2] for k in LOOKALIKE], may_be_empty=True, newline=True
)
