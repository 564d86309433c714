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

`iter_decoded_lines` turns a binary stream into lines leniently (BOM / UTF-16 aware, undecodable
bytes replaced, NULs and ANSI escapes dropped, lines longer than `MAX_LINE_CHARS` cut) and raises
`InputTooLarge` past a byte limit, so a 50 MB paste streams through with bounded memory.
"""

from __future__ import annotations

import codecs
import importlib
import re
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, BinaryIO

from envdoctor.snapshot import CONFIDENCE_ORDER, FactGroup, Snapshot, Status, collected

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

MAX_INPUT_BYTES = 50 * 1024 * 1024  # larger pastes are refused (the triage command exits 2)
READ_CHUNK_BYTES = 1024 * 1024
MAX_LINE_CHARS = 1024 * 1024  # a longer line is cut here (the rest of it is dropped)
TEXT_PART_LINES = 2000  # free text is handed to readers in slices of at most this many lines
TEXT_PART_CHARS = 1024 * 1024
MAX_PART_CHARS = 8 * 1024 * 1024  # a structured part longer than this is cut and marked truncated
MAX_PART_RECORDS = 200  # parts listed individually in pasted.parts


class InputTooLarge(ValueError):
    """The input is larger than the limit the caller set."""


@dataclass(frozen=True)
class Part:
    """A slice of the input. `kind` is what the splitter saw (collect_env, nvidia-smi,
    nvidia-smi-q, xml, json, html, envdoctor-markdown, envdoctor-embed, traceback, text); `first_line` / `last_line` are
    1-based line numbers in the input; `truncated` when the part hit a size cap."""

    kind: str
    text: str
    first_line: int
    last_line: int
    truncated: bool = False
    fenced: bool = False


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
# Lenient decoding


_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[@-Z\\-_]")


def iter_decoded_blocks(
    stream: BinaryIO, limit_bytes: int = MAX_INPUT_BYTES, chunk_bytes: int = READ_CHUNK_BYTES
) -> Iterator[str]:
    """The text of a binary stream as cleaned blocks of whole lines ("\n"-separated, see
    `clean_block`), decoded leniently.

    UTF-8 (with or without BOM) and UTF-16 (BOM, or NULs in every other byte) are recognised;
    undecodable bytes become U+FFFD. Raises InputTooLarge once more than `limit_bytes` were read.
    Memory stays within a few chunks whatever the input size.
    """
    first = stream.read(chunk_bytes)
    if not first:
        return
    total = len(first)
    if total > limit_bytes:
        raise InputTooLarge(f"input is larger than {limit_bytes // (1024 * 1024)} MB")
    encoding, skip = _sniff_encoding(first)
    decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
    pending = ""
    chunk = first[skip:]
    while True:
        text = decoder.decode(chunk, final=not chunk)
        if text:
            text = pending + text
            cut = max(text.rfind("\n"), text.rfind("\r"))
            if cut < 0 and len(text) <= MAX_LINE_CHARS:
                pending = ""
                if chunk:
                    pending = text
                    text = ""
            elif cut < 0:
                pending, text = "", text[:MAX_LINE_CHARS]
            elif chunk:
                pending, text = text[cut + 1 :], text[: cut + 1]
                if len(pending) > MAX_LINE_CHARS:
                    text, pending = text + pending[:MAX_LINE_CHARS] + "\n", ""
            else:
                pending = ""
            if text:
                yield clean_block(text)
        if not chunk:
            break
        chunk = stream.read(chunk_bytes)
        total += len(chunk)
        if total > limit_bytes:
            raise InputTooLarge(f"input is larger than {limit_bytes // (1024 * 1024)} MB")
    if pending:
        yield clean_block(pending)


def iter_decoded_lines(
    stream: BinaryIO, limit_bytes: int = MAX_INPUT_BYTES, chunk_bytes: int = READ_CHUNK_BYTES
) -> Iterator[str]:
    """The lines of a binary stream, decoded leniently, without their line endings."""
    for block in iter_decoded_blocks(stream, limit_bytes, chunk_bytes):
        yield from block.split("\n")


def _sniff_encoding(head: bytes) -> tuple[str, int]:
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8", len(codecs.BOM_UTF8)
    if head.startswith(codecs.BOM_UTF16_LE):
        return "utf-16-le", 2
    if head.startswith(codecs.BOM_UTF16_BE):
        return "utf-16-be", 2
    sample = head[:4096]
    if len(sample) >= 8:
        odd_nuls = sample[1::2].count(0)
        even_nuls = sample[0::2].count(0)
        half = len(sample) // 2
        if odd_nuls > half * 0.4 and even_nuls < half * 0.05:
            return "utf-16-le", 0
        if even_nuls > half * 0.4 and odd_nuls < half * 0.05:
            return "utf-16-be", 0
    return "utf-8", 0


_LONG_LINE = re.compile(r"[^\n]{%d}" % MAX_LINE_CHARS)


def clean_block(text: str) -> str:
    """Text with "\n" line ends only (CRLF and lone CR become "\n"), without NULs and ANSI
    escapes, lines cut at MAX_LINE_CHARS, and no final line end."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\x00" in text:
        text = text.replace("\x00", "")
    if "\x1b" in text:
        text = _ANSI.sub("", text)
    if len(text) > MAX_LINE_CHARS and _LONG_LINE.search(text):
        text = "\n".join(line[:MAX_LINE_CHARS] for line in text.split("\n"))
    return text[:-1] if text.endswith("\n") else text


