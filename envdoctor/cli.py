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


LANG_HELP = "language of the words: zh (Chinese) or en; default: the locale for text, Markdown and HTML, English for JSON"


def build_parser(only: str | None = None, lang: str | None = None) -> argparse.ArgumentParser:
    """The full argument parser, or with `only` (a COMMAND_MODULES name) just that command's, so
    a command does not import the others (preflight's start-up stays a few times `python -c pass`).
    Every command takes `--lang`; with `lang` the help texts are in that language."""
    parser = _Parser(
        prog="envdoctor", description="Environment compatibility doctor for GPU and ML machines."
    )
    parser.add_argument("--version", action="version", version=f"envdoctor {__version__}")
    parser.add_argument("--lang", choices=("zh", "en"), help=LANG_HELP)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    subparsers.required = True
    for name in (only,) if only else COMMAND_MODULES:
        importlib.import_module(f"envdoctor.commands.{name}").add_parser(subparsers)
    for sub in subparsers.choices.values():
        _add_lang(sub)
    if lang and lang != "en":
        from envdoctor.i18n.cli_help import translate_parser

        translate_parser(parser, lang)
    return parser


def _add_lang(parser: argparse.ArgumentParser) -> None:
    """`--lang` on a command and on its own sub-commands (`matrices list --lang zh`)."""
    parser.add_argument("--lang", choices=("zh", "en"), default=argparse.SUPPRESS, help=LANG_HELP)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                _add_lang(sub)


def _lang_option(argv: list[str]) -> str | None:
    """The `--lang` value in argv, read before parsing so that --help and errors use it."""
    for i, word in enumerate(argv):
        if word == "--":
            break
        if word == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if word.startswith("--lang="):
            return word.split("=", 1)[1]
    return None


def _ui_lang(argv: list[str], fmt: str = "text") -> str:
    from envdoctor.i18n import resolve_lang

    explicit = _lang_option(argv)
    return resolve_lang(explicit if explicit in ("zh", "en") else None, fmt, os.environ)


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
    ui = _ui_lang(argv)  # for help, errors and plain text; reports decide per format below
    try:
        parser = build_parser(_named_command(argv), ui)
        args = parser.parse_args(argv)
        fmt = getattr(args, "format", None) or "text"
        args.ui_lang = _ui_lang(argv, fmt)
        outcome = _run_command(args)
    except UsageError as exc:
        message = _usage_message(_one_line(str(exc)), ui)
        _write(
            sys.stderr,
            (message if message.startswith("envdoctor") else f"envdoctor: {message}") + "\n",
        )
        return EXIT_USAGE
    except KeyboardInterrupt as exc:  # the commands probes started are ended by then
        signum = getattr(exc, "signum", 2)
        word = "envdoctor: terminated" if signum == 15 else "envdoctor: interrupted"
        _write(sys.stderr, _translated(word, ui) + "\n")
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
    if args.ui_lang != "en" and args.command not in _RENDERS_ITSELF:
        outcome.stdout = _translated(outcome.stdout, args.ui_lang)
    lost = _write(sys.stdout, outcome.stdout)
    _write(sys.stderr, _translated(outcome.stderr, ui))
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


def _run_command(args: argparse.Namespace) -> Outcome:
    """The chosen command's outcome; those that compile hundreds of regular expressions keep
    them between runs (`regex_cache`)."""
    name = _module_for(args.command)
    with contextlib.ExitStack() as stack:
        if name in _KEEPS_REGEXES:
            from envdoctor.regex_cache import kept_regexes

            stack.enter_context(kept_regexes())
        outcome: Outcome = importlib.import_module(f"envdoctor.commands.{name}").run(args)
    return outcome


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


# commands that compile hundreds of patterns (the readers', the triage vocabularies', the signatures');
# preflight stays out: its start-up is a few times `python -c pass`
_KEEPS_REGEXES = frozenset({"check", "explain", "report", "triage"})

# commands whose output is already in the chosen language (a rendered report, a help page)
_RENDERS_ITSELF = frozenset({"check", "triage", "report", "explain"})


def _usage_message(text: str, lang: str) -> str:
    """A usage error in `lang`; its "envdoctor check: " prefix is a command name, kept as
    written (a template must not read "check" as a word to translate)."""
    translated = _translated(text, lang)
    prog, sep, rest = text.partition(": ")
    if sep and prog.startswith("envdoctor") and not translated.startswith(prog + sep):
        return prog + sep + _translated(rest, lang)
    return translated


def _translated(text: str, lang: str) -> str:
    """Plain command output in `lang`, line by line (a line no message matches stays)."""
    if lang == "en" or not text:
        return text
    from envdoctor.i18n import translator
    from envdoctor.i18n.plain import translate_line

    tr = translator(lang)
    return "".join(
        translate_line(line[:-1], tr) + "\n" if line.endswith("\n") else translate_line(line, tr)
        for line in text.splitlines(keepends=True)
    )


def _module_for(command: str) -> str:
    for name in COMMAND_MODULES:
        if name == command or name == f"{command}_cmd":
            return name
    raise UsageError(f"unknown command {command!r}")


MAX_MESSAGE = 2000  # characters of an error line: a pasted 100 KB argument is not echoed whole


def _one_line(text: str) -> str:
    """`text` on one line, cut to MAX_MESSAGE characters (an input echoed in it may be huge)."""
    line = " ".join(text.split())
    return line if len(line) <= MAX_MESSAGE else line[: MAX_MESSAGE - 1] + "…"


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
