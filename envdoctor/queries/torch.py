"""Questions about official PyTorch wheels, answered from the matrices.

Every function takes a matrix set (anything with `.table(name).rows`, e.g.
`envdoctor.matrices.load_bundled()`) and plain strings as torch and the tools print them
("2.7.1+cu128", "8.6", "12.8"). They never raise on odd input: an unparsable version, an unknown
OS or variant, or a missing table gives None (or False / {} where the return type says so).

Tables used: torch_releases, torch_arch, torch_index, and cuda_compat / nvcc_arch when present.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from packaging.version import Version

from envdoctor.model import versions
from envdoctor.model.wheel_variant import local_label
from envdoctor.queries import table_rows

if TYPE_CHECKING:
    from envdoctor.matrix.loader import MatrixSet

__all__ = [
    "best_variant",
    "companion_versions",
    "driver_runs_variant",
    "has_kernels",
    "index_url",
    "parse_local_variant",
    "pypi_default",
    "release_row",
    "supported_pythons",
    "variant_arches",
    "variant_cuda",
]

_ARCH = re.compile(r"^(sm|compute)_(\d+)([a-z]?)$")
_PLATFORM_COLUMN = {
    "linux": "pypi_default_linux_x86_64",
    "linux_x86_64": "pypi_default_linux_x86_64",
    "linux-x86_64": "pypi_default_linux_x86_64",
    "manylinux_x86_64": "pypi_default_linux_x86_64",
    "windows": "pypi_default_windows",
    "win": "pypi_default_windows",
    "win32": "pypi_default_windows",
    "win_amd64": "pypi_default_windows",
    "nt": "pypi_default_windows",
    "macos": "pypi_default_macos",
    "darwin": "pypi_default_macos",
    "osx": "pypi_default_macos",
}
_OS = {
    "linux": "linux",
    "linux_x86_64": "linux",
    "windows": "windows",
    "win": "windows",
    "win32": "windows",
    "win_amd64": "windows",
    "nt": "windows",
}


def _version(text: Any) -> Version | None:
    """The first release number in `text` ("2.7.1+cu128" -> 2.7.1, "V12.8" -> 12.8), or None."""
    return None if text is None else versions.release(str(text))


def _minor(text: Any) -> Version | None:
    """major.minor of any torch version string as a Version ("2.10.0+cu128" -> 2.10)."""
    return None if text is None else _minor_of(str(text))


@lru_cache(maxsize=1024)
def _minor_of(text: str) -> Version | None:
    minor = versions.major_minor(text)
    return None if minor is None else Version(minor)


def _os(os: str) -> str | None:
    return _OS.get(str(os or "").strip().lower())


def release_row(ms: MatrixSet, torch_version: str) -> dict[str, Any] | None:
    """The torch_releases row of the minor release `torch_version` belongs to.

    Any spelling works: "2.7", "2.7.1", "2.7.1+cu128", "2.8.0.dev20250601+cu128".
    """
    wanted = _minor(torch_version)
    if wanted is None:
        return None
    for row in table_rows(ms, "torch_releases"):
        if _minor(row.get("torch")) == wanted:
            return row
    return None


def supported_pythons(ms: MatrixSet, torch_version: str) -> list[str] | None:
    """CPython minors with official wheels for that release ("3.13t" = free-threaded build)."""
    row = release_row(ms, torch_version)
    if row is None or "python" not in row:
        return None
    return list(row["python"])


def parse_local_variant(torch_version: str) -> str | None:
    """The wheel variant in the PEP 440 local label: "2.7.1+cu128" -> "cu128"; no label -> None
    (the model's parser: `envdoctor.model.wheel_variant.local_label`)."""
    return local_label(torch_version)


def _arch_row(ms: MatrixSet, torch: str, variant: str, os: str) -> dict[str, Any] | None:
    wanted, os_name = _minor(torch), _os(os)
    variant = str(variant or "").strip().lower()
    if wanted is None or os_name is None or not variant:
        return None
    for row in table_rows(ms, "torch_arch"):
        if (
            _minor(row.get("torch")) == wanted
            and row.get("variant") == variant
            and row.get("os") == os_name
        ):
            return row
    return None


def variant_arches(ms: MatrixSet, torch: str, variant: str, os: str) -> list[str] | None:
    """What torch.cuda.get_arch_list() holds for that official wheel ("sm_80", ..., "compute_120").

    `torch` may carry the local label ("2.7.1+cu128"); os is "linux" (x86_64) or "windows".
    ROCm variants give their gfx targets when the table has them. Rows the table marks unverified
    are returned as well; use `release_row` / the table to tell them apart when it matters.
    """
    row = _arch_row(ms, torch, variant, os)
    if row is None:
        return None
    arches = row.get("cuda_arches", row.get("gfx_targets"))
    return list(arches) if arches is not None else None


def _cc(compute_capability: Any) -> tuple[int, int] | None:
    """ "8.6" / "86" / "sm_86" / (8, 6) -> (8, 6)."""
    if isinstance(compute_capability, (tuple, list)) and len(compute_capability) == 2:
        try:
            return int(compute_capability[0]), int(compute_capability[1])
        except (TypeError, ValueError):
            return None
    text = str(compute_capability or "").strip().lower()
    text = text.removeprefix("sm_").removeprefix("compute_")
    match = re.fullmatch(r"(\d+)\.(\d+)", text)
    if match:
        return int(match.group(1)), int(match.group(2))
    match = re.fullmatch(r"(\d+)(\d)[a-z]?", text)
    if match:
        return int(match.group(1)), int(match.group(2))
    return None


def _parse_arch(arch: str) -> tuple[str, tuple[int, int], str] | None:
    match = _ARCH.match(str(arch).strip().lower())
    if not match:
        return None
    digits = match.group(2)
    if len(digits) < 2:
        return None
    return match.group(1), (int(digits[:-1]), int(digits[-1])), match.group(3)


def _kernel_kind(arches: list[str], compute_capability: Any) -> str | None:
    """'sass' when a cubin runs on the device, 'ptx' when only PTX can be JIT-compiled, else None."""
    device = _cc(compute_capability)
    if device is None:
        return None
    via_ptx = False
    for arch in arches or []:
        parsed = _parse_arch(arch)
        if parsed is None:
            continue
        kind, (major, minor), suffix = parsed
        if kind == "sm":
            if suffix == "a":
                if (major, minor) == device:  # arch-specific cubins run on that exact CC only
                    return "sass"
            elif major == device[0] and minor <= device[1]:
                return "sass"
        elif suffix == "" and (major, minor) <= device:
            via_ptx = True
    return "ptx" if via_ptx else None


def has_kernels(arches: list[str], compute_capability: str) -> bool:
    """True when a build with `arches` (get_arch_list() names) can run kernels on that GPU.

    NVIDIA's rule (CUDA C++ Programming Guide, "Binary Compatibility" / "Application Compatibility",
    https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#binary-compatibility): "a cubin
    object generated for compute capability X.y will only execute on devices of compute capability
    X.z where z >= y" -- so sm_80 SASS runs on 8.6 and 8.9, sm_120 on 12.1, but nothing runs across
    majors (sm_90 SASS does not run on 10.0 or 12.0); and PTX "can always be compiled to binary code
    of greater or equal compute capability", so a "compute_XY" entry serves any device with CC >= X.Y
    through the driver's JIT. Arch-specific targets ("sm_90a") run on exactly that CC only.
    `compute_capability` is "8.6" (also "86", "sm_86" or (8, 6)).
    """
    return _kernel_kind(arches, compute_capability) is not None


def pypi_default(ms: MatrixSet, torch: str, platform: str) -> str | None:
    """The variant a plain `pip install torch==X` gets from PyPI on `platform`.

    platform: "linux" / "linux_x86_64", "windows", "macos" (sys.platform spellings work too).
    E.g. 2.7 on Linux x86_64 -> "cu126", on Windows -> "cpu".
    """
    column = _PLATFORM_COLUMN.get(str(platform or "").strip().lower())
    row = release_row(ms, torch)
    if column is None or row is None:
        return None
    return row.get(column)


def index_url(ms: MatrixSet, variant: str) -> str | None:
    """The pip index of a variant: "cu128" -> https://download.pytorch.org/whl/cu128."""
    variant = str(variant or "").strip().lower()
    for row in table_rows(ms, "torch_index"):
        if row.get("variant") == variant:
            return row.get("index_url")
    return None


def variant_cuda(ms: MatrixSet, variant: str) -> str | None:
    """The CUDA version of a CUDA variant ("cu128" -> "12.8"); None for cpu / rocm / xpu."""
    variant = str(variant or "").strip().lower()
    for row in table_rows(ms, "torch_index"):
        if row.get("variant") == variant:
            return row.get("cuda")
    match = re.fullmatch(r"cu(\d{2})(\d)", variant)  # the naming rule of the build matrix
    return f"{int(match.group(1))}.{match.group(2)}" if match else None


def companion_versions(ms: MatrixSet, torch: str) -> dict[str, str]:
    """{"torchvision": "0.22", "torchaudio": "2.7"} for torch 2.7; only the keys the table has."""
    row = release_row(ms, torch)
    if row is None:
        return {}
    return {k: row[k] for k in ("torchvision", "torchaudio") if k in row}


def _compat_rule(ms: MatrixSet, cuda_major: int) -> tuple[bool, dict[str, Any] | None]:
    """(minor-version compatibility applies, the cuda_compat row) for a CUDA major."""
    rows = table_rows(ms, "cuda_compat")
    row = next((r for r in rows if r.get("cuda_major") == cuda_major), None)
    if row is None:
        # No table (or no row): NVIDIA's rule holds for every major since CUDA 11.
        return cuda_major >= 11, None
    return "linux_min_driver" in row or "windows_min_driver" in row, row


def _driver_runs(
    ms: MatrixSet,
    build_cuda: Version,
    driver_max_cuda: Version | None,
    os: str,
    ptx_only: bool,
    driver_version: str | None,
) -> bool:
    if driver_max_cuda is None:
        return True
    build_major = build_cuda.release[0]
    drv_major = driver_max_cuda.release[0]
    if drv_major > build_major:
        return True
    if drv_major < build_major:
        return False
    minor_compat, row = _compat_rule(ms, build_major)
    if not minor_compat or ptx_only:
        # No minor-version compatibility (CUDA 10), or the kernels exist only as PTX: the JIT
        # needs a driver that supports the build's CUDA itself (cuda_compat: ptx_jit_needs_full_driver).
        return driver_max_cuda >= Version(
            f"{build_cuda.release[0]}.{(build_cuda.release + (0,))[1]}"
        )
    if row is not None and driver_version:
        floor = row.get("windows_min_driver" if _os(os) == "windows" else "linux_min_driver")
        have, need = _version(driver_version), _version(floor)
        if have is not None and need is not None and have < need:
            return False
    return True


def driver_runs_variant(
    ms: MatrixSet,
    variant: str,
    driver_max_cuda: str | None,
    os: str,
    driver_version: str | None = None,
) -> bool:
    """Whether a driver whose highest CUDA is `driver_max_cuda` runs the CUDA wheel `variant`
    (CUDA minor-version compatibility as `best_variant` applies it, for SASS kernels); True when
    the driver's CUDA is unknown, False for a variant that is not a CUDA one."""
    cuda = _version(variant_cuda(ms, variant))
    if cuda is None:
        return False
    drv = _version(driver_max_cuda) if driver_max_cuda is not None else None
    return _driver_runs(ms, cuda, drv, _os(os) or "linux", False, driver_version)


def _toolkit_knows(ms: MatrixSet, cuda: Version, device: tuple[int, int]) -> bool | None:
    """Whether the CUDA toolkit `cuda` can target the device (nvcc_arch); None without the table."""
    rows = []
    for row in table_rows(ms, "nvcc_arch"):
        v = _version(row.get("cuda"))
        if (
            v is not None
            and isinstance(row.get("min_sm"), int)
            and isinstance(row.get("max_sm"), int)
        ):
            rows.append((v, row))
    if not rows:
        return None
    sm = device[0] * 10 + device[1]
    same_major = [(v, r) for v, r in rows if v.release[0] == cuda.release[0] and v <= cuda]
    if same_major:
        _, row = max(same_major, key=lambda item: item[0])
        if row["min_sm"] <= sm <= row["max_sm"]:
            return True
    # a GPU newer than every listed toolkit can only be reached through PTX
    return not any(r["min_sm"] <= sm <= r["max_sm"] for _, r in rows)


def best_variant(
    ms: MatrixSet,
    compute_capability: str,
    driver_max_cuda: str | None,
    os: str,
    torch: str | None = None,
    *,
    driver_version: str | None = None,
) -> tuple[str, str] | None:
    """The newest official (torch, variant) CUDA wheel that has kernels for the GPU and that the
    driver can run; within one release the newest CUDA variant wins.

    compute_capability: "8.6"; driver_max_cuda: the "CUDA Version" nvidia-smi prints (the newest CUDA
    the driver supports), None when unknown (no driver filter); os: "linux" or "windows"; torch:
    restrict to that release. CUDA minor-version compatibility (CUDA 11+, matrices/cuda_compat): a
    12.x build runs on any driver that supports CUDA >= 12.0, so majors are compared -- except when
    the GPU is served only by PTX, whose JIT needs the build's full CUDA. `driver_version`
    (keyword) additionally checks the driver against the major's floor in cuda_compat. Rows the
    table marks unverified are not recommended. Returns e.g. ("2.11", "cu128"), or None.

    Builds with SASS for the GPU win over builds that reach it only through PTX. A PTX-only build is
    accepted when its CUDA toolkit can target the GPU (nvcc_arch), or when no listed toolkit can (a
    GPU newer than all of them): the libraries a wheel bundles (cuBLAS, cuDNN) come from the same
    toolkit, so old PTX such as compute_37 on a CUDA 11.8 Windows wheel is no remedy for an RTX 50.
    """
    os_name = _os(os)
    drv = _version(driver_max_cuda) if driver_max_cuda is not None else None
    if (
        os_name is None
        or _cc(compute_capability) is None
        or (driver_max_cuda is not None and drv is None)
    ):
        return None
    only = _minor(torch) if torch is not None else None
    if torch is not None and only is None:
        return None
    best: tuple[tuple[bool, Version, Version], tuple[str, str]] | None = None
    for row in table_rows(ms, "torch_arch"):
        if (
            row.get("os") != os_name
            or row.get("unverified")
            or not str(row.get("variant", "")).startswith("cu")
        ):
            continue
        release = _minor(row.get("torch"))
        if release is None or (only is not None and release != only):
            continue
        kind = _kernel_kind(row.get("cuda_arches", []), compute_capability)
        cuda = _version(variant_cuda(ms, row["variant"]))
        if kind is None or cuda is None:
            continue
        if not _driver_runs(ms, cuda, drv, os_name, kind == "ptx", driver_version):
            continue
        device = _cc(compute_capability)
        if kind == "ptx" and device is not None and _toolkit_knows(ms, cuda, device) is False:
            continue
        rank = (kind == "sass", release, cuda)
        if best is None or rank > best[0]:
            best = (rank, (row["torch"], row["variant"]))
    return best[1] if best else None
