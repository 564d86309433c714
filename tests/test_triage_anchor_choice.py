"""A pattern is anchored on its most telling literal: a word every log line may hold ("failed",
"error") makes every such line notable, so another required literal is preferred when there is
one, and the anchors' cache is keyed on the analysing code so a change of rule is never served
stale anchors."""

from __future__ import annotations

from pathlib import Path

import pytest

from envdoctor.triage_engine import loader, patterns
from envdoctor.triage_engine.model import SignatureError


@pytest.mark.parametrize(
    "pattern, anchors",
    [
        (r"fans? (?:speed|stopped|failed|not spinning)", ("fan",)),
        (r"NET/IB\w{0,3} ?: .{0,40}ibv_\w{3,30} failed", ("net/ib",)),
        (
            r"(?:error|错误|代码)\s*43\b",
            ("error", "代码", "错误"),
        ),  # nothing better: still anchored
        (r"cudaErrorNoKernelImageForDevice", ("cudaerrornokernelimagefordevice",)),
    ],
)
def test_anchor_choice(pattern: str, anchors: tuple[str, ...]) -> None:
    assert patterns.anchors_of(pattern) == anchors


def test_a_pattern_of_common_words_only_is_still_refused_when_too_short() -> None:
    with pytest.raises(SignatureError):
        patterns.anchors_of(r"\bok\b")


def test_the_cache_key_follows_the_analysing_code(tmp_path, monkeypatch) -> None:
    """Another anchor rule (an edited patterns.py) gives another key: cached anchors of the old
    rule are never served."""
    shipped = loader._analysis_digest()
    assert shipped == loader._analysis_digest()  # stable while the code is
    edited = tmp_path / "patterns.py"
    edited.write_bytes(Path(patterns.__file__).read_bytes() + b"\n# another rule\n")
    monkeypatch.setattr(patterns, "__file__", str(edited))
    assert loader._analysis_digest() != shipped


def test_no_notable_anchor_is_a_bare_short_number() -> None:
    """A card or model number alone ("1080", "310") is in step counters and timestamps of every
    long log: such a cue says `notable = false`, or spells the name ("a310", "gtx 1080")."""
    import re

    short_numbers = [a for a in loader.anchors() if re.fullmatch(r"[\d .]{1,5}", a)]
    assert short_numbers == []


def test_the_other_required_literals_spare_compiling_a_pattern() -> None:
    """Besides its anchors, a pattern keeps its other required literal sets: a line with an
    anchor but none of another set cannot match, so the expression is never compiled for it."""
    text = r"(?:can't|cannot|unable to) use (?:the )?gpu\b.{0,40}(?:not used|on the cpu)"
    pattern = patterns.compile_pattern(text)
    assert pattern.also and all(pattern.also)
    assert "regex" not in pattern.__dict__
    assert pattern.search("I use the GPU every day", "i use the gpu every day") is None
    assert "regex" not in pattern.__dict__  # a common word alone: nothing compiled
    line = "I cannot use the GPU: it runs on the CPU"
    assert pattern.search(line, line.lower()) is not None


@pytest.mark.parametrize(
    "text, line",
    [
        (
            r"CUDA error: no kernel image is available",
            "RuntimeError: CUDA error: no kernel image is available",
        ),
        (
            r"(?:nvidia|nvrm).{0,40}(?:xid|fallen off)",
            "NVRM: Xid (PCI:0000:01:00): 79, GPU has fallen off the bus",
        ),
        (r"驱动(?:版本)?(?:太低|过低|太旧)", "显卡驱动版本太低了"),
        (r"[Kk]ernel (?:module|driver) (?:not loaded|missing)", "nvidia kernel module not loaded"),
    ],
)
def test_the_literal_sets_never_refuse_a_line_the_expression_matches(text: str, line: str) -> None:
    pattern = patterns.compile_pattern(text)
    assert pattern.regex.search(line) is not None
    assert pattern.search(line, line.lower()) is not None
