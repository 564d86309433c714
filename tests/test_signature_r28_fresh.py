"""Round 28's changes: the causes the two fresh development samples (tests/triage_corpus/train/)
met that envdoctor did not read, the facts it did not take from prose, and a fix the verifier
dropped on Windows. A report reaches its confirmed cause with a fix naming the knob the
confirmed fix turned; look-alikes stay clear."""

from __future__ import annotations

from pathlib import Path

from envdoctor.triage_engine import triage_text
from tests.triage_lines import source_knob_test, source_lookalike_test, training_case_test

# (thread, text, finding id, knob): canonical lines verbatim from the threads named
ROWS = [
    # llamafile could not build its NVIDIA module with Ubuntu's CUDA 11.5
    (
        "https://github.com/mozilla-ai/llamafile/issues/273",
        'When I specify --gpu nvidia, I get "fatal error: support for --gpu nvidia was explicitly '
        "requested, but it wasn't available\".",
        "app.llamacpp.built-against-other-cuda",
        "cuda-toolkit",
    ),
    # GPT4All's Vulkan backend on a Colab T4
    (
        "https://github.com/nomic-ai/gpt4all/issues/1429",
        'raise ValueError("Unable to retrieve list of all GPU devices")\n'
        "ValueError: Unable to retrieve list of all GPU devices",
        "vulkan.no-driver-for-gpu",
        "vulkaninfo",
    ),
    # gaussian-splatting's SIBR viewer on a GTX 1080 Ti
    (
        "https://github.com/graphdeco-inria/gaussian-splatting/issues/175",
        'I encountered an error message that stated, "Sorry, need at least compute capability '
        '7.0+!" My current GPU is an NVIDIA GeForce GTX 1080 Ti',
        "cuda.gpu-too-old-for-binary",
        "CUDA_ARCHITECTURES",
    ),
    # mlx-swift built with `swift build`: no metallib
    (
        "https://github.com/mzbac/flux.swift.cli/issues/4",
        "MLX error: Failed to load the default metallib. library not found library not found "
        "library not found",
        "apple.mlx-metallib-missing",
        "xcodebuild",
    ),
    # mlx 0.30+ on macOS 15
    (
        "https://github.com/ml-explore/mlx/issues/4389",
        "RuntimeError: [metal::Device] Unable to load kernel v_copyint32float32",
        "apple.mlx-metallib-needs-newer-macos",
        "mlx==0.29.4",
    ),
    # the CPU onnxruntime-genai loaded instead of the DirectML one
    (
        "https://github.com/microsoft/onnxruntime-genai/issues/395",
        "RuntimeError: Unknown provider type: dml_\nVersion: onnxruntime-genai-directml 0.2.0rc4",
        "onnxruntime.cpu-package-shadows-gpu",
        "onnxruntime-genai-directml",
    ),
    # the PyG wheel page URL with its placeholder left in
    (
        "https://github.com/Linketic/TC-Light/issues/2",
        "After running `pip install torch torchvision --index-url "
        "https://download.pytorch.org/whl/cu121`, I see the Pytorch version at 2.5.1\n"
        "It still fails even when I try `pip install torch-scatter -f "
        "https://data.pyg.org/whl/torch-2.5.1+${121}.html`",
        "python.no-matching-wheel",
        "torch-2.5.1+cu121.html",
    ),
    # a Jetson AGX Xavier with a torch built without its architecture
    (
        "https://github.com/dusty-nv/jetson-inference/issues/812",
        "Why does the following error occur when training the model with AGX xavier:\n"
        "RuntimeError: CUDA error: no kernel image is available for execution on the device\n"
        "pytorch 1.6 + torchvision 0.7 +cuda10.2",
        "jetson.wheel-jetpack-mismatch",
        "TORCH_CUDA_ARCH_LIST",
    ),
]

test_canonical_lines_reach_their_cause = source_knob_test(ROWS)

LOOKALIKES = [
    # a PyG wheel page with its version filled in is no placeholder (lines of the threads named)
    (
        "https://github.com/rusty1s/pytorch_scatter/issues/259",
        "command: pip install --no-index torch-scatter -f https://data.pyg.org/whl/torch-1.9.1+cu111.html\n"
        "OSError: undefined symbol: _ZNK2at6Tensor6narrowElll",
        "python.no-matching-wheel",
    ),
    # "no kernel image" on a desktop GPU is not the Jetson's wheel
    (
        "https://github.com/nv-tlabs/SCube/issues/7",
        "80G A800 server: RuntimeError: CUDA error: no kernel image is available for execution "
        "on the device",
        "jetson.wheel-jetpack-mismatch",
    ),
    # an onnxruntime provider other than DirectML is not the GenAI DirectML package
    (
        "https://github.com/microsoft/onnxruntime-genai/issues/395",
        "RuntimeError: Unknown provider type: cuda",
        "onnxruntime.cpu-package-shadows-gpu",
    ),
]

