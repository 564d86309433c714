"""Small pure questions asked of the matrices (one module per domain)."""

from __future__ import annotations

from typing import Any


def table_rows(ms: Any, name: str) -> list[dict[str, Any]]:
    """The rows of matrix table `name` of the set `ms` (anything with `.table(name).rows`); none
    when the set lacks the table or is no matrix set."""
    try:
        return list(ms.table(name).rows)
    except (KeyError, AttributeError):
        return []
