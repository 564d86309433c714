"""The facts library names tell (envdoctor.triage_engine.libraries) and the fixes that name them.

Lines are real error lines as users paste them (loader errors, Windows dialogs, nvidia-container-cli).
"""

from __future__ import annotations

import pytest

from envdoctor.matrix.loader import load_bundled
from envdoctor.triage_engine import triage_text
from envdoctor.triage_engine.libraries import cuda_of_dll, dll_provider, library_facts


def facts(*lines: str, **text: object) -> dict[str, object]:
    known = {"packages": text.pop("packages", {}), "torch.version": text.pop("torch", None)}
    return library_facts(list(lines), text, known, load_bundled())


@pytest.mark.parametrize(
    ("line", "major", "file"),
    [
        (
            "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: "
            "cannot open shared object file: No such file or directory",
            "8",
            "libcudnn_ops_infer.so.8",
        ),
        (
            "ImportError: libcudnn.so.6: cannot open shared object file: No such file or directory",
            "6",
            "libcudnn.so.6",
        ),
        (
            "Could not locate cudnn_ops64_9.dll. Please make sure it is in your library path!",
            "9",
            "cudnn_ops64_9.dll",
        ),
        ("先是cudnn_ops_infer64_8.dll缺失", "8", "cudnn_ops_infer64_8.dll"),
    ],
)
def test_cudnn_major_from_the_file_name(line: str, major: str, file: str) -> None:
    found = facts(line)
    assert (found["lib.cudnn"], found["lib.cudnn_file"]) == (major, file)


@pytest.mark.parametrize(
    ("line", "cuda"),
    [
        ("ImportError: libcudart.so.10.0: cannot open shared object file", "10.0"),
        ("OSError: libcudart.so.11.0: cannot open shared object file", "11"),
        ("RuntimeError: Library libcublas.so.12 is not found or cannot be loaded", "12"),
        ("Could not load library cublas64_12.dll. Error code 126", "12"),
        (
            "Could not load dynamic library 'cudart64_101.dll'; dlerror: cudart64_101.dll not found",
            "10.1",
        ),
        (
            "Could not load dynamic library 'cudart64_110.dll'; dlerror: cudart64_110.dll not found",
            "11",
        ),
    ],
)
def test_cuda_release_from_the_runtime_library_name(line: str, cuda: str) -> None:
    assert facts(line)["lib.cuda"] == cuda


def test_dll_numbers() -> None:
    assert cuda_of_dll("101") == (10, 1)
    assert cuda_of_dll("110") == (11, 0)
    assert cuda_of_dll("12") == (12, None)
    assert cuda_of_dll("90") == (9, 0)


def test_library_versions_not_cuda_releases_are_not_read_as_cuda() -> None:
    # cuFFT / cuRAND carry their own versions (cufft64_10.dll ships with CUDA 11)
    assert facts("Could not load dynamic library 'cufft64_10.dll'")["lib.cuda"] is None


def test_the_loading_package_from_the_traceback_paths() -> None:
    found = facts(
        "Could not load library libcudnn_cnn_infer.so.8. Error: cannot open shared object file",
        frames=[{"file": "/venv/lib/python3.10/site-packages/ctranslate2/models/whisper.py"}],
        packages={"ctranslate2": "4.4.0"},
    )
    assert found["lib.loader"] == "ctranslate2"
    assert found["lib.loader_named"] == "ctranslate2 4.4.0"


def test_tensorflow_releases_built_for_the_cudnn_found_come_from_the_table() -> None:
    found = facts(
        "Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open",
        '  File "/usr/lib/python3/dist-packages/tensorflow/python/platform/self_check.py"',
    )
    assert found["lib.loader"] == "tensorflow"
    assert found["lib.loader_builds"] == "tensorflow 2.4.0 to 2.17.0"


@pytest.mark.parametrize(
    ("dll", "words"),
    [
        ("MSVCP140_CODECVT_IDS.dll", "vc_redist.x64.exe"),
        ("VCRUNTIME140_1.dll", "Visual C++ Redistributable"),
        ("zlibwapi.dll", "cuDNN 8"),
        ("nvcuda.dll", "display driver"),
        ("cudnn64_8.dll", "cuDNN 8"),
        ("cudart64_110.dll", "CUDA 11 runtime"),
    ],
)
def test_what_installs_a_dll(dll: str, words: str) -> None:
    assert words in (dll_provider(dll) or "")


