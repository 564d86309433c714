"""The fixes the container checks offer, as exact commands for this machine's OS and Docker setup.

Not a check module (no CHECKS). Commands follow NVIDIA's Container Toolkit install guide and
Docker's post-install docs; the package manager comes from the `os` facts.
"""

from __future__ import annotations

from envdoctor.model.findings import Fix, Risk
from envdoctor.model.snapshot import Snapshot

TOOLKIT_INSTALL_URL = (
    "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/install-guide.html"
)
TOOLKIT_CDI_URL = (
    "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/cdi-support.html"
)
TOOLKIT_TROUBLESHOOTING_URL = (
    "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/troubleshooting.html"
)
TOOLKIT_SPECIALIZED_URL = "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/docker-specialized.html"
DOCKER_POSTINSTALL_URL = "https://docs.docker.com/engine/install/linux-postinstall/"
DOCKER_GPU_URL = "https://docs.docker.com/engine/containers/gpu/"
DOCKER_ROOTLESS_URL = "https://docs.docker.com/engine/security/rootless/"
K8S_GPU_URL = "https://kubernetes.io/docs/tasks/manage-gpus/scheduling-gpus/"
CDI_SPEC_PATH = "/var/run/cdi/nvidia.yaml"

_APT_REPO = (
    "curl -fsSL https://nvidia.github.io/libnvidia-container/gpgkey | sudo gpg --dearmor "
    "-o /usr/share/keyrings/nvidia-container-toolkit-keyring.gpg",
    "curl -s -L https://nvidia.github.io/libnvidia-container/stable/deb/nvidia-container-toolkit.list"
    " | sed 's#deb https://#deb [signed-by=/usr/share/keyrings/nvidia-container-toolkit-keyring.gpg]"
    " https://#g' | sudo tee /etc/apt/sources.list.d/nvidia-container-toolkit.list",
)
_RPM_REPO_URL = (
    "https://nvidia.github.io/libnvidia-container/stable/rpm/nvidia-container-toolkit.repo"
)


def package_manager(snap: Snapshot) -> str | None:
    """ "apt", "dnf", "zypper" or None, from the distribution in the `os` facts."""
    os_facts = snap.data("os") or {}
    ids = {
        str(os_facts.get("distro_id") or "").lower(),
        *(str(x).lower() for x in os_facts.get("distro_like") or []),
    }
    if ids & {"debian", "ubuntu", "linuxmint", "pop", "raspbian"}:
        return "apt"
    if ids & {"fedora", "rhel", "centos", "rocky", "almalinux", "amzn", "ol"}:
        return "dnf"
    if ids & {"opensuse", "opensuse-leap", "opensuse-tumbleweed", "sles", "suse"}:
        return "zypper"
    return None


def install_toolkit(snap: Snapshot, package: str = "nvidia-container-toolkit") -> Fix:
    """Install the NVIDIA Container Toolkit (or only its base package) from NVIDIA's repository."""
    manager = package_manager(snap)
    commands: tuple[str, ...]
    if manager == "apt":
        commands = (*_APT_REPO, "sudo apt-get update", f"sudo apt-get install -y {package}")
    elif manager == "dnf":
        commands = (
            f"curl -s -L {_RPM_REPO_URL} | sudo tee /etc/yum.repos.d/nvidia-container-toolkit.repo",
            f"sudo dnf install -y {package}",
        )
    elif manager == "zypper":
        commands = (
            f"sudo zypper ar {_RPM_REPO_URL}",
            f"sudo zypper --gpg-auto-import-keys install -y {package}",
        )
    else:
        commands = ()
    return Fix(
        f"Install the NVIDIA Container Toolkit ({package}) from NVIDIA's package repository",
        commands,
        Risk.SAFE,
        TOOLKIT_INSTALL_URL,
    )


def restart_docker_commands(snap: Snapshot) -> tuple[str, ...]:
    """How to restart the Docker daemon in use (rootless, systemd, or SysV init)."""
    facts = snap.data("container.docker") or {}
    if facts.get("rootless"):
        return ("systemctl --user restart docker",)
    if facts.get("systemd") is False:
        return ("sudo service docker restart",)
    return ("sudo systemctl restart docker",)


def configure_docker_runtime(snap: Snapshot) -> Fix:
    """Register the nvidia runtime in daemon.json and restart the daemon."""
    facts = snap.data("container.docker") or {}
    configure = (
        "nvidia-ctk runtime configure --runtime=docker --config=$HOME/.config/docker/daemon.json"
        if facts.get("rootless")
        else "sudo nvidia-ctk runtime configure --runtime=docker"
    )
    return Fix(
        "Register the NVIDIA runtime with Docker and restart the daemon",
        (configure, *restart_docker_commands(snap)),
        Risk.NEEDS_RESTART,
        TOOLKIT_INSTALL_URL,
    )


def restart_docker(snap: Snapshot, why: str) -> Fix:
    """Restart the daemon so it registers what is now installed or configured."""
    return Fix(
        f"Restart the Docker daemon {why}",
        restart_docker_commands(snap),
        Risk.NEEDS_RESTART,
        TOOLKIT_INSTALL_URL,
    )


def generate_cdi_spec(path: str = CDI_SPEC_PATH) -> Fix:
    """Write a CDI spec for the GPUs present."""
    return Fix(
        "Generate a CDI spec for the GPUs present and check it lists them",
        (f"sudo nvidia-ctk cdi generate --output={path}", "nvidia-ctk cdi list"),
        Risk.SAFE,
        TOOLKIT_CDI_URL,
    )


def gpu_run_fix(engine: str | None) -> Fix:
    """Start the container with GPUs, in the words of the engine in use."""
    if engine == "podman":
        return Fix(
            "Start the container with the GPUs as CDI devices",
            ("podman run --rm --device nvidia.com/gpu=all --security-opt=label=disable IMAGE",),
            Risk.SAFE,
            TOOLKIT_CDI_URL,
        )
    if engine == "kubernetes":
        return Fix(
            "Request GPUs in the pod spec: resources.limits nvidia.com/gpu (and runtimeClassName: "
            "nvidia when nvidia is not the node's default runtime), then recreate the pod",
            (
                "kubectl describe node | grep -i nvidia.com/gpu",
                "kubectl get pod \"$HOSTNAME\" -o jsonpath='{.spec.containers[*].resources.limits}'",
            ),
            Risk.SAFE,
            K8S_GPU_URL,
        )
    if engine == "containerd":
        return Fix(
            "Start the container with GPUs",
            ("nerdctl run --rm --gpus all IMAGE",),
            Risk.SAFE,
            DOCKER_GPU_URL,
        )
    return Fix(
        "Start the container with GPUs (Compose: deploy.resources.reservations.devices with "
        "driver: nvidia, count: all, capabilities: [gpu])",
        ("docker run --rm --gpus all IMAGE",),
        Risk.SAFE,
        DOCKER_GPU_URL,
    )
