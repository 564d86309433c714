"""Intel GPUs (SYCL / IPEX / ipex-llm / OpenVINO) and PaddlePaddle, round 14 sweep
(checks/signatures/{intel,apps,paddle}.toml): each common message, verbatim from a public thread whose fix
was confirmed, reaches its cause first with a fix naming the knob that fix turned; look-alike
messages of other causes (verbatim too) are not read as the new causes."""

from __future__ import annotations

from tests.triage_lines import assert_first_naming, knob_test, lookalike_test

# (message, the finding id first, a knob its fixes name, the thread)
KNOB = [
    (
        "RuntimeError: (PreconditionNotMet) Cannot load cudnn shared library. Cannot invoke "
        "method cudnnGetVersion.",
        "cuda.cudnn-missing",
        "paddlepaddle-gpu",
        "https://github.com/PaddlePaddle/PaddleOCR/issues/7300",
    ),
    (
        "RuntimeError: (PreconditionNotMet) Cannot load cudnn shared library. Cannot invoke "
        "method cudnnGetVersion.\n"
        "  [Hint: cudnn_dso_handle should not be null.] (at "
        "../paddle/phi/backends/dynload/cudnn.cc:76)",
        "cuda.cudnn-missing",
        "LD_LIBRARY_PATH",
        "https://github.com/opendatalab/PDF-Extract-Kit/issues/77",
    ),
    (
        "OSError: (External) CUBLAS error(13).\n"
        "  [Hint: Please search for the error code(13) on website "
        "(https://docs.nvidia.com/cuda/cublas/index.html#cublasstatus_t) to get Nvidia's "
        "official solution and advice about CUBLAS Error.] (at "
        "/paddle/paddle/phi/kernels/funcs/blas/blas_impl.cu.h:35)\n"
        "  [operator < multihead_matmul > error]",
        "paddle.wheel-cuda-mismatch",
        "conda uninstall cudatoolkit",
        "https://github.com/PaddlePaddle/Paddle/issues/47749",
    ),
    (
        "ERROR: Could not find a version that satisfies the requirement "
        "paddlepaddle-gpu==2.6.1 (from versions: none)\n"
        "ERROR: No matching distribution found for paddlepaddle-gpu==2.6.1",
        "python.no-matching-wheel",
        "64-bit",
        "https://github.com/PaddlePaddle/Paddle/issues/65320",
    ),
    (
        "(PI_ERROR_BUILD_PROGRAM_FAILURE)Exception caught at "
        "file:C:/Users/Administrator/actions-runner/release-cpp-oneapi_2024_2/_work/llm.cpp/l"
        "lm.cpp/llama-cpp-bigdl/ggml/src/ggml-sycl.cpp, line:3715",
        "intel.ipex-llm-release-regression",
        "ipex-llm[cpp]",
        "https://github.com/intel/ipex-llm/issues/12108",
    ),
    (
        "The program was built for 1 devices\n"
        "Build program log for 'Intel(R) UHD Graphics':\n"
        " -11 (PI_ERROR_BUILD_PROGRAM_FAILURE)Exception caught at "
        "file:D:/actions-runner/release-cpp-oneapi_2024_2/_work/llm.cpp/llm.cpp/llama-cpp-big"
        "dl/ggml/src/ggml-sycl.cpp, line:3775",
        "intel.ipex-llm-release-regression",
        "ipex-llm[cpp]",
        "https://github.com/intel/ipex-llm/issues/12597",
    ),
    (
        "    return _C._has_fp64_dtype(device)\n"
        "           ^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "RuntimeError: Can't add devices across platforms to a single context. -33 "
        "(PI_ERROR_INVALID_DEVICE)",
        "intel.multi-gpu-device-selection",
        "discrete-GPU build",
        "https://github.com/intel/AI-Playground/issues/76",
    ),
    (
        "ImportError: "
        "/home/wenhuach/anaconda3/envs/newvllm/lib/python3.10/site-packages/intel_extension_f"
        "or_pytorch/lib/libintel-ext-pt-cpu.so: undefined symbol: "
        "_ZNK5torch8autograd4Node4name",
        "intel.ipex-torch-mismatch",
        "pip install --force-reinstall torch",
        "https://github.com/intel/intel-extension-for-pytorch/issues/811",
    ),
    (
        'RuntimeError: Device with "MYRIAD" name is not registered in the OpenVINO Runtime',
        "intel.openvino-myriad-plugin-removed",
        "2022.3",
        "https://github.com/openvinotoolkit/open_model_zoo/issues/3725",
    ),
    (
        "2024/09/09 04:48:23 config.go:173: ERROR unable to locate llm runner directory. Set "
        "OLLAMA_RUNNERS_DIR to the location of 'ollama/runners'",
        "app.ollama.backends-not-found",
        "Reinstall Ollama",
        "https://github.com/ollama/ollama/issues/6709",
    ),
    (
        "(base) nikos@PC-9700:~$ ./ollama -v\n"
        "ollama version is 0.3.6-ipexllm-20241116\n"
        "(base) nikos@PC-9700:~$ ./ollama run mistral\n"
        "Error: llama runner process has terminated: exit status 127",
        "app.ollama.backends-not-found",
        "ipex-llm[cpp]",
        "https://github.com/intel/ipex-llm/issues/12471",
    ),
]

