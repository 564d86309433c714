"""Findings: what is wrong (or notable), the evidence for it, and the ranked ways to fix it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import TYPE_CHECKING, Any

from envdoctor.facts import layer_of
from envdoctor.snapshot import CONFIDENCE_ORDER, Confidence

if TYPE_CHECKING:  # imported when a fix carries them (the chooser's), not for every finding
    from envdoctor.fix_effects import Assumes, Effect


class Severity(str, Enum):
    """How much a finding matters. `error`: GPU work will fail; `warning`: it may fail or be
    slow; `info`: worth knowing, nothing to fix."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


SEVERITY_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}


class Risk(str, Enum):
    """What applying a fix costs."""

    SAFE = "safe"
    NEEDS_RESTART = "needs-restart"
    DESTRUCTIVE = "destructive"


@dataclass(frozen=True)
class Evidence:
    """One fact behind a finding: what was seen, and what was expected."""

    fact: str
    actual: str
    expected: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"fact": self.fact, "actual": self.actual, "expected": self.expected}


@dataclass(frozen=True)
class Fix:
    """One way to fix a finding. Commands are exact, for this OS and package manager.

    `effect` is what the fix changes in the facts and `assumes` where its commands work (see
    envdoctor.fix_effects); fixes from the chooser (envdoctor.remedies) always carry both.
    `verified`: True when re-diagnosis with the effect applied cleared the finding and raised no
    new error with every fact it relies on known; False when it was re-diagnosed but rests on
    `assumptions` (facts not given, stated for the user); None when not re-diagnosed (no effect).
    `relies_on` names the facts the verdict used ("nvidia.driver.driver_version").
    """

    summary: str
    commands: tuple[str, ...] = ()
    risk: Risk = Risk.SAFE
    url: str | None = None
    effect: Effect | None = None
    assumes: Assumes | None = None
    verified: bool | None = None
    relies_on: tuple[str, ...] = ()
    assumptions: tuple[str, ...] = ()

    def to_dict(self, rank: int) -> dict[str, Any]:
        """JSON form, with its rank (1 = try first). The verification fields are additions to
        schema 1 (absent from older reports)."""
        out: dict[str, Any] = {
            "rank": rank,
            "summary": self.summary,
            "commands": list(self.commands),
            "risk": self.risk.value,
            "url": self.url,
            "verified": self.verified,
            "relies_on": list(self.relies_on),
            "assumptions": list(self.assumptions),
        }
        if self.effect is not None:
            out["effect"] = self.effect.to_dict()
        if self.assumes is not None:
            out["assumes"] = self.assumes.to_dict()
        return out

    @classmethod
    def from_dict(cls, f: Mapping[str, Any]) -> Fix:
        """Rebuild a fix from JSON (older reports lack the verification fields)."""
        from envdoctor.fix_effects import Assumes, Effect

        effect = f.get("effect")
        assumes = f.get("assumes")
        return cls(
            str(f["summary"]),
            tuple(str(c) for c in f.get("commands", [])),
            Risk(f.get("risk", "safe")),
            f.get("url"),
            effect=Effect.from_dict(effect) if isinstance(effect, Mapping) else None,
            assumes=Assumes.from_dict(assumes) if isinstance(assumes, Mapping) else None,
            verified=f.get("verified") if isinstance(f.get("verified"), bool) else None,
            relies_on=tuple(str(x) for x in f.get("relies_on") or ()),
            assumptions=tuple(str(x) for x in f.get("assumptions") or ()),
        )


@dataclass(frozen=True)
class RejectedFix:
    """A fix the verifier did not show, and why ("driver 525: no branch after 470 supports
    Tesla K80 (Kepler)"). Listed under `check -v` and in the JSON's `rejected_fixes`."""

    summary: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"summary": self.summary, "reason": self.reason}


