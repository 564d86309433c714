"""MVTec HALCON: where it is installed, which release, and the CUDA libraries it ships.

Fills `apps.halcon` (absent when there is no HALCONROOT and no installation in the usual
folders): `root`, `how` (HALCONROOT or the folder it was found in), `halconarch` (HALCONARCH),
`version` and `edition` from the installation folder's name ("HALCON-23.11-Progress" -> 23.11,
Progress; None when the name does not say), `libhalcon` (lib/$HALCONARCH/libhalcon.so or
bin/$HALCONARCH/halcon.dll, where MVTec's system-requirements page puts them) and `cuda_libs`:
the CUDA runtime, cuBLAS and cuDNN files inside the installation [{file, library, major}] (by file
name: libcublas.so.12 / cublas64_12.dll -> 12), i.e. the CUDA its deep-learning libraries were
built for. The CUDA / cuDNN / driver versions each HALCON release needs are in its Installation
Guide and are not read here.
"""

from __future__ import annotations

import re
from typing import Any

from envdoctor.model.snapshot import FactGroup, absent, collected
from envdoctor.probes.context import ProbeContext

GROUPS = ("apps.halcon",)
TIMEOUT_S = 5.0
SOURCE = "probe:apps_halcon"
DEFAULT_GLOBS = ("/opt/halcon", "/opt/MVTec/HALCON-*", "/opt/mvtec/halcon*", "/usr/local/halcon*")
_FOLDER_VERSION = re.compile(
    r"HALCON[-_ ]?(\d{2}\.\d{2})(?:[-_ ](Progress|Steady))?", re.IGNORECASE
)
_CUDA_FILE = re.compile(
    r"^(?:lib)?(cudart|cublasLt|cublas|cudnn)(?:64)?(?:[._](\d+))?(?:\.so(?:\.(\d+))?|\.dll)?",
    re.IGNORECASE,
)
_MAX_DIRS = 40


def root(ctx: ProbeContext) -> tuple[str | None, str | None]:
    """(the HALCON installation folder, how it was found), or (None, None)."""
    env_root = ctx.env.get("HALCONROOT")
    if env_root and ctx.is_dir(env_root):
        return env_root.rstrip("/\\"), "HALCONROOT"
    for pattern in DEFAULT_GLOBS:
        for match in ctx.glob(pattern):
            if ctx.is_dir(match):
                return match, f"found at {match}"
    return None, None


def version_from_path(path: str) -> str | None:
    """The release a HALCON folder name carries ("HALCON-23.11-Progress" -> "23.11"), or None."""
    match = _FOLDER_VERSION.search(path or "")
    return match.group(1) if match else None


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Describe the HALCON installation."""
    folder, how = root(ctx)
    if folder is None:
        why = (
            f"HALCONROOT={ctx.env['HALCONROOT']} is not a folder"
            if ctx.env.get("HALCONROOT")
            else "no HALCONROOT"
        )
        return [
            absent(
                "apps.halcon",
                SOURCE,
                f"HALCON is not installed: {why}, nothing in /opt/halcon or /opt/MVTec/HALCON-*",
            )
        ]
    arch = ctx.env.get("HALCONARCH")
    match = _FOLDER_VERSION.search(folder)
    data: dict[str, Any] = {
        "root": folder,
        "how": how,
        "halconarch": arch,
        "version": match.group(1) if match else None,
        "edition": match.group(2).capitalize() if match and match.group(2) else None,
        "libhalcon": _libhalcon(ctx, folder, arch),
        "cuda_libs": _cuda_libs(ctx, folder),
    }
    majors = sorted(
        {
            lib["major"]
            for lib in data["cuda_libs"]
            if lib["library"] in ("cudart", "cublas") and lib["major"]
        }
    )
    summary = f"HALCON {data['version'] or '(release unknown)'} at {folder}"
    if majors:
        summary += f", ships CUDA {'/'.join(str(m) for m in majors)} libraries"
    return [collected("apps.halcon", SOURCE, data, summary=summary)]


def _libhalcon(ctx: ProbeContext, folder: str, arch: str | None) -> str | None:
    arches = [arch] if arch else ctx.listdir(f"{folder}/lib") + ctx.listdir(f"{folder}/bin")
    for a in arches:
        for candidate in (f"{folder}/lib/{a}/libhalcon.so", f"{folder}/bin/{a}/halcon.dll"):
            if ctx.exists(candidate):
                return candidate
    return None


def _cuda_libs(ctx: ProbeContext, folder: str) -> list[dict[str, Any]]:
    """CUDA runtime / cuBLAS / cuDNN files under lib/ and bin/ (two levels: <arch>/ and one below)."""
    out, dirs = [], []
    for top in ("lib", "bin"):
        for arch in ctx.listdir(f"{folder}/{top}"):
            base = f"{folder}/{top}/{arch}"
            if ctx.is_dir(base):
                dirs.append(base)
                dirs += [
                    f"{base}/{sub}" for sub in ctx.listdir(base) if ctx.is_dir(f"{base}/{sub}")
                ]
    for directory in dirs[:_MAX_DIRS]:
        for name in ctx.listdir(directory):
            match = _CUDA_FILE.match(name)
            if not match or not (name.endswith(".dll") or ".so" in name):
                continue
            major = match.group(3) or match.group(2)
            out.append(
                {
                    "file": f"{directory}/{name}",
                    "library": match.group(1).lower().replace("cublaslt", "cublas"),
                    "major": int(major) if major else None,
                }
            )
    return out
