"""Readers of pasted text and saved reports: the triage counterpart of the probes.

The reader modules (`envdoctor.ingest.nvidia_smi_xml`, `…collect_env`, …) parse one format each;
`envdoctor.ingest.driver` splits a paste into parts and runs them (its docstring describes how).
This package's names (`ingest_text`, `load_readers`, `READER_MODULES`, …) are the driver's, loaded
on first use: a probe that imports one reader for its parser does not pay for the driver.
"""

from __future__ import annotations

import importlib
import os
from typing import Any


def __getattr__(name: str) -> Any:
    # a reader module (`from envdoctor.ingest import rocminfo`) is imported by the import system
    # once this says it is no attribute yet; only the driver's own names load the driver
    if name.startswith("__") or os.path.exists(
        os.path.join(os.path.dirname(__file__), f"{name}.py")
    ):
        raise AttributeError(name)
    driver = importlib.import_module("envdoctor.ingest.driver")
    try:
        return getattr(driver, name)
    except AttributeError:
        raise AttributeError(f"module 'envdoctor.ingest' has no attribute {name!r}") from None


def __dir__() -> list[str]:
    driver = importlib.import_module("envdoctor.ingest.driver")
    return sorted(set(globals()) | set(dir(driver)))