def test_unknown_dlls_name_nothing() -> None:
    assert dll_provider("koboldcpp_cublas.dll") is None


def test_a_stated_cuda_requirement_gives_the_driver_floor_of_the_table() -> None:
    found = facts(
        "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=11.8, please update "
        "your driver to a newer version, or use an earlier cuda container: unknown"
    )
    assert found["cuda.required"] == "11.8"
    assert found["cuda.required_driver"] == "520.61.05"  # cuda_driver: CUDA 11.8.0 GA
    assert found["cuda.required_driver_windows"] == "520.06"


def test_a_conda_environment_library_is_recognised_through_the_relative_path() -> None:
    found = facts(
        "OSError: /data/app/anaconda3/envs/f/lib/python3.10/site-packages/torch/lib/../../../../"
        "libcublas.so.11: undefined symbol: cublasLtBIIMatmulAlgoGetHeuristic, version "
        "libcublasLt.so.11"
    )
    assert found["lib.conda_lib"] == "libcublas.so.11"
    assert found["lib.conda_dir"] == "/data/app/anaconda3/envs/f/lib"


def test_pip_wheel_libraries_are_not_conda_ones() -> None:
    line = (
        "/home/u/miniconda3/envs/x/lib/python3.10/site-packages/nvidia/cublas/lib/libcublas.so.12"
    )
    assert facts(line + ": undefined symbol")["lib.conda_lib"] is None


@pytest.mark.parametrize(
    ("extension", "package"),
    [
        ("flash_attn_2_cuda", "flash-attn"),
        ("vllm", "vllm"),
        ("torch_scatter", "torch-scatter"),
        ("selective_scan_cuda", "mamba-ssm"),
        ("my_custom_op", None),
    ],
)
def test_extension_package(extension: str, package: str | None) -> None:
    found = facts("undefined symbol", extensions=[extension], torch="2.3.0")
    assert found["ext.package"] == package
    assert found["ext.torch"] == ("2.3.0" if package else None)


def fix_text(text: str, finding_id: str) -> str:
    report = triage_text(text)
    finding = next(f for f in report.findings if f.id == finding_id)
    return " ".join(" ".join((f.summary, *f.commands)) for f in finding.fixes)


def test_cudnn_missing_fix_names_the_major() -> None:
    text = fix_text(
        "ImportError: libcudnn.so.6: cannot open shared object file: No such file or directory",
        "cuda.cudnn-missing",
    )
    assert "cuDNN 6" in text


def test_vc_runtime_dll_fix_names_the_redistributable() -> None:
    text = fix_text(
        "FileNotFoundError: Could not find module 'C:\\k\\koboldcpp_cublas.dll' (or one of its "
        "dependencies). Try using the full path with constructor syntax.\n"
        "Dependencies: MSVCP140_CODECVT_IDS.dll is missing",
        "windows.dll-dependency-missing",
    )
    assert "vc_redist.x64.exe" in text


def test_container_requirement_fix_names_the_driver_floor() -> None:
    text = fix_text(
        "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=11.8, please update "
        "your driver to a newer version, or use an earlier cuda container: unknown",
        "container.cuda-requirement-unsatisfied",
    )
    assert "520.61.05" in text


def test_extension_fix_names_the_package_and_the_torch() -> None:
    text = fix_text(
        "torch 2.3.0\n"
        "ImportError: /x/site-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: "
        "undefined symbol: _ZN3c104cuda9SetDeviceEi",
        "torch.extension-abi-mismatch",
    )
    assert "flash-attn" in text
    assert "2.3.0" in text


def test_cannot_load_a_cuda_dll_reaches_the_runtime_dll_cause() -> None:
    report = triage_text("cannot load cudart64_110.dll")
    assert report.findings[0].id == "windows.cuda-runtime-dll-missing"
    assert "CUDA 11 runtime" in fix_text("cannot load cudart64_110.dll", report.findings[0].id)


def test_insufficient_driver_names_the_floor_of_the_runtime_library() -> None:
    text = fix_text(
        "RuntimeError: CUDA driver version is insufficient for CUDA runtime version\n"
        "OSError: libcudart.so.12: cannot open shared object file",
        "cuda.toolkit-newer-than-driver",
    )
    assert "525" in text  # cuda_compat: the CUDA 12 minor-version-compatibility floor


