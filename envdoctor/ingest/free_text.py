"""The free-text fallback: error and log lines -> the `pasted.text` group.

It reads every part of a paste (whatever other reader claimed it) and keeps the *notable* lines:
those holding an anchor of some error signature or prose fact (`envdoctor.triage_engine.loader.anchors()`), a
generic error word (error, failed, cannot, 报错...) or a word the facts below come from. From
the notable lines it extracts, without guessing:

- `lines`: the notable lines in input order (each cut at `MAX_LINE_CHARS`): the first
  `HEAD_LINES`, then lines that bring a signature anchor not seen before, and the notable lines
  among the last `TAIL_LINES` lines of the input;
- `errors`: the lines that read as errors (for people, and for "no signature matched");
- `frames`: traceback frames {file, line, function}; `extensions`: compiled extension modules
  and CUDA-extension packages seen in frames and paths (xformers, flash_attn_2_cuda, a custom
  `*.cpython-*.so`); `companions`: torchvision / torchaudio binaries seen the same way;
- `gpus`: GPU product names mentioned ("NVIDIA GeForce RTX 5090", "AMD Radeon RX 6600");
  `compute_capabilities` ("12.0"); `torch_arch_list` (from "supports CUDA capabilities sm_50 ...");
  `torch_min_cc` (from "minimum cuda capability supported by this library is 3.7");
  `gfx_targets`;
- `versions`: {package: version} mentioned (pip list / freeze / conda list lines, "PyTorch: 2.8.0",
  "(you have 2.1.2+cpu)", an issue form's "### Tensorflow Version" heading with the version under
  it, pip's "Successfully installed ..." / "Requirement already satisfied: ..." lines and the pins of
  a `pip install` line), the most explicit mention winning; `system_versions`: driver,
  cuda_driver (nvidia-smi's "CUDA Version"), nvcc, python;
- `os_mentions` (windows, wsl, macos, linux, container), `distro`, `windows_build`, `arch`;
  `apps` (comfyui, a1111, forge, ollama, vllm); `platforms` (jetson); `languages` (zh);
- `heading_answers`: each issue-form heading with its one-line answer below it, as the inline
  "heading: answer" it stands for ("CUDA/cuDNN version: 11.8/8.6"), for the prose facts;
- `ollama`: Ollama server log lines (`level=… source=… msg=…`) and what they say about the GPU.

Memory stays bounded whatever the input size: only notable lines are examined, at most
`PROCESS_LINES` of them in full. The scan itself is one compiled regular expression (a trie of
all keywords) over each lowercased part.
"""

from __future__ import annotations

