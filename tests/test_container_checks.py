"""Every container check, with a failing and a passing snapshot built from the fact contracts."""

from __future__ import annotations

import copy

import pytest

from envdoctor.checks import container_require as require
from envdoctor.checks import load_checks
from envdoctor.diagnosis.pipeline import collect_live, diagnose
from envdoctor.matrix.loader import load_bundled
from envdoctor.model.snapshot import Snapshot, absent, collected
from envdoctor.probes.context import ProbeOptions

MODULES = ("container_docker", "container_cdi", "container_inside", "container_image")
DOCKER = {
    "state": "reachable",
    "server_version": "27.5.1",
    "runtimes": ["io.containerd.runc.v2", "runc"],
    "default_runtime": "runc",
    "cgroup_driver": "cgroupfs",
    "cgroup_version": "2",
    "rootless": False,
    "docker_desktop": False,
    "host": "unix:///var/run/docker.sock",
    "host_source": "default",
    "systemd": True,
    "snap": False,
    "cli_path": "/usr/bin/docker",
}
HOOK = {"path": "/usr/bin/nvidia-container-runtime-hook", "version": "1.17.8"}
CDI_HOOK = {"path": "/usr/bin/nvidia-cdi-hook", "version": "1.17.8"}
GPU = {
    "index": 0,
    "name": "NVIDIA A10G",
    "uuid": "GPU-520e01f2-cf30-6396-abef-e8e9a5233b0e",
    "compute_capability": "8.6",
}


@pytest.fixture(scope="module")
def matrices():
    return load_bundled()


def snap(
    *,
    docker=None,
    toolkit="absent",
    gpus=(GPU,),
    driver=("575.64.03", "12.9"),
    os_id="ubuntu",
    **groups,
) -> Snapshot:
    """A host snapshot: Ubuntu, an A10G on driver 575, Docker 27 without the toolkit, unless told otherwise."""
    s = Snapshot()
    s.add(
        collected(
            "os",
            "test",
            {
                "system": "Linux",
                "distro_id": os_id,
                "distro_like": ["debian"] if os_id == "ubuntu" else [],
            },
        )
    )
    if docker is not None:
        s.add(collected("container.docker", "test", docker))
    if toolkit == "absent":
        s.add(absent("container.toolkit", "test", "not installed"))
    elif toolkit is not None:
        s.add(
            collected(
                "container.toolkit",
                "test",
                {
                    "installed": bool(toolkit.get("binaries")),
                    "config": {},
                    "daemon_configs": [],
                    **toolkit,
                },
            )
        )
    if gpus:
        s.add(collected("nvidia.gpus", "test", {"gpus": [dict(g) for g in gpus]}))
    if driver:
        s.add(
            collected(
                "nvidia.driver", "test", {"driver_version": driver[0], "cuda_driver_max": driver[1]}
            )
        )
    for name, data in groups.items():
        s.add(collected(name.replace("__", "."), "test", data))
    return s


def ids(s: Snapshot, matrices) -> list[str]:
    return [f.id for f in diagnose(s, matrices=matrices, check_modules=MODULES).findings]


def assert_passes(finding_id: str, s: Snapshot, matrices) -> None:
    """The check that emits `finding_id` ran on `s` and found nothing (it is in the report's
    passed checks): a check skipped for missing facts cannot satisfy this."""
    [chk] = [c for c in load_checks(MODULES) if finding_id in c.ids]
    report = diagnose(s, matrices=matrices, check_modules=MODULES)
    skipped = {k.id: k.reason for k in report.skipped}
    assert chk.id in report.passed, skipped.get(chk.id) or [f.id for f in report.findings]


def find(s: Snapshot, matrices, finding_id: str):
    return next(
        (
            f
            for f in diagnose(s, matrices=matrices, check_modules=MODULES).findings
            if f.id == finding_id
        ),
        None,
    )


def docker(**changes) -> dict:
    out = copy.deepcopy(DOCKER)
    out.update(changes)
    return out


