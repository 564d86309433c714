"""The CUDA wheel tag a paste's facts point to ("cu121"), so a fix can name the exact build.

Why: a report that says "torch 2.3.1, CUDA 12.2" or "conda install ... cudatoolkit=11.1" already
tells which PyTorch CUDA build it needs; a fix that says "install a CUDA build" names nothing.
The tag comes from the matrices' torch_releases rows (the variants a release published), never
made up: the newest variant of the release whose CUDA is not newer than the CUDA the paste
names (a toolkit pin, the CUDA in use, or the driver's highest). Only for a release the matrices
do not list, a toolkit pinned in the paste itself (`cudatoolkit=11.1`) gives the tag by PyTorch's
naming rule (cu + major + minor).

A paste's own index URL is checked against the same tables: `--index-url
https://download.pytorch.org/whl/cu131` names a folder PyTorch never published, and pip then says
"from versions: none" as if the Python were unsupported. `torch.index_variant_missing` is such a
CUDA variant; `torch.index_variant_nearest` the newest published CUDA variant not newer than it
(of the pinned torch release, when the paste pins one).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from packaging.version import InvalidVersion, Version


def _version(text: Any) -> Version | None:
    try:
        return Version(str(text)) if text else None
    except InvalidVersion:
        return None


def cuda_wheel_tag(ms: Any, values: Mapping[str, Any], pinned: str | None) -> str | None:
    """The CUDA variant ("cu121") for the torch release and CUDA named by `values` (derived
    facts) and `pinned` (a CUDA toolkit pinned in the paste), or None when they do not say."""
    from envdoctor.queries.torch import release_row, variant_cuda

    target = _version(pinned or values.get("cuda.runtime") or values.get("driver.cuda_max"))
    if target is None:
        return None
    release = values.get("torch.version")
    rows = []
    if release:
        row = release_row(ms, str(release)) if ms is not None else None
        if row is None:
            if pinned and (v := _version(pinned)) is not None and len(v.release) >= 2:
                return f"cu{v.release[0]}{v.release[1]}"
            return None
        rows = [row]
    elif ms is not None:
        rows = sorted(
            _rows(ms, "torch_releases"), key=lambda r: _version(r.get("torch")) or Version("0")
        )
        rows.reverse()  # newest release first
    best: tuple[Version, str] | None = None
    for row in rows:
        fitting = []
        for variant in row.get("cuda_variants", []) or []:
            cuda = _version(variant_cuda(ms, str(variant)))
            if cuda is not None and cuda <= target:
                fitting.append((cuda, str(variant)))
        if fitting and release:
            return max(fitting)[1]
        # no release named: the variant nearest the CUDA named, from any release (CUDA 12.3
        # gives cu121, not the newest release's cu118); newest release first on a tie
        if fitting and (best is None or max(fitting)[0] > best[0]):
            best = max(fitting)
    return best[1] if best else None


# a release-channel CUDA folder of PyTorch's index (nightly and test folders list other variants)
# A dotted folder (`whl/cu12.6`, `whl/cu12.6.65`: a CUDA version written as the driver reports it)
# is never one: PyTorch names its folders cu + major + minor without dots.
_INDEX_VARIANT = re.compile(
    r"download\.pytorch\.org/whl/(?P<variant>cu\d{3}(?![\w.])|cu(?P<dotted>\d{2}\.\d+)(?:\.\d+)*)",
    re.IGNORECASE,
)


def index_variant_facts(ms: Any, lines: Iterable[str], torch: Any) -> dict[str, str | None]:
    """`torch.index_variant_missing` / `torch.index_variant_nearest` (module docstring) for the
    first CUDA index folder the paste names, when the torch_index table does not list it."""
    out: dict[str, str | None] = {
        "torch.index_variant_missing": None,
        "torch.index_variant_nearest": None,
    }
    from envdoctor.queries.torch import index_url, variant_cuda

    found = next((m for line in lines if (m := _INDEX_VARIANT.search(line))), None)
    rows = _rows(ms, "torch_index")
    if found is None or not rows:
        return out
    wanted = found.group("variant").lower()
    if index_url(ms, wanted) is not None:
        return out
    # the build matrix's naming rule: cu131 -> 13.1; a dotted folder names its CUDA itself
    dotted = found.group("dotted")
    target = _version(dotted) if dotted else _version(variant_cuda(ms, wanted))
    release = _version(torch)
    # the table lists every folder of the releases whose variant lists are complete (1.13 and
    # later); older releases (torch_releases variants_complete = false: 1.9-1.12) are listed in
    # part, so a CUDA older than the complete ones (cu110, cu115) or an older torch may have had
    # folders it does not list: their absence from it proves nothing
    complete = {
        str(r.get("torch"))
        for r in _rows(ms, "torch_releases")
        if r.get("variants_complete") is not False
    }
    cudas = [
        c
        for r in rows
        if r.get("kind") == "cuda"
        and any(str(t) in complete for t in r.get("torch", []) or [])
        and (c := _version(r.get("cuda")))
    ]
    releases = [
        v
        for r in rows
        for t in r.get("torch", []) or []
        if str(t) in complete and (v := _version(t))
    ]
    if target is None or not cudas or target < min(cudas):
        return out
    if release is not None and releases and release.release[:2] < min(releases).release[:2]:
        return out
    fitting = []
    for row in rows:
        cuda = _version(row.get("cuda"))
        if row.get("kind") != "cuda" or cuda is None or cuda > target:
            continue
        shipped = [_version(t) for t in row.get("torch", []) or []]
        if release is not None and not any(
            t is not None and t.release[:2] == release.release[:2] for t in shipped
        ):
            continue
        fitting.append((cuda, str(row.get("variant"))))
    out["torch.index_variant_missing"] = wanted
    out["torch.index_variant_nearest"] = max(fitting)[1] if fitting else None
    return out


def _rows(ms: Any, name: str) -> list[dict[str, Any]]:
    """Table `name`'s rows; [] without matrices or without the table."""
    try:
        return list(ms.table(name).rows) if ms is not None and ms.has(name) else []
    except (KeyError, AttributeError):
        return []
