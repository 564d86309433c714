"""Round 29's changes: the causes the fresh development samples (tests/triage_corpus/train/) met
that envdoctor did not read, a capability line it did not take from prose, and a case-base
suggestion that offered another package's fix. A report reaches its confirmed cause with a fix
naming the knob the confirmed fix turned; look-alikes stay clear."""

from __future__ import annotations

from envdoctor.triage_engine import triage_text
from tests.triage_lines import source_knob_test, source_lookalike_test, training_case_test

# (thread, text, finding id, knob): canonical lines verbatim from the threads named
ROWS = [
    # FlashInfer's setup.py inside an NGC PyTorch container on an L20
    (
        "https://github.com/flashinfer-ai/flashinfer/issues/371",
        '    raise RuntimeError("FlashInfer requires sm75+")\n'
        "RuntimeError: FlashInfer requires sm75+\n"
        "I am using the  `nvcr.io/nvidia/pytorch:24.04-py3` docker image",
        "torch.extension-arch-not-built",
        "TORCH_CUDA_ARCH_LIST",
    ),
    # PaddleHub 2.0 with use_gpu=True and no CUDA_VISIBLE_DEVICES
    (
        "https://github.com/PaddlePaddle/PaddleHub/issues/1191",
        ' _places = os.environ["CUDA_VISIBLE_DEVICES"]\n int(_places[0])\n'
        "用use_gpu报错了，请问是怎么回事呢\npaddlehub 2.0.0b2",
        "paddlehub.cuda-visible-devices-unset",
        "CUDA_VISIBLE_DEVICES",
    ),
    # DGL on a torch newer than any of its builds
    (
        "https://github.com/HFUT-LEC/EduStudio/issues/41",
        "FileNotFoundError: Cannot find DGL C++ graphbolt library at D:\\pycharm\\pyProject\\"
        "gittest\\venv\\Lib\\site-packages\\dgl\\graphbolt\\graphbolt_pytorch_2.5.1.dll",
        "dgl.torch-version-unsupported",
        "torch version",
    ),
    # Paddle 3.0 XPU wheel on a Kunlun R200
    (
        "https://github.com/PaddlePaddle/Paddle/issues/77491",
        "报错Compiled with WITH_XPU, but no XPU found in runtime\n"
        "PaddlePaddle版本：3.0.0rc1\nGPU：昆仑芯R200-8F",
        "paddle.xpu-wheel-wrong-kunlun-generation",
        "2.6",
    ),
    # hashcat's HIP backend on an Adrenalin driver without those HIPRTC functions
    (
        "https://github.com/hashcat/hashcat/issues/3428",
        "hashcat (v6.2.5) starting\nhiprtcAddNameExpression is missing from HIPRTC shared library.",
        "rocm.windows-driver-hiprtc-missing",
        "22.5.1",
    ),
    # hashcat 6 stopping at Mesa's OpenCL platform
    (
        "https://github.com/hashcat/hashcat/issues/2463",
        "$ hashcat -I\nhashcat (v6.0.0) starting...\nclGetDeviceIDs(): CL_DEVICE_NOT_FOUND",
        "opencl.icd-without-devices",
        "mesa-libOpenCL",
    ),
    # OptiX in an nvidia/cuda based image without the graphics capability
    (
        "https://github.com/NVIDIA/nvidia-docker/issues/1545",
        "Trying to run my application on the cloud I get OptiX error 7804 "
        "(OPTIX_ERROR_LIBRARY_NOT_FOUND)\nthey use nvidia cuda images as their base",
        "container.driver-libs-not-injected",
        "NVIDIA_DRIVER_CAPABILITIES",
    ),
    # rocBLAS on a Navi 33 card that ROCm does not list
    (
        "https://github.com/ROCm/legacy-rocm-build/issues/3840",
        "03:00.0 VGA compatible controller: Advanced Micro Devices, Inc. [AMD/ATI] Navi 33 "
        "[Radeon RX 7700S/7600/7600S/7600M XT/PRO W7600] (rev c0)\n"
        "ocBLAS error: Cannot read /home/mark/PycharmProjects/WSN-MA/venv/lib/python3.12/"
        "site-packages/torch/lib/rocblas/library/TensileLibrary.dat: Illegal seek",
        "rocm.gfx-unsupported",
        "HSA_OVERRIDE_GFX_VERSION=11.0.0",
    ),
    # Transformer Engine's FP8 check on an RTX 3090 (the thread's title line)
    (
        "https://github.com/NVIDIA/TransformerEngine/issues/1159",
        "AssertionError: Device compute capability 8.9 or higher required for FP8 execution.",
        "torch.fp8-needs-newer-gpu",
        "8.9",
    ),
    # TGI's flash models on a GTX 1080 Ti
    (
        "https://github.com/huggingface/text-generation-inference/issues/211",
        "I am encountering an issue where my GPU (gtx-1080 ti ) with CUDA capability 6.1 is not "
        "being supported by the docker build.\n"
        "2023-04-20T15:40:17.755793Z  WARN shard-manager: text_generation_launcher: Could not "
        "import Flash Attention enabled models",
        "flashattn.gpu-arch-unsupported",
        "7.5",
    ),
    # mmcv-full on Windows: the source build fails, the packaged wheel does not load
    (
        "https://github.com/open-mmlab/mmcv/issues/2355",
        "When I installed mmcv-full follow the installation instruction on windows in GPU version, "
        'I met the error "RuntimeError: Error compiling objects for extension". And I could not '
        "find a solution. Even when  I installed mmcv-full using packaged wheel, I met the error "
        '"ImportError: DLL load failed: .....".',
        "mmcv.prebuilt-wheel-mismatch",
        "mim install mmcv-full",
    ),
    # a ComfyUI node that only uses apex when it is there
    (
        "https://github.com/lldacing/ComfyUI_PuLID_Flux_ll/issues/24",
        "下好了模型放置在指定的目录，就是找不到。总是报错。安装那个apex老是失败，明明是安装成功了又验证不了。\n"
        "pytorch version: 2.6.0+cu124",
        "apex.cuda-ext-not-built",
        "pip uninstall -y apex",
    ),
    # an older onnxruntime.dll found before the one sherpa-onnx ships
    (
        "https://github.com/k2-fsa/sherpa-onnx/issues/2528",
        "The given version [17] is not supported, only version 1 to 10 is supported in this build.",
        "onnxruntime.old-runtime-library-loaded",
        "onnxruntime.dll",
    ),
    # Tabby built from source without the cuda cargo feature
    (
        "https://github.com/TabbyML/tabby/issues/1163",
        "target/debug/tabby  serve  --model TabbyML/StarCoder-1B --port 8181   --device cuda\n"
        "error: invalid value 'cuda' for '--device <DEVICE>'\n  [possible values: cpu]",
        "tabby.built-without-cuda-feature",
        "--features cuda",
    ),
    # coremltools' pure-Python wheel on Python 3.11
    (
        "https://github.com/apple/ml-stable-diffusion/issues/152",
        "python -m python_coreml_stable_diffusion.torch2coreml --convert-unet --convert-text-encoder\n"
        "but an error raised: BloWriter not loaded",
        "coremltools.no-native-libs-for-python",
        "Python version",
    ),
    # sherpa-onnx asked for CUDA on an Intel Mac
    (
        "https://github.com/k2-fsa/sherpa-onnx/issues/1435",
        "- 平台：intel芯片的macos\n"
        "/Users/runner/work/sherpa-onnx/sherpa-onnx/sherpa-onnx/csrc/session.cc:GetSessionOptionsImpl:170 "
        "Please compile with -DSHERPA_ONNX_ENABLE_GPU=ON. Available providers: "
        "CoreMLExecutionProvider, CPUExecutionProvider, . Fal",
        "macos.cuda-requested",
        "coreml",
    ),
    # ncnn's use_vulkan_compute with a CPU-only ncnn loaded
    (
        "https://github.com/triple-mu/ncnn-examples/issues/5",
        "I've successfully built ncnn vulkan and run your project correctly, But I noticed that the "
        "GPU is not being used when I set: yolov5.opt.use_vulkan_compute=true\n"
        "The speed is the same for setting that flag.",
        "ncnn.built-without-vulkan",
        "NCNN_VULKAN",
    ),
    # onnxruntime-gpu's CUDA 12 wheel beside torch cu130
    (
        "https://github.com/Tavris1/ComfyUI-Easy-Install/issues/94",
        "Since onnxruntime-gpu does not support cu130 we get the following error:\n"
        "UserWarning: DWPose: Onnxruntime not found or doesn't come with acceleration providers, "
        "switch to OpenCV with CPU device. DWPose might run very slow",
        "onnxruntime.cuda-deps-mismatch",
        "cu128",
    ),
    # RKLLM on an RK3588 whose rknpu driver is 0.8.2
    (
        "https://github.com/airockchip/rknn-llm/issues/187",
        "W rkllm: Warning: Your rknpu driver version is too low, please upgrade to 0.9.7.\n"
        "I rkllm: rkllm-runtime version: 1.1.4, rknpu driver version: 0.8.2, platform: RK3588",
        "rknn.npu-driver-too-old",
        "0.9.7",
    ),
    # a model converted with rknn-toolkit2 1.5.2 on a 1.5.0 runtime
    (
        "https://github.com/leafqycc/rknn-cpp-Multithreading/issues/19",
        "E RKNN: [08:56:48.563] Invalid RKNN model version 6\n"
        "E RKNN: [08:56:48.563] rknn_init, load model failed!",
        "rknn.runtime-older-than-model",
        "rknn-toolkit2",
    ),
    # a BM1684X bmodel on a BM1684 device
    (
        "https://github.com/sophgo/sophon-demo/issues/41",
        "[BMRT][load_bmodel:1019] WRONG:Error: runtime arch[BM1684] is not the same with bmodel "
        "arch[BM1684X]",
        "sophgo.bmodel-arch-mismatch",
        "BM1684",
    ),
    # JAX's default preallocation seen as "about 70% of every GPU"
    (
        "https://github.com/ShaneFlandermeyer/bmpc-jax/issues/2",
        "When running bmpc-jax, I noticed that the training process consistently uses around 70% "
        "of the GPU memory, regardless of the total available memory.",
        "jax.gpu-memory-preallocated",
        "XLA_PYTHON_CLIENT_MEM_FRACTION",
    ),
    # DALI on Windows 10
    (
        "https://github.com/NVIDIA/DALI/issues/4690",
        "I discovered that the NVIDIA DALI toolkit is only available for linux OS. "
        "Is there a way to use my GPU locally using the NVIDIA DALI toolkit on Windows 10?",
        "python.no-matching-wheel",
        "WSL2",
    ),
    # index-tts's BigVGAN kernel, built on first use, without a CUDA toolkit
    (
        "https://github.com/index-tts/index-tts/issues/176",
        "torch: 2.5.1\ncuda: 12.4\n"
        ">> Failed to load custom CUDA kernel for BigVGAN. Falling back to torch.",
        "torch.extension-cuda-toolkit-missing",
        "cuda-toolkit",
    ),
    # ONNX Runtime built against a QNN SDK its release does not support
    (
        "https://github.com/microsoft/onnxruntime-inference-examples/issues/397",
        "ONNX VERSION: 1.16.3\nQNN SDK: 2.20.0.240223\n"
        'then i run my project on android, i get the error "QNN execution provider is not '
        'supported in this build".',
        "onnxruntime.qnn-sdk-version-mismatch",
        "QNN SDK",
    ),
    # Ryzen AI's Vitis AI provider replaced by a plain onnxruntime: no onnxruntime-gpu advice
    (
        "https://github.com/amd/ryzen-ai-documentation/issues/59",
        "`python predict.py --ep ipu`\n"
        "UserWarning: Specified provider 'VitisAIExecutionProvider' is not in available provider "
        "names.Available providers: 'CPUExecutionProvider'",
        "onnxruntime.cpu-package-shadows-gpu",
        "onnxruntime_vitisai",
    ),
]