def test_no_nvidia_runtime(matrices):
    bad = find(snap(docker=docker()), matrices, "container.no-nvidia-runtime")
    assert bad.severity.value == "error" and "could not select device driver" in bad.detail
    assert bad.fixes[0].commands[-1] == "sudo apt-get install -y nvidia-container-toolkit"
    assert bad.fixes[1].commands == (
        "sudo nvidia-ctk runtime configure --runtime=docker",
        "sudo systemctl restart docker",
    )
    good = snap(
        docker=docker(runtimes=["nvidia", "runc"]),
        toolkit={"binaries": {"nvidia-container-runtime-hook": HOOK}},
    )
    assert ids(good, matrices) == []
    no_gpu = diagnose(
        snap(docker=docker(), gpus=(), driver=None), matrices=matrices, check_modules=MODULES
    )
    assert "container.no-nvidia-runtime" not in [f.id for f in no_gpu.findings]
    assert "container.no-nvidia-runtime" in [k.id for k in no_gpu.skipped]  # no NVIDIA facts


def test_daemon_json_not_reloaded_and_runtime_not_configured(matrices):
    configured = {
        "binaries": {"nvidia-container-runtime-hook": HOOK},
        "daemon_configs": [
            {"path": "/etc/docker/daemon.json", "runtimes": {"nvidia": "nvidia-container-runtime"}}
        ],
    }
    stale = find(snap(docker=docker(), toolkit=configured), matrices, "container.no-nvidia-runtime")
    assert "has not loaded it" in stale.title and stale.fixes[0].commands == (
        "sudo systemctl restart docker",
    )
    unconfigured = find(
        snap(docker=docker(), toolkit={"binaries": {"nvidia-container-runtime-hook": HOOK}}),
        matrices,
        "container.nvidia-runtime-not-configured",
    )
    assert unconfigured.severity.value == "warning"


def test_cdi_no_gpu_vendor_on_docker_29_3(matrices):
    cdi_docker = docker(server_version="29.3.0", cdi_spec_dirs=["/etc/cdi", "/var/run/cdi"])
    bad = find(snap(docker=cdi_docker), matrices, "container.cdi-no-gpu-vendor")
    assert "no known GPU vendor found" in bad.detail and bad.explains == (
        "container.no-nvidia-runtime",
    )
    # the same check ran (it reported the CDI problem above), without the runtime finding
    assert "container.no-nvidia-runtime" not in ids(snap(docker=cdi_docker), matrices)
    good = snap(
        docker=docker(
            server_version="29.3.0", cdi_spec_dirs=["/etc/cdi"], runtimes=["nvidia", "runc"]
        ),
        toolkit={"binaries": {"nvidia-cdi-hook": CDI_HOOK}},
    )
    assert_passes("container.cdi-no-gpu-vendor", good, matrices)
    older = snap(docker=docker(server_version="29.2.1", cdi_spec_dirs=["/etc/cdi"]))
    assert ids(older, matrices)[0] == "container.no-nvidia-runtime"


def test_docker_too_old_for_gpus(matrices):
    bad = find(
        snap(docker=docker(server_version="18.09.7")), matrices, "container.docker-too-old-for-gpus"
    )
    assert "needs 19.03" in bad.title and "--runtime=nvidia" in bad.fixes[1].commands[0]
    assert_passes(
        "container.docker-too-old-for-gpus", snap(docker=docker(server_version="19.03.0")), matrices
    )


def test_permission_denied_and_not_running(matrices):
    denied = {
        "state": "permission-denied",
        "host": "unix:///var/run/docker.sock",
        "error": "permission denied",
    }
    fix = find(snap(docker=denied), matrices, "container.docker-permission-denied").fixes[0]
    assert fix.commands[0] == "sudo usermod -aG docker $USER"
    stopped = {
        "state": "not-running",
        "host": "unix:///var/run/docker.sock",
        "host_source": "default",
        "systemd": False,
    }
    info = find(
        snap(docker=stopped, gpus=(), driver=None), matrices, "container.daemon-not-running"
    )
    assert (
        info.severity.value == "info" and info.fixes[0].commands[0] == "sudo service docker start"
    )
    rootless = find(
        snap(docker={**stopped, "rootless": True, "systemd": True}),
        matrices,
        "container.daemon-not-running",
    )
    assert rootless.fixes[0].commands[0] == "systemctl --user start docker"
    assert (
        ids(
            snap(
                docker=docker(runtimes=["nvidia"]),
                toolkit={"binaries": {"nvidia-container-runtime-hook": HOOK}},
            ),
            matrices,
        )
        == []
    )


