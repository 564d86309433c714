"""Round 35's changes: the causes the fresh development samples (tests/triage_corpus/train/) met
that envdoctor did not read (a program's own build without an old GPU, cuBLAS and 'invalid
device symbol' on a GPU outside a release's CUDA, a PyTorch built from source for other GPUs,
OLLAMA_LLM_LIBRARY, MPI's ssh launcher, tensorflow-rocm and ROCm's loader path, hipcc headers,
ROCm containers without /dev/kfd, AMD's DKMS driver, OpenCL without a vendor runtime, CUDA.jl's
driver floor, GPUs without NVENC), and fixes that could not work (torch wheels offered for a
TensorFlow or JAX paste, NVIDIA's Secure Boot advice for an AMD GPU, "too new" for a Kepler)."""

from __future__ import annotations

from envdoctor.triage_engine import triage_text
from tests.triage_lines import (
    assert_read_instead,
    finding_ids,
    finding_origins,
    source_knob_test,
    training_case_test,
)

# (thread, text, finding id, knob): canonical lines verbatim from the threads named
ROWS = [
    (
        "https://github.com/ollama/ollama/issues/12797",
        'msg="skipping available library at users request" requested=cuda '
        "libDir=/usr/lib/ollama/cuda_v12",
        "app.ollama.llm-library-override",
        "OLLAMA_LLM_LIBRARY",
    ),
    (
        "https://github.com/LeelaChessZero/lc0/issues/1409",
        "GPU: Tesla K80\nGPU compute capability: 3.7\nUnhandled exception in worker thread: CUDA "
        "error: no kernel image is available for execution on the device "
        "(../../src/neural/cuda/common_kernels.cu:254)",
        "cuda.gpu-too-old-for-binary",
        "compute_37",
    ),
    (
        "https://github.com/pytorch/pytorch/issues/18620",
        "I am using Pytorch 1.0.1 and cuda 9.0 with a RTX 2080 Ti GPU.\nRuntimeError: cublas "
        "runtime error : the GPU program failed to execute at "
        "/opt/conda/conda-bld/pytorch_1549635019666/work/aten/src/THC/THCBlas.cu:441",
        "torch.gpu-too-new-for-build",
        "CUDA 10.0",
    ),
    (
        "https://github.com/pytorch/pytorch/issues/3865",
        "pytorch was built from source\nTHCudaCheck FAIL "
        "file=/home/levinth/pytorch/aten/src/THC/THCTensorCopy.cu line=204 error=48 : no kernel "
        "image is available for execution on the device",
        "torch.source-build-arch-list-missing-gpu",
        "TORCH_CUDA_ARCH_LIST",
    ),
    (
        "https://github.com/ROCm/rocHPCG/issues/56",
        "/opt/rocm-5.4.0/llvm/lib/clang/15.0.0/include/__clang_hip_runtime_wrapper.h:50:10: "
        "fatal error: 'cmath' file not found",
        "rocm.hiprtc-cxx-headers-missing",
        "libstdc++-12-dev",
    ),
    (
        "https://github.com/pmodels/mpich/issues/6986",
        "/usr/local/bin/hydra_pmi_proxy: error while loading shared libraries: libcudart.so.12: "
        "cannot open shared object file: No such file or directory",
        "launch.noninteractive-shell-env-missing",
        "top of ~/.bashrc",
    ),
    (
        "https://github.com/SciML/DiffEqFlux.jl/issues/453",
        "Warning: This version of CUDA.jl only supports NVIDIA drivers for CUDA 10.1 or higher "
        "(yours is for CUDA 10.0.0)",
        "cuda.toolkit-newer-than-driver",
        "CUDA 10.1 or newer",
    ),
    (
        "https://github.com/mbevand/silentarmy/issues/3",
        "Solving default all-zero 140-byte header\nCannot get OpenCL platforms! (-1001)",
        "opencl.vendor-runtime-missing",
        "clinfo",
    ),
    (
        "https://github.com/WasmEdge/WasmEdge/issues/3125",
        "CUDA error 222 at /mnt/build_nv20_cuda_120_b1656/_deps/llama-src/ggml-cuda.cu:7788: the "
        "provided PTX was compiled with an unsupported toolchain.",
        "cuda.toolkit-newer-than-driver",
        "only a newer driver",
    ),
    (
        "https://github.com/ethereum-mining/ethminer/issues/2086",
        "ERROR Unexpected error CUDA error in func set_constants at line 110 invalid device "
        "symbol on CUDA device 02:00.0\n- RTX 3090",
        "cuda.gpu-too-new-for-binary",
        "CUDA 11.1",
    ),
    (
        "https://github.com/hartmark/sd-rocm/issues/4",
        "stable-diffusion-comfyui-1  | Docker instance: comfyui\n"
        "stable-diffusion-comfyui-1  | GFX version detection error\n"
        "stable-diffusion-comfyui-1  | GFX_NAME = ",
        "rocm.container-devices-missing",
        "--device=/dev/kfd",
    ),
    (
        "https://github.com/gyroflow/gyroflow/issues/403",
        "I'm trying to use Nvidia GeForce MX230 for rendering / exporting.\nNo matter which option "
        "I select, there is always a message ''GPU encoder failed to initialize..... rendering is "
        "done on the CPU.....''.",
        "app.nvenc-gpu-unsupported",
        "GP108",
    ),
    (
        "https://github.com/alicevision/Meshroom/issues/182",
        "[error] This program needs a CUDA-Enabled GPU (with at least compute capability 2.0).\n"
        "I'm running on Windows 10, GeForce GTX 1080, driver 385.54",
        "app.driver-below-minimum",
        "driver 385.54",
    ),
]

