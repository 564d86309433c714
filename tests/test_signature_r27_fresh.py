"""Round 27's changes: the causes the fresh development sample (tests/triage_corpus/train/) met that
envdoctor did not read. A report reaches its confirmed cause with a fix naming the knob the
confirmed fix turned; look-alikes stay clear."""

from __future__ import annotations

from envdoctor.triage_engine import triage_text
from tests.triage_lines import source_knob_test, source_lookalike_test, training_case_test

# (thread, text, finding id, knob): canonical lines verbatim from the threads named
ROWS = [
    # MLX's Metal 4.0 kernels on macOS 15
    (
        "https://github.com/exo-explore/exo/issues/1912",
        "RuntimeError: [metal::Device] Unable to load kernel fence_update\n"
        "Function fence_update is using language version 4.0 which is incompatible with this OS.",
        "apple.mlx-metallib-needs-newer-macos",
        "macOS to 26",
    ),
    (
        "https://github.com/jjang-ai/vmlx/issues/1",
        "> Failed to load the default metallib. This library is using language version 4.0 "
        "which is not supported on this OS.",
        "apple.mlx-metallib-needs-newer-macos",
        "macosx_14_0_arm64",
    ),
    # vMLX running out of the Metal working set
    (
        "https://github.com/jjang-ai/vmlx/issues/58",
        "[error] libc++abi: terminating due to uncaught exception of type std::runtime_error: "
        "[METAL] Command buffer execution failed: Insufficient Memory\n\nVersion:  vMLX 1.3.30",
        "apple.mps-out-of-memory",
        "--cache-memory-percent",
    ),
    # ZLUDA calling a HIP function an old Adrenalin driver lacks
    (
        "https://github.com/vosen/ZLUDA/issues/249",
        "The procedure entry point hipDeviceSetLimit could not be found in the dynamic link "
        "library D:\\Apps\\ZLUDA\\nvcuda.dll",
        "rocm.zluda-hip-sdk-mismatch",
        "Adrenalin",
    ),
    # ZLUDA on an RX 580 (the thread's title and post)
    (
        "https://github.com/vosen/ZLUDA/issues/326",
        "amd_comgr_2.dll and amdhip64_6.dll missing\n"
        "I did take a look at system 32 and just found amd_comgr.dll and amdhip64.dll\n"
        "i have an rx 580 8gb with latest adrenalin drivers",
        "rocm.zluda-pre-rdna-unsupported",
        "RDNA",
    ),
    # CUDA_HOME holding a ':'
    (
        "https://github.com/feihuzhang/GANet/issues/8",
        "unable to execute '/usr/local/cuda-10.1:/bin/nvcc': No such file or directory\n"
        "error: command '/usr/local/cuda-10.1:/bin/nvcc' failed with exit status 1",
        "cuda.cuda-home-malformed",
        "export CUDA_HOME=",
    ),
    (
        "https://github.com/open-mmlab/OpenPCDet/issues/1502",
        "error: command ':/usr/local/cuda-11.1/bin/nvcc' failed: No such file or directory",
        "cuda.cuda-home-malformed",
        "CUDA_HOME",
    ),
    # ncnn's VK_ERROR_INCOMPATIBLE_DRIVER, printed as a number
    (
        "https://github.com/nihui/realsr-ncnn-vulkan/issues/18",
        "vkCreateInstance failed -9\ninvalid gpu device",
        "vulkan.no-driver-for-gpu",
        "mesa-vulkan-drivers",
    ),
]

