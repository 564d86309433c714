"""Fault injection: `envdoctor check` keeps its deadline and its exit codes, and says what failed.

Every run is a real subprocess (`python -m envdoctor check --json`) with PATH pointing at fake
tools only: each external tool the probes use is missing, cannot start, exits non-zero, prints
garbage or hangs (a fake `nvidia-smi` that sleeps 60 s, and every tool at once), plus a real
nvidia-smi XML cut in half, an NVML library that is missing, errs or hangs (a stand-in
libnvidia-ml.so.1 built with cc), and a Docker socket that refuses or never answers. The files the
probes read are faulted through a fake root (the same pipeline as `check`, with every probe on
the fake tree): unreadable (mode 000 in a user namespace, since root reads anything), a FIFO,
a directory, garbage. Each time the run ends within its deadline, the exit code is the
documented one for the findings it printed, no fake tool outlives it, and the report names what
failed and why.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

DEADLINE_S = 6.0  # the --timeout each run gets
SLACK_S = 10.0  # start-up, checks and rendering on a loaded 2-core machine
# Every external tool a probe runs (ctx.run) or looks for (ctx.which) on Linux.
TOOLS = (
    "nvidia-smi",
    "nvidia-ctk",
    "nvidia-container-cli",
    "nvidia-container-runtime",
    "nvidia-container-runtime-hook",
    "nvidia-cdi-hook",
    "nvidia-modprobe",
    "docker",
    "dockerd",
    "podman",
    "nvcc",
    "rocminfo",
    "rocm-smi",
    "amd-smi",
    "ldconfig",
    "ldd",
    "dmesg",
    "journalctl",
    "systemd-detect-virt",
    "systemctl",
    "modinfo",
    "mokutil",
    "glxinfo",
    "vulkaninfo",
    "lspci",
    "ollama",
    "llama-server",
    "llama-cli",
    "file",
    "sysctl",
    "tegrastats",
    "jtop",
    "wslinfo",
    "getprop",
)
# Tools whose failure is part of their normal answer, so a report need not call it a failure.
EXIT_STATUS_IS_THE_ANSWER = {"systemd-detect-virt"}  # exits 1 and prints "none" outside a VM
# How long a hanging fake sleeps: 60 s, spelled uniquely so a reused PID is not taken for it.
HANG_S = f"{60 + (os.getpid() % 1000) / 1000:.3f}"
GARBAGE = bytes(range(256)) * 16 + b"<?xml version='1.0'?>\n<nvidia_smi_log>\n<driver_version>55"
FAKE_NVML_C = r"""
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static const char *mode(void) { const char *m = getenv("FAKE_NVML"); return m ? m : ""; }
int nvmlInit_v2(void) {
    if (!strcmp(mode(), "hang")) { sleep(60); return 0; }
    if (!strcmp(mode(), "driver-not-loaded")) return 9;
    if (!strcmp(mode(), "unknown")) return 999;
    return 0;
}
int nvmlInit(void) { return nvmlInit_v2(); }
int nvmlInitWithFlags(unsigned int flags) { (void)flags; return nvmlInit_v2(); }
int nvmlShutdown(void) { return 0; }
int nvmlSystemGetDriverVersion(char *v, unsigned int n) { (void)v; (void)n; return 999; }
int nvmlSystemGetNVMLVersion(char *v, unsigned int n) { (void)v; (void)n; return 999; }
int nvmlSystemGetCudaDriverVersion(int *v) { (void)v; return 999; }
int nvmlSystemGetCudaDriverVersion_v2(int *v) { (void)v; return 999; }
int nvmlDeviceGetCount_v2(unsigned int *c) { (void)c; return 15; }
int nvmlDeviceGetCount(unsigned int *c) { return nvmlDeviceGetCount_v2(c); }
const char *nvmlErrorString(int r) { return r == 15 ? "GPU is lost" : r == 9 ? "Driver Not Loaded" : "Unknown Error"; }
"""
# check's pipeline on a fake root for every probe (`check --root` keeps this host's driver facts).
FAKE_ROOT_CHECK = """
import sys
from envdoctor.probes.context import ProbeOptions
from envdoctor.diagnosis.pipeline import collect_live, diagnose, exit_code_for
from envdoctor.render import render
snapshot = collect_live(ProbeOptions(timeout_s=float(sys.argv[2])), root=sys.argv[1])
report = diagnose(snapshot, kind="check")
sys.stdout.write(render(report, "json"))
sys.exit(exit_code_for(report, "error"))
"""


@dataclass
class Run:
    """One finished envdoctor run."""

    returncode: int
    doc: dict
    stderr: str
    seconds: float

    def texts(self) -> list[str]:
        """Every string of the snapshot (reasons, data) and of the findings."""
        found: list[str] = []

        def walk(value: object) -> None:
            if isinstance(value, str):
                found.append(value)
            elif isinstance(value, dict):
                for item in value.values():
                    walk(item)
            elif isinstance(value, list):
                for item in value:
                    walk(item)

        for group in self.doc["snapshot"]["groups"].values():
            walk(group.get("reason"))
            walk(group.get("data"))
        walk(self.doc["findings"])
        return found

    def group(self, name: str) -> dict:
        """One fact group of the snapshot."""
        return self.doc["snapshot"]["groups"][name]

    def finding_ids(self) -> list[str]:
        """The ids of the findings, in report order."""
        return [f["id"] for f in self.doc["findings"]]


def run_check(
    tmp_path: Path,
    path: str,
    *args: str,
    env: dict[str, str] | None = None,
    deadline_s: float = DEADLINE_S,
    argv: list[str] | None = None,
) -> Run:
    """`envdoctor check --json --timeout D` with PATH=`path`, HOME and the caches in tmp_path."""
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    run_env = {
        "PATH": path,
        "HOME": str(home),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "LC_ALL": "C",
        "DOCKER_HOST": f"unix://{tmp_path}/no-docker.sock",
        **(env or {}),
    }
    command = argv or [
        sys.executable,
        "-m",
        "envdoctor",
        "check",
        "--json",
        "--timeout",
        f"{deadline_s:g}",
        *args,
    ]
    start = time.monotonic()
    done = subprocess.run(
        command, env=run_env, cwd=tmp_path, capture_output=True, text=True, timeout=deadline_s + 60
    )
    seconds = time.monotonic() - start
    assert done.stdout.strip(), f"no JSON on stdout (exit {done.returncode}): {done.stderr[-2000:]}"
    return Run(done.returncode, json.loads(done.stdout), done.stderr, seconds)


def assert_well_formed(run: Run, deadline_s: float = DEADLINE_S) -> None:
    """Within the deadline, the documented exit code, no crash, every missing fact explained."""
    assert run.seconds < deadline_s + SLACK_S, f"took {run.seconds:.1f} s"
    errors = [f for f in run.doc["findings"] if f["severity"] == "error"]
    assert run.returncode == (1 if errors else 0), (
        run.returncode,
        [f["id"] for f in errors],
        run.stderr[-500:],
    )
    assert "envdoctor.check-crashed" not in run.finding_ids()
    probes = run.group("envdoctor.timings")["data"]["probes"]
    assert [p["name"] for p in probes if p["outcome"] == "crashed"] == []
    for name, group in run.doc["snapshot"]["groups"].items():
        assert group["status"] in ("collected", "absent", "failed"), name
        if group["status"] != "collected":
            assert group.get("reason"), f"{name} is {group['status']} without a reason"


def write_tools(folder: Path, mode: str, log: Path, names: tuple[str, ...] = TOOLS) -> str:
    """Fake tools that each log "PID NAME ARGS" and then fail in `mode`; returns the folder."""
    folder.mkdir(parents=True, exist_ok=True)
    garbage = folder.parent / "garbage.bin"
    garbage.write_bytes(GARBAGE)
    sleep, cat = shutil.which("sleep"), shutil.which("cat")  # absolute: PATH holds the fakes only
    for name in names:
        tool = folder / name
        if mode == "cannot-start":  # executable bit, but no #! line and no ELF header: ENOEXEC
            tool.write_bytes(b"\x00\x01\x02 not a program\n")
        else:
            body = {
                "hang": f"exec {sleep} {HANG_S}",
                "fail": f"echo 'envdoctor-fault: {name} failed on purpose' >&2; exit 3",
                "garbage": f"{cat} {garbage}",
                "not-executable": "exit 0",
            }[mode]
            tool.write_text(f'#!/bin/sh\necho "$$ {name} $*" >> {log}\n{body}\n')
        tool.chmod(0o644 if mode == "not-executable" else 0o755)
    return str(folder)


def sigint_as_at_a_terminal() -> None:
    """preexec_fn for a child a test interrupts with SIGINT: Ctrl-C's default action, as in a
    terminal, even when the test run itself was started with SIGINT ignored (nohup, a background
    job of a shell without job control), which every child would otherwise inherit."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def invoked(log: Path) -> dict[str, list[int]]:
    """The fake tools that ran, with the PIDs they ran as."""
    found: dict[str, list[int]] = {}
    if log.exists():
        for line in log.read_text().splitlines():
            pid, name = line.split()[:2]
            found.setdefault(name, []).append(int(pid))
    return found


