"""`envdoctor fleet PATH…`: many nodes' reports in one view.

    envdoctor fleet PATH… [--format text|json|markdown] [--json] [--jobs N]

Each PATH is a report file or a folder searched recursively for `*.json`, `*.md`, `*.markdown`,
`*.html` and `*.htm` (hidden files skipped). Every envdoctor report form reads: the JSON document,
and the Markdown and HTML reports through their embedded JSON. A file that is not a readable
report is listed as unreadable with a one-line reason. Many files are read by a pool of processes
(`--jobs`, default: one per CPU, at most 8, from 200 files on).

Exit codes: 0 no node has a GPU health fault, 1 at least one does, 2 a PATH does not exist or no
file in them is a readable report.
"""

from __future__ import annotations

import argparse
import codecs
import json
import os
import stat
from pathlib import Path
from typing import Any

from envdoctor.commands import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, Outcome, UsageError
from envdoctor.commands.limits import FLEET_JOBS_MAX, whole_type
from envdoctor.fleet.aggregate import NodeSummary, Unreadable

FORMATS = ("text", "json", "markdown")
SUFFIXES = (".json", ".md", ".markdown", ".html", ".htm")
MAX_BYTES = 50 * 1024 * 1024  # the same limit as triage
PARALLEL_FROM = 200  # files; below this a pool costs more than it saves
MAX_JOBS = 8


def add_parser(subparsers) -> None:  # noqa: ANN001
    """Register `fleet`."""
    parser = subparsers.add_parser(
        "fleet",
        help="aggregate many nodes' reports: stacks, outliers, GPU faults",
        description="Read envdoctor reports (JSON, Markdown or HTML) of many nodes and show the "
        "nodes grouped by driver, CUDA, torch and toolkit, the nodes that differ from "
        "the fleet majority, and the nodes with GPU health faults with the commands "
        "that take them out of service.",
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="report files or folders of them")
    parser.add_argument(
        "--format", choices=FORMATS, default="text", help="output format (default: text)"
    )
    parser.add_argument(
        "--json", action="store_const", const="json", dest="format", help="short for --format json"
    )
    parser.add_argument(
        "--jobs",
        type=whole_type("--jobs", 0, FLEET_JOBS_MAX),
        default=0,
        metavar="N",
        help="processes reading the reports (default: one per CPU, at most 8, "
        f"from {PARALLEL_FROM} files on)",
    )


def run(args: argparse.Namespace) -> Outcome:
    """Find the reports, read them, aggregate and render."""
    from envdoctor.fleet.aggregate import aggregate
    from envdoctor.fleet.render import render

    if args.jobs < 0:
        raise UsageError(f"--jobs must be 0 (automatic) or more, not {args.jobs}")
    files = report_files(args.paths)
    nodes, unreadable = read_reports(files, jobs=args.jobs, application_xids=_application_xids())
    fleet = aggregate(nodes, unreadable)
    text = render(fleet, args.format)
    if not fleet.nodes:
        return Outcome(
            stdout=text,
            stderr=f"envdoctor fleet: none of the {len(files)} files is a readable "
            "envdoctor report\n",
            exit_code=EXIT_USAGE,
        )
    return Outcome(stdout=text, exit_code=EXIT_FINDINGS if fleet.faulty else EXIT_OK)


def report_files(paths: list[str]) -> list[str]:
    """The report files named or found under `paths` (sorted per folder); UsageError when a PATH
    is missing or nothing is found."""
    files: list[str] = []
    for given in paths:
        path = Path(given)
        if path.is_file():
            files.append(given)
        elif path.is_dir():
            found = []
            for folder, subfolders, names in os.walk(given):
                subfolders[:] = sorted(d for d in subfolders if not d.startswith("."))
                found += [
                    os.path.join(folder, n)
                    for n in sorted(names)
                    if not n.startswith(".") and n.lower().endswith(SUFFIXES)
                ]
            files += found
        elif path.exists():
            raise UsageError(f"{given}: not a file or folder")
        else:
            raise UsageError(f"{given}: no such file or folder")
    if not files:
        raise UsageError(f"no report files ({', '.join(SUFFIXES)}) in {' '.join(paths)}")
    return list(dict.fromkeys(files))


