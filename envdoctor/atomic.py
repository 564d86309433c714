"""Writing a file so that readers see the old content or the new, never half of it.

The text goes to a temporary file in the target's folder, is flushed to disk, and is renamed over
the target (`os.replace`, atomic on POSIX and Windows). On any failure the temporary file is
removed and an existing target is left exactly as it was.

Only a regular file (or a symlink to one: the file it points at is replaced, the link kept) is
ever replaced. A symbolic link on the way (the name itself or a folder of its path) is followed
only when the user running envdoctor or root owns it: resolving a path and renaming over the
file it names would otherwise bypass the kernel's protected_symlinks, and `report -o
/tmp/report.md` run as root would replace whatever file another user's link in /tmp points at
(/etc/passwd). An existing target of another kind is never turned into a regular file: a
character device (`/dev/null`, a terminal) or a FIFO with a reader is written into when the caller
allows it (`into_special`, for a report the user pointed there), anything else (a folder, a block
device, a socket, a FIFO nobody reads) is refused with an OSError that says what it is.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path


def write_text_atomically(
    path: Path | str, text: str, mode: int | None = None, into_special: bool = False
) -> None:
    """Replace `path` with `text` (UTF-8) atomically; `mode` sets its permission bits (e.g. 0o600).

    With `into_special`, an existing character device or FIFO is written into instead; any other
    non-regular target raises OSError (see the module docstring)."""
    path = _landing(Path(path))
    kind = _existing_kind(path)
    if kind in ("character device", "FIFO") and into_special:
        _write_into(path, text, kind)
        return
    if kind not in (None, "regular"):
        raise OSError(errno.EEXIST, f"it exists and is a {kind}, not a regular file", str(path))
    _replace(path, text, mode)


def write_bytes_atomically(path: Path | str, data: bytes) -> None:
    """Replace the regular file `path` (or create it) with `data` atomically; any other kind of
    existing target raises OSError (a cache file is never written into a device)."""
    path = _landing(Path(path))
    kind = _existing_kind(path)
    if kind not in (None, "regular"):
        raise OSError(errno.EEXIST, f"it exists and is a {kind}, not a regular file", str(path))
    _replace(path, data, None)


_MAX_LINKS = 40  # the kernel's limit on links followed in one path (ELOOP beyond)


def _landing(path: Path) -> Path:
    """The path a write of `path` lands on: its folder with every symbolic link on the way
    followed, and the name itself followed when it links to a regular file (the link is kept,
    the file replaced); any other link (dangling, or to a device) is left to the caller as the
    name it is. Every link met must be trusted (`_check_owner`)."""
    hops = [_MAX_LINKS]
    current = path if path.is_absolute() else Path(os.getcwd()) / path
    while True:
        final = _followed(current.parent, hops) / current.name
        try:
            found = os.lstat(final)
        except OSError:
            return final
        if not stat.S_ISLNK(found.st_mode):
            return final
        _check_owner(final, found, hops)
        if _existing_kind(final) != "regular":
            return final
        current = final.parent / os.readlink(final)


def _followed(folder: Path, hops: list[int]) -> Path:
    """`folder` with its symbolic links followed one component at a time, as the kernel does
    (`..` after a link goes up from where the link led), each link checked (`_check_owner`)."""
    out = Path(folder.anchor)
    pending = list(folder.parts[1:])
    while pending:
        name = pending.pop(0)
        if name in ("", "."):
            continue
        if name == "..":
            out = out.parent
            continue
        step = out / name
        try:
            found = os.lstat(step)
        except OSError:  # missing: the temporary file's creation says so
            out = step
            continue
        if not stat.S_ISLNK(found.st_mode):
            out = step
            continue
        _check_owner(step, found, hops)
        target = Path(os.readlink(step))
        if target.is_absolute():
            out, pending = Path(target.anchor), [*target.parts[1:], *pending]
        else:
            pending = [*target.parts, *pending]
    return out


def _check_owner(link: Path, found: os.stat_result, hops: list[int]) -> None:
    """Refuse to follow a symbolic link another user owns (only the user running envdoctor's
    and root's are followed), or one link too many (a loop)."""
    hops[0] -= 1
    if hops[0] < 0:
        raise OSError(errno.ELOOP, "too many levels of symbolic links", str(link))
    me = getattr(os, "geteuid", lambda: None)()
    if me is not None and found.st_uid not in (me, 0):
        raise OSError(
            errno.EPERM,
            f"it is a symbolic link owned by another user (uid {found.st_uid}), which envdoctor "
            "does not write through; name the file it points at if that is the one meant",
            str(link),
        )


def _replace(path: Path, data: str | bytes, mode: int | None) -> None:
    """Write `data` (text as UTF-8 with the platform's line ends) to a temporary file beside
    `path`, flush it to disk, rename it over `path`."""
    import tempfile

    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=str(path.parent))
    try:
        binary = isinstance(data, bytes)
        with os.fdopen(fd, "wb" if binary else "w", encoding=None if binary else "utf-8") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def _existing_kind(path: Path) -> str | None:
    """What `path` is after following links: None when nothing is there (or a dangling link)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return None
    if stat.S_ISREG(mode):
        return "regular"
    for test, name in (
        (stat.S_ISDIR, "folder"),
        (stat.S_ISCHR, "character device"),
        (stat.S_ISFIFO, "FIFO"),
        (stat.S_ISBLK, "block device"),
        (stat.S_ISSOCK, "socket"),
    ):
        if test(mode):
            return name
    return "special file"


def _write_into(path: Path, text: str, kind: str) -> None:
    """Write into a character device or a FIFO without truncating or replacing it; a FIFO is
    opened without blocking, so one that nobody reads is refused instead of hanging."""
    flags = os.O_WRONLY | getattr(os, "O_NOCTTY", 0)
    if kind == "FIFO":
        try:
            fd = os.open(path, flags | os.O_NONBLOCK)
        except OSError as exc:
            if exc.errno == errno.ENXIO:
                raise OSError(errno.ENXIO, "it is a FIFO that nobody reads", str(path)) from None
            raise
        os.set_blocking(fd, True)
    else:
        fd = os.open(path, flags)
    with os.fdopen(fd, "wb") as handle:
        handle.write(text.encode("utf-8"))
        handle.flush()