def clean_line(line: str) -> str:
    """A line without its ending, NULs, ANSI escapes, and cut at MAX_LINE_CHARS."""
    line = line.rstrip("\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")
    if len(line) > MAX_LINE_CHARS:
        line = line[:MAX_LINE_CHARS]
    if "\x00" in line:
        line = line.replace("\x00", "")
    if "\x1b" in line:
        line = _ANSI.sub("", line)
    return line


# ---------------------------------------------------------------------------------------------
# Splitting


_FENCE = re.compile(r"\s{0,3}(`{3,}|~{3,})")
_INFO_STRING = re.compile(r"[\w+.#-]{1,24}")  # a fence's language tag ("```python", "```sh")
_STRUCTURED_START = re.compile(
    r"\s{0,3}(?:"
    r"(?P<collect_env>Collecting environment information|PyTorch version\s*:)"
    r"|(?P<xml><\?xml|<!DOCTYPE nvidia_smi_log|<nvidia_smi_log\b)"
    r"|(?P<embed><!-- envdoctor-report-json)"
    r"|(?P<markdown>## envdoctor [\w-]+ report\s*$)"
    r"|(?P<html><!DOCTYPE html|<html\b)"
    r"|(?P<smiq>=+\s*NVSMI LOG\s*=+)"
    r"|(?P<table>\+-{10,}|\|\s+NVIDIA-SMI \d)"
    r"|(?P<json>[{\[])"
    r")"
)
# A line that may change the splitter's state while it is in free text: found with one search
# over a whole block, so ordinary log lines cost no Python work at all.
_INTERESTING = re.compile(
    r"^[ \t]{0,3}(?:`{3}|~{3}|Collecting environment information|PyTorch version\s*:|<\?xml|<!DOCTYPE nvidia_smi_log|"
    r"<nvidia_smi_log\b|<!-- envdoctor-report-json|## envdoctor [\w-]+ report|<!DOCTYPE html|<html\b|"
    r"=+\s*NVSMI LOG|\+-{10}|"
    r"\|\s+NVIDIA-SMI \d|\{[ \t]*(?:$|[\"}])|\[[ \t]*$|\[[{\"\[\]])",
    re.MULTILINE,
)
_TRACEBACK = "Traceback (most recent call last)"
_OPAQUE = (
    "json",
    "xml",
    "html",
    "envdoctor-embed",
    "envdoctor-markdown",
)  # fences inside do not split them
_TIMESTAMP_LINE = re.compile(
    r"^\s*(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) \w{3}\s+\d{1,2} \d\d:\d\d:\d\d \d{4}\s*$"
)
_COLLECT_ENV_LIBRARIES = re.compile(r"\s*=*\s*Versions of relevant libraries", re.IGNORECASE)
_TRACEBACK_BODY = re.compile(r"\s|File \"|During handling|The above exception|Traceback|[│╰╭|]")
_EXCEPTION_LINE = re.compile(r"[\w.]*(?:Error|Exception|Warning|Interrupt|Exit)\b|[\w.]+: ")


def _json_start(stripped: str) -> bool:
    if stripped.startswith("{"):
        rest = stripped[1:].lstrip()
        return rest == "" or rest.startswith(('"', "}"))
    return stripped == "[" or stripped.startswith(("[{", '["', "[[", "[]"))


