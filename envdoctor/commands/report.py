"""`envdoctor report`: one file for a helpdesk — snapshot, findings and the raw captures behind
them, redacted by default.

    envdoctor report [-o FILE] [--format json|markdown|html|text] [--no-redact] [--node-name NAME]
                     [probe options]

Without -o the report goes to `envdoctor-report.<ext>` in the current directory; `-o -` writes
it to stdout. The format follows the file's extension unless --format is given (default
Markdown). The file is written to a temporary file in the same folder and renamed into place, so
a failed write leaves an earlier report intact. `envdoctor triage FILE` reads any of the JSON,
Markdown and HTML forms back.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping
from pathlib import Path

from envdoctor.atomic import write_text_atomically
from envdoctor.commands import Outcome, UsageError
from envdoctor.commands.check import add_probe_arguments, probe_options
from envdoctor.commands.limits import output_path

FORMATS = ("markdown", "json", "html", "text")
_EXTENSIONS = {"markdown": "md", "json": "json", "html": "html", "text": "txt"}
_BY_SUFFIX = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".json": "json",
    ".html": "html",
    ".htm": "html",
    ".txt": "text",
}


def add_parser(subparsers) -> None:  # noqa: ANN001
    """Register `report`."""
    parser = subparsers.add_parser(
        "report",
        help="write a redacted report file for a helpdesk",
        description="Diagnose this machine and write one file with the facts, the findings and the "
        "raw tool output behind them. User and host names, addresses, GPU UUIDs and "
        "serials and secrets are replaced by pseudonyms unless --no-redact is given.",
    )
    parser.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        type=output_path,
        help="where to write (default: envdoctor-report.<ext>; - for stdout)",
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default=None,
        help="markdown (default), json, html or text; default from FILE's extension",
    )
    parser.add_argument(
        "--no-redact",
        action="store_true",
        help="keep user/host names, addresses, GPU UUIDs, serials and secrets as they are",
    )
    parser.add_argument(
        "--node-name",
        metavar="NAME",
        type=_node_name,
        default=None,
        help="label the report with this node name for `envdoctor fleet` (kept as "
        "given, except that a redacted report replaces a host name)",
    )
    add_probe_arguments(parser)


def run(args: argparse.Namespace) -> Outcome:
    """Collect, diagnose, redact, render and write the report."""
    from envdoctor.diagnosis.pipeline import collect_live, diagnose
    from envdoctor.fleet.aggregate import node_group

    fmt = args.format or _BY_SUFFIX.get(Path(args.output or "").suffix.lower(), "markdown")
    target = args.output or f"envdoctor-report.{_EXTENSIONS[fmt]}"
    if target != "-":
        folder = Path(target).resolve().parent
        if not folder.is_dir():
            raise UsageError(f"-o {target}: folder {folder} does not exist")
    options = probe_options(args)
    if args.root != "/" and not os.path.isdir(args.root):
        raise UsageError(f"--root {args.root}: not a directory")
    snapshot = collect_live(options, root=args.root)
    snapshot.add(node_group(args.node_name, redacted=not args.no_redact))
    report = diagnose(snapshot, kind="report")
    text, note = build(report, fmt, redact=not args.no_redact, lang=_report_lang(args, fmt))
    if target == "-":
        return Outcome(stdout=text, stderr=note)
    try:
        write_atomically(Path(target), text, private=args.no_redact)
    except OSError as exc:
        raise UsageError(
            f"cannot write {target}: {exc.strerror or exc}; nothing was changed"
        ) from None
    size_kib = len(text.encode("utf-8")) / 1024
    return Outcome(stderr=f"envdoctor report: wrote {target} ({fmt}, {size_kib:.0f} KiB). {note}")


def _report_lang(args: argparse.Namespace, fmt: str) -> str:
    """The words' language: --lang, else the locale for a human format (the format here may
    come from the file's extension, after the CLI's own guess)."""
    from envdoctor.i18n import resolve_lang

    return resolve_lang(getattr(args, "lang", None), fmt, os.environ)


def _node_name(text: str) -> str:
    """argparse type of --node-name (a usage error names the bad value)."""
    from envdoctor.fleet.aggregate import node_label

    try:
        return node_label(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def build(
    report,
    fmt: str,
    redact: bool = True,
    env: Mapping[str, str] | None = None,  # noqa: ANN001
    hostnames: tuple[str, ...] | None = None,
    lang: str | None = None,
) -> tuple[str, str]:
    """The rendered report text and a one-line note on redaction.

    Redaction runs on the whole JSON document (facts, raw captures, finding texts) before any
    renderer sees it; a rendered text that still holds a replaced value is refused.
    """
    from envdoctor.model.report import Report
    from envdoctor.render import render
    from envdoctor.render.redact import redact_document

    if not redact:
        text = render(report, fmt, include_raw=True, verbose=True, color=False, lang=lang)
        return (
            text,
            "Not redacted (--no-redact): it holds names, addresses, GPU serials and any secrets found.\n",
        )
    users, hosts = machine_identifiers(os.environ if env is None else env, hostnames)
    doc, redactor = redact_document(report.to_dict(include_raw=True), users, hosts)
    text = render(
        Report.from_dict(doc),
        fmt,
        include_raw=True,
        verbose=True,
        color=False,
        lang=lang,
    )
    leaked = redactor.leaks(text)
    if leaked:
        raise RuntimeError(
            f"redaction check failed: a {', '.join(leaked)} value survived rendering "
            f"as {fmt}; nothing was written"
        )
    counts = redactor.summary()
    what = ", ".join(f"{n} {kind}" for kind, n in counts.items()) or "nothing found to replace"
    return text, f"Redacted: {what}. Read it before sharing.\n"


def machine_identifiers(
    env: Mapping[str, str], hostnames: tuple[str, ...] | None = None
) -> tuple[set[str], set[str]]:
    """This machine's user and host names, to seed redaction (they may appear anywhere)."""
    users = {env.get(k, "") for k in ("USER", "LOGNAME", "USERNAME", "SUDO_USER")}
    home = env.get("HOME", "")
    if home.startswith(("/home/", "/Users/")):
        users.add(home.rstrip("/").rsplit("/", 1)[-1])
    if hostnames is None:
        import socket

        hostnames = (socket.gethostname(),)
    hosts = set(hostnames) | {env.get("HOSTNAME", "")}
    return {u for u in users if u}, {h for h in hosts if h}


def write_atomically(path: Path, text: str, private: bool = False) -> None:
    """Write the report through a temporary file and a rename (an existing file survives any
    failure); `private` makes it readable by its owner only (0600), else 0644. A character device
    or a FIFO (`-o /dev/null`, `-o >(gzip > r.gz)`) is written into, never replaced."""
    write_text_atomically(path, text, mode=0o600 if private else 0o644, into_special=True)
