"""Every {{placeholder}} in a signature's texts names a fact triage knows (or has default words).

A placeholder naming no fact is always unknown, and a fix naming an unknown fact without default
words is left out silently: a shell command holding a Go template (`{{end}}`, `{{json .}}`) would
drop its whole fix. This guards the shipped signatures against that.
"""

from __future__ import annotations

import re

from envdoctor.triage_engine.conditions import _known_fact
from envdoctor.triage_engine.evaluate import template
from envdoctor.triage_engine.facts import Facts
from envdoctor.triage_engine.loader import DATA

_PLACEHOLDER = re.compile(r"\{\{\s*([a-z][a-z0-9_.-]*)\s*\}\}")


def _texts(signature) -> list[str]:  # noqa: ANN001
    return [
        signature.title,
        signature.detail,
        *(text for fix in signature.fixes for text in (fix.summary, *fix.commands)),
    ]


def test_every_placeholder_names_a_known_fact_or_has_default_words() -> None:
    unknown = [
        (signature.key, name)
        for signature in DATA.signatures
        for text in _texts(signature)
        for name in _PLACEHOLDER.findall(text)
        if not _known_fact(name) and name not in signature.defaults and name not in DATA.defaults
    ]
    assert unknown == []


def test_a_go_template_in_a_command_would_be_caught() -> None:
    # the check above must see `{{end}}` as a placeholder naming no fact
    assert _PLACEHOLDER.findall("docker ps --format '{{range .Mounts}}{{end}}'") == ["end"]
    assert not _known_fact("end")
    # and template() leaves text without placeholders alone
    text = "docker version --format '{{.Server.Version}}'"
    assert template(text, Facts(), {}) == text
