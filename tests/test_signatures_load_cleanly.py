"""Every shipped signature file loads whole: a TOML error or a pattern the loader refuses (no
literal of three characters to index it by) drops that file or entry with no finding to show for
it, and triage then quietly says less. The loader keeps those errors; none may ship."""

from __future__ import annotations

from pathlib import Path

from envdoctor.triage_engine.loader import DATA

SIGNATURES = Path(__file__).resolve().parent.parent / "checks" / "signatures"


def test_the_shipped_signatures_load_without_errors() -> None:
    assert DATA.errors == ()


def test_every_signature_file_contributes_entries() -> None:
    files = {p.name for p in SIGNATURES.glob("*.toml") if not p.name.startswith("_")}
    loaded = {Path(str(s.origin)).name for s in DATA.signatures}
    assert files <= loaded, sorted(files - loaded)