test_canonical_lines_reach_their_cause = source_knob_test(ROWS)

# (thread, text, tempting finding id): lines of other causes
LOOKALIKES = [
    # a kind node masks /proc/driver/nvidia: no driver change, no reboot
    (
        "https://github.com/NVIDIA/nvidia-container-toolkit/issues/198",
        "nvidia-container-cli: mount error: stat failed: /proc/driver/nvidia/capabilities: "
        "no such file or directory: unknown",
        "nvidia.driver-library-mismatch",
    ),
]

test_lookalikes_stay_clear = source_lookalike_test(LOOKALIKES, may_be_empty=True)

# (training case, finding id, knob, thread)
CASES = [
    (
        "en-16201-yolov8-onnx-cpp-cuda-ep-crash.txt",
        "onnxruntime.binary-built-without-cuda-ep",
        "onnxruntime-win-x64-gpu",
        "https://github.com/FourierMourier/yolov8-onnx-cpp/issues/1",
    ),
    (
        "en-16401-mount-failed-params-registry-reboot.txt",
        "nvidia.driver-library-mismatch",
        "reboot",
        "https://github.com/NVIDIA/nvidia-docker/issues/1068",
    ),
    (
        "en-16402-kernel-updated-no-reboot.txt",
        "nvidia.driver-library-mismatch",
        "reboot",
        "https://github.com/nitishsrivastava/deepnet/issues/28",
    ),
    (
        "zh-16103-cffont-dcn-importerror-torch-upgraded.txt",
        "torch.extension-abi-mismatch",
        "recompile",
        "https://github.com/wangchi95/CF-Font/issues/25",
    ),
    (
        "en-16803-relion-rtx5060-blush-torch.txt",
        "torch.gpu-too-new-for-build",
        "cu128",
        "https://github.com/3dem/relion/issues/1275",
    ),
    (
        "en-1142-organseg-gtx1660-6gb-oom-batch1.txt",
        "memory.workload-does-not-fit",
        "larger memory",
        "https://github.com/twni2016/OrganSegRSTN_PyTorch/issues/3",
    ),
    (
        "en-17100-te-fp8-rtx3090.txt",
        "torch.fp8-needs-newer-gpu",
        "8.9",
        "https://github.com/NVIDIA/TransformerEngine/issues/1159",
    ),
]

