"""The triage driver: splits pasted text, offers each part to the readers, merges the groups.


A reader module defines `NAME` (e.g. "nvidia-smi-xml"), `detect(text) -> bool` (cheap: does this
part look like my format?) and `read(text) -> list[FactGroup]` (the same fact groups the live
probes fill, with `source="pasted:NAME"` and a lowered confidence). Readers are tried in the order
of `READER_MODULES`, specific formats first, free-text fallbacks last. Optional: `MARKERS`, a
tuple of case-sensitive strings of which every text the reader accepts contains at least one;
the driver then skips `detect` on parts holding none of them (a plain substring test, so a 10 MB
log costs each such reader almost nothing).

How a paste becomes one snapshot (`ingest_lines` / `ingest_text`):

1. `split_lines` cuts the input into `Part`s at fenced code blocks and at the start of a
   recognisable section (a `collect_env` dump, an `nvidia-smi` table or `-q` log, an XML or JSON
   document, an envdoctor Markdown report's embedded JSON, a Python traceback); everything else is
   "text", flushed every `TEXT_PART_LINES` lines so memory stays bounded.
2. Each part is offered to the specific readers in registry order; the first whose `detect`
   accepts it and whose `read` returns groups claims it. A reader that raises is skipped for that
   part (recorded in `pasted.parts`), never fatal.
3. A module with `FALLBACK = True` runs after the specific readers, on every part, claimed or
   not (except parts claimed by a reader with `EXCLUSIVE = True`, such as an envdoctor report
   whose text is not an error message), so error lines are extracted even where no specific
   reader exists. A fallback that offers
   `collector()` (an object with `feed(text)` and `groups()`) is streamed through all parts once;
   otherwise its `read` is called on each part nobody claimed.
4. Groups of the same name from several parts merge (`merge_groups`): the more confident source
   wins each fact, the other fills what it lacks, lists are united. The snapshot's origin is
   "pasted"; `pasted.parts` records every part, its line range, the reader that read it, and the
   milliseconds each reader spent (`reader_ms`).

Decoding and cleaning of the input are `envdoctor.ingest.decoding`, the splitting of step 1
`envdoctor.ingest.splitting`; their public names are reachable from here (and from
`envdoctor.ingest`) as well.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol, cast, runtime_checkable

from envdoctor.ingest.decoding import (  # the driver's names, also reachable from envdoctor.ingest
    MAX_INPUT_BYTES as MAX_INPUT_BYTES,
)
from envdoctor.ingest.decoding import MAX_LINE_CHARS as MAX_LINE_CHARS
from envdoctor.ingest.decoding import InputTooLarge as InputTooLarge
from envdoctor.ingest.decoding import clean_block as clean_block
from envdoctor.ingest.decoding import clean_line as clean_line
from envdoctor.ingest.decoding import iter_decoded_blocks as iter_decoded_blocks
from envdoctor.ingest.decoding import iter_decoded_lines as iter_decoded_lines
from envdoctor.ingest.splitting import TEXT_PART_LINES as TEXT_PART_LINES
from envdoctor.ingest.splitting import Part as Part
from envdoctor.ingest.splitting import _blocks_of as _blocks_of
from envdoctor.ingest.splitting import split as split
from envdoctor.ingest.splitting import split_blocks as split_blocks
from envdoctor.ingest.splitting import split_lines as split_lines
from envdoctor.model.snapshot import CONFIDENCE_ORDER, FactGroup, Snapshot, Status, collected

# Listed explicitly, most specific first. Add a module here when you add a reader.
READER_MODULES: tuple[str, ...] = (
    "envdoctor_report",
    "collect_env",
    "glxinfo",
    "tegra_release",
    "nvidia_smi_xml",
    "nvidia_smi_text",
    "proc_nvidia_version",
    "kernel_log",
    "lspci_link",
    "docker_info",
    "nvidia_container_cli",
    "nvcc_version",
    "ldd_ldconfig",
    "rocminfo",
    "rocm_smi",
    "pip_list",
    "free_text",
)

MAX_PART_RECORDS = 200  # parts listed individually in pasted.parts


@dataclass
class PartRecord:
    """What happened to one part: who read it, or why nobody could."""

    kind: str
    first_line: int
    last_line: int
    reader: str | None = None
    errors: list[str] = field(default_factory=list)
    truncated: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        out: dict[str, Any] = {
            "kind": self.kind,
            "lines": [self.first_line, self.last_line],
            "reader": self.reader,
        }
        if self.errors:
            out["errors"] = self.errors
        if self.truncated:
            out["truncated"] = True
        return out


# ---------------------------------------------------------------------------------------------
# Readers and the driver


@runtime_checkable
class ReaderModule(Protocol):
    """What a reader module defines (see the module docstring; `MARKERS`, `FALLBACK`, `EXCLUSIVE`
    and `collector()` are optional)."""

    NAME: str

    def detect(self, text: str) -> bool:
        """Whether `text` looks like this reader's format (cheap)."""
        ...

    def read(self, text: str) -> list[FactGroup]:
        """The fact groups of `text` (pasted sources, lowered confidence)."""
        ...


