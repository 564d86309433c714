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
# notable on their own, and are looked for on the lines kept for other words
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
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
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


@dataclass(frozen=True)
class SignatureData:
    """Everything loaded from signatures/: the signatures, shared default texts, the fallback
    nvcc architecture table, the no-match texts, and any load errors."""

    signatures: tuple[Signature, ...]
    defaults: Mapping[str, str]
    arch_rows: tuple[Mapping[str, Any], ...]
    no_match: Mapping[str, Any]
    errors: tuple[str, ...]
    conflicts: tuple[tuple[str, ...], ...] = ()


def load(folder: Path | None = None) -> SignatureData:
    """Load every signature file; broken signatures are left out and reported in `errors`.

    The parsed files and their patterns' anchors come from envdoctor's cache (`matrix_cache`,
    keyed by the files' names and bytes and envdoctor's version) when these exact files loaded
    without an error before: the TOML parse and the ~1000 regular expressions' analysis are most
    of the load time. An entry that is damaged (any error when read back) is ignored."""
    from envdoctor import __version__
    from envdoctor.matrix import cache as matrix_cache

    folder = folder or SIGNATURE_DIR
    read_errors: list[str] = []
    texts: list[tuple[str, str]] = []
    for path in sorted(folder.glob("*.toml")):
        try:
            texts.append((path.name, path.read_text(encoding="utf-8")))
        except OSError as exc:
            read_errors.append(f"{path.name}: {exc}")
    cache_key = matrix_cache.key(
        "\0".join(f"{name}\0{text}" for name, text in texts).encode(),
        f"{__version__}/{CACHE_FORMAT}/{_analysis_digest()}",
    )
    cached = _from_cache(matrix_cache.load(CACHE_NAME, cache_key), [n for n, _ in texts])
    if cached is not None:
        remember_anchors(cached[1], cached[2])
        try:
            data = _build(cached[0], read_errors, _compiler(cached[1], cached[2]), checked=True)
        except Exception:  # noqa: BLE001 - a damaged entry: parse the files instead
            data = None
        if data is not None and not data.errors:
            return data
        forget_anchors()
    parsed = _parse(texts)
    data = _build(parsed, read_errors, _compile_checked)
    if not data.errors:
        patterns = [p for sig in data.signatures for p in _analysed(sig)]
        analysed = {p.text: list(p.anchors) for p in patterns}
        also = {p.text: [list(group) for group in p.also] for p in patterns if p.also}
        entry = {
            "documents": [[name, doc] for name, doc in parsed],
            "anchors": analysed,
            "also": also,
        }
        if _json_safe(entry):
            matrix_cache.store(CACHE_NAME, cache_key, entry)
    return data


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


def _from_cache(
    entry: Mapping[str, Any] | None, names: list[str]
) -> tuple[list[tuple[str, dict[str, Any]]], dict[str, list[str]], dict[str, Any]] | None:
    """(documents, anchors by pattern text, other literal sets by pattern text) of a cache entry
    of exactly these files, else None."""
    if not entry:
        return None
    documents, known = entry.get("documents"), entry.get("anchors")
    if not isinstance(documents, list) or not isinstance(known, dict):
        return None
    if [d[0] if isinstance(d, list) and len(d) == 2 else None for d in documents] != names:
        return None  # a file that did not parse is not cached: the key never matches then
    if not all(isinstance(d[1], dict) for d in documents):
        return None
    if not all(
        isinstance(v, list) and v and all(isinstance(a, str) and a for a in v)
        for v in known.values()
    ):
        return None
    also = entry.get("also")
    if not isinstance(also, dict) or not all(
        isinstance(v, list)
        and all(isinstance(g, list) and g and all(isinstance(a, str) and a for a in g) for g in v)
        for v in also.values()
    ):
        return None
    return [(str(d[0]), d[1]) for d in documents], known, also


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
    checked: bool = False,
) -> SignatureData:
    """The signatures and shared tables of parsed files (a string: the error of a file that did
    not parse); broken files and signatures go to `errors`. `checked`: the files come from the
    cache, so their conditions' regular expressions were checked when it was written."""
    errors = list(errors)
    signatures: list[Signature] = []
    defaults: dict[str, str] = {}
    arch_rows: list[Mapping[str, Any]] = []
    no_match: dict[str, Any] = {}
    conflicts: list[tuple[str, ...]] = []
    keys: set[str] = set()
    conditions = _ConditionMemo(checked)
    for name, document in documents:
        if isinstance(document, str):
            errors.append(document)
            continue
        if document.get("schema_version") != SCHEMA_VERSION:
            errors.append(f"{name}: schema_version must be {SCHEMA_VERSION}")
            continue
        defaults.update({str(k): str(v) for k, v in (document.get("defaults") or {}).items()})
        arch_rows.extend(document.get("nvcc_arch", []) or [])
        no_match.update(document.get("no_match") or {})
        conflicts.extend(tuple(str(i) for i in group) for group in document.get("conflicts") or [])
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
    return SignatureData(
        tuple(signatures), defaults, tuple(arch_rows), no_match, tuple(errors), tuple(conflicts)
    )


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
_FIX_ALLOWED = {"summary", "commands", "risk", "url", "when", "first_when"}


CACHE_NAME = "triage-signatures"  # the cache entry: parsed files and patterns' anchors
CACHE_FORMAT = 3  # of that entry; bump when what it holds changes


def _analysis_digest() -> str:
    """A digest of the code that analyses patterns (their anchors are cached): an entry written
    by other analysis code, even under the same envdoctor version, never matches."""
    import hashlib

    from envdoctor.triage_engine import model, patterns

    digest = hashlib.sha256()
    for module in (patterns, model):
        try:
            digest.update(Path(str(module.__file__)).read_bytes())
        except OSError:
            digest.update(b"?")
    return digest.hexdigest()[:16]


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


DATA = load()


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


def by_id() -> dict[str, list[Signature]]:
    """The loaded signatures grouped by finding id, in file order."""
    out: dict[str, list[Signature]] = {}
    for sig in DATA.signatures:
        out.setdefault(sig.id, []).append(sig)
    return out


def anchors() -> frozenset[str]:
    """Every literal a signature line can be recognised by, and the prose facts' key words: the
    free-text reader keeps a line holding any of them."""
    from envdoctor.triage_engine.prose import ANCHORS

    found: set[str] = set(ANCHORS)
    for signature in DATA.signatures:
        for pattern in signature.patterns():
            found.update(pattern.anchors)
    return frozenset(found)


def match_anchors() -> frozenset[str]:
    """The anchors of the patterns that make a signature apply (match, all, capture, cues),
    without those of its conditions: what the free-text reader still looks for deep in a long
    log."""
    found: set[str] = set()
    for signature in DATA.signatures:
        for pattern in (*signature.match, *signature.all, *signature.capture):
            found.update(pattern.anchors)
    return frozenset(found)
