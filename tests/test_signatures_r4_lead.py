"""Canonical lines of common causes added at the end of round 4: nvcc not on PATH in English
shells, and PyTorch's DataLoader bus error (shared memory, not RAM). The lines are the messages
the shells and PyTorch print (sources in checks/signatures/r4_lead.toml)."""

from __future__ import annotations

import pytest

from envdoctor.triage_engine import triage_text

LINES = [
    (
        "'nvcc' is not recognized as an internal or external command,\n"
        "operable program or batch file.",
        "cuda.env-not-inherited",
        "CUDA_PATH",
    ),
    (
        "nvcc : The term 'nvcc' is not recognized as the name of a cmdlet, function, script file, "
        "or operable program.",
        "cuda.env-not-inherited",
        "CUDA_HOME",
    ),
    ("bash: nvcc: command not found", "cuda.env-not-inherited", "CUDA_HOME"),
    (
        "RuntimeError: DataLoader worker (pid 3456) is killed by signal: Bus error. It is possible "
        "that dataloader's workers are out of shared memory. Please try to raise your shared "
        "memory limit.",
        "nccl.shm-too-small",
        "--shm-size",
    ),
]


@pytest.mark.parametrize(("text", "finding_id", "knob"), LINES)
def test_the_line_names_its_cause_and_knob(text: str, finding_id: str, knob: str) -> None:
    findings = triage_text(text).findings
    assert findings and findings[0].id == finding_id, [f.id for f in findings[:3]]
    fixes = " ".join(" ".join((f.summary, *f.commands)) for f in findings[0].fixes)
    assert knob in fixes, fixes


def test_nvcc_missing_in_a_batch_job_is_the_job_environment() -> None:
    text = "#SBATCH --gres=gpu:1\nsrun python setup.py install\nbash: nvcc: command not found"
    finding = triage_text(text).findings[0]
    assert finding.id == "cuda.env-not-inherited"
    assert any("batch script" in f.summary for f in finding.fixes)
