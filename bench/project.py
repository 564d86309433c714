"""The checkout's interpreter for the benchmarks: a bench script run with any `python` re-runs
itself under the checkout's `.venv` when this interpreter cannot import envdoctor and its
dependencies, so `python bench/x.py` works from a fresh clone once `./scripts/test` (or
`python3 -m venv .venv && .venv/bin/pip install -e .`) has made that venv."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
VENV_PYTHON = REPO / ".venv" / "bin" / "python"
# envdoctor's own runtime dependencies (pyproject's `dependencies`) that the benchmarks import.
NEEDED = ("packaging", "rich", "distro")


def _importable() -> bool:
    """Whether this interpreter has envdoctor's dependencies and this checkout's envdoctor."""
    if any(importlib.util.find_spec(name) is None for name in NEEDED):
        return False
    spec = importlib.util.find_spec("envdoctor")
    return spec is not None and spec.origin is not None and Path(spec.origin).is_relative_to(REPO)


def use_project_python() -> None:
    """Re-exec this script under .venv/bin/python when needed; exit with one line if impossible."""
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))
    if _importable():
        return
    here = Path(sys.executable).absolute()
    if VENV_PYTHON.exists() and here != VENV_PYTHON.absolute():
        os.execv(str(VENV_PYTHON), [str(VENV_PYTHON), *sys.argv])
    sys.exit(
        f"{Path(sys.argv[0]).name}: envdoctor's dependencies are not importable by {sys.executable}"
        " and there is no .venv in the checkout: run ./scripts/test once (it makes .venv)"
    )
