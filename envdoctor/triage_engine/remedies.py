"""Remedy references of the causes, resolved by the one fix chooser (`envdoctor.remedies`).

A signature names what it needs (`[[signature.remedy]] kind = "torch-build-for-driver"`); the
chooser reads the snapshot's groups. A paste rarely has those groups, but its prose tells the
same facts (the driver's CUDA from "found version 11040", the GPU from its name, the torch
wheel from "2.5.1+cu124"), so the chooser gets the snapshot completed with those facts
(`with_prose_groups`, low confidence, never replacing a collected group).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from envdoctor.model.findings import Fix
from envdoctor.model.snapshot import Confidence, Snapshot, collected

if TYPE_CHECKING:
    from envdoctor.remedies import RemedySpec
    from envdoctor.triage_engine.facts import Facts

SOURCE = "pasted:prose"


def with_prose_groups(snap: Snapshot, facts: Facts) -> Snapshot:
    """The snapshot completed with the groups the chooser reads, built from the derived facts."""
    groups = []

    def add(name: str, data: dict[str, Any]) -> None:
        data = {k: v for k, v in data.items() if v is not None}
        if data and not snap.has(name):
            groups.append(collected(name, SOURCE, data, confidence=Confidence.LOW))

    add(
        "nvidia.driver",
        {
            "driver_version": facts.get("driver.version"),
            "cuda_driver_max": facts.get("driver.cuda_max"),
        },
    )
    add(
        "python.torch",
        {
            "version": facts.get("torch.version"),
            "variant": facts.get("torch.variant"),
            "cuda": facts.get("torch.cuda"),
            "build": facts.get("torch.build"),
        },
    )
    if facts.get("gpu.vendor") == "nvidia" and facts.get("gpu.name"):
        gpus = [{"name": facts.get("gpu.name"), "compute_capability": facts.get("gpu.cc")}]
        oldest, cc_min = facts.get("gpu.oldest"), facts.get("gpu.cc_min")
        if oldest and cc_min and cc_min != facts.get("gpu.cc"):  # a build must run on both
            gpus.append({"name": oldest, "compute_capability": cc_min})
        add("nvidia.gpus", {"gpus": gpus})
    system = facts.get("os.system")
    add(
        "os",
        {
            "system": system,
            "arch": facts.get("os.arch"),
            "virtualization": "wsl" if facts.get("os.wsl") else None,
        },
    )
    add("python", {"version": facts.get("python.version")})
    # the CUDA toolkit the report says it installed ("cuda is 12.4"), for a build that matches it
    add("cuda.toolkit", {"stated_release": facts.get("cuda.runtime")})
    if not groups:
        return snap
    extra = Snapshot(origin=snap.origin)
    extra.extend(groups)
    return snap.merged_with(extra)


def resolve_fixes(
    specs: Iterable[RemedySpec], snap: Snapshot, matrices: Any, facts: Facts
) -> list[Fix]:
    """The chooser's exact fixes for the remedies named, on the snapshot completed from prose;
    a remedy that needs a fact the paste lacks adds nothing (the written fixes remain)."""
    from envdoctor.remedies import resolve_all

    specs = list(specs)
    if not specs:
        return []
    enriched = with_prose_groups(snap, facts)
    fixes, needs = resolve_all(specs, enriched, matrices)
    if fixes:
        return fixes
    return [Fix(need.sentence()) for need in needs[:1]]


def is_canned_torch_index(fix: Fix) -> bool:
    """A written fix that installs torch from one fixed PyTorch index (a canned variant): the
    chooser's fixes replace it whenever it could choose."""
    return any("download.pytorch.org/whl/" in c and "{{" not in c for c in fix.commands)


def installed_wheel_fix(fix: Fix, facts: Facts) -> bool:
    """Whether `fix` only reinstalls the torch wheel that is already installed (its effect, or
    its commands naming the installed variant's index), which cannot help."""
    variant = facts.get("torch.variant")
    version = facts.get("torch.version")
    effect = getattr(fix, "effect", None)
    torch_build = getattr(effect, "torch", None) if effect is not None else None
    if torch_build is not None and variant and version:
        exact = getattr(torch_build, "exact", None)
        same_variant = getattr(torch_build, "variant", None) == variant
        if same_variant and exact and str(exact).split("+")[0] == str(version).split("+")[0]:
            return True
    if not variant or not str(variant).startswith("cu"):
        return False
    installs = [c for c in fix.commands if "install" in c and "torch" in c]
    return bool(installs) and all(f"/whl/{variant}" in c for c in installs)


def templated(spec: RemedySpec, fill: Any, unknown: Any) -> RemedySpec:
    """The spec with its string parameters templated from the facts and captures. A parameter
    naming a fact the paste does not give (`unknown(text)` true) is left out, so the chooser
    decides without it: a driver `min` of "{{m.min}}" unknown is no minimum, not the words
    standing in for it."""
    params = {
        k: fill(v) if isinstance(v, str) else v
        for k, v in spec.params.items()
        if not (isinstance(v, str) and unknown(v))
    }
    return replace(spec, params=params)
