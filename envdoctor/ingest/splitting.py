"""Cutting a paste into parts for the readers (step 1 of `envdoctor.ingest.driver`).

`split_lines` cuts the input into `Part`s at fenced code blocks and at the start of a recognisable
section (a `collect_env` dump, an `nvidia-smi` table or `-q` log, an XML or JSON document, an
envdoctor Markdown report's embedded JSON, a Python traceback); everything else is "text",
flushed every `TEXT_PART_LINES` lines so memory stays bounded.
"""

from __future__ import annotations

import re
from collections.abc import Generator, Iterable, Iterator
from dataclasses import dataclass

from envdoctor.ingest.decoding import READ_CHUNK_BYTES, clean_block

TEXT_PART_LINES = 2000  # free text is handed to readers in slices of at most this many lines
TEXT_PART_CHARS = 1024 * 1024
MAX_PART_CHARS = 8 * 1024 * 1024  # a structured part longer than this is cut and marked truncated


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
_INTERESTING_LINE = (
    r"[ \t]{0,3}(?:`{3}|~{3}|Collecting environment information|PyTorch version\s*:|<\?xml|<!DOCTYPE nvidia_smi_log|"
    r"<nvidia_smi_log\b|<!-- envdoctor-report-json|## envdoctor [\w-]+ report|<!DOCTYPE html|<html\b|"
    r"=+\s*NVSMI LOG|\+-{10}|"
    r"\|\s+NVIDIA-SMI \d|\{[ \t]*(?:$|[\"}])|\[[ \t]*$|\[[{\"\[\]])"
)
_INTERESTING = re.compile("^" + _INTERESTING_LINE, re.MULTILINE)
# The same after a line end: a pattern that starts with a literal character lets the regex
# engine jump from one line end to the next, where "^" is tried at every position of the block.
_INTERESTING_AFTER_NEWLINE = re.compile(r"\n(?=" + _INTERESTING_LINE + ")", re.MULTILINE)


def _next_interesting(block: str, position: int) -> int:
    """Where the first interesting line at or after `position` (a line start) begins, or -1:
    the start `_INTERESTING.search(block, position)` would give."""
    if _INTERESTING.match(block, position):
        return position
    found = _INTERESTING_AFTER_NEWLINE.search(block, position)
    return found.start() + 1 if found else -1


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

    def _text_span(self, block: str, position: int) -> Generator[Part, None, int]:
        """Take free text up to the next interesting line, which is then fed line by line."""
        size = len(block)
        found = _next_interesting(block, position)
        start = found if found >= 0 else size + 1
        traceback = block.find(_TRACEBACK, position, start if found >= 0 else size)
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
        """Add whole lines of free text, flushing the text part at its size limits.

        Works by index on `text` (no copy of the rest, no count of it per part), so a block of
        free text costs time in proportion to its size."""
        start, size = 0, len(text)
        while True:
            room = TEXT_PART_CHARS - self.chars
            cut = -1
            if size - start > room:
                cut = text.rfind("\n", start, start + max(room, 1))
                if cut <= start:
                    cut = text.find("\n", start)
            allowed = max(TEXT_PART_LINES - self._text_lines, 1)
            nth = _nth_newline(text, start, allowed, cut if cut >= 0 else size)
            if nth >= 0:  # the part's line limit comes first
                cut = nth
            piece = text[start:] if cut < 0 else text[start:cut]
            count = piece.count("\n") + 1
            self.line_no += count
            self.part_last = self.line_no
            self.lines.append(piece)
            self.chars += len(piece) + 1
            self._text_lines += count
            if self.chars >= TEXT_PART_CHARS or self._text_lines >= TEXT_PART_LINES:
                yield from self._flush()
            if cut < 0:
                return
            start = cut + 1

    def _opaque_span(self, block: str, position: int) -> Generator[Part, None, int]:
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
        group = match.lastgroup or ""
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
                rf"^[ \t]{{0,{indent}}}\{closer}[ \t]*,?[ \t]*$", re.MULTILINE
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


_NTH_CHUNK = 64 * 1024  # characters counted at a time while looking for the n-th line end


def _nth_newline(text: str, start: int, n: int, before: int) -> int:
    """The index of the `n`-th line end at or after `start` when it lies before `before`, else -1
    (there are at least `n` line ends in text[start:before] exactly when it is not -1). Found
    with C-speed steps: line ends counted a chunk at a time, then the chunk that holds the n-th
    split up to it."""
    position, left = start, n
    while position < before:
        end = min(before, position + _NTH_CHUNK)
        found = text.count("\n", position, end)
        if found >= left:
            pieces = text[position:end].split("\n", left)
            return position + sum(map(len, pieces[:left])) + left - 1
        left -= found
        position = end
    return -1


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