def test_rootless_needs_no_cgroups(matrices):
    tk = {"binaries": {"nvidia-container-runtime-hook": HOOK}, "config": {"mode": "auto"}}
    bad = find(
        snap(docker=docker(rootless=True, runtimes=["nvidia", "runc"]), toolkit=tk),
        matrices,
        "container.rootless-needs-no-cgroups",
    )
    assert (
        bad.fixes[0].commands[-1]
        == "sudo nvidia-ctk config --set nvidia-container-cli.no-cgroups --in-place"
    )
    ok = {**tk, "config": {"no_cgroups": True}}
    assert_passes(
        "container.rootless-needs-no-cgroups",
        snap(docker=docker(rootless=True, runtimes=["nvidia"]), toolkit=ok),
        matrices,
    )


def test_nvml_unknown_error_with_systemd_cgroup_driver(matrices):
    tk = {"binaries": {"nvidia-container-runtime-hook": HOOK}, "dev_char_nvidia_links": 0}
    bad = find(
        snap(docker=docker(cgroup_driver="systemd", runtimes=["nvidia"]), toolkit=tk),
        matrices,
        "container.nvml-unknown-error-cgroup",
    )
    assert "daemon-reload" in bad.title
    assert any("create-dev-char-symlinks" in c for f in bad.fixes for c in f.commands)
    assert_passes(
        "container.nvml-unknown-error-cgroup",
        snap(docker=docker(runtimes=["nvidia"]), toolkit=tk),
        matrices,
    )
    cdi = {"binaries": {"nvidia-container-runtime-hook": HOOK, "nvidia-cdi-hook": CDI_HOOK}}
    via_cdi = snap(
        docker=docker(server_version="29.2.0", cgroup_driver="systemd", runtimes=["nvidia"]),
        toolkit=cdi,
        container__cdi={
            "specs": [
                {
                    "path": "/var/run/cdi/nvidia.yaml",
                    "kind": "nvidia.com/gpu",
                    "devices": ["0", "all"],
                    "driver_version": "575.64.03",
                }
            ]
        },
    )
    assert_passes("container.nvml-unknown-error-cgroup", via_cdi, matrices)


def test_nvml_library_not_found(matrices):
    error = (
        "nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open shared "
        "object file: no such file or directory"
    )
    tk = {
        "binaries": {"nvidia-container-runtime-hook": HOOK, "nvidia-container-cli": HOOK},
        "cli_info_error": error,
    }
    bad = find(
        snap(docker=docker(runtimes=["nvidia"]), toolkit=tk, driver=None),
        matrices,
        "container.nvml-library-not-found",
    )
    assert bad.fixes[0].commands[0] == "sudo ubuntu-drivers install"
    snapped = find(
        snap(
            docker=docker(snap=True, cli_path="/snap/bin/docker", runtimes=["nvidia"]),
            toolkit={"binaries": {"nvidia-container-runtime-hook": HOOK}},
        ),
        matrices,
        "container.nvml-library-not-found",
    )
    assert snapped.fixes[0].commands[0] == "sudo snap remove docker"
    desktop = find(
        snap(docker=docker(docker_desktop=True, context="desktop-linux")),
        matrices,
        "container.nvml-library-not-found",
    )
    assert desktop.fixes[0].commands[0] == "docker context use default"
    ok = {
        "binaries": {"nvidia-container-runtime-hook": HOOK},
        "cli_info": {"nvrm_version": "575.64.03", "devices": []},
    }
    assert_passes(
        "container.nvml-library-not-found",
        snap(docker=docker(runtimes=["nvidia"]), toolkit=ok),
        matrices,
    )


