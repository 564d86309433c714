"""JSON: the stable, versioned machine interface (sorted keys, no colour)."""

from __future__ import annotations

from envdoctor.model.report import Report


def render(report: Report, include_raw: bool = False, **_: object) -> str:
    """The report as one JSON document."""
    return report.to_json(include_raw=include_raw)
