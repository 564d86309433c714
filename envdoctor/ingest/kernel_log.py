"""Reader of kernel-log text (dmesg, dmesg -T, journalctl -k, /var/log/kern.log): NVRM lines.

Fills `nvidia.events` with:
- `xids`: [{code, pci, message, time, pid, process}] from "NVRM: Xid (PCI:0000:01:00): 79, ...";
- `messages`: [{kind, pci, text, time}] for the NVRM lines that name a cause (see `_KINDS`:
  fallen-off-bus, api-mismatch, probe-not-called (nouveau owns the GPU), gpu-not-supported,
  open-module-unsupported, rm-init-failed, unsigned-module-rejected, module-unsigned, ...);
- `modules_loaded`: [{version, kernel_module, time}] from "NVRM: loading NVIDIA UNIX ... Kernel Module";
- `nouveau_devices`: PCI addresses nouveau printed lines for;
- `gpu_uuids`: {pci: uuid} from "NVRM: GPU at PCI:…: GPU-…";
- `secure_boot`: True/False when the boot log says so, else None.
NVRM continuation lines (indented, no timestamp) are joined to the message they continue.
"""

from __future__ import annotations

import re
from typing import Any

from envdoctor.model import nvidia_records as rec
from envdoctor.model.snapshot import Confidence, FactGroup, collected

NAME = "kernel-log"
SOURCE = f"pasted:{NAME}"
MARKERS = ("NVRM:", "nouveau ")  # detect() needs one of them

_STAMP = re.compile(
    r"^\s*(?:\[\s*(?P<mono>\d+\.\d+)\]|\[(?P<human>[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4})\]"
    r"|(?P<syslog>(?:[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d|\d{4}-\d\d-\d\dT[\d:.+\-]+)) \S+ kernel:"
    r"(?:\s*\[\s*\d+\.\d+\])?)\s?"
)
_XID = re.compile(
    r"NVRM: Xid \((?:PCI:)?(?P<pci>[0-9A-Fa-f:.]+)\): (?P<code>\d+)(?:, (?P<rest>.*))?"
)
_PID = re.compile(r"pid=(?:'<unknown>'|(?P<pid>\d+)), name=(?P<name>[^,]*)")
_GPU_AT = re.compile(r"NVRM: GPU at PCI:(?P<pci>[0-9A-Fa-f:.]+): (?P<uuid>GPU-[0-9A-Fa-f-]+)")
_LOADING = re.compile(
    r"NVRM: loading NVIDIA UNIX (?P<open>Open )?(?:\S+ )?Kernel Module(?: for \S+)?\s+"
    r"(?P<version>\d+(?:\.\d+)+)"
)
_NOUVEAU = re.compile(r"\bnouveau (?P<pci>[0-9A-Fa-f]{4}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-7]):")
_PCI_IN_TEXT = re.compile(r"(?:PCI:)?([0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}(?:\.[0-7])?)")
_API_MISMATCH = re.compile(
    r"client has the version (?P<client>[\d.\-]+), but this kernel module has "
    r"the version (?P<module>[\d.]+)"
)
_SECURE_BOOT = re.compile(r"secureboot: Secure boot (enabled|disabled)", re.I)

# kind -> pattern over the joined NVRM message (or the whole line for non-NVRM kernel lines)
_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("fallen-off-bus", re.compile(r"fallen off the bus", re.I)),
    ("api-mismatch", re.compile(r"NVRM: API mismatch", re.I)),
    ("probe-not-called", re.compile(r"probe routine was not called", re.I)),
    ("nouveau-owns-device", re.compile(r"nouveau, rivafb, nvidiafb or rivatv", re.I)),
    ("probe-failed", re.compile(r"probe routine failed", re.I)),
    ("no-devices-probed", re.compile(r"No NVIDIA (?:devices probed|GPU found)", re.I)),
    ("open-module-unsupported", re.compile(r"not supported by open\s+nvidia\.ko", re.I)),
    (
        "gpu-not-supported",
        re.compile(r"is not supported by the NVIDIA [\d.x]+ driver release", re.I),
    ),
    ("rm-init-failed", re.compile(r"RmInitAdapter failed", re.I)),
    (
        "gpu-init-failed",
        re.compile(r"(?:failed to allocate|rm_init_adapter failed|GPU .*: Failed to enable)", re.I),
    ),
    (
        "pci-io-region-invalid",
        re.compile(r"PCI I/O region assigned to your NVIDIA device is invalid", re.I),
    ),
    (
        "unsigned-module-rejected",
        re.compile(
            r"(?:Loading of unsigned module is rejected|unsigned module loading is restricted|"
            r"Key was rejected by service|PKCS#7 signature not signed with a trusted key|"
            r"module verification failed: .*rejected)",
            re.I,
        ),
    ),
    (
        "module-unsigned",
        re.compile(
            r"nvidia\S*: module verification failed: signature and/or required key "
            r"missing - tainting kernel",
            re.I,
        ),
    ),
    (
        "gsp-timeout",
        re.compile(r"Timeout after \d+s of waiting for RPC response from GPU\d* GSP", re.I),
    ),
)
# kinds that count on any kernel line (module loading is logged without the NVRM prefix)
_ANY_LINE_KINDS = {"unsigned-module-rejected", "module-unsigned"}


