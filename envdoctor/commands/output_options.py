"""The output options of the commands that print a report (`check`, `triage`, `report`) or a
result (`fit`), in a module of their own so that `triage` does not import `check`'s probe
machinery to get them."""

from __future__ import annotations

import argparse


def add_format_arguments(parser: argparse.ArgumentParser, formats: tuple[str, ...]) -> None:
    """--format (one of `formats`, default text) and --json, its short form."""
    parser.add_argument(
        "--format",
        choices=formats,
        default="text",
        help="output format (default: text)",
    )
    parser.add_argument(
        "--json", action="store_const", const="json", dest="format", help="short for --format json"
    )


def add_output_arguments(
    parser: argparse.ArgumentParser, formats: tuple[str, ...] | None = None
) -> None:
    """--format / --json / -v / --fail-on, shared by the commands that print a report."""
    from envdoctor.render import FORMATS

    add_format_arguments(parser, formats or tuple(FORMATS))
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="show evidence, every fix with its commands, and probe timings",
    )
    parser.add_argument(
        "--fail-on",
        choices=("error", "warning", "info"),
        default="error",
        help="exit 1 when a finding is at least this severe (default: error)",
    )
