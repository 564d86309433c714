"""`envdoctor preflight`: exec with arguments and exit code passed through, JSON, config files,
--warn-only, usage errors, probe selection and the --timeout deadline."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest

from envdoctor.commands import UsageError, preflight
from envdoctor.requirements.parse import UNKNOWN, parse_requirements

REPO = Path(__file__).resolve().parent.parent


def envdoctor(
    *args: str, cwd: Path, timeout: float = 60, env: dict | None = None
) -> subprocess.CompletedProcess:
    """Run `python -m envdoctor ARGS` as a separate process (with `env` added to this one's)."""
    full_env = {**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1", **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "envdoctor", *args],
        cwd=cwd,
        env=full_env,
        text=True,
        capture_output=True,
        timeout=timeout,
    )


def torch_python() -> str:
    """An interpreter with a real torch installed (scripts/test makes one), or skip."""
    candidates = [
        os.environ.get("ENVDOCTOR_TORCH_PYTHON", ""),
        str(REPO / ".venv-torch" / "bin" / "python"),
    ]
    for candidate in candidates:
        if candidate and Path(candidate).is_file():
            probe = subprocess.run(
                [candidate, "-c", "import importlib.metadata as m; print(m.version('torch'))"],
                capture_output=True,
                text=True,
            )
            if probe.returncode == 0:
                return candidate
    if os.environ.get("CI"):
        pytest.fail("no interpreter with torch (ENVDOCTOR_TORCH_PYTHON) in CI")
    pytest.skip("no interpreter with torch installed")


# -- exec ----------------------------------------------------------------------------------------


def test_exit_code_of_the_command_passes_through(tmp_path):
    result = envdoctor("preflight", "--", "sh", "-c", "exit 7", cwd=tmp_path)
    assert result.returncode == 7, result.stderr


def test_arguments_reach_the_command_untouched(tmp_path):
    printer = "import json, sys; print(json.dumps(sys.argv[1:]))"
    args = ["a b", "--json", "-c", "--require", "gpu", ""]
    result = envdoctor("preflight", "--", sys.executable, "-c", printer, *args, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == args


def test_the_command_replaces_envdoctor(tmp_path):
    """exec, not a child: the command runs with envdoctor's PID (so it gets the signals)."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "envdoctor",
            "preflight",
            "--",
            sys.executable,
            "-c",
            "import os; print(os.getpid())",
        ],
        cwd=tmp_path,
        text=True,
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    out, _ = proc.communicate(timeout=60)
    assert int(out.strip()) == proc.pid


def test_a_missing_command_exits_127(tmp_path):
    result = envdoctor("preflight", "--", "no-such-command-envdoctor-test", cwd=tmp_path)
    assert result.returncode == 127 and "cannot exec" in result.stderr


def test_met_requirement_execs(tmp_path):
    python = torch_python()
    result = envdoctor(
        "preflight",
        "--python",
        python,
        "--require",
        "torch>=2.0",
        "--",
        "sh",
        "-c",
        "echo started; exit 5",
        cwd=tmp_path,
    )
    assert result.returncode == 5, result.stderr
    assert result.stdout == "started\n"
    assert "envdoctor preflight: ok (torch>=2.0)" in result.stderr


def test_unmet_requirement_does_not_start_the_command(tmp_path):
    python = torch_python()
    marker = tmp_path / "ran"
    result = envdoctor(
        "preflight",
        "--python",
        python,
        "--require",
        "torch>=99",
        "--",
        "touch",
        str(marker),
        cwd=tmp_path,
    )
    assert result.returncode == 1
    assert not marker.exists()
    assert "torch>=99" in result.stderr and "needs >= 99" in result.stderr
    assert "not starting touch" in result.stderr


def test_warn_only_starts_the_command_anyway(tmp_path):
    python = torch_python()
    result = envdoctor(
        "preflight",
        "--warn-only",
        "--python",
        python,
        "--require",
        "torch>=99",
        "--",
        "sh",
        "-c",
        "echo started; exit 3",
        cwd=tmp_path,
    )
    assert result.returncode == 3
    assert result.stdout == "started\n"
    assert "anyway (--warn-only)" in result.stderr


CREDENTIALS = (
    "--hf-token",
    "hf_abcdefghijklmnopqrstuvwxyz123456",
    "--password=hunter2-but-longer",
    "HF_TOKEN=hf_zyxwvutsrqponmlkjihgfedcba654321",
)


def test_credentials_in_the_command_are_masked_where_preflight_shows_it(tmp_path):
    # the command is shown in its message and JSON, which go to shared container logs; the
    # started command still gets the real values ("credentials in launch arguments")
    args = ("preflight", "--warn-only", "--require", "gpus>=64")
    command = ("--", "sh", "-c", 'printf "%s\\n" "$@"', "sh", *CREDENTIALS, "--lr", "0.01")
    shown = envdoctor(*args, *command, cwd=tmp_path)
    as_json = envdoctor(*args, "--json", *command, cwd=tmp_path)
    assert shown.returncode == 0 and as_json.returncode == 0
    assert shown.stdout.splitlines() == [*CREDENTIALS, "--lr", "0.01"]  # what ran
    document = json.loads(as_json.stdout.splitlines()[0])
    for secret in ("hf_abcdef", "hunter2", "hf_zyxw"):
        assert secret not in shown.stderr and secret not in as_json.stdout.splitlines()[0]
    assert document["command"][-6:] == [
        "--hf-token",
        "<secret-1>",
        "--password=<secret-2>",
        "HF_TOKEN=<secret-3>",
        "--lr",
        "0.01",
    ]
    assert "--lr 0.01 anyway (--warn-only)" in shown.stderr


def test_warn_only_without_a_command_exits_0(tmp_path):
    result = envdoctor("preflight", "--warn-only", "--require", "gpus>=64", cwd=tmp_path)
    assert result.returncode == 0
    assert "gpus>=64" in result.stderr


def test_no_gpu_here_fails_gpu_requirement(tmp_path):
    result = envdoctor("preflight", "--require", "gpu", "--", "true", cwd=tmp_path)
    assert result.returncode == 1
    assert "✗ gpu" in result.stderr or "? gpu" in result.stderr


# -- JSON ----------------------------------------------------------------------------------------


def test_json_output(tmp_path):
    python = torch_python()
    result = envdoctor(
        "preflight",
        "--json",
        "--python",
        python,
        "--require",
        "torch>=2.0,torch>=99",
        "--",
        "true",
        cwd=tmp_path,
    )
    assert result.returncode == 1
    assert result.stderr == ""
    doc = json.loads(result.stdout)
    assert doc["kind"] == "preflight" and doc["ok"] is False and doc["starts_command"] is False
    assert doc["command"] == ["true"]
    states = [(r["requirement"], r["state"]) for r in doc["requirements"]]
    assert states == [("torch>=2.0", "met"), ("torch>=99", "unmet")]
    assert doc["requirements"][1]["evidence"][0]["fact"] == "python.torch.version"
    assert "python.packages" in doc["snapshot"]["groups"]


def test_json_success_then_exec(tmp_path):
    python = torch_python()
    result = envdoctor(
        "preflight",
        "--json",
        "--python",
        python,
        "--require",
        "torch",
        "--",
        "sh",
        "-c",
        "echo started",
        cwd=tmp_path,
    )
    assert result.returncode == 0
    head, tail = result.stdout.rsplit("}\n", 1)
    assert json.loads(head + "}")["ok"] is True and tail == "started\n"


# -- usage errors --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec, says",
    [
        ("vram>=24", "'vram>=24'"),
        ("gpuz", "'gpuz'"),
        ("no:not.a-known-finding", "unknown finding id 'not.a-known-finding'"),
        ("app=vllm-does-not-exist", "unknown app 'vllm-does-not-exist'"),
    ],
)
def test_malformed_requirement_is_a_usage_error(tmp_path, spec, says):
    marker = tmp_path / "ran"
    result = envdoctor("preflight", "--require", spec, "--", "touch", str(marker), cwd=tmp_path)
    assert result.returncode == 2
    assert says in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not marker.exists()


def test_bad_timeout_is_a_usage_error(tmp_path):
    assert (
        envdoctor("preflight", "--timeout", "0", "--require", "gpu", cwd=tmp_path).returncode == 2
    )


# -- configuration files -------------------------------------------------------------------------


def test_requirements_from_envdoctor_toml(tmp_path):
    python = torch_python()
    (tmp_path / "envdoctor.toml").write_text('[preflight]\nrequire = ["torch>=99"]\n')
    result = envdoctor("preflight", "--json", "--python", python, cwd=tmp_path)
    assert result.returncode == 1
    (req,) = json.loads(result.stdout)["requirements"]
    assert req["requirement"] == "torch>=99" and req["origin"] == "envdoctor.toml [preflight]"


def test_requirements_from_pyproject(tmp_path):
    python = torch_python()
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.envdoctor.preflight]\n'
        'require = ["torch>=2.0"]\ntimeout = 30\n'
    )
    result = envdoctor("preflight", "--json", "--python", python, "--", "true", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    assert [r["origin"] for r in doc["requirements"]] == [
        "pyproject.toml [tool.envdoctor.preflight]"
    ]


def test_command_line_and_config_add_up(tmp_path):
    (tmp_path / "envdoctor.toml").write_text('[preflight]\nrequire = "torch"\n')
    specs, origin, timeout = preflight.read_config(None, tmp_path)
    assert specs == ["torch"] and origin == "envdoctor.toml [preflight]" and timeout is None


def test_explicit_config_file(tmp_path):
    config = tmp_path / "conf" / "needs.toml"
    config.parent.mkdir()
    config.write_text('[preflight]\nrequire = ["gpus>=2", "vram>=40GB"]\ntimeout = 3\n')
    assert preflight.read_config(str(config), tmp_path) == (
        ["gpus>=2", "vram>=40GB"],
        "needs.toml [preflight]",
        3.0,
    )


def test_pyproject_without_a_table_is_ignored(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert preflight.read_config(None, tmp_path) == ([], None, None)


@pytest.mark.parametrize(
    "text, says",
    [
        ("[preflight\nrequire = 1", "not valid TOML"),
        ('[preflight]\nrequires = ["gpu"]\n', "unknown key 'requires'"),
        ("[preflight]\nrequire = [1, 2]\n", "list of strings"),
        ('[preflight]\ntimeout = "soon"\n', "number of seconds"),
        ("preflight = 3\n", "must be a table"),
    ],
)
def test_malformed_config_is_a_usage_error(tmp_path, text, says):
    (tmp_path / "envdoctor.toml").write_text(text)
    with pytest.raises(UsageError, match=says):
        preflight.read_config(None, tmp_path)
    result = envdoctor("preflight", "--", "true", cwd=tmp_path)
    assert result.returncode == 2 and "envdoctor.toml" in result.stderr


def test_bad_requirement_in_config_names_it(tmp_path):
    (tmp_path / "envdoctor.toml").write_text('[preflight]\nrequire = ["gpu", "vram>=lots"]\n')
    result = envdoctor("preflight", cwd=tmp_path)
    assert result.returncode == 2 and "'vram>=lots'" in result.stderr


def test_missing_config_file_is_a_usage_error(tmp_path):
    result = envdoctor("preflight", "--config", str(tmp_path / "nope.toml"), cwd=tmp_path)
    assert result.returncode == 2 and "nope.toml" in result.stderr


# -- only what is needed, within the deadline ----------------------------------------------------


def fake_probe(monkeypatch, name: str, groups: tuple[str, ...], collect) -> list:
    """Register a probe module `name` (filling `groups`); returns the list of contexts it ran with."""
    calls: list = []

    def run(ctx):
        calls.append(ctx)
        return collect(ctx)

    module = types.ModuleType(f"envdoctor.probes.{name}")
    module.GROUPS = groups
    module.TIMEOUT_S = 60.0
    module.collect = run
    monkeypatch.setitem(sys.modules, f"envdoctor.probes.{name}", module)
    import envdoctor.probes as probes

    monkeypatch.setattr(probes, "PROBE_MODULES", tuple(probes.PROBE_MODULES) + (name,))
    return calls


def test_only_the_needed_probes_run(monkeypatch):
    from envdoctor.model.snapshot import absent

    calls = fake_probe(
        monkeypatch,
        "fake_gpus",
        ("nvidia.gpus",),
        lambda ctx: [absent("nvidia.gpus", "probe:fake", "no NVIDIA device")],
    )
    assert preflight.probe_modules_for({"python.packages"}) == ("python_env",)
    _verdicts, snap, _ = preflight.judge(parse_requirements(["torch"]), timeout_s=10)
    assert calls == [] and "os" not in snap.groups and snap.has("python.packages")
    assert "fake_gpus" in preflight.probe_modules_for({"nvidia.gpus"})
    verdicts, snap, _ = preflight.judge(parse_requirements(["gpu"]), timeout_s=10)
    assert len(calls) == 1 and "python.packages" not in snap.groups
    assert "no NVIDIA device" in verdicts[0].reason


def test_a_hung_tool_is_abandoned_at_the_timeout(monkeypatch, fake_tools):
    path = fake_tools({"nvidia-smi": "#!/bin/sh\nsleep 30\n"})
    from envdoctor.model.snapshot import failed

    def collect(ctx):
        result = ctx.run(["nvidia-smi", "-q", "-x"], timeout_s=30)
        return [failed("nvidia.gpus", "probe:fake", result.describe_failure())]

    fake_probe(monkeypatch, "fake_hung_smi", ("nvidia.gpus", "nvidia.driver"), collect)
    monkeypatch.setenv("PATH", f"{path}:{os.environ['PATH']}")
    start = time.monotonic()
    verdicts, _snap, _ = preflight.judge(parse_requirements(["gpu", "driver>=550"]), timeout_s=1.0)
    elapsed = time.monotonic() - start
    assert elapsed < 5, elapsed
    assert [v.state for v in verdicts] == [UNKNOWN, UNKNOWN]
    assert "did not finish within" in verdicts[0].reason


def test_no_rich_on_the_preflight_path(tmp_path):
    code = (
        "import sys; from envdoctor import cli; rc = cli.main(['preflight', '--require', 'gpu,torch']); "
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('rich', 'torch', 'tensorflow', 'jax')); "
        "print(heavy)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=60,
    )
    assert result.stdout.strip() == "[]", result.stdout + result.stderr


def test_failure_shows_the_first_fix_of_the_deciding_finding(monkeypatch):
    """A finding requirement that fires prints the finding's first fix (here through a test check)."""
    from envdoctor.model.checkdef import check
    from envdoctor.model.findings import Finding, Fix, Severity

    @check("test.always-fires", needs=("python.packages",))
    def fires(_snap, _m):
        """Test double."""
        return Finding(
            "test.always-fires",
            Severity.WARNING,
            "The test finding fired",
            fixes=(Fix("Run the fix", ("echo fix-one",)), Fix("Second fix", ("echo two",))),
        )

    import envdoctor.checks as checks

    monkeypatch.setattr(checks, "load_checks", lambda modules=None: [fires])
    monkeypatch.setattr(checks, "read_index", lambda: None)  # the fake registry has no index
    verdicts, snap, causes = preflight.judge(
        parse_requirements(["no:test.always-fires"]), timeout_s=10
    )
    assert verdicts[0].state == "unmet" and causes[0].id == "test.always-fires"
    text = preflight._text(verdicts, causes, ["python", "train.py"], False, False, time.monotonic())
    assert (
        "The test finding fired" in text and "fix:   Run the fix" in text and "echo fix-one" in text
    )
    assert "echo two" not in text and "not starting python train.py" in text


def test_end_to_end_cpu_torch_on_an_a100(real_captures, fake_tools, tmp_path):
    """A fake nvidia-smi printing a real A100 capture, a real CPU-only torch: the GPU requirements
    are met, torch.cuda is not, and the first fix is the torch reinstall for this GPU and driver."""
    if not preflight.probe_modules_for({"nvidia.gpus"}):
        pytest.skip("no probe module in PROBE_MODULES fills nvidia.gpus yet")
    python = torch_python()
    capture = real_captures / "nvidia-smi-q-x" / "telegraf-a100-sxm4-80gb-mig-driver-535.54.03.xml"
    tools = fake_tools({"nvidia-smi": f"#!/bin/sh\ncat '{capture}'\n"})
    result = envdoctor(
        "preflight",
        "--json",
        "--python",
        python,
        "--require",
        "gpu,vendor=nvidia,vram>=80GB,compute>=8.0,driver>=535,cuda-driver>=12.2",
        "--require",
        "torch.cuda",
        "--",
        "true",
        cwd=tmp_path,
        env={"PATH": f"{tools}:{os.environ['PATH']}"},
    )
    assert result.returncode == 1, result.stderr
    states = {r["requirement"]: r for r in json.loads(result.stdout)["requirements"]}
    assert [k for k, r in states.items() if r["state"] != "met"] == ["torch.cuda"]
    torch_cuda = states["torch.cuda"]
    assert torch_cuda["cause"]["id"] == "torch.cpu-build-on-gpu-host"
    assert any(
        "--index-url https://download.pytorch.org/whl/cu" in c
        for c in torch_cuda["fix"]["commands"]
    )
