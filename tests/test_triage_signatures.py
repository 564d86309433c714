"""Error signatures as data: loading, patterns, conditions, and how facts steer the ranking."""

from __future__ import annotations

import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from envdoctor.checks import signatures as signature_checks
from envdoctor.commands.triage import triage_text
from envdoctor.ingest import free_text
from envdoctor.model.snapshot import Confidence, Snapshot, collected
from envdoctor.triage_engine.conditions import evaluate_condition, parse_condition
from envdoctor.triage_engine.evaluate import NO_MATCH_ID, match_all, to_finding
from envdoctor.triage_engine.facts import Facts
from envdoctor.triage_engine.loader import DATA, load
from envdoctor.triage_engine.model import Signature, SignatureError
from envdoctor.triage_engine.patterns import compile_pattern

# the engine's names the tests use, in one place (the engine is split into small modules)
sig = SimpleNamespace(
    CHECKS=signature_checks.CHECKS,
    DATA=DATA,
    Facts=Facts,
    NO_MATCH_ID=NO_MATCH_ID,
    Signature=Signature,
    SignatureError=SignatureError,
    compile_pattern=compile_pattern,
    evaluate_condition=evaluate_condition,
    load=load,
    match_all=match_all,
    parse_condition=parse_condition,
    to_finding=to_finding,
)

ALL = sig.DATA.signatures
REQUIRED_IDS = {
    "torch.cpu-build-on-gpu-host",
    "torch.driver-too-old",
    "torch.gpu-too-new-for-build",
    "torch.gpu-too-old-for-build",
    "torch.companion-mismatch",
    "torch.extension-abi-mismatch",
    "nvidia.driver-library-mismatch",
    "nvidia.no-driver-bound",
    "nvidia.nouveau-loaded",
    "nvidia.module-not-built-for-kernel",
    "nvidia.secure-boot-blocks-module",
    "nvidia.uvm-not-loaded",
    "nvidia.xid-fallen-off-bus",
    "nvidia.pcie-link-degraded",
    "nvidia.fabric-manager-not-running",
    "nvidia.mig-device-selection",
    "nvidia.vgpu-unlicensed",
    "nvidia.gpu-crash-dump",
    "nvidia.fan-control-headless",
    "cuda.ld-library-path-shadows-wheel",
    "cuda.conda-pip-cuda-mixed",
    "cuda.cudnn-missing",
    "cuda.visible-devices-hide-gpus",
    "container.no-nvidia-runtime",
    "container.cdi-no-gpu-vendor",
    "container.nvml-library-not-found",
    "container.cuda-requirement-unsatisfied",
    "container.nvml-unknown-error-cgroup",
    "container.no-gpus-injected",
    "wsl.libcuda-not-symlink",
    "wsl.software-rendering",
    "wsl.linux-driver-inside-wsl",
    "app.ollama-cpu-fallback",
    "rocm.kfd-permission",
    "rocm.no-binary-for-gpu",
    "rocm.gfx-unsupported",
    "rocm.visible-devices-hide-gpus",
    "memory.out-of-memory",
    "tensorflow.windows-native-no-gpu",
    "jax.cuda-backend-failed",
    "jetson.pypi-wheel",
    "windows.device-removed-tdr",
    "windows.d3d11-required",
    "bitsandbytes.cuda-setup-failed",
    "nvidia.uvm-stale-after-suspend",
    "cuda.toolkit-newer-than-driver",
    "cuda.toolkits-disagree",
}
BENIGN = """\
Mon Dec  2 10:00:00 2024
Loading checkpoint shards: 100%|##########| 4/4 [00:03<00:00,  1.10it/s]
INFO:     Started server process [1234]
INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)
epoch 1/10 loss=0.4213 lr=3e-4
"""


def _pasted(text: str, *groups) -> Snapshot:
    snap = Snapshot(origin="pasted")
    for group in free_text.read(text):
        snap.add(group)
    for group in groups:
        snap.add(group)
    return snap


def test_data_loads_without_errors() -> None:
    assert sig.DATA.errors == ()
    assert len(ALL) >= 60


def test_every_required_cause_has_a_signature() -> None:
    assert {s.id for s in ALL} >= REQUIRED_IDS


def test_each_signature_becomes_one_check_per_id() -> None:
    ids = [c.ids[0] for c in sig.CHECKS]
    assert len(ids) == len(set(ids))
    assert set(ids) == {s.id for s in ALL} | {sig.NO_MATCH_ID}
    assert all(c.needs == ("pasted.text",) for c in sig.CHECKS)


