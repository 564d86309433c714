"""Family fallbacks (checks/signatures/families.toml): prose without a canonical error line
reaches the family's common causes at a low score, and fixes name the wheel tag, driver floor or
package version the paste's facts point to (envdoctor/triage_engine/wheel_tags.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from envdoctor.diagnosis.pipeline import active_matrices
from envdoctor.ingest import ingest_text
from envdoctor.triage_engine import evaluate, triage_text
from envdoctor.triage_engine.prose import prose_facts
from envdoctor.triage_engine.wheel_tags import cuda_wheel_tag
from tests.triage_lines import finding_ids

CORPUS = Path(__file__).resolve().parent / "triage_corpus"


def _body(case: str) -> str:
    """The pasted body of a training case (the case file is the text's source)."""
    path = next((CORPUS / "train").glob(case))
    return path.read_text(encoding="utf-8").split("#! ---", 1)[1]


def test_gpu_not_used_in_english_gives_the_two_common_torch_causes() -> None:
    # source: tests/triage_corpus/train/en-0046-nas-without-training-env-yml-driver-too-old.txt
    ids = finding_ids(_body("en-0046-*.txt"))
    assert ids[:2] == ["torch.cpu-build-on-gpu-host", "torch.driver-too-old"]


def test_gpu_not_used_in_chinese_alone_still_gives_a_finding() -> None:
    # source: tests/triage_corpus/train/zh-0007-gpt-sovits-gpu-not-usable-prose-update-driver.txt
    report = triage_text(_body("zh-0007-*.txt"))
    assert "torch.driver-too-old" in [f.id for f in report.findings][:3]
    assert all((f.score or 0) < 45 for f in report.findings if f.id.startswith("torch."))


def test_another_framework_keeps_the_torch_fallback_away() -> None:
    ids = finding_ids("paddleocr runs on the CPU although paddlepaddle-gpu is installed")
    assert ids[0] == "paddle.cpu-package-installed"
    assert "torch.cpu-build-on-gpu-host" not in ids


def test_a_canonical_line_outranks_the_fallbacks() -> None:
    text = (
        "torch.cuda.is_available() returns False, the GPU is not used\n"
        "AssertionError: Torch not compiled with CUDA enabled\n"
    )
    report = triage_text(text)
    top = report.findings[0]
    assert top.id == "torch.cpu-build-on-gpu-host"
    assert top.origin == "signature:torch.not-compiled-with-cuda"


def test_torch_install_talk_without_a_symptom_is_not_a_finding() -> None:
    assert finding_ids("pip install torch==2.3.1+cpu finished, PyTorch version: 2.3.1+cpu") == []


def test_cpu_build_fix_names_the_cu_tag_of_the_pinned_toolkit() -> None:
    # source: tests/triage_corpus/train/en-0172-hoistformer-conda-cpu-pytorch19.txt
    report = triage_text(_body("en-0172-*.txt"))
    top = report.findings[0]
    assert top.id == "torch.cpu-build-on-gpu-host"
    # torch 1.9 wheels were served from a -f page (matrices/torch_releases pip_find_links): the
    # command pins the pinned toolkit's tag, torch==1.9.1+cu111, as pytorch.org's page does
    assert any("+cu111 -f https://" in c for fix in top.fixes for c in fix.commands)


def test_wheel_tag_comes_from_the_release_variants() -> None:
    ms = active_matrices()
    # torch 2.3 published cu118 and cu121 (matrices/torch_releases): CUDA 12.4 -> cu121
    values = {"torch.version": "2.3.0", "cuda.runtime": "12.4"}
    assert cuda_wheel_tag(ms, values, None) == "cu121"
    assert (
        cuda_wheel_tag(ms, {"torch.version": "2.3.0", "driver.cuda_max": "11.8"}, None) == "cu118"
    )
    assert cuda_wheel_tag(ms, {"torch.version": "2.3.0"}, None) is None  # no CUDA named
    # a driver older than every variant of the release: no tag rather than a made-up one
    assert cuda_wheel_tag(ms, {"torch.version": "2.3.0", "driver.cuda_max": "10.2"}, None) is None


def test_pinned_toolkit_is_read_from_prose() -> None:
    line = "conda install pytorch==1.9.0 torchvision==0.10.0 cudatoolkit=11.1 -c pytorch"
    assert prose_facts([line])["cuda.pinned"] == "11.1"


def test_paddle_fix_names_the_installed_version() -> None:
    # source: tests/triage_corpus/train/en-0097-paddleocr-v5-cpu-inference-paddlepaddle-gpu-3.1.txt
    top = triage_text(_body("en-0097-*.txt")).findings[0]
    assert top.id == "paddle.cpu-package-installed"
    assert any("paddlepaddle-gpu==3.1.0" in c for fix in top.fixes for c in fix.commands)


def test_fallbacks_score_below_canonical_lines() -> None:
    from envdoctor.triage_engine.loader import DATA

    fallbacks = [s for s in DATA.signatures if s.origin == "families.toml"]
    assert fallbacks and all(not s.match and s.prose_max == 44 for s in fallbacks)
    # many stacked cues (symptom, CPU-version talk, install hints) still score at most prose_max
    text = (
        "torch.cuda.is_available() returns False, pytorch runs on the CPU, pip install torch "
        "installed the CPU version, the GPU is not used after the update"
    )
    snap = ingest_text(text)
    matches = evaluate.match_all(snap, signatures=fallbacks)
    assert matches[0].signature.id == "torch.cpu-build-on-gpu-host"
    assert all(m.score <= 44 for m in matches)


# How people describe these problems in their own words (written for this test, not taken from
# the corpus): each reaches its family's common cause in the top three.
PHRASINGS = [
    ("My PyTorch isn't using the GPU", "torch.cpu-build-on-gpu-host"),
    ("显卡没用上，用的是CPU", "torch.cpu-build-on-gpu-host"),
    ("装了cuda但是torch用不了gpu", "torch.cpu-build-on-gpu-host"),
    ("训练时显存不够，怎么办", "memory.out-of-memory"),
    ("升级系统后nvidia-smi用不了了", "nvidia.driver-library-mismatch"),
    ("重启后驱动没了，nvidia-smi 报错", "nvidia.module-not-built-for-kernel"),
    (
        "After upgrading the kernel, the nvidia driver no longer loads",
        "nvidia.module-not-built-for-kernel",
    ),
    ("The docker container can't see my GPU", "container.no-nvidia-runtime"),
    ("In WSL2 nvidia-smi is not found", "wsl.lib-not-on-loader-path"),
    ("NCCL hangs at the first allreduce with 8 GPUs", "nccl.p2p-broken-acs-iommu"),
    ("tensorflow doesn't detect my gpu on windows 11", "tensorflow.windows-native-no-gpu"),
    ("ollama is not using my GPU", "app.ollama-cpu-fallback"),
]


@pytest.mark.parametrize(("text", "expected"), PHRASINGS)
def test_plain_descriptions_reach_the_family(text: str, expected: str) -> None:
    assert expected in finding_ids(text)[:3]


def test_cpu_work_by_design_is_not_a_symptom() -> None:
    assert (
        finding_ids("The preprocessing step runs on the CPU by design; then training starts.") == []
    )


def test_common_word_cues_do_not_make_lines_notable(tmp_path: Path) -> None:
    from envdoctor.triage_engine.loader import load

    (tmp_path / "x.toml").write_text(
        """schema_version = 1
[[signature]]
id = "test.prose"
severity = "warning"
title = "t"
match = []
cues = [{ any = ['zzqtopic'], weight = 30 }, { any = ['common phrasing'], weight = 20, notable = false }]
example = "zzqtopic with a common phrasing"
[[signature.fix]]
summary = "f"
""",
        encoding="utf-8",
    )
    data = load(tmp_path)
    assert data.errors == ()
    kept = {a for p in data.signatures[0].patterns() for a in p.anchors}
    assert "zzqtopic" in kept and "common phrasing" not in kept
    # the cue still counts on the lines kept for other words
    assert len(data.signatures[0].cues[1].patterns) == 1
