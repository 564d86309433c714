"""ONNX Runtime and LLM-serving stacks, round 17 (checks/signatures/{tensorrt,serving}.toml and the
entries it extends): a TensorRT engine whose plan names the release that loads it and the release
that wrote it (the fix names both versions), SGLang's start-up check of a dependency's minimum
version, FlashInfer's check that flashinfer-cubin / flashinfer-jit-cache match flashinfer-python,
and the engine, IR-version and TensorRT-EP messages the earlier rounds already cover. Each message
is copied from a public thread whose fix was confirmed (the reporter says it worked, or a
maintainer states cause and fix); it reaches that cause first, and one of the cause's fixes names
the knob the confirmed fix turned. Look-alike rows are real messages of other causes a new pattern
could catch: they must not rank the new cause first."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, text its fixes name, URL)
KNOB = [
    (
        "[TensorRT-LLM][ERROR] 6: The engine plan file is not compatible with this version of "
        "TensorRT, expecting library version 9.2.0.5 got 9.3.0.1, please rebuild.\n"
        "[TensorRT-LLM][ERROR] 2: [engine.cpp::deserializeEngine::1148] Error Code 2: Internal Error "
        "(Assertion engine->deserialize(start, size, allocator, runtime) failed. )",
        "tensorrt.engine-version-mismatch",
        "TensorRT 9.2.0.5",
        # maintainer: the pip install brought TensorRT 9.3 next to the container's 9.2
        "https://github.com/triton-inference-server/triton_cli/pull/59",
    ),
    (
        "The engine plan file is not compatible with this version of TensorRT, expecting library "
        "version 9.2.0.4 got 9.2.0.5, please rebuild",
        "tensorrt.engine-version-mismatch",
        "TensorRT 9.2.0.4",
        # maintainer: use the Triton container documented for that TensorRT-LLM release
        "https://github.com/triton-inference-server/tensorrtllm_backend/issues/194",
    ),
    (
        "Exception: flashinfer with minimum required version 0.1.6 is not installed. Please "
        "uninstall the old version and reinstall the latest version by following the instructions "
        "at https://docs.flashinfer.ai/installation.html.",
        "sglang.dependency-too-old",
        "sglang[all]",
        "https://github.com/flashinfer-ai/flashinfer/issues/794",  # reporter: latest sglang worked
    ),
    (
        " RuntimeError: flashinfer-cubin version (0.6.8.post1) does not match flashinfer version "
        "(0.6.10). Please install the same version of both packages. Set "
        "FLASHINFER_DISABLE_VERSION_CHECK=1 to bypass this check.",
        "flashinfer.companion-version-mismatch",
        "flashinfer-python==0.6.8.post1",
        "https://github.com/NVIDIA-NeMo/Export-Deploy/pull/679",  # merged fix: pin to 0.6.8.post1
    ),
    (
        'Runtime failed because of the following: "05/24/2024-20:07:15] [TRT] [E] 1: '
        "[stdArchiveReader.cpp::StdArchiveReaderInitCommon::46] Error Code 1: Serialization "
        "(Serialization assertion stdVersionRead == serializationVersion failed.Version tag does not "
        'match. Note: Current Version: 236, Serialized Engine Version: 237)"',
        "tensorrt.engine-version-mismatch",
        "dpkg -l",
        # maintainer: two TensorRT installs; reporter: keeping one (10.1) made it work
        "https://github.com/NVIDIA/TensorRT/issues/3898",
    ),
    (
        '编译完dll之后，C#读取Nvinfer predictor = new Nvinfer(@"*/best.engine");提示异常'
        "TensorRtSharp.Internal.PInvoke.TRTException:“[stdArchiveReader.cpp::nvinfer1::rt::"
        "StdArchiveReader::StdArchiveReaderInitCommon::46] Error Code 1: Serialization "
        "(Serialization assertion stdVersionRead == serializationVersion failed.Version tag does not "
        "match. Note: Current Version: 236, Serialized Engine Version: 237)”，这个怎么解决哇~",
        "tensorrt.engine-version-mismatch",
        "trtexec",
        # reporter: the Python and C# TensorRT versions differed; reconverting fixed it
        "https://github.com/guojin-yan/TensorRT-CSharp-API/issues/8",
    ),
    (
        "[03/15/2022-09:42:36] [E] [TRT] 1: [stdArchiveReader.cpp::nvinfer1::rt::StdArchiveReader::"
        "StdArchiveReader::40] Error Code 1: Serialization (Serialization assertion stdVersionRead == "
        "serializationVersion failed.Version tag does not match. Note: Current Version: 213, "
        "Serialized Engine Version: 205)\n"
        "[03/15/2022-09:42:36] [E] [TRT] 4: [runtime.cpp::nvinfer1::Runtime::deserializeCudaEngine::"
        "50] Error Code 4: Internal Error (Engine deserialization failed.)",
        "tensorrt.engine-version-mismatch",
        "trtexec",
        # maintainer: engines are per GPU / CUDA / cuDNN: convert the model locally
        "https://github.com/CaptainEven/ByteTrack-MCMOT-TensorRT/issues/1",
    ),
    (
        "    sess = C.InferenceSession(session_options, self._model_path, True, "
        "self._read_config_from_model)\n"
        "onnxruntime.capi.onnxruntime_pybind11_state.Fail: [ONNXRuntimeError] : 1 : FAIL : Load "
        "model from tts_surgeon.onnx failed:/onnxruntime_src/onnxruntime/core/graph/model.cc:146 "
        "onnxruntime::Model::Model(onnx::ModelProto&&, const PathString&, const "
        "IOnnxRuntimeOpSchemaRegistryList*, const onnxruntime::logging::Logger&, const "
        "onnxruntime::ModelOptions&) Unsupported model IR version: 9, max supported IR version: 8",
        "onnxruntime.model-ir-version-too-new",
        "ir_version",
        "https://github.com/NVIDIA/TensorRT/issues/3841",  # reporter: fixed by a suitable IR version
    ),
    (
        "error: [obs-backgroundremoval] /onnxruntime_src/onnxruntime/core/session/"
        "provider_bridge_ort.cc:1193 onnxruntime::Provider& onnxruntime::ProviderLibrary::Get() "
        "[ONNXRuntimeError] : 1 : FAIL : Failed to load library libonnxruntime_providers_tensorrt.so "
        "with error: libnvinfer.so.8: cannot open shared object file: No such file or directory\n"
        "\n"
        "error: [obs-backgroundremoval] Failed to create ONNXRuntime session. Error code: 5",
        "onnxruntime.cuda-deps-mismatch",
        "tensorrt",
        "https://github.com/royshil/obs-backgroundremoval/issues/504",  # maintainer: install TensorRT
    ),
]

# (real message of another cause, the new cause it must not reach first, URL)
LOOKALIKE = [
    (
        "ImportError: /usr/local/lib/python3.10/dist-packages/flashinfer/flashinfer_kernels.abi3.so: "
        "undefined symbol: _ZN5torch3jit17parseSchemaOrNameERKSsb",
        "sglang.dependency-too-old",
        "https://github.com/flashinfer-ai/flashinfer/issues/911",
    ),
    (
        "ImportError: /usr/local/lib/python3.10/dist-packages/flashinfer/flashinfer_kernels.abi3.so: "
        "undefined symbol: _ZN5torch3jit17parseSchemaOrNameERKSsb",
        "flashinfer.companion-version-mismatch",
        "https://github.com/flashinfer-ai/flashinfer/issues/911",
    ),
    (
        "ERROR: Could not find a version that satisfies the requirement flashinfer-python (from "
        "versions: none)\n"
        "ERROR: No matching distribution found for flashinfer-python",
        "sglang.dependency-too-old",
        "https://github.com/Robbyant/lingbot-map/issues/37",
    ),
    (
        " Cannot use FlashAttention-2 backend because the flash_attn package is not found. Please "
        "install it for better performance.\n"
        " Using XFormers backend.",
        "flashinfer.companion-version-mismatch",
        "https://github.com/vllm-project/vllm/issues/4906",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_not_first = lookalike_test(LOOKALIKE)
