"""Which Python is inspected without --python: the activated venv, the conda env, PATH, or
envdoctor's own (envdoctor.probes.target_python), tested with envdoctor installed in the test
venv and a real torch venv activated the way `source .venv-torch/bin/activate` does it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from envdoctor.probes import target_python
from envdoctor.probes.context import ProbeContext, ProbeOptions

REPO = Path(__file__).resolve().parent.parent


def torch_venv() -> Path:
    """The prefix of a venv with a real torch (scripts/test makes .venv-torch), or skip."""
    for candidate in (
        os.environ.get("ENVDOCTOR_TORCH_PYTHON", ""),
        str(REPO / ".venv-torch/bin/python"),
    ):
        if candidate and Path(candidate).is_file():
            return Path(candidate).parent.parent
    if os.environ.get("CI"):
        pytest.fail("no torch venv (ENVDOCTOR_TORCH_PYTHON) in CI")
    pytest.skip("no torch venv")


def run_check(env: dict[str, str], *args: str) -> dict:
    """`envdoctor check --json` as the installed tool (this test venv's interpreter)."""
    clean = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "CONDA_PREFIX")}
    result = subprocess.run(
        [sys.executable, "-m", "envdoctor", "check", "--json", *args],
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode in (0, 1), result.stderr
    return json.loads(result.stdout)


def activated(prefix: Path) -> dict[str, str]:
    """What a venv's activate script sets."""
    return {"VIRTUAL_ENV": str(prefix), "PATH": f"{prefix}/bin:{os.environ.get('PATH', '')}"}


def python_group(doc: dict) -> dict:
    return doc["snapshot"]["groups"]["python"]["data"]


def test_activated_venv_is_inspected_and_its_torch_found():
    prefix = torch_venv()
    doc = run_check(activated(prefix))
    python = python_group(doc)
    assert python["selected_by"] == "VIRTUAL_ENV"
    assert python["prefix"] == str(prefix)
    packages = doc["snapshot"]["groups"]["python.packages"]["data"]["packages"]
    assert packages["torch"].startswith("2.13.0")
    assert "the active venv (VIRTUAL_ENV)" in doc["snapshot"]["groups"]["python"]["summary"]
    # the test venv's own packages (pytest) are not what was described
    assert "pytest" not in packages


def test_python_option_still_overrides_the_active_venv():
    prefix = torch_venv()
    doc = run_check(activated(prefix), "--python", sys.executable)
    python = python_group(doc)
    assert python["selected_by"] == "--python"
    packages = doc["snapshot"]["groups"]["python.packages"]["data"]["packages"]
    assert "torch" not in packages and "pytest" in packages


def test_conda_prefix_is_used_when_no_venv_is_active(tmp_path):
    prefix = torch_venv()
    conda = tmp_path / "envs" / "ml"
    (conda / "bin").mkdir(parents=True)
    launcher = conda / "bin" / "python3"  # stands in for the env's interpreter: runs the torch one
    launcher.write_text(f'#!/bin/sh\nexec "{prefix}/bin/python" "$@"\n')
    launcher.chmod(0o755)
    doc = run_check({"CONDA_PREFIX": str(conda)})
    python = python_group(doc)
    assert python["selected_by"] == "CONDA_PREFIX"
    assert "torch" in doc["snapshot"]["groups"]["python.packages"]["data"]["packages"]


def test_first_python_on_path_when_nothing_is_activated():
    prefix = torch_venv()
    doc = run_check({"PATH": f"{prefix}/bin:/usr/bin:/bin"})
    python = python_group(doc)
    assert python["selected_by"] == "PATH"
    assert python["prefix"] == str(prefix)


def test_own_interpreter_when_it_is_the_one_in_use():
    own_bin = str(Path(sys.executable).parent)
    doc = run_check({"PATH": f"{own_bin}:/usr/bin:/bin"})
    python = python_group(doc)
    assert python["selected_by"] == "envdoctor"
    assert python["prefix"] == sys.prefix


# -- the rule itself, on a context -----------------------------------------------------------


def choose(env: dict[str, str], python: str | None = None) -> target_python.TargetChoice:
    return target_python.choose(ProbeContext(env=env, options=ProbeOptions(python=python)))


def test_rule_order(tmp_path, fake_tools):
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python3").write_text("")
    conda = tmp_path / "conda"
    (conda / "bin").mkdir(parents=True)
    (conda / "bin" / "python").write_text("")
    path_dir = fake_tools({"python3": "#!/bin/sh\n"})
    both = {"VIRTUAL_ENV": str(venv), "CONDA_PREFIX": str(conda), "PATH": path_dir}
    assert choose(both) == target_python.TargetChoice(str(venv / "bin" / "python3"), "VIRTUAL_ENV")
    assert choose(both, "/opt/py/bin/python").selected_by == "--python"
    assert choose({"CONDA_PREFIX": str(conda), "PATH": path_dir}).executable == str(
        conda / "bin" / "python"
    )
    assert choose({"PATH": path_dir}) == target_python.TargetChoice(f"{path_dir}/python3", "PATH")
    assert choose({"PATH": str(tmp_path / "empty")}).selected_by == "envdoctor"


def test_a_venv_without_an_interpreter_falls_through(tmp_path, fake_tools):
    path_dir = fake_tools({"python3": "#!/bin/sh\n"})
    choice = choose({"VIRTUAL_ENV": str(tmp_path / "gone"), "PATH": path_dir})
    assert choice.selected_by == "PATH"


def test_two_venvs_of_one_base_interpreter_are_not_the_same(tmp_path):
    """venv interpreters are symlinks to one base file: the environment decides, not the file."""
    other = tmp_path / "other"
    (other / "bin").mkdir(parents=True)
    (other / "bin" / "python").symlink_to(os.path.realpath(sys.executable))
    assert not target_python.is_own(str(other / "bin" / "python"))
    assert target_python.is_own(os.path.join(sys.prefix, "bin", "python"))


def test_an_image_or_root_is_not_given_the_hosts_interpreter(tmp_path):
    ctx = ProbeContext(root=tmp_path, env={"VIRTUAL_ENV": "/x"}, options=ProbeOptions())
    assert target_python.resolved_options(ctx).python is None
    assert target_python.resolved_options(ctx).python_selected_by == ""
