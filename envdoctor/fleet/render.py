"""The fleet view in three forms: plain text for a terminal, JSON (the stable API) and Markdown.

Each takes a `envdoctor.fleet.aggregate.Fleet`; none imports rich, so 10,000 nodes render in milliseconds.
"""

from __future__ import annotations

import json
from typing import Any

from envdoctor import __version__
from envdoctor.fleet.aggregate import (
    STACK_FIELDS,
    STACK_TITLES,
    Action,
    Fleet,
    NodeSummary,
    hostlist,
)

FLEET_SCHEMA_VERSION = 1
_NONE = "—"
_LIST_LIMIT = 12  # hostlist entries per stack row in text and Markdown


def render(fleet: Fleet, fmt: str) -> str:
    """The fleet view as "text", "json" or "markdown"."""
    return {"text": render_text, "json": render_json, "markdown": render_markdown}[fmt](fleet)


# -- JSON ---------------------------------------------------------------------------------------


def to_dict(fleet: Fleet) -> dict[str, Any]:
    """The fleet's JSON document (keys sorted when dumped; fields are only ever added)."""
    return {
        "schema_version": FLEET_SCHEMA_VERSION,
        "envdoctor_version": __version__,
        "kind": "fleet",
        "summary": _summary(fleet),
        "majority": {
            m.field: {"value": m.value, "nodes": m.count, "of": m.total}
            for m in fleet.majorities.values()
        },
        "groups": [
            dict(zip(STACK_FIELDS, g.stack, strict=True), count=len(g.nodes), nodes=list(g.nodes))
            for g in fleet.groups
        ],
        "outliers": [
            {"node": o.node, "field": o.field, "value": o.value, "majority": o.majority}
            for o in fleet.outliers
        ],
        "faults": [_action_dict(a) for a in fleet.actions],
        "common_findings": [
            {"id": i, "severity": s, "nodes": n} for i, s, n in fleet.common_findings
        ],
        "nodes": [_node_dict(n) for n in fleet.nodes],
        "unreadable": [{"path": u.path, "reason": u.reason} for u in fleet.unreadable],
        "duplicates": [{"node": d.node, "path": d.path, "kept": d.kept} for d in fleet.duplicates],
    }


