"""Loading the causes: `checks/signatures/*.toml` (the data stays beside the checks) -> Signature.

```toml
[[signature]]
id = "torch.gpu-too-new-for-build"          # the finding id (shared with fact checks)
key = "torch.no-kernel-image.gpu-too-new"   # unique signature name (default: the id)
severity = "error"                          # error | warning | info
score = 60                                  # how telling the canonical line is on its own
title = "The PyTorch build has no kernels for {{gpu.name}} ({{gpu.sm_name}})"
detail = "What it means, why it happens."
match = ['no kernel image is available']    # canonical error lines: any one of these
all = []                                    # ... and every one of these, anywhere in the paste
none = []                                   # ... and none of these
capture = ['you have (?P<have>\\S+)\\)']    # optional: named groups for conditions and text
cues = [{ any = ['sm_120', '5090'], weight = 10 }, { any = ['仅CPU'], weight = -20 }]
# a cue whose phrasings are common words says so (`notable = false`): they do not make a line
# notable on their own, and are looked for on the lines kept for other words; a cue may add a
# shared phrase set of a file's [phrases] table: { any = [...], phrases = ["gpu-not-used"], ... }
prose_min = 40                              # cues alone reach the cause at this sum
prose_max = 44                              # ... and score at most this (below canonical lines)
requires = ["gpu.vendor == nvidia"]         # facts that must hold (unknown = not met)
confirm = ["gpu.sm > $torch.sm_max", { when = "torch.cuda < 12.8", weight = 25 }]
refute = ["torch.build == cpu"]             # any that holds rules the signature out
explains = ["app.ollama-cpu-fallback"]      # symptoms this cause accounts for
sources = ["https://..."]
example = "a real line the signature must match (tested)"
defaults = { "gpu.name" = "this GPU" }      # text for placeholders whose fact is unknown
[[signature.remedy]]                        # resolved by envdoctor.remedies (the one chooser)
kind = "torch-build-for-gpu"                # its exact fixes come before the written ones
capability = "{{m.sm}}"
[[signature.fix]]                           # written fixes: what no remedy kind covers
summary = "Install a cu128 build"
commands = ["pip install --upgrade torch --index-url https://download.pytorch.org/whl/cu128"]
risk = "safe"                               # safe | needs-restart | destructive
url = "https://pytorch.org/get-started/locally/"
when = "os.system != Windows"               # shown only when this is not known to be false
first_when = "app.comfyui"                  # moved to the top when this holds
unless = "gpu.vendor in amd,intel"          # hidden when this holds (a gate on the facts: unlike
                                            # a `when` that holds, it does not move the fix up)
```

Patterns are Python regular expressions, matched case-insensitively against one notable line at
a time (see `envdoctor.triage_engine.patterns`). A signature with no `match` is reached by its cues only.

What authors of several entries of one cause should know:
- Entries of one id make one finding: the best-scoring entry's, completed with the phrasing
  entries' fixes (a phrasing fix whose `first_when` holds leads, unless the entry has chooser fixes).
- Every pattern needs a literal of 3+ characters that each match contains (its anchor: lines are
  pre-filtered by anchors); the loader refuses one without.
- `gpu.sm`, `torch.sm_*`, `cuda.sm_*` are whole numbers (86, 120), `gpu.cc*` major.minor (8.6):
  a literal in the other spelling is refused (versions compare part by part).
- For the similar-case suggestions (`casebase`), a cause is ruled out when any entry's canonical
  line was seen but did not apply, any entry's `refute` holds, or any entry's `requires` is known
  false: put a `requires` on a prose entry only when it is true of the cause itself.
- A cue pattern whose anchors the cues of many causes share ("cuda", "gpu", "docker") counts as
  general: it tells the topic, not the cause, and does not back a suggestion.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from itertools import accumulate, chain
from pathlib import Path
from typing import Any

from envdoctor.model.findings import Risk, Severity
from envdoctor.triage_engine.conditions import parse_condition
from envdoctor.triage_engine.model import (
    DEFAULT_PROSE_MIN,
    DEFAULT_SCORE,
    DEFAULT_WEIGHT,
    Condition,
    Cue,
    FixSpec,
    Pattern,
    Signature,
    SignatureError,
)
from envdoctor.triage_engine.patterns import compile_pattern as _compile_checked
from envdoctor.triage_engine.patterns import forget_anchors, remember_anchors


def _signature_dir() -> Path:
    """checks/signatures, wherever the checks package is installed from."""
    import envdoctor.checks

    return Path(envdoctor.checks.__file__).resolve().parent / "signatures"


SIGNATURE_DIR = _signature_dir()
SCHEMA_VERSION = 1
MAX_FILE_BYTES = 16 * 1024 * 1024  # a signature file; the largest is under 100 KiB


@dataclass(frozen=True)
class Selector:
    """What picks a signature out without building it: its key and finding id, the literals one of
    which a paste must hold for it to apply (`gate`: the anchors of its canonical lines and of its
    positive cues; without one, neither a line nor a phrasing of it can be found), and the texts
    of its positive cue patterns (which phrasings name which cause, `casebase.general_cues`)."""

    key: str
    id: str
    gate: frozenset[str]
    cues: tuple[str, ...]


@dataclass(frozen=True, eq=False)
class SignatureData:
    """Everything loaded from signatures/: the signatures, shared default texts, the fallback
    nvcc architecture table, the no-match texts, and any load errors.

    The signatures are built when first needed (`signature(i)`, `candidates`, `of_id`; all of
    them through `signatures`): a paste holds the gate literals of a fifth of them or fewer, and
    building the other four fifths from the cache was a third of a short paste's time. `make`
    builds the i-th (a parse builds them all first); `anchors` and `match_anchors` are the
    literals of all of them (`anchors()`, `match_anchors()`)."""

    selectors: tuple[Selector, ...]
    defaults: Mapping[str, str]
    arch_rows: tuple[Mapping[str, Any], ...]
    no_match: Mapping[str, Any]
    errors: tuple[str, ...]
    conflicts: tuple[tuple[str, ...], ...]
    anchors: frozenset[str]
    match_anchors: frozenset[str]
    make: Callable[[int], Signature]
    built: dict[int, Signature] = field(default_factory=dict)  # the memo of `make`

    def signature(self, index: int) -> Signature:
        """The index-th signature (in file order), built once."""
        found = self.built.get(index)
        if found is None:
            found = self.built[index] = self.make(index)
        return found

    @property
    def signatures(self) -> tuple[Signature, ...]:
        """All the signatures, in file order."""
        return tuple(self.signature(i) for i in range(len(self.selectors)))

    def candidates(self, holds: Callable[[str], bool]) -> list[Signature]:
        """The signatures that can apply to a paste: those whose gate has a literal `holds`
        (the paste's notable lines hold it), in file order."""
        return [
            self.signature(i)
            for i, selector in enumerate(self.selectors)
            if any(holds(literal) for literal in selector.gate)
        ]

    def of_id(self, finding_id: str) -> list[Signature]:
        """The signatures of one finding id, in file order."""
        return [self.signature(i) for i in self._positions.get(finding_id, ())]

    def of_key(self, key: str) -> Signature | None:
        """The signature named `key`, or None."""
        found = next((i for i, s in enumerate(self.selectors) if s.key == key), None)
        return None if found is None else self.signature(found)

    def ids(self) -> list[str]:
        """The finding ids, in the order their first signature comes."""
        return list(self._positions)

    @cached_property
    def _positions(self) -> dict[str, list[int]]:
        positions: dict[str, list[int]] = {}
        for i, selector in enumerate(self.selectors):
            positions.setdefault(selector.id, []).append(i)
        return positions

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SignatureData):
            return NotImplemented
        return (
            self.signatures == other.signatures
            and (self.defaults, self.arch_rows, self.no_match, self.errors, self.conflicts)
            == (other.defaults, other.arch_rows, other.no_match, other.errors, other.conflicts)
            and (self.anchors, self.match_anchors) == (other.anchors, other.match_anchors)
        )

    __hash__ = None  # type: ignore[assignment]


