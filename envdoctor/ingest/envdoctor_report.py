"""Reader of envdoctor's own reports: the JSON document (`--json`, `envdoctor report`), a bare
snapshot (`Snapshot.to_json`), and the Markdown report, whose embedded JSON reads back exactly.

Every fact group of the report comes back under its own name, with the report's data unchanged;
the source becomes "pasted:envdoctor-report (<original source>)" and the confidence is at most
medium (the facts were first-hand on the machine that wrote the report, not on this one). The
report's own findings (made on that machine, possibly from facts only it had) come back in the
`pasted.report` group (kind, envdoctor_version, findings as JSON); triage shows them next to what
the current checks find on the facts, one finding per id, the current check's winning.
"""

from __future__ import annotations

import json
from typing import Any

from envdoctor.model.snapshot import CONFIDENCE_ORDER, Confidence, FactGroup, Snapshot, collected

NAME = "envdoctor-report"
SOURCE = f"pasted:{NAME}"
MARKERS = ('"schema_version"', "envdoctor-report-json")
EXCLUSIVE = True  # a report's text is findings and facts, not an error message to match
_MARKERS = ('"schema_version"', "envdoctor-report-json")


def detect(text: str) -> bool:
    """Whether the text is (or embeds) an envdoctor JSON document."""
    head = text[:4096]
    return any(marker in head for marker in _MARKERS) or (
        '"schema_version"' in text and '"groups"' in text
    )


def read(text: str) -> list[FactGroup]:
    """The fact groups of the report, or [] when it is not one (or is malformed)."""
    document = _document(text)
    if document is None:
        return []
    snapshot = _snapshot(document)
    if snapshot is None:
        return []
    out = [_report_group(document)] if "snapshot" in document else []
    for group in snapshot.groups.values():
        if group.name in ("pasted.parts", "pasted.report"):
            continue
        confidence = group.confidence
        if CONFIDENCE_ORDER[confidence] < CONFIDENCE_ORDER[Confidence.MEDIUM]:
            confidence = Confidence.MEDIUM
        original = group.source or "unknown"
        source = original if original.startswith(SOURCE) else f"{SOURCE} ({original})"
        out.append(
            FactGroup(
                group.name,
                group.status,
                source,
                group.data,
                reason=group.reason,
                summary=group.summary,
                confidence=confidence,
                duration_ms=group.duration_ms,
                raw=group.raw,
            )
        )
    return out


def _report_group(document: dict[str, Any]) -> FactGroup:
    findings = [f for f in document.get("findings", []) or [] if isinstance(f, dict)]
    data = {
        "kind": document.get("kind"),
        "envdoctor_version": document.get("envdoctor_version"),
        "findings": findings,
    }
    return collected(
        "pasted.report",
        SOURCE,
        data,
        summary=f"envdoctor {data['kind'] or 'check'} report with {len(findings)} findings",
        confidence=Confidence.MEDIUM,
    )


def _document(text: str) -> dict[str, Any] | None:
    from envdoctor.model.report import extract_embedded

    candidate = extract_embedded(text)
    if candidate is None:
        start = text.find("{")
        end = text.rfind("}")
        if start < 0 or end <= start:
            return None
        candidate = text[start : end + 1]
    try:
        document = json.loads(candidate)
    except (json.JSONDecodeError, RecursionError):
        return None
    return document if isinstance(document, dict) else None


def _snapshot(document: dict[str, Any]) -> Snapshot | None:
    try:
        if "snapshot" in document:
            from envdoctor.model.report import Report

            return Report.from_dict(document).snapshot
        if "groups" in document:
            return Snapshot.from_dict(document)
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    return None
