"""Reader of `rocminfo` output (pasted, or run by the amd_gpu probe).

rocminfo prints "HSA System Attributes", then one block per HSA agent between `*******` lines:
CPU agents first, then GPUs (`Device Type: GPU`) with `Name: gfx942`, `Marketing Name`, `Uuid`
(`GPU-<hex unique id>`), `Node` (the KFD node), `Chip ID: 29857(0x74a1)`, `BDFID` (PCI bus << 8 |
device << 3 | function), `Compute Unit`, `Memory Properties: APU` (newer runtimes), pools (the
first GLOBAL COARSE GRAINED pool of a GPU is its VRAM, in KB) and the ISA name
(`amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-`). Before the attributes it may say
`ROCk module is loaded` / `ROCk module version 6.7.0 is loaded` / `ROCk module is NOT loaded`, and
on failure `Unable to open /dev/kfd read-write: Permission denied` and `<user> is not member of
"render" group`. Column padding (trailing spaces) and its absence (WSL builds) both parse.

Fills `amd.gpus` (gpus: index, name, gfx_target, gfx_target_version, vram_mib, pci_bus_id,
unique_id, is_apu, kfd_node, device_id, compute_units, isa), `amd.rocm` (hsa_runtime_version,
hsa_runtime_ext_version) and `amd.kernel` (amdgpu.loaded / version from the ROCk line, kfd.error,
kfd.accessible, user.not_in_render_group) when the text says so.
"""

from __future__ import annotations

import re
from typing import Any

from envdoctor.model import amd_gfx
from envdoctor.model.snapshot import Confidence, FactGroup, collected

NAME = "rocminfo"
SOURCE = f"pasted:{NAME}"
MARKERS = ("HSA Agents", "HSA System Attributes", "ROCk module", "/dev/kfd", "Device Type:")

_KEY = re.compile(r"^(?P<indent>\s*)(?P<key>[A-Za-z][^:]*?)\s*:{1,2}\s*(?P<value>.*?)\s*$")
_AGENT = re.compile(r"^\s*Agent\s+(\d+)\s*$")
_NUMBER = re.compile(r"^(\d+)")
_HEX_IN_PARENS = re.compile(r"\(0x([0-9a-fA-F]+)\)")
_ROCK = re.compile(
    r"ROCk module(?: version (?P<version>\S+))? is (?P<not>NOT )?loaded", re.IGNORECASE
)
_KFD_OPEN = re.compile(
    r"Unable to open /dev/kfd read-write:\s*(?P<why>.+?)\s*$", re.IGNORECASE | re.MULTILINE
)
# (?<!\S) and the bound: tried once per word, so a long line without spaces costs linear time
_NOT_MEMBER = re.compile(
    r"(?<!\S)(?P<user>\S{1,256}) is not member of \"(?P<group>\w+)\" group", re.IGNORECASE
)
_HSA_ERROR = re.compile(r"(HSA_STATUS_ERROR_[A-Z_]+)")
_SECTIONS = ("Pool Info", "ISA Info", "Cache Info")


def detect(text: str) -> bool:
    """Whether the text holds rocminfo output (its section headers, an agent block, or its
    ROCk / /dev/kfd lines)."""
    head = text[:2_000_000]
    if "HSA Agents" in head or "HSA System Attributes" in head:
        return True
    if _ROCK.search(head) or _KFD_OPEN.search(head):
        return True
    return bool(re.search(r"^\s*Agent \d+\s*$", head, re.M) and "Device Type:" in head)


