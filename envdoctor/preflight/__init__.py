"""`envdoctor preflight`: the requirement language (`requirements`) and how a snapshot is judged
by it (`judge`). The command itself is `envdoctor.commands.preflight`."""

from __future__ import annotations

import sys
import types
from typing import Any


class _PreflightPackage(types.ModuleType):
    """This package, callable as the API's `envdoctor.preflight(...)`: importing a subpackage binds
    its module to the parent's attribute of the same name, which would otherwise hide the API
    function of `envdoctor` (loaded lazily by its `__getattr__`) once preflight has run."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from envdoctor.api import preflight

        return preflight(*args, **kwargs)


sys.modules[__name__].__class__ = _PreflightPackage
