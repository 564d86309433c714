"""The command line: parses arguments, runs a command, prints, and picks the exit code.

Exit codes: 0 no finding at or above --fail-on; 1 findings at or above it; 2 usage error or
unreadable input; 3 internal error. This is the only module that prints or exits.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import importlib
import io
import os
import sys

from envdoctor import __version__
from envdoctor.commands import COMMAND_MODULES, EXIT_INTERNAL, EXIT_USAGE, Outcome, UsageError


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors and exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The full argument parser, or with `only` (a COMMAND_MODULES name) just that command's, so
    a command does not import the others (preflight's start-up stays a few times `python -c pass`)."""
    parser = _Parser(
        prog="envdoctor", description="Environment compatibility doctor for GPU and ML machines."
    )
    parser.add_argument("--version", action="version", version=f"envdoctor {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    subparsers.required = True
    for name in (only,) if only else COMMAND_MODULES:
        importlib.import_module(f"envdoctor.commands.{name}").add_parser(subparsers)
    return parser


def _named_command(argv: list[str]) -> str | None:
    """The COMMAND_MODULES entry argv's first word names (None for options, help or a typo)."""
    if not argv or argv[0].startswith("-"):
        return None
    try:
        return _module_for(argv[0])
    except UsageError:
        return None


def main(argv: list[str] | None = None) -> int:
    """Run envdoctor; returns the exit code (or execs into a command for preflight)."""
    argv = sys.argv[1:] if argv is None else argv
    for name in ("stdout", "stderr"):  # started with `>&-` / `2>&-`: a stream that refuses writes
        if getattr(sys, name) is None:
            setattr(sys, name, _ClosedStream())
    try:
        parser = build_parser(_named_command(argv))
        args = parser.parse_args(argv)
        module = importlib.import_module(f"envdoctor.commands.{_module_for(args.command)}")
        outcome: Outcome = module.run(args)
    except UsageError as exc:
        message = _one_line(str(exc))
        _write(
            sys.stderr,
            (message if message.startswith("envdoctor") else f"envdoctor: {message}") + "\n",
        )
        return EXIT_USAGE
    except KeyboardInterrupt as exc:  # the commands probes started are ended by then
        signum = getattr(exc, "signum", 2)
        _write(sys.stderr, f"envdoctor: {'terminated' if signum == 15 else 'interrupted'}\n")
        return 128 + signum
    except Exception as exc:  # noqa: BLE001 - the last line of defence
        import traceback

        where = traceback.extract_tb(exc.__traceback__)[-1]
        _write(
            sys.stderr,
            f"envdoctor: internal error: {type(exc).__name__}: {_one_line(str(exc))} "
            f"(at {os.path.basename(where.filename)}:{where.lineno}); "
            "please report it with `envdoctor --version`\n",
        )
        return EXIT_INTERNAL
    lost = _write(sys.stdout, outcome.stdout)
    _write(sys.stderr, outcome.stderr)
    if lost and not outcome.exec_argv:  # a full disk or a closed stdout: say so, in one line
        _write(sys.stderr, f"envdoctor: cannot write the output to standard output: {lost}\n")
        return EXIT_USAGE
    if outcome.exec_argv:
        for stream in (sys.stdout, sys.stderr):  # a closed or full stream is no reason to stop
            _write(stream, "")
        try:
            os.execvp(outcome.exec_argv[0], outcome.exec_argv)
        except OSError as exc:
            _write(sys.stderr, f"envdoctor: cannot exec {outcome.exec_argv[0]}: {exc.strerror}\n")
            return 127 if isinstance(exc, FileNotFoundError) else 126
    return outcome.exit_code


def entry() -> None:
    """The `envdoctor` console script and `python -m envdoctor`: run, then end the process at once.

    When `main` returns, its output is written and every child process has been waited for, so
    the process ends with `os._exit` after a flush instead of tearing the interpreter down module
    by module: for `check`'s ~280 modules that teardown is ~15 ms of a ~200 ms run. (Preflight's
    success path never gets here: it execs the workload.) In-process callers use `main`."""
    code = main()
    for stream in (sys.stdout, sys.stderr):
        # closed, full or missing: nothing more can be said
        with contextlib.suppress(OSError, ValueError, AttributeError):
            stream.flush()
    os._exit(code)


class _ClosedStream(io.TextIOBase):
    """Stands in for a standard stream the process was started without: not a terminal (so
    renderers ask safely), and every write fails as writing to a closed descriptor does."""

    def isatty(self) -> bool:
        return False

    def write(self, text: str) -> int:
        if not text:
            return 0
        raise OSError(errno.EBADF, "it is closed")


def _module_for(command: str) -> str:
    for name in COMMAND_MODULES:
        if name == command or name == f"{command}_cmd":
            return name
    raise UsageError(f"unknown command {command!r}")


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _write(stream, text: str) -> str | None:  # noqa: ANN001
    """Write and flush `text`; the reason when it could not be written (a full disk, a closed
    stream), None when it was (or when the reader went away: a broken pipe is no error)."""
    if stream is None:  # started with the descriptor closed (`>&-`)
        return "it is closed" if text else None
    try:
        stream.write(text)
        stream.flush()
    except BrokenPipeError:
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the interpreter's flush at exit
    except UnicodeEncodeError:
        return _write(stream, text.encode("ascii", "replace").decode("ascii"))
    except (OSError, ValueError) as exc:
        return getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
    return None
