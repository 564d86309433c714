"""Renderers compared against golden outputs (regenerate with ENVDOCTOR_REGOLD=1)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from envdoctor.model.report import Report, extract_embedded
from envdoctor.render import render
from tests.core_samples import sample_report

GOLDEN = Path(__file__).parent / "golden"


def _golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("ENVDOCTOR_REGOLD"):
        path.write_text(text)
    assert path.exists(), f"golden file {name} missing: run with ENVDOCTOR_REGOLD=1"
    assert text == path.read_text()


@pytest.mark.parametrize(
    "fmt, options, name",
    [
        ("text", {"color": False, "width": 100}, "sample.txt"),
        ("text", {"color": False, "width": 100, "verbose": True}, "sample-verbose.txt"),
        ("markdown", {}, "sample.md"),
        ("json", {}, "sample.json"),
    ],
)
def test_golden_outputs(fmt, options, name):
    _golden(name, render(sample_report(), fmt, **options))


def test_terminal_lines_fit_100_columns_and_cause_comes_first():
    text = render(sample_report(), "text", color=False, width=100)
    assert all(len(line) <= 100 for line in text.splitlines())
    assert "\x1b[" not in text
    lines = text.splitlines()
    first = lines.index("What to do first")
    assert "CPU-only build" in lines[first + 1]
    assert "$ pip uninstall -y torch" in text


def test_colour_only_when_asked_and_never_under_no_color(monkeypatch):
    coloured = render(sample_report(), "text", color=True, width=100)
    assert "\x1b[" in coloured
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b[" not in render(sample_report(), "text", width=100)


def test_markdown_embeds_the_json_exactly():
    report = sample_report()
    text = render(report, "markdown")
    embedded = json.loads(extract_embedded(text))
    assert embedded == json.loads(json.dumps(report.to_dict()))
    assert Report.from_dict(embedded).findings == report.findings


def test_markdown_survives_comment_terminators_in_text():
    report = sample_report()
    report.snapshot.groups["os"].data["distro_name"] = "evil --> name"
    embedded = json.loads(extract_embedded(render(report, "markdown")))
    assert embedded["snapshot"]["groups"]["os"]["data"]["distro_name"] == "evil --> name"
