"""`envdoctor explain ID`: the help page of a finding."""

from __future__ import annotations

import argparse

from envdoctor.commands import Outcome, UsageError


def add_parser(subparsers) -> None:  # noqa: ANN001
    """Register `explain`."""
    parser = subparsers.add_parser(
        "explain", help="explain a finding id", description="Print the help page of a finding id."
    )
    parser.add_argument("id", help="a finding id, e.g. torch.python-unsupported")


def run(args: argparse.Namespace) -> Outcome:
    """Look the id up among the checks and print its help."""
    from envdoctor.checks import find_check, load_checks

    chk = find_check(args.id)
    if chk is None:
        known = sorted({i for c in load_checks() for i in c.ids})
        close = [k for k in known if args.id.split(".")[0] == k.split(".")[0]][:8]
        hint = f"; ids in that area: {', '.join(close)}" if close else ""
        raise UsageError(f"no finding id {args.id!r}{hint}")
    from envdoctor.i18n import translator

    tr = translator(getattr(args, "ui_lang", None))
    others = [i for i in chk.ids if i != args.id]
    lines = [args.id, "=" * len(args.id), "", tr.gettext(chk.help), ""]
    if chk.needs:
        lines.append(tr(f"Needs facts: {', '.join(chk.needs)}"))
    if others:
        lines.append(tr(f"Same check also reports: {', '.join(others)}"))
    return Outcome(stdout="\n".join(lines).rstrip() + "\n")
