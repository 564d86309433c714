"""Round 26's changes: the causes the fresh development sample (tests/triage_corpus/train/) met that
envdoctor did not read. A report reaches its confirmed cause with a fix naming the knob the
confirmed fix turned; look-alikes stay clear."""

from __future__ import annotations

import re

from envdoctor.triage_engine import triage_text
from tests.triage_lines import source_knob_test, source_lookalike_test, training_case_test

# (thread, text, finding id, knob): canonical lines verbatim from the threads named
ROWS = [
    # DGL's CPU package: its own message names the fix
    (
        "https://github.com/dmlc/dgl/issues/5427",
        "dgl._ffi.base.DGLError: [14:00:04] /opt/dgl/src/runtime/c_runtime_api.cc:82: Check "
        "failed: allow_missing: Device API cuda is not enabled. Please install the cuda version "
        "of dgl.",
        "dgl.cpu-package-installed",
        "data.dgl.ai",
    ),
    # Microsoft's STL refusing an older nvcc
    (
        "https://github.com/peylnog/ContinuousSR/issues/4",
        'But I installed gsplat with error: static assertion failed with "error STL1002: '
        'Unexpected compiler version, expected CUDA 12.4 or newer."',
        "cuda.host-compiler-unsupported",
        "Visual Studio 2019 Build Tools",
    ),
    # an ncnn Vulkan upscaler out of video memory (the 4 GB card's log, verbatim)
    (
        "https://github.com/nihui/waifu2x-ncnn-vulkan/issues/92",
        "[0 GeForce GTX 1050 Ti]  fp16p=1  fp16s=1  fp16a=0  int8s=1  int8a=1\n"
        "vkWaitForFences failed -4\nvkQueueSubmit failed -4\nvkQueueSubmit failed -4\n"
        "vkAllocateMemory failed -2",
        "memory.workload-does-not-fit",
        "-t 100",
    ),
    # peer access refused, as the message is often pasted (without its final s)
    (
        "https://github.com/efeslab/Nanoflow/issues/22",
        "raise the error `peer access is not supported between these two device`",
        "nccl.p2p-broken-acs-iommu",
        "NCCL_P2P_DISABLE",
    ),
]

test_canonical_lines_reach_their_cause = source_knob_test(ROWS)

LOOKALIKES = [
    # CUDA's unknown error after a Linux suspend is still the nvidia_uvm module's
    (
        "https://download.nvidia.com/XFree86/Linux-x86_64/550.54.14/README/powermanagement.html",
        "RuntimeError: CUDA error: unknown error\nthis started after resume from suspend, "
        "ubuntu 22.04",
        "windows.nvcuda-missing",
    ),
    # Podman that never had a CDI spec is not a stale one: no driver update in the report
    (
        "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/cdi-support.html",
        "I installed podman today and my containers can't use the GPU: podman run --device "
        "nvidia.com/gpu=all ubuntu nvidia-smi fails",
        "container.cdi-spec-stale",
    ),
    # a Jetson without ONNX Runtime's GPU build keeps its own cause
    (
        "https://github.com/pykeio/ort/issues/456",
        "Jetson Orin, JetPack 6: CUDA execution provider is not enabled in this build.",
        "onnxruntime.binary-built-without-cuda-ep",
    ),
]

test_lookalikes_stay_clear = source_lookalike_test(LOOKALIKES)

