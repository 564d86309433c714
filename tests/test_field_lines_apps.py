"""Round 7 field survey of the application families (bitsandbytes, llama.cpp / Ollama and
llama-cpp-python, vLLM, Intel XPU): canonical lines real users paste, each quoted from the thread
named beside it. Each line alone must put its cause among the first two findings, and where the
cause has a fix, the fix must name the thing the field's fix turns on (a package, flag, version,
variable or command)."""

from __future__ import annotations

import pytest
from triage_lines import fixes_text

from envdoctor.triage_engine import triage_text

BNB = "https://github.com/bitsandbytes-foundation/bitsandbytes/issues/"
OLLAMA = "https://github.com/ollama/ollama/issues/"
VLLM = "https://github.com/vllm-project/vllm/issues/"

# (line, expected id, knob the fix names or "" when none is asserted, source URL)
LINES: list[tuple[str, str, str, str]] = [
    # ---------------------------------------------------------------- bitsandbytes
    (
        "AttributeError: /opt/conda/lib/python3.10/site-packages/bitsandbytes/"
        "libbitsandbytes_cpu.so: undefined symbol: cget_col_row_stats",
        "bitsandbytes.cuda-setup-failed",
        "bitsandbytes>=0.43.0",
        BNB + "459",
    ),
    (
        "AttributeError: /home/jason/miniconda3/envs/h2ogpt/lib/python3.10/site-packages/"
        "bitsandbytes/libbitsandbytes_cpu.so: undefined symbol:\ncget_col_row_stats",
        "bitsandbytes.cuda-setup-failed",
        "bitsandbytes",
        "https://github.com/h2oai/h2ogpt/issues/432",
    ),
    (
        "/home2/xhuang/.conda/envs/llama/lib/python3.9/site-packages/bitsandbytes/"
        "libbitsandbytes_cpu.so: undefined symbol: cadam32bit_grad_fp32",
        "bitsandbytes.cuda-setup-failed",
        "bitsandbytes>=0.43.0",
        "https://github.com/meta-llama/llama-cookbook/issues/159",
    ),
    (
        "    optim_func = str2optimizer32bit[optimizer_name][0]\n"
        "NameError: name 'str2optimizer32bit' is not defined",
        "bitsandbytes.cuda-setup-failed",
        "python -m bitsandbytes",
        BNB + "1281",
    ),
    (
        "/home/zsd/.local/lib/python3.10/site-packages/bitsandbytes/cuda_setup/main.py:136: "
        "UserWarning: WARNING: No GPU detected! Check your CUDA paths. Proceeding to load "
        "CPU-only library...",
        "bitsandbytes.cuda-setup-failed",
        "bitsandbytes",
        BNB + "241",
    ),
    (
        "CUDA SETUP: WARNING! libcuda.so not found! Do you have a CUDA driver installed? If you "
        "are on a cluster, make sure you are on a CUDA machine!",
        "bitsandbytes.cuda-setup-failed",
        "ldconfig",
        BNB + "405",
    ),
    (
        "CUDA_SETUP: WARNING! libcudart.so not found in any environmental path. Searching in "
        "backup paths...\n"
        "CUDA SETUP: WARNING! libcuda.so not found! Do you have a CUDA driver installed? If you "
        "are on a cluster, make sure you are on a CUDA machine!\n"
        "CUDA SETUP: Loading binary AppData\\Local\\Programs\\Python\\Python310\\lib\\"
        "site-packages\\bitsandbytes\\libbitsandbytes_cpu.so...\n"
        "argument of type 'WindowsPath' is not iterable\n"
        "CUDA SETUP: Problem: The main issue seems to be that the main CUDA library was not "
        "detected.",
        "bitsandbytes.windows-unsupported",
        "bitsandbytes>=0.43.0",
        BNB + "1322",
    ),
    (
        "RuntimeError: CUDA Setup failed despite GPU being available. Please run the following "
        "command to get more information:",
        "bitsandbytes.cuda-setup-failed",
        "python -m bitsandbytes",
        BNB + "1322",
    ),
    (
        "ModuleNotFoundError: No module named 'triton.ops'",
        "bitsandbytes.triton-ops-removed",
        "bitsandbytes>=0.45.2",
        "https://github.com/triton-lang/triton/issues/5471",
    ),
    (
        "    from triton.ops.matmul_perf_model import early_config_prune, estimate_matmul_time\n"
        "ModuleNotFoundError: No module named 'triton.ops'",
        "bitsandbytes.triton-ops-removed",
        "pip install -U",
        "https://github.com/lamikr/rocm_sdk_builder/issues/202",
    ),
    # ---------------------------------------------------------------- llama.cpp / Ollama
    (
        'Error: pull model manifest: Get "https://registry.ollama.ai/v2/library/llama3/manifests/'
        '8b": dial tcp 104.21.75.227:443: i/o timeout',
        "app.ollama.registry-unreachable",
        "HTTPS_PROXY",
        OLLAMA + "3816",
    ),
    (
        'Error: pull model manifest: Get "https://registry.ollama.ai/v2/library/codellama/'
        'manifests/34b-code": dial tcp: lookup registry.ollama.ai: no such host',
        "app.ollama.registry-unreachable",
        "HTTPS_PROXY",
        OLLAMA + "769",
    ),
    (
        'Error: pull model manifest: Get "https://registry.ollama.ai/v2/library/llama2/manifests/'
        'latest": dial tcp 34.120.132.20:443: connect: connection timed out',
        "app.ollama.registry-unreachable",
        "systemctl",
        OLLAMA + "1417",
    ),
    (
        'Error: pull model manifest: Get "https://ollama.com/token?nonce=pa9U-g8eXWKfTiK3NN_FdQ&'
        "scope=repository%!A(MISSING)library%!F(MISSING)qwen%!A(MISSING)pull&service=ollama.com&"
        'ts=1712324131": net/http: TLS handshake timeout',
        "app.ollama.registry-unreachable",
        "HTTPS_PROXY",
        OLLAMA + "3504",
    ),
    (
        'Error: pull model manifest: Get "https://registry.ollama.ai/v2/library/deepseek-coder/'
        'manifests/33b": dial tcp: lookup registry.ollama.ai on 8.8.8.8:53: read udp '
        "172.17.0.2:48307->8.8.8.8:53: i/o timeout",
        "app.ollama.registry-unreachable",
        "nslookup",
        OLLAMA + "9030",
    ),
    (
        "ollama._types.ResponseError: timed out waiting for llama runner to start - progress 0.00 -",
        "app.ollama.runner-start-timeout",
        "OLLAMA_LOAD_TIMEOUT",
        OLLAMA + "8470",
    ),
    (
        "Error: timed out waiting for llama runner to start:",
        "app.ollama.runner-start-timeout",
        "OLLAMA_LOAD_TIMEOUT",
        OLLAMA + "4131",
    ),
    (
        "      CMake Error at C:/Program Files (x86)/Microsoft Visual Studio/2022/BuildTools/Common7/"
        "IDE/CommonExtensions/Microsoft/CMake/CMake/share/cmake-3.29/Modules/"
        "CMakeDetermineCompilerId.cmake:563 (message):\n"
        "        No CUDA toolset found.",
        "app.llamacpp.cuda-vs-integration-missing",
        "visual_studio_integration",
        "https://github.com/abetlen/llama-cpp-python/issues/1917",
    ),
    (
        "ggml_cuda_compute_forward: RMS_NORM failed\n"
        "CUDA error: invalid device function\n"
        "  current device: 0, in function ggml_cuda_compute_forward at ggml/src/ggml-cuda.cu:2288",
        "app.llamacpp.gpu-arch-dropped",
        "HSA_OVERRIDE_GFX_VERSION",
        "https://github.com/ggml-org/llama.cpp/issues/8504",
    ),
    (
        "ggml_gallocr_reserve_n: failed to allocate ROCm0 buffer of size 18035509504\n"
        "llama_new_context_with_model: failed to allocate compute buffers",
        "memory.out-of-memory",
        "ctx-size",
        "https://github.com/ggml-org/llama.cpp/issues/9352",
    ),
    (
        "llama_new_context_with_model: failed to allocate compute buffers",
        "memory.out-of-memory",
        "-c 8192",
        "https://github.com/oobabooga/textgen/issues/6309",
    ),
    (
        "llama_init_from_model: failed to initialize the context: failed to allocate compute pp "
        "buffers",
        "memory.out-of-memory",
        "n_ctx",
        "https://github.com/ggml-org/llama.cpp/issues/16725",
    ),
    (
        "ggml_backend_cpu_buffer_type_alloc_buffer: failed to allocate buffer of size 137438953504\n"
        "llama_kv_cache_init: failed to allocate buffer for kv cache",
        "memory.out-of-memory",
        "ctx-size",
        "https://github.com/ggml-org/llama.cpp/issues/8101",
    ),
    (
        "Error: llama runner process has terminated: CUDA error: out of memory",
        "memory.out-of-memory",
        "num_ctx",
        OLLAMA + "9782",
    ),
    (
        "Error: llama runner process has terminated: exit status 0xc000001d",
        "app.llamacpp.cpu-instruction-unsupported",
        "avx",
        OLLAMA + "4793",
    ),
    (
        "CUDA error: the provided PTX was compiled with an unsupported toolchain.\n"
        "  current device: 0, in function ggml_cuda_compute_forward at "
        "F:\\LLM\\llama.cpp\\ggml-cuda.cu:2392",
        "cuda.toolkit-newer-than-driver",
        "driver",
        "https://github.com/ggml-org/llama.cpp/issues/6433",
    ),
    # ---------------------------------------------------------------- vLLM
    (
        "(VllmWorkerProcess pid=422094) ERROR 02-22 00:31:14 multiproc_worker_utils.py:242] "
        "RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with "
        "multiprocessing, you must use the 'spawn' start method",
        "vllm.fork-after-cuda-init",
        "VLLM_WORKER_MULTIPROC_METHOD=spawn",
        VLLM + "13677",
    ),
    (
        "你好，用vllm启动，遇到过： \nRuntimeError: Cannot re-initialize CUDA in forked subprocess. "
        "To use CUDA with multiprocessing, you must use the 'spawn' start method，不。",
        "vllm.fork-after-cuda-init",
        "spawn",
        "https://github.com/liunian-Jay/MU-GOT/issues/2",
    ),
    (
        "ValueError: No available memory for the cache blocks. Try increasing "
        "`gpu_memory_utilization` when initializing the engine.",
        "app.vllm.kv-cache-insufficient",
        "gpu-memory-utilization",
        VLLM + "2248",
    ),
    (
        "[BUG] 4张A100-40G使用vllm进行推理遇上ValueError: No available memory for the cache blocks.",
        "app.vllm.kv-cache-insufficient",
        "max-model-len",
        "https://github.com/QwenLM/Qwen/issues/853",
    ),
    (
        "A100 vllm部署Qwen2.5-VL-3B-Instruct，load模型之后报错No available memory for the cache "
        "blocks",
        "app.vllm.kv-cache-insufficient",
        "gpu_memory_utilization",
        VLLM + "18124",
    ),
    (
        "ValueError: XFormers does not support attention logits soft capping.",
        "vllm.attention-backend-unsupported",
        "VLLM_ATTENTION_BACKEND=FLASHINFER",
        VLLM + "8929",
    ),
    (
        "RuntimeError: Error in model execution: FlashAttention only supports Ampere GPUs or newer.",
        "flashattn.gpu-arch-unsupported",
        "sdpa",
        VLLM + "9922",
    ),
    # vLLM's setup.py raise, quoted in the title of the issue
    (
        "RuntimeError: GPUs with compute capability below 7.0 are not supported.",
        "vllm.gpu-too-old",
        "TORCH_CUDA_ARCH_LIST",
        VLLM + "1431",
    ),
    # ---------------------------------------------------------------- Intel XPU / Arc
    (
        "C:\\Users\\PC\\AppData\\Local\\Programs\\AI Playground\\resources\\ai-backend-env\\Lib\\"
        "site-packages\\torch\\xpu\\__init__.py:60: UserWarning: Failed to initialize XPU devices. "
        "The driver may not be installed, installed incorrectly, or incompatible with the current "
        "setup. Please refer to the guideline "
        "(https://github.com/pytorch/pytorch?tab=readme-ov-file#intel-gpu-support) for proper "
        "installation and configuration. (Triggered internally at "
        "C:\\actions-runner\\_work\\pytorch\\pytorch\\pytorch\\c10\\xpu\\XPUFunctions.cpp:111.)\n"
        "  return torch._C._xpu_getDeviceCount()",
        "intel.xpu-without-runtime",
        "sycl-ls",
        "https://github.com/intel/AI-Playground/issues/342",
    ),
    (
        "geti-action-1  | /app/application/backend/.venv/lib/python3.12/site-packages/torch/xpu/"
        "__init__.py:60: UserWarning: Failed to initialize XPU devices. The driver may not be "
        "installed, installed incorrectly, or incompatible with the current setup. Please refer "
        "to the guideline (https://github.com/pytorch/pytorch?tab=readme-ov-file#intel-gpu-support) "
        "for proper installation and configuration. (Triggered internally at "
        "/pytorch/c10/xpu/XPUFunctions.cpp:109.)",
        "intel.xpu-without-runtime",
        "/dev/dri",
        "https://github.com/open-edge-platform/physical-ai-studio/issues/261",
    ),
    (
        "error: Double type is not supported on this platform.\n"
        "error: backend compiler failed build.",
        "intel.arc-no-fp64",
        "IGC_EnableDPEmulation",
        "https://github.com/intel/intel-extension-for-pytorch/issues/303",
    ),
    (
        "error: Double type is not supported on this platform.",
        "intel.arc-no-fp64",
        "float32",
        "https://github.com/intel/hdk/issues/322",
    ),
    (
        "RuntimeError: Required aspect fp64 is not supported on the device on Arc A770",
        "intel.arc-no-fp64",
        "OverrideDefaultFP64Settings",
        "https://github.com/intel/torch-xpu-ops/issues/1742",
    ),
    (
        "FAILED test_cast_matmul.py::test_cast_matmul[128-128-128-float32-float64-float16] - "
        "RuntimeError: FP64 data type is unsupported on current platform.",
        "intel.arc-no-fp64",
        "float32",
        "https://github.com/intel/intel-xpu-backend-for-triton/issues/1084",
    ),
    (
        "RuntimeError: The GPU device does not support Double (Float64) operations!",
        "intel.arc-no-fp64",
        "float32",
        "https://github.com/vladmandic/sdnext/issues/2011",
    ),
    (
        "RuntimeError: Current platform can NOT allocate memory block with size larger than 4GB! "
        "Tried to allocate 7.62 GiB (GPU  0; 15.11 GiB total capacity; 334.79 MiB already "
        "allocated; 474.00 MiB reserved in total by PyTorch)",
        "memory.out-of-memory",
        "4 GB",
        "https://github.com/intel/intel-extension-for-pytorch/issues/492",
    ),
    (
        "Exception: Native API failed. Native API returns: -1 (PI_ERROR_DEVICE_NOT_FOUND) -1 "
        "(PI_ERROR_DEVICE_NOT_FOUND)",
        "intel.xpu-without-runtime",
        "libze",
        "https://github.com/intel/intel-extension-for-pytorch/issues/359",
    ),
    (
        "RuntimeError: Native API failed. Native API returns: -5 (PI_ERROR_OUT_OF_RESOURCES) -5 "
        "(PI_ERROR_OUT_OF_RESOURCES)",
        "memory.out-of-memory",
        "batch size",
        "https://github.com/intel/intel-extension-for-pytorch/issues/359",
    ),
    # ---------------------------------------------------------------- second pass
    (
        "Error: listen tcp 127.0.0.1:11434: bind: An attempt was made to access a socket in a way "
        "forbidden by its access permissions.",
        "app.ollama.port-reserved-windows",
        "excludedportrange",
        OLLAMA + "9444",
    ),
    (
        'When I type "ollama serve", it shows "Error: listen tcp 127.0.0.1:11434: bind: An attempt '
        'was made to access a socket in a way forbidden by its access permissions."',
        "app.ollama.port-reserved-windows",
        "winnat",
        OLLAMA + "8396",
    ),
    (
        "Error: listen tcp 127.0.0.1:11434: bind: Only one usage of each socket address "
        "(protocol/network address/port) is normally permitted.",
        "app.ollama.server-already-running",
        "11434",
        OLLAMA + "3575",
    ),
    (
        "ValueError: Model architectures ['Qwen2ForCausalLM'] failed to be inspected. Please check "
        "the logs for more details.",
        "vllm.model-architecture-not-supported",
        "vllm.model_executor.models.registry",
        VLLM + "13216",
    ),
    (
        "INFO 02-16 18:30:09 __init__.py:190] Automatically detected platform cpu.\n"
        "ValueError: Model architectures ['LlamaForCausalLM'] failed to be inspected. Please check "
        "the logs for more details",
        "vllm.model-architecture-not-supported",
        "torch.cuda.is_available()",
        VLLM + "13332",
    ),
    (
        "Error: selecting model: failed to pull gemma4: write /usr/share/ollama/.ollama/models/"
        "blobs/sha256-4c27e0f5b5adf02ac956c7322bd2ee7636fe3f45a8512c9aba5385242cb6e09a-partial: "
        "no space left on device",
        "app.ollama.models-disk-full",
        "OLLAMA_MODELS",
        OLLAMA + "15547",
    ),
    (
        "2023-10-26T04:20:50.961 app[48ed663be33558] ord [info] 2023/10/26 04:20:50 "
        "download.go:164: 29fdb92e57cf part 24 attempt 1 failed: write /root/.ollama/models/blobs/"
        "sha256:29fdb92e57cf0827ded04ae6461b5931d01fa595843f55d36f5b275a52087dd2-partial: no space "
        "left on device, retrying",
        "app.ollama.models-disk-full",
        "/root/.ollama",
        OLLAMA + "911",
    ),
    (
        "Error: write /usr/share/ollama/.ollama/models/blobs/3649787503/fp164117961266: no space "
        "left on device",
        "app.ollama.models-disk-full",
        "df -h",
        OLLAMA + "6628",
    ),
    (
        "Sep 28 08:46:26 orangepi5 ollama[2563639]: time=2024-09-28T08:46:26.830+08:00 "
        'level=ERROR source=common.go:214 msg="failed to extract files" error="copy payload '
        "linux/arm64/cuda_v12/libggml.so: write /tmp/ollama2127264499/runners/cuda_v12/libggml.so: "
        'no space left on device"',
        "app.ollama.models-disk-full",
        "OLLAMA_TMPDIR",
        OLLAMA + "7012",
    ),
    (
        "Error: max retries exceeded: EOF",
        "app.ollama.registry-unreachable",
        "ollama pull",
        OLLAMA + "8167",
    ),
    (
        "Error: max retries exceeded: unexpected EOF",
        "app.ollama.registry-unreachable",
        "resumes",
        OLLAMA + "1770",
    ),
    (
        'Error: max retries exceeded: Get "https://dd20bb891979d25aebc8bec07b2b3bbc.r2.'
        "cloudflarestorage.com/ollama/docker/registry/v2/blobs/sha256/3a/"
        "3a43f93b78ec50f7c4e4dc8bd1cb3fff5a900e7d574c51a6f7495e48486e0dac/data?X-Amz-Algorithm="
        'AWS4-HMAC-SHA256": dial tcp: lookup dd20bb891979d25aebc8bec07b2b3bbc.r2.'
        "cloudflarestorage.com: no such host",
        "app.ollama.registry-unreachable",
        "HTTPS_PROXY",
        OLLAMA + "3504",
    ),
    (
        "[   14.737010] i915 0000:03:00.0: Your graphics device 56c0 is not properly supported by "
        "i915 in this\n"
        "               kernel version. To force driver probe anyway, use i915.force_probe=56c0",
        "intel.gpu-not-supported-by-kernel",
        "i915.force_probe=56c0",
        "https://github.com/strongtz/i915-sriov-dkms/issues/293",
    ),
    (
        "RuntimeError: Configured ROCm binary not found at /opt/app-root/lib64/python3.12/"
        "site-packages/bitsandbytes/libbitsandbytes_rocm84.so",
        "bitsandbytes.cudart-not-found",
        "torch.version.hip",
        BNB + "2014",
    ),
    (
        "[2026-02-26 22:41:34.464] [error] bitsandbytes library load error: Configured ROCm binary "
        "not found at D:\\apps\\ComfyDesktop\\.venv\\Lib\\site-packages\\bitsandbytes\\"
        "libbitsandbytes_rocm72.dll",
        "bitsandbytes.cudart-not-found",
        "COMPUTE_BACKEND=hip",
        "https://github.com/Comfy-Org/desktop/issues/1630",
    ),
    (
        "Could not find the bitsandbytes ROCm binary at PosixPath('/home/USER/ROCm/Almalinux/"
        "bitsandbytes/bitsandbytes/libbitsandbytes_rocm63.so')\n"
        "Could not load bitsandbytes native library: /home/USER/ROCm/Almalinux/bitsandbytes/"
        "bitsandbytes/libbitsandbytes_cpu.so: cannot open shared object file: No such file or "
        "directory",
        "bitsandbytes.cudart-not-found",
        "libbitsandbytes_rocm",
        "https://github.com/ROCm/bitsandbytes/issues/82",
    ),
    (
        "Could not find the bitsandbytes CUDA binary at PosixPath('/opt/conda/envs/diff/lib/"
        "python3.10/site-packages/bitsandbytes/libbitsandbytes_hip_nohipblaslt.so')",
        "bitsandbytes.cudart-not-found",
        "torch.version.hip",
        "https://github.com/ROCm/bitsandbytes/issues/30",
    ),
    (
        "Error: mkdir /home/grima/ollama: permission denied",
        "app.ollama.models-dir-permission",
        "chown -R ollama:ollama",
        OLLAMA + "9337",
    ),
    (
        "Jan 22 21:25:41 airig sh[301002]: Error: mkdir /home/lasse/model_drive: permission denied\n"
        "Jan 22 21:25:41 airig systemd[1]: ollama.service: Main process exited, code=exited, "
        "status=1/FAILURE",
        "app.ollama.models-dir-permission",
        "sudo -u ollama",
        OLLAMA + "2147",
    ),
    (
        "Error: mkdir /usr/share/ollama/.ollama/models/manifests/registry.ollama.ai/library/"
        "mistral: permission denied",
        "app.ollama.models-dir-permission",
        "chown",
        OLLAMA + "1066",
    ),
    (
        "      vLLM only supports Linux platform (including WSL) and MacOS.Building on win32, so "
        "vLLM may not be able to run correctly",
        "vllm.windows-native-unsupported",
        "WSL",
        VLLM + "13518",
    ),
    (
        "[Installation]: 是否支持在windows操作系统上安装vllm",
        "vllm.windows-native-unsupported",
        "wsl",
        VLLM + "5631",
    ),
    (
        "RuntimeError: Exception from src/inference/src/cpp/core.cpp:214:\n"
        "Check '!m_device_map.empty()' failed at src/plugins/intel_gpu/src/plugin/plugin.cpp:419:\n"
        "[GPU] Can't get FULL_DEVICE_NAME property as no supported devices found or an error "
        "happened during devices query.",
        "intel.xpu-without-runtime",
        "intel-opencl-icd",
        "https://github.com/openvinotoolkit/openvino/issues/29074",
    ),
    (
        "[GPU] No supported OCL devices found or unexpected error happened during devices query.\n"
        "[GPU] Please check OpenVINO documentation for GPU drivers setup guide.",
        "intel.xpu-without-runtime",
        "clinfo",
        "https://github.com/openvinotoolkit/openvino/issues/17290",
    ),
    (
        '18:38:54-407569 INFO     Loading "LLama-3-Dolphin-2.9.1-120b.Q5_K_M.gguf.part1of2"\n'
        "llama_model_load: error loading model: tensor 'blk.81.attn_q.weight' data is not within "
        "the file bounds, model is corrupted or incomplete\n"
        "llama_load_model_from_file: failed to load model",
        "app.llamacpp.model-file-format",
        "cat model.gguf.part1of2",
        "https://github.com/oobabooga/textgen/issues/6080",
    ),
    (
        "ValueError: GGUF magic invalid",
        "app.llamacpp.model-file-format",
        "sha256sum",
        "https://github.com/city96/ComfyUI-GGUF/issues/43",
    ),
    (
        "Error: digest mismatch, file must be downloaded again: want "
        "sha256:1a640cd4d69a5260bcc807a531f82ddb3890ebf49bc2a323e60a9290547135c1, got "
        "sha256:5eef5d8ec5ce977b74f91524c0002f9a7adeb61606cdbdad6460e25d58d0f454",
        "app.ollama.download-corrupted",
        "ollama rm",
        OLLAMA + "941",
    ),
    (
        "verifying sha256 digest\n"
        "Error: digest mismatch, file must be downloaded again: want "
        "sha256:a92c55b71e45d620cee84ed774eef6113d41c39a28bb2da562a871b288f411cf, got "
        "sha256:c4780c4fd08ee1a8fb359941c87834d1ec566598224a5a199c2c978059b69350",
        "app.ollama.download-corrupted",
        "-partial",
        OLLAMA + "9430",
    ),
    (
        "/opt/homebrew/lib/python3.11/site-packages/bitsandbytes/cextension.py:34: UserWarning: The "
        "installed version of bitsandbytes was compiled without GPU support. 8-bit optimizers, "
        "8-bit multiplication, and GPU quantization are unavailable.\n"
        "'NoneType' object has no attribute 'cadam32bit_grad_fp32'",
        "bitsandbytes.apple-silicon-unsupported",
        "mlx",
        "https://github.com/haotian-liu/LLaVA/issues/704",
    ),
    (
        "CUDA SETUP: Loading binary /Users/phdykd/miniconda3/envs/Guanaco/lib/python3.10/"
        "site-packages/bitsandbytes/libbitsandbytes_cpu.so...\n"
        "dlopen(/Users/phdykd/miniconda3/envs/Guanaco/lib/python3.10/site-packages/bitsandbytes/"
        "libbitsandbytes_cpu.so, 0x0006): tried: '/Users/phdykd/miniconda3/envs/Guanaco/lib/"
        "python3.10/site-packages/bitsandbytes/libbitsandbytes_cpu.so' (not a mach-o file)",
        "bitsandbytes.apple-silicon-unsupported",
        "mps",
        BNB + "485",
    ),
    (
        "[bug]: Flux models doesnt work on Mac M2 device. Gets an error like this -> ImportError: "
        "The bnb modules are not available. Please install bitsandbytes if available on your "
        "platform.",
        "bitsandbytes.apple-silicon-unsupported",
        "gguf",
        "https://github.com/invoke-ai/InvokeAI/issues/6965",
    ),
]


@pytest.mark.parametrize(("line", "finding_id", "knob", "source"), LINES)
def test_field_line_reaches_its_cause(line: str, finding_id: str, knob: str, source: str) -> None:
    """The line alone ranks its cause in the first two, and the cause's fix names the knob."""
    assert source.startswith("https://")
    findings = triage_text(line).findings
    ids = [f.id for f in findings[:2]]
    assert finding_id in ids, [f.id for f in findings[:3]]
    if knob:
        hit = next(f for f in findings[:2] if f.id == finding_id)
        assert knob.lower() in fixes_text(hit).lower(), fixes_text(hit)
