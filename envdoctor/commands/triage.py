"""`envdoctor triage [FILE|-]`: diagnose pasted text, logs and saved reports.

The input (a file, or stdin with `-`) streams through the readers (`envdoctor.ingest`) into one
snapshot of origin "pasted"; `--here` completes it with this machine's live facts (live facts win
where both exist, since they are first-hand). The triage engine (`envdoctor.triage_engine`) runs the
fact checks, evaluates the causes once and ranks the findings (see `envdoctor.triage_engine.rank`); this
module reads the input and renders the report.

Inputs over 50 MiB are refused (exit 2), as are unreadable files. Undecodable bytes are replaced;
input that is mostly not text, and an envdoctor report that cannot be read back, are refused
with the reason, and the output never echoes the paste's secrets and UUIDs (`triage_input`).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable
from typing import BinaryIO

from envdoctor.commands import Outcome, UsageError
from envdoctor.commands.limits import seconds_type
from envdoctor.commands.output_options import add_output_arguments
from envdoctor.model.report import Report
from envdoctor.render import render
from envdoctor.triage_engine import triage_blocks, triage_lines


def add_parser(subparsers) -> None:  # noqa: ANN001
    """Register `triage`."""
    parser = subparsers.add_parser(
        "triage",
        help="diagnose pasted text: errors, logs, collect_env, nvidia-smi, reports",
        description="Read error messages, logs, `python -m torch.utils.collect_env`, nvidia-smi, "
        "docker info, pip/conda lists or an envdoctor report, and explain the causes "
        "and fixes.",
    )
    parser.add_argument(
        "file",
        nargs="?",
        default=None,
        metavar="FILE",
        help="the text to diagnose; '-' or nothing reads stdin",
    )
    add_output_arguments(parser)
    parser.add_argument(
        "--here",
        action="store_true",
        help="also collect this machine's live facts and merge them in",
    )
    parser.add_argument(
        "--redact",
        action="store_true",
        help="also replace user and host names, addresses and serials in the output "
        "(secrets and UUIDs of the input are never echoed)",
    )
    parser.add_argument(
        "--timeout",
        type=seconds_type("--timeout"),
        default=20.0,
        metavar="S",
        help="deadline for the live probes of --here, in seconds (default: 20)",
    )


def run(args: argparse.Namespace) -> Outcome:
    """Read the input, diagnose it, render the report."""
    from envdoctor.commands.triage_input import InputWatch, redacted
    from envdoctor.diagnosis.pipeline import exit_code_for

    label = "standard input" if args.file in (None, "-") else args.file
    watch = InputWatch(_input_blocks(args.file), label)
    report = triage_blocks(watch, here=args.here, timeout_s=args.timeout)
    problem = watch.problem(report)
    if problem:
        raise UsageError(problem)
    shown, redactor = redacted(report, identifiers=args.redact)
    text = render(shown, args.format, verbose=args.verbose, lang=getattr(args, "ui_lang", None))
    if redactor.leaks(text):
        raise RuntimeError("redaction check failed: a replaced value survived rendering")
    return Outcome(stdout=text, exit_code=exit_code_for(report, args.fail_on))


def triage_text(text: str, here: bool = False, timeout_s: float = 20.0) -> Report:
    """The triage report of a text (for tests and library use)."""
    return triage_blocks(_text_blocks(text), here, timeout_s)


def _text_blocks(text: str) -> list[str]:
    from envdoctor.ingest import clean_block

    return [clean_block(text)] if text else []


# ---------------------------------------------------------------------------------------------
# Input


def _input_blocks(path: str | None) -> Iterable[str]:
    """The input as cleaned blocks of whole lines, streamed; UsageError when unreadable."""
    from envdoctor.ingest import MAX_INPUT_BYTES

    if path in (None, "-"):
        if path is None and sys.stdin is not None and sys.stdin.isatty():
            raise UsageError(
                "triage: give a FILE, or pipe the text in (envdoctor triage - < log.txt)"
            )
        stream = sys.stdin.buffer if sys.stdin is not None else None
        if stream is None:
            raise UsageError("triage: no standard input to read")
        from envdoctor.commands.triage_input import read_counted

        stream = read_counted(stream, "standard input", MAX_INPUT_BYTES)
        return _checked(_read_stream(stream, "standard input"))
    if os.path.isdir(path):
        raise UsageError(f"triage: {path} is a directory, not a file")
    try:
        size = os.path.getsize(path)
    except OSError as exc:
        raise UsageError(f"triage: cannot read {path}: {exc.strerror or exc}") from exc
    if size > MAX_INPUT_BYTES:
        raise UsageError(
            f"triage: {path} is {size / 1048576:.0f} MiB; triage reads at most "
            f"{MAX_INPUT_BYTES / 1048576:g} MiB (cut the log to the part around the error)"
        )
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed by _read_stream
    except OSError as exc:
        raise UsageError(f"triage: cannot read {path}: {exc.strerror or exc}") from exc
    if not os.path.isfile(path):  # a FIFO or a device: no size to check first, so count
        from envdoctor.commands.triage_input import read_counted

        with handle:
            return _checked(_read_stream(read_counted(handle, path, MAX_INPUT_BYTES), path))
    return _checked(_read_stream(handle, path, close=True))


def _read_stream(stream: BinaryIO, label: str, close: bool = False) -> Iterable[str]:
    from envdoctor.ingest import MAX_INPUT_BYTES, InputTooLarge, iter_decoded_blocks

    try:
        yield from iter_decoded_blocks(stream, MAX_INPUT_BYTES)
    except InputTooLarge as exc:
        raise UsageError(
            f"triage: {label}: {exc}; triage reads at most {MAX_INPUT_BYTES / 1048576:g} MiB"
        ) from exc
    except OSError as exc:
        raise UsageError(f"triage: cannot read {label}: {exc.strerror or exc}") from exc
    finally:
        if close:
            stream.close()


def _checked(blocks: Iterable[str]) -> Iterable[str]:
    """The blocks, with a usage error if the input holds nothing but white space."""
    seen_text = False
    for block in blocks:
        seen_text = seen_text or bool(block.strip())
        yield block
    if not seen_text:
        raise UsageError("triage: the input is empty: nothing to diagnose")


__all__ = ["triage_blocks", "triage_lines", "triage_text"]
