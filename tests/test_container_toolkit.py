"""NVIDIA Container Toolkit: `nvidia-container-cli info` captures, the toolkit probe on fake tools
and fake config files, and a capture read through the live probe giving the reader's facts."""

from __future__ import annotations

import json
from pathlib import Path

from envdoctor.ingest import nvidia_container_cli
from envdoctor.probes import container_toolkit
from envdoctor.probes.context import ProbeContext

CLI_2X = "unidentified-nvidia-container-cli-info-2x-gtx1050ti-495.29.05.txt"
CLI_DEBUG = "unidentified-nvidia-container-cli-k-d-info-debug-v1.6.0-2x-gtx1050ti-495.29.05.txt"
CLI_FAKE = "nvidia-container-cli-info-fake-driver-4x-t4-ssst0n3.txt"
LOAD_ERROR = (
    "nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: "
    "cannot open shared object file: no such file or directory"
)


def test_info_captures_parse(real_captures):
    two = nvidia_container_cli.parse_info((real_captures / "misc" / CLI_2X).read_text())
    assert (two["nvrm_version"], two["cuda_version"]) == ("495.29.05", "11.5")
    assert [d["uuid"] for d in two["devices"]] == [
        "GPU-b7545879-da0b-f040-aa8d-3b118a9b258c",
        "GPU-a7f3452d-0371-24a2-e74f-2cc04322df44",
    ]
    assert two["devices"][1] == {
        "index": 1,
        "minor": 1,
        "model": "NVIDIA GeForce GTX 1050 Ti",
        "brand": "GeForce",
        "uuid": "GPU-a7f3452d-0371-24a2-e74f-2cc04322df44",
        "bus_id": "00000000:02:00.0",
        "architecture": "6.1",
    }
    debug = nvidia_container_cli.parse_info((real_captures / "misc" / CLI_DEBUG).read_text())
    assert debug == two  # the -k -d log lines around the block change nothing
    fake = nvidia_container_cli.parse_info((real_captures / "misc" / CLI_FAKE).read_text())
    assert fake["nvrm_version"] == "575.57.08" and len(fake["devices"]) == 4
    assert {d["brand"] for d in fake["devices"]} == {"Tesla"}


def test_reader_fills_toolkit_and_driver(real_captures):
    groups = {
        g.name: g for g in nvidia_container_cli.read((real_captures / "misc" / CLI_2X).read_text())
    }
    assert groups["nvidia.driver"].data == {
        "driver_version": "495.29.05",
        "cuda_driver_max": "11.5",
    }
    assert len(groups["container.toolkit"].data["cli_info"]["devices"]) == 2
    assert nvidia_container_cli.read("docker: Error response from daemon: nothing here") == []


def test_error_line_from_a_real_docker_error():
    text = (
        "docker: Error response from daemon: failed to create shim task: OCI runtime create failed: runc create "
        "failed: unable to start container process: error during container init: error running hook #0: error "
        "running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\n"
        + LOAD_ERROR
        + ": unknown.\n"
    )
    assert nvidia_container_cli.error_line(text) == LOAD_ERROR
    assert nvidia_container_cli.error_line(
        "nvidia-container-cli: requirement error: unsatisfied condition: "
        "cuda>=11.0, please update your driver to a newer version, or use an earlier "
        "cuda container: unknown."
    ) == (
        "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=11.0, please update your driver to a "
        "newer version, or use an earlier cuda container"
    )


def _tools(fake_tools, real_captures: Path | None, cli_fails: bool = False) -> str:
    info = f"/bin/cat '{real_captures / 'misc' / CLI_DEBUG}'\n" if real_captures else ""
    cli_body = f"echo '{LOAD_ERROR}' >&2\nexit 1\n" if cli_fails else info
    return fake_tools(
        {
            "nvidia-ctk": "#!/bin/sh\necho 'NVIDIA Container Toolkit CLI version 1.17.8'\necho 'commit: f202b80a9b9d0db00d9b1d73c0128c8962c55f4d'\n",
            "nvidia-container-runtime-hook": "#!/bin/sh\necho 'NVIDIA Container Runtime Hook version 1.17.8'\necho 'commit: f202b80'\n",
            "nvidia-container-cli": "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'cli-version: 1.17.8'; "
            "echo 'lib-version: 1.17.8'; exit 0; fi\n" + cli_body,
        }
    )


