"""Plain command output (fit, fleet, preflight, matrices, errors) translated line by line."""

from __future__ import annotations

import re

from envdoctor.i18n import Translator

_CELL_GAP = re.compile(r"(\s{2,})")
# leading marks; a "-" only as a bullet ("- item"), not the start of an option ("--minutes")
_LEAD = re.compile(r"^\s*(?:\d+\.\s+)?(?:[\s✗✓!→•*#|>]|-(?=\s))*")


def translate_line(line: str, tr: Translator) -> str:
    """One line: a table row cell by cell, each kept to its column (a Chinese character is two
    columns wide); any other line after its leading marks (✗, →, •, indentation)."""
    from envdoctor.render.text_layout import cell_len

    body = line.strip()
    if _CELL_GAP.search(body):
        parts = _CELL_GAP.split(line)
        out = []
        for i in range(0, len(parts), 2):
            cell = parts[i]
            new = tr(cell) if cell.strip() else cell
            gap = parts[i + 1] if i + 1 < len(parts) else ""
            if gap:
                width = cell_len(cell) + len(gap)
                new += " " * max(2, width - cell_len(new))
            out.append(new)
        return "".join(out)
    lead = _LEAD.match(line)
    cut = lead.end() if lead else 0
    return line[:cut] + tr(line[cut:])
