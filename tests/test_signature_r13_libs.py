"""Library families (checks/signatures/{torch,extensions,tensorrt,cuda}.toml and the existing bitsandbytes, ONNX Runtime,
TensorRT, DeepSpeed and apex causes): each message, verbatim from a thread where the fix was
confirmed, reaches the confirmed cause first with a fix naming the knob that fix turned."""

from __future__ import annotations

from tests.triage_lines import command_test, lookalike_test

# (message verbatim from the thread, the finding id first, a command one of its fixes gives, thread)
KNOB = [
    (
        "  File \"/opt/conda/lib/python3.9/site-packages/deepspeed/runtime/utils.py\", line 18, in <module>\n    from torch._six import inf\nModuleNotFoundError: No module named 'torch._six'",
        "torch.six-module-removed",
        "pip install -U deepspeed",
        "https://github.com/deepspeedai/DeepSpeed/issues/2845",
    ),
    (
        "  File \"E:\\wrl\\PythonCode\\Qwen\\venv\\lib\\site-packages\\deepspeed\\runtime\\utils.py\", line 18, in <module>\n    from torch._six import inf\nModuleNotFoundError: No module named 'torch._six'",
        "torch.six-module-removed",
        "pip install -U deepspeed",
        "https://github.com/aiwaves-cn/agents/issues/93",
    ),
    (
        "  File \"/home/tiger/.local/lib/python3.7/site-packages/apaex/__init__.py\", line 13, in <module>\n    from pyramid.session import UnencryptedCookieSessionFactoryConfig\nImportError: cannot import name 'UnencryptedCookieSessionFactoryConfig' from 'pyramid.session' (unknown location)",
        "apex.cuda-ext-not-built",
        "git clone https://github.com/NVIDIA/apex",
        "https://github.com/jeonsworld/ViT-pytorch/issues/23",
    ),
    (
        "Once I try to run train.py it gives the below error:\nImportError: cannot import name 'UnencryptedCookieSessionFactoryConfig' from 'pyramid.session' (unknown location)",
        "apex.cuda-ext-not-built",
        "git clone https://github.com/NVIDIA/apex",
        "https://github.com/namisan/mt-dnn/issues/213",
    ),
    (
        "ImportError: cannot import name 'UnencryptedCookieSessionFactoryConfig' from 'pyramid.session' (unknown location) on google colab",
        "apex.cuda-ext-not-built",
        "git clone https://github.com/NVIDIA/apex",
        "https://github.com/zai-org/CogView/issues/53",
    ),
    (
        "  File \"path/lib/python3.8/site-packages/apex/__init__.py\", line 13, in <module>\n    from pyramid.session import UnencryptedCookieSessionFactoryConfig\nImportError: cannot import name 'UnencryptedCookieSessionFactoryConfig' from 'pyramid.session' (unknown location)\nThe installed apex version is from pypy: `0.9.10.dev0`",
        "apex.cuda-ext-not-built",
        "conda install -c conda-forge nvidia-apex",
        "https://github.com/NVIDIA/apex/issues/1063",
    ),
    (
        "[11/05/2023-16:18:50] [W] [TRT] CUDA initialization failure with error: 35. Please check your CUDA installation:  http://docs.nvidia.com/cuda/cuda-installation-guide-linux/index.html\ntensorrt_inference: /datadisk2/lixinhao/tensorrt_inference/code/src/model.cpp:32: void Model::OnnxToTRTModel(): Assertion `builder != nullptr' failed.",
        "cuda.toolkit-newer-than-driver",
        "nvidia-smi",
        "https://github.com/linghu8812/tensorrt_inference/issues/173",
    ),
    (
        "1 : FAIL : Failed to load library libonnxruntime_providers_cuda.so with error: libcudnn.so.9: cannot open shared object file: No such file or directory",
        "onnxruntime.cuda-deps-mismatch",
        "nvidia-cudnn-cu12",
        "https://github.com/Holasyb918/HeyGem-Linux-Python-Hack/issues/5",
    ),
    (
        "2025-07-31 15:09:16.647314988 [E:onnxruntime:Default, provider_bridge_ort.cc:2195 TryGetProviderInfo_CUDA] /onnxruntime_src/onnxruntime/core/session/provider_bridge_ort.cc:1778 onnxruntime::Provider& onnxruntime::ProviderLibrary::Get() [ONNXRuntimeError] : 1 : FAIL : Failed to load library libonnxruntime_providers_cuda.so with error: libcudnn.so.9: cannot open shared object file: No such file or directory\n\n2025-07-31 15:09:16.647341662 [W:onnxruntime:Default, onnxruntime_pybind_state.cc:1055 CreateExecutionProviderInstance] Failed to create CUDAExecutionProvider. Require cuDNN 9.* and CUDA 12.*. Please install all dependencies as mentioned in the GPU requirements page (https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html#requirements), make sure they're in the PATH, and that your GPU is supported.",
        "onnxruntime.cuda-deps-mismatch",
        "export LD_LIBRARY_PATH",
        "https://github.com/microsoft/onnxruntime/issues/25609",
    ),
    (
        "2024-02-23 12:12:19.240097373 [E:onnxruntime:Default, provider_bridge_ort.cc:1546 TryGetProviderInfo_CUDA] /onnxruntime_src/onnxruntime/core/session/provider_bridge_ort.cc:1209 onnxruntime::Provider& onnxruntime::ProviderLibrary::Get() [ONNXRuntimeError] : 1 : FAIL : Failed to load library libonnxruntime_providers_cuda.so with error: libcudnn.so.8: cannot open shared object file: No such file or directory\nI have installed GPU with CUDA 12.2 and  when i run my model with onnxruntime i am getting this issue",
        "onnxruntime.cuda-deps-mismatch",
        "export LD_LIBRARY_PATH",
        "https://github.com/microsoft/onnxruntime/issues/19616",
    ),
    (
        "我在docker中采用命令 pip install onnxruntime-gpu --extra-index-url https://aiinfra.pkgs.visualstudio.com/PublicPackages/_packaging/onnxruntime-cuda-12/pypi/simple/ 安装了onnxruntime-gpu，但是代码执行过程中为什么会去找libcublasLt.so.11的库文件，而不是libcublasLt.so.12\nFAIL : Failed to load library libonnxruntime_providers_cuda.so with error: libcublasLt.so.11: cannot open shared object file: No such file or directory",
        "onnxruntime.cuda-deps-mismatch",
        "nvidia-cublas-cu12",
        "https://github.com/infiniflow/ragflow/issues/905",
    ),
    (
        "[TensorRT] ERROR: INVALID_ARGUMENT: getPluginCreator could not find plugin InstanceNormalization_TRT version 1\n[TensorRT] ERROR: safeDeserializationUtils.cpp (322) - Serialization Error in load: 0 (Cannot deserialize plugin since corresponding IPluginCreator not found in Plugin Registry)",
        "tensorrt.plugin-not-registered",
        "init_libnvinfer_plugins",
        "https://github.com/NVIDIA/TensorRT/issues/263",
    ),
    (
        "[TensorRT] ERROR: INVALID_ARGUMENT: getPluginCreator could not find plugin CHUNK_TRT version 1.0\n[TensorRT] ERROR: safeDeserializationUtils.cpp (323) - Serialization Error in load: 0 (Cannot deserialize plugin since corresponding IPluginCreator not found in Plugin Registry)\n[TensorRT] ERROR: INVALID_STATE: std::exception\n[TensorRT] ERROR: INVALID_CONFIG: Deserialize the cuda engine failed.",
        "tensorrt.plugin-not-registered",
        "ctypes.CDLL",
        "https://github.com/enazoe/yolo-tensorrt/issues/157",
    ),
    (
        '    raise Exception(f">- DeepSpeed Op Builder: Installed CUDA version {sys_cuda_version} does not match the "\nException: >- DeepSpeed Op Builder: Installed CUDA version 12.0 does not match the version torch was compiled with 11.8, unable to compile cuda/cpp extensions without a matching cuda version.',
        "cuda.toolkits-disagree",
        "CUDA_HOME",
        "https://github.com/deepspeedai/DeepSpeedExamples/issues/370",
    ),
    (
        "[01/11/2023-16:33:50] [E] [TRT] 6: [libLoader.h::DynamicLibrary::50] Error Code 6: Internal Error (Unable to load library: libnvinfer_builder_resource.so.8.4.1)",
        "tensorrt.lib-not-on-loader-path",
        "export LD_LIBRARY_PATH",
        "https://github.com/wang-xinyu/tensorrtx/issues/1205",
    ),
    (
        "[2022-07-16 16:27:05][error][trt_builder.cpp:30]:NVInfer: 6: [libLoader.h::DynamicLibrary::50] Error Code 6: Internal Error (Unable to load library: libnvinfer_builder_resource.so.8.4.1)\n[2022-07-16 16:27:05][error][trt_builder.cpp:477]:Can not create builder.",
        "tensorrt.lib-not-on-loader-path",
        "export LD_LIBRARY_PATH",
        "https://github.com/shouxieai/tensorRT_Pro/issues/118",
    ),
    (
        "[2024-06-13 20:21:01.668] [error] 6: [libLoader.cpp::nvinfer1::rt::DynamicLibrary::Impl::Impl::288] Error Code 6: Internal Error (Unable to load library: nvinfer_builder_resource_10.dll)",
        "tensorrt.lib-not-on-loader-path",
        'copy "C:\\TensorRT',
        "https://github.com/cyrusbehr/tensorrt-cpp-api/issues/78",
    ),
    (
        "[07/25/2024-13:52:57] [TRT] [E] IBuilder::buildSerializedNetwork: Error Code 6: API Usage Error (Unable to load library: libnvinfer_builder_resource_win.so.10.2.0: libnvinfer_builder_resource_win.so.10.2.0: cannot open shared object file: No such file or directory)",
        "tensorrt.lib-not-on-loader-path",
        "pip install --upgrade",
        "https://github.com/replicate/cog-triton/issues/51",
    ),
    (
        "6: [libLoader.h::DynamicLibrary::50] Error Code 6: Internal Error (Unable to load library: libnvinfer_builder_resource.so.8.4.2)\n**TensorRT Version : TensorRT-8.4.2.4",
        "tensorrt.lib-not-on-loader-path",
        "export LD_LIBRARY_PATH",
        "https://github.com/NVIDIA/TensorRT/issues/2218",
    ),
    (
        "KataGo v1.14.1 Using TrompTaylor rules initially, unless GTP/GUI overrides this TensorRT backend: 6: [libLoader.cpp::nvinfer1::rt::DynamicLibrary::Impl::Impl::290] Error Code 6: Internal Error (Unable to load library: nvinfer_builder_resource.dll)",
        "tensorrt.lib-not-on-loader-path",
        'copy "C:\\TensorRT',
        "https://github.com/lightvector/KataGo/issues/932",
    ),
    (
        "EP Error /onnxruntime_src/onnxruntime/core/session/provider_bridge_ort.cc:1193 onnxruntime::Provider& onnxruntime::ProviderLibrary::Get() [ONNXRuntimeError] : 1 : FAIL : Failed to load library libonnxruntime_providers_tensorrt.so with error: libnvinfer.so.8: cannot open shared object file: No such file or directory\n when using ['TensorrtExecutionProvider']\nFalling back to ['CUDAExecutionProvider', 'CPUExecutionProvider'] and retrying.",
        "onnxruntime.cuda-deps-mismatch",
        "tensorrt_libs",
        "https://github.com/microsoft/onnxruntime/issues/18597",
    ),
    (
        "[E:onnxruntime:Default, provider_bridge_ort.cc:2167 TryGetProviderInfo_TensorRT] /onnxruntime_src/onnxruntime/core/session/provider_bridge_ort.cc:1778 onnxruntime::Provider& onnxruntime::ProviderLibrary::Get() [ONNXRuntimeError] : 1 : FAIL : Failed to load library libonnxruntime_providers_tensorrt.so with error: libnvinfer.so.10: cannot open shared object file: No such file or directory",
        "onnxruntime.cuda-deps-mismatch",
        "tensorrt==10",
        "https://github.com/FocoosAI/focoos/issues/143",
    ),
    (
        "onnx2trt: error while loading shared libraries: libnvinfer.so.5: cannot open shared object file: No such file or directory",
        "tensorrt.lib-not-on-loader-path",
        "export LD_LIBRARY_PATH",
        "https://github.com/onnx/onnx-tensorrt/issues/775",
    ),
    (
        "/usr/local/lib/python3.6/dist-packages/onnxruntime/capi/_pybind_state.py:13: UserWarning: Cannot load onnxruntime.capi. Error: 'libnvinfer.so.5: cannot open shared object file: No such file or directory'\n  warnings.warn(\"Cannot load onnxruntime.capi. Error: '{0}'\".format(str(e)))",
        "tensorrt.lib-not-on-loader-path",
        "export LD_LIBRARY_PATH",
        "https://github.com/Azure-Samples/onnxruntime-iot-edge/issues/17",
    ),
    (
        "WARNING: BNB_CUDA_VERSION=123 environment variable detected; loading libbitsandbytes_cuda121_nocublaslt123.so.\nThis can be used to load a bitsandbytes version that is different from the PyTorch CUDA version.\nIf this was unintended set the BNB_CUDA_VERSION variable to an empty string: export BNB_CUDA_VERSION=\n\nCould not find the bitsandbytes CUDA binary at PosixPath('/home/llm/ProgramFiles/bitsandbytes/bitsandbytes/libbitsandbytes_cuda121_nocublaslt123.so')\nCould not load bitsandbytes native library: /home/llm/ProgramFiles/bitsandbytes/bitsandbytes/libbitsandbytes_cpu.so: cannot open shared object file: No such file or directory",
        "bitsandbytes.cudart-not-found",
        "export BNB_CUDA_VERSION=",
        "https://github.com/bitsandbytes-foundation/bitsandbytes/issues/1180",
    ),
    (
        "ERROR: createInferBuilder: Error Code 6: API Usage Error\nUnable to load library:\nlibnvinfer_builder_resource.so.10.7.0:\ncannot open shared object file: No such file or directory\n\nCould not create builder.",
        "tensorrt.lib-not-on-loader-path",
        "export LD_LIBRARY_PATH",
        "https://github.com/NVlabs/GR00T-WholeBodyControl/issues/195",
    ),
    (
        "ModuleNotFoundError: No module named 'torch._six'\n将这个文件里面的torch._six改成torch就好，pytorch2.0没有six这个包",
        "torch.six-module-removed",
        "from torch import inf",
        "https://github.com/InternLM/InternLM/issues/109",
    ),
    (
        "UT ImportError: libnvonnxparser.so.8 cannot open shared object file",
        "tensorrt.lib-not-on-loader-path",
        "pip install --upgrade",
        "https://github.com/open-mmlab/mmdeploy/issues/116",
    ),
]


