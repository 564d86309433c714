"""Markdown: paste-ready for a ticket, with the JSON report embedded so it reads back exactly."""

from __future__ import annotations

import json

from envdoctor.model.facts import LAYERS, summary_rank
from envdoctor.model.report import EMBED_END, EMBED_START, Report
from envdoctor.render import accept_view

_ICON = {"error": "✗", "warning": "!", "info": "i"}


def render(report: Report, include_raw: bool = False, lang: str | None = None, **_: object) -> str:
    """The report as Markdown; the full JSON document sits in an HTML comment at the end (in
    English whatever `lang` the words are in, so it reads back the same)."""
    from envdoctor.i18n import translator
    from envdoctor.i18n.localize import report as localized

    tr = translator(lang)
    original, report = report, localized(report, tr)
    heading = "envdoctor report" if report.kind == "report" else f"envdoctor {report.kind} report"
    lines = [f"## {tr(heading)}", ""]
    os_summary = _summary(report, "os")
    if os_summary:
        lines += [f"**{tr('Machine:')}** {_escape(os_summary)}", ""]
    counts = ", ".join(_plural(report.count(s), s.value) for s in _severities())
    absent = sum(1 for s in report.skipped if s.not_present)
    summary = tr(
        f"{counts} · {_plural(len(report.passed), 'check')} passed · "
        f"{absent} not applicable · {len(report.skipped) - absent} skipped"
    )
    lines += [f"**{tr('Findings:')}** {summary}", ""]
    if accept_view.applies(report):
        lines += accept_view.markdown_lines(report)
    if report.findings:
        lines += [f"### {tr('Findings')}", ""]
        for finding in report.findings:
            indent = "  " if finding.explained_by else ""
            severity = tr(finding.severity.value)
            confidence = tr(f"{finding.confidence.value} confidence")
            lines.append(
                f"{indent}- {_ICON[finding.severity.value]} **{_escape(finding.title)}** "
                f"(`{finding.id}`, {severity}, {confidence})"
            )
            if finding.detail:
                lines.append(f"{indent}  {_escape(finding.detail)}")
            for ev in finding.evidence:
                expected = tr(f"(expected {_escape(ev.expected)})") if ev.expected else ""
                if expected and not expected.startswith("（"):  # full-width needs no space
                    expected = " " + expected
                lines.append(f"{indent}  - {_escape(ev.fact)}: `{ev.actual}`{expected}")
            for rank, fix in enumerate(finding.fixes, start=1):
                lines.append(f"{indent}  {rank}. {_escape(fix.summary)} — *{tr(fix.risk.value)}*")
                for assumption in fix.assumptions:
                    lines.append(f"{indent}     {tr(f'assumption: {_escape(assumption)}')}")
                if fix.commands:
                    lines.append("")
                    lines.append(f"{indent}     ```sh")
                    lines += [f"{indent}     {c}" for c in fix.commands]
                    lines.append(f"{indent}     ```")
                    lines.append("")
                if fix.url:
                    lines.append(f"{indent}     <{fix.url}>")
        lines.append("")
    lines += [
        f"### {tr('Layers')}",
        "",
        f"| {tr.gettext('layer')} | {tr.gettext('status')} | {tr.gettext('facts')} |",
        "|---|---|---|",
    ]
    for layer in LAYERS:
        groups = sorted(
            (
                g
                for g in report.snapshot.groups.values()
                if g.name.split(".")[0] == layer.key and g.name != "envdoctor.timings"
            ),
            key=lambda g: summary_rank(g.name),
        )
        if not groups:
            continue
        main = next((g for g in groups if g.collected and g.summary), groups[0])
        text = tr((main.summary if main.collected else main.reason) or "")
        status = tr(main.status.value)
        lines.append(f"| {tr(layer.title)} | {status} | {_escape(text or '')} |")
    lines.append("")
    document = json.dumps(original.to_dict(include_raw=include_raw), sort_keys=True, indent=1)
    lines += [EMBED_START, document.replace("-->", "--\\u003e"), EMBED_END, ""]
    return "\n".join(lines)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _summary(report: Report, name: str) -> str | None:
    group = report.snapshot.group(name)
    return group.summary if group is not None and group.collected else None


def _severities():
    from envdoctor.model.findings import Severity

    return list(Severity)


def _escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
