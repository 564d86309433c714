"""The terminal view: a flutter-doctor-like list per layer, causes first, the first fix under each.

Laid out by `text_layout`; plain text (no colour, no escape codes) when the output is not a
terminal or NO_COLOR is set. Not for parsing: use --json.
"""

from __future__ import annotations

import os
import shutil
import sys

from envdoctor.i18n import Translator
from envdoctor.model.facts import LAYERS, summary_rank
from envdoctor.model.findings import Finding, Severity
from envdoctor.model.report import Report
from envdoctor.model.snapshot import FactGroup, Status
from envdoctor.render.text_layout import Part, cell_len, wrapped
from envdoctor.render.text_layout import one_line as _one_line

_MARK = {
    Severity.ERROR: ("✗", "bold red"),
    Severity.WARNING: ("!", "bold yellow"),
    Severity.INFO: ("i", "cyan"),
}
_OK = ("✓", "bold green")
_NONE = ("-", "dim")
_FAILED = ("?", "bold magenta")


def render(
    report: Report,
    verbose: bool = False,
    width: int | None = None,
    color: bool | None = None,
    clip: bool | None = None,
    lang: str | None = None,
    **_: object,
) -> str:
    """The report as terminal text. `color=None` decides from the environment (NO_COLOR);
    `lang` is the language of the words (None: English).

    `clip` cuts each layer's summary line at `width` (default: only on a terminal, so a copy
    saved to a file or piped on keeps every fact whatever COLUMNS says)."""
    from envdoctor.i18n import translator
    from envdoctor.i18n.localize import report as localized

    tr = translator(lang)
    report = localized(report, tr)
    if color is None:
        color = (
            _is_tty(sys.stdout)
            and "NO_COLOR" not in os.environ
            and os.environ.get("TERM") != "dumb"
        )
    tty = _is_tty(sys.stdout)
    if clip is None:
        clip = tty
    if width is None:
        width = shutil.get_terminal_size((100, 24)).columns if tty else 100
    lines: list[str] = []

    def line(*parts: tuple[str, str] | str, indent: int = 0, one_line: bool = False) -> None:
        runs: list[Part] = [p if isinstance(p, tuple) else (p, None) for p in parts]
        if one_line:  # one line per layer: cut on a terminal, whole anywhere else
            lines.append(_one_line(runs, width, indent=indent, clip=bool(clip), color=color))
        else:  # wrap long lines under their own indentation
            lines.extend(wrapped(runs, width, indent=indent, color=color))

    def blank() -> None:
        lines.append("")

    title = f"envdoctor {report.envdoctor_version} · {report.kind}"
    os_group = report.snapshot.group("os")
    if os_group is not None and os_group.collected and os_group.summary:
        title += f" · {os_group.summary}"
    line((title, "bold"), one_line=True)
    blank()

    problems = [
        f for f in report.findings if f.severity is not Severity.INFO and not f.explained_by
    ]
    first = problems[0] if problems else None
    if first is not None:
        line((tr("What to do first"), "bold underline"))
        _finding_block(line, first, verbose=False, indent=2, show_commands=True, tr=tr)
        blank()

    children: dict[str, list[Finding]] = {}
    for finding in report.findings:
        if finding.explained_by:
            children.setdefault(finding.explained_by, []).append(finding)

    def finding_tree(finding: Finding, indent: int, seen: set[int]) -> None:
        if id(finding) in seen:
            return
        seen.add(id(finding))
        if finding is first and not verbose:  # already shown in full above
            _title(line, finding, indent, tr)
        else:
            _finding_block(
                line, finding, verbose=verbose, indent=indent, show_commands=verbose, tr=tr
            )
        for child in children.get(finding.id, []):  # symptoms folded under their cause
            finding_tree(child, indent + 2, seen)

    seen: set[int] = set()
    for layer in LAYERS:
        groups = sorted(
            (
                g
                for g in report.snapshot.groups.values()
                if g.name.split(".")[0] == layer.key and g.name != "envdoctor.timings"
            ),
            key=lambda g: summary_rank(g.name),
        )
        findings = [f for f in report.findings if f.layer == layer.key]
        if not groups and not findings:
            continue
        mark = _layer_mark(groups, findings)
        summary = tr(_layer_summary(groups))
        line("[", mark, "] ", (_pad(tr(layer.title), 28), "bold"), summary, one_line=True)
        for finding in findings:
            if not finding.explained_by:
                finding_tree(finding, 4, seen)
        if verbose:
            for group in groups:
                if not group.collected:
                    status = tr(group.status.value)
                    reason = tr(group.reason or "")
                    line((f"{group.name}: {status} — {reason}", "dim"), indent=4)
    blank()
    counts = [_plural(report.count(s), s.value) for s in Severity]
    absent = sum(1 for s in report.skipped if s.not_present)
    footer = (
        f"{', '.join(counts)} · {_plural(len(report.passed), 'check')} passed · "
        f"{absent} not applicable · {len(report.skipped) - absent} skipped"
    )
    if not verbose:
        footer += " · -v for details"
    line((tr(footer), "dim"))
    if verbose:
        for skipped in report.skipped:
            label = tr("not applicable" if skipped.not_present else "skipped")
            line((f"{label} {skipped.id}: {skipped.reason}", "dim"), indent=2)
        timings = report.snapshot.data("envdoctor.timings") or {}
        probes = ", ".join(
            f"{p['name']} {p['duration_ms']:.0f} ms" for p in timings.get("probes", [])
        )
        if probes:
            line((tr(f"probe timings: {probes}"), "dim"), indent=2)
    return "".join(text.rstrip() + "\n" for text in "\n".join(lines).splitlines())


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _pad(text: str, cells: int) -> str:
    """`text` padded to `cells` terminal columns (a Chinese character takes two)."""
    return text + " " * max(0, cells - cell_len(text))


