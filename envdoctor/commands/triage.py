"""`envdoctor triage [FILE|-]`: diagnose pasted text, logs and saved reports.

The input (a file, or stdin with `-`) streams through the readers (`envdoctor.ingest`) into one
snapshot of origin "pasted"; `--here` completes it with this machine's live facts (live facts win
where both exist, since they are first-hand). The same checks as `envdoctor check` run on it,
plus the error signatures (checks/signatures), and the findings are ranked for triage:

- one finding per id: when a fact-based check and a signature report the same id, the report
  keeps the fact-based finding (its evidence is exact) and adds the signature's matched line and
  fixes it lacks (`merge_duplicates`); a pasted envdoctor report's own findings are added after
  the current checks' and merge the same way (the current check's finding is the base);
- causes keep their symptoms folded under them; blocks of findings that a signature matched come
  first, by the signature's score (how telling the message is, plus the facts that confirm it),
  then by severity and confidence (`rank_for_triage`).

Inputs over 50 MB are refused (exit 2), as are unreadable files. Undecodable bytes are replaced.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import BinaryIO

from envdoctor.commands import Outcome, UsageError
from envdoctor.commands.check import add_output_arguments
from envdoctor.findings import SEVERITY_ORDER, Finding, order
from envdoctor.render import render
from envdoctor.report import Report
from envdoctor.snapshot import CONFIDENCE_ORDER, Snapshot

MAX_FIXES = 6


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
        "--timeout",
        type=float,
        default=20.0,
        metavar="S",
        help="deadline for the live probes of --here, in seconds (default: 20)",
    )


def run(args: argparse.Namespace) -> Outcome:
    """Read the input, diagnose it, render the report."""
    from envdoctor.diagnose import exit_code_for

    blocks = _input_blocks(args.file)
    report = triage_blocks(blocks, here=args.here, timeout_s=args.timeout)
    text = render(report, args.format, verbose=args.verbose, lang=getattr(args, "ui_lang", None))
    return Outcome(stdout=text, exit_code=exit_code_for(report, args.fail_on))


def triage_text(text: str, here: bool = False, timeout_s: float = 20.0) -> Report:
    """The triage report of a text (for tests and library use)."""
    from envdoctor.ingest import clean_block

    return triage_blocks([clean_block(text)] if text else [], here, timeout_s)


def triage_lines(lines: Iterable[str], here: bool = False, timeout_s: float = 20.0) -> Report:
    """The triage report of an input given line by line."""
    from envdoctor.ingest import _blocks_of

    return triage_blocks(_blocks_of(lines), here, timeout_s)


def triage_blocks(blocks: Iterable[str], here: bool = False, timeout_s: float = 20.0) -> Report:
    """The triage report of an input given as cleaned blocks of whole lines."""
    from envdoctor.checks.signatures import match_scores
    from envdoctor.diagnose import active_matrices, diagnose
    from envdoctor.ingest import ingest_blocks

    snapshot = ingest_blocks(blocks)
    if here:
        snapshot = with_live_facts(snapshot, timeout_s)
    matrices = active_matrices()
    report = diagnose(snapshot, kind="triage", matrices=matrices)
    findings = report.findings + reported_findings(snapshot)
    report.findings = rank_for_triage(findings, match_scores(snapshot, matrices))
    return report


def reported_findings(snapshot: Snapshot) -> list[Finding]:
    """The findings of a pasted envdoctor report (`pasted.report`), those that still parse."""
    out = []
    for item in (snapshot.data("pasted.report") or {}).get("findings", []):
        try:
            out.append(replace(Finding.from_dict(item), explained_by=None))
        except ValueError:
            continue
    return out


def with_live_facts(pasted: Snapshot, timeout_s: float) -> Snapshot:
    """The pasted snapshot completed with this machine's live facts; live groups win."""
    from envdoctor.context import ProbeOptions
    from envdoctor.diagnose import collect_live

    if timeout_s <= 0:
        raise UsageError(f"--timeout must be positive, not {timeout_s:g}")
    live = collect_live(ProbeOptions(timeout_s=timeout_s))
    merged = live.merged_with(pasted)
    merged.origin = "pasted"
    return merged


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
        return _checked(_read_stream(stream, "standard input"))
    if os.path.isdir(path):
        raise UsageError(f"triage: {path} is a directory, not a file")
    try:
        size = os.path.getsize(path)
    except OSError as exc:
        raise UsageError(f"triage: cannot read {path}: {exc.strerror or exc}") from exc
    if size > MAX_INPUT_BYTES:
        raise UsageError(
            f"triage: {path} is {size / 1048576:.0f} MB; triage reads at most "
            f"{MAX_INPUT_BYTES // 1048576} MB (cut the log to the part around the error)"
        )
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed by _read_stream
    except OSError as exc:
        raise UsageError(f"triage: cannot read {path}: {exc.strerror or exc}") from exc
    return _checked(_read_stream(handle, path, close=True))