import bisect
import re
from collections import deque
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from envdoctor.ingest.decoding import ascii_forms
from envdoctor.ingest.free_text_vocabulary import APP_MENTIONS as _APP_MENTIONS
from envdoctor.ingest.free_text_vocabulary import ARCH as _ARCH
from envdoctor.ingest.free_text_vocabulary import ARCH_LIST as _ARCH_LIST
from envdoctor.ingest.free_text_vocabulary import CC as _CC
from envdoctor.ingest.free_text_vocabulary import CJK as _CJK
from envdoctor.ingest.free_text_vocabulary import (
    COMPANIONS,
    CUDA_DRIVER_GATE,
    ENVIRONMENT_GATE,
    ERROR_GATE,
    EXTENSION_PACKAGES,
    FACT_KEYWORDS,
    GENERIC_KEYWORDS,
    GPU_HINT_REST_GATE,
    HEADING_ANSWER,
    HEADING_NOISE,
    HEADING_SCAN_CHARS,
    KEY_VALUE_GATE,
    MAX_HEADING_ANSWERS,
    MENTION_GATE,
    NVCC_GATE,
    PAREN_MENTION,
    PIP_COMMAND,
    PIP_INSTALLED,
    PIP_INSTALLED_ITEM,
    PIP_PIN,
    PIP_SATISFIED,
    canonical_gpu,
)
from envdoctor.ingest.free_text_vocabulary import CONDA_LIST as _CONDA_LIST
from envdoctor.ingest.free_text_vocabulary import CPP_EXTENSION as _CPP_EXTENSION
from envdoctor.ingest.free_text_vocabulary import CUDA_DRIVER as _CUDA_DRIVER
from envdoctor.ingest.free_text_vocabulary import DISTRO as _DISTRO
from envdoctor.ingest.free_text_vocabulary import DISTRO_IDS as _DISTRO_IDS
from envdoctor.ingest.free_text_vocabulary import DRIVER as _DRIVER
from envdoctor.ingest.free_text_vocabulary import ENVIRONMENT as _ENVIRONMENT
from envdoctor.ingest.free_text_vocabulary import ERROR_LINE as _ERROR_LINE
from envdoctor.ingest.free_text_vocabulary import FRAME as _FRAME
from envdoctor.ingest.free_text_vocabulary import GFX as _GFX
from envdoctor.ingest.free_text_vocabulary import GPU_HINT_REST as _GPU_HINT_REST
from envdoctor.ingest.free_text_vocabulary import GPU_HINT_WORDS as _GPU_HINT_WORDS
from envdoctor.ingest.free_text_vocabulary import GPU_PATTERNS as _GPU_PATTERNS
from envdoctor.ingest.free_text_vocabulary import HEADING_VERSION as _HEADING_VERSION
from envdoctor.ingest.free_text_vocabulary import INSTALLED as _INSTALLED
from envdoctor.ingest.free_text_vocabulary import IPY_FRAME as _IPY_FRAME
from envdoctor.ingest.free_text_vocabulary import KEY_VALUE as _KEY_VALUE
from envdoctor.ingest.free_text_vocabulary import MENTION as _MENTION
from envdoctor.ingest.free_text_vocabulary import MIN_CC as _MIN_CC
from envdoctor.ingest.free_text_vocabulary import NVCC as _NVCC
from envdoctor.ingest.free_text_vocabulary import OLLAMA_COMPUTE as _OLLAMA_COMPUTE
from envdoctor.ingest.free_text_vocabulary import OLLAMA_LINE as _OLLAMA_LINE
from envdoctor.ingest.free_text_vocabulary import OS_MENTIONS as _OS_MENTIONS
from envdoctor.ingest.free_text_vocabulary import PIP_FREEZE as _PIP_FREEZE
from envdoctor.ingest.free_text_vocabulary import PIP_LIST as _PIP_LIST
from envdoctor.ingest.free_text_vocabulary import PYTHON as _PYTHON
from envdoctor.ingest.free_text_vocabulary import RICH_FRAME as _RICH_FRAME
from envdoctor.ingest.free_text_vocabulary import SITE_PACKAGE as _SITE_PACKAGE
from envdoctor.ingest.free_text_vocabulary import SO_NAME as _SO_NAME
from envdoctor.ingest.free_text_vocabulary import TORCH_LIBS as _TORCH_LIBS
from envdoctor.ingest.free_text_vocabulary import WINDOWS_BUILD as _WINDOWS_BUILD
from envdoctor.ingest.free_text_vocabulary import cc_of as _cc_of
from envdoctor.ingest.free_text_vocabulary import interesting_package as _interesting_package
from envdoctor.ingest.free_text_vocabulary import package_in_path as _package_in_path
from envdoctor.ingest.free_text_vocabulary import package_key as _package_key
from envdoctor.model.snapshot import Confidence, FactGroup, collected
from envdoctor.model.versions import clean_version

NAME = "free-text"
SOURCE = "pasted:free-text"
FALLBACK = True

HEAD_LINES = 400
NEW_ANCHOR_LINES = 200
TAIL_LINES = 100
PROCESS_LINES = 2000
REBUILD_AFTER_USELESS = 200
MAX_LINE_CHARS = 600
QUOTED_TAIL_CHARS = 240  # the end a long line quoting nested lines keeps (see cut_line)
MAX_ERRORS = 40
MAX_FRAMES = 100
MAX_OLLAMA_LINES = 60
MAX_SHAPES = 200_000  # line shapes the deep scan remembers (a set of hashes: bounded memory)
_UNBUILT = object()  # the deep selector before its first use
_DIGITS = b"0123456789"  # dropped from a line's bytes to give its shape


_VERSION_LIST = re.compile(r"(\(from versions: )([^)]{200,}?)((?:, [^,)]{1,40}){1,8}\))")


def cut_line(line: str) -> str:
    """A notable line cut at `MAX_LINE_CHARS`; a long list of pip's "(from versions: ...)" keeps
    its first and last releases (the newest, which a fix names) with "..." between, and a line
    that quotes nested lines (Docker's OCI runtime errors: the hook's stderr joined with escaped
    newlines after a long exec command) keeps its end too, where the quoted error is."""
    if len(line) > MAX_LINE_CHARS and "(from versions: " in line:
        found = _VERSION_LIST.search(line)
        if found is not None:
            head = found.group(2)[:60].rpartition(",")[0]
            line = f"{line[: found.start()]}{found.group(1)}{head}, ...{found.group(3)}{line[found.end() :]}"
    if len(line) > MAX_LINE_CHARS and "\\n" in line[MAX_LINE_CHARS - QUOTED_TAIL_CHARS :]:
        return f"{line[: MAX_LINE_CHARS - QUOTED_TAIL_CHARS - 5]} ... {line[-QUOTED_TAIL_CHARS:]}"
    return line[:MAX_LINE_CHARS]


