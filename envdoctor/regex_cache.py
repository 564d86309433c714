"""Compiled regular expressions kept between runs, so that a start does not compile them again.

CPython compiles a pattern in Python code (a parser, then a code generator) and keeps the result
only for the life of the process. A triage of a short paste compiles some 600 patterns (the
readers', the prose vocabularies', those of the signatures its lines select): about a fifth of its
time. Inside `kept_regexes`, `re` asks this store first: a pattern generated before is handed to
the regular-expression engine's constructor (`_sre.compile`) with its stored code, which is what
`re.compile` itself does once the code is generated; a new one is generated as `re` would and
kept. When the block ends, the store is written to `<cache>/regex/<interpreter>.bin` if it grew
(this run's patterns first, so the ones every run needs stay when it is full).

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
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

SWITCH = "ENVDOCTOR_REGEX_CACHE"  # "off": compile every pattern as usual
MAX_PATTERNS = 8000  # envdoctor's own, all signatures selected, are about 5000
MAX_FILE_BYTES = 32 * 1024 * 1024

# One stored pattern: the flags it ends with, its code (machine words), groups, names by group.
Row = tuple[int, bytes | memoryview, int, dict[str, int], tuple[str | None, ...]]
Compile = Callable[[Any, int], Any]


class RegexStore:
    """Generated code of patterns by (pattern, flags): read from the file or added by this run."""

    def __init__(self, engine: str, rows: dict[tuple[str, int], Row] | None = None) -> None:
        self.engine = engine
        self.rows: dict[tuple[str, int], Row] = rows or {}
        self.used: dict[tuple[str, int], None] = {}  # in the order this run asked for them
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
        """The file: a header line (engine, checksum and length of the rest), each pattern's
        particulars as JSON (with where its code lies), then the code of all as machine words.
        This run's patterns come first, older ones after, `MAX_PATTERNS` at most."""
        order = list(self.used) + [key for key in self.rows if key not in self.used]
        meta, codes, offset = [], [], 0
        for key in order[:MAX_PATTERNS]:
            final, code, groups, groupindex, indexgroup = self.rows[key]
            meta.append([*key, final, groups, groupindex, indexgroup, offset, len(code)])
            codes.append(bytes(code))
            offset += len(code)
        rest = json.dumps(meta).encode() + b"\n" + b"".join(codes)
        header = {"engine": self.engine, "crc32": zlib.crc32(rest), "bytes": len(rest)}
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
    """The store kept at `path` for `engine`; an empty one when there is none that fits."""
    from envdoctor.matrix.cache import read_regular_file

    try:
        head, _, rest = read_regular_file(path, MAX_FILE_BYTES).partition(b"\n")
        header = json.loads(head)
        if header.get("engine") != engine or header.get("crc32") != zlib.crc32(rest):
            return RegexStore(engine)
        meta, _, blob = rest.partition(b"\n")
        items = json.loads(meta)
    except (OSError, ValueError, RecursionError, AttributeError):
        return RegexStore(engine)
    code = memoryview(blob)
    rows: dict[tuple[str, int], Row] = {
        (item[0], item[1]): (item[2], code[item[6] : item[6] + item[7]], *item[3:6])
        for item in (items if isinstance(items, list) else ())
        if isinstance(item, list)
        and len(item) == 8
        and isinstance(item[0], str)
        and isinstance(item[1], int)
        and isinstance(item[6], int)
        and isinstance(item[7], int)
    }
    return RegexStore(engine, rows)  # a row of another shape fails in the engine and is redone


def write_store(path: Path, store: RegexStore) -> bool:
    """Write the store atomically; False when the cache folder cannot take it."""
    from envdoctor.atomic import write_bytes_atomically

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
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
