"""A fixed, realistic report used by the core tests and the golden renderer outputs."""

from __future__ import annotations

from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity, order
from envdoctor.model.report import Report, Skipped
from envdoctor.model.snapshot import Confidence, Snapshot, absent, collected, failed


def sample_snapshot() -> Snapshot:
    """A GPU box with a CPU-only torch: OS, Python, an NVIDIA GPU, no docker."""
    snap = Snapshot(
        origin="live", created_at="2026-12-02T12:00:00+00:00", envdoctor_version="0.1.0"
    )
    snap.add(
        collected(
            "os",
            "probe:os_info",
            {
                "system": "Linux",
                "distro_id": "ubuntu",
                "distro_version": "24.04",
                "distro_name": "Ubuntu 24.04.1 LTS",
                "kernel": "6.8.0-49-generic",
                "arch": "x86_64",
                "glibc": "2.39",
                "virtualization": None,
            },
            summary="Ubuntu 24.04.1 LTS, kernel 6.8.0-49-generic, x86_64, glibc 2.39",
        )
    )
    snap.add(
        collected(
            "python",
            "probe:python_env",
            {"version": "3.12.3", "environment": "venv", "prefix": "/home/ana/proj/.venv"},
            summary="Python 3.12.3 (venv /home/ana/proj/.venv), 57 packages",
        )
    )
    snap.add(
        collected(
            "python.packages",
            "probe:python_env",
            {
                "packages": {"torch": "2.5.1+cpu", "numpy": "2.1.3"},
                "installers": {},
                "locations": {},
            },
        )
    )
    snap.add(
        collected(
            "nvidia.gpus",
            "nvml",
            {
                "gpus": [
                    {
                        "index": 0,
                        "name": "NVIDIA GeForce RTX 4090",
                        "compute_capability": "8.9",
                        "memory_total_mib": 24564,
                    }
                ]
            },
            summary="1 GPU: NVIDIA GeForce RTX 4090 (8.9, 24 GiB)",
        )
    )
    snap.add(
        collected(
            "nvidia.driver",
            "nvml",
            {"driver_version": "550.120", "cuda_driver_max": "12.4"},
            summary="driver 550.120 (CUDA 12.4)",
        )
    )
    snap.add(absent("container.docker", "probe:container", "docker is not installed"))
    snap.add(failed("cuda.toolkits", "probe:cuda_toolkit", "nvcc timed out after 5 s"))
    return snap


def sample_report() -> Report:
    """The sample snapshot with a root cause, a symptom it explains, and an info finding."""
    cause = Finding(
        id="torch.cpu-build-on-gpu-host",
        severity=Severity.ERROR,
        title="PyTorch is a CPU-only build on a machine with an NVIDIA GPU",
        detail="torch 2.5.1+cpu cannot use the RTX 4090.",
        evidence=(Evidence("python.torch.version", "2.5.1+cpu", "a +cu12x build"),),
        fixes=(
            Fix(
                "Reinstall torch with CUDA 12.4 kernels",
                (
                    "pip uninstall -y torch",
                    "pip install torch==2.5.1 --index-url https://download.pytorch.org/whl/cu124",
                ),
                Risk.SAFE,
                "https://pytorch.org/get-started/locally/",
            ),
            Fix(
                "Use conda's pytorch-cuda package instead",
                ("conda install pytorch pytorch-cuda=12.4",),
            ),
        ),
        explains=("torch.cuda-unavailable",),
    )
    symptom = Finding(
        id="torch.cuda-unavailable",
        severity=Severity.ERROR,
        title="torch.cuda.is_available() is False",
    )
    info = Finding(
        id="container.no-docker",
        severity=Severity.INFO,
        title="Docker is not installed",
        confidence=Confidence.MEDIUM,
    )
    return Report(
        sample_snapshot(),
        order([symptom, info, cause]),
        passed=["os.supported"],
        skipped=[Skipped("cuda.toolkit-newer-than-driver", "needs cuda.toolkits: failed")],
    )
