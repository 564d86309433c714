"""NGC deep-learning container releases: the CUDA each is based on and the driver it requires.

Tables used: ngc_releases (one row per monthly release YY.MM, each with the release notes'
"Driver Requirements" sentence as its note).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from envdoctor.model.versions import parse as parse_version

__all__ = ["newest_release_for_driver", "release_row", "release_rows"]

TABLE = "ngc_releases"


def release_rows(ms: Any) -> list[Mapping[str, Any]]:
    """Every release row; [] when the matrices lack the table (an older installed set)."""
    if ms is None or not ms.has(TABLE):
        return []
    return list(ms.table(TABLE).rows)


def release_row(ms: Any, release: str) -> Mapping[str, Any] | None:
    """The row of NGC release `release` ("24.05"), or None when the table does not list it."""
    return next((r for r in release_rows(ms) if str(r.get("release")) == release), None)


def newest_release_for_driver(ms: Any, driver: Any) -> Mapping[str, Any] | None:
    """The newest release whose stated driver requirement `driver` meets, or None (no driver, or
    none of the rows)."""
    have = parse_version(str(driver or ""))
    if have is None:
        return None
    best: tuple[Any, Mapping[str, Any]] | None = None
    for row in release_rows(ms):
        need, key = (
            parse_version(str(row.get("driver") or "")),
            parse_version(str(row.get("release"))),
        )
        if need is None or key is None or have < need:
            continue
        if best is None or key > best[0]:
            best = (key, row)
    return best[1] if best else None
