"""How a check is declared: a pure function of (snapshot, matrices) with declared needs.

    @check("torch.python-unsupported", needs=("python", "python.packages"),
           matrices=("torch_releases",))
    def python_supported(snap, matrices):
        '''Help text shown by `envdoctor explain torch.python-unsupported`.'''
        ...
        return Finding(...)   # or a list of findings, or None when all is well

The decorator returns a `Check`; a check module lists its checks in `CHECKS`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from envdoctor.model.findings import Finding

if TYPE_CHECKING:
    from envdoctor.matrices import MatrixSet
    from envdoctor.model.snapshot import Snapshot

CheckResult = Finding | Iterable[Finding] | None
CheckFunction = Callable[["Snapshot", "MatrixSet"], CheckResult]


@dataclass(frozen=True)
class Check:
    """A declared check. `ids` are the finding ids it may emit (the first is its own id);
    `needs` are fact groups that must be collected for it to run; `needs_any` are groups of which
    at least one must be collected; `matrices` are the tables it reads (skipped when absent)."""

    ids: tuple[str, ...]
    needs: tuple[str, ...]
    function: CheckFunction
    needs_any: tuple[str, ...] = ()
    matrices: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        """The check's own id."""
        return self.ids[0]

    @property
    def help(self) -> str:
        """The check's help page (its docstring)."""
        return inspect.cleandoc(self.function.__doc__ or "No help written for this check.")

    def run(self, snap: Snapshot, matrices: MatrixSet) -> list[Finding]:
        """Run the check and normalise what it returns to a list."""
        result = self.function(snap, matrices)
        if result is None:
            return []
        if isinstance(result, Finding):
            return [result]
        return list(result)


def check(
    *ids: str,
    needs: tuple[str, ...] = (),
    needs_any: tuple[str, ...] = (),
    matrices: tuple[str, ...] = (),
) -> Callable[[CheckFunction], Check]:
    """Declare a check emitting finding `ids` (first = its own id) that needs fact groups `needs`
    and matrix tables `matrices`."""
    if not ids:
        raise ValueError("a check needs at least one finding id")

    def wrap(function: CheckFunction) -> Check:
        return Check(tuple(ids), tuple(needs), function, tuple(needs_any), tuple(matrices))

    return wrap