@pytest.mark.parametrize("signature", ALL, ids=lambda s: s.key)
def test_example_matches_its_own_patterns(signature: sig.Signature) -> None:
    for example in signature.examples:
        # a canonical line, or for a cause reached by prose alone one of its cue phrasings
        patterns = signature.match or [p for cue in signature.cues for p in cue.patterns]
        assert any(p.search(example, example.lower()) for p in patterns), example
        kept = free_text.read(example)[0].data["lines"]
        assert kept, f"the free-text reader drops the example line of {signature.key}"


def test_benign_log_matches_no_signature() -> None:
    assert sig.match_all(_pasted(BENIGN)) == []
    report = triage_text(BENIGN)
    assert [f.id for f in report.findings if f.id != sig.NO_MATCH_ID] == []


def test_every_pattern_has_anchors_of_three_characters() -> None:
    for signature in ALL:
        for pattern in signature.patterns():
            assert pattern.anchors and min(len(a) for a in pattern.anchors) >= 2, pattern.text


def test_loader_refuses_catastrophic_patterns() -> None:
    with pytest.raises(sig.SignatureError):
        sig.compile_pattern(r"(a+)+b failed")
    with pytest.raises(sig.SignatureError):
        sig.compile_pattern(r"(\w*\s?)*error")
    with pytest.raises(sig.SignatureError):
        sig.compile_pattern(r"\d+")  # no literal to anchor on
    assert sig.compile_pattern(r"(?:sm_\d{2,3} ?){1,40}supports").anchors


def test_loader_reports_bad_entries(tmp_path: Path) -> None:
    (tmp_path / "bad.toml").write_text(
        'schema_version = 1\n[[signature]]\nid = "x.y"\nseverity = "error"\ntitle = "t"\n'
        'match = ["abc"]\nexample = "abc"\nconfirm = ["nosuch.fact > 1"]\n'
        '[[signature.fix]]\nsummary = "s"\n',
        encoding="utf-8",
    )
    (tmp_path / "worse.toml").write_text("schema_version = 2\n", encoding="utf-8")
    data = sig.load(tmp_path)
    assert data.signatures == ()
    assert any("unknown fact" in e for e in data.errors)
    assert any("schema_version" in e for e in data.errors)


def test_conditions_are_three_valued() -> None:
    snap = _pasted(
        "RuntimeError: CUDA error: no kernel image is available for execution on the device",
        collected("python.torch", "t", {"version": "2.5.1+cu124", "cuda": "12.4", "build": "cuda"}),
    )
    facts = sig.Facts(snap)
    assert sig.evaluate_condition(sig.parse_condition("torch.cuda < 12.8"), facts)[0] is True
    assert sig.evaluate_condition(sig.parse_condition("torch.cuda >= 12.8"), facts)[0] is False
    assert sig.evaluate_condition(sig.parse_condition("gpu.sm > 90"), facts)[0] is None
    assert (
        sig.evaluate_condition(sig.parse_condition("gpu.sm > 90 or torch.build == cuda"), facts)[0]
        is True
    )
    assert (
        sig.evaluate_condition(sig.parse_condition("gpu.sm > 90 and torch.build == cpu"), facts)[0]
        is False
    )
    assert sig.evaluate_condition(sig.parse_condition("text ~ 'kernel image'"), facts)[0] is True
    assert sig.evaluate_condition(sig.parse_condition("!torch.variant"), facts)[0] is False
    with pytest.raises(sig.SignatureError):
        sig.parse_condition("torch.cuda <> 12")


NO_KERNEL = "RuntimeError: CUDA error: no kernel image is available for execution on the device"


def _gpu(name: str, cc: str):
    return collected(
        "nvidia.gpus",
        "pasted:collect_env",
        {"gpus": [{"index": 0, "name": name, "compute_capability": cc}]},
        confidence=Confidence.MEDIUM,
    )


def _torch(version: str, cuda: str):
    return collected(
        "python.torch",
        "pasted:collect_env",
        {"version": version, "variant": version.split("+")[1], "cuda": cuda, "build": "cuda"},
        confidence=Confidence.MEDIUM,
    )


def _best(snap: Snapshot):
    matches = sig.match_all(snap)
    assert matches, "no signature matched"
    return matches[0], sig.to_finding(matches[0], sig.Facts(snap))


