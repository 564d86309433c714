"""ONNX Runtime, TensorRT, Apple MPS and torch.compile / Triton (round 15 sweep, onnx:
checks/signatures/{torch,tensorrt,onnxruntime}.toml and the existing causes it extends): each message, verbatim from a
public thread where the fix was confirmed (or a maintainer stated cause and fix), reaches that
cause first with a fix naming the knob it turned; look-alike rows are real messages of other
causes that a new pattern could catch."""

from __future__ import annotations

from tests.triage_lines import assert_first_naming, knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, the knob one of its fixes names, thread)
KNOB = [
    # torch.compile refused on a Python newer than this torch's Dynamo: upgrade torch
    (
        "RuntimeError: Python 3.11+ not yet supported for torch.compile",
        "torch.python-unsupported",
        "torch>=2.1",
        "https://github.com/pytorch/pytorch/issues/104918",
    ),
    (
        "Runtimeerror: python 3.11+ not yet supported for torch. compile and my torch version is 2.0.0 and 2.0.1 in ubuntu18.04",
        "torch.python-unsupported",
        "torch>=2.1",
        "https://github.com/SakanaAI/AI-Scientist/issues/24",
    ),
    (
        "RuntimeError: torch.compile is not supported on Python 3.14+\ntorch/__init__.py:2590",
        "torch.python-unsupported",
        "torch>=2.10",
        "https://github.com/ndif-team/nnsight/pull/730",
    ),
    # pip's tensorrt meta-package without its bindings wheel: NVIDIA's index
    (
        "I am trying to pip install tensorrt 10.0.1 but it reports ''ModuleNotFoundError: No module named 'tensorrt_bindings'''",
        "tensorrt.pip-bindings-missing",
        "pypi.nvidia.com",
        "https://github.com/NVIDIA/TensorRT/issues/3838",
    ),
    (
        "  File \"D:\\ComfyUI_windows_portable\\python_embeded\\lib\\site-packages\\tensorrt\\__init__.py\", line 18, in <module>\n    from tensorrt_bindings import *\nModuleNotFoundError: No module named 'tensorrt_bindings'",
        "tensorrt.pip-bindings-missing",
        "pypi.nvidia.com",
        "https://github.com/comfyanonymous/ComfyUI_TensorRT/issues/18",
    ),
    # a triton newer than torch: the name torch's Inductor imports is gone
    (
        "cannot import name 'AttrsDescriptor' from 'triton.compiler.compiler'",
        "torch.triton-missing",
        "triton release your torch pins",
        "https://github.com/deepbeepmeep/Wan2GP/issues/348",
    ),
    # Inductor's C++ backend finds no compiler
    (
        "lib/python3.12/site-packages/torch/_inductor/cpp_builder.py\", line 102, in cpp_compiler_search\n    raise exc.InvalidCxxCompiler\ntorch._inductor.exc.InductorError: InvalidCxxCompiler: No working C++ compiler found in torch._inductor.config.cpp.cxx: (None, 'g++')",
        "torch.triton-no-c-compiler",
        "CXX",
        "https://github.com/NixOS/nixpkgs/pull/446105",
    ),
    (
        "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\nInvalidCxxCompiler: No working C++ compiler found in torch._inductor.config.cpp.cxx: (None, 'g++')\n\nPython版本：3.10.4\n操作系统：win10",
        "torch.triton-no-c-compiler",
        "compile=False",
        "https://github.com/2noise/ChatTTS/issues/133",
    ),
    (
        "RuntimeError: Compiler: cl is not found. (seemingly for no reason)",
        "torch.triton-no-c-compiler",
        "Visual Studio Build Tools",
        "https://github.com/BuffMcBigHuge/ComfyUI-Zonos/issues/7",
    ),
    # Triton's bundled ptxas-blackwell (CUDA 12.9) does not know Thor's sm_110
    (
        "The unit tests testing torch.compile would fail with these errors on NVIDIA JETSON THOR devices (https://www.nvidia.com/en-us/autonomous-machines/embedded-systems/jetson-thor/)  : \n\nptxas-blackwell fatal   : Value 'sm_110a' is not defined for option 'gpu-name'",
        "torch.gpu-too-new-for-build",
        "TRITON_PTXAS_BLACKWELL_PATH",
        "https://github.com/pytorch/pytorch/issues/170117",
    ),
    # ORT's CPU provider has no ConvInteger kernel for the u8 activation / s8 weight pair
    (
        "onnxruntime.capi.onnxruntime_pybind11_state.NotImplemented: [ONNXRuntimeError] : 9 : NOT_IMPLEMENTED : Could not find an implementation for the node Conv_0_quant:ConvInteger(10)",
        "onnxruntime.op-kernel-missing",
        "QUInt8",
        "https://github.com/microsoft/onnxruntime/issues/6430",
    ),
    # TensorRT's builder finds no tactic for a layer: more workspace (or a newer TensorRT)
    (
        "[optimizer.cpp::computeCosts::2011] Error Code 10: Internal Error (Could not find any implementation for node ArgMax_260.)",
        "tensorrt.no-tactic-for-layer",
        "--workspace",
        "https://github.com/NVIDIA/TensorRT/issues/1766",
    ),
    (
        "error code 10 internal error (could not find any implementation for node)\n\nA possible workaround is to increase the workspace to allow more algorithms for TensorRT.",
        "tensorrt.no-tactic-for-layer",
        "workspace",
        "https://github.com/dusty-nv/jetson-inference/issues/1499",
    ),
    # 'got 0.0.0': the bytes read are no engine at all (written or read in text mode)
    (
        "Loading TRT Engine...\nERROR: The engine plan file is not compatible with this version of TensorRT, expecting library version 5.1.5 got 0.0.0, please rebuild.\nLoading Complete!",
        "tensorrt.engine-version-mismatch",
        "std::ios::binary",
        "https://github.com/NVIDIA/TensorRT/issues/574",
    ),
    # already reached before this round (fresh threads, kept as guards)
    (
        "FAIL : Failed to load library libonnxruntime_providers_cuda.so with error: libcublasLt.so.11: cannot open shared object file: No such file or directory",
        "onnxruntime.cuda-deps-mismatch",
        "onnxruntime-gpu",
        "https://github.com/microsoft/onnxruntime/issues/21684",
    ),
    (
        "ai.onnxruntime.OrtException: Error code - ORT_RUNTIME_EXCEPTION - message: /onnxruntime_src/onnxruntime/core/session/provider_bridge_ort.cc:1029 onnxruntime::Provider& onnxruntime::ProviderLibrary::Get() [ONNXRuntimeError] : 1 : FAIL : Failed to load library libonnxruntime_providers_cuda.so with error: libcublas.so.11: cannot open shared object file: No such file or directory",
        "onnxruntime.cuda-deps-mismatch",
        "LD_LIBRARY_PATH",
        "https://github.com/microsoft/onnxruntime/issues/12540",
    ),
    (
        "`2024-02-23 22:55:09.263697843 [E:onnxruntime:Default, provider_bridge_ort.cc:1480 TryGetProviderInfo_CUDA] /home/ort/onnxruntime/onnxruntime/core/session/provider_bridge_ort.cc:1193 onnxruntime::Provider& onnxruntime::ProviderLibrary::Get() [ONNXRuntimeError] : 1 : FAIL : Failed to load library libonnxruntime_providers_cuda.so with error: libcudnn.so.8: cannot open shared object file: No such file or directory`",
        "onnxruntime.cuda-deps-mismatch",
        "LD_LIBRARY_PATH",
        "https://github.com/microsoft/onnxruntime/issues/19631",
    ),
    (
        "When running \n`import onnxruntime `, I get the following error: \n`OSError: libcudnn.so.7: cannot open shared object file: No such file or directory`\n\nThis is happening with pytorch/pytorch:1.5-cuda10.1-cudnn7-runtime.",
        "onnxruntime.cuda-deps-mismatch",
        "cudnn",
        "https://github.com/microsoft/onnxruntime/issues/3632",
    ),
]

