"""The compiled form of validated matrix files, kept in the user cache so a run skips the TOML parse.

Python's TOML parser is pure Python: the bundled tables take ~70 ms to parse, the GPU table alone
~19 ms, while the same data as JSON loads in a few (the C parser). So once a file has parsed and
validated without an error, its table is written as JSON to `<cache>/compiled/<name>.json` with
a digest of the file's status (`files_key`: size, times, inode; its bytes when it changed a moment
ago) and this envdoctor's version; a later load whose file has the same is read from there. Another file's content or another envdoctor version misses and
overwrites the slot (one per table name, so the cache stays a few hundred KiB). The cache is an
optimisation only: a folder that cannot be written, a damaged or foreign entry, anything odd means
parsing the TOML as before. `ENVDOCTOR_MATRIX_CACHE=off` turns it off.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
from collections.abc import Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import Any

FORMAT = 1  # of the JSON below; bump when Matrix gains a field
SWITCH = "ENVDOCTOR_MATRIX_CACHE"  # "off": always parse the TOML
_DATE = "$date"  # TOML dates (the `checked` column) as {"$date": "2026-11-30"}


MAX_ENTRY_BYTES = 16 * 1024 * 1024  # the largest table is a few hundred KiB as JSON


def read_regular_file(path: Path, limit_bytes: int) -> bytes:
    """A regular file's bytes, at most `limit_bytes`; OSError for anything else. A FIFO planted
    in a cache folder would block a plain read and a link to /dev/zero would never end: both
    are refused at once (opened without blocking, checked with fstat)."""
    import stat

    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        chunks, size = [], 0
        while size <= limit_bytes:
            chunk = os.read(fd, min(1 << 20, limit_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > limit_bytes:
        raise OSError(errno.EFBIG, f"larger than {limit_bytes} bytes", str(path))
    return b"".join(chunks)


def cache_root(env: Mapping[str, str] | None = None) -> Path:
    """envdoctor's cache folder: $ENVDOCTOR_CACHE_DIR, else $XDG_CACHE_HOME/envdoctor, else
    ~/.cache/envdoctor."""
    env = os.environ if env is None else env
    if env.get("ENVDOCTOR_CACHE_DIR"):
        return Path(env["ENVDOCTOR_CACHE_DIR"])
    if env.get("XDG_CACHE_HOME"):
        return Path(env["XDG_CACHE_HOME"]) / "envdoctor"
    return Path(env.get("HOME", "~")).expanduser() / ".cache" / "envdoctor"


def make_folder(folder: Path, env: Mapping[str, str] | None = None) -> None:
    """Make a cache folder and the folders above it, but never the home folder: with no cache
    variable set and HOME naming a folder that does not exist (system users' `/nonexistent`),
    OSError, and no cache is written (it had made `/nonexistent/.cache`)."""
    env = os.environ if env is None else env
    if not env.get("ENVDOCTOR_CACHE_DIR") and not env.get("XDG_CACHE_HOME"):
        home = Path(env.get("HOME", "~")).expanduser()
        if not home.is_dir():
            raise OSError(errno.ENOENT, "the home folder does not exist", str(home))
    folder.mkdir(parents=True, exist_ok=True)


def key(data: bytes, version: str) -> str:
    """What an entry must match: the file's bytes and the envdoctor that validated them."""
    return hashlib.sha256(data).hexdigest() + f"/{version}/{FORMAT}"


RACY_S = 2.0  # a file changed this recently may change again within one timestamp tick
MAX_KEYED_BYTES = (
    16 * 1024 * 1024
)  # a recent file larger than this is refused (OSError), as its loaders refuse it


def files_key(paths: Sequence[Path], version: str, now: float | None = None) -> str:
    """What an entry built from these files must match, read from their status instead of their
    bytes: each one's name, size, modification and status-change times, inode and device. A
    start reads no file whose table is cached (reading them was a twentieth of a short
    triage), as Python's bytecode cache keys a source on its size and time. An edit changes
    the change time, which no tool sets back. A file modified less than RACY_S ago (or "in the
    future") could be rewritten within the same timestamp tick at the same size, so its bytes
    stand in for its status (git's rule for "racily clean" files); the first load after it
    ages misses once. OSError when a path is not a regular file (`read_regular_file`'s rule)."""
    import stat
    import time

    now = time.time() if now is None else now
    digest = hashlib.sha256()
    for path in paths:
        status = os.stat(path)
        if not stat.S_ISREG(status.st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        digest.update(path.name.encode("utf-8", "surrogateescape") + b"\0")
        if now - status.st_mtime < RACY_S:  # recent, or in the future
            digest.update(
                b"bytes:" + hashlib.sha256(read_regular_file(path, MAX_KEYED_BYTES)).digest()
            )
        else:
            digest.update(
                f"{status.st_size}:{status.st_mtime_ns}:{status.st_ctime_ns}:"
                f"{status.st_ino}:{status.st_dev}\0".encode()
            )
    return digest.hexdigest() + f"/{version}/{FORMAT}"


def _compiled_dir(env: Mapping[str, str] | None) -> Path | None:
    env = os.environ if env is None else env
    return None if env.get(SWITCH, "").lower() == "off" else cache_root(env) / "compiled"


def load(name: str, entry_key: str, env: Mapping[str, str] | None = None) -> dict[str, Any] | None:
    """The cached fields of table `name` if its entry has `entry_key`, else None (never raises)."""
    folder = _compiled_dir(env)
    if folder is None:
        return None
    try:
        data = read_regular_file(folder / f"{name}.json", MAX_ENTRY_BYTES)
        doc = json.loads(data, object_hook=_decode)
    except (OSError, ValueError, RecursionError):
        return None
    if (
        not isinstance(doc, dict)
        or doc.get("key") != entry_key
        or not isinstance(doc.get("matrix"), dict)
    ):
        return None
    return doc["matrix"]


def store(
    name: str, entry_key: str, fields: dict[str, Any], env: Mapping[str, str] | None = None
) -> bool:
    """Write table `name`'s fields under `entry_key` (atomically); False when it could not."""
    folder = _compiled_dir(env)
    if folder is None:
        return False
    from envdoctor.atomic import write_text_atomically

    try:
        make_folder(folder, env)
        text = json.dumps(
            {"key": entry_key, "matrix": fields}, default=_encode, separators=(",", ":")
        )
        write_text_atomically(folder / f"{name}.json", text)
    except (OSError, TypeError, ValueError):
        return False
    return True


def store_bytes(
    name: str, entry_key: str, data: bytes, env: Mapping[str, str] | None = None
) -> bool:
    """Write bytes that go with entry `name` (`<name>.bin`, headed by `entry_key`), atomically;
    False when they could not be written. Written before the entry that points into them."""
    folder = _compiled_dir(env)
    if folder is None or "\n" in entry_key:
        return False
    from envdoctor.atomic import write_bytes_atomically

    try:
        make_folder(folder, env)
        write_bytes_atomically(folder / f"{name}.bin", entry_key.encode() + b"\n" + data)
    except (OSError, ValueError):
        return False
    return True


def load_bytes(name: str, entry_key: str, env: Mapping[str, str] | None = None) -> bytes | None:
    """The bytes `store_bytes` wrote for entry `name` under `entry_key`, else None (never
    raises). The caller checks each part it uses (`zlib.crc32`): the header only pairs them."""
    folder = _compiled_dir(env)
    if folder is None:
        return None
    try:
        data = read_regular_file(folder / f"{name}.bin", MAX_ENTRY_BYTES)
    except OSError:
        return None
    header, newline, body = data.partition(b"\n")
    return body if newline and header == entry_key.encode() else None


def _encode(value: Any) -> Any:
    if isinstance(value, date):
        return {_DATE: value.isoformat()}
    raise TypeError(f"cannot store {type(value).__name__} in the matrix cache")


def _decode(obj: dict[str, Any]) -> Any:
    if len(obj) == 1 and _DATE in obj:
        return date.fromisoformat(obj[_DATE])
    return obj
