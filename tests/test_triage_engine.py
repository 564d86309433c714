"""The triage engine (envdoctor/triage): facts from prose, cues that reach a cause without its
canonical line, one pass over the causes, consistent fixes, and the case base."""

from __future__ import annotations

from pathlib import Path

import pytest

from envdoctor.ingest import ingest_text
from envdoctor.model.findings import Fix
from envdoctor.triage_engine import evaluate, triage_text
from envdoctor.triage_engine.casebase import similar_cases, words_of
from envdoctor.triage_engine.facts import Facts
from envdoctor.triage_engine.prose import prose_facts
from envdoctor.triage_engine.remedies import installed_wheel_fix

CORPUS = Path(__file__).resolve().parent / "triage_corpus"


def _line(case: str, needle: str) -> str:
    """A real line of a corpus case (the case file is the line's source)."""
    path = next(CORPUS.glob(case))
    return next(line for line in path.read_text(encoding="utf-8").splitlines() if needle in line)


def test_driver_cuda_from_found_version() -> None:
    # source: tests/triage_corpus/069-gpt-sovits-zh-driver-too-old-11040.txt
    line = _line("069-*.txt", "found version 11040")
    assert prose_facts([line])["driver.cuda_max"] == "11.4"


def test_cudnn_compiled_and_loaded_versions() -> None:
    # source: tests/triage_corpus/train/en-0026-jax-0.4.7-cudnn-8.5-but-built-8.6.txt
    line = _line("train/en-0026-*.txt", "source was compiled with")
    facts = prose_facts([line])
    assert facts["cudnn.compiled"] == "8.6.0"
    assert facts["cudnn.version"] == "8.5.0"


def test_environment_assignments_in_scripts() -> None:
    # source: tests/triage_corpus/058-swarmui-rocr-and-hip-visible-devices-mask-all.txt
    line = _line("058-*.txt", "export ROCR_VISIBLE_DEVICES=1")
    assert prose_facts([line])["env"] == {"ROCR_VISIBLE_DEVICES": "1"}


@pytest.mark.parametrize(
    ("line", "fact", "value"),
    [
        # the phrasings issue #20 quotes from real reports
        ("驱动版本 470，显卡是 GTX 1080", "driver.version", "470"),
        (
            "| NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2 |",
            "driver.cuda_max",
            "12.2",
        ),
    ],
)
def test_versions_in_other_phrasings(line: str, fact: str, value: str) -> None:
    assert prose_facts([line])[fact] == value


def test_context_from_prose() -> None:
    facts = prose_facts(["sbatch job.sh on our Slurm cluster", "inside Docker Desktop on Ubuntu"])
    assert facts["ctx.slurm"] is True and facts["ctx.docker_desktop"] is True
    assert "ctx.kubernetes" not in facts


def test_prose_alone_reaches_a_cause() -> None:
    text = "On Windows I have to change demo.py to use gloo instead of nccl for multi-GPU training"
    ids = [f.id for f in triage_text(text).findings]
    assert ids[0] == "nccl.windows-no-nccl"


def test_a_negative_cue_lowers_a_cause() -> None:
    # docker permission errors on the socket are not Docker Desktop's VM
    text = (
        "docker: permission denied while trying to connect to the Docker daemon socket at "
        "unix:///var/run/docker.sock; works with sudo. Docker Desktop? no, docker-ce on Ubuntu"
    )
    ids = [f.id for f in triage_text(text).findings[:1]]
    assert ids == ["container.docker-permission-denied"]


def test_findings_carry_score_and_origin() -> None:
    text = "RuntimeError: CUDA error: no kernel image is available for execution on the device"
    finding = triage_text(text).findings[0]
    assert finding.origin is not None and finding.origin.startswith("signature:")
    assert finding.score is not None and finding.score > 0


