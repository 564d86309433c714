"""Questions about NVIDIA drivers, CUDA toolkits, GPUs and nvcc targets, answered from the matrices.

Every function takes a matrix set (anything with `.table(name).rows`, e.g. `envdoctor.matrices.load_bundled()`)
and plain strings as the tools print them. They never raise on odd input: an unparsable version, an
unknown OS, a missing table or an unknown product gives None.

Tables used: cuda_driver, cuda_compat, nvidia_driver_branches, nvidia_gpus, nvcc_arch, ptx_isa.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from packaging.version import Version

from envdoctor.model import versions
from envdoctor.queries import table_rows

if TYPE_CHECKING:
    from envdoctor.matrix.loader import MatrixSet

__all__ = [
    "compat_floor",
    "cuda_for_ptx",
    "driver_floor",
    "driver_supports_cuda",
    "gpu_by_name",
    "max_cuda_for_driver",
    "min_driver_for_cuda",
    "normalize_gpu_name",
    "nvcc_targets",
]

_OS_COLUMN = {
    "linux": "linux_min_driver",
    "windows": "windows_min_driver",
    "win": "windows_min_driver",
    "win32": "windows_min_driver",
    "nt": "windows_min_driver",
    # WSL 2 runs the Windows driver: nvidia-smi there prints the Windows driver version.
    "wsl": "windows_min_driver",
    "wsl2": "windows_min_driver",
}


def _version(text: Any) -> Version | None:
    """The first release number in `text` ("550.54.14", "V12.4.131", "12.4"), or None."""
    return None if text is None else versions.release(str(text))


def _column(os: str) -> str | None:
    return _OS_COLUMN.get(str(os or "").strip().lower())


def _major_minor(v: Version) -> tuple[int, int]:
    release = v.release + (0,)
    return release[0], release[1]


def min_driver_for_cuda(ms: MatrixSet, cuda: str, os: str) -> str | None:
    """The driver that NVIDIA pairs with CUDA release `cuda` on `os` ("linux" / "windows").

    An exact row wins ("12.4" is the 12.4.0 GA row). Otherwise the nearest lower listed release of
    the same minor is used ("12.4.2" -> 12.4.1, "10.2.89" -> 10.2). None when no such row exists or
    NVIDIA prints no value for that OS (e.g. Windows for CUDA 13.x).
    """
    column = _column(os)
    wanted = _version(cuda)
    if column is None or wanted is None:
        return None
    best: tuple[Version, dict[str, Any]] | None = None
    for row in table_rows(ms, "cuda_driver"):
        have = _version(row.get("cuda"))
        if have is None:
            continue
        if have == wanted:
            return row.get(column)
        same_minor_below = _major_minor(have) == _major_minor(wanted) and have < wanted
        if same_minor_below and (best is None or have > best[0]):
            best = (have, row)
    return best[1].get(column) if best else None


def cuda_for_ptx(ms: MatrixSet, ptx: str) -> str | None:
    """The CUDA release whose toolkit writes PTX ISA `ptx` ("8.1" -> "12.1"), or None if unlisted."""
    wanted = _version(ptx)
    for row in table_rows(ms, "ptx_isa"):
        if wanted is not None and _version(row.get("ptx")) == wanted:
            return str(row.get("cuda"))
    return None


def compat_floor(ms: MatrixSet, cuda_major: int, os: str) -> str | None:
    """The minimum driver for any CUDA `cuda_major`.x application under minor-version compatibility.

    None before CUDA 11 (there is no minor-version compatibility) or when the table gives no value.
    """
    column = _column(os)
    if column is None:
        return None
    try:
        major = int(cuda_major)
    except (TypeError, ValueError):
        return None
    for row in table_rows(ms, "cuda_compat"):
        if row.get("cuda_major") == major:
            return row.get(column)
    return None


def driver_floor(ms: MatrixSet, cuda: str, os: str, driver_cuda: Any = None) -> str | None:
    """The oldest driver to name for code built with CUDA `cuda`: from CUDA 11 on, the major's
    minor-version-compatibility floor; the release's own driver before CUDA 11, when the table has
    no floor, or when the driver already runs that major (`driver_cuda`, its highest CUDA: the
    floor is met then, so it cannot be what is missing)."""
    wanted = _version(cuda)
    if wanted is None:
        return None
    major = wanted.release[0]
    have = _version(driver_cuda)
    same_major = have is not None and have.release[0] == major
    floor = compat_floor(ms, major, os) if major >= 11 and not same_major else None
    return floor or min_driver_for_cuda(ms, cuda, os)


def driver_supports_cuda(ms: MatrixSet, driver: str, cuda: str, os: str) -> bool | None:
    """Whether an application built with CUDA `cuda` runs on `driver`.

    True when the driver is at least the release's own minimum, or (CUDA 11 and later) at least the
    major's minor-version-compatibility floor; the latter excludes applications that JIT-compile
    newer PTX (see cuda_compat). False when a known minimum says no. None when nothing is known.
    """
    have = _version(driver)
    wanted = _version(cuda)
    if have is None or wanted is None or _column(os) is None:
        return None
    own = _version(min_driver_for_cuda(ms, cuda, os))
    if own is not None and have >= own:
        return True
    major = wanted.release[0]
    floor = _version(compat_floor(ms, major, os)) if major >= 11 else None
    if floor is not None:
        return have >= floor
    if own is not None:
        return False
    return None


def max_cuda_for_driver(ms: MatrixSet, driver: str, os: str) -> str | None:
    """The newest CUDA release known to run with its full feature set on `driver` (what nvidia-smi's
    "CUDA Version" shows, as precisely as the tables allow).

    Uses the per-release minimums of cuda_driver and the CUDA version each driver branch corresponds
    to (nvidia_driver_branches), whichever is newer. For a driver newer than every table entry this is
    a lower bound. None when the driver is older than every listed release.
    """
    column = _column(os)
    have = _version(driver)
    if column is None or have is None:
        return None
    best: tuple[Version, str] | None = None
    for row in table_rows(ms, "cuda_driver"):
        need = _version(row.get(column))
        cuda = _version(row.get("cuda"))
        if need is None or cuda is None or have < need:
            continue
        if best is None or cuda > best[0]:
            best = (cuda, str(row["cuda"]))
    driver_major = have.release[0]
    for row in table_rows(ms, "nvidia_driver_branches"):
        cuda = _version(row.get("max_cuda"))
        major = row.get("major")
        if cuda is None or not isinstance(major, int) or major > driver_major:
            continue
        if best is None or cuda > best[0]:
            best = (cuda, str(row["max_cuda"]))
    return best[1] if best else None


_TRUNCATED = re.compile(r"\s*(\.\.\.|\u2026)\s*$")
_MEMORY_TOKEN = re.compile(r"\b\d+\s*g(?:i?b)?\b(?:\s+(?:hbm\w*|gddr\w*))?", re.IGNORECASE)


def normalize_gpu_name(name: str) -> str:
    """Lower case, without a leading "NVIDIA ", with runs of spaces, hyphens and underscores as one space."""
    text = str(name or "").strip().lower()
    text = re.sub(r"[\s\-_]+", " ", text).strip()
    if text.startswith("nvidia "):
        text = text[len("nvidia ") :]
    return text


def _gpu_index(ms: MatrixSet) -> dict[str, dict[str, Any]]:
    index: dict[str, dict[str, Any]] = {}
    for row in table_rows(ms, "nvidia_gpus"):
        for spelling in [row.get("name"), *(row.get("aliases") or [])]:
            if spelling:
                index.setdefault(normalize_gpu_name(spelling), row)
    return index


def gpu_by_name(ms: MatrixSet, printed_name: str) -> dict[str, Any] | None:
    """The nvidia_gpus row for a product name as nvidia-smi / NVML / torch print it.

    Matching is on the normalised name and aliases ("NVIDIA " prefix, case, hyphens do not matter).
    When no row matches exactly, a memory size (" 80GB HBM3", "-16GB", " 6GB") is dropped and the
    rest must match exactly, so "RTX 4090" never matches "RTX 4090 D". A name nvidia-smi cut short
    ("NVIDIA GeForce RTX 4080 ...") matches only if exactly one product starts with it.
    """
    if not printed_name:
        return None
    index = _gpu_index(ms)
    truncated = bool(_TRUNCATED.search(str(printed_name)))
    wanted = normalize_gpu_name(_TRUNCATED.sub("", str(printed_name)))
    if not wanted:
        return None
    if not truncated:
        if wanted in index:
            return index[wanted]
        stripped = re.sub(r"\s+", " ", _MEMORY_TOKEN.sub(" ", wanted)).strip()
        if stripped and stripped != wanted:
            return index.get(stripped)
        return None
    found = {id(row): row for key, row in index.items() if key.startswith(wanted)}
    return next(iter(found.values())) if len(found) == 1 else None


def capability_by_name(ms: MatrixSet, printed_name: str) -> str | None:
    """The compute capability of a GPU known by its printed name. A name nvidia-smi cut short
    ("NVIDIA GeForce RTX 4060 ...") may fit several products (4060, 4060 Ti): their capability
    is still known when they all share it, which is all a build choice needs."""
    row = gpu_by_name(ms, printed_name)
    if row is not None:
        cc = row.get("compute_capability")
        return str(cc) if cc else None
    if not printed_name or not _TRUNCATED.search(str(printed_name)):
        return None
    wanted = normalize_gpu_name(_TRUNCATED.sub("", str(printed_name)))
    if not wanted:
        return None
    found = {
        str(row.get("compute_capability") or "")
        for key, row in _gpu_index(ms).items()
        if key.startswith(wanted)
    }
    return found.pop() if len(found) == 1 and "" not in found else None


def nvcc_targets(ms: MatrixSet, cuda: str) -> tuple[int, int] | None:
    """(min_sm, max_sm) the nvcc/ptxas of CUDA `cuda` can compile for, e.g. (50, 120) for 12.8.

    The row of the same major.minor, else the nearest lower row of the same major (the table lists
    only the releases where the range changed). None when the major is not in the table.
    """
    wanted = _version(cuda)
    if wanted is None:
        return None
    target = _major_minor(wanted)
    best: tuple[tuple[int, int], dict[str, Any]] | None = None
    for row in table_rows(ms, "nvcc_arch"):
        have = _version(row.get("cuda"))
        if have is None:
            continue
        key = _major_minor(have)
        if key[0] != target[0] or key > target:
            continue
        if best is None or key > best[0]:
            best = (key, row)
    if best is None:
        return None
    row = best[1]
    if not isinstance(row.get("min_sm"), int) or not isinstance(row.get("max_sm"), int):
        return None
    return row["min_sm"], row["max_sm"]


def nvcc_ranges(ms: MatrixSet) -> list[tuple[tuple[int, int], int, int]]:
    """nvcc_arch's rows as ((major, minor), min_sm, max_sm), oldest release first."""
    out = []
    for row in table_rows(ms, "nvcc_arch"):
        have = _version(row.get("cuda"))
        low, high = row.get("min_sm"), row.get("max_sm")
        if have is not None and isinstance(low, int) and isinstance(high, int):
            out.append((_major_minor(have), low, high))
    return sorted(out)


def first_cuda_for_sm(ms: MatrixSet, sm: int) -> str | None:
    """The first CUDA release (major.minor) whose nvcc builds for sm_`sm` (75 -> "10.0")."""
    for (major, minor), low, high in nvcc_ranges(ms):
        if low <= sm <= high:
            return f"{major}.{minor}"
    return None


def last_nvcc_cuda_for_sm(ms: MatrixSet, sm: int) -> str | None:
    """The last nvcc_arch row (major.minor) whose nvcc still builds for sm_`sm` (21 -> "8.0"), or
    None while the table's newest row still does. The table lists only the releases where the
    range changed, so a later minor of that major may still build for it."""
    ranges = nvcc_ranges(ms)
    covering = [r for r in ranges if r[1] <= sm <= r[2]]
    if not covering or covering[-1] == ranges[-1]:
        return None
    major, minor = covering[-1][0]
    return f"{major}.{minor}"
