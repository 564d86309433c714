"""Round 31's changes: the causes the fresh development samples (tests/triage_corpus/train/) met
that envdoctor did not read, and fixes that could not work (Linux fixes refused for a Wine paste,
NVIDIA's Code 43 advice for a Radeon, a 'rebuild _XLAC from source' command). A report reaches its
confirmed cause with a fix naming the knob the confirmed fix turned; look-alikes stay clear."""

from __future__ import annotations

from envdoctor.triage_engine import triage_text
from tests.triage_lines import source_knob_test, source_lookalike_test, training_case_test

# (thread, text, finding id, knob): canonical lines verbatim from the threads named
ROWS = [
    (
        "https://github.com/sokrypton/ColabFold/issues/532",
        "Not Enough GPU memory? INTERNAL: CustomCall failed: jaxlib/gpu/prng_kernels.cc:33: "
        "operation gpuGetLastError() failed: cudaGetErrorString symbol not found.",
        "jax.jaxlib-cuda-major-mismatch",
        "jax[cuda12]",
    ),
    (
        "https://github.com/sokrypton/ColabFold/issues/692",
        "AttributeError: jax.interpreters.xla.xe was removed in JAX v0.4.36. "
        "Use jax.lib.xla_extension instead.",
        "jax.api-removed-in-newer-jax",
        "jax.lib.xla_extension",
    ),
    (
        "https://github.com/google-deepmind/dm_control/issues/129",
        "AttributeError: 'GLXPlatform' object has no attribute 'EGL'",
        "render.pyopengl-platform-mismatch",
        "PYOPENGL_PLATFORM",
    ),
    (
        "https://github.com/aqlaboratory/openfold/issues/445",
        "ModuleNotFoundError: No module named 'attn_core_inplace_cuda'",
        "openfold.cuda-ext-not-built",
        "setup.py install",
    ),
    (
        "https://github.com/mindspore-ai/mindspore/issues/91",
        "CMake Error at mindspore/ccsrc/CMakeLists.txt:40 (message):\n"
        "  Failed to find cudnn library file, please set environment variable\n"
        "  CUDNN_HOME to cudnn installation position.",
        "cuda.cudnn-missing",
        "CUDNN_HOME",
    ),
    (
        "https://github.com/doitsujin/dxvk/issues/2727",
        "info:  DXVK: v1.10.1\nwarn:  Skipping Vulkan 1.2 adapter: Quadro K420\n"
        "warn:  DXVK: No adapters found. Please check your device filter settings and Vulkan setup.",
        "vulkan.driver-api-too-old",
        "Vulkan 1.2",
    ),
    (
        "https://github.com/huggingface/text-embeddings-inference/issues/34",
        "Could not start backend: Runtime compute cap 75 is not compatible with compile time "
        "compute cap 80",
        "cuda.gpu-too-old-for-binary",
        "turing-",
    ),
    (
        "https://github.com/pytorch/audio/issues/837",
        "RuntimeError: Backend \"soundfile\" is not one of available backends: ['sox', 'sox_io'].",
        "torchaudio.no-audio-backend",
        "soundfile",
    ),
    (
        "https://github.com/pytorch/audio/issues/2925",
        '    raise ImportError("FFmpeg libraries are not found. Please install FFmpeg.") from err\n'
        "ImportError: FFmpeg libraries are not found. Please install FFmpeg.",
        "torchaudio.ffmpeg-version-unsupported",
        "ffmpeg<5",
    ),
    (
        "https://github.com/NVIDIA/nvvl/issues/9",
        "CUDA error 302 at line 32 in file /tmp/nvvl/src/detail/CUVideoParser.h: shared object "
        "symbol not found\nProblem creating video parser",
        "container.driver-libs-not-injected",
        "NVIDIA_DRIVER_CAPABILITIES",
    ),
    (
        "https://github.com/NVIDIA/TransformerEngine/issues/1379",
        "AttributeError: module 'transformer_engine' has no attribute 'pytorch'",
        "torch.extension-cuda-module-missing",
        "transformer_engine[pytorch]",
    ),
    (
        "https://github.com/NVIDIA/enroot/issues/105",
        " [WARN] Kernel module nvidia_uvm is not loaded. Make sure the NVIDIA device driver is "
        "installed and loaded\n nvidia-container-cli: initialization error: driver error: failed "
        "to process request",
        "nvidia.no-driver-bound",
        "NVIDIA driver",
    ),
    (
        "https://github.com/huggingface/candle/issues/2552",
        "  ERROR: No supported gcc/g++ host compiler found, but clang-14 is available.\n"
        "         Use 'nvcc -ccbin clang-14' to use that instead.",
        "cuda.host-compiler-unsupported",
        "NVCC_CCBIN=/usr/bin/clang-14",
    ),
    (
        "https://github.com/huggingface/candle/issues/2210",
        "  Unsupported cuda toolkit version: `12050`. Please raise a github issue.",
        "rust.cudarc-toolkit-version-unsupported",
        "cargo update",
    ),
    (
        "https://github.com/HIT-SCIR/pyltp/issues/123",
        "安装失败提示error: command 'cl.exe' failed: No such file or directory",
        "windows.msvc-build-tools-missing",
        "Build Tools",
    ),
    (
        "https://github.com/vllm-project/vllm-ascend/issues/672",
        "[rank1]: RuntimeError: create_config:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:102 "
        "HCCL function error: hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, "
        "&(comm->hcclComm_)), error code is 15",
        "ascend.torch-npu-mismatch",
        "CANN",
    ),
    (
        "https://github.com/meta-pytorch/torchcodec/issues/671",
        "torch 2.8 nightly\nNotImplementedError: There were no tensor arguments to this function "
        "(e.g., you passed an empty list of Tensors), but no fallback function is registered for "
        "schema torchcodec_ns::create_from_file.",
        "torch.companion-mismatch",
        "whl/nightly/cu128",
    ),
    (
        "https://github.com/xmrig/xmrig-cuda/issues/79",
        "xmrig-6.6.2 with xmrig-cuda-6.5.0-cuda11_1-win64.zip: the CUDA plugin returns "
        '"CUDA disabled (no device)"',
        "cuda.toolkit-newer-than-driver",
        "NVIDIA driver",
    ),
    (
        "https://github.com/LykosAI/StabilityMatrix/issues/1338",
        "ComfyUI-ZLUDA on an AMD Radeon 7900 XT, Windows 11\nRuntimeError: CUDA unknown error",
        "rocm.zluda-driver-incompatible",
        "Adrenalin",
    ),
    (
        "https://github.com/nerfstudio-project/nerfstudio/issues/1534",
        "  what():  /home/w/nerf/ngp_pl/tiny-cuda-nn/include/tiny-cuda-nn/multi_stream.h:83 "
        "cudaEventRecord(m_event, m_stream) failed with error an illegal memory access was "
        "encountered",
        "tcnn.upstream-regression",
        "tiny-cuda-nn",
    ),
    (
        "https://github.com/Lightning-AI/pytorch-lightning/issues/4533",
        "ImportError: /usr/local/lib/python3.6/dist-packages/_XLAC.cpython-36m-x86_64-linux-gnu.so:"
        " undefined symbol: _ZN2at13nanmedian_outERNS_6TensorES1_RKS0_lb",
        "torch.companion-mismatch",
        "torch_xla",
    ),
]

