"""The shared check of the signature tests: a pasted line reaches its cause first, and that
cause's fixes name the knob the real fix turns on."""

from __future__ import annotations

from envdoctor.model.findings import Finding
from envdoctor.triage_engine import triage_text


def fixes_text(finding: Finding) -> str:
    """A finding's fix summaries and commands, as one text."""
    return " ".join(" ".join((f.summary, *f.commands)) for f in finding.fixes)


def assert_first_with_knob(text: str, finding_id: str, knob: str) -> list[Finding]:
    """Triage `text`: `finding_id` ranks first and its fixes name `knob` (any case)."""
    findings = triage_text(text).findings
    assert findings and findings[0].id == finding_id, [f.id for f in findings[:3]]
    fixes = fixes_text(findings[0])
    assert knob.lower() in fixes.lower(), fixes
    return findings