test_development_cases_reach_their_cause = training_case_test(CASES, keywords=True)


def test_a_stated_compute_capability_version_names_a_fermi_gpu() -> None:
    """ "CUDA Compute Capability version: 2.1" (waifu2x-caffe#215's line) is the GPU's compute
    capability; a report of that GPU failing gets the CUDA 8 builds' answer."""
    from envdoctor.diagnosis.pipeline import active_matrices
    from envdoctor.ingest import ingest_text
    from envdoctor.triage_engine.facts import Facts

    line = "(CUDA Compute Capability version: 2.1)"
    assert Facts(ingest_text(line), active_matrices()).get("gpu.sm") == 21
    report = f"waifu2x-caffe does not work on my GT 525M {line}. Which version can I use?"
    found = triage_text(report).findings
    assert found and found[0].id == "cuda.gpu-too-old-for-binary", [f.id for f in found]
    assert "CUDA 8" in " ".join(fix.summary for fix in found[0].fixes)


def test_a_suggestion_offers_a_package_specific_fix_only_when_the_paste_names_it() -> None:
    """A case-base suggestion matched no line: the fixes an entry writes for what its match
    captures (`when = "m.ext ~ mamba"`) stay out unless the paste names that package."""
    from envdoctor.diagnosis.pipeline import active_matrices
    from envdoctor.ingest import ingest_text
    from envdoctor.triage_engine.casebase import _without_capture_fixes
    from envdoctor.triage_engine.facts import Facts
    from envdoctor.triage_engine.loader import by_id

    def mamba_fixes(text: str) -> int:
        facts = Facts(ingest_text(text), active_matrices())
        kept = [_without_capture_fixes(s, facts) for s in by_id()["torch.extension-abi-mismatch"]]
        return sum("mamba-ssm" in f.summary for s in kept for f in s.fixes)

    assert mamba_fixes("xformers wants torch 2.1.0, I have torch 2.0.1") == 0
    assert mamba_fixes("mamba_ssm import fails after I upgraded torch") > 0