def read_reports(
    files: list[str], jobs: int = 0, application_xids: frozenset[int] = frozenset()
) -> tuple[list[NodeSummary], list[Unreadable]]:
    """Read every file (in a process pool when there are many); never raises for a bad file."""
    workers = _workers(len(files), jobs)
    results: list[NodeSummary | Unreadable] = []
    if workers > 1:
        results = _read_in_pool(files, workers, application_xids)
    if not results:
        results = read_chunk(files, application_xids)
    nodes = [r for r in results if isinstance(r, NodeSummary)]
    unreadable = [r for r in results if isinstance(r, Unreadable)]
    return nodes, unreadable


def read_node(
    path: str, application_xids: frozenset[int] = frozenset()
) -> NodeSummary | Unreadable:
    """One report file as a node summary, or the one-line reason it cannot be read."""
    from envdoctor.fleet.aggregate import summarize

    try:
        document = load_document(path)
        return summarize(
            document, path, name_path=os.path.abspath(path), application_xids=application_xids
        )
    except ValueError as exc:
        return Unreadable(path, _one_line(str(exc)))
    except OSError as exc:
        return Unreadable(path, f"cannot read: {exc.strerror or exc}")
    except (TypeError, KeyError, AttributeError, RecursionError) as exc:
        return Unreadable(path, _one_line(f"malformed report: {type(exc).__name__}: {exc}"))


def load_document(path: str) -> Any:
    """The JSON document of a report file (JSON, or Markdown/HTML with the JSON embedded);
    ValueError with the reason when there is none."""
    from envdoctor.model.report import EMBED_END, EMBED_START, extract_embedded

    found = os.stat(path)
    if not stat.S_ISREG(found.st_mode):  # /dev/zero never ends; a FIFO may never be written
        raise ValueError("not a regular file (a device, a FIFO or a socket): not read")
    size = found.st_size
    if size == 0:
        raise ValueError("empty file")
    if size > MAX_BYTES:
        raise ValueError(f"larger than {MAX_BYTES // (1024 * 1024)} MiB ({size / 1048576:.0f} MiB)")
    with open(path, "rb") as handle:
        data = handle.read()
    text = _decode(data)
    candidate = extract_embedded(text)
    if candidate is None:
        if EMBED_START in text and EMBED_END not in text:
            raise ValueError("truncated: the embedded report JSON has no end marker")
        candidate = text.strip()
        if not candidate.startswith("{"):
            raise ValueError(
                "no envdoctor report in it (not a JSON document, and no embedded report JSON)"
            )
    try:
        return json.loads(candidate)
    except json.JSONDecodeError as exc:
        raise ValueError(
            f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None
    except RecursionError:
        raise ValueError("not valid JSON: nested too deeply") from None


def _decode(data: bytes) -> str:
    """UTF-8 (a BOM dropped), or UTF-16 with a BOM (PowerShell's `>` writes that); bad bytes replaced."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16", errors="replace")
    return data.decode("utf-8-sig", errors="replace")


def _one_line(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= 200 else line[:199] + "…"


def _workers(count: int, jobs: int) -> int:
    if jobs:
        return max(1, min(jobs, count))
    if count < PARALLEL_FROM:
        return 1
    return max(1, min(os.cpu_count() or 1, MAX_JOBS))


def read_chunk(
    files: list[str], application_xids: frozenset[int] = frozenset()
) -> list[NodeSummary | Unreadable]:
    """Read these files (a pool worker's share; top-level so it can be pickled).

    The cyclic garbage collector is paused meanwhile: parsed JSON holds no cycles and is freed by
    reference counting, and the collector's passes over the growing heap cost about a tenth.
    """
    import gc

    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return [read_node(f, application_xids) for f in files]
    finally:
        if was_enabled:
            gc.enable()


def _application_xids() -> frozenset[int]:
    from envdoctor.diagnosis.pipeline import active_matrices
    from envdoctor.fleet.aggregate import application_xid_codes

    return application_xid_codes(active_matrices())


def _read_in_pool(
    files: list[str], workers: int, application_xids: frozenset[int]
) -> list[NodeSummary | Unreadable]:
    """Read in `workers` processes; [] when no pool can be started (the caller reads in-process)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from functools import partial

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    size = max(1, min(256, len(files) // (workers * 4) or 1))
    chunks = [files[i : i + size] for i in range(0, len(files), size)]
    try:
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            return [
                result
                for chunk in pool.map(
                    partial(read_chunk, application_xids=application_xids), chunks
                )
                for result in chunk
            ]
    except (OSError, RuntimeError, ImportError) as exc:  # no /dev/shm, a sandbox without fork, …
        del exc
        return []