ROWS += [
    # spconv on the CPU build of cumm
    (
        "https://github.com/traveller59/spconv/issues/423",
        "ValueError: /io/include/tensorview/tensor.h(171)\ndon't compiled with cuda",
        "spconv.cumm-version-mismatch",
        "cumm-cuXYZ",
    ),
    # tiny-cuda-nn bindings without the Orin's compute capability
    (
        "https://github.com/NVlabs/tiny-cuda-nn/issues/434",
        "OSError: Could not find compatible tinycudann extension for compute capability 87.",
        "torch.extension-arch-not-built",
        "TCNN_CUDA_ARCHITECTURES=87",
    ),
    # a source build passing GCC flags to MSVC
    (
        "https://github.com/kylebgorman/pynini/issues/60",
        "cl: 命令行 error D8021 :无效的数值参数“/Wno-register”",
        "python.no-matching-wheel",
        "conda-forge",
    ),
    # the kernel's gcc plugins under another gcc
    (
        "https://github.com/Frogging-Family/nvidia-all/issues/42",
        "cc1: error: incompatible gcc/plugin versions\n"
        "cc1: error: failed to initialize plugin ./scripts/gcc-plugins/structleak_plugin.so",
        "nvidia.dkms-compiler-mismatch",
        "gcc",
    ),
    # EnvyControl's integrated mode, switched with the long option
    (
        "https://github.com/bayasdev/envycontrol/issues/9",
        "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure "
        "that the latest NVIDIA driver is installed and running.\n"
        "Basically, I want to revert back to the state before I used `envycontrol  --switch "
        "integrated`",
        "platform.hybrid-igpu-mode",
        "envycontrol -s hybrid",
    ),
    # GroundingDINO's operator never compiled (the thread's title and traceback line)
    (
        "https://github.com/IDEA-Research/Grounded-Segment-Anything/issues/15",
        "NameError: name '_C' is not defined\n"
        'File "Grounded-Segment-Anything/GroundingDINO/groundingdino/models/GroundingDINO/'
        'ms_deform_attn.py", line 53, in forward',
        "torch.extension-cuda-toolkit-missing",
        "CUDA_HOME",
    ),
]

ROWS += [
    # Kokkos built for a Jetson Xavier's architecture, run on a V100
    (
        "https://github.com/kokkos/kokkos/issues/6092",
        "Kokkos::Cuda::initialize ERROR: likely mismatch of architecture",
        "cuda.gpu-too-old-for-binary",
        "VOLTA70",
    ),
    # MATLAB's mexcuda wants its own CUDA release
    (
        "https://github.com/cortex-lab/KiloSort/issues/52",
        "Warning: Version 7.0 of the CUDA toolkit could not be found. If installed, set "
        "MW_NVCC_PATH environment variable to location of nvcc",
        "cuda.sdk-requires-other-toolkit",
        "MW_NVCC_PATH",
    ),
    # OpenMM without its CUDA platform
    (
        "https://github.com/essex-lab/grand/issues/7",
        'Exception: There is no registered Platform called "CUDA"',
        "cuda.sdk-requires-other-toolkit",
        "getPluginLoadFailures",
    ),
    # cuda-python 13 (the thread's title)
    (
        "https://github.com/levipereira/deepstream-yolo-e2e/issues/19",
        "ImportError: cannot import name 'cudart' from 'cuda' (unknown location)",
        "python.cuda-python-13-api-moved",
        "cuda-python<13",
    ),
    # torch for R and the system CUDA
    (
        "https://github.com/mlverse/torch/issues/1049",
        "> torch::install_torch()\nError in `check_supported_version()`:\n"
        '✖ Unsupported CUDA version "10.0"',
        "rtorch.unsupported-cuda-version",
        'CUDA = "cpu"',
    ),
    # a Triton image variant without the model's backend (the thread's title)
    (
        "https://github.com/triton-inference-server/server/issues/7445",
        "Unable to find backend library for backend 'onnxruntime'",
        "triton.image-variant-missing-backend",
        "tritonserver:<YY.MM>-py3",
    ),
    # Flatpak Blender without the host driver's GL.nvidia extension
    (
        "https://github.com/flathub/org.blender.Blender/issues/97",
        "$ flatpak run org.blender.Blender\n"
        "intern/ghost/intern/GHOST_WindowX11.cpp:206: X11 glXChooseVisual() failed, verify "
        "working openGL system!\ninitial window could not find the GLX extension",
        "flatpak.nvidia-gl-extension-mismatch",
        "org.freedesktop.Platform.GL.nvidia",
    ),
    # DJL without a native build for CUDA 11.2 (the thread's title)
    (
        "https://github.com/deepjavalibrary/djl/issues/2775",
        "No matching cuda flavor for win found: cu112mkl/sm_86.",
        "djl.no-matching-cuda-flavor",
        "PYTORCH_FLAVOR",
    ),
]

