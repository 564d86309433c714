"""Readers of pasted text and saved reports: the triage counterpart of the probes.

A reader module defines `NAME` (e.g. "nvidia-smi-xml"), `detect(text) -> bool` (cheap: does this
part look like my format?) and `read(text) -> list[FactGroup]` (the same fact groups the live
probes fill, with `source="pasted:NAME"` and a lowered confidence). Readers are tried in the order
of `READER_MODULES`, specific formats first, free-text fallbacks last.
"""

from __future__ import annotations

# Listed explicitly, most specific first. Add a module here when you add a reader.
READER_MODULES: tuple[str, ...] = ()
