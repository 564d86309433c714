"""Windows, WSL, container and Kubernetes causes added in round 5 (checks/signatures/*.toml and
the fix texts of the older entries): the line the field pastes reaches its cause first, and the fix
names the knob the real fix turns."""

from __future__ import annotations

import pytest
from triage_lines import assert_first_with_knob, fixes_text

from envdoctor.triage_engine import triage_text

# (pasted text, expected first finding, a word its fixes must name)
CASES = [
    (
        'Failed to pull image "nvcr.io/nvidia/driver:550.90.07-debian12": rpc error: code = NotFound'
        ' desc = failed to pull and unpack image "nvcr.io/nvidia/driver:550.90.07-debian12": failed'
        ' to resolve reference "nvcr.io/nvidia/driver:550.90.07-debian12": not found',
        "k8s.driver-image-tag-not-published",
        "driver.enabled=false",
    ),
    (
        "nvidia-driver-daemonset tries to pull nvcr.io/nvidia/driver:535-5.15.0-100-generic-ubuntu22.04"
        " which does not exist (usePrecompiled: true)",
        "k8s.driver-image-tag-not-published",
        "usePrecompiled=false",
    ),
    (
        "Warning  FailedScheduling  default-scheduler  0/1 nodes are available: 1 Insufficient"
        " nvidia.com/gpu.\nThe pod has two containers, each requesting nvidia.com/gpu: 1",
        "k8s.pod-requests-more-gpus-than-node",
        "per container",
    ),
    (
        "NAME                        DESIRED   CURRENT   READY   UP-TO-DATE   AVAILABLE   NODE SELECTOR\n"
        "nvdp-nvidia-device-plugin   0         0         0       0            0           <none>",
        "k8s.device-plugin-node-label-missing",
        "nvidia.com/gpu.present=true",
    ),
    (
        "E0417 07:12:59.759008       1 factory.go:119] If this is not a GPU node, you should set up a"
        " toleration or nodeSelector to only deploy this plugin on GPU nodes\n"
        "error starting plugins: error creating plugin manager: unable to create plugin manager:"
        " platform detection failed",
        "container.nvidia-runtime-not-configured",
        "default-runtime",
    ),
    (
        "Stopping NVIDIA persistence daemon...\nUnloading NVIDIA driver kernel modules...\n"
        "Could not unload NVIDIA driver kernel modules, driver is in use",
        "k8s.operator-driver-conflicts-with-host-driver",
        "driver.enabled=false",
    ),
    (
        "even though I don't allocate any GPU resource in the pod spec, I can still see all the GPUs"
        " in the pod container",
        "k8s.gpus-visible-without-request",
        "volume-mounts",
    ),
    (
        "OMP: Error #15: Initializing libiomp5md.dll, but found libiomp5md.dll already initialized.",
        "platform.duplicate-openmp-runtime",
        "KMP_DUPLICATE_LIB_OK",
    ),
    (
        "OSError: [WinError 193] %1 is not a valid Win32 application. Error loading"
        ' "C:\\Python39\\lib\\site-packages\\torch\\lib\\caffe2_detectron_ops.dll" or one of its'
        " dependencies.",
        "windows.dll-dependency-missing",
        "--no-cache-dir",
    ),
    (
        "The program can't start because MSVCP140.dll is missing from your computer. Try"
        " reinstalling the program to fix this problem.",
        "windows.dll-dependency-missing",
        "vc_redist",
    ),
    (
        "ImportError: DLL load failed while importing dlib: The specified module could not be found."
        " (CUDA_PATH is set, dlib built from source)",
        "windows.dll-dependency-missing",
        "add_dll_directory",
    ),
    (
        "docker: Error response from daemon: failed to create task for container: ... stderr:"
        " nvidia-container-cli: initialization error: driver rpc error: timed out: unknown.",
        "container.driver-rpc-timeout",
        "nvidia-persistenced",
    ),
    (
        "$ incus info --resources\n  NVIDIA information:\n    Architecture:\n    Brand: NVIDIA\n"
        "    CUDA Version:\n    NVRM Version:\n    UUID:",
        "container.no-nvidia-runtime",
        "nvidia-container-toolkit",
    ),
    (
        "sudo snap install docker\ndocker: Error response from daemon: unknown or invalid runtime"
        " name: nvidia.",
        "container.no-nvidia-runtime",
        "/var/snap/docker/current/config/daemon.json",
    ),
]


@pytest.mark.parametrize(("text", "expected", "knob"), CASES, ids=[c[1] for c in CASES])
def test_field_line_reaches_its_cause_with_the_knob(text: str, expected: str, knob: str) -> None:
    assert_first_with_knob(text, expected, knob)


def test_a_bare_insufficient_gpu_line_stays_the_general_cause() -> None:
    """Only the multi-GPU request phrasing makes it the per-container cause; the scheduler's line
    alone has several causes (no plugin, all allocated, more than a node has)."""
    top = triage_text("0/3 nodes are available: 3 Insufficient nvidia.com/gpu.").findings[0]
    assert top.id == "k8s.insufficient-gpus"
    assert "per container" in fixes_text(top)


def test_runtimeclass_cause_no_longer_claims_the_scheduler_line() -> None:
    ids = [
        f.id
        for f in triage_text("0/3 nodes are available: 3 Insufficient nvidia.com/gpu.").findings
    ]
    assert "k8s.runtimeclass-not-set" not in ids


def test_wsl2_nvidia_smi_not_found_is_the_path_cause_not_wsl1() -> None:
    top = triage_text("WSL2 Ubuntu: nvidia-smi: command not found").findings[0]
    assert top.id == "wsl.lib-not-on-loader-path"


def test_gpus_only_with_sudo_is_the_docker_desktop_context() -> None:
    """--gpus failing only for the user (root works) means the user's CLI talks to another daemon."""
    text = (
        "ubuntu 22.04, docker run --gpus all works with sudo but without sudo I get: could not"
        ' select device driver "" with capabilities: [[gpu]]'
    )
    assert_first_with_knob(
        text, "container.docker-desktop-linux-no-gpu", "docker context use default"
    )
