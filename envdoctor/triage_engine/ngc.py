"""Facts an NGC container release in a paste tells: the CUDA it is built on, the driver it needs.

NVIDIA's deep-learning containers (nvcr.io/nvidia/pytorch, tensorflow, tritonserver, ...) come out
monthly as release YY.MM; each release's notes state the CUDA it is based on, the driver release
it requires, and the older data-center driver branches that forward compatibility lets it run on
(the `ngc_releases` table, read through `queries.ngc`). A paste naming an image tag ("nvcr.io/nvidia/pytorch:24.05-py3",
"tritonserver:20.10-py3"), or a release beside NGC words ("Triton Information ... Official
container image 20.10"), gives `ngc.release`; the table gives `ngc.cuda`, `ngc.driver` and
`ngc.datacenter_drivers` (not when the image's banner says its compatibility mode is
unavailable: forward compatibility was tried on that machine). `ngc.fits_release` is the newest
release of the table whose requirement the host's driver meets (`ngc.host_driver`: the
snapshot's or the paste's, else the one an NGC banner says it detected), with its `ngc.fits_cuda`
and `ngc.fits_driver`: an image that runs on the host as it is.

Every fact is None when the paste does not tell it: a fix naming one is then not shown.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from envdoctor.queries import ngc

FACT_NAMES = (
    "ngc.release",
    "ngc.image",
    "ngc.cuda",
    "ngc.driver",
    "ngc.datacenter_drivers",
    "ngc.host_driver",
    "ngc.fits_release",
    "ngc.fits_cuda",
    "ngc.fits_driver",
)


def _release(group: str) -> str:
    """A monthly release YY.MM (2017 on) as a named group, not part of a longer version."""
    return rf"(?<![\d.])(?P<{group}>(?:1[7-9]|2\d)\.(?:0[1-9]|1[0-2]))(?![\d.])"


# an image reference: nvcr.io/nvidia/pytorch:24.05-py3, nvcr.io/nvidia/tritonserver:20.10
_IMAGE = re.compile(
    r"nvcr\.io/nvidia/(?:[\w.-]+/)*(?P<image>[\w.-]+):"
    + _release("release")
    + r"|\b(?P<bare>pytorch|tensorflow|tritonserver|mxnet|tensorrt|nemo|jax|pyg|dgl|"
    r"paddlepaddle|deepstream):" + _release("bare_release") + r"-",
    re.I | re.A,
)
# a release named in prose, once the paste is about an NGC container
_NGC_WORDS = re.compile(
    r"nvcr\.io|\bngc\b|triton[ _-]?(?:inference[ _-]?)?server|triton information|"
    r"nvidia/(?:pytorch|tensorflow|tritonserver)",
    re.I | re.A,
)
_PROSE = re.compile(
    r"(?:\bngc\b|triton(?:[ _-]?(?:inference[ _-]?)?server)?|container|image|release|tag)"
    r"(?:\s+(?:image|container|version|release|tag))?\s+(?:version\s+)?v?" + _release("release"),
    re.I | re.A,
)


# the entrypoint banner of an NGC image names the host's driver when it is too old (pastes often
# wrap its "but" and "version" onto two lines)
_NO_COMPAT = re.compile(r"compatibility mode is UNAVAILABLE", re.I | re.A)
_DETECTED = re.compile(r"\bversion (?P<have>\d{3}(?:\.\d+){1,2}) was detected", re.I | re.A)


def ngc_facts(lines: Iterable[str], ms: Any, driver: Any = None) -> dict[str, Any]:
    """The facts of FACT_NAMES that `lines` (and the host's `driver` version, else the one an
    NGC banner says it detected) tell; the release's rows come from `queries.ngc`."""
    values: dict[str, Any] = dict.fromkeys(FACT_NAMES)
    lines = list(lines)
    release, image = _release_in(lines)
    if release is None:
        return values
    values["ngc.release"], values["ngc.image"] = release, image
    row = ngc.release_row(ms, release)
    if row is not None:
        values["ngc.cuda"] = str(row.get("cuda") or "") or None
        values["ngc.driver"] = str(row.get("driver") or "") or None
        others = [str(d) for d in row.get("datacenter_drivers") or []]
        # the banner's "compatibility mode is UNAVAILABLE": forward compatibility was tried here
        unavailable = any(_NO_COMPAT.search(line) for line in lines)
        values["ngc.datacenter_drivers"] = None if unavailable else ", ".join(others) or None
    if not driver:
        detected = next((m for m in map(_DETECTED.search, lines) if m), None)
        driver = detected.group("have") if detected else None
    values["ngc.host_driver"] = str(driver) if driver else None
    fits = ngc.newest_release_for_driver(ms, driver)
    if fits is not None and str(fits.get("release")) != release:
        values["ngc.fits_release"] = str(fits.get("release"))
        values["ngc.fits_cuda"] = str(fits.get("cuda") or "") or None
        values["ngc.fits_driver"] = str(fits.get("driver") or "") or None
    return values


def _release_in(lines: list[str]) -> tuple[str | None, str | None]:
    """(release, image name) of the first image reference, else of a release in prose when the
    paste names NGC words; (None, None) when it names neither."""
    for line in lines:
        found = _IMAGE.search(line)
        if found:
            release = found.group("release") or found.group("bare_release")
            return release, found.group("image") or found.group("bare")
    if not any(_NGC_WORDS.search(line) for line in lines):
        return None, None
    for line in lines:
        found = _PROSE.search(line)
        if found:
            return found.group("release"), None
    return None, None