def _json_closes_on_line(line: str) -> bool:
    """Whether a JSON document that starts on `line` also ends on it (compact JSON)."""
    depth = 0
    in_string = escape = False
    for ch in line:
        if in_string:
            if escape:
                escape = False
            elif ch == "\\":
                escape = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
            if depth <= 0:
                return True
    return False


class Splitter:
    """A state machine over the input that yields `Part`s (see the module docstring).

    Feed it blocks of whole lines (`feed_block`) or single lines (`feed`). In free text it only
    looks at the lines `_INTERESTING` finds; inside an XML, JSON or envdoctor report it searches
    for the end marker; the other structured parts (collect_env, nvidia-smi, tracebacks) are
    small and are followed line by line.
    """

    def __init__(self) -> None:
        self.kind = "text"
        self.lines: list[str] = []
        self.chars = 0
        self.first_line = 1
        self.line_no = 0
        self.fence: str | None = None
        self.truncated = False
        self.libraries_seen = False
        self.end_marker: str | None = None
        self.json_close: re.Pattern | None = None
        self.traceback_ended = False
        self._text_lines = 0
        self.part_last = 0

    # -- block interface -------------------------------------------------------------------

    def feed_block(self, block: str) -> Iterator[Part]:
        """Consume a block of whole lines (no final line end); yields the parts it completes."""
        position = 0
        size = len(block)
        while position <= size:
            if self.kind == "text":
                position = yield from self._text_span(block, position)
            elif self.kind in _OPAQUE:
                position = yield from self._opaque_span(block, position)
            else:
                end = block.find("\n", position)
                end = size if end < 0 else end
                yield from self.feed(block[position:end])
                position = end + 1

    def _text_span(self, block: str, position: int) -> Iterator[Part]:
        """Take free text up to the next interesting line, which is then fed line by line."""
        size = len(block)
        found = _INTERESTING.search(block, position)
        start = found.start() if found else size + 1
        traceback = block.find(_TRACEBACK, position, start if found else size)
        if traceback >= 0:
            start = block.rfind("\n", 0, traceback) + 1
        if start > position:
            yield from self._append_text(
                block[position : min(start, size + 1) - 1] if start <= size else block[position:]
            )
        if start > size:
            return size + 1
        end = block.find("\n", start)
        end = size if end < 0 else end
        yield from self.feed(block[start:end])
        return end + 1

    def _append_text(self, text: str) -> Iterator[Part]:
        """Add whole lines of free text, flushing the text part at its size limits."""
        while text is not None:
            room = TEXT_PART_CHARS - self.chars
            cut = -1
            if len(text) > room:
                cut = text.rfind("\n", 0, max(room, 1))
                if cut <= 0:
                    cut = text.find("\n")
            allowed = max(TEXT_PART_LINES - self._text_lines, 1)
            if text.count("\n", 0, cut if cut >= 0 else len(text)) >= allowed:
                cut = -1
                for _ in range(allowed):
                    cut = text.find("\n", cut + 1)
            if cut < 0:
                piece, text = text, None
            else:
                piece, text = text[:cut], text[cut + 1 :]
            count = piece.count("\n") + 1
            self.line_no += count
            self.part_last = self.line_no
            self.lines.append(piece)
            self.chars += len(piece) + 1
            self._text_lines += count
            if self.chars >= TEXT_PART_CHARS or self._text_lines >= TEXT_PART_LINES:
                yield from self._flush()

    def _opaque_span(self, block: str, position: int) -> Iterator[Part]:
        """Inside an XML / JSON document or an envdoctor report: jump to its end marker."""
        size = len(block)
        if self.end_marker is None:  # an XML document whose root is not known yet: go by lines
            end = block.find("\n", position)
            end = size if end < 0 else end
            yield from self.feed(block[position:end])
            return end + 1
        if self.kind == "json" and self.json_close is not None:
            found = self.json_close.search(block, position)
            hit = found.start() if found else -1
        else:
            hit = block.find(self.end_marker, position)
        stop = size if hit < 0 else (block.find("\n", hit) if block.find("\n", hit) >= 0 else size)
        piece = block[position:stop]
        count = piece.count("\n") + 1
        self.line_no += count
        self.part_last = self.line_no
        self.lines.append(piece)
        self.chars += len(piece) + 1
        if hit >= 0:
            yield from self._flush()
        elif self.chars > MAX_PART_CHARS:
            self.truncated = True
            yield from self._flush()
        return stop + 1

    # -- line interface --------------------------------------------------------------------

    def feed(self, line: str) -> Iterator[Part]:
        """Consume one line (without its ending); yields the parts it completes."""
        self.line_no += 1
        fence = _FENCE.match(line) if self.kind not in _OPAQUE else None
        if fence and (self.fence is None or fence.group(1)[0] == self.fence[0]):
            yield from self._flush()
            self.fence = None if self.fence is not None else fence.group(1)
            self.first_line = self.line_no + 1
            rest = line[fence.end() :].strip()
            if rest and not _INFO_STRING.fullmatch(rest):  # "```RuntimeError: ..." keeps its text
                self.line_no -= 1
                yield from self.feed(rest)
            return
        if self.kind != "text":
            if self._continues(line):
                self._append(line)
                if self._ends_after(line):
                    yield from self._flush()
                elif self.chars > MAX_PART_CHARS:
                    self.truncated = True
                    yield from self._flush()
                return
            yield from self._flush()
        kind = self._start_kind(line)
        if kind is not None:
            pulled = self._pull_table_timestamp() if kind == "nvidia-smi" else None
            yield from self._flush()
            self._begin(kind, line, pulled)
            if self._ends_after(line):
                yield from self._flush()
            return
        self._append(line)
        self._text_lines += 1
        if self._text_lines >= TEXT_PART_LINES or self.chars >= TEXT_PART_CHARS:
            yield from self._flush()

    def finish(self) -> Iterator[Part]:
        """Flush what is left at the end of the input."""
        yield from self._flush()

    # -- state helpers ---------------------------------------------------------------------

    def _start_kind(self, line: str) -> str | None:
        if _TRACEBACK in line:
            return "traceback"
        match = _STRUCTURED_START.match(line)
        if match is None:
            return None
        group = match.lastgroup
        if group == "json":
            return "json" if _json_start(line.strip()) else None
        return {
            "collect_env": "collect_env",
            "xml": "xml",
            "embed": "envdoctor-embed",
            "html": "html",
            "markdown": "envdoctor-markdown",
            "smiq": "nvidia-smi-q",
            "table": "nvidia-smi",
        }[group]

    def _begin(self, kind: str, line: str, pulled: str | None) -> None:
        self.kind = kind
        self.first_line = self.line_no - (1 if pulled is not None else 0)
        self.libraries_seen = False
        self.traceback_ended = False
        self.end_marker = None
        self.json_close = None
        if kind == "json":
            indent = len(line) - len(line.lstrip())
            closer = "}" if line.strip().startswith("{") else "]"
            self.end_marker = closer
            self.json_close = re.compile(
                r"^[ \t]{0,%d}\%s[ \t]*,?[ \t]*$" % (indent, closer), re.MULTILINE
            )
        elif kind == "xml" and "nvidia_smi" in line:
            self.end_marker = "</nvidia_smi_log>"
        elif kind in ("envdoctor-embed", "envdoctor-markdown"):
            self.end_marker = "envdoctor-report-json -->"
        elif kind == "html":
            self.end_marker = "</html>"
        if pulled is not None:
            self._append(pulled)
        self._append(line)

    def _pull_table_timestamp(self) -> str | None:
        if (
            self.kind == "text"
            and self.lines
            and _TIMESTAMP_LINE.match(self.lines[-1].rsplit("\n", 1)[-1])
        ):
            last = self.lines.pop()
            head, _, line = last.rpartition("\n")
            if head or "\n" in last:
                self.lines.append(head)
            self.chars -= len(line) + 1
            return line
        return None

    def _continues(self, line: str) -> bool:
        """Whether `line` still belongs to the current structured part."""
        kind = self.kind
        if kind in _OPAQUE:
            return True
        if kind == "traceback":
            if self.traceback_ended:
                return False
            if not line.strip() or _TRACEBACK_BODY.match(line):
                return True
            self.traceback_ended = bool(_EXCEPTION_LINE.match(line))  # the exception line closes it
            return self.traceback_ended
        if kind == "nvidia-smi":
            stripped = line.lstrip()
            return stripped.startswith(("|", "+")) or not stripped
        if kind == "nvidia-smi-q":
            if _start_strong(line):
                return False
            return (
                not line.strip()
                or line[:1].isspace()
                or " : " in line
                or line.startswith("=")
                or bool(
                    re.match(r"GPU [0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-7]\s*$", line)
                )
            )
        if kind == "collect_env":
            if _start_strong(line):
                return False
            if _COLLECT_ENV_LIBRARIES.match(line):
                self.libraries_seen = True
                return True
            if self.libraries_seen and _looks_like_prose(line):
                return False
            return len(self.lines) < 5000
        return True

    def _ends_after(self, line: str) -> bool:
        if self.kind == "json":
            return (len(self.lines) == 1 and _json_closes_on_line(line)) or (
                len(self.lines) > 1
                and self.json_close is not None
                and bool(self.json_close.match(line))
            )
        if self.kind == "xml":
            if self.end_marker is None:
                tag = re.search(r"<([A-Za-z_][\w.-]*)[\s>]", line)
                if tag and not line.lstrip().startswith(("<?", "<!")):
                    self.end_marker = f"</{tag.group(1)}>"
            return self.end_marker is not None and self.end_marker in line
        if self.kind in ("envdoctor-embed", "envdoctor-markdown"):
            return "envdoctor-report-json -->" in line
        if self.kind == "html":
            return "</html>" in line
        if self.kind == "traceback":
            return self.traceback_ended
        return False

    def _append(self, line: str) -> None:
        self.lines.append(line)
        self.chars += len(line) + 1
        self.part_last = self.line_no

    def _flush(self) -> Iterator[Part]:
        if self.lines:
            text = "\n".join(self.lines)
            if text.strip():
                yield Part(
                    self.kind,
                    text,
                    self.first_line,
                    self.part_last,
                    self.truncated,
                    self.fence is not None,
                )
        self.kind = "text"
        self.lines = []
        self.chars = 0
        self._text_lines = 0
        self.truncated = False
        self.end_marker = None
        self.first_line = self.line_no + 1


