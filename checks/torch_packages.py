"""Packages that must match the installed torch exactly: torchvision / torchaudio, and compiled
extensions (xformers, flash-attn, vllm, DeepSpeed ops, PyG, custom CUDA extensions)."""

from __future__ import annotations

import re
from typing import Any

from packaging.specifiers import InvalidSpecifier, SpecifierSet

from envdoctor.checks.torch_context import TorchContext, torch_context
from envdoctor.installers.pip_commands import (
    TORCH_FAMILY,
    Installer,
    TorchTarget,
    backend_of_variant,
    install,
    pin,
    torch_reinstall,
    uninstall,
    verify_torch,
)
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.snapshot import Snapshot
from envdoctor.model.versions import major_minor, release, release_major, version_key
from envdoctor.model.wheel_variant import local_label, torch_variant
from envdoctor.queries import torch as tq

_SYMPTOM = ("torch.gpu-test-failed",)
_ABI_ERROR = re.compile(
    r"undefined symbol|xFormers can't load|built for a different version of PyTorch|"
    r"operator \S+ does not exist|DLL load failed",
    re.IGNORECASE,
)
_XFORMERS_README = "https://github.com/facebookresearch/xformers#installing-xformers"
_FLASH_README = "https://github.com/Dao-AILab/flash-attention#installation-and-features"


def _variant_of(
    ms: MatrixSet, ctx: TorchContext, version: str | None, torch_release: str
) -> str | None:
    """A torch-family wheel's variant: its label, else (pip metadata has none) PyPI's default."""
    variant = torch_variant(version)
    if variant:
        return variant
    if ctx.os in ("linux", "windows", "macos"):
        return tq.pypi_default(ms, torch_release, ctx.os)
    return None


def _torch_for_companion(ms: MatrixSet, name: str, minor: str) -> str | None:
    try:
        rows = ms.table("torch_releases").rows
    except KeyError:
        return None
    found = [r["torch"] for r in rows if r.get(name) == minor]
    return ", ".join(found) if found else None