def test_every_cause_is_evaluated_once_per_paste(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: dict[str, int] = {}
    original = evaluate.evaluate

    def counting(signature, facts):  # noqa: ANN001, ANN202
        calls[signature.key] = calls.get(signature.key, 0) + 1
        return original(signature, facts)

    monkeypatch.setattr(evaluate, "evaluate", counting)
    triage_text("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB")
    assert calls and max(calls.values()) == 1


def test_the_installed_wheel_is_never_proposed() -> None:
    snap = ingest_text("torch 2.5.1+cu124\nRuntimeError: CUDA error: no kernel image is available")
    facts = Facts(snap)
    assert facts.get("torch.variant") == "cu124"
    same = Fix(
        "reinstall", ("pip install torch --index-url https://download.pytorch.org/whl/cu124",)
    )
    other = Fix("switch", ("pip install torch --index-url https://download.pytorch.org/whl/cu128",))
    assert installed_wheel_fix(same, facts) and not installed_wheel_fix(other, facts)


def test_similar_cases_need_enough_shared_words() -> None:
    rows = [
        {
            "cause": "nccl.shm-too-small",
            "words": sorted(
                words_of(
                    [
                        "misc/shmutils.cc:72 NCCL WARN Error: failed to extend /dev/shm/nccl-m8oJrl to 9637892 bytes"
                    ]
                )
            ),
        },
        {
            "cause": "memory.out-of-memory",
            "words": ["outofmemoryerror", "allocate", "capacity", "reserved"],
        },
    ]
    close = similar_cases(
        [
            "misc/shmutils.cc:60 NCCL WARN Error: failed to extend /dev/shm/nccl-Q2x to 1048576 bytes"
        ],
        rows,
    )
    assert [row["cause"] for _, row in close] == ["nccl.shm-too-small"]
    assert similar_cases(["all good, training finished"], rows) == []


def test_triage_shows_the_closest_confirmed_case() -> None:
    line = _line("069-*.txt", "found version 11040")
    evidence = [
        e for f in triage_text(line).findings for e in f.evidence if e.fact == "similar.case"
    ]
    assert evidence and evidence[0].actual.startswith("https://")


class _Table:
    def __init__(self, rows: list[dict[str, object]]) -> None:
        self.rows = rows


class _OneTable:
    """The matrix set's interface as the case base reads it: one table."""

    def __init__(self, rows: list[dict[str, object]]) -> None:
        self._table = _Table(rows)

    def has(self, name: str) -> bool:
        return name == "triage_cases"

    def table(self, name: str) -> _Table:
        return self._table


def test_cases_suggest_a_cause_only_when_nothing_matched() -> None:
    from envdoctor.diagnosis.pipeline import active_matrices
    from envdoctor.triage_engine.casebase import suggested_by_cases

    text = "frobnicator: widget queue stalled on gpu0 (stage three), widget queue stalled again"
    words = sorted(words_of([text]))
    row = {"cause": "nvidia.uvm-not-loaded", "words": words, "source": "https://x/1", "fix": "f"}
    snap = ingest_text(text)
    found = suggested_by_cases(snap, _OneTable([row]))
    assert [f.id for f in found] == ["nvidia.uvm-not-loaded"]
    assert found[0].origin == "case:https://x/1"
    assert found[0].evidence[0].fact == "similar.case"
    # the shipped case base does not turn a healthy log into a diagnosis
    healthy = ingest_text("epoch 1/10 loss=0.42\nSaving checkpoint to /tmp/model.pt\n")
    assert suggested_by_cases(healthy, active_matrices()) == []


def test_a_signature_folds_only_the_symptoms_its_own_entry_lists() -> None:
    # the unattended-upgrade entry of the driver/library mismatch explains an unbuilt module
    # (the upgrade is the root of both); a mismatch reached by "broke after an update" prose
    # does not, so a kernel update's unbuilt module is not folded under it
    from envdoctor.triage_engine import triage_text

    report = triage_text("内核升级以后 nvidia-smi 就用不了了，重装驱动才好")
    module = next(f for f in report.findings if f.id == "nvidia.module-not-built-for-kernel")
    assert module.explained_by is None


_TWO_ENTRIES = """schema_version = 1

[[signature]]
id = "test.widget-broken"
key = "test.widget-broken.line"
severity = "error"
score = 60
title = "The widget is broken"
detail = "A test cause, by its canonical line."
match = ["widget frobnication failed"]
example = "ERROR: widget frobnication failed"
sources = ["https://example.org/a"]
[[signature.fix]]
summary = "Reinstall the widget"
commands = ["pip install --force-reinstall widget"]

[[signature]]
id = "test.widget-broken"
key = "test.widget-broken.prose"
severity = "error"
title = "The widget is broken"
detail = "A test cause, in words."
cues = [{ any = ["widget (?:stopped|broke)"], weight = 40 }]
prose_min = 30
example = "my widget stopped after the update"
sources = ["https://example.org/b"]
[[signature.fix]]
summary = "Pin the widget release that worked: widget==1.2"
commands = ["pip install 'widget==1.2'"]
"""


def test_a_cause_lists_the_fixes_of_each_of_its_entries_that_applied(tmp_path: Path) -> None:
    from envdoctor.triage_engine import loader

    (tmp_path / "t.toml").write_text(_TWO_ENTRIES, encoding="utf-8")
    data = loader.load(tmp_path)
    assert not data.errors
    snap = ingest_text("my widget stopped after the update\nERROR: widget frobnication failed")
    (finding,) = evaluate.signature_findings(snap, signatures=data.signatures)
    # the canonical line's entry ranks the finding; the phrasing's entry adds the knob its
    # threads turned (en-1076: the torch release the extension was built for)
    assert finding.origin == "signature:test.widget-broken.line"
    assert [f.summary for f in finding.fixes] == [
        "Reinstall the widget",
        "Pin the widget release that worked: widget==1.2",
    ]
    # only the entries that applied
    snap = ingest_text("ERROR: widget frobnication failed")
    (finding,) = evaluate.signature_findings(snap, signatures=data.signatures)
    assert [f.summary for f in finding.fixes] == ["Reinstall the widget"]


def test_unknown_cuda_versions_read_as_a_version_to_look_up() -> None:
    """Without the driver, "CUDA {{driver.cuda_max}} or older" names where to read the version
    (nvidia-smi's CUDA Version), never "for CUDA an older CUDA or older"."""
    report = triage_text(
        "CUDA error: the provided PTX was compiled with an unsupported toolchain\n"
    )
    texts = " ".join(fix.summary for f in report.findings for fix in f.fixes)
    assert "CUDA X.Y (nvidia-smi's CUDA Version) or older" in texts
    assert "CUDA an older CUDA" not in texts


def test_a_cuda_code_capture_names_the_driver_of_the_pastes_os() -> None:
    # "maximum supported version is 12040 but ... requires 12060": the driver that reports CUDA
    # 12.6 differs by OS (the cuda_driver table's columns), and the paste's paths tell the OS
    from envdoctor.matrix.loader import load_bundled
    from envdoctor.queries import nvidia

    ms = load_bundled()
    line = "RuntimeError: maximum supported version is 12040 but requires 12060"
    windows = Facts(ingest_text(f'{line}\nFile "C:\\Users\\me\\app\\main.py", line 3'), ms)
    linux = Facts(ingest_text(line), ms)
    decoded = {
        name: evaluate._with_decoded_versions({"need_code": "12060"}, facts)
        for name, facts in (("windows", windows), ("linux", linux))
    }
    assert decoded["linux"]["need"] == decoded["windows"]["need"] == "12.6"
    assert decoded["linux"]["need_driver"] == nvidia.min_driver_for_cuda(ms, "12.6", "linux")
    assert decoded["windows"]["need_driver"] == nvidia.min_driver_for_cuda(ms, "12.6", "windows")
    assert decoded["linux"]["need_driver"] != decoded["windows"]["need_driver"]