# (message of another cause, the new cause it must not be read as, the thread)
LOOKALIKE = [
    # a cuBLAS call given an invalid argument (the fix was in the model code), not a stray CUDA
    (
        "OSError: (External) CUBLAS error(7). \n  [Hint: 'CUBLAS_STATUS_INVALID_VALUE'.  An "
        "unsupported value or parameter was passed to the function (a negative vector size, for "
        "example). To correct: ensure that all the parameters being passed have valid values. ] (at "
        "/paddle/paddle/phi/kernels/funcs/blas/blas_impl.cu.h:55)\n  [operator < matmul_v2 > error]",
        "paddle.wheel-cuda-mismatch",
        "https://github.com/PaddlePaddle/Paddle/issues/45683",
    ),
    # "XPU" is no OpenVINO device name; the MYRIAD plugin is not in question
    (
        "geti-inspect-xpu  | Exception from src/inference/src/dev/core_impl.cpp:665:\n"
        'geti-inspect-xpu  | Device with "XPU" name is not registered in the OpenVINO Runtime',
        "intel.openvino-myriad-plugin-removed",
        "https://github.com/open-edge-platform/anomalib/issues/3294",
    ),
    # the runner started and aborted (Windows fail-fast), not a runner that could not start
    (
        "Error: llama runner process has terminated: exit status 0xc0000409",
        "app.ollama.backends-not-found",
        "https://github.com/intel/ipex-llm/issues/11708",
    ),
    # an XPU kernel out of resources at run time, not a kernel that failed to build
    (
        "[0] [rank0]: RuntimeError: UR backend failed. UR backend returns:40 "
        "(UR_RESULT_ERROR_OUT_OF_RESOURCES)",
        "intel.sycl-kernel-build-failed",
        "https://github.com/intel/intel-extension-for-pytorch/issues/838",
    ),
]


test_a_common_message_gets_its_cause_and_the_knob = knob_test(KNOB)


test_a_look_alike_message_is_not_read_as_the_new_cause = lookalike_test(LOOKALIKE)


def test_the_myriad_title_names_the_device_the_message_names() -> None:
    finding = assert_first_naming(
        'RuntimeError: Device with "MYRIAD" name is not registered in the OpenVINO Runtime',
        "intel.openvino-myriad-plugin-removed",
        "releases/2022/3",
        "https://github.com/openvinotoolkit/open_model_zoo/issues/3725",
    )
    assert finding.title.startswith("This OpenVINO has no MYRIAD plugin")
