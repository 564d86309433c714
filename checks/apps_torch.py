"""The torch inside an application's own venv (ComfyUI, stable-diffusion-webui,
text-generation-webui) against the GPUs here: a CPU-only build on a GPU machine, and a build with
no kernels for the GPU (an old pinned torch on an RTX 50). Fixes reinstall torch in the app's
venv, with its own interpreter, never in the system Python."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from envdoctor.checkdef import check
from envdoctor.checks import apps_facts as af
from envdoctor.checks.apps_gpu import webui_args_line, webui_file
from envdoctor.checks.torch_context import TorchContext, torch_context
from envdoctor.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.matrixset import MatrixSet
from envdoctor.pip_commands import pin
from envdoctor.queries import apps as aq
from envdoctor.queries.torch_fixes import Choice, _choice, missing_kernels
from envdoctor.remedies import fixes_for
from envdoctor.snapshot import Snapshot
from envdoctor.versions import parse

VENV_APPS = ("comfyui", "webui", "textgen")
_MATRICES = ("torch_releases", "torch_arch", "torch_index", "apps")


def _app_contexts(
    snap: Snapshot, ms: MatrixSet, app: str
) -> list[tuple[dict[str, Any], TorchContext, Snapshot]]:
    """(entry, torch context of its venv, the machine seen from that venv) for each checkout of
    `app` whose venv holds torch and is not the target environment itself (the torch checks
    report that one)."""
    target_prefix = snap.fact("python", "prefix")
    out = []
    for entry in af.entries(snap, app):
        view = af.venv_snapshot(snap, entry)
        if view is None or not view.has("python.torch"):
            continue
        if target_prefix and view.fact("python", "prefix") == target_prefix:
            continue
        out.append((entry, torch_context(view, ms), view))
    return out


def _driver_gpus(ctx: TorchContext) -> list[dict[str, Any]]:
    return [g for g in ctx.gpus if g.get("source") == "nvidia.gpus" and g.get("capability")]


def _webui_fix(entry: dict[str, Any], choice: Choice) -> Fix:
    """webui's own way: TORCH_COMMAND in webui-user.sh plus --reinstall-torch once."""
    specs = [pin("torch", choice.torch, choice.exact is not None)]
    if choice.torchvision:
        specs.append(pin("torchvision", choice.torchvision, False))
    command = f"pip install {' '.join(specs)} --extra-index-url {choice.index_url}"
    bat = str(entry.get("launch_file") or "").endswith(".bat")
    torch_line = f"set TORCH_COMMAND={command}" if bat else f'export TORCH_COMMAND="{command}"'
    return Fix(
        f"Or let the web UI's launcher do it: put these lines in {webui_file(entry)} and start it once "
        "(remove --reinstall-torch afterwards)",
        (torch_line, webui_args_line(entry, ["--reinstall-torch"])),
        Risk.SAFE,
        "https://github.com/AUTOMATIC1111/stable-diffusion-webui/blob/04b4508a66de58c9f3a422fdcad4dd2ec3ad39ce/modules/cmd_args.py",
    )


def _fixes(
    entry: dict[str, Any], view: Snapshot, ms: MatrixSet, app: str, **params: str
) -> tuple[Fix, ...]:
    """The chooser's torch builds for the app's venv (its own interpreter: `view` is the machine
    seen from that venv), said as in the app's terms, and for the web UI its launcher's way."""
    fixes = [
        replace(f, summary=f"{f.summary} in {af.label(app)}'s own venv")
        for f in fixes_for(view, ms, "torch-build-for-gpu", **params)
    ]
    first = next((f.effect.torch for f in fixes if f.effect and f.effect.torch), None)
    choice = _choice(ms, first.release, first.variant, first.exact) if first else None
    if app == "webui" and choice is not None:
        fixes.append(replace(_webui_fix(entry, choice), effect=fixes[0].effect))
    return tuple(fixes)


