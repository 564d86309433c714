"""Torch-build remedies: which official wheel to install, written for this environment's installer.

The variant choice is envdoctor.queries.torch_fixes.choose (the installed release's best variant
first, then the newest release); the commands are checks.torch_context.reinstall_fixes. This
module adds what a fix declares: its effect (the build installed) and its assumptions (OS,
installer; the driver it needs when the driver was not given).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from envdoctor.fix_effects import Assumes, Effect, TorchBuild
from envdoctor.model.findings import Fix
from envdoctor.model.snapshot import Snapshot
from envdoctor.model.versions import parse
from envdoctor.queries import nvidia as nq
from envdoctor.queries import torch as tq
from envdoctor.queries.torch_fixes import (
    Choice,
    choose,
    choose_for_older_driver,
    choose_for_toolkit,
    choose_without_gpu,
)
from envdoctor.remedies.host import Host
from envdoctor.remedies.spec import NeedsFact, RemedySpec

SOURCE_BUILD_URL = "https://github.com/pytorch/pytorch#from-source"


def _capability(text: Any) -> str | None:
    """ "8.6", "86", "sm_86", "120" -> "8.6" / "12.0"."""
    raw = str(text or "").strip().lower().removeprefix("sm_")
    if "." in raw:
        return raw if raw.replace(".", "").isdigit() else None
    if raw.isdigit() and len(raw) >= 2:
        return f"{raw[:-1]}.{raw[-1]}"
    return None


def driver_cuda(ctx: Any, ms: Any, os_name: str) -> str | None:
    """The driver's highest CUDA: as given, else derived from its version through the tables."""
    if ctx.driver_max_cuda:
        return str(ctx.driver_max_cuda)
    if ctx.driver_version:
        return nq.max_cuda_for_driver(ms, str(ctx.driver_version), os_name)
    return None


def driver_needed(ms: Any, variant: str, os_name: str) -> str | None:
    """The oldest driver that runs a CUDA wheel variant ("cu130" -> "580"), from the tables."""
    cuda = tq.variant_cuda(ms, variant)
    return nq.driver_floor(ms, cuda, os_name) if cuda else None


def _effect(choice: Choice, ctx: Any = None) -> Effect:
    """The build installed, and the extensions pinned to the old torch that the reinstall
    removes (checks.torch_context.reinstall_fixes uninstalls them)."""
    from envdoctor.checks.torch_context import _pinned_elsewhere

    removed = tuple(sorted(_pinned_elsewhere(ctx, choice))) if ctx is not None else ()
    python = str(ctx.python.get("executable") or "") if ctx is not None else ""
    return Effect(
        torch=TorchBuild(choice.release, choice.variant, choice.exact),
        packages_removed=removed,
        environment=python or None,
    )


