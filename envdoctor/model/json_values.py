"""JSON values of unknown shape (tool output, saved reports) read as the shape the code expects:
an object or {}, an array or []. One spelling of the `isinstance` guard, which type checkers
follow."""

from __future__ import annotations

from typing import Any


def as_dict(value: Any) -> dict[str, Any]:
    """`value` when it is a JSON object, else {}."""
    return value if isinstance(value, dict) else {}


def as_list(value: Any) -> list[Any]:
    """`value` when it is a JSON array, else []."""
    return value if isinstance(value, list) else []
