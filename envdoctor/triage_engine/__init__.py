"""The triage engine: causes as data (checks/signatures/*.toml) matched against pasted text.

Modules, one job each: `model` (shapes), `patterns` (compiled patterns and their anchors),
`conditions` (conditions on facts), `prose` (facts from prose), `facts` (facts derived once per
snapshot, through checks.torch_context), `loader` (the TOML files), `evaluate` (one pass over the
causes -> findings with score and origin), `remedies` (remedy references resolved by the one fix
chooser), `rank` (merge, causes over symptoms, consistency), `casebase` (similar confirmed
cases), `run` (the entry points).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from envdoctor.model.report import Report

__all__ = ["triage_blocks", "triage_lines", "triage_text"]


def triage_text(text: str, here: bool = False, timeout_s: float = 20.0) -> Report:
    """The triage report of a text."""
    from envdoctor.triage_engine.run import triage_text as run

    return run(text, here, timeout_s)


def triage_lines(lines: Any, here: bool = False, timeout_s: float = 20.0) -> Report:
    """The triage report of an input given line by line."""
    from envdoctor.triage_engine.run import triage_lines as run

    return run(lines, here, timeout_s)


def triage_blocks(blocks: Any, here: bool = False, timeout_s: float = 20.0) -> Report:
    """The triage report of an input given as cleaned blocks of whole lines."""
    from envdoctor.triage_engine.run import triage_blocks as run

    return run(blocks, here, timeout_s)
