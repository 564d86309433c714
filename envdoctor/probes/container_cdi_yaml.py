"""A small reader for the block-style YAML that CDI spec generators write.

`nvidia-ctk cdi generate` (and other vendors' generators) write plain block YAML: mappings,
sequences (also at the same indentation as their key), plain and quoted scalars, `|`/`>` block
scalars. This reader handles exactly that, returning dicts, lists and strings, so envdoctor needs
no YAML library. Anything it cannot read raises `ValueError` with the line number; anchors,
tags and multi-document streams are not supported (CDI specs do not use them).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

_KEY = re.compile(r"""^(?P<key>"[^"]*"|'[^']*'|[^\s'"#][^:#]*?)\s*:(?:\s+(?P<value>.*))?$""")


@dataclass(frozen=True)
class _Line:
    number: int
    indent: int
    text: str


def loads(text: str) -> Any:
    """Parse one block-YAML document; ValueError on what this reader does not handle."""
    lines = _lines(text)
    if not lines:
        return None
    value, index = _block(lines, 0, lines[0].indent)
    if index != len(lines):
        raise ValueError(f"line {lines[index].number}: unexpected indentation")
    return value


def _lines(text: str) -> list[_Line]:
    out = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if "\t" in raw[: len(raw) - len(raw.lstrip())]:
            raise ValueError(f"line {number}: tab in indentation")
        stripped = raw.strip()
        if not stripped or stripped.startswith("#") or stripped in ("---", "..."):
            continue
        out.append(
            _Line(
                number,
                len(raw) - len(raw.lstrip(" ")),
                raw.rstrip()[len(raw) - len(raw.lstrip(" ")) :],
            )
        )
    return out


def _block(lines: list[_Line], index: int, indent: int) -> tuple[Any, int]:
    if _is_item(lines[index].text):
        return _sequence(lines, index, indent)
    return _mapping(lines, index, indent)


def _is_item(text: str) -> bool:
    return text == "-" or text.startswith("- ")


def _sequence(lines: list[_Line], index: int, indent: int) -> tuple[list[Any], int]:
    items: list[Any] = []
    while index < len(lines) and lines[index].indent == indent and _is_item(lines[index].text):
        line = lines[index]
        rest = line.text[1:].lstrip(" ")
        if not rest:
            if index + 1 < len(lines) and lines[index + 1].indent > indent:
                value, index = _block(lines, index + 1, lines[index + 1].indent)
            else:
                value, index = None, index + 1
        elif _KEY.match(rest) and not rest.startswith(("'", '"', "[", "{")) or _quoted_key(rest):
            inner = indent + (len(line.text) - len(rest))
            rebuilt = [_Line(line.number, inner, rest)] + list(lines[index + 1 :])
            value, used = _mapping(rebuilt, 0, inner)
            index = index + used
        else:
            value, index = _scalar(rest, lines, index, indent)
        items.append(value)
    return items, index


def _quoted_key(text: str) -> bool:
    return bool(re.match(r"""^("[^"]*"|'[^']*')\s*:(\s|$)""", text))


def _mapping(lines: list[_Line], index: int, indent: int) -> tuple[dict[str, Any], int]:
    out: dict[str, Any] = {}
    while index < len(lines) and lines[index].indent == indent and not _is_item(lines[index].text):
        line = lines[index]
        match = _KEY.match(line.text)
        if not match:
            raise ValueError(f"line {line.number}: expected 'key: value', got {line.text[:60]!r}")
        key = _unquote(match.group("key").strip())
        value_text = (match.group("value") or "").strip()
        if value_text and not value_text.startswith("#"):
            out[key], index = _scalar(value_text, lines, index, indent)
            continue
        following = lines[index + 1] if index + 1 < len(lines) else None
        if following is not None and (
            following.indent > indent or (following.indent == indent and _is_item(following.text))
        ):
            out[key], index = _block(lines, index + 1, following.indent)
        else:
            out[key], index = None, index + 1
    return out, index


def _scalar(text: str, lines: list[_Line], index: int, indent: int) -> tuple[Any, int]:
    """A scalar starting on lines[index] (possibly a block scalar spanning more lines)."""
    if text[:1] in ("|", ">"):
        parts = []
        index += 1
        while index < len(lines) and lines[index].indent > indent:
            parts.append(lines[index].text)
            index += 1
        joiner = "\n" if text[0] == "|" else " "
        return joiner.join(parts), index
    return _plain(text, lines[index].number), index + 1


def _plain(text: str, number: int) -> Any:
    if text.startswith('"'):
        end = _closing_quote(text)
        try:
            return json.loads(text[: end + 1])
        except json.JSONDecodeError as exc:
            raise ValueError(f"line {number}: bad double-quoted scalar") from exc
    if text.startswith("'"):
        body = text[1:]
        end = body.find("'")
        while end != -1 and body[end + 1 : end + 2] == "'":
            end = body.find("'", end + 2)
        if end == -1:
            raise ValueError(f"line {number}: unterminated single-quoted scalar")
        return body[:end].replace("''", "'")
    text = re.split(r"\s+#", text, maxsplit=1)[0].strip()
    if text in ("[]", "{}"):
        return [] if text == "[]" else {}
    if text.startswith("[") and text.endswith("]"):
        return [_unquote(part.strip()) for part in text[1:-1].split(",") if part.strip()]
    if text in ("null", "~"):
        return None
    return text


def _closing_quote(text: str) -> int:
    position = 1
    while position < len(text):
        if text[position] == "\\":
            position += 2
            continue
        if text[position] == '"':
            return position
        position += 1
    return len(text) - 1


def _unquote(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text
