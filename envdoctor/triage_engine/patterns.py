"""Patterns of the signature data: compiled once, each with the literal every match contains.

Each pattern must contain a literal of at least three characters (two for CJK) that every match
contains: the free-text reader keeps only the lines that hold an anchor, so the snapshot never
carries a whole 50 MB log, and each pattern runs only on lines that can match it. Unbounded
repeats nested inside others (`(a+)+`) are refused, since they can backtrack exponentially.
"""

from __future__ import annotations

import heapq
import re
import sys
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from envdoctor.triage_engine.model import Pattern, SignatureError

if sys.version_info >= (3, 11):
    from re import _constants as sre_constants  # type: ignore[attr-defined]
    from re import _parser as sre_parse  # type: ignore[attr-defined]
else:  # pragma: no cover - Python 3.10
    import sre_constants
    import sre_parse

_MAX_REPEAT = sre_constants.MAX_REPEAT
_MIN_REPEAT = sre_constants.MIN_REPEAT
_POSSESSIVE = getattr(sre_constants, "POSSESSIVE_REPEAT", None)


# The memos of this module (its only mutable state): the anchors of every pattern text analysed
# in this process, or read back from the loader's cache (`remember_anchors`). Anchors depend on
# the text alone, and parsing a pattern again for them is most of what `anchors()` would cost.
_ANCHORS: dict[str, tuple[str, ...]] = {}
# ... and the other sets of literals each match holds one of (`also_of`)
_ALSO: dict[str, tuple[tuple[str, ...], ...]] = {}


# Likewise the pattern texts that passed `check_backtracking`.
_CHECKED: set[str] = set()
# Cache entries of earlier loads (`remember_anchors`): read for a pattern when first asked, so a
# run pays for the patterns its paste needs, not for all of them.
_SEEDS: list[tuple[Mapping[str, Iterable[str]], Mapping[str, Iterable[Iterable[str]]]]] = []


def remember_anchors(
    known: Mapping[str, Iterable[str]], also: Mapping[str, Iterable[Iterable[str]]] | None = None
) -> None:
    """Seed the memos with patterns analysed (and checked) by an earlier load of the same
    signature files."""
    _SEEDS.append((known, also or {}))


def forget_anchors() -> None:
    """Empty the memos (after seeding them from a cache entry that turned out to be damaged)."""
    _ANCHORS.clear()
    _ALSO.clear()
    _CHECKED.clear()
    _SEEDS.clear()


def _seeded(pattern: str) -> bool:
    """Whether a seed knows `pattern`; if so its anchors, other sets and check are memoised."""
    for known, also in _SEEDS:
        found = known.get(pattern)
        if found is not None:
            _ANCHORS.setdefault(pattern, tuple(found))
            _ALSO.setdefault(pattern, tuple(tuple(group) for group in also.get(pattern, ())))
            _CHECKED.add(pattern)
            return True
    return False


def _required_literals(parsed: Any) -> set[str] | None:
    """A set of lowercase strings one of which every match contains, or None: the one of
    `_required_sets` that anchors best (the first of equals)."""
    best: set[str] | None = None
    for candidate in _required_sets(parsed):
        if best is None or _strength(candidate) > _strength(best):
            best = candidate
    return best


def _required_sets(parsed: Any) -> list[set[str]]:
    """Every set of lowercase strings, one of which every match contains, that the pattern's
    top-level sequence gives: its literal runs, and the best set of each group, alternation and
    repeat it cannot skip. A match holds one string of EACH set."""
    sets: list[set[str]] = []
    run = ""

    def add(candidate: set[str] | None) -> None:
        if candidate:
            sets.append(candidate)

    for op, av in parsed:
        if op is sre_constants.LITERAL:
            run += chr(av).lower()
            continue
        add({run} if run else None)
        run = ""
        if op is sre_constants.SUBPATTERN:
            add(_required_literals(av[-1]))
        elif op is sre_constants.BRANCH:
            options: set[str] = set()
            for branch in av[1]:
                found = _required_literals(branch)
                if not found:
                    options = set()
                    break
                options |= found
            add(options or None)
        elif op in (_MAX_REPEAT, _MIN_REPEAT, _POSSESSIVE) and av[0] >= 1:
            add(_required_literals(av[2]))
        elif op is sre_constants.IN:
            # a one-character class of case variants only ("[Kk]") continues a run
            chars = {chr(v).lower() for kind, v in av if kind is sre_constants.LITERAL}
            if len(chars) == 1 and all(kind is sre_constants.LITERAL for kind, _ in av):
                run += chars.pop()
                continue
    add({run} if run else None)
    return sets


# Words that any log line may hold ("retry 3 failed", "fan speed 40%"): a literal of these is a
# poor anchor, since every line holding it becomes notable and is tried. Another required
# literal of the pattern is preferred ("fan" in "fans? (?:speed|stopped|failed)", "net/ib" in
# "NET/IB ... ibv_x failed"); they still anchor a pattern that has nothing else.
WEAK_ANCHORS = frozenset(
    ["failed", "failure", "error", "errors", "warning", "cannot", "unable", "invalid", "denied",
     "not found", "speed", "stopped", "started", "done", "true", "false", "none", "instead"]
)  # fmt: skip


