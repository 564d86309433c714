"""A fleet of nodes from their envdoctor reports: software stacks, outliers and GPU health faults.

Pure functions over report documents (no I/O; `envdoctor.commands.fleet` reads the files):

- `summarize(document, path)` turns one report's JSON document into a `NodeSummary`: the node's
  name, the driver, the newest CUDA the driver supports (`cuda_driver_max`), torch and the CUDA
  toolkit, its GPUs, its finding counts and its GPU health faults;
- `aggregate(nodes, unreadable)` builds the `Fleet`: nodes grouped by stack, the majority value
  of each stack field and the nodes that differ from it, the nodes with health faults and the
  exact commands that take them out of service (Slurm drain, Kubernetes cordon and taint,
  `CUDA_VISIBLE_DEVICES` to mask one bad GPU).

A node is named, in this order, by the `envdoctor.node` label that `envdoctor report
--node-name NAME` writes, then by its file name (`gpu017.json`, or the folder of an
`envdoctor-report.md`). A redacted report's labels are pseudonyms (`<host-1>`, the same in every
redacted report), so such a node is named after its file; `node_group` builds the label group.
"""

from __future__ import annotations

import re
import shlex
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

from envdoctor.model.findings import Finding, Severity
from envdoctor.model.nvidia_records import same_device
from envdoctor.model.snapshot import SCHEMA_VERSION, FactGroup, collected

if TYPE_CHECKING:
    from envdoctor.matrix.loader import MatrixSet

NODE_GROUP = "envdoctor.node"
STACK_FIELDS = ("driver", "cuda_driver_max", "torch", "toolkit")
STACK_TITLES = {
    "driver": "driver",
    "cuda_driver_max": "CUDA (driver max)",
    "torch": "torch",
    "toolkit": "toolkit",
}

# GPU health findings (ids of the NVIDIA checks) that take a node out of service when they are
# errors or warnings; info-level ones (history, correctable errors) are left alone.
HEALTH_IDS = frozenset(
    {
        "nvidia.ecc-uncorrected",
        "nvidia.row-remap-pending",
        "nvidia.row-remap-failed",
        "nvidia.retired-pages-high",
        "nvidia.pcie-link-degraded",
        "nvidia.pcie-aer-errors",
        "nvidia.driver-not-responding",
    }
)
HEALTH_PREFIXES = ("nvidia.xid-",)
# Faults that concern the node, not one GPU, even when the text names a GPU.
NODE_WIDE_IDS = frozenset({"nvidia.driver-not-responding"})

TAINT_KEY = "envdoctor/gpu-fault"
_LABEL = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,252}")
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]+")
_PSEUDONYM = re.compile(r"<[a-z0-9-]+-\d+>")
_PCI = re.compile(r"\b[0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}(?:\.[0-7])?\b")
_XID_CODE = re.compile(r"\bXid (\d+)\b")
# NVIDIA's recommended actions (nvidia_xid matrix) that blame the application, not the GPU.
APPLICATION_XID_ACTIONS = frozenset({"RESTART_APP", "IGNORE", "WORKFLOW_XID_45"})
_REPORT_STEMS = ("envdoctor-report", "envdoctor_report", "report")


# -- records ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Gpu:
    """One GPU of a node as its report saw it (index in NVML / nvidia-smi order, PCI bus order)."""

    index: int | None
    name: str | None
    pci_bus_id: str | None
    uuid: str | None


@dataclass(frozen=True)
class Fault:
    """A GPU health finding on a node; `gpus` are the indices it names (empty: the whole node)."""

    id: str
    severity: str
    title: str
    gpus: tuple[int, ...] = ()


