"""Round 25's changes: the causes the fresh development sample (tests/triage_corpus/train/) met that
envdoctor did not read. A report reaches its confirmed cause first with a fix naming the knob the
confirmed fix turned; look-alikes stay clear."""

from __future__ import annotations

from envdoctor.triage_engine import triage_text
from tests.triage_lines import source_knob_test, source_lookalike_test, training_case_test

# (thread, text, finding id, knob)
ROWS = [
    # ChatGLM's int4 kernels (cpm_kernels) on an M1: CUDA-only, so the CPU or a Metal runtime
    (
        "https://github.com/chatchat-space/Langchain-Chatchat/issues/1015",
        "m1 pro使用chatglm2-6b-int4模型时会报错\n"
        "AttributeError: 'NoneType' object has no attribute 'int4WeightExtractionHalf'",
        "apple.cuda-only-quantization-kernels",
        "model.float()",
    ),
    # a Rust program's no kernel image on a V100: older than the binary's targets
    (
        "https://github.com/filecoin-project/bellperson/issues/318",
        "I am trying to run this project using V100 GPU in AWS cloud, for MSM test I am always "
        "seeing this error:\nerror: gpu tools error: cuda error: no kernel image is available for "
        "execution on the device",
        "cuda.gpu-too-old-for-binary",
        "sm_75",
    ),
    # a C# program on a Maxwell laptop GPU
    (
        "https://github.com/emgucv/emgucv/issues/349",
        'CudaInvoke.Resize raises "No kernel image is available for execution on the device".\n'
        "GPU: GeForce GTX 970M (Maxwell 5.2 capability)",
        "cuda.gpu-too-old-for-binary",
        "sm_52",
    ),
    # glibc's version tags on libm, not only libc
    (
        "https://github.com/MyMonsterCat/RapidOcr-Java/issues/54",
        "/tmp/ocrJava/onnx/libRapidOcr.so: /lib64/libm.so.6: version `GLIBC_2.27' not found "
        "(required by /tmp/ocrJava/onnx/libRapidOcr.so)",
        "python.glibc-too-old",
        "glibc",
    ),
    # PaddleOCR-json's "OCR init fail": AVX, or the RapidOCR engine
    (
        "https://github.com/hiroi-sora/Umi-OCR/issues/456",
        "[Error] OCR init fail. Argd: {'enable_mkldnn': True, 'cpu_threads': 16, "
        "'config_path': 'models/config_chinese.txt'}\n每次启动都这样",
        "paddle.cpu-instruction-unsupported",
        "RapidOCR",
    ),
    # the same on Windows 7 with AVX present: the Windows version
    (
        "https://github.com/hiroi-sora/Umi-OCR/issues/130",
        "CPU指令集有AVX，系统是win7的，程序可以打开，但是选中图片后点开始任务会弹出对话框：\n"
        "任务失败: 无法启动引擎:OCR init fail.",
        "windows.os-version-unsupported",
        "Windows 7",
    ),
    # an embedded Python that cannot load python3.dll: the VC++ runtime
    (
        "https://github.com/hiroi-sora/Umi-OCR/issues/574",
        "Cannot load python3.dll from:\n\nC:\\Umi-OCR\\UmiOCR-data\\runtime",
        "windows.dll-dependency-missing",
        "vc_redist",
    ),
    # Python 3.9+ on Windows 7
    (
        "https://docs.python.org/3/using/windows.html",
        "The program can't start because api-ms-win-core-path-l1-1-0.dll is missing from your "
        "computer. Try reinstalling the program to fix this problem.",
        "windows.os-version-unsupported",
        "Windows 10",
    ),
    # Qt on a server without a display
    (
        "https://github.com/hiroi-sora/Umi-OCR_runtime_linux/issues/9",
        "在Rocky Linux 无界面直接部署OCR 报错\nqt.qpa.xcb: could not connect to display :0\n"
        'qt.qpa.plugin: Could not load the Qt platform plugin "xcb" in "" even though it was found.',
        "platform.headless-no-display",
        "xvfb",
    ),
    # a 6B model loaded on MPS on a 16 GB Mac hangs: unified memory
    (
        "https://github.com/zai-org/ChatGLM2-6B/issues/32",
        "通过mps后端加载 model = AutoModel.from_pretrained(path, trust_remote_code=True)"
        ".half().to('mps')\n然后系统就一直卡住了，没有输出",
        "apple.mps-out-of-memory",
        "unified memory",
    ),
    # an RTX 5090 and "the versions of torch"
    (
        "https://github.com/opendatalab/MinerU/issues/2993",
        "Because of versions of torch, cannot install MinerU on NVIDIA GeForce RTX 5090.",
        "torch.gpu-too-new-for-build",
        "cu128",
    ),
    # a new AMD Adrenalin driver breaks the llama.cpp apps: roll back
    (
        "https://github.com/ggml-org/llama.cpp/issues/23508",
        "After installing Adrenalin 26.5.1 or higher, none of them work (silent crash on "
        "startup). I use a RX 9070 XT.",
        "app.driver-newer-than-validated",
        "Adrenalin",
    ),
    # eight NVSwitch-class GPUs that do not start: Fabric Manager
    (
        "https://docs.nvidia.com/datacenter/tesla/fabric-manager-user-guide/index.html",
        "我这里 有8张H20，需要怎么设置才能让他工作，部署工作都做完了，但是启动不了",
        "nvidia.fabric-manager-not-running",
        "nvidia-fabricmanager",
    ),
    # ONNX Runtime on the GPU no faster than the CPU, in other words: dynamic shapes
    (
        "https://rapidai.github.io/RapidOCRDocs/main/faq/faq/",
        "I run RapidOCR with onnxruntime-gpu on GPU and on CPU, but the time elapsed on both is "
        "almost the same",
        "onnxruntime.gpu-slow-dynamic-shapes",
        "rapidocr_paddle",
    ),
    (
        "https://github.com/RapidAI/RapidASR/issues/26",
        "python版本预测时候用cpu会比gpu快很多\nonnxruntime是gpu版本",
        "onnxruntime.gpu-slow-dynamic-shapes",
        "cudnn_conv_algo_search",
    ),
    # an antivirus detection in words: a false positive, an exclusion
    (
        "https://github.com/ollama/ollama/issues/6342",
        "So for some reason, with the newest update, Windows Defender thinks this is a Trojan.",
        "windows.defender-blocks-file",
        "exclusion",
    ),
    # CTranslate2's int8 on a Blackwell card named without "RTX"
    (
        "https://github.com/McCloudS/subgen/issues/210",
        "cuBLAS failed with status CUBLAS_STATUS_NOT_SUPPORTED\nI upgraded to the Nvidia 5060 Ti "
        "16GB from the 2060 Super 8GB",
        "ctranslate2.int8-unsupported-on-blackwell",
        "float16",
    ),
    # FP8 on an RTX 30 card
    (
        "https://github.com/1038lab/ComfyUI-QwenVL/issues/28",
        "ERROR: FP8 models require a GPU with Compute Capability 8.9 or higher (e.g., RTX 4090). "
        "Your GPU's capability is 8.6. Please select a non-FP8 model.",
        "torch.fp8-needs-newer-gpu",
        "non-FP8",
    ),
    # code that names the torch release it needs
    (
        "https://github.com/kijai/ComfyUI-WanVideoWrapper/issues/233",
        "torch.backends.cuda.matmul.allow_fp16_accumulation is not available in this version of "
        "torch, requires torch 2.7.0.dev2025 02 26 nightly minimum currently",
        "torch.release-too-old",
        "2.7.0",
    ),
    # a Battlemage GPU on a kernel without its xe driver
    (
        "https://github.com/intel-gpu/intel-gpu-i915-backports/issues/209",
        "I managed to build the i915 dkms module on ubuntu 24.04 with 6.8.0-51-generic kernel, but "
        "I still don't see i915 being loaded.\n03:00.0 VGA compatible controller: Intel "
        "Corporation Battlemage G21 [Intel Graphics]",
        "intel.gpu-not-supported-by-kernel",
        " xe ",
    ),
    # one GPU works, several give a communication error: peer-to-peer
    (
        "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting.html",
        "system:  ubuntu22.04\nGPU: 4090 X 4\nusing one GPU works\nGPUS communication err",
        "nccl.p2p-broken-acs-iommu",
        "NCCL_P2P_DISABLE",
    ),
    # a HAMi node without its label: no device plugin there
    (
        "https://github.com/Project-HAMi/HAMi",
        "0/1 nodes are available: 1 Insufficient nvidia.com/gpu. HAMi on k3s",
        "k8s.insufficient-gpus",
        "gpu=on",
    ),
]