@check(
    "torch.companion-mismatch", needs=("python.torch",), matrices=("torch_releases", "torch_index")
)
def companions(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """torchvision / torchaudio do not match the installed torch.

    torchvision and torchaudio ship compiled operators built against one exact torch release and
    variant: torchvision 0.22 pairs with torch 2.7, 0.23 with 2.8, and so on, and a cu128
    torchvision needs a cu128 torch. A mismatch shows up as "operator torchvision::nms does not
    exist", "undefined symbol" on import, or torchvision silently replacing torch. It happens when
    one of them is upgraded alone, or when torch comes from the CPU index and torchvision from
    PyPI. The fix reinstalls the companions pinned to the torch release, from torch's own index.
    """
    ctx = torch_context(snap, ms)
    version = str(ctx.torch.get("version") or "")
    if not version:
        return None
    expected = tq.companion_versions(ms, version)
    torch_variant = ctx.build_variant(ms)
    problems: list[str] = []
    evidence = [Evidence("python.torch.version", version)]
    wrong: list[str] = []
    for name in ("torchvision", "torchaudio"):
        have = ctx.torch.get(name) or ctx.installed.get(name)
        if not have:
            continue
        want = expected.get(name)
        if want and major_minor(have) != want:
            pairs = _torch_for_companion(ms, name, str(major_minor(have)))
            problems.append(
                f"{name} {have} is the {name} of torch {pairs or 'another release'}; "
                f"torch {major_minor(version)} needs {name} {want}.x"
            )
            evidence.append(Evidence(f"{name} version", str(have), f"{want}.x"))
            wrong.append(name)
            continue
        theirs = _variant_of(ms, ctx, have, version)
        if torch_variant and theirs and theirs != torch_variant:
            what = (
                f"a {theirs} build"
                if local_label(have)
                else f"PyPI's build, which is {theirs} on {ctx.os.capitalize() if ctx.os else 'this platform'}"
            )
            problems.append(f"{name} {have} is {what}, torch {version} a {torch_variant} build")
            evidence.append(Evidence(f"{name} variant", theirs, torch_variant))
            wrong.append(name)
    if not problems:
        return None
    return Finding(
        id="torch.companion-mismatch",
        severity=Severity.ERROR,
        title=f"{' and '.join(wrong)} do not match torch {version}",
        detail=(
            "; ".join(problems) + ". Their compiled operators fail to load "
            '("operator torchvision::nms does not exist" / "undefined symbol").'
        ),
        evidence=tuple(evidence),
        fixes=(_companion_fix(ctx, ms, version, torch_variant, wrong),),
        explains=_SYMPTOM,
    )


def _companion_fix(
    ctx: TorchContext, ms: MatrixSet, version: str, variant: str | None, wrong: list[str]
) -> Fix:
    inst = ctx.installer or Installer("pip", "python")
    installers = dict(ctx.packages.get("installers") or {})
    expected = tq.companion_versions(ms, version)
    url = tq.index_url(ms, variant) if variant and local_label(version) else None
    specs = [pin("torch", version, exact=True)]
    specs += [pin(n, expected[n], False) if expected.get(n) else n for n in wrong]
    commands = (
        *uninstall(inst, wrong, installers),
        install(inst, specs, url),
        verify_torch(inst, backend_of_variant(variant)),
    )
    where = f" from the {variant} index" if url else ""
    return Fix(
        f"Reinstall {' and '.join(wrong)} for torch {release(version)}{where}",
        commands,
        url="https://pytorch.org/get-started/previous-versions/",
    )


# --------------------------------------------------------------------------------------------
# compiled extensions


def _contains(spec: str | None, version: str) -> bool | None:
    if not spec or spec == "*":
        return None
    try:
        return SpecifierSet(spec).contains(str(release(version)), prereleases=True)
    except InvalidSpecifier:
        return None


def _built(entry: dict[str, Any], key: str) -> Any:
    value = (entry.get("built_for") or {}).get(key)
    return value.get("value") if isinstance(value, dict) else None


def _matrix_torch_spec(ms: MatrixSet, name: str, version: str | None) -> str | None:
    try:
        rows = ms.table("python_frameworks").rows
    except KeyError:
        return None
    for row in rows:
        if row.get("package") == name and row.get("version") == version and row.get("torch"):
            return str(row["torch"])
    return None


def _problems(
    ctx: TorchContext, ms: MatrixSet, name: str, entry: dict[str, Any]
) -> list[tuple[str, Evidence]]:
    torch = str(ctx.torch.get("version") or "")
    torch_cuda = ctx.torch.get("cuda")
    out: list[tuple[str, Evidence]] = []
    spec = entry.get("requires_torch")
    source = "its metadata"
    if not spec or "==" not in spec:
        matrix_spec = _matrix_torch_spec(ms, name, entry.get("version"))
        if matrix_spec:
            spec, source = matrix_spec, "the python_frameworks table"
    if _contains(spec, torch) is False and "==" in str(spec):
        out.append(
            (
                f"{name} {entry.get('version')} requires torch{spec} ({source}), torch {torch} is installed",
                Evidence(f"{name} requires torch", str(spec), str(release(torch))),
            )
        )
    built_torch = _built(entry, "torch")
    if built_torch and not out:
        same = (
            (release(built_torch) == release(torch))
            if str(built_torch).count(".") >= 2
            else major_minor(built_torch) == major_minor(torch)
        )
        if not same:
            out.append(
                (
                    f"{name} was built for torch {built_torch}, torch {torch} is installed",
                    Evidence(f"{name} built for torch", str(built_torch), str(torch)),
                )
            )
    built_major = _built(entry, "cuda_major") or release_major(_built(entry, "cuda"))
    torch_major = release_major(torch_cuda)
    if (
        built_major
        and torch_major is not None
        and torch_major != built_major
        and not name.startswith(("cupy", "jax", "tensorflow", "onnxruntime"))
    ):
        out.append(
            (
                f"{name} was built for CUDA {built_major}.x, torch for CUDA {torch_cuda}",
                Evidence(f"{name} CUDA major", str(built_major), str(torch_major)),
            )
        )
    elif (
        built_major
        and ctx.backend == "cpu"
        and (_built(entry, "torch") or name in ("xformers", "flash-attn"))
    ):
        out.append(
            (
                f"{name} was built for CUDA {built_major}.x but torch {torch} is a CPU-only build",
                Evidence(f"{name} CUDA major", str(built_major), "a CUDA torch"),
            )
        )
    abi = _built(entry, "cxx11_abi")
    torch_abi = (ctx.deep or {}).get("cxx11_abi")
    if abi is not None and torch_abi is not None and bool(abi) != bool(torch_abi):
        out.append(
            (
                f"{name} was built with the {'new' if abi else 'old'} C++ ABI "
                f"(cxx11abi{str(abi).upper()}), torch uses the {'new' if torch_abi else 'old'} one",
                Evidence(f"{name} cxx11 ABI", str(abi), str(torch_abi)),
            )
        )
    return out


def _deep_errors(ctx: TorchContext) -> dict[str, str]:
    """Import errors of extensions in the --deep run that point at a torch / ABI mismatch."""
    out = {}
    for module, result in ((ctx.deep or {}).get("extensions") or {}).items():
        error = (result or {}).get("error")
        if error and _ABI_ERROR.search(str(error)):
            out[str(module).replace("_", "-")] = str(error)
    return out


@check(
    "torch.extension-abi-mismatch",
    needs=("python.torch",),
    needs_any=("python.frameworks", "python.deep"),
    matrices=("torch_releases", "torch_index"),
)
def extensions(snap: Snapshot, ms: MatrixSet) -> list[Finding]:
    """A compiled extension was built for another torch, CUDA or C++ ABI.

    xformers, flash-attn, vllm, DeepSpeed's ops, the PyG libraries and custom CUDA extensions
    link against torch's C++ library. Built for another torch release they fail on import with
    "undefined symbol: _ZN3c10..." or "xFormers can't load C++/CUDA extensions. xFormers was
    built for: PyTorch 2.1.2+cu121 ...", built for another CUDA major they cannot find its
    runtime, and built with the other C++ ABI (flash-attn's cxx11abiTRUE/FALSE wheels) they fail
    the same way. envdoctor compares what each package says it was built for (metadata pins,
    xformers' cpp_lib.json, version labels such as "+cu12torch2.5cxx11abiFALSE" or "+pt25cu124")
    with the installed torch, and with --deep it imports them and keeps the exact error.
    """
    ctx = torch_context(snap, ms)
    torch = str(ctx.torch.get("version") or "")
    if not torch:
        return []
    packages = (snap.data("python.frameworks") or {}).get("packages") or {}
    errors = _deep_errors(ctx)
    findings = []
    for name in sorted(set(packages) | set(errors)):
        if name in TORCH_FAMILY:
            continue  # torch.companion-mismatch covers them
        entry = packages.get(name) or {}
        problems = _problems(ctx, ms, name, entry) if entry else []
        if name in errors:
            problems.append(
                (f"importing it fails: {errors[name]}", Evidence(f"import {name}", errors[name]))
            )
        if not problems:
            continue
        findings.append(
            Finding(
                id="torch.extension-abi-mismatch",
                severity=Severity.ERROR,
                title=f"{name} {entry.get('version') or ''} does not match torch {torch}".replace(
                    "  ", " "
                ),
                detail="; ".join(p for p, _ in problems)
                + ". Its compiled code cannot load with this torch.",
                evidence=tuple(e for _, e in problems),
                fixes=_extension_fixes(ctx, ms, name, entry),
                explains=_SYMPTOM,
            )
        )
    return findings


def _extension_fixes(
    ctx: TorchContext, ms: MatrixSet, name: str, entry: dict[str, Any]
) -> tuple[Fix, ...]:
    inst = ctx.installer or Installer("pip", "python")
    installers = dict(ctx.packages.get("installers") or {})
    torch = str(ctx.torch.get("version") or "")
    variant = ctx.build_variant(ms)
    url = tq.index_url(ms, variant) if variant and local_label(torch) else None
    torch_pin = pin("torch", torch, exact=True)
    fixes: list[Fix] = []
    if name.startswith("flash-attn"):
        fixes.append(
            Fix(
                f"Rebuild {name} against the installed torch (its setup picks the wheel for this "
                "torch, CUDA and C++ ABI, or compiles one)",
                (
                    *uninstall(inst, [name], installers),
                    install(inst, ["flash-attn", "--no-build-isolation"]),
                ),
                url=_FLASH_README,
            )
        )
    elif name == "xformers":
        version = _xformers_for(ms, torch)
        spec = f"xformers=={version}" if version else "xformers"
        fixes.append(
            Fix(
                f"Install the xformers built for torch {release(torch)}",
                (*uninstall(inst, [name], installers), install(inst, [spec, torch_pin], url)),
                url=_XFORMERS_README,
            )
        )
    else:
        fixes.append(
            Fix(
                f"Reinstall {name} at a version built for torch {release(torch)}",
                (install(inst, ["-U", name, torch_pin], None, url),),
                Risk.SAFE,
            )
        )
    wanted = entry.get("requires_torch") or _matrix_torch_spec(ms, name, entry.get("version"))
    exact = re.fullmatch(r"==\s*(\d+(?:\.\d+)+)", str(wanted or ""))
    if exact and variant:
        target_release = exact.group(1)
        target_variant = (
            variant
            if tq.index_url(ms, variant) and _offers(ms, target_release, variant)
            else tq.pypi_default(ms, target_release, ctx.os or "linux") or variant
        )
        url2 = tq.index_url(ms, target_variant)
        if url2:
            comp = tq.companion_versions(ms, target_release)
            target = TorchTarget(
                target_release,
                target_variant,
                url2,
                comp.get("torchvision"),
                comp.get("torchaudio"),
                exact=True,
            )
            fixes.append(
                Fix(
                    f"Or move torch to {target_release} ({target_variant}), the release {name} "
                    f"{entry.get('version')} was built for",
                    torch_reinstall(inst, target, ctx.installed or {"torch": torch}, installers),
                )
            )
    return tuple(fixes)


def _offers(ms: MatrixSet, torch_release: str, variant: str) -> bool:
    row = tq.release_row(ms, torch_release) or {}
    return variant in (row.get("cuda_variants") or []) + (row.get("rocm_variants") or []) + ["cpu"]


def _xformers_for(ms: MatrixSet, torch: str) -> str | None:
    """The newest xformers release the python_frameworks table pairs with this exact torch."""
    try:
        rows = ms.table("python_frameworks").rows
    except KeyError:
        return None
    found = [
        r["version"]
        for r in rows
        if r.get("package") == "xformers" and _contains(r.get("torch"), torch)
    ]
    return max(found, key=version_key) if found else None


CHECKS = [companions, extensions]