@dataclass(frozen=True)
class NodeSummary:
    """What the fleet view needs from one node's report.

    `name_origin` is "label" (`report --node-name`) or "file" (the report's file or folder name);
    `redacted` is True when the report's identifiers are pseudonyms.
    """

    name: str
    name_origin: str
    path: str
    redacted: bool
    created_at: str | None
    envdoctor_version: str | None
    driver: str | None
    cuda_driver_max: str | None
    torch: str | None
    toolkit: str | None
    gpus: tuple[Gpu, ...]
    findings: Mapping[str, int]
    issues: tuple[tuple[str, str], ...]  # (id, worst severity) of its error and warning findings
    faults: tuple[Fault, ...]
    label: str | None = None

    def stack(self) -> tuple[str | None, ...]:
        """(driver, cuda_driver_max, torch, toolkit)."""
        return tuple(getattr(self, f) for f in STACK_FIELDS)

    def gpu_models(self) -> str:
        """ "8× NVIDIA H100 80GB HBM3" (models counted), "" without GPUs."""
        counts = Counter(g.name or "unknown GPU" for g in self.gpus)
        return ", ".join(
            f"{n}× {name}" for name, n in sorted(counts.items(), key=lambda p: (-p[1], p[0]))
        )


@dataclass(frozen=True)
class Unreadable:
    """A file that is not a readable node report, with a one-line reason."""

    path: str
    reason: str


@dataclass(frozen=True)
class StackGroup:
    """Nodes that share a stack (driver, cuda_driver_max, torch, toolkit)."""

    stack: tuple[str | None, ...]
    nodes: tuple[str, ...]


@dataclass(frozen=True)
class Majority:
    """The value more than half of the nodes share for one stack field: `value` None with a
    `count` means most nodes lack it (no outliers then); a `count` of 0 means no value has a
    majority."""

    field: str
    value: str | None
    count: int
    total: int


@dataclass(frozen=True)
class Outlier:
    """A node whose stack field differs from the fleet majority."""

    node: str
    field: str
    value: str | None
    majority: str


@dataclass(frozen=True)
class Action:
    """How to take one faulty node out of service: exact commands per scheduler."""

    node: str
    urgency: str  # "now" (an error) or "planned" (warnings only)
    reason: str
    slurm: tuple[str, ...]
    kubernetes: tuple[str, ...]
    mask: str | None  # CUDA_VISIBLE_DEVICES line hiding the bad GPUs, when only some are bad
    faults: tuple[Fault, ...]


@dataclass(frozen=True)
class Duplicate:
    """An older report of a node that has a newer one; it is left out of the fleet."""

    node: str
    path: str
    kept: str


@dataclass
class Fleet:
    """The aggregated view of many node reports."""

    nodes: list[NodeSummary] = field(default_factory=list)
    unreadable: list[Unreadable] = field(default_factory=list)
    duplicates: list[Duplicate] = field(default_factory=list)
    groups: list[StackGroup] = field(default_factory=list)
    majorities: dict[str, Majority] = field(default_factory=dict)
    outliers: list[Outlier] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    common_findings: list[tuple[str, str, int]] = field(
        default_factory=list
    )  # (id, severity, nodes)

    @property
    def faulty(self) -> bool:
        """Whether any node has a GPU health fault."""
        return bool(self.actions)


# -- one report ---------------------------------------------------------------------------------


def node_label(text: str) -> str:
    """A validated node label for `report --node-name` (ValueError when it is not one).

    Letters, digits, dot, dash and underscore, starting with a letter or digit, at most 253
    characters: what Slurm node names and Kubernetes node names use, and safe in shell commands.
    """
    value = text.strip()
    if not _LABEL.fullmatch(value):
        raise ValueError(
            f"node name {text!r}: use letters, digits, '.', '-' and '_' (at most 253, "
            "starting with a letter or digit)"
        )
    return value


def node_group(name: str | None, redacted: bool) -> FactGroup:
    """The `envdoctor.node` group `envdoctor report` writes: the node label the operator gave
    (None when none was) and whether the report is redacted."""
    summary = f"node {name}" if name else "no node label (--node-name) given"
    return collected(
        NODE_GROUP,
        "option:--node-name",
        {"name": name, "redacted": redacted},
        summary=summary + (", redacted report" if redacted else ""),
    )


