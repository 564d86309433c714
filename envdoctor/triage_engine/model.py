"""The shapes of the triage engine's data: a cause (signature), its cues and fixes, and a match.

A signature names one cause. It is reached by its canonical error lines (`match`), or by prose
alone when the cue phrasings it lists (English and Chinese) add up to `prose_min`; the facts that
confirm it raise its score, those that refute it rule it out. Its fixes are either written out
(`summary`, `commands`) or remedy references that the one fix chooser (`envdoctor.remedies`)
resolves with the facts and the matrices, so one paste gets the exact wheel, driver floor or flag it needs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from envdoctor.model.findings import Risk, Severity

DEFAULT_SCORE = 50
DEFAULT_WEIGHT = 15
DEFAULT_PROSE_MIN = 40
FLAGS = re.IGNORECASE | re.ASCII  # how every pattern of the engine is compiled


@dataclass(frozen=True)
class Pattern:
    """One pattern, the lowercase literals one of which any match contains (its anchors), and
    other such sets (`also`: a match holds one literal of each). The regular expression is
    compiled on first use: most patterns never meet a line holding all of them."""

    text: str
    anchors: tuple[str, ...]
    also: tuple[tuple[str, ...], ...] = ()

    @cached_property
    def regex(self) -> re.Pattern[str]:
        """The compiled, case-insensitive expression. ASCII word rules: `\\b`, `\\w` and `\\d`
        treat Chinese characters as the non-word characters they are next to English words
        ("在WSL2里", "用jax跑", "cuda版本是12.1的"), as spaces are in English."""
        return re.compile(self.text, FLAGS)

    def possible_in(self, text: str) -> bool:
        """Whether `text` (lowercased) holds one of the anchors: if not, no line of it can match."""
        return any(a in text for a in self.anchors)

    def search(self, line: str, lowered: str) -> re.Match[str] | None:
        """The match in `line` (its lowercase form `lowered`), trying the regex only when an
        anchor and one literal of each other set are present."""
        if not any(a in lowered for a in self.anchors):
            return None
        if any(not any(a in lowered for a in group) for group in self.also):
            return None
        return self.regex.search(line)


@dataclass(frozen=True)
class Clause:
    """FACT OP VALUE, or a bare FACT (op None). A `~` / `!~` clause's value is a regular
    expression, compiled on first use: most clauses of a load are never evaluated."""

    fact: str
    op: str | None = None
    value: str | None = None
    negate: bool = False

    @cached_property
    def pattern(self) -> re.Pattern[str] | None:
        """The compiled expression of a `~` / `!~` clause, else None."""
        return re.compile(self.value or "", FLAGS) if self.op in ("~", "!~") else None


@dataclass(frozen=True)
class Condition:
    """Alternatives joined by `or`, each clauses joined by `and`, with the weight it adds when it
    confirms."""

    text: str
    alternatives: tuple[tuple[Clause, ...], ...]
    weight: int = DEFAULT_WEIGHT

    @property
    def clauses(self) -> tuple[Clause, ...]:
        """Every clause, whatever alternative it belongs to."""
        return tuple(c for alt in self.alternatives for c in alt)


@dataclass(frozen=True)
class Cue:
    """A phrasing that makes a cause more (positive weight) or less (negative) likely when any of
    its patterns occurs in the paste: how users describe it without the canonical error line."""

    patterns: tuple[Pattern, ...]
    weight: int
    notable: bool = True  # False: its phrasings do not make a line notable on their own


@dataclass(frozen=True)
class FixSpec:
    """A fix as written in the data, before templating."""

    summary: str
    commands: tuple[str, ...] = ()
    risk: Risk = Risk.SAFE
    url: str | None = None
    when: Condition | None = None
    first_when: Condition | None = None
    unless: Condition | None = None


@dataclass(frozen=True)
class Signature:
    """One cause of an error message (see `envdoctor.triage_engine.loader` for the file format)."""

    key: str
    id: str
    severity: Severity
    title: str
    detail: str
    match: tuple[Pattern, ...]
    all: tuple[Pattern, ...] = ()
    none: tuple[Pattern, ...] = ()
    capture: tuple[Pattern, ...] = ()
    requires: tuple[Condition, ...] = ()
    confirm: tuple[Condition, ...] = ()
    refute: tuple[Condition, ...] = ()
    score: int = DEFAULT_SCORE
    explains: tuple[str, ...] = ()
    fixes: tuple[FixSpec, ...] = ()
    defaults: Mapping[str, str] = field(default_factory=dict)
    sources: tuple[str, ...] = ()
    examples: tuple[str, ...] = ()
    origin: str = ""
    cues: tuple[Cue, ...] = ()
    prose_min: int = DEFAULT_PROSE_MIN
    prose_max: int | None = None  # the most a match reached by prose alone scores
    remedies: tuple[Any, ...] = ()  # envdoctor.remedies.RemedySpec, resolved by the fix chooser

    def patterns(self) -> Iterable[Pattern]:
        """Every pattern whose lines the free-text reader must keep."""
        yield from self.match
        yield from self.all
        yield from self.none
        yield from self.capture
        for cue in self.cues:
            if cue.notable:
                yield from cue.patterns
        fix_conditions = [
            c for f in self.fixes for c in (f.when, f.first_when, f.unless) if c is not None
        ]
        for condition in (*self.requires, *self.confirm, *self.refute, *fix_conditions):
            for clause in condition.clauses:
                if clause.op in ("~", "!~") and clause.fact == "text":
                    from envdoctor.triage_engine.patterns import anchors_of

                    yield Pattern(clause.value or "", anchors_of(clause.value or ""))


@dataclass
class Match:
    """A signature that applies to a snapshot: its score, the line it matched (or the strongest
    cue line when prose alone reached it), its captures and the conditions that confirmed it."""

    signature: Signature
    score: int
    line: str
    captures: dict[str, str]
    confirmed: list[tuple[Condition, list[tuple[str, Any, str | None]]]]
    cue_lines: list[str] = field(default_factory=list)


class SignatureError(ValueError):
    """A signature file that cannot be loaded."""
