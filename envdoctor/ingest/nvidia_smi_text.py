"""Reader of `nvidia-smi` text: the default table (pre-2023 and current layouts, Linux, Windows,
WSL2), `nvidia-smi -q`, `nvidia-smi -L`, `nvidia-smi topo -m`, and nvidia-smi's error messages.

All of them fill the `nvidia.driver` / `nvidia.gpus` records of `envdoctor.model.nvidia_records`.
An error message alone still gives a collected `nvidia.driver` group that says what failed
(`driver_loaded`, `nvml_error`, `smi_error`, `library_version`), because that is what checks act on.
"""

from __future__ import annotations

import re
from typing import Any

from envdoctor.ingest import nvidia_smi_xml as xmlreader
from envdoctor.model import nvidia_records as rec
from envdoctor.model.snapshot import Confidence, FactGroup

NAME = "nvidia-smi"
SOURCE = f"pasted:{NAME}"
# every text detect() accepts contains one of these (the ingest driver skips detect() otherwise)
MARKERS = (
    "NVIDIA-SMI",
    "NVSMI LOG",
    "UUID: GPU-",
    "NVML",
    "nvml",
    "CPU Affinity",
    "No devices were found",
    "libnvidia-ml",
    "ersion mismatch",
    "couldn't communicate",
)

_BANNER = re.compile(
    r"NVIDIA-SMI\s+(\S+)\s+Driver Version:\s*(\S+)(?:\s+CUDA Version:\s*([^\s|]+))?"
)
_BUS = r"[0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-7]"
_ROW1 = re.compile(
    rf"^\|\s*(\d+)\s+(.+?)\s+(On|Off|WDDM|TCC|MCDM|N/A)\s*\|\s*({_BUS})\s+(\S+)\s*\|\s*(.*?)\s*\|"
)
_ROW2 = re.compile(
    r"^\|\s*(\S+)\s+(\S+)\s+(P\d+|N/A)\s+(.*?)\s*\|\s*(\d+)MiB\s*/\s*(\d+)MiB\s*\|"
    r"\s*(\S+)\s+(\S+)\s*\|"
)
_ROW3 = re.compile(r"^\|\s*\|\s*\|\s*(\S+)\s*\|\s*$")
_MIG_ROW = re.compile(
    r"^\|\s*(\d+)\s+(\d+|N/A)\s+(\d+|N/A)\s+(\d+)\s*\|\s*(\d+)MiB\s*/\s*(\d+)MiB\s*\|"
)
_PROCESS = re.compile(
    r"^\|\s+(\d+)\s+(?:(?:\d+|N/A)\s+(?:\d+|N/A)\s+)?(\d+)\s+(C\+G|M\+C|C|G|M)\s+(.+?)"
    r"\s+(\d+\s*MiB|N/A)\s*\|"
)
_LIST_GPU = re.compile(r"^GPU (\d+): (.+?) \(UUID: (GPU-[0-9A-Fa-f-]+)\)")
_LIST_MIG = re.compile(r"^\s+MIG (\S+)\s+Device\s+(\d+): \(UUID: (MIG-[^)\s]+)\)")
_Q_LINE = re.compile(r"^(\s*)(\S.*?)\s+:(?:\s(.*))?$")
_TOPO_ROW = re.compile(r"^GPU(\d+)\t")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")

# nvidia-smi's own failure messages -> (NVML code, driver loaded?, short text)
_ERRORS: tuple[tuple[re.Pattern[str], int | None, bool | None, str], ...] = (
    (
        re.compile(r"couldn't communicate with the NVIDIA driver", re.I),
        None,
        False,
        "couldn't communicate with the NVIDIA driver",
    ),
    (
        re.compile(r"Driver/library version mismatch", re.I),
        18,
        True,
        "Driver/library version mismatch",
    ),
    (re.compile(r"NVML:\s*Driver Not Loaded", re.I), 9, False, "Driver Not Loaded"),
    (
        re.compile(r"Failed to initialize NVML:\s*Insufficient Permissions", re.I),
        4,
        True,
        "Insufficient Permissions",
    ),
    (re.compile(r"Failed to initialize NVML:\s*Unknown Error", re.I), 999, None, "Unknown Error"),
    (
        re.compile(
            r"Failed to initialize NVML:\s*GPU access blocked by the operating system", re.I
        ),
        17,
        None,
        "GPU access blocked by the operating system",
    ),
    (re.compile(r"couldn't find libnvidia-ml\.so", re.I), 12, None, "libnvidia-ml.so not found"),
    (re.compile(r"^No devices were found", re.I | re.M), None, True, "No devices were found"),
)
_NVML_LIBRARY = re.compile(r"NVML library version:\s*([\d.]+)")
_LOST = re.compile(r"Unable to determine the device handle for GPU\s*([0-9A-Fa-f:.]+):\s*(.+)")