ROWS += [
    # `X | Y` annotations imported under Python 3.9
    (
        "https://github.com/dropbox/hqq/issues/33",
        '  File "/root/anaconda3/envs/train/lib/python3.9/site-packages/hqq/core/utils.py", '
        "line 18, in <module>\nTypeError: unsupported operand type(s) for |: 'type' and 'NoneType'",
        "python.interpreter-too-old",
        "Python 3.10",
    ),
    # the pynvml package shadowing nvidia-ml-py
    (
        "https://github.com/XuehaiPan/nvitop/issues/44",
        "    _pynvml._nvmlGetFunctionPointer  # pylint: disable=protected-access\n"
        "AttributeError: module 'pynvml' has no attribute '_nvmlGetFunctionPointer'",
        "nvml.pynvml-package-conflict",
        "pip uninstall -y pynvml",
    ),
]

ROWS += [
    # MuJoCo's headless EGL without NVIDIA's EGL vendor library
    (
        "https://github.com/ARISE-Initiative/robosuite/issues/616",
        "ImportError: Cannot initialize a EGL device display. This likely means that your EGL "
        "driver does not support the PLATFORM_DEVICE extension, which is required for creating a "
        "headless rendering context.",
        "render.egl-device-unavailable",
        "MUJOCO_GL=glx",
    ),
    # a Caffe build without the GPU's architecture (CUDA 7.5 knows sm_52)
    (
        "https://github.com/facebookarchive/C3D/issues/81",
        "F0225 14:29:46.455771   743 vol2col.cu:75] Check failed: error == cudaSuccess (8 vs. 0)  "
        "invalid device function\nCUDA version is 7.5  \nGPU is GTX TITAN X",
        "cuda.gpu-too-new-for-binary",
        "CUDA_ARCH",
    ),
]

test_canonical_lines_reach_their_cause = source_knob_test(ROWS)

LOOKALIKES = [
    # a plain missing nvcc has no ':' in its path: not a malformed CUDA_HOME
    (
        "https://github.com/open-mmlab/mmdetection/issues/2113",
        "unable to execute '/usr/local/cuda/bin/nvcc': No such file or directory",
        "cuda.cuda-home-malformed",
    ),
    # a missing entry point in a cuDNN DLL is not ZLUDA's
    (
        "https://github.com/vosen/ZLUDA/issues/249",
        "The procedure entry point cudnnGetLibConfig could not be located in the dynamic link "
        "library C:\\Program Files\\NVIDIA\\CUDNN\\v9.0\\bin\\cudnn_ops64_9.dll",
        "rocm.zluda-hip-sdk-mismatch",
    ),
    # an illegal instruction on an x86 machine is the CPU's features, not ARM's OpenBLAS
    (
        "https://github.com/basler/pypylon/issues/475",
        "Ubuntu 22.04 on an old Xeon: import torch\nIllegal instruction (core dumped)",
        "jetson.numpy-openblas-illegal-instruction",
    ),
    # a missing amdhip64_6.dll on an RDNA card is not the pre-RDNA cause
    (
        "https://github.com/vosen/ZLUDA/issues/326",
        "amdhip64_6.dll missing, RX 7900 XTX with latest adrenalin drivers",
        "rocm.zluda-pre-rdna-unsupported",
    ),
]

test_lookalikes_stay_clear = source_lookalike_test(LOOKALIKES, may_be_empty=True)

