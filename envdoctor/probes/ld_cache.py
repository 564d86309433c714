"""The dynamic loader's cache (/etc/ld.so.cache), read directly instead of running `ldconfig -p`.

`ldconfig -p` prints this file; reading it costs a fraction of a millisecond where starting the
tool costs a process spawn (and, from Python, importing subprocess). glibc's format since 2.32
("glibc-ld.so.cache1.1", also appended to old-format files by older glibc): a header, `nlibs`
entries of (flags, key, value, osversion, hwcap), and NUL-terminated strings, the key being the
soname and the value the path, both as offsets from the start of the new-format header. Entries
come in the loader's search order, as `ldconfig -p` lists them. `entries` returns None for
anything else (musl has no such file, a foreign byte order, a truncated or damaged file): the
callers then run `ldconfig -p` as before.
"""

from __future__ import annotations

import struct

from envdoctor.probes.context import ProbeContext

CACHE = "/etc/ld.so.cache"
MAGIC_NEW = b"glibc-ld.so.cache1.1"
MAGIC_OLD = b"ld.so-1.7.0"
_HEADER = struct.Struct("<20sII")  # magic + version, nlibs, len_strings (then 20 bytes we skip)
_HEADER_SIZE = 48
_ENTRY = struct.Struct("<iIIIQ")  # flags, key, value, osversion, hwcap
_OLD_ENTRY_SIZE = 12  # flags, key, value in the old format
MAX_BYTES = 64 * 1024 * 1024

# ldconfig's words for the flags, as glibc's elf/cache.c print_entry writes them: the kind
# (flag & 0x00ff) and the ABI (flag & 0xff00, constants in sysdeps/generic/ldconfig.h); checked
# against glibc 2.34's sources, https://sourceware.org/git/?p=glibc.git;a=blob;f=elf/cache.c
_KINDS = {0x0000: "libc4", 0x0001: "ELF", 0x0002: "libc5", 0x0003: "libc6"}
_ARCHES = {
    0x0100: "64bit",
    0x0200: "IA-64",
    0x0300: "x86-64",
    0x0400: "64bit",
    0x0500: "64bit",
    0x0600: "N32",
    0x0700: "64bit",
    0x0800: "x32",
    0x0900: "hard-float",
    0x0A00: "AArch64",
    0x0B00: "soft-float",
    0x0C00: "nan2008",
    0x0D00: "N32,nan2008",
    0x0E00: "64bit,nan2008",
    0x0F00: "soft-float",
    0x1000: "double-float",
}


def entries(ctx: ProbeContext, only: tuple[str, ...] = ()) -> list[tuple[str, str, str]] | None:
    """[(soname, flags, path)] in cache order, or None when the file is missing or not a cache
    this reader knows. `flags` is the library kind and ABI as `ldconfig -p` words them
    ("libc6,x86-64"), without its "OS ABI" and "hwcap" notes. With `only`, just the entries of
    those sonames (found by a byte search first: a cache without them is not parsed)."""
    data = ctx.read_bytes(CACHE, MAX_BYTES)
    if data is None:
        return None
    if only and MAGIC_NEW in data and not any(name.encode() + b"\0" in data for name in only):
        return []  # none of those sonames is among its strings (each ends in a NUL): nothing to parse
    found = parse(data)
    return [e for e in found if e[0] in only] if found is not None and only else found


def listing(
    ctx: ProbeContext, only: tuple[str, ...] = (), timeout_s: float = 5.0
) -> tuple[list[tuple[str, str, str]], str, str | None]:
    """(entries, how, error): the cache file's entries (`entries`), else those `ldconfig -p`
    prints (`ldconfig -C ROOT/etc/ld.so.cache -p` for a target root; ctx.run runs it once for
    every probe asking); ([], how, why) when neither answers. The one way every probe lists the
    loader cache."""
    cached = entries(ctx, only)
    if cached is not None:
        return cached, f"read {CACHE}", None
    live = str(ctx.root) == "/"
    on_path = ctx.which("ldconfig")
    tool = on_path or (
        next((p for p in ("/sbin/ldconfig", "/usr/sbin/ldconfig") if ctx.exists(p)), None)
        if live
        else None
    )
    if tool is None:
        return [], "not found", "ldconfig not found"
    if live:
        argv = ["ldconfig", "-p"] if on_path == tool else [tool, "-p"]
    else:
        argv = [tool, "-C", str(ctx.path(CACHE)), "-p"]
    result = ctx.run(argv, timeout_s=timeout_s)
    if not result.ok:
        return [], "ran ldconfig -p", result.describe_failure()
    rows = parse_listing(result.stdout)
    return ([r for r in rows if r[0] in only] if only else rows), "ran ldconfig -p", None


def parse_listing(text: str) -> list[tuple[str, str, str]]:
    """(soname, flags, path) of each entry `ldconfig -p` printed, in its order."""
    from envdoctor.ingest.ldd_ldconfig import LDCONFIG_LINE

    rows = []
    for line in text.splitlines():
        match = LDCONFIG_LINE.match(line)
        if match:
            rows.append((match["soname"], match["flags"], match["path"]))
    return rows


def parse(data: bytes) -> list[tuple[str, str, str]] | None:
    """The entries of a cache file's bytes; None when it is not a little-endian glibc cache."""
    start = data.find(MAGIC_NEW)
    if start < 0 or (start and not data.startswith(MAGIC_OLD)):
        return None
    if len(data) < start + _HEADER_SIZE:
        return None
    _magic, count, _strings = _HEADER.unpack_from(data, start)
    table = start + _HEADER_SIZE
    if count > (len(data) - table) // _ENTRY.size:
        return None  # truncated, or another byte order
    out = []
    for i in range(count):
        flags, key, value, _os, _hwcap = _ENTRY.unpack_from(data, table + i * _ENTRY.size)
        soname, path = _string(data, start + key), _string(data, start + value)
        if soname is None or path is None:
            return None
        out.append((soname, _flags_text(flags), path))
    return out


def _string(data: bytes, at: int) -> str | None:
    end = data.find(b"\0", at)
    if at >= len(data) or end < 0:
        return None
    return data[at:end].decode("utf-8", errors="replace")


def _flags_text(flags: int) -> str:
    kind = _KINDS.get(flags & 0x00FF, "unknown")
    abi = flags & 0xFF00
    if not abi:
        return kind
    return (
        f"{kind},{_ARCHES.get(abi, abi)}"  # ldconfig prints an ABI it has no word for as a number
    )
