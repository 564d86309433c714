"""The loader-cache reader: on this machine it lists exactly what `ldconfig -p` prints, and a
damaged or foreign file gives None (the callers then run ldconfig), never a wrong list."""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from envdoctor.probes import ld_cache
from envdoctor.probes.context import ProbeContext

CACHE = "/etc/ld.so.cache"


def _ldconfig_rows() -> list[tuple[str, str, str]]:
    out = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True, timeout=30).stdout
    rows = []
    for line in out.splitlines()[1:]:
        match = re.match(r"\s*(\S+)\s+\(([^)]*)\)\s+=>\s+(\S+)", line)
        if match:
            flags = match[2].split(", OS ABI")[0].split(", hwcap")[0]
            rows.append((match[1], flags, match[3]))
    return rows


@pytest.mark.skipif(
    not os.path.exists(CACHE) or shutil.which("ldconfig") is None,
    reason="no glibc loader cache here",
)
def test_this_machine_matches_ldconfig():
    entries = ld_cache.entries(ProbeContext())
    assert entries is not None and len(entries) > 10
    assert entries == _ldconfig_rows()


@pytest.mark.skipif(not os.path.exists(CACHE), reason="no glibc loader cache here")
def test_damaged_copies_give_none():
    data = Path(CACHE).read_bytes()
    assert ld_cache.parse(data) is not None
    assert ld_cache.parse(data[:40]) is None  # header cut
    assert ld_cache.parse(data[: len(data) // 3]) is None  # entries or strings cut
    start = data.find(ld_cache.MAGIC_NEW)
    swapped = bytearray(data)
    count = struct.unpack_from("<I", data, start + 20)[0]
    struct.pack_into(">I", swapped, start + 20, count)  # the count in the other byte order
    assert ld_cache.parse(bytes(swapped)) is None


def test_foreign_files_give_none(tmp_path):
    assert ld_cache.parse(b"") is None
    assert ld_cache.parse(b"ld.so-1.7.0" + b"\0" * 64) is None  # old format alone
    assert ld_cache.parse(b"\x7fELF" + b"\0" * 100) is None
    assert ld_cache.entries(ProbeContext(root=tmp_path)) is None  # no cache in this root


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=4096))
def test_arbitrary_bytes_after_the_magic_never_raise(tail):
    result = ld_cache.parse(ld_cache.MAGIC_NEW + tail)
    assert result is None or isinstance(result, list)


@pytest.mark.skipif(
    not os.path.exists(CACHE) or shutil.which("ldconfig") is None,
    reason="no glibc loader cache here",
)
def test_only_some_sonames():
    """`only` gives the entries of those sonames, the same as filtering the whole listing."""
    every = ld_cache.entries(ProbeContext())
    wanted = (every[0][0], every[-1][0], "libnvidia-ml.so.1")
    assert ld_cache.entries(ProbeContext(), only=wanted) == [e for e in every if e[0] in wanted]
    assert ld_cache.entries(ProbeContext(), only=("libno-such-library.so.7",)) == []


def test_flag_words_are_ldconfigs():
    """The kind and ABI words of glibc's print_entry (elf/cache.c), an unknown ABI as its number."""
    assert ld_cache._flags_text(0x0303) == "libc6,x86-64"
    assert ld_cache._flags_text(0x0A03) == "libc6,AArch64"
    assert ld_cache._flags_text(0x1003) == "libc6,double-float"
    assert ld_cache._flags_text(0x0003) == "libc6"
    assert ld_cache._flags_text(0x4403) == "libc6,17408"
