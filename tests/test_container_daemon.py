"""Against a real Docker daemon (Debian's docker.io on a private socket, see docker_daemon.py):
facts read for real, a registered nvidia runtime, `--gpus all` failing for real, envdoctor as a
container's entrypoint, and `check --image`."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from docker_daemon import rootfs_tar, start_daemon, unavailable

from envdoctor.context import ProbeContext, ProbeOptions
from envdoctor.diagnose import diagnose
from envdoctor.image_inspect import ImageInspectError, collect_for_image
from envdoctor.ingest import docker_info
from envdoctor.probes import container_docker
from envdoctor.snapshot import Snapshot, collected

REPO = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "container"
GPUS_ERROR = 'could not select device driver "" with capabilities: [[gpu]]'
TORCH_VERSION_PY = (
    "from typing import Optional\n\n__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip', 'xpu']\n"
    "__version__ = '2.9.0+cu130'\ndebug = False\ncuda: Optional[str] = '13.0'\n"
    "git_version = '0fabc3ba44823f257e70ce397d989c8de5e362c1'\nhip: Optional[str] = None\n"
    "xpu: Optional[str] = None\n"
)


@pytest.fixture(scope="module")
def base_image(docker_daemon, tmp_path_factory) -> str:
    """An image that expects GPUs (NVIDIA_VISIBLE_DEVICES=all) and holds nothing but a skeleton."""
    tar = rootfs_tar(tmp_path_factory.mktemp("rootfs") / "base.tar")
    return docker_daemon.import_rootfs(
        tar,
        "envdoctor-test/base:1",
        ("ENV NVIDIA_VISIBLE_DEVICES=all", "ENV NVIDIA_DRIVER_CAPABILITIES=compute,utility"),
    )


@pytest.fixture(scope="module")
def torch_image(docker_daemon, tmp_path_factory) -> str:
    """An image with a cu130 torch in its site-packages and a CUDA 13.0 requirement."""
    site = "usr/local/lib/python3.12/site-packages"
    files = {
        f"{site}/torch/version.py": TORCH_VERSION_PY,
        f"{site}/torch-2.9.0+cu130.dist-info/METADATA": "Metadata-Version: 2.1\nName: torch\nVersion: 2.9.0+cu130\n",
        "etc/os-release": 'PRETTY_NAME="Ubuntu 24.04.3 LTS"\nNAME="Ubuntu"\nVERSION_ID="24.04"\nID=ubuntu\nID_LIKE=debian\n',
    }
    tar = rootfs_tar(tmp_path_factory.mktemp("rootfs") / "torch.tar", files)
    return docker_daemon.import_rootfs(
        tar,
        "envdoctor-test/torch-cu130:1",
        (
            "ENV NVIDIA_VISIBLE_DEVICES=all",
            "ENV CUDA_VERSION=13.0.0",
            "ENV NVIDIA_REQUIRE_CUDA=cuda>=13.0",
            "ENV SECRET_TOKEN=do-not-report",
        ),
    )


def _probe(daemon) -> dict:
    ctx = ProbeContext(env=daemon.env())
    [group] = container_docker.collect(ctx)
    assert group.collected, group.reason
    return group.data


def test_live_probe_reads_the_real_daemon(docker_daemon):
    facts = _probe(docker_daemon)
    version = docker_daemon.docker(
        "version", "--format", "{{.Server.Version}}", check=True
    ).stdout.strip()
    cgroup = docker_daemon.docker(
        "info", "--format", "{{.CgroupDriver}}", check=True
    ).stdout.strip()
    assert facts["state"] == "reachable"
    assert facts["server_version"] == version
    assert facts["cgroup_driver"] == cgroup
    assert facts["storage_driver"] == "vfs"
    assert "runc" in facts["runtimes"] and "nvidia" not in facts["runtimes"]
    assert facts["default_runtime"] == "runc"
    assert facts["host"] == docker_daemon.host and facts["host_source"] == "DOCKER_HOST"


def test_text_and_json_docker_info_read_to_the_live_probes_facts(docker_daemon):
    live = _probe(docker_daemon)
    text = docker_daemon.docker("info", check=True).stdout
    as_json = docker_daemon.docker("info", "--format", "{{json .}}", check=True).stdout
    from_text = docker_info.parse(text)
    from_json = docker_info.parse(as_json)
    assert from_text is not None and from_json is not None
    compared = set(from_text) - {"context"}
    assert {
        "server_version",
        "runtimes",
        "default_runtime",
        "cgroup_driver",
        "storage_driver",
    } <= compared
    assert {k: from_text[k] for k in compared} == {k: live[k] for k in compared}
    assert {k: from_json[k] for k in set(from_json) - {"context"}} == {
        k: live[k] for k in set(from_json) - {"context"}
    }


def test_stopped_daemon_reads_as_not_running(docker_daemon, tmp_path):
    ctx = ProbeContext(env={**docker_daemon.env(), "DOCKER_HOST": f"unix://{tmp_path}/gone.sock"})
    [group] = container_docker.collect(ctx)
    assert group.data["state"] == "not-running"


def test_second_daemon_with_add_runtime_registers_nvidia(docker_daemon):
    runc = shutil.which("runc") or "/usr/bin/runc"
    second = start_daemon(("--add-runtime", f"nvidia={runc}"))
    if isinstance(second, str):
        unavailable(second)
    try:
        facts = _probe(second)
        assert "nvidia" in facts["runtimes"]
        assert facts["runtime_paths"]["nvidia"] == runc
        text = docker_info.parse(second.docker("info", check=True).stdout)
        assert "nvidia" in text["runtimes"]
    finally:
        second.stop()
    assert "nvidia" not in _probe(docker_daemon)["runtimes"]


def test_gpus_all_really_fails_and_is_diagnosed(docker_daemon, base_image, tmp_path):
    result = docker_daemon.docker("run", "--rm", "--gpus", "all", base_image, "/bin/true")
    assert result.returncode == 125
    assert GPUS_ERROR in result.stderr
    captured = (
        FIXTURES / "docker" / "docker-20.10.24-debian12-run-gpus-all-no-nvidia-runtime.txt"
    ).read_text()
    assert GPUS_ERROR in captured
    # The same daemon's live facts, on a host with an NVIDIA GPU and no toolkit: the root cause.
    snap = Snapshot()
    snap.add(collected("container.docker", "probe:container_docker", _probe(docker_daemon)))
    snap.add(
        collected(
            "nvidia.gpus", "test", {"gpus": [{"index": 0, "name": "NVIDIA A10G", "uuid": "GPU-1"}]}
        )
    )
    snap.add(collected("os", "test", {"system": "Linux", "distro_id": "debian", "distro_like": []}))
    from envdoctor.snapshot import absent

    snap.add(absent("container.toolkit", "probe:container_toolkit", "not installed"))
    ids = [f.id for f in diagnose(snap).findings]
    assert ids[0] == "container.no-nvidia-runtime"
    # Triage of the real error text (the triage command and its signatures belong to another module).
    triage = tmp_path / "error.txt"
    triage.write_text(result.stderr)
    if not (REPO / "envdoctor" / "commands" / "triage.py").exists():
        pytest.skip("no `envdoctor triage` command in this checkout yet")
    out = subprocess.run(
        [sys.executable, "-m", "envdoctor", "triage", "--json", str(triage)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode in (0, 1), out.stderr
    found = [f["id"] for f in json.loads(out.stdout)["findings"]]
    assert "container.no-nvidia-runtime" in found[:3]


def test_envdoctor_as_a_containers_entrypoint_reports_no_gpu_injected(docker_daemon, base_image):
    mounts = {"/usr", sys.base_prefix, sys.prefix, str(REPO)}
    import envdoctor

    mounts.add(str(Path(envdoctor.__file__).resolve().parent.parent))
    args = [
        "run",
        "--rm",
        "--network",
        "none",
        "-e",
        "HOME=/tmp",
        "-e",
        "PYTHONDONTWRITEBYTECODE=1",
    ]
    for path in sorted(mounts):
        args += ["-v", f"{path}:{path}:ro"]
    args += ["--entrypoint", sys.executable, base_image, "-m", "envdoctor", "check", "--json"]
    result = docker_daemon.docker(*args, timeout=180)
    assert result.returncode in (0, 1), result.stderr[-2000:]
    report = json.loads(result.stdout)
    inside = report["snapshot"]["groups"]["container.inside"]
    assert inside["data"]["in_container"] is True
    assert inside["data"]["engine"] == "docker"
    assert inside["data"]["env"]["NVIDIA_VISIBLE_DEVICES"] == "all"
    assert inside["data"]["device_nodes"] == []
    assert "no GPU devices injected" in inside["summary"]
    finding = next(f for f in report["findings"] if f["id"] == "container.no-gpus-injected")
    assert "no GPU devices injected" in finding["title"]
    assert "--gpus all" in finding["fixes"][0]["commands"][0]


def test_check_image_reads_the_images_torch_and_cuda_requirement(docker_daemon, torch_image):
    snap = collect_for_image(torch_image, ProbeOptions(timeout_s=30), env=docker_daemon.env())
    image = snap.data("container.image")
    assert image["torch"]["version"] == "2.9.0+cu130" and image["torch"]["cuda"] == "13.0"
    assert image["env"]["NVIDIA_REQUIRE_CUDA"] == "cuda>=13.0"
    assert "SECRET_TOKEN" not in image["env"] and image["env_count"] == 4
    assert image["unpack"]["skipped"] == {}
    assert snap.data("os")["distro_id"] == "ubuntu"  # the image's OS, not the host's Debian
    # the image's Python layer (#18 item 5): its torch, not this interpreter's
    assert snap.data("python.torch")["version"] == "2.9.0+cu130"
    assert snap.group("python.torch").source.startswith(f"image:{torch_image}")
    assert snap.data("container.target")["kind"] == "image"
    assert snap.group("os").source.startswith(f"image:{torch_image}")
    # Against a host with a 550 driver: the verdict.
    snap.add(
        collected(
            "nvidia.driver", "test", {"driver_version": "550.54.15", "cuda_driver_max": "12.4"}
        )
    )
    findings = {f.id: f for f in diagnose(snap).findings}
    verdict = findings["container.image-needs-newer-driver"]
    assert (
        verdict.title
        == "This image's torch is cu130 and needs a 580 driver; the host has 550.54.15"
    )
    assert (
        "unsatisfied condition: cuda>=13.0"
        in findings["container.cuda-requirement-unsatisfied"].detail
    )


def test_check_image_cli_end_to_end(docker_daemon, torch_image):
    env = docker_daemon.env()
    out = subprocess.run(
        [sys.executable, "-m", "envdoctor", "check", "--image", torch_image, "--json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode in (0, 1), out.stderr
    groups = json.loads(out.stdout)["snapshot"]["groups"]
    assert groups["container.image"]["data"]["torch"]["cuda"] == "13.0"
    missing = subprocess.run(
        [sys.executable, "-m", "envdoctor", "check", "--image", "envdoctor-test/none:0"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert missing.returncode == 2 and "no image" in missing.stderr


def test_check_image_without_a_daemon_is_a_usage_error(tmp_path):
    with pytest.raises(ImageInspectError, match="cannot|no image|refused|No such file"):
        collect_for_image(
            "anything:1",
            ProbeOptions(timeout_s=10),
            env={**os.environ, "DOCKER_HOST": f"unix://{tmp_path}/none.sock"},
        )
