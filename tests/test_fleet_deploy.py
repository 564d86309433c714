"""deploy/: the Kubernetes DaemonSet's node script, the sweep Job's command, the collection script
and the textfile-collector script, run here for real (envdoctor on this machine; a fake kubectl
for the collection), and what they write read back by `envdoctor fleet` and the strict
Prometheus parser. The Slurm script has its own test with a real cluster (test_slurm.py)."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from test_prometheus import check_conventions, parse

from envdoctor.commands.fleet import read_node
from envdoctor.fleet.aggregate import TAINT_KEY

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"
DAEMONSET = DEPLOY / "kubernetes" / "envdoctor-daemonset.yaml"
JOB = DEPLOY / "kubernetes" / "envdoctor-job.yaml"


def block_scalar(text: str, key: str) -> str:
    """The `key: |` literal block of a YAML text (its more-indented lines, dedented)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == f"{key}: |")
    indent = len(lines[start]) - len(lines[start].lstrip())
    body = []
    for line in lines[start + 1 :]:
        if line.strip() and len(line) - len(line.lstrip()) <= indent:
            break
        body.append(line)
    return textwrap.dedent("\n".join(body)).strip() + "\n"


@pytest.fixture()
def envdoctor_cmd(fake_tools):
    """`envdoctor` on a private PATH: this repository's python -m envdoctor."""
    bindir = fake_tools(
        {"envdoctor": f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m envdoctor "$@"\n'}
    )
    return str(Path(bindir) / "envdoctor")


def test_daemonset_node_script_writes_a_named_report_and_metrics(tmp_path, envdoctor_cmd):
    script = tmp_path / "envdoctor-node.sh"
    script.write_text(block_scalar(DAEMONSET.read_text(), "envdoctor-node.sh"))
    reports, textfile = tmp_path / "reports", tmp_path / "textfile"
    reports.mkdir()
    textfile.mkdir()
    env = dict(
        os.environ,
        ENVDOCTOR=envdoctor_cmd,
        NODE_NAME="kube-gpu-01",
        REPORT_DIR=str(reports),
        TEXTFILE_DIR=str(textfile),
        ONCE="1",
        ENVDOCTOR_TIMEOUT="20",
    )
    result = subprocess.run(
        ["/bin/sh", str(script)], env=env, capture_output=True, text=True, timeout=180
    )
    assert result.returncode == 0, result.stderr
    node = read_node(str(reports / "report.md"))
    assert (node.name, node.name_origin, node.redacted) == ("kube-gpu-01", "label", False)
    assert (reports / "report.md").stat().st_mode & 0o777 == 0o600
    check_conventions(parse((textfile / "envdoctor.prom").read_text()))
    assert sorted(p.name for p in textfile.iterdir()) == ["envdoctor.prom"]


def test_daemonset_fits_the_fleet_commands():
    text = DAEMONSET.read_text()
    assert (
        f"key: {TAINT_KEY}, operator: Exists, effect: NoSchedule" in text
    )  # checks the nodes fleet taints
    assert re.search(
        r"name: NODE_NAME\n\s+valueFrom:\n\s+fieldRef:\n\s+fieldPath: spec.nodeName", text
    )
    assert '--node-name "$NODE_NAME"' in text and "--no-redact" in text


def test_daemonset_and_job_are_valid_kubernetes_objects():
    yaml = pytest.importorskip("yaml")
    namespace, config, daemonset = yaml.safe_load_all(DAEMONSET.read_text())
    assert (namespace["kind"], config["kind"], daemonset["kind"]) == (
        "Namespace",
        "ConfigMap",
        "DaemonSet",
    )
    pod = daemonset["spec"]["template"]["spec"]
    assert (
        daemonset["spec"]["selector"]["matchLabels"]
        == daemonset["spec"]["template"]["metadata"]["labels"]
    )
    [container] = pod["containers"]
    assert {m["name"] for m in container["volumeMounts"]} == {v["name"] for v in pod["volumes"]}
    assert container["command"][-1] == "/etc/envdoctor/" + next(iter(config["data"]))
    [job] = yaml.safe_load_all(JOB.read_text())
    spec = job["spec"]["template"]["spec"]
    assert (
        job["kind"] == "Job"
        and spec["restartPolicy"] == "Never"
        and spec["nodeName"] == "NODE_NAME_HERE"
    )


def job_command() -> list[str]:
    match = re.search(r"command: (\[[^\]]*\])", JOB.read_text())
    return json.loads(match.group(1))


def test_sweep_job_log_reads_back_as_the_nodes_report(tmp_path):
    argv = [a.replace("NODE_NAME_HERE", "kube-gpu-02") for a in job_command()]
    assert argv[0] == "envdoctor"
    # `kubectl logs` interleaves stdout and stderr: the Markdown's embedded JSON survives that
    result = subprocess.run(
        [sys.executable, "-m", "envdoctor", *argv[1:]],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=180,
    )
    assert result.returncode == 0, result.stdout[-2000:]
    log = tmp_path / "kube-gpu-02.md"
    log.write_text("2026-12-02T10:00:00Z pod started\n" + result.stdout)
    node = read_node(str(log))
    assert (node.name, node.name_origin) == ("kube-gpu-02", "label")


FAKE_KUBECTL = r"""#!/bin/sh
# a kubectl that answers the collection script from $FAKE_CLUSTER/<pod>.md files
case "$*" in
  *"get pods"*) printf 'envdoctor-a1b2c kube-gpu-01\nenvdoctor-d3e4f kube-gpu-02\nenvdoctor-zzzzz kube-gpu-03\n' ;;
  *"get jobs"*) printf 'envdoctor-kube-gpu-01 kube-gpu-01\n' ;;
  *"exec envdoctor-"*) pod=$(echo "$*" | sed 's/.* exec \([^ ]*\) .*/\1/'); cat "$FAKE_CLUSTER/$pod.md" ;;
  *"logs job/"*) echo "pod log noise"; cat "$FAKE_CLUSTER/envdoctor-a1b2c.md" ;;
  *) echo "fake kubectl: unexpected $*" >&2; exit 9 ;;
esac
"""


def test_collect_copies_each_nodes_report(tmp_path, fake_tools, real_captures):
    import fleet_samples as fs

    cluster = tmp_path / "cluster"
    for pod, node in (("envdoctor-a1b2c", "kube-gpu-01"), ("envdoctor-d3e4f", "kube-gpu-02")):
        fs.write_report(
            fs.node_report(real_captures, fs.T4, node=node), cluster / f"{pod}.md", "markdown"
        )
    kubectl = Path(fake_tools({"kubectl": FAKE_KUBECTL})) / "kubectl"
    env = dict(os.environ, KUBECTL=str(kubectl), FAKE_CLUSTER=str(cluster))
    out = tmp_path / "reports"
    result = subprocess.run(
        ["/bin/sh", str(DEPLOY / "kubernetes" / "collect.sh"), str(out)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1  # kube-gpu-03's pod has no report
    assert "no report from node kube-gpu-03 (envdoctor-zzzzz)" in result.stderr
    assert sorted(p.name for p in out.iterdir()) == ["kube-gpu-01.md", "kube-gpu-02.md"]
    assert read_node(str(out / "kube-gpu-02.md")).name == "kube-gpu-02"
    jobs = tmp_path / "jobs"
    result = subprocess.run(
        ["/bin/sh", str(DEPLOY / "kubernetes" / "collect.sh"), "--jobs", str(jobs)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert read_node(str(jobs / "kube-gpu-01.md")).name == "kube-gpu-01"


def test_textfile_script_publishes_complete_metrics_only(tmp_path, envdoctor_cmd, fake_tools):
    script = DEPLOY / "textfile-collector" / "envdoctor-textfile.sh"
    folder = tmp_path / "textfile"
    folder.mkdir()
    env = dict(os.environ, ENVDOCTOR=envdoctor_cmd, ENVDOCTOR_TIMEOUT="20")
    result = subprocess.run(
        ["/bin/sh", str(script), str(folder)], env=env, capture_output=True, text=True, timeout=180
    )
    assert result.returncode == 0, result.stderr
    good = (folder / "envdoctor.prom").read_text()
    check_conventions(parse(good))
    broken = Path(
        fake_tools(
            {"envdoctor-broken": "#!/bin/sh\necho '# HELP envdoctor_build_info half'\nexit 3\n"}
        )
    )
    env["ENVDOCTOR"] = str(broken / "envdoctor-broken")
    result = subprocess.run(
        ["/bin/sh", str(script), str(folder)], env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 3 and "left as it was" in result.stderr
    assert (folder / "envdoctor.prom").read_text() == good and sorted(os.listdir(folder)) == [
        "envdoctor.prom"
    ]
    result = subprocess.run(
        ["/bin/sh", str(script), str(tmp_path / "nope")], env=env, capture_output=True, text=True
    )
    assert result.returncode == 2