@check(*(f"app.{a}.cpu-only" for a in VENV_APPS), needs=("apps.detected",), matrices=_MATRICES)
def app_cpu_torch(snap: Snapshot, ms: MatrixSet) -> list[Finding]:
    """The torch in the app's own venv (ComfyUI, stable-diffusion-webui, text-generation-webui) is a
    CPU-only build, while this machine has an NVIDIA GPU the driver reports (or an AMD GPU).

    The app then runs everything on the CPU (or stops: the web UI's launcher says "Torch is not able
    to use GPU"). The usual cause is a plain `pip install torch` on Windows or macOS, or an
    install command without the CUDA index. The fix reinstalls torch inside that venv with its own
    interpreter (`<checkout>/venv/bin/python -m pip ...`), pinned to a release and CUDA variant that
    has kernels for the GPU and that this driver runs; for the web UI also through its launcher
    (TORCH_COMMAND plus --reinstall-torch in webui-user.sh).
    """
    findings = []
    for app in VENV_APPS:
        for entry, ctx, view in _app_contexts(snap, ms, app):
            if ctx.backend != "cpu" and str(ctx.torch.get("variant") or "") != "cpu":
                continue
            gpus = _driver_gpus(ctx)
            vendor = "nvidia"
            if gpus:
                what = ", ".join(f"{g['name']} ({g['capability']})" for g in gpus)
            elif ctx.amd_gpus and ctx.os == "linux":
                vendor = "amd"
                what = ", ".join(
                    str(g.get("name") or g.get("gfx_target") or "AMD GPU") for g in ctx.amd_gpus
                )
            else:
                continue
            venv = af.venv_of(entry) or {}
            findings.append(
                Finding(
                    id=f"app.{app}.cpu-only",
                    severity=Severity.ERROR,
                    title=f"{af.label(app)}'s venv has a CPU-only torch ({ctx.torch.get('version')}); it cannot use {what}",
                    detail=(
                        f"{af.where(entry)} runs in {venv.get('python')}, whose torch {ctx.torch.get('version')} "
                        f"is built without GPU support, so {af.label(app)} uses the CPU although {what} is here. "
                        "Reinstall torch inside that venv (not in the system Python)."
                    ),
                    evidence=(
                        Evidence(
                            f"{app} venv torch",
                            str(ctx.torch.get("version")),
                            "a CUDA (or ROCm) build",
                        ),
                        Evidence("GPU", what),
                    ),
                    fixes=_fixes(entry, view, ms, app, vendor=vendor),
                )
            )
    return findings


@check(
    *(f"app.{a}.torch-too-old-for-gpu" for a in VENV_APPS),
    needs=("apps.detected", "nvidia.gpus"),
    matrices=_MATRICES,
)
def app_torch_kernels(snap: Snapshot, ms: MatrixSet) -> list[Finding]:
    """The torch in the app's own venv has no kernels for this NVIDIA GPU: its CUDA architecture
    list (the official wheel's, from the build matrix) stops below the GPU's compute capability.

    The classic case: stable-diffusion-webui's master branch installs torch 2.1.2+cu121, which has
    no sm_120 kernels, so an RTX 50 card fails with "sm_120 is not compatible with the current
    PyTorch installation" (the web UI's dev branch moved to torch 2.7.0). The fix reinstalls, in
    that venv, the newest release and CUDA variant with kernels for the GPU that this driver runs
    (cu128 or newer for sm_120), keeping the installed release when only its variant must change.
    """
    findings = []
    for app in VENV_APPS:
        for entry, ctx, view in _app_contexts(snap, ms, app):
            if ctx.backend not in ("cuda", None):
                continue
            arches, arch_source = ctx.arches(ms)
            gpus = _driver_gpus(ctx)
            missing = missing_kernels(arches, [g["capability"] for g in gpus])
            if not arches or not missing:
                continue
            what = ", ".join(
                f"{g['name']} (sm_{g['capability'].replace('.', '')})"
                for g in gpus
                if g["capability"] in missing
            )
            note = ""
            row = aq.row(ms, "webui", "rtx50-old-torch") if app == "webui" else None
            if row and any(parse(cc) >= parse(str(row.get("min_compute"))) for cc in missing):
                note = f" {row.get('text')}"
            findings.append(
                Finding(
                    id=f"app.{app}.torch-too-old-for-gpu",
                    severity=Severity.ERROR,
                    title=f"{af.label(app)}'s torch {ctx.torch.get('version')} has no kernels for {what}",
                    detail=(
                        f"{af.where(entry)} runs torch {ctx.torch.get('version')} from its own venv; that build's "
                        f"architectures ({', '.join(arches)}) do not cover {what}, so GPU work fails with 'no kernel "
                        f"image is available' or is refused.{note}"
                    ),
                    evidence=(
                        Evidence(
                            f"{app} venv torch arch list",
                            ", ".join(arches),
                            f"sm_{missing[0].replace('.', '')}",
                        ),
                        Evidence("arch list source", str(arch_source)),
                    ),
                    fixes=_fixes(entry, view, ms, app),
                )
            )
    return findings


CHECKS = [app_cpu_torch, app_torch_kernels]
