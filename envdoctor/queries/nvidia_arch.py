"""Which NVIDIA driver branches support which GPU architectures, answered from the matrices.

NVIDIA ends driver support per architecture: Fermi after R390, Kepler after R470, Maxwell, Pascal
and Volta after R580 (nvidia_arch_support). A fix that says "upgrade the driver to 525" for a Tesla
K80 (Kepler, last branch 470) names a driver that does not exist for that GPU; these functions let
the fix chooser and its verifier see that.

Every function takes a matrix set (anything with `.table(name).rows`) and plain strings. They never
raise on odd input: an unparsable version, an unknown architecture or compute capability, or a
missing table gives None.

Tables used: nvidia_arch_support, nvidia_driver_branches, nvidia_gpus (via queries.nvidia),
cuda_driver (via queries.nvidia).
"""

from __future__ import annotations

import re
from typing import Any

from packaging.version import Version

from envdoctor.model import versions
from envdoctor.queries import nvidia, table_rows

__all__ = [
    "arch_for_cc",
    "arch_for_gpu",
    "arch_rows",
    "derived_min_driver_for_arch",
    "driver_supports_arch",
    "last_driver_branch_for_arch",
    "newest_cuda_for_arch",
    "newest_driver_branch_for_arch",
    "normalize_arch",
    "supported_driver_branches",
]

# The names NVIDIA and the tools use for one architecture; values are nvidia_arch_support's `arch`.
_ARCH_ALIASES = {
    "ada": "Ada Lovelace",
    "ada lovelace": "Ada Lovelace",
    "lovelace": "Ada Lovelace",
    "nvidia ampere architecture": "Ampere",
}


def _cc(compute_capability: Any) -> str | None:
    """ "3.7" / "37" / "sm_37" / (3, 7) / 3.7 -> "3.7"; None when it is not a compute capability."""
    if isinstance(compute_capability, (tuple, list)) and len(compute_capability) == 2:
        try:
            return f"{int(compute_capability[0])}.{int(compute_capability[1])}"
        except (TypeError, ValueError):
            return None
    text = str(compute_capability if compute_capability is not None else "").strip().lower()
    text = text.removeprefix("sm_").removeprefix("compute_")
    match = re.fullmatch(r"(\d+)\.(\d)", text)
    if match:
        return f"{int(match.group(1))}.{match.group(2)}"
    match = re.fullmatch(r"(\d+)(\d)[a-z]?", text)
    if match:
        return f"{int(match.group(1))}.{match.group(2)}"
    return None


def normalize_arch(arch: str) -> str | None:
    """The table's spelling of an architecture name ("ada" -> "Ada Lovelace", "kepler" -> "Kepler")."""
    text = re.sub(r"\s+", " ", str(arch or "").strip().lower())
    if not text:
        return None
    if text in _ARCH_ALIASES:
        return _ARCH_ALIASES[text]
    return " ".join(word.capitalize() for word in text.split(" "))


def arch_rows(ms: Any, arch: str) -> list[dict[str, Any]]:
    """The nvidia_arch_support rows of one architecture (one per compute capability)."""
    wanted = normalize_arch(arch)
    return [row for row in table_rows(ms, "nvidia_arch_support") if row.get("arch") == wanted]


def arch_for_cc(ms: Any, compute_capability: Any) -> str | None:
    """The architecture of a compute capability ("3.7" -> "Kepler").

    nvidia_arch_support first; for a capability it does not print (Jetson, 10.3, 12.1) the
    architecture of the nvidia_gpus rows with that capability, when they all agree.
    """
    cc = _cc(compute_capability)
    if cc is None:
        return None
    for row in table_rows(ms, "nvidia_arch_support"):
        if row.get("compute_capability") == cc:
            return row.get("arch")
    found = {
        row.get("arch")
        for row in table_rows(ms, "nvidia_gpus")
        if row.get("compute_capability") == cc and row.get("arch")
    }
    return found.pop() if len(found) == 1 else None


