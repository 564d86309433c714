"""The Python API: README's examples run as written, and the API's contracts (no printing,
ValueError for bad arguments, the same documents as the command line)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import envdoctor

README = Path(__file__).resolve().parent.parent / "README.md"


def readme_api_example() -> str:
    section = README.read_text(encoding="utf-8").split("### Python API", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_readme_examples_run(capsys):
    exec(compile(readme_api_example(), "README.md (Python API)", "exec"), {})
    printed = capsys.readouterr().out
    assert "nvidia.no-gpu" in printed  # explain's first line
    assert '{\n  "command": null' in printed  # the preflight document's first key


def test_the_api_prints_nothing(capsys):
    report = envdoctor.check(timeout_s=20)
    envdoctor.triage("Torch not compiled with CUDA enabled")
    envdoctor.preflight("gpu")
    envdoctor.explain("nvidia.no-gpu")
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""
    assert json.loads(report.to_json())["kind"] == "check"


def test_bad_arguments_are_value_errors():
    for call in (
        lambda: envdoctor.check(timeout_s=float("nan")),
        lambda: envdoctor.check(python="/nonexistent/python"),
        lambda: envdoctor.triage(b"bytes"),  # type: ignore[arg-type]
        lambda: envdoctor.preflight([]),
        lambda: envdoctor.preflight(["torch>>2"]),
        lambda: envdoctor.explain("no.such-id"),
    ):
        with pytest.raises(ValueError):
            call()


def test_same_document_as_the_command_line():
    pasted = "RuntimeError: CUDA error: no kernel image is available for execution on the device"
    cli = subprocess.run(
        [sys.executable, "-m", "envdoctor", "triage", "--json", "-"],
        input=pasted,
        capture_output=True,
        text=True,
        timeout=60,
    )
    from_cli = json.loads(cli.stdout)
    from_api = json.loads(envdoctor.triage(pasted).to_json())
    assert [f["id"] for f in from_api["findings"]] == [f["id"] for f in from_cli["findings"]]


def test_importing_envdoctor_loads_no_api_module():
    code = "import sys, envdoctor; print('envdoctor.api' in sys.modules, 'envdoctor.probes' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert out.stdout.split() == ["False", "False"]


def test_redacted_report_hides_the_user(monkeypatch):
    monkeypatch.setenv("USER", "alice")
    report = envdoctor.triage(
        "OSError: /home/alice/venv/lib/libcudnn.so.8: cannot open shared object file"
    )
    assert "alice" in report.to_json()
    assert "alice" not in envdoctor.redacted(report).to_json()


def test_api_names_are_not_shadowed_by_subpackages():
    """Importing a submodule sets it as an attribute of the package: a subpackage named like an
    API function (envdoctor/triage/, envdoctor/preflight/) would replace the function."""
    import importlib
    import pkgutil

    for module in pkgutil.walk_packages(envdoctor.__path__, "envdoctor."):
        if module.name.endswith(("__main__", "mcp_server", "_script")):
            continue
        importlib.import_module(module.name)
    for name in envdoctor.__all__:
        if name != "__version__":
            assert callable(getattr(envdoctor, name)), name
