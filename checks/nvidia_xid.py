"""Xid errors in the kernel log: what each means and what to do, from NVIDIA's Xid mapping."""

from __future__ import annotations

from typing import Any

from envdoctor.checks import nvidia_facts as nf
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.snapshot import Snapshot
from envdoctor.queries.xid import xid_name, xid_row

_CATALOG_URL = "https://docs.nvidia.com/deploy/xid-errors/analyzing-xid-catalog.html"
_SYMPTOMS = ("torch.gpu-test-failed", "app.ollama-cpu-fallback", "jax.cuda-backend-failed")
_BUS_SYMPTOMS = _SYMPTOMS + (
    "nvidia.no-driver-bound",
    "nvidia.driver-without-gpu",
    "nvidia.pcie-aer-errors",
)

# NVIDIA's recommended action (nvidia_xid.nvidia_action) -> what envdoctor tells the user.
_ACTION_TEXT = {
    "RESTART_APP": "Restart the application that was running; if it recurs with the same code, the "
    "application (or a library it uses) is at fault more often than the GPU",
    "RESET_GPU": "Stop the GPU's processes and reset the GPU (or reboot)",
    "RESTART_BM": "Reboot the machine",
    "RESTART_VM": "Restart the virtual machine",
    "IGNORE": "No action is needed for this event on its own",
    "UNEXPECTED_ERR_REPORT_ISSUE": "Collect a bug report and contact NVIDIA support or the GPU's vendor",
    "CHECK_MECHANICALS": "Check the GPU's power delivery and cooling",
    "UPDATE_SWFW": "Update the NVIDIA driver and the GPU's firmware",
    "CHECK_UVM": "Reload the nvidia_uvm module (and restart the application)",
    "WORKFLOW_XID_48": "Check the memory-error state; reset the GPU so the bad row or page is remapped",
    "WORKFLOW_XID_45": "Look for the Xid logged just before it: Xid 45 is usually the driver stopping "
    "channels after another error or a killed process",
    "WORKFLOW_NVLINK_ERR": "Check the NVLink state and error counters, then reset the GPU",
    "WORKFLOW_NVLINK5_ERR": "Check the NVLink state and error counters, then reset the GPU",
}


def _commands(action: str | None, gpu: dict[str, Any] | None) -> tuple[str, ...]:
    index = (gpu or {}).get("index", 0)
    return {
        "RESET_GPU": (
            "nvidia-smi --query-compute-apps=pid,process_name --format=csv",
            f"sudo nvidia-smi -r -i {index}",
        ),
        "RESTART_BM": ("sudo reboot",),
        "RESTART_VM": ("sudo reboot",),
        "UNEXPECTED_ERR_REPORT_ISSUE": ("sudo nvidia-bug-report.sh",),
        "CHECK_MECHANICALS": (f"nvidia-smi -q -i {index} -d POWER,TEMPERATURE,PERFORMANCE",),
        "UPDATE_SWFW": ("nvidia-smi -q | grep -iE 'driver version|vbios'",),
        "CHECK_UVM": ("sudo rmmod nvidia_uvm", "sudo modprobe nvidia_uvm"),
        "WORKFLOW_XID_48": (
            f"nvidia-smi -q -i {index} -d ECC,PAGE_RETIREMENT,ROW_REMAPPER",
            f"sudo nvidia-smi -r -i {index}",
        ),
        "WORKFLOW_XID_45": ("sudo dmesg | grep -i xid",),
        "WORKFLOW_NVLINK_ERR": (
            f"nvidia-smi nvlink -s -i {index}",
            f"nvidia-smi nvlink -e -i {index}",
            f"sudo nvidia-smi -r -i {index}",
        ),
        "WORKFLOW_NVLINK5_ERR": (
            f"nvidia-smi nvlink -s -i {index}",
            f"nvidia-smi nvlink -e -i {index}",
            f"sudo nvidia-smi -r -i {index}",
        ),
    }.get(action or "", ())


