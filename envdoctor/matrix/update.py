"""Updating the matrices without a new release, and rolling back.

An update is a `.tar.gz` of matrix TOML files, fetched over HTTPS (plain http only to a loopback
address, for tests) with size and time limits. Its SHA-256 is verified before anything is
unpacked; members are unpacked only when they are plain `*.toml` / `README.md` files with safe
names; the unpacked set must lint clean and contain every table the bundled set has. It is then
installed atomically into the user cache (a new folder, then one atomic rename of the `active`
pointer). Any failure leaves the active set exactly as it was.

The set in use is the newest valid one: an installed update whose newest `checked` date is at
least the bundled set's, else the bundled set. Offline use never needs the network.
"""

from __future__ import annotations

import io
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import urlparse

from envdoctor.atomic import write_text_atomically
from envdoctor.matrix.cache import make_folder, read_regular_file
from envdoctor.matrix.loader import MatrixSet, lint, load_bundled, load_dir

MAX_BUNDLE_BYTES = 20 * 1024 * 1024
MAX_MEMBER_BYTES = 5 * 1024 * 1024
MAX_MEMBERS = 200
CONNECT_TIMEOUT_S = 5.0
READ_TIMEOUT_S = 10.0
TOTAL_TIMEOUT_S = 60.0
BUNDLED = "bundled"
_SET_NAME = re.compile(r"[0-9A-Za-z][0-9A-Za-z._-]{0,127}")


class UpdateError(Exception):
    """An update or rollback that was refused; the message is one line for the user."""


class CacheError(UpdateError):
    """The cache folder cannot hold matrix sets (it is a file, read-only, its `active` is a
    folder...): the user's set-up, not the bundle, is at fault (exit 2, not 1)."""


@dataclass(frozen=True)
class CachePaths:
    """Where installed matrix sets live."""

    root: Path

    @property
    def sets(self) -> Path:
        """One folder per installed set."""
        return self.root / "sets"

    @property
    def active(self) -> Path:
        """A file naming the active set (a folder name under `sets`, or "bundled")."""
        return self.root / "active"

    @property
    def history(self) -> Path:
        """JSON list of previously active set names, newest last."""
        return self.root / "history.json"


def cache_paths(env: Mapping[str, str] | None = None) -> CachePaths:
    """The cache location: $ENVDOCTOR_CACHE_DIR, else $XDG_CACHE_HOME/envdoctor, else ~/.cache."""
    from envdoctor.matrix.cache import cache_root

    return CachePaths(cache_root(env) / "matrices")


def load_active(env: Mapping[str, str] | None = None) -> MatrixSet:
    """The matrix set in use (see module docstring); never raises, never touches the network.
    When an installed update is named but not used, `notes` of the set returned says why."""
    bundled = load_bundled()
    paths = cache_paths(env)
    name, problem = _read_active(paths)
    if problem:
        bundled.notes.append(f"matrix cache: {problem}; using the bundled matrices")
    if name in (None, BUNDLED):
        return bundled
    folder = paths.sets / name
    if not folder.is_dir():
        bundled.notes.append(f"matrix update {name} is not installed; using the bundled matrices")
        return bundled
    installed = load_dir(folder, origin=f"update {name}")
    try:
        damaged = bool(installed.errors) or not set(bundled.names()) <= set(installed.names())
    except (OSError, ValueError):  # unreadable files: as damaged as a lint error
        damaged = True
    if damaged:  # a damaged cache never wins over the bundled data
        bundled.notes.append(
            f"matrix update {name} is damaged ({_first(installed)}); using the bundled matrices"
        )
        return bundled
    if _newest(installed) < _newest(bundled):
        bundled.notes.append(
            f"matrix update {name} is older than the bundled matrices; using the bundled ones"
        )
        return bundled  # this envdoctor ships newer data than the update
    installed.notes[:0] = bundled.notes
    return installed


def _first(ms: MatrixSet) -> str:
    try:
        errors = ms.errors
    except (OSError, ValueError) as exc:
        return str(exc)
    if errors:
        return str(errors[0])
    return "tables missing"