def detect(text: str) -> bool:
    """Whether the text holds NVRM kernel lines (or nouveau binding an NVIDIA device)."""
    head = text[:400000]
    return "NVRM:" in head or bool(_NOUVEAU.search(head) and "NVIDIA" in head)


def read(text: str) -> list[FactGroup]:
    """The `nvidia.events` group of pasted kernel-log text."""
    if not detect(text):
        return []
    data = parse(text)
    return [
        collected(
            "nvidia.events", SOURCE, data, summary=summary(data), confidence=Confidence.MEDIUM
        )
    ]


def summary(data: dict[str, Any]) -> str:
    """ "3 Xid events (31, 43, 94); fallen-off-bus" style one-liner."""
    xids = data.get("xids") or []
    parts = []
    if xids:
        codes = sorted({x["code"] for x in xids})
        parts.append(
            f"{len(xids)} Xid event{'s' if len(xids) != 1 else ''} ({', '.join(map(str, codes))})"
        )
    kinds = sorted({m["kind"] for m in data.get("messages") or []})
    if kinds:
        parts.append(", ".join(kinds))
    return "; ".join(parts) or "no NVIDIA driver errors in the kernel log"


def _messages(text: str) -> list[tuple[str | None, str]]:
    """(time, text) per kernel message, NVRM continuation lines joined to their message."""
    out: list[tuple[str | None, str]] = []
    for raw in text.replace("\r\n", "\n").splitlines():
        match = _STAMP.match(raw)
        if match and match.group(0).strip():
            when = match.group("mono") or match.group("human") or match.group("syslog")
            out.append((when, raw[match.end() :].strip()))
            continue
        body = raw.strip()
        if (
            body.startswith("NVRM:")
            and raw[:1].isspace()
            and out
            and out[-1][1].startswith("NVRM:")
        ):
            when, previous = out[-1]
            out[-1] = (when, previous + " " + body[len("NVRM:") :].strip())
            continue
        if body:
            out.append((None, body))
    return out


def parse(text: str) -> dict[str, Any]:
    """The `nvidia.events` data of kernel-log text (see the module docstring)."""
    xids: list[dict[str, Any]] = []
    messages: list[dict[str, Any]] = []
    loaded: list[dict[str, Any]] = []
    nouveau: list[str] = []
    uuids: dict[str, str] = {}
    secure_boot: bool | None = None
    for when, body in _messages(text):
        boot = _SECURE_BOOT.search(body)
        if boot:
            secure_boot = boot.group(1).lower() == "enabled"
        match = _NOUVEAU.search(body)
        if match:
            address = rec.bus_id(match.group("pci"))
            if address and address not in nouveau:
                nouveau.append(address)
        for kind, pattern in _KINDS:
            if (kind in _ANY_LINE_KINDS or "NVRM" in body) and pattern.search(body):
                messages.append(_message(kind, body, when))
        if "NVRM" not in body:
            continue
        xid = _XID.search(body)
        if xid:
            xids.append(_xid(xid, when))
        gpu = _GPU_AT.search(body)
        if gpu:
            uuids[rec.bus_id(gpu.group("pci")) or gpu.group("pci")] = gpu.group("uuid")
        module = _LOADING.search(body)
        if module:
            loaded.append(
                {
                    "version": module.group("version"),
                    "kernel_module": "open" if module.group("open") else "proprietary",
                    "time": when,
                }
            )
    return {
        "xids": xids,
        "messages": messages,
        "modules_loaded": loaded,
        "nouveau_devices": nouveau,
        "gpu_uuids": uuids,
        "secure_boot": secure_boot,
    }


def _xid(match: re.Match[str], when: str | None) -> dict[str, Any]:
    rest = (match.group("rest") or "").strip()
    pid = _PID.search(rest)
    message = _PID.sub("", rest).strip(" ,") if pid else rest
    return {
        "code": int(match.group("code")),
        "pci": rec.bus_id(match.group("pci")),
        "message": message or None,
        "time": when,
        "pid": int(pid.group("pid")) if pid and pid.group("pid") else None,
        "process": _process_name(pid.group("name")) if pid else None,
    }


def _process_name(name: str) -> str | None:
    name = name.strip()
    return None if not name or name == "<unknown>" else name


def _message(kind: str, body: str, when: str | None) -> dict[str, Any]:
    pci = _PCI_IN_TEXT.search(body.split("NVRM:", 1)[-1]) if "NVRM" in body else None
    entry: dict[str, Any] = {
        "kind": kind,
        "pci": rec.bus_id(pci.group(1)) if pci else None,
        "text": body[:300],
        "time": when,
    }
    if kind == "api-mismatch":
        versions = _API_MISMATCH.search(re.sub(r"\s*NVRM:\s*", " ", body))
        if versions:
            entry["client_version"] = versions.group("client")
            entry["module_version"] = versions.group("module")
    return entry
