"""Windows, WSL, container and Kubernetes causes (checks/signatures/*.toml): the line the field
pastes reaches its cause first, and the fix names the knob the real fix turns."""

from __future__ import annotations

import pytest
from triage_lines import assert_first_with_knob

from envdoctor.triage_engine import triage_text

# (pasted text, expected first finding, a word its fixes must name)
CASES = [
    (
        'OSError: [WinError 1114] A dynamic link library (DLL) initialization routine failed. Error loading "C:\\env\\Lib\\site-packages\\torch\\lib\\c10.dll" or one of its dependencies.',
        "windows.dll-dependency-missing",
        "vc_redist",
    ),
    (
        'OSError: [WinError 126] The specified module could not be found. Error loading "C:\\env\\Lib\\site-packages\\torch\\lib\\fbgemm.dll" or one of its dependencies.',
        "windows.dll-dependency-missing",
        "libomp140",
    ),
    (
        "ImportError: DLL load failed while importing _C: An Application Control policy has blocked this file.",
        "windows.app-control-blocks-dll",
        "smart app control",
    ),
    (
        "HINT: This error might have occurred since this system does not have Windows Long Path support enabled. You can find information on how to enable this at https://pip.pypa.io/warnings/enable-long-paths",
        "windows.long-paths-disabled",
        "longpathsenabled",
    ),
    (
        "uname -r: 5.15.90.1-microsoft-standard-WSL2\nFailed to initialize NVML: Driver/library version mismatch",
        "wsl.linux-driver-inside-wsl",
        "cuda-drivers",
    ),
    (
        "在WSL2里运行\nCUDA Error CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected while calling init (cuInit)",
        "wsl.lib-not-on-loader-path",
        "/usr/lib/wsl/lib",
    ),
    (
        "$ wsl2\n$ sudo systemctl restart docker\nSystem has not been booted with systemd as init system (PID 1). Can't operate.",
        "wsl.systemd-not-enabled",
        "systemd=true",
    ),
    (
        "stderr: nvidia-container-cli: ldcache error: open failed: /sbin/ldconfig.real: no such file or directory: unknown.",
        "container.toolkit-ldconfig-path",
        "ldconfig",
    ),
    (
        "stderr: nvidia-container-cli: device error: 1: unknown device: unknown.",
        "container.unknown-gpu-device",
        "nvidia-smi -l",
    ),
    (
        "services.app.deploy.resources.reservations value Additional properties are not allowed ('devices' was unexpected)",
        "container.compose-too-old-for-gpus",
        "docker compose",
    ),
    (
        'MacBook Pro M2, Docker Desktop\ndocker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]].',
        "container.docker-desktop-mac-no-gpu",
        "mps",
    ),
    (
        "E0123 16:54:07.213360       1 factory.go:112] Incompatible strategy detected auto\nI0123 16:54:07.213383       1 main.go:381] No devices found. Waiting indefinitely.",
        "container.nvidia-runtime-not-configured",
        "default_runtime_name",
    ),
    (
        "Warning  FailedScheduling  default-scheduler  0/3 nodes are available: 3 Insufficient nvidia.com/gpu.",
        "k8s.insufficient-gpus",
        "timeslicing",
    ),
]


@pytest.mark.parametrize(("text", "expected", "knob"), CASES, ids=[c[1] for c in CASES])
def test_field_line_reaches_its_cause_with_the_knob(text: str, expected: str, knob: str) -> None:
    assert_first_with_knob(text, expected, knob)


def test_cublas_dll_fix_names_its_own_cuda_major_not_a_canned_one() -> None:
    top = triage_text("Could not load library cublas64_11.dll. Error code 126").findings[0]
    assert top.id == "windows.cuda-runtime-dll-missing"
    commands = " ".join(c for f in top.fixes for c in f.commands)
    assert "nvidia-cublas-cu11" in commands
    assert "nvidia-cublas-cu12" not in commands


def test_killed_in_wsl_is_the_vm_memory_limit_but_not_on_linux() -> None:
    wsl = triage_text("Running on WSL2.\nLoading checkpoint shards:  50%\nKilled").findings
    assert wsl[0].id == "wsl.memory-limit"
    linux = triage_text("Ubuntu 22.04 server\nLoading checkpoint shards:  50%\nKilled").findings
    assert "wsl.memory-limit" not in [f.id for f in linux]
