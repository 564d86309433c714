"""Probe context and the parallel probe runner: timeouts, crashes, caching, fake roots."""

from __future__ import annotations

import sys
import time
import types
from pathlib import Path

import pytest

from envdoctor import probes
from envdoctor.model.snapshot import Status, collected
from envdoctor.probes.context import ProbeContext, ProbeOptions, run_command


def test_run_command_cuts_off_a_hanging_tool_with_its_children(fake_tools):
    path = fake_tools({"nvidia-smi": "#!/bin/sh\nsleep 60 &\nsleep 60\n"})
    start = time.monotonic()
    result = run_command([f"{path}/nvidia-smi"], timeout_s=0.5)
    assert time.monotonic() - start < 5
    assert result.error == "nvidia-smi timed out after 0.5 s"
    assert not result.ok


@pytest.mark.parametrize(
    "script, mode, expected",
    [
        (None, None, "not found"),
        ("#!/bin/sh\necho hi\n", 0o644, "not executable"),
        ("#!/bin/sh\necho broken >&2\nexit 9\n", 0o755, "exited 9: broken"),
    ],
)
def test_run_command_failures_become_reasons(tmp_path, script, mode, expected):
    tool = tmp_path / "tool"
    if script is not None:
        tool.write_text(script)
        tool.chmod(mode)
    result = run_command([str(tool)], timeout_s=5)
    assert expected in result.describe_failure()


def test_run_is_cached_per_context(fake_tools, tmp_path):
    counter = tmp_path / "count"
    path = fake_tools({"tool": f"#!/bin/sh\necho x >> {counter}\necho out\n"})
    ctx = ProbeContext(env={"PATH": path})
    assert ctx.run(["tool"]).stdout == "out\n"
    assert ctx.run(["tool"]).stdout == "out\n"
    assert counter.read_text().count("x") == 1


def test_reads_are_rooted_and_explain_failures(fake_root):
    root = fake_root({"/etc/os-release": 'ID=debian\nVERSION_ID="12"\n', "/proc/x": "1"})
    ctx = ProbeContext(root=root)
    assert "debian" in ctx.read_text("/etc/os-release")
    assert ctx.read("/nope").error == "/nope does not exist"
    assert ctx.glob("/etc/*") == ["/etc/os-release"]
    assert ctx.listdir("/proc") == ["x"]


def _fake_probe(name: str, behaviour):
    module = types.ModuleType(f"envdoctor.probes.{name}")
    module.GROUPS = (f"fake.{name}",)
    module.TIMEOUT_S = 0.5
    module.collect = behaviour
    sys.modules[module.__name__] = module
    return module


def test_hanging_and_crashing_probes_become_failed_groups(monkeypatch):
    _fake_probe("fake_hang", lambda ctx: time.sleep(30))
    _fake_probe("fake_crash", lambda ctx: 1 / 0)
    _fake_probe("fake_ok", lambda ctx: [collected("fake.fake_ok", "test", {"a": 1})])
    ctx = ProbeContext(options=ProbeOptions(timeout_s=5))
    start = time.monotonic()
    result = probes.collect_all(ctx, ("fake_hang", "fake_crash", "fake_ok", "fake_missing"))
    assert time.monotonic() - start < 3
    snap = result.snapshot
    hang = snap.group("fake.fake_hang")
    assert hang.status is Status.FAILED and "did not finish within" in hang.reason
    crash = snap.group("fake.fake_crash")
    assert crash.status is Status.FAILED and "ZeroDivisionError" in crash.reason
    assert snap.fact("fake.fake_ok", "a") == 1
    assert snap.group("fake_missing").status is Status.FAILED
    outcomes = {t.name: t.outcome for t in result.timings}
    assert outcomes == {
        "fake_hang": "timeout",
        "fake_crash": "crashed",
        "fake_ok": "ok",
        "fake_missing": "crashed",
    }
    assert snap.has("envdoctor.timings")