def _risk(action: str | None) -> Risk:
    if action in {"RESET_GPU", "WORKFLOW_XID_48", "WORKFLOW_NVLINK_ERR", "WORKFLOW_NVLINK5_ERR"}:
        return Risk.DESTRUCTIVE
    if action in {"RESTART_BM", "RESTART_VM"}:
        return Risk.NEEDS_RESTART
    return Risk.SAFE


def _severity(row: dict[str, Any] | None) -> Severity:
    if row is None:
        return Severity.WARNING
    if row.get("nvidia_action") == "IGNORE":
        return Severity.INFO
    return Severity.ERROR if row.get("fatal") else Severity.WARNING


def _where(snap: Snapshot, pcis: list[str]) -> str:
    labels = []
    for pci in pcis:
        gpu = nf.gpu_at(snap, pci)
        labels.append(nf.gpu_label(gpu) if gpu else f"the GPU at {pci}")
    return ", ".join(dict.fromkeys(labels))


def _fallen(snap: Snapshot) -> tuple[list[str], list[str]]:
    """(PCI addresses, evidence texts) of GPUs that fell off the bus."""
    pcis: list[str] = []
    texts: list[str] = []
    for xid in snap.fact("nvidia.events", "xids") or []:
        if xid.get("code") == 79:
            pcis.append(xid.get("pci") or "?")
            texts.append(
                f"Xid 79 at {xid.get('pci')}" + (f" ({xid['time']})" if xid.get("time") else "")
            )
    for message in snap.fact("nvidia.events", "messages") or []:
        if message.get("kind") == "fallen-off-bus":
            pcis.append(message.get("pci") or "?")
            texts.append(message.get("text", "")[:160])
    for gpu in nf.gpus(snap):
        if gpu.get("lost"):
            pcis.append(gpu.get("pci_bus_id") or "?")
            texts.append(f"NVML: {nf.gpu_label(gpu)} is lost")
    return pcis, texts