def survivors(log: Path) -> list[str]:
    """The log lines of fake tools still running."""
    return [
        line
        for line in (log.read_text().splitlines() if log.exists() else [])
        if _running(int(line.split()[0]))
    ]


def assert_no_survivors(log: Path) -> None:
    """No fake tool of `log` is still running (a killed process may take a moment to go)."""
    deadline = time.monotonic() + 2.0
    alive = survivors(log)
    while alive and time.monotonic() < deadline:
        time.sleep(0.05)
        alive = survivors(log)
    assert alive == [], (
        f"fake tools still running after envdoctor exited: {alive} (of {log.read_text()})"
    )


def _running(pid: int) -> bool:
    """Whether `pid` is still a hanging fake (its `sleep HANG_S`), not a zombie or a reused PID."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            state = handle.read().split(")")[-1].split()[0]
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            argv = handle.read().split(b"\0")
    except OSError:
        return False
    return state != "Z" and HANG_S.encode() in argv


def named(run: Run, tool: str, words: tuple[str, ...]) -> bool:
    """Whether some text of the report names `tool` together with one of `words`."""
    return any(tool in text and any(w in text for w in words) for text in run.texts())


# -- tools ----------------------------------------------------------------------------------------


def test_every_tool_missing(tmp_path):
    empty = tmp_path / "bin"
    empty.mkdir()
    run = run_check(tmp_path, str(empty))
    assert_well_formed(run)
    assert "nvidia-smi not found" in run.group("nvidia.driver")["reason"]
    assert run.group("container.podman")["reason"] == "podman is not on PATH"


def test_tools_without_execute_permission_count_as_missing(tmp_path):
    bindir = write_tools(tmp_path / "bin", "not-executable", tmp_path / "log")
    run = run_check(tmp_path, bindir)
    assert_well_formed(run)
    assert invoked(tmp_path / "log") == {}
    assert "nvidia-smi not found" in run.group("nvidia.driver")["reason"]


def test_every_tool_exits_non_zero(tmp_path):
    log = tmp_path / "log"
    run = run_check(tmp_path, write_tools(tmp_path / "bin", "fail", log))
    assert_well_formed(run)
    ran = invoked(log)
    assert {"nvidia-smi", "podman", "nvcc", "dmesg", "modinfo", "rocminfo"} <= set(ran)
    unnamed = [
        t
        for t in ran
        if t not in EXIT_STATUS_IS_THE_ANSWER
        and not named(run, t, ("exited 3", "failed on purpose"))
    ]
    assert unnamed == []


def test_every_tool_cannot_start(tmp_path):
    run = run_check(tmp_path, write_tools(tmp_path / "bin", "cannot-start", tmp_path / "log"))
    assert_well_formed(run)
    for tool in ("nvidia-smi", "podman", "nvcc", "rocminfo", "dmesg", "modinfo"):
        assert named(run, tool, ("could not start", "Exec format error")), tool


def test_every_tool_prints_garbage(tmp_path):
    log = tmp_path / "log"
    run = run_check(tmp_path, write_tools(tmp_path / "bin", "garbage", log))
    assert_well_formed(run)
    assert "nvidia-smi" in invoked(log)
    driver = run.group("nvidia.driver")
    assert "unreadable XML" in json.dumps(driver)


def test_every_tool_hangs_and_the_deadline_holds(tmp_path):
    log = tmp_path / "log"
    run = run_check(tmp_path, write_tools(tmp_path / "bin", "hang", log))
    assert_well_formed(run)
    ran = invoked(log)
    assert len(ran) >= 8
    assert_no_survivors(log)
    probes = {p["name"]: p["outcome"] for p in run.group("envdoctor.timings")["data"]["probes"]}
    abandoned = [name for name, outcome in probes.items() if outcome == "timeout"]
    assert abandoned, probes  # the overall deadline, not the tools, ended the run
    waited_on = []
    for group in run.doc["snapshot"]["groups"].values():
        if group["status"] == "failed" and "abandoned" in group["reason"]:
            assert "still running: " in group["reason"], group["reason"]
            waited_on.append(group["reason"].split("still running: ")[1])
    # an abandoned probe names the command it waits for; the earlier ones it ran timed out unseen
    assert any("nvidia-smi timed out" in t or "ldconfig" in t for t in run.texts())
    assert waited_on


def test_hanging_nvidia_smi_is_cut_off(tmp_path):
    log = tmp_path / "log"
    bindir = write_tools(tmp_path / "bin", "hang", log, names=("nvidia-smi",))
    run = run_check(tmp_path, bindir, deadline_s=20.0)
    assert_well_formed(run, deadline_s=20.0)
    assert run.seconds < 5.0 + SLACK_S  # nvidia-smi's own 5 s timeout, not the overall deadline
    assert invoked(log)["nvidia-smi"]
    assert_no_survivors(log)
    assert "nvidia-smi timed out after 5 s" in json.dumps(run.group("nvidia.driver"))
    assert "nvidia.driver-not-responding" in run.finding_ids()
    assert run.returncode == 1


def test_truncated_nvidia_smi_xml(tmp_path, real_captures):
    capture = real_captures / "nvidia-smi-q-x" / "telegraf-a100-sxm4-80gb-mig-driver-535.54.03.xml"
    text = capture.read_text()
    half = tmp_path / "half.xml"
    half.write_text(text[: len(text) // 2])
    bindir = tmp_path / "bin"
    bindir.mkdir()
    tool = bindir / "nvidia-smi"
    tool.write_text(f"#!/bin/sh\n{shutil.which('cat')} {half}\n")
    tool.chmod(0o755)
    run = run_check(tmp_path, str(bindir))
    assert_well_formed(run)
    driver = json.dumps(run.group("nvidia.driver"))
    assert "nvidia-smi printed unreadable XML" in driver
    assert run.group("nvidia.gpus")["status"] in ("absent", "failed")


# -- NVML ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def fake_nvml(tmp_path_factory) -> Path:
    """A folder holding a stand-in libnvidia-ml.so.1 (FAKE_NVML picks its fault)."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler to build a stand-in libnvidia-ml.so.1 (apt-get install gcc)")
    folder = tmp_path_factory.mktemp("nvml")
    source = folder / "fake_nvml.c"
    source.write_text(FAKE_NVML_C)
    subprocess.run(
        [compiler, "-shared", "-fPIC", "-o", str(folder / "libnvidia-ml.so.1"), str(source)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return folder


def test_nvml_library_missing(tmp_path):
    empty = tmp_path / "bin"
    empty.mkdir()
    run = run_check(tmp_path, str(empty), env={"LD_LIBRARY_PATH": str(tmp_path / "nothing")})
    assert_well_formed(run)
    assert "NVML Shared Library Not Found" in run.group("nvidia.driver")["reason"]


@pytest.mark.parametrize(
    ("mode", "where", "said"),
    [
        ("driver-not-loaded", "nvidia.driver", "Driver Not Loaded"),
        ("unknown", "nvidia.gpus", "Unknown Error"),
        ("count-error", "nvidia.gpus", "NVML could not count them: GPU is lost"),
    ],
)
def test_nvml_returning_errors(tmp_path, fake_nvml, mode, where, said):
    empty = tmp_path / "bin"
    empty.mkdir()
    run = run_check(
        tmp_path, str(empty), env={"LD_LIBRARY_PATH": str(fake_nvml), "FAKE_NVML": mode}
    )
    assert_well_formed(run)
    assert said in json.dumps(run.group(where))


def test_nvml_hanging(tmp_path, fake_nvml):
    empty = tmp_path / "bin"
    empty.mkdir()
    run = run_check(
        tmp_path, str(empty), env={"LD_LIBRARY_PATH": str(fake_nvml), "FAKE_NVML": "hang"}
    )
    assert_well_formed(run)
    gpus = run.group("nvidia.gpus")
    assert gpus["status"] == "failed" and "the driver may be hung" in gpus["reason"]
    assert "nvidia.driver-not-responding" in run.finding_ids()


# -- Docker socket ---------------------------------------------------------------------------------


def test_docker_socket_refusing(tmp_path):
    path = tmp_path / "refusing.sock"
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(path))
    listener.close()  # the file stays, nothing listens: connect() is refused
    empty = tmp_path / "bin"
    empty.mkdir()
    run = run_check(tmp_path, str(empty), env={"DOCKER_HOST": f"unix://{path}"})
    assert_well_formed(run)
    docker = run.group("container.docker")["data"]
    assert docker["state"] == "not-running" and "Connection refused" in docker["error"]


def test_docker_socket_never_answering(tmp_path):
    path = tmp_path / "silent.sock"
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(path))
    listener.listen(16)
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                held.append(listener.accept()[0])  # accepted, never answered
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    empty = tmp_path / "bin"
    empty.mkdir()
    try:
        run = run_check(tmp_path, str(empty), env={"DOCKER_HOST": f"unix://{path}"})
    finally:
        listener.close()
        for conn in held:
            conn.close()
    assert_well_formed(run)
    docker = run.group("container.docker")["data"]
    assert docker["state"] == "unresponsive" and "did not answer" in docker["error"]


