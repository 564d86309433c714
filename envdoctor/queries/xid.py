"""Questions about NVIDIA Xid codes, answered from the nvidia_xid matrix."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from envdoctor.matrix.loader import MatrixSet


def xid_row(ms: MatrixSet, code: int) -> dict[str, Any] | None:
    """The nvidia_xid row for an Xid code, or None when the table lacks it."""
    try:
        rows = ms.table("nvidia_xid").rows
    except (KeyError, AttributeError):
        return None
    return next((row for row in rows if row.get("xid") == code), None)


def xid_name(ms: MatrixSet, code: int) -> str:
    """ "Xid 79 (GPU has fallen off the bus)" / "Xid 119 (GSP_RPC_TIMEOUT)" for people."""
    row = xid_row(ms, code) or {}
    label = row.get("description") or row.get("mnemonic")
    return f"Xid {code} ({label})" if label else f"Xid {code}"
