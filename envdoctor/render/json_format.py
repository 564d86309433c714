"""JSON: the stable, versioned machine interface (sorted keys, no colour)."""

from __future__ import annotations

import json

from envdoctor.model.report import Report


def render(report: Report, include_raw: bool = False, **_: object) -> str:
    """The report as one JSON document."""
    return json.dumps(report.to_dict(include_raw=include_raw), sort_keys=True, indent=2) + "\n"
