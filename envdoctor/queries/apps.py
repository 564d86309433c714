"""Questions about known applications, answered from the `apps` matrix.

Every function takes a matrix set (anything with `.table(name).rows`) and never raises on odd
input: an unknown app or a missing table gives None / [] / {}.

Application names: the canonical short name (`comfyui`, `webui`, `vllm`, `ollama`, `llamacpp`,
`textgen`, `torchserve`, `halcon`, and the CAD apps `creo`, `solidworks` that the matrix has no
rows for) or any alias users type (`a1111`, `stable-diffusion-webui`, `llama.cpp`,
`text-generation-webui`, `oobabooga`, ...). `envdoctor.requirements.parse` calls
`preflight_requirements` and `known_apps` for `preflight --require app=NAME`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from packaging.version import InvalidVersion, Version

from envdoctor.model.apps import CAD_APPS, DISPLAY_NAMES, canonical

if TYPE_CHECKING:
    from envdoctor.matrix.loader import MatrixSet

__all__ = [
    "CAD_APPS",
    "DISPLAY_NAMES",
    "canonical",
    "cpu_mode",
    "driver_floor",
    "known_apps",
    "min_compute",
    "preflight_requirements",
    "row",
    "rows",
    "vram_flags",
]


def _table(ms: MatrixSet) -> list[dict[str, Any]]:
    try:
        return list(ms.table("apps").rows)
    except (KeyError, AttributeError):
        return []


def rows(ms: MatrixSet, app: str, kind: str | None = None) -> list[dict[str, Any]]:
    """The matrix rows of `app` (canonical or alias), optionally only those of one `kind`."""
    name = canonical(app) or app
    return [
        r for r in _table(ms) if r.get("app") == name and (kind is None or r.get("kind") == kind)
    ]


def row(ms: MatrixSet, app: str, fact: str) -> dict[str, Any] | None:
    """The row (app, fact), or None."""
    return next((r for r in rows(ms, app) if r.get("fact") == fact), None)


def known_apps(ms: MatrixSet) -> list[str]:
    """Canonical names of the apps the matrix describes, plus the CAD apps envdoctor reports on."""
    names = {str(r.get("app")) for r in _table(ms) if r.get("app")}
    return sorted(names | set(CAD_APPS))


def _v(text: Any) -> Version | None:
    try:
        return Version(str(text))
    except (InvalidVersion, TypeError):
        return None


def min_compute(
    ms: MatrixSet, app: str, vendor: str = "nvidia"
) -> list[tuple[str, dict[str, Any]]]:
    """(minimum compute capability, row) of the app's GPU rows for `vendor`, highest floor first
    (the current docs' floor, then floors earlier docs gave)."""
    found = [
        (str(r["min_compute"]), r)
        for r in rows(ms, app, "gpu")
        if r.get("min_compute") and r.get("vendor") == vendor and not r.get("compute")
    ]
    return sorted(found, key=lambda item: _v(item[0]) or Version("0"), reverse=True)


def _in_range(value: Version, rng: dict[str, Any]) -> bool:
    low, high = (
        _v(rng.get("min")) if rng.get("min") else None,
        _v(rng.get("max")) if rng.get("max") else None,
    )
    return (low is None or value >= low) and (high is None or value < high)


def driver_floor(ms: MatrixSet, app: str, compute_capability: str) -> dict[str, Any] | None:
    """The app's highest NVIDIA driver floor that applies to a GPU of this compute capability:
    the `gpu` row with `compute` range holding it and the largest `min_driver`. None when no row
    applies (also when the GPU is below every row's range)."""
    cc = _v(compute_capability)
    if cc is None:
        return None
    applying = [
        r
        for r in rows(ms, app, "gpu")
        if r.get("min_driver")
        and isinstance(r.get("compute"), dict)
        and _in_range(cc, r["compute"])
    ]
    return max(applying, key=lambda r: _v(r["min_driver"]) or Version("0"), default=None)


def cpu_mode(ms: MatrixSet, app: str) -> dict[str, Any] | None:
    """The row saying how the app runs without a GPU, or None when its docs give none."""
    return next(iter(rows(ms, app, "cpu-mode")), None)


def vram_flags(ms: MatrixSet, app: str, vram_mib: float | None = None) -> list[dict[str, Any]]:
    """The app's small-GPU flags, in the order its docs list them; with `vram_mib`, only those
    whose `max_vram_mib` covers that much memory (rows without one always apply)."""
    found = rows(ms, app, "vram-flag")
    if vram_mib is None:
        return found
    return [
        r for r in found if r.get("max_vram_mib") is None or vram_mib <= float(r["max_vram_mib"])
    ]


def preflight_requirements(name: str, ms: MatrixSet) -> list[str] | None:
    """The `preflight --require` tokens standing for the app's documented GPU requirements
    (`app=vllm` -> ["gpu", "compute>=7.5"]), or None when the app is unknown."""
    app = canonical(name)
    if app is None:
        return None
    found = rows(ms, app, "preflight")
    if found:
        return [str(t) for t in found[0].get("requires") or []]
    if app in CAD_APPS:
        return ["gpu"]
    return ["gpu"] if rows(ms, app) else None