@check("nvidia.xid-fallen-off-bus", needs_any=("nvidia.events", "nvidia.gpus"))
def fallen_off_bus(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """A GPU fell off the bus (Xid 79): the system lost contact with it over PCIe.

    The driver logs "GPU has fallen off the bus" when the GPU stops answering on PCIe; NVML then
    reports "GPU is lost" and every process on it fails. Usual causes are power (a PSU at its limit,
    loose or daisy-chained power cables, transient spikes), heat, a riser or slot with a marginal
    link, and failing hardware. The GPU only comes back after a reboot; if it recurs, check power,
    cooling and seating, then ask the vendor about a replacement. NVIDIA's action for Xid 79 is to
    reboot the node.
    """
    pcis, texts = _fallen(snap)
    if not pcis:
        return None
    where = _where(snap, [p for p in pcis if p != "?"]) or "a GPU"
    return Finding(
        id="nvidia.xid-fallen-off-bus",
        severity=Severity.ERROR,
        title=f"{where[0].upper() + where[1:]} fell off the bus (Xid 79)",
        detail=(
            f"{where} stopped answering on PCIe ({len(texts)} event{'s' if len(texts) != 1 else ''} since boot). "
            "Every CUDA process on it fails until the machine reboots."
        ),
        evidence=tuple(Evidence("nvidia.events", t) for t in texts[:5]),
        fixes=(
            Fix(
                "Reboot the machine: a GPU that fell off the bus does not come back otherwise",
                ("sudo reboot",),
                Risk.NEEDS_RESTART,
                _CATALOG_URL,
            ),
            Fix(
                "If it happens again: check the power supply and cables (one cable per power socket), "
                "cooling and seating (no riser), and record the state while it runs",
                ("nvidia-smi -q -d POWER,TEMPERATURE,PERFORMANCE",),
                Risk.SAFE,
            ),
            Fix(
                "Collect a bug report for the GPU's vendor or NVIDIA support",
                ("sudo nvidia-bug-report.sh",),
                Risk.SAFE,
            ),
        ),
        explains=_BUS_SYMPTOMS,
    )


@check("nvidia.xid-error", needs=("nvidia.events",), matrices=("nvidia_xid",))
def xid_errors(snap: Snapshot, ms: MatrixSet) -> list[Finding]:
    """The NVIDIA driver logged Xid errors; each code has a meaning and an action.

    An Xid is the driver's report of a GPU error ("NVRM: Xid (PCI:0000:01:00): 31, pid=..., ...").
    Some are application faults (13 and 31: the program touched invalid GPU memory), some are
    hardware or driver events that need a GPU reset (48 double-bit ECC, 95 uncontained error, 119
    GSP timeout) or a reboot (79). envdoctor groups the log's Xids by code and gives NVIDIA's
    recommended action for each (from NVIDIA's Xid catalog, as NVSentinel maps it); Xid 79 has its
    own finding, nvidia.xid-fallen-off-bus.
    """
    by_code: dict[int, list[dict[str, Any]]] = {}
    for xid in snap.fact("nvidia.events", "xids") or []:
        code = xid.get("code")
        if isinstance(code, int) and code != 79:
            by_code.setdefault(code, []).append(xid)
    findings = []
    for code, events in sorted(by_code.items()):
        row = xid_row(ms, code)
        action = (row or {}).get("nvidia_action")
        pcis = [str(e["pci"]) for e in events if e.get("pci")]
        where = _where(snap, pcis) or "the GPU"
        gpu = nf.gpu_at(snap, pcis[0]) if pcis else None
        processes = sorted({e["process"] for e in events if e.get("process")})
        first = events[0]
        detail = (
            f"{xid_name(ms, code)} was logged {len(events)} time{'s' if len(events) != 1 else ''} on {where}"
            + (f" (process {', '.join(processes)})" if processes else "")
            + "."
        )
        if row and row.get("mnemonic"):
            detail += f" Driver name: {row['mnemonic']}."
        if row and action:
            detail += f" NVIDIA's recommended action: {action}."
        if code == 154:
            detail += " Xid 154 announces a changed recovery action: follow the Xid logged with it."
        fixes = []
        if action in _ACTION_TEXT:
            fixes.append(
                Fix(_ACTION_TEXT[action], _commands(action, gpu), _risk(action), _CATALOG_URL)
            )
        if code in {13, 31, 43}:
            fixes.append(
                Fix(
                    "Find the faulty memory access in the application with the CUDA memory checker",
                    ("compute-sanitizer --tool memcheck <your program and its arguments>",),
                    Risk.SAFE,
                )
            )
        if code in {119, 120} and (snap.fact("nvidia.driver", "kernel_module") == "proprietary"):
            fixes.append(
                Fix(
                    "If GSP timeouts recur with the proprietary kernel module, run without GSP firmware",
                    (
                        "printf 'options nvidia NVreg_EnableGpuFirmware=0\\n' | sudo tee /etc/modprobe.d/nvidia-gsp.conf",
                        "sudo reboot",
                    ),
                    Risk.NEEDS_RESTART,
                )
            )
        findings.append(
            Finding(
                id="nvidia.xid-error",
                severity=_severity(row),
                title=f"{xid_name(ms, code)} on {where}",
                detail=detail,
                evidence=tuple(
                    [
                        Evidence(
                            "nvidia.events.xids",
                            f"Xid {code} at {first.get('pci')}"
                            + (f", {first['time']}" if first.get("time") else "")
                            + (f": {first['message'][:120]}" if first.get("message") else ""),
                        )
                    ]
                ),
                fixes=tuple(fixes),
                explains=_SYMPTOMS if _severity(row) is not Severity.INFO else (),
            )
        )
    return findings


CHECKS = [fallen_off_bus, xid_errors]
