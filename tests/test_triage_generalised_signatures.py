"""Signatures added after the held-out measurement (tests/triage_corpus 056-084): each family
fires on a real paste and stays silent on a close but healthy or differently caused one."""

from __future__ import annotations

from pathlib import Path

import pytest

from envdoctor.commands.triage import triage_text

CORPUS = Path(__file__).resolve().parent / "triage_corpus"


def body(prefix: str) -> str:
    path = next(CORPUS.glob(f"{prefix}-*.txt"))
    return path.read_text(encoding="utf-8").split("#! ---\n", 1)[1]


def ids(text: str) -> list[str]:
    return [f.id for f in triage_text(text).findings]


@pytest.mark.parametrize(
    "case, expected",
    [
        ("056", "rocm.kfd-permission"),  # `ls -la /dev` shows kfd crw------- root root
        ("058", "rocm.visible-devices-hide-gpus"),  # ROCR_ and HIP_VISIBLE_DEVICES both exported
        (
            "060",
            "cuda.visible-devices-hide-gpus",
        ),  # export CUDA_VISIBLE_DEVICES=1, is_available false
        (
            "063",
            "cuda.ld-library-path-shadows-wheel",
        ),  # old "but linked against" wording + LD_LIBRARY_PATH
        ("064", "app.ollama-amd-unsupported-gfx"),  # Ollama's own "amdgpu is not supported" line
        ("066", "nvidia.ecc-uncorrected"),
        ("067", "nvidia.ecc-uncorrected"),  # OpenACC runtime wording (error 214)
        ("075", "container.docker-permission-denied"),
        ("082", "windows.device-removed-tdr"),  # CUDA error and the screen going black
        ("083", "tensorflow.windows-native-no-gpu"),  # TF version from the issue form's heading
    ],
)
def test_family_ranks_first_on_a_real_paste(case: str, expected: str) -> None:
    assert ids(body(case))[:1] == [expected]


def test_visible_devices_assignment_alone_is_not_a_finding() -> None:
    text = "export CUDA_VISIBLE_DEVICES=0\npython train.py --epochs 10\nepoch 1/10 loss=0.42\n"
    assert "cuda.visible-devices-hide-gpus" not in ids(text)


def test_visible_devices_assignment_next_to_another_error_is_not_blamed() -> None:
    text = (
        "export CUDA_VISIBLE_DEVICES=1\nprint(torch.cuda.is_available())\n"
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n"
    )
    found = ids(text)
    assert found[0] == "memory.out-of-memory" and "cuda.visible-devices-hide-gpus" not in found


def test_cudnn_mismatch_without_a_shown_library_path_is_not_shadowing() -> None:
    found = ids(body("062"))  # torch's message names LD_LIBRARY_PATH, but no value is shown
    assert found[0] == "cuda.cudnn-mismatch" and "cuda.ld-library-path-shadows-wheel" not in found


def test_healthy_kfd_listing_is_not_a_permission_problem() -> None:
    text = "$ ls -l /dev/kfd\ncrw-rw---- 1 root render 238, 0 Sep  2 15:45 /dev/kfd\n"
    assert "rocm.kfd-permission" not in ids(text)


def test_ecc_column_header_of_nvidia_smi_is_not_an_ecc_error() -> None:
    text = (
        "| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |\n"
        "|   0  Tesla V100S-PCI...  Off  | 00000000:00:07.0 Off |                    0 |\n"
    )
    assert "nvidia.ecc-uncorrected" not in ids(text)


def test_amdgpu_unsupported_outside_ollama_stays_a_rocm_finding() -> None:
    text = "rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: No such file for GPU arch : gfx1031\n"
    found = ids(text)
    assert "rocm.gfx-unsupported" in found and "app.ollama-amd-unsupported-gfx" not in found


def test_screen_black_on_linux_is_not_windows_tdr() -> None:
    text = "Ubuntu 22.04, the screen goes black and then\nRuntimeError: CUDA error: an illegal memory access was encountered\n"
    assert "windows.device-removed-tdr" not in ids(text)


def test_tensorflow_gpu_missing_on_linux_is_not_the_windows_finding() -> None:
    text = "Ubuntu 22.04\nERROR: No matching distribution found for tensorflow-gpu==2.12.0\n"
    assert "tensorflow.windows-native-no-gpu" not in ids(text)