test_fresh_reports_reach_their_cause = source_knob_test(ROWS)

# (thread, text, finding id that must stay out of the top three)
LOOKALIKES = [
    # a torch traceback's no kernel image is torch's, not a native program's
    (
        "https://github.com/filecoin-project/bellperson/issues/318",
        'Traceback (most recent call last):\n  File "train.py", line 3\nRuntimeError: CUDA '
        "error: no kernel image is available for execution on the device\nGPU: Tesla V100",
        "cuda.gpu-too-old-for-binary",
    ),
    # a native program on an RTX 4090 is not too old for it
    (
        "https://github.com/filecoin-project/bellperson/issues/318",
        "error: gpu tools error: cuda error: no kernel image is available for execution on the "
        "device\nGPU: RTX 4090",
        "cuda.gpu-too-old-for-binary",
    ),
    # a V100 is never too new for a torch build
    (
        "https://pytorch.org/get-started/previous-versions/",
        "RuntimeError: CUDA error: no kernel image is available for execution on the device\n"
        "GPU: Tesla V100",
        "torch.gpu-too-new-for-build",
    ),
    # ChatGLM's int4 kernels on an NVIDIA GPU: cpm_kernels, not the Mac cause
    (
        "https://github.com/chatchat-space/Langchain-Chatchat/issues/856",
        "AttributeError: 'NoneType' object has no attribute 'int4WeightExtractionHalf'\n"
        "GPU RTX 3060",
        "apple.cuda-only-quantization-kernels",
    ),
    # "OCR init fail" on a CPU that has AVX is not the AVX cause
    (
        "https://github.com/hiroi-sora/Umi-OCR/issues/130",
        "CPU支持AVX，Umi-OCR 报错 OCR init fail",
        "paddle.cpu-instruction-unsupported",
    ),
    # MSVCP140 missing is the VC++ runtime, not the Windows version
    (
        "https://learn.microsoft.com/en-us/cpp/windows/latest-supported-vc-redist",
        "The program can't start because MSVCP140.dll is missing from your computer.",
        "windows.os-version-unsupported",
    ),
    # an issue template's CUDA question answered False on a Mac is not code asking for CUDA
    (
        "https://github.com/zai-org/ChatGLM2-6B/issues/32",
        '- OS: MacOS Ventura\n- CUDA Support (`python -c "import torch; '
        'print(torch.cuda.is_available())"`) :False',
        "macos.cuda-requested",
    ),
    # eight GeForce cards have no NVSwitch; eight working H100s have no fault
    (
        "https://docs.nvidia.com/datacenter/tesla/fabric-manager-user-guide/index.html",
        "我有8张4090，启动不了",
        "nvidia.fabric-manager-not-running",
    ),
    (
        "https://docs.nvidia.com/datacenter/tesla/fabric-manager-user-guide/index.html",
        "8 H100 GPUs, training is fast and works fine",
        "nvidia.fabric-manager-not-running",
    ),
    # Defender named without a detection is not an antivirus cause
    (
        "https://github.com/ollama/ollama/issues/6342",
        "I disabled windows defender and the training still fails with CUDA out of memory",
        "windows.defender-blocks-file",
    ),
    # cuBLAS refusing on an RTX 30 card is not CTranslate2's Blackwell int8 path
    (
        "https://github.com/McCloudS/subgen/issues/210",
        "RuntimeError: cuBLAS failed with status CUBLAS_STATUS_NOT_SUPPORTED on my RTX 3060",
        "ctranslate2.int8-unsupported-on-blackwell",
    ),
    # an MPS out-of-memory error has its canonical line; a CUDA hang is not the Mac cause
    (
        "https://pytorch.org/docs/stable/notes/mps.html",
        "training hangs with no output on my RTX 3090 under nvidia driver 550",
        "apple.mps-out-of-memory",
    ),
]

