"""AMD GPUs whose gfx target the installed ROCm or the torch build does not cover."""

from __future__ import annotations

from typing import Any

from envdoctor.checks import amd_facts as af
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model import amd_gfx
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.snapshot import Snapshot
from envdoctor.queries import rocm as rq
from envdoctor.queries import torch as tq

_NO_BINARY_TEXTS = (
    "hipErrorNoBinaryForGpu",
    "invalid device function",
    "Unable to find code object for all current devices",
    "No compatible code objects found",
)


@check(
    "rocm.gfx-unsupported",
    "rocm.product-unlisted",
    needs=("amd.gpus",),
    matrices=("rocm_gpus", "rocm_targets", "rocm_overrides"),
)
def gfx_unsupported(snap: Snapshot, ms: MatrixSet) -> list[Finding]:
    """The installed ROCm release does not list this GPU's gfx target.

    AMD publishes, per ROCm release, the GPUs it supports on Linux with their LLVM target (the
    gfx name rocminfo prints: gfx1100 for the RX 7900 XTX, gfx942 for the MI300X). "If a GPU is not
    listed on this table, it's not officially supported by AMD": the ROCm libraries (rocBLAS,
    MIOpen, hipBLASLt) carry no kernels for its target, so applications built on the system ROCm
    fail with "Cannot read TensileLibrary.dat ... for GPU arch gfx1031" or hipErrorNoBinaryForGpu,
    or fall back to the CPU. Consumer RDNA2/RDNA3 cards other than the listed ones (RX 6700 XT
    gfx1031, RX 6600 gfx1032, the 780M APU gfx1103 on older releases) are the usual case. When the
    ROCm release is unknown (a pasted rocminfo) or newer than envdoctor's tables, only targets that
    no release lists and AMD's current docs do not list either are reported.

    Fixes, best first: a ROCm release that lists the target (supported); then, as an unsupported
    workaround, HSA_OVERRIDE_GFX_VERSION set to the family's listed target (10.3.0 = gfx1030 for
    RDNA2, 11.0.0 = gfx1100 for RDNA3), which makes the runtime load that target's kernels. A torch
    ROCm wheel brings its own libraries: see rocm.no-binary-for-gpu for what the wheel itself lacks.

    rocm.product-unlisted (info): the card itself is not on AMD's Linux list, but its gfx target is
    (an RX 6800 XT shares gfx1030 with the listed PRO W6800): ROCm runs it, without AMD's support.
    """
    rocm = af.rocm_version(snap)
    covered = rocm is not None and rq.target_status(ms, "gfx1100", rocm) is not None
    findings = []
    seen: set[tuple[str, str]] = set()
    for target in af.gpu_targets(snap):
        effective = target["effective"]
        if covered:
            status = rq.target_status(ms, effective, rocm)
        else:
            status = rq.status_without_release(ms, effective)
        if status in ("unlisted", "unsupported"):
            if (effective, target["name"]) not in seen:
                findings.append(_unsupported(snap, ms, target, rocm if covered else None, status))
            seen.add((effective, target["name"]))
            continue
        note = _product_note(ms, target, rocm if covered else None)
        if note is not None and target["name"] not in seen:
            seen.add(target["name"])
            findings.append(note)
    return findings


def _product_note(ms: MatrixSet, target: dict[str, Any], rocm: str | None) -> Finding | None:
    name, effective = target["name"], target["effective"]
    if not target["gpu"].get("name") or target["override"] or "graphics" in name.lower():
        return None
    release = rocm or _newest_covered(ms)
    if release is None or rq.target_status(ms, effective, release) not in (
        "supported",
        "deprecated",
    ):
        return None
    if rq.product_status(ms, name, release) != "unlisted":
        return None
    listed = [r["product"] for r in rq.release_rows(ms, release) if r.get("gfx") == effective]
    if not listed or rq.gfx_for_product(ms, name) not in (None, effective):
        return None
    label = f"ROCm {rocm}" if rocm else _covered_label(ms)
    return Finding(
        id="rocm.product-unlisted",
        severity=Severity.INFO,
        title=f"{name} is not on AMD's Linux list ({label}), but its target {effective} is",
        detail=(
            f"AMD lists {', '.join(listed)} ({effective}) for {label} on Linux, not {name}. It runs the "
            "same code objects, so ROCm works on it in practice; AMD does not test or support it."
        ),
        evidence=(
            Evidence("amd.gpus.name", name),
            Evidence("rocm_gpus", f"{effective}: {', '.join(listed)}"),
        ),
        fixes=(
            Fix(
                "Nothing to change; if something fails, compare with AMD's list",
                (),
                Risk.SAFE,
                af.SYSTEM_REQUIREMENTS,
            ),
        ),
    )


