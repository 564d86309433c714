"""Which official torch wheels exist for an OS and machine, answered from the matrices.

A fix that installs a CUDA build on macOS, a ROCm build on Windows, torch 2.5 on an Intel Mac or the
PyPI aarch64 CUDA wheel on a Jetson names a wheel that does not exist (or has no kernels for the GPU).
These functions let the fix chooser and its verifier see that.

Every function takes a matrix set (anything with `.table(name).rows`) and plain strings as Python
prints them (`sys.platform`, `platform.machine()`). They never raise: an unknown platform, release
or variant, or a missing table gives None.

Tables used: torch_platforms, torch_releases (via queries.torch).
"""

from __future__ import annotations

from typing import Any

from packaging.version import Version

from envdoctor.model import versions
from envdoctor.queries import table_rows
from envdoctor.queries import torch as torch_q

__all__ = [
    "platform_key",
    "platform_row",
    "variant_kind",
    "wheel_exists",
    "wheel_kinds",
]

_OS = {
    "linux": "linux",
    "linux2": "linux",
    "wsl": "linux",  # WSL 2 installs Linux wheels
    "wsl2": "linux",
    "windows": "windows",
    "win": "windows",
    "win32": "windows",
    "nt": "windows",
    "darwin": "macos",
    "macos": "macos",
    "osx": "macos",
}
_MACHINE = {
    "x86_64": "x86_64",
    "amd64": "x86_64",
    "x64": "x86_64",
    "aarch64": "aarch64",
    "arm64": "arm64",
}


def platform_key(os: str, machine: str, jetson: bool = False) -> str | None:
    """torch_platforms' key for an OS and machine ("darwin", "x86_64" -> "macos-x86_64").

    macOS calls 64-bit ARM "arm64", Linux "aarch64"; both spellings are accepted for either OS.
    `jetson`: a Jetson (L4T) board, whose aarch64 wheels differ from the server ones.
    """
    os_name = _OS.get(str(os or "").strip().lower())
    arch = _MACHINE.get(str(machine or "").strip().lower())
    if os_name is None or arch is None:
        return None
    if os_name == "macos" and arch == "aarch64":
        arch = "arm64"
    if os_name != "macos" and arch == "arm64":
        arch = "aarch64"
    key = f"{os_name}-{arch}"
    if jetson and key == "linux-aarch64":
        key = "linux-aarch64-jetson"
    return key


def platform_row(ms: Any, os: str, machine: str, jetson: bool = False) -> dict[str, Any] | None:
    """The torch_platforms row for the platform, or None when the table does not list it."""
    key = platform_key(os, machine, jetson)
    for row in table_rows(ms, "torch_platforms"):
        if row.get("platform") == key:
            return row
    return None


def _minor(text: Any) -> Version | None:
    version = versions.release(None if text is None else str(text))
    if version is None:
        return None
    return Version(".".join(str(p) for p in (version.release + (0,))[:2]))


def wheel_kinds(
    ms: Any, os: str, machine: str, torch: str | None = None, jetson: bool = False
) -> list[str] | None:
    """The kinds of official torch wheel ("cpu", "cuda", "rocm", "xpu") for the platform.

    With `torch`, [] when that release is newer than the platform's last (torch 2.5 on an Intel
    Mac). None when the platform is not in the table.
    """
    row = platform_row(ms, os, machine, jetson)
    if row is None:
        return None
    last = _minor(row.get("last_torch"))
    wanted = _minor(torch) if torch else None
    if last is not None and wanted is not None and wanted > last:
        return []
    return list(row.get("kinds") or [])


def variant_kind(variant: str) -> str | None:
    """ "cu128" -> "cuda", "rocm6.2" -> "rocm", "cpu" -> "cpu", "xpu" -> "xpu"; None otherwise."""
    text = str(variant or "").strip().lower()
    if text == "cpu" or text == "xpu":
        return text
    if text.startswith("cu") and text[2:].isdigit():
        return "cuda"
    if text.startswith("rocm"):
        return "rocm"
    return None


def wheel_exists(
    ms: Any, torch: str, variant: str, os: str, machine: str, jetson: bool = False
) -> bool | None:
    """Whether an official wheel of torch `torch` ("2.5.1"), variant `variant` ("cu124") exists for
    the platform.

    False when the platform has no wheels of that kind (CUDA on macOS, ROCm on Windows, anything
    official on a Jetson), when the release is past the platform's last (2.3+ on an Intel Mac), or,
    on Linux x86_64, when torch_releases lists the release's variants and this one is not among
    them. True only where the tables say so (Linux x86_64 variants, and "cpu" where the platform
    has CPU wheels and the release is in torch_releases); None otherwise (unknown release, variant
    or platform, or a variant list the tables do not give for that platform).
    """
    kind = variant_kind(variant)
    kinds = wheel_kinds(ms, os, machine, torch, jetson)
    if kind is None or kinds is None:
        return None
    if kind not in kinds:
        return False
    release = torch_q.release_row(ms, torch)
    if release is None:
        return None
    key = platform_key(os, machine, jetson)
    if kind == "cpu":
        return True
    if key != "linux-x86_64":
        return None
    wanted = str(variant).strip().lower()
    if kind == "cuda":
        return wanted in [str(v).lower() for v in release.get("cuda_variants") or []]
    if kind == "rocm":
        listed = [str(v).lower() for v in release.get("rocm_variants") or []]
        return wanted in listed if listed else None
    xpu = release.get("xpu")
    return xpu if isinstance(xpu, bool) else None