def summarize(
    document: Mapping[str, Any],
    path: str,
    name_path: str | None = None,
    application_xids: frozenset[int] = frozenset(),
) -> NodeSummary:
    """The node summary of one report's JSON document; ValueError when it is not a node report.

    `path` is shown; `name_path` (default: `path`, an absolute path is best) names a node that has
    no label. An `nvidia.xid-error` whose Xid codes are all in `application_xids` (see
    `application_xid_codes`) blames the application and is no health fault. Only the groups the
    fleet reads are rebuilt (with `FactGroup.from_dict` and `Finding.from_dict`, the same
    validation as `Report.from_dict`), so 10,000 reports stay fast.
    """
    if not isinstance(document, Mapping):
        raise ValueError("not an envdoctor report (the JSON is not an object)")
    if document.get("kind") == "fleet":
        raise ValueError("an envdoctor fleet summary, not a node report")
    if "snapshot" not in document:
        raise ValueError("not an envdoctor report (no 'snapshot')")
    version = document.get("schema_version")
    if not isinstance(version, int) or version > SCHEMA_VERSION:
        raise ValueError(f"unsupported report schema_version {version!r}")
    snapshot = document["snapshot"]
    if not isinstance(snapshot, Mapping) or not isinstance(snapshot.get("groups"), Mapping):
        raise ValueError("malformed report: 'snapshot.groups' is not an object")
    raw_groups = snapshot["groups"]
    groups = {
        name: FactGroup.from_dict(name, raw_groups[name])
        for name in (NODE_GROUP, "nvidia.driver", "nvidia.gpus", "python.torch", "cuda.toolkits")
        if name in raw_groups
    }
    raw_findings = document.get("findings", [])
    if not isinstance(raw_findings, list):
        raise ValueError("malformed report: 'findings' is not a list")
    try:
        findings = [Finding.from_dict(f) for f in raw_findings]
    except (AttributeError, TypeError) as exc:
        raise ValueError(f"malformed finding: {exc}") from exc

    gpus = _gpus(groups.get("nvidia.gpus"))
    label_data = _data(groups.get(NODE_GROUP))
    label = label_data.get("name") if isinstance(label_data.get("name"), str) else None
    name, origin = _name(label, name_path or path)
    driver = _data(groups.get("nvidia.driver"))
    torch = _data(groups.get("python.torch"))
    counts = Counter(f.severity.value for f in findings)
    return NodeSummary(
        name=name,
        name_origin=origin,
        path=path,
        redacted=_redacted(label_data, label, gpus),
        created_at=_text(snapshot.get("created_at")),
        envdoctor_version=_text(document.get("envdoctor_version")),
        driver=_text(driver.get("driver_version")),
        cuda_driver_max=_text(driver.get("cuda_driver_max")),
        torch=_text(torch.get("version")),
        toolkit=_toolkit(_data(groups.get("cuda.toolkits"))),
        gpus=gpus,
        findings={s.value: counts.get(s.value, 0) for s in Severity},
        issues=_issues(findings),
        faults=tuple(_fault(f, gpus) for f in findings if is_health_fault(f, application_xids)),
        label=label,
    )


def _issues(findings: list[Finding]) -> tuple[tuple[str, str], ...]:
    worst: dict[str, str] = {}
    for finding in findings:
        if finding.severity is not Severity.INFO and worst.get(finding.id) != Severity.ERROR.value:
            worst[finding.id] = finding.severity.value
    return tuple(sorted(worst.items()))


def is_health_fault(finding: Finding, application_xids: frozenset[int] = frozenset()) -> bool:
    """Whether a finding is a GPU health fault that takes its node out of service: an error or
    warning of the GPU health checks, except Xids that NVIDIA blames on the application."""
    health = finding.id in HEALTH_IDS or finding.id.startswith(HEALTH_PREFIXES)
    if not health or finding.severity not in (Severity.ERROR, Severity.WARNING):
        return False
    if finding.id == "nvidia.xid-error":
        codes = {int(c) for e in finding.evidence for c in _XID_CODE.findall(e.actual)}
        codes |= {int(c) for c in _XID_CODE.findall(finding.title)}
        return not codes or not codes <= application_xids
    return True


def application_xid_codes(ms: MatrixSet) -> frozenset[int]:
    """The Xid codes whose NVIDIA action blames the application (restart it, or ignore the event),
    from the nvidia_xid matrix (empty when it is missing)."""
    try:
        rows = ms.table("nvidia_xid").rows
    except (KeyError, AttributeError):
        return frozenset()
    return frozenset(
        row["xid"]
        for row in rows
        if isinstance(row.get("xid"), int) and row.get("nvidia_action") in APPLICATION_XID_ACTIONS
    )