def torch_fixes(spec: RemedySpec, snap: Snapshot, ms: Any, host: Host) -> list[Fix] | NeedsFact:
    """Fixes for "torch-build-for-gpu" and "torch-build-for-driver"."""
    from envdoctor.checks.torch_context import reinstall_fixes, torch_context

    ctx = torch_context(snap, ms)
    os_name = host.os or ctx.os or ""
    vendor = spec.param("vendor") or host.vendor
    if vendor == "amd":
        return _rocm(snap, ms, host, ctx, reinstall_fixes)
    if os_name == "macos":
        # no CUDA wheel exists for macOS: torch reaches the Apple GPU through MPS
        if host.machine not in ("arm64", "aarch64", None):
            return []
        return [
            Fix(
                "macOS has no CUDA: use the Apple GPU through MPS with the torch you have "
                '(device "mps" instead of "cuda")',
                ("python -c 'import torch; print(torch.backends.mps.is_available())'",),
                url="https://developer.apple.com/metal/pytorch/",
                assumes=Assumes(os=("macos",), vendor="apple"),
                assumptions=("assumes code that names the device (.to('mps')), not .cuda()",),
            )
        ]
    wanted = _capability(spec.param("capability"))
    capabilities = [wanted] if wanted else ctx.capabilities
    if not capabilities and spec.param("gpu_names"):
        # GPUs known by name only (Windows display adapters): their capability from the table
        rows = [nq.gpu_by_name(ms, str(n)) for n in spec.param("gpu_names")]
        capabilities = [
            str(r["compute_capability"]) for r in rows if r and r.get("compute_capability")
        ]
    wheel_os = "windows" if os_name == "windows" else ctx.os or "linux"
    max_cuda = driver_cuda(ctx, ms, _table_os(os_name))
    if not capabilities:
        # without the GPU: a build for the driver still needs the driver's CUDA to choose
        if spec.kind == "torch-build-for-gpu" or max_cuda:
            assumed = _without_gpu(
                snap, ms, host, ctx, os_name, wheel_os, max_cuda, _installed(spec, ctx)
            )
            if assumed is not None:
                return assumed
        return NeedsFact(
            "the GPU model (nvidia.gpus)",
            "run `nvidia-smi` (or `envdoctor check` on that machine) and include its output",
        )
    choices = choose(
        ms,
        capabilities,
        wheel_os,
        driver_max_cuda=max_cuda,
        driver_version=ctx.driver_version,
        python=ctx.python_version,
        installed=_installed(spec, ctx),
    )
    if not choices and ctx.python_version:
        venv = _new_python(ms, ctx, host, capabilities, wheel_os, max_cuda)
        if venv is not None:
            return [venv]
    if not choices:
        one = _one_gpu_only(ms, ctx, host, (os_name, wheel_os), max_cuda, _installed(spec, ctx))
        return [_source_build(capabilities), *one]
    if not ctx.driver_version and not max_cuda:
        older = choose_for_older_driver(
            ms, capabilities, wheel_os, choices[-1], python=ctx.python_version
        )
        if older is not None and all(older.variant != c.variant for c in choices):
            choices = [*choices, older]
    # one name per architecture: a dual-GPU board (Tesla K80) lists the same capability twice
    gpu = ", ".join(dict.fromkeys(f"sm_{c.replace('.', '')}" for c in capabilities))
    out = []
    fixes: tuple[Fix, ...] = ()
    for choice in choices:
        runs = _runs_on(ms, ctx, choice.variant, (os_name, max_cuda), capabilities)
        fixes += reinstall_fixes(ctx, [choice], f"has {gpu} kernels{runs}")
    toolkit = snap.fact("cuda.toolkit", "stated_release")
    matched = (
        choose_for_toolkit(
            ms,
            capabilities,
            wheel_os,
            str(toolkit),
            driver_max_cuda=max_cuda,
            driver_version=ctx.driver_version,
            python=ctx.python_version,
        )
        if toolkit and (ctx.driver_version or max_cuda)
        else None
    )
    if matched is not None and all(matched.variant != c.variant for c in choices):
        # the CUDA toolkit the report says it installed: a build for it keeps torch and what
        # that toolkit's nvcc compiles on one CUDA
        choices = [*choices, matched]
        fixes = (
            *fixes,
            *reinstall_fixes(
                ctx, [matched], f"has {gpu} kernels, matches the CUDA {toolkit} installed"
            ),
        )
    for choice, fix in zip(choices, fixes, strict=True):
        assumptions: tuple[str, ...] = ()
        derived: tuple[str, ...] = ()
        if not ctx.driver_version and not max_cuda:
            assumptions = (_driver_assumption(ms, choice.variant, os_name, capabilities),)
        elif not ctx.driver_max_cuda and max_cuda:
            derived = (
                f"nvidia.driver.cuda_driver_max = {max_cuda} (derived from driver "
                f"{ctx.driver_version} through the tables)",
            )
        out.append(
            replace(
                fix,
                effect=_effect(choice, ctx),
                assumes=Assumes(
                    os=(os_name,) if os_name else None,
                    installer=host.installer.tool,
                    vendor="nvidia",
                ),
                assumptions=assumptions,
                relies_on=derived,
            )
        )
    return out