def arch_for_gpu(ms: Any, printed_name: str) -> str | None:
    """The architecture of a GPU as nvidia-smi / NVML / torch print its name, via nvidia_gpus."""
    row = nvidia.gpu_by_name(ms, printed_name)
    if row is None:
        return None
    return row.get("arch") or arch_for_cc(ms, row.get("compute_capability"))


def _arch_of(ms: Any, arch_or_cc: Any) -> str | None:
    """An architecture name, given a name ("Kepler") or a compute capability ("3.7")."""
    cc = _cc(arch_or_cc)
    if cc is not None:
        return arch_for_cc(ms, cc)
    wanted = normalize_arch(str(arch_or_cc or ""))
    return wanted if arch_rows(ms, wanted or "") else None


def _support_rows(ms: Any, arch_or_cc: Any) -> list[dict[str, Any]]:
    cc = _cc(arch_or_cc)
    if cc is not None:
        exact = [
            r for r in table_rows(ms, "nvidia_arch_support") if r.get("compute_capability") == cc
        ]
        if exact:
            return exact
    arch = _arch_of(ms, arch_or_cc)
    return arch_rows(ms, arch) if arch else []


def last_driver_branch_for_arch(ms: Any, arch_or_cc: Any) -> int | None:
    """The last driver branch (major, e.g. 470) that supports the architecture or capability.

    None when NVIDIA announced no last branch ("Ongoing") or the architecture is unknown; use
    `newest_driver_branch_for_arch` for "the newest driver this GPU can run".
    """
    rows = _support_rows(ms, arch_or_cc)
    lasts = [r["last_driver_branch"] for r in rows if isinstance(r.get("last_driver_branch"), int)]
    if not rows or len(lasts) != len(rows):
        return None
    return max(lasts)


def _ongoing(rows: list[dict[str, Any]]) -> bool:
    return bool(rows) and all(r.get("driver_support") == "ongoing" for r in rows)


def _branch_majors(ms: Any) -> list[int]:
    majors = [r.get("major") for r in table_rows(ms, "nvidia_driver_branches")]
    return sorted(m for m in majors if isinstance(m, int))


def newest_driver_branch_for_arch(ms: Any, arch_or_cc: Any) -> int | None:
    """The newest driver branch (major) a GPU of this architecture or capability can run.

    Its last branch when NVIDIA ended support (Kepler -> 470, Pascal -> 580); for an architecture
    still supported, the newest branch in nvidia_driver_branches (a lower bound: newer branches may
    exist). None for an unknown architecture.
    """
    rows = _support_rows(ms, arch_or_cc)
    last = last_driver_branch_for_arch(ms, arch_or_cc)
    if last is not None:
        return last
    if _ongoing(rows):
        majors = _branch_majors(ms)
        return majors[-1] if majors else None
    return None


def driver_supports_arch(ms: Any, driver: str, arch_or_cc: Any, os: str = "linux") -> bool | None:
    """Whether NVIDIA driver `driver` ("470.256.02", "525", "R580") supports the GPU's architecture.

    False when the driver's branch is newer than the architecture's last branch (a 525 driver and a
    Kepler GPU: NVIDIA made no 525 driver for Kepler). True when it is not, and the driver is at
    least the one paired with the architecture's first CUDA toolkit (or no such pairing is known).
    None when the driver is older than that pairing (a 560 driver and a Blackwell GPU, whose first
    toolkit 12.8 came with 570.26: likely unsupported, but NVIDIA does not print a per-architecture
    driver floor), or when the driver or the architecture is unknown.
    """
    have = versions.release(str(driver or "").strip().lstrip("Rr"))
    rows = _support_rows(ms, arch_or_cc)
    if have is None or not rows:
        return None
    last = last_driver_branch_for_arch(ms, arch_or_cc)
    if last is not None and have.release[0] > last:
        return False
    if last is None and not _ongoing(rows):
        return None
    first = derived_min_driver_for_arch(ms, arch_or_cc, os)
    floor = versions.release(first)
    if floor is not None and have.release[0] < floor.release[0]:
        return None
    if floor is not None and len(have.release) > 1 and have < floor:
        return None
    return True