def load(folder: Path | None = None) -> SignatureData:
    """Load every signature file; broken signatures are left out and reported in `errors`.

    When these exact files loaded without an error before, envdoctor's cache (`matrix_cache`,
    keyed by the files' names and status (`files_key`), envdoctor's version and the pattern
    analysis code) gives each signature's table (as JSON, built only when needed), its selector and its
    patterns' anchors: the TOML parse, the ~1000 regular expressions' analysis and building
    every signature are most of the load time. An entry that is damaged (any error when read
    back, or a digest that does not match) is ignored."""
    from envdoctor import __version__
    from envdoctor.matrix import cache as matrix_cache

    folder = folder or SIGNATURE_DIR
    paths = sorted(folder.glob("*.toml"))
    try:  # the files' status, not their bytes: a cached start reads none of them
        cache_key = matrix_cache.files_key(
            paths, f"{__version__}/{CACHE_FORMAT}/{_analysis_digest()}"
        )
    except OSError:
        cache_key = None  # a file that cannot be read: the parse below says which
    entry = matrix_cache.load(CACHE_NAME, cache_key) if cache_key else None
    tables = matrix_cache.load_bytes(CACHE_NAME, cache_key) if cache_key and entry else None
    cached = _from_cache(entry, [p.name for p in paths], tables)
    if cached is not None:
        remember_anchors(cached["anchors"], cached["also"])
        try:
            return _lazy(cached, lambda: _parsed(_decoded(_read(paths, []), []), [])[1])
        except Exception:  # noqa: BLE001 - a damaged entry: parse the files instead
            forget_anchors()
    read_errors: list[str] = []
    files = _read(paths, read_errors)
    texts = _decoded(files, read_errors)
    parsed, data = _parsed(texts, read_errors)
    if not data.errors and cache_key:
        entry, tables = _cache_entry(parsed, data)
        if _json_safe(entry) and matrix_cache.store_bytes(CACHE_NAME, cache_key, tables):
            matrix_cache.store(CACHE_NAME, cache_key, entry)  # after the tables it points into
    return data


