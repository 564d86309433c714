"""`envdoctor accept`, the whole command on this machine: the load runs for real in a torch venv
(the CPU build, standing in for the GPU through ENVDOCTOR_ACCEPT_DEVICE=cpu), NVML is the stand-in
of tests/accept_fakes.py, the kernel log a fake dmesg. A worn card's series (thermal slowdown, a
Gen1 x4 link under load, a capped power limit, wrong VRAM read-back, an Xid) must each be judged
into its finding; a healthy card into none; Ctrl-C must leave no load running."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import accept_fakes
import pytest
from test_faults import sigint_as_at_a_terminal

from envdoctor.cli import main

REPO = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent


def torch_python() -> str:
    for candidate in (
        os.environ.get("ENVDOCTOR_TORCH_PYTHON", ""),
        str(REPO / ".venv-torch/bin/python"),
    ):
        if candidate and Path(candidate).is_file():
            return candidate
    if os.environ.get("CI"):
        pytest.fail("no torch venv (ENVDOCTOR_TORCH_PYTHON) in CI")
    pytest.skip("no torch venv")


def run_accept(monkeypatch, tmp_path, cards, python, *extra):
    tools = accept_fakes.fake_tools(tmp_path / "bin", torch_python())
    accept_fakes.FakeNvml(cards).install(monkeypatch.setattr)
    for key, value in accept_fakes.test_environment(tmp_path / "bin").items():
        monkeypatch.setenv(key, value)
    out = tmp_path / "report.json"
    python = tools["faulty_python"] if python == "faulty" else python
    code = main(
        [
            "accept",
            "--minutes",
            "0.05",
            "--interval",
            "0.2",
            "--python",
            python,
            "--json",
            "-o",
            str(out),
            "--no-redact",
            *extra,
        ]
    )
    return code, json.loads(out.read_text())


@pytest.fixture(scope="module")
def worn_run(tmp_path_factory):
    """One run over two cards: GPU 0 healthy, GPU 1 worn (see accept_fakes.WORN)."""
    monkeypatch = pytest.MonkeyPatch()
    try:
        result = run_accept(
            monkeypatch,
            tmp_path_factory.mktemp("worn"),
            [accept_fakes.HEALTHY, accept_fakes.WORN],
            "faulty",
        )
    finally:
        monkeypatch.undo()  # NVML and the environment as they were, for the tests that follow
    return result


def finding(doc, finding_id):
    matches = [f for f in doc["findings"] if f["id"] == finding_id]
    assert matches, f"{finding_id} not among {[f['id'] for f in doc['findings']]}"
    return matches[0]


def test_worn_card_fails_with_exit_1_and_the_load_ran_for_real(worn_run):
    code, doc = worn_run
    assert code == 1
    groups = doc["snapshot"]["groups"]
    assert groups["accept.run"]["data"]["ended"] == "completed"
    results = groups["accept.results"]["data"]["gpus"]
    assert [r["index"] for r in results] == [0, 1]
    for result in results:
        assert result["correctness"]["ok"] is True
        assert result["load"]["float32"]["iterations"] > 0
        assert result["bandwidth"]["h2d_gb_s"] > 0
        assert result["vram"]["tested_bytes"] > 0
    phases = {s["phase"] for s in groups["accept.series"]["data"]["samples"]}
    assert {"load-float32", "load-bfloat16"} <= phases


def test_thermal_throttling_judged(worn_run):
    f = finding(worn_run[1], "accept.thermal-throttling")
    assert f["title"].startswith("GPU 1 (NVIDIA GeForce RTX 3090): thermal throttling ")
    assert "at 86 °C" in f["title"] and f["severity"] == "warning"


def test_pcie_width_loss_judged(worn_run):
    f = finding(worn_run[1], "accept.pcie-degraded")
    assert "PCIe link at Gen1 x4 under load (expected Gen4 x16): riser or slot" in f["title"]
    assert f["title"].startswith("GPU 1 ")


def test_power_cap_judged(worn_run):
    f = finding(worn_run[1], "accept.power-capped")
    assert "power capped 25% below this card's limit (262 W of 350 W)" in f["title"]
    # as root (CI), the fix chooser drops `sudo`; as a user it keeps it
    expected = "nvidia-smi -i 1 -pl 350" if os.geteuid() == 0 else "sudo nvidia-smi -i 1 -pl 350"
    assert f["fixes"][0]["commands"] == [expected]


def test_vram_mismatches_judged(worn_run):
    f = finding(worn_run[1], "accept.vram-errors")
    assert f["title"] == "GPU 1: VRAM mismatches at 7 addresses: defective memory"
    assert "random" in f["detail"] and "0xc" in f["detail"]  # element 3 = byte 0xc
    assert f["severity"] == "error"


def test_xid_during_load_judged(worn_run):
    f = finding(worn_run[1], "accept.xid-during-load")
    assert f["title"].startswith("Xid 79 (GPU has fallen off the bus) during the load")
    assert f["severity"] == "error"


def test_healthy_card_passes(monkeypatch, tmp_path):
    code, doc = run_accept(monkeypatch, tmp_path, [accept_fakes.HEALTHY], torch_python())
    # the fake dmesg logs an Xid from its second call: a healthy card run still sees it
    ids = [f["id"] for f in doc["findings"]]
    assert "accept.xid-during-load" in ids
    for judged in (
        "accept.thermal-throttling",
        "accept.pcie-degraded",
        "accept.power-capped",
        "accept.vram-errors",
        "accept.wrong-results",
        "accept.load-failed",
    ):
        assert judged in doc["checks"]["passed"], judged
    assert code == 1  # because of the Xid


def test_a_machine_without_gpu_gets_one_line(tmp_path, capfd):
    code = main(["accept", "--minutes", "0.05"])
    err = capfd.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and err.startswith(
        "envdoctor accept: no GPU can be tested here: NVML says"
    )
    assert "rocm-smi" in err  # the AMD sampler was tried too


@pytest.mark.parametrize(
    "argv",
    [
        ["--minutes", "nan"],
        ["--minutes", "-1"],
        ["--minutes", "1e309"],
        ["--memory-fraction", "1.5"],
        ["--interval", "0"],
        ["--gpu", "-1"],
        ["--python", "/nonexistent/python"],
    ],
)
def test_bad_values_are_usage_errors(argv, capfd):
    assert main(["accept", *argv]) == 2
    assert capfd.readouterr().err.count("\n") == 1


def test_missing_gpu_index_is_one_line(monkeypatch, capfd):
    accept_fakes.FakeNvml([accept_fakes.HEALTHY]).install(monkeypatch.setattr)
    assert main(["accept", "--gpu", "3", "--minutes", "0.05"]) == 2
    assert "no GPU with index 3" in capfd.readouterr().err


def test_report_formats_redact_serials(monkeypatch, tmp_path):
    accept_fakes.fake_tools(tmp_path / "bin", torch_python())
    accept_fakes.FakeNvml([accept_fakes.HEALTHY]).install(monkeypatch.setattr)
    for key, value in accept_fakes.test_environment(tmp_path / "bin").items():
        monkeypatch.setenv(key, value)
    for fmt, name in (("markdown", "r.md"), ("html", "r.html")):
        out = tmp_path / name
        main(
            [
                "accept",
                "--minutes",
                "0.03",
                "--interval",
                "0.2",
                "--python",
                torch_python(),
                "--format",
                fmt,
                "-o",
                str(out),
            ]
        )
        text = out.read_text()
        assert "1324021012345" not in text and "GPU-11111111" not in text
        assert "Acceptance results" in text
    assert "| 0: NVIDIA GeForce RTX 3090 | yes |" in (tmp_path / "r.md").read_text()
    html = (tmp_path / "r.html").read_text()
    assert html.count("<polyline") == 4


def test_ctrl_c_stops_the_load_at_once(tmp_path):
    """SIGINT during the sustained load: the load's process group is killed, the partial report
    is written, and envdoctor exits 130 within seconds."""
    accept_fakes.fake_tools(tmp_path / "bin", torch_python())
    out = tmp_path / "partial.json"
    code = (
        f"import sys; sys.path.insert(0, {str(TESTS)!r}); import accept_fakes; "
        "accept_fakes.FakeNvml([accept_fakes.HEALTHY]).install(); "
        "from envdoctor.cli import main; "
        f"sys.exit(main(['accept', '--minutes', '30', '--interval', '0.2', '--python', {torch_python()!r}, "
        f"'--json', '-o', {str(out)!r}]))"
    )
    env = {**os.environ, **accept_fakes.test_environment(tmp_path / "bin")}
    process = subprocess.Popen(
        [sys.executable, "-c", code],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # so that whatever happens, the test can end it all
        preexec_fn=sigint_as_at_a_terminal,
    )
    load_pid = None
    try:
        deadline = time.monotonic() + 240  # torch's import is slow on a loaded 2-core machine
        while time.monotonic() < deadline and load_pid is None and process.poll() is None:
            time.sleep(0.3)
            ps = subprocess.run(  # -ww: full command lines (ps cuts them at 80 columns in a pipe)
                ["ps", "-ww", "-eo", "pid,ppid,args"], capture_output=True, text=True
            ).stdout
            for line in ps.splitlines():
                parts = line.split(None, 2)
                if (
                    len(parts) == 3
                    and parts[1] == str(process.pid)
                    and "accept_load_script.py" in parts[2]
                ):
                    load_pid = int(parts[0])
        assert load_pid is not None, f"the load never started: {process.poll()}"
        time.sleep(3)  # into the run
        sent = time.monotonic()
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
        assert time.monotonic() - sent < 15
        assert process.returncode == 130, err
        assert "interrupted; the load was stopped" in err
        with pytest.raises(ProcessLookupError):
            os.kill(load_pid, 0)
    finally:
        for group in (process.pid, load_pid):  # the load runs in a process group of its own
            with contextlib.suppress(ProcessLookupError):
                os.killpg(group, signal.SIGKILL) if group else None
        process.wait()
    doc = json.loads(out.read_text())
    assert doc["snapshot"]["groups"]["accept.run"]["data"]["ended"] == "interrupted"
    assert "accept.interrupted" in [f["id"] for f in doc["findings"]]


def test_fleet_reads_acceptance_reports(worn_run, tmp_path):
    _, doc = worn_run
    (tmp_path / "node-a.json").write_text(json.dumps(doc))
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "envdoctor",
            "fleet",
            str(tmp_path / "node-a.json"),
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode in (0, 1), result.stderr
    assert "accept.vram-errors" in result.stdout


def test_html_plots_in_headless_chromium(worn_run, tmp_path):
    """The HTML report's charts, as Chromium draws them: the DOM it built holds one polyline per
    series with the samples as points, and the screenshot is not blank."""
    from test_html import headless, png_size

    from envdoctor.model.report import Report
    from envdoctor.render import render

    _, doc = worn_run
    page = tmp_path / "accept.html"
    page.write_text(render(Report.from_dict(doc), "html"), encoding="utf-8")
    flags = headless(tmp_path / "profile")
    dom = subprocess.run(
        [*flags, "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120
    )
    polylines = [line for line in dom.stdout.split("<polyline")[1:]]
    assert len(polylines) == 8, dom.stderr[-2000:]  # 4 series x 2 GPUs
    samples = len(
        [
            s
            for s in doc["snapshot"]["groups"]["accept.series"]["data"]["samples"]
            if s["index"] == 1
        ]
    )
    points = polylines[4].split('points="', 1)[1].split('"', 1)[0].split()
    assert len(points) == samples and samples >= 10
    shot = tmp_path / "accept.png"
    subprocess.run(
        [*flags, f"--screenshot={shot}", "--window-size=1000,1600", page.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert png_size(shot) == (1000, 1600)
    assert shot.stat().st_size > 30_000
    keep = os.environ.get("ENVDOCTOR_SCREENSHOT_DIR")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        (Path(keep) / "accept.png").write_bytes(shot.read_bytes())
