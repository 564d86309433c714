"""`envdoctor accept` on an AMD machine: NVML lists no GPU, so rocm-smi is sampled instead. The
rocm-smi here is a stand-in that prints a real capture (an RX 6700 XT on ROCm 6.1.2, from
tests/fixtures/real/rocm-smi/); the load runs for real on the CPU build of torch
(ENVDOCTOR_ACCEPT_DEVICE=cpu), as in test_accept.py."""

from __future__ import annotations

import json
import os
from pathlib import Path

import accept_fakes
import pytest
from test_accept import torch_python

from envdoctor.cli import main
from envdoctor.ingest import rocm_smi_metrics

CAPTURES = Path(__file__).resolve().parent / "fixtures" / "real" / "rocm-smi"
RX6700XT = CAPTURES / "telegraf-rx6700xt-rocm612.json"
MI100_X4 = CAPTURES / "telegraf-mi100-rocm602.json"


def fake_rocm_smi(folder: Path, capture: Path) -> Path:
    """A `rocm-smi` that prints `capture` whatever it is asked (counting its calls)."""
    folder.mkdir(parents=True, exist_ok=True)
    tool = folder / "rocm-smi"
    calls = folder / "rocm-smi.calls"
    tool.write_text(f'#!/bin/sh\necho "$@" >> "{calls}"\ncat "{capture}"\n')
    tool.chmod(0o755)
    return calls


def test_readings_of_real_captures():
    (card,) = rocm_smi_metrics.cards(RX6700XT.read_text()).values()
    reading = rocm_smi_metrics.reading(card)
    assert reading["temp_c"] == 45 and reading["temp_junction_c"] == 47
    assert reading["power_w"] == 6.0 and reading["mem_clock_mhz"] == 96
    assert (reading["pcie_gen"], reading["pcie_width"]) == (4, 16)  # "1 (16.0GT/s x16)"
    assert reading["reasons"] is None  # rocm-smi gives none: no throttling verdict from it
    assert rocm_smi_metrics.power_cap_w(card) == 211.0
    cards = rocm_smi_metrics.cards(MI100_X4.read_text())
    assert list(cards) == [0, 1, 2, 3]
    assert [rocm_smi_metrics.pci_address(c) for c in cards.values()] == [
        "0000:83:00.0",
        "0000:a3:00.0",
        "0000:c3:00.0",
        "0000:e3:00.0",
    ]


def test_not_json_reads_as_no_card():
    assert rocm_smi_metrics.cards("rocm-smi: command failed\n") == {}
    assert rocm_smi_metrics.cards('["card0"]') == {}


def test_amd_gpu_is_sampled_with_rocm_smi(monkeypatch, tmp_path):
    python = torch_python()
    calls = fake_rocm_smi(tmp_path / "bin", RX6700XT)
    accept_fakes.FakeNvml([]).install(monkeypatch.setattr)  # NVML works and lists no GPU
    monkeypatch.setenv("ENVDOCTOR_ACCEPT_DEVICE", "cpu")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:{os.environ.get('PATH', '')}")
    out = tmp_path / "report.json"
    code = main(
        ["accept", "--minutes", "0.05", "--interval", "0.2", "--python", python, "--json"]
        + ["-o", str(out), "--no-redact"]
    )
    doc = json.loads(out.read_text())
    facts = doc["snapshot"]["groups"]
    (gpu,) = facts["accept.gpus"]["data"]["gpus"]
    assert gpu["vendor"] == "amd" and gpu["name"].startswith("Navi 22")
    assert gpu["power_enforced_limit_w"] == 211.0
    samples = facts["accept.series"]["data"]["samples"]
    assert len(samples) >= 3 and all(s["temp_c"] == 45 and s["power_w"] == 6.0 for s in samples)
    assert any(s["phase"].startswith("load") for s in samples)  # sampled while the load ran
    assert len(calls.read_text().splitlines()) == len(samples) + 1  # one run per reading + init
    # what rocm-smi cannot say is not judged; the load's own results are
    for judged in ("accept.wrong-results", "accept.vram-errors", "accept.load-failed"):
        assert judged in doc["checks"]["passed"], judged
    assert not [f for f in doc["findings"] if f["id"].startswith("accept.thermal")]
    assert code == 0


def test_neither_nvml_nor_rocm_smi_is_one_line(monkeypatch, tmp_path, capfd):
    accept_fakes.FakeNvml([]).install(monkeypatch.setattr)
    monkeypatch.setenv("PATH", str(tmp_path))  # no rocm-smi
    assert main(["accept", "--minutes", "0.05"]) == 2
    err = capfd.readouterr().err
    assert err.count("\n") == 1
    assert "NVML lists no GPU" in err and "rocm-smi is not installed" in err


@pytest.mark.parametrize("index", ["1", "-1"])
def test_missing_amd_index(monkeypatch, tmp_path, capfd, index):
    fake_rocm_smi(tmp_path / "bin", RX6700XT)
    accept_fakes.FakeNvml([]).install(monkeypatch.setattr)
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:{os.environ.get('PATH', '')}")
    assert main(["accept", "--gpu", index, "--minutes", "0.05"]) == 2
    assert capfd.readouterr().err.count("\n") == 1