def _read(paths: list[Path], errors: list[str]) -> list[tuple[str, bytes]]:
    """The files' names and bytes; one that cannot be read (or is not a regular file, or is
    larger than MAX_FILE_BYTES) goes to `errors`."""
    from envdoctor.matrix.cache import read_regular_file

    files = []
    for path in paths:
        try:
            files.append((path.name, read_regular_file(path, MAX_FILE_BYTES)))
        except OSError as exc:
            errors.append(f"{path.name}: {exc}")
    return files


def _decoded(files: list[tuple[str, bytes]], errors: list[str]) -> list[tuple[str, str]]:
    """The files' texts; one that is not UTF-8 goes to `errors` (a file envdoctor cannot read)."""
    texts = []
    for name, data in files:
        try:
            texts.append((name, data.decode("utf-8")))
        except UnicodeDecodeError as exc:
            errors.append(f"{name}: not UTF-8 text ({exc.reason} at byte {exc.start})")
    return texts


def _parse(texts: list[tuple[str, str]]) -> list[tuple[str, dict[str, Any] | str]]:
    """Each file's TOML document, or the error that says why it does not parse (the TOML parser
    is imported here: a run that reads the cache never needs it)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib

    documents: list[tuple[str, dict[str, Any] | str]] = []
    for name, text in texts:
        try:
            documents.append((name, tomllib.loads(text)))
        except tomllib.TOMLDecodeError as exc:
            documents.append((name, f"{name}: {exc}"))
    return documents


def _parsed(
    texts: list[tuple[str, str]], read_errors: list[str]
) -> tuple[list[tuple[str, dict[str, Any] | str]], SignatureData]:
    """The files' documents and their data, every signature built (and checked)."""
    parsed = _with_phrases(_parse(texts))
    return parsed, _build(parsed, read_errors, _compile_checked)


def _with_phrases(
    parsed: list[tuple[str, dict[str, Any] | str]],
) -> list[tuple[str, dict[str, Any] | str]]:
    """The documents with each cue that names shared phrase sets (`phrases = ["gpu-not-used"]`,
    sets of a file's `[phrases]` table) holding those patterns after its own `any`: the
    phrasings of a symptom several causes share are written once, and a phrasing added there
    reaches every cause that names the set. A cue naming an unknown set is left for `_cues`
    to report."""
    sets: dict[str, list[str]] = {}
    for _, document in parsed:
        if isinstance(document, dict):
            for name, patterns in (document.get("phrases") or {}).items():
                sets[str(name)] = _strings(patterns)
    if not sets:
        return parsed
    out: list[tuple[str, dict[str, Any] | str]] = []
    for name, document in parsed:
        if isinstance(document, dict) and isinstance(document.get("signature"), list):
            entries = [_entry_with_phrases(e, sets) for e in document["signature"]]
            document = {**document, "signature": entries}
        out.append((name, document))
    return out


