"""Which official torch wheel to install instead: the variant choice behind the torch fixes.

Built on envdoctor.queries.torch (best_variant, has_kernels, variant_arches, ...). Only releases
the torch_releases table dates (`released`) are proposed, so a release candidate never is; only
verified torch_arch rows count (best_variant skips unverified ones). Several GPUs in one machine
must all have kernels in the chosen variant.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from packaging.version import InvalidVersion, Version

from envdoctor.model.versions import release as public_release
from envdoctor.queries import torch as tq

if TYPE_CHECKING:
    from envdoctor.matrix.loader import MatrixSet

__all__ = [
    "Choice",
    "choose",
    "choose_for_older_driver",
    "choose_without_gpu",
    "missing_kernels",
    "released_minors",
    "rocm_choice",
]


@dataclass(frozen=True)
class Choice:
    """A wheel to install: torch `release` (a minor, "2.13") or `exact` ("2.7.1"), its variant
    ("cu126"), index URL and the companion minors that pair with it."""

    release: str
    variant: str
    index_url: str
    torchvision: str | None = None
    torchaudio: str | None = None
    exact: str | None = None  # the installed release, kept when only the variant changes
    # releases served from a -f (find-links) page (1.9, 1.10): its URL, and the exact companion
    # patches that page pins (torchvision with the variant's local tag, torchaudio without)
    find_links: str | None = None
    torchvision_exact: str | None = None
    torchaudio_exact: str | None = None

    @property
    def torch(self) -> str:
        """What to pin torch to: the exact release, else the minor (its newest patch)."""
        return self.exact or self.release

    @property
    def label(self) -> str:
        """ "torch 2.13 (cu126)" for people."""
        return f"torch {self.exact or self.release + '.x'} ({self.variant})"


def _v(text: Any) -> Version | None:
    try:
        return Version(str(text))
    except (InvalidVersion, TypeError):
        return None


def _minor(text: Any) -> str | None:
    parts = str(text or "").split("+", 1)[0].split(".")
    return (
        ".".join(parts[:2])
        if len(parts) >= 2 and parts[0].isdigit() and parts[1].isdigit()
        else None
    )


def released_minors(ms: MatrixSet, python: str | None = None) -> list[str]:
    """torch minors with a release date (or, for releases older than the build matrix, a patch
    that pytorch.org's previous-versions page installs: `pin_patch`), newest first; with
    `python` ("3.11.4"), only those that publish wheels for that CPython minor."""
    try:
        rows = list(ms.table("torch_releases").rows)
    except (KeyError, AttributeError):
        return []
    py = _minor(python) if python else None
    out = []
    for row in rows:
        if not row.get("released") and not row.get("pin_patch"):
            continue
        if py and py not in (row.get("python") or []):
            continue
        out.append(str(row["torch"]))
    return sorted(out, key=lambda m: _v(m) or Version("0"), reverse=True)


def missing_kernels(arches: Sequence[str] | None, capabilities: Iterable[str]) -> list[str]:
    """The compute capabilities ("8.6") that a build with `arches` has no kernels for."""
    if arches is None:
        return []
    return [cc for cc in capabilities if not tq.has_kernels(list(arches), cc)]


def _variant_cuda(ms: MatrixSet, variant: str) -> Version:
    return _v(tq.variant_cuda(ms, variant)) or Version("0")


def _choice(ms: MatrixSet, release: str, variant: str, exact: str | None) -> Choice | None:
    url = tq.index_url(ms, variant)
    if url is None:
        return None
    companions = tq.companion_versions(ms, release)
    row = tq.release_row(ms, release) or {}
    links = row.get("pip_find_links")
    if links and row.get("pin_patch"):
        # installed from a -f page: pin the patch the page's own command pins, with its companions
        return Choice(
            release,
            variant,
            url,
            companions.get("torchvision"),
            companions.get("torchaudio"),
            str(row["pin_patch"]),
            str(links).replace("{variant}", variant),
            str(row.get("pin_torchvision") or "") or None,
            str(row.get("pin_torchaudio") or "") or None,
        )
    return Choice(
        release, variant, url, companions.get("torchvision"), companions.get("torchaudio"), exact
    )


def _best_per_gpu(
    ms: MatrixSet,
    release: str,
    capabilities: Sequence[str],
    driver_max_cuda: str | None,
    driver_version: str | None,
    os: str,
) -> list[str] | None:
    """Each GPU's best variant of `release` that the driver runs; None when a GPU has none."""
    per_gpu = [
        tq.best_variant(ms, cc, driver_max_cuda, os, release, driver_version=driver_version)
        for cc in capabilities
    ]
    if not per_gpu or any(found is None for found in per_gpu):
        return None
    return [found[1] for found in per_gpu if found is not None]


def _best_in_release(
    ms: MatrixSet,
    release: str,
    capabilities: Sequence[str],
    driver_max_cuda: str | None,
    driver_version: str | None,
    os: str,
) -> str | None:
    per_gpu = _best_per_gpu(ms, release, capabilities, driver_max_cuda, driver_version, os)
    if per_gpu is None:
        return None
    # each GPU's best variant runs on this driver; keep those that serve every GPU, newest CUDA first
    variants = sorted(set(per_gpu), key=lambda v: _variant_cuda(ms, v), reverse=True)
    for variant in variants:
        arches = tq.variant_arches(ms, release, variant, os)
        if arches is not None and not missing_kernels(arches, capabilities):
            return variant
    return None


def choose(
    ms: MatrixSet,
    capabilities: Sequence[str],
    os: str,
    *,
    driver_max_cuda: str | None = None,
    driver_version: str | None = None,
    python: str | None = None,
    installed: str | None = None,
) -> list[Choice]:
    """Ranked CUDA wheels for these GPUs, this driver, OS and Python.

    First the installed torch release with the newest variant that works (only the variant
    changes, so extensions pinned to that torch keep working), then the newest release overall
    when it differs. Empty when no official wheel fits (e.g. a GPU older than every build).
    """
    if not capabilities:
        return []
    minors = released_minors(ms, python)
    ranked: list[Choice] = []
    current = _minor(installed) if installed else None
    if current in minors:
        variant = _best_in_release(ms, current, capabilities, driver_max_cuda, driver_version, os)
        exact = str(public_release(installed)) if variant else None
        if variant:
            choice = _choice(ms, current, variant, exact)
            if choice:
                ranked.append(choice)
    for release in minors:
        variant = _best_in_release(ms, release, capabilities, driver_max_cuda, driver_version, os)
        if variant is None:
            continue
        choice = _choice(ms, release, variant, None)
        if choice and not any(
            c.release == choice.release and c.variant == choice.variant for c in ranked
        ):
            ranked.append(choice)
        break
    same_major = _nearest_in_major(
        ms, minors, installed, capabilities, driver_max_cuda, driver_version, os
    )
    if (
        same_major is not None
        and not any(c.release == current for c in ranked)
        and not any(c.release == same_major.release for c in ranked)
    ):
        ranked.append(same_major)
    return ranked


def _nearest_in_major(
    ms: MatrixSet,
    minors: Sequence[str],
    installed: str | None,
    capabilities: Sequence[str],
    driver_max_cuda: str | None,
    driver_version: str | None,
    os: str,
) -> Choice | None:
    """For an installed torch of an older major than the newest release (a 1.x torch while 2.x
    is out), the oldest newer release of that same major with a wheel that fits: the code written
    for 1.x keeps running there, where a jump to 2.x may break it. None otherwise."""
    have = _v(public_release(installed)) if installed else None
    newest = _v(minors[0]) if minors else None
    if have is None or newest is None or have.release[0] >= newest.release[0]:
        return None
    newer = sorted(
        (m for m in minors if (v := _v(m)) and v.release[0] == have.release[0] and v > have),
        key=lambda m: _v(m) or Version("0"),
    )
    for release in newer:
        if _minor(release) == _minor(installed):
            continue  # the installed release itself is handled by the caller
        variant = _best_in_release(ms, release, capabilities, driver_max_cuda, driver_version, os)
        if variant is not None:
            return _choice(ms, release, variant, None)
    return None


def choose_without_gpu(
    ms: MatrixSet,
    os: str,
    *,
    driver_max_cuda: str | None = None,
    driver_version: str | None = None,
    python: str | None = None,
    installed: str | None = None,
) -> Choice | None:
    """A CUDA wheel when the GPU is not known (a report that names none): the installed release
    (else the newest one with wheels for this Python) as the variant PyTorch makes its default
    (the Linux PyPI wheel's), or, when the driver's CUDA is known, that release's newest variant the
    driver runs. None when the installed release is one the tables do not have. The caller states
    what it assumes: a GPU that variant has kernels for."""
    minors = released_minors(ms, python)
    current = _minor(installed) if installed else None
    if current is not None and current not in released_minors(ms):
        return None  # a release older than the tables: nothing sourced to choose from
    order = ([current] if current in minors else []) + [m for m in minors if m != current]
    for release in order:
        row = tq.release_row(ms, release) or {}
        variants = [str(v) for v in row.get("cuda_variants") or []]
        # only variants the tables list for this OS (not every CUDA variant has Windows wheels)
        listed = [v for v in variants if tq.variant_arches(ms, release, v, os) is not None]
        variants = listed or variants
        if driver_max_cuda:
            runs = [
                v
                for v in variants
                if tq.driver_runs_variant(ms, v, driver_max_cuda, os, driver_version)
            ]
            variant = max(runs, key=lambda v: _variant_cuda(ms, v), default=None)
        else:
            default = str(row.get("pypi_default_linux_x86_64") or "")
            newest = max(variants, key=lambda v: _variant_cuda(ms, v), default=None)
            variant = default if default in variants else newest
        if variant is None:
            continue
        exact = str(public_release(installed)) if release == current and installed else None
        choice = _choice(ms, release, variant, exact)
        if choice is not None:
            return choice
    return None


def choose_for_older_driver(
    ms: MatrixSet,
    capabilities: Sequence[str],
    os: str,
    primary: Choice,
    *,
    python: str | None = None,
) -> Choice | None:
    """When the driver is not known: the newest wheel with kernels for these GPUs built with an
    older CUDA major than `primary`'s, so a driver below the floor of `primary`'s CUDA major
    (NVIDIA's minor-version compatibility is per major) still runs it. None when there is none."""
    cuda = _v(tq.variant_cuda(ms, primary.variant))
    if cuda is None or cuda.release[0] <= 11:
        return None
    older = cuda.release[0] - 1
    ceiling = max(
        (
            v
            for v in (_v(r.get("cuda")) for r in _index_rows(ms))
            if v is not None and v.release[0] == older
        ),
        default=None,
    )
    if ceiling is None:
        return None
    found = choose(ms, capabilities, os, driver_max_cuda=str(ceiling), python=python)
    return next((c for c in found if c.variant != primary.variant), None)


def _index_rows(ms: MatrixSet) -> list[dict[str, Any]]:
    try:
        return list(ms.table("torch_index").rows)
    except (KeyError, AttributeError):
        return []


def rocm_choice(
    ms: MatrixSet, python: str | None = None, installed: str | None = None
) -> Choice | None:
    """The newest ROCm wheel (Linux only): the installed release's newest ROCm variant when it
    has one, else the newest release's. gfx targets are not checked (the tables lack them)."""
    minors = released_minors(ms, python)
    current = _minor(installed) if installed else None
    order = ([current] if current in minors else []) + minors
    for release in order:
        row = tq.release_row(ms, release) or {}
        variants = sorted(row.get("rocm_variants") or [], key=lambda v: _v(v[4:]) or Version("0"))
        if variants:
            exact = str(public_release(installed)) if release == current else None
            return _choice(ms, release, variants[-1], exact)
    return None


def choose_for_toolkit(
    ms: MatrixSet,
    capabilities: Sequence[str],
    os: str,
    toolkit: str,
    *,
    driver_max_cuda: str | None = None,
    driver_version: str | None = None,
    python: str | None = None,
) -> Choice | None:
    """The newest release with a wheel built for the CUDA toolkit a report says it installed
    ("cuda is 12.4" -> cu124) that has kernels for these GPUs and that the driver runs: torch and
    the extensions that toolkit's nvcc builds then share one CUDA. None when no release has one."""
    variant = "cu" + toolkit.replace(".", "")
    if not capabilities or tq.index_url(ms, variant) is None:
        return None
    for release in released_minors(ms, python):
        row = tq.release_row(ms, release) or {}
        if variant not in [str(v) for v in row.get("cuda_variants") or []]:
            continue
        arches = tq.variant_arches(ms, release, variant, os)
        if arches is None or missing_kernels(arches, capabilities):
            continue
        # the driver runs it when each GPU's best variant it runs has at least its CUDA
        best = _best_per_gpu(ms, release, capabilities, driver_max_cuda, driver_version, os)
        if best and all(_variant_cuda(ms, v) >= _variant_cuda(ms, variant) for v in best):
            return _choice(ms, release, variant, None)
    return None
