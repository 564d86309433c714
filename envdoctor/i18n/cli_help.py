"""`--help` in another language: every help text and description of the parser tree translated
before argparse formats (and wraps) them, and argparse's own words (usage, section titles)."""

from __future__ import annotations

import argparse

from envdoctor.i18n import Translator, translator


class _Formatter(argparse.HelpFormatter):
    """argparse's formatter with a translated "usage: " prefix (argparse reads it from the
    stdlib gettext domain, which has no catalog for it on most systems)."""

    prefix = "usage: "

    def add_usage(self, usage, actions, groups, prefix=None):  # noqa: ANN001, ANN201
        return super().add_usage(usage, actions, groups, prefix or self.prefix)


def translate_parser(parser: argparse.ArgumentParser, lang: str) -> None:
    """Translate `parser` and its sub-parsers in place (help, descriptions, group titles)."""
    tr = translator(lang)
    prefix = tr.gettext("usage: ")
    formatter = type("Formatter", (_Formatter,), {"prefix": prefix})
    _walk(parser, tr, formatter)


def _walk(parser: argparse.ArgumentParser, tr: Translator, formatter: type) -> None:
    parser.formatter_class = formatter  # type: ignore[assignment]
    if parser.description:
        parser.description = tr(parser.description)
    if parser.epilog:
        parser.epilog = tr(parser.epilog)
    for group in parser._action_groups:
        if group.title:
            group.title = tr.gettext(group.title)
        if group.description:
            group.description = tr(group.description)
    for action in parser._actions:
        if action.help and action.help is not argparse.SUPPRESS:
            action.help = tr(action.help)
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                if choice.help:
                    choice.help = tr(choice.help)
            for sub in action.choices.values():
                _walk(sub, tr, formatter)