def _entry_with_phrases(entry: Any, sets: Mapping[str, list[str]]) -> Any:
    """One signature entry with its cues' phrase sets expanded (see `_with_phrases`)."""
    cues = entry.get("cues") if isinstance(entry, Mapping) else None
    if not isinstance(cues, list) or not any(
        isinstance(c, Mapping) and "phrases" in c for c in cues
    ):
        return entry
    expanded = []
    for cue in cues:
        if isinstance(cue, Mapping) and "phrases" in cue:
            names = _strings(cue["phrases"])
            if all(n in sets for n in names):
                own = _strings(cue.get("any"))
                patterns = [*own, *(p for n in names for p in sets[n])]
                rest = {k: v for k, v in cue.items() if k != "phrases"}
                cue = {**rest, "any": list(dict.fromkeys(patterns))}
        expanded.append(cue)
    return {**entry, "cues": expanded}


def _cache_entry(
    parsed: list[tuple[str, dict[str, Any] | str]], data: SignatureData
) -> tuple[dict[str, Any], bytes]:
    """What the cache keeps of files that loaded without an error: each file's tables but its
    signatures, each signature as (origin, selector, where its table lies), its patterns' anchors
    and other literal sets, and the data's anchors; and the signatures' tables as JSON, one after
    the other, kept beside the entry. A short paste builds a fifth of the signatures: reading
    every table's JSON out of the entry was a tenth of its time, so each is read when built."""
    import json
    import zlib

    raw = [
        entry for _, doc in parsed if isinstance(doc, dict) for entry in doc.get("signature", [])
    ]
    tables = [json.dumps(entry, separators=(",", ":")).encode() for entry in raw]
    places, offset = [], 0
    for table in tables:
        places.append([offset, len(table), zlib.crc32(table)])
        offset += len(table)
    rows = [
        [sig.origin, sel.key, sel.id, sorted(sel.gate), list(sel.cues), place]
        for sig, sel, place in zip(data.signatures, data.selectors, places, strict=True)
    ]
    patterns = [p for sig in data.signatures for p in _analysed(sig)]
    return {
        "documents": [
            [name, {k: v for k, v in doc.items() if k != "signature"}]
            for name, doc in parsed
            if isinstance(doc, dict)
        ],
        "signatures": rows,
        "anchors": {p.text: list(p.anchors) for p in patterns},
        "also": {p.text: [list(group) for group in p.also] for p in patterns if p.also},
        "all_anchors": sorted(data.anchors),
        "match_anchors": sorted(data.match_anchors),
    }, b"".join(tables)


def _from_cache(
    entry: Mapping[str, Any] | None, names: list[str], tables: bytes | None
) -> dict[str, Any] | None:
    """A cache entry (`_cache_entry`) of exactly these files whose parts have the right shapes,
    with the signatures' tables it points into (each checked against its CRC when built), else
    None. (The checks run over whole columns at once: JSON gives exact types, and checking
    ten thousand values one by one in Python was a twentieth of a short paste's time.)"""
    if not entry or tables is None:
        return None
    documents, known, rows = entry.get("documents"), entry.get("anchors"), entry.get("signatures")
    if not isinstance(documents, list) or not isinstance(known, dict):
        return None
    if [d[0] if isinstance(d, list) and len(d) == 2 else None for d in documents] != names:
        return None  # a file that did not parse is not cached: the key never matches then
    if not all(isinstance(d[1], dict) for d in documents):
        return None
    if not _strings_lists(known.values()):
        return None
    also = entry.get("also")
    if not isinstance(also, dict) or not _all_of(also.values(), list):
        return None
    if not _strings_lists(chain.from_iterable(also.values())):
        return None
    if not isinstance(rows, list) or not _rows(rows):
        return None
    places = [r[5] for r in rows]
    ends = list(accumulate((length for _, length, _ in places), initial=0))
    if ends[-1] != len(tables) or [offset for offset, _, _ in places] != ends[:-1]:
        return None  # a row missing, moved or pointing elsewhere, or tables of another entry
    for name in ("all_anchors", "match_anchors"):
        value = entry.get(name)
        if not isinstance(value, list) or not _all_of(value, str):
            return None
    return {**entry, "tables": tables}