# (training case, finding id, knob, thread)
CASES = [
    (
        "en-8205-nanoflow-3090-peer-access-unsupported.txt",
        "nccl.p2p-broken-acs-iommu",
        "p2p",
        "https://github.com/efeslab/Nanoflow/issues/22",
    ),
    (
        "en-8301-darknet-cuda-unknown-error-driver-stopped.txt",
        "windows.nvcuda-missing",
        "driver",
        "https://github.com/AlexeyAB/darknet/issues/1070",
    ),
    (
        "en-8306-waifu2x-ncnn-vulkan-driver-crash-tile-size.txt",
        "memory.workload-does-not-fit",
        "tile size",
        "https://github.com/nihui/waifu2x-ncnn-vulkan/issues/92",
    ),
    (
        "en-8409-zluda-pytorch-slow-first-run-compile.txt",
        "rocm.zluda-first-run-compile",
        "ComputeCache",
        "https://github.com/lshqqytiger/ZLUDA/issues/80",
    ),
    (
        "en-8500-ctk-egl-wayland-stale-cdi.txt",
        "container.cdi-spec-stale",
        "cdi generate",
        "https://github.com/NVIDIA/nvidia-container-toolkit/issues/692",
    ),
    (
        "en-8501-podman-driver-update-stale-cdi.txt",
        "container.cdi-spec-stale",
        "nvidia-cdi-refresh",
        "https://github.com/podman-container-tools/podman/issues/26233",
    ),
    (
        "en-8504-lxd-gpu-passthrough-vm-hangs-mmio.txt",
        "vm.mmio-space-too-small",
        "X-PciMmio64Mb",
        "https://github.com/canonical/lxd/issues/14380",
    ),
    (
        "en-8602-triton-windows-torch23-triton3.txt",
        "torch.triton-missing",
        "triton-windows",
        "https://github.com/woct0rdho/triton-windows/issues/89",
    ),
    (
        "en-8607-matanyone-numba-numpy22.txt",
        "numba.numpy-too-new",
        "downgrade numpy",
        "https://github.com/KytraScript/ComfyUI_MatAnyone_Kytra/issues/3",
    ),
    (
        "en-8705-jan-rx6700xt-vulkan-backend.txt",
        "app.llamacpp.backend-mismatch",
        "win-vulkan-x64",
        "https://github.com/janhq/jan/issues/7341",
    ),
    (
        "en-8706-jan-cuda-toolkit-missing.txt",
        "app.llamacpp.cuda-runtime-missing",
        "CUDA toolkit",
        "https://github.com/janhq/jan/issues/3355",
    ),
    (
        "en-8707-llama-cpp-python-vulkan-devel.txt",
        "app.llamacpp.vulkan-sdk-missing",
        "vulkan-devel",
        "https://github.com/abetlen/llama-cpp-python/issues/1927",
    ),
    (
        "en-8709-searge-llm-amd9070-llamacpp-vulkan.txt",
        "app.llamacpp.cpu-build-on-gpu-host",
        "GGML_VULKAN",
        "https://github.com/SeargeDP/ComfyUI_Searge_LLM/issues/53",
    ),
    (
        "zh-8204-llamafactory-autogptq-libcudart12.txt",
        "autogptq.cuda-ext-not-installed",
        "auto-gptq",
        "https://github.com/hiyouga/LlamaFactory/issues/3866",
    ),
    (
        "en-8408-sdnext-zluda-rocblas-rx5700-wrong-rocm.txt",
        "rocm.no-binary-for-gpu",
        "HIP SDK",
        "https://github.com/vladmandic/sdnext/issues/3485",
    ),
    (
        "en-8708-llspy-cudatoolkit-driver-older.txt",
        "cuda.toolkit-newer-than-driver",
        "driver",
        "https://github.com/tlambert03/LLSpy/issues/30",
    ),
    (
        "en-8807-unsloth-kaggle-disk-full-merge.txt",
        "system.disk-full",
        "disk space",
        "https://github.com/unslothai/unsloth/issues/534",
    ),
    (
        "en-8901-qwen2vl-vllm-flashattn-2080ti.txt",
        "flashattn.gpu-arch-unsupported",
        "VLLM_ATTENTION_BACKEND=XFORMERS",
        "https://github.com/QwenLM/Qwen3-VL/issues/67",
    ),
    (
        "en-8910-jde-mot-ffmpeg-not-on-path.txt",
        "app.ffmpeg-not-found",
        "PATH",
        "https://github.com/Zhongdao/Towards-Realtime-MOT/issues/135",
    ),
    (
        "en-9000-openmm-quadro-k2000-cuda11.txt",
        "cuda.gpu-too-old-for-binary",
        "CUDA 10.2",
        "https://github.com/openmm/openmm/issues/3756",
    ),
    (
        "en-9004-plotoptix-sm50-maxwell.txt",
        "cuda.gpu-too-old-for-binary",
        "sm_50",
        "https://github.com/rnd-team-dev/plotoptix/issues/56",
    ),
    (
        "en-9005-cgyro-perlmutter-srun-gpus.txt",
        "cluster.no-gpu-allocated",
        "--gpus",
        "https://github.com/gafusion/gacode/issues/363",
    ),
    (
        "en-9012-colmap-siftgpu-glsl-headless.txt",
        "platform.headless-no-display",
        "CUDA",
        "https://github.com/colmap/colmap/issues/678",
    ),
    (
        "en-9018-anomalib-cpu-torch.txt",
        "torch.cpu-build-on-gpu-host",
        "download.pytorch.org/whl/cu",
        "https://github.com/open-edge-platform/anomalib/issues/2068",
    ),
    (
        "en-9104-triton-windows-llamafactory-unsloth-msvc-sdk.txt",
        "torch.triton-no-c-compiler",
        "Windows SDK",
        "https://github.com/woct0rdho/triton-windows/issues/78",
    ),
    (
        "en-9107-chameleon-v100-triton-bf16-sm80.txt",
        "fit.dtype-unsupported",
        "Ampere",
        "https://github.com/facebookresearch/chameleon/issues/39",
    ),
    (
        "en-9204-rembg-onnxruntime-cpu-shadows-gpu.txt",
        "onnxruntime.cpu-package-shadows-gpu",
        "onnxruntime-gpu",
        "https://github.com/danielgatis/rembg/issues/600",
    ),
    (
        "en-9208-agent-cli-ctranslate2-blackwell-int8.txt",
        "ctranslate2.int8-unsupported-on-blackwell",
        "ctranslate2>=4.6.2",
        "https://github.com/basnijholt/agent-cli/issues/467",
    ),
    (
        "zh-8804-paddleocr-windows-multigpu-nccl.txt",
        "nccl.windows-no-nccl",
        "Linux",
        "https://github.com/PaddlePaddle/PaddleOCR/issues/8427",
    ),
    (
        "zh-8911-chatglm2-int4-tdm-gcc-no-openmp.txt",
        "chatglm.quant-kernels-unavailable",
        "openmp",
        "https://github.com/zai-org/ChatGLM2-6B/issues/112",
    ),
    (
        "en-9106-bisenet-ddp-tcp-address-taken.txt",
        "nccl.master-port-in-use",
        "master_port",
        "https://github.com/CoinCheung/BiSeNet/issues/19",
    ),
    (
        "en-9511-genesis-libcuda-so-not-found-symlink.txt",
        "nvidia.unversioned-driver-link-missing",
        "ln -s",
        "https://github.com/Genesis-Embodied-AI/genesis-world/issues/400",
    ),
    (
        "en-9604-amdgpu-forge-9070xt-rocblas-dll-path.txt",
        "rocm.hip-sdk-not-on-path",
        "HIP_PATH",
        "https://github.com/lshqqytiger/stable-diffusion-webui-amdgpu-forge/issues/123",
    ),
    (
        "en-9605-zluda-a1111-nvrtc-dll-stale-rocm-path.txt",
        "rocm.hip-sdk-not-on-path",
        "PATH",
        "https://github.com/CS1o/Stable-Diffusion-Info/issues/10",
    ),
    (
        "en-9611-pinokio-conda-libmamba-spinner.txt",
        "conda.libmamba-solver-plugin-mismatch",
        "--solver=classic",
        "https://github.com/pinokiocomputer/pinokio/issues/995",
    ),
    (
        "en-9901-ort-rs-system32-onnxruntime-1-10.txt",
        "onnxruntime.old-runtime-library-loaded",
        "ORT_DYLIB_PATH",
        "https://github.com/pykeio/ort/issues/141",
    ),
    (
        "en-9902-ort-rs-pkg-config-old-onnxruntime.txt",
        "onnxruntime.old-runtime-library-loaded",
        "pkg-config",
        "https://github.com/pykeio/ort/issues/229",
    ),
    (
        "en-9904-ort-rs-aarch64-no-cuda-binaries.txt",
        "onnxruntime.binary-built-without-cuda-ep",
        "--use_cuda",
        "https://github.com/pykeio/ort/issues/456",
    ),
    (
        "en-9905-onnxruntime-libs-static-cpu-only.txt",
        "onnxruntime.binary-built-without-cuda-ep",
        "onnxruntime-linux-x64-gpu",
        "https://github.com/csukuangfj/onnxruntime-libs/issues/15",
    ),
    (
        "zh-10103-bitsandbytes-cuda102-int8.txt",
        "bitsandbytes.cuda-setup-failed",
        "CUDA 11",
        "https://github.com/wellinxu/LLM_Custome/issues/2",
    ),
]

