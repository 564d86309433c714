"""Reader of `nvidia-smi -q -x` XML (every DTD version seen: v9 to v13), live or pasted.

`parse(text)` turns the XML into the `nvidia.driver` and `nvidia.gpus` records of
`envdoctor.model.nvidia_records`; `records_from_tree` does the same for an already-built tree and
is shared with the `nvidia-smi -q` text reader, whose labels mirror the XML tags.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from envdoctor.model import nvidia_records as rec
from envdoctor.model.snapshot import Confidence, FactGroup, collected

if TYPE_CHECKING:  # the XML parser is imported when a paste holds a document (`_root`)
    import xml.etree.ElementTree as ET

NAME = "nvidia-smi-xml"
SOURCE = f"pasted:{NAME}"
MARKERS = ("<nvidia_smi_log",)  # every text detect() accepts contains one of these

Tree = dict[str, Any]

_START = re.compile(r"<nvidia_smi_log\b")
_END = "</nvidia_smi_log>"


class NotNvidiaSmiXml(ValueError):
    """The text holds no readable `nvidia-smi -q -x` document."""


def detect(text: str) -> bool:
    """Whether the text holds an nvidia-smi XML log."""
    return bool(_START.search(text[:200000]))


def read(text: str) -> list[FactGroup]:
    """The driver and GPU fact groups of a pasted `nvidia-smi -q -x` document."""
    try:
        driver, gpus = parse(text)
    except NotNvidiaSmiXml:
        return []
    return groups(driver, gpus, SOURCE, Confidence.MEDIUM)


def groups(
    driver: rec.NvidiaDriver, gpus: list[dict[str, Any]], source: str, confidence: Confidence
) -> list[FactGroup]:
    """The `nvidia.driver` and `nvidia.gpus` groups for parsed records."""
    out = [
        collected(
            "nvidia.driver",
            source,
            dict(driver),
            summary=rec.driver_summary(driver),
            confidence=confidence,
        )
    ]
    if gpus:
        out.append(
            collected(
                "nvidia.gpus",
                source,
                {"gpus": gpus},
                summary=rec.gpu_summary(gpus),
                confidence=confidence,
            )
        )
    return out


def parse(text: str) -> tuple[rec.NvidiaDriver, list[dict[str, Any]]]:
    """(driver record, GPU records) from XML text; NotNvidiaSmiXml when there is none."""
    root = _root(text)
    tree = _tree(root)
    if "driver_version" not in tree and "gpu" not in tree:
        raise NotNvidiaSmiXml("the nvidia-smi XML holds neither a driver version nor a GPU")
    driver, gpus = records_from_tree(tree)
    driver["sources"] = ["nvidia-smi"]
    return driver, gpus


def _root(text: str) -> ET.Element:
    match = _START.search(text)
    if not match:
        raise NotNvidiaSmiXml("no <nvidia_smi_log> element")
    end = text.find(_END, match.start())
    body = (
        text[match.start() : end + len(_END)]
        if end >= 0
        else _close_truncated(text[match.start() :])
    )
    import xml.etree.ElementTree as ET

    try:
        return ET.fromstring(body)
    except ET.ParseError as exc:
        raise NotNvidiaSmiXml(f"unreadable nvidia-smi XML: {exc}") from exc


def _close_truncated(body: str) -> str:
    """A truncated paste: keep the whole <gpu> elements and close the document."""
    last = body.rfind("</gpu>")
    head = body[: last + len("</gpu>")] if last >= 0 else body[: body.find(">") + 1]
    return head + "\n" + _END


def _tree(element: ET.Element) -> Tree:
    """An element as nested dicts: tag -> text, or tag -> subtree; repeated tags -> lists."""
    out: Tree = {}
    for attr, text in element.attrib.items():
        out[f"@{attr}"] = text
    for child in element:
        value: Any = _tree(child) if len(child) or child.attrib else (child.text or "").strip()
        if isinstance(value, dict) and not value and child.text and child.text.strip():
            value = child.text.strip()
        _put(out, child.tag, value)
    return out


def _put(tree: Tree, key: str, value: Any) -> None:
    if key in tree:
        existing = tree[key]
        if isinstance(existing, list):
            existing.append(value)
        else:
            tree[key] = [existing, value]
    else:
        tree[key] = value


def get(tree: Any, *paths: str) -> Any:
    """The first value found at any of the slash-separated paths (lists: their first item)."""
    for path in paths:
        node = tree
        for part in path.split("/"):
            if isinstance(node, list):
                node = node[0] if node else None
            if not isinstance(node, dict) or part not in node:
                node = None
                break
            node = node[part]
        if isinstance(node, list):
            node = node[0] if node else None
        if node is not None:
            return node
    return None


def text(tree: Any, *paths: str) -> str | None:
    """Like `get`, but only a string value counts."""
    for path in paths:
        value = get(tree, path)
        if isinstance(value, str):
            return value
    return None


def items(tree: Any, path: str) -> list[Any]:
    """All values at `path` as a list (a single value becomes a one-item list)."""
    value = tree
    for part in path.split("/"):
        if isinstance(value, list):
            value = value[0] if value else None
        if not isinstance(value, dict):
            return []
        value = value.get(part)
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def records_from_tree(tree: Tree) -> tuple[rec.NvidiaDriver, list[dict[str, Any]]]:
    """Driver and GPU records from a tree whose keys are XML tags or normalised -q labels."""
    driver = rec.new_driver()
    driver["driver_version"] = rec.clean(text(tree, "driver_version"))
    driver["cuda_driver_max"] = rec.clean(text(tree, "cuda_version"))
    gpus = [
        gpu_from_tree(node, index)
        for index, node in enumerate(items(tree, "gpu"))
        if isinstance(node, dict)
    ]
    attached = rec.integer(text(tree, "attached_gpus"))
    driver["gpu_count"] = attached if attached is not None else len(gpus)
    models = {g.get("driver_model") for g in gpus}
    if models & {"WDDM", "TCC", "MCDM"}:
        driver["platform"] = "windows"
    elif gpus:
        driver["platform"] = "linux"
    return driver, gpus


def gpu_from_tree(node: Tree, index: int) -> dict[str, Any]:
    """One GPU record from a <gpu> subtree (XML tags) or a `GPU …` section (-q labels)."""
    gpu = rec.new_gpu(index)
    gpu["name"] = rec.clean(text(node, "product_name"))
    gpu["pci_bus_id"] = rec.bus_id(text(node, "@id", "pci/pci_bus_id", "pci/bus_id"))
    gpu["uuid"] = rec.clean(text(node, "uuid", "gpu_uuid"))
    gpu["serial"] = rec.clean(text(node, "serial", "serial_number"))
    gpu["architecture"] = rec.clean(text(node, "product_architecture"))
    gpu["memory_total_mib"] = rec.integer(text(node, "fb_memory_usage/total"))
    gpu["memory_used_mib"] = rec.integer(text(node, "fb_memory_usage/used"))
    gpu["mig_mode"] = rec.enabled_state(text(node, "mig_mode/current_mig", "mig_mode/current"))
    gpu["mig_mode_pending"] = rec.enabled_state(
        text(node, "mig_mode/pending_mig", "mig_mode/pending")
    )
    gpu["mig_devices"] = _mig_devices(node)
    gpu["virtualization_mode"] = _virtualization(
        text(node, "gpu_virtualization_mode/virtualization_mode")
    )
    gpu["persistence_mode"] = rec.yes_no(text(node, "persistence_mode"))
    gpu["display_mode"] = rec.yes_no(text(node, "display_mode"))
    gpu["driver_model"] = rec.clean(text(node, "driver_model/current_dm", "driver_model/current"))
    gpu["performance_state"] = rec.clean(text(node, "performance_state"))
    gpu["device_id"] = _device_id(text(node, "pci/pci_device_id", "pci/device_id"))
    gpu["pcie"] = _pcie(node)
    gpu["ecc"] = _ecc(node)
    gpu["remapped_rows"] = _remapped(node)
    gpu["retired_pages"] = _retired(node)
    gpu["throttle_reasons"] = _throttle(node)
    gpu["temperature_c"] = rec.integer(
        text(node, "temperature/gpu_temp", "temperature/gpu_current_temp")
    )
    gpu["power_draw_w"] = _first_number(
        node,
        (
            "gpu_power_readings/power_draw",
            "gpu_power_readings/instant_power_draw",
            "gpu_power_readings/gpu_power_readings/instant_power_draw",
            "gpu_power_readings/instantaneous_power_draw",
            "gpu_power_readings/average_power_draw",
            "power_readings/power_draw",
        ),
    )
    gpu["power_limit_w"] = _first_number(
        node,
        (
            "gpu_power_readings/current_power_limit",
            "gpu_power_readings/gpu_power_readings/current_power_limit",
            "power_readings/power_limit",
            "power_readings/enforced_power_limit",
        ),
    )
    gpu["utilization_gpu_pct"] = rec.integer(text(node, "utilization/gpu_util", "utilization/gpu"))
    processes = get(node, "processes")
    if isinstance(processes, dict):
        gpu["process_count"] = len(items(processes, "process_info")) or len(
            items(processes, "process_id")
        )
    elif processes is not None:
        gpu["process_count"] = 0
    return gpu


def _first_number(node: Tree, paths: tuple[str, ...]) -> float | None:
    for path in paths:
        value = rec.number(text(node, path))
        if value is not None:
            return value
    return None


def _device_id(value: str | None) -> str | None:
    """ "20B210DE" / "0x1E8110DE" (device id + vendor) -> "0x20b2"."""
    value = rec.clean(value)
    if not value:
        return None
    digits = value.lower().removeprefix("0x")
    if len(digits) == 8 and digits.endswith("10de"):
        return "0x" + digits[:4]
    return None


def _virtualization(value: str | None) -> str | None:
    value = rec.clean(value)
    if value is None:
        return None
    lowered = value.lower().replace(" ", "-")
    return {
        "none": "none",
        "pass-through": "pass-through",
        "passthrough": "pass-through",
        "vgpu": "vgpu",
        "host-vgpu": "host-vgpu",
        "host-vsga": "host-vsga",
    }.get(lowered, lowered)


def _mig_devices(node: Tree) -> list[dict[str, Any]]:
    out = []
    for dev in items(node, "mig_devices/mig_device"):
        if not isinstance(dev, dict):
            continue
        out.append(
            {
                "index": rec.integer(text(dev, "index")),
                "gpu_instance_id": rec.integer(text(dev, "gpu_instance_id")),
                "compute_instance_id": rec.integer(text(dev, "compute_instance_id")),
                "uuid": None,
                "profile": None,
                "memory_total_mib": rec.integer(text(dev, "fb_memory_usage/total")),
            }
        )
    return out


def _pcie(node: Tree) -> dict[str, Any]:
    link = get(node, "pci/pci_gpu_link_info", "pci/gpu_link_info") or {}
    return {
        "gen_current": rec.integer(
            text(link, "pcie_gen/current_link_gen", "pcie_generation/current")
        ),
        "gen_max": rec.integer(text(link, "pcie_gen/max_link_gen", "pcie_generation/max")),
        "width_current": rec.integer(
            text(link, "link_widths/current_link_width", "link_width/current")
        ),
        "width_max": rec.integer(text(link, "link_widths/max_link_width", "link_width/max")),
        "replay_counter": rec.integer(text(node, "pci/replay_counter", "pci/replays_since_reset")),
    }


def _sum(values: list[int | None]) -> int | None:
    known = [v for v in values if v is not None]
    return sum(known) if known else None


def _ecc_counts(section: Any, kind: str) -> int | None:
    """Uncorrected (kind="unc") or corrected ("cor") count of an ECC section, old or new layout."""
    if not isinstance(section, dict):
        return None
    if kind == "unc":
        old = rec.integer(text(section, "double_bit/total"))
        new = _sum(
            [
                rec.integer(text(section, k))
                for k in (
                    "dram_uncorrectable",
                    "sram_uncorrectable",
                    "sram_uncorrectable_parity",
                    "sram_uncorrectable_secded",
                )
            ]
        )
    else:
        old = rec.integer(text(section, "single_bit/total"))
        new = _sum(
            [rec.integer(text(section, k)) for k in ("dram_correctable", "sram_correctable")]
        )
    return old if old is not None else new


def _ecc(node: Tree) -> dict[str, Any]:
    errors = get(node, "ecc_errors") or {}
    return {
        "mode": rec.enabled_state(text(node, "ecc_mode/current_ecc", "ecc_mode/current")),
        "mode_pending": rec.enabled_state(text(node, "ecc_mode/pending_ecc", "ecc_mode/pending")),
        "volatile_uncorrected": _ecc_counts(get(errors, "volatile"), "unc"),
        "aggregate_uncorrected": _ecc_counts(get(errors, "aggregate"), "unc"),
        "volatile_corrected": _ecc_counts(get(errors, "volatile"), "cor"),
        "aggregate_corrected": _ecc_counts(get(errors, "aggregate"), "cor"),
        "sram_threshold_exceeded": rec.yes_no(
            text(errors, "aggregate/sram_threshold_exceeded", "aggregate/sram_threshold_exceeded")
        ),
    }


def _remapped(node: Tree) -> dict[str, Any]:
    rows = get(node, "remapped_rows")
    if not isinstance(rows, dict):
        return {"correctable": None, "uncorrectable": None, "pending": None, "failure": None}
    return {
        "correctable": rec.integer(text(rows, "remapped_row_corr", "correctable_error")),
        "uncorrectable": rec.integer(text(rows, "remapped_row_unc", "uncorrectable_error")),
        "pending": rec.yes_no(text(rows, "remapped_row_pending", "pending")),
        "failure": rec.yes_no(text(rows, "remapped_row_failure", "remapping_failure_occurred")),
    }


def _retired(node: Tree) -> dict[str, Any]:
    pages = get(node, "retired_pages")
    if not isinstance(pages, dict):
        return {"single_bit": None, "double_bit": None, "pending": None}
    pending = rec.yes_no(text(pages, "pending_retirement"))
    if pending is None:
        pending = rec.yes_no(text(pages, "pending_blacklist", "pending_page_blacklist"))
    return {
        "single_bit": rec.integer(
            text(pages, "multiple_single_bit_retirement/retired_count", "single_bit_ecc")
        ),
        "double_bit": rec.integer(
            text(pages, "double_bit_retirement/retired_count", "double_bit_ecc")
        ),
        "pending": pending,
    }


_TEXT_REASONS = {
    "idle": "gpu_idle",
    "applications_clocks_setting": "applications_clocks_setting",
    "sw_power_cap": "sw_power_cap",
    "hw_slowdown": "hw_slowdown",
    "sync_boost": "sync_boost",
    "sw_thermal_slowdown": "sw_thermal_slowdown",
    "hw_thermal_slowdown": "hw_thermal_slowdown",
    "hw_power_brake_slowdown": "hw_power_brake_slowdown",
    "display_clock_setting": "display_clocks_setting",
}
_KNOWN_REASONS = set(rec.THROTTLE_BITS.values())


def _throttle(node: Tree) -> list[str] | None:
    section = get(node, "clocks_event_reasons", "clocks_throttle_reasons")
    if not isinstance(section, dict):
        return None
    active: list[str] = []
    seen_any = False
    for key, value in _flatten(section):
        name = key
        for prefix in ("clocks_event_reason_", "clocks_throttle_reason_"):
            name = name.removeprefix(prefix)
        name = _TEXT_REASONS.get(name, name)
        if name not in _KNOWN_REASONS:
            continue
        flag = rec.yes_no(value)
        if flag is None:
            continue
        seen_any = True
        if flag:
            active.append(name)
    return active if seen_any else None


def _flatten(tree: Tree) -> list[tuple[str, str]]:
    out = []
    for key, value in tree.items():
        if isinstance(value, dict):
            out.extend(_flatten(value))
        elif isinstance(value, str):
            out.append((key, value))
    return out