def _all_of(values: Iterable[Any], kind: type) -> bool:
    """Whether every value is exactly of `kind` (JSON's types; a bool is not an int)."""
    return set(map(type, values)) <= {kind}


def _strings_lists(values: Iterable[Any]) -> bool:
    """Whether every value is a non-empty list of non-empty strings."""
    values = list(values)
    return _all_of(values, list) and all(values) and _nonempty_strings(chain.from_iterable(values))


def _nonempty_strings(values: Iterable[Any]) -> bool:
    """Whether every value is a non-empty string."""
    values = list(values)
    return _all_of(values, str) and all(values)


def _rows(rows: list[Any]) -> bool:
    """Whether every cached signature row is (origin, key, id, gate, cue texts, where its table
    lies: offset, length, CRC-32)."""
    if not _all_of(rows, list) or set(map(len, rows)) - {6}:
        return False
    origins, keys, ids, gates, cues, places = zip(*rows, strict=True) if rows else ((),) * 6
    return (
        _all_of(chain(origins, keys, ids), str)
        and _all_of(chain(gates, cues), list)
        and _all_of(chain.from_iterable(chain(gates, cues)), str)
        and _all_of(places, list)
        and not set(map(len, places)) - {3}
        and _all_of(chain.from_iterable(places), int)
        and min(chain.from_iterable(places), default=0) >= 0
    )


def _lazy(cached: Mapping[str, Any], rescue: Callable[[], SignatureData]) -> SignatureData:
    """The data of a cache entry, its signatures built from their tables when first needed.
    A table that does not build or fails its CRC (a damaged entry) is taken from a
    parse of the files instead (`rescue`, run at most once)."""
    import json
    import zlib

    documents = cached["documents"]
    rows = cached["signatures"]
    table_bytes = cached["tables"]
    compile_pattern = _compiler(cached["anchors"], cached["also"])
    conditions = _ConditionMemo(checked=True)
    parsed: list[SignatureData] = []  # the rescue's result, once made

    def make(index: int) -> Signature:
        origin, key, (offset, length, crc) = rows[index][0], rows[index][1], rows[index][5]
        table = table_bytes[offset : offset + length]
        if zlib.crc32(table) == crc:  # else damaged: the files decide
            try:
                return _signature(json.loads(table), origin, compile_pattern, conditions)
            except Exception:  # noqa: BLE001 - damaged behind its CRC: the files decide
                pass
        if not parsed:
            parsed.append(rescue())
        found = parsed[0].of_key(key)
        if found is None:
            raise SignatureError(f"{origin}: signature {key} cannot be built")
        return found

    tables = _tables(documents)
    return SignatureData(
        selectors=tuple(Selector(r[1], r[2], frozenset(r[3]), tuple(r[4])) for r in rows),
        defaults=tables["defaults"],
        arch_rows=tables["arch_rows"],
        no_match=tables["no_match"],
        errors=(),
        conflicts=tables["conflicts"],
        anchors=frozenset(cached["all_anchors"]),
        match_anchors=frozenset(cached["match_anchors"]),
        make=make,
    )


def _tables(documents: Iterable[tuple[str, Mapping[str, Any]]]) -> dict[str, Any]:
    """The shared tables of the files' documents: defaults, nvcc_arch rows, no_match texts and
    conflict groups."""
    defaults: dict[str, str] = {}
    arch_rows: list[Mapping[str, Any]] = []
    no_match: dict[str, Any] = {}
    conflicts: list[tuple[str, ...]] = []
    for _name, document in documents:
        defaults.update({str(k): str(v) for k, v in (document.get("defaults") or {}).items()})
        arch_rows.extend(document.get("nvcc_arch", []) or [])
        no_match.update(document.get("no_match") or {})
        conflicts.extend(tuple(str(i) for i in group) for group in document.get("conflicts") or [])
    return {
        "defaults": defaults,
        "arch_rows": tuple(arch_rows),
        "no_match": no_match,
        "conflicts": tuple(conflicts),
    }