# (real message of another cause, the cause it must not reach first, thread)
LOOKALIKE = [
    # TensorRT-LLM built from source without its C++ bindings: not the pip bindings wheel
    (
        "The `bindings` module does not exist. Please check the package integrity. If you are attempting to use the pip development mode (editable installation), please execute `build_wheels.py` first, and then run `pip install -e .`\n```\n\nThen I didn't find `bindings` in the source directory.\n\nSo I comment out `sanity_check()` and `pip install -e .`\n\nError reported when importing packages:\n\n```\nNo module named 'tensorrt_llm.bindings'",
        "tensorrt.pip-bindings-missing",
        "https://github.com/NVIDIA/TensorRT-LLM/issues/2599",
    ),
    # TensorRT's "could not find any implementation" is not ONNX Runtime's missing kernel
    (
        "[optimizer.cpp::computeCosts::2011] Error Code 10: Internal Error (Could not find any implementation for node conv1.weight + QuantizeLinear_7_quantize_scale_node + (Unnamed Layer* 14) [Shuffle] + Conv_9 + PWN(LeakyRelu_10).)",
        "onnxruntime.op-kernel-missing",
        "https://github.com/NVIDIA/TensorRT/issues/1768",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_caught = lookalike_test(LOOKALIKE, may_be_empty=True)


def test_an_ordinary_engine_version_mismatch_keeps_the_rebuild_first() -> None:
    """Only "got 0.0.0" (no version in the header) leads with the binary-mode fix; an engine
    built by another release still leads with the rebuild."""
    source = "https://github.com/pytorch/TensorRT/issues/1059"
    text = (
        "`The engine plan file is not compatible with this version of TensorRT, expecting library "
        "version 8.2.4 got 8.2.3, please rebuild.`"
    )
    finding = assert_first_naming(text, "tensorrt.engine-version-mismatch", "rebuild", source)
    assert "binary" not in finding.fixes[0].summary, (source, finding.fixes[0].summary)
