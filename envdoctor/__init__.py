"""envdoctor: an environment compatibility doctor for GPU and ML machines.

The Python API (`check`, `triage`, `preflight`, `explain`, `redacted`) lives in `envdoctor.api`
and is importable from here; it is loaded on first use, so `import envdoctor` stays cheap.
"""

from __future__ import annotations

import sys
import types
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


class _ApiPackage(types.ModuleType):
    """A subpackage named like an API function (`envdoctor.triage`, `envdoctor.preflight`) that
    calls it: importing a subpackage binds its module to the parent's attribute of that name,
    which would otherwise hide the API function once the package had been imported."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return __getattr__(self.__name__.rpartition(".")[2])(*args, **kwargs)


def callable_as_api(module_name: str) -> None:
    """Make the package `module_name` (one of the API's names) call the API function."""
    if module_name.rpartition(".")[2] not in _API:
        raise ValueError(f"{module_name} is not named like an API function")
    sys.modules[module_name].__class__ = _ApiPackage
