"""Compiled regular expressions kept between runs, so that a start does not compile them again.

CPython compiles a pattern in Python code (a parser, then a code generator) and keeps the result
only for the life of the process. A triage of a short paste compiles some 600 patterns (the
readers', the prose vocabularies', those of the signatures its lines select): about a fifth of its
time. Inside `kept_regexes`, `re` asks this store first: a pattern generated before is handed to
the regular-expression engine's constructor (`_sre.compile`) with its stored code, which is what
`re.compile` itself does once the code is generated; a new one is generated as `re` would and
kept. When the block ends, the store is written to `<cache>/regex/<interpreter>.bin` if it grew
(this run's patterns first, so the ones every run needs stay when it is full). A start reads the
file's index only; a row is decoded when its pattern is asked for (`StoredRows`).

The engine validates the code it is given (invalid code is refused, never run), a checksum guards the
file against damage, and a file counts only for the interpreter build, the engine's magic number and
the byte order that wrote it: another Python, a damaged or foreign file,
a pattern the engine refuses, anything odd means compiling as before. `ENVDOCTOR_REGEX_CACHE=off`
turns it off. The store is an optimisation only: results are the same with it and without it.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
import zlib
from array import array
from collections.abc import Callable, Iterator, Mapping, MutableMapping, Sequence
from pathlib import Path
from typing import Any

SWITCH = "ENVDOCTOR_REGEX_CACHE"  # "off": compile every pattern as usual
MAX_PATTERNS = 8000  # envdoctor's own, all signatures selected, are about 5000
MAX_FILE_BYTES = 32 * 1024 * 1024

# One stored pattern: the flags it ends with, its code (machine words), groups, names by group.
Row = tuple[int, bytes | memoryview, int, dict[str, int], tuple[str | None, ...]]
Compile = Callable[[Any, int], Any]
_INDEX_TYPECODE = "I"  # the index's words: unsigned, 32 bits on every CPython platform


Key = tuple[str, int]  # (pattern, flags)
_ENTRY_WORDS = 5  # an index entry: key digest, meta offset and length, code offset and length


class StoredRows(MutableMapping[Key, Row]):
    """The rows of a store file by (pattern, flags), each decoded when first looked up: a run
    asks for the few hundred patterns its input needs, and decoding all of a full store's
    rows (up to MAX_PATTERNS) every start cost more than that. Rows set here (new or generated
    again) sit beside the file's; a deleted row hides the file's. A file row that does not
    decode is as absent (its pattern is generated again)."""

    def __init__(
        self,
        entries: Sequence[int] = (),
        meta: bytes | memoryview = b"",
        code: bytes | memoryview = b"",
    ) -> None:
        self._entries, self._meta, self._code = entries, memoryview(meta), memoryview(code)
        count = len(entries) // _ENTRY_WORDS
        digests = entries[0::_ENTRY_WORDS]
        self._at: dict[int, int | list[int]] = dict(zip(digests, range(count), strict=True))
        if len(self._at) != count:  # two keys share a digest: keep every position
            self._at = {}
            for position, digest in enumerate(digests):
                found = self._at.setdefault(digest, position)
                if found != position:
                    self._at[digest] = [*(found if isinstance(found, list) else [found]), position]
        self._own: dict[Key, Row] = {}
        self._hidden: set[Key] = set()

    def _stored(self, position: int) -> tuple[Key, Row] | None:
        """The file's row at `position` (in file order), or None when it does not decode."""
        base = position * _ENTRY_WORDS
        _, meta_at, meta_len, code_at, code_len = self._entries[base : base + _ENTRY_WORDS]
        try:
            item = json.loads(bytes(self._meta[meta_at : meta_at + meta_len]))
        except (ValueError, RecursionError):
            return None
        if not (
            isinstance(item, list)
            and len(item) == 6
            and isinstance(item[0], str)
            and type(item[1]) is int
            and code_at + code_len <= len(self._code)
        ):
            return None  # a row of another shape fails in the engine and is generated again
        code = self._code[code_at : code_at + code_len]
        return (item[0], item[1]), (item[2], code, *item[3:6])

    def _lookup(self, key: Key) -> Row | None:
        found = self._at.get(key_digest(*key), [])
        for position in found if isinstance(found, list) else [found]:
            stored = self._stored(position)
            if stored is not None and stored[0] == key:
                return stored[1]
        return None

    def __getitem__(self, key: Key) -> Row:
        row = self._own.get(key)
        if row is None and key not in self._hidden:
            row = self._lookup(key)
            if row is not None:
                self._own[key] = row
        if row is None:
            raise KeyError(key)
        return row

    def __setitem__(self, key: Key, row: Row) -> None:
        self._own[key] = row
        self._hidden.discard(key)

    def __delitem__(self, key: Key) -> None:
        self[key]  # noqa: B018 - KeyError when absent
        del self._own[key]
        self._hidden.add(key)

    def __iter__(self) -> Iterator[Key]:
        seen: set[Key] = set()
        for position in range(len(self._entries) // _ENTRY_WORDS):
            stored = self._stored(position)
            if stored is not None and stored[0] not in self._hidden and stored[0] not in seen:
                seen.add(stored[0])
                yield stored[0]
        yield from (key for key in list(self._own) if key not in seen)

    def __len__(self) -> int:
        return sum(1 for _ in self)


def key_digest(pattern: str, flags: int) -> int:
    """Where a key is filed in the store's index (CRC-32 of its flags and text)."""
    return zlib.crc32(f"{flags}\0{pattern}".encode("utf-8", "surrogatepass"))


class RegexStore:
    """Generated code of patterns by (pattern, flags): read from the file or added by this run."""

    def __init__(
        self, engine: str, rows: Mapping[Key, Row] | None = None, stored: StoredRows | None = None
    ) -> None:
        self.engine = engine
        self.rows: MutableMapping[Key, Row] = StoredRows() if stored is None else stored
        self.rows.update(rows or {})
        self.used: dict[Key, None] = {}  # in the order this run asked for them
        self.added = False

    def compile(self, pattern: Any, flags: int, fallback: Compile) -> Any:
        """`re._compiler.compile(pattern, flags)`, from the stored code when there is some."""
        if not isinstance(pattern, str) or flags & re.DEBUG:
            return fallback(pattern, flags)
        key = (pattern, int(flags))
        row = self.rows.get(key)
        if row is not None:
            try:
                compiled = _engine_compile(pattern, row)
            except Exception:  # noqa: BLE001 - a damaged row (any shape, any code) is redone
                del self.rows[key]
            else:
                self.used[key] = None
                return compiled
        row = _generate(pattern, int(flags))
        if row is None:
            return fallback(pattern, flags)
        self.rows[key] = row
        self.used[key] = None
        self.added = True
        return _engine_compile(pattern, row)

    def to_bytes(self) -> bytes:
        """The file: a header line (engine, checksum and length of the rest, row count), then
        the index (per row: key digest, where its particulars and its code lie, as machine
        words), each row's particulars as JSON, and the code of all as machine words. This
        run's patterns come first, older ones after, `MAX_PATTERNS` at most."""
        order = list(self.used) + [key for key in self.rows if key not in self.used]
        entries = array(_INDEX_TYPECODE)
        metas, codes, meta_at, code_at = [], [], 0, 0
        for key in order[:MAX_PATTERNS]:
            final, code, groups, groupindex, indexgroup = self.rows[key]
            meta = json.dumps([*key, final, groups, groupindex, indexgroup]).encode()
            entries.extend((key_digest(*key), meta_at, len(meta), code_at, len(code)))
            metas.append(meta)
            codes.append(bytes(code))
            meta_at += len(meta)
            code_at += len(code)
        rest = entries.tobytes() + b"".join(metas) + b"".join(codes)
        header = {
            "engine": self.engine,
            "crc32": zlib.crc32(rest),
            "bytes": len(rest),
            "rows": len(entries) // _ENTRY_WORDS,
            "meta_bytes": meta_at,
        }
        return json.dumps(header).encode() + b"\n" + rest


@contextlib.contextmanager
def kept_regexes(env: Mapping[str, str] | None = None) -> Iterator[RegexStore | None]:
    """Within the block, `re` compiles through a store read from (and, if it grew, written back
    to) the cache folder; yields None where that is off or this Python's `re` is another one."""
    env = os.environ if env is None else env
    engine = engine_tag()
    hook = _re_hook()
    if env.get(SWITCH, "").lower() == "off" or engine is None or hook is None:
        yield None
        return
    from envdoctor.matrix.cache import cache_root

    path = cache_root(env) / "regex" / f"{sys.implementation.cache_tag}.bin"
    store = read_store(path, engine)
    module, original = hook
    module.compile = lambda pattern, flags=0: store.compile(pattern, flags, original)
    try:
        yield store
    finally:
        module.compile = original
        if store.added:
            write_store(path, store)


def read_store(path: Path, engine: str) -> RegexStore:
    """The store kept at `path` for `engine`; an empty one when there is none that fits. Only
    the index is read here: each row is decoded when a pattern asks for it (`StoredRows`)."""
    from envdoctor.matrix.cache import read_regular_file

    try:
        head, _, rest = read_regular_file(path, MAX_FILE_BYTES).partition(b"\n")
        header = json.loads(head)
        if header.get("engine") != engine or header.get("crc32") != zlib.crc32(rest):
            return RegexStore(engine)
        count, meta_bytes = header["rows"], header["meta_bytes"]
        if type(count) is not int or type(meta_bytes) is not int or min(count, meta_bytes) < 0:
            return RegexStore(engine)
    except (OSError, ValueError, RecursionError, AttributeError, KeyError, TypeError):
        return RegexStore(engine)
    entries = array(_INDEX_TYPECODE)
    index_bytes = count * _ENTRY_WORDS * entries.itemsize
    if index_bytes + meta_bytes > len(rest):
        return RegexStore(engine)
    entries.frombytes(rest[:index_bytes])
    blob = memoryview(rest)
    meta = blob[index_bytes : index_bytes + meta_bytes]
    return RegexStore(engine, stored=StoredRows(entries, meta, blob[index_bytes + meta_bytes :]))


def write_store(path: Path, store: RegexStore) -> bool:
    """Write the store atomically; False when the cache folder cannot take it."""
    from envdoctor.atomic import write_bytes_atomically
    from envdoctor.matrix.cache import make_folder

    try:
        make_folder(path.parent)
        write_bytes_atomically(path, store.to_bytes())
    except (OSError, ValueError):
        return False
    return True


def engine_tag() -> str | None:
    """What a stored row's code depends on: the interpreter build, the engine's magic number and
    word size, the byte order. None where the engine is not CPython's `_sre`."""
    try:
        engine = _engine()
        magic, size = int(engine.MAGIC), int(engine.CODESIZE)
    except (ImportError, AttributeError, TypeError, ValueError):
        return None
    if sys.implementation.name != "cpython" or _typecode(size) is None:
        return None
    return f"{sys.implementation.cache_tag}/{sys.version}/{magic}/{size}/{sys.byteorder}"


def _re_hook() -> tuple[Any, Compile] | None:
    """(module, its compile) that `re` calls for a pattern it has not compiled in this process."""
    module = getattr(re, "_compiler", None)
    if module is None or not all(
        callable(getattr(module, name, None)) for name in ("compile", "_code")
    ):
        return None
    if not callable(getattr(getattr(re, "_parser", None), "parse", None)):
        return None
    return module, module.compile


def _generate(pattern: str, flags: int) -> Row | None:
    """The row `re` would build for `pattern` (re._compiler.compile's steps), or None."""
    parsed = re._parser.parse(pattern, flags)  # type: ignore[attr-defined]
    code = re._compiler._code(parsed, flags)  # type: ignore[attr-defined]
    typecode = _typecode(int(_engine().CODESIZE))
    if typecode is None:
        return None
    groups = parsed.state.groups
    indexgroup: list[str | None] = [None] * groups
    for name, index in parsed.state.groupdict.items():
        indexgroup[index] = name
    return (
        int(flags | parsed.state.flags),
        array(typecode, [int(word) for word in code]).tobytes(),
        groups - 1,
        dict(parsed.state.groupdict),
        tuple(indexgroup),
    )


def _engine_compile(pattern: str, row: Row) -> Any:
    engine = _engine()
    flags, words, groups, groupindex, indexgroup = row
    if not (isinstance(groupindex, dict) and all(type(v) is int for v in groupindex.values())):
        raise TypeError  # caught by RegexStore.compile: the row is generated again
    code = array(_typecode(int(engine.CODESIZE)) or "I")
    code.frombytes(words)
    return engine.compile(
        pattern, int(flags), code.tolist(), int(groups), dict(groupindex), tuple(indexgroup)
    )


def _engine() -> Any:
    """CPython's regular-expression engine (`_sre`, which has no type stubs)."""
    import importlib

    return importlib.import_module("_sre")


def _typecode(size: int) -> str | None:
    """The array type code of unsigned machine words of `size` bytes."""
    return next((code for code in ("I", "L", "H") if array(code).itemsize == size), None)
