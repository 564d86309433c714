"""An AMD GPU named without its gfx target gets the one rocm_targets lists for the product, and a
suggestion from similar cases offers only the fixes of entries whose `all` lines (what they
presuppose) the paste holds: an entry written for early GCN or Polaris Radeons does not advise an
RX 6700 XT, while the general fallbacks keep offering theirs."""

from __future__ import annotations

from typing import Any

from envdoctor.diagnosis.pipeline import active_matrices
from envdoctor.ingest import ingest_text
from envdoctor.triage_engine import casebase
from envdoctor.triage_engine.facts import Facts
from tests.triage_lines import leave_out_of_case_base

# Speech Note's verbose log, verbatim (https://github.com/mkiol/dsnote/issues/296)
DSNOTE = '[D] 13:26:35.007577108.7 0x7f79b1f56d00 () - gpu device str: ("ROCm", " 0", " AMD Radeon RX 6700 XT")'
DSNOTE_SOURCE = "https://github.com/mkiol/dsnote/issues/296"


def _facts(text: str) -> Facts:
    return Facts(ingest_text(text), active_matrices())


def test_a_radeon_named_by_product_gets_its_gfx_target() -> None:
    facts = _facts(DSNOTE)
    assert facts.get("gpu.vendor") == "amd"
    assert facts.get("gpu.gfx") == "gfx1031"


def test_a_printed_target_wins_over_the_product_name() -> None:
    # rocminfo's own line names the target; the product table is not asked then
    facts = _facts(DSNOTE + "\n  Name:                    gfx1030")
    assert facts.get("gpu.gfx") == "gfx1030"


def test_an_nvidia_gpu_gets_no_gfx_target() -> None:
    assert _facts("GPU 0: NVIDIA GeForce RTX 3090 (UUID: GPU-x)").get("gpu.gfx") is None


def test_an_unknown_radeon_gets_no_gfx_target() -> None:
    assert _facts("my AMD Radeon HD 2400 is not detected").get("gpu.gfx") is None


def _suggested_fixes(text: str, monkeypatch: Any) -> dict[str, str]:
    leave_out_of_case_base(DSNOTE_SOURCE, monkeypatch)
    found = casebase.suggested_by_cases(ingest_text(text), active_matrices())
    return {f.id: "\n".join(x.summary + " " + " ".join(x.commands) for x in f.fixes) for f in found}


def test_a_suggestion_offers_no_fix_written_for_another_radeon(monkeypatch: Any) -> None:
    text = "\n".join(
        [
            "In text-to-speech, I can use successfully only Piper models.",
            DSNOTE,
            "RuntimeError: HIP error: invalid device function",
        ]
    )
    fixes = _suggested_fixes(text, monkeypatch)
    assert "rocm.gfx-unsupported" in fixes, sorted(fixes)  # the cause whose entries differ
    everything = "\n".join(fixes.values())
    assert "10.3.0" in everything
    assert "gfx6 / gfx7" not in everything
    assert "Polaris (gfx803)" not in everything


def test_an_entry_keeps_its_fixes_when_its_subject_is_named() -> None:
    from envdoctor.triage_engine.loader import by_id

    facts = _facts("ROCm does not detect my AMD Radeon R7 M265, rocm-smi: No AMD GPUs specified")
    kept = casebase._with_premise(by_id()["rocm.gfx-unsupported"], facts)
    assert "rocm.gfx-unsupported.pre-gcn3-prose" in {s.key for s in kept}
    facts = _facts(DSNOTE)
    kept = casebase._with_premise(by_id()["rocm.gfx-unsupported"], facts)
    keys = {s.key for s in kept}
    assert "rocm.gfx-unsupported.pre-gcn3-prose" not in keys
    assert "rocm.gfx-unsupported.polaris-prose" not in keys
    assert "rocm.gfx-not-supported" in keys  # an entry presupposing nothing always offers