def test_a_kepler_gpu_not_used_is_the_gpu_too_old_not_a_cpu_wheel() -> None:
    """A report that torch does not use a Kepler GPU (sm_30) leads with the GPU being older than
    every current build, whose fixes install no official CUDA wheel (none has its kernels, and
    its last driver branch runs no CUDA 12 build); a Turing GPU keeps the CPU-wheel cause."""
    kepler = triage_text("torch.cuda.is_available() returns False on my GTX 760").findings
    assert kepler and kepler[0].id == "torch.gpu-too-old-for-build", [f.id for f in kepler]
    commands = [c for fix in kepler[0].fixes for c in fix.commands]
    assert not any("download.pytorch.org/whl/cu12" in c for c in commands), commands
    turing = triage_text("torch.cuda.is_available() returns False on my RTX 2080").findings
    assert turing and turing[0].id == "torch.cpu-build-on-gpu-host", [f.id for f in turing]


def test_rkllm_matmul_failure_is_the_npu_driver_only_below_0_9() -> None:
    """RKLLM's matmul error (rknn-llm#413's line) is put on the rknpu driver when the report
    states a 0.8.x driver, and not when the driver it states is 0.9.8."""
    line = "在推理阶段报错E rkllm: matmul(w8a8) run failed\n"
    old = triage_text(line + "NPU驱动版本为0.8.2，是版本过低的原因吗").findings
    assert old and old[0].id == "rknn.npu-driver-too-old", [f.id for f in old]
    new = triage_text(line + "NPU驱动版本为0.9.8").findings
    assert all(f.id != "rknn.npu-driver-too-old" for f in new), [f.id for f in new]


def test_a_missing_vendor_provider_is_not_told_to_install_onnxruntime_gpu() -> None:
    """VitisAI / DirectML / OpenVINO / QNN providers come in their own packages: a report that one
    is missing gets that package, never the CUDA package's advice."""
    for ep, package in (("Dml", "onnxruntime-directml"), ("OpenVINO", "onnxruntime-openvino")):
        text = (
            f"UserWarning: Specified provider '{ep}ExecutionProvider' is not in available "
            "provider names.Available providers: 'CPUExecutionProvider'"
        )
        found = triage_text(text).findings
        assert found and found[0].id == "onnxruntime.cpu-package-shadows-gpu", ep
        commands = " ".join(c for fix in found[0].fixes for c in fix.commands)
        assert package in commands and "install onnxruntime-gpu" not in commands, commands