def _json_safe(value: Any) -> bool:
    """Whether `value` comes back from the cache's JSON as itself (tables, lists, strings,
    numbers and dates; a TOML date-time or time would not)."""
    import json

    from envdoctor.matrix import cache as matrix_cache

    try:
        text = json.dumps(value, default=matrix_cache._encode)
        return json.loads(text, object_hook=matrix_cache._decode) == value
    except (TypeError, ValueError, RecursionError):
        return False


def _build(
    documents: Iterable[tuple[str, dict[str, Any] | str]],
    errors: list[str],
    compile_pattern: Any,
) -> SignatureData:
    """The signatures and shared tables of parsed files (a string: the error of a file that did
    not parse), every signature built; broken files and signatures go to `errors`."""
    errors = list(errors)
    signatures: list[Signature] = []
    good: list[tuple[str, dict[str, Any]]] = []
    keys: set[str] = set()
    conditions = _ConditionMemo()
    for name, document in documents:
        if isinstance(document, str):
            errors.append(document)
            continue
        if document.get("schema_version") != SCHEMA_VERSION:
            errors.append(f"{name}: schema_version must be {SCHEMA_VERSION}")
            continue
        good.append((name, document))
        for position, entry in enumerate(document.get("signature", []) or [], start=1):
            label = f"{name} signature #{position} ({entry.get('key') or entry.get('id')})"
            try:
                signature = _signature(entry, name, compile_pattern, conditions)
            except (SignatureError, KeyError, TypeError, ValueError) as exc:
                errors.append(f"{label}: {exc}")
                continue
            if signature.key in keys:
                errors.append(f"{label}: duplicate key {signature.key}")
                continue
            keys.add(signature.key)
            signatures.append(signature)
    tables = _tables(good)
    return SignatureData(
        selectors=tuple(_selector(sig) for sig in signatures),
        defaults=tables["defaults"],
        arch_rows=tables["arch_rows"],
        no_match=tables["no_match"],
        errors=tuple(errors),
        conflicts=tables["conflicts"],
        anchors=frozenset(a for sig in signatures for p in sig.patterns() for a in p.anchors),
        match_anchors=frozenset(
            a for sig in signatures for p in (*sig.match, *sig.all, *sig.capture) for a in p.anchors
        ),
        make=signatures.__getitem__,
        built=dict(enumerate(signatures)),
    )


def _selector(signature: Signature) -> Selector:
    """A built signature's selector."""
    cues = [p for cue in signature.cues if cue.weight > 0 for p in cue.patterns]
    gate = {a for p in (*signature.match, *cues) for a in p.anchors}
    return Selector(signature.key, signature.id, frozenset(gate), tuple(p.text for p in cues))


class _ConditionMemo:
    """parse_condition, once per (text, weight) within one load: conditions are immutable and
    the same few ("gpu.vendor == nvidia") recur across signatures."""

    def __init__(self, checked: bool = False) -> None:
        self._seen: dict[tuple[str, int], Condition] = {}
        self._checked = checked  # the files passed every check in an earlier load (the cache)

    def __call__(self, text: str, weight: int = DEFAULT_WEIGHT) -> Condition:
        found = self._seen.get((text, weight))
        if found is None:
            found = parse_condition(text, weight, self._checked)
            self._seen[(text, weight)] = found
        return found


def _analysed(signature: Signature) -> Iterable[Pattern]:
    """The patterns of a signature whose anchors the cache keeps: its pattern lists' and its text
    conditions' (`Signature.patterns`, which analyses the latter on each call)."""
    yield from _own_patterns(signature)
    yield from signature.patterns()


def _own_patterns(signature: Signature) -> Iterable[Pattern]:
    """The patterns compiled from a signature's pattern lists (not its text conditions)."""
    yield from (*signature.match, *signature.all, *signature.none, *signature.capture)
    for cue in signature.cues:
        yield from cue.patterns


_ALLOWED = {
    "id",
    "key",
    "severity",
    "score",
    "title",
    "detail",
    "match",
    "all",
    "none",
    "capture",
    "requires",
    "confirm",
    "refute",
    "explains",
    "sources",
    "example",
    "examples",
    "defaults",
    "fix",
    "cues",
    "prose_min",
    "prose_max",
    "remedy",
}
_FIX_ALLOWED = {"summary", "commands", "risk", "url", "when", "first_when", "unless"}


