"""What the application checks read from a snapshot, and the fixes they share (pure; no check
lives here).

- `asked(snap, app)` / `present(snap, app)` / `entries(snap, app)`: whether the user asked about
  an app (`--app`), whether it is installed (apps.detected, or its own group: apps.ollama,
  apps.llamacpp, apps.halcon, apps.torchserve), and its apps.detected entries;
- `nvidia_gpus(snap, ms)` (compute capability completed from the nvidia_gpus table by name),
  `amd_gpus`, `intel_gpus`, `gpu_unknown` (a GPU probe failed: no verdict), `no_gpu_reasons`;
- `venv_snapshot(snap, entry)`: the snapshot as the app sees it: its own venv's python,
  python.packages and python.torch in place of the target environment's, so the Python-stack
  helpers (torch_context, reinstall_fixes) write commands for the app's own interpreter;
- `severity_for(snap, app)`: warning when the user asked about the app, info when it is merely
  installed (absent hardware is never an error).
"""

from __future__ import annotations

from typing import Any

from envdoctor.model.findings import Severity
from envdoctor.model.snapshot import Snapshot, collected
from envdoctor.queries.apps import DISPLAY_NAMES

APP_GROUPS = {
    "ollama": "apps.ollama",
    "llamacpp": "apps.llamacpp",
    "halcon": "apps.halcon",
    "torchserve": "apps.torchserve",
}


def label(app: str) -> str:
    """The app's name as people write it ("ComfyUI")."""
    return DISPLAY_NAMES.get(app, app)


def requested(snap: Snapshot) -> list[str]:
    """Canonical names given with --app."""
    return [str(a) for a in snap.fact("apps.detected", "requested") or []]


def asked(snap: Snapshot, app: str) -> bool:
    """Whether the user asked about `app` with --app."""
    return app in requested(snap)


def entries(snap: Snapshot, app: str) -> list[dict[str, Any]]:
    """apps.detected entries of `app`."""
    return [
        e
        for e in snap.fact("apps.detected", "apps") or []
        if isinstance(e, dict) and e.get("name") == app
    ]


def installed(snap: Snapshot, app: str) -> bool:
    """Whether `app` was found on this machine."""
    return bool(entries(snap, app)) or (app in APP_GROUPS and snap.has(APP_GROUPS[app]))


def present(snap: Snapshot, app: str) -> bool:
    """Asked about or installed."""
    return asked(snap, app) or installed(snap, app)


def severity_for(snap: Snapshot, app: str, when_asked: Severity = Severity.WARNING) -> Severity:
    """`when_asked` when the user asked about the app, else info."""
    return when_asked if asked(snap, app) else Severity.INFO


def nvidia_gpus(snap: Snapshot, ms: Any) -> list[dict[str, Any]]:
    """NVIDIA GPUs the driver reports: {index, name, compute_capability, memory_total_mib}."""
    from envdoctor.queries.nvidia import gpu_by_name

    out = []
    for gpu in snap.fact("nvidia.gpus", "gpus") or []:
        if not isinstance(gpu, dict):
            continue
        cc = gpu.get("compute_capability")
        if not cc and gpu.get("name"):
            row = gpu_by_name(ms, str(gpu["name"]))
            cc = row.get("compute_capability") if row else None
        out.append(
            {
                "index": gpu.get("index"),
                "name": gpu.get("name") or "NVIDIA GPU",
                "compute_capability": str(cc) if cc else None,
                "memory_total_mib": gpu.get("memory_total_mib"),
            }
        )
    return out


def amd_gpus(snap: Snapshot) -> list[dict[str, Any]]:
    """AMD GPUs: {index, name, gfx_target, vram_mib}."""
    return [g for g in snap.fact("amd.gpus", "gpus") or [] if isinstance(g, dict)]


def intel_gpus(snap: Snapshot) -> list[dict[str, Any]]:
    """Intel GPUs the intel_gpu probe lists."""
    return [g for g in snap.fact("intel.gpus", "gpus") or [] if isinstance(g, dict)]