def _covered_label(ms: MatrixSet) -> str:
    """ "ROCm 5.7 to 6.3": the releases the support tables cover."""
    covered = rq.covered_releases(ms)
    if covered is None:
        return "the known ROCm releases"
    high = covered[1].release
    last = f"{high[0]}.{high[1] - 1}" if len(high) > 1 and high[1] > 0 else str(covered[1])
    return f"ROCm {covered[0]} to {last}"


def _newest_covered(ms: MatrixSet) -> str | None:
    covered = rq.covered_releases(ms)
    if covered is None:
        return None
    rows = [r for r in ms.table("rocm_gpus").rows if isinstance(r.get("rocm"), dict)]
    lows = sorted(
        {r["rocm"]["min"] for r in rows}, key=lambda v: [int(p) for p in str(v).split(".")]
    )
    return lows[-1] if lows else None


def _unsupported(
    snap: Snapshot, ms: MatrixSet, target: dict[str, Any], rocm: str | None, status: str
) -> Finding:
    gfx, name = target["gfx"], target["name"]
    effective = target["effective"]
    fixes: list[Fix] = []
    newest = rq.newest_release_supporting(ms, effective)
    if newest and (rocm is None or rq.is_supported(ms, effective, rocm) is False):
        fixes.append(af.install_rocm_fix(snap, newest, f"its Linux table lists {effective}"))
    torch_list, source = af.torch_targets(snap, ms)
    if torch_list and effective in torch_list:
        fixes.append(
            Fix(
                f"Use the ROCm libraries inside your torch wheel: its build lists {effective} "
                f"({source}); run PyTorch without the system ROCm on LD_LIBRARY_PATH",
                ("env | grep -E '^LD_LIBRARY_PATH='", "unset LD_LIBRARY_PATH"),
            )
        )
    override = rq.override_for(ms, effective) if target["override"] is None else None
    runs_as_ok = override is not None and (
        rq.is_supported(ms, override["runs_as"], rocm)
        if rocm
        else rq.status_without_release(ms, override["runs_as"]) is None
    )
    if override and runs_as_ok:
        fixes.append(
            af.override_fix(effective, override["value"], override["runs_as"], override["source"])
        )
    what = "lists it as unsupported" if status == "unsupported" else "does not list it"
    if rocm:
        listed = ", ".join(rq.supported_targets(ms, rocm) or [])
        where = f"AMD's Linux support table for ROCm {rocm} {what}; it lists {listed}."
        title = f"ROCm {rocm} does not support {name} ({effective}) on Linux"
    else:
        where = (
            f"No AMD Linux support table ({_covered_label(ms)}, and AMD's current docs) lists {effective}"
            if status == "unlisted"
            else f"AMD's Linux tables mark {effective} unsupported"
        )
        where += " (the installed ROCm release is not known here)."
        title = f"ROCm does not support {name} ({effective}) on Linux"
    detail = (
        f"GPU {target['index']} ({name}) is {gfx}"
        + (
            f", run as {effective} through HSA_OVERRIDE_GFX_VERSION={target['override']}"
            if target["override"]
            else ""
        )
        + f". {where} The ROCm libraries may have no kernels for it (rocBLAS/MIOpen errors, "
        "hipErrorNoBinaryForGpu) or the application falls back to the CPU."
    )
    products = rq.products(ms, effective)
    evidence = [Evidence("amd.gpus.gfx_target", f"{name}: {gfx}")]
    if rocm:
        evidence.append(Evidence("amd.rocm.version", rocm, f"a release listing {effective}"))
    if products:
        evidence.append(Evidence("rocm_targets", f"{effective}: {', '.join(products)}"))
    return Finding(
        id="rocm.gfx-unsupported",
        severity=Severity.WARNING,
        title=title,
        detail=detail,
        evidence=tuple(evidence),
        fixes=tuple(fixes)
        or (
            Fix(
                "Check AMD's current support table for this GPU",
                ("rocminfo | grep -E 'Marketing Name|gfx'",),
                Risk.SAFE,
                af.SYSTEM_REQUIREMENTS,
            ),
        ),
        explains=("app.ollama-cpu-fallback", "app.ollama-amd-unsupported-gfx"),
    )


