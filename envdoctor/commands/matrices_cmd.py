"""`envdoctor matrices list|show NAME|lint`: the compatibility data."""

from __future__ import annotations

import argparse

from envdoctor.commands import Outcome, UsageError


def add_parser(subparsers) -> None:  # noqa: ANN001
    """Register `matrices` and its actions."""
    parser = subparsers.add_parser(
        "matrices",
        help="list, show or lint the compatibility matrices",
        description="Inspect the compatibility matrices envdoctor uses.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    actions.add_parser("list", help="each matrix with its version, rows and newest checked date")
    show = actions.add_parser("show", help="print one matrix's rows")
    show.add_argument("name")
    lint = actions.add_parser("lint", help="validate the matrices (exit 1 on any error)")
    lint.add_argument("--dir", help="lint this folder instead of the bundled set")
    update = actions.add_parser("update", help="install a newer, verified matrix set")
    update.add_argument(
        "--url", help="https URL of a .tar.gz of matrix files (default: $ENVDOCTOR_MATRICES_URL)"
    )
    update.add_argument(
        "--sha256",
        help="the bundle's SHA-256, verified before unpacking "
        "(default: $ENVDOCTOR_MATRICES_SHA256)",
    )
    actions.add_parser("rollback", help="go back to the previously active set (or the bundled one)")


def run(args: argparse.Namespace) -> Outcome:
    """Dispatch to the action."""
    from envdoctor.diagnosis.pipeline import active_matrices
    from envdoctor.matrix.loader import lint

    if args.action in ("update", "rollback"):
        return _update_or_rollback(args)
    if args.action == "lint":
        _, errors = lint(args.dir) if args.dir else lint()
        if errors:
            text = "\n".join(str(e) for e in errors)
            return Outcome(stdout=text + f"\n{len(errors)} error(s)\n", exit_code=1)
        ms, _ = lint(args.dir) if args.dir else lint()
        rows = sum(len(t.rows) for t in ms.tables.values())
        return Outcome(stdout=f"{len(ms.tables)} matrices, {rows} rows: no errors\n")
    ms = active_matrices()
    if args.action == "list":
        lines = [f"{'name':<26} {'schema':>6} {'rows':>5}  {'checked':<10}  title", "-" * 90]
        for name in ms.names():
            table = ms.table(name)
            checked = table.newest_checked.isoformat() if table.newest_checked else "-"
            lines.append(
                f"{name:<26} {table.schema_version:>6} {len(table.rows):>5}  {checked:<10}  "
                f"{table.title}"
            )
        lines.append(f"set: {ms.origin}")
        if ms.errors:
            lines.append(f"{len(ms.errors)} file error(s): run 'envdoctor matrices lint'")
        return Outcome(stdout="\n".join(lines) + "\n")
    found = ms.get(args.name)
    if found is None:
        raise UsageError(f"no matrix {args.name!r}; known: {', '.join(ms.names())}")
    table = found
    lines = [f"{table.name}: {table.title}", table.description, ""]
    columns = list(table.columns)
    for row in table.rows:
        cells = [f"{c}={_cell(row[c])}" for c in columns if c in row]
        flag = " (unverified)" if row.get("unverified") else ""
        lines.append("  " + ", ".join(cells) + flag)
        lines.append(f"    source: {row.get('source')}  checked: {row.get('checked')}")
    return Outcome(stdout="\n".join(lines) + "\n")


def _update_or_rollback(args: argparse.Namespace) -> Outcome:
    import os

    from envdoctor.matrix.update import CacheError, UpdateError, rollback, update

    try:
        if args.action == "rollback":
            return Outcome(stdout=f"active matrix set: {rollback()}\n")
        url = args.url or os.environ.get("ENVDOCTOR_MATRICES_URL")
        digest = args.sha256 or os.environ.get("ENVDOCTOR_MATRICES_SHA256")
        if not url or not digest:
            raise UsageError(
                "matrices update needs --url and --sha256 (no default update source is configured)"
            )
        name = update(url, digest)
    except CacheError as exc:
        raise UsageError(f"matrices {args.action}: {exc}") from None
    except UpdateError as exc:
        return Outcome(stderr=f"envdoctor: update refused: {exc}\n", exit_code=1)
    return Outcome(stdout=f"installed and activated matrix set {name}\n")


def _cell(value: object) -> str:
    if isinstance(value, list):
        return "[" + " ".join(str(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} {v}" for k, v in value.items()) + "}"
    return str(value)
