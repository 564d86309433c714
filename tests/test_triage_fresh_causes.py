"""The causes added from the 2026-12-03 harvest (checks/signatures/fresh_*.toml) reach real lines
from *other* threads than the training cases they were written for: the canonical lines as other
projects, versions and languages print them (each from a public issue named beside it)."""

from __future__ import annotations

import pytest

from envdoctor.commands.triage import triage_text

# (paste from another thread than the corpus case, the finding id it must rank in the top 3)
FIELD_LINES = [
    # oobabooga/textgen#2926 (llama-cpp-python, old ggml error format)
    (
        "CUDA error 209 at C:\\Users\\x\\pip-install\\llama-cpp-python\\vendor\\llama.cpp\\ggml-cuda.cu:2221: "
        "no kernel image is available for execution on the device",
        "app.llamacpp.gpu-arch-dropped",
    ),
    # leejet/stable-diffusion.cpp#554
    (
        "ggml_cuda_compute_forward: GET_ROWS failed\n"
        "CUDA error: no kernel image is available for execution on the device\n"
        "  current device: 0, in function ggml_cuda_compute_forward at "
        "D:\\a\\stable-diffusion.cpp\\ggml\\src\\ggml-cuda\\ggml-cuda.cu:2174",
        "app.llamacpp.gpu-arch-dropped",
    ),
    # livepeer/go-livepeer#1106
    (
        "[h264_nvenc @ 0x7ff3e9b83c00] Driver does not support the required nvenc API version. "
        "Required: 9.1 Found: 9.0\n[h264_nvenc @ 0x7ff3e9b83c00] The minimum required Nvidia driver "
        "for nvenc is 418.30 or newer",
        "app.nvenc-api-driver-too-old",
    ),
    # HandBrake/HandBrake#5641 (no driver version printed)
    (
        "[h264_nvenc @ 000001aedcf7e740] Driver does not support the required nvenc API version. "
        "Required: 12.1 Found: 12.0\n[h264_nvenc @ 000001aedcf7e740] The minimum required Nvidia "
        "driver for nvenc is (unknown) or newer",
        "app.nvenc-api-driver-too-old",
    ),
    # pytorch/pytorch#175666
    (
        "ValueError: Free memory on device cuda:0 (19.77/22.05 GiB) on startup is less than desired "
        "GPU memory utilization (0.9, 19.84 GiB). Decrease GPU memory utilization or reduce GPU "
        "memory used by other processes.",
        "app.vllm.gpu-memory-utilization-too-high",
    ),
    # NVIDIA/aicr#1688
    (
        "containerd: drop-in config version 4 higher than root config version 2\n"
        "containerd.service: Main process exited, code=exited, status=1/FAILURE",
        "k8s.toolkit-containerd-config-version",
    ),
    # BIOP/BIOP-desktop#2
    (
        "docker: Error response from daemon: failed to create task for container: failed to create shim "
        "task: OCI runtime create failed: runc create failed: unable to start container process: error "
        "during container init: error running hook #0: error running hook: exit status 1, stdout: , "
        "stderr: Auto-detected mode as 'legacy'\nnvidia-container-cli: mount error: file creation "
        "failed: /var/lib/docker/overlay2/36b6fcd35cb3/merged/usr/lib/x86_64-linux-gnu/"
        "libnvidia-ml.so.1: file exists: unknown.",
        "container.image-bundles-driver-libs",
    ),
    # tensorflow/tensorflow#68711 and xorbitsai/inference#1704
    (
        '"CUDA_ERROR_NOT_FOUND: named symbol not found" in Docker container',
        "wsl.docker-desktop-too-old-for-driver",
    ),
    (
        "ggml_cuda_init: failed to initialize CUDA: named symbol not found",
        "wsl.docker-desktop-too-old-for-driver",
    ),
    # onnx/onnx-tensorrt#257, NVIDIA/TensorRT-LLM#218
    (
        "onnx2trt: error while loading shared libraries: libnvinfer.so.6: cannot open shared object "
        "file: No such file or directory",
        "tensorrt.lib-not-on-loader-path",
    ),
    (
        "ImportError: libnvinfer.so.9: cannot open shared object file: No such file or directory",
        "tensorrt.lib-not-on-loader-path",
    ),
    # numba/numba#4136 (Windows)
    (
        "CudaDriverError: driver missing function: cuInit.\nRequires CUDA 8.0 or above.\n"
        '$Env:NUMBAPRO_CUDA_DRIVER = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v9.1\\bin\\cudart64_91.dll"',
        "cuda.driver-env-points-to-runtime",
    ),
    # niconielsen32/ComputerVision#6
    (
        "OpenCV(4.5.3) C:\\Users\\runneradmin\\AppData\\Local\\Temp\\pip-req-build-u4kjpz2z\\opencv\\modules"
        "\\core\\include\\opencv2/core/private.cuda.hpp:106: error: (-216:No CUDA support) The library is "
        "compiled without CUDA support in function 'throw_no_cuda'",
        "opencv.built-without-cuda",
    ),
    # openvinotoolkit/openvino#410
    (
        "No OpenCL device found which would match provided configuration:\n"
        "        GeForce GTX 560 Ti: invalid vendor type",
        "intel.openvino-gpu-plugin-intel-only",
    ),
    # microsoft/onnxruntime#7484 (Jetson)
    (
        "Running inference on a Jetson Xavier\nValueError: Specified provider 'CUDAExecutionProvider' "
        "is unavailable. Available providers: 'CPUExecutionProvider'",
        "onnxruntime.jetson-no-gpu-build",
    ),
    # NVIDIA/nccl-tests#185
    (
        "dgxh100-3:225140:225355 [0] misc/ibvwrap.cc:187 NCCL WARN Call to ibv_modify_qp failed with "
        "error Network is unreachable",
        "nccl.roce-gid-index-wrong",
    ),
    # vllm-project/vllm#8189
    (
        "RuntimeError: Error in model execution (input dumped to /tmp/err_execute_model_input.pkl): "
        "FlashAttention only supports Ampere GPUs or newer.",
        "flashattn.gpu-arch-unsupported",
    ),
    # AutoGPTQ/AutoGPTQ#402
    (
        "ERROR:auto_gptq.nn_modules.qlinear.qlinear_exllama:exllama_kernels not installed.",
        "autogptq.cuda-ext-not-installed",
    ),
    # vllm-project/vllm-ascend#130
    (
        "INFO 02-23 00:49:55 __init__.py:187] No platform detected, vLLM is running on UnspecifiedPlatform",
        "vllm.platform-not-detected",
    ),
    # containers/crun#2104
    (
        "Error: OCI runtime error: crun: fsopen_mount `tmpfs`: Function not implemented",
        "container.crun-keepid-cdi-failure",
    ),
    # lightly-ai/lightly-train#148
    (
        "lightning_fabric/plugins/environments/slurm.py:204: The `srun` command is available on your "
        "system but is not used. HINT: If your intention is to run Lightning on SLURM, prepend your "
        "python command with `srun` like so: srun python run_train.py ...",
        "cluster.launch-not-via-srun",
    ),
    # lshqqytiger/stable-diffusion-webui-amdgpu#508
    (
        'I tried installing HIP SDK, but I got Error 215. "A general error has occurred during the '
        'installation of the AMD software package."',
        "rocm.hip-sdk-install-failed",
    ),
    # styler00dollar/VSGAN-tensorrt-docker#42 (FFmpeg's floor line follows, but the library is missing)
    (
        "[hevc_nvenc @ 0x55ca461fa380] Cannot load libnvidia-encode.so.1\n"
        "[hevc_nvenc @ 0x55ca461fa380] The minimum required Nvidia driver for nvenc is (unknown) or newer",
        "container.driver-libs-not-injected",
    ),
    # NVIDIA/nvidia-docker#766
    (
        "[h264_cuvid @ 0x1ec8780] Cannot load libnvcuvid.so.1\n[h264_cuvid @ 0x1ec8780] Failed loading nvcuvid.",
        "container.driver-libs-not-injected",
    ),
    # NVIDIA/DIGITS#2005
    (
        "Check failed: error == cudaSuccess (46 vs. 0)  all CUDA-capable devices are busy or unavailable",
        "nvidia.compute-mode-exclusive",
    ),
    # pytorch/pytorch#164943
    (
        "RuntimeError: The MPS backend is supported on MacOS 13.0+.Current OS version can be queried using `sw_vers`",
        "apple.mps-not-available",
    ),
    # NVIDIA/gpu-operator#190
    (
        "Installing Linux kernel headers...\n+ dnf -q -y --releasever=8.2 install "
        "kernel-headers-4.18.0-240.22.1.el8_3.x86_64 kernel-devel-4.18.0-240.22.1.el8_3.x86_64\n"
        "Error: Unable to find a match: kernel-devel-4.18.0-240.22.1.el8_3.x86_64",
        "k8s.driver-container-no-kernel-headers",
    ),
    # intel/ipex-llm#12763, intel/intel-extension-for-pytorch#281
    (
        "./ollama: error while loading shared libraries: libsycl.so.7: cannot open shared object file: "
        "No such file or directory",
        "intel.oneapi-not-sourced",
    ),
    (
        '  File "/home/v/.pyenv/versions/env/lib/python3.9/site-packages/intel_extension_for_pytorch/'
        '__init__.py", line 3, in <module>\nOSError: libmkl_intel_lp64.so.2: cannot open shared object '
        "file: No such file or directory",
        "intel.oneapi-not-sourced",
    ),
]


