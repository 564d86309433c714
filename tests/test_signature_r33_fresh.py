"""Round 33's changes: the causes the fresh development samples (tests/triage_corpus/train/) met
that envdoctor did not read, and fixes that could not work (a driver floor read from the CUDA a
report ran before its upgrade, pip commands naming a compiled module, a driver "m or newer")."""

from __future__ import annotations

from pathlib import Path

from envdoctor.matrices import load_bundled
from envdoctor.queries.nvidia import cuda_for_ptx
from envdoctor.remedies import RemedySpec
from envdoctor.triage_engine import triage_text
from envdoctor.triage_engine.remedies import templated
from tests.triage_lines import fix_texts, source_knob_test, training_case_test

TRAIN = Path(__file__).parent / "triage_corpus" / "train"

# (thread, text, finding id, knob): canonical lines verbatim from the threads named
ROWS = [
    (
        "https://github.com/google-deepmind/alphafold3/issues/272",
        "The NVIDIA driver's CUDA version is 12.2 which is older than the PTX compiler version "
        "12.6.77. Because the driver is older than the PTX compiler version, XLA is disabling "
        "parallel compilation, which may slow down compilation.",
        "cuda.toolkit-newer-than-driver",
        "560.28.03",
    ),
    (
        "https://github.com/numba/numba/issues/8961",
        "ptxas application ptx input, line 9; fatal   : Unsupported .version 8.1; current version "
        "is '8.0'",
        "cuda.toolkit-newer-than-driver",
        "530.30.02",
    ),
    (
        "https://github.com/facebookresearch/pytorch3d/issues/1553",
        "C:/Program Files (x86)/Microsoft Visual Studio/2022/BuildTools/VC/Tools/MSVC/14.36.32532/"
        "include\\crtdefs.h(10): fatal error C1083: Cannot open include file: 'corecrt.h': No such "
        "file or directory",
        "windows.sdk-headers-missing",
        "Windows 11 SDK",
    ),
    (
        "https://github.com/Atinoda/text-generation-webui-docker/issues/66",
        "text-generation-webui  | /venv/lib/python3.11/site-packages/llama_cpp_binaries/bin/"
        "llama-server: error while loading shared libraries: libvulkan.so.1: cannot open shared "
        "object file: No such file or directory",
        "vulkan.loader-library-missing",
        "libvulkan1",
    ),
    (
        "https://github.com/Project-HAMi/HAMi/issues/1429",
        "  Warning  FailedScheduling  4m11s (x11 over 54m)  default-scheduler  0/2 nodes are "
        "available: 1 Insufficient nvidia.com/gpucores, 1 Insufficient nvidia.com/gpumem",
        "k8s.vgpu-pod-not-using-vgpu-scheduler",
        "hami-scheduler",
    ),
    (
        "https://github.com/NVlabs/nvdiffrast/issues/58",
        "[F glutil.cpp:338] eglInitialize() failed",
        "nvdiffrast.gl-context-failed",
        "RasterizeCudaContext",
    ),
    (
        "https://github.com/jwyang/faster-rcnn.pytorch/issues/190",
        "ImportError: /home/faster-rcnn.pytorch/lib/model/roi_pooling/_ext/roi_pooling/"
        "_roi_pooling.so: undefined symbol: __cudaPopCallConfiguration",
        "cuda.toolkits-disagree",
        "torch.version.cuda",
    ),
    (
        "https://github.com/mattshma/bigdata/issues/108",
        "sudo docker run -v /usr/bin:/usr/local/nvidia/bin -v /usr/lib64/nvidia:/usr/local/nvidia/"
        "lib -p 8888:8888 MY_DOCKER_IMAGE\n$ nvidia-smi\nNVIDIA-SMI has failed because it couldn't "
        "communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed "
        "and running.",
        "container.hand-mounted-driver-libs",
        "--gpus all",
    ),
    (
        "https://github.com/EESSI/software-layer/issues/231",
        "If you use the flag `--nv` to add CUDA support with singularity:\n"
        "NVIDIA-SMI couldn't find libnvidia-ml.so library in your system. Please make sure that "
        "the NVIDIA Display Driver is properly installed and present in your system.",
        "container.apptainer-nv-libpath-lost",
        "/.singularity.d/libs",
    ),
]

test_canonical_lines_reach_their_cause = source_knob_test(ROWS)