def test_overall_deadline_bounds_the_whole_collection():
    _fake_probe("fake_slow_a", lambda ctx: time.sleep(30))
    _fake_probe("fake_slow_b", lambda ctx: time.sleep(30))
    for name in ("fake_slow_a", "fake_slow_b"):
        sys.modules[f"envdoctor.probes.{name}"].TIMEOUT_S = 60
    ctx = ProbeContext(options=ProbeOptions(timeout_s=0.5))
    start = time.monotonic()
    probes.collect_all(ctx, ("fake_slow_a", "fake_slow_b"))
    assert time.monotonic() - start < 2.5


def test_os_probe_on_a_fake_root(fake_root):
    from envdoctor.probes import os_info

    root = fake_root(
        {
            "/etc/os-release": 'PRETTY_NAME="Ubuntu 22.04.4 LTS"\nNAME="Ubuntu"\nVERSION_ID="22.04"\n'
            "ID=ubuntu\nID_LIKE=debian\nVERSION_CODENAME=jammy\n",
            "/proc/sys/kernel/osrelease": "5.15.153.1-microsoft-standard-WSL2\n",
            "/proc/version": "Linux version 5.15.153.1-microsoft-standard-WSL2 (root@941d701f84f1)\n",
        }
    )
    [group] = os_info.collect(ProbeContext(root=root))
    assert group.data["distro_id"] == "ubuntu"
    assert group.data["distro_version"] == "22.04"
    assert group.data["kernel"] == "5.15.153.1-microsoft-standard-WSL2"
    assert group.data["virtualization"] == "wsl"


def test_python_probe_on_another_interpreter_and_a_broken_one(fake_tools):
    from envdoctor.probes import python_env

    ctx = ProbeContext(options=ProbeOptions(python=sys.executable))
    python, packages = python_env.collect(ctx)
    assert python.data["version"].startswith(f"{sys.version_info.major}.{sys.version_info.minor}")
    assert "packaging" in packages.data["packages"]
    bad = fake_tools({"python": "#!/bin/sh\necho 'not json'\n"})
    groups = python_env.collect(ProbeContext(options=ProbeOptions(python=f"{bad}/python")))
    assert all(g.status is Status.FAILED for g in groups)
    assert "printed no JSON" in groups[0].reason


OS_RELEASES = {
    "this machine": None,  # /etc/os-release here
    "ubuntu 22.04": 'PRETTY_NAME="Ubuntu 22.04.4 LTS"\nNAME="Ubuntu"\nVERSION_ID="22.04"\n'
    'VERSION="22.04.4 LTS (Jammy Jellyfish)"\nVERSION_CODENAME=jammy\nID=ubuntu\nID_LIKE=debian\n'
    "UBUNTU_CODENAME=jammy\n",
    "codename only in VERSION": 'NAME="Rocky Linux"\nVERSION="9.3 (Blue Onyx)"\nID="rocky"\nID_LIKE="rhel centos fedora"\n'
    'VERSION_ID="9.3"\nPRETTY_NAME="Rocky Linux 9.3 (Blue Onyx)"\n',
    "normalized id": 'NAME="Oracle Linux Server"\nVERSION="8.9"\nID="ol"\nID_LIKE="fedora"\nVERSION_ID="8.9"\n'
    'PRETTY_NAME="Oracle Linux Server 8.9"\nVERSION_CODENAME=""\n',
    "escaped quotes": 'ID=custom\nVERSION_ID="1.0"\nPRETTY_NAME="Custom \\"edge\\" 1.0"\nVERSION_CODENAME=edge # comment\n',
    "no codename": 'ID=arch\nPRETTY_NAME="Arch Linux"\nVERSION_ID=rolling\n',
    "no version id": 'PRETTY_NAME="Debian GNU/Linux trixie/sid"\nNAME="Debian GNU/Linux"\nVERSION_CODENAME=trixie\nID=debian\n',
    "unterminated quote": 'ID="broken\nVERSION_ID=1\n',
}


