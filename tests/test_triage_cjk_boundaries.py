"""English words written flush against Chinese characters ("在WSL2里面", "装了torch之后") are still
words: Python's `\\b` treats CJK characters as word characters, so signature, cue, condition and
prose patterns are compiled with re.ASCII, where only ASCII letters and digits make a word."""

from __future__ import annotations

from envdoctor.triage_engine.conditions import parse_condition
from envdoctor.triage_engine.model import Pattern
from envdoctor.triage_engine.prose import prose_facts


def test_prose_context_next_to_chinese() -> None:
    facts = prose_facts(["在WSL2里面跑的，用的conda环境"])
    assert facts.get("os.wsl") is True and facts.get("ctx.conda") is True


def test_signature_pattern_next_to_chinese() -> None:
    pattern = Pattern(r"\btorch\b", ("torch",))
    line = "装了torch之后还是用不了显卡"
    assert pattern.search(line, line.lower()) is not None
    # and a word inside a longer English word is still not a word
    assert Pattern(r"\btorch\b", ("torch",)).search("pytorchx", "pytorchx") is None


def test_text_condition_next_to_chinese() -> None:
    (clauses,) = parse_condition(r"text ~ '\bnvidia-driver-\d{3}\b'").alternatives
    (clause,) = clauses
    assert clause.pattern is not None and clause.pattern.search(
        "我在ubuntu里面装了nvidia-driver-535"
    )


def test_memory_use_is_not_memory_held_by_another_process() -> None:
    """ "显存占用" / "GPU占用率" name how much is used, not who holds it: only "被…占用",
    "占用着" or another process holding it point to a process that keeps the memory."""
    from envdoctor.commands.triage import triage_text

    def ids(text: str) -> list[str]:
        return [f.id for f in triage_text(text).findings]

    used = (
        "训练的时候GPU占用率为0，显存占用也很低，一直用CPU跑，torch.cuda.is_available() 返回 False"
    )
    assert "memory.held-by-other-process" not in ids(used)
    held = "程序退出后显存还是被占用，nvidia-smi 看不到进程，没有释放"
    assert ids(held)[:1] == ["memory.held-by-other-process"]


def test_gpu_named_flush_against_chinese() -> None:
    from envdoctor.ingest import free_text

    (group,) = free_text.read("我的显卡是RTX 4090，在A100上也一样，另一台是RX6600")
    assert group.data is not None
    assert group.data["gpus"] == [
        "NVIDIA GeForce RTX 4090",
        "NVIDIA A100",
        "AMD Radeon RX 6600",
    ]