def _installed(spec: RemedySpec, ctx: Any) -> str:
    """The installed torch: the facts', else the `installed` parameter (a version the report
    printed, "2.3.1+cpu"); a placeholder the paste did not fill is ignored."""
    given = str(spec.param("installed") or "").strip()
    if not re.fullmatch(r"\d+\.\d+(?:\.\d+)?(?:\+\w+)?", given):
        given = ""
    return str(ctx.torch.get("version") or given)


def _runs_on(
    ms: Any, ctx: Any, variant: str, where: tuple[str, str | None], capabilities: list[str]
) -> str:
    """ ", runs on driver X" for a build the chooser kept for the driver given; with only the
    driver's CUDA given (nvidia-smi's "CUDA Version", torch's "found version") the chooser kept
    the builds it runs, so no branch is left to assume; without either, the driver branch the
    build needs on these GPUs (the tables')."""
    os_name, max_cuda = where
    if ctx.driver_version:
        return f", runs on driver {ctx.driver_version}"
    if max_cuda:
        return f", runs on a driver with CUDA {max_cuda}"
    return _needs_driver(ms, variant, os_name, capabilities)


def _needs_driver(ms: Any, variant: str, os_name: str, capabilities: list[str]) -> str:
    """ ", needs driver 570+" for a build chosen without the driver's version; "" when the
    tables do not say."""
    need = _driver_floor(ms, variant, os_name, capabilities)
    return f", needs driver {need}+" if need else ""


def _driver_floor(ms: Any, variant: str, os_name: str, capabilities: list[str]) -> str:
    """The driver a build needs on these GPUs: the higher of the variant's floor and the driver
    of the first CUDA that knows the newest of them (an sm_120 board needs a CUDA 12.8 driver
    even for a cu128 wheel that minor-version compatibility would run on 525); "" when the
    tables do not say."""
    table_os = _table_os(os_name)
    floors = [driver_needed(ms, variant, table_os)]
    sms = [int(c.replace(".", "")) for c in capabilities if c.replace(".", "").isdigit()]
    first = nq.first_cuda_for_sm(ms, max(sms)) if sms else None
    if first:
        floors.append(nq.min_driver_for_cuda(ms, first, table_os))
    known = [(version, f) for f in floors if f and (version := parse(f)) is not None]
    if not known:
        return ""
    return max(known, key=lambda pair: pair[0])[1]


def _table_os(os_name: str) -> str:
    """The driver tables' OS column for a host's OS name: windows, else linux."""
    return "windows" if os_name == "windows" else "linux"


def _driver_assumption(
    ms: Any, variant: str, os_name: str, capabilities: list[str] | None = None
) -> str:
    """What a wheel chosen without the driver's version assumes about the driver: the floor
    its effect names when the GPUs are known (the same number in both places)."""
    need = _driver_floor(ms, variant, os_name, capabilities or [])
    if need:
        return f"needs a driver of branch {need} or newer for {variant}; yours was not given"
    return f"needs a driver that runs {variant}; yours was not given"