def derived_min_driver_for_arch(ms: Any, arch_or_cc: Any, os: str = "linux") -> str | None:
    """The driver NVIDIA pairs with the first CUDA toolkit that supports the architecture.

    Derived from two tables (nvidia_arch_support first_cuda, cuda_driver), not printed by NVIDIA as a
    driver floor: Blackwell -> CUDA 12.8 -> "570.26" on Linux. None when cuda_driver has no row for
    that toolkit release (or no value for this OS).
    """
    rows = _support_rows(ms, arch_or_cc)
    firsts = [versions.release(r.get("first_cuda")) for r in rows]
    known = [f for f in firsts if f is not None]
    if not known or len(known) != len(firsts):
        return None
    return nvidia.min_driver_for_cuda(ms, str(min(known)), os)


def supported_driver_branches(ms: Any, arch_or_cc: Any, os: str = "linux") -> list[int]:
    """The branches (majors) of nvidia_driver_branches that support the architecture, oldest first.

    [] when the architecture is unknown. A branch is listed when `driver_supports_arch` says True
    for the branch major alone.
    """
    if not _support_rows(ms, arch_or_cc):
        return []
    return [
        major
        for major in _branch_majors(ms)
        if driver_supports_arch(ms, str(major), arch_or_cc, os) is True
    ]


def _newest_release_of_major(ms: Any, major: int) -> Version | None:
    """The newest major.minor of CUDA `major` in cuda_driver (12 -> 12.9)."""
    found = [versions.release(r.get("cuda")) for r in table_rows(ms, "cuda_driver")]
    of_major = [Version(f"{v.release[0]}.{(v.release + (0,))[1]}") for v in found if v]
    of_major = [v for v in of_major if v.release[0] == major]
    return max(of_major) if of_major else None


def newest_cuda_for_arch(ms: Any, arch_or_cc: Any) -> str | None:
    """The newest CUDA (major.minor) a GPU of this architecture runs with a driver's full feature set.

    Only for an architecture whose driver support ended: the CUDA its last branch corresponds to
    (nvidia_driver_branches max_cuda: Kepler -> R470 -> "11.4"), capped by the last toolkit that
    builds for it (Kepler 3.0 -> "10.2"; "12.x" caps Maxwell at the newest 12 minor in cuda_driver,
    "12.9", below R580's 13.0). Newer minors of the same major may still run through minor-version
    compatibility (`nvidia.driver_supports_cuda`). None when support is ongoing or unknown.
    """
    rows = _support_rows(ms, arch_or_cc)
    last = last_driver_branch_for_arch(ms, arch_or_cc)
    if not rows or last is None:
        return None
    best: Version | None = None
    for row in table_rows(ms, "nvidia_driver_branches"):
        if row.get("major") == last:
            best = versions.release(row.get("max_cuda"))
    for row in rows:
        toolkit = str(row.get("last_cuda") or "")
        cap: Version | None = None
        if re.fullmatch(r"\d+\.\d+", toolkit):
            cap = versions.release(toolkit)
        elif re.fullmatch(r"\d+\.x", toolkit):
            cap = _newest_release_of_major(ms, int(toolkit.split(".")[0]))
        if cap is not None and (best is None or cap < best):
            best = cap
    if best is None:
        return None
    return ".".join(str(p) for p in (best.release + (0,))[:2])


def last_toolkit_for_sm(ms: Any, sm: int) -> str | None:
    """The last CUDA release whose nvcc still builds for sm_`sm` (21 -> "8.0", 30 -> "10.2",
    35 -> "11.8"), or None while the newest toolkit still does: nvcc_arch's last row for it,
    refined by nvidia_arch_support's last_cuda where that names a later release of the same major
    (nvcc_arch lists only the releases where the range changed: "10.0" for sm_30, whose last
    toolkit NVIDIA prints as "10.2")."""
    last = nvidia.last_nvcc_cuda_for_sm(ms, sm)
    if last is None:
        return None
    for row in _support_rows(ms, f"{sm // 10}.{sm % 10}"):
        printed = str(row.get("last_cuda") or "")
        same_major = printed.split(".")[0] == last.split(".")[0]
        if re.fullmatch(r"\d+\.\d+", printed) and same_major and Version(printed) > Version(last):
            return printed
    return last