@check("rocm.no-binary-for-gpu", needs=("amd.gpus", "python.torch"), matrices=("rocm_overrides",))
def no_binary_for_gpu(snap: Snapshot, ms: MatrixSet) -> list[Finding]:
    """The torch ROCm build has no code object for this GPU's gfx target.

    A ROCm wheel of PyTorch is compiled for a fixed list of gfx targets (torch.cuda.get_arch_list()
    on a ROCm build: gfx900, gfx906, gfx908, gfx90a, gfx942, gfx1030, gfx1100, ... depending on the
    release). On a GPU outside the list the first kernel launch fails with hipErrorNoBinaryForGpu
    ("Unable to find code object for all current devices") or "HIP error: invalid device function".
    envdoctor knows the list when `--deep` ran torch.cuda.get_arch_list() or the build matrix has
    the wheel's gfx targets; it also reads the error itself from the --deep test.

    Fixes: a torch ROCm wheel whose list includes the target (when the matrix knows one); the
    family override as an unsupported workaround when the build lists the sibling target; a
    source build for exactly this target (PYTORCH_ROCM_ARCH).
    """
    if af.torch_backend(snap) != "rocm":
        return []
    deep = snap.data("python.deep") or {}
    error = str(deep.get("error") or "")
    failed_text = next((t for t in _NO_BINARY_TEXTS if t.lower() in error.lower()), None)
    arches, source = af.torch_targets(snap, ms)
    findings = []
    for target in af.gpu_targets(snap):
        effective = target["effective"]
        missing = arches is not None and effective not in arches
        if not missing and not failed_text:
            continue
        findings.append(
            _no_binary(snap, ms, target, arches, source, error if failed_text else None)
        )
        if not missing:
            break  # one error, one finding
    return findings


def _no_binary(
    snap: Snapshot,
    ms: MatrixSet,
    target: dict[str, Any],
    arches: list[str] | None,
    source: str | None,
    error: str | None,
) -> Finding:
    effective, name = target["effective"], target["name"]
    torch = snap.data("python.torch") or {}
    version = torch.get("version") or "torch"
    fixes: list[Fix] = []
    choice = af.rocm_choice_for(snap, ms, af.rocm_version(snap), [effective])
    if choice is not None and arches is not None:
        listed = tq.variant_arches(ms, choice.release, choice.variant, "linux")
        if listed and effective in {amd_gfx.normalize_gfx(a) for a in listed}:
            fixes.extend(af.torch_fixes(snap, ms, choice, f"its build lists {effective}"))
    override = rq.override_for(ms, effective) if target["override"] is None else None
    if override and (arches is None or override["runs_as"] in arches):
        fixes.append(
            af.override_fix(effective, override["value"], override["runs_as"], override["source"])
        )
    fixes.append(
        Fix(
            f"Build PyTorch from source for {effective} only",
            (
                "git clone --recursive https://github.com/pytorch/pytorch && cd pytorch",
                "pip install -r requirements.txt",
                "python tools/amd_build/build_amd.py",
                f"PYTORCH_ROCM_ARCH={effective} python -m pip install --no-build-isolation -v -e .",
            ),
            Risk.SAFE,
            "https://github.com/pytorch/pytorch#amd-rocm-support",
        )
    )
    evidence = [
        Evidence(
            "amd.gpus.gfx_target",
            f"{name}: {target['gfx']}" + (f" (run as {effective})" if target["override"] else ""),
        )
    ]
    if arches is not None:
        evidence.append(
            Evidence("torch gfx targets", ", ".join(arches), f"a list with {effective} ({source})")
        )
    if error:
        evidence.append(Evidence("python.deep.error", error[:300]))
    detail = (
        f"{version} was built for {', '.join(arches) if arches else 'a list of gfx targets'}; "
        f"GPU {target['index']} ({name}) is {effective}. HIP finds no code object for it, so every "
        'GPU kernel fails (hipErrorNoBinaryForGpu / "HIP error: invalid device function").'
    )
    return Finding(
        id="rocm.no-binary-for-gpu",
        severity=Severity.ERROR,
        title=f"{version} has no GPU code for {name} ({effective})",
        detail=detail,
        evidence=tuple(evidence),
        fixes=tuple(fixes),
        explains=("torch.gpu-test-failed",),
    )


CHECKS = [gfx_unsupported, no_binary_for_gpu]
