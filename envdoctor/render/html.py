"""HTML: one self-contained page for people (inline CSS, no scripts, nothing fetched), with the
JSON report embedded so `envdoctor triage report.html` reads it back exactly.

The JSON sits in an HTML comment between the same markers the Markdown renderer uses
(`<!-- envdoctor-report-json` … `envdoctor-report-json -->`, see `envdoctor.model.report.extract_embedded`),
with `<`, `>` and `&` written as JSON `\\u003c` / `\\u003e` / `\\u0026` escapes so no captured text
can close the comment early.
"""

from __future__ import annotations

import json
from html import escape

from envdoctor.i18n import Translator
from envdoctor.model.facts import LAYERS
from envdoctor.model.findings import Finding, Severity
from envdoctor.model.report import EMBED_END, EMBED_START, Report
from envdoctor.model.snapshot import FactGroup
from envdoctor.render import accept_view

_CSS = """
:root { --error:#b3261e; --warning:#a15c00; --info:#245f9e; --ok:#2e7d32; --muted:#5f6368;
        --line:#dadce0; --code:#f6f8fa; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK SC",
       sans-serif; color:#202124; margin:0; background:#fff; }
main { max-width: 1100px; margin: 0 auto; padding: 24px 32px 48px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 32px 0 12px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
.meta { color: var(--muted); margin: 0 0 12px; }
.counts span { display:inline-block; padding: 2px 10px; margin-right: 6px; border-radius: 12px;
               font-weight: 600; font-size: 13px; color:#fff; }
.counts .error { background: var(--error); } .counts .warning { background: var(--warning); }
.counts .info { background: var(--info); } .counts .passed { background: var(--ok); }
.counts .skipped { background: var(--muted); }
.finding { border: 1px solid var(--line); border-left: 6px solid var(--info); border-radius: 6px;
           padding: 12px 16px; margin: 0 0 12px; }
.finding.error { border-left-color: var(--error); } .finding.warning { border-left-color: var(--warning); }
.finding.symptom { margin-left: 32px; }
.finding h3 { font-size: 16px; margin: 0 0 4px; }
.tag { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; color: var(--muted); }
.sev { font-weight: 700; text-transform: uppercase; font-size: 12px; margin-right: 6px; }
.sev.error { color: var(--error); } .sev.warning { color: var(--warning); } .sev.info { color: var(--info); }
table { border-collapse: collapse; width: 100%; margin: 8px 0; }
th, td { text-align: left; vertical-align: top; padding: 4px 8px; border-bottom: 1px solid var(--line); }
th { background: var(--code); font-weight: 600; }
pre, code { font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { background: var(--code); border: 1px solid var(--line); border-radius: 4px; padding: 8px 10px;
      overflow-x: auto; white-space: pre-wrap; word-break: break-word; margin: 6px 0; }
ol.fixes { padding-left: 22px; margin: 8px 0 0; } ol.fixes li { margin-bottom: 6px; }
.risk { color: var(--muted); font-size: 13px; }
.status-collected { color: var(--ok); font-weight: 600; } .status-absent { color: var(--muted); }
.status-failed { color: var(--error); font-weight: 600; }
details { border: 1px solid var(--line); border-radius: 4px; margin: 6px 0; padding: 4px 10px; }
details > summary { cursor: pointer; }
details details { margin-left: 12px; }
footer { color: var(--muted); font-size: 13px; margin-top: 40px; }
@media print { details { break-inside: avoid; } }
"""


def render(report: Report, include_raw: bool = False, lang: str | None = None, **_: object) -> str:
    """The report as one HTML page; the JSON document is embedded in a comment at the end (in
    English whatever `lang` the page is in)."""
    from envdoctor.i18n import translator
    from envdoctor.i18n.localize import report as localized

    tr = translator(lang)
    original, report = report, localized(report, tr)
    os_group = report.snapshot.group("os")
    machine = (
        os_group.summary if os_group is not None and os_group.collected and os_group.summary else ""
    )
    title = tr(f"envdoctor {report.kind} report") + (f" — {machine}" if machine else "")
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{"zh-CN" if tr.lang == "zh" else "en"}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title>",
        f"<style>{_CSS}</style></head><body><main>",
        f"<h1>{escape(tr(f'envdoctor {report.kind} report'))}</h1>",
        f'<p class="meta">{escape(machine) if machine else escape(tr("machine unknown"))} · envdoctor '
        f"{escape(report.envdoctor_version)}"
        + (f" · {escape(report.snapshot.created_at)}" if report.snapshot.created_at else "")
        + "</p>",
        _counts(report, tr),
        _findings(report, tr),
        accept_view.html_section(report) if accept_view.applies(report) else "",
        _layers(report, tr),
        _checks(report, tr),
        _facts(report, include_raw, tr),
        tr(
            "<footer>Made by envdoctor. The full report is embedded in this file as JSON; "
            "<code>envdoctor triage FILE</code> reads it back.</footer>"
        ),
        "</main>",
        _embedded(original, include_raw),
        "</body></html>",
        "",
    ]
    return "\n".join(parts)


def _counts(report: Report, tr: Translator) -> str:
    badges = [
        f'<span class="{s.value}">{escape(tr(f"{report.count(s)} {s.value}"))}</span>'
        for s in Severity
    ]
    badges.append(f'<span class="passed">{escape(tr(f"{len(report.passed)} passed"))}</span>')
    badges.append(f'<span class="skipped">{escape(tr(f"{len(report.skipped)} skipped"))}</span>')
    return f'<p class="counts">{"".join(badges)}</p>'