def _title(line, finding: Finding, indent: int, tr: Translator) -> None:  # noqa: ANN001
    mark = _MARK[finding.severity]
    suffix = (
        ""
        if finding.confidence.value == "high"
        else f"  ({tr(f'{finding.confidence.value} confidence')})"
    )
    line(mark, " ", (finding.title, "bold"), (suffix, "dim"), indent=indent)


def _finding_block(
    line,
    finding: Finding,
    verbose: bool,
    indent: int,  # noqa: ANN001
    show_commands: bool,
    tr: Translator,
) -> None:
    _title(line, finding, indent, tr)
    if verbose and finding.detail:
        line(finding.detail, indent=indent + 2)
    if verbose:
        for ev in finding.evidence:
            expected = tr(f"(expected {ev.expected})") if ev.expected else ""
            if expected and not expected.startswith("（"):  # full-width needs no space
                expected = " " + expected
            line((f"• {ev.fact}: {ev.actual}{expected}", "dim"), indent=indent + 2)
    fixes = finding.fixes if verbose else finding.fixes[:1]
    for rank, fix in enumerate(fixes, start=1):
        prefix = "→ " if not verbose else f"{rank}. "
        risk = "" if fix.risk.value == "safe" else f" [{tr(fix.risk.value)}]"
        line((prefix, "green"), fix.summary, (risk, "yellow"), indent=indent + 2)
        for assumption in fix.assumptions:
            line((tr(f"(assumption: {assumption})"), "yellow"), indent=indent + 4)
        if show_commands:
            for command in fix.commands:
                line(("$ ", "dim"), (command, "cyan"), indent=indent + 4)
    if verbose:
        for rejected in finding.rejected_fixes:
            line(
                (tr.gettext("✗ rejected: "), "red"),
                (f"{rejected.summary} -- {rejected.reason}", "dim"),
                indent=indent + 2,
            )
    if finding.explained_by is None and finding.explains and verbose:
        line((tr(f"explains: {', '.join(finding.explains)}"), "dim"), indent=indent + 2)


def _layer_mark(groups: list[FactGroup], findings: list[Finding]) -> tuple[str, str]:
    severities = {f.severity for f in findings}
    for severity in (Severity.ERROR, Severity.WARNING):
        if severity in severities:
            return _MARK[severity]
    if any(g.status is Status.FAILED for g in groups):
        return _FAILED
    if groups and all(g.status is Status.ABSENT for g in groups):
        return _NONE
    return _OK


def _layer_summary(groups: list[FactGroup]) -> str:
    for group in groups:  # the first collected group with a summary speaks for the layer
        if group.collected and group.summary:
            return group.summary
    for group in groups:
        if group.reason:
            return group.reason
    return ""


def _is_tty(stream: object) -> bool:
    """Whether `stream` is a terminal (False for a closed or missing stream)."""
    try:
        return bool(stream is not None and stream.isatty())  # type: ignore[attr-defined]
    except (OSError, ValueError, AttributeError):
        return False