@dataclass(frozen=True)
class Finding:
    """A diagnosis. `fixes` are in rank order; `explains` lists symptom ids this cause accounts for."""

    id: str
    severity: Severity
    title: str
    detail: str = ""
    confidence: Confidence = Confidence.HIGH
    evidence: tuple[Evidence, ...] = ()
    fixes: tuple[Fix, ...] = ()
    explains: tuple[str, ...] = ()
    explained_by: str | None = None
    rejected_fixes: tuple[RejectedFix, ...] = ()

    @property
    def layer(self) -> str:
        """The layer this finding is shown under."""
        return layer_of(self.id)

    def with_confidence_at_most(self, cap: Confidence) -> Finding:
        """This finding with its confidence lowered to `cap` if it is higher."""
        if CONFIDENCE_ORDER[self.confidence] >= CONFIDENCE_ORDER[cap]:
            return self
        return replace(self, confidence=cap)

    def sort_key(self) -> tuple[int, int, int, str]:
        """Errors first, then confident ones, then causes that explain more."""
        return (
            SEVERITY_ORDER[self.severity],
            CONFIDENCE_ORDER[self.confidence],
            -len(self.explains),
            self.id,
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "id": self.id,
            "severity": self.severity.value,
            "confidence": self.confidence.value,
            "layer": self.layer,
            "title": self.title,
            "detail": self.detail,
            "evidence": [e.to_dict() for e in self.evidence],
            "fixes": [f.to_dict(i) for i, f in enumerate(self.fixes, start=1)],
            "explains": list(self.explains),
            "explained_by": self.explained_by,
            "rejected_fixes": [r.to_dict() for r in self.rejected_fixes],
        }

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any]) -> Finding:
        """Rebuild a finding from JSON; raises ValueError on a malformed one."""
        try:
            fixes = sorted(obj.get("fixes", []), key=lambda f: f.get("rank", 0))
            return cls(
                id=str(obj["id"]),
                severity=Severity(obj["severity"]),
                title=str(obj["title"]),
                detail=str(obj.get("detail", "")),
                confidence=Confidence(obj.get("confidence", "high")),
                evidence=tuple(
                    Evidence(
                        str(e["fact"]),
                        str(e["actual"]),
                        None if e.get("expected") is None else str(e["expected"]),
                    )
                    for e in obj.get("evidence", [])
                ),
                fixes=tuple(Fix.from_dict(f) for f in fixes),
                explains=tuple(str(x) for x in obj.get("explains", [])),
                explained_by=obj.get("explained_by"),
                rejected_fixes=tuple(
                    RejectedFix(str(r["summary"]), str(r["reason"]))
                    for r in obj.get("rejected_fixes") or []
                ),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"malformed finding: {exc}") from exc


def order(findings: list[Finding]) -> list[Finding]:
    """Rank findings: root causes first, each followed by the symptoms it explains.

    A finding is a symptom when another present finding lists its id in `explains`; it is marked
    with `explained_by` and placed right after its cause.
    """
    by_id: dict[str, list[Finding]] = {}
    for f in findings:
        by_id.setdefault(f.id, []).append(f)
    cause_of: dict[str, str] = {}
    for f in sorted(findings, key=Finding.sort_key):
        for symptom in f.explains:
            if symptom != f.id and symptom in by_id and symptom not in cause_of:
                cause_of[symptom] = f.id
    # a cause explained by its own symptom would loop: break cycles by keeping the first link
    for symptom, cause in list(cause_of.items()):
        if cause_of.get(cause) == symptom:
            del cause_of[symptom]
    roots = sorted((f for f in findings if f.id not in cause_of), key=Finding.sort_key)
    ordered: list[Finding] = []
    placed: set[int] = set()

    def place(f: Finding, parent: str | None) -> None:
        if id(f) in placed:
            return
        placed.add(id(f))
        ordered.append(replace(f, explained_by=parent) if parent else f)
        children = [s for sid, cid in cause_of.items() if cid == f.id for s in by_id[sid]]
        for child in sorted(children, key=Finding.sort_key):
            place(child, f.id)

    for root in roots:
        place(root, None)
    for f in sorted(findings, key=Finding.sort_key):  # anything left in a cycle
        place(f, None)
    return ordered