# Ollama's documented failure modes that no entry read (its troubleshooting guide and threads)
ROWS += [
    (
        "https://github.com/ollama/ollama/issues/4105",
        "Error: llama runner process has terminated: fork/exec "
        "/tmp/ollama2866166546/runners/cuda_v11/ollama_llama_server: permission denied",
        "app.ollama.tmpdir-noexec",
        "OLLAMA_TMPDIR",
    ),
    (
        "https://rocm.docs.amd.com/projects/install-on-linux/en/latest/how-to/docker.html",
        'level=WARN source=amd_linux.go:443 msg="amdgpu devices detected but permission problems '
        'block access" error="kfd driver not loaded.  If running in a container, remember to '
        'include \\"--device /dev/kfd --device /dev/dri\\""',
        "rocm.container-devices-missing",
        "--device /dev/kfd",
    ),
    (
        "https://github.com/ollama/ollama/issues/8734",
        'level=WARN source=server.go:136 msg="model request too large for system" '
        'requested="391.0 GiB" available=393216983040 total="1690.2 GiB" free="358.4 GiB" '
        'swap="7.8 GiB"',
        "memory.host-ram-exhausted",
        "swap",
    ),
]

# the fourth harvest's development sample
ROWS += [
    (
        "https://github.com/LeelaChessZero/lc0/issues/988",
        "lc0 was working fine with my nvidia 2060 super\nOpenCL: clGetPlatformIDs\n"
        "terminate called after throwing an instance of 'cl::Error'\n  what():  clGetPlatformIDs",
        "opencl.nvidia-icd-missing",
        "nvidia.icd",
    ),
    (
        "https://github.com/cupy/cupy/issues/7907",
        ">>> import cupy\n>>> import cupy.cuda\nModuleNotFoundError: No module named 'cupy.cuda'",
        "conda.env-corrupted",
        "conda create",
    ),
    (
        "https://github.com/safetensors/safetensors/issues/195",
        '    with safe_open(f"{path}model.safetensors", framework="pt", device="cpu") as f:\n'
        "OSError: No such device (os error 19)",
        "io.safetensors-mmap-unsupported-fs",
        "cache.files=partial",
    ),
    (
        "https://github.com/wenet-e2e/wenet/issues/2011",
        "terminate called after throwing an instance of 'torch::jit::ErrorReport'\n"
        "terminate called recursively",
        "libtorch.version-mismatch-with-exporting-torch",
        "libtorch",
    ),
]