@pytest.mark.parametrize(("paste", "expected"), FIELD_LINES, ids=[e for _, e in FIELD_LINES])
def test_field_line_reaches_its_cause(paste: str, expected: str) -> None:
    ids = [f.id for f in triage_text(paste).findings[:3]]
    assert expected in ids, ids


def test_nvenc_fix_names_the_printed_driver_floor() -> None:
    report = triage_text(FIELD_LINES[2][0])
    [finding] = [f for f in report.findings if f.id == "app.nvenc-api-driver-too-old"]
    assert any("418" in f.summary for f in finding.fixes)


def test_llama_cpp_build_error_is_not_blamed_on_the_torch_build() -> None:
    ids = [f.id for f in triage_text(FIELD_LINES[1][0]).findings]
    assert ids[0] == "app.llamacpp.gpu-arch-dropped"


def test_no_kernel_image_from_torch_stays_a_torch_finding() -> None:
    ids = [
        f.id
        for f in triage_text(
            "RuntimeError: CUDA error: no kernel image is available for execution on the device"
        ).findings
    ]
    assert "app.llamacpp.gpu-arch-dropped" not in ids


def test_trt_provider_library_of_onnxruntime_is_left_to_its_own_finding() -> None:
    paste = (
        "Failed to load library libonnxruntime_providers_tensorrt.so with error: libnvinfer.so.10: "
        "cannot open shared object file: No such file or directory"
    )
    assert "tensorrt.lib-not-on-loader-path" not in [f.id for f in triage_text(paste).findings]