def _chosen(snap: Snapshot):
    """The best match's finding with its remedies resolved by the chooser (as triage does)."""
    from envdoctor.matrix.loader import load_bundled

    match = sig.match_all(snap)[0]
    return match, sig.to_finding(match, sig.Facts(snap), snap, load_bundled())


def _index_variants(commands) -> list[int]:
    """The cuXXX numbers of the PyTorch indexes the commands install from."""
    import re

    return [int(v) for c in commands for v in re.findall(r"download\.pytorch\.org/whl/cu(\d+)", c)]


def test_new_gpu_on_an_old_build_means_install_a_newer_build() -> None:
    snap = _pasted(
        NO_KERNEL, _gpu("NVIDIA GeForce RTX 5090", "12.0"), _torch("2.5.1+cu124", "12.4")
    )
    match, finding = _chosen(snap)
    assert finding.id == "torch.gpu-too-new-for-build"
    # the chooser's build: sm_120 kernels come with CUDA 12.8 and later
    assert "sm_120" in finding.fixes[0].summary
    variants = _index_variants(finding.fixes[0].commands)
    assert variants and all(v >= 128 for v in variants)
    # no driver was given: the fix says what it assumes instead of claiming it runs
    assert finding.fixes[0].assumptions


def test_same_message_with_current_torch_and_an_extension_means_rebuild_it() -> None:
    text = (
        NO_KERNEL + "\n"
        '  File "/venv/lib/python3.12/site-packages/xformers/ops/fmha/__init__.py", line 306, in memory_efficient_attention\n'
    )
    snap = _pasted(text, _gpu("NVIDIA GeForce RTX 5090", "12.0"), _torch("2.7.0+cu128", "12.8"))
    match, finding = _best(snap)
    assert finding.id == "torch.extension-abi-mismatch"
    assert "sm_120" in finding.title and "xformers" in finding.title
    assert 'TORCH_CUDA_ARCH_LIST="12.0"' in finding.fixes[0].commands[0]
    ids = [m.signature.id for m in sig.match_all(snap)]
    assert "torch.gpu-too-new-for-build" not in ids  # ruled out: cu128 targets sm_120


def test_old_gpu_on_a_build_that_dropped_it() -> None:
    snap = _pasted(NO_KERNEL, _gpu("NVIDIA GeForce GTX 1050", "6.1"), _torch("2.8.0+cu128", "12.8"))
    match, finding = _chosen(snap)
    assert finding.id == "torch.gpu-too-old-for-build"
    # torch 2.8 dropped sm_61 from cu128; its cu126 build (and older) still has Pascal kernels
    assert "sm_61" in finding.fixes[0].summary
    variants = _index_variants(finding.fixes[0].commands)
    assert variants and all(v <= 126 for v in variants)


def test_without_facts_the_message_alone_still_ranks_candidates() -> None:
    ids = [m.signature.id for m in sig.match_all(_pasted(NO_KERNEL))]
    assert ids[0] == "torch.gpu-too-new-for-build"
    assert "torch.gpu-too-old-for-build" in ids


def test_capture_conditions_choose_between_causes() -> None:
    cpu = (
        "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
        "    PyTorch 2.1.2+cu121 with CUDA 1201 (you have 2.1.2+cpu)\n"
    )
    cuda = cpu.replace("2.1.2+cpu", "2.3.0+cu121")
    assert _best(_pasted(cpu))[1].id == "torch.cpu-build-on-gpu-host"
    found = _best(_pasted(cuda))[1]
    assert found.id == "torch.extension-abi-mismatch" and "2.3.0+cu121" in found.title


def test_driver_code_is_decoded() -> None:
    text = "RuntimeError: The NVIDIA driver on your system is too old (found version 10010)."
    finding = _best(_pasted(text))[1]
    assert finding.id == "torch.driver-too-old" and "CUDA 10.1" in finding.title


def test_refuting_facts_drop_a_signature() -> None:
    text = "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver."
    native = {m.signature.id for m in sig.match_all(_pasted(text))}
    assert "nvidia.module-not-built-for-kernel" in native
    wsl = {m.signature.id for m in sig.match_all(_pasted(text + "\nInside WSL2 on Windows 11\n"))}
    assert "nvidia.module-not-built-for-kernel" not in wsl
    assert "wsl.linux-driver-inside-wsl" in wsl