def detect(text: str) -> bool:
    """Whether the text holds nvidia-smi output of a kind this reader knows."""
    head = text[:400000]
    return bool(
        _BANNER.search(head)
        or "NVSMI LOG" in head
        or _LIST_GPU.search(head)
        or re.search(r"^GPU \d+: .+\(UUID:", head, re.M)
        or any(p.search(head) for p, *_ in _ERRORS)
        or ("CPU Affinity" in head and re.search(r"^\s*(\x1b\[[0-9;]*m)?GPU0\b", head, re.M))
    )


def read(text: str) -> list[FactGroup]:
    """The driver and GPU fact groups in pasted nvidia-smi text."""
    parsed = parse(text)
    if parsed is None:
        return []
    driver, gpus = parsed
    return xmlreader.groups(driver, gpus, SOURCE, Confidence.MEDIUM)


def parse(text: str) -> tuple[rec.NvidiaDriver, list[dict[str, Any]]] | None:
    """(driver record, GPU records) from nvidia-smi text, or None when nothing was recognised."""
    text = text.replace("\r\n", "\n")
    found = False
    driver = rec.new_driver()
    gpus: list[dict[str, Any]] = []
    for part in (_query(text), _table(text), _listing(text), _topology(text)):
        if part is None:
            continue
        found = True
        part_driver, part_gpus = part
        rec.fill_driver(driver, part_driver)
        gpus = _merge_gpus(gpus, part_gpus)
    if _errors(text, driver):
        found = True
    if not found:
        return None
    if driver["gpu_count"] is None and gpus:
        driver["gpu_count"] = len(gpus)
    if gpus and driver["driver_loaded"] is None:
        driver["driver_loaded"] = True
    driver["sources"] = ["nvidia-smi"]
    return driver, gpus


def _fill(target: dict[str, Any], source: dict[str, Any]) -> None:
    for key, value in source.items():
        if target.get(key) in (None, [], {}) and value not in (None, [], {}):
            target[key] = value


def _merge_gpus(base: list[dict[str, Any]], extra: list[dict[str, Any]]) -> list[dict[str, Any]]:
    if not base:
        return extra
    by_index = {g["index"]: g for g in base}
    for gpu in extra:
        target = by_index.get(gpu["index"])
        if target is None:
            base.append(gpu)
            continue
        for key, value in gpu.items():
            if isinstance(value, dict) and isinstance(target.get(key), dict):
                _fill(target[key], value)
            elif key == "mig_devices" and value:
                _merge_mig(target, value)
            elif target.get(key) is None and value is not None:
                target[key] = value
    return base


def _merge_mig(target: dict[str, Any], devices: list[dict[str, Any]]) -> None:
    if not target.get("mig_devices"):
        target["mig_devices"] = devices
        return
    for have, more in zip(target["mig_devices"], devices, strict=False):  # fill those both list
        _fill(have, more)


# -- the default table ------------------------------------------------------------------------


