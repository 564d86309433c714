"""Inside-container detection, what the engine injected, and Kubernetes pod facts, on fake roots."""

from __future__ import annotations

from envdoctor.probes import container_inside
from envdoctor.probes.context import ProbeContext

DOCKER_CGROUP = "0::/docker/5f1afa5dbea157c47298f7493a4ec23ba93b79a3b003379c51fa0df66406ea63\n"
K8S_CGROUP = (
    "0::/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod4c1b.slice/"
    "cri-containerd-2f7a.scope\n"
)


def _groups(root, env):
    return {g.name: g for g in container_inside.collect(ProbeContext(root=root, env=env))}


def test_docker_container_without_gpus(fake_root):
    root = fake_root({"/.dockerenv": "", "/proc/1/cgroup": DOCKER_CGROUP, "/dev/null": ""})
    groups = _groups(
        root,
        {
            "NVIDIA_VISIBLE_DEVICES": "all",
            "NVIDIA_DRIVER_CAPABILITIES": "compute,utility",
            "NVIDIA_REQUIRE_CUDA": "cuda>=12.4 brand=tesla,driver>=470,driver<471",
            "HOME": "/root",
        },
    )
    inside = groups["container.inside"].data
    assert inside["in_container"] is True and inside["engine"] == "docker"
    assert inside["evidence"] == ["/.dockerenv exists", "/proc/1/cgroup mentions docker"]
    assert inside["env"] == {
        "NVIDIA_VISIBLE_DEVICES": "all",
        "NVIDIA_DRIVER_CAPABILITIES": "compute,utility",
        "NVIDIA_REQUIRE_CUDA": "cuda>=12.4 brand=tesla,driver>=470,driver<471",
    }
    assert inside["device_nodes"] == [] and inside["libcuda"] == []
    assert (
        groups["container.inside"].summary == "inside a docker container, no GPU devices injected"
    )
    assert groups["container.kubernetes"].status.value == "absent"


def test_podman_container_with_injected_gpu(fake_root):
    root = fake_root(
        {
            "/run/.containerenv": 'engine="podman-4.3.1"\n',
            "/dev/nvidia0": "",
            "/dev/nvidiactl": "",
            "/dev/nvidia-uvm": "",
            "/usr/lib/x86_64-linux-gnu/libcuda.so.1": "",
            "/etc/ld.so.cache": b"ld.so-1.7.0\0glibc-ld.so.cache1.1\0libnvidia-ml.so.1\0/usr/lib/x\0",
        }
    )
    inside = _groups(root, {"NVIDIA_VISIBLE_DEVICES": "nvidia.com/gpu=all"})[
        "container.inside"
    ].data
    assert inside["engine"] == "podman"
    assert inside["device_nodes"] == ["nvidia-uvm", "nvidia0", "nvidiactl"]
    assert inside["libcuda"] == ["/usr/lib/x86_64-linux-gnu/libcuda.so.1"]
    assert inside["libnvidia_ml"] == ["ld.so.cache"]


def test_kubernetes_pod(fake_root):
    root = fake_root(
        {
            "/proc/1/cgroup": K8S_CGROUP,
            "/dev/nvidia0": "",
            "/dev/nvidia1": "",
            "/var/run/secrets/kubernetes.io/serviceaccount/namespace": "ml-team\n",
        }
    )
    groups = _groups(
        root,
        {
            "KUBERNETES_SERVICE_HOST": "10.96.0.1",
            "HOSTNAME": "trainer-0",
            "NVIDIA_VISIBLE_DEVICES": "GPU-1,GPU-2",
        },
    )
    assert groups["container.inside"].data["engine"] == "kubernetes"
    pod = groups["container.kubernetes"].data
    assert pod == {
        "namespace": "ml-team",
        "pod": "trainer-0",
        "service_host": "10.96.0.1",
        "gpu_env": "GPU-1,GPU-2",
        "devices_allocated": True,
        "gpu_device_count": 2,
    }


def test_plain_host_is_not_a_container(fake_root):
    root = fake_root({"/proc/1/cgroup": "0::/init.scope\n"})
    inside = _groups(root, {})["container.inside"].data
    assert inside["in_container"] is False and inside["engine"] is None and inside["evidence"] == []


def test_wsl2_gpu_and_libcuda_dir_from_cdi(fake_root):
    root = fake_root(
        {
            "/.dockerenv": "",
            "/dev/dxg": "",
            "/usr/lib/wsl/lib/libcuda.so.1": "",
            "/opt/drv/libnvidia-ml.so.1": "",
        }
    )
    inside = _groups(root, {"NVIDIA_CTK_LIBCUDA_DIR": "/opt/drv"})["container.inside"].data
    assert inside["dxg"] is True
    assert inside["libcuda"] == ["/usr/lib/wsl/lib/libcuda.so.1"]
    assert inside["libnvidia_ml"] == ["/opt/drv/libnvidia-ml.so.1"]