def _start_strong(line: str) -> bool:
    """A line that starts a different structured section."""
    if _TRACEBACK in line:
        return True
    match = _STRUCTURED_START.match(line)
    return match is not None and match.lastgroup in ("xml", "embed", "table")


_PROSE_EXEMPT = re.compile(r"\s|\[|=|GPU\d|NIC\d|mlx|[\w .()/-]{1,60}(?::|=)")


def _looks_like_prose(line: str) -> bool:
    return bool(line.strip()) and _PROSE_EXEMPT.match(line) is None


def split_blocks(blocks: Iterable[str]) -> Iterator[Part]:
    """The parts of the input given as cleaned blocks of whole lines."""
    splitter = Splitter()
    for block in blocks:
        yield from splitter.feed_block(block)
    yield from splitter.finish()


def split_lines(lines: Iterable[str]) -> Iterator[Part]:
    """The parts of the input given line by line (without line endings)."""
    return split_blocks(_blocks_of(lines))


def _blocks_of(lines: Iterable[str]) -> Iterator[str]:
    """Lines regrouped into blocks of about READ_CHUNK_BYTES characters."""
    batch: list[str] = []
    size = 0
    for line in lines:
        batch.append(line)
        size += len(line) + 1
        if size >= READ_CHUNK_BYTES:
            yield "\n".join(batch)
            batch, size = [], 0
    if batch:
        yield "\n".join(batch)


def split(text: str) -> list[Part]:
    """The parts of a text."""
    return list(split_blocks([clean_block(text)] if text else []))


# ---------------------------------------------------------------------------------------------
# Readers and the driver


@dataclass(frozen=True)
class Reader:
    """A loaded reader module."""

    name: str
    module: ModuleType

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
        readers.append(Reader(str(getattr(module, "NAME", name)), module))
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


_DROP_DIGITS = str.maketrans("", "", "0123456789")
SHAPE_MIN_CHARS = 64 * 1024  # parts shorter than this are searched for markers as they are


def line_shapes(text: str) -> str:
    """The distinct lines of `text` with their digits dropped, in first-seen order: a long log's
    lines that differ only in numbers (timestamps, counters) collapse to one, so a digit-free
    string occurs in `text` exactly when it occurs in this (much shorter) text."""
    return "\n".join(dict.fromkeys(text.translate(_DROP_DIGITS).split("\n")))


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
    from envdoctor.snapshot import Confidence

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
