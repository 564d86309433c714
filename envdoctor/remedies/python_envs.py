"""Python remedies: a new environment with a CPython minor the torch release publishes wheels for.

Never the Python the user already runs: when it is already supported there is nothing to do, so
no fix is written.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from envdoctor.fix_effects import Assumes, Effect, TorchBuild
from envdoctor.installers.pip_commands import TorchTarget, new_venv, torch_install
from envdoctor.model.findings import Fix
from envdoctor.model.snapshot import Snapshot
from envdoctor.model.versions import major_minor
from envdoctor.queries import torch as tq
from envdoctor.queries.torch_fixes import released_minors
from envdoctor.remedies.host import Host
from envdoctor.remedies.spec import RemedySpec

PYTHON_DOWNLOADS = "https://www.python.org/downloads/"
GET_STARTED = "https://pytorch.org/get-started/locally/"


def _for_gpu(snap: Snapshot, ms: Any, host: Host, torch: str, have: str | None) -> Fix | None:
    """On an NVIDIA machine the new environment gets a build for its GPUs and driver: the same
    release when one of its variants fits, else the newest release that does."""
    from envdoctor.checks.torch_context import target_of, torch_context
    from envdoctor.queries.torch_fixes import choose
    from envdoctor.remedies.torch_builds import driver_cuda

    ctx = torch_context(snap, ms)
    if not ctx.capabilities:
        return None
    wheel_os = "windows" if host.os == "windows" else "linux"
    choices = choose(
        ms,
        ctx.capabilities,
        wheel_os,
        driver_max_cuda=driver_cuda(ctx, ms, wheel_os),
        driver_version=ctx.driver_version,
        installed=torch,
    )
    for choice in choices:
        pythons = [p for p in tq.supported_pythons(ms, choice.release) or [] if not p.endswith("t")]
        if not pythons or have in pythons:
            continue
        python = pythons[-1]
        create, venv = new_venv(python, host.os == "windows")
        target = target_of(choice)
        installed = snap.fact("python.packages", "packages") or {}
        return Fix(
            f"Create an environment with Python {python} and install torch {choice.torch} "
            f"({choice.variant}: kernels for this GPU, runs on this driver) there",
            (create, *torch_install(venv, target, installed)),
            url=GET_STARTED,
            effect=Effect(
                python=python, torch=TorchBuild(choice.release, choice.variant, choice.exact)
            ),
            assumes=Assumes(os=(host.os,) if host.os else None, installer="pip", vendor="nvidia"),
            assumptions=(f"assumes Python {python} is installed (python.org or your OS packages)",),
        )
    return None


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
    if host.vendor == "nvidia" and host.os in ("linux", "windows"):
        gpu_build = _for_gpu(snap, ms, host, torch, have)
        if gpu_build is not None:
            return [gpu_build]
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


def release_for_platform(spec: RemedySpec, snap: Snapshot, ms: Any, host: Host) -> list[Fix]:
    """ "torch-release-for-platform": the asked-for torch (param `torch`, else the installed one)
    has no official wheel for this OS and machine (an Intel Mac after 2.2): the newest release
    that has one, for this Python, else in a new venv with a Python it supports."""
    from envdoctor.installers.pip_commands import install
    from envdoctor.queries import torch_platforms as tp

    wanted = str(spec.param("torch") or snap.fact("python.torch", "version") or "")
    if not wanted or host.os is None or host.machine is None:
        return []
    row = tp.platform_row(ms, host.os, host.machine)
    if row is None or tp.wheel_kinds(ms, host.os, host.machine, wanted) != []:
        return []  # the release has wheels here (or the tables do not say): nothing to change
    last = str(row.get("last_torch") or "")
    if not last:
        return []
    kind = "cpu" if "cpu" in (row.get("kinds") or []) else str((row.get("kinds") or ["cpu"])[0])
    have = major_minor(snap.fact("python", "version"))
    pythons = [p for p in tq.supported_pythons(ms, last) or [] if not p.endswith("t")]
    where = f"{host.os} {host.machine}"
    effect = Effect(torch=TorchBuild(last, kind))
    assumes = Assumes(os=(host.os,), installer=host.installer.tool)
    if not pythons or have in pythons:
        return [
            Fix(
                f"No torch {wanted} wheel exists for {where}: torch {last}.x is the last release "
                "with one; install it (or move to a platform newer releases support)",
                (install(host.installer, [f"torch=={last}.*"]),),
                url="https://pytorch.org/get-started/previous-versions/",
                effect=effect,
                assumes=assumes,
            )
        ]
    python = pythons[-1]
    create, venv = new_venv(python, host.os == "windows")
    return [
        Fix(
            f"No torch {wanted} wheel exists for {where}, and torch {last}.x has none for "
            f"Python {have}: make a Python {python} venv with torch {last}.x",
            (create, install(venv, [f"torch=={last}.*"])),
            url="https://pytorch.org/get-started/previous-versions/",
            effect=Effect(python=python, torch=TorchBuild(last, kind)),
            assumes=replace(assumes, installer="pip"),
            assumptions=(f"assumes Python {python} is installed",),
        )
    ]
