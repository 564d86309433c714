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