@pytest.mark.parametrize("name", sorted(OS_RELEASES))
def test_os_release_reading_agrees_with_distro(name, tmp_path):
    """Where the fast os-release path answers, it answers what the `distro` package says; where
    it cannot (no codename, no VERSION_ID, bad quoting), it leaves the question to distro."""
    distro = pytest.importorskip("distro")
    from envdoctor.probes import os_info

    text = OS_RELEASES[name]
    if text is None:
        if not Path("/etc/os-release").is_file():
            pytest.skip("no /etc/os-release here")
        ctx, root_dir = ProbeContext(), None
    else:
        (tmp_path / "etc").mkdir()
        (tmp_path / "etc" / "os-release").write_text(text)
        ctx, root_dir = ProbeContext(root=tmp_path), str(tmp_path)
    fast = os_info.os_release_facts(ctx)
    if name in ("no codename", "no version id", "unterminated quote"):
        assert fast is None
        return
    info = distro.LinuxDistribution(
        include_lsb=False, include_uname=False, include_oslevel=False, root_dir=root_dir
    )
    assert fast == {
        "distro_id": info.id() or None,
        "distro_version": info.version() or None,
        "distro_name": info.name(pretty=True) or None,
        "distro_like": info.like().split() if info.like() else [],
        "distro_codename": info.codename() or None,
    }


def test_which_follows_shutil_which(tmp_path):
    """ProbeContext.which (written out on POSIX) finds what shutil.which finds: executables only,
    not folders or files without the execute bit, the first PATH entry first."""
    import os
    import shutil

    first, second = tmp_path / "a", tmp_path / "b"
    for folder in (first, second):
        folder.mkdir()
    (first / "tool").write_text("#!/bin/sh\n")  # not executable: skipped
    (second / "tool").write_text("#!/bin/sh\n")
    (second / "tool").chmod(0o755)
    (first / "dir-tool").mkdir()  # a folder: skipped
    path = os.pathsep.join([str(first), "", str(second), "/usr/bin", "/bin"])
    ctx = ProbeContext(env={"PATH": path})
    for name in (
        "tool",
        "dir-tool",
        "sh",
        "ls",
        "no-such-tool",
        str(second / "tool"),
        str(first / "tool"),
    ):
        assert ctx.which(name) == shutil.which(name, path=path), name


def test_stop_waits_for_a_command_being_started(monkeypatch):
    """A command another thread is starting when `stop` runs is killed before `stop` returns, so a
    process that ends at once (os._exit in the CLI and the probe worker) leaves no tool behind."""
    import os
    import shutil
    import subprocess
    import threading

    sleep = shutil.which("sleep")
    if sleep is None:
        pytest.skip("no sleep here")
    real_popen = subprocess.Popen
    spawned = []

    class SlowStart(real_popen):  # the process exists, but its start has not returned yet
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            spawned.append(self.pid)
            time.sleep(0.3)

    monkeypatch.setattr(subprocess, "Popen", SlowStart)
    ctx = ProbeContext()
    worker = threading.Thread(target=ctx.run, args=([sleep, "30"], 60), daemon=True)
    worker.start()
    deadline = time.monotonic() + 5
    while not spawned and time.monotonic() < deadline:
        time.sleep(0.01)
    assert spawned
    ctx.stop()
    pid = spawned[0]
    try:
        finished, _status = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        finished = pid  # already reaped by the starting thread
    gone = finished == pid
    if not gone:
        time.sleep(0.05)
        try:
            os.kill(pid, 0)
            gone = os.waitpid(pid, os.WNOHANG)[0] == pid
        except (ProcessLookupError, ChildProcessError):
            gone = True
    assert gone, "the command started during stop() still runs"
    assert "not run" in ctx.run([sleep, "1"], 5).describe_failure()  # and nothing new starts
    worker.join(5)