# -- files (fake root) -----------------------------------------------------------------------------

NVIDIA_FILES = {
    "/proc/driver/nvidia/gpus/0000:01:00.0/information": "Model: \t\t NVIDIA A100-SXM4-80GB\nBus Location: \t 0000:01:00.0\n",
    "/proc/modules": "nvidia_uvm 1458176 0 - Live 0x0000000000000000 (POE)\nnvidia 56717312 1 nvidia_uvm, Live 0x0000000000000000 (POE)\n",
    "/sys/module/nvidia/version": "535.54.03\n",
    "/sys/bus/pci/devices/0000:01:00.0/vendor": "0x10de\n",
    "/sys/bus/pci/devices/0000:01:00.0/device": "0x20b2\n",
    "/sys/bus/pci/devices/0000:01:00.0/class": "0x030200\n",
    "/proc/cpuinfo": "processor\t: 0\nflags\t\t: fpu vme de pse\n",
    "/proc/1/cgroup": "0::/\n",
    "/etc/os-release": 'ID=debian\nVERSION_ID="12"\nPRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\n',
    "/dev/nvidia0": "",
    "/dev/nvidiactl": "",
    "/dev/nvidia-uvm": "",
}


def nvidia_root(fake_root, real_captures) -> Path:
    """A fake root of a machine with an A100 and the 535 driver loaded (real /proc version line)."""
    version = (
        real_captures / "misc" / "proc-driver-nvidia-version-open-565.57.01-nixGL-issue-186.txt"
    ).read_text()
    return fake_root({"/proc/driver/nvidia/version": version, **NVIDIA_FILES})