def test_error_35_in_a_container_with_a_new_driver_is_the_runtime_not_injecting_it() -> None:
    text = (
        "$ docker run --rm myimage python train.py\n"
        "| NVIDIA-SMI 550.78        Driver Version: 550.78        CUDA Version: 12.4     |\n"
        "RuntimeError: CUDA error: CUDA driver version is insufficient for CUDA runtime version"
    )
    assert triage_text(text).findings[0].id == "container.driver-libs-not-injected"
    assert "NVIDIA_DRIVER_CAPABILITIES" in fix_text(text, "container.driver-libs-not-injected")


def test_error_35_with_an_image_newer_than_the_driver_stays_a_driver_update() -> None:
    text = (
        "$ docker run --rm --gpus all nvidia/cuda:12.8.0-runtime-ubuntu22.04 ./deviceQuery\n"
        "| NVIDIA-SMI 470.82        Driver Version: 470.82        CUDA Version: 11.4     |\n"
        "cudaGetDeviceCount returned 35 -> CUDA driver version is insufficient for CUDA runtime version"
    )
    ids = [f.id for f in triage_text(text).findings]
    assert "container.driver-libs-not-injected" not in ids
    assert "570.26" in fix_text(text, "container.image-needs-newer-driver")  # CUDA 12.8.0 GA


def test_extension_package_from_a_source_build_path() -> None:
    line = (
        "ImportError: /home/u/detectron2/detectron2/_C.cpython-39-x86_64-linux-gnu.so: "
        "undefined symbol: _ZNK2at6Tensor7reshapeEN3c108ArrayRefIlEE"
    )
    assert facts(line)["ext.package"] == "detectron2"


def test_flash_attn_on_a_turing_gpu_names_its_capability_and_flash_attn_1() -> None:
    text = fix_text(
        "GPU 0: Tesla T4\nRuntimeError: FlashAttention only supports Ampere GPUs or newer.",
        "flashattn.gpu-arch-unsupported",
    )
    assert "7.5" in text
    assert "flash-attn<2" in text


def test_a_cuda_9_runtime_library_reaches_its_cause_and_names_the_loader() -> None:
    text = (
        '  File "/usr/local/lib/python3.6/dist-packages/mxnet/base.py", line 52, in _load_lib\n'
        "OSError: libcudart.so.9.0: cannot open shared object file: No such file or directory"
    )
    assert triage_text(text).findings[0].id == "cuda.runtime-lib-major-missing"
    fixes = fix_text(text, "cuda.runtime-lib-major-missing")
    assert "mxnet" in fixes
    assert "CUDA 9.0" in fixes


def test_cudnn_failing_on_libcuda_points_at_the_driver_library() -> None:
    text = fix_text(
        "Could not load library libcudnn_cnn_infer.so.8. Error: libcuda.so: cannot open shared "
        "object file: No such file or directory",
        "cuda.cudnn-missing",
    )
    assert text.startswith("The cuDNN library loads")


def test_a_required_cuda_major_gives_the_compatibility_floor() -> None:
    found = facts("Error: this build requires CUDA 12.x, please update your driver")
    assert found["cuda.required"] == "12.x"
    assert found["cuda.required_driver"] == "525"  # cuda_compat: CUDA 12 minor-version floor


def test_cudnns_own_loader_asking_for_another_cublaslt_is_a_cudnn_for_another_cuda() -> None:
    text = (
        "Could not load library libcublasLt.so.12. Error: libcublasLt.so.12: cannot open shared "
        "object file: No such file or directory\nAborted (core dumped)"
    )
    ids = [f.id for f in triage_text(text).findings]
    assert ids[0] == "cuda.cudnn-mismatch"
    assert "cuda.runtime-lib-major-missing" not in ids


def test_extension_fix_kept_for_a_package_without_a_documented_install_target() -> None:
    text = fix_text(
        "torch 2.1.0\n"
        "OSError: /x/site-packages/torch_scatter/_version.so: undefined symbol: "
        "_ZN5torch3jit17parseSchemaOrNameERKSs",
        "torch.extension-abi-mismatch",
    )
    assert "Reinstall torch-scatter built for the installed torch 2.1.0" in text


def test_ext_torch_is_the_release_not_what_followed_it() -> None:
    found = facts("undefined symbol", extensions=["torch_scatter"], torch="1.4.0+cu101.html")
    assert found["ext.torch"] == "1.4.0+cu101"