# (training case, finding id, knob, thread): development cases of round 33's harvest that reach
# their confirmed cause with the case's own fix keywords
CASES = [
    (
        "en-23202-alphafold3-driver-older-than-ptx-compiler.txt",
        "cuda.toolkit-newer-than-driver",
        "CUDA 12.6",
        "https://github.com/google-deepmind/alphafold3/issues/272",
    ),
    (
        "en-22815-numba-ptx-version-driver-too-old.txt",
        "cuda.toolkit-newer-than-driver",
        "530.30.02",
        "https://github.com/numba/numba/issues/8961",
    ),
    (
        "en-23301-pytorch3d-win11-corecrt-h-windows-sdk.txt",
        "windows.sdk-headers-missing",
        "Windows SDK",
        "https://github.com/facebookresearch/pytorch3d/issues/1553",
    ),
    (
        "en-23506-tgw-docker-rocm-libvulkan-so1-missing.txt",
        "vulkan.loader-library-missing",
        "libvulkan1",
        "https://github.com/Atinoda/text-generation-webui-docker/issues/66",
    ),
    (
        "zh-23401-hami-pod-scheduled-by-default-scheduler.txt",
        "k8s.vgpu-pod-not-using-vgpu-scheduler",
        "hami-scheduler",
        "https://github.com/Project-HAMi/HAMi/issues/1429",
    ),
    (
        "en-23500-shutter-encoder-nvenc-missing-after-app-update.txt",
        "app.nvenc-api-driver-too-old",
        "Update the NVIDIA driver",
        "https://github.com/paulpacifico/shutter-encoder/issues/217",
    ),
    (
        "en-23508-shutter-encoder-nvenc-disappears-driver-566.txt",
        "app.nvenc-api-driver-too-old",
        "Update the NVIDIA driver",
        "https://github.com/paulpacifico/shutter-encoder/issues/283",
    ),
    (
        "en-24300-nvdiffrast-eglinitialize-docker-driver-opengl.txt",
        "nvdiffrast.gl-context-failed",
        "libnvidia-gl",
        "https://github.com/NVlabs/nvdiffrast/issues/58",
    ),
    (
        "en-24301-stable-dreamfusion-eglinitialize-docker-egl-vendor.txt",
        "nvdiffrast.gl-context-failed",
        "10_nvidia.json",
        "https://github.com/ashawkey/stable-dreamfusion/issues/131",
    ),
    (
        "en-9503-threestudio-eglgetdisplay-context-cuda.txt",
        "nvdiffrast.gl-context-failed",
        "context_type=cuda",
        "https://github.com/threestudio-project/threestudio/issues/231",
    ),
    (
        "en-24104-arm-handbrake-container-libnvidia-encode.txt",
        "container.driver-libs-not-injected",
        "libnvidia-encode-",
        "https://github.com/automatic-ripping-machine/automatic-ripping-machine/issues/1092",
    ),
    (
        "zh-24200-docker-hand-mounted-nvidia-libs.txt",
        "container.hand-mounted-driver-libs",
        "--gpus",
        "https://github.com/mattshma/bigdata/issues/108",
    ),
    (
        "en-24203-singularity-nv-libs-dropped-from-ld-library-path.txt",
        "container.apptainer-nv-libpath-lost",
        ".singularity.d/libs",
        "https://github.com/EESSI/software-layer/issues/231",
    ),
]

test_development_cases_reach_their_cause = training_case_test(CASES, keywords=True)


def test_the_ptx_isa_table_names_the_cuda_that_writes_it() -> None:
    """PTX ISA versions map to the CUDA release that first writes them (12.6 added none)."""
    ms = load_bundled()
    assert cuda_for_ptx(ms, "8.1") == "12.1"
    assert cuda_for_ptx(ms, "8.5") == "12.5"
    assert cuda_for_ptx(ms, "8.7") == "12.8"
    assert cuda_for_ptx(ms, "7.8") == "11.8"
    assert cuda_for_ptx(ms, "99.9") is None
    assert cuda_for_ptx(ms, "not a version") is None


def test_the_ptx_version_outranks_the_cuda_read_from_prose() -> None:
    """A report that names the CUDA it ran before an upgrade ("worked with 11.5, after the
    upgrade to 12.1") must not be told the older release's driver (495), which cannot load PTX
    ISA 8.1: the PTX's own version proves the driver floor (12.1: 530.30.02)."""
    text = (
        "Cuda scripts were working fine with cuda-toolkit-11.5. After upgrade to "
        "cuda-toolkit-12.1, I'm getting this error\n"
        "ptxas application ptx input, line 9; fatal   : Unsupported .version 8.1; current "
        "version is '8.0'\n"
    )
    fixes = fix_texts(text, "cuda.toolkit-newer-than-driver")
    assert "530.30.02" in fixes[0], fixes
    assert not any("495.29.05" in fix for fix in fixes), fixes


def test_a_ptxas_toolkit_mismatch_names_the_toolkit_release() -> None:
    """An old ptxas on PATH (no driver involved) is told which CUDA release reads the PTX."""
    text = "ptxas fatal   : Unsupported .version 8.4; current version is '8.2'"
    assert any("CUDA 12.4 or newer" in fix for fix in fix_texts(text, "cuda.toolkits-disagree"))


