"""A real single-node Slurm cluster (Debian's slurm-wlm and munge), set up in a temporary folder:
`srun` runs `envdoctor report` on the node, `sbatch` runs deploy/slurm/envdoctor-fleet.sbatch,
`envdoctor fleet` aggregates the reports, and the drain command fleet prints drains the node.

Everything lives in the temporary folder: its own munge key and socket, slurm.conf (pointed at by
SLURM_CONF), state and spool folders and logs; the daemons listen on loopback only
(CommunicationParameters=NoCtldInAddrAny,NoInAddrAny, SlurmctldHost=localhost) on free ports,
and are stopped at the end (with any process that still carries this cluster's SLURM_CONF).
Where munge or Slurm is missing or cannot start, the tests skip with the reason, except under CI,
where they fail.
"""

from __future__ import annotations

import getpass
import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import fleet_samples as fs
import pytest

REPO = Path(__file__).resolve().parent.parent
SBATCH_SCRIPT = REPO / "deploy" / "slurm" / "envdoctor-fleet.sbatch"
TOOLS = ("munged", "munge", "slurmctld", "slurmd", "srun", "sbatch", "sinfo", "scontrol")
START_TIMEOUT_S = 60
JOB_TIMEOUT_S = 300


def unavailable(reason: str) -> None:
    """Skip, or fail under CI (where scripts/test installs slurm-wlm and munge)."""
    if os.environ.get("CI"):
        pytest.fail(f"Slurm test cannot run under CI: {reason}")
    pytest.skip(reason)


@dataclass
class Cluster:
    """A running single-node cluster: its folder and the environment its clients need."""

    root: Path
    env: dict[str, str]

    def run(self, argv: list[str], timeout_s: float = 60, **kw) -> subprocess.CompletedProcess:
        return subprocess.run(
            argv, env=self.env, capture_output=True, text=True, timeout=timeout_s, **kw
        )

    def logs(self) -> str:
        parts = []
        for log in sorted((self.root / "log").glob("*")):
            parts.append(f"--- {log.name}\n{log.read_text(errors='replace')[-3000:]}")
        return "\n".join(parts)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def write_config(root: Path, user: str) -> Path:
    cpus = os.cpu_count() or 1
    conf = root / "slurm.conf"
    conf.write_text(
        "\n".join(
            [
                "ClusterName=envdoctortest",
                "SlurmctldHost=localhost",
                f"SlurmUser={user}",
                f"SlurmdUser={user}",
                f"SlurmctldPort={free_port()}",
                f"SlurmdPort={free_port()}",
                "CommunicationParameters=NoCtldInAddrAny,NoInAddrAny",
                "AuthType=auth/munge",
                "CredType=cred/munge",
                f"AuthInfo=socket={root}/munge-run/munge.socket.2",
                f"StateSaveLocation={root}/state",
                f"SlurmdSpoolDir={root}/spool",
                f"SlurmctldPidFile={root}/run/slurmctld.pid",
                f"SlurmdPidFile={root}/run/slurmd.pid",
                f"SlurmctldLogFile={root}/log/slurmctld.log",
                f"SlurmdLogFile={root}/log/slurmd.log",
                f"PlugStackConfig={root}/plugstack.conf",
                "ProctrackType=proctrack/linuxproc",
                "TaskPlugin=task/none",
                "SelectType=select/cons_tres",
                "SelectTypeParameters=CR_CPU",
                "SchedulerType=sched/builtin",
                "JobAcctGatherType=jobacct_gather/none",
                "AccountingStorageType=accounting_storage/none",
                "JobCompType=jobcomp/none",
                "MpiDefault=none",
                "ReturnToService=2",
                "MailProg=/bin/true",
                "SlurmctldTimeout=60",
                "SlurmdTimeout=60",
                f"NodeName=localhost NodeAddr=127.0.0.1 CPUs={cpus} State=UNKNOWN",
                "PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP",
                "",
            ]
        )
    )
    (root / "plugstack.conf").write_text("")
    return conf