SELECTOR_FORMAT = 2  # of the selectors' sources (`_keyword_regex`, `_trie_regex`); bump on change
PENDING_NOTE_CHARS = 1 << 20  # head lines kept for the deep selector until it is compiled


SMALL_INPUT_CHARS = 16 * 1024  # up to this much input, keywords are found without the regex


@lru_cache(maxsize=1)
def _selectors() -> tuple[str, str | None, frozenset[str], tuple[str, ...]]:
    """(the source of the regex of every keyword, the source of the regex of the signatures'
    match anchors, those anchors, the keywords).

    Each is one trie-shaped alternation: the first finds notable lines while facts are still
    being gathered (`_keyword_selector`; a short input is searched without it,
    `_keyword_finder`), the second (compiled on first use, `_deep_selector`: a short paste never
    needs it) finds lines that bring a match anchor not seen yet. Building the tries in Python
    costs more than compiling them, so their sources come from envdoctor's cache when the same
    words were seen before (`loader.selector_sources`; the reader takes nothing else from the
    engine). A memo (lru_cache): one build per process."""
    from envdoctor.triage_engine.loader import anchors, match_anchors, selector_sources

    signature_anchors, deep_anchors = anchors(), match_anchors()
    words = sorted(w for w in set(GENERIC_KEYWORDS) | set(FACT_KEYWORDS) | signature_anchors if w)
    deep = sorted(deep_anchors)
    every, only_anchors = selector_sources(
        (words, deep), (_keyword_regex, _trie_regex), SELECTOR_FORMAT
    )
    return every, only_anchors if deep_anchors else None, deep_anchors, tuple(words)


@lru_cache(maxsize=1)
def _keyword_selector() -> re.Pattern:
    """The compiled keyword regex (a memo: one compile per process)."""
    try:
        return re.compile(_selectors()[0])
    except re.error:  # a damaged cache entry: build it again
        return re.compile(_keyword_regex(list(_selectors()[3])))


class _KeywordFinder:
    """Where the first keyword at or after a position starts, found in Python: the keywords by
    their first two characters, looked up at each position. For a short input this costs less
    than compiling the keyword regex; it finds the same lines (only the line is used)."""

    def __init__(self, words: tuple[str, ...]) -> None:
        self.by_pair: dict[str, tuple[str, ...]] = {}
        self.single = frozenset(word for word in words if len(word) == 1)  # "台" of "两台"
        for word in words:
            if len(word) > 1:
                self.by_pair[word[:2]] = (*self.by_pair.get(word[:2], ()), word)

    def first(self, text: str, position: int = 0) -> int:
        """The index of the first keyword at or after `position`, or -1."""
        get, starts, single = self.by_pair.get, text.startswith, self.single
        for index in range(position, len(text)):
            if single and text[index] in single:
                return index
            words = get(text[index : index + 2])
            if words and any(starts(word, index) for word in words):
                return index
        return -1


@lru_cache(maxsize=1)
def _keyword_finder() -> _KeywordFinder | None:
    """The finder of the keywords (None when a keyword is empty or holds a line end: the regex
    is used then)."""
    words = _selectors()[3]
    if any(not word or "\n" in word for word in words):
        return None
    return _KeywordFinder(words)


def _keyword_regex(words: list[str]) -> str:
    """A regex that finds a line holding any of `words` exactly where their full trie would: a
    word that contains another word adds no line (the line holds the shorter one too), so only
    the words holding no other are kept (~500 of ~1100: a regex a quarter the size, compiled in
    a third of the time). Only which lines it finds is used, never what it matched."""
    kept: set[str] = set()
    for word in sorted(set(words), key=len):
        if not any(
            word[i:j] in kept for i in range(len(word)) for j in range(i + 1, len(word) + 1)
        ):
            kept.add(word)
    return _trie_regex(sorted(kept))


@lru_cache(maxsize=1)
def _deep_selector() -> re.Pattern | None:
    """The compiled regex of the signatures' match anchors (a memo: one compile per process)."""
    source = _selectors()[1]
    if source is None:
        return None
    try:
        return re.compile(source)
    except re.error:  # a damaged cache entry
        return re.compile(_trie_regex(sorted(_selectors()[2])))


