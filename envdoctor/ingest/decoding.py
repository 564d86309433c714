"""Pasted input as clean text: lenient decoding of a byte stream and the cleaning of each line.

`iter_decoded_lines` / `iter_decoded_blocks` turn a binary stream into lines leniently (BOM /
UTF-16 aware, undecodable bytes replaced, NULs and ANSI escapes dropped, lines longer than
`MAX_LINE_CHARS` cut) and raise `InputTooLarge` past a byte limit, so a 50 MiB paste streams
through with bounded memory. Part of the triage driver (`envdoctor.ingest.driver`).
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from typing import BinaryIO

from envdoctor.ingest.hant import to_simplified

MAX_INPUT_BYTES = 50 * 1024 * 1024  # larger pastes are refused (the triage command exits 2)
READ_CHUNK_BYTES = 1024 * 1024
MAX_LINE_CHARS = 1024 * 1024  # a longer line is cut here (the rest of it is dropped)


# Full-width ASCII forms (U+FF01-U+FF5E, "：", "（", "２") and the ideographic space, as Chinese
# input methods (and Chinese Windows messages: "动态链接库（DLL）初始化例程失败") type them, read as
# their ASCII twins: one character for one, so offsets stay valid.
ASCII_FORMS = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}


def ascii_forms(text: str) -> str:
    """`text` with full-width ASCII forms and the ideographic space as plain ASCII."""
    return text if text.isascii() else text.translate(ASCII_FORMS)


class InputTooLarge(ValueError):
    """The input is larger than the limit the caller set."""


# ---------------------------------------------------------------------------------------------
# Lenient decoding


_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[@-Z\\-_]")


def iter_decoded_blocks(
    stream: BinaryIO, limit_bytes: int = MAX_INPUT_BYTES, chunk_bytes: int = READ_CHUNK_BYTES
) -> Iterator[str]:
    """The text of a binary stream as cleaned blocks of whole lines ("\n"-separated, see
    `clean_block`), decoded leniently.

    UTF-8 (with or without BOM) and UTF-16 (BOM, or NULs in every other byte) are recognised;
    undecodable bytes become U+FFFD. Raises InputTooLarge once more than `limit_bytes` were read.
    Memory stays within a few chunks whatever the input size.
    """
    first = stream.read(chunk_bytes)
    if not first:
        return
    total = len(first)
    if total > limit_bytes:
        raise InputTooLarge(f"input is larger than {limit_bytes / (1024 * 1024):g} MiB")
    encoding, skip = _sniff_encoding(first)
    decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
    pending = ""
    chunk = first[skip:]
    while True:
        text = decoder.decode(chunk, final=not chunk)
        if text:
            text = pending + text
            cut = max(text.rfind("\n"), text.rfind("\r"))
            if cut < 0 and len(text) <= MAX_LINE_CHARS:
                pending = ""
                if chunk:
                    pending = text
                    text = ""
            elif cut < 0:
                pending, text = "", text[:MAX_LINE_CHARS]
            elif chunk:
                pending, text = text[cut + 1 :], text[: cut + 1]
                if len(pending) > MAX_LINE_CHARS:
                    text, pending = text + pending[:MAX_LINE_CHARS] + "\n", ""
            else:
                pending = ""
            if text:
                yield clean_block(text)
        if not chunk:
            break
        chunk = stream.read(chunk_bytes)
        total += len(chunk)
        if total > limit_bytes:
            raise InputTooLarge(f"input is larger than {limit_bytes / (1024 * 1024):g} MiB")
    if pending:
        yield clean_block(pending)


def iter_decoded_lines(
    stream: BinaryIO, limit_bytes: int = MAX_INPUT_BYTES, chunk_bytes: int = READ_CHUNK_BYTES
) -> Iterator[str]:
    """The lines of a binary stream, decoded leniently, without their line endings."""
    for block in iter_decoded_blocks(stream, limit_bytes, chunk_bytes):
        yield from block.split("\n")


def _sniff_encoding(head: bytes) -> tuple[str, int]:
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8", len(codecs.BOM_UTF8)
    if head.startswith(codecs.BOM_UTF16_LE):
        return "utf-16-le", 2
    if head.startswith(codecs.BOM_UTF16_BE):
        return "utf-16-be", 2
    sample = head[:4096]
    if len(sample) >= 8:
        odd_nuls = sample[1::2].count(0)
        even_nuls = sample[0::2].count(0)
        half = len(sample) // 2
        if odd_nuls > half * 0.4 and even_nuls < half * 0.05:
            return "utf-16-le", 0
        if even_nuls > half * 0.4 and odd_nuls < half * 0.05:
            return "utf-16-be", 0
    return "utf-8", 0


# anchored at line starts: unanchored, the search tried every position of every line (0.4 s on
# a 10 MB log); from a line's start it reads each line once
_LONG_LINE = re.compile(rf"(?m)^[^\n]{{{MAX_LINE_CHARS}}}")


def clean_block(text: str) -> str:
    """Text with "\n" line ends only (CRLF and lone CR become "\n"), without NULs and ANSI
    escapes, lines cut at MAX_LINE_CHARS, Traditional Chinese characters in their Simplified form
    (`envdoctor.ingest.hant`), full-width ASCII forms as ASCII, and no final line end."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\x00" in text:
        text = text.replace("\x00", "")
    if "\x1b" in text:
        text = _ANSI.sub("", text)
    if len(text) > MAX_LINE_CHARS and _LONG_LINE.search(text):
        text = "\n".join(line[:MAX_LINE_CHARS] for line in text.split("\n"))
    text = ascii_forms(to_simplified(text))  # read as the Simplified / ASCII the cues are in
    return text[:-1] if text.endswith("\n") else text


def clean_line(line: str) -> str:
    """A line without its ending, NULs, ANSI escapes, cut at MAX_LINE_CHARS, and read like
    `clean_block` reads it (Simplified Chinese, ASCII forms)."""
    line = line.rstrip("\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")
    if len(line) > MAX_LINE_CHARS:
        line = line[:MAX_LINE_CHARS]
    if "\x00" in line:
        line = line.replace("\x00", "")
    if "\x1b" in line:
        line = _ANSI.sub("", line)
    return ascii_forms(to_simplified(line))