test_lookalikes_stay_clear = source_lookalike_test(LOOKALIKES, may_be_empty=True)

# the development sample's cases as the corpus scores them (their own thread out of the case base):
# (training case, finding id, knob, thread)
CASES = [
    (
        "en-7004-llamacpp-adrenalin-26.5-silent-crash-rx9070xt.txt",
        "app.driver-newer-than-validated",
        "Adrenalin",
        "https://github.com/ggml-org/llama.cpp/issues/23508",
    ),
    (
        "en-7504-bellperson-v100-volta-unsupported.txt",
        "cuda.gpu-too-old-for-binary",
        "sm_75",
        "https://github.com/filecoin-project/bellperson/issues/318",
    ),
    (
        "zh-7105-langchain-chatchat-m1-chatglm2-int4.txt",
        "apple.cuda-only-quantization-kernels",
        "chatglm.cpp",
        "https://github.com/chatchat-space/Langchain-Chatchat/issues/1015",
    ),
    (
        "zh-7201-umiocr-vm-cpu-no-avx.txt",
        "paddle.cpu-instruction-unsupported",
        "avx",
        "https://github.com/hiroi-sora/Umi-OCR/issues/456",
    ),
    (
        "zh-7204-umiocr-python3dll-vc-redist.txt",
        "windows.dll-dependency-missing",
        "vc_redist",
        "https://github.com/hiroi-sora/Umi-OCR/issues/574",
    ),
    (
        "zh-7216-umiocr-linux-headless-no-display-xcb.txt",
        "platform.headless-no-display",
        "xvfb",
        "https://github.com/hiroi-sora/Umi-OCR_runtime_linux/issues/9",
    ),
    (
        "en-7404-nvidia-docker-rhel-yum-update-nvml-mismatch.txt",
        "nvidia.driver-library-mismatch",
        "symlink",
        "https://github.com/NVIDIA/nvidia-docker/issues/584",
    ),
]