def start(argv: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    handle = open(log, "wb")  # noqa: SIM115 - closed with the process
    try:
        return subprocess.Popen(
            argv,
            env=env,
            stdout=handle,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    finally:
        handle.close()


def wait_for(predicate, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.5)
    return False


def stop(processes: list[subprocess.Popen], conf: Path) -> list[int]:
    """Stop the daemons (SIGTERM, then SIGKILL after 15 s) and any process left with our
    SLURM_CONF (job steps); returns the pids that had to be killed afterwards."""
    for proc in reversed(processes):
        if proc.poll() is None:
            proc.terminate()
    for proc in reversed(processes):
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
    marker = f"SLURM_CONF={conf}".encode()
    leftovers = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if marker in (entry / "environ").read_bytes().split(b"\0"):
                os.kill(int(entry.name), signal.SIGKILL)
                leftovers.append(int(entry.name))
        except (OSError, ValueError):
            continue
    return leftovers


@pytest.fixture(scope="module")
def cluster():
    missing = [t for t in TOOLS if shutil.which(t) is None]
    if missing:
        unavailable(f"not installed: {', '.join(missing)} (apt-get install -y slurm-wlm munge)")
    root = Path(tempfile.mkdtemp(prefix="envdoctor-slurm-"))  # short: munge's socket path must fit
    root.chmod(0o755)
    for sub in ("munge-key", "munge-run", "state", "spool", "run", "log", "bin", "work"):
        (root / sub).mkdir()
    (root / "munge-key").chmod(0o700)
    key = root / "munge-key" / "munge.key"
    key.write_bytes(os.urandom(1024))
    key.chmod(0o400)
    user = getpass.getuser()
    conf = write_config(root, user)
    wrapper = (
        root / "bin" / "envdoctor"
    )  # the deploy script's `envdoctor`: this repository's python
    wrapper.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m envdoctor "$@"\n')
    wrapper.chmod(0o755)
    env = dict(
        os.environ,
        SLURM_CONF=str(conf),
        PATH=f"{root / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
    )
    for name in [
        k
        for k in env
        if k.startswith(("SLURM_", "SBATCH_", "SRUN_", "SALLOC_")) and k != "SLURM_CONF"
    ]:
        del env[name]
    processes: list[subprocess.Popen] = []
    socket_path = root / "munge-run" / "munge.socket.2"
    try:
        processes.append(
            start(
                [
                    "munged",
                    "-F",
                    "--force",
                    f"--socket={socket_path}",
                    f"--key-file={key}",
                    f"--pid-file={root / 'run' / 'munged.pid'}",
                    f"--log-file={root / 'log' / 'munged.log'}",
                    f"--seed-file={root / 'run' / 'munged.seed'}",
                ],
                env,
                root / "log" / "munged.out",
            )
        )
        if (
            not wait_for(
                lambda: socket_path.exists() or processes[0].poll() is not None, START_TIMEOUT_S
            )
            or processes[0].poll() is not None
        ):
            unavailable(
                "munged did not start: "
                + (root / "log" / "munged.out").read_text(errors="replace")[-400:]
            )
        processes.append(
            start(["slurmctld", "-D", "-c", "-f", str(conf)], env, root / "log" / "slurmctld.out")
        )
        processes.append(
            start(
                ["slurmd", "-D", "-N", "localhost", "-f", str(conf)],
                env,
                root / "log" / "slurmd.out",
            )
        )
        state = {"text": ""}

        def node_idle() -> bool:
            if any(p.poll() is not None for p in processes):
                return True
            result = subprocess.run(
                ["sinfo", "-h", "-n", "localhost", "-o", "%T"],
                env=env,
                capture_output=True,
                text=True,
                timeout=20,
            )
            state["text"] = (result.stdout + result.stderr).strip()
            return result.returncode == 0 and state["text"] == "idle"

        up = wait_for(node_idle, START_TIMEOUT_S)
        if not up or any(p.poll() is not None for p in processes):
            unavailable(
                f"Slurm did not come up (sinfo: {state['text'] or 'no answer'}):\n"
                + Cluster(root, env).logs()[-1500:]
            )
        yield Cluster(root, env)
    finally:
        leftovers = stop(processes, conf)
        shutil.rmtree(root, ignore_errors=True)
        assert not leftovers, (
            f"processes of the test cluster were still running and were killed: {leftovers}"
        )


def test_srun_runs_envdoctor_report_on_the_node_and_fleet_reads_it(cluster):
    reports = cluster.root / "work" / "srun"
    reports.mkdir()
    argv = [
        "srun",
        "--nodes=1",
        "--ntasks=1",
        "--time=5",
        f"--chdir={reports}",
        "/bin/sh",
        "-c",
        f'exec {shlex.quote(sys.executable)} -m envdoctor report --no-redact --node-name "$SLURMD_NODENAME" '
        f'--format json --timeout 30 -o "$SLURMD_NODENAME.json"',
    ]
    result = cluster.run(argv, timeout_s=JOB_TIMEOUT_S)
    assert result.returncode == 0, result.stdout + result.stderr + cluster.logs()
    assert "envdoctor report: wrote localhost.json" in result.stderr
    fleet = cluster.run([sys.executable, "-m", "envdoctor", "fleet", str(reports), "--json"])
    assert fleet.returncode == 0, fleet.stderr
    doc = json.loads(fleet.stdout)
    [node] = doc["nodes"]
    assert (node["name"], node["name_origin"], node["redacted"]) == ("localhost", "label", False)
    assert node["toolkit"] == toolkit_here()
    assert doc["faults"] == [] and doc["unreadable"] == []


def test_sbatch_runs_the_deploy_script(cluster):
    submit = cluster.root / "work" / "sbatch"
    submit.mkdir()
    result = cluster.run(
        ["sbatch", "--wait", "--nodes=1", str(SBATCH_SCRIPT)], timeout_s=JOB_TIMEOUT_S, cwd=submit
    )
    assert result.returncode == 0, result.stdout + result.stderr + cluster.logs()
    job_id = result.stdout.split()[-1]
    folder = submit / "envdoctor-reports" / job_id
    assert (
        folder / "nodes" / "localhost.json"
    ).stat().st_mode & 0o777 == 0o600  # --no-redact: private
    assert folder.stat().st_mode & 0o777 == 0o700
    doc = json.loads((folder / "fleet.json").read_text())
    assert [n["name"] for n in doc["nodes"]] == ["localhost"]
    assert "### Stacks" in (folder / "fleet.md").read_text()
    output = (submit / f"envdoctor-fleet-{job_id}.out").read_text()
    assert "envdoctor fleet: 1 node" in output and "No GPU health faults" in output


def test_the_drain_command_fleet_prints_drains_the_node(cluster, real_captures, tmp_path):
    # A node report whose GPU fell off the bus (real dmesg capture), for the node Slurm calls localhost.
    report = fs.node_report(real_captures, fs.A10G, node="localhost", dmesg=fs.FALLEN_OFF_BUS)
    fs.write_report(report, tmp_path / "localhost.json")
    fleet = cluster.run([sys.executable, "-m", "envdoctor", "fleet", str(tmp_path), "--json"])
    assert fleet.returncode == 1, fleet.stderr
    [fault] = json.loads(fleet.stdout)["faults"]
    [drain] = fault["slurm"]
    try:
        result = cluster.run(shlex.split(drain))
        assert result.returncode == 0, result.stderr
        show = cluster.run(["scontrol", "show", "node", "localhost"]).stdout
        assert "DRAIN" in show and "Reason=envdoctor: nvidia.xid-fallen-off-bus" in show
        reasons = cluster.run(["sinfo", "-R", "-h", "-o", "%E|%N"]).stdout
        assert "envdoctor: nvidia.xid-fallen-off-bus|localhost" in reasons
    finally:
        cluster.run(["scontrol", "update", "nodename=localhost", "state=resume"])
    assert wait_for(
        lambda: "DRAIN" not in cluster.run(["scontrol", "show", "node", "localhost"]).stdout, 30
    )


def toolkit_here() -> str | None:
    """The CUDA toolkit envdoctor finds on this machine (what the node's report must say)."""
    from envdoctor.commands.fleet import read_node

    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "here.json"
        subprocess.run(
            [
                sys.executable,
                "-m",
                "envdoctor",
                "report",
                "--no-redact",
                "--format",
                "json",
                "-o",
                str(out),
                "--timeout",
                "30",
            ],
            capture_output=True,
            check=True,
            timeout=120,
        )
        return read_node(str(out)).toolkit