def test_cuda_execution_provider_missing_off_jetson_is_not_the_jetson_cause() -> None:
    paste = "CUDA execution provider is not enabled in this build."
    assert "onnxruntime.jetson-no-gpu-build" not in [f.id for f in triage_text(paste).findings]


def test_missing_encode_library_is_not_an_nvenc_api_mismatch() -> None:
    paste = (
        "[h264_nvenc @ 0x55855d101140] Cannot load libnvidia-encode.so.1\n"
        "[h264_nvenc @ 0x55855d101140] The minimum required Nvidia driver for nvenc is 418.30 or newer"
    )
    ids = [f.id for f in triage_text(paste).findings]
    assert ids[0] == "container.driver-libs-not-injected"
    assert "app.nvenc-api-driver-too-old" not in ids


def test_updating_the_driver_as_a_tried_fix_is_not_a_regression_report() -> None:
    paste = "显卡驱动存在问题，已更新显卡驱动至官方最新版，游戏还是崩溃"
    ids = [f.id for f in triage_text(paste).findings]
    assert "app.driver-newer-than-validated" not in ids


def test_mkl_missing_without_intel_gpu_context_is_not_blamed_on_oneapi() -> None:
    paste = (
        "OSError: libmkl_intel_lp64.so.1: cannot open shared object file: No such file or directory"
    )
    assert "intel.oneapi-not-sourced" not in [f.id for f in triage_text(paste).findings]