# (training case, finding id, knob, thread)
CASES = [
    (
        "en-11301-nccl-tests-multinode-hang-hpcx.txt",
        "mpi.hpcx-ofed-mismatch",
        "HPC-X build made for the installed MLNX OFED",
        "https://github.com/NVIDIA/nccl-tests/issues/200",
    ),
    (
        "en-11400-exo-macos15-metal-language-4.txt",
        "apple.mlx-metallib-needs-newer-macos",
        "macOS to 26",
        "https://github.com/exo-explore/exo/issues/1912",
    ),
    (
        "en-11403-vmlx-clean-install-metallib-macos15.txt",
        "apple.mlx-metallib-needs-newer-macos",
        "macosx_14_0_arm64",
        "https://github.com/jjang-ai/mlxstudio/issues/104",
    ),
    (
        "en-11406-pypylon-arm-illegal-instruction-numpy.txt",
        "jetson.numpy-openblas-illegal-instruction",
        "OPENBLAS_CORETYPE=ARMV8",
        "https://github.com/basler/pypylon/issues/475",
    ),
    (
        "en-11408-strix-halo-rocm-15gb-vram-kernel.txt",
        "rocm.apu-memory-limit",
        "6.16.9",
        "https://github.com/ROCm/legacy-rocm-build/issues/5444",
    ),
    (
        "en-11410-zluda-hipgraphcreate-entry-point.txt",
        "rocm.zluda-hip-sdk-mismatch",
        "Adrenalin",
        "https://github.com/vosen/ZLUDA/issues/99",
    ),
    (
        "en-11503-ganet-cuda-home-colon.txt",
        "cuda.cuda-home-malformed",
        "CUDA_HOME",
        "https://github.com/feihuzhang/GANet/issues/8",
    ),
    (
        "zh-11110-realsr-vulkan-v100-no-icd.txt",
        "vulkan.no-driver-for-gpu",
        "mesa-vulkan-drivers",
        "https://github.com/nihui/realsr-ncnn-vulkan/issues/18",
    ),
    (
        "zh-11302-exhyperv-gpupv-nvidia-smi-missing.txt",
        "vm.gpu-pv-libs-missing",
        "HostDriverStore",
        "https://github.com/Justsenger/ExHyperV/issues/77",
    ),
    (
        "zh-2536-paddle-docker-cuda8-rtx2070.txt",
        "cuda.gpu-too-new-for-binary",
        "sm_75",
        "https://github.com/PaddlePaddle/Paddle/issues/15183",
    ),
]

CASES += [
    (
        "zh-11603-videocaptioner-5060ti-cublas-not-supported.txt",
        "ctranslate2.int8-unsupported-on-blackwell",
        "float16",
        "https://github.com/WEIFENG2333/VideoCaptioner/issues/1169",
    ),
    (
        "en-12108-envycontrol-uninstall-blacklist.txt",
        "platform.hybrid-igpu-mode",
        "50-remove-nvidia.rules",
        "https://github.com/bayasdev/envycontrol/issues/54",
    ),
    (
        "en-12002-spconv-tensorview-not-compiled-with-cuda.txt",
        "spconv.cumm-version-mismatch",
        "pip uninstall -y cumm spconv",
        "https://github.com/traveller59/spconv/issues/423",
    ),
    (
        "en-12010-tcnn-jetson-orin-cc87.txt",
        "torch.extension-arch-not-built",
        "TCNN_CUDA_ARCHITECTURES",
        "https://github.com/NVlabs/tiny-cuda-nn/issues/434",
    ),
]

CASES += [
    (
        "en-12507-libtorch15-windows-old-project-links-cpu-only.txt",
        "libtorch.torch-cuda-not-linked",
        "/INCLUDE:?warp_size@cuda@at@@YAHXZ",
        "https://github.com/pytorch/pytorch/issues/38194",
    ),
    (
        "en-12508-tch-rs-windows-cuda-false-build-rs-link-args.txt",
        "libtorch.torch-cuda-not-linked",
        "build.rs",
        "https://github.com/LaurentMazare/tch-rs/issues/964",
    ),
    (
        "en-12307-autodock-gpu-4090-targets.txt",
        "cuda.gpu-too-new-for-binary",
        'TARGETS="89"',
        "https://github.com/ccsb-scripps/AutoDock-GPU/issues/249",
    ),
    (
        "en-12503-ort-crate-rocm-feature-blocks-cuda-ep.txt",
        "onnxruntime.binary-built-without-cuda-ep",
        "cargo clean",
        "https://github.com/pykeio/ort/issues/475",
    ),
    (
        "en-12211-flatpak-gl-nvidia-optix.txt",
        "flatpak.nvidia-gl-extension-mismatch",
        "libnvoptix",
        "https://github.com/flathub/org.freedesktop.Platform.GL.nvidia/issues/44",
    ),
    (
        "en-12214-nvpipe-gtx1070-encoder-session-limit.txt",
        "nvidia.nvenc-session-limit",
        "concurrent encode sessions",
        "https://github.com/NVIDIA/NvPipe/issues/42",
    ),
    (
        "en-12421-triton-orin-nx-igpu-container.txt",
        "jetson.container-l4t-mismatch",
        "-py3-igpu",
        "https://github.com/triton-inference-server/server/issues/7023",
    ),
    (
        "en-12605-gptq-wsl-killed-wslconfig.txt",
        "wsl.memory-limit",
        ".wslconfig",
        "https://github.com/qwopqwop200/GPTQ-for-LLaMa/issues/160",
    ),
]

