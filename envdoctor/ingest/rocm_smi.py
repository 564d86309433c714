"""Reader of `rocm-smi` and `amd-smi` output (pasted, or run by the amd_gpu probe).

Formats read:
- `rocm-smi` (concise table): `Device  [Model : Revision] ...` rows, each followed by the product
  name line (20 characters) on newer releases;
- `rocm-smi -a` / `--showallinfo` text: `GPU[0]\t\t: Card series: \t\tAMD Instinct MI300X OAM`;
- `rocm-smi ... --json`: {"card0": {...}, "system": {"Driver version": ...}} with the key spellings
  of ROCm 2020-6.x ("Card series" / "Card Series", "GPU ID" / "Device ID", "GFX Version",
  "VRAM Total Memory (B)" / "vram Total Memory (B)", values padded with spaces and tabs);
- `amd-smi static --json` / `amd-smi list --json`: a list (or {"gpu_data": [...]}) of
  {"gpu": N, "asic": {market_name, target_graphics_version, device_id}, "bus": {"bdf"}, "vram":
  {"size"}, "driver": {"version"}, "bdf", "uuid"}.

Fills `amd.gpus` (gpus: index, name, gfx_target (as printed; the enrichment step looks up the
others from the product name: gfx_target_source "product-name"), device_id, pci_bus_id, unique_id, vram_mib,
vbios, sku) and `amd.kernel` (amdgpu.version: the driver version rocm-smi prints — the amdgpu
DKMS version, or the kernel release with the in-tree driver).
"""

from __future__ import annotations

import json
import re
from typing import Any

from envdoctor.model import amd_gfx
from envdoctor.model.json_values import as_dict, as_list
from envdoctor.model.snapshot import Confidence, FactGroup, collected

NAME = "rocm-smi"
SOURCE = f"pasted:{NAME}"
MARKERS = ("ROCm System Management Interface", "ROCm SMI", "GPU[", '"card', '"gpu"', '"gpu_data"')

_BANNER = re.compile(r"ROCm System Management Interface|End of ROCm SMI Log")
_A_LINE = re.compile(r"^GPU\[(\d+)\]\s*:\s*(?P<key>[^:]+?):\s*(?P<value>.*?)\s*$")
_CONCISE_ROW = re.compile(r"^(\d+)\s+(?:\d+\s+)?\[(0x[0-9a-fA-F]+)\s*:\s*(0x[0-9a-fA-F]+)\]")
_DRIVER = re.compile(r"^\s*Driver version:\s*(\S+)", re.M)
_HEX_NAME = re.compile(r"^0x[0-9a-f]+$", re.I)


def detect(text: str) -> bool:
    """rocm-smi's banner, its `GPU[n] : key: value` lines, or rocm-smi / amd-smi JSON."""
    head = text[:2_000_000]
    if _BANNER.search(head) or re.search(r"^GPU\[\d+\]\s*:", head, re.M):
        return True
    stripped = head.lstrip()
    if stripped[:1] in "[{":
        data = _json(text)
        return _smi_json_kind(data) is not None
    return False


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: nested deeper than json can read
        return None


def _smi_json_kind(data: Any) -> str | None:
    if isinstance(data, dict) and any(re.fullmatch(r"card\d+", str(k)) for k in data):
        return "rocm-smi"
    if isinstance(data, dict) and isinstance(data.get("gpu_data"), list):
        return "amd-smi"
    if isinstance(data, list) and data and all(isinstance(d, dict) and "gpu" in d for d in data):
        return "amd-smi"
    return None


def parse(text: str) -> dict[str, Any]:
    """{gpus, driver_version, format} of a rocm-smi / amd-smi text."""
    data = _json(text) if text.lstrip()[:1] in "[{" else None
    kind = _smi_json_kind(data)
    if kind == "rocm-smi":
        gpus, driver = _rocm_smi_json(as_dict(data))
        fmt = "rocm-smi-json"
    elif kind == "amd-smi":
        gpus, driver = _amd_smi_json(data)
        fmt = "amd-smi-json"
    elif re.search(r"^GPU\[\d+\]\s*:", text, re.M):
        gpus, driver = _rocm_smi_all(text)
        fmt = "rocm-smi-a"
    else:
        gpus, driver = _concise(text), None
        match = _DRIVER.search(text)
        driver = match.group(1) if match else None
        fmt = "rocm-smi-concise"
    for gpu in gpus:
        if gpu.get("gfx_target"):
            gpu["gfx_target_version"] = amd_gfx.target_version_of(gpu["gfx_target"])
    return {"gpus": gpus, "driver_version": driver, "format": fmt}


def _clean(value: Any) -> str | None:
    text = str(value).strip() if value is not None else ""
    return None if not text or text.upper() in ("N/A", "NA", "NONE") else text


def _bytes_to_mib(value: Any) -> int | None:
    text = _clean(value)
    return int(text) // (1024 * 1024) if text and text.isdigit() else None


def _name_of(fields: dict[str, Any]) -> str | None:
    for key in ("card series", "device name", "card model", "market_name", "marketing name"):
        value = _clean(fields.get(key))
        if value and not _HEX_NAME.match(value):
            return value
    return None


