"""Healthy captures must not raise error findings when triaged (no false alarms)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEALTHY = [
    "nvidia-smi-text/nvexp-h100-mig-linux-590.48.01.txt",
    "nvidia-smi-text/nvexp-h200-linux-590.48.01.txt",
    "nvidia-smi-text/nvexp-nvidia-smi-q-rtx2080super-windows-591.86.txt",
    "nvidia-smi-text/thamada-geforce-rtx4090-linux.txt",
    "nvidia-smi-q-x/telegraf-a100-sxm4-80gb-mig-driver-535.54.03.xml",
    "misc/nvexp-nvidia-smi-L-h100-mig-590.48.01.txt",
]


@pytest.mark.parametrize("name", HEALTHY)
def test_healthy_capture_has_no_error_finding(real_captures, name):
    result = subprocess.run(
        [sys.executable, "-m", "envdoctor", "triage", str(real_captures / name), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode in (0, 1), result.stderr
    findings = json.loads(result.stdout)["findings"]
    errors = [f["id"] for f in findings if f["severity"] == "error"]
    assert errors == [], errors
    assert not any(f["id"].startswith("nvidia.mig") for f in findings)


def test_text_on_the_opening_fence_line_is_kept():
    paste = (
        "```torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB "
        "(GPU 0; 23.65 GiB total capacity)\n```\n"
    )
    result = subprocess.run(
        [sys.executable, "-m", "envdoctor", "triage", "-", "--json"],
        input=paste,
        capture_output=True,
        text=True,
        timeout=120,
    )
    ids = [f["id"] for f in json.loads(result.stdout)["findings"]]
    assert ids and ids[0] == "memory.out-of-memory", ids
