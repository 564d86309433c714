"""Output formats: one small module each, `render(report, **options) -> str`."""

from __future__ import annotations

import importlib
from collections.abc import Callable

from envdoctor.model.report import Report

# format name -> module under envdoctor.render
FORMATS: dict[str, str] = {
    "text": "terminal",
    "json": "json_format",
    "markdown": "markdown",
    "html": "html",
    "prometheus": "prometheus",
}


def renderer(fmt: str) -> Callable[..., str]:
    """The render function for `fmt`; KeyError for an unknown format."""
    module = importlib.import_module(f"envdoctor.render.{FORMATS[fmt]}")
    return module.render


def render(report: Report, fmt: str, **options) -> str:  # noqa: ANN003
    """Render `report` in format `fmt`."""
    return renderer(fmt)(report, **options)