def user_namespace_prefix() -> list[str] | None:
    """`unshare -U` when running as root (inside a fresh user namespace mode 000 files cannot be
    read even by root), [] when not root, None when root and no user namespace can be made."""
    if os.geteuid() != 0:
        return []
    unshare = shutil.which("unshare")
    if unshare is None:
        return None
    probe = subprocess.run([unshare, "-U", "true"], capture_output=True, timeout=30)
    return [unshare, "-U"] if probe.returncode == 0 else None


def run_on_root(
    tmp_path: Path, root: Path, prefix: list[str] | None = None, deadline_s: float = DEADLINE_S
) -> Run:
    """check's pipeline with every probe on `root`, as a subprocess (optionally under `prefix`)."""
    empty = tmp_path / "bin"
    empty.mkdir(exist_ok=True)
    argv = [*(prefix or []), sys.executable, "-c", FAKE_ROOT_CHECK, str(root), f"{deadline_s:g}"]
    return run_check(tmp_path, str(empty), argv=argv, deadline_s=deadline_s)


def test_fake_nvidia_root_reads(tmp_path, fake_root, real_captures):
    run = run_on_root(tmp_path, nvidia_root(fake_root, real_captures))
    assert_well_formed(run)
    assert run.group("nvidia.driver")["data"]["module_version"] == "565.57.01"