def test_probe_on_fake_tools_and_config(fake_root, fake_tools, real_captures):
    root = fake_root(
        {
            "/etc/nvidia-container-runtime/config.toml": "#accept-nvidia-visible-devices-as-volume-mounts = false\n"
            '[nvidia-container-cli]\nno-cgroups = true\nldconfig = "@/sbin/ldconfig.real"\nload-kmods = true\n'
            '[nvidia-container-runtime]\nmode = "auto"\nruntimes = ["docker-runc", "runc", "crun"]\n',
            "/etc/docker/daemon.json": json.dumps(
                {
                    "runtimes": {"nvidia": {"args": [], "path": "nvidia-container-runtime"}},
                    "default-runtime": "nvidia",
                    "features": {"cdi": True},
                    "exec-opts": ["native.cgroupdriver=cgroupfs"],
                }
            ),
            "/root/.config/docker/daemon.json": "{ not json",
        },
        symlinks={
            "/dev/char/195:0": "../nvidia0",
            "/dev/char/195:255": "../nvidiactl",
            "/dev/char/1:3": "../null",
        },
    )
    ctx = ProbeContext(root=root, env={"PATH": _tools(fake_tools, real_captures), "HOME": "/root"})
    [group] = container_toolkit.collect(ctx)
    data = group.data
    assert data["installed"] is True
    assert data["binaries"]["nvidia-ctk"]["version"] == "1.17.8"
    assert data["binaries"]["nvidia-container-runtime-hook"]["version"] == "1.17.8"
    assert data["binaries"]["nvidia-container-cli"]["version"] == "1.17.8"
    assert data["missing"] == ["nvidia-container-runtime", "nvidia-cdi-hook"]
    assert data["config"] == {
        "no_cgroups": True,
        "ldconfig": "@/sbin/ldconfig.real",
        "load_kmods": True,
        "mode": "auto",
        "runtimes": ["docker-runc", "runc", "crun"],
    }
    system, rootless = data["daemon_configs"]
    assert (
        system["runtimes"] == {"nvidia": "nvidia-container-runtime"}
        and system["default_runtime"] == "nvidia"
    )
    assert system["cdi_feature"] is True and system["cgroup_driver"] == "cgroupfs"
    assert "not valid JSON" in rootless["error"]
    assert data["dev_char_nvidia_links"] == 2
    # The live probe runs `nvidia-container-cli info`: the same facts as the reader of that capture.
    assert data["cli_info"] == nvidia_container_cli.parse_info(
        (real_captures / "misc" / CLI_DEBUG).read_text()
    )


def test_probe_reports_the_hooks_load_library_error(fake_root, fake_tools):
    root = fake_root({"/etc/hostname": "x\n"})
    [group] = container_toolkit.collect(
        ProbeContext(root=root, env={"PATH": _tools(fake_tools, None, cli_fails=True)})
    )
    assert group.data["cli_info_error"] == LOAD_ERROR
    assert "cli_info" not in group.data


def test_no_toolkit_is_absent(fake_root, tmp_path):
    root = fake_root({"/etc/docker/daemon.json": '{"runtimes": {}}'})
    [group] = container_toolkit.collect(
        ProbeContext(root=root, env={"PATH": str(tmp_path / "none")})
    )
    assert group.status.value == "absent" and "not installed" in group.reason


def test_daemon_json_alone_with_nvidia_runtime_is_collected(fake_root, tmp_path):
    root = fake_root(
        {
            "/etc/docker/daemon.json": '{"runtimes": {"nvidia": {"path": "nvidia-container-runtime"}}}'
        }
    )
    [group] = container_toolkit.collect(
        ProbeContext(root=root, env={"PATH": str(tmp_path / "none")})
    )
    assert group.collected and group.data["installed"] is False
    assert group.data["daemon_configs"][0]["runtimes"] == {"nvidia": "nvidia-container-runtime"}


def test_version_parser_spellings():
    assert (
        container_toolkit.parse_version(
            "NVIDIA Container Runtime version 1.11.0\ncommit: 670+d9de4a0"
        )
        == "1.11.0"
    )
    assert (
        container_toolkit.parse_version("NVIDIA CDI Hook version 1.18.0-rc.1\ncommit: abc")
        == "1.18.0-rc.1"
    )
    assert container_toolkit.parse_version("no version here") is None
