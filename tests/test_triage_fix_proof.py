"""A triage fix is proven against the facts it was chosen by: the paste's own groups completed
from its prose, so a fix chosen for the driver a report names is not also said to assume it."""

from __future__ import annotations

from pathlib import Path

from envdoctor.triage_engine import triage_text

CORPUS = Path(__file__).parent / "triage_corpus"


def _body(name: str) -> str:
    text = (CORPUS / name).read_text(encoding="utf-8")
    return text.split("#! ---\n", 1)[1]


def test_a_fix_chosen_for_the_named_driver_is_verified_on_it() -> None:
    # a GTX 1050 on driver 550.163.01 (stated in the paste) with torch 2.8.0+cu128
    report = triage_text(_body("003-gtx1050-pascal-torch28-cu128.txt"))
    finding = report.findings[0]
    assert finding.id == "torch.gpu-too-old-for-build"
    fix = finding.fixes[0]
    assert "cu126" in fix.summary and "550.163.01" in fix.summary
    assert fix.verified is True
    assert not any("driver" in a and "not given" in a for a in fix.assumptions)


def test_a_build_chosen_for_the_drivers_cuda_does_not_say_the_driver_was_not_given() -> None:
    # torch's own warning gives the driver's CUDA (12020: CUDA 12.2) but not its version: the
    # chooser keeps the installed release and picks the CUDA 12 build that driver runs
    paste = (
        "PyTorch version: 2.9.0+cu130\n"
        "UserWarning: CUDA initialization: The NVIDIA driver on your system is too old "
        "(found version 12020). Please update your GPU driver by downloading and installing a "
        "new version from the URL: http://www.nvidia.com/Download/index.aspx\n"
        "GPU: NVIDIA GeForce RTX 3090\n"
    )
    finding = triage_text(paste).findings[0]
    assert finding.id == "torch.driver-too-old"
    fix = finding.fixes[0]
    assert fix.summary.startswith("Keep torch 2.9.0, switch to its cu12"), fix.summary
    assert "runs on a driver with CUDA 12.2" in fix.summary
    assert not any("not given" in a for a in fix.assumptions), fix.assumptions
