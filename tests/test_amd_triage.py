"""`envdoctor triage` on pasted rocminfo / rocm-smi output: the GPUs, their gfx targets and the
problems they imply (real captures from tests/fixtures/real and tests/fixtures/amd)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from envdoctor.commands.triage import triage_text

FIXTURES = Path(__file__).parent / "fixtures" / "amd"


def _capture(real_captures: Path, folder: str, name: str) -> str:
    return (real_captures / folder / name).read_text()


def _doc(text: str) -> dict:
    report = triage_text(text)
    from envdoctor.render import render

    return json.loads(render(report, "json"))


def _gpus(doc: dict) -> list[tuple[str, str]]:
    return [
        (g["name"], g["gfx_target"]) for g in doc["snapshot"]["groups"]["amd.gpus"]["data"]["gpus"]
    ]


def _findings(doc: dict) -> dict[str, dict]:
    return {f["id"]: f for f in doc["findings"]}


def test_cli_triage_of_a_rocminfo_file(real_captures):
    path = real_captures / "rocminfo" / "thamada-rocminfo-mi300x-x4-epyc9474f.txt"
    result = subprocess.run(
        [sys.executable, "-m", "envdoctor", "triage", "--json", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    assert _gpus(doc) == [("AMD Instinct MI300X", "gfx942")] * 4
    assert not [
        f for f in doc["findings"] if f["id"].startswith("rocm.")
    ]  # gfx942 is supported: nothing to fix
    text = subprocess.run(
        [sys.executable, "-m", "envdoctor", "triage", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    assert "4 AMD GPUs: 4× AMD Instinct MI300X (gfx942)" in text


def test_mi25_rocminfo_implies_an_unsupported_target(real_captures):
    doc = _doc(
        _capture(
            real_captures, "rocminfo", "bankh-rocminfo-radeon-instinct-mi25-x7-threadripper.txt"
        )
    )
    assert _gpus(doc) == [("Radeon Instinct MI25", "gfx900")] * 7
    finding = _findings(doc)["rocm.gfx-unsupported"]
    assert finding["title"] == "ROCm does not support Radeon Instinct MI25 (gfx900) on Linux"
    assert finding["confidence"] == "medium"  # drawn from a structured paste


def test_rx6700xt_rocm_smi_json_implies_the_rdna2_override(real_captures):
    doc = _doc(_capture(real_captures, "rocm-smi", "telegraf-rx6700xt-rocm612.json"))
    assert _gpus(doc) == [("Navi 22 [Radeon RX 6700/6700 XT / 6800M]", "gfx1031")]
    finding = _findings(doc)["rocm.gfx-unsupported"]
    [fix] = finding["fixes"]
    assert (
        fix["summary"].startswith("Unsupported workaround")
        and fix["commands"][0] == "export HSA_OVERRIDE_GFX_VERSION=10.3.0"
    )


def test_rocm_smi_concise_table(real_captures):
    doc = _doc(_capture(real_captures, "rocm-smi", "thamada-rocm-smi-concise-mi300x-x4.txt"))
    assert _gpus(doc) == [("AMD Instinct MI300X", "gfx942")] * 4
    assert doc["snapshot"]["groups"]["amd.gpus"]["source"] == "pasted:rocm-smi"


def test_wsl_rocminfo_with_its_collect_env(real_captures):
    """ROCm issue 3581: rocminfo and collect_env of one WSL2 machine pasted together."""
    text = (
        _capture(
            real_captures,
            "rocminfo",
            "rocminfo-wsl2-gfx1030-rx6800xt-rocm-6.1.3-rocm-issue-3581.txt",
        )
        + "\n\n"
        + _capture(
            real_captures,
            "collect_env",
            "torch-2.1.2+rocm6.1.3-wsl2-radeon-rx6800xt-rocm-issue-3581.txt",
        )
    )
    doc = _doc(text)
    assert ("AMD Radeon RX 6800 XT", "gfx1030") in _gpus(doc)
    found = _findings(doc)
    assert "rocm.cuda-torch-on-amd" not in found  # a ROCm build
    assert found["rocm.product-unlisted"]["severity"] == "info"


def test_rocminfo_with_a_cpu_torch(real_captures):
    text = (
        _capture(real_captures, "rocminfo", "thamada-rocminfo-mi300x-x4-epyc9474f.txt")
        + "\n\n"
        + _capture(
            real_captures,
            "collect_env",
            "torch-1.3.0-ubuntu18.04-conda-cpuonly-pytorch-issue-29035.txt",
        )
    )
    doc = _doc(text)
    found = _findings(doc)
    cause = found["rocm.cuda-torch-on-amd"]
    assert "CPU-only build" in cause["title"] and "AMD Instinct MI300X (gfx942)" in cause["title"]
    assert any("download.pytorch.org/whl/rocm" in c for c in cause["fixes"][0]["commands"])
    assert found["torch.cpu-build-on-gpu-host"]["explained_by"] == "rocm.cuda-torch-on-amd"


def test_rocminfo_permission_denied():
    doc = _doc((FIXTURES / "rocminfo-kfd-permission-denied-rocm-docker-issue-116.txt").read_text())
    finding = _findings(doc)["rocm.kfd-permission"]
    assert finding["severity"] == "error"
    assert any(
        f["commands"][:1] == ["sudo usermod -a -G render,video $LOGNAME"] for f in finding["fixes"]
    )
    assert doc["findings"][0]["id"] == "rocm.kfd-permission"


@pytest.mark.parametrize(
    "name",
    [
        "thamada-rocm-smi-a-mi300x-x4.txt",
        "telegraf-mi100-rocm602.json",
        "telegraf-vega-20-WKS-GL-XE.json",
    ],
)
def test_listed_instinct_cards_raise_nothing(real_captures, name):
    doc = _doc(_capture(real_captures, "rocm-smi", name))
    assert doc["snapshot"]["groups"]["amd.gpus"]["status"] == "collected"
    assert not [f["id"] for f in doc["findings"] if f["id"].startswith("rocm.")]