def _without_gpu(
    snap: Snapshot,
    ms: Any,
    host: Host,
    ctx: Any,
    os_name: str,
    wheel_os: str,
    max_cuda: str | None,
    installed: str,
) -> list[Fix] | None:
    """A report that names no GPU still gets a concrete CUDA build, with what it assumes said:
    the installed release (else the newest) as PyTorch's default CUDA variant, or the newest
    variant the named driver runs. None on a live snapshot, when a probe looked for NVIDIA GPUs
    and found none (`triage --here`), for another vendor's GPU, or when no release fits."""
    from envdoctor.checks.torch_context import reinstall_fixes

    if snap.origin != "pasted" or snap.group("nvidia.gpus") is not None:
        return None  # a probe looked for NVIDIA GPUs (live, or `triage --here`) and found none
    if host.vendor not in (None, "nvidia"):
        return None
    choice = choose_without_gpu(
        ms,
        wheel_os,
        driver_max_cuda=max_cuda,
        driver_version=ctx.driver_version,
        python=ctx.python_version,
        installed=installed,
    )
    if choice is None:
        return None
    arches = sorted(
        (
            a
            for a in tq.variant_arches(ms, choice.release, choice.variant, wheel_os) or []
            if a.startswith("sm_") and a[3:].isdigit()
        ),
        key=lambda a: int(a[3:]),
    )
    span = f"{arches[0]} to {arches[-1]}" if arches else ""
    gpu_note = f"assumes an NVIDIA GPU that {choice.variant} has kernels for; the GPU was not given"
    covers = f", with kernels for {span} GPUs" if span else ""
    if ctx.driver_version or max_cuda:
        why = f"the CUDA build the driver (CUDA {max_cuda or ctx.driver_version}) runs{covers}"
        notes: tuple[str, ...] = (gpu_note,)
    elif (tq.release_row(ms, choice.release) or {}).get("pypi_default_linux_x86_64"):
        why = f"PyTorch's default CUDA build for this release{covers}"
        notes = (gpu_note, _driver_assumption(ms, choice.variant, os_name))
    else:  # the tables do not say which build is the default (1.9-1.12): the newest was chosen
        why = f"the newest CUDA build of this release{covers}"
        notes = (gpu_note, _driver_assumption(ms, choice.variant, os_name))
    return [
        replace(
            fix,
            effect=_effect(choice, ctx),
            assumes=Assumes(
                os=(os_name,) if os_name else None, installer=host.installer.tool, vendor="nvidia"
            ),
            assumptions=notes,
        )
        for fix in reinstall_fixes(ctx, [choice], why)
    ]


def _new_python(
    ms: Any, ctx: Any, host: Host, capabilities: list[str], wheel_os: str, max_cuda: str | None
) -> Fix | None:
    """No wheel fits this Python: the newest that fits in another CPython, in a new venv."""
    from envdoctor.installers.pip_commands import TorchTarget, new_venv, torch_install

    choices = choose(
        ms, capabilities, wheel_os, driver_max_cuda=max_cuda, driver_version=ctx.driver_version
    )
    if not choices:
        return None
    choice = choices[0]
    pythons = [p for p in tq.supported_pythons(ms, choice.release) or [] if not p.endswith("t")]
    if not pythons:
        return None
    py = pythons[-1]
    create, venv = new_venv(py, host.os == "windows")
    target = TorchTarget(
        choice.release, choice.variant, choice.index_url, choice.torchvision, choice.torchaudio
    )
    return Fix(
        f"No wheel fits Python {ctx.python_version}: make a Python {py} venv with "
        f"torch {choice.release} ({choice.variant})",
        (create, *torch_install(venv, target, ctx.installed)),
        url="https://pytorch.org/get-started/previous-versions/",
        effect=Effect(python=py, torch=TorchBuild(choice.release, choice.variant)),
        assumes=Assumes(os=(host.os,) if host.os else None, installer="pip", vendor="nvidia"),
        assumptions=(f"assumes Python {py} is installed",),
    )


def _one_gpu_only(
    ms: Any, ctx: Any, host: Host, oses: tuple[str, str], max_cuda: str | None, installed: str
) -> list[Fix]:
    """GPUs no single official wheel covers (an RTX 50 beside a Pascal card): the wheel for the
    newest of them, with CUDA shown only that GPU (CUDA_VISIBLE_DEVICES by its nvidia-smi index,
    in PCI bus order, else its UUID). [] for one GPU model, or when that GPU's index is unknown."""
    from envdoctor.checks.torch_context import reinstall_fixes

    os_name, wheel_os = oses
    named = [g for g in ctx.gpus if g.get("capability")]
    if len({g["capability"] for g in named}) < 2:
        return []
    newest = max(named, key=lambda g: float(g["capability"]))
    # the index, not the UUID: a redacted report hides UUIDs (and the command must stay usable)
    which = newest.get("index") if newest.get("index") is not None else newest.get("uuid")
    if which is None:
        return []
    choices = choose(
        ms,
        [newest["capability"]],
        wheel_os,
        driver_max_cuda=max_cuda,
        driver_version=ctx.driver_version,
        python=ctx.python_version,
        installed=installed,
    )
    if not choices:
        return []
    choice = choices[0]
    sm = f"sm_{newest['capability'].replace('.', '')}"
    env = {"CUDA_DEVICE_ORDER": "PCI_BUS_ID", "CUDA_VISIBLE_DEVICES": str(which)}
    if host.os == "windows":
        show = tuple(f'$env:{k}="{v}"' for k, v in env.items())
    else:
        show = (" ".join(["export", *(f"{k}={v}" for k, v in env.items())]),)
    runs = _runs_on(ms, ctx, choice.variant, (os_name, max_cuda), [newest["capability"]])
    fix = reinstall_fixes(ctx, [choice], f"has {sm} kernels{runs}")[0]
    effect = _effect(choice, ctx)
    return [
        replace(
            fix,
            summary=f"{fix.summary}, and run on the {newest['name']} only: the other GPUs have "
            "no kernels in it, so hide them from CUDA",
            commands=("nvidia-smi -L", *show, *fix.commands),
            effect=replace(effect, env_set=env),
            assumes=Assumes(
                os=(os_name,) if os_name else None,
                installer=host.installer.tool,
                vendor="nvidia",
            ),
        )
    ]