def _gate(text: str, lowered: str, words: tuple[str, ...], folds: bool = False) -> bool:
    """Whether a pattern with these gate words (`free_text_vocabulary`) can match `text`, whose
    lowercase form `lowered` contains it: one of the words is in `lowered`, or `folds` (the
    pattern ignores case) and `text` is not ASCII, where case folding goes beyond lower()."""
    return any(map(lowered.__contains__, words)) or (folds and not text.isascii())


def _trie_regex(words: Iterable[str]) -> str:
    trie: dict[str, dict] = {}
    for word in words:
        node = trie
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def build(node: dict[str, dict]) -> str:
        alternatives = [re.escape(ch) + build(child) for ch, child in sorted(node.items()) if ch]
        if not alternatives:
            return ""
        body = alternatives[0] if len(alternatives) == 1 else "(?:" + "|".join(alternatives) + ")"
        if "" in node:
            return "(?:" + body + ")?"
        return body

    return build(trie)


class Collector:
    """Streams parts through the selectors and accumulates the `pasted.text` facts.

    While fewer than PROCESS_LINES notable lines were seen, every keyword selects a line (facts
    come from it; the first HEAD_LINES are kept). After that only lines holding a signature anchor
    not seen before are kept (at most NEW_ANCHOR_LINES). The last TAIL_LINES lines of the input
    are examined in full at the end, so the final error is never lost."""

    def __init__(self) -> None:
        _, _, self.signature_anchors, _ = _selectors()
        # the deep selector, compiled on first use (see `anchor_selector`); until then the head
        # lines' anchors wait in `_pending` (at most PENDING_NOTE_CHARS characters)
        self._deep: re.Pattern | None | object = _UNBUILT
        self._pending: list[str] = []
        self._pending_chars = 0
        self.useless_hits = 0  # deep-scan hits that brought no new anchor since the last rebuild
        self.newly_seen = 0  # anchors seen since the deep selector was last built
        self.line_no = 0
        self.total_chars = 0
        self.processed = 0
        self.head_end = 0  # last line number examined in full during the head
        self.head: list[tuple[int, str]] = []
        self.extra: list[tuple[int, str]] = []
        self.tail: list[tuple[int, str]] = []
        # (first line number, part text, its line count)
        self.recent: deque[tuple[int, str, int]] = deque(maxlen=4)
        self.seen_anchors: set[str] = set()
        self.seen_shapes: set[int] = set()  # hashes of the line shapes the deep scan examined
        self.errors: list[tuple[int, str]] = []  # (line number, line): lines may come late
        self.frames: list[dict[str, Any]] = []
        self.extensions: list[str] = []
        self.companions: list[str] = []
        self.gpus: list[str] = []
        self.ccs: list[str] = []
        self.arch_list: list[str] = []
        self.min_cc: str | None = None
        self.gfx: list[str] = []
        self.versions: dict[str, tuple[int, str]] = {}
        self.system_versions: dict[str, str] = {}
        self.os_mentions: list[str] = []
        self.distro: str | None = None
        self.arch: str | None = None
        self.windows_build: int | None = None
        self.apps: list[str] = []
        self.platforms: list[str] = []
        self.languages: list[str] = []
        self.ollama_lines: list[str] = []
        self.heading_answers: list[str] = []

    def feed(self, text: str) -> None:
        """Consume one part of the input."""
        self.total_chars += len(text)
        if "zh" not in self.languages and not text.isascii() and _CJK.search(text[:200000]):
            self.languages.append("zh")
        first = self.line_no + 1
        line_count = text.count("\n") + 1
        self.recent.append((first, text, line_count))
        while sum(n for _, _, n in list(self.recent)[1:]) > TAIL_LINES:
            self.recent.popleft()
        if "#" in text[:HEADING_SCAN_CHARS]:
            self._heading_versions(text[:HEADING_SCAN_CHARS])
            self._heading_answers(text[:HEADING_SCAN_CHARS])
        lowered = text.lower()
        if len(lowered) != len(text):  # a few characters change length when lowercased
            number = self.line_no
            for line in text.split("\n"):
                number += 1
                self._scan_one(number, line)
            self.line_no = number
            return
        self._scan(text, lowered, line_count)

    def _first_keyword(self, lowered: str, position: int = 0) -> int:
        """Where the first keyword at or after `position` starts (-1: none), or at least the
        first one of its line: `_KeywordFinder` for an input of at most SMALL_INPUT_CHARS
        (compiling the regex would cost more), the keyword regex past that."""
        finder = _keyword_finder() if self.total_chars <= SMALL_INPUT_CHARS else None
        if finder is not None:
            return finder.first(lowered, position)
        found = _keyword_selector().search(lowered, position)
        return -1 if found is None else found.start()

    def _scan_one(self, number: int, line: str) -> None:
        lowered = line.lower()
        if self.processed < PROCESS_LINES:
            hit = self._first_keyword(lowered) >= 0
        else:
            regex = self.anchor_selector
            hit = regex is not None and regex.search(lowered) is not None
        if hit:
            self._line(number, line, lowered)

    def _scan(self, text: str, lowered: str, line_count: int) -> None:
        start_no = self.line_no
        position = 0
        counted_to = 0
        line_no = start_no
        size = len(lowered)
        while position < size:
            if self.processed >= PROCESS_LINES:  # past the head: only new line shapes
                line_no += lowered.count("\n", counted_to, position)
                self._deep_scan(text[position:], lowered[position:], line_no)
                break
            found = self._first_keyword(lowered, position)
            if found < 0:
                break
            begin = lowered.rfind("\n", 0, found) + 1
            end = lowered.find("\n", found)  # keywords hold no line end
            if end < 0:
                end = size
            line_no += lowered.count("\n", counted_to, begin)
            counted_to = begin
            self._line(line_no + 1, text[begin:end], lowered[begin:end])
            position = end + 1
        self.line_no = start_no + line_count

    def _deep_scan(self, text: str, lowered: str, line_no: int) -> None:
        """Past the head, examine each line shape once: a long log's lines that differ only in
        digits (timestamps, counters, addresses) are one shape, and a signature anchor is looked
        for in the first line of each shape not seen before (at most MAX_SHAPES remembered).

        The shapes are found with C-speed steps (bytes without digits, hashed, set against the
        shapes seen): only the lines of new shapes cost Python work."""
        if self.anchor_selector is None:
            return
        shapes = lowered.encode("utf-8", "surrogatepass").translate(None, _DIGITS).split(b"\n")
        seen = self.seen_shapes
        if len(seen) + len(shapes) > MAX_SHAPES:  # the memory may fill up within this part
            self._deep_scan_lines(text, lowered, line_no, shapes)
            return
        hashes = list(map(hash, shapes))
        # each shape -> its first line
        first = dict(zip(reversed(hashes), range(len(hashes) - 1, -1, -1), strict=True))
        fresh = sorted(first[key] for key in first.keys() - seen)
        seen.update(first)  # as the line loop would, since the memory cannot fill up here
        if not fresh:
            return
        lowered_lines = lowered.split("\n")
        lines = text.split("\n")
        for offset in fresh:
            if not self._examine(line_no + offset + 1, lines[offset], lowered_lines[offset]):
                return

    def _deep_scan_lines(self, text: str, lowered: str, line_no: int, shapes: list[bytes]) -> None:
        """`_deep_scan` line by line, for a part during which the shape memory fills up (a
        shape first seen once it is full is examined each time it occurs)."""
        lowered_lines = lowered.split("\n")
        lines = text.split("\n")
        seen = self.seen_shapes
        for offset, shape in enumerate(shapes):
            key = hash(shape)
            if key in seen:
                continue
            if len(seen) < MAX_SHAPES:
                seen.add(key)
            if not self._examine(line_no + offset + 1, lines[offset], lowered_lines[offset]):
                return

    def _examine(self, number: int, line: str, lowered: str) -> bool:
        """Keep a line of a deep scan when it holds an anchor; False once no selector is left
        (the new-anchor budget is spent: the scan can stop)."""
        regex = self.anchor_selector
        if regex is None:
            return False
        if regex.search(lowered):
            self._line(number, line, lowered)
        return True

    def _line(self, number: int, line: str, lowered: str) -> None:
        stripped = line.strip()
        if not stripped:
            return
        entry = (number, cut_line(stripped))
        in_head = self.processed < PROCESS_LINES
        if in_head:
            self.processed += 1
            self.head_end = number
            self._facts(stripped[: 4 * MAX_LINE_CHARS], lowered, number)
            if len(self.head) < HEAD_LINES:
                self.head.append(entry)
                self._note_anchors(lowered)
                return
        if len(self.extra) >= NEW_ANCHOR_LINES or self.anchor_selector is None:
            return
        fresh = {m.group(0) for m in self.anchor_selector.finditer(lowered)} - self.seen_anchors
        if fresh:
            self.extra.append(entry)
            self.seen_anchors |= fresh
            self.newly_seen += len(fresh)
            if not in_head:
                self._facts(stripped[: 4 * MAX_LINE_CHARS], lowered, number)
        elif not in_head:
            self.useless_hits += 1
            if self.useless_hits >= REBUILD_AFTER_USELESS and self.newly_seen:
                self._rebuild_deep_selector()

    @property
    def anchor_selector(self) -> re.Pattern | None:
        """The regex of the match anchors not seen yet (None: all seen). Its first use compiles
        it and notes the anchors of the head lines kept meanwhile, in order, so every reader of
        `seen_anchors` and `newly_seen` (all go through here first) sees what it always did."""
        if self._deep is _UNBUILT:
            self._deep = _deep_selector()
            pending, self._pending, self._pending_chars = self._pending, [], 0
            for lowered in pending:
                self._note_anchors(lowered)
        return self._deep  # type: ignore[return-value]

    @anchor_selector.setter
    def anchor_selector(self, regex: re.Pattern | None) -> None:
        self._deep = regex

    def _rebuild_deep_selector(self) -> None:
        """Drop the anchors already seen from the deep selector, so a word that floods a log
        (a common one that some signature needs) stops costing a match per line."""
        remaining = self.signature_anchors - self.seen_anchors
        self.anchor_selector = re.compile(_trie_regex(remaining)) if remaining else None
        self.useless_hits = self.newly_seen = 0

    def _note_anchors(self, lowered: str) -> None:
        if self._deep is _UNBUILT and self._pending_chars + len(lowered) <= PENDING_NOTE_CHARS:
            self._pending.append(lowered)  # a short paste never needs the deep selector
            self._pending_chars += len(lowered)
            return
        if self.anchor_selector is not None:
            before = len(self.seen_anchors)
            self.seen_anchors.update(m.group(0) for m in self.anchor_selector.finditer(lowered))
            self.newly_seen += len(self.seen_anchors) - before

    def _finish_tail(self) -> None:
        """Examine the last TAIL_LINES lines in full (those the head did not already cover)."""
        lines: list[tuple[int, str]] = []
        for first, text, _ in self.recent:
            lines.extend((first + i, line) for i, line in enumerate(text.split("\n")))
        kept = {n for n, _ in (*self.head, *self.extra)}
        for number, line in lines[-TAIL_LINES:]:
            if number <= self.head_end or number in kept:
                continue
            lowered = line.lower()
            if self._first_keyword(lowered) < 0 or not line.strip():
                continue
            self._facts(line.strip()[: 4 * MAX_LINE_CHARS], lowered, number)
            self.tail.append((number, cut_line(line.strip())))

    # -- facts ---------------------------------------------------------------------------------

    def _facts(self, line: str, lowered: str, number: int) -> None:
        if _gate(line, lowered, ERROR_GATE, folds=True) and _ERROR_LINE.search(line):
            # kept in input order (a line kept for a new anchor is examined before the tail's):
            # the first half and the latest ones survive
            bisect.insort(self.errors, (number, line[:MAX_LINE_CHARS]))
            if len(self.errors) > MAX_ERRORS:
                self.errors.pop(MAX_ERRORS // 2)
        # clean_block / clean_line fold these already; lines given to ingest_lines are not cleaned
        line, lowered = ascii_forms(line), ascii_forms(lowered)
        if 'file "' in lowered or ".py:" in lowered or ".py in " in lowered:
            self._frames(line)
        if ".so" in lowered or ".pyd" in lowered or "-packages" in lowered:
            self._extensions(line)
        self._gpus(line, lowered)
        if "capabilit" in lowered or "compute=" in lowered:
            for match in _CC.finditer(line):
                self._add(self.ccs, _cc_of(match))
            for match in _OLLAMA_COMPUTE.finditer(line):
                self._add(self.ccs, f"{match.group('major')}.{match.group('minor')}")
            arch = _ARCH_LIST.search(line)
            if arch and not self.arch_list:
                self.arch_list = arch.group("list").split()
            minimum = _MIN_CC.search(line)
            if minimum:
                self.min_cc = minimum.group("cc")
        if "gfx" in lowered:
            for match in _GFX.finditer(line):
                self._add(self.gfx, match.group(0).lower())
        self._versions(line, lowered)
        self._environment(line, lowered)
        if "level=" in lowered:
            ollama = _OLLAMA_LINE.search(line)
            if ollama and len(self.ollama_lines) < MAX_OLLAMA_LINES:
                self.ollama_lines.append(line[:MAX_LINE_CHARS])

    @staticmethod
    def _add(items: list[str], value: str | None, limit: int = 50) -> None:
        if value and value not in items and len(items) < limit:
            items.append(value)

    def _frames(self, line: str) -> None:
        for regex in (_FRAME, _RICH_FRAME, _IPY_FRAME):
            for match in regex.finditer(line):
                if len(self.frames) >= MAX_FRAMES:
                    return
                groups = match.groupdict()
                frame = {
                    "file": groups.get("file"),
                    "line": int(groups["line"]) if groups.get("line") else None,
                    "function": groups.get("func"),
                }
                if frame not in self.frames:
                    self.frames.append(frame)
                self._path_packages(str(frame["file"] or ""))
            if self.frames:
                break
        if _CPP_EXTENSION.search(line):
            self._add(self.extensions, "torch.utils.cpp_extension")

    def _extensions(self, line: str) -> None:
        for match in _SO_NAME.finditer(line):
            name = match.group("name")
            if _TORCH_LIBS.match(name):
                continue
            start = match.start()
            context = line[max(0, start - 200) : start]
            package = _package_in_path(context)
            if name in COMPANIONS or package in COMPANIONS:
                self._add(self.companions, package if package in COMPANIONS else name)
                continue
            self._add(self.extensions, name)
        self._path_packages(line)

    def _path_packages(self, text: str) -> None:
        for match in _SITE_PACKAGE.finditer(text):
            package = match.group("pkg")
            if package in COMPANIONS:
                self._add(self.companions, package)
            elif package in EXTENSION_PACKAGES:
                self._add(self.extensions, package)

    def _gpus(self, line: str, lowered: str) -> None:
        if not _gate(lowered, lowered, _GPU_HINT_WORDS) and not (
            _gate(lowered, lowered, GPU_HINT_REST_GATE) and _GPU_HINT_REST.search(lowered)
        ):
            return  # GPU_HINT, in halves
        spans: list[tuple[int, int, str]] = []
        for regex in _GPU_PATTERNS:
            for match in regex.finditer(line):
                if any(s <= match.start() < e for s, e, _ in spans):
                    continue
                spans.append((match.start(), match.end(), canonical_gpu(match)))
        for _, _, name in sorted(spans):
            self._add(self.gpus, name, limit=16)

    def _versions(self, line: str, lowered: str) -> None:
        for priority, regex in enumerate(_INSTALLED):
            match = regex.search(line)
            if match:
                self._version("torch", match.group("version"), priority)
        for regex in (_PIP_FREEZE, _PIP_LIST, _CONDA_LIST):
            match = regex.match(line)
            if match and _interesting_package(match.group("name")):
                self._version(match.group("name"), match.group("version"), 2)
                break
        if _gate(line, lowered, KEY_VALUE_GATE, folds=True):
            for match in _KEY_VALUE.finditer(line):
                self._version(match.group("name"), match.group("version"), 3)
        if _gate(line, lowered, MENTION_GATE, folds=True):
            for match in _MENTION.finditer(line):
                self._version(match.group("name"), match.group("version"), 4)
        if " (" in line:
            for match in PAREN_MENTION.finditer(line):
                self._version(match.group("name"), match.group("version"), 4)
        if "pip" in lowered or "installed" in lowered or "satisfied" in lowered:
            self._pip_versions(line)
        if "driver" in lowered:
            match = _DRIVER.search(line)
            if match:
                self.system_versions.setdefault("driver", match.group("version"))
        match = _CUDA_DRIVER.search(line) if _gate(line, lowered, CUDA_DRIVER_GATE) else None
        if match:
            self.system_versions.setdefault("cuda_driver", match.group("version"))
        match = _NVCC.search(line) if _gate(line, lowered, NVCC_GATE) else None
        if match:
            self.system_versions.setdefault("nvcc", match.group("version"))
        if "python" in lowered:
            match = _PYTHON.search(line)
            if match:
                self.system_versions.setdefault("python", match.group("version"))

    def _heading_versions(self, text: str) -> None:
        """Versions answered under issue-form headings (a version alone on its line is not a
        notable line, so the line scan never sees it)."""
        for match in _HEADING_VERSION.finditer(text):
            name, version = match.group("name"), match.group("version")
            if name.lower() == "python":
                self.system_versions.setdefault("python", version)
            else:
                self._version(name, version, 3)

    def _heading_answers(self, text: str) -> None:
        """Each issue-form heading with its one-line answer, as the inline "heading: answer" it
        stands for (the prose facts read these as they read any line)."""
        for match in HEADING_ANSWER.finditer(text):
            if len(self.heading_answers) >= MAX_HEADING_ANSWERS:
                return
            heading = HEADING_NOISE.sub("", match.group("heading")).strip(" \t:：")
            answer = match.group("answer").strip()
            if heading and answer and not answer.lower().startswith(("_no response_", "n/a")):
                self.heading_answers.append(f"{heading}: {answer}")

    def _pip_versions(self, line: str) -> None:
        """What pip's own lines say is installed ("Successfully installed ...", "Requirement
        already satisfied: ..."), and the versions a `pip install` line pins."""
        installed = PIP_INSTALLED.search(line) if "uccessfully installed" in line else None
        if installed:
            for item in PIP_INSTALLED_ITEM.finditer(installed.group("list")):
                self._version(item.group("name"), item.group("version"), 2)
        satisfied = PIP_SATISFIED.search(line) if "already satisfied" in line else None
        if satisfied:
            version = satisfied.group("version") or satisfied.group("version2")
            self._version(satisfied.group("name"), version, 2)
        if "==" in line and PIP_COMMAND.search(line):
            for pin in PIP_PIN.finditer(line):
                self._version(pin.group("name"), pin.group("version"), 4)

    def _version(self, name: str, version: str, priority: int) -> None:
        version = clean_version(version)
        key = _package_key(name)
        have = self.versions.get(key)
        more_specific = (
            have is not None
            and priority == have[0]
            and "+" in version
            and "+" not in have[1]
            and version.startswith(have[1])
        )
        if have is None or priority < have[0] or more_specific:
            self.versions[key] = (priority, version)

    def _environment(self, line: str, lowered: str) -> None:
        for match in (
            _ENVIRONMENT.finditer(lowered) if _gate(lowered, lowered, ENVIRONMENT_GATE) else ()
        ):
            name = match.lastgroup
            if name in _OS_MENTIONS:
                if name not in self.os_mentions:
                    self.os_mentions.append(name)
            elif name in _APP_MENTIONS:
                if name not in self.apps:
                    self.apps.append(name)
            elif name == "jetson" and "jetson" not in self.platforms:
                self.platforms.append("jetson")
            if name == "linux" and self.distro is None:
                distro = _DISTRO.search(line)
                if distro:
                    word = " ".join(distro.group(1).lower().split())
                    self.distro = _DISTRO_IDS.get(word, word)
        if self.arch is None and "64" in line:
            arch = _ARCH.search(line)
            if arch:
                self.arch = arch.group(1)
        if self.windows_build is None and "10.0." in line:
            build = _WINDOWS_BUILD.search(line)
            if build:
                self.windows_build = int(build.group("build"))

    # -- output --------------------------------------------------------------------------------

    def groups(self) -> list[FactGroup]:
        """The `pasted.text` group (always, once anything was fed)."""
        if self.total_chars == 0:
            return []
        self._finish_tail()
        kept = {number: line for number, line in (*self.head, *self.extra, *self.tail)}
        lines = [kept[n] for n in sorted(kept)]
        data: dict[str, Any] = {
            "lines": lines,
            "errors": [line for _, line in self.errors],  # in input order
            "frames": self.frames,
            "extensions": self.extensions,
            "companions": self.companions,
            "gpus": self.gpus,
            "compute_capabilities": self.ccs,
            "torch_arch_list": self.arch_list,
            "torch_min_cc": self.min_cc,
            "gfx_targets": self.gfx,
            "versions": {name: version for name, (_, version) in self.versions.items()},
            "system_versions": self.system_versions,
            "os_mentions": self.os_mentions,
            "distro": self.distro,
            "arch": self.arch,
            "windows_build": self.windows_build,
            "apps": self.apps,
            "platforms": self.platforms,
            "languages": self.languages,
            "ollama": {"lines": self.ollama_lines},
            "heading_answers": self.heading_answers,
            "line_count": self.line_no,
            "char_count": self.total_chars,
            "notable_lines_seen": self.processed,
        }
        first_error = self.errors[0][1] if self.errors else None
        summary = f"{len(lines)} notable lines of {self.line_no}"
        if first_error:
            summary += f"; first error: {first_error[:120]}"
        return [collected("pasted.text", SOURCE, data, summary=summary, confidence=Confidence.LOW)]


def collector() -> Collector:
    """A fresh streaming collector (the driver feeds it every part)."""
    return Collector()


def detect(text: str) -> bool:
    """Free text is always readable."""
    return bool(text.strip())


def read(text: str) -> list[FactGroup]:
    """The `pasted.text` group of one text."""
    c = Collector()
    c.feed(text)
    return c.groups()
