"""GPU memory health: uncorrectable ECC errors, row remapping (Ampere and newer), retired pages."""

from __future__ import annotations

from typing import Any

from envdoctor.checks import nvidia_facts as nf
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.snapshot import Snapshot

_SYMPTOMS = ("torch.gpu-test-failed",)
_ROW_REMAP_URL = "https://docs.nvidia.com/deploy/a100-gpu-mem-error-mgmt/index.html"
_RMA_URL = "https://docs.nvidia.com/deploy/a100-gpu-mem-error-mgmt/rma-policy-thresholds-for-row-remapping.html"
_DPR_URL = "https://docs.nvidia.com/deploy/dynamic-page-retirement/index.html"


def _reset_fix(gpu: dict[str, Any], why: str) -> Fix:
    index = gpu.get("index", 0)
    return Fix(
        f"Stop the processes on {nf.gpu_label(gpu)} and reset it {why}",
        (
            "nvidia-smi --query-compute-apps=pid,process_name --format=csv",
            f"sudo nvidia-smi -r -i {index}",
        ),
        Risk.DESTRUCTIVE,
        _ROW_REMAP_URL,
    )


def _report_fix(gpu: dict[str, Any]) -> Fix:
    return Fix(
        f"Collect a bug report and contact the GPU's vendor or NVIDIA support about {nf.gpu_label(gpu)}",
        ("sudo nvidia-bug-report.sh",),
        Risk.SAFE,
        _RMA_URL,
    )


@check("nvidia.ecc-uncorrected", needs=("nvidia.gpus",))
def ecc_uncorrected(snap: Snapshot, ms: MatrixSet) -> list[Finding]:
    """The GPU's memory reported uncorrectable (double-bit) ECC errors.

    An uncorrectable error means data in GPU memory was lost: the application that used it is
    stopped (Xid 48), and the driver retires the page (older GPUs) or remaps the row at the next
    reset (Ampere and newer). A volatile count (since the driver loaded) points at a current
    problem; an aggregate (lifetime) count with a volatile count of zero is history. NVIDIA's RMA
    decision uses its field diagnostic, the row-remapping failure flag and the SRAM threshold flag.
    """
    findings = []
    for gpu in nf.gpus(snap):
        ecc = gpu.get("ecc") or {}
        volatile = ecc.get("volatile_uncorrected") or 0
        aggregate = ecc.get("aggregate_uncorrected") or 0
        sram = ecc.get("sram_threshold_exceeded") is True
        if not (volatile or aggregate or sram):
            continue
        severity = Severity.ERROR if volatile or sram else Severity.WARNING
        parts = []
        if volatile:
            parts.append(f"{volatile} since the driver loaded")
        if aggregate:
            parts.append(f"{aggregate} over the GPU's lifetime")
        if sram:
            parts.append("the SRAM uncorrectable-error threshold is exceeded")
        fixes = [
            Fix(
                "Look at the memory-error state (ECC, row remapping, retired pages)",
                (f"nvidia-smi -q -i {gpu.get('index', 0)} -d ECC,PAGE_RETIREMENT,ROW_REMAPPER",),
                Risk.SAFE,
            )
        ]
        if volatile:
            fixes.append(_reset_fix(gpu, "so retirement or row remapping takes effect"))
        if sram or volatile:
            fixes.append(_report_fix(gpu))
        findings.append(
            Finding(
                id="nvidia.ecc-uncorrected",
                severity=severity,
                title=f"Uncorrectable ECC errors on {nf.gpu_label(gpu)}",
                detail=f"{nf.gpu_label(gpu)} reports uncorrectable memory errors: {'; '.join(parts)}."
                + (" Applications on it were stopped when they happened." if volatile else ""),
                evidence=(
                    Evidence("nvidia.gpus.ecc.volatile_uncorrected", str(volatile), "0"),
                    Evidence("nvidia.gpus.ecc.aggregate_uncorrected", str(aggregate), "0"),
                ),
                fixes=tuple(fixes),
                explains=_SYMPTOMS,
            )
        )
    return findings


