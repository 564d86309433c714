"""A paste that says in words that something is wrong but holds no error line and names no
known cause: triage says so and asks for what decides the cause, instead of printing nothing."""

from __future__ import annotations

import pytest

from envdoctor.ingest.decoding import ascii_forms
from envdoctor.triage_engine import triage_text
from envdoctor.triage_engine.evaluate import NO_MATCH_ID


@pytest.mark.parametrize(
    "paste",
    ["after the update my model does not run on the gpu anymore", "昨天还好好的，今天突然不能用了"],
)
def test_prose_without_an_error_line_asks_for_the_error_and_the_versions(paste: str) -> None:
    findings = triage_text(paste + "\n").findings
    assert [f.id for f in findings] == [NO_MATCH_ID]
    (finding,) = findings
    assert "no error message" in finding.title
    # the evidence quotes the line as read: full-width punctuation as its ASCII twin ("，" -> ",")
    assert finding.evidence and finding.evidence[0].actual.startswith(ascii_forms(paste)[:10])
    commands = [c for fix in finding.fixes for c in fix.commands]
    assert "python -m torch.utils.collect_env" in commands and "nvidia-smi" in commands


def test_a_healthy_paste_still_gets_nothing() -> None:
    assert triage_text("Thu Dec  4 01:00:00 2026\nNo running processes found\n").findings == []


def test_error_lines_keep_the_no_match_words_for_errors() -> None:
    findings = triage_text("FooBarError: the frobnicator quux is zorbled\n").findings
    assert [f.id for f in findings] == [NO_MATCH_ID]
    assert "no error message" not in findings[0].title
