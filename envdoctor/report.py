"""The report: a snapshot plus what the checks said about it — the input of every renderer."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from envdoctor import __version__
from envdoctor.engine import CheckOutcome, Skipped
from envdoctor.findings import SEVERITY_ORDER, Finding, Severity
from envdoctor.snapshot import SCHEMA_VERSION, Snapshot


@dataclass
class Report:
    """One diagnosis, ready to render. `kind` names the command that made it."""

    snapshot: Snapshot
    findings: list[Finding] = field(default_factory=list)
    passed: list[str] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    kind: str = "check"
    envdoctor_version: str = __version__

    @classmethod
    def from_outcome(cls, snapshot: Snapshot, outcome: CheckOutcome, kind: str = "check") -> Report:
        """Bundle a snapshot with the checks' outcome."""
        return cls(snapshot, outcome.findings, outcome.passed, outcome.skipped, kind)

    def count(self, severity: Severity) -> int:
        """How many findings have this severity."""
        return sum(1 for f in self.findings if f.severity is severity)

    def worst_at_least(self, threshold: Severity) -> bool:
        """Whether any finding is at or above `threshold` (error > warning > info)."""
        limit = SEVERITY_ORDER[threshold]
        return any(SEVERITY_ORDER[f.severity] <= limit for f in self.findings)

    def to_dict(self, include_raw: bool = False) -> dict[str, Any]:
        """The stable JSON document (see README, "JSON output")."""
        return {
            "schema_version": SCHEMA_VERSION,
            "envdoctor_version": self.envdoctor_version,
            "kind": self.kind,
            "snapshot": self.snapshot.to_dict(include_raw),
            "findings": [f.to_dict() for f in self.findings],
            "checks": {
                "passed": sorted(self.passed),
                "skipped": [
                    {"id": s.id, "reason": s.reason, "not_present": s.not_present}
                    for s in self.skipped
                ],
            },
            "summary": {s.value: self.count(s) for s in Severity},
        }

    def to_json(self, include_raw: bool = False) -> str:
        """The stable JSON document as text (what `--json` prints)."""
        from envdoctor.render import render

        return render(self, "json", include_raw=include_raw)

    def to_text(self, verbose: bool = False) -> str:
        """The plain-text view (what `check` prints when not on a terminal)."""
        from envdoctor.render import render

        return render(self, "text", verbose=verbose, color=False)

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        counts = ", ".join(f"{self.count(s)} {s.value}" for s in Severity)
        return f"<envdoctor Report {self.kind}: {counts}>"

    def _repr_html_(self) -> str:
        """Jupyter's inline view: the HTML report in a sandboxed frame, so its page styles
        cannot leak into the notebook's."""
        from html import escape

        from envdoctor.render import render

        page = render(self, "html")
        return (
            '<iframe class="envdoctor-report" sandbox="" style="width:100%;height:640px;'
            f'border:1px solid #ccc" srcdoc="{escape(page, quote=True)}"></iframe>'
        )

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """IPython's terminal view: the plain-text report."""
        printer.text(repr(self) if cycle else self.to_text())

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any]) -> Report:
        """Rebuild a report from its JSON document; raises ValueError when malformed."""
        if not isinstance(obj, Mapping) or "snapshot" not in obj:
            raise ValueError("not an envdoctor report (no 'snapshot')")
        version = obj.get("schema_version")
        if not isinstance(version, int) or version > SCHEMA_VERSION:
            raise ValueError(f"unsupported report schema_version {version!r}")
        snapshot = Snapshot.from_dict(obj["snapshot"])
        findings = [Finding.from_dict(f) for f in obj.get("findings", [])]
        checks = obj.get("checks", {}) or {}
        try:
            skipped = [
                Skipped(str(s["id"]), str(s["reason"]), bool(s.get("not_present", False)))
                for s in checks.get("skipped", [])
            ]
            passed = [str(p) for p in checks.get("passed", [])]
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"malformed 'checks' section: {exc}") from exc
        return cls(
            snapshot,
            findings,
            passed,
            skipped,
            str(obj.get("kind", "check")),
            str(obj.get("envdoctor_version", "unknown")),
        )
