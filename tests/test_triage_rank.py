"""Ranking for triage (envdoctor.triage_engine.rank): one consistent story per paste."""

from __future__ import annotations

from envdoctor.model.findings import Finding, Severity
from envdoctor.triage_engine.loader import DATA
from envdoctor.triage_engine.rank import drop_conflicts, rank_for_triage


def _finding(id_: str, score: int | None, origin: str | None, **more: object) -> Finding:
    return Finding(id=id_, severity=Severity.WARNING, title=id_, score=score, origin=origin, **more)


def test_a_fact_check_outweighs_a_prose_guess_it_contradicts() -> None:
    fact = _finding("torch.cpu-build-no-gpu", None, None)  # a fact check: no GPU in the dump
    guess = _finding("torch.cpu-build-on-gpu-host", 24, "signature:torch.cpu-build.prose")
    group = [("torch.cpu-build-on-gpu-host", "torch.cpu-build-no-gpu")]
    assert [f.id for f in drop_conflicts([guess, fact], group)] == ["torch.cpu-build-no-gpu"]


def test_a_similar_case_guess_yields_too() -> None:
    fact = _finding("nvidia.uvm-not-loaded", None, None)
    case = _finding("nvidia.uvm-stale-after-suspend", 30, "case:https://example.org/1")
    group = [("nvidia.uvm-stale-after-suspend", "nvidia.uvm-not-loaded")]
    assert [f.id for f in drop_conflicts([case, fact], group)] == ["nvidia.uvm-not-loaded"]


def test_between_canonical_lines_the_better_score_stays() -> None:
    new = _finding("torch.gpu-too-new-for-build", 80, "signature:torch.new")
    old = _finding("torch.gpu-too-old-for-build", 60, "signature:torch.old")
    group = [("torch.gpu-too-new-for-build", "torch.gpu-too-old-for-build")]
    assert [f.id for f in drop_conflicts([old, new], group)] == ["torch.gpu-too-new-for-build"]


def test_the_shipped_conflicts_hold_the_gpu_presence_and_uvm_pairs() -> None:
    groups = [set(g) for g in DATA.conflicts]
    assert {"torch.cpu-build-on-gpu-host", "torch.cpu-build-no-gpu"} in groups
    assert {"nvidia.uvm-stale-after-suspend", "nvidia.uvm-not-loaded"} in groups


def test_a_cause_stays_above_the_symptom_it_explains() -> None:
    symptom = _finding("app.ollama-cpu-fallback", 70, "signature:app.ollama")
    cause = _finding(
        "cuda.toolkit-newer-than-driver",
        50,
        "signature:cuda.newer",
        explains=("app.ollama-cpu-fallback",),
    )
    ranked = rank_for_triage([symptom, cause])
    assert [f.id for f in ranked] == ["cuda.toolkit-newer-than-driver", "app.ollama-cpu-fallback"]
    assert ranked[1].explained_by == "cuda.toolkit-newer-than-driver"


def test_a_cause_only_similar_cases_suggest_folds_no_finding_with_evidence() -> None:
    from envdoctor.triage_engine.rank import drop_weaker_claims

    # en-0205: the prose names `onnxruntime` installed instead of `onnxruntime-gpu`; a similar
    # case suggests "providers not requested", whose entry explains the CPU package's symptom
    found = _finding(
        "onnxruntime.cpu-package-shadows-gpu", 44, "signature:onnxruntime.cpu-package-shadows-gpu"
    )
    suggested = _finding(
        "onnxruntime.providers-not-requested",
        22,
        "case:https://github.com/danielgatis/rembg/pull/728",
        explains=("onnxruntime.cpu-package-shadows-gpu", "other.symptom"),
    )
    assert drop_weaker_claims([suggested, found])[0].explains == ()  # a suggestion folds nothing
    ranked = rank_for_triage([suggested, found])
    assert [f.id for f in ranked] == [
        "onnxruntime.cpu-package-shadows-gpu",
        "onnxruntime.providers-not-requested",
    ]
    assert all(f.explained_by is None for f in ranked)


def test_a_signature_cause_still_folds_its_symptoms() -> None:
    cause = _finding("a.cause", 60, "signature:a", explains=("b.symptom",))
    symptom = _finding("b.symptom", 70, "signature:b")
    ranked = rank_for_triage([symptom, cause])
    assert [(f.id, f.explained_by) for f in ranked] == [("a.cause", None), ("b.symptom", "a.cause")]


def test_a_prose_guess_folds_no_finding_a_canonical_line_established() -> None:
    from envdoctor.triage_engine.rank import drop_weaker_claims

    # 071: "After a kernel upgrade ... nvidia-smi has failed": the prose "broke after an update"
    # guess must not put itself on top of the causes nvidia-smi's canonical line reaches
    guess = _finding(
        "nvidia.driver-library-mismatch",
        42,
        "signature:nvidia.prose-broke-after-update",
        explains=("nvidia.module-not-built-for-kernel", "nvidia.other-guess"),
    )
    line = _finding(
        "nvidia.module-not-built-for-kernel", 55, "signature:nvidia.smi-cannot-communicate.dkms"
    )
    other = _finding("nvidia.other-guess", 30, "signature:nvidia.other-prose")
    out = drop_weaker_claims([guess, line, other])
    assert out[0].explains == ("nvidia.other-guess",)  # a guess still folds a guess
    assert [f.id for f in rank_for_triage([guess, line, other])][0] == line.id


def test_the_symptoms_a_cause_explains_do_not_depend_on_the_phrasing_that_reached_it() -> None:
    from envdoctor.triage_engine import triage_text

    # zh-1028: the OOM is told in prose (CUDA内存不足), and so is its cause: another process
    # (VeCarRecoServer) holds the card's memory. The Chinese entry of the held-memory cause
    # folds the OOM as the canonical entry does.
    report = triage_text(
        "我是下载的最新的代码进行的训练，但出现了CUDA内存不足的问题，见下图。\n"
        "使用的GPU是Telsa T4 16G\n"
        "我运行nvidia-smi，发现有个VeCarRecoServer进程，把所有内存基本全吃了，杀掉再运行训练的"
        "命令，又会出现这个进程，请问这个进程是什么呢？怎么控制显存大小呢？\n"
    )
    ids = [f.id for f in report.findings]
    assert ids[0] == "memory.held-by-other-process", ids
    oom = next(f for f in report.findings if f.id == "memory.out-of-memory")
    assert oom.explained_by == "memory.held-by-other-process"
