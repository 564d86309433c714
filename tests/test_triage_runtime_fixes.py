"""A container started without GPUs: the fix names the runtime the report uses (its flag or
variable), not Docker's `--gpus` for an Enroot, Apptainer, Podman or Kubernetes user."""

from __future__ import annotations

import pytest

from envdoctor.diagnosis.pipeline import active_matrices
from envdoctor.triage_engine import triage_text

WARNING = "WARNING: The NVIDIA Driver was not detected.  GPU functionality will not be available."


def _fixes(paste: str) -> list[str]:
    findings = [f for f in triage_text(paste).findings if f.id == "container.no-gpus-injected"]
    assert findings, "the container's missing GPUs are found"
    return [" ".join((fix.summary, *fix.commands)) for fix in findings[0].fixes]


@pytest.mark.parametrize(
    ("launch", "named"),
    [
        ("srun --container-image=ubuntu:22.04 python train.py", "NVIDIA_VISIBLE_DEVICES=all"),
        ("apptainer exec pytorch.sif python train.py", "--nv"),
        ("singularity run --contain image.sif", "--nv"),
        ("podman run -it localhost/train", "nvidia.com/gpu=all"),
        ("kubectl logs pod/train-0", "nvidia.com/gpu: 1"),
    ],
)
def test_the_first_fix_names_the_runtimes_way(launch: str, named: str) -> None:
    fixes = _fixes(f"{launch}\n{WARNING}\n")
    assert named in fixes[0]


def test_docker_users_get_only_dockers_fixes() -> None:
    fixes = _fixes(f"docker run -it myimage python train.py\n{WARNING}\n")
    assert fixes[0].startswith("docker run")
    assert not any(word in " ".join(fixes) for word in ("apptainer", "podman", "srun", "kubectl"))


NO_DRIVER = 'docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]].'


def _runtime_fixes(paste: str) -> list[str]:
    findings = [f for f in triage_text(paste).findings if f.id == "container.no-nvidia-runtime"]
    assert findings, "the missing NVIDIA runtime is found"
    return [fix.summary for fix in findings[0].fixes]


def test_jetson_gets_jetpacks_runtime_and_the_default_runtime_first() -> None:
    fixes = _runtime_fixes(f"Jetson AGX Orin, JetPack 6.0, docker compose up\n{NO_DRIVER}\n")
    assert fixes[0].startswith("Jetson:") and "default-runtime" in fixes[0]


def test_docker_build_gets_the_default_runtime_first() -> None:
    fixes = _runtime_fixes(f"docker build -t trainer .\n{NO_DRIVER}\n")
    assert fixes[0].startswith("docker build:") and "default-runtime" in fixes[0]


def test_a_plain_report_gets_the_toolkit_first_and_no_jetson_or_build_fix() -> None:
    fixes = _runtime_fixes(f"docker run --gpus all trainer\n{NO_DRIVER}\n")
    assert fixes[0].startswith("Install the NVIDIA Container Toolkit")
    assert not any(f.startswith(("Jetson:", "docker build:")) for f in fixes)


def test_the_snap_fix_comes_first_only_where_snap_is_named() -> None:
    snap = _runtime_fixes(f"sudo snap install docker\ndocker run --gpus all trainer\n{NO_DRIVER}\n")
    assert snap[0].startswith("Docker installed as a snap")
    fedora = _runtime_fixes(f"Fedora 39\ndocker run --gpus all trainer\n{NO_DRIVER}\n")
    assert not any("snap" in f for f in fedora)  # the snap Docker is Ubuntu's


def test_a_paddle_source_build_gets_paddles_arch_switch_first() -> None:
    paste = (
        "cmake .. -DWITH_GPU=ON  (Paddle 2.4 source build)\n"
        "nvcc fatal   : Unsupported gpu architecture 'compute_86'\n"
    )
    found = [f for f in triage_text(paste).findings if f.id == "cuda.nvcc-too-old-for-gpu"]
    assert found and "CUDA_ARCH_NAME" in found[0].fixes[0].summary
    other = "python setup.py install\nnvcc fatal   : Unsupported gpu architecture 'compute_86'\n"
    found = [f for f in triage_text(other).findings if f.id == "cuda.nvcc-too-old-for-gpu"]
    assert found and not any("CUDA_ARCH_NAME" in fix.summary for fix in found[0].fixes)


def test_an_apu_beside_a_radeon_card_is_named_from_words() -> None:
    # train/en-1501's lines: both GPUs listed, "errors related to rocm and HIP", no error line
    paste = (
        "I am trying to train a neural network model using my gpu but it is showing errors "
        "related to rocm and HIP.\n"
        "CPU: AMD Ryzen 5 3400G with Radeon Vega Graphics\n"
        "GPU: AMD Radeon RX 6600 (amdgcn-amd-amdhsa--gfx1032\n"
    )
    found = {f.id: f for f in triage_text(paste).findings}
    assert "rocm.igpu-enumerated-first" in found
    assert "ROCR_VISIBLE_DEVICES" in found["rocm.igpu-enumerated-first"].fixes[0].summary
    alone = paste.replace("CPU: AMD Ryzen 5 3400G with Radeon Vega Graphics\n", "")
    assert "rocm.igpu-enumerated-first" not in {f.id for f in triage_text(alone).findings}


@pytest.mark.parametrize(
    "launch",
    [
        "srun --container-image=nvcr.io/nvidia/pytorch:24.01-py3 python train.py",
        "apptainer exec pytorch.sif python train.py",
    ],
)
def test_runtimes_without_docker_do_not_get_dockers_runtime_first(launch: str) -> None:
    ids = [f.id for f in triage_text(f"{launch}\n{WARNING}\n").findings]
    assert ids[0] == "container.no-gpus-injected"
    assert "container.no-nvidia-runtime" not in ids


@pytest.mark.parametrize(
    ("line", "release"),
    [
        # pointnet2's build on an RTX 2080 Ti with CUDA 8's nvcc (train/en-1413)
        ("nvcc fatal   : Unsupported gpu architecture 'compute_75'", "10.0"),
        ("nvcc fatal   : Value 'sm_86' is not defined for option 'gpu-architecture'", "11.1"),
        ("ptxas fatal   : Value 'sm_89' is not defined for option 'gpu-name'", "11.8"),
        ("nvcc fatal   : Unsupported gpu architecture 'compute_120'", "12.8"),
    ],
)
def test_the_refused_architecture_names_the_toolkit_that_added_it(line: str, release: str) -> None:
    """The first fix names the first CUDA release whose nvcc builds for the refused sm (nvcc_arch)."""
    found = [f for f in triage_text(line).findings if f.id == "cuda.nvcc-too-old-for-gpu"]
    assert found, [f.id for f in triage_text(line).findings]
    first = found[0].fixes[0]
    assert f"CUDA {release}+" in first.summary, first.summary
    assert f"/usr/local/cuda-{release}/bin" in " ".join(first.commands)


def test_an_architecture_every_listed_toolkit_knew_names_no_first_toolkit() -> None:
    """sm_30 refused is an architecture a newer toolkit dropped: no 'needs CUDA 7.0' there."""
    from envdoctor.triage_engine.gpu_toolkit import cuda_that_added

    assert cuda_that_added(active_matrices(), 30) is None
    assert cuda_that_added(active_matrices(), 75) == "10.0"
    found = triage_text("nvcc fatal   : Unsupported gpu architecture 'compute_30'").findings
    fixes = " ".join(fix.summary for f in found for fix in f.fixes)
    assert "needs a CUDA toolkit of" not in fixes
