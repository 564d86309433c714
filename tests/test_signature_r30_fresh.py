"""Round 30's changes: the causes the fresh development samples (tests/triage_corpus/train/) met
that envdoctor did not read, and fixes that could not work (a Kepler GPU told it is too new, a
missing libnccl put on the wheel's CUDA). A report reaches its confirmed cause with a fix naming
the knob the confirmed fix turned; look-alikes stay clear."""

from __future__ import annotations

from envdoctor.triage_engine import triage_text
from tests.triage_lines import source_knob_test, source_lookalike_test, training_case_test

# (thread, text, finding id, knob): canonical lines verbatim from the threads named
ROWS = [
    # Paddle inference's EnableGpu() in a CPU build
    (
        "https://github.com/YaoFANGUK/video-subtitle-extractor/issues/207",
        "E0419 01:11:52.367136 14576 analysis_config.cc:91] Please compile with gpu to EnableGpu()\n"
        "The program works but according to the last line my gpu is not taken into account.",
        "paddle.cpu-package-installed",
        "paddlepaddle-gpu",
    ),
    # numba-cuda from conda-forge with cuda-version=13 on Windows
    (
        "https://github.com/NVIDIA/numba-cuda/issues/452",
        '   conda install -c conda-forge numba-cuda "cuda-version=13"\n'
        "   cuda.pathfinder._dynamic_libs.load_dl_common.DynamicLibNotFoundError:\n"
        '   Failure finding "nvJitLink*.dll"',
        "numba.libnvvm-not-found",
        "Library\\bin\\x64",
    ),
    # gsplat installed without its compiled module (Windows, nerfstudio)
    (
        "https://github.com/SpectacularAI/sdk-examples/issues/121",
        "    from gsplat import csrc as _C\n"
        "ImportError: cannot import name 'csrc' from 'gsplat' "
        "(C:\\Users\\\\anaconda3\\envs\\nerfstudio\\lib\\site-packages\\gsplat\\__init__.py)",
        "torch.extension-cuda-module-missing",
        "from source",
    ),
    # OpenMM's CPU platform on AMD Magny-Cours nodes
    (
        "https://github.com/openmm/openmm/issues/1430",
        "One of my cluster users reported a problem when using OpenMM in our compute nodes with AMD "
        'magny-cours cpus.\n```EXCEPTION: There is no registered Platform called "CPU"```',
        "platform.cpu-instruction-unsupported",
        "SSE 4.2",
    ),
    # a missing libnccl in Paddle's multi-GPU launch is NCCL, not the wheel's CUDA
    (
        "https://github.com/PaddlePaddle/PaddleClas/issues/1527",
        "RuntimeError: (PreconditionNotMet) The third-party dynamic library (libnccl.so) that Paddle "
        "depends on is not configured correctly. (error code is libnccl.so: cannot open shared "
        "object file: No such file or directory)",
        "nccl.library-not-installed",
        "libnccl",
    ),
    # numba-cuda with a 12.8 toolkit on driver 550, the errors told in words
    (
        "https://github.com/NVIDIA/numba-cuda/issues/192",
        "Driver Version: 550.120\nCuda Toolkit: 12.8\n"
        "tests are also failing stating a segmentation fault, PTX version mismatch and unsupported "
        "driver version errors.",
        "cuda.toolkit-newer-than-driver",
        "570",
    ),
    # fp16 on Maxwell / Pascal cards, told in words
    (
        "https://github.com/jhj0517/Whisper-WebUI/issues/40",
        "running I keep getting fp16 issues.\ntesla m40/ tesla p40/ nvidia 1080ti for testing "
        "purposes. might be good to tell the user these cards are not good at fp16",
        "fit.dtype-unsupported",
        "int8",
    ),
    # a wrapper's own NVENC floor line on a NAS stuck on driver 550
    (
        "https://github.com/jvdillon/netv/issues/42",
        "NVENC (h264_nvenc): unavailable\nRequired: NVENC API 13.0\nFound: 12.2\n"
        "Minimum required Nvidia driver is 570.0 or newer",
        "app.nvenc-api-driver-too-old",
        "570",
    ),
    # OBS prints the floor line alone
    (
        "https://github.com/obsproject/obs-studio/issues/8723",
        "Since upgraded from OBS 27.x to 29.x NVENC not available.\n"
        "22:45:40.550: error:   The minimum required Nvidia driver for nvenc is 471.41 or newer",
        "app.nvenc-api-driver-too-old",
        "471.41",
    ),
    # OpenVINO in a container on a 9th-gen Intel iGPU
    (
        "https://github.com/Jellman86/YetAnother-WhosAtMyFeeder/issues/242",
        "For disclosure it is a 9th gen intel processor so it should be compatible.\n"
        "GPU plugin error: RuntimeError: Exception from src/inference/src/cpp/core.cpp:268: "
        "Exception from src/inference/src/dev/plugin.cpp:112: Check '!m_device_map.empty()' "
        "failed at src/plugins/intel_gpu/src/plugin/plugin.cpp:",
        "intel.compute-runtime-dropped-old-igpu",
        "intel-opencl-icd-legacy1",
    ),
    # R torch installed its CPU LibTorch for CUDA 11.8
    (
        "https://github.com/mlverse/torch/issues/1082",
        "Hi i am using Win 11 and have installed cuda v11.8.\n"
        "Error in torch_tensor_cpp(data, dtype, device, requires_grad, pin_memory) :\n"
        "  PyTorch is not linked with support for cuda devices",
        "rtorch.unsupported-cuda-version",
        "pre-built binaries",
    ),
    # sherpa-onnx's CPU libraries in a Go program asked for CUDA
    (
        "https://github.com/k2-fsa/sherpa-onnx/issues/1299",
        "/project/sherpa-onnx/csrc/session.cc:GetSessionOptionsImpl:167 \n"
        "Please compile with -DSHERPA_ONNX_ENABLE_GPU=ON. Available providers: "
        "CPUExecutionProvider, .\nFallback to cpu!",
        "onnxruntime.binary-built-without-cuda-ep",
        "linux-x64-gpu",
    ),
    # gorgonia/cu built with cgo on Windows
    (
        "https://github.com/gorgonia/cu/issues/19",
        "When I use go get on this library, I get a fatal error: "
        "`fatal error: cuda.h: No such file or directory`.",
        "cuda.toolkit-headers-not-on-include-path",
        "CFLAGS",
    ),
    # an Ollama build for macOS 11.3 on an older Mac
    (
        "https://github.com/ollama/ollama/issues/1870",
        "dyld: Symbol not found: _OBJC_CLASS_$_MTLComputePassDescriptor\n"
        "Referenced from: /usr/local/bin/ollama (which was built for Mac OS X 11.3)",
        "macos.binary-needs-newer-macos",
        "11.3",
    ),
    # Proton 8 on a Kepler GTX 650 with the 470 driver
    (
        "https://github.com/ValveSoftware/Proton/issues/6865",
        "using proton 8.0 and experimental from Valve (i also tried ProtonGE, didn't work). "
        "Proton 7.0 works fine\nMy GPU is GTX 650 and I am running void linux and fedora "
        "(happens on both) with nvidia proprietary driver 470.182.03",
        "vulkan.driver-api-too-old",
        "Proton 7.0",
    ),
    # a DirectX 9 game under Proton without the 32-bit Radeon Vulkan driver
    (
        "https://github.com/ValveSoftware/Proton/issues/3857",
        "I recently tried Proton 5.0-7 and found that DirectX 9 games just do not launch.\n"
        "The Steam log says `Required Vulkan extension VK_KHR_surface not supported`.",
        "vulkan.no-driver-for-gpu",
        "lib32-vulkan-radeon",
    ),
    # mpv after a CUDA 8 upgrade removed CUDA 7.5's NPP
    (
        "https://github.com/mpv-player/mpv/issues/3618",
        "- install cuda 8.0\n- launch mpv\n- `mpv: error while loading shared libraries: "
        "libnppi.so.7.5: cannot open shared object file: No such file or directory`",
        "cuda.runtime-lib-major-missing",
        "libnppi",
    ),
    # PRIME offload with nouveau
    (
        "https://github.com/Askannz/optimus-manager/issues/209",
        "Starting apps in Intel with Configuration 2 : PCI power control with nouveau with "
        "`__NV_PRIME_RENDER_OFFLOAD=1 __GLX_VENDOR_LIBRARY_NAME=nvidia` doesn't work, at least "
        "for me.",
        "platform.prime-offload-not-requested",
        "DRI_PRIME=1",
    ),
    # an Electron app's onnxruntime without a CUDA backend on Windows
    (
        "https://github.com/xushengfeng/eSearch/issues/370",
        "识别错误\nError: no available backend found. ERR: [cuda] backend not found.\n"
        "请打开开发者工具（Ctrl+Shift+I）查看详细错误",
        "onnxruntime.binary-built-without-cuda-ep",
        "DirectML",
    ),
    # WSL's runtime package missing from a ROCm release's repository
    (
        "https://github.com/ROCm/legacy-rocm-build/issues/3051",
        "sudo amdgpu-install -y --usecase=wsl\n"
        "throws error 'Unable to locate package hsa-runtime-rocr4wsl-amdgpu'\n"
        "### Operating System\nUbuntu 22.04.4 LTS on wsl",
        "rocm.wsl-release-unsupported",
        "wsl_compatibility",
    ),
    # a native ROCm inside WSL2 on an RX 580
    (
        "https://github.com/ROCm/legacy-rocm-build/issues/1361",
        "> ROCk module is NOT loaded, possibly no GPU devices\n"
        "Unable to open /dev/kfd read-write: No such file or directory\n"
        "WLS2 - Ubuntu: 20.04",
        "rocm.wsl-release-unsupported",
        "native Linux",
    ),
    # amdgpu-dkms of ROCm 6.4 on mainline kernels 6.13 / 6.14
    (
        "https://github.com/ROCm/legacy-rocm-build/issues/4619",
        "ERROR (dkms apport): kernel package linux-headers-6.14.0-061400-generic is not supported\n"
        "make[1]: Entering directory '/usr/src/linux-headers-6.14.0-061400-generic'\n"
        "amd/amdgpu/amdgpu_drv.c:3098:10: error: ‘const struct drm_driver’ has no member named "
        "‘date’",
        "rocm.amdgpu-dkms-kernel-unsupported",
        "supported kernel",
    ),
    # coremltools 5 on Windows 10
    (
        "https://github.com/apple/coremltools/issues/1348",
        "It works well in coremltools 4.1.  However,  with coremltools 5.1 I got the error message "
        '"Unable to load libmodelpackage. Cannot make save spec".\n'
        "I tried to load a mlmodel in windows 10",
        "coremltools.no-native-libs-for-python",
        "WSL",
    ),
    # DiffusionBee on an Intel Mac with macOS 12
    (
        "https://github.com/divamgupta/diffusionbee-stable-diffusion-ui/issues/487",
        '"You have macOS version 12.7.2 installed. This app requires macOS 13.1 or later."',
        "macos.binary-needs-newer-macos",
        "13.1",
    ),
    # llama-cpp-python built with GGML_CUDA=on on a Jetson AGX Orin, still on the CPU
    (
        "https://github.com/abetlen/llama-cpp-python/issues/1779",
        "I'm trying to install the `llama-cpp-python` package to run code on **NVIDIA Jetson AGX "
        "Orin** (CUDA version: 12.2) using the **GPU, but it's running on the CPU** instead.\n"
        '`CMAKE_ARGS="-DGGML_CUDA=on" FORCE_CMAKE=1 pip install llama-cpp-python --force-reinstall '
        "--upgrade --no-cache-dir`\nHowever, I am still unable to get it to use the GPU.",
        "app.llamacpp.nvcc-not-found-at-build",
        "CUDACXX",
    ),
    # pytorch-directml on a hybrid laptop
    (
        "https://github.com/microsoft/DirectML/issues/239",
        "Torch is my integrated graphics card by default, how to set it as my independent graphics "
        "card\nimport torch.dml as td",
        "windows.hybrid-gpu-uses-igpu",
        "dml:1",
    ),
    # nunchaku before 0.2.0 on an RTX 2080 Ti
    (
        "https://github.com/nunchux-ai/ComfyUI-nunchaku/issues/22",
        "error\uff1aCUDA error: no kernel image is available for execution on the device (at "
        "D:\\Project\\nunchaku-dev\\src\\kernels\\awq\\gemv_awq.cu:313)\n"
        "Device: cuda:0 NVIDIA GeForce RTX 2080 Ti : cudaMallocAsync",
        "cuda.gpu-too-old-for-binary",
        "0.2.0",
    ),
    # nunchaku 0.2.0 in bfloat16 on a 2080 Ti
    (
        "https://github.com/nunchux-ai/nunchaku/issues/273",
        "2080ti \u4f7f\u7528mit-han-lab/svdq-int4-flux.1-fill-dev\nnunchaku              0.2.0+torch2.6\n"
        "This kernel is not supported on your GPU",
        "fit.dtype-unsupported",
        "nunchaku-fp16",
    ),
    # the vGPU plugin on ESXi with an A5000 whose host BIOS lacks SR-IOV / ARI
    (
        "https://github.com/fenghan0430/How-to-use-vGPU/issues/6",
        "`\u65e0\u6cd5\u521d\u59cb\u5316 vGPU\u201cnvidia_rtxa5000-1b\u201d\u7684\u63d2\u4ef6"
        "\u201clibnvidia-vgx.so\u201d\u3002`\n\u6211\u7684\u663e\u5361\u662fA5000\uff0cESXI\u4e2d"
        "\u9a71\u52a8\u6b63\u5e38",
        "vm.vgpu-host-bios-sriov-disabled",
        "ARI",
    ),
    # tensorflow[and-cuda] 2.15 beside jax[cuda12] under uv's resolver
    (
        "https://github.com/jax-ml/jax/issues/21335",
        "Because tensorflow[and-cuda] (2.15.0) depends on nvidia-nccl-cu12 (2.16.5)\n"
        " and jax[cuda12] (0.4.23) depends on nvidia-nccl-cu12 (>=2.18.3), tensorflow[and-cuda] "
        "(2.15.0) is incompatible with jax[cuda12] (0.4.23).",
        "python.nvidia-wheel-pin-conflict",
        "nvidia-nccl-cu12",
    ),
    # Hyper-V GPU partitioning onto a BitLocker-encrypted guest disk
    (
        "https://github.com/Justsenger/ExHyperV/issues/212",
        "\u8bbe\u7f6eGPU\u5206\u533a\u65f6\u9519\u8bef\uff1a\n\u76ee\u6807\u5206\u533aZ:"
        "\u4e0d\u662f\u6709\u6548\u5206\u533a\u3002",
        "vm.gpu-pv-guest-disk-bitlocker",
        "BitLocker",
    ),
]