CACHE_NAME = "triage-signatures"  # the cache entry: parsed files and patterns' anchors
CACHE_FORMAT = 7  # of that entry; bump when what it holds changes


def _analysis_digest() -> str:
    """A digest of the code that analyses patterns (their anchors are cached): an entry written
    by other analysis code, even under the same envdoctor version, never matches."""
    from envdoctor.matrix.cache import files_key
    from envdoctor.triage_engine import model, patterns

    try:
        return files_key([Path(str(m.__file__)) for m in (patterns, model)], "")[:16]
    except OSError:
        return "?"


def _compiler(known: Mapping[str, list[str]], also: Mapping[str, Any]) -> Any:
    """compile_pattern, taking a pattern's anchors and other literal sets from `known` and
    `also` (patterns checked and analysed by an earlier load of the same files) instead of
    parsing it again."""

    made: dict[str, Pattern] = {}  # a third of the patterns recur (shared cue phrasings)

    def compile_pattern(text: str) -> Pattern:
        pattern = made.get(text)
        if pattern is not None:
            return pattern
        anchors = known.get(text)
        if anchors:
            groups = tuple(tuple(group) for group in also.get(text, ()))
            pattern = Pattern(text, tuple(anchors), groups)
        else:
            pattern = _compile_checked(text)
        made[text] = pattern
        return pattern

    return compile_pattern


def _signature(
    entry: Mapping[str, Any],
    origin: str,
    compile_pattern: Any = _compile_checked,
    condition: Any = parse_condition,
) -> Signature:
    unknown = set(entry) - _ALLOWED
    if unknown:
        raise SignatureError(f"unknown keys {sorted(unknown)}")
    finding_id = str(entry["id"])
    if not re.match(r"^[a-z0-9]+(?:\.[a-z0-9-]+)+$", finding_id):
        raise SignatureError(f"id {finding_id!r} is not area.kebab-name")
    match = tuple(compile_pattern(p) for p in _strings(entry.get("match")))
    cues = tuple(_cues(entry.get("cues"), compile_pattern))
    if not match and not any(c.weight > 0 for c in cues):
        raise SignatureError("needs a pattern in 'match' or a positive cue")
    fixes = []
    for fix in entry.get("fix", []) or []:
        extra = set(fix) - _FIX_ALLOWED
        if extra:
            raise SignatureError(f"fix has unknown keys {sorted(extra)}")
        fixes.append(
            FixSpec(
                str(fix["summary"]),
                tuple(_strings(fix.get("commands"))),
                Risk(fix.get("risk", "safe")),
                fix.get("url"),
                condition(fix["when"]) if fix.get("when") else None,
                condition(fix["first_when"]) if fix.get("first_when") else None,
                condition(fix["unless"]) if fix.get("unless") else None,
            )
        )
    from envdoctor.remedies import RemedySpec

    remedies = tuple(RemedySpec.from_toml(r) for r in entry.get("remedy", []) or [])
    if not fixes and not remedies:
        raise SignatureError("needs at least one fix or remedy")
    examples = tuple(_strings(entry.get("examples"))) + tuple(_strings(entry.get("example")))
    signature = Signature(
        key=str(entry.get("key") or finding_id),
        id=finding_id,
        severity=Severity(entry["severity"]),
        title=str(entry["title"]),
        detail=str(entry.get("detail", "")),
        match=match,
        all=tuple(compile_pattern(p) for p in _strings(entry.get("all"))),
        none=tuple(compile_pattern(p) for p in _strings(entry.get("none"))),
        capture=tuple(compile_pattern(p) for p in _strings(entry.get("capture"))),
        requires=tuple(_conditions(entry.get("requires"), condition)),
        confirm=tuple(_conditions(entry.get("confirm"), condition)),
        refute=tuple(_conditions(entry.get("refute"), condition)),
        score=int(entry.get("score", DEFAULT_SCORE)),
        explains=tuple(_strings(entry.get("explains"))),
        fixes=tuple(fixes),
        defaults={str(k): str(v) for k, v in (entry.get("defaults") or {}).items()},
        sources=tuple(_strings(entry.get("sources"))),
        examples=examples,
        origin=origin,
        cues=cues,
        prose_min=int(entry.get("prose_min", DEFAULT_PROSE_MIN)),
        prose_max=int(entry["prose_max"]) if "prose_max" in entry else None,
        remedies=remedies,
    )
    if not examples:
        raise SignatureError("needs an example line it matches")
    return signature


