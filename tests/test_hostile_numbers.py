"""Hostile use, input and numbers: every numeric option and config value is finite and in range,
paths that must exist do, and an empty requirement is no requirement at all: each a one-line
usage error with exit 2 that names the option, never a traceback (exit 3) or a silently dropped
deadline or gate."""

from __future__ import annotations

import pytest

from envdoctor.cli import main

NOT_FINITE = ("nan", "NaN", "inf", "-inf", "1e309", "-1e309")
FIT = ("fit", "--dtype", "bf16", "--task", "inference")


def usage_error(capsys, argv: list[str], cwd=None, monkeypatch=None) -> str:  # noqa: ANN001
    if cwd is not None:
        monkeypatch.chdir(cwd)
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2, (argv, out, err)
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


# every numeric option of every command, with a value that must be refused
TIMEOUT_COMMANDS = (
    ("check",),
    ("report", "-o", "-"),
    ("triage", "--here", "-"),
    ("preflight", "--require", "gpu"),
)


@pytest.mark.parametrize("command", TIMEOUT_COMMANDS, ids=lambda c: c[0])
@pytest.mark.parametrize("value", [*NOT_FINITE, "-1", "0", "1e6", "ten"])
def test_timeout_is_finite_positive_and_bounded(capsys, command, value):
    line = usage_error(capsys, [*command, f"--timeout={value}"])
    assert "--timeout" in line and repr(value) in line


@pytest.mark.parametrize("value", ["-1", "1e9", "nan", "2.5", "1025"])
def test_fleet_jobs(capsys, tmp_path, value):
    assert "--jobs" in usage_error(capsys, ["fleet", f"--jobs={value}", str(tmp_path)])


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (("--params", "1e40", "--vram", "24"), "--params"),
        (("--params", "nan", "--vram", "24"), "--params"),
        (("--params", "inf", "--vram", "24"), "--params"),
        (("--params", "-7B", "--vram", "24"), "--params"),
        (("--params", "7B", "--vram", "1e30"), "--vram"),
        (("--params", "7B", "--vram", "nan"), "--vram"),
        (("--params", "7B", "--vram", "inf"), "--vram"),
        (("--params", "7B", "--vram", "-24"), "--vram"),
        (("--params", "7B", "--vram", "24", "--context", "1e12"), "--context"),
        (("--params", "7B", "--vram", "24", "--context", "nan"), "--context"),
        (("--params", "7B", "--vram", "24", "--batch", "1e3"), "--batch"),
        (("--params", "7B", "--vram", "24", "--batch", "0"), "--batch"),
        (("--params", "7B", "--vram", "24", "--batch", "99999999999"), "--batch"),
        (("--params", "7B", "--vram", "24", "--gpus", "99999999"), "--gpus"),
        (("--params", "7B", "--vram", "24", "--task", "lora", "--lora-rank", "1e9"), "--lora-rank"),
        (("--model", "llama-2-7b", "--params", "70B", "--vram", "24"), "--params"),
    ],
)
def test_fit_numbers(capsys, args, option):
    line = usage_error(capsys, [*FIT, *args])
    assert option in line


def test_fit_model_and_a_matching_params_agree(capsys):
    code = main([*FIT, "--model", "llama-2-7b", "--params", "7B", "--vram", "24"])
    assert code in (0, 1), capsys.readouterr().err


@pytest.mark.parametrize("value", [*NOT_FINITE[:4], "-1", "0", "1e6", '"ten"', "true"])
def test_config_timeout(capsys, tmp_path, monkeypatch, value):
    (tmp_path / "envdoctor.toml").write_text(f'[preflight]\nrequire = ["gpu"]\ntimeout = {value}\n')
    line = usage_error(capsys, ["preflight"], cwd=tmp_path, monkeypatch=monkeypatch)
    assert "envdoctor.toml" in line and "timeout" in line


@pytest.mark.parametrize("spec", ["", ",", " , ", "\t"])
def test_an_empty_require_is_a_usage_error_and_starts_nothing(capsys, tmp_path, spec):
    marker = tmp_path / "started"
    line = usage_error(capsys, ["preflight", "--require", spec, "--", "touch", str(marker)])
    assert "--require" in line and "names no requirement" in line
    assert not marker.exists()


def test_an_empty_require_in_the_config_is_a_usage_error(capsys, tmp_path, monkeypatch):
    (tmp_path / "envdoctor.toml").write_text('[preflight]\nrequire = ["gpu", ""]\n')
    assert "names no requirement" in usage_error(
        capsys, ["preflight"], cwd=tmp_path, monkeypatch=monkeypatch
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "--python", "/nonexistent/python"],
        ["report", "-o", "-", "--python", "/nonexistent/python"],
        ["preflight", "--require", "torch", "--python", "/nonexistent/python"],
        ["check", "--app-dir", "/nonexistent"],
        ["check", "--python", "no-such-python-envdoctor-test"],
    ],
)
def test_paths_that_must_exist(capsys, argv):
    line = usage_error(capsys, argv)
    assert argv[-1] in line


def test_a_python_that_is_not_executable(capsys, tmp_path):
    plain = tmp_path / "python"
    plain.write_text("not a program")
    plain.chmod(0o644)
    assert "not an executable file" in usage_error(capsys, ["check", "--python", str(plain)])