test_canonical_lines_reach_their_cause = source_knob_test(ROWS)

# (thread, text, tempting finding id): lines of other causes
LOOKALIKES = [
    # OpenMM's CUDA platform missing is its plugin directory, not the CPU's instructions
    (
        "https://github.com/openmm/openmm/issues/1430",
        'EXCEPTION: There is no registered Platform called "CUDA"',
        "platform.cpu-instruction-unsupported",
    ),
    # sherpa-onnx asked for CUDA on a Mac: no GPU build to install there
    (
        "https://github.com/k2-fsa/sherpa-onnx/issues/1299",
        "Please compile with -DSHERPA_ONNX_ENABLE_GPU=ON. Available providers: "
        "CoreMLExecutionProvider, CPUExecutionProvider, . Fallback to cpu!",
        "onnxruntime.binary-built-without-cuda-ep",
    ),
    # fp16 trouble on an Ampere GPU is not a GPU without fp16
    (
        "https://github.com/jhj0517/Whisper-WebUI/issues/40",
        "I keep getting fp16 issues on my RTX 3090 when training, the loss becomes nan",
        "fit.dtype-unsupported",
    ),
    # a Paddle library other than NCCL stays the wheel's CUDA
    (
        "https://github.com/PaddlePaddle/PaddleClas/issues/1527",
        "OSError: (PreconditionNotMet) The third-party dynamic library (libcudnn.so) that Paddle "
        "depends on is not configured correctly. (error code is libcudnn.so: cannot open shared "
        "object file: No such file or directory)",
        "nccl.library-not-installed",
    ),
]

