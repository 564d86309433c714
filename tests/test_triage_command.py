"""`envdoctor triage`: input handling, exit codes, formats, --here, and the triage ranking."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from envdoctor.cli import main
from envdoctor.model.findings import Evidence, Finding, Fix, Severity
from envdoctor.model.snapshot import Confidence
from envdoctor.triage_engine import triage_text
from envdoctor.triage_engine.rank import merge_duplicates, rank_for_triage

CORPUS = Path(__file__).resolve().parent / "triage_corpus"
ERROR = "RuntimeError: CUDA error: no kernel image is available for execution on the device\n"


class _Stdin:
    def __init__(self, data: bytes, tty: bool = False) -> None:
        self.buffer = io.BytesIO(data)
        self._tty = tty

    def isatty(self) -> bool:
        return self._tty


def _run(argv: list[str], capsys) -> tuple[int, str, str]:  # noqa: ANN001
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_file_in_text_out(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    paste = tmp_path / "paste.txt"
    paste.write_text(ERROR, encoding="utf-8")
    code, out, err = _run(["triage", str(paste)], capsys)
    assert code == 1 and err == ""
    assert "What to do first" in out and "no kernels" in out


def test_json_output_and_fail_on(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    paste = tmp_path / "paste.txt"
    paste.write_text(
        "ldconfig: /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link\n", encoding="utf-8"
    )
    code, out, _ = _run(["triage", str(paste), "--json"], capsys)
    document = json.loads(out)
    assert document["kind"] == "triage" and document["snapshot"]["origin"] == "pasted"
    assert document["findings"][0]["id"] == "wsl.libcuda-not-symlink"
    assert code == 0  # a warning does not reach the default --fail-on error
    assert _run(["triage", str(paste), "--json", "--fail-on", "warning"], capsys)[0] == 1


def test_stdin(monkeypatch: pytest.MonkeyPatch, capsys) -> None:  # noqa: ANN001
    monkeypatch.setattr(
        "sys.stdin", _Stdin(b"Failed to initialize NVML: Driver/library version mismatch\n")
    )
    code, out, _ = _run(["triage", "-", "--format", "markdown"], capsys)
    assert code == 1 and "nvidia.driver-library-mismatch" in out and "envdoctor-report-json" in out


def test_tty_without_file_is_a_usage_error(monkeypatch: pytest.MonkeyPatch, capsys) -> None:  # noqa: ANN001
    monkeypatch.setattr("sys.stdin", _Stdin(b"", tty=True))
    code, out, err = _run(["triage"], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and "FILE" in err


@pytest.mark.parametrize("kind", ["missing", "directory", "empty", "blank", "too-large"])
def test_unreadable_input_exits_2_with_one_line(kind: str, tmp_path: Path, capsys) -> None:  # noqa: ANN001
    path = tmp_path / "input.txt"
    if kind == "directory":
        path.mkdir()
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "blank":
        path.write_bytes(b"\n   \n\t\n")
    elif kind == "too-large":
        with path.open("wb") as handle:  # sparse: no 51 MB written to disk
            handle.truncate(51 * 1024 * 1024)
    code, out, err = _run(["triage", str(path)], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("envdoctor")
    if kind == "too-large":
        assert "50 MiB" in err


def test_binary_input_is_read_leniently(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    path = tmp_path / "core.bin"
    # seeded: unseeded random bytes now and then spell a GPU name ("K80", "P40") that the GPU
    # facts read, and the finding this test checks then changes from run to run
    noise = random.Random(20261203).randbytes(200_000)
    path.write_bytes(noise + b"\n" + ERROR.encode() + bytes(range(256)))
    code, out, err = _run(["triage", str(path), "--json"], capsys)
    assert code in (0, 1) and err == ""
    assert "torch.gpu-too-new-for-build" in [f["id"] for f in json.loads(out)["findings"]]


def test_here_merges_this_machines_facts(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    paste = tmp_path / "paste.txt"
    paste.write_text(
        "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\n",
        encoding="utf-8",
    )
    code, out, _ = _run(["triage", str(paste), "--here", "--json", "--timeout", "30"], capsys)
    groups = json.loads(out)["snapshot"]["groups"]
    assert groups["os"]["source"].startswith("probe:")  # live facts win where both exist
    assert groups["pasted.text"]["source"] == "pasted:free-text"
    assert code in (0, 1)


def _finding(
    fid: str, signature: bool, severity: Severity = Severity.ERROR, explains=(), score: int = 60
) -> Finding:  # noqa: ANN001
    evidence = (
        (Evidence("pasted.text", "the line"),)
        if signature
        else (Evidence("python.torch.version", "2.5.1+cu124"),)
    )
    fixes = (Fix("signature fix"),) if signature else (Fix("fact fix", ("pip install x",)),)
    return Finding(
        fid,
        severity,
        f"{'sig' if signature else 'fact'} {fid}",
        evidence=evidence,
        fixes=fixes,
        confidence=Confidence.LOW if signature else Confidence.MEDIUM,
        explains=tuple(explains),
        score=score if signature else None,
        origin=f"signature:{fid}" if signature else None,
    )


def test_fact_check_and_signature_of_one_id_show_once() -> None:
    merged = merge_duplicates(
        [
            _finding("torch.gpu-too-new-for-build", True),
            _finding("torch.gpu-too-new-for-build", False),
        ]
    )
    assert len(merged) == 1
    (finding,) = merged
    assert finding.title.startswith("fact")  # the fact-based finding is the base
    assert {e.fact for e in finding.evidence} == {"python.torch.version", "pasted.text"}
    assert [f.summary for f in finding.fixes] == ["fact fix", "signature fix"]
    assert finding.confidence is Confidence.MEDIUM
    # the signature's score and origin travel with the merged finding
    assert (finding.score, finding.origin) == (60, "signature:torch.gpu-too-new-for-build")


def test_signature_score_ranks_before_unrelated_fact_findings() -> None:
    findings = [
        _finding("torch.python-unsupported", False),
        _finding("nvidia.driver-library-mismatch", True, Severity.WARNING, score=80),
        _finding("app.ollama-cpu-fallback", True, Severity.WARNING, score=90),
        _finding("nvidia.no-driver-bound", True, explains=("app.ollama-cpu-fallback",), score=70),
    ]
    ranked = rank_for_triage(findings)
    assert [f.id for f in ranked] == [
        "nvidia.no-driver-bound",
        "app.ollama-cpu-fallback",
        "nvidia.driver-library-mismatch",
        "torch.python-unsupported",
    ]
    assert ranked[1].explained_by == "nvidia.no-driver-bound"


def test_mutual_claims_keep_the_more_severe_on_top() -> None:
    # the CUDA error and the application's CPU fallback each claim to explain the other: the
    # warning's claim is dropped, so the error is not folded under the warning
    findings = [
        _finding("app.falls-back-to-cpu", True, Severity.WARNING, ("cuda.error",), score=90),
        _finding("cuda.error", True, Severity.ERROR, ("app.falls-back-to-cpu",), score=60),
    ]
    ranked = rank_for_triage(findings)
    assert [f.id for f in ranked] == ["cuda.error", "app.falls-back-to-cpu"]
    assert ranked[1].explained_by == "cuda.error"


def test_contradicting_findings_keep_one_story() -> None:
    findings = [
        _finding("torch.gpu-too-new-for-build", True, score=70),
        _finding("torch.gpu-too-old-for-build", True, score=55),
    ]
    conflicts = [("torch.gpu-too-new-for-build", "torch.gpu-too-old-for-build")]
    assert [f.id for f in rank_for_triage(findings, conflicts)] == ["torch.gpu-too-new-for-build"]


def test_triage_report_shows_each_id_once() -> None:
    text = (CORPUS / "019-pia-xformers-built-for-cu121-you-have-cpu.txt").read_text(
        encoding="utf-8"
    )
    ids = [f.id for f in triage_text(text.split("#! ---\n", 1)[1]).findings]
    assert len(ids) == len(set(ids))


def test_explain_every_signature_id(capsys) -> None:  # noqa: ANN001
    from envdoctor.checks import load_checks, signatures

    own = {c.ids[0] for c in signatures.CHECKS}
    elsewhere = {
        i for c in load_checks() if c.function.__module__ != signatures.__name__ for i in c.ids
    }
    for finding_id in sorted(own):
        code, out, _ = _run(["explain", finding_id], capsys)
        assert code == 0 and out.startswith(finding_id), finding_id
        if finding_id not in elsewhere:  # the signature's own help page
            assert "Fixes, in order" in out or "envdoctor report" in out, finding_id
