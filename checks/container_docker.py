"""Docker and the NVIDIA Container Toolkit on the host: can `docker run --gpus all` work here?"""

from __future__ import annotations

from envdoctor.checkdef import check
from envdoctor.checks import container_facts as facts
from envdoctor.checks import container_fixes as fixes
from envdoctor.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.matrixset import MatrixSet
from envdoctor.remedies import fixes_for
from envdoctor.snapshot import Confidence, Snapshot
from envdoctor.versions import at_least

_GPU_NEEDS = ("nvidia.gpus", "nvidia.driver")
_HOOKS = ("nvidia-container-runtime-hook", "nvidia-cdi-hook")


def _hooks(snap: Snapshot, ms: MatrixSet) -> list[str]:
    """The NVIDIA hooks on PATH that this daemon version registers a --gpus driver for."""
    found = [name for name in _HOOKS if facts.toolkit_binary(snap, name)]
    if facts.docker_at_least(snap, ms, "gpus-via-cdi") is not True:
        found = [name for name in found if name != "nvidia-cdi-hook"]
    return found


def _cdi_vendor_path(snap: Snapshot, ms: MatrixSet) -> bool:
    """Docker >= 29.3 with CDI on: --gpus without an NVIDIA hook fails on vendor discovery."""
    return (
        facts.docker_at_least(snap, ms, "gpus-cdi-vendor-discovery") is True
        and facts.cdi_enabled(snap) is not False
    )


def _evidence_common(snap: Snapshot) -> tuple[Evidence, ...]:
    docker = facts.docker(snap)
    return (
        Evidence("container.docker.server_version", str(docker.get("server_version"))),
        Evidence(
            "container.docker.runtimes",
            ", ".join(docker.get("runtimes") or []) or "(none)",
            "nvidia among them",
        ),
    )