test_lookalikes_stay_clear = source_lookalike_test(LOOKALIKES, may_be_empty=True)

# (training case, finding id, knob, thread)
CASES = [
    (
        "en-18500-jan-radeon-840m-not-detected.txt",
        "app.llamacpp.backend-mismatch",
        "win-vulkan-x64",
        "https://github.com/janhq/jan/issues/6532",
    ),
    (
        "zh-18708-paper2gui-check-gpu-stale-temp-sdk.txt",
        "app.stale-temp-runtime-cache",
        "realesrgan-sdk",
        "https://github.com/Baiyuetribe/paper2gui/issues/5",
    ),
    (
        "en-19005-jellyfin-n5105-kernel-515-lowpower.txt",
        "intel.media-lowpower-encode-unavailable",
        "low-power",
        "https://github.com/jellyfin/jellyfin/issues/9638",
    ),
    (
        "en-19203-tfjs-node-gpu-cuda12-libcudart-11.txt",
        "tensorflow.cuda-libs-not-found",
        "cudnn 8.1",
        "https://github.com/tensorflow/tfjs/issues/8362",
    ),
    (
        "en-19409-proton-civ6-gt730-470-no-graphics-card.txt",
        "vulkan.driver-api-too-old",
        "vulkan 1.3",
        "https://github.com/ValveSoftware/Proton/issues/7078",
    ),
    (
        "en-19407-dota2-vulkan-gt620m-fermi.txt",
        "vulkan.no-driver-for-gpu",
        "Kepler",
        "https://github.com/ValveSoftware/Dota-2-Vulkan/issues/37",
    ),
    (
        "en-19414-steam-nvidia-470-32bit-userspace.txt",
        "nvidia.lib32-userspace-missing",
        "i386",
        "https://github.com/ValveSoftware/steam-for-linux/issues/8238",
    ),
    (
        "zh-19802-vllm-ascend-container-visible-devices.txt",
        "ascend.container-visible-devices-unset",
        "ASCEND_RT_VISIBLE_DEVICES",
        "https://github.com/vllm-project/vllm-ascend/issues/6942",
    ),
    (
        "zh-19803-lmdeploy-ascend-docker-missing-devices.txt",
        "ascend.container-devices-not-mounted",
        "/dev/davinci_manager",
        "https://github.com/InternLM/lmdeploy/issues/2598",
    ),
    (
        "en-20202-comfyui-nunchaku-int4-on-rtx5070ti.txt",
        "nunchaku.precision-gpu-mismatch",
        "fp4",
        "https://github.com/nunchux-ai/ComfyUI-nunchaku/issues/38",
    ),
    (
        "zh-20004-esxi-vgpu-host-driver-geforce-4080.txt",
        "vm.vgpu-gpu-not-supported",
        "datacenter",
        "https://github.com/fenghan0430/How-to-use-vGPU/issues/5",
    ),
    (
        "zh-20302-gpumounter-worker-libnvidia-ml-not-found.txt",
        "container.nvidia-runtime-not-configured",
        "default-runtime",
        "https://github.com/pokerfaceSad/GPUMounter/issues/21",
    ),
    (
        "en-20006-gramine-sgx-no-gpu-cuda-304.txt",
        "platform.sgx-enclave-no-gpu",
        "SGX",
        "https://github.com/gramineproject/examples/issues/97",
    ),
]

