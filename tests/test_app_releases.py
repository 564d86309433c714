"""The app_releases table and the `app-release` remedy: a fix names the release, the torch or the
build flag the report lacks, read from a sourced row, for any report of the kind.

Each rule has a case where it names something and one where it must stay silent (the installed
release already has what is asked for, or the paste does not say which release is installed).
"""

from __future__ import annotations

from typing import Any

import pytest

from envdoctor.matrix.loader import load_bundled
from envdoctor.model.snapshot import Snapshot
from envdoctor.remedies import RemedySpec, resolve
from envdoctor.remedies.host import Host
from envdoctor.triage_engine import triage_text


@pytest.fixture(scope="module")
def ms() -> Any:
    return load_bundled()


def host(os: str = "linux", vendor: str = "nvidia") -> Host:
    return Host(
        os=os,
        machine="x86_64",
        wsl=False,
        container=False,
        root=False,
        sudo=True,
        systemd=True,
        vendor=vendor,
        installer=None,
        distro=None,
        dockerd=None,
    )


def summaries(ms: Any, h: Host | None = None, **params: str) -> list[str]:
    found = resolve(RemedySpec("app-release", params), Snapshot(origin="pasted"), ms, h or host())
    assert isinstance(found, list)
    return [f.summary + " " + " ".join(f.commands) for f in found]


def test_every_row_is_sourced_and_rows_are_ordered_per_app(ms: Any) -> None:
    rows = list(ms.table("app_releases").rows)
    assert {"bitsandbytes", "vllm", "llama-cpp-python"} <= {r["app"] for r in rows}
    for row in rows:
        assert str(row["source"]).startswith("https://")
        assert row.get("checked")


def test_vllm_release_names_the_torch_its_wheel_requires(ms: Any) -> None:
    (fix,) = summaries(ms, app="vllm", need="torch", version="0.3.2")
    assert "torch==2.1.2" in fix and "vllm==0.3.2" in fix
    # the installed torch is the pinned one: not the cause, nothing said
    assert summaries(ms, app="vllm", need="torch", version="0.3.2", torch="2.1.2+cu121") == []
    (fix,) = summaries(ms, app="vllm", need="torch", version="0.6.3", torch="2.5.1+cu124")
    assert "torch==2.4.0" in fix
    # no installed release known: the releases made for the installed torch
    assert summaries(ms, app="vllm", need="torch", version="pkg.vllm", torch="2.2.1") == []
    (fix,) = summaries(
        ms, app="vllm", need="torch", version="pkg.vllm", torch="2.2.1", reverse="yes"
    )
    assert "0.4.1" in fix
    # an unfilled placeholder and no torch: nothing claimed
    assert summaries(ms, app="vllm", need="torch", version="pkg.vllm", torch="torch.version") == []


def test_bitsandbytes_first_release_with_a_binary_for_the_cuda(ms: Any) -> None:
    (fix,) = summaries(ms, app="bitsandbytes", need="cuda", value="128")
    assert "12.8" in fix and ">=0.45.3" in fix
    (fix,) = summaries(ms, app="bitsandbytes", need="cuda", value="12.4.1", version="0.43.0")
    assert ">=0.43.1" in fix
    # Windows binaries start later than Linux ones
    (linux,) = summaries(ms, app="bitsandbytes", need="cuda", value="117")
    (windows,) = summaries(ms, host(os="windows"), app="bitsandbytes", need="cuda", value="117")
    assert ">=0.42.0" in linux and ">=0.43.0" in windows
    # the installed release ships it: the cause is elsewhere, no upgrade proposed
    assert summaries(ms, app="bitsandbytes", need="cuda", value="12.8", version="0.46.0") == []
    # a CUDA without a binary of its own: the same-major fallback of later releases
    (fix,) = summaries(ms, app="bitsandbytes", need="cuda", value="12.7")
    assert "12.6" in fix and ">=0.50.0" in fix
    # the default words of an unknown CUDA are not a CUDA
    assert summaries(ms, app="bitsandbytes", need="cuda", value="X.Y (torch.version.cuda)") == []


