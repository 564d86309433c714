"""Sub-commands. Each module defines `add_parser(subparsers)` and `run(args) -> Outcome`.

Commands return what to print and the exit code; only `envdoctor.cli` prints and exits.
"""

from __future__ import annotations

from dataclasses import dataclass

# Listed explicitly, in help order. Add a module here when you add a command.
COMMAND_MODULES: tuple[str, ...] = (
    "check",
    "explain",
    "matrices_cmd",
    "preflight",
    "report",
    "triage",
    "fit",
    "fleet",
    "mcp",
    "accept",
)

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3


@dataclass
class Outcome:
    """What a command produced: text for stdout and stderr, the exit code, and optionally a
    command to exec into (preflight)."""

    stdout: str = ""
    stderr: str = ""
    exit_code: int = EXIT_OK
    exec_argv: list[str] | None = None


class UsageError(Exception):
    """Bad arguments or unreadable input: a one-line message, exit 2."""
