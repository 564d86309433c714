"""`envdoctor accept`: the acceptance test for a new or second-hand GPU, run and judged.

    envdoctor accept [--minutes N] [--gpu INDEX]... [--memory-fraction F] [--python PATH]
                     [--format text|json|markdown|html] [--json] [-o FILE] [--no-redact]

Runs only when asked: a correctness test, a sustained compute load, a VRAM pattern test and a
copy-bandwidth test on each selected GPU, in the target interpreter (never inside envdoctor),
while NVML samples temperature, power, clocks, throttle reasons, the PCIe link and ECC counters
(on AMD, rocm-smi: temperature, power, clocks) and the kernel log is watched for Xid lines; then
every series is judged. Ctrl-C, SIGTERM and the deadline stop the load at once (its process group
is killed) and the partial report is still written. A machine without a GPU gets one line and
exit code 2.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

from envdoctor.commands import EXIT_FINDINGS, EXIT_OK, Outcome, UsageError
from envdoctor.commands.limits import output_path
from envdoctor.model.snapshot import FactGroup

DEFAULT_MINUTES = 10.0
MAX_MINUTES = 24 * 60.0
EXIT_INTERRUPTED = 130


def add_parser(subparsers) -> None:  # noqa: ANN001
    """Register `accept`."""
    parser = subparsers.add_parser(
        "accept",
        help="acceptance test for a new or second-hand GPU (load, VRAM, thermals, PCIe), judged",
        description=(
            "Run a correctness test, a sustained load, a VRAM pattern test and a bandwidth test on "
            "each GPU while sampling temperature, power, clocks, PCIe link, ECC and Xid errors, "
            "then judge the card. Uses the GPU fully for the whole duration."
        ),
    )
    parser.add_argument(
        "--minutes",
        type=float,
        default=DEFAULT_MINUTES,
        metavar="N",
        help=f"length of the sustained load, all GPUs together (default: {DEFAULT_MINUTES:g})",
    )
    parser.add_argument(
        "--gpu", type=int, action="append", metavar="INDEX", help="test this GPU (default: all)"
    )
    parser.add_argument(
        "--memory-fraction",
        type=float,
        default=0.8,
        metavar="F",
        help="share of free VRAM the pattern test covers, 0 < F <= 0.95 (default: 0.8)",
    )
    parser.add_argument(
        "--python", metavar="PATH", help="interpreter with torch to run the load in"
    )
    parser.add_argument(
        "--interval",
        type=float,
        default=1.0,
        metavar="S",
        help="seconds between two NVML (or rocm-smi) samples, 0.1 to 60 (default: 1)",
    )
    parser.add_argument("--format", choices=("text", "json", "markdown", "html"), default="text")
    parser.add_argument("--json", action="store_const", const="json", dest="format")
    parser.add_argument(
        "-o", "--output", metavar="FILE", type=output_path, help="write the report to FILE"
    )
    parser.add_argument(
        "--no-redact", action="store_true", help="keep GPU serials and UUIDs, names and paths"
    )
    parser.add_argument(
        "--fail-on", choices=("error", "warning", "info"), default="error", help="(default: error)"
    )


def validate(args: argparse.Namespace) -> None:
    """UsageError for values out of range (non-finite numbers included)."""
    if not (math.isfinite(args.minutes) and 0 < args.minutes <= MAX_MINUTES):
        raise UsageError(f"--minutes must be a number in (0, {MAX_MINUTES:g}], not {args.minutes}")
    if not (math.isfinite(args.memory_fraction) and 0 < args.memory_fraction <= 0.95):
        raise UsageError(f"--memory-fraction must be in (0, 0.95], not {args.memory_fraction}")
    if not (math.isfinite(args.interval) and 0.1 <= args.interval <= 60):
        raise UsageError(f"--interval must be in [0.1, 60] seconds, not {args.interval}")
    if args.gpu and any(i < 0 for i in args.gpu):
        raise UsageError("--gpu takes a GPU index (0, 1, ...)")
    if args.python is not None and not Path(args.python).exists():
        raise UsageError(f"--python {args.python}: no such file")
    if args.output:
        folder = Path(args.output).resolve().parent
        if not folder.is_dir():
            raise UsageError(f"-o {args.output}: folder {folder} does not exist")


def target_python(args: argparse.Namespace) -> str:
    """--python, else the active environment's interpreter, else envdoctor's own."""
    if args.python:
        return str(args.python)
    from envdoctor.probes import target_python as choice
    from envdoctor.probes.context import ProbeContext

    return choice.choose(ProbeContext()).executable or sys.executable


def run(args: argparse.Namespace) -> Outcome:
    """Run the test, judge it, render (and write) the report."""
    from envdoctor.probes import accept_run

    validate(args)
    request = accept_run.AcceptRequest(
        python=target_python(args),
        gpus=sorted(set(args.gpu)) if args.gpu else None,
        seconds=args.minutes * 60.0,
        memory_fraction=args.memory_fraction,
        interval_s=args.interval,
    )
    interrupted = False
    try:
        groups = accept_run.run(request)
    except accept_run.NoGpu as exc:
        raise UsageError(f"envdoctor accept: {exc}") from None
    except KeyboardInterrupt as exc:
        partial: list[FactGroup] | None = getattr(exc, "groups", None)
        if partial is None:
            raise
        groups, interrupted = partial, True
    return _outcome(args, groups, interrupted)


def _outcome(args: argparse.Namespace, groups: list[FactGroup], interrupted: bool) -> Outcome:
    from envdoctor.commands.report import build, write_atomically
    from envdoctor.diagnosis.pipeline import collect_live, diagnose, exit_code_for
    from envdoctor.probes.context import ProbeOptions

    snapshot = collect_live(ProbeOptions(timeout_s=5.0), modules=("os_info",))
    snapshot.extend(groups)
    report = diagnose(snapshot, kind="accept", check_modules=("accept",))
    text, note = build(report, args.format, redact=not args.no_redact)
    code = EXIT_OK if exit_code_for(report, args.fail_on) == 0 else EXIT_FINDINGS
    if interrupted:
        code = EXIT_INTERRUPTED
    stopped = "envdoctor accept: interrupted; the load was stopped. " if interrupted else ""
    if not args.output:
        return Outcome(stdout=text, stderr=stopped, exit_code=code)
    try:
        write_atomically(Path(args.output), text, private=args.no_redact)
    except OSError as exc:
        raise UsageError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    return Outcome(
        stderr=f"{stopped}envdoctor accept: wrote {args.output} ({args.format}). {note}",
        exit_code=code,
    )