def _table(text: str) -> tuple[rec.NvidiaDriver, list[dict[str, Any]]] | None:
    banner = _BANNER.search(text)
    if not banner:
        return None
    driver = rec.new_driver()
    driver["smi_version"] = banner.group(1)
    driver["driver_version"] = rec.clean(banner.group(2))
    printed = banner.group(3)
    driver["cuda_version_printed"] = printed
    driver["cuda_driver_max"] = (
        rec.clean(printed) if printed and re.fullmatch(r"\d+\.\d+", printed) else None
    )
    gpus: list[dict[str, Any]] = []
    windows = bool(re.search(r"Driver-Model|TCC/WDDM", text))
    section = "gpus"
    current: dict[str, Any] | None = None
    stage = 0
    for line in text.splitlines():
        stripped = line.strip()
        if "MIG devices:" in stripped:
            section, current = "mig", None
            continue
        if "Processes:" in stripped:
            section, current = "processes", None
            continue
        if section == "gpus":
            if stripped.startswith("+-") or stripped.startswith("|=") or stripped.startswith("|-"):
                stage = 0 if stripped.startswith("+-") or stripped.startswith("|-") else stage
                continue
            match = _ROW1.match(stripped)
            if match:
                current = _row1(match)
                gpus.append(current)
                stage = 1
                continue
            if current is not None and stage == 1 and (m2 := _ROW2.match(stripped)):
                _row2(current, m2)
                stage = 2
                continue
            if current is not None and stage == 2 and (m3 := _ROW3.match(stripped)):
                current["mig_mode"] = rec.enabled_state(m3.group(1))
                stage = 3
        elif section == "mig":
            match = _MIG_ROW.match(stripped)
            if match:
                _mig_row(gpus, match)
        elif section == "processes":
            match = _PROCESS.match(stripped)
            if match:
                _process_row(gpus, match)
                if re.match(r"[A-Za-z]:\\", match.group(4)):
                    windows = True
    for gpu in gpus:
        if gpu["process_count"] is None and "No running processes found" in text:
            gpu["process_count"] = 0
        if gpu["driver_model"] in {"WDDM", "TCC", "MCDM"}:
            windows = True
    if windows:
        driver["platform"] = "windows"
    elif (
        driver["smi_version"]
        and driver["driver_version"]
        and driver["smi_version"] != driver["driver_version"]
    ):
        driver["platform"] = "wsl"  # Linux nvidia-smi from WSL's lib folder, Windows driver version
    elif gpus:
        driver["platform"] = "linux"
    driver["gpu_count"] = len(gpus) if gpus else None
    return driver, gpus


def _row1(match: re.Match[str]) -> dict[str, Any]:
    gpu = rec.new_gpu(int(match.group(1)))
    name = match.group(2).strip()
    gpu["name"] = name
    gpu["name_truncated"] = name.endswith("...")
    mode = match.group(3)
    if mode in {"On", "Off"}:
        gpu["persistence_mode"] = mode == "On"
    elif mode in {"WDDM", "TCC", "MCDM"}:
        gpu["driver_model"] = mode
    gpu["pci_bus_id"] = rec.bus_id(match.group(4))
    gpu["display_active"] = rec.yes_no(match.group(5))
    ecc = match.group(6).strip()
    if ecc.isdigit():
        gpu["ecc"]["volatile_uncorrected"] = int(ecc)
    return gpu


def _row2(gpu: dict[str, Any], match: re.Match[str]) -> None:
    gpu["fan_pct"] = rec.integer(match.group(1))
    gpu["temperature_c"] = rec.integer(match.group(2))
    gpu["performance_state"] = rec.clean(match.group(3))
    power = match.group(4)
    if "/" in power:
        draw, cap = power.split("/", 1)
        gpu["power_draw_w"] = rec.number(draw.replace("W", ""))
        gpu["power_limit_w"] = rec.number(cap.replace("W", ""))
    gpu["memory_used_mib"] = int(match.group(5))
    gpu["memory_total_mib"] = int(match.group(6))
    gpu["utilization_gpu_pct"] = (
        rec.integer(match.group(7).rstrip("%")) if match.group(7) != "N/A" else None
    )
    gpu["compute_mode"] = rec.clean(match.group(8))


def _mig_row(gpus: list[dict[str, Any]], match: re.Match[str]) -> None:
    index = int(match.group(1))
    gpu = next((g for g in gpus if g["index"] == index), None)
    if gpu is None:
        return
    gpu["mig_devices"].append(
        {
            "index": int(match.group(4)),
            "gpu_instance_id": rec.integer(match.group(2)),
            "compute_instance_id": rec.integer(match.group(3)),
            "uuid": None,
            "profile": None,
            "memory_total_mib": int(match.group(6)),
        }
    )


def _process_row(gpus: list[dict[str, Any]], match: re.Match[str]) -> None:
    index = int(match.group(1))
    gpu = next((g for g in gpus if g["index"] == index), None)
    if gpu is not None:
        gpu["process_count"] = (gpu["process_count"] or 0) + 1


# -- nvidia-smi -L ----------------------------------------------------------------------------


def _listing(text: str) -> tuple[rec.NvidiaDriver, list[dict[str, Any]]] | None:
    gpus: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    for line in text.splitlines():
        match = _LIST_GPU.match(line)
        if match:
            current = rec.new_gpu(int(match.group(1)))
            current["name"] = match.group(2).strip()
            current["uuid"] = match.group(3)
            gpus.append(current)
            continue
        mig = _LIST_MIG.match(line)
        if mig and current is not None:
            current["mig_mode"] = "enabled"
            current["mig_devices"].append(
                {
                    "index": int(mig.group(2)),
                    "gpu_instance_id": None,
                    "compute_instance_id": None,
                    "uuid": mig.group(3),
                    "profile": mig.group(1),
                    "memory_total_mib": None,
                }
            )
    return _gpus_only(gpus)


