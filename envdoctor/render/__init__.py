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


# formats that translate their own words (and keep the original in what they embed)
_LOCALIZING = frozenset({"text", "markdown", "html"})


def render(report: Report, fmt: str, **options) -> str:  # noqa: ANN003
    """Render `report` in format `fmt`. `lang` ("zh"; None or "en": English) is the language of
    the words; the machine formats (JSON, Prometheus) get the translated report as they are
    (ids, commands and versions never change), the human ones translate their labels too."""
    lang = options.get("lang")
    if lang and lang != "en" and fmt not in _LOCALIZING:
        from envdoctor.i18n import translator
        from envdoctor.i18n.localize import report as localized

        report = localized(report, translator(lang))
    return renderer(fmt)(report, **options)
