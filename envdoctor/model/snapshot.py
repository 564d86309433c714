"""The snapshot: every fact envdoctor knows about one machine, grouped by layer.

Each `FactGroup` is collected (with data), absent (the thing is not there, with the reason), or
failed (the probe could not tell, with the reason). Live probes, pasted text and saved reports all
produce the same groups; checks never know which source filled one. The JSON form round-trips
losslessly.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

SCHEMA_VERSION = 1


class Status(str, Enum):
    """Whether a fact group holds facts."""

    COLLECTED = "collected"
    ABSENT = "absent"
    FAILED = "failed"


class Confidence(str, Enum):
    """How far facts (and findings drawn from them) can be trusted."""

    HIGH = "high"  # read on the live machine
    MEDIUM = "medium"  # read from a structured paste (nvidia-smi -q -x, an envdoctor report)
    LOW = "low"  # inferred from free text (a traceback, a log line)


CONFIDENCE_ORDER = {Confidence.HIGH: 0, Confidence.MEDIUM: 1, Confidence.LOW: 2}


@dataclass
class FactGroup:
    """One group of facts from one source.

    `data` holds JSON values only. `summary` is a one-line description for people ("Debian 12,
    kernel 6.1.0, x86_64"). `raw` keeps the captures behind the facts (command output) for
    reports; it is omitted from the snapshot JSON unless asked for.
    """

    name: str
    status: Status
    source: str
    data: dict[str, Any] = field(default_factory=dict)
    reason: str | None = None
    summary: str | None = None
    confidence: Confidence = Confidence.HIGH
    duration_ms: float | None = None
    raw: dict[str, str] = field(default_factory=dict)

    @property
    def collected(self) -> bool:
        """True when the group holds facts."""
        return self.status is Status.COLLECTED

    def get(self, key: str, default: Any = None) -> Any:
        """A fact of this group, or `default`."""
        return self.data.get(key, default)

    def to_dict(self, include_raw: bool = False) -> dict[str, Any]:
        """The JSON form of this group."""
        out: dict[str, Any] = {
            "status": self.status.value,
            "source": self.source,
            "data": self.data,
            "confidence": self.confidence.value,
        }
        if self.reason is not None:
            out["reason"] = self.reason
        if self.summary is not None:
            out["summary"] = self.summary
        if self.duration_ms is not None:
            out["duration_ms"] = round(self.duration_ms, 1)
        if include_raw and self.raw:
            out["raw"] = self.raw
        return out

    @classmethod
    def from_dict(cls, name: str, obj: Mapping[str, Any]) -> FactGroup:
        """Rebuild a group from its JSON form; raises ValueError on a malformed one."""
        if not isinstance(obj, Mapping):
            raise ValueError(f"fact group {name!r} is not an object")
        try:
            status = Status(obj["status"])
            confidence = Confidence(obj.get("confidence", "high"))
        except (KeyError, ValueError) as exc:
            raise ValueError(f"fact group {name!r}: bad or missing status/confidence") from exc
        data = obj.get("data", {})
        raw = obj.get("raw", {})
        if not isinstance(data, dict) or not isinstance(raw, dict):
            raise ValueError(f"fact group {name!r}: data and raw must be objects")
        source = obj.get("source", "unknown")
        duration = obj.get("duration_ms")
        return cls(
            name=name,
            status=status,
            source=str(source),
            data=data,
            reason=_opt_str(obj.get("reason")),
            summary=_opt_str(obj.get("summary")),
            confidence=confidence,
            duration_ms=float(duration) if isinstance(duration, (int, float)) else None,
            raw={str(k): str(v) for k, v in raw.items()},
        )


def collected(
    name: str, source: str, data: dict[str, Any], summary: str | None = None, **kw: Any
) -> FactGroup:
    """A group that holds facts."""
    return FactGroup(name, Status.COLLECTED, source, data, summary=summary, **kw)


def absent(name: str, source: str, reason: str, **kw: Any) -> FactGroup:
    """A group whose subject is not present on the machine (no GPU, no docker...)."""
    return FactGroup(name, Status.ABSENT, source, reason=reason, **kw)


def failed(name: str, source: str, reason: str, **kw: Any) -> FactGroup:
    """A group the probe could not fill (timed out, crashed, permission denied...)."""
    return FactGroup(name, Status.FAILED, source, reason=reason, **kw)


@dataclass
class Snapshot:
    """All fact groups about one machine. `origin` is "live", "pasted" or "report"."""

    groups: dict[str, FactGroup] = field(default_factory=dict)
    origin: str = "live"
    created_at: str | None = None
    envdoctor_version: str | None = None

    def add(self, group: FactGroup) -> None:
        """Add or replace a group (a collected group is never replaced by a lesser one)."""
        existing = self.groups.get(group.name)
        if existing is not None and existing.collected and not group.collected:
            return
        self.groups[group.name] = group

    def extend(self, groups: Iterable[FactGroup]) -> None:
        """Add several groups."""
        for group in groups:
            self.add(group)

    def group(self, name: str) -> FactGroup | None:
        """The group called `name`, whatever its status."""
        return self.groups.get(name)

    def data(self, name: str) -> dict[str, Any] | None:
        """The facts of a collected group, or None."""
        group = self.groups.get(name)
        return group.data if group is not None and group.collected else None

    def fact(self, name: str, key: str, default: Any = None) -> Any:
        """One fact of a collected group, or `default`."""
        data = self.data(name)
        return default if data is None else data.get(key, default)

    def has(self, name: str) -> bool:
        """Whether the group is collected."""
        return self.data(name) is not None

    def merged_with(self, other: Snapshot) -> Snapshot:
        """A new snapshot with this one's groups, completed by `other`'s where this lacks them."""
        merged = Snapshot(dict(self.groups), self.origin, self.created_at, self.envdoctor_version)
        for group in other.groups.values():
            if not merged.has(group.name):
                merged.add(group)
        return merged

    def to_dict(self, include_raw: bool = False) -> dict[str, Any]:
        """The JSON form of the snapshot."""
        return {
            "schema_version": SCHEMA_VERSION,
            "origin": self.origin,
            "created_at": self.created_at,
            "envdoctor_version": self.envdoctor_version,
            "groups": {name: g.to_dict(include_raw) for name, g in sorted(self.groups.items())},
        }

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any]) -> Snapshot:
        """Rebuild a snapshot; raises ValueError on a malformed or newer-schema document."""
        if not isinstance(obj, Mapping):
            raise ValueError("snapshot is not a JSON object")
        version = obj.get("schema_version")
        if not isinstance(version, int):
            raise ValueError("snapshot has no integer schema_version")
        if version > SCHEMA_VERSION:
            raise ValueError(
                f"snapshot schema_version {version} is newer than this envdoctor reads "
                f"({SCHEMA_VERSION}): upgrade envdoctor"
            )
        groups = obj.get("groups", {})
        if not isinstance(groups, Mapping):
            raise ValueError("snapshot 'groups' is not an object")
        snap = cls(
            origin=str(obj.get("origin", "report")),
            created_at=_opt_str(obj.get("created_at")),
            envdoctor_version=_opt_str(obj.get("envdoctor_version")),
        )
        for name, group in groups.items():
            snap.groups[str(name)] = FactGroup.from_dict(str(name), group)
        return snap

    def to_json(self) -> str:
        """Canonical JSON text (sorted keys)."""
        return json.dumps(self.to_dict(include_raw=True), sort_keys=True, indent=2)

    @classmethod
    def from_json(cls, text: str) -> Snapshot:
        """Parse canonical JSON text; raises ValueError on bad input."""
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"not valid JSON: {exc.msg} at line {exc.lineno}") from exc
        except RecursionError:
            raise ValueError("not valid JSON: nested too deeply") from None
        return cls.from_dict(obj)


def _opt_str(value: Any) -> str | None:
    return None if value is None else str(value)
