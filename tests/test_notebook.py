"""Notebooks: the runtime probe, its three findings, and a Report rendered inline in a real
Jupyter kernel (nbclient + ipykernel)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from envdoctor.diagnosis.pipeline import diagnose
from envdoctor.model.snapshot import Snapshot, absent, collected
from envdoctor.probes import python_notebook
from envdoctor.probes.context import ProbeContext

REPO = Path(__file__).resolve().parent.parent


def probe(env: dict[str, str], root: str | Path = "/") -> dict | None:
    (group,) = python_notebook.collect(ProbeContext(root=root, env=env))
    return group.data if group.collected else None


def test_runtime_markers(tmp_path, fake_root):
    assert probe({"COLAB_RELEASE_TAG": "release-colab_20261101-060000_RC00"})["kind"] == "colab"
    assert probe({"KAGGLE_KERNEL_RUN_TYPE": "Interactive"})["kind"] == "kaggle"
    root = fake_root({python_notebook.SAGEMAKER_METADATA: '{"ResourceName": "nb"}'})
    assert probe({}, root)["kind"] == "sagemaker"
    assert probe({"JPY_PARENT_PID": "4242"})["kind"] == "jupyter"
    if "ipykernel" not in sys.modules:
        assert probe({}) is None


def test_pip_script_interpreter_from_its_shebang(fake_tools):
    bindir = fake_tools(
        {
            "pip": "#!/usr/bin/python3\nfrom pip._internal.cli.main import main\n",
            "pip-long": "#!/bin/sh\n'''exec' \"/very/long/env/bin/python\" \"$0\" \"$@\"\n' '''\n",
        }
    )
    ctx = ProbeContext(env={"PATH": bindir})
    assert python_notebook.script_interpreter(ctx, f"{bindir}/pip") == "/usr/bin/python3"
    assert (
        python_notebook.script_interpreter(ctx, f"{bindir}/pip-long") == "/very/long/env/bin/python"
    )


def notebook_snapshot(notebook: dict, pci_devices: list | None = None) -> Snapshot:
    snap = Snapshot(origin="live")
    snap.add(collected("python.notebook", "test", notebook))
    if pci_devices is None:
        snap.add(absent("nvidia.pci", "test", "not read"))
    else:
        snap.add(collected("nvidia.pci", "test", {"devices": pci_devices, "pci_device_count": 5}))
    return snap


def ids(snap: Snapshot) -> list[str]:
    return [f.id for f in diagnose(snap).findings]


COLAB = {
    "kind": "colab",
    "in_kernel": True,
    "kernel_python": "/usr/bin/python3",
    "kernel_prefix": "/usr",
    "pip_installs_into_kernel": True,
    "kernel_in_active_env": None,
}


def test_colab_without_gpu_is_the_cause_and_explains_no_gpu():
    report = diagnose(notebook_snapshot(COLAB, pci_devices=[]))
    first = report.findings[0]
    assert first.id == "python.notebook-no-gpu-runtime"
    assert "Change runtime type" in first.fixes[0].summary
    assert "nvidia.no-gpu" in first.explains


def test_colab_with_a_gpu_or_an_unread_bus_raises_nothing():
    report = diagnose(notebook_snapshot(COLAB, pci_devices=[{"vendor": "0x10de"}]))
    assert "python.notebook-no-gpu-runtime" in report.passed
    assert "python.notebook-no-gpu-runtime" not in ids(notebook_snapshot(COLAB))


def test_jupyter_on_a_machine_without_gpu_is_not_told_to_change_runtime():
    report = diagnose(notebook_snapshot({**COLAB, "kind": "jupyter"}, pci_devices=[]))
    assert "python.notebook-no-gpu-runtime" not in [f.id for f in report.findings]
    assert "python.notebook-no-gpu-runtime" in report.passed


def test_pip_into_another_interpreter():
    notebook = {
        **COLAB,
        "kind": "jupyter",
        "pip_on_path": "/usr/bin/pip",
        "pip_python": "/usr/bin/python3",
        "kernel_python": "/home/a/venv/bin/python",
        "pip_installs_into_kernel": False,
    }
    (finding,) = [f for f in diagnose(notebook_snapshot(notebook)).findings]
    assert finding.id == "python.notebook-pip-other-interpreter"
    assert finding.fixes[0].commands == ("%pip install PACKAGE",)
    assert "/home/a/venv/bin/python -m pip install" in finding.fixes[1].commands[0]
    assert "python.notebook-pip-other-interpreter" in diagnose(notebook_snapshot(COLAB)).passed


def test_kernel_outside_the_activated_environment():
    notebook = {
        **COLAB,
        "kind": "jupyter",
        "active_env_prefix": "/home/a/ml",
        "kernel_in_active_env": False,
    }
    report = diagnose(notebook_snapshot(notebook))
    (finding,) = report.findings
    assert finding.id == "python.notebook-kernel-not-active-env"
    assert any("ipykernel install --user" in c for c in finding.fixes[0].commands)
    assert any(c.startswith("/home/a/ml/bin/python") for c in finding.fixes[0].commands)


# -- a real kernel ----------------------------------------------------------------------------


def test_report_renders_inline_in_a_real_jupyter_kernel(tmp_path):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    # a kernelspec for this very interpreter (the test venv, where envdoctor is installed)
    spec_dir = tmp_path / "share" / "jupyter" / "kernels" / "envdoctor-test"
    spec_dir.mkdir(parents=True)
    spec = {
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "envdoctor test",
        "language": "python",
    }
    (spec_dir / "kernel.json").write_text(json.dumps(spec))
    os.environ["JUPYTER_PATH"] = str(tmp_path / "share" / "jupyter")
    try:
        notebook = nbformat.v4.new_notebook()
        notebook.cells = [
            nbformat.v4.new_code_cell(
                "import envdoctor\nreport = envdoctor.check(timeout_s=20)\nreport"
            ),
            nbformat.v4.new_code_cell(
                "report.snapshot.data('python.notebook')['kind'], "
                "report.snapshot.data('python.notebook')['in_kernel']"
            ),
        ]
        client = nbclient.NotebookClient(
            notebook,
            kernel_name="envdoctor-test",
            timeout=120,
            resources={"metadata": {"path": str(tmp_path)}},
        )
        client.execute()
    finally:
        os.environ.pop("JUPYTER_PATH", None)
    shown = notebook.cells[0].outputs[0]["data"]
    assert "text/html" in shown
    html = shown["text/html"]
    assert html.startswith('<iframe class="envdoctor-report"')
    assert "envdoctor check report" in html and "Python and ML packages" in html
    assert "&lt;envdoctor Report check" not in html  # the HTML view, not the repr
    assert shown["text/plain"].startswith("envdoctor ")  # IPython's plain view is the text report
    assert notebook.cells[1].outputs[0]["data"]["text/plain"] == "('jupyter', True)"
