"""`envdoctor check`: diagnose this machine."""

from __future__ import annotations

import argparse

from envdoctor.commands import Outcome, UsageError
from envdoctor.commands.limits import TIMEOUT_MAX_S, existing_path, seconds_type
from envdoctor.commands.output_options import add_output_arguments
from envdoctor.probes.context import ProbeOptions
from envdoctor.render import render


def add_parser(subparsers) -> None:  # noqa: ANN001
    """Register `check`."""
    parser = subparsers.add_parser(
        "check",
        help="diagnose this machine",
        description="Inspect every layer of this machine and explain "
        "what stands in the way of GPU work.",
    )
    add_output_arguments(parser)
    add_probe_arguments(parser)


def add_probe_arguments(parser: argparse.ArgumentParser) -> None:
    """The options that steer the probes, shared by check, report and preflight."""
    parser.add_argument(
        "--python",
        metavar="PATH",
        help="inspect this interpreter's environment "
        "(a venv or conda python) instead of envdoctor's own",
    )
    parser.add_argument(
        "--deep",
        action="store_true",
        help="also run a tiny GPU test in the target interpreter (subprocess, with a deadline)",
    )
    parser.add_argument(
        "--timeout",
        type=seconds_type("--timeout"),
        default=20.0,
        metavar="S",
        help=f"overall deadline for all probes in seconds (default: 20, at most {TIMEOUT_MAX_S:g})",
    )
    parser.add_argument(
        "--app",
        action="append",
        default=[],
        metavar="NAME",
        help="also judge this machine for an application (comfyui, vllm, ollama, ...)",
    )
    parser.add_argument(
        "--app-dir",
        action="append",
        default=[],
        metavar="DIR",
        help="an application checkout to inspect (ComfyUI, stable-diffusion-webui, ...)",
    )
    parser.add_argument(
        "--image", metavar="IMAGE", help="diagnose a container image against this host"
    )
    parser.add_argument(
        "--root",
        metavar="DIR",
        default="/",
        help="inspect an unpacked root filesystem instead of / (default: /)",
    )


def probe_options(args: argparse.Namespace) -> ProbeOptions:
    """ProbeOptions from parsed arguments; UsageError on bad values."""
    try:
        existing_path("--python", args.python, "executable")
        for folder in args.app_dir:
            existing_path("--app-dir", folder, "dir")
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return ProbeOptions(
        python=args.python,
        deep=args.deep,
        timeout_s=args.timeout,
        apps=tuple(a.lower() for a in args.app),
        app_dirs=tuple(args.app_dir),
        image=args.image,
    )


def run(args: argparse.Namespace) -> Outcome:
    """Diagnose the machine and render the report."""
    import os

    from envdoctor.diagnosis.pipeline import collect_live, diagnose, exit_code_for

    options = probe_options(args)
    if args.root != "/" and not os.path.isdir(args.root):
        raise UsageError(f"--root {args.root}: not a directory")
    if args.image:
        from envdoctor.diagnosis.image_inspect import ImageInspectError, collect_for_image

        try:
            snapshot = collect_for_image(args.image, options)
        except ImageInspectError as exc:
            raise UsageError(f"--image {args.image}: {exc}") from exc
    elif args.root != "/":
        from envdoctor.diagnosis.image_inspect import collect_for_root

        snapshot = collect_for_root(args.root, options)
    else:
        snapshot = collect_live(options, root=args.root)
    from envdoctor.diagnosis.pipeline import active_matrices

    matrices = active_matrices()
    report = diagnose(snapshot, kind="check", matrices=matrices)
    text = render(report, args.format, verbose=args.verbose, lang=getattr(args, "ui_lang", None))
    return Outcome(
        stdout=text,
        stderr=matrix_notes(matrices) if args.verbose else "",
        exit_code=exit_code_for(report, args.fail_on),
    )


def matrix_notes(matrices: object) -> str:
    """The matrix set's notes (a damaged cache or update set aside), one `envdoctor:` line each."""
    notes = dict.fromkeys(getattr(matrices, "notes", []))
    return "".join(f"envdoctor: {note}\n" for note in notes)
