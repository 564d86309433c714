"""Traditional Chinese is read as the Simplified Chinese the cues are written in
(envdoctor.ingest.hant): a report from Taiwan or Hong Kong reaches the same facts and causes."""

from __future__ import annotations

from pathlib import Path

import tomllib

from envdoctor.ingest import ingest_text
from envdoctor.ingest.hant import TABLE, to_simplified
from envdoctor.triage_engine import triage_text
from envdoctor.triage_engine.facts import Facts

ROOT = Path(__file__).resolve().parent.parent


def test_traditional_characters_become_simplified_and_the_rest_stays() -> None:
    assert to_simplified("顯卡驅動版本 470，報錯") == "显卡驱动版本 470，报错"
    assert (
        to_simplified("CUDA error: out of memory (記憶體)") == "CUDA error: out of memory (记忆体)"
    )
    # characters Simplified text keeps as they are
    assert to_simplified("覆盖 显著 了解 打印") == "覆盖 显著 了解 打印"


def test_simplified_text_is_unchanged() -> None:
    # the Simplified Chinese of the training reports: no character of theirs is in the table
    # except the Traditional ones a few reports paste (a Traditional Windows message, 什麼)
    text = "我的显卡是3090，驱动版本是535，装了cuda12.1，torch报错说找不到GPU，怎么办"
    assert to_simplified(text) == text


def test_a_traditional_report_reaches_the_facts_a_simplified_one_does() -> None:
    traditional = Facts(ingest_text("顯卡是3090，驅動版本 470\nCUDA error"))
    simplified = Facts(ingest_text("显卡是3090，驱动版本 470\nCUDA error"))
    for fact in ("gpu.name", "driver.version", "driver.cuda_max"):
        assert traditional.get(fact) == simplified.get(fact) is not None


def test_a_traditional_report_reaches_the_cause_a_simplified_one_does() -> None:
    words = "裝了cpu版本的pytorch，顯卡用不了\nAssertionError: Torch not compiled with CUDA enabled"
    simplified = to_simplified(words)
    assert words != simplified
    ids = [f.id for f in triage_text(words).findings][:3]
    assert ids == [f.id for f in triage_text(simplified).findings][:3]
    assert "torch.cpu-build-on-gpu-host" in ids


def _patterns(signature: dict) -> list[str]:
    cues = [p for cue in signature.get("cues", []) for p in cue.get("any", [])]
    return [*signature.get("match", []), *cues]


def test_every_signature_pattern_is_written_as_normalised_text_reads() -> None:
    # a pattern in Traditional characters would never meet a normalised paste
    stale = [
        f"{path.name}: {pattern}"
        for path in sorted((ROOT / "checks" / "signatures").glob("*.toml"))
        for signature in tomllib.loads(path.read_text(encoding="utf-8")).get("signature", [])
        for pattern in _patterns(signature)
        if pattern.translate(TABLE) != pattern
    ]
    assert not stale


def test_the_traditional_windows_defender_message_is_read() -> None:
    line = "[WinError 225] 無法順利完成作業，因為檔案包含病毒或潛在的垃圾軟體。"
    assert "windows.defender-blocks-file" in [f.id for f in triage_text(line).findings]