test_a_library_message_gets_its_cause_and_the_knob = command_test(
    KNOB, ids=[f"{k[1]}-{i}" for i, k in enumerate(KNOB)]
)


# (real message of another cause, the new cause it must not get first, thread or None)
LOOKALIKE = [
    # another module missing after a torch upgrade: bitsandbytes' triton.ops, not torch._six
    ("ModuleNotFoundError: No module named 'triton.ops'", "torch.six-module-removed", None),
    # JAX's CUDA plugin failing to start is not a TensorRT plugin registry miss
    (
        "CUDA backend failed to initialize: jaxlib/cuda/versions_helpers.cc:90: operation "
        "gpuDeviceGetAttribute(...) failed: CUDA_ERROR_NOT_INITIALIZED",
        "tensorrt.plugin-not-registered",
        None,
    ),
    # error 2 (out of memory) from TensorRT's CUDA initialisation is not the driver-too-old error 35
    (
        "when I use the follow command:\nsudo ./yolov5 -s yolov5s.wts yolov5s.engine s\n\nIt output a "
        "error:\nCUDA initialization failure with error 2. Please check your CUDA installation",
        "cuda.toolkit-newer-than-driver",
        "https://github.com/wang-xinyu/tensorrtx/issues/804",
    ),
    # the builder-resource library found but refused by a glibc without executable stacks: not a
    # loader-path problem
    (
        "ERROR: [Torch-TensorRT TorchScript Conversion Context] - createInferBuilder: Error Code 6: API "
        "Usage Error (Unable to load library: libnvinfer_builder_resource.so.10.7.0: "
        "libnvinfer_builder_resource.so.10.7.0: cannot enable executable stack as shared object "
        "requires: Invalid argument)",
        "tensorrt.lib-not-on-loader-path",
        "https://github.com/TNTwise/REAL-Video-Enhancer/issues/85",
    ),
    # ONNX Runtime's TensorRT provider missing libnvinfer stays the ORT provider cause
    (
        "[ONNXRuntimeError] : 1 : FAIL : Failed to load library libonnxruntime_providers_tensorrt.so "
        "with error: libnvinfer.so.10: cannot open shared object file: No such file or directory",
        "tensorrt.lib-not-on-loader-path",
        "https://github.com/FocoosAI/focoos/issues/143",
    ),
]


test_a_lookalike_does_not_get_the_new_cause = lookalike_test(LOOKALIKE, may_be_empty=True)