def parse(text: str) -> dict[str, Any]:
    """The facts of a rocminfo text: {gpus, cpus, runtime_version, runtime_ext_version,
    rock_loaded, rock_version, kfd_error, not_member, hsa_errors, complete}."""
    agents: list[dict[str, Any]] = []
    system: dict[str, str] = {}
    current: dict[str, Any] | None = None
    section: str | None = None
    pool: dict[str, str] | None = None
    lines = text.splitlines()
    for i, line in enumerate(lines):
        stripped = line.strip()
        agent = _AGENT.match(line)
        if agent and i > 0 and lines[i - 1].strip().startswith("****"):
            current = {"agent": int(agent.group(1)), "pools": [], "isas": []}
            agents.append(current)
            section, pool = None, None
            continue
        if stripped.startswith("*** Done"):
            current = None
            continue
        match = _KEY.match(line)
        if not match:
            if current is not None and re.match(r"^\s*Pool \d+\s*$", line):
                pool = {}
                current["pools"].append(pool)
            continue
        indent = len(match.group("indent"))
        key, value = match.group("key").strip(), match.group("value").strip()
        if current is None:
            if indent == 0:
                system[key] = value
            continue
        if indent <= 2:
            if key in _SECTIONS:
                section = key
            else:
                current.setdefault(key, value)
                section = None
            pool = None
        elif section == "Pool Info" and pool is not None:
            pool.setdefault(key, value)
        elif section == "ISA Info" and key == "Name":
            current["isas"].append(value)
    rock = _ROCK.search(text)
    kfd = _KFD_OPEN.search(text)
    member = _NOT_MEMBER.search(text)
    gpus_raw = [a for a in agents if a.get("Device Type", "").upper() == "GPU"]
    cpus = [a for a in agents if a.get("Device Type", "").upper() == "CPU"]
    complete = any(a["agent"] == 1 for a in agents)
    return {
        "gpus": [_gpu(a, n, complete, len(cpus)) for n, a in enumerate(gpus_raw)],
        "cpus": [a.get("Marketing Name") or a.get("Name") for a in cpus],
        "runtime_version": system.get("Runtime Version") or None,
        "runtime_ext_version": system.get("Runtime Ext Version") or None,
        "rock_loaded": None if rock is None else not rock.group("not"),
        "rock_version": rock.group("version") if rock else None,
        "kfd_error": kfd.group("why") if kfd else None,
        "not_member": {"user": member.group("user"), "group": member.group("group")}
        if member
        else None,
        "hsa_errors": sorted(set(_HSA_ERROR.findall(text))),
        "complete": complete,
    }


def _gpu(agent: dict[str, Any], ordinal: int, complete: bool, cpu_count: int) -> dict[str, Any]:
    node = _int(agent.get("Node"))
    index = ordinal
    if not complete and node is not None:
        # a slice of a long listing: assume the usual one CPU agent before the GPUs
        index = max(node - max(cpu_count, 1), 0)
    gfx = amd_gfx.normalize_gfx(agent.get("Name")) or next(
        (amd_gfx.normalize_gfx(i) for i in agent["isas"]), None
    )
    uuid = (agent.get("Uuid") or "").strip()
    unique = None
    if (
        uuid.upper().startswith("GPU-")
        and uuid[4:].upper() != "XX"
        and re.fullmatch(r"[0-9a-fA-F]+", uuid[4:])
    ):
        unique = "0x" + uuid[4:].lower()
    chip = _HEX_IN_PARENS.search(agent.get("Chip ID") or "")
    bdf = _int(agent.get("BDFID"))
    name = agent.get("Marketing Name") or None
    memory = (agent.get("Memory Properties") or "").upper()
    return {
        "index": index,
        "name": name if name and name.lower() != "n/a" else None,
        "gfx_target": gfx,
        "gfx_target_version": amd_gfx.target_version_of(gfx) if gfx else None,
        "vram_mib": _vram_mib(agent["pools"]),
        "pci_bus_id": _bdf(bdf) if bdf else None,
        "unique_id": unique,
        "is_apu": True if "APU" in memory.split() else None,
        "kfd_node": node,
        "device_id": f"0x{int(chip.group(1), 16):04x}" if chip and int(chip.group(1), 16) else None,
        "compute_units": _int(agent.get("Compute Unit")),
        "isa": agent["isas"][0] if agent["isas"] else None,
        "vendor": agent.get("Vendor Name") or None,
    }


def _vram_mib(pools: list[dict[str, str]]) -> int | None:
    for pool in pools:
        segment = pool.get("Segment", "").upper()
        if segment.startswith("GLOBAL") and "COARSE" in segment:
            size = _NUMBER.match(pool.get("Size", ""))
            unit = "KB" if "KB" in pool.get("Size", "").upper() else None
            if size and unit:
                return int(size.group(1)) // 1024
    return None