@check(
    "container.no-nvidia-runtime",
    "container.nvidia-runtime-not-configured",
    needs=("container.docker",),
    needs_any=_GPU_NEEDS,
    matrices=("container_stack",),
)
def no_nvidia_runtime(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """Docker has no NVIDIA GPU device driver: `docker run --gpus all` fails.

    Docker serves `--gpus` through a device driver that dockerd registers once, when it starts,
    and only if an NVIDIA hook is on its PATH: `nvidia-container-runtime-hook` (every Docker since
    19.03) or `nvidia-cdi-hook` (Docker 29.2 and later). Without one, `docker run --gpus all` fails
    with `could not select device driver "" with capabilities: [[gpu]]`; `--runtime=nvidia` fails
    with `unknown or invalid runtime name: nvidia` while daemon.json does not register the
    `nvidia` runtime, or while the running daemon has not re-read it. Fix: install the NVIDIA
    Container Toolkit, run `nvidia-ctk runtime configure --runtime=docker`, restart Docker.
    (Docker 29.3 and later with CDI on report the missing hook as
    `container.cdi-no-gpu-vendor` instead.)
    """
    docker = facts.docker(snap)
    if docker.get("state") != "reachable" or not facts.nvidia_gpu_host(snap):
        return None
    if docker.get("docker_desktop") and "nvidia" in (docker.get("runtimes") or []):
        return None  # Docker Desktop ships its own GPU path
    hooks = _hooks(snap, ms)
    registered = "nvidia" in (docker.get("runtimes") or [])
    configured = any("nvidia" in (c.get("runtimes") or {}) for c in facts.daemon_configs(snap))
    if not hooks and not _cdi_vendor_path(snap, ms):
        missing = "not installed" if facts.toolkit_absent(snap) else "installed without its hook"
        return Finding(
            id="container.no-nvidia-runtime",
            severity=Severity.ERROR,
            title="Docker cannot give containers the GPU: no NVIDIA hook for --gpus",
            detail=(
                f"The NVIDIA Container Toolkit is {missing}, so Docker "
                f"{docker.get('server_version')} has no GPU device driver and `docker run --gpus all` "
                'fails with: could not select device driver "" with capabilities: [[gpu]].'
            ),
            evidence=(
                Evidence("container.toolkit", missing, "nvidia-container-runtime-hook on PATH"),
                *_evidence_common(snap),
            ),
            fixes=(
                *fixes_for(snap, ms, "container-toolkit"),
                Fix(
                    "Check that a GPU container starts",
                    ("docker run --rm --gpus all ubuntu nvidia-smi",),
                    Risk.SAFE,
                    fixes.DOCKER_GPU_URL,
                ),
            ),
        )
    if registered:
        return None
    if configured:
        return Finding(
            id="container.no-nvidia-runtime",
            severity=Severity.ERROR,
            title="daemon.json registers the nvidia runtime, but the running Docker daemon has not loaded it",
            detail=(
                "The nvidia runtime is in daemon.json, yet `docker info` lists only "
                f"{', '.join(docker.get('runtimes') or []) or 'no runtimes'}: the daemon was not restarted "
                "after the file changed, so `--runtime=nvidia` and Compose `runtime: nvidia` fail with "
                "`unknown or invalid runtime name: nvidia`."
            ),
            evidence=(
                Evidence("container.toolkit.daemon_configs", "nvidia runtime configured"),
                *_evidence_common(snap),
            ),
            fixes=(fixes.restart_docker(snap, "so it reads daemon.json again"),),
        )
    return Finding(
        id="container.nvidia-runtime-not-configured",
        severity=Severity.WARNING,
        title="The NVIDIA runtime is not registered with Docker",
        detail=(
            "`--gpus` works through the NVIDIA hook, but `--runtime=nvidia`, Compose `runtime: nvidia` and "
            "images that rely on NVIDIA_VISIBLE_DEVICES alone need the nvidia runtime in daemon.json."
        ),
        confidence=Confidence.MEDIUM,
        evidence=(
            Evidence("container.toolkit.binaries", ", ".join(hooks)),
            *_evidence_common(snap),
        ),
        fixes=(fixes.configure_docker_runtime(snap),),
    )


@check(
    "container.cdi-no-gpu-vendor",
    needs=("container.docker",),
    needs_any=_GPU_NEEDS,
    matrices=("container_stack",),
)
def cdi_no_gpu_vendor(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """Docker 29.3+ with CDI on and no NVIDIA hook: `--gpus` fails on CDI vendor discovery.

    From Docker Engine 29.3, dockerd registers the NVIDIA `--gpus` drivers only when
    `nvidia-cdi-hook` or `nvidia-container-runtime-hook` is on its PATH at start; otherwise, with CDI
    enabled (the default), it registers the AMD/CDI driver, and `docker run --gpus all` fails with
    `failed to discover GPU vendor from CDI: no known GPU vendor found` (or `AMD CDI spec not found`
    when only an nvidia.com spec exists). Fix: install the NVIDIA Container Toolkit (it provides both
    hooks), generate a CDI spec, restart Docker. On a machine without an NVIDIA GPU, run the
    container without `--gpus`.
    """
    docker = facts.docker(snap)
    if docker.get("state") != "reachable" or not facts.nvidia_gpu_host(snap):
        return None
    if not _cdi_vendor_path(snap, ms) or _hooks(snap, ms):
        return None
    kinds = snap.fact("container.cdi", "kinds") or []
    message = (
        "AMD CDI spec not found"
        if "nvidia.com/gpu" in kinds and "amd.com/gpu" not in kinds
        else "failed to discover GPU vendor from CDI: no known GPU vendor found"
    )
    return Finding(
        id="container.cdi-no-gpu-vendor",
        severity=Severity.ERROR,
        title=f"Docker {docker.get('server_version')} will fail --gpus: no NVIDIA hook for its CDI GPU path",
        detail=(
            f"Docker {docker.get('server_version')} maps --gpus to CDI and found neither nvidia-cdi-hook nor "
            f"nvidia-container-runtime-hook when it started, so `docker run --gpus all` fails with: {message}."
        ),
        evidence=(
            Evidence(
                "container.toolkit",
                "no nvidia-cdi-hook / nvidia-container-runtime-hook on PATH",
                "the NVIDIA Container Toolkit installed",
            ),
            Evidence("container.cdi.kinds", ", ".join(kinds) or "(no CDI specs)", "nvidia.com/gpu"),
            *_evidence_common(snap),
        ),
        fixes=(
            fixes.install_toolkit(snap),
            fixes.generate_cdi_spec(),
            fixes.restart_docker(snap, "so it registers the NVIDIA --gpus driver"),
        ),
        explains=("container.no-nvidia-runtime",),
    )


@check(
    "container.docker-too-old-for-gpus",
    needs=("container.docker",),
    needs_any=_GPU_NEEDS,
    matrices=("container_stack",),
)
def docker_too_old(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """The Docker Engine predates `--gpus` (added in Docker 19.03).

    Older engines reject `--gpus` as an unknown flag; GPUs reach their containers only through the
    deprecated nvidia-docker2 runtime (`--runtime=nvidia -e NVIDIA_VISIBLE_DEVICES=all`). Fix:
    upgrade Docker.
    """
    docker = facts.docker(snap)
    minimum = facts.stack_minimum(ms, "docker", "gpus-flag")
    version = docker.get("server_version")
    if (
        docker.get("state") != "reachable"
        or not facts.nvidia_gpu_host(snap)
        or at_least(version, minimum) is not False
    ):
        return None
    upgrade = (
        ("sudo apt-get update", "sudo apt-get install -y docker.io")
        if fixes.package_manager(snap) == "apt"
        else ()
    )
    return Finding(
        id="container.docker-too-old-for-gpus",
        severity=Severity.ERROR,
        title=f"Docker {version} is too old for --gpus (needs {minimum} or later)",
        detail=f"`docker run --gpus` exists from Docker {minimum}; this daemon is {version}.",
        evidence=(Evidence("container.docker.server_version", str(version), f">= {minimum}"),),
        fixes=(
            Fix(
                f"Upgrade Docker to {minimum} or later",
                (*upgrade, "docker version --format '{{.Server.Version}}'"),
                Risk.NEEDS_RESTART,
                "https://docs.docker.com/engine/install/",
            ),
            Fix(
                "Until then, use the nvidia runtime with the environment variable",
                ("docker run --rm --runtime=nvidia -e NVIDIA_VISIBLE_DEVICES=all IMAGE",),
                Risk.SAFE,
                fixes.TOOLKIT_SPECIALIZED_URL,
            ),
        ),
    )


@check("container.docker-permission-denied", needs=("container.docker",))
def docker_permission_denied(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """This user may not talk to the Docker daemon (its socket is root:docker, mode 660).

    `docker` fails with `permission denied while trying to connect to the Docker daemon socket`.
    Fix: add the user to the `docker` group (which grants root-equivalent power over the machine)
    and start a new login session, or use rootless Docker, or sudo.
    """
    docker = facts.docker(snap)
    if docker.get("state") != "permission-denied":
        return None
    return Finding(
        id="container.docker-permission-denied",
        severity=Severity.WARNING,
        title="Permission denied on the Docker socket",
        detail=(
            f"{docker.get('host')} refused this user: {docker.get('error') or 'permission denied'}. "
            "Members of the docker group can use it; this user is not one yet (or has not logged in again)."
        ),
        evidence=(Evidence("container.docker.state", "permission-denied", "reachable"),),
        fixes=(
            Fix(
                "Add yourself to the docker group and start a new login session (the docker group is "
                "root-equivalent)",
                ("sudo usermod -aG docker $USER", "newgrp docker", "docker info"),
                Risk.SAFE,
                fixes.DOCKER_POSTINSTALL_URL,
            ),
            Fix(
                "Or use rootless Docker for this user",
                ("dockerd-rootless-setuptool.sh install",),
                Risk.SAFE,
                fixes.DOCKER_ROOTLESS_URL,
            ),
        ),
    )


@check("container.daemon-not-running", needs=("container.docker",))
def daemon_not_running(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """Docker is installed but its daemon is not running (or does not answer).

    `docker` commands fail with `Cannot connect to the Docker daemon ... Is the docker daemon
    running?`. Nothing GPU-related can be checked through the daemon until it runs. Fix: start it
    (systemd, the user service for rootless Docker, Docker Desktop), or point the client at the
    right one (`docker context use default`, unset DOCKER_HOST).
    """
    docker = facts.docker(snap)
    state = docker.get("state")
    if state not in ("not-running", "unresponsive"):
        return None
    ranked = list(fixes_for(snap, ms, "start-docker"))
    if docker.get("host_source") != "default":
        ranked.insert(
            0,
            Fix(
                f"The client points at {docker.get('host')} ({docker.get('host_source')}); switch back "
                "to the system daemon",
                ("unset DOCKER_HOST", "docker context use default"),
                Risk.SAFE,
                "https://docs.docker.com/engine/manage-resources/contexts/",
            ),
        )
    severity = Severity.WARNING if state == "unresponsive" else Severity.INFO
    return Finding(
        id="container.daemon-not-running",
        severity=severity,
        title="The Docker daemon does not answer"
        if state == "unresponsive"
        else "Docker is installed but its daemon is not running",
        detail=f"{docker.get('host')}: {docker.get('error') or state}.",
        evidence=(Evidence("container.docker.state", str(state), "reachable"),),
        fixes=tuple(ranked),
    )


@check(
    "container.rootless-needs-no-cgroups",
    needs=("container.docker", "container.toolkit"),
    needs_any=_GPU_NEEDS,
)
def rootless_needs_no_cgroups(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """Rootless Docker with the NVIDIA hook but without `no-cgroups = true`.

    In rootless mode the hook cannot write device cgroups, so GPU containers fail at start (a
    `nvidia-container-cli: mount error` / cgroup error from the hook). NVIDIA's rootless
    instructions set `no-cgroups = true` in `[nvidia-container-cli]` of
    /etc/nvidia-container-runtime/config.toml and configure the user's own daemon.json.
    """
    docker = facts.docker(snap)
    if (
        not docker.get("rootless")
        or docker.get("state") != "reachable"
        or facts.toolkit_absent(snap)
    ):
        return None
    config = snap.fact("container.toolkit", "config") or {}
    if config.get("no_cgroups") is True:
        return None
    return Finding(
        id="container.rootless-needs-no-cgroups",
        severity=Severity.ERROR,
        title="Rootless Docker needs no-cgroups = true in the NVIDIA Container Toolkit config",
        detail=(
            "The Docker daemon runs rootless, and config.toml does not set no-cgroups = true, so the NVIDIA "
            "hook tries to set up device cgroups it may not touch and GPU containers fail to start."
        ),
        evidence=(
            Evidence("container.docker.rootless", "true"),
            Evidence(
                "container.toolkit.config.no_cgroups",
                str(config.get("no_cgroups", "unset")),
                "true",
            ),
        ),
        fixes=(
            Fix(
                "Configure the toolkit for rootless Docker (NVIDIA's rootless steps)",
                (
                    "nvidia-ctk runtime configure --runtime=docker --config=$HOME/.config/docker/daemon.json",
                    "systemctl --user restart docker",
                    "sudo nvidia-ctk config --set nvidia-container-cli.no-cgroups --in-place",
                ),
                Risk.NEEDS_RESTART,
                fixes.TOOLKIT_INSTALL_URL + "#rootless-mode",
            ),
        ),
    )


@check(
    "container.nvml-unknown-error-cgroup",
    needs=("container.docker", "container.toolkit"),
    needs_any=_GPU_NEEDS,
    matrices=("container_stack",),
)
def nvml_unknown_error_cgroup(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """Long-running GPU containers can lose the GPU (`Failed to initialize NVML: Unknown Error`).

    When the NVIDIA hook injects GPUs (Docker `--gpus` through nvidia-container-runtime-hook, or
    the runtime in legacy mode), it changes the container's device cgroup behind runc's back. With
    the systemd cgroup driver, a later `systemctl daemon-reload` (or any container update) makes
    systemd rewrite the cgroup and the container loses access to /dev/nvidia*: NVML then says
    `Unknown Error` until the container is recreated. CDI injection (the device nodes are part of
    the container spec) avoids it; so does the cgroupfs driver for the daemon-reload case.
    """
    docker = facts.docker(snap)
    if docker.get("state") != "reachable" or docker.get("cgroup_driver") != "systemd":
        return None
    if not facts.toolkit_binary(snap, "nvidia-container-runtime-hook"):
        return None
    cdi_gpus = (
        facts.docker_at_least(snap, ms, "gpus-via-cdi") is True
        and facts.toolkit_binary(snap, "nvidia-cdi-hook") is not None
        and facts.nvidia_cdi_spec(snap)
    )
    if cdi_gpus:
        return None
    links = snap.fact("container.toolkit", "dev_char_nvidia_links")
    ranked = [
        Fix(
            "Inject the GPUs through CDI instead of the hook (device nodes become part of the container spec)",
            (
                f"sudo nvidia-ctk cdi generate --output={fixes.CDI_SPEC_PATH}",
                "docker run --rm --device nvidia.com/gpu=all IMAGE nvidia-smi",
            ),
            Risk.SAFE,
            fixes.TOOLKIT_CDI_URL,
        ),
        Fix(
            'Or switch the Docker daemon to the cgroupfs driver: add "exec-opts": '
            '["native.cgroupdriver=cgroupfs"] to /etc/docker/daemon.json, then restart it',
            ("sudoedit /etc/docker/daemon.json", *fixes.restart_docker_commands(snap)),
            Risk.NEEDS_RESTART,
            fixes.TOOLKIT_TROUBLESHOOTING_URL,
        ),
    ]
    if links == 0:
        ranked.insert(
            1,
            Fix(
                "Create the /dev/char links for the NVIDIA devices (needed by some runc versions)",
                ("sudo nvidia-ctk system create-dev-char-symlinks --create-all",),
                Risk.SAFE,
                fixes.TOOLKIT_TROUBLESHOOTING_URL,
            ),
        )
    ranked.append(
        Fix(
            "When it has happened: recreate the container (a restart restores access)",
            ("docker rm -f CONTAINER", "docker run --gpus all ..."),
            Risk.DESTRUCTIVE,
            fixes.TOOLKIT_TROUBLESHOOTING_URL,
        )
    )
    return Finding(
        id="container.nvml-unknown-error-cgroup",
        severity=Severity.WARNING,
        confidence=Confidence.MEDIUM,
        title="GPU containers may lose the GPU after `systemctl daemon-reload` (systemd cgroup driver)",
        detail=(
            "Docker uses the systemd cgroup driver and --gpus goes through nvidia-container-runtime-hook: a "
            "daemon-reload can strip running containers' access to /dev/nvidia*, after which NVML reports "
            "`Failed to initialize NVML: Unknown Error`."
        ),
        evidence=(
            Evidence("container.docker.cgroup_driver", "systemd", "cgroupfs, or CDI injection"),
            Evidence("container.toolkit.dev_char_nvidia_links", str(links)),
        ),
        fixes=tuple(ranked),
    )


@check("container.nvml-library-not-found", needs_any=("container.toolkit", "container.docker"))
def nvml_library_not_found(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """The NVIDIA hook cannot load the host's `libnvidia-ml.so.1`.

    `nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open
    shared object file` means the container stack does not see the host driver: no NVIDIA driver is
    installed on the host (or the loader cache does not list it), or Docker does not run on this
    host's kernel at all: Docker Desktop for Linux runs containers in a VM (context
    `desktop-linux`), and the snap-packaged Docker's NVIDIA support is only for Ubuntu Core.
    """
    toolkit_error = snap.fact("container.toolkit", "cli_info_error") or ""
    docker = facts.docker(snap)
    os_facts = snap.data("os") or {}
    native_linux = os_facts.get("system") == "Linux" and os_facts.get("virtualization") != "wsl"
    desktop_vm = bool(docker.get("docker_desktop")) and native_linux
    snap_docker = bool(docker.get("snap")) and os_facts.get("distro_id") != "ubuntu-core"
    library_error = "load library failed" in toolkit_error and "libnvidia-ml" in toolkit_error
    if not library_error and not ((desktop_vm or snap_docker) and facts.nvidia_gpu_host(snap)):
        return None
    ranked: list[Fix] = []
    evidence = []
    if library_error:
        evidence.append(Evidence("container.toolkit.cli_info_error", toolkit_error[:200]))
    if snap_docker:
        evidence.append(
            Evidence(
                "container.docker.cli_path", str(docker.get("cli_path")), "docker-ce / docker.io"
            )
        )
        ranked.append(
            Fix(
                "Replace the snap Docker (its NVIDIA support is only for Ubuntu Core) with the distribution's "
                "Docker and the NVIDIA Container Toolkit",
                (
                    "sudo snap remove docker",
                    "sudo apt-get update",
                    "sudo apt-get install -y docker.io",
                    "sudo nvidia-ctk runtime configure --runtime=docker",
                    "sudo systemctl restart docker",
                ),
                Risk.DESTRUCTIVE,
                fixes.TOOLKIT_INSTALL_URL,
            )
        )
    if desktop_vm:
        evidence.append(
            Evidence("container.docker.context", str(docker.get("context")), "default (docker-ce)")
        )
        ranked.append(
            Fix(
                "Use the host's Docker Engine instead of Docker Desktop's VM (Desktop has no GPU "
                "support on Linux)",
                ("docker context use default", "docker info"),
                Risk.SAFE,
                "https://docs.docker.com/desktop/features/gpu/",
            )
        )
    driver = snap.data("nvidia.driver") or {}
    if not driver.get("driver_version"):
        evidence.append(
            Evidence(
                "nvidia.driver", "no NVIDIA driver found on the host", "a loaded NVIDIA driver"
            )
        )
        install = ("sudo ubuntu-drivers install",) if os_facts.get("distro_id") == "ubuntu" else ()
        ranked.append(
            Fix(
                "Install the NVIDIA driver on the host (the container stack uses the host's driver)",
                (*install, "nvidia-smi"),
                Risk.NEEDS_RESTART,
                "https://docs.nvidia.com/datacenter/tesla/driver-installation-guide/",
            )
        )
    else:
        ranked.append(
            Fix(
                "The driver is installed: refresh the loader cache so the hook finds libnvidia-ml.so.1",
                ("sudo ldconfig", "ldconfig -p | grep libnvidia-ml", "nvidia-container-cli info"),
                Risk.SAFE,
                fixes.TOOLKIT_TROUBLESHOOTING_URL,
            )
        )
    return Finding(
        id="container.nvml-library-not-found",
        severity=Severity.ERROR,
        title="The NVIDIA container hook cannot load libnvidia-ml.so.1 from the host",
        detail=(
            "GPU containers fail at start with `nvidia-container-cli: initialization error: load library failed: "
            "libnvidia-ml.so.1`: the container stack does not see a host NVIDIA driver."
        ),
        evidence=tuple(evidence),
        fixes=tuple(ranked),
        explains=("container.no-nvidia-runtime",),
    )


CHECKS = [
    no_nvidia_runtime,
    cdi_no_gpu_vendor,
    docker_too_old,
    docker_permission_denied,
    daemon_not_running,
    rootless_needs_no_cgroups,
    nvml_unknown_error_cgroup,
    nvml_library_not_found,
]