def test_fixes_follow_the_os() -> None:
    text = "Failed to initialize NVML: Unknown Error\nopenat /dev/nvidiactl = -1 EPERM (Operation not permitted)\n"
    plain = _best(_pasted(text))[1]
    kube = _best(_pasted(text + "kubelet --cpu-manager-policy=static\n"))[1]
    assert plain.id == kube.id == "container.nvml-unknown-error-cgroup"
    assert "compatWithCPUManager" in kube.fixes[0].summary
    assert all("compatWithCPUManager" not in f.summary for f in plain.fixes)


def test_chinese_prose_mixed_in() -> None:
    text = "训练时报错，显存不足\nRuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 8.00 GiB total capacity)"
    finding = _best(_pasted(text))[1]
    assert finding.id == "memory.out-of-memory" and "8.00 GiB" in finding.title
    assert _best(_pasted("报错：显存不足，怎么办"))[1].id == "memory.out-of-memory"


def _cpu_dump(real_captures: Path) -> str:
    return (
        real_captures
        / "collect_env"
        / "torch-1.4.0+cpu-windows10-home-cpu-only-pytorch-issue-33473.txt"
    ).read_text(encoding="utf-8")


def test_no_signature_says_so_and_facts_still_report(
    real_captures: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from envdoctor.triage_engine import casebase

    monkeypatch.setattr(casebase, "_rows", lambda matrices: [])  # no similar confirmed case
    report = triage_text("ValueError: frobnication failed in stage 3\n" + _cpu_dump(real_captures))
    ids = [f.id for f in report.findings]
    assert sig.NO_MATCH_ID in ids
    no_match = next(f for f in report.findings if f.id == sig.NO_MATCH_ID)
    assert any("frobnication" in e.actual for e in no_match.evidence)
    assert report.snapshot.fact("python.torch", "variant") == "cpu"


def test_similar_cases_replace_no_signature_with_their_causes(real_captures: Path) -> None:
    """With the shipped case base, a dump like confirmed reports gets their causes (low, with
    the paste's error line and the case as evidence) instead of "no signature matched"."""
    report = triage_text("ValueError: frobnication failed in stage 3\n" + _cpu_dump(real_captures))
    suggested = [f for f in report.findings if (f.origin or "").startswith("case:")]
    assert suggested and sig.NO_MATCH_ID not in [f.id for f in report.findings]
    for finding in suggested:
        assert (finding.score or 0) < 45  # below every canonical line
        assert any("frobnication" in e.actual for e in finding.evidence)
        assert any(e.fact == "similar.case" for e in finding.evidence)


ADVERSARIAL = [
    "a" * 100_000,
    "(" * 50_000 + ")" * 50_000,
    "[" * 100_000,
    "{" * 100_000,
    "error " * 20_000,
    "no kernel image " + "a" * 100_000,
    "Traceback (most recent call last):" + ' File "x",' * 10_000,
    "CUDA out of memory" + " (GPU 0; " * 10_000,
    'File "' + "/" * 100_000,
    ("NVIDIA GeForce RTX " * 5_000) + "5090",
    "sm_" * 30_000 + " is not compatible with the current PyTorch installation",
    "\t" * 100_000 + "undefined symbol: _ZN",
    "x" * 200_000 + ": undefined symbol: _ZN3c10" + "a" * 10_000,
]


@pytest.mark.parametrize("line", ADVERSARIAL, ids=lambda s: repr(s[:24]))
def test_adversarial_lines_do_not_backtrack(line: str) -> None:
    start = time.perf_counter()
    triage_text(line + "\n" + line)
    assert time.perf_counter() - start < 2.0


@pytest.mark.parametrize(
    "text",
    ["gpu.sm >= 12.0", "torch.sm_max < 9.0", "gpu.cc >= 86", "gpu.cc_min < 120"],
)
def test_a_capability_in_the_other_spelling_is_refused(text: str) -> None:
    """sm facts are whole numbers (86), cc facts major.minor (8.6): 'gpu.sm >= 12.0' held for
    every GPU (86 > 12 part by part), as a survey's signature found out."""
    from envdoctor.triage_engine.model import SignatureError

    with pytest.raises(SignatureError, match="whole number|major.minor"):
        parse_condition(text)
    assert parse_condition("gpu.sm >= 120") and parse_condition("gpu.cc >= 12.0")