def _read_stream(stream: BinaryIO, label: str, close: bool = False) -> Iterable[str]:
    from envdoctor.ingest import MAX_INPUT_BYTES, InputTooLarge, iter_decoded_blocks

    try:
        yield from iter_decoded_blocks(stream, MAX_INPUT_BYTES)
    except InputTooLarge as exc:
        raise UsageError(
            f"triage: {label}: {exc}; triage reads at most {MAX_INPUT_BYTES // 1048576} MB"
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


# ---------------------------------------------------------------------------------------------
# Ranking


def _is_signature(finding: Finding) -> bool:
    return any(e.fact == "signature" for e in finding.evidence)


def merge_duplicates(findings: list[Finding]) -> list[Finding]:
    """One finding per id, in first-seen order. A fact-based finding is kept as the base; the
    other's evidence and fixes it lacks are added; the higher severity and confidence win."""
    merged: dict[str, Finding] = {}
    for finding in findings:
        have = merged.get(finding.id)
        merged[finding.id] = finding if have is None else _merge(have, finding)
    return list(merged.values())


def _merge(a: Finding, b: Finding) -> Finding:
    base, other = (b, a) if _is_signature(a) and not _is_signature(b) else (a, b)
    evidence = list(base.evidence)
    for ev in other.evidence:
        if all((ev.fact, ev.actual) != (e.fact, e.actual) for e in evidence):
            evidence.append(ev)
    fixes = list(base.fixes)
    for fix in other.fixes:
        if len(fixes) < MAX_FIXES and all(fix.summary != f.summary for f in fixes):
            fixes.append(fix)
    severity = min((base.severity, other.severity), key=lambda s: SEVERITY_ORDER[s])
    confidence = min((base.confidence, other.confidence), key=lambda c: CONFIDENCE_ORDER[c])
    explains = tuple(dict.fromkeys(base.explains + other.explains))
    return replace(
        base,
        evidence=tuple(evidence),
        fixes=tuple(fixes),
        severity=severity,
        confidence=confidence,
        explains=explains,
        explained_by=None,
        rejected_fixes=base.rejected_fixes + other.rejected_fixes,
    )


def rank_for_triage(findings: list[Finding], scores: Mapping[str, int]) -> list[Finding]:
    """Deduplicated findings, causes first with their symptoms folded under them, blocks that a
    signature matched first by the signature's score."""
    unique = [replace(f, explained_by=None) for f in merge_duplicates(findings)]
    blocks: list[list[Finding]] = []
    for finding in order(unique):
        if finding.explained_by is None or not blocks:
            blocks.append([finding])
        else:
            blocks[-1].append(finding)

    def key(block: list[Finding]) -> tuple[int, int, int, str]:
        root = block[0]
        score = max(scores.get(f.id, 0) for f in block)
        return (-score, SEVERITY_ORDER[root.severity], CONFIDENCE_ORDER[root.confidence], root.id)

    return [f for block in sorted(blocks, key=key) for f in block]


__all__ = ["merge_duplicates", "rank_for_triage", "triage_blocks", "triage_lines", "triage_text"]
