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