def update(url: str, sha256: str, env: Mapping[str, str] | None = None) -> str:
    """Fetch, verify, lint and install a matrix bundle; returns the new set's name."""
    _check_url(url)
    digest = sha256.strip().lower()
    if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
        raise UpdateError("--sha256 must be 64 hex digits")
    import hashlib
    import shutil
    import tempfile

    paths = cache_paths(env)
    _prepare(paths)  # before the download: a cache that cannot take the set fails fast
    payload = _download(url)
    actual = hashlib.sha256(payload).hexdigest()
    if actual != digest:
        raise UpdateError(
            f"digest mismatch: the download has sha256 {actual[:16]}…, expected "
            f"{digest[:16]}…; nothing was installed"
        )
    try:
        staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=paths.sets))
    except OSError as exc:
        raise CacheError(_cache_problem(paths.sets, exc)) from None
    try:
        _unpack(payload, staging)
        _validate(staging)
        name = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ") + "-" + actual[:12]
        final = paths.sets / name
        if final.exists():
            shutil.rmtree(final)
        os.replace(staging, final)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    try:
        (final / "MANIFEST.json").write_text(json.dumps({"url": url, "sha256": actual}, indent=1))
        previous = _active_name(paths) or BUNDLED
        _write_atomic(paths.history, json.dumps(_history(paths) + [previous]))
        _write_atomic(paths.active, name)
    except OSError as exc:
        raise CacheError(
            f"{_cache_problem(paths.active, exc)}; the set was not activated"
        ) from None
    return name


def rollback(env: Mapping[str, str] | None = None) -> str:
    """Make the previously active set active again (the bundled set when there is none)."""
    paths = cache_paths(env)
    try:
        return _rollback(paths)
    except OSError as exc:
        raise CacheError(f"{_cache_problem(paths.active, exc)}; nothing was changed") from None


def _prepare(paths: CachePaths) -> None:
    """Make the sets folder; CacheError when the cache cannot take a new set."""
    try:
        make_folder(paths.sets)
    except OSError as exc:
        raise CacheError(_cache_problem(paths.sets, exc)) from None
    _refuse_odd_files(paths)
    if not os.access(paths.root, os.W_OK):
        raise CacheError(f"cannot write the matrix cache {paths.root}: permission denied")


def _cache_problem(path: Path, exc: OSError) -> str:
    return f"cannot write the matrix cache at {exc.filename or path}: {exc.strerror or exc}"


def _rollback(paths: CachePaths) -> str:
    history = _history(paths)
    while history:
        candidate = history.pop()
        if candidate == BUNDLED or (paths.sets / candidate).is_dir():
            _refuse_odd_files(paths)  # both files are checked before either is written
            _write_atomic(paths.active, candidate)
            _write_atomic(paths.history, json.dumps(history))
            return candidate
    _refuse_odd_files(paths)
    _write_atomic(paths.active, BUNDLED)
    _write_atomic(paths.history, "[]")
    return BUNDLED


def _refuse_odd_files(paths: CachePaths) -> None:
    for path in (paths.active, paths.history):
        if (path.exists() or path.is_symlink()) and not path.is_file():
            raise CacheError(f"{path} is not a regular file; move it away and try again")


# -- steps -------------------------------------------------------------------------------------
def _check_url(url: str) -> None:
    parsed = urlparse(url)
    if parsed.scheme == "https" and parsed.hostname:
        return
    if parsed.scheme == "http" and parsed.hostname and _is_loopback(parsed.hostname):
        return
    raise UpdateError(f"refusing {url!r}: updates are fetched over https only")


def _is_loopback(host: str) -> bool:
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _download(url: str) -> bytes:
    """The body at `url`, within the size limit and the total deadline (a trickling server is
    abandoned on its daemon thread when the deadline passes)."""
    import threading

    result: dict[str, object] = {}

    def fetch() -> None:
        try:
            result["body"] = _fetch(url)
        except UpdateError as exc:
            result["error"] = exc
        except Exception as exc:  # noqa: BLE001 - any transport failure is a refusal
            result["error"] = UpdateError(f"download failed: {type(exc).__name__}")

    worker = threading.Thread(target=fetch, name="matrix-download", daemon=True)
    worker.start()
    worker.join(TOTAL_TIMEOUT_S)
    if worker.is_alive():
        raise UpdateError(f"download took longer than {TOTAL_TIMEOUT_S:g} s")
    if "error" in result:
        raise result["error"]  # type: ignore[misc]
    return result["body"]  # type: ignore[return-value]


def _fetch(url: str) -> bytes:
    import requests

    try:
        response = requests.get(
            url, stream=True, timeout=(CONNECT_TIMEOUT_S, READ_TIMEOUT_S), allow_redirects=False
        )
    except requests.RequestException as exc:
        raise UpdateError(f"download failed: {type(exc).__name__}") from None
    with response:
        return _read_body(response)