test_lookalikes_stay_clear = source_lookalike_test(LOOKALIKES, may_be_empty=True)

# (training case, finding id, knob, thread)
CASES = [
    (
        "en-14005-gpustack-llama-box-avx1-only-cpu.txt",
        "app.llamacpp.cpu-instruction-unsupported",
        "GGML_AVX2=OFF",
        "https://github.com/gpustack/gpustack/issues/541",
    ),
    (
        "en-14401-ghelper-eco-mode-disconnects-dgpu.txt",
        "windows.laptop-dgpu-switched-off",
        "Eco",
        "https://github.com/seerge/g-helper/issues/1183",
    ),
    (
        "en-14402-ghelper-usbc-keeps-dgpu-disabled.txt",
        "windows.laptop-dgpu-switched-off",
        "Keep dGPU disabled on USB-C",
        "https://github.com/seerge/g-helper/issues/3022",
    ),
    (
        "en-14406-ghelper-gpu-power-limited-on-battery.txt",
        "platform.laptop-power-limited",
        "AC power",
        "https://github.com/seerge/g-helper/issues/5244",
    ),
    (
        "en-14403-suseprime-unconfigured-blacklists-nvidia.txt",
        "platform.hybrid-igpu-mode",
        "prime-select offload",
        "https://github.com/openSUSE/SUSEPrime/issues/79",
    ),
    (
        "zh-14110-whisperjav-5090-int8-float16.txt",
        "ctranslate2.int8-unsupported-on-blackwell",
        "compute_type float16",
        "https://github.com/meizhong986/WhisperJAV/issues/113",
    ),
    (
        "en-14803-trtllm-windows-import-tensorrt-missing-cudnn.txt",
        "cuda.cudnn-missing",
        "cudnn64_8.dll",
        "https://github.com/NVIDIA/TensorRT-LLM/issues/1446",
    ),
    (
        "en-14900-snakemake-slurm-ntasks-per-gpu.txt",
        "cluster.slurm-per-task-gpu-binding",
        "--ntasks-per-gpu",
        "https://github.com/snakemake/snakemake-executor-plugin-slurm/issues/316",
    ),
    (
        "en-15001-rvc1006nvidia-rtx5090-not-working.txt",
        "torch.gpu-too-new-for-build",
        "cu128",
        "https://github.com/RVC-Project/Retrieval-based-Voice-Conversion-WebUI/issues/2564",
    ),
    (
        "en-15004-easydiffusion-rtx5060ti-no-compatible-gpu-torchruntime.txt",
        "torch.gpu-too-new-for-build",
        "cu128",
        "https://github.com/easydiffusion/easydiffusion/issues/1950",
    ),
    (
        "zh-15000-rvc-rtx5090-torch-upgrade-deps-cu128.txt",
        "torch.gpu-too-new-for-build",
        "cu128",
        "https://github.com/RVC-Project/Retrieval-based-Voice-Conversion-WebUI/issues/2718",
    ),
    (
        "en-15107-keras-allow-growth-parallel-processes.txt",
        "tensorflow.gpu-memory-preallocated",
        "allow_growth",
        "https://github.com/keras-team/keras/issues/4161",
    ),
    # "pytorch: Version: 2.0.1" read as the installed torch: the chooser keeps that release
    (
        "en-15010-rvc-mobile-rtx3060-cpu-torch-reinstall-cu118-upgrade.txt",
        "torch.cpu-build-on-gpu-host",
        "torch==2.0.1 --index-url https://download.pytorch.org/whl/cu118",
        "https://github.com/RVC-Project/Retrieval-based-Voice-Conversion-WebUI/issues/618",
    ),
    # a Windows PC: the power-cap fix's `sudo nvidia-smi` is an administrator prompt's line
    (
        "en-14905-excavator-hard-restart-psu.txt",
        "hardware.power-insufficient",
        "nvidia-smi -pl",
        "https://github.com/nicehash/excavator/issues/240",
    ),
]

test_development_cases_reach_their_cause = training_case_test(CASES, keywords=True)