def _record(index: int, fields: dict[str, Any]) -> dict[str, Any]:
    fields = {str(k).strip().lower(): v for k, v in fields.items()}
    device = _clean(fields.get("device id") or fields.get("gpu id"))
    gfx = amd_gfx.normalize_gfx(_clean(fields.get("gfx version")) or "")
    unique = _clean(fields.get("unique id"))
    if unique and not unique.lower().startswith("0x") and re.fullmatch(r"[0-9a-fA-F]+", unique):
        unique = "0x" + unique
    pci = _clean(fields.get("pci bus"))
    return {
        "index": index,
        "name": _name_of(fields),
        "gfx_target": gfx,
        "device_id": device.lower() if device else None,
        "pci_bus_id": pci.lower() if pci else None,
        "unique_id": unique.lower() if unique else None,
        "vram_mib": _bytes_to_mib(fields.get("vram total memory (b)")),
        "vbios": _clean(fields.get("vbios version")),
        "sku": _clean(fields.get("card sku")),
    }


def _rocm_smi_json(data: dict[str, Any]) -> tuple[list[dict[str, Any]], str | None]:
    cards = sorted(
        (int(k[4:]), v)
        for k, v in data.items()
        if re.fullmatch(r"card\d+", str(k)) and isinstance(v, dict)
    )
    gpus = []
    for ordinal, (card, fields) in enumerate(cards):
        record = _record(ordinal, fields)
        record["card"] = card
        gpus.append(record)
    system = as_dict(data.get("system"))
    return gpus, _clean(system.get("Driver version"))


def _rocm_smi_all(text: str) -> tuple[list[dict[str, Any]], str | None]:
    per: dict[int, dict[str, str]] = {}
    for line in text.splitlines():
        match = _A_LINE.match(line)
        if match:
            per.setdefault(int(match.group(1)), {}).setdefault(
                match.group("key").strip(), match.group("value").strip()
            )
    driver = _DRIVER.search(text)
    return [_record(i, per[i]) for i in sorted(per)], driver.group(1) if driver else None


def _concise(text: str) -> list[dict[str, Any]]:
    lines = text.splitlines()
    gpus = []
    for i, line in enumerate(lines):
        match = _CONCISE_ROW.match(line.strip())
        if not match:
            continue
        name = None
        if (
            i + 1 < len(lines)
            and lines[i + 1].startswith(" ")
            and not _CONCISE_ROW.match(lines[i + 1].strip())
        ):
            candidate = lines[i + 1].strip()
            if candidate and not candidate.startswith("="):
                name = candidate
        gpus.append(
            {
                "index": int(match.group(1)),
                "name": name,
                "gfx_target": None,
                "device_id": match.group(2).lower(),
                "pci_bus_id": None,
                "unique_id": None,
                "vram_mib": None,
                "vbios": None,
                "sku": None,
            }
        )
    return gpus


def _amd_smi_json(data: Any) -> tuple[list[dict[str, Any]], str | None]:
    items = data.get("gpu_data") if isinstance(data, dict) else data
    gpus = []
    driver = None
    for ordinal, item in enumerate(i for i in as_list(items) if isinstance(i, dict)):
        asic = as_dict(item.get("asic"))
        bus = as_dict(item.get("bus"))
        vram = as_dict(item.get("vram"))
        drv = as_dict(item.get("driver"))
        driver = driver or _clean(drv.get("version"))
        name = _clean(asic.get("market_name"))
        index = item.get("gpu") if isinstance(item.get("gpu"), int) else ordinal
        unique = _clean(asic.get("asic_serial"))
        gpus.append(
            {
                "index": index,
                "name": name if name and not _HEX_NAME.match(name) else None,
                "gfx_target": amd_gfx.normalize_gfx(
                    _clean(asic.get("target_graphics_version")) or ""
                ),
                "device_id": (_clean(asic.get("device_id")) or "").lower() or None,
                "pci_bus_id": (
                    _clean(bus.get("bdf"))
                    or _clean(item.get("bdf"))
                    or _clean(asic.get("pci_bdf"))
                    or ""
                ).lower()
                or None,
                "unique_id": unique.lower() if unique else None,
                "vram_mib": _vram_size(vram.get("size")),
                "vbios": None,
                "sku": None,
            }
        )
    return gpus, driver


def _vram_size(value: Any) -> int | None:
    """amd-smi's VRAM size: {"value": 196592, "unit": "MB"} or "196592 MB" (MB = MiB there)."""
    if isinstance(value, dict):
        number, unit = value.get("value"), str(value.get("unit") or "MB")
    else:
        match = re.match(r"^\s*(\d+)\s*([KMG]i?B)?\s*$", str(value or ""), re.I)
        if not match:
            return None
        number, unit = match.group(1), match.group(2) or "MB"
    try:
        amount = int(str(number))
    except (TypeError, ValueError):
        return None
    scale = {"kb": 1 / 1024, "kib": 1 / 1024, "mb": 1, "mib": 1, "gb": 1024, "gib": 1024}.get(
        unit.lower()
    )
    return int(amount * scale) if scale else None


def groups_from(
    facts: dict[str, Any], source: str = SOURCE, confidence: Confidence = Confidence.MEDIUM
) -> list[FactGroup]:
    """The fact groups of parsed rocm-smi / amd-smi output."""
    from envdoctor.ingest.rocminfo import gpu_summary, with_memory_alias

    out = []
    with_memory_alias(facts["gpus"])
    if facts["gpus"]:
        out.append(
            collected(
                "amd.gpus",
                source,
                {"gpus": facts["gpus"], "count": len(facts["gpus"])},
                summary=gpu_summary(facts["gpus"]),
                confidence=confidence,
            )
        )
    if facts.get("driver_version"):
        out.append(
            collected(
                "amd.kernel",
                source,
                {"amdgpu": {"loaded": True, "version": facts["driver_version"]}},
                summary=f"amdgpu driver {facts['driver_version']}",
                confidence=confidence,
            )
        )
    return out


def read(text: str) -> list[FactGroup]:
    """The fact groups of pasted rocm-smi / amd-smi output."""
    return groups_from(parse(text))