@dataclass(frozen=True)
class Reader:
    """A loaded reader module."""

    name: str
    module: ReaderModule

    @property
    def fallback(self) -> bool:
        """Fallbacks read every part after the specific readers."""
        return bool(getattr(self.module, "FALLBACK", False))


def load_readers(modules: tuple[str, ...] | None = None) -> tuple[list[Reader], list[str]]:
    """(readers in order, fallbacks last; load errors). A module that fails to import is skipped."""
    readers: list[Reader] = []
    errors: list[str] = []
    for name in modules or READER_MODULES:
        try:
            module = importlib.import_module(f"envdoctor.ingest.{name}")
        except Exception as exc:  # noqa: BLE001 - a broken reader must not break triage
            errors.append(f"reader {name} could not load: {type(exc).__name__}: {exc}")
            continue
        readers.append(Reader(str(getattr(module, "NAME", name)), cast(ReaderModule, module)))
    readers.sort(key=lambda r: r.fallback)  # stable: registry order within each class
    return readers, errors


def ingest_text(text: str, modules: tuple[str, ...] | None = None) -> Snapshot:
    """The snapshot of a pasted text."""
    return ingest_blocks([clean_block(text)] if text else [], modules)


def ingest_lines(lines: Iterable[str], modules: tuple[str, ...] | None = None) -> Snapshot:
    """The snapshot of an input given line by line (without line endings)."""
    return ingest_blocks(_blocks_of(lines), modules)


def ingest_blocks(blocks: Iterable[str], modules: tuple[str, ...] | None = None) -> Snapshot:
    """The snapshot of an input given as cleaned blocks of whole lines (`iter_decoded_blocks`):
    every part read, the groups merged."""
    readers, load_errors = load_readers(modules)
    specific = [r for r in readers if not r.fallback]
    fallbacks = [r for r in readers if r.fallback]
    collectors = []
    per_part_fallbacks = []
    for reader in fallbacks:
        factory = getattr(reader.module, "collector", None)
        if callable(factory):
            collectors.append((reader, factory()))
        else:
            per_part_fallbacks.append(reader)
    groups: dict[str, FactGroup] = {}
    timings: dict[str, float] = {}
    records: list[PartRecord] = []
    counts: dict[str, int] = {}
    total_parts = 0
    last_line = 0
    truncated_any = False
    for part in split_blocks(blocks):
        total_parts += 1
        last_line = part.last_line
        truncated_any = truncated_any or part.truncated
        record = PartRecord(part.kind, part.first_line, part.last_line, truncated=part.truncated)
        _first_reader(specific, part.text, record, groups, timings)
        exclusive = record.reader is not None and _exclusive(record.reader, specific)
        for reader, collector in collectors if not exclusive else ():
            start = time.perf_counter()
            try:
                collector.feed(part.text)
            except Exception as exc:  # noqa: BLE001
                record.errors.append(f"{reader.name}: {type(exc).__name__}: {exc}")
            timings[reader.name] = (
                timings.get(reader.name, 0.0) + (time.perf_counter() - start) * 1000
            )
        if record.reader is None:
            _first_reader(per_part_fallbacks, part.text, record, groups, timings)
        key = record.reader or f"unread {part.kind}"
        counts[key] = counts.get(key, 0) + 1
        if len(records) < MAX_PART_RECORDS:
            records.append(record)
    for reader, collector in collectors:
        start = time.perf_counter()
        try:
            _merge_into(groups, list(collector.groups()))
        except Exception as exc:  # noqa: BLE001
            load_errors.append(f"{reader.name}: {type(exc).__name__}: {exc}")
        timings[reader.name] = timings.get(reader.name, 0.0) + (time.perf_counter() - start) * 1000
    snapshot = Snapshot(origin="pasted")
    for group in groups.values():
        snapshot.groups[group.name] = group
    snapshot.groups["pasted.parts"] = _parts_group(
        records, counts, total_parts, last_line, truncated_any, load_errors, timings
    )
    return snapshot


SHAPE_MIN_CHARS = 64 * 1024  # parts shorter than this are searched for markers as they are


def line_shapes(text: str) -> str:
    """The distinct lines of `text` with their digits dropped, in first-seen order: a long log's
    lines that differ only in numbers (timestamps, counters) collapse to one, so a digit-free
    string occurs in `text` exactly when it occurs in this (much shorter) text. The digits are
    dropped from the UTF-8 bytes: str.translate is ~20x slower on a text with any non-ASCII
    character (the ASCII digits are single bytes that no other character's encoding holds)."""
    digitless = text.encode("utf-8", "surrogatepass").translate(None, b"0123456789")
    return "\n".join(dict.fromkeys(digitless.decode("utf-8", "surrogatepass").split("\n")))


