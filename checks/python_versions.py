"""Python interpreter version against what the PyTorch release supports."""

from __future__ import annotations

from envdoctor.checkdef import check
from envdoctor.findings import Evidence, Finding, Fix, Severity
from envdoctor.matrixset import MatrixSet
from envdoctor.snapshot import Snapshot
from envdoctor.versions import major_minor, parse

_PYTHON_DOWNLOADS = "https://www.python.org/downloads/"
_TORCH_GET_STARTED = "https://pytorch.org/get-started/locally/"


def _release_rows(ms: MatrixSet) -> list[dict]:
    return sorted(ms.table("torch_releases").rows, key=lambda r: parse(r["torch"]))


@check("torch.python-unsupported", needs=("python", "python.packages"), matrices=("torch_releases",))
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
    torch = (snap.fact("python.packages", "packages") or {}).get("torch")
    rows = _release_rows(ms)
    if torch is not None:
        row = next((r for r in rows if major_minor(r["torch"]) == major_minor(torch)), None)
        if row is None or not row.get("python") or python in row["python"]:
            return None
        supported = row["python"]
        return Finding(
            id="torch.python-unsupported",
            severity=Severity.WARNING,
            title=f"torch {torch} does not support Python {python}",
            detail=(f"PyTorch {row['torch']} publishes wheels for Python {', '.join(supported)}; this "
                    f"environment runs Python {python}, so this torch came from a source build or "
                    "an unofficial wheel."),
            evidence=(Evidence("python.version", python, " / ".join(supported)),
                      Evidence("torch.version", torch)),
            fixes=(Fix(f"Create an environment with Python {supported[-1]} and install torch there",
                       (f"python{supported[-1]} -m venv .venv-torch",
                        ".venv-torch/bin/python -m pip install torch"), url=_PYTHON_DOWNLOADS),),
        )
    newest = next((r for r in reversed(rows) if r.get("python")), None)
    if newest is None or python in newest["python"]:
        return None
    if parse(python) < max(parse(p) for p in newest["python"]):
        return None  # older than the newest release's range: older torch releases serve it
    supported = newest["python"]
    return Finding(
        id="torch.python-unsupported",
        severity=Severity.WARNING,
        title=f"No PyTorch release supports Python {python} yet",
        detail=(f"The newest PyTorch release known to envdoctor ({newest['torch']}) has wheels for "
                f"Python {', '.join(supported)}: `pip install torch` here finds no matching "
                "distribution."),
        evidence=(Evidence("python.version", python, " / ".join(supported)),),
        fixes=(Fix(f"Use Python {supported[-1]} for PyTorch work",
                   (f"python{supported[-1]} -m venv .venv-torch",
                    ".venv-torch/bin/python -m pip install torch"), url=_TORCH_GET_STARTED),),
    )


CHECKS = [python_supported_by_torch]