def name_from_path(path: str) -> str:
    """The node name a report's file name gives: `gpu017.json` -> gpu017, `gpu017/envdoctor-report.md`
    -> gpu017, `envdoctor-report-gpu017.html` -> gpu017."""
    pure = PurePath(path)
    stem = pure.name
    for suffix in (".json", ".md", ".markdown", ".html", ".htm", ".txt"):
        if stem.lower().endswith(suffix):
            stem = stem[: -len(suffix)]
            break
    for generic in _REPORT_STEMS:
        lowered = stem.lower()
        if lowered == generic:
            stem = ""
            break
        for sep in ("-", "_", "."):
            if lowered.startswith(generic + sep):
                stem = stem[len(generic) + 1 :]
                break
            if lowered.endswith(sep + generic):
                stem = stem[: -len(generic) - 1]
                break
    if not stem:
        stem = pure.parent.name or pure.name.rsplit(".", 1)[0]
    return stem


def _name(label: str | None, path: str) -> tuple[str, str]:
    """(node name, where it came from). A name goes into shell commands (`kubectl cordon NAME`)
    and table cells, so only one that `node_label` accepts is used: a label such as `-rf` or
    one with a newline is ignored for the file's name, and a file name is cleaned the same way."""
    if label and not _PSEUDONYM.fullmatch(label.strip()) and _LABEL.fullmatch(label.strip()):
        return label.strip(), "label"
    # a file name is shown as it is (and shell-quoted in commands) unless it would read as an
    # option or break a line: `-rf.json` must not give `kubectl cordon -rf`
    from_file = name_from_path(path)
    if not from_file.startswith("-") and not _CONTROL.search(from_file):
        return from_file, "file"
    cleaned = _CONTROL.sub("-", from_file).lstrip("-. ")[:253]
    return (cleaned or "unnamed-node"), "file"


def _redacted(label_data: Mapping[str, Any], label: str | None, gpus: tuple[Gpu, ...]) -> bool:
    flag = label_data.get("redacted")
    if isinstance(flag, bool):
        return flag
    if label and _PSEUDONYM.fullmatch(label.strip()):
        return True
    return any(g.uuid is not None and _PSEUDONYM.fullmatch(g.uuid) for g in gpus)


def _data(group: FactGroup | None) -> Mapping[str, Any]:
    return group.data if group is not None and group.collected else {}


def _text(value: Any) -> str | None:
    """A scalar fact as one line of text; None for a missing or wrong-typed one (a list or an
    object where a version belongs is damage, not a value to print as a Python repr)."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)) or value == "":
        return None
    return " ".join(str(value).split()) or None


def _gpus(group: FactGroup | None) -> tuple[Gpu, ...]:
    out = []
    for record in _data(group).get("gpus") or []:
        if not isinstance(record, Mapping):
            continue
        index = record.get("index")
        out.append(
            Gpu(
                index if isinstance(index, int) else None,
                _text(record.get("name")),
                _text(record.get("pci_bus_id")),
                _text(record.get("uuid")),
            )
        )
    return tuple(out)


def _toolkit(data: Mapping[str, Any]) -> str | None:
    """The CUDA toolkit a build on the node uses: nvcc on PATH, else /usr/local/cuda's, else the first."""
    nvcc = data.get("nvcc_on_path")
    if isinstance(nvcc, Mapping) and nvcc.get("version"):
        return str(nvcc["version"])
    toolkits = [
        t for t in data.get("toolkits") or [] if isinstance(t, Mapping) and t.get("version")
    ]
    default = data.get("default_path")
    for toolkit in toolkits:
        if default and default in (toolkit.get("path"), toolkit.get("real_path")):
            return str(toolkit["version"])
    return str(toolkits[0]["version"]) if toolkits else None