test_development_cases_reach_their_cause = training_case_test(CASES, keywords=True)


def test_the_llama_cpp_vulkan_rebuild_is_for_amd_and_the_cuda_one_for_nvidia() -> None:
    """llama-cpp-python not using the GPU: an NVIDIA card is told to rebuild with CUDA, a Radeon
    with Vulkan, and neither gets the other's command first."""

    def first_fix(text: str) -> str:
        hit = [
            f for f in triage_text(text).findings if f.id == "app.llamacpp.cpu-build-on-gpu-host"
        ]
        assert hit, text
        return hit[0].fixes[0].summary

    assert "GGML_CUDA" in first_fix(
        "llama-cpp-python is not using my GPU, it runs on the CPU. RTX 3060"
    )
    assert "GGML_VULKAN" in first_fix(
        "llama-cpp-python is not using my GPU, it runs on the CPU. AMD Radeon RX 7800 XT"
    )


def _fix_summaries(text: str, finding_id: str) -> list[str]:
    """The fix summaries of `finding_id` when triage ranks it in the top 3 of `text`, else []."""
    hit = [f for f in triage_text(text).findings[:3] if f.id == finding_id]
    return [fix.summary for fix in hit[0].fixes] if hit else []


def test_the_tile_size_fix_is_for_the_vulkan_upscalers_only() -> None:
    """torch's CUDA out of memory is not told to pass an ncnn tile size; an ncnn upscaler is."""
    torch_oom = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 4.00 GiB total capacity)"
    for finding_id in ("memory.workload-does-not-fit", "memory.out-of-memory"):
        assert not any("-t 100" in s for s in _fix_summaries(torch_oom, finding_id))
    ncnn = "waifu2x-ncnn-vulkan.exe -i a.jpg -o b.png\nvkAllocateMemory failed -2"
    assert "-t 100" in _fix_summaries(ncnn, "memory.workload-does-not-fit")[0]