def nvidia_on_pci(snap: Snapshot) -> list[dict[str, Any]]:
    """NVIDIA GPUs seen on the PCI bus (with or without a driver)."""
    return [
        d
        for d in snap.fact("nvidia.pci", "devices") or []
        if isinstance(d, dict) and d.get("is_gpu")
    ]


def any_gpu(snap: Snapshot, ms: Any) -> bool:
    """Whether a GPU a compute app could use is reported by a driver (NVIDIA, AMD)."""
    return bool(nvidia_gpus(snap, ms) or amd_gpus(snap))


def gpu_unknown(snap: Snapshot) -> str | None:
    """Why the GPUs cannot be judged (a GPU probe failed or hung), or None."""
    for name in ("nvidia.gpus", "amd.gpus"):
        group = snap.group(name)
        if group is not None and group.status.value == "failed":
            return f"{name} failed: {group.reason}"
    return None


def in_container(snap: Snapshot) -> bool:
    """Whether envdoctor runs inside a container."""
    return bool(snap.fact("container.inside", "in_container"))


def os_name(snap: Snapshot) -> str | None:
    """ "linux", "wsl", "windows", "macos" or None."""
    if snap.has("platform.wsl"):
        return "wsl"
    system = str(snap.fact("os", "system") or "").lower()
    return {"linux": "linux", "windows": "windows", "darwin": "macos"}.get(system)


def no_gpu_reasons(snap: Snapshot) -> list[str]:
    """Short reasons, read from the GPU groups, why no GPU can be used here."""
    reasons = []
    pci = snap.data("nvidia.pci")
    if pci is not None:
        found = nvidia_on_pci(snap)
        reasons.append(
            f"{len(found)} NVIDIA GPU(s) on the PCI bus but no working driver"
            if found
            else f"no NVIDIA device on the PCI bus ({pci.get('pci_device_count', '?')} PCI devices seen)"
        )
    driver = snap.group("nvidia.driver")
    if driver is not None and not driver.collected and driver.reason:
        reasons.append(
            driver.reason.split(":")[0]
            if driver.reason.startswith("no NVIDIA driver")
            else driver.reason
        )
    amd = snap.group("amd.gpus")
    if amd is not None and not amd.collected:
        reasons.append(f"no AMD GPU ({amd.reason})" if amd.reason else "no AMD GPU")
    if in_container(snap) and not snap.fact("container.inside", "device_nodes"):
        engine = snap.fact("container.inside", "engine") or "a container"
        reasons.append(f"inside {engine} with no GPU device passed in")
    return reasons


def venv_of(entry: dict[str, Any]) -> dict[str, Any] | None:
    """The entry's venv description when it was read."""
    venv = entry.get("venv")
    return venv if isinstance(venv, dict) and venv.get("status") == "collected" else None


def venv_snapshot(snap: Snapshot, entry: dict[str, Any]) -> Snapshot | None:
    """The snapshot with the app venv's python, python.packages and python.torch in place of the
    target environment's (None when the venv was not read)."""
    venv = venv_of(entry)
    if venv is None:
        return None
    view = Snapshot(dict(snap.groups), snap.origin, snap.created_at, snap.envdoctor_version)
    source = f"apps.detected ({entry.get('name')} venv {venv.get('python')})"
    view.add(collected("python", source, dict(venv.get("python_facts") or {})))
    view.add(
        collected(
            "python.packages",
            source,
            {
                "packages": dict(venv.get("packages") or {}),
                "installers": dict(venv.get("installers") or {}),
                "locations": {},
            },
        )
    )
    torch = venv.get("torch")
    if isinstance(torch, dict):
        view.add(collected("python.torch", source, dict(torch)))
    else:
        view.groups.pop("python.torch", None)
    view.groups.pop("python.deep", None)
    view.groups.pop("python.frameworks", None)
    return view


def where(entry: dict[str, Any]) -> str:
    """ "ComfyUI 0.38.1 at /home/u/ComfyUI"."""
    version = f" {entry['version']}" if entry.get("version") else ""
    return f"{label(str(entry.get('name')))}{version} at {entry.get('where')}"
