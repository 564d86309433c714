"""The output options of the commands that print a report (`check`, `triage`, `report`), in a
module of their own so that `triage` does not import `check`'s probe machinery to get them."""

from __future__ import annotations

import argparse

from envdoctor.render import FORMATS


def add_output_arguments(
    parser: argparse.ArgumentParser, formats: tuple[str, ...] | None = None
) -> None:
    """--format / --json / -v, shared by the commands that print a report."""
    parser.add_argument(
        "--format",
        choices=formats or tuple(FORMATS),
        default="text",
        help="output format (default: text)",
    )
    parser.add_argument(
        "--json", action="store_const", const="json", dest="format", help="short for --format json"
    )
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
