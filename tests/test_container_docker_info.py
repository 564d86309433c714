"""`docker info` captures (text, `--format '{{json .}}'`, raw API) read into `container.docker` facts,
and the Docker probe's endpoint rules (DOCKER_HOST, contexts) without a daemon."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from envdoctor.ingest import docker_info
from envdoctor.probes import container_docker
from envdoctor.probes.context import ProbeContext

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "container" / "docker"


def _read(real_captures: Path, name: str) -> dict:
    text = (real_captures / "docker-info" / name).read_text()
    assert docker_info.detect(text)
    [group] = docker_info.read(text)
    assert group.name == "container.docker" and group.source == "pasted:docker-info"
    return group.data


def test_docker_28_text_with_nvidia_runtime(real_captures):
    data = _read(real_captures, "ssst0n3-docker-28.0.0-rc.1-ubuntu24.04-nvidia-runtime.txt")
    assert data["server_version"] == "28.0.0-rc.1"
    assert data["runtimes"] == ["io.containerd.runc.v2", "nvidia", "runc"]
    assert data["default_runtime"] == "runc"
    assert (data["cgroup_driver"], data["cgroup_version"]) == ("systemd", "2")
    assert data["security_options"] == ["apparmor", "seccomp", "cgroupns"]
    assert (
        data["context"] == "default"
        and data["docker_desktop"] is False
        and data["rootless"] is False
    )
    assert "cdi_spec_dirs" not in data


def test_docker_1_12_text_without_client_server_split(real_captures):
    data = _read(real_captures, "ssst0n3-docker-1.12.1-ubuntu16.04-aufs-no-nvidia.txt")
    assert data["server_version"] == "1.12.1"
    assert data["runtimes"] == ["runc"] and data["storage_driver"] == "aufs"
    assert data["security_options"] == ["apparmor", "seccomp"]
    assert "cgroup_version" not in data


def test_docker_desktop_29_text_with_cdi(real_captures):
    data = _read(
        real_captures,
        "unidentified-docker-desktop-29.2.1-wsl2-text-cdi-discovered-devices-nvidia-runtime.txt",
    )
    assert data["server_version"] == "29.2.1"
    assert data["cdi_spec_dirs"] == ["/etc/cdi", "/var/run/cdi"]
    assert data["cdi_devices"] == ["docker.com/gpu=webgpu"]
    assert data["docker_desktop"] is True and data["context"] == "desktop-linux"
    assert "nvidia" in data["runtimes"]


def test_format_json_and_api_json(real_captures):
    tanzu = _read(real_captures, "tanzu-docker-20.10.12-ubuntu20.04-json-no-nvidia.json")
    assert tanzu["server_version"] == "20.10.12" and tanzu["cgroup_version"] == "1"
    assert tanzu["runtime_paths"]["runc"] == "runc" and "nvidia" not in tanzu["runtimes"]
    assert tanzu["context"] == "default"
    api = _read(
        real_captures,
        "unidentified-testcontainers-wire-api-info-docker-desktop-28.2.2-wsl2-nvidia-runtime-cdispecdirs.json",
    )
    assert api["runtime_paths"]["nvidia"] == "nvidia-container-runtime"
    assert api["docker_desktop"] is True and api["cdi_spec_dirs"] == ["/etc/cdi", "/var/run/cdi"]


def test_text_and_json_of_one_daemon_agree():
    text = docker_info.parse((FIXTURES / "docker-20.10.24-debian12-vfs-info.txt").read_text())
    as_json = docker_info.parse((FIXTURES / "docker-20.10.24-debian12-vfs-info.json").read_text())
    shared = set(text) & set(as_json)
    assert {
        "server_version",
        "runtimes",
        "cgroup_driver",
        "cgroup_version",
        "storage_driver",
    } <= shared
    assert {k: text[k] for k in shared} == {k: as_json[k] for k in shared}


def test_client_errors_and_partial_pastes():
    refused = docker_info.parse(
        "Client:\n Context:    default\n Debug Mode: false\n\nServer:\nERROR: Cannot connect "
        "to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?\n"
    )
    assert refused["state"] == "not-running" and refused["host"] == "unix:///var/run/docker.sock"
    denied = docker_info.parse(
        "Client:\n Context:    default\n\nServer:\nERROR: permission denied while trying to "
        'connect to the Docker daemon socket at unix:///var/run/docker.sock: Get "http://'
        '%2Fvar%2Frun%2Fdocker.sock/v1.24/info": dial unix /var/run/docker.sock: connect: '
        "permission denied\n"
    )
    assert denied["state"] == "permission-denied"
    grep = docker_info.parse(
        "WARNING: No blkio throttle.read_bps_device support\n Runtimes: io.containerd.runc.v2 runc\n"
        " Default Runtime: runc\n"
    )
    assert grep["runtimes"] == ["io.containerd.runc.v2", "runc"] and grep["state"] == "reachable"
    assert not docker_info.detect(
        'Traceback (most recent call last):\n  File "x.py"\nRuntimeError: boom\n'
    )


def test_endpoint_follows_docker_host_then_context(tmp_path):
    assert (
        container_docker.resolve_endpoint(
            ProbeContext(env={"DOCKER_HOST": "tcp://10.0.0.1:2375"})
        ).source
        == "DOCKER_HOST"
    )
    config = tmp_path / ".docker"
    meta = config / "contexts" / "meta" / hashlib.sha256(b"desktop-linux").hexdigest()
    meta.mkdir(parents=True)
    (config / "config.json").write_text(json.dumps({"currentContext": "desktop-linux"}))
    host = f"unix://{tmp_path}/.docker/desktop/docker.sock"
    (meta / "meta.json").write_text(
        json.dumps({"Name": "desktop-linux", "Endpoints": {"docker": {"Host": host}}})
    )
    endpoint = container_docker.resolve_endpoint(ProbeContext(env={"HOME": str(tmp_path)}))
    assert (endpoint.host, endpoint.source, endpoint.context) == (host, "context", "desktop-linux")
    assert (
        container_docker.resolve_endpoint(
            ProbeContext(env={"HOME": str(tmp_path), "DOCKER_CONTEXT": "default"})
        ).host
        == container_docker.DEFAULT_HOST
    )
    [group] = container_docker.collect(
        ProbeContext(env={"HOME": str(tmp_path), "PATH": str(tmp_path)})
    )
    assert group.data["state"] == "not-running" and group.data["docker_desktop"] is True


def test_no_docker_at_all_is_absent(tmp_path, fake_root):
    root = fake_root({"/etc/hostname": "x\n"})
    [group] = container_docker.collect(
        ProbeContext(root=root, env={"PATH": str(tmp_path / "empty")})
    )
    assert group.status.value == "absent" and "not installed" in group.reason


def test_permission_denied_socket_is_classified(tmp_path):
    facts = container_docker.classify_error(
        "ConnectionError: ('Connection aborted.', PermissionError(13, 'Permission denied'))"
    )
    assert facts["state"] == "permission-denied"
    assert container_docker.classify_error("ReadTimeout: timed out", 3)["state"] == "unresponsive"


@pytest.mark.parametrize("name", ["docker-20.10.24-debian12-vfs-info.txt"])
def test_summary_names_version_and_runtimes(name):
    data = docker_info.parse((FIXTURES / name).read_text())
    assert docker_info.summarize(data).startswith("Docker 20.10.24+dfsg1, runtimes: ")