def test_cuda_requirement_unsatisfied_for_an_image(matrices):
    image = {
        "image": "nvidia/cuda:13.0.0-base",
        "env": {"NVIDIA_REQUIRE_CUDA": "cuda>=13.0", "CUDA_VERSION": "13.0.0"},
    }
    bad = find(
        snap(driver=("550.54.15", "12.4"), container__image=image),
        matrices,
        "container.cuda-requirement-unsatisfied",
    )
    assert "unsatisfied condition: cuda>=13.0, please update your driver" in bad.detail
    assert bad.fixes[0].summary.startswith("Upgrade the host NVIDIA driver to 580.65.06")
    ok = {**image, "env": {"NVIDIA_REQUIRE_CUDA": "cuda>=12.0"}}
    assert_passes(
        "container.cuda-requirement-unsatisfied",
        snap(driver=("550.54.15", "12.4"), container__image=ok),
        matrices,
    )


def test_cuda_requirement_inside_a_container_with_disable_require(matrices):
    inside = {
        "in_container": True,
        "engine": "docker",
        "device_nodes": ["nvidia0", "nvidiactl"],
        "libcuda": ["x"],
        "env": {
            "NVIDIA_VISIBLE_DEVICES": "all",
            "CUDA_VERSION": "11.8.0",
            "NVIDIA_DISABLE_REQUIRE": "true",
        },
    }
    bad = find(
        snap(driver=("418.87.01", "10.1"), container__inside=inside),
        matrices,
        "container.cuda-requirement-unsatisfied",
    )
    assert "not a fix" in bad.detail and "CUDA 11.8" in bad.title


def test_requirement_language():
    host = require.HostFacts(cuda_driver_max="11.4", driver="470.82.01")
    expression = "cuda>=12.0 brand=tesla,driver>=450,driver<451 brand=tesla,driver>=470,driver<471"
    assert (
        require.unsatisfied(expression, host) is None
    )  # forward-compatible datacenter branch: maybe
    assert (
        require.unsatisfied(
            expression, require.HostFacts(cuda_driver_max="11.2", driver="460.32.03")
        )
        == "cuda>=12.0"
    )
    assert (
        require.unsatisfied(expression, require.HostFacts("11.4", "470.82.01", brands=("GeForce",)))
        == "cuda>=12.0"
    )
    assert require.requirements({"CUDA_VERSION": "10.2.89"}) == {
        "NVIDIA_REQUIRE_CUDA": "cuda>=10.2"
    }
    assert require.disabled({"NVIDIA_DISABLE_REQUIRE": "1"}) and not require.disabled(
        {"NVIDIA_DISABLE_REQUIRE": "no"}
    )
    assert (
        require.unsatisfied("arch>=8.0", require.HostFacts(None, None, archs=("7.5",)))
        == "arch>=8.0"
    )


def test_no_gpus_injected(matrices):
    inside = {
        "in_container": True,
        "engine": "podman",
        "device_nodes": [],
        "dxg": False,
        "libcuda": [],
        "env": {"NVIDIA_VISIBLE_DEVICES": "all"},
    }
    bad = find(
        snap(gpus=(), driver=None, container__inside=inside), matrices, "container.no-gpus-injected"
    )
    assert bad.title == "Inside a podman, no GPU devices injected"
    assert "--device nvidia.com/gpu=all" in bad.fixes[0].commands[0]
    pod = find(
        snap(gpus=(), driver=None, container__inside={**inside, "engine": "kubernetes"}),
        matrices,
        "container.no-gpus-injected",
    )
    assert "nvidia.com/gpu" in pod.fixes[0].summary
    served = {
        **inside,
        "device_nodes": ["nvidia0", "nvidiactl"],
        "libcuda": ["/usr/lib/x86_64-linux-gnu/libcuda.so.1"],
    }
    assert ids(snap(gpus=(), driver=None, container__inside=served), matrices) == []
    cpu_only = {**inside, "env": {"NVIDIA_VISIBLE_DEVICES": "void"}}
    assert ids(snap(gpus=(), driver=None, container__inside=cpu_only), matrices) == []
    by_hand = {
        **served,
        "libcuda": [],
        "env": {"NVIDIA_VISIBLE_DEVICES": "all", "NVIDIA_DRIVER_CAPABILITIES": "utility"},
    }
    libs = find(
        snap(gpus=(), driver=None, container__inside=by_hand),
        matrices,
        "container.driver-libs-not-injected",
    )
    assert "NVIDIA_DRIVER_CAPABILITIES=utility,compute" in libs.fixes[0].commands[0]


