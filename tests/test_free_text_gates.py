"""The free-text reader's gates (`free_text_vocabulary.*_GATE`): a pattern is only run on a line
holding one of its gate words, so each gate must be a necessary condition of its pattern. Checked
against the literals the signature engine finds every match must contain."""

from __future__ import annotations

import re

import pytest

from envdoctor.ingest import free_text_vocabulary as vocabulary
from envdoctor.ingest.free_text import read
from envdoctor.triage_engine.patterns import _required_literals, sre_parse

GATED = [
    ("ERROR_LINE", "ERROR_GATE"),
    ("ENVIRONMENT", "ENVIRONMENT_GATE"),
    ("KEY_VALUE", "KEY_VALUE_GATE"),
    ("MENTION", "MENTION_GATE"),
    ("CUDA_DRIVER", "CUDA_DRIVER_GATE"),
    ("NVCC", "NVCC_GATE"),
    ("GPU_HINT_REST", "GPU_HINT_REST_GATE"),
]


@pytest.mark.parametrize(("pattern", "gate"), GATED, ids=[p for p, _ in GATED])
def test_every_match_holds_a_gate_word(pattern, gate):
    regex: re.Pattern = getattr(vocabulary, pattern)
    words: tuple[str, ...] = getattr(vocabulary, gate)
    literals = _required_literals(sre_parse.parse(regex.pattern, regex.flags))
    assert literals, f"{pattern} has no literal every match contains: it cannot be gated"
    folds = bool(regex.flags & re.IGNORECASE)
    for literal in literals:
        if folds and not literal.isascii():
            continue  # a line that is not ASCII skips the gate of a case-insensitive pattern
        assert any(word in literal for word in words), (pattern, literal)
    assert all(word == word.lower() for word in words)


def test_gpu_hint_halves_are_the_whole_pattern():
    whole = set(vocabulary.GPU_HINT.pattern.split("|"))
    halves = set(vocabulary.GPU_HINT_WORDS) | set(vocabulary.GPU_HINT_REST.pattern.split("|"))
    assert whole == halves
    assert all(re.escape(word) == word for word in vocabulary.GPU_HINT_WORDS)


def test_case_folding_beyond_lower_still_reaches_the_pattern():
    # "ſ" (long s) matches "s" when case is ignored but is not lowercase "s": the gate must not
    # hide such a line from a case-insensitive pattern
    group = read("torch import: shape miſmatch in layer 3\n")[0]
    assert group.data["errors"] == ["torch import: shape miſmatch in layer 3"]
    assert vocabulary.ERROR_LINE.search("shape miſmatch")


def test_gated_lines_give_the_facts_they_gave_before():
    text = (
        "RuntimeError: CUDA error: no kernel image is available\n"
        "| NVIDIA-SMI 550.54.14   Driver Version: 550.54.14   CUDA Version: 12.4 |\n"
        "Cuda compilation tools, release 12.1, V12.1.105\n"
        "torch version: 2.3.1+cu121, xformers 0.0.26 on Ubuntu 22.04 under WSL2\n"
        "time=2025-06-01T12:00:00Z level=INFO source=gpu.go:221 msg=ollama compute=8.6\n"
    )
    data = read(text)[0].data
    assert data["errors"] == ["RuntimeError: CUDA error: no kernel image is available"]
    assert data["system_versions"]["cuda_driver"] == "12.4"
    assert data["system_versions"]["nvcc"] == "12.1"
    assert data["versions"]["torch"] == "2.3.1+cu121" and data["versions"]["xformers"] == "0.0.26"
    assert {"wsl", "linux"} <= set(data["os_mentions"]) and "ollama" in data["apps"]
