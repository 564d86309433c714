"""`envdoctor fit` output: the JSON document (stable), a terminal table (rich; plain text when not a
terminal or NO_COLOR is set) and Markdown for a ticket."""

from __future__ import annotations

import io
import json
import os
import shlex
import sys
from collections.abc import Callable

from envdoctor import __version__
from envdoctor.fit import estimate as fit
from envdoctor.fit.plan import Plan, Target

SCHEMA_VERSION = 1
ArgvFor = Callable[[fit.Workload, "Target | None"], str]


def document(p: Plan, argv_for: ArgvFor) -> dict:
    """The JSON document: top-level fits / total_gib / vram_gib / gpu, the breakdown, assumptions,
    alternatives, precision, rule of thumb and application view."""
    w, est = p.estimate.workload, p.estimate
    return {
        "schema_version": SCHEMA_VERSION,
        "envdoctor_version": __version__,
        "kind": "fit",
        "fits": p.fits,
        "total_gib": round(est.total_gib, 2),
        "vram_gib": None
        if p.target is None or p.target.vram_gib is None
        else round(p.target.vram_gib, 2),
        "headroom_gib": None if p.headroom_gib is None else round(p.headroom_gib, 2),
        "gpu": None if p.target is None else p.target.to_dict(),
        "workload": {
            "params": w.params,
            "params_label": fit.count_label(w.params),
            "dtype": w.dtype,
            "task": w.task,
            "context": w.context,
            "batch": w.batch,
            "optimizer": w.optimizer if w.training else None,
            "checkpointing": w.checkpointing,
            "attention": "flash" if w.flash_attention else "eager",
            "lora_rank": w.lora_rank if w.task in ("lora", "qlora") else None,
            "gpus": w.gpus,
            "offload_optimizer": w.offload_optimizer,
        },
        "shape": w.shape.to_dict(),
        "breakdown": [t.to_dict() for t in est.terms],
        "precision": None if p.precision is None else p.precision.to_dict(),
        "assumptions": list(est.assumptions),
        "alternatives": [
            a.to_dict(i, argv_for(a.workload, a.target) if a.workload else None)
            for i, a in enumerate(p.alternatives, start=1)
        ],
        "rule_of_thumb": {
            **fit.rule_of_thumb(w.params),
            "this_estimate_gb": round(est.total_bytes / 1e9, 1),
        },
        "apps": p.apps,
    }


def render_json(p: Plan, argv_for: ArgvFor) -> str:
    """Sorted-key JSON."""
    return json.dumps(document(p, argv_for), sort_keys=True, indent=2) + "\n"


def _verdict_line(p: Plan) -> tuple[str, str, str]:
    total = p.estimate.total_gib
    per = " per GPU" if p.estimate.workload.gpus > 1 else ""
    if p.precision is not None and p.precision.ok is False:
        return "✗", "bold red", f"Will not run as asked: {p.precision.detail}"
    if p.fits is None:
        why = (
            p.target.note
            if p.target is not None and p.target.note
            else "no GPU memory size known (no GPU detected here): give --gpu NAME or --vram GiB"
        )
        return "?", "bold magenta", f"Needs {total:.1f} GiB{per}; fit not judged: {why}"
    vram = (p.target.vram_gib if p.target else None) or 0.0
    if p.fits:
        return (
            "✓",
            "bold green",
            f"Fits: needs {total:.1f} GiB{per} of {vram:.1f} GiB ({vram - total:.1f} GiB spare)",
        )
    return "✗", "bold red", f"Does not fit: needs {total:.1f} GiB{per}, the GPU has {vram:.1f} GiB"


def _gpu_line(t: Target | None) -> str:
    if t is None:
        return "GPU: none detected here"
    bits = [t.name or "a GPU"]
    if t.compute_capability:
        bits.append(
            f"compute capability {t.compute_capability}" + (f", {t.arch}" if t.arch else "")
        )
    if t.vram_gib is not None:
        bits.append(f"{t.vram_gib:.1f} GiB each" if t.count > 1 else f"{t.vram_gib:.1f} GiB")
    if t.count > 1:
        bits.append(f"{t.count} GPUs, interconnect {t.interconnect}")
    line = "GPU: " + " · ".join(bits) + f"  ({t.source})"
    return line + (f"; {t.note}" if t.note and t.vram_gib is not None else "")


def _title(p: Plan) -> str:
    w = p.estimate.workload
    model = f" ({w.shape.name})" if w.shape.name else ""
    parts = [
        f"{fit.count_label(w.params)} parameters{model}",
        w.dtype,
        w.task,
        f"context {w.context}",
        f"batch {w.batch}",
    ]
    if w.training:
        parts.append(w.optimizer + (" + checkpointing" if w.checkpointing else ""))
    if w.gpus > 1:
        parts.append(f"{w.gpus} GPUs")
    return "envdoctor fit · " + " · ".join(parts)