# the fifth harvest's development sample
ROWS += [
    (
        "https://github.com/NVIDIA/enroot/issues/88",
        "nvidia-container-cli: permission error: capability change failed: operation not "
        "permitted\n[ERROR] /etc/enroot/hooks.d/98-nvidia.sh exited with return code 1",
        "container.selinux-blocks-gpu",
        "setenforce",
    ),
    (
        "https://github.com/NVIDIA/enroot/issues/234",
        "slurmstepd: error: pyxis:   nvidia-container-cli: container error: file lookup failed: "
        "/proc/421042/root/fsx/enroot/data/user-1111/pyxis_nemo/etc/debian_version: permission "
        "denied\nsrun: error: gpu-dy-g58xlarge-1: task 0: Exited with exit code 1",
        "container.toolkit-release-regression",
        "1.17.6",
    ),
    (
        "https://github.com/conda-forge/openmpi-feedstock/issues/83",
        "The user requested CUDA support with the --mca mpi_cuda_support 1 flag\n"
        "but the library was not compiled with any support.",
        "mpi.not-cuda-aware-build",
        "mpi_built_with_cuda_support",
    ),
    (
        "https://github.com/kai-scheduler/KAI-Scheduler/issues/349",
        "GPU reservation pod under kai-resource-reservation namespace is failing with error "
        '"while running the app: unable to initialize NVML: ERROR_LIBRARY_NOT_FOUND"',
        "k8s.runtimeclass-not-set",
        "runtimeClassName",
    ),
    (
        "https://github.com/alphacep/vosk-api/issues/157",
        "node: symbol lookup error: /home/u/vosk-api/nodejs/build/Release/vosk.node: undefined "
        "symbol: __cudaRegisterFatBinary",
        "vosk.kaldi-built-with-cuda",
        "--use-cuda=no",
    ),
    (
        "https://github.com/alphacep/vosk-api/issues/1415",
        "My VM is CentOS (VMware) with VMware SVGA II Adapter.\ndocker: Error response from "
        'daemon: could not select device driver "" with capabilities: `[[gpu]]`.',
        "container.gpu-reservation-on-cpu-host",
        "bare metal",
    ),
]

# the sixth (Chinese) harvest's development sample
ROWS += [
    (
        "https://github.com/alibaba/MNN/issues/426",
        "在rk3399下，ubuntu18.04。编译MNN选项开启了OPENCL，但运行forward type选opencl时，"
        "显示can't find type=3 backend。",
        "mnn.gpu-backend-not-registered",
        "MNN_SEP_BUILD=OFF",
    ),
    (
        "https://github.com/PaddlePaddle/PaddleOCR/issues/2329",
        "单进程下运行没问题，多进程报了如此错误OSError: (External)  Cuda error(3), initialization error",
        "torch.cuda-fork-after-init",
        "spawn",
    ),
]

test_canonical_lines_reach_their_cause = source_knob_test(ROWS)