def _first_reader(
    readers: list[Reader],
    text: str,
    record: PartRecord,
    groups: dict[str, FactGroup],
    timings: dict[str, float],
) -> None:
    """Let the first reader that accepts the part read it; its groups join `groups`. The
    readers' markers (digit-free strings) are looked for in the part's line shapes when the part
    is long."""
    shapes = line_shapes(text) if len(text) >= SHAPE_MIN_CHARS else text
    for reader in readers:
        found = _try_read(reader, text, record, timings, shapes)
        if found:
            record.reader = reader.name
            _merge_into(groups, found)
            return


def _exclusive(name: str, readers: list[Reader]) -> bool:
    """Whether the reader called `name` keeps its parts from the fallbacks (`EXCLUSIVE = True`:
    an envdoctor report, whose text is not an error message)."""
    return any(r.name == name and getattr(r.module, "EXCLUSIVE", False) for r in readers)


def _try_read(
    reader: Reader,
    text: str,
    record: PartRecord,
    timings: dict[str, float],
    shapes: str | None = None,
) -> list[FactGroup]:
    markers = getattr(reader.module, "MARKERS", None)
    probe = text if shapes is None else shapes
    if markers and not any(marker in probe for marker in markers):
        return []  # none of the strings its format always contains: detect() cannot accept
    start = time.perf_counter()
    try:
        if not reader.module.detect(text):
            return []
        return [g for g in reader.module.read(text) or [] if isinstance(g, FactGroup)]
    except Exception as exc:  # noqa: BLE001 - one reader's bug costs only its own facts
        record.errors.append(f"{reader.name}: {type(exc).__name__}: {exc}")
        return []
    finally:
        timings[reader.name] = timings.get(reader.name, 0.0) + (time.perf_counter() - start) * 1000


def _parts_group(
    records: list[PartRecord],
    counts: dict[str, int],
    total: int,
    lines: int,
    truncated: bool,
    errors: list[str],
    timings: dict[str, float],
) -> FactGroup:
    shown = ", ".join(f"{name} ×{n}" if n > 1 else name for name, n in counts.items())
    data: dict[str, Any] = {
        "parts": [r.to_dict() for r in records],
        "part_count": total,
        "line_count": lines,
        "readers": counts,
        "truncated": truncated,
        "reader_ms": {
            name: round(ms, 1) for name, ms in sorted(timings.items(), key=lambda kv: -kv[1])
        },
    }
    if errors:
        data["errors"] = errors
    from envdoctor.model.snapshot import Confidence

    return collected(
        "pasted.parts",
        "pasted:splitter",
        data,
        summary=f"{total} part{'s' if total != 1 else ''}: {shown or 'nothing readable'}",
        confidence=Confidence.LOW,
    )


def _merge_into(groups: dict[str, FactGroup], found: list[FactGroup]) -> None:
    for group in found:
        existing = groups.get(group.name)
        groups[group.name] = group if existing is None else merge_groups(existing, group)


def merge_groups(first: FactGroup, second: FactGroup) -> FactGroup:
    """One group from two readings of the same facts.

    A collected group beats an absent or failed one; between two collected groups the more
    confident one (else the first) wins each fact and the other fills the facts it lacks. Lists
    are united: records with the same `index` (or `name`) merge, other items are appended once.
    """
    if first.collected != second.collected:
        return first if first.collected else second
    if not first.collected:
        return first
    primary, secondary = first, second
    if CONFIDENCE_ORDER[second.confidence] < CONFIDENCE_ORDER[first.confidence]:
        primary, secondary = second, first
    sources = [
        s for s in dict.fromkeys(primary.source.split(", ") + secondary.source.split(", ")) if s
    ]
    raw = dict(secondary.raw)
    raw.update(primary.raw)
    return FactGroup(
        primary.name,
        Status.COLLECTED,
        ", ".join(sources),
        _merge_values(primary.data, secondary.data),
        summary=primary.summary or secondary.summary,
        confidence=primary.confidence,
        raw=raw,
    )


def _merge_values(a: Any, b: Any) -> Any:
    if a is None:
        return b
    if isinstance(a, dict) and isinstance(b, dict):
        out = dict(a)
        for key, value in b.items():
            out[key] = _merge_values(out.get(key), value) if key in out else value
        return out
    if isinstance(a, list) and isinstance(b, list):
        return _merge_lists(a, b)
    return a


def _record_key(item: Any) -> Any:
    if isinstance(item, dict):
        if item.get("index") is not None:
            return ("index", item["index"])
        if item.get("name") is not None:
            return ("name", item["name"])
    return None


def _merge_lists(a: list, b: list) -> list:
    out = list(a)
    for item in b:
        key = _record_key(item)
        if key is not None:
            for i, have in enumerate(out):
                if _record_key(have) == key:
                    out[i] = _merge_values(have, item)
                    break
            else:
                out.append(item)
        elif item not in out:
            out.append(item)
    return out