def render_text(
    p: Plan, argv_for: ArgvFor, width: int | None = None, color: bool | None = None
) -> str:
    """The terminal view."""
    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    if color is None:
        color = (
            sys.stdout.isatty()
            and "NO_COLOR" not in os.environ
            and os.environ.get("TERM") != "dumb"
        )
    buffer = io.StringIO()
    console = Console(
        file=buffer,
        width=width or 100,
        force_terminal=color,
        color_system="standard" if color else None,
        no_color=not color,
        highlight=False,
        emoji=False,
        soft_wrap=False,
    )
    console.print(Text(_title(p), style="bold"))
    console.print(_gpu_line(p.target))
    table = Table(box=box.SIMPLE, show_edge=False, pad_edge=False)
    table.add_column("term")
    table.add_column("GiB", justify="right")
    table.add_column("formula")
    for term in p.estimate.terms:
        table.add_row(
            Text(term.label + (" ~" if term.estimate else "")),
            Text(f"{term.gib:.2f}"),
            Text(f"{term.formula}  [{term.formula_id}]"),
        )
    table.add_row(
        Text("total" + (" per GPU" if p.estimate.workload.gpus > 1 else ""), style="bold"),
        Text(f"{p.estimate.total_gib:.2f}", style="bold"),
        "" if p.target is None or p.target.vram_gib is None else f"of {p.target.vram_gib:.2f} GiB",
    )
    console.print(table)
    mark, style, line = _verdict_line(p)
    console.print(Text(mark + " ", style=style) + Text(line, style="bold"))
    if p.precision is not None and p.precision.ok is not False and p.precision.severity != "info":
        console.print(Text("! ", style="bold yellow") + Text(p.precision.detail))
    if p.precision is not None and p.precision.ok is False and p.precision.alternative:
        console.print(Text("→ ", style="green") + Text(p.precision.alternative))
    rule = fit.rule_of_thumb(p.estimate.workload.params)
    console.print(Text(_rule_line(p, rule), style="dim"))
    if p.alternatives:
        console.print()
        console.print(Text("What to change, in order", style="bold underline"))
        for rank, alt in enumerate(p.alternatives, start=1):
            state = "" if alt.total_gib is None else f" → {alt.total_gib:.1f} GiB"
            ok = {True: ("✓", "green"), False: ("✗", "red"), None: ("?", "magenta")}[alt.fits]
            console.print(
                Text(f"  {rank}. ") + Text(ok[0], style=ok[1]) + Text(f" {alt.summary}{state}")
            )
            if alt.how:
                console.print(Text(f"       {alt.how}", style="dim"))
            if alt.workload is not None:
                console.print(
                    Text("       $ ", style="dim")
                    + Text(argv_for(alt.workload, alt.target), style="cyan")
                )
    apps = _app_lines(p)
    if apps:
        console.print()
        console.print(Text("Applications", style="bold underline"))
        for line in apps:
            console.print(Text(f"  {line}"))
    console.print()
    console.print(Text("Assumptions", style="bold underline"))
    for line in p.estimate.assumptions:
        console.print(Text(f"  - {line}", style="dim"))
    console.print(Text(f"  - {p.apps.get('shared_memory', '')}", style="dim"))
    return "".join(line.rstrip() + "\n" for line in buffer.getvalue().splitlines())


def _rule_line(p: Plan, rule: dict) -> str:
    w = p.estimate.workload
    gb = p.estimate.total_bytes / 1e9 * max(1, w.gpus)
    low, high = (
        (rule["inference_gb"], rule["inference_gb"]) if not w.training else rule["training_gb"]
    )
    where = (
        "within it"
        if low <= gb <= high * 1.1
        else f"{gb / high:.1f}× its upper end"
        if gb > high
        else f"{gb / low:.2f}× its lower end"
    )
    return (
        f"Rule of thumb (fp16 weights 2 B/param): {rule['inference_gb']:.1f} GB to load, "
        f"{rule['training_gb'][0]:.0f}-{rule['training_gb'][1]:.0f} GB to train; this estimate: "
        f"{gb:.1f} GB ({gb * 1e9 / fit.GIB:.1f} GiB) in all, {where}"
    )


def _app_lines(p: Plan) -> list[str]:
    lines = []
    ollama = p.apps.get("ollama") or []
    if ollama:
        shown = ", ".join(f"{o['tag']} ({o['size_gb']:g} GB{_ok(o['fits'])})" for o in ollama)
        lines.append(
            f"Ollama tags of this size: {shown} (download size; the KV cache comes on top)"
        )
    gguf = p.apps.get("gguf") or []
    if gguf:
        lines.append(
            "llama.cpp files: "
            + ", ".join(f"{g['quant']} ≈ {g['file_gib']:.1f} GiB{_ok(g['fits'])}" for g in gguf)
        )
    flags = [f for f in p.apps.get("image_ui_flags") or [] if f.get("applies")]
    for flag in flags:
        lines.append(
            f"{flag['app']} on ≤ {flag['vram_gib_max']:g} GiB: {flag['flag']} — {flag['meaning']}"
        )
    return lines


def _ok(value: bool | None) -> str:
    return {True: ", fits", False: ", too big", None: ""}[value]


def render_markdown(p: Plan, argv_for: ArgvFor) -> str:
    """A Markdown section for a ticket."""
    mark, _, line = _verdict_line(p)
    out = [
        f"## {_title(p)}",
        "",
        _gpu_line(p.target),
        "",
        f"**{mark} {line}**",
        "",
        "| term | GiB | formula | id |",
        "|---|---:|---|---|",
    ]
    for term in p.estimate.terms:
        out.append(
            f"| {term.label}{' (estimate)' if term.estimate else ''} | {term.gib:.2f} | "
            f"{term.formula} | `{term.formula_id}` |"
        )
    out.append(f"| **total** | **{p.estimate.total_gib:.2f}** | | |")
    if p.alternatives:
        out += ["", "### What to change", ""]
        for rank, alt in enumerate(p.alternatives, start=1):
            state = "" if alt.total_gib is None else f" → {alt.total_gib:.1f} GiB"
            cmd = f" — `{argv_for(alt.workload, alt.target)}`" if alt.workload else ""
            out.append(f"{rank}. {alt.summary}{state}{cmd}")
    out += ["", "### Assumptions", ""] + [f"- {a}" for a in p.estimate.assumptions]
    out.append(f"- {p.apps.get('shared_memory', '')}")
    return "\n".join(out) + "\n"


def quote(parts: list[str]) -> str:
    """A shell command line."""
    return " ".join(shlex.quote(x) for x in parts)