ROWS += [
    (  # the title's error line and a line of the body
        "https://github.com/ROCm/legacy-rocm-build/issues/1163",
        "I installed the tensorflow_rocm with rocm stack on my computer, but when I tried to "
        "create a model I got such error.\nCould not load dynamic library 'libhip_hcc.so'; dlerror: "
        "libhip_hcc.so: cannot open shared object file: No such file or directory",
        "rocm.libs-not-on-loader-path",
        "LD_LIBRARY_PATH",
    ),
    (  # a look-alike row of tests/test_signature_r28_fresh.py, from the same thread
        "https://github.com/rusty1s/pytorch_scatter/issues/259",
        "command: pip install --no-index torch-scatter -f https://data.pyg.org/whl/torch-1.9.1+cu111"
        ".html\nOSError: undefined symbol: _ZNK2at6Tensor6narrowElll",
        "torch.extension-abi-mismatch",
        "against the installed torch",
    ),
]

test_canonical_lines_reach_their_cause = source_knob_test(ROWS)

# (training case, finding id, knob, thread): development cases of round 35's harvests that reach
# their confirmed cause with the case's own fix keywords
CASES = [
    (
        "en-27000-llama-gpt-only-10-layers-offloaded.txt",
        "app.llamacpp.gpu-layers-not-set",
        "n_gpu_layers",
        "https://github.com/getumbrel/llama-gpt/issues/105",
    ),
    (
        "en-27003-koboldcpp-opensuse-vulkan-icd-missing.txt",
        "vulkan.no-driver-for-gpu",
        "libvulkan_radeon",
        "https://github.com/LostRuins/koboldcpp/issues/2102",
    ),
    (
        "en-27004-ollama-for-amd-gfx1150-wrong-rocblas.txt",
        "app.ollama-amd-unsupported-gfx",
        "rocblas.dll",
        "https://github.com/likelovewant/ollama-for-amd/issues/40",
    ),
    (
        "en-27202-gfx1150-apu-dkms-use-inbox-driver.txt",
        "rocm.dkms-driver-instead-of-inbox",
        "--no-dkms",
        "https://github.com/ROCm/legacy-rocm-build/issues/5433",
    ),
    (
        "en-27805-torch-scatter-pip-cuda112-source-build.txt",
        "python.no-matching-wheel",
        "data.pyg.org",
        "https://github.com/rusty1s/pytorch_scatter/issues/302",
    ),
    (
        "en-27903-tf-rocm-needs-rocm35-build-libmcwamp.txt",
        "rocm.torch-rocm-mismatch",
        "ROCm 3.5",
        "https://github.com/ROCm/tensorflow-upstream/issues/998",
    ),
    (
        "en-27907-icpcuda-invalid-device-function-gtx765m.txt",
        "cuda.gpu-too-old-for-binary",
        "compute_30",
        "https://github.com/mp3guy/ICPCUDA/issues/17",
    ),
    (
        "en-27911-silentarmy-opencl-icd-loader-without-driver.txt",
        "opencl.vendor-runtime-missing",
        "amdgpu-pro",
        "https://github.com/mbevand/silentarmy/issues/3",
    ),
    (
        "en-27910-tensorrt-yolo-cmake-cuda-architectures-wrong.txt",
        "cuda.gpu-too-new-for-binary",
        "CMAKE_CUDA_ARCHITECTURES",
        "https://github.com/laugh12321/TensorRT-YOLO/issues/74",
    ),
]

test_development_cases_reach_their_cause = training_case_test(CASES, keywords=True)