test_development_cases_reach_their_cause = training_case_test(CASES, keywords=True)


def test_onnxruntime_no_kernel_image_on_a_kepler_gpu_is_not_a_gpu_too_new() -> None:
    """onnxruntime-gpu's no-kernel-image on a Tesla K80 (AWS p2): the GPU is older than every
    build, so no finding may call it too new for the build (the contradiction of round 29)."""
    text = (
        "[ONNXRuntimeError] : 1 : FAIL : Non-zero status code returned while running Slice node. "
        "Status Message: CUDA error cudaErrorNoKernelImageForDevice:no kernel image is available "
        "for execution on the device\nrunning on a Tesla K80"
    )
    found = triage_text(text).findings
    assert found, "no finding"
    assert all(f.id != "torch.gpu-too-new-for-build" for f in found), [f.id for f in found]


def test_the_steam_32bit_cause_needs_the_32bit_words() -> None:
    """A Steam report without 32-bit words is not put on NVIDIA's 32-bit libraries."""
    text = "Steam games stutter on Ubuntu 22.04 with my RTX 3060 and nvidia 535, vulkan works."
    found = triage_text(text).findings
    assert all(f.id != "nvidia.lib32-userspace-missing" for f in found), [f.id for f in found]


def test_a_torch_release_pinned_for_a_newer_python_names_the_pythons_it_has() -> None:
    """pip on PyTorch's index finds torch==2.7.0+cu128 missing after a move to Python 3.14
    (lora-scripts#741's lines): the wheel finding names the Pythons torch 2.7 publishes wheels
    for (matrices/torch_releases), not only a generic 'use another Python'."""
    text = (
        "Looking in indexes: https://download.pytorch.org/whl/cu128\n"
        "ERROR: Could not find a version that satisfies the requirement torch==2.7.0+cu128 "
        "(from versions: 2.9.0+cu128, 2.9.1+cu128)\n"
        "ERROR: No matching distribution found for torch==2.7.0+cu128"
    )
    found = triage_text(text).findings
    wheel = [f for f in found if f.id == "python.no-matching-wheel"]
    assert wheel, [f.id for f in found]
    assert any("Python 3.9, 3.10, 3.11, 3.12, 3.13" in fix.summary for fix in wheel[0].fixes), (
        wheel[0].fixes
    )