def _bdf(value: int) -> str:
    bus, devfn = value >> 8, value & 0xFF
    return f"0000:{bus:02x}:{devfn >> 3:02x}.{devfn & 7:x}"


def _int(text: Any) -> int | None:
    match = _NUMBER.match(str(text or "").strip())
    return int(match.group(1)) if match else None


def groups_from(
    facts: dict[str, Any], source: str = SOURCE, confidence: Confidence = Confidence.MEDIUM
) -> list[FactGroup]:
    """The fact groups a parsed rocminfo text gives."""
    out: list[FactGroup] = []
    gpus = with_memory_alias(facts["gpus"])
    if gpus:
        out.append(
            collected(
                "amd.gpus",
                source,
                {"gpus": gpus, "count": len(gpus)},
                summary=gpu_summary(gpus),
                confidence=confidence,
            )
        )
    if facts.get("runtime_version"):
        out.append(
            collected(
                "amd.rocm",
                source,
                {
                    "hsa_runtime_version": facts["runtime_version"],
                    "hsa_runtime_ext_version": facts.get("runtime_ext_version"),
                },
                summary=f"HSA runtime {facts['runtime_version']}",
                confidence=confidence,
            )
        )
    kernel: dict[str, Any] = {}
    if facts.get("rock_loaded") is not None:
        kernel["amdgpu"] = {"loaded": facts["rock_loaded"], "version": facts.get("rock_version")}
    if facts.get("kfd_error"):
        kernel["kfd"] = {
            "path": "/dev/kfd",
            "exists": True,
            "accessible": False,
            "error": facts["kfd_error"],
        }
    if facts.get("not_member"):
        kernel["user"] = {
            "user": facts["not_member"]["user"],
            "not_in_group": facts["not_member"]["group"],
        }
    if facts.get("hsa_errors"):
        kernel["hsa_errors"] = facts["hsa_errors"]
    if kernel:
        parts = []
        if "amdgpu" in kernel:
            parts.append(
                "amdgpu (ROCk) " + ("loaded" if kernel["amdgpu"]["loaded"] else "NOT loaded")
            )
        if "kfd" in kernel:
            parts.append(f"/dev/kfd: {facts['kfd_error']}")
        out.append(
            collected(
                "amd.kernel",
                source,
                kernel,
                summary=", ".join(parts) or "rocminfo messages",
                confidence=confidence,
            )
        )
    return out


def with_memory_alias(gpus: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records with `memory_total_mib` beside `vram_mib` (the name preflight's vram>= reads
    for every vendor)."""
    for gpu in gpus:
        if gpu.get("vram_mib") is not None:
            gpu.setdefault("memory_total_mib", gpu["vram_mib"])
    return gpus


def gpu_summary(gpus: list[dict[str, Any]]) -> str:
    """ "4 AMD GPUs: 4× AMD Instinct MI300X (gfx942)"."""
    counts: dict[str, int] = {}
    for gpu in gpus:
        label = gpu.get("name") or "AMD GPU"
        if gpu.get("gfx_target"):
            label += f" ({gpu['gfx_target']})"
        counts[label] = counts.get(label, 0) + 1
    shown = ", ".join(f"{n}× {label}" if n > 1 else label for label, n in counts.items())
    return f"{len(gpus)} AMD GPU{'s' if len(gpus) != 1 else ''}: {shown}"


def read(text: str) -> list[FactGroup]:
    """The fact groups of a pasted rocminfo output. A paste that also holds rocm-smi / amd-smi
    output in the same text block (one terminal session) gets that read too, merged in."""
    groups = groups_from(parse(text))
    from envdoctor.ingest import merge_groups, rocm_smi

    if rocm_smi.detect(text):
        by_name = {g.name: g for g in groups}
        for group in rocm_smi.read(text):
            by_name[group.name] = (
                merge_groups(by_name[group.name], group) if group.name in by_name else group
            )
        groups = list(by_name.values())
    return groups
