"""Windows CAD / visualisation applications (PTC Creo, SOLIDWORKS): which driver is installed,
what can be read about its branch, and what envdoctor cannot check."""

from __future__ import annotations

from typing import Any

from envdoctor.checks import apps_facts as af
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.snapshot import Snapshot
from envdoctor.model.versions import parse
from envdoctor.queries.apps import CAD_APPS

_PROFESSIONAL = (
    "quadro",
    "rtx a",
    "rtx pro",
    "ada generation",
    "blackwell",
    "nvidia t",
    "tesla",
    "a100",
    "l40",
)
_NOT_CHECKABLE = (
    "Which driver package this is (GeForce Game Ready or Studio, NVIDIA RTX Enterprise Production "
    "Branch or New Feature Branch) is not recorded in the driver version, and whether this GPU and "
    "driver pair is certified for your release of {app} is in the vendor's certification list, "
    "which envdoctor does not hold: compare the two values below with it."
)


def _branch(ms: MatrixSet, driver: str | None) -> dict[str, Any] | None:
    version = parse(driver)
    if version is None:
        return None
    try:
        rows = ms.table("nvidia_driver_branches").rows
    except (KeyError, AttributeError):
        return None
    return next((r for r in rows if r.get("major") == version.release[0]), None)


def _line(name: str) -> str:
    lowered = name.lower()
    if "geforce" in lowered or "titan" in lowered:
        return "consumer (GeForce)"
    if any(k in lowered for k in _PROFESSIONAL):
        return "professional (RTX / Quadro workstation)"
    return "not told by its name"


@check(
    *(f"app.{a}.driver-certification" for a in CAD_APPS),
    needs=("apps.detected",),
    matrices=("nvidia_driver_branches",),
)
def cad_driver(snap: Snapshot, ms: MatrixSet) -> list[Finding]:
    """You asked about a Windows CAD / visualisation application (`--app creo`, `--app
    solidworks`). Their vendors support them on certified GPU and driver pairs (field guides say:
    a workstation GPU on a vendor-certified driver branch, not an arbitrary game driver).

    What envdoctor reports: the GPU and its product line (professional RTX / Quadro or consumer
    GeForce, from its name), the driver version and its branch (R550, R570...) with NVIDIA's
    designation for that branch where NVIDIA publishes one (production, new-feature,
    long-term-support: the data-center driver documentation). What it cannot check: whether the
    installed package is a GeForce Game Ready or Studio driver, or an RTX Enterprise Production or
    New Feature Branch release (the version does not say), and whether the pair is on the
    vendor's certification list for your release. Always info.
    """
    findings = []
    for app in CAD_APPS:
        if not af.asked(snap, app):
            continue
        name = af.label(app)
        driver = snap.fact("nvidia.driver", "driver_version")
        gpus = af.nvidia_gpus(snap, ms)
        system = str(snap.fact("os", "system") or "")
        fixes = (
            Fix(
                f"Compare this GPU and driver with {name}'s certified graphics list for your release",
                ("nvidia-smi --query-gpu=name,driver_version --format=csv",),
                Risk.SAFE,
            ),
        )
        if not driver or not gpus:
            why = "no NVIDIA driver or GPU here" if not driver else "no NVIDIA GPU reported"
            where = (
                f" ({name} is a Windows application; this is {system})"
                if system and system != "Windows"
                else ""
            )
            findings.append(
                Finding(
                    id=f"app.{app}.driver-certification",
                    severity=Severity.INFO,
                    title=f"{name}: {why}, so there is no driver to compare with its certification list{where}",
                    detail=_NOT_CHECKABLE.format(app=name),
                    evidence=(
                        Evidence(
                            "nvidia.driver", str(driver or "none"), "a vendor-certified driver"
                        ),
                    ),
                    fixes=fixes,
                )
            )
            continue
        branch = _branch(ms, str(driver))
        branch_text = (
            f"branch {branch['branch']}"
            + (
                f", which NVIDIA designates {branch['kind']}"
                if branch.get("kind")
                else " (NVIDIA publishes no designation for it)"
            )
            if branch
            else "a branch envdoctor's table does not list"
        )
        shown = "; ".join(f"{g['name']}: {_line(str(g['name']))}" for g in gpus)
        findings.append(
            Finding(
                id=f"app.{app}.driver-certification",
                severity=Severity.INFO,
                title=f"{name}: driver {driver} ({branch_text}) on {', '.join(g['name'] for g in gpus)}",
                detail=f"GPU product line: {shown}. " + _NOT_CHECKABLE.format(app=name),
                evidence=(
                    Evidence("nvidia.driver.driver_version", str(driver)),
                    Evidence("driver branch", branch_text, (branch or {}).get("source")),
                    Evidence("GPU product line", shown),
                ),
                fixes=fixes,
            )
        )
    return findings


CHECKS = [cad_driver]
