"""A container started without GPUs: the fix names the runtime the report uses (its flag or
variable), not Docker's `--gpus` for an Enroot, Apptainer, Podman or Kubernetes user."""

from __future__ import annotations

import pytest

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