def _read_body(response) -> bytes:  # noqa: ANN001
    import requests

    if response.status_code != 200:
        raise UpdateError(f"download failed: HTTP {response.status_code}")
    declared = response.headers.get("Content-Length")
    if declared and declared.isdigit() and int(declared) > MAX_BUNDLE_BYTES:
        raise UpdateError(f"bundle too large: {int(declared)} bytes (limit {MAX_BUNDLE_BYTES})")
    buffer = io.BytesIO()
    try:
        for chunk in response.iter_content(64 * 1024):
            buffer.write(chunk)
            if buffer.tell() > MAX_BUNDLE_BYTES:
                raise UpdateError(f"bundle too large: over {MAX_BUNDLE_BYTES} bytes")
    except (requests.RequestException, OSError) as exc:
        raise UpdateError(f"download failed: {type(exc).__name__}") from None
    if declared and declared.isdigit() and buffer.tell() != int(declared):
        raise UpdateError("download truncated")
    return buffer.getvalue()


def _unpack(payload: bytes, target: Path) -> None:
    import tarfile

    try:
        archive = tarfile.open(fileobj=io.BytesIO(payload), mode="r:gz")  # noqa: SIM115 - closed by the `with` below
    except (tarfile.TarError, OSError, EOFError):
        raise UpdateError("not a .tar.gz archive") from None
    with archive:
        try:
            members = archive.getmembers()
        except (tarfile.TarError, OSError, EOFError):
            raise UpdateError("archive is damaged") from None
        if len(members) > MAX_MEMBERS:
            raise UpdateError(f"archive has {len(members)} members (limit {MAX_MEMBERS})")
        wrote = 0
        for member in members:
            if member.isdir():
                continue
            name = Path(member.name).name
            parts = Path(member.name).parts
            if (
                not member.isfile()
                or member.name.startswith("/")
                or ".." in parts
                or not (name.endswith(".toml") or name == "README.md")
                or name.startswith(".")
            ):
                raise UpdateError(f"archive member {member.name!r} is not allowed")
            if member.size > MAX_MEMBER_BYTES:
                raise UpdateError(f"archive member {member.name!r} is too large")
            handle = archive.extractfile(member)
            if handle is None:
                raise UpdateError(f"archive member {member.name!r} cannot be read")
            destination = target / name
            if destination.exists():
                raise UpdateError(f"archive has two files named {name!r}")
            destination.write_bytes(handle.read())
            wrote += 1
        if not wrote:
            raise UpdateError("archive holds no matrix files")


def _validate(folder: Path) -> None:
    ms, errors = lint(folder)
    if errors:
        raise UpdateError(f"the new set does not lint: {errors[0]} ({len(errors)} error(s))")
    bundled = load_bundled()
    missing = sorted(set(bundled.names()) - set(ms.names()))
    if missing:
        raise UpdateError(f"the new set lacks matrices: {', '.join(missing)}")
    if _newest(ms) < _newest(bundled):  # load_active would never use it: refuse, say why
        raise UpdateError(
            f"the new set's newest row was checked {_newest(ms)}, before this envdoctor's "
            f"bundled matrices ({_newest(bundled)}): nothing was installed"
        )


def _newest(ms: MatrixSet):  # noqa: ANN202 - a date
    from datetime import date

    dates = [t.newest_checked for t in ms.tables.values() if t.newest_checked]
    return max(dates) if dates else date.min


def _active_name(paths: CachePaths) -> str | None:
    return _read_active(paths)[0]


def _read_active(paths: CachePaths) -> tuple[str | None, str | None]:
    """(the active set's name or None, why the `active` file was not usable or None)."""
    try:
        data = read_regular_file(paths.active, 1 << 16)
    except FileNotFoundError:
        return None, None
    except OSError as exc:  # a folder, a FIFO, unreadable, a parent that is a file...
        return None, f"cannot read {paths.active}: {exc.strerror or exc}"
    try:
        name = data.decode("utf-8").strip()
    except UnicodeDecodeError:
        return None, f"{paths.active} is not UTF-8 text"
    if name != BUNDLED and not _SET_NAME.fullmatch(name):
        return None, f"{paths.active} does not name a matrix set"
    return name, None


def _history(paths: CachePaths) -> list[str]:
    try:
        value = json.loads(read_regular_file(paths.history, 1 << 16))
    except (OSError, ValueError):
        return []
    if not isinstance(value, list):
        return []
    return [v for v in value if isinstance(v, str) and (v == BUNDLED or _SET_NAME.fullmatch(v))]


def _write_atomic(path: Path, text: str) -> None:
    make_folder(path.parent)
    write_text_atomically(path, text)