def _findings(report: Report, tr: Translator) -> str:
    head = f"<h2>{escape(tr('Findings'))}</h2>"
    if not report.findings:
        return f"{head}<p>{escape(tr('No problems found.'))}</p>"
    return head + "\n" + "\n".join(_finding(f, tr) for f in report.findings)


def _finding(finding: Finding, tr: Translator) -> str:
    sev = finding.severity.value
    classes = f"finding {sev}" + (" symptom" if finding.explained_by else "")
    confidence = tr(f"{finding.confidence.value} confidence")
    out = [
        f'<article class="{classes}">',
        f'<h3><span class="sev {sev}">{escape(tr(sev))}</span>{escape(finding.title)}</h3>',
        f'<div class="tag">{escape(finding.id)} · {escape(confidence)}'
        + (
            f" · {escape(tr(f'explained by {finding.explained_by}'))}"
            if finding.explained_by
            else ""
        )
        + "</div>",
    ]
    if finding.detail:
        out.append(f"<p>{escape(finding.detail)}</p>")
    if finding.evidence:
        rows = "".join(
            f"<tr><td><code>{escape(e.fact)}</code></td><td><code>{escape(e.actual)}</code></td>"
            f"<td>{escape(e.expected or '')}</td></tr>"
            for e in finding.evidence
        )
        out.append(f"<table>{_header(tr, 'fact', 'seen', 'expected')}{rows}</table>")
    if finding.fixes:
        items = []
        for fix in finding.fixes:
            item = f'{escape(fix.summary)} <span class="risk">({escape(tr(fix.risk.value))})</span>'
            if fix.commands:
                item += f"<pre>{escape(chr(10).join(fix.commands))}</pre>"
            if fix.url:
                item += f'<div><a href="{escape(fix.url, quote=True)}">{escape(fix.url)}</a></div>'
            items.append(f"<li>{item}</li>")
        out.append(f'<ol class="fixes">{"".join(items)}</ol>')
    out.append("</article>")
    return "\n".join(out)


def _layers(report: Report, tr: Translator) -> str:
    rows = []
    for layer in LAYERS:
        groups = [
            g
            for g in report.snapshot.groups.values()
            if g.name.split(".")[0] == layer.key and g.name != "envdoctor.timings"
        ]
        if not groups:
            continue
        main = groups[0]
        text = tr((main.summary if main.collected else main.reason) or "")
        rows.append(
            f'<tr><td>{escape(tr(layer.title))}</td><td class="status-{main.status.value}">'
            f"{escape(tr(main.status.value))}</td><td>{escape(text or '')}</td></tr>"
        )
    if not rows:
        return ""
    return (
        f"<h2>{escape(tr('Layers'))}</h2><table>{_header(tr, 'layer', 'status', 'facts')}"
        + "".join(rows)
        + "</table>"
    )


def _header(tr: Translator, *names: str) -> str:
    return "<tr>" + "".join(f"<th>{escape(tr.gettext(n))}</th>" for n in names) + "</tr>"


def _checks(report: Report, tr: Translator) -> str:
    if not report.passed and not report.skipped:
        return ""
    out = [f"<h2>{escape(tr('Checks'))}</h2>"]
    if report.passed:
        out.append(f"<p>{escape(tr('Passed:'))} {escape(', '.join(sorted(report.passed)))}</p>")
    if report.skipped:
        rows = "".join(
            f"<tr><td><code>{escape(s.id)}</code></td><td>{escape(s.reason)}</td></tr>"
            for s in report.skipped
        )
        out.append(
            f"<details><summary>{escape(tr(f'Skipped ({len(report.skipped)})'))}</summary>"
            f"<table>{rows}</table></details>"
        )
    return "\n".join(out)


def _facts(report: Report, include_raw: bool, tr: Translator) -> str:
    groups = sorted(report.snapshot.groups.values(), key=lambda g: g.name)
    if not groups:
        return ""
    head = f"<h2>{escape(tr('Facts'))}</h2>\n"
    return head + "\n".join(_group(g, include_raw, tr) for g in groups)


def _group(group: FactGroup, include_raw: bool, tr: Translator) -> str:
    what = tr((group.summary if group.collected else group.reason) or "")
    head = (
        f'<summary><code>{escape(group.name)}</code> · <span class="status-{group.status.value}">'
        f"{escape(tr(group.status.value))}</span>"
        + (f" · {escape(what)}" if what else "")
        + f' <span class="tag">({escape(group.source)}, {group.confidence.value})</span></summary>'
    )
    body = []
    if group.data:
        body.append(
            f"<pre>{escape(json.dumps(group.data, indent=2, sort_keys=True, ensure_ascii=False))}</pre>"
        )
    if include_raw:
        for name, text in sorted(group.raw.items()):
            body.append(
                f"<details><summary>raw: <code>{escape(name)}</code></summary>"
                f"<pre>{escape(text)}</pre></details>"
            )
    return f"<details>{head}{''.join(body)}</details>"


def _embedded(report: Report, include_raw: bool) -> str:
    document = json.dumps(report.to_dict(include_raw=include_raw), sort_keys=True, indent=1)
    safe = document.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
    return f"{EMBED_START}\n{safe}\n{EMBED_END}"
