"""Judging an acceptance run (`envdoctor accept`): each sample series and result against what the
card itself reports it should do (NVML: default power limit, maximum link, slowdown temperature)
and, as a hint, what NVIDIA specifies for the model (matrices/gpu_board_specs.toml)."""

from __future__ import annotations

from typing import Any

from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.snapshot import Snapshot
from envdoctor.queries.xid import xid_row

_NVIDIA_SMI_DOC = "https://docs.nvidia.com/deploy/nvidia-smi/index.html"
_XID_DOC = "https://docs.nvidia.com/deploy/xid-errors/index.html"
_THERMAL = ("sw_thermal_slowdown", "hw_thermal_slowdown")
_POWER_BRAKE = ("hw_power_brake_slowdown", "hw_slowdown")
_UNDER_LOAD_PCT = 50  # utilisation from which a sample counts as "under load"


def _gpus(snap: Snapshot) -> list[dict[str, Any]]:
    return list((snap.data("accept.gpus") or {}).get("gpus", []))


def _samples(snap: Snapshot, index: int) -> list[dict[str, Any]]:
    samples = (snap.data("accept.series") or {}).get("samples", [])
    return [s for s in samples if s.get("index") == index and "error" not in s]


def _under_load(samples: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Samples taken while the load phases ran and the GPU was busy."""
    return [
        s
        for s in samples
        if str(s.get("phase", "")).startswith("load")
        and (s.get("util_pct") or 0) >= _UNDER_LOAD_PCT
    ]


def _result(snap: Snapshot, index: int) -> dict[str, Any]:
    results = (snap.data("accept.results") or {}).get("gpus", [])
    return next((r for r in results if r.get("index") == index), {})


def _label(gpu: dict[str, Any]) -> str:
    return f"GPU {gpu.get('index')} ({gpu.get('name') or 'unknown'})"


def _minutes(t_s: float) -> str:
    return f"{t_s / 60:.1f} min" if t_s >= 60 else f"{t_s:.0f} s"


def _spec(ms: MatrixSet, name: str | None) -> dict[str, Any] | None:
    if not name:
        return None
    try:
        rows = ms.table("gpu_board_specs").rows
    except KeyError:
        return None
    return next((r for r in rows if r.get("name") == name), None)


@check("accept.load-failed", needs=("accept.run",))
def load_failed(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """The acceptance load could not run to its end.

    The load runs in the chosen Python environment with its torch. It failed when torch is
    missing or has no CUDA, when a GPU raised a CUDA error (itself a sign of a bad card when it
    happens under load), when memory ran out, or when the process crashed. Results gathered
    before the failure are still judged.
    """
    run = snap.data("accept.run") or {}
    errors = run.get("errors") or []
    if run.get("ended") in ("completed", "interrupted", "deadline") and not errors:
        return None
    first = errors[0] if errors else {}
    error = str(first.get("error") or run.get("stderr_tail") or "no output").strip()
    last_line = error.splitlines()[-1] if error else "no output"
    fixes = []
    if first.get("phase") == "import" or "No module named 'torch'" in error:
        fixes.append(
            Fix(
                "Run the test in an environment with a CUDA build of torch (--python PATH)",
                url="https://pytorch.org/get-started/locally/",
            )
        )
    elif "out of memory" in error.lower():
        fixes.append(
            Fix(
                "Test a smaller part of the memory",
                commands=("envdoctor accept --memory-fraction 0.5",),
            )
        )
    else:
        fixes.append(
            Fix(
                "Run `envdoctor check` first: a CUDA error that appears only under load, with the "
                "driver and torch otherwise working, points at the card (return it if it repeats)",
                commands=("envdoctor check -v",),
            )
        )
    return Finding(
        id="accept.load-failed",
        severity=Severity.ERROR,
        title=f"The acceptance load failed{' in ' + str(first.get('phase')) if first.get('phase') else ''}: {last_line[:160]}",
        detail=f"The load ended as '{run.get('ended')}' (exit code {run.get('returncode')}).",
        evidence=(Evidence("accept.run", last_line[:300], "the load runs to its end"),),
        fixes=tuple(fixes),
    )


@check("accept.interrupted", needs=("accept.run",))
def interrupted(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """The acceptance test was stopped before its end (Ctrl-C, SIGTERM or its deadline).

    What was measured until then is judged, but a card that fails only after minutes of load
    may not have shown it yet: run the full duration before trusting it.
    """
    run = snap.data("accept.run") or {}
    if run.get("ended") not in ("interrupted", "deadline"):
        return None
    why = "was interrupted" if run.get("ended") == "interrupted" else "ran past its deadline"
    return Finding(
        id="accept.interrupted",
        severity=Severity.WARNING,
        title=f"The test {why} after {run.get('duration_s')} s: results are partial",
        detail="Only the phases that finished were judged.",
        evidence=(Evidence("accept.run", str(run.get("ended")), "completed"),),
        fixes=(Fix("Run the whole test", commands=("envdoctor accept",)),),
    )


@check("accept.wrong-results", needs=("accept.results",))
def wrong_results(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """The GPU computed wrong results: a product differed from the CPU's, or the same product
    gave different answers (or NaN/Inf) during the sustained load.

    A healthy GPU computes an fp32 matrix product within rounding of the CPU's, and the same
    product identically every time. Disagreement means an unstable core or memory: an overclock
    (factory or user), a failing card, or one damaged by long mining use. Reset the clocks and test
    again; if it persists, the card is defective.
    """
    bad = []
    for result in (snap.data("accept.results") or {}).get("gpus", []):
        correctness = result.get("correctness") or {}
        if correctness.get("ok") is False:
            bad.append(
                (
                    result,
                    f"differs from the CPU by {correctness.get('max_rel_error'):.2g} (relative)",
                )
            )
            continue
        for precision, load in (result.get("load") or {}).items():
            if not isinstance(load, dict):
                continue
            if load.get("inconsistent_checks") or load.get("non_finite_checks"):
                bad.append(
                    (
                        result,
                        f"{precision}: {load.get('inconsistent_checks')} inconsistent and "
                        f"{load.get('non_finite_checks')} non-finite of {load.get('iterations')} products",
                    )
                )
                break
    if not bad:
        return None
    result, what = bad[0]
    index = result.get("index")
    return Finding(
        id="accept.wrong-results",
        severity=Severity.ERROR,
        title=f"GPU {index} computes wrong results: {what}",
        detail="A GPU that gives wrong answers cannot be trusted with training or inference.",
        evidence=tuple(
            Evidence("accept.results", f"GPU {r.get('index')}: {w}", "exact, repeatable results")
            for r, w in bad
        ),
        fixes=(
            Fix(
                "Remove any overclock and reset the clocks, then test again",
                commands=(
                    f"sudo nvidia-smi -i {index} -rgc",
                    f"sudo nvidia-smi -i {index} -rmc",
                    "envdoctor accept",
                ),
                risk=Risk.NEEDS_RESTART,
                url=_NVIDIA_SMI_DOC,
            ),
            Fix("If it repeats at stock clocks, the card is defective: return it to the seller"),
        ),
    )


@check("accept.vram-errors", needs=("accept.results",))
def vram_errors(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """VRAM returned other values than were written to it, or the card counted uncorrectable
    memory errors or a failed row remap during the test.

    Each pattern (zeros, ones, checkerboards, walking ones, random) is written over the tested part
    of free memory and read back; every mismatch is a memory cell that does not hold its value.
    Defective memory is the classic fault of worn second-hand and ex-mining cards, and it corrupts
    results silently. It cannot be fixed in software.
    """
    found = []
    for result in (snap.data("accept.results") or {}).get("gpus", []):
        patterns = (result.get("vram") or {}).get("patterns") or []
        mismatches = sum(int(p.get("mismatches") or 0) for p in patterns)
        if mismatches:
            addresses = [a for p in patterns for a in p.get("addresses") or []]
            failing = [p["pattern"] for p in patterns if p.get("mismatches")]
            found.append((result.get("index"), mismatches, addresses, failing))
    for gpu in _gpus(snap):
        samples = _samples(snap, int(gpu.get("index") or 0))
        counts = [
            s["ecc_uncorrected_volatile"]
            for s in samples
            if s.get("ecc_uncorrected_volatile") is not None
        ]
        if counts and counts[-1] > counts[0]:
            found.append(
                (gpu.get("index"), counts[-1] - counts[0], [], ["ECC uncorrectable errors"])
            )
        if any(s.get("remapped_rows_failure") for s in samples):
            found.append((gpu.get("index"), 1, [], ["row remapping failed"]))
    if not found:
        return None
    index, count, addresses, failing = found[0]
    shown = ", ".join(f"0x{a:x}" for a in addresses[:5]) + (" ..." if len(addresses) > 5 else "")
    where = f" ({shown})" if addresses else ""
    return Finding(
        id="accept.vram-errors",
        severity=Severity.ERROR,
        title=f"GPU {index}: VRAM mismatches at {count} address{'es' if count != 1 else ''}: defective memory",
        detail=f"Failing: {', '.join(failing)}{where}.",
        evidence=tuple(
            Evidence("accept.results", f"GPU {i}: {n} mismatch(es) in {', '.join(f)}", "0")
            for i, n, _, f in found
        ),
        fixes=(
            Fix(
                "Do not use this card for work; return it to the seller (defective VRAM cannot be repaired in software)"
            ),
        ),
    )


@check("accept.thermal-throttling", needs=("accept.series", "accept.gpus"))
def thermal_throttling(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """The GPU slowed its clocks for heat under load.

    NVML reports why clocks are held down; a thermal slowdown (software or hardware) while the
    load runs means the cooler cannot carry the card's heat: dust, a failing fan, dried thermal
    paste or pads (common on used cards), or a case without airflow. The card loses speed, and
    hot memory ages faster.
    """
    for gpu in _gpus(snap):
        samples = _samples(snap, int(gpu.get("index") or 0))
        loaded = [s for s in samples if str(s.get("phase", "")).startswith("load")]
        hot = [s for s in loaded if set(s.get("reasons") or ()) & set(_THERMAL)]
        if not hot:
            continue
        first = hot[0]
        after = float(first["t_s"]) - float(loaded[0]["t_s"])
        when = f"after {_minutes(after)} of load" if after >= 1 else "as soon as the load started"
        hardware = any("hw_thermal_slowdown" in (s.get("reasons") or ()) for s in hot)
        peak = max((s.get("temp_c") or 0) for s in samples)
        return Finding(
            id="accept.thermal-throttling",
            severity=Severity.ERROR if hardware else Severity.WARNING,
            title=f"{_label(gpu)}: thermal throttling {when} at {first.get('temp_c')} °C",
            detail=(
                f"{len(hot)} of {len(loaded)} samples under load held down for heat; peak {peak} °C"
                + (
                    f" (slowdown at {gpu['slowdown_temp_c']} °C)"
                    if gpu.get("slowdown_temp_c")
                    else ""
                )
                + (
                    ". Hardware thermal slowdown is the card's emergency brake."
                    if hardware
                    else "."
                )
            ),
            evidence=(
                Evidence(
                    "accept.series",
                    f"{first.get('reasons')} at {first.get('temp_c')} °C",
                    "no thermal slowdown under load",
                ),
            ),
            fixes=(
                Fix(
                    "Improve airflow: clean dust from the heatsink and fans, check every fan spins, open the case or add intake fans"
                ),
                Fix(
                    "On a used card, have the thermal paste and memory pads replaced (or return it)",
                    risk=Risk.DESTRUCTIVE,
                ),
            ),
        )
    return None


@check("accept.power-capped", needs=("accept.series", "accept.gpus"))
def power_capped(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """The card runs below the power it should have, or its power delivery brakes it.

    Three causes: a power limit set below the card's default (`nvidia-smi -pl`, often left by a
    previous miner); a VBIOS whose default limit is far below what NVIDIA specifies for the model
    (a modified or mining BIOS); or the hardware power brake / slowdown signal under load, which
    a board asserts when its supply sags (a weak PSU, a daisy-chained or loose power cable, a
    damaged 12VHPWR connector).
    """
    for gpu in _gpus(snap):
        index = gpu.get("index")
        default, enforced = gpu.get("power_default_limit_w"), gpu.get("power_enforced_limit_w")
        if default and enforced and enforced < 0.9 * default:
            below = round(100 * (1 - enforced / default))
            return Finding(
                id="accept.power-capped",
                severity=Severity.WARNING,
                title=f"{_label(gpu)}: power capped {below}% below this card's limit ({enforced:g} W of {default:g} W)",
                detail="A lower power limit was set on this card; it runs slower than it can.",
                evidence=(
                    Evidence("accept.gpus", f"enforced {enforced:g} W", f"default {default:g} W"),
                ),
                fixes=(
                    Fix(
                        "Restore the default power limit (as root)",
                        commands=(f"sudo nvidia-smi -i {index} -pl {default:g}",),
                        risk=Risk.SAFE,
                        url=_NVIDIA_SMI_DOC,
                    ),
                ),
            )
        braked = [
            s
            for s in _samples(snap, int(index or 0))
            if set(s.get("reasons") or ()) & set(_POWER_BRAKE)
        ]
        if braked:
            return Finding(
                id="accept.power-capped",
                severity=Severity.ERROR,
                title=f"{_label(gpu)}: hardware power brake under load (at {_minutes(float(braked[0]['t_s']))})",
                detail="The board slowed itself because its power supply could not hold up.",
                evidence=(
                    Evidence(
                        "accept.series", f"{braked[0].get('reasons')}", "no hardware slowdown"
                    ),
                ),
                fixes=(
                    Fix(
                        "Give the card its own power cables from the PSU (no daisy chain, no splitter), seated fully; check the connector for heat damage"
                    ),
                    Fix(
                        "Use a power supply rated for this card (NVIDIA's recommended wattage for the model)"
                    ),
                ),
            )
        spec = _spec(ms, gpu.get("name"))
        if spec and default and spec.get("power_w") and default < 0.9 * spec["power_w"]:
            below = round(100 * (1 - default / spec["power_w"]))
            return Finding(
                id="accept.power-capped",
                severity=Severity.INFO,  # the spec rows are unverified: a hint only
                title=f"{_label(gpu)}: VBIOS power limit {default:g} W is {below}% below the model's {spec['power_w']} W",
                detail="A VBIOS with a low default limit: an OEM or modified (mining) BIOS, or a partner board with another design.",
                evidence=(
                    Evidence(
                        "accept.gpus",
                        f"default {default:g} W",
                        f"{spec['power_w']} W ({spec['source']})",
                    ),
                ),
                fixes=(
                    Fix(
                        "Ask the seller which VBIOS the card runs; compare `nvidia-smi -q` VBIOS version with the board maker's"
                    ),
                ),
            )
    return None


@check("accept.pcie-degraded", needs=("accept.series", "accept.gpus"))
def pcie_degraded(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """Under load the PCIe link ran slower or narrower than the card and slot can train to.

    GPUs lower the link speed when idle, so only samples under load count. A link that stays at a
    lower generation or fewer lanes while busy is a signal-integrity problem: a riser cable (mining
    rigs use x1 risers), a card not fully seated, dirty contacts, or a damaged slot. Transfers
    between host and GPU (data loading, multi-GPU) slow down accordingly.
    """
    for gpu in _gpus(snap):
        busy = _under_load(_samples(snap, int(gpu.get("index") or 0)))
        gen_max, width_max = gpu.get("pcie_gen_max"), gpu.get("pcie_width_max")
        if not busy or not gen_max or not width_max:
            continue
        gens = [s["pcie_gen"] for s in busy if s.get("pcie_gen")]
        widths = [s["pcie_width"] for s in busy if s.get("pcie_width")]
        if not gens or not widths:
            continue
        gen, width = min(gens), min(widths)
        if gen >= gen_max and width >= width_max:
            continue
        return Finding(
            id="accept.pcie-degraded",
            severity=Severity.WARNING,
            title=f"{_label(gpu)}: PCIe link at Gen{gen} x{width} under load (expected Gen{gen_max} x{width_max}): riser or slot",
            detail=f"{sum(1 for s in busy if s.get('pcie_width', width_max) < width_max or s.get('pcie_gen', gen_max) < gen_max)} of {len(busy)} samples under load below the link this card and slot support.",
            evidence=(
                Evidence("accept.series", f"Gen{gen} x{width}", f"Gen{gen_max} x{width_max}"),
            ),
            fixes=(
                Fix(
                    "Power off, reseat the card in its slot and clean the contacts; remove any riser or use a riser rated for this PCIe generation"
                ),
                Fix(
                    "Try another x16 slot (wired to the CPU), and check the slot's link setting in the BIOS"
                ),
            ),
        )
    return None


@check("accept.xid-during-load", needs=("accept.xids",))
def xid_during_load(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """The NVIDIA driver logged Xid errors while the acceptance test ran.

    An Xid is the driver reporting a GPU error. During a controlled load on a fresh driver, Xids
    such as 79 (fallen off the bus: power or PCIe), 48/63/64/94/95 (memory errors) or 13/31/43
    repeated point at the hardware; the row of NVIDIA's Xid catalog says what each one means.
    """
    xids = (snap.data("accept.xids") or {}).get("xids", [])
    if not xids:
        return None
    codes = sorted({int(x["code"]) for x in xids if x.get("code") is not None})
    names = []
    for code in codes:
        row = xid_row(ms, code) or {}
        names.append(
            f"Xid {code}" + (f" ({row.get('description') or row.get('mnemonic')})" if row else "")
        )
    fixes = [Fix("Read what each Xid means in NVIDIA's Xid catalog", url=_XID_DOC)]
    if 79 in codes:
        fixes.insert(
            0,
            Fix(
                "Xid 79 under load is power or PCIe: separate power cables, reseat the card, no riser; if it repeats, return the card"
            ),
        )
    return Finding(
        id="accept.xid-during-load",
        severity=Severity.ERROR,
        title=f"{', '.join(names)} during the load",
        detail=f"{len(xids)} Xid line(s) logged by the driver while the test ran.",
        evidence=tuple(
            Evidence(
                "accept.xids", f"Xid {x.get('code')}: {x.get('message') or ''}".strip(), "no Xid"
            )
            for x in xids[:5]
        ),
        fixes=tuple(fixes),
    )


CHECKS = [
    load_failed,
    interrupted,
    wrong_results,
    vram_errors,
    thermal_throttling,
    power_capped,
    pcie_degraded,
    xid_during_load,
]