def test_unreadable_proc_and_dev_files(tmp_path, fake_root, real_captures):
    prefix = user_namespace_prefix()
    if prefix is None:
        pytest.skip("running as root without user namespaces: a mode 000 file stays readable")
    root = nvidia_root(fake_root, real_captures)
    for path in (
        "/proc/driver/nvidia/version",
        "/proc/driver/nvidia/gpus/0000:01:00.0/information",
        "/sys/module/nvidia/version",
        "/proc/modules",
        "/proc/cpuinfo",
        "/etc/os-release",
        "/dev/nvidia0",
        "/dev/nvidiactl",
        "/dev/nvidia-uvm",
    ):
        (root / path.lstrip("/")).chmod(0)
    run = run_on_root(tmp_path, root, prefix)
    assert_well_formed(run)
    assert "permission denied reading /proc/driver/nvidia/version" in run.texts()
    assert "nvidia.device-node-permission" in run.finding_ids()


@pytest.mark.parametrize("fault", ["fifo", "directory", "garbage"])
def test_odd_proc_files(tmp_path, fake_root, real_captures, fault):
    root = nvidia_root(fake_root, real_captures)
    for path in (
        "/proc/driver/nvidia/version",
        "/proc/modules",
        "/proc/cpuinfo",
        "/sys/module/nvidia/version",
    ):
        target = root / path.lstrip("/")
        target.unlink()
        if fault == "fifo":  # opening it for reading would wait for a writer forever
            os.mkfifo(target)
        elif fault == "directory":
            target.mkdir()
        else:
            target.write_bytes(GARBAGE * 8)
    run = run_on_root(tmp_path, root)
    assert_well_formed(run)
    if fault != "garbage":
        kind = "is not a regular file" if fault == "fifo" else "is a directory"
        assert f"/proc/driver/nvidia/version {kind}" in run.texts()
    assert stat.S_ISFIFO((root / "proc/modules").stat().st_mode) == (fault == "fifo")
