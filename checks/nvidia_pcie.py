"""The GPU's PCIe link: slower than it can be while busy, and bus errors (AER, replays)."""

from __future__ import annotations

from envdoctor.checks import nvidia_facts as nf
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.snapshot import Snapshot

# A GPU counts as busy at this utilisation or more (at idle, GPUs lower the link on purpose).
BUSY_UTILIZATION_PCT = 50


@check("nvidia.pcie-link-degraded", needs=("nvidia.gpus",))
def link_degraded(snap: Snapshot, ms: MatrixSet) -> list[Finding]:
    """The GPU's PCIe link runs below its maximum generation or width while the GPU is busy.

    At idle, GPUs drop the link to PCIe gen 1 to save power: that is normal and not reported. Under
    load the link should train to the maximum that both GPU and slot support (NVML's "max" already
    accounts for the slot). A lower generation or width while busy (50% utilisation or more) means
    a riser or extension cable, a slot wired for fewer lanes, a BIOS setting, dirt, or a damaged
    connector, and host-to-GPU copies run slower. Compare `lspci -vv` LnkCap with LnkSta under load.
    """
    findings = []
    for gpu in nf.gpus(snap):
        pcie = gpu.get("pcie") or {}
        busy = (gpu.get("utilization_gpu_pct") or 0) >= BUSY_UTILIZATION_PCT
        gen, gen_max = pcie.get("gen_current"), pcie.get("gen_max")
        width, width_max = pcie.get("width_current"), pcie.get("width_max")
        slow_gen = gen is not None and gen_max is not None and gen < gen_max
        narrow = width is not None and width_max is not None and width < width_max
        if not busy or not (slow_gen or narrow):
            continue
        now = f"gen {gen} x{width}"
        best = f"gen {gen_max} x{width_max}"
        address = gpu.get("pci_bus_id") or "<bus id>"
        findings.append(
            Finding(
                id="nvidia.pcie-link-degraded",
                severity=Severity.WARNING,
                title=f"PCIe link of {nf.gpu_label(gpu)} runs at {now} under load (max {best})",
                detail=(
                    f"{nf.gpu_label(gpu)} is {gpu.get('utilization_gpu_pct')}% busy but its PCIe link runs at {now} "
                    f"instead of {best}: host-to-GPU transfers are slower than they should be."
                ),
                evidence=(
                    Evidence("nvidia.gpus.pcie", now, best),
                    Evidence(
                        "nvidia.gpus.utilization_gpu_pct",
                        str(gpu.get("utilization_gpu_pct")),
                        f">= {BUSY_UTILIZATION_PCT} (busy)",
                    ),
                ),
                fixes=(
                    Fix(
                        "Confirm the link the slot negotiated while the GPU is busy",
                        (f"sudo lspci -vv -s {address} | grep -E 'LnkCap|LnkSta'",),
                        Risk.SAFE,
                    ),
                    Fix(
                        "Seat the GPU directly in a full-width x16 slot (no riser or extension cable), "
                        "set the slot to Auto or its highest PCIe generation in the BIOS, then reboot",
                        (),
                        Risk.NEEDS_RESTART,
                    ),
                ),
            )
        )
    return findings


@check("nvidia.pcie-aer-errors", needs_any=("nvidia.pci", "nvidia.gpus"))
def aer_errors(snap: Snapshot, ms: MatrixSet) -> list[Finding]:
    """The PCIe link of an NVIDIA device reports errors (AER counters, PCIe replays).

    The kernel's Advanced Error Reporting counts PCIe errors per device since boot: correctable
    ones are retried by the hardware, non-fatal and fatal ones lose transactions. The GPU's replay
    counter counts link-level retransmissions. A count that keeps climbing between two runs points
    at the physical link (riser, slot, seating, signal integrity), often before the GPU falls off
    the bus. One snapshot shows counts since boot; run envdoctor again later to see whether they grow.
    """
    findings = []
    for device in snap.fact("nvidia.pci", "devices") or []:
        aer = device.get("aer") or {}
        fatal, nonfatal, correctable = (
            aer.get("fatal") or 0,
            aer.get("nonfatal") or 0,
            aer.get("correctable") or 0,
        )
        if not (fatal or nonfatal or correctable):
            continue
        severity = Severity.WARNING if (fatal or nonfatal) else Severity.INFO
        counts = f"fatal {fatal}, non-fatal {nonfatal}, correctable {correctable}"
        findings.append(
            Finding(
                id="nvidia.pcie-aer-errors",
                severity=severity,
                title=f"PCIe errors on {nf.pci_label(ms, device)}: {counts}",
                detail=(
                    f"The kernel counted PCIe errors on {nf.pci_label(ms, device)} since boot ({counts}). "
                    + (
                        "Uncorrectable errors lose transactions and can take the GPU off the bus."
                        if fatal or nonfatal
                        else "Correctable errors are retried by the hardware; a growing "
                        "count points at the slot, riser or seating."
                    )
                ),
                evidence=(Evidence("nvidia.pci.aer", counts, "0"),),
                fixes=(
                    Fix(
                        "Look at the device's link and error status",
                        (f"sudo lspci -vvv -s {device.get('address')}",),
                        Risk.SAFE,
                    ),
                    Fix(
                        "Reseat the GPU (no riser), check its power cables, and compare the counts after a "
                        "reboot",
                        (),
                        Risk.NEEDS_RESTART,
                    ),
                ),
            )
        )
    for gpu in nf.gpus(snap):
        replays = (gpu.get("pcie") or {}).get("replay_counter") or 0
        if replays:
            findings.append(
                Finding(
                    id="nvidia.pcie-aer-errors",
                    severity=Severity.INFO,
                    title=f"{replays} PCIe replays on {nf.gpu_label(gpu)}",
                    detail=(
                        f"{nf.gpu_label(gpu)} retransmitted {replays} PCIe packets since the driver loaded. "
                        "A few are harmless; a count that grows quickly points at the link."
                    ),
                    evidence=(Evidence("nvidia.gpus.pcie.replay_counter", str(replays), "0"),),
                    fixes=(
                        Fix(
                            "Watch the counter while the GPU works",
                            (f"nvidia-smi -q -i {gpu.get('index', 0)} | grep -i -A1 replay",),
                            Risk.SAFE,
                        ),
                    ),
                )
            )
    return findings


CHECKS = [link_degraded, aer_errors]
