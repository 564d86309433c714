"""Words renderers compose at run time (plurals, enum values), listed so the extractor finds
them: a renderer builds "2 warnings" or "needs-restart" from data, which no f-string spells."""

from __future__ import annotations

# The extractor reads these tuples as messages (see extract.WORD_MODULE).
COUNTS = (
    "{count} error",
    "{count} errors",
    "{count} warning",
    "{count} warnings",
    "{count} info",
    "{count} infos",
    "{count} check",
    "{count} checks",
    "{count} check passed",
    "{count} checks passed",
    "{count} not applicable",
    "{count} skipped",
    "{count} passed",
    "{count} error(s)",
)
VALUES = (
    "error",
    "warning",
    "info",
    "high confidence",
    "medium confidence",
    "low confidence",
    "safe",
    "needs-restart",
    "destructive",
    "collected",
    "absent",
    "failed",
    "-v for details",
    "What to do first",
    "no reason given",
    "machine unknown",
    "No problems found.",
    "Findings",
    "Layers",
    "Checks",
    "Facts",
    "Machine:",
    "Findings:",
    "Passed:",
    "not applicable",
    "skipped",
    "(expected {expected})",
    "explains: {ids}",
    "assumption: {assumption}",
    "(assumption: {assumption})",
    "✗ rejected: ",
    "this interpreter",
    "no NVIDIA driver",
    "no AMD GPU",
    "no AMD GPU ({reason})",
    "(JetPack {jetpack}{value})",
    "torch {version}{value}",
    "at {where}",
    # envdoctor fit's table and headings
    "Assumptions",
    "term",
    "formula",
    "total",
    "total per GPU",
    "weights ({dtype})",
    "activations",
    "a GPU",
    "of {vram} GiB",
)
# layer titles of one word (envdoctor.facts.LAYERS)
LAYER_TITLES = (
    "AMD GPU and ROCm",
    "Platform",
    "Intel GPU",
    "Apple GPU",
    "Containers",
    "Applications",
    "Workload",
)
# table headings, looked up one word at a time
HEADINGS = ("fact", "seen", "expected", "layer", "status", "facts")
