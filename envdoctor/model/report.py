"""The report: a snapshot plus what the checks said about it — the input of every renderer."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from envdoctor import __version__
from envdoctor.model.findings import SEVERITY_ORDER, Finding, Severity
from envdoctor.model.snapshot import SCHEMA_VERSION, Snapshot

EMBED_START = "<!-- envdoctor-report-json"  # the JSON document inside a Markdown / HTML report
EMBED_END = "envdoctor-report-json -->"


@dataclass(frozen=True)
class Skipped:
    """A check that did not run, and why. `not_present` is True when it did not run because what
    it examines is absent from the machine (no GPU, no docker): not applicable rather than unknown."""

    id: str
    reason: str
    not_present: bool = False


@dataclass
class CheckOutcome:
    """Everything the checks said about one snapshot."""

    findings: list[Finding] = field(default_factory=list)
    passed: list[str] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    not_applicable: list[str] = field(default_factory=list)


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
        """The stable JSON document as text (what `--json` prints): sorted keys, indented."""
        import json

        return json.dumps(self.to_dict(include_raw=include_raw), sort_keys=True, indent=2) + "\n"

    def __repr__(self) -> str:
        counts = ", ".join(f"{self.count(s)} {s.value}" for s in Severity)
        return f"<envdoctor Report {self.kind}: {counts}>"

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


def extract_embedded(text: str) -> str | None:
    """The JSON document embedded in a Markdown or HTML report, or None."""
    start = text.find(EMBED_START)
    if start < 0:
        return None
    end = text.find(EMBED_END, start)
    if end < 0:
        return None
    return text[start + len(EMBED_START) : end]  # json.loads undoes the "--\\u003e" escape