def _fault(finding: Finding, gpus: tuple[Gpu, ...]) -> Fault:
    """The fault, with the GPUs its texts name by PCI address."""
    hit: set[int] = set()
    if finding.id not in NODE_WIDE_IDS:
        text = " ".join([finding.title, finding.detail] + [e.actual for e in finding.evidence])
        for address in _PCI.findall(text):
            for gpu in gpus:
                if gpu.index is not None and same_device(gpu.pci_bus_id, address.lower()):
                    hit.add(gpu.index)
    return Fault(finding.id, finding.severity.value, finding.title, tuple(sorted(hit)))


# -- the fleet ----------------------------------------------------------------------------------


def aggregate(nodes: Iterable[NodeSummary], unreadable: Iterable[Unreadable] = ()) -> Fleet:
    """Group the nodes by stack, find the outliers and the faulty nodes with their actions.

    Several reports of one node: the newest (`created_at`, then the path) is kept, the others are
    listed as duplicates.
    """
    kept: dict[str, NodeSummary] = {}
    duplicates: list[Duplicate] = []
    for node in nodes:
        other = kept.get(node.name)
        if other is None:
            kept[node.name] = node
            continue
        newer, older = (node, other) if _age_key(node) > _age_key(other) else (other, node)
        kept[node.name] = newer
        duplicates.append(Duplicate(older.name, older.path, newer.path))
    ordered = sorted(kept.values(), key=lambda n: natural_key(n.name))
    fleet = Fleet(
        nodes=ordered,
        unreadable=sorted(unreadable, key=lambda u: u.path),
        duplicates=sorted(duplicates, key=lambda d: (natural_key(d.node), d.path)),
    )
    fleet.groups = _groups(ordered)
    fleet.majorities = {f: _majority(ordered, f) for f in STACK_FIELDS}
    fleet.outliers = [
        Outlier(n.name, m.field, getattr(n, m.field), m.value)
        for n in ordered
        for m in fleet.majorities.values()
        if m.value is not None and getattr(n, m.field) != m.value
    ]
    fleet.actions = [action_for(n) for n in ordered if n.faults]
    fleet.common_findings = _common_findings(ordered)
    return fleet


def action_for(node: NodeSummary) -> Action:
    """The commands that take a faulty node out of service (drain lets running jobs finish)."""
    ids = list(dict.fromkeys(f.id for f in node.faults))
    where = sorted({i for f in node.faults for i in f.gpus})
    reason = "envdoctor: " + ", ".join(ids)
    if where and not any(f.id in NODE_WIDE_IDS or not f.gpus for f in node.faults):
        reason += f" on GPU {','.join(map(str, where))}"
    reason = reason[:120]
    quoted = shlex.quote(node.name)
    slurm = (f"scontrol update nodename={quoted} state=drain reason={_quote_reason(reason)}",)
    taint_value = _taint_value(ids[0])
    kubernetes = (
        f"kubectl cordon {quoted}",
        f"kubectl taint nodes {quoted} {TAINT_KEY}={taint_value}:NoSchedule --overwrite",
    )
    urgency = "now" if any(f.severity == Severity.ERROR.value for f in node.faults) else "planned"
    return Action(node.name, urgency, reason, slurm, kubernetes, _mask(node), node.faults)


def _quote_reason(reason: str) -> str:
    """The reason in double quotes, as Slurm's documentation writes it (no shell metacharacters
    survive: the reason is built from finding ids and GPU indices only)."""
    return '"' + re.sub(r'["$`\\]', "", reason) + '"'


def _taint_value(finding_id: str) -> str:
    """A Kubernetes label value (63 characters of [A-Za-z0-9._-], alphanumeric at both ends)."""
    value = re.sub(r"[^A-Za-z0-9._-]", "-", finding_id)[:63].strip("._-")
    return value or "fault"