CASES += [
    (
        "en-7603-subgen-rtx5060ti-cublas-not-supported.txt",
        "ctranslate2.int8-unsupported-on-blackwell",
        "compute_type",
        "https://github.com/McCloudS/subgen/issues/210",
    ),
    (
        "en-7802-onedl-mmdet-mmcv-ext-torch-2.10-no-prebuilt.txt",
        "mmcv.ops-not-built",
        "downgrade pytorch",
        "https://github.com/VBTI-development/onedl-mmdetection/issues/18",
    ),
    (
        "en-8005-ollama-windows-defender-trojan-false-positive.txt",
        "windows.defender-blocks-file",
        "exclusion",
        "https://github.com/ollama/ollama/issues/6342",
    ),
    (
        "en-7813-wanvideowrapper-fp16-fast-needs-torch-2.7.txt",
        "torch.release-too-old",
        "2.7.0",
        "https://github.com/kijai/ComfyUI-WanVideoWrapper/issues/233",
    ),
    (
        "en-8102-battlemage-b580-i915-backports-unsupported.txt",
        "intel.gpu-not-supported-by-kernel",
        "kernel",
        "https://github.com/intel-gpu/intel-gpu-i915-backports/issues/209",
    ),
    (
        "zh-7812-comfyui-qwenvl-fp8-needs-cc89-rtx30.txt",
        "torch.fp8-needs-newer-gpu",
        "non-fp8",
        "https://github.com/1038lab/ComfyUI-QwenVL/issues/28",
    ),
    (
        "zh-1605-rapidasr-ort-gpu-slower-than-cpu.txt",
        "onnxruntime.gpu-slow-dynamic-shapes",
        "cudnn_conv_algo_search",
        "https://github.com/RapidAI/RapidASR/issues/26",
    ),
    (
        "zh-1600-diffusion-pipe-8xh20-fabric-manager.txt",
        "nvidia.fabric-manager-not-running",
        "nvidia-fabricmanager",
        "https://github.com/tdrussell/diffusion-pipe/issues/50",
    ),
]

test_development_cases_reach_their_cause = training_case_test(CASES, keywords=True)


def test_the_aarch64_wheel_index_fix_is_not_offered_on_windows() -> None:
    """A Windows paste that similar cases tie to the CPU-only wheel is never told to install
    PyTorch's aarch64 build; an aarch64 question still is."""

    def summaries(text: str) -> str:
        hit = [f for f in triage_text(text).findings if f.id == "torch.cpu-build-on-gpu-host"]
        return " ".join(fix.summary for f in hit for fix in f.fixes)

    windows = summaries(
        "I have Windows 11 Pro with 16GB RAM and RTX 2060 Max Q but a 3 minute audio takes up to "
        "15 minutes to complete. Is there a setting to make the software run on the dedicated GPU?"
    )
    assert "aarch64" not in windows
    arm = summaries(
        "I'm interested in trying out a Pytorch build for CUDA 12.4 and aarch64 architecture."
    )
    assert "aarch64 CUDA build" in arm


def test_the_adrenalin_rollback_replaces_the_isaac_sim_branch_fix() -> None:
    """An AMD driver update that broke an app gets the Adrenalin rollback first, and not the
    NVIDIA branch pin written for Isaac Sim."""
    hit = [
        f
        for f in triage_text(
            "After installing Adrenalin 26.5.1 the app does a silent crash on startup"
        ).findings
        if f.id == "app.driver-newer-than-validated"
    ]
    assert hit
    summaries = [fix.summary for fix in hit[0].fixes]
    assert "Adrenalin" in summaries[0]
    assert not any("Isaac Sim" in s for s in summaries)