def _source_build(capabilities: list[str]) -> Fix:
    arch = ";".join(capabilities)
    return Fix(
        "No official torch wheel has kernels for this GPU and runs on this driver: build torch "
        f'from source with TORCH_CUDA_ARCH_LIST="{arch}" (with a CUDA toolkit this driver runs)',
        (),
        url=SOURCE_BUILD_URL,
        assumes=Assumes(vendor="nvidia"),
    )


def _rocm(snap: Snapshot, ms: Any, host: Host, ctx: Any, reinstall: Any) -> list[Fix]:
    """The ROCm wheel for the installed ROCm major with code for the GPUs' gfx targets; in a new
    venv when no such wheel exists for this Python. Linux only (PyTorch publishes no others)."""
    from envdoctor.checks import amd_facts as af
    from envdoctor.installers.pip_commands import TorchTarget, new_venv, torch_install

    if host.os not in ("linux", None):
        return []
    rocm = af.rocm_version(snap)
    gfx = sorted({t["effective"] for t in af.gpu_targets(snap)}) or None
    assumes = Assumes(os=("linux",), installer=host.installer.tool, vendor="amd")
    notes = () if gfx else ("assumes the GPU's gfx target is one this ROCm build supports",)
    choice = af.rocm_choice_for(snap, ms, rocm, gfx) or af.rocm_choice_for(snap, ms, None, gfx)
    if choice is not None:
        why = (
            f"for the installed ROCm {rocm}"
            if rocm and choice.variant[4:].split(".")[0] == str(rocm).split(".")[0]
            else "it brings its own ROCm libraries; the amdgpu driver is enough"
        )
        return [
            replace(f, effect=_effect(choice, ctx), assumes=assumes, assumptions=notes)
            for f in reinstall(ctx, [choice], why)
        ]
    choice = af.rocm_choice_for(snap, ms, rocm, gfx, any_python=True) or af.rocm_choice_for(
        snap, ms, None, gfx, any_python=True
    )
    pythons = [
        p
        for p in (tq.supported_pythons(ms, choice.release) if choice else None) or []
        if not p.endswith("t")
    ]
    if choice is None or not pythons:
        return []
    create, venv = new_venv(pythons[-1], False)
    target = TorchTarget(
        choice.release, choice.variant, choice.index_url, choice.torchvision, choice.torchaudio
    )
    return [
        Fix(
            f"No ROCm wheel for {', '.join(gfx or ['this GPU'])} fits Python "
            f"{ctx.python_version}: make a Python {pythons[-1]} venv with torch "
            f"{choice.release} ({choice.variant})",
            (create, *torch_install(venv, target, ctx.installed)),
            url="https://pytorch.org/get-started/locally/",
            effect=Effect(python=pythons[-1], torch=TorchBuild(choice.release, choice.variant)),
            assumes=replace(assumes, installer="pip"),
            assumptions=(f"assumes Python {pythons[-1]} is installed", *notes),
        )
    ]