def test_bitsandbytes_wheels_for_the_host(ms: Any) -> None:
    (fix,) = summaries(ms, host(os="windows"), app="bitsandbytes", need="host", version="0.41.1")
    assert ">=0.43.0" in fix and "Windows" in fix
    (fix,) = summaries(ms, host(vendor="amd"), app="bitsandbytes", need="host")
    assert ">=0.49.0" in fix and "ROCm" in fix
    (fix,) = summaries(ms, host(vendor="intel"), app="bitsandbytes", need="host")
    assert ">=0.48.0" in fix
    assert (
        summaries(ms, host(os="windows"), app="bitsandbytes", need="host", version="0.45.0") == []
    )
    assert summaries(ms, host(), app="bitsandbytes", need="host") == []


def test_llama_cpp_python_flag_of_the_installed_release(ms: Any) -> None:
    (old,) = summaries(ms, app="llama-cpp-python", need="cuda-flag", version="0.2.50")
    assert "-DLLAMA_CUBLAS=on" in old and "0.2.60" in old and "--no-cache-dir" in old
    (mid,) = summaries(
        ms, host(os="windows"), app="llama-cpp-python", need="cuda-flag", version="0.2.70"
    )
    assert "-DLLAMA_CUDA=on" in mid and "$env:CMAKE_ARGS" in mid
    (new,) = summaries(ms, app="llama-cpp-python", need="cuda-flag", version="0.3.2")
    assert "-DGGML_CUDA=on" in new
    assert (
        summaries(ms, app="llama-cpp-python", need="cuda-flag", version="pkg.llama-cpp-python")
        == []
    )


def test_llama_cpp_python_prebuilt_wheel_index_for_the_drivers_cuda(ms: Any) -> None:
    (fix,) = summaries(ms, app="llama-cpp-python", need="cuda-wheel", value="12.4")
    assert "whl/cu124" in fix
    (fix,) = summaries(ms, app="llama-cpp-python", need="cuda-wheel", value="12.9")
    assert "whl/cu125" in fix  # the newest index this driver runs
    assert summaries(ms, app="llama-cpp-python", need="cuda-wheel", value="11.4") == []


def fixes_of(text: str, finding: str) -> str:
    report = triage_text(text)
    found = [f for f in report.findings if f.id == finding]
    assert found, [f.id for f in report.findings]
    return " | ".join(x.summary + " " + " ".join(x.commands) for x in found[0].fixes)


def test_triage_names_the_bitsandbytes_release_for_the_cuda_in_the_paste() -> None:
    text = (
        "RuntimeError: Configured CUDA binary not found at "
        "/venv/lib/python3.11/site-packages/bitsandbytes/libbitsandbytes_cuda128.so\n"
    )
    assert ">=0.45.3" in fixes_of(text, "bitsandbytes.cudart-not-found")


def test_triage_names_the_llama_cpp_python_flag_of_the_installed_release() -> None:
    text = (
        "llama_cpp_python          0.2.55\n"
        "warning: not compiled with GPU offload support, --gpu-layers option will be ignored\n"
    )
    assert '-DLLAMA_CUBLAS=on" FORCE_CMAKE=1' in fixes_of(
        text, "app.llamacpp.cpu-build-on-gpu-host"
    )


def test_triage_bitsandbytes_047_mismatch_names_the_release_for_torchs_cuda() -> None:
    text = (
        "🚨 CUDA VERSION MISMATCH 🚨\n"
        "Requested CUDA version:          13.0\n"
        "Detected PyTorch CUDA version:   13.0\n"
        "Available pre-compiled versions: \n  - 11.8\n  - 12.8\n"
    )
    assert ">=0.48.0" in fixes_of(text, "bitsandbytes.cudart-not-found")


def test_triage_ollama_on_an_amd_gpu_in_words_names_the_override() -> None:
    for text in (
        "ollama 识别不到我的 A卡 6600xt，一直用CPU",
        "Ollama doesn't use my AMD Radeon RX 6700 XT, it runs on the CPU only",
    ):
        assert "HSA_OVERRIDE_GFX_VERSION=10.3.0" in fixes_of(text, "app.ollama-amd-unsupported-gfx")


def test_triage_llama_cpp_windows_runtime_dlls_name_the_cudart_archive() -> None:
    text = (
        "The code execution cannot proceed because cudart64_12.dll was not found. "
        "Reinstalling the program may fix this problem. (llama-server.exe)\n"
    )
    assert "cudart-llama-bin-win-cuda-" in fixes_of(text, "app.llamacpp.cuda-runtime-missing")
