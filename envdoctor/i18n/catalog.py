"""Message catalogs: read and write gettext `.po` files, compile them to `.mo`, load either.

The `.po` file is what a translator edits; the `.mo` file is what gettext reads. Python's
`gettext.GNUTranslations` reads the `.mo`; this module writes one (the format is GNU gettext's:
a header, two tables of (length, offset) pairs, then the NUL-terminated strings), so building
needs no msgfmt. When no `.mo` is installed, or the `.po` beside it is newer (an editable
checkout), the `.po` is parsed directly.
"""

from __future__ import annotations

import ast
import gettext
import struct
from dataclasses import dataclass, field
from pathlib import Path

LOCALE_DIR = Path(__file__).with_name("locale")
DOMAIN = "envdoctor"


@dataclass
class Entry:
    """One message: the English template, its translation (empty: untranslated), comments."""

    msgid: str
    msgstr: str = ""
    references: list[str] = field(default_factory=list)  # "#: file:line"
    comments: list[str] = field(default_factory=list)  # "#." notes for the translator
    translator_comments: list[str] = field(default_factory=list)  # "# " kept from the .po
    flags: list[str] = field(default_factory=list)  # "#, python-brace-format"
    obsolete: bool = False


def po_path(lang: str) -> Path:
    """The catalog a translator edits for `lang`."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str) -> Path:
    """The compiled catalog for `lang`."""
    return po_path(lang).with_suffix(".mo")


def _quote(text: str) -> str:
    out = text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
    return '"' + out.replace("\n", "\\n") + '"'


def _po_string(keyword: str, text: str) -> list[str]:
    """`msgid "…"`, split after each newline so long texts stay readable in an editor."""
    if "\n" not in text.rstrip("\n") and len(text) < 70:
        return [f"{keyword} {_quote(text)}"]
    parts = text.splitlines(keepends=True)
    return [f'{keyword} ""', *(_quote(p) for p in parts)]


def write_po(path: Path, header: str, entries: list[Entry]) -> None:
    """Write a `.po` file: the header entry, then the entries in the order given."""
    lines = [*header.rstrip("\n").splitlines(), 'msgid ""', 'msgstr ""']
    lines.append(_quote("Content-Type: text/plain; charset=UTF-8\n"))
    lines.append(_quote("Content-Transfer-Encoding: 8bit\n"))
    lines.append("")
    for entry in entries:
        prefix = "#~ " if entry.obsolete else ""
        lines.extend(f"# {c}".rstrip() for c in entry.translator_comments)
        lines.extend(f"#. {c}".rstrip() for c in entry.comments)
        if entry.references:
            lines.append("#: " + " ".join(entry.references))
        if entry.flags:
            lines.append("#, " + ", ".join(entry.flags))
        lines.extend(prefix + s for s in _po_string("msgid", entry.msgid))
        lines.extend(prefix + s for s in _po_string("msgstr", entry.msgstr))
        lines.append("")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines), encoding="utf-8")


def read_po(path: Path) -> tuple[str, list[Entry]]:
    """Parse a `.po` file: (the comment lines before the header entry, the entries).

    Handles what `write_po` writes and what a translator's editor typically writes: multi-line
    strings, comments, flags, obsolete (`#~`) entries. Message contexts and plurals are not used
    by envdoctor and are refused with ValueError."""
    header_lines: list[str] = []
    entries: list[Entry] = []
    current = Entry("")
    target: str | None = None
    seen_header = False

    def finish() -> None:
        nonlocal current, target, seen_header
        if target is not None:
            if current.msgid == "" and not seen_header:
                seen_header = True
            else:
                entries.append(current)
        current = Entry("")
        target = None

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        obsolete = line.startswith("#~")
        if obsolete:
            line = line[2:].strip()
        if not line:
            finish()
            continue
        if line.startswith("#"):
            if target is not None and not line.startswith("#~"):
                finish()
            header_comment = not line.startswith(("#.", "#:", "#,"))
            if header_comment and not seen_header and target is None and not entries:
                header_lines.append(raw)
                continue
            if line.startswith("#:"):
                current.references.extend(line[2:].split())
            elif line.startswith("#,"):
                current.flags.extend(f.strip() for f in line[2:].split(",") if f.strip())
            elif line.startswith("#."):
                current.comments.append(line[2:].strip())
            else:
                current.translator_comments.append(line[1:].strip())
            continue
        if line.startswith(("msgctxt", "msgid_plural", "msgstr[")):
            raise ValueError(f"{path}:{number}: contexts and plurals are not used by envdoctor")
        if line.startswith("msgid "):
            if target is not None:
                finish()
            target = "msgid"
            current.obsolete = obsolete
            current.msgid = _unquote(line[6:], path, number)
        elif line.startswith("msgstr "):
            target = "msgstr"
            current.msgstr = _unquote(line[7:], path, number)
        elif line.startswith('"') and target is not None:
            value = _unquote(line, path, number)
            if target == "msgid":
                current.msgid += value
            else:
                current.msgstr += value
        else:
            raise ValueError(f"{path}:{number}: cannot read {raw!r}")
    finish()
    return "\n".join(header_lines), entries


def _unquote(text: str, path: Path, number: int) -> str:
    try:
        value = ast.literal_eval(text.strip())
    except (ValueError, SyntaxError) as exc:
        raise ValueError(f"{path}:{number}: bad string {text!r}") from exc
    if not isinstance(value, str):
        raise ValueError(f"{path}:{number}: bad string {text!r}")
    return value


def compile_mo(messages: dict[str, str]) -> bytes:
    """A GNU `.mo` file holding `messages` (msgid -> msgstr) and a UTF-8 header."""
    catalog = {"": "Content-Type: text/plain; charset=UTF-8\n", **messages}
    ids = sorted(catalog)
    id_bytes = [i.encode("utf-8") for i in ids]
    str_bytes = [catalog[i].encode("utf-8") for i in ids]
    count = len(ids)
    header_size = 7 * 4
    ids_table = header_size
    strs_table = ids_table + count * 8
    data_start = strs_table + count * 8
    offsets: list[int] = []
    blob = b""
    for item in id_bytes + str_bytes:
        offsets.append(data_start + len(blob))
        blob += item + b"\0"
    table_ids = b"".join(
        struct.pack("<II", len(b), o) for b, o in zip(id_bytes, offsets[:count], strict=True)
    )
    table_strs = b"".join(
        struct.pack("<II", len(b), o) for b, o in zip(str_bytes, offsets[count:], strict=True)
    )
    header = struct.pack("<7I", 0x950412DE, 0, count, ids_table, strs_table, 0, 0)
    return header + table_ids + table_strs + blob


def translated(entries: list[Entry]) -> dict[str, str]:
    """msgid -> msgstr for the live, translated entries (fuzzy ones are not trusted)."""
    return {
        e.msgid: e.msgstr
        for e in entries
        if e.msgstr and not e.obsolete and "fuzzy" not in e.flags and e.msgid
    }


def load_messages(lang: str) -> dict[str, str]:
    """msgid -> msgstr for `lang`: from the `.mo` when it is at least as new as the `.po`,
    else from the `.po`; empty when neither exists."""
    po, mo = po_path(lang), mo_path(lang)
    try:
        po_mtime = po.stat().st_mtime if po.exists() else None
        if mo.exists() and (po_mtime is None or mo.stat().st_mtime >= po_mtime):
            with mo.open("rb") as handle:
                gnu = gettext.GNUTranslations(handle)
            catalog: dict[str, str] = dict(gnu._catalog)  # type: ignore[attr-defined]
            catalog.pop("", None)
            return catalog
        if po_mtime is not None:
            return translated(read_po(po)[1])
    except (OSError, ValueError):
        return {}
    return {}


def build_mo(lang: str) -> Path:
    """Compile `lang`'s `.po` into its `.mo` (the build step); returns the `.mo` path."""
    _, entries = read_po(po_path(lang))
    path = mo_path(lang)
    path.write_bytes(compile_mo(translated(entries)))
    return path
