"""Canonical lines of common causes added at the end of round 4: nvcc not on PATH in English
shells, and PyTorch's DataLoader bus error (shared memory, not RAM). Lines are real captures,
each with its source; the cmd.exe message is the one Windows prints (no capture in the corpus)."""

from __future__ import annotations

import pytest
from triage_lines import assert_first_with_knob

from envdoctor.triage_engine import triage_text

LINES = [
    # source: https://github.com/kriegalex/vscode-cuda/issues/9 (fix: add nvcc to PATH)
    (
        "nvcc : The term 'nvcc' is not recognized as the name of a cmdlet, function, script file, "
        "or operable program. Check the spelling of the name, or if a path was included, verify "
        "that the path is correct and try again.",
        "cuda.env-not-inherited",
        "CUDA_HOME",
    ),
    # source: tests/triage_corpus/train/en-1069-second-pytorch-nvcc-not-found-under-sudo.txt
    ("/bin/sh: 1: nvcc: not found", "cuda.env-not-inherited", "sudo env PATH"),
    # cmd.exe's own message for a command it cannot find
    (
        "'nvcc' is not recognized as an internal or external command,\n"
        "operable program or batch file.",
        "cuda.env-not-inherited",
        "CUDA_PATH",
    ),
    # source: https://github.com/hkchengrex/STCN/issues/132
    (
        "RuntimeError: DataLoader worker (pid 46794) is killed by signal: Bus error. It is possible "
        "that dataloader's workers are out of shared memory. Please try to raise your shared "
        "memory limit.",
        "nccl.shm-too-small",
        "--shm-size",
    ),
    # source: https://github.com/fastai/docker-containers/issues/21 (fixed with --shm-size=3G)
    (
        "RuntimeError: DataLoader worker (pid 47) is killed by signal: Bus\n"
        "error. It is possible that dataloader's workers are out of shared\n"
        "memory. Please try to raise your shared memory limit.",
        "nccl.shm-too-small",
        "--shm-size",
    ),
]


@pytest.mark.parametrize(("text", "finding_id", "knob"), LINES)
def test_the_line_names_its_cause_and_knob(text: str, finding_id: str, knob: str) -> None:
    assert_first_with_knob(text, finding_id, knob)


def test_nvcc_missing_in_a_batch_job_is_the_job_environment() -> None:
    text = "#SBATCH --gres=gpu:1\nsrun python setup.py install\nbash: nvcc: command not found"
    finding = triage_text(text).findings[0]
    assert finding.id == "cuda.env-not-inherited"
    assert any("batch script" in f.summary for f in finding.fixes)
