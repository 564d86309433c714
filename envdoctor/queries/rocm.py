"""Questions about AMD GPUs and ROCm asked of the matrices (rocm_gpus, rocm_targets,
rocm_overrides, rocm_os, rocm_app_targets). The gfx-name arithmetic they rest on is the model's
(`envdoctor.model.amd_gfx`), also reachable from here.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from packaging.version import Version

from envdoctor.model import versions
from envdoctor.model.amd_gfx import normalize_gfx

if TYPE_CHECKING:
    from envdoctor.matrix.loader import MatrixSet


# -- tables ---------------------------------------------------------------------------------
def _rows(ms: MatrixSet, name: str) -> list[dict[str, Any]]:
    table = ms.get(name) if ms is not None else None
    return list(table.rows) if table is not None else []


def _version(text: Any) -> Version | None:
    """The release numbers of a ROCm spelling ("6.2.4-120" -> 6.2.4), or None."""
    return versions.release(str(text)) if text is not None else None


def _in_range(version: Version, rng: Any) -> bool:
    if not isinstance(rng, dict):
        return False
    low, high = _version(rng.get("min")), _version(rng.get("max"))
    return (low is None or version >= low) and (high is None or version < high)


def covered_releases(ms: MatrixSet) -> tuple[Version, Version] | None:
    """(lowest, highest-exclusive) ROCm release the rocm_gpus table covers."""
    ranges = [r["rocm"] for r in _rows(ms, "rocm_gpus") if isinstance(r.get("rocm"), dict)]
    lows = [v for v in (_version(rng.get("min")) for rng in ranges) if v is not None]
    highs = [v for v in (_version(rng.get("max")) for rng in ranges) if v is not None]
    if not lows or not highs:
        return None
    return min(lows), max(highs)


def release_rows(ms: MatrixSet, rocm: str) -> list[dict[str, Any]]:
    """The rocm_gpus rows of ROCm release `rocm` ("6.2.4"); [] when the table does not cover it."""
    version = _version(rocm)
    if version is None:
        return []
    return [r for r in _rows(ms, "rocm_gpus") if _in_range(version, r.get("rocm"))]


def supported_targets(
    ms: MatrixSet, rocm: str, include_deprecated: bool = True
) -> list[str] | None:
    """The gfx targets ROCm `rocm` lists as supported (and deprecated) on Linux, sorted; None when
    the table does not cover that release."""
    rows = release_rows(ms, rocm)
    if not rows:
        return None
    wanted = {"supported", "deprecated"} if include_deprecated else {"supported"}
    return sorted({r["gfx"] for r in rows if r.get("status") in wanted})


def target_status(ms: MatrixSet, gfx: str, rocm: str) -> str | None:
    """Is gfx target `gfx` supported by ROCm `rocm` on Linux? "supported", "deprecated",
    "unsupported" (listed as not enabled), "unlisted" (not in AMD's table), or None when the table
    does not cover that release. The best status of any product with that target counts."""
    name = normalize_gfx(gfx)
    rows = release_rows(ms, rocm)
    if not rows or name is None:
        return None
    statuses = {r.get("status") for r in rows if r.get("gfx") == name}
    for status in ("supported", "deprecated", "unsupported"):
        if status in statuses:
            return status
    return "unlisted"


def is_supported(ms: MatrixSet, gfx: str, rocm: str) -> bool | None:
    """True when ROCm `rocm` lists `gfx` as supported or deprecated on Linux; False when it does
    not; None when the table does not cover that release."""
    status = target_status(ms, gfx, rocm)
    if status is None:
        return None
    return status in ("supported", "deprecated")


def product_status(ms: MatrixSet, product: str, rocm: str) -> str | None:
    """The status of one product name in ROCm `rocm`'s table, "unlisted", or None (release not
    covered). Names compare without case, the "AMD " prefix and the ™/® marks; a listed name
    contained in `product` counts ("AMD Instinct MI300X OAM" is the listed MI300X)."""
    rows = release_rows(ms, rocm)
    if not rows:
        return None
    wanted = _product_key(product)
    best: tuple[int, str] | None = None
    for row in rows:
        key = _product_key(row.get("product"))
        if key and _contains(wanted, key) and (best is None or len(key) > best[0]):
            best = (len(key), str(row.get("status")))
    return best[1] if best else "unlisted"


def _contains(text: str, product: str) -> bool:
    """Whether product key `product` appears in `text` as whole words ("instinct mi100" in
    "arcturus gl-xl [instinct mi100]", not "radeon rx 7900 xt" in "radeon rx 7900 xtx")."""
    return re.search(r"(?:^|[\s\[/(])" + re.escape(product) + r"(?:$|[\s\]/),])", text) is not None


def releases_supporting(ms: MatrixSet, gfx: str) -> list[str]:
    """The ROCm release ranges ("6.0.0-6.0.2") whose Linux table lists `gfx` as supported."""
    name = normalize_gfx(gfx)
    found = []
    for row in _rows(ms, "rocm_gpus"):
        if (
            row.get("gfx") == name
            and row.get("status") == "supported"
            and isinstance(row.get("rocm"), dict)
        ):
            label = f"{row['rocm'].get('min')}-{row['rocm'].get('max')}"
            if label not in found:
                found.append(label)
    return sorted(found, key=lambda s: _version(s.split("-")[0]) or Version("0"))


def newest_release_supporting(ms: MatrixSet, gfx: str) -> str | None:
    """The newest ROCm release whose Linux table lists `gfx` as supported, as the table's source
    names it ("6.2.4" for the docs/6.2.4 page; else the range's lower end, "6.2")."""
    name = normalize_gfx(gfx)
    best: tuple[Version, str] | None = None
    for row in _rows(ms, "rocm_gpus"):
        if (
            row.get("gfx") != name
            or row.get("status") != "supported"
            or not isinstance(row.get("rocm"), dict)
        ):
            continue
        low = _version(row["rocm"].get("min"))
        if low is None:
            continue
        named = re.search(r"(?:docs/|rocm-)(\d+\.\d+\.\d+)", str(row.get("source") or ""))
        label = (
            named.group(1)
            if named and _in_range(Version(named.group(1)), row["rocm"])
            else str(row["rocm"]["min"])
        )
        if best is None or low > best[0]:
            best = (low, label)
    return best[1] if best else None


def target_row(ms: MatrixSet, gfx: str) -> dict[str, Any] | None:
    """The rocm_targets row of a gfx name."""
    name = normalize_gfx(gfx)
    for row in _rows(ms, "rocm_targets"):
        if row.get("gfx") == name:
            return row
    return None


def products(ms: MatrixSet, gfx: str) -> list[str]:
    """Product names for a gfx target: rocm_targets first, then any rocm_gpus product."""
    name = normalize_gfx(gfx)
    found: list[str] = list((target_row(ms, gfx) or {}).get("products") or [])
    keys = {_product_key(p) for p in found}
    for row in _rows(ms, "rocm_gpus"):
        if row.get("gfx") == name and _product_key(row.get("product")) not in keys:
            keys.add(_product_key(row.get("product")))
            found.append(str(row.get("product")))
    return found


def architecture(ms: MatrixSet, gfx: str) -> str | None:
    """ "gfx1100" -> "RDNA3"."""
    row = target_row(ms, gfx)
    if row and row.get("architecture"):
        return str(row["architecture"])
    name = normalize_gfx(gfx)
    for row in _rows(ms, "rocm_gpus"):
        if row.get("gfx") == name and row.get("architecture"):
            return str(row["architecture"])
    return None


def is_apu(ms: MatrixSet, gfx: str) -> bool | None:
    """Whether a gfx target is integrated graphics (an APU); None when unknown."""
    row = target_row(ms, gfx)
    if row is None or "apu" not in row:
        return None
    return bool(row["apu"])


def in_current_docs(ms: MatrixSet, gfx: str) -> bool | None:
    """Whether AMD's current (unversioned) Radeon / Ryzen Linux tables list a product with this
    target; None when the table row does not say (Instinct targets, unknown targets)."""
    row = target_row(ms, gfx)
    if row is None or "current_docs_linux" not in row:
        return None
    return bool(row["current_docs_linux"])


def status_without_release(ms: MatrixSet, gfx: str) -> str | None:
    """What can be said of a gfx target when the ROCm release is unknown or newer than the tables:
    "unsupported" when the newest covered table marks it so, "unlisted" when no covered release
    lists it and AMD's current docs do not either, else None (it may well be supported)."""
    name = normalize_gfx(gfx)
    covered = covered_releases(ms)
    if name is None or covered is None:
        return None
    rows = [r for r in _rows(ms, "rocm_gpus") if r.get("gfx") == name]
    newest = max(
        (r for r in rows if isinstance(r.get("rocm"), dict)),
        key=lambda r: _version(r["rocm"].get("min")) or Version("0"),
        default=None,
    )
    if newest is not None and newest.get("status") == "unsupported":
        return "unsupported"
    if any(r.get("status") in ("supported", "deprecated") for r in rows):
        return None
    return "unlisted" if in_current_docs(ms, name) is False else None


def gfx_for_product(ms: MatrixSet, name: str) -> str | None:
    """The gfx target of a product name as rocm-smi, amd-smi or collect_env print it
    ("AMD Instinct MI300X", "Arcturus GL-XL [Instinct MI100]", "Navi 22 [Radeon RX 6700/6700 XT]").
    The longest known product name contained in `name` wins; a name known under two targets is
    ignored; None when no product matches."""
    text = _product_key(name)
    if not text:
        return None
    best: tuple[int, str] | None = None
    seen: dict[str, set[str]] = {}
    for row in _rows(ms, "rocm_targets"):
        for product in row.get("products") or []:
            seen.setdefault(_product_key(product), set()).add(str(row["gfx"]))
    for row in _rows(ms, "rocm_gpus"):
        seen.setdefault(_product_key(row.get("product")), set()).add(str(row.get("gfx")))
    for product, gfxs in seen.items():
        if len(gfxs) != 1 or not product:
            continue
        if _contains(text, product) and (best is None or len(product) > best[0]):
            best = (len(product), next(iter(gfxs)))
    return best[1] if best else None


def override_for(ms: MatrixSet, gfx: str) -> dict[str, Any] | None:
    """The community HSA_OVERRIDE_GFX_VERSION for an unlisted gfx target, as
    {"value": "10.3.0", "runs_as": "gfx1030", "family": ..., "source": url, "note": ...}; None when
    no row covers it. Always an unsupported workaround."""
    name = normalize_gfx(gfx)
    for row in _rows(ms, "rocm_overrides"):
        if name in (row.get("applies_to") or []):
            return {
                "value": row.get("override"),
                "runs_as": row.get("runs_as"),
                "family": row.get("family"),
                "source": row.get("source"),
                "note": row.get("note"),
            }
    return None


def os_rows(ms: MatrixSet, rocm: str) -> list[dict[str, Any]]:
    """The rocm_os rows (distro, distro_id, distro_version, kernel) of ROCm release `rocm`."""
    version = _version(rocm)
    if version is None:
        return []
    return [r for r in _rows(ms, "rocm_os") if _in_range(version, r.get("rocm"))]


def os_supported(ms: MatrixSet, rocm: str, distro_id: str, distro_version: str) -> bool | None:
    """Whether ROCm `rocm` lists this distribution release (os-release ID and VERSION_ID: "ubuntu",
    "22.04"); a listed point release ("22.04.4") counts for its base. None when not covered."""
    rows = os_rows(ms, rocm)
    if not rows:
        return None
    wanted_id = str(distro_id or "").lower()
    wanted = str(distro_version or "").strip()
    for row in rows:
        listed = str(row.get("distro_version") or "")
        if row.get("distro_id") == wanted_id and (
            listed == wanted or listed.startswith(wanted + ".")
        ):
            return True
    return False


def app_targets(ms: MatrixSet, app: str) -> list[str] | None:
    """The gfx targets an application lists as running on ROCm (rocm_app_targets), or None."""
    for row in _rows(ms, "rocm_app_targets"):
        if row.get("app") == app:
            return list(row.get("gfx_targets") or [])
    return None


def app_source(ms: MatrixSet, app: str) -> str | None:
    """Where an application's gfx list was read."""
    for row in _rows(ms, "rocm_app_targets"):
        if row.get("app") == app:
            return row.get("source")
    return None


def _product_key(name: Any) -> str:
    text = re.sub(r"[™®]|\(tm\)|\(r\)", "", str(name or ""), flags=re.IGNORECASE).lower()
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"^amd\s+", "", text)
    return text