def _mask(node: NodeSummary) -> str | None:
    """`CUDA_VISIBLE_DEVICES` naming the healthy GPUs, when the faults name some GPUs but not all.

    Real UUIDs are used when the report has them (independent of enumeration order); otherwise
    the NVML indices, which follow PCI bus order, with CUDA_DEVICE_ORDER=PCI_BUS_ID so CUDA
    numbers the GPUs the same way.
    """
    if any(f.id in NODE_WIDE_IDS or not f.gpus for f in node.faults):
        return None
    bad = {i for f in node.faults for i in f.gpus}
    good = [g for g in node.gpus if g.index is not None and g.index not in bad]
    if not good or len(good) == len(node.gpus):
        return None
    if all(g.uuid and g.uuid.startswith(("GPU-", "MIG-")) for g in good):
        return "export CUDA_VISIBLE_DEVICES=" + ",".join(g.uuid for g in good)  # type: ignore[misc]
    return "export CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=" + ",".join(
        str(g.index) for g in good
    )


def _age_key(node: NodeSummary) -> tuple[str, str]:
    return (node.created_at or "", node.path)


def _groups(nodes: list[NodeSummary]) -> list[StackGroup]:
    by_stack: dict[tuple[str | None, ...], list[str]] = {}
    for node in nodes:
        by_stack.setdefault(node.stack(), []).append(node.name)
    groups = [StackGroup(stack, tuple(names)) for stack, names in by_stack.items()]
    return sorted(
        groups, key=lambda g: (-len(g.nodes), tuple(natural_key(v or "") for v in g.stack))
    )


def _majority(nodes: list[NodeSummary], name: str) -> Majority:
    counts = Counter(getattr(n, name) for n in nodes)
    if not counts:
        return Majority(name, None, 0, 0)
    value, count = max(counts.items(), key=lambda p: (p[1], p[0] is not None))
    if count * 2 <= len(nodes):
        return Majority(name, None, 0, len(nodes))  # no value on more than half of the nodes
    return Majority(name, value, count, len(nodes))


def _common_findings(nodes: list[NodeSummary]) -> list[tuple[str, str, int]]:
    """(id, worst severity, nodes) of the error and warning findings, most common first."""
    counts: Counter[str] = Counter()
    worst: dict[str, str] = {}
    for node in nodes:
        for finding_id, severity in node.issues:
            counts[finding_id] += 1
            if worst.get(finding_id) != Severity.ERROR.value:
                worst[finding_id] = severity
    return sorted(((i, worst[i], n) for i, n in counts.items()), key=lambda t: (-t[2], t[0]))


def natural_key(text: str) -> tuple[Any, ...]:
    """Sort key that orders gpu2 before gpu10."""
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text))


def hostlist(names: Iterable[str], limit: int = 0) -> str:
    """Slurm hostlist notation: gpu001,gpu002,gpu003,gpu007 -> gpu[001-003,007].

    Names that share a prefix and a number padding (none, or zero-padded to one width) are
    folded; others are listed. With
    `limit`, at most that many entries are shown, then "… (+N more)".
    """
    pattern = re.compile(r"(.*?)(\d+)$")
    buckets: dict[tuple[str, int], list[int]] = {}
    singles: list[str] = []
    order: list[tuple[str, int] | str] = []
    for name in names:
        match = pattern.fullmatch(name)
        if not match:
            singles.append(name)
            order.append(name)
            continue
        digits = match.group(2)
        width = len(digits) if digits.startswith("0") and len(digits) > 1 else 0
        if not width and (match.group(1), len(digits)) in buckets:
            width = len(digits)  # gpu100 joins gpu[098-099]
        key = (match.group(1), width)
        if key not in buckets:
            buckets[key] = []
            order.append(key)
        buckets[key].append(int(match.group(2)))
    parts: list[str] = []
    for item in order:
        if isinstance(item, str):
            parts.append(item)
            continue
        prefix, width = item
        numbers = sorted(set(buckets[item]))
        if len(numbers) == 1:
            parts.append(f"{prefix}{numbers[0]:0{width}d}")
            continue
        ranges = []
        start = prev = numbers[0]
        for number in numbers[1:] + [None]:
            if number is not None and number == prev + 1:
                prev = number
                continue
            ranges.append(
                f"{start:0{width}d}" if start == prev else f"{start:0{width}d}-{prev:0{width}d}"
            )
            if number is not None:
                start = prev = number
        parts.append(f"{prefix}[{','.join(ranges)}]")
    if limit and len(parts) > limit:
        return ",".join(parts[:limit]) + f",… (+{len(parts) - limit} more)"
    return ",".join(parts)
