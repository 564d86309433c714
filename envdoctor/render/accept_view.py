"""The acceptance run's own view for the HTML and Markdown reports: a results table per GPU and,
in HTML, plots of temperature, power and clocks over time (inline SVG, no script, no network)."""

from __future__ import annotations

from html import escape
from typing import Any

from envdoctor.model.report import Report

CHARTS = (
    ("temp_c", "Temperature", "°C"),
    ("power_w", "Power", "W"),
    ("sm_clock_mhz", "SM clock", "MHz"),
    ("mem_clock_mhz", "Memory clock", "MHz"),
)
WIDTH, HEIGHT, PAD = 640, 160, 36


def applies(report: Report) -> bool:
    """Whether the report holds an acceptance run."""
    return report.snapshot.has("accept.series")


def _gpus(report: Report) -> list[dict[str, Any]]:
    return list((report.snapshot.data("accept.gpus") or {}).get("gpus", []))


def _samples(report: Report, index: int) -> list[dict[str, Any]]:
    samples = (report.snapshot.data("accept.series") or {}).get("samples", [])
    return [s for s in samples if s.get("index") == index and "error" not in s]


def _result(report: Report, index: int) -> dict[str, Any]:
    results = (report.snapshot.data("accept.results") or {}).get("gpus", [])
    return next((r for r in results if r.get("index") == index), {})


def summary_rows(report: Report) -> list[dict[str, str]]:
    """One row per GPU: what each phase measured, for a listing or a buyer."""
    rows = []
    for gpu in _gpus(report):
        index = int(gpu.get("index") or 0)
        result = _result(report, index)
        samples = _samples(report, index)
        patterns = (result.get("vram") or {}).get("patterns") or []
        tested = (result.get("vram") or {}).get("tested_bytes")
        load = result.get("load") or {}
        copy = result.get("bandwidth") or {}

        rows.append(
            {
                "GPU": f"{index}: {gpu.get('name') or '?'}",
                "correct": _verdict((result.get("correctness") or {}).get("ok")),
                "VRAM tested": f"{tested / 2**30:.1f} GiB" if tested else "-",
                "VRAM mismatches": str(sum(int(p.get("mismatches") or 0) for p in patterns))
                if patterns
                else "-",
                "TFLOP/s": ", ".join(
                    f"{name} {value.get('tflops')}"
                    for name, value in load.items()
                    if isinstance(value, dict)
                )
                or "-",
                "copy GB/s (h2d/d2h)": f"{copy.get('h2d_gb_s', '-')}/{copy.get('d2h_gb_s', '-')}",
                "max °C": _peak(samples, "temp_c"),
                "max W": _peak(samples, "power_w"),
            }
        )
    return rows


def _verdict(ok: object) -> str:
    return "yes" if ok is True else "NO" if ok is False else "-"


def _peak(samples: list[dict[str, Any]], key: str) -> str:
    values = [s[key] for s in samples if isinstance(s.get(key), (int, float))]
    return f"{max(values):g}" if values else "-"


def markdown_lines(report: Report) -> list[str]:
    """The results table in Markdown."""
    rows = summary_rows(report)
    if not rows:
        return []
    keys = list(rows[0])
    lines = ["### Acceptance results", "", "| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)]
    lines += ["| " + " | ".join(row[k].replace("|", "\\|") for k in keys) + " |" for row in rows]
    return lines + [""]


def chart(samples: list[dict[str, Any]], key: str, title: str, unit: str) -> str:
    """One line chart (SVG) of `key` over `t_s`; empty when the GPU gave no such values."""
    points = [
        (float(s["t_s"]), float(s[key])) for s in samples if isinstance(s.get(key), (int, float))
    ]
    if len(points) < 2:
        return ""
    t_max = max(t for t, _ in points) or 1.0
    low, high = min(v for _, v in points), max(v for _, v in points)
    span = (high - low) or 1.0

    def xy(t: float, v: float) -> str:
        x = PAD + (WIDTH - 2 * PAD) * t / t_max
        y = HEIGHT - PAD / 2 - (HEIGHT - PAD) * (v - low) / span
        return f"{x:.1f},{y:.1f}"

    polyline = " ".join(xy(t, v) for t, v in points)
    return (
        f'<figure class="accept-chart"><figcaption>{escape(title)} ({escape(unit)}): '
        f"{low:g} to {high:g}</figcaption>"
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(title)} over time">'
        f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#fafafa" stroke="#ddd"/>'
        f'<text x="4" y="14" font-size="11">{high:g}</text>'
        f'<text x="4" y="{HEIGHT - 6}" font-size="11">{low:g}</text>'
        f'<text x="{WIDTH - PAD}" y="{HEIGHT - 6}" font-size="11">{t_max:g} s</text>'
        f'<polyline data-series="{escape(key)}" fill="none" stroke="#1f6feb" stroke-width="2" '
        f'points="{polyline}"/></svg></figure>'
    )


def html_section(report: Report) -> str:
    """The results table and, per GPU, the charts."""
    rows = summary_rows(report)
    if not rows:
        return ""
    keys = list(rows[0])
    parts = ['<section class="accept"><h2>Acceptance results</h2><table><tr>']
    parts += [f"<th>{escape(k)}</th>" for k in keys]
    parts.append("</tr>")
    for row in rows:
        parts.append("<tr>" + "".join(f"<td>{escape(row[k])}</td>" for k in keys) + "</tr>")
    parts.append("</table>")
    for gpu in _gpus(report):
        samples = _samples(report, int(gpu.get("index") or 0))
        charts = "".join(chart(samples, key, title, unit) for key, title, unit in CHARTS)
        if charts:
            parts.append(
                f"<h3>GPU {escape(str(gpu.get('index')))}: {escape(str(gpu.get('name')))}</h3>{charts}"
            )
    parts.append("</section>")
    return "".join(parts)
