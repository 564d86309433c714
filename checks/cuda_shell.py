"""Shell fixes shared by the CUDA checks: the exact `export` / `unset` for a variable, and the
line to delete (or rewrite) in the shell start-up file that sets it. Not a check module."""

from __future__ import annotations

import shlex
from collections.abc import Iterable
from typing import Any

from envdoctor.model.findings import Fix, Risk

SYSTEM_PREFIXES = ("/etc/",)


def profile_lines(
    env: dict[str, Any] | None, variable: str, mentioning: Iterable[str] = ()
) -> list[dict[str, Any]]:
    """Start-up file lines (from cuda.env) that set `variable`, and mention one of `mentioning`
    when given."""
    wanted = [m for m in mentioning if m]
    lines = []
    for line in (env or {}).get("profile_lines", []):
        if variable not in line.get("variables", []):
            continue
        if wanted and not any(m in line["text"] for m in wanted):
            continue
        lines.append(line)
    return lines


def delete_lines_fix(lines: list[dict[str, Any]], why: str) -> Fix | None:
    """One fix deleting these start-up file lines (one sed per file, numbers as found)."""
    if not lines:
        return None
    by_file: dict[str, list[dict[str, Any]]] = {}
    for line in lines:
        by_file.setdefault(line["file"], []).append(line)
    commands = []
    described = []
    for path, group in by_file.items():
        expressions = " ".join(f"-e '{line['line']}d'" for line in group)
        commands.append(f"sed -i.bak {expressions} {shlex.quote(path)}")
        described += [f"line {line['line']} of {path} (`{line['text']}`)" for line in group]
    root_note = " (as root)" if any(p.startswith(SYSTEM_PREFIXES) for p in by_file) else ""
    return Fix(
        f"Delete {', '.join(described)}{root_note} {why}, then open a new shell",
        tuple(commands),
        Risk.SAFE,
    )


def replace_line_fix(line: dict[str, Any], new_text: str, why: str) -> Fix:
    """A fix rewriting one start-up file line to `new_text`."""
    escaped = (
        new_text.replace("\\", "\\\\").replace("|", "\\|").replace("&", "\\&").replace("'", "'\\''")
    )
    root_note = " (as root)" if line["file"].startswith(SYSTEM_PREFIXES) else ""
    return Fix(
        f"Change line {line['line']} of {line['file']} (`{line['text']}`) to `{new_text}`{root_note} "
        f"{why}, then open a new shell",
        (f"sed -i.bak '{line['line']}s|.*|{escaped}|' {shlex.quote(line['file'])}",),
        Risk.SAFE,
    )


def set_variable_command(variable: str, entries: list[str] | None) -> str:
    """`export VAR=a:b` for the remaining entries, or `unset VAR` when none remain."""
    if not entries:
        return f"unset {variable}"
    return f"export {variable}={shlex.quote(':'.join(entries))}"


def without(entries: list[str], drop: Iterable[str]) -> list[str]:
    """`entries` minus the ones in `drop`, order kept."""
    dropped = set(drop)
    return [e for e in entries if e not in dropped]