def _strength(options: set[str]) -> float:
    """How well a set of literals anchors: its shortest length, a common word counting 2.5 (below
    any other literal of 3+ characters, above the shorter ones that cannot anchor alone)."""
    return min(2.5 if o.strip() in WEAK_ANCHORS else _literal_length(o) for o in options)


def _literal_length(text: str) -> int:
    return sum(1 if ch.isascii() else 2 for ch in text)


def anchors_of(pattern: str, parsed: Any = None) -> tuple[str, ...]:
    """The literals one of which every match of `pattern` contains (SignatureError if none
    has 3+ characters, a CJK character counting 2)."""
    known = _ANCHORS.get(pattern)
    if known is not None or (_SEEDS and _seeded(pattern)):
        return known or _ANCHORS[pattern]
    parsed = parsed if parsed is not None else sre_parse.parse(pattern, re.IGNORECASE)
    found = _required_literals(parsed)
    if not found or min(_literal_length(o) for o in found) < 3:
        raise SignatureError(
            f"pattern {pattern!r} has no literal of 3+ characters every match contains"
        )
    _ANCHORS[pattern] = result = tuple(sorted(found))
    return result


MAX_ALSO = 3  # the other literal sets a pattern keeps (each one more `in` test per line)


def also_of(pattern: str, parsed: Any = None) -> tuple[tuple[str, ...], ...]:
    """The sets of literals besides the anchors of which every match of `pattern` holds one
    each (3+ characters, strongest first): a line holding an anchor ("gpu") but none of another
    set ("not used") cannot match, and the expression need not be compiled to say so."""
    known = _ALSO.get(pattern)
    if known is not None or (_SEEDS and _seeded(pattern) and pattern in _ALSO):
        return known if known is not None else _ALSO[pattern]
    parsed = parsed if parsed is not None else sre_parse.parse(pattern, re.IGNORECASE)
    anchors = set(anchors_of(pattern, parsed))
    groups: list[tuple[str, ...]] = []
    for found in sorted(_required_sets(parsed), key=_strength, reverse=True):
        group = tuple(sorted(found))
        if found != anchors and min(map(_literal_length, found)) >= 3 and group not in groups:
            groups.append(group)
    _ALSO[pattern] = result = tuple(groups[:MAX_ALSO])
    return result


def check_backtracking(pattern: str, parsed: Any = None) -> None:
    """Refuse an unbounded repeat inside another one, such as (a+)+ or (\\w*\\s?)*, which can
    backtrack exponentially; bound the outer one instead ({1,40})."""
    if pattern in _CHECKED or (_SEEDS and _seeded(pattern)):
        return

    def walk(tree: Any, inside_repeat: bool) -> None:
        for op, av in tree:
            if op in (_MAX_REPEAT, _MIN_REPEAT, _POSSESSIVE):
                unbounded = av[1] == sre_constants.MAXREPEAT or av[1] > 50
                if unbounded and inside_repeat:
                    raise SignatureError(f"pattern {pattern!r} nests unbounded repeats")
                walk(av[2], inside_repeat or unbounded)
            elif op is sre_constants.SUBPATTERN:
                walk(av[-1], inside_repeat)
            elif op is sre_constants.BRANCH:
                for branch in av[1]:
                    walk(branch, inside_repeat)

    walk(parsed if parsed is not None else sre_parse.parse(pattern, re.IGNORECASE), False)
    _CHECKED.add(pattern)


def compile_pattern(text: str) -> Pattern:
    """A case-insensitive pattern with its anchors (parsed once; compiled on first use);
    SignatureError when unusable."""
    try:
        parsed = sre_parse.parse(text, re.IGNORECASE)
    except re.error as exc:
        raise SignatureError(f"pattern {text!r} is not a valid regular expression: {exc}") from exc
    check_backtracking(text, parsed)
    return Pattern(text, anchors_of(text, parsed), also_of(text, parsed))


class LineIndex:
    """Where anchors occur in a paste's notable lines (lowercased), so that a pattern is tried
    only on the lines holding one of its anchors, found with `str.find` on the joined lines
    rather than tested line by line; each anchor's first occurrence is looked up once per paste
    (many patterns share an anchor, and most anchors occur nowhere)."""

    def __init__(self, lowered: Sequence[str]) -> None:
        self.joined = "\n".join(lowered)
        self._starts = [0]  # where each line starts in `joined`
        for line in lowered[:-1]:
            self._starts.append(self._starts[-1] + len(line) + 1)
        self._first: dict[str, int] = {}

    def present(self, anchor: str) -> int:
        """Where `anchor` first occurs in the joined lines, or -1."""
        found = self._first.get(anchor)
        if found is None:
            found = self._first[anchor] = self.joined.find(anchor)
        return found

    def lines_with(self, anchors: Iterable[str]) -> Iterator[int]:
        """The indices of the lines holding one of `anchors`, in order. A line where an anchor
        only spans its line end may come too: the pattern's own test rules it out."""
        heap = [(at, anchor) for anchor in anchors if (at := self.present(anchor)) >= 0]
        heapq.heapify(heap)
        joined, starts, last = self.joined, self._starts, -1
        while heap:
            at, anchor = heap[0]
            line = bisect_right(starts, at) - 1
            if line > last:
                yield line
                last = line
            after = starts[last + 1] if last + 1 < len(starts) else len(joined)
            found = joined.find(anchor, after)
            if found < 0:
                heapq.heappop(heap)
            else:
                heapq.heapreplace(heap, (found, anchor))