def _strings(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value]


def _cues(value: Any, compile_pattern: Any) -> Iterable[Cue]:
    for item in value or []:
        if isinstance(item, Mapping) and "phrases" in item:
            raise SignatureError(f"cue names an unknown phrase set: {_strings(item['phrases'])}")
        if not isinstance(item, Mapping) or "any" not in item:
            raise SignatureError(f"cue {item!r} needs 'any' (patterns) and 'weight'")
        extra = set(item) - {"any", "weight", "notable"}
        if extra:
            raise SignatureError(f"cue has unknown keys {sorted(extra)}")
        patterns = tuple(compile_pattern(p) for p in _strings(item["any"]))
        yield Cue(
            patterns, int(item.get("weight", DEFAULT_WEIGHT)), bool(item.get("notable", True))
        )


def _conditions(value: Any, condition: Any = parse_condition) -> Iterable[Condition]:
    for item in value or []:
        if isinstance(item, str):
            yield condition(item)
        else:
            yield condition(str(item["when"]), int(item.get("weight", DEFAULT_WEIGHT)))


SELECTOR_CACHE = "triage-selectors"  # the cache entry of the free-text reader's selectors


def selector_sources(
    word_lists: tuple[list[str], ...], builds: tuple[Callable[[list[str]], str], ...], version: int
) -> tuple[str, ...]:
    """Each word list's `build` (the free-text reader's keyword regexes: building them in Python
    costs more than compiling them), from envdoctor's cache when the same lists were built by
    the same `version` of the builds before, else built and stored. The key is the words
    themselves, so any change to the signatures or the reader's vocabulary misses; a digest
    guards the entry's content. A cache that cannot be read or written is ignored."""
    from envdoctor import __version__
    from envdoctor.matrix import cache as matrix_cache

    listing = "\0".join("\n".join(words) for words in word_lists).encode()
    key = matrix_cache.key(listing, f"{__version__}/{version}")
    entry = matrix_cache.load(SELECTOR_CACHE, key)
    if entry:
        sources = entry.get("sources")
        if (
            isinstance(sources, list)
            and len(sources) == len(word_lists)
            and all(isinstance(s, str) for s in sources)
            and entry.get("digest") == _digest(sources)
        ):
            return tuple(sources)
    built = [build(words) for words, build in zip(word_lists, builds, strict=True)]
    matrix_cache.store(SELECTOR_CACHE, key, {"sources": built, "digest": _digest(built)})
    return tuple(built)


def _digest(texts: list[str]) -> str:
    import hashlib

    return hashlib.sha256("\0".join(texts).encode()).hexdigest()


def by_id() -> Mapping[str, list[Signature]]:
    """The loaded signatures grouped by finding id, in file order (each id's built when looked
    up)."""
    return _ById(DATA)


class _ById(Mapping[str, list[Signature]]):
    """A data's signatures by finding id; an id's are built when it is looked up."""

    def __init__(self, data: SignatureData) -> None:
        self._data = data
        self._ids = dict.fromkeys(data.ids())

    def __getitem__(self, finding_id: str) -> list[Signature]:
        found = self._data.of_id(finding_id)
        if not found:
            raise KeyError(finding_id)
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)

    def __contains__(self, finding_id: object) -> bool:
        return finding_id in self._ids


def anchors() -> frozenset[str]:
    """Every literal a signature line can be recognised by, and the prose facts' key words: the
    free-text reader keeps a line holding any of them."""
    from envdoctor.triage_engine.prose import ANCHORS

    return frozenset(ANCHORS) | DATA.anchors


def match_anchors() -> frozenset[str]:
    """The anchors of the patterns that make a signature apply (match, all, capture), without
    those of its cues and conditions: what the free-text reader still looks for deep in a long
    log."""
    return DATA.match_anchors


DATA = load()