def test_pip_show_and_issue_form_torch_versions_are_read() -> None:
    """`pip show torch`'s Name / Version lines (the fields of the wheel's METADATA, here a real
    torch 2.5.1 one) and "pytorch: Version: 2.0.1" (RVC#618's line) name the installed torch; a
    torchvision block does not."""
    from envdoctor.diagnosis.pipeline import active_matrices
    from envdoctor.ingest import ingest_text
    from envdoctor.triage_engine.facts import Facts

    def torch_version(text: str) -> object:
        return Facts(ingest_text(text), active_matrices()).get("torch.version")

    metadata = Path(__file__).parent / "fixtures/cuda/wheels/torch-2.5.1.dist-info/METADATA"
    fields = metadata.read_text(encoding="utf-8").splitlines()[1:3]  # Name: torch, Version: 2.5.1
    assert fields == ["Name: torch", "Version: 2.5.1"]
    shown = "\n".join(["$ pip show torch", *fields, "torch.cuda.is_available() False"])
    assert torch_version(shown) == "2.5.1"
    assert torch_version("pytorch: Version: 2.0.1\nstill cant load the gpu") == "2.0.1"
    assert torch_version("Name: torchvision\nVersion: 0.15.2") is None


def test_a_windows_sudo_nvidia_smi_fix_is_kept_for_an_administrator_prompt() -> None:
    """On Windows the power-cap fix loses `sudo` and says where to run nvidia-smi instead of
    being dropped; on Linux it keeps `sudo`."""
    windows = "I'm on Windows 10 Pro 64bit\nmy PC shut down instantly with a hard restart\n700W PSU"
    linux = "Ubuntu 22.04\nmy PC shut down instantly with a hard restart\n700W PSU"
    for text, sudo in ((windows, False), (linux, True)):
        found = [f for f in triage_text(text).findings if f.id == "hardware.power-insufficient"]
        assert found and found[0].fixes, (text, [f.id for f in triage_text(text).findings])
        commands = [c for fix in found[0].fixes for c in fix.commands]
        assert any("nvidia-smi -pl" in c for c in commands), commands
        assert any(c.startswith("sudo nvidia-smi") for c in commands) is sudo, commands
        notes = [a for fix in found[0].fixes for a in fix.assumptions]
        assert any("administrator prompt" in a for a in notes) is not sudo, notes


def test_a_cloud_instance_type_or_a_colab_t4_names_the_gpu() -> None:
    """An instance type names its GPU (ml.p2.xlarge: a K80, from the cloud_gpu_instances table);
    "Colab T4" names a T4; a file name that looks like an instance type names none."""
    from envdoctor.diagnosis.pipeline import active_matrices
    from envdoctor.ingest import ingest_text
    from envdoctor.triage_engine.facts import Facts

    def gpu(text: str) -> tuple[object, object]:
        facts = Facts(ingest_text(text), active_matrices())
        return facts.get("gpu.name"), facts.get("gpu.sm")

    # the SageMaker thread's own lines (onnxruntime#17670, a training case)
    sagemaker = (
        "ml.p2.xlarge instance\nin aws sagemaker\nCUDA error cudaErrorNoKernelImageForDevice"
    )
    assert gpu(sagemaker) == ("Tesla K80", 37)
    assert gpu("a2-highgpu-1g VM: torch.cuda.is_available() False") == ("NVIDIA A100", 80)
    assert gpu("free colab t4: torch.cuda.is_available() False") == ("Tesla T4", 75)
    assert gpu("RTX 3090 box, then g4dn.xlarge: CUDA out of memory")[0] == "NVIDIA GeForce RTX 3090"
    assert gpu("wrote results to p3.txt, a large file: CUDA out of memory") == (None, None)


def test_wheel_index_placeholders_take_the_installed_torch() -> None:
    """A written fix's OpenMMLab / PyG index URL is filled in from the installed torch and its CUDA
    build when the paste gives both (the command then runs as written); a CPU build fills none."""
    from envdoctor.diagnosis.pipeline import active_matrices
    from envdoctor.ingest import ingest_text
    from envdoctor.triage_engine.evaluate import installed_torch_tags
    from envdoctor.triage_engine.facts import Facts

    mmcv = (
        "pip install mmcv -f https://download.openmmlab.com/mmcv/dist/<cuXYZ>/torch<X.Y>/index.html"
    )
    pyg = "pip install torch-scatter -f https://data.pyg.org/whl/torch-<torch.__version__>.html"
    cuda = Facts(ingest_text("torch 2.1.2+cu121 installed"), active_matrices())
    assert installed_torch_tags(mmcv, cuda).endswith("dist/cu121/torch2.1/index.html")
    assert installed_torch_tags(pyg, cuda).endswith("whl/torch-2.1.0+cu121.html")
    cpu = Facts(ingest_text("torch 2.1.2+cpu installed"), active_matrices())
    assert installed_torch_tags(mmcv, cpu) == mmcv