def test_esxi_keeps_its_own_mmio_fix_and_qemu_gets_the_ovmf_window() -> None:
    """An ESXi VM that does not power on gets ESXi's 64-bit MMIO settings first, not QEMU's OVMF
    option; a QEMU / LXD VM that hangs with the GPU passed through gets the OVMF window."""
    esxi = _fix_summaries(
        "ESXi 8: the VM with the passthrough A40 does not power on: Module 'DevicePowerOn' power on failed.",
        "vm.mmio-space-too-small",
    )
    assert esxi and "pciPassthru.use64bitMMIO" in esxi[0]
    assert not any("X-PciMmio64Mb" in s for s in esxi)
    lxd = _fix_summaries(
        "LXD 6.1 on Ubuntu 24.04: when I pass through the GPU to the VM it hangs, no output at all.",
        "vm.mmio-space-too-small",
    )
    assert lxd and "X-PciMmio64Mb" in lxd[0]


def test_plain_missing_triton_is_not_told_about_triton_3() -> None:
    """'No module named triton' (no triton at all) keeps its install fix; the Triton 3 pairing fix
    is for a missing triton submodule."""
    missing = _fix_summaries(
        "ModuleNotFoundError: No module named 'triton'\ntorch.compile", "torch.triton-missing"
    )
    assert missing and not any("triton.common" in s for s in missing)
    pair = _fix_summaries(
        "ModuleNotFoundError: No module named 'triton.common'\ntorch.compile",
        "torch.triton-missing",
    )
    assert pair and "triton.common" in pair[0]


def test_nvrtc_refusing_a_new_gpu_is_not_read_as_an_old_one() -> None:
    """NVRTC's invalid architecture on an RTX 4090 under CUDA 11.4 is the toolkit being older than
    the GPU; on a Quadro K2000 (sm_30) under CUDA 11.4 it is the GPU being older than the toolkit."""
    new = triage_text(
        "nvrtc: error: invalid value for --gpu-architecture (-arch)\nGPU: NVIDIA GeForce RTX 4090, "
        "CUDA 11.4"
    ).findings
    assert new and new[0].id != "cuda.gpu-too-old-for-binary"
    old = triage_text(
        "nvrtc: error: invalid value for --gpu-architecture (-arch)\nQuadro K2000, installed cuda "
        "11.4"
    ).findings
    assert old and old[0].id == "cuda.gpu-too-old-for-binary"
    assert "10.2" in old[0].fixes[0].summary


def test_mmcv_2_ranges_are_not_told_to_install_mmcv_full() -> None:
    """mmcv-full exists only for mmcv 1.x: a range of 2.x releases (whose '2.1.0' holds '1.0') is
    not given the mmcv-full command; a 1.x range is."""
    two = _fix_summaries(
        "AssertionError: MMCV==1.7.0 is used but incompatible. Please install mmcv>=2.0.0rc4, "
        "<=2.1.0.",
        "mmcv.version-incompatible",
    )
    # round 40: a 1.x mmcv under a 2.x range is told to uninstall mmcv-full, never to install it
    assert two and not any(re.search(r"(?<!un)install\W+(?:mmcv-full|\"mmcv-full)", s) for s in two)
    assert any("uninstall mmcv-full" in s for s in two), two
    one = _fix_summaries(
        "AssertionError: MMCV==2.1.0 is used but incompatible. Please install mmcv>=1.3.17, "
        "<=1.8.0.",
        "mmcv.version-incompatible",
    )
    assert any("mmcv-full" in s for s in one)


def test_ffmpeg_on_windows_keeps_a_fix() -> None:
    """cmd's "'ffmpeg' is not recognized" gets the Windows install; the verifier had dropped the
    single fix that mixed winget with sudo apt-get, leaving the finding with none."""
    fixes = _fix_summaries(
        "'ffmpeg' is not recognized as an internal or external command,\noperable program or batch "
        "file.",
        "app.ffmpeg-not-found",
    )
    assert fixes and fixes[0].startswith("Windows: install FFmpeg")
