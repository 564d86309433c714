"""`envdoctor check --format prometheus`: parsed back by a strict parser of the text exposition
format (https://prometheus.io/docs/instrumenting/exposition_formats/, "Text-based format"), with
node_exporter's textfile-collector rule (no timestamps) and Prometheus' naming rules on top.
The GPU metrics come from real nvidia-smi XML and dmesg captures through the real readers."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import fleet_samples as fs
import pytest

from envdoctor.cli import main
from envdoctor.render import FORMATS
from envdoctor.render.prometheus import render

_NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
_LABEL_NAME = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*")
_TYPES = {"counter", "gauge", "histogram", "summary", "untyped"}
# Prometheus naming practice: base units as suffixes; counts of things have no unit.
_UNIT_SUFFIXES = ("_total", "_info", "_seconds", "_bytes", "_celsius", "_watts", "_ratio", "_lanes")
_UNITLESS = {
    "envdoctor_fact_groups",
    "envdoctor_checks",
    "envdoctor_findings",
    "envdoctor_findings_by_id",
    "envdoctor_gpus",
    "envdoctor_gpu_pcie_link_generation",
    "envdoctor_gpu_pcie_link_generation_max",
    "envdoctor_gpu_row_remap_pending",
    "envdoctor_gpu_row_remap_failure",
    "envdoctor_gpu_retired_pages_pending",
    "envdoctor_gpu_sram_ecc_threshold_exceeded",
    "envdoctor_gpu_lost",
}


class ExpositionError(ValueError):
    """The text breaks the exposition format (or the textfile collector's rules)."""


@dataclass
class Family:
    name: str
    type: str | None = None
    help: str | None = None
    samples: dict[tuple[tuple[str, str], ...], float] = field(default_factory=dict)


def parse(text: str) -> dict[str, Family]:
    """Parse the text format strictly; ExpositionError names the first broken line."""
    if not text.endswith("\n"):
        raise ExpositionError("the last line does not end with a newline")
    families: dict[str, Family] = {}
    finished: set[str] = set()
    current: str | None = None
    for number, line in enumerate(text.split("\n")[:-1], start=1):
        where = f"line {number}: {line!r}"
        if not line.strip():
            continue
        if line.startswith("#"):
            parts = line[1:].lstrip(" \t").split(None, 2) if line[1:2] in (" ", "\t") else []
            if len(parts) >= 2 and parts[0] in ("HELP", "TYPE"):
                keyword, name = parts[0], parts[1]
                rest = line.split(name, 1)[1][1:] if len(parts) == 3 else ""
                if not _NAME.fullmatch(name):
                    raise ExpositionError(f"{where}: bad metric name")
                if name in finished:
                    raise ExpositionError(f"{where}: {keyword} after the family's samples ended")
                family = families.setdefault(name, Family(name))
                if current is not None and current != name:
                    finished.add(current)
                current = name
                if keyword == "TYPE":
                    if family.type is not None:
                        raise ExpositionError(f"{where}: second TYPE line")
                    if family.samples:
                        raise ExpositionError(f"{where}: TYPE after samples")
                    if rest.strip() not in _TYPES:
                        raise ExpositionError(f"{where}: unknown type")
                    family.type = rest.strip()
                else:
                    if family.help is not None:
                        raise ExpositionError(f"{where}: second HELP line")
                    family.help = _unescape(rest, help_text=True, where=where)
            continue
        name, labels, rest = _sample(line, where)
        if current != name:
            if current is not None:
                finished.add(current)
            if name in finished:
                raise ExpositionError(f"{where}: samples of {name} are not together")
            current = name
        family = families.setdefault(name, Family(name))
        fields = rest.split()
        if len(fields) != 1:
            raise ExpositionError(
                f"{where}: a timestamp or junk after the value (the textfile collector "
                "refuses timestamps)"
            )
        if labels in family.samples:
            raise ExpositionError(f"{where}: the same series twice")
        family.samples[labels] = _value(fields[0], where)
    return families


def _sample(line: str, where: str) -> tuple[str, tuple[tuple[str, str], ...], str]:
    match = _NAME.match(line)
    if not match:
        raise ExpositionError(f"{where}: no metric name")
    name, pos = match.group(0), match.end()
    labels: list[tuple[str, str]] = []
    if pos < len(line) and line[pos] == "{":
        pos += 1
        while True:
            if line[pos] == "}":
                pos += 1
                break
            label = _LABEL_NAME.match(line, pos)
            if not label or line[label.end() : label.end() + 2] != '="':
                raise ExpositionError(f"{where}: bad label at column {pos}")
            if label.group(0).startswith("__"):
                raise ExpositionError(f"{where}: reserved label name")
            pos = label.end() + 2
            value = []
            while True:
                if pos >= len(line):
                    raise ExpositionError(f"{where}: unterminated label value")
                char = line[pos]
                if char == "\\":
                    escaped = line[pos + 1 : pos + 2]
                    if escaped not in ("\\", '"', "n"):
                        raise ExpositionError(f"{where}: bad escape \\{escaped}")
                    value.append("\n" if escaped == "n" else escaped)
                    pos += 2
                elif char == '"':
                    pos += 1
                    break
                else:
                    value.append(char)
                    pos += 1
            if any(label.group(0) == k for k, _ in labels):
                raise ExpositionError(f"{where}: label {label.group(0)} twice")
            labels.append((label.group(0), "".join(value)))
            if line[pos] == ",":
                pos += 1
            elif line[pos] != "}":
                raise ExpositionError(f"{where}: expected , or }} at column {pos}")
    if pos >= len(line) or line[pos] not in " \t":
        raise ExpositionError(f"{where}: no space before the value")
    return name, tuple(labels), line[pos:]


def _value(text: str, where: str) -> float:
    if text in ("NaN", "+Inf", "-Inf"):
        return float(text.replace("Inf", "inf").replace("NaN", "nan"))
    if not re.fullmatch(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?", text):
        raise ExpositionError(f"{where}: {text!r} is not a float")
    return float(text)


def _unescape(text: str, help_text: bool, where: str) -> str:
    out, pos = [], 0
    while pos < len(text):
        if text[pos] == "\\":
            escaped = text[pos + 1 : pos + 2]
            if escaped not in ("\\", "n"):
                raise ExpositionError(f"{where}: bad escape in HELP")
            out.append("\n" if escaped == "n" else "\\")
            pos += 2
        else:
            out.append(text[pos])
            pos += 1
    return "".join(out)


def check_conventions(families: dict[str, Family]) -> None:
    """Naming rules: envdoctor_ prefix, HELP and TYPE on every family, `_total` exactly on counters,
    a base-unit suffix or a unitless count."""
    for name, family in families.items():
        assert name.startswith("envdoctor_"), name
        assert family.type in ("counter", "gauge") and family.help, name
        assert (family.type == "counter") == name.endswith("_total"), name
        assert name.endswith(_UNIT_SUFFIXES) or name in _UNITLESS, name
        assert family.samples, name


def series(families, metric, **labels):
    """The value of the one series of `metric` whose labels include `labels`."""
    [value] = [v for k, v in families[metric].samples.items() if set(labels.items()) <= set(k)]
    return value


# -- the parser itself --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, error",
    [
        ("a 1", "newline"),
        ("# TYPE a gauge\n# TYPE a gauge\na 1\n", "second TYPE"),
        ("# HELP a x\n# HELP a y\na 1\n", "second HELP"),
        ("a 1\n# TYPE a gauge\n", "TYPE after samples"),
        ("a 1 1700000000000\n", "timestamp"),
        ('a{x="1"} 1\nb 2\na{x="2"} 3\n', "not together"),
        ('a{x="1"} 1\na{x="1"} 2\n', "same series twice"),
        ('a{x="\\t"} 1\n', "bad escape"),
        ('a{x="1} 1\n', "unterminated"),
        ('a{__x="1"} 1\n', "reserved"),
        ('a{x="1",x="2"} 1\n', "twice"),
        ("a one\n", "not a float"),
        ("1a 1\n", "no metric name"),
        ("# TYPE a gauges\na 1\n", "unknown type"),
    ],
)
def test_the_parser_refuses_broken_text(text, error):
    with pytest.raises(ExpositionError, match=error):
        parse(text)


def test_the_parser_reads_the_specs_example():
    text = (
        "# HELP http_requests_total The total number of HTTP requests.\n"
        "# TYPE http_requests_total counter\n"
        'http_requests_total{method="post",code="200"} 1027\n'
        'http_requests_total{method="post",code="400"}    3\n'
        "\n"
        "# Escaping in label values:\n"
        'msdos_file_access_time_seconds{path="C:\\\\DIR\\\\FILE.TXT",error="Cannot find file:\\n\\"FILE.TXT\\""} 1.458255915e9\n'
        "metric_without_timestamp_and_labels 12.47\n"
        'something_weird{problem="division by zero"} +Inf\n'
    )
    families = parse(text)
    assert families["http_requests_total"].samples[(("method", "post"), ("code", "400"))] == 3
    [(labels, value)] = families["msdos_file_access_time_seconds"].samples.items()
    assert labels == (("path", "C:\\DIR\\FILE.TXT"), ("error", 'Cannot find file:\n"FILE.TXT"'))
    assert value == 1.458255915e9 and math.isinf(series(families, "something_weird"))


# -- envdoctor's metrics ------------------------------------------------------------------------


def test_k80_health_counters(real_captures):
    report = fs.node_report(real_captures, fs.K80, node="k80-01", dmesg=fs.APP_XIDS)
    families = parse(render(report))
    check_conventions(families)
    assert len(families["envdoctor_gpu_info"].samples) == 4
    gpu0 = {"gpu": "0", "pci_bus_id": "1580:00:00.0"}
    # the capture's own numbers: aggregate double-bit ECC 7, one page retired each way, gen 3 x16, 64 C
    assert (
        series(
            families,
            "envdoctor_gpu_ecc_errors_total",
            type="uncorrected",
            scope="aggregate",
            **gpu0,
        )
        == 7
    )
    assert (
        series(
            families, "envdoctor_gpu_ecc_errors_total", type="uncorrected", scope="volatile", **gpu0
        )
        == 0
    )
    assert (
        series(families, "envdoctor_gpu_retired_pages_total", cause="double_bit_ecc", **gpu0) == 1
    )
    assert series(families, "envdoctor_gpu_pcie_link_generation", **gpu0) == 3
    assert series(families, "envdoctor_gpu_pcie_link_width_max_lanes", **gpu0) == 16
    assert series(families, "envdoctor_gpu_temperature_celsius", **gpu0) == 64
    assert series(families, "envdoctor_gpu_power_draw_watts", **gpu0) == 135.72
    assert series(families, "envdoctor_gpu_utilization_ratio", **gpu0) == 0.99
    assert series(families, "envdoctor_gpu_memory_total_bytes", **gpu0) == 11441 * 1024 * 1024
    # the dmesg's Xids name addresses no GPU of this node: counted with the address and an empty gpu
    assert (
        series(
            families, "envdoctor_gpu_xid_errors_total", pci_bus_id="0000:00:05", xid="43", gpu=""
        )
        == 2
    )
    assert series(families, "envdoctor_findings", severity="warning") == report.count(
        fs_severity("warning")
    )
    assert (
        series(families, "envdoctor_findings_by_id", id="nvidia.xid-error", severity="warning") == 2
    )
    assert series(families, "envdoctor_nvidia_driver_info", driver_version="430.26") == 1
    assert (
        series(families, "envdoctor_last_run_timestamp_seconds") == 1796112000
    )  # 2026-12-01T08:00:00Z


def test_xids_counted_on_their_gpu_and_remap_flags(real_captures):
    def at_0a(gpus):
        gpus[1]["pci_bus_id"] = "0000:0a:00.0"
        gpus[1]["remapped_rows"].update(pending=True, failure=False, correctable=0, uncorrectable=3)

    report = fs.node_report(
        real_captures,
        "openpai-geforce-rtx2080ti-x2-driver-410.73.xml",
        mutate=at_0a,
        dmesg="TRUNCATED-dmesg-xid-31-mmu-fault-62-45-chia-gigahorse-issue-301.txt",
    )
    families = parse(render(report))
    check_conventions(families)
    xids = {
        dict(k)["xid"]: v
        for k, v in families["envdoctor_gpu_xid_errors_total"].samples.items()
        if dict(k)["gpu"] == "1"
    }
    log = (
        real_captures
        / "misc"
        / "TRUNCATED-dmesg-xid-31-mmu-fault-62-45-chia-gigahorse-issue-301.txt"
    ).read_text()
    assert xids == {code: log.count(f"NVRM: Xid (PCI:0000:0a:00): {code},") for code in xids}
    assert set(xids) >= {"31", "62", "45"}
    assert series(families, "envdoctor_gpu_row_remap_pending", gpu="1") == 1
    assert (
        series(families, "envdoctor_gpu_remapped_rows_total", gpu="1", cause="uncorrectable") == 3
    )
    assert not [
        k for k in families.get("envdoctor_gpu_row_remap_pending").samples if dict(k)["gpu"] == "0"
    ]  # unknown: left out


def test_label_values_are_escaped(real_captures):
    name = 'Tesla "K80"\\rev\nB'

    def odd(gpus):
        gpus[0]["name"] = name

    families = parse(render(fs.node_report(real_captures, fs.K80, mutate=odd)))
    assert series(families, "envdoctor_gpu_info", gpu="0", name=name) == 1


def test_no_gpu_machine_is_quiet(real_captures):
    families = parse(render(fs.node_report(real_captures, None, torch=None)))
    check_conventions(families)
    assert (
        series(families, "envdoctor_gpus") == 0
    )  # the nvidia.gpus group is absent: no GPUs, not unknown
    assert not any(name.startswith("envdoctor_gpu_") for name in families)
    assert {dict(k)["severity"] for k in families["envdoctor_findings"].samples} == {
        "error",
        "warning",
        "info",
    }


def test_check_offers_prometheus_and_this_machine_parses(capsys):
    assert "prometheus" in FORMATS
    code = main(["check", "--format", "prometheus", "--timeout", "15"])
    out = capsys.readouterr().out
    families = parse(out)
    check_conventions(families)
    assert code == (1 if series(families, "envdoctor_findings", severity="error") else 0)
    assert series(families, "envdoctor_fact_groups", status="failed") == 0
    assert "# TYPE envdoctor_build_info gauge" in out


def fs_severity(name):
    from envdoctor.model.findings import Severity

    return Severity(name)