@check("nvidia.row-remap-pending", "nvidia.row-remap-failed", needs=("nvidia.gpus",))
def row_remapping(snap: Snapshot, ms: MatrixSet) -> list[Finding]:
    """A row remap is pending (needs a GPU reset) or row remapping failed (an RMA criterion).

    On Ampere and newer GPUs a memory row with an uncorrectable error is replaced by a spare row,
    but only at the next GPU reset: until then the pending flag is set ("a reset will be required
    to actually remap the row"; work keeps running meanwhile). When remapping fails (no spare row
    left in the bank, a row remapped twice, or 512 remaps in total), the failure flag is set, and
    NVIDIA's RMA policy counts that flag, confirmed by its field diagnostic, as the RMA criterion.
    """
    findings = []
    for gpu in nf.gpus(snap):
        rows = gpu.get("remapped_rows") or {}
        counts = f"{rows.get('uncorrectable')} uncorrectable / {rows.get('correctable')} correctable rows remapped"
        if rows.get("failure"):
            findings.append(
                Finding(
                    id="nvidia.row-remap-failed",
                    severity=Severity.ERROR,
                    title=f"Row remapping failed on {nf.gpu_label(gpu)}: the GPU meets NVIDIA's RMA criterion",
                    detail=(
                        f"{nf.gpu_label(gpu)} has the row-remapping failure flag set ({counts}). Its memory can no "
                        "longer repair itself; NVIDIA's RMA policy treats this flag, confirmed by the field "
                        "diagnostic, as the criterion for a replacement."
                    ),
                    evidence=(Evidence("nvidia.gpus.remapped_rows.failure", "yes", "no"),),
                    fixes=(
                        Fix(
                            "Drain the GPU (stop scheduling work on it) and run NVIDIA's diagnostic",
                            ("dcgmi diag -r 3",),
                            Risk.SAFE,
                            _RMA_URL,
                        ),
                        _report_fix(gpu),
                    ),
                    explains=_SYMPTOMS + ("nvidia.ecc-uncorrected",),
                )
            )
        elif rows.get("pending"):
            findings.append(
                Finding(
                    id="nvidia.row-remap-pending",
                    severity=Severity.WARNING,
                    title=f"A memory row remap is pending on {nf.gpu_label(gpu)}: reset the GPU",
                    detail=(
                        f"{nf.gpu_label(gpu)} has a row remap pending ({counts}); it takes effect at the next "
                        "GPU reset. Work keeps running meanwhile, but plan the reset."
                    ),
                    evidence=(Evidence("nvidia.gpus.remapped_rows.pending", "yes", "no"),),
                    fixes=(
                        _reset_fix(gpu, "to activate the remap"),
                        Fix("Or reboot the machine", ("sudo reboot",), Risk.NEEDS_RESTART),
                    ),
                    explains=("nvidia.ecc-uncorrected",),
                )
            )
    return findings


@check("nvidia.retired-pages-high", needs=("nvidia.gpus",))
def retired_pages(snap: Snapshot, ms: MatrixSet) -> list[Finding]:
    """Memory pages are retired or pending retirement (GPUs before Ampere).

    Older data-center GPUs retire a memory page after one double-bit or two single-bit errors on
    it; a newly retired page is only excluded after the driver reloads ("pending"). A pending
    retirement calls for a driver reload or reboot. Pages already retired for double-bit errors
    show that memory is degrading; NVIDIA publishes no fixed page count for a replacement, so
    envdoctor reports the counts and leaves the RMA decision to NVIDIA's field diagnostic.
    """
    findings = []
    for gpu in nf.gpus(snap):
        pages = gpu.get("retired_pages") or {}
        double = pages.get("double_bit") or 0
        single = pages.get("single_bit") or 0
        if not (pages.get("pending") or double):
            continue
        pending = pages.get("pending") is True
        detail = (
            f"{nf.gpu_label(gpu)} has retired {double} page(s) for double-bit errors and {single} for "
            "repeated single-bit errors."
        )
        fixes = []
        if pending:
            detail += " A retirement is pending: it takes effect when the driver reloads."
            fixes.append(
                Fix(
                    "Reboot (or reload the driver) to activate the pending retirement",
                    ("sudo reboot",),
                    Risk.NEEDS_RESTART,
                    _DPR_URL,
                )
            )
        fixes.append(
            Fix(
                "Watch the counts; if they keep rising, run NVIDIA's diagnostic",
                ("dcgmi diag -r 3",),
                Risk.SAFE,
                _DPR_URL,
            )
        )
        findings.append(
            Finding(
                id="nvidia.retired-pages-high",
                severity=Severity.WARNING if pending else Severity.INFO,
                title=f"Retired memory pages on {nf.gpu_label(gpu)}"
                + (" (retirement pending)" if pending else ""),
                detail=detail,
                evidence=(
                    Evidence(
                        "nvidia.gpus.retired_pages",
                        f"double-bit {double}, single-bit {single}, "
                        f"pending {'yes' if pending else 'no'}",
                    ),
                ),
                fixes=tuple(fixes),
            )
        )
    return findings


CHECKS = [ecc_uncorrected, row_remapping, retired_pages]