# (thread, text, tempting finding id): what the new entries must leave alone
LOOKALIKES = [
    # torch installed, the notebook's kernel is another environment: not "install torch"
    (
        "https://github.com/unit8co/vegans/issues/1",
        "While running the jupyter notebooks I am getting\nModuleNotFoundError: No module named "
        "'torch'\neven though I've stable Pytorch1.0 installed in conda env",
        "torch.framework-not-installed",
    ),
    # xmrig's plugin loaded and found no device: the driver, not the plugin's path
    (
        "https://github.com/xmrig/xmrig-cuda/issues/79",
        "./xmrig --cuda --cuda-loader=./libxmrig-cuda.so\nCUDA disabled (no device)",
        "xmrig.cuda-plugin-not-found",
    ),
    # a TEI image built for an older GPU than this one is not a GPU too old
    (
        "https://github.com/huggingface/text-embeddings-inference/issues/34",
        "Could not start backend: Runtime compute cap 89 is not compatible with compile time "
        "compute cap 75",
        "cuda.gpu-too-old-for-binary",
    ),
    # Ollama's AMD GPU behind a missing /dev/kfd is no NVIDIA driver or container-toolkit problem
    (
        "https://rocm.docs.amd.com/projects/install-on-linux/en/latest/how-to/docker.html",
        'msg="amdgpu devices detected but permission problems block access" error="kfd driver not '
        'loaded.  If running in a container, remember to include --device /dev/kfd"',
        "nvidia.no-driver-bound",
    ),
    # an Intel iGPU's missing OpenCL platform is Intel's compute runtime, not NVIDIA's ICD
    (
        "https://github.com/LeelaChessZero/lc0/issues/988",
        "OpenCL: clGetPlatformIDs\n  what():  clGetPlatformIDs\non my Intel Iris Xe laptop",
        "opencl.nvidia-icd-missing",
    ),
    # vkCreateDevice -7 on an NVIDIA card is no AMDVLK
    (
        "https://github.com/ValveSoftware/gamescope/issues/1104",
        "vulkan: selecting physical device 'NVIDIA GeForce RTX 3080'\n"
        "vulkan: vkCreateDevice failed (VkResult: -7)",
        "vulkan.amdvlk-instead-of-radv",
    ),
    # a Radeon's Code 43 after a VM restart: no NVIDIA guest driver fixes it
    (
        "https://github.com/isc30/ryzen-gpu-passthrough-proxmox/issues/33",
        "Proxmox passthrough of the AMD Radeon iGPU: after I restart the VM I get error 43 "
        "(Code 43) and have to restart the computer",
        "vm.hypervisor-not-hidden",
    ),
]

test_lookalikes_stay_clear = source_lookalike_test(LOOKALIKES, may_be_empty=True)


# (training case, finding id, knob, source): the development sample's cases, scored as the
# corpus scores them (the expected id or an accepted one in the top 3, a fix naming the knob)
CASES = [
    (
        "en-21005-glomap-ceres-without-cuda-gpu-unused.txt",
        "colmap.ceres-built-without-cudss",
        "cuDSS",
        "https://github.com/colmap/glomap/issues/192",
    ),
    (
        "en-21101-jittor-cuda8-too-old.txt",
        "cuda.toolkit-too-old-for-source",
        "jittor_utils.install_cuda",
        "https://github.com/Jittor/jittor/issues/251",
    ),
    (
        "en-21201-lutris-vulkan-32bit-radeon.txt",
        "vulkan.no-driver-for-gpu",
        "lib32-vulkan-radeon",
        "https://github.com/lutris/lutris/issues/5601",
    ),
    (
        "en-21210-gamescope-amdvlk-vkcreatedevice-7.txt",
        "vulkan.amdvlk-instead-of-radv",
        "AMD_VULKAN_ICD",
        "https://github.com/ValveSoftware/gamescope/issues/1104",
    ),
    (
        "en-21212-flatpak-steam-centos7-old-flatpak.txt",
        "flatpak.nvidia-gl-extension-mismatch",
        "update Flatpak",
        "https://github.com/flathub/com.valvesoftware.Steam/issues/203",
    ),
    (
        "en-21402-insightface-scrfd-onnx-cpu-not-gpu.txt",
        "onnxruntime.cpu-package-shadows-gpu",
        "onnxruntime-gpu",
        "https://github.com/deepinsight/insightface/issues/2091",
    ),
    (
        "en-21407-sourcebook-realesrgan-vulkan-amd-igpu-driver.txt",
        "vulkan.no-driver-for-gpu",
        "integrated GPU driver",
        "https://github.com/tumuyan/SourceBook-Dataset/issues/11",
    ),
    (
        "en-21502-faiss-gpu-cu11-windows-no-pip-wheel.txt",
        "python.no-matching-wheel",
        "conda",
        "https://github.com/facebookresearch/faiss/issues/4043",
    ),
    (
        "en-21809-decord-no-wheel-apple-m4.txt",
        "python.no-matching-wheel",
        "eva-decord",
        "https://github.com/dmlc/decord/issues/335",
    ),
    (
        "en-21907-godot43-rtx3080-crash-bandicam-vulkan-layer.txt",
        "vulkan.third-party-layer-broken",
        "Bandicam",
        "https://github.com/godotengine/godot/issues/101480",
    ),
    (
        "en-21908-proxmox-amd-igpu-error43-after-vm-restart.txt",
        "vm.amd-gpu-reset-bug",
        "vendor-reset",
        "https://github.com/isc30/ryzen-gpu-passthrough-proxmox/issues/33",
    ),
    (
        "en-21909-xmrig-opencl-libOpenCL-so1-opensuse.txt",
        "opencl.loader-soname-missing",
        "--opencl-loader",
        "https://github.com/xmrig/xmrig/issues/1975",
    ),
    (
        "en-21913-xmrig-cuda-plugin-not-loaded-ubuntu-nvs510.txt",
        "xmrig.cuda-plugin-not-found",
        "--cuda-loader",
        "https://github.com/xmrig/xmrig-cuda/issues/23",
    ),
    (
        "en-22200-precompiled-kmod-575-missing.txt",
        "nvidia.precompiled-kmod-not-published",
        "kmod-nvidia",
        "https://github.com/NVIDIA/yum-packaging-precompiled-kmod/issues/60",
    ),
    (
        "zh-22350-qwen-docker-cu117-compute89-fused-adam.txt",
        "cuda.nvcc-too-old-for-gpu",
        "cu121",
        "https://github.com/QwenLM/Qwen/issues/1125",
    ),
    (
        "zh-22351-qwen-cu121-image-error-804-forward-compat.txt",
        "cuda.toolkit-newer-than-driver",
        "NVIDIA driver",
        "https://github.com/QwenLM/Qwen/issues/1159",
    ),
    (
        "zh-21100-funasr-no-module-torch.txt",
        "torch.framework-not-installed",
        "pip install torch",
        "https://github.com/modelscope/FunASR/issues/1533",
    ),
]