def test_podman_without_cdi_spec(matrices):
    podman = {"version": "4.3.1", "rootless": False}
    bad = find(snap(container__podman=podman), matrices, "container.podman-no-cdi-spec")
    assert bad.fixes[0].commands[-1] == "sudo apt-get install -y nvidia-container-toolkit-base"
    assert bad.fixes[1].commands[0] == "sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml"
    spec = {
        "specs": [
            {"path": "/etc/cdi/nvidia.yaml", "kind": "nvidia.com/gpu", "devices": ["0", "all"]}
        ],
        "kinds": ["nvidia.com/gpu"],
    }
    assert_passes(
        "container.podman-no-cdi-spec",
        snap(container__podman=podman, container__cdi=spec),
        matrices,
    )


def test_stale_cdi_spec(matrices):
    spec = {
        "path": "/etc/cdi/nvidia.yaml",
        "kind": "nvidia.com/gpu",
        "driver_version": "575.64.03",
        "devices": ["0", GPU["uuid"], "all"],
        "uuids": [GPU["uuid"]],
    }
    cdi = {"specs": [spec], "kinds": ["nvidia.com/gpu"]}
    assert_passes("container.cdi-spec-stale", snap(container__cdi=cdi), matrices)
    bad = find(
        snap(driver=("580.95.05", "13.0"), container__cdi=cdi), matrices, "container.cdi-spec-stale"
    )
    assert "driver 575.64.03, the host runs 580.95.05" in bad.detail
    assert bad.fixes[0].commands[0] == "sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml"
    swapped = find(
        snap(
            gpus=({**GPU, "uuid": "GPU-ffffffff-0000-0000-0000-000000000000"},), container__cdi=cdi
        ),
        matrices,
        "container.cdi-spec-stale",
    )
    assert "names GPUs that are not here" in swapped.detail


def test_image_needs_newer_driver(matrices):
    image = {
        "image": "repo/train:cu130",
        "env": {},
        "torch": {"version": "2.9.0+cu130", "cuda": "13.0"},
    }
    bad = find(
        snap(driver=("550.54.15", "12.4"), container__image=image),
        matrices,
        "container.image-needs-newer-driver",
    )
    assert bad.title == "This image's torch is cu130 and needs a 580 driver; the host has 550.54.15"
    assert_passes(
        "container.image-needs-newer-driver",
        snap(driver=("580.65.06", "13.0"), container__image=image),
        matrices,
    )
    cu126 = {**image, "torch": {"version": "2.9.0+cu126", "cuda": "12.6"}}
    assert_passes(
        "container.image-needs-newer-driver",
        snap(driver=("550.54.15", "12.4"), container__image=cu126),
        matrices,
    )


def test_every_container_check_has_a_help_page():
    checks = [c for c in load_checks() if c.id.startswith("container.")]
    assert len(checks) >= 13
    for chk in checks:
        assert len(chk.help.splitlines()) >= 3, chk.id


def test_this_machine_has_no_container_alarm(matrices):
    live = collect_live(
        ProbeOptions(timeout_s=20),
        modules=(
            "os_info",
            "container_inside",
            "container_docker",
            "container_toolkit",
            "container_cdi",
            "container_podman",
        ),
    )
    report = diagnose(live, matrices=matrices, check_modules=MODULES)
    assert [f.id for f in report.findings if f.severity.value != "info"] == []