def test_a_compiled_module_name_is_no_pip_package() -> None:
    """`pip install _k2` or `pip install bindings` cannot work: the rebuild command names the
    package folder the module sits in, and without one no pip command is given."""
    owned = (
        "ImportError: /usr/local/lib/python3.10/dist-packages/tensorrt_llm/bindings.cpython-310-"
        "x86_64-linux-gnu.so: undefined symbol: _ZN2at4_ops9is_pinned4callERKNS_6TensorEN3c108"
        "optionalINS5_6DeviceEEE"
    )
    fixes = fix_texts(owned, "torch.extension-abi-mismatch")
    assert any("--force-reinstall --no-cache-dir tensorrt_llm" in fix for fix in fixes), fixes
    assert not any(fix.rstrip().endswith(" bindings") for fix in fixes), fixes
    loose = (
        "ImportError: /data/app/anaconda3/lib/python3.7/site-packages/_k2.cpython-37m-x86_64-"
        "linux-gnu.so: undefined symbol: _ZN3c104impl23ExcludeDispatchKeyGuardC1ENS_11DispatchKeyE"
    )
    fixes = fix_texts(loose, "torch.extension-abi-mismatch")
    assert fixes, "a fix that names no pip package remains"
    assert not any("pip install" in fix and "_k2" in fix for fix in fixes), fixes


def test_a_remedy_parameter_the_paste_does_not_give_is_left_out() -> None:
    """A driver remedy whose `min` names an unknown fact gets no minimum, never the fact's name
    ("Install NVIDIA driver m or newer")."""
    spec = RemedySpec("driver", {"min": "{{m.min}}", "reason": "the NVENC API needs it"})
    kept = templated(spec, lambda t: t.replace("{{m.min}}", "m"), lambda t: "{{m.min}}" in t)
    assert "min" not in kept.params
    assert kept.params["reason"] == "the NVENC API needs it"
    case = (TRAIN / "en-23504-tdarr-hevc-nvenc-no-capable-devices-custom-ffmpeg.txt").read_text(
        encoding="utf-8"
    )
    body = case.split("\n#! ---\n", 1)[1]
    for finding in triage_text(body).findings:
        for fix in finding.fixes:
            assert " m or newer" not in fix.summary, fix.summary


def test_nvenc_prose_needs_an_update_and_nvenc_gone() -> None:
    """The NVENC-after-update phrasing stays clear of a GPU problem after an update that is not
    about NVENC, and of NVENC missing with no update named."""
    key = "signature:app.nvenc-gone-after-app-update.prose"
    origins = [
        f.origin
        for text in (
            "after the update to 2.1 torch cannot use the GPU any more",
            "NVENC is not available on my laptop, only the CPU encoder",
        )
        for f in triage_text(text).findings
    ]
    assert key not in origins, origins
    said = "After the update to 5.2 NVENC disappeared, only QSV is left"
    assert key in [f.origin for f in triage_text(said).findings]


def test_a_container_that_asks_for_every_capability_is_not_told_to_ask_for_video() -> None:
    """NVIDIA_DRIVER_CAPABILITIES=all already includes `video`: the missing encode library must
    come from the host's driver install, which is then the first fix."""
    text = (
        "docker run --gpus all -e NVIDIA_DRIVER_CAPABILITIES=all arm\n"
        "[h264_nvenc @ 0x55855d101140] Cannot load libnvidia-encode.so.1"
    )
    fixes = fix_texts(text, "container.driver-libs-not-injected")
    assert "libnvidia-encode-<branch>" in fixes[0], fixes
    assert not any("NVIDIA_DRIVER_CAPABILITIES=compute,video,utility" in fix for fix in fixes)
    plain = "[h264_nvenc @ 0x55855d101140] Cannot load libnvidia-encode.so.1"
    assert "video" in fix_texts(plain, "container.driver-libs-not-injected")[0]


def test_driver_files_mounted_with_the_runtime_are_not_hand_mounts() -> None:
    """A container started through the NVIDIA runtime that also mounts a driver folder is not
    the hand-mounted cause (the runtime supplies the driver)."""
    text = (
        "docker run --gpus all -v /usr/lib64/nvidia:/usr/local/nvidia/lib img\n"
        "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver."
    )
    assert "container.hand-mounted-driver-libs" not in [f.id for f in triage_text(text).findings]


def test_the_last_printed_torch_is_the_installed_one() -> None:
    """A paste that prints torch.__version__ before and after a step (a node's requirements
    replacing the CUDA build with the CPU one) is about the torch of its last print: the fix
    installs a CUDA build, never "keep cu121" as if the CUDA build were installed; ComfyUI's
    portable build gets its embedded Python's pip, not conda."""
    text = (
        "before     \\python_embeded\\python.exe -m pip install -r requirements.txt\n"
        ">>> print(torch.__version__)\n2.2.0+cu121\n"
        "after install requirements.txt\n"
        ">>> print(torch.__version__)\n2.3.0+cpu\n"
        'File "D:\\ComfyUI_windows_portable\\python_embeded\\Lib\\site-packages\\torch\\cuda\\'
        '__init__.py", line 284, in _lazy_init\n'
        'raise AssertionError("Torch not compiled with CUDA enabled")\n'
        "AssertionError: Torch not compiled with CUDA enabled\n"
    )
    fixes = fix_texts(text, "torch.cpu-build-on-gpu-host")
    assert "python_embeded" in fixes[0], fixes
    assert any("torch==2.3.0" in fix and "/whl/cu" in fix for fix in fixes), fixes
    assert not any("conda remove" in fix for fix in fixes), fixes