test_development_cases_reach_their_cause = training_case_test(CASES, keywords=True)


def test_a_wine_paste_is_a_linux_host() -> None:
    """gamescope running a Windows program through Wine (gamescope#1104's log): the .exe path is
    no Windows host, so the Linux fix for the AMDVLK cause is shown, not refused."""
    text = (
        "Started initial process 100212 from gamescope -w 2560 -h 1440 -f -- mangohud /sbin/wine "
        "/home/u/Games/escape-from-tarkov/drive_c/Battlestate Games/BsgLauncher/BsgLauncher.exe\n"
        "vulkan: selecting physical device 'AMD Radeon RX 7900 XTX': queue family 1\n"
        "vulkan: vkCreateDevice failed (VkResult: -7)\nFailed to initialize Vulkan"
    )
    [found] = [f for f in triage_text(text).findings if f.id == "vulkan.amdvlk-instead-of-radv"]
    assert found.fixes and any("amdvlk" in c for c in found.fixes[0].commands), found
    assert not found.rejected_fixes, found.rejected_fixes


def test_torch_xla_gets_no_rebuild_of_its_own_extension() -> None:
    """_XLAC is torch_xla's extension module, not a package pip can rebuild: no fix may tell the
    user to `pip install ... _XLAC`."""
    text = (
        "ImportError: /usr/local/lib/python3.6/dist-packages/_XLAC.cpython-36m-x86_64-linux-gnu.so:"
        " undefined symbol: _ZN2at19slow_conv_dilated3dERKNS_6TensorES2_"
    )
    commands = [c for f in triage_text(text).findings for fix in f.fixes for c in fix.commands]
    assert commands and not [c for c in commands if "_XLAC" in c], commands


def test_srun_task_exit_on_a_gpu_named_node_is_no_gres_error() -> None:
    """srun's per-task exit line names the node ("srun: error: gpu-dy-g58xlarge-1: task 0: Exited
    with exit code 1", enroot#234): no signature reads the node name's "gpu" as a GRES error,
    while srun's own GRES errors still reach the missing-request cause."""
    exit_line = "srun: error: gpu-dy-g58xlarge-1: task 0: Exited with exit code 1"
    assert not [
        f
        for f in triage_text(exit_line).findings
        if f.id == "cluster.no-gpu-allocated" and f.origin and f.origin.startswith("signature:")
    ]
    gres = (
        "srun: error: Unable to allocate resources: Requested node configuration is not available"
    )
    assert any(f.id == "cluster.no-gpu-allocated" for f in triage_text(gres).findings)