CASES += [
    (
        "en-13001-vismatch-py39-union-operator.txt",
        "python.interpreter-too-old",
        "Python 3.10",
        "https://github.com/gmberton/vismatch/issues/11",
    ),
    (
        "en-13115-gpustat-pynvml-no-attribute.txt",
        "nvml.pynvml-package-conflict",
        "nvidia-ml-py",
        "https://github.com/wookayin/gpustat/issues/153",
    ),
]

CASES += [
    (
        "en-13301-vulkaninfo-nvidia-340-no-vulkan.txt",
        "vulkan.no-driver-for-gpu",
        "akmod-nvidia",
        "https://github.com/KhronosGroup/Khronosdotorg/issues/81",
    ),
]

test_development_cases_reach_their_cause = training_case_test(CASES, keywords=True)


def test_union_annotations_on_a_new_python_are_another_cause() -> None:
    """The `|` TypeError under Python 3.10+ is not the interpreter's age."""
    text = "Python 3.11.4\nTypeError: unsupported operand type(s) for |: 'type' and 'NoneType'"
    assert all(f.id != "python.interpreter-too-old" for f in triage_text(text).findings)


def test_a_cuda_release_named_in_words_is_judged_against_the_driver() -> None:
    """CUDA 9.1 with driver 384.111: the driver table's floor for 9.1 (390.46) is named."""
    text = (
        "I installed CUDA 9.1 and get a fatal error with cudaMalloc when running the demo.\n"
        "My nvidia driver version is 384.111."
    )
    found = [f for f in triage_text(text).findings if f.id == "cuda.toolkit-newer-than-driver"]
    assert found, [f.id for f in triage_text(text).findings]
    assert "390.46" in found[0].fixes[0].summary


def test_compute_capabilities_are_not_read_as_cuda_releases() -> None:
    """'CUDA 8.6' is a compute capability as users write it; no CUDA release 8.6 exists."""
    from envdoctor.diagnosis.pipeline import active_matrices
    from envdoctor.ingest import ingest_text
    from envdoctor.triage_engine.facts import Facts

    facts = Facts(ingest_text("my RTX 3090 is CUDA 8.6, driver 470.57"), active_matrices())
    assert facts.get("cuda.runtime") is None
    facts = Facts(ingest_text("I use CUDA 9.0 with driver 384.81"), active_matrices())
    assert facts.get("cuda.runtime") == "9.0"


def test_how_to_questions_about_the_gpu_reach_the_family_fallback() -> None:
    """Asking how to make a program use the GPU is the 'GPU not used' report in other words;
    asking how to run on the CPU is not."""
    for text, cause in (
        ("I can't figure out how to run it on my GPU. I am running it on Windows", "torch."),
        ("how do I make ollama use my GPU?", "app.ollama"),
        ("paddleocr怎么用GPU", "paddle."),
        ("如何让它使用显卡而不是CPU", "torch."),
    ):
        findings = triage_text(text).findings
        assert findings and findings[0].id.startswith(cause), (text, [f.id for f in findings])
    findings = triage_text("how do I run it on the CPU only?").findings
    assert not any(f.id == "torch.cpu-build-on-gpu-host" for f in findings)
