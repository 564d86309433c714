"""envdoctor: an environment compatibility doctor for GPU and ML machines.

The Python API (`check`, `triage`, `preflight`, `explain`, `redacted`) lives in `envdoctor.api`
and is importable from here; it is loaded on first use, so `import envdoctor` stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = ["__version__", "check", "explain", "preflight", "redacted", "triage"]

if TYPE_CHECKING:  # for type checkers and IDEs; at run time the names load lazily
    from envdoctor.api import check, explain, preflight, redacted, triage

_API = frozenset({"check", "explain", "preflight", "redacted", "triage"})


def __getattr__(name: str) -> Any:
    if name in _API:
        # imported by name: the package root depends on nothing (every layer imports
        # __version__ from here); the API sits above the commands
        import importlib

        return getattr(importlib.import_module("envdoctor.api"), name)
    raise AttributeError(f"module 'envdoctor' has no attribute {name!r}")