def render_json(fleet: Fleet) -> str:
    """The JSON document with a final newline: one top-level key per line, and each element of
    its lists (a node, a fault, a stack…) on a line of its own, so it greps and diffs by node.

    Only the layout differs from `json.dumps(indent=…)`; it uses the C encoder, which
    `indent` turns off (10,000 nodes: 0.1 s instead of 1 s).
    """

    def dump(value: Any) -> str:
        return json.dumps(value, sort_keys=True, ensure_ascii=False)

    parts = []
    for key, value in sorted(to_dict(fleet).items()):
        if isinstance(value, list) and value:
            inner = ",\n".join(f"    {dump(item)}" for item in value)
            parts.append(f"  {dump(key)}: [\n{inner}\n  ]")
        else:
            parts.append(f"  {dump(key)}: {dump(value)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def _summary(fleet: Fleet) -> dict[str, int]:
    return {
        "nodes": len(fleet.nodes),
        "unreadable": len(fleet.unreadable),
        "duplicates": len(fleet.duplicates),
        "stacks": len(fleet.groups),
        "faulty_nodes": len(fleet.actions),
        "outlier_nodes": len({o.node for o in fleet.outliers}),
        "named_after_file": sum(1 for n in fleet.nodes if n.name_origin == "file"),
        "redacted": sum(1 for n in fleet.nodes if n.redacted),
    }


def _action_dict(action: Action) -> dict[str, Any]:
    return {
        "node": action.node,
        "urgency": action.urgency,
        "reason": action.reason,
        "slurm": list(action.slurm),
        "kubernetes": list(action.kubernetes),
        "mask": action.mask,
        "faults": [
            {"id": f.id, "severity": f.severity, "title": f.title, "gpus": list(f.gpus)}
            for f in action.faults
        ],
    }


def _node_dict(node: NodeSummary) -> dict[str, Any]:
    return {
        "name": node.name,
        "name_origin": node.name_origin,
        "label": node.label,
        "path": node.path,
        "redacted": node.redacted,
        "created_at": node.created_at,
        "envdoctor_version": node.envdoctor_version,
        **{f: getattr(node, f) for f in STACK_FIELDS},
        "gpus": [
            {"index": g.index, "name": g.name, "pci_bus_id": g.pci_bus_id, "uuid": g.uuid}
            for g in node.gpus
        ],
        "findings": dict(node.findings),
        "issues": [{"id": i, "severity": s} for i, s in node.issues],
        "faults": [f.id for f in node.faults],
    }


# -- text ---------------------------------------------------------------------------------------


def render_text(fleet: Fleet) -> str:
    """A plain-text view for a terminal."""
    lines = [_headline(fleet), ""]
    if fleet.groups:
        lines.append("Stacks (nodes grouped by driver, CUDA the driver supports, torch, toolkit):")
        rows = [["nodes", *(STACK_TITLES[f] for f in STACK_FIELDS), "node list"]]
        rows += [
            [str(len(g.nodes)), *(v or _NONE for v in g.stack), hostlist(g.nodes, _LIST_LIMIT)]
            for g in fleet.groups
        ]
        lines += ["  " + line for line in _columns(rows)] + [""]
    lines += _majority_lines(fleet)
    if fleet.outliers:
        lines.append("Outliers (differ from the fleet majority):")
        rows = [
            [o.node, STACK_TITLES[o.field], o.value or "none", f"majority {o.majority}"]
            for o in fleet.outliers
        ]
        lines += ["  " + line for line in _columns(rows)] + [""]
    if fleet.actions:
        lines.append("GPU health faults: take these nodes out of service")
        for action in fleet.actions:
            lines.append(f"  {action.node}  ({_urgency(action)})")
            for fault in action.faults:
                lines.append(f"    {fault.severity:<7} {fault.id}: {fault.title}")
            lines.append("    Slurm:       " + action.slurm[0])
            lines += ["    Kubernetes:  " + action.kubernetes[0]] + [
                "                 " + c for c in action.kubernetes[1:]
            ]
            if action.mask:
                lines.append("    Mask the bad GPU for jobs until it is repaired:  " + action.mask)
        lines.append("")
    else:
        lines += ["No GPU health faults (ECC, row remapping, Xid, PCIe) in these reports.", ""]
    if fleet.common_findings:
        lines.append("Findings across the fleet (errors and warnings, by number of nodes):")
        rows = [[str(n), s, i] for i, s, n in fleet.common_findings[:20]]
        lines += ["  " + line for line in _columns(rows)] + [""]
    lines += _trailer(fleet, bullet="  ")
    return "\n".join(lines).rstrip() + "\n"


def _headline(fleet: Fleet) -> str:
    s = _summary(fleet)
    parts = [
        f"{s['nodes']} node{'s' if s['nodes'] != 1 else ''}",
        f"{s['stacks']} stack{'s' if s['stacks'] != 1 else ''}",
        f"{s['faulty_nodes']} with GPU health faults",
        f"{s['outlier_nodes']} outlier{'s' if s['outlier_nodes'] != 1 else ''}",
    ]
    if s["unreadable"]:
        parts.append(f"{s['unreadable']} unreadable file{'s' if s['unreadable'] != 1 else ''}")
    if s["duplicates"]:
        parts.append(
            f"{s['duplicates']} older duplicate report{'s' if s['duplicates'] != 1 else ''} ignored"
        )
    return "envdoctor fleet: " + ", ".join(parts)


def _majority_lines(fleet: Fleet) -> list[str]:
    if not fleet.nodes:
        return []
    parts = []
    for m in fleet.majorities.values():
        if m.value is None and m.count:
            parts.append(f"{STACK_TITLES[m.field]} none on {m.count}/{m.total}")
        elif m.value is None:
            parts.append(f"{STACK_TITLES[m.field]}: no majority")
        else:
            parts.append(f"{STACK_TITLES[m.field]} {m.value} on {m.count}/{m.total}")
    return ["Majority: " + "; ".join(parts), ""]


def _urgency(action: Action) -> str:
    return (
        "error: take it out of service now"
        if action.urgency == "now"
        else "warning: drain it and repair at the next maintenance"
    )


def _trailer(fleet: Fleet, bullet: str) -> list[str]:
    lines = []
    if fleet.unreadable:
        lines.append("Unreadable files (not counted):")
        lines += [f"{bullet}{u.path}: {u.reason}" for u in fleet.unreadable] + [""]
    if fleet.duplicates:
        lines.append("Older reports of the same node (the newest is used):")
        lines += [f"{bullet}{d.path} ({d.node}; kept {d.kept})" for d in fleet.duplicates] + [""]
    by_file = [n for n in fleet.nodes if n.name_origin == "file" and n.redacted]
    if by_file:
        lines.append(
            f"{len(by_file)} redacted report{'s are' if len(by_file) != 1 else ' is'} named after "
            "the file (their host names are pseudonyms). For node names in the report itself, "
            "write reports with `envdoctor report --no-redact --node-name NAME`."
        )
        lines.append("")
    return lines


def _columns(rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]


# -- Markdown -----------------------------------------------------------------------------------


def render_markdown(fleet: Fleet) -> str:
    """A Markdown view for a ticket or a wiki page, with every node in a table at the end."""
    lines = [f"## {_headline(fleet)}", ""]
    if fleet.groups:
        lines += [
            "### Stacks",
            "",
            "| nodes | " + " | ".join(STACK_TITLES[f] for f in STACK_FIELDS) + " | node list |",
            "|---:|" + "---|" * (len(STACK_FIELDS) + 1),
        ]
        lines += [
            f"| {len(g.nodes)} | "
            + " | ".join(_cell(v) for v in g.stack)
            + f" | {_cell(hostlist(g.nodes, _LIST_LIMIT))} |"
            for g in fleet.groups
        ]
        lines.append("")
    majority = _majority_lines(fleet)
    if majority:
        lines += [f"**{majority[0]}**", ""]
    if fleet.outliers:
        lines += [
            "### Outliers",
            "",
            "| node | field | value | fleet majority |",
            "|---|---|---|---|",
        ]
        lines += [
            f"| {_cell(o.node)} | {STACK_TITLES[o.field]} | {_cell(o.value or 'none')} | {_cell(o.majority)} |"
            for o in fleet.outliers
        ]
        lines.append("")
    lines += ["### GPU health faults", ""]
    if not fleet.actions:
        lines += ["No GPU health faults (ECC, row remapping, Xid, PCIe) in these reports.", ""]
    for action in fleet.actions:
        lines.append(f"#### {_cell(action.node)} ({_urgency(action)})")
        lines.append("")
        lines += [f"- **{f.severity}** `{f.id}`: {_cell(f.title)}" for f in action.faults]
        lines += ["", "```sh", "# Slurm", *action.slurm, "# Kubernetes", *action.kubernetes]
        if action.mask:
            lines += [
                "# Until it is repaired: jobs on this node use only the healthy GPUs",
                action.mask,
            ]
        lines += ["```", ""]
    if fleet.common_findings:
        lines += [
            "### Findings across the fleet",
            "",
            "| nodes | severity | finding |",
            "|---:|---|---|",
        ]
        lines += [f"| {n} | {s} | `{i}` |" for i, s, n in fleet.common_findings]
        lines.append("")
    if fleet.nodes:
        lines += [
            "### Nodes",
            "",
            "| node | GPUs | "
            + " | ".join(STACK_TITLES[f] for f in STACK_FIELDS)
            + " | errors | warnings | report |",
            "|---|---|" + "---|" * len(STACK_FIELDS) + "---:|---:|---|",
        ]
        for node in fleet.nodes:
            lines.append(
                f"| {_cell(node.name)} | {_cell(node.gpu_models() or 'none')} | "
                + " | ".join(_cell(getattr(node, f)) for f in STACK_FIELDS)
                + f" | {node.findings.get('error', 0)} | {node.findings.get('warning', 0)} | "
                f"{_cell(node.path)} |"
            )
        lines.append("")
    trailer = _trailer(fleet, bullet="- ")
    if trailer:
        lines += ["### Notes", ""] + trailer
    return "\n".join(lines).rstrip() + "\n"


def _cell(value: str | None) -> str:
    """A table cell: `|` escaped, newlines folded, empty shown as a dash."""
    if value is None or value == "":
        return _NONE
    return " ".join(str(value).split()).replace("|", "\\|")
