"""Python interpreter version against what the PyTorch release supports."""

from __future__ import annotations

from envdoctor.checkdef import check
from envdoctor.findings import Evidence, Finding, Severity
from envdoctor.matrixset import MatrixSet
from envdoctor.queries import torch as tq
from envdoctor.queries.torch_fixes import released_minors
from envdoctor.remedies import fixes_for
from envdoctor.snapshot import Snapshot
from envdoctor.versions import major_minor, parse

_PYTHON_DOWNLOADS = "https://www.python.org/downloads/"
_TORCH_GET_STARTED = "https://pytorch.org/get-started/locally/"


def _cpython(pythons: list[str]) -> list[str]:
    """The regular CPython minors of a release ("3.13t", the free-threaded build, left out)."""
    return [p for p in pythons if not p.endswith("t")]


@check(
    "torch.python-unsupported",
    needs=("python", "python.packages"),
    matrices=("torch_releases", "torch_index"),
)
def python_supported_by_torch(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """The Python interpreter is outside what the PyTorch release supports.

    PyTorch publishes wheels for a fixed set of CPython minor versions per release (its
    RELEASE.md compatibility matrix and the binary build matrix). An installed torch on an
    unsupported Python came from a source build or an unofficial wheel and may misbehave; with no
    torch installed, a Python newer than every release means `pip install torch` finds no
    matching distribution. The fix is a supported interpreter (a new venv), or a torch release
    that supports this one.
    """
    python = major_minor(snap.fact("python", "version"))
    if python is None:
        return None
    torch_facts = snap.data("python.torch") or {}
    torch = torch_facts.get("version") or (snap.fact("python.packages", "packages") or {}).get(
        "torch"
    )
    if torch is not None:
        supported = tq.supported_pythons(ms, str(torch))
        if not supported or python in supported:
            return None
        return Finding(
            id="torch.python-unsupported",
            severity=Severity.WARNING,
            title=f"torch {torch} does not support Python {python}",
            detail=(
                f"PyTorch {major_minor(str(torch))} publishes wheels for Python {', '.join(supported)}; "
                f"this environment runs Python {python}, so this torch came from a source build "
                "or an unofficial wheel."
            ),
            evidence=(
                Evidence("python.version", python, " / ".join(supported)),
                Evidence("torch.version", str(torch)),
            ),
            fixes=fixes_for(snap, ms, "python-for-torch", torch=str(torch)),
        )
    newest = released_minors(ms)
    if not newest:
        return None
    supported = tq.supported_pythons(ms, newest[0]) or []
    if not supported or python in supported:
        return None
    if parse(python) < max(parse(p.rstrip("t")) for p in supported):
        return None  # older than the newest release's range: older torch releases serve it
    return Finding(
        id="torch.python-unsupported",
        severity=Severity.WARNING,
        title=f"No PyTorch release supports Python {python} yet",
        detail=(
            f"The newest PyTorch release known to envdoctor ({newest[0]}) has wheels for "
            f"Python {', '.join(supported)}: `pip install torch` here finds no matching "
            "distribution."
        ),
        evidence=(Evidence("python.version", python, " / ".join(supported)),),
        fixes=fixes_for(snap, ms, "python-for-torch", torch=newest[0]),
    )


CHECKS = [python_supported_by_torch]
