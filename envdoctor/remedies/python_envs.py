"""Python remedies: a new environment with a CPython minor the torch release publishes wheels for.

Never the Python the user already runs: when it is already supported there is nothing to do, so
no fix is written.
"""

from __future__ import annotations

from typing import Any

from envdoctor.findings import Fix
from envdoctor.fix_effects import Assumes, Effect, TorchBuild
from envdoctor.pip_commands import TorchTarget, new_venv, torch_install
from envdoctor.queries import torch as tq
from envdoctor.queries.torch_fixes import released_minors
from envdoctor.remedies.host import Host
from envdoctor.remedies.spec import RemedySpec
from envdoctor.snapshot import Snapshot
from envdoctor.versions import major_minor

PYTHON_DOWNLOADS = "https://www.python.org/downloads/"
GET_STARTED = "https://pytorch.org/get-started/locally/"


def python_fixes(spec: RemedySpec, snap: Snapshot, ms: Any, host: Host) -> list[Fix]:
    """A venv with the newest regular CPython the release (param `torch`, else the installed
    torch, else the newest release) supports, and that torch in it."""
    facts = snap.data("python.torch") or {}
    torch = str(
        spec.param("torch")
        or facts.get("version")
        or (snap.fact("python.packages", "packages") or {}).get("torch")
        or next(iter(released_minors(ms)), "")
    )
    if not torch:
        return []
    supported = [p for p in tq.supported_pythons(ms, torch) or [] if not p.endswith("t")]
    have = major_minor(snap.fact("python", "version"))
    if not supported or have in supported:
        return []
    python = supported[-1]
    windows = host.os == "windows"
    wheel_os = "windows" if windows else ("macos" if host.os == "macos" else "linux")
    variant = str(facts.get("variant") or tq.pypi_default(ms, torch, wheel_os) or "cpu")
    if host.os == "macos":
        variant = "cpu"  # macOS wheels are CPU + MPS builds, from PyPI; no CUDA index there
    url = None if host.os == "macos" else (tq.index_url(ms, variant) or tq.index_url(ms, "cpu"))
    companions = tq.companion_versions(ms, torch)
    exact = "+" in torch or torch.count(".") >= 2
    release = torch.split("+")[0]
    target = TorchTarget(
        release,
        variant,
        url or "",
        companions.get("torchvision"),
        companions.get("torchaudio"),
        exact=exact,
    )
    create, venv = new_venv(python, windows)
    installed = snap.fact("python.packages", "packages") or {}
    install, check = torch_install(venv, target, installed)
    if not url:
        install = install.replace(" --index-url ", "")
    minor = major_minor(release) or release
    return [
        Fix(
            f"Create an environment with Python {python} and install torch {target.torch} "
            f"({variant}) there",
            (create, install, check),
            url=GET_STARTED if not exact else PYTHON_DOWNLOADS,
            effect=Effect(
                python=python,
                torch=TorchBuild(minor, variant, release if exact else None),
            ),
            assumes=Assumes(os=(host.os,) if host.os else None, installer="pip"),
            assumptions=(f"assumes Python {python} is installed (python.org or your OS packages)",),
        )
    ]
