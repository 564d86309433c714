"""Prometheus text exposition format, for node_exporter's textfile collector.

`envdoctor check --format prometheus > DIR/envdoctor.prom.tmp && mv DIR/envdoctor.prom.tmp
DIR/envdoctor.prom` (see deploy/textfile-collector/): findings by severity and by id, the checks
and fact groups, the NVIDIA driver, and per-GPU health counters from `nvidia.gpus` and
`nvidia.events` (ECC, remapped rows, retired pages, Xid counts, PCIe link against its maximum,
temperature, power, memory, utilisation).

Rules followed (https://prometheus.io/docs/instrumenting/exposition_formats/ and
https://prometheus.io/docs/practices/naming/): the `envdoctor_` prefix, base units (seconds,
bytes, celsius, watts, ratio 0-1), `_total` on counters, `_info` for metadata, one `# HELP` and
`# TYPE` per family before its samples, each family's samples together, each label set once,
label values escaped (`\\`, `\"`, `\n`), no timestamps (the textfile collector refuses them), a
newline after the last line. A value that is unknown is left out, never written as 0. GPU series
carry `gpu` (the NVML index), `pci_bus_id` and `uuid`; Xids the kernel logged for an address no
GPU record has carry that address and an empty `gpu`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from envdoctor import __version__
from envdoctor.model.findings import Severity
from envdoctor.model.report import Report
from envdoctor.model.snapshot import Status

_MIB = 1024 * 1024


@dataclass
class _Family:
    """One metric family: its type, help text and samples (label pairs, value)."""

    name: str
    kind: str  # counter | gauge
    help: str
    samples: list[tuple[tuple[tuple[str, str], ...], float]] = field(default_factory=list)


class _Exposition:
    """Families in the order they were first declared; each label set kept once."""

    def __init__(self) -> None:
        self._families: dict[str, _Family] = {}

    def add(
        self,
        name: str,
        kind: str,
        help_text: str,
        value: Any,
        labels: Iterable[tuple[str, Any]] = (),  # a None value is written as ""
    ) -> None:
        """Add a sample (skipped when the value is unknown); a label set seen before is replaced."""
        family = self._families.get(name)
        if family is None:
            family = self._families[name] = _Family(name, kind, help_text)
        number = _number(value)
        if number is None:
            return
        pairs = tuple((k, "" if v is None else str(v)) for k, v in labels)
        family.samples = [s for s in family.samples if s[0] != pairs] + [(pairs, number)]

    def text(self) -> str:
        lines: list[str] = []
        for family in self._families.values():
            if not family.samples:
                continue
            lines.append(f"# HELP {family.name} {_escape_help(family.help)}")
            lines.append(f"# TYPE {family.name} {family.kind}")
            for pairs, value in family.samples:
                label_text = ",".join(f'{k}="{_escape_label(v)}"' for k, v in pairs)
                lines.append(
                    f"{family.name}{{{label_text}}} {_format(value)}"
                    if pairs
                    else f"{family.name} {_format(value)}"
                )
        return "\n".join(lines) + "\n" if lines else ""


def render(report: Report, **_: object) -> str:
    """The report as node_exporter textfile-collector metrics."""
    out = _Exposition()
    _general(out, report)
    _findings(out, report)
    _gpus(out, report)
    return out.text()


# -- families -----------------------------------------------------------------------------------


def _general(out: _Exposition, report: Report) -> None:
    out.add(
        "envdoctor_build_info",
        "gauge",
        "envdoctor's version, always 1.",
        1,
        [("version", report.envdoctor_version or __version__)],
    )
    created = _unix_seconds(report.snapshot.created_at)
    out.add(
        "envdoctor_last_run_timestamp_seconds",
        "gauge",
        "When envdoctor collected these facts, in seconds since the Unix epoch.",
        created,
    )
    statuses = Counter(g.status.value for g in report.snapshot.groups.values())
    for status in Status:
        out.add(
            "envdoctor_fact_groups",
            "gauge",
            "Fact groups by status: collected, absent (not on this machine) or failed (a probe "
            "could not tell).",
            statuses.get(status.value, 0),
            [("status", status.value)],
        )
    out.add(
        "envdoctor_checks",
        "gauge",
        "Checks that passed or were skipped (their facts were missing).",
        len(report.passed),
        [("outcome", "passed")],
    )
    out.add("envdoctor_checks", "gauge", "", len(report.skipped), [("outcome", "skipped")])


def _findings(out: _Exposition, report: Report) -> None:
    for severity in Severity:
        out.add(
            "envdoctor_findings",
            "gauge",
            "Findings of this severity (error, warning, info).",
            report.count(severity),
            [("severity", severity.value)],
        )
    by_id = Counter((f.id, f.severity.value) for f in report.findings)
    for (finding_id, severity_name), count in sorted(by_id.items()):
        out.add(
            "envdoctor_findings_by_id",
            "gauge",
            "Findings with this id and severity (envdoctor explain ID says what each means).",
            count,
            [("id", finding_id), ("severity", severity_name)],
        )


def _gpus(out: _Exposition, report: Report) -> None:
    snap = report.snapshot
    driver = snap.data("nvidia.driver")
    if driver is not None and driver.get("driver_version"):
        out.add(
            "envdoctor_nvidia_driver_info",
            "gauge",
            "The NVIDIA driver and the newest CUDA it supports, always 1.",
            1,
            [
                ("driver_version", driver.get("driver_version")),
                ("cuda_driver_max", driver.get("cuda_driver_max")),
            ],
        )
    group = snap.group("nvidia.gpus")
    gpus = [g for g in (snap.fact("nvidia.gpus", "gpus") or []) if isinstance(g, dict)]
    if group is not None and group.status is not Status.FAILED:
        out.add(
            "envdoctor_gpus",
            "gauge",
            "NVIDIA GPUs the driver reports (0 without a driver).",
            len(gpus),
        )
    for gpu in gpus:
        _gpu(out, gpu)
    _xids(out, snap, gpus)


def _gpu(out: _Exposition, gpu: dict[str, Any]) -> None:
    ids = _gpu_labels(gpu)
    out.add(
        "envdoctor_gpu_info",
        "gauge",
        "One NVIDIA GPU, always 1; `name` is its model.",
        1,
        ids + [("name", gpu.get("name"))],
    )
    ecc = gpu.get("ecc") or {}
    for kind in ("corrected", "uncorrected"):
        for scope in ("volatile", "aggregate"):
            out.add(
                "envdoctor_gpu_ecc_errors_total",
                "counter",
                "ECC memory errors; scope volatile counts since the driver loaded, aggregate over "
                "the GPU's life.",
                ecc.get(f"{scope}_{kind}"),
                ids + [("type", kind), ("scope", scope)],
            )
    out.add(
        "envdoctor_gpu_sram_ecc_threshold_exceeded",
        "gauge",
        "1 when the GPU's SRAM uncorrectable-error threshold is exceeded.",
        ecc.get("sram_threshold_exceeded"),
        ids,
    )
    rows = gpu.get("remapped_rows") or {}
    for cause in ("correctable", "uncorrectable"):
        out.add(
            "envdoctor_gpu_remapped_rows_total",
            "counter",
            "Memory rows remapped for correctable or uncorrectable errors (Ampere and newer).",
            rows.get(cause),
            ids + [("cause", cause)],
        )
    out.add(
        "envdoctor_gpu_row_remap_pending",
        "gauge",
        "1 when a row remap waits for the next GPU reset.",
        rows.get("pending"),
        ids,
    )
    out.add(
        "envdoctor_gpu_row_remap_failure",
        "gauge",
        "1 when row remapping failed (NVIDIA's RMA criterion).",
        rows.get("failure"),
        ids,
    )
    pages = gpu.get("retired_pages") or {}
    for cause, key in (("single_bit_ecc", "single_bit"), ("double_bit_ecc", "double_bit")):
        out.add(
            "envdoctor_gpu_retired_pages_total",
            "counter",
            "Memory pages retired for repeated single-bit or for double-bit ECC errors (before Ampere).",
            pages.get(key),
            ids + [("cause", cause)],
        )
    out.add(
        "envdoctor_gpu_retired_pages_pending",
        "gauge",
        "1 when a page retirement waits for the driver to reload.",
        pages.get("pending"),
        ids,
    )
    pcie = gpu.get("pcie") or {}
    out.add(
        "envdoctor_gpu_pcie_link_generation",
        "gauge",
        "PCIe generation the link runs at now.",
        pcie.get("gen_current"),
        ids,
    )
    out.add(
        "envdoctor_gpu_pcie_link_generation_max",
        "gauge",
        "Highest PCIe generation the GPU and its slot support.",
        pcie.get("gen_max"),
        ids,
    )
    out.add(
        "envdoctor_gpu_pcie_link_width_lanes",
        "gauge",
        "PCIe lanes the link runs with now.",
        pcie.get("width_current"),
        ids,
    )
    out.add(
        "envdoctor_gpu_pcie_link_width_max_lanes",
        "gauge",
        "Most PCIe lanes the GPU and its slot support.",
        pcie.get("width_max"),
        ids,
    )
    out.add(
        "envdoctor_gpu_pcie_replays_total",
        "counter",
        "PCIe packets the GPU retransmitted since the driver loaded.",
        pcie.get("replay_counter"),
        ids,
    )
    out.add(
        "envdoctor_gpu_temperature_celsius",
        "gauge",
        "GPU core temperature.",
        gpu.get("temperature_c"),
        ids,
    )
    out.add(
        "envdoctor_gpu_power_draw_watts",
        "gauge",
        "Power the GPU draws.",
        gpu.get("power_draw_w"),
        ids,
    )
    out.add(
        "envdoctor_gpu_power_limit_watts",
        "gauge",
        "The GPU's power limit.",
        gpu.get("power_limit_w"),
        ids,
    )
    out.add(
        "envdoctor_gpu_utilization_ratio",
        "gauge",
        "Share of time the GPU was busy (0 to 1).",
        _ratio(gpu.get("utilization_gpu_pct")),
        ids,
    )
    out.add(
        "envdoctor_gpu_memory_total_bytes",
        "gauge",
        "GPU memory.",
        _bytes(gpu.get("memory_total_mib")),
        ids,
    )
    out.add(
        "envdoctor_gpu_memory_used_bytes",
        "gauge",
        "GPU memory in use.",
        _bytes(gpu.get("memory_used_mib")),
        ids,
    )
    out.add(
        "envdoctor_gpu_lost",
        "gauge",
        "1 when NVML reports the GPU as lost (off the bus).",
        gpu.get("lost"),
        ids,
    )


def _xids(out: _Exposition, snap: Any, gpus: list[dict[str, Any]]) -> None:
    """Xid events in the kernel log, counted per GPU and code (since boot, as far as the log reaches)."""
    if not snap.has("nvidia.events"):
        return
    from envdoctor.model.nvidia_records import same_device

    counts: Counter[tuple[tuple[tuple[str, Any], ...], int]] = Counter()
    for xid in snap.fact("nvidia.events", "xids") or []:
        code = xid.get("code") if isinstance(xid, dict) else None
        if not isinstance(code, int):
            continue
        gpu = next((g for g in gpus if same_device(g.get("pci_bus_id"), xid.get("pci"))), None)
        labels: list[tuple[str, Any]] = (
            _gpu_labels(gpu)
            if gpu
            else [("gpu", ""), ("pci_bus_id", xid.get("pci") or ""), ("uuid", "")]
        )
        counts[(tuple(labels), code)] += 1
    out.add(
        "envdoctor_gpu_xid_errors_total",
        "counter",
        "Xid errors the NVIDIA driver logged in the kernel log, by GPU and Xid code.",
        None,
    )
    for (label_set, code), count in sorted(counts.items(), key=lambda p: (p[0][0], p[0][1])):
        out.add(
            "envdoctor_gpu_xid_errors_total",
            "counter",
            "",
            count,
            list(label_set) + [("xid", str(code))],
        )


# -- values -------------------------------------------------------------------------------------


def _gpu_labels(gpu: dict[str, Any]) -> list[tuple[str, Any]]:
    index = gpu.get("index")
    return [
        ("gpu", "" if index is None else str(index)),
        ("pci_bus_id", gpu.get("pci_bus_id") or ""),
        ("uuid", gpu.get("uuid") or ""),
    ]


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, (int, float)):
        return float(value)
    return None


def _ratio(percent: Any) -> float | None:
    number = _number(percent)
    return None if number is None else number / 100


def _bytes(mib: Any) -> float | None:
    number = _number(mib)
    return None if number is None else number * _MIB


def _unix_seconds(text: str | None) -> float | None:
    if not text:
        return None
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def _format(value: float) -> str:
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def _escape_label(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _escape_help(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\n", "\\n")