def _commands(text: str) -> str:
    return "\n".join(c for f in triage_text(text).findings for fix in f.fixes for c in fix.commands)


def test_torch_wheels_are_not_offered_for_a_tensorflow_paste() -> None:
    """A missing ROCm library under tensorflow-rocm is a TensorFlow / ROCm pairing: the torch
    chooser's wheels cannot fix it. The same line under torch still gets them."""
    # lines of tests/triage_corpus/train/en-27901-tf-rocm-libamdhip64-so3-rocm4.txt
    tf = (
        "-   **TensorFlow version (use command below)**: tensorflow-rocm2.3.3 "
        "tensorflow-rocm2.4.0rc3\n-   **ROCm version**: 4.0.0\n"
        "ImportError: libamdhip64.so.3: cannot open shared object file: No such file or directory"
    )
    assert finding_ids(tf)[0] == "rocm.torch-rocm-mismatch"
    assert "download.pytorch.org" not in _commands(tf)
    torch = tf.replace("tensorflow-rocm2.3.3 tensorflow-rocm2.4.0rc3", "torch 2.4.0+rocm6.1")
    assert "download.pytorch.org" in _commands(torch)


def test_a_jax_no_kernel_image_is_not_read_as_a_torch_build() -> None:
    """'no kernel image' under JAX with a toolkit newer than the driver is XLA's ptxas; the torch
    readings step aside, and a toolkit the driver supports is no finding of that key."""
    newer = "I use driver 470 with cuda v.11.6.2\nimport jax\nRuntimeError: no kernel image is available for execution on the device"
    ids = finding_ids(newer)
    assert ids[0] == "cuda.toolkit-newer-than-driver"
    assert "torch.gpu-too-new-for-build" not in ids
    fine = newer.replace("cuda v.11.6.2", "cuda v.11.4")
    key = "signature:cuda.xla-no-kernel-image-toolkit-newer-than-driver"
    assert key not in finding_origins(fine)


def test_a_new_gpu_is_not_called_too_old_for_its_own_build() -> None:
    """The Kepler-or-older reading of a program's own build needs the old GPU."""
    text = (
        "GPU: NVIDIA GeForce RTX 4090\nCMakeLists.txt\n"
        "kernel.cu:12 no kernel image is available for execution on the device"
    )
    assert_read_instead(text, "cuda.gpu-too-old-for-binary", "cuda.gpu-too-new-for-binary")


def test_no_nvenc_engine_is_claimed_only_for_gp108_gpus() -> None:
    """A GTX 1660 has NVENC: the same failure there is another cause."""
    text = "GeForce GTX 1660 SUPER\n[h264_nvenc] No NVENC capable devices found"
    assert "app.nvenc-gpu-unsupported" not in finding_ids(text)
    assert "app.nvenc-gpu-unsupported" in finding_ids(text.replace("GTX 1660 SUPER", "GT 1030"))


def test_nvidia_secure_boot_advice_stays_off_an_amd_gpu() -> None:
    """Secure Boot with an AMD GPU is not the NVIDIA module's story."""
    text = (
        "GPU: Radeon 890M gfx1150\n1. Enable Secure Boot, enroll MOK; kernel 6.14.0-29-generic.\n"
        "amdgpu-install --usecase=dkms,graphics,rocm\nHSA_STATUS_ERROR_OUT_OF_RESOURCES\n"
        "amdgpu-dkms 6.14.14 does not load"
    )
    ids = finding_ids(text)
    assert "nvidia.secure-boot-blocks-module" not in ids
    assert ids[0] == "rocm.dkms-driver-instead-of-inbox"


def test_partial_offload_prose_leaves_ollama_to_its_own_finding() -> None:
    """Ollama chooses its layers itself: 'only 10/51 layers' there is not llama.cpp's -ngl."""
    text = "I noticed it is only offloading 10/51 layers to GPU, despite enough space for the whole model"
    assert "app.llamacpp.gpu-layers-not-set" in finding_ids(text + " with CUDA")
    assert "app.llamacpp.gpu-layers-not-set" not in finding_ids("ollama: " + text)


def test_a_pyg_install_from_its_wheel_page_is_not_told_to_use_it() -> None:
    """The plain-pip reading needs a pip line without PyG's wheel page."""
    key = "signature:python.no-matching-wheel.pyg-plain-pip-prose"
    plain = 'PyTorch version 1.10.2, CUDA 11.2, but "pip install torch-scatter" fails'
    assert key in finding_origins(plain)
    paged = plain.replace(
        "torch-scatter", "torch-scatter -f https://data.pyg.org/whl/torch-1.10.2+cu113.html"
    )
    assert key not in finding_origins(paged)