def _gpus_only(gpus: list[dict[str, Any]]) -> tuple[rec.NvidiaDriver, list[dict[str, Any]]] | None:
    """A listing that names GPUs but no driver facts: (driver record with the count, GPUs)."""
    if not gpus:
        return None
    driver = rec.new_driver()
    driver["gpu_count"] = len(gpus)
    return driver, gpus


# -- nvidia-smi topo -m -----------------------------------------------------------------------


def _topology(text: str) -> tuple[rec.NvidiaDriver, list[dict[str, Any]]] | None:
    clean_text = _ANSI.sub("", text)
    if "CPU Affinity" not in clean_text:
        return None
    lines = clean_text.splitlines()
    header = next((line for line in lines if "CPU Affinity" in line), "")
    columns = [c.strip() for c in header.split("\t")]
    gpus: list[dict[str, Any]] = []
    for line in lines:
        match = _TOPO_ROW.match(line)
        if not match:
            continue
        cells = [c.strip() for c in line.split("\t")]
        gpu = rec.new_gpu(int(match.group(1)))
        row = dict(zip(columns, cells, strict=False))  # a short row leaves the last columns out
        gpu["cpu_affinity"] = rec.clean(row.get("CPU Affinity"))
        gpu["numa_affinity"] = rec.clean(row.get("NUMA Affinity"))
        gpus.append(gpu)
    return _gpus_only(gpus)


# -- nvidia-smi -q ----------------------------------------------------------------------------


def _query(text: str) -> tuple[rec.NvidiaDriver, list[dict[str, Any]]] | None:
    start = text.find("NVSMI LOG")
    if start < 0:
        return None
    tree = query_tree(text[start:].split("\n", 1)[-1])
    driver, gpus = xmlreader.records_from_tree(tree)
    return driver, gpus


def _label(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.strip().lower()).strip("_")


def query_tree(text: str) -> dict[str, Any]:
    """`nvidia-smi -q` text as a tree of normalised labels ("FB Memory Usage" -> fb_memory_usage).

    Each "GPU 00000000:01:00.0" section becomes an item of the `gpu` list with its bus id in "@id".
    A value line followed by deeper lines (HW Slowdown, Process ID) keeps them as its siblings.
    """
    root: dict[str, Any] = {}
    stack: list[tuple[int, dict[str, Any]]] = [(-1, root)]
    for raw in text.splitlines():
        if not raw.strip():
            continue
        indent = len(raw) - len(raw.lstrip(" "))
        line = raw.strip()
        gpu = re.match(rf"^GPU ({_BUS})$", line)
        match = _Q_LINE.match(raw)
        while len(stack) > 1 and stack[-1][0] >= indent:
            stack.pop()
        parent = stack[-1][1]
        if gpu:
            node: dict[str, Any] = {"@id": gpu.group(1)}
            xmlreader._put(parent, "gpu", node)
            stack.append((indent, node))
        elif match:
            xmlreader._put(parent, _label(match.group(2)), (match.group(3) or "").strip())
        else:
            node = {}
            xmlreader._put(parent, _label(line), node)
            stack.append((indent, node))
    return root


# -- error messages ---------------------------------------------------------------------------


def _errors(text: str, driver: rec.NvidiaDriver) -> bool:
    found = False
    for pattern, code, loaded, message in _ERRORS:
        if not pattern.search(text):
            continue
        found = True
        if code is not None and driver.get("nvml_error") is None:
            driver["nvml_error"] = {
                "code": code,
                "name": rec.NVML_ERROR_NAMES.get(code, str(code)),
                "message": message,
            }
        if code is None and driver.get("smi_error") is None:
            driver["smi_error"] = message
        if loaded is not None and driver.get("driver_loaded") is None:
            driver["driver_loaded"] = loaded
        if message == "No devices were found":
            driver["gpu_count"] = 0
    library = _NVML_LIBRARY.search(text)
    if library:
        driver["library_version"] = library.group(1)
        found = True
    lost = _LOST.search(text)
    if lost:
        driver["smi_error"] = (
            driver.get("smi_error") or f"GPU {lost.group(1)}: {lost.group(2).strip()}"
        )
        found = True
    return found
