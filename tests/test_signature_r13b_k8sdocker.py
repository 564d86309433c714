"""Round 13b sweep of Kubernetes, Docker and kernel-module messages (checks/signatures/containers.toml
and the entries it touched): each message, verbatim from its thread, reaches the cause the thread
confirmed first, and one of that cause's fixes names the knob the confirmed fix turned."""

from __future__ import annotations

import pytest
from triage_lines import source_knob_test

from envdoctor.triage_engine import triage_text

# (thread, message, the finding id first, a string one of its fixes' commands or summaries holds)
KNOB = [
    (
        "https://github.com/NVIDIA/k8s-device-plugin/issues/159",
        "0/2 nodes are available: 2 Insufficient nvidia.com/gpu",
        "k8s.insufficient-gpus",
        "kubectl describe node",
    ),
    (
        # the reporter: "/etc/docker/daemon.json is wrong" (the nvidia default runtime)
        "https://github.com/mindprince/nvidia_gpu_prometheus_exporter/issues/13",
        "the pod error, the message is \"couldn't initialize gonvml: could not load NVML library Make "
        'sure NVML is in the shared library search path"',
        "container.nvidia-runtime-not-configured",
        "default-runtime",
    ),
    (
        # the device plugin's own log without its hint line; the plugin's README prerequisites name
        # the cause (the nvidia runtime as the node's default runtime)
        "https://github.com/NVIDIA/k8s-device-plugin/issues/174",
        "2020/05/25 19:27:34 Loading NVML\n"
        "2020/05/25 19:27:34 Failed to initialize NVML: could not load NVML library.",
        "container.nvidia-runtime-not-configured",
        "default-runtime",
    ),
    (
        # the maintainer: "NVML is not in your ldcache ... sudo ldconfig"; the reporter installed the
        # package with the missing library and the error was gone
        "https://github.com/NVIDIA/nvidia-docker/issues/74",
        "Error: Could not load NVML library",
        "container.nvml-library-not-found",
        "sudo ldconfig",
    ),
    (
        "https://github.com/NVIDIA/gpu-operator/issues/730",
        "Warning  FailedCreatePodSandBox  12s (x10 over 2m11s)  kubelet            Failed to create pod "
        "sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for "
        '"nvidia" is configured',
        "container.nvidia-runtime-not-configured",
        "nvidia-ctk runtime configure --runtime=containerd",
    ),
    (
        "https://github.com/NVlabs/BundleSDF/issues/184",
        'docker: \nError response from daemon: could not select device driver "" with capabilities: '
        "[[gpu]].",
        "container.no-nvidia-runtime",
        "nvidia-container-toolkit",
    ),
    (
        "https://github.com/hiyouga/LlamaFactory/issues/5268",
        'docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]]',
        "container.no-nvidia-runtime",
        "nvidia-container-toolkit",
    ),
    (
        "https://github.com/infiniflow/ragflow/issues/9573",
        'Error response from daemon: could not select device driver "nvidia" with capabilities: [[gpu]]',
        "container.no-nvidia-runtime",
        "nvidia-container-toolkit",
    ),
    (
        "https://github.com/NVIDIA/nvidia-container-toolkit/issues/1227",
        "(container) $ nvidia-smi -L\nFailed to initialize NVML: Unknown Error",
        "container.nvml-unknown-error-cgroup",
        "daemon-reload",
    ),
    (
        "https://github.com/NVIDIA/nvidia-docker/issues/1671",
        "This works until you do `systemctl daemon-reload` either manually or automatically through "
        "the OS\nroot@098b49afe624:/# nvidia-smi \nFailed to initialize NVML: Unknown Error",
        "container.nvml-unknown-error-cgroup",
        "cgroupdriver",
    ),
    (
        # the reporter: "Adding `--cdi-spec-dir=/run/cdi` to the command resolved the issue" (NixOS's
        # generator writes the spec to /run/cdi, where this Podman does not look)
        "https://github.com/NixOS/nixpkgs/issues/420638",
        "› podman run --rm -it --device=nvidia.com/gpu=all ubuntu:latest nvidia-smi\n"
        "Error: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=all\n\n"
        "› systemctl status nvidia-container-toolkit-cdi-generator\n"
        "● nvidia-container-toolkit-cdi-generator.service - Container Device Interface (CDI) for Nvidia "
        "generator\n"
        "     Process: 13073 ExecStart=/nix/store/q0wljy3pc73vnqbsjhkg0h68j0p08j0v-nvidia-cdi-generator/"
        "bin/nvidia-cdi-generator (code=exited, status=0/SUCCESS)",
        "container.podman-no-cdi-spec",
        "--cdi-spec-dir",
    ),
    (
        "https://github.com/warmshao/FasterLivePortrait/issues/116",
        "Emulate Docker CLI using podman. Create /etc/containers/nodocker to quiet msg.\n"
        "Error: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=all",
        "container.podman-no-cdi-spec",
        "nvidia-ctk cdi generate",
    ),
    (
        # the reporter: disabling Secure Boot "indeed helped"
        "https://github.com/tuxedocomputers/tuxedo-keyboard/issues/186",
        "Aug 04 19:34:09 linux-tuxedo dkms.systemd[1627]: modprobe: ERROR: could not insert "
        "'clevo_acpi': Key was rejected by service",
        "nvidia.secure-boot-blocks-module",
        "mokutil",
    ),
    (
        "https://github.com/Fred78290/nct6687d/issues/94",
        "sudo modprobe nct6687\nmodprobe: ERROR: could not insert 'nct6687': Key was rejected by service",
        "nvidia.secure-boot-blocks-module",
        "mokutil",
    ),
    (
        "https://github.com/saharmor/dalle-playground/issues/104",
        "[ 7386.259769] NVRM: API mismatch: the client has the version 515.48.07, but\n"
        "               NVRM: this kernel module has the version 510.73.05.  Please\n"
        "               NVRM: make sure that this kernel module and all NVIDIA driver\n"
        "               NVRM: components have the same version.",
        "nvidia.driver-library-mismatch",
        "reboot",
    ),
    (
        "https://github.com/ublue-os/bazzite/issues/2668",
        "[   12.014918] NVRM: API mismatch: the client has the version 570.153.02, but\n"
        "               NVRM: this kernel module has the version 570.144.  Please\n"
        "               NVRM: make sure that this kernel module and all NVIDIA driver\n"
        "               NVRM: components have the same version.",
        "nvidia.driver-library-mismatch",
        "reboot",
    ),
    (
        "https://github.com/NVIDIA/open-gpu-kernel-modules/issues/558",
        "'make' -j4 IGNORE_PREEMPT_RT_PRESENCE=1 NV_EXCLUDE_BUILD_MODULES='__EXCLUDE_MODULES' "
        "KERNEL_UNAME=6.5.2-arch1-1 modules.............(bad exit status: 2)\n"
        "Error! Bad return status for module build on kernel: 6.5.2-arch1-1 (x86_64)\n"
        "Consult /var/lib/dkms/nvidia/390.157/build/make.log for more information.",
        "nvidia.driver-too-old-for-kernel",
        "390",
    ),
    (
        "https://github.com/Witko/nvidia-xrun/issues/135",
        "Loading module nvidia\n"
        "modprobe: FATAL: Module nvidia not found in directory /lib/modules/5.2.13-200.fc30.x86_64\n"
        "Loading module nvidia_uvm\n"
        "modprobe: FATAL: Module nvidia_uvm not found in directory /lib/modules/5.2.13-200.fc30.x86_64",
        "nvidia.module-not-built-for-kernel",
        "dkms",
    ),
    (
        # a commenter: no-cgroups = true in /etc/nvidia-container-runtime/config.toml "seems to work"
        "https://github.com/NVIDIA/nvidia-container-toolkit/issues/139",
        "nvidia-container-cli: mount error: failed to add device rules: unable to find any existing "
        "device filters attached to the cgroup: bpf_prog_query(BPF_CGROUP_DEVICE) failed: operation "
        "not permitted: unknown.",
        "container.rootless-needs-no-cgroups",
        "no-cgroups",
    ),
    (
        "https://github.com/NVIDIA/nvidia-docker/issues/1155",
        "docker: Error response from daemon: OCI runtime create failed: container_linux.go:346: starting "
        'container process caused "process_linux.go:449: container init caused \\"process_linux.go:432: '
        'running prestart hook 0 caused \\\\\\"error running\nhook: exit status 1, stdout: , stderr: '
        "nvidia-container-cli: mount error: open failed: /sys/fs/cgroup/devices/user.slice/"
        'devices.allow: permission denied\\\\\\\\n\\\\\\"\\""": unknown.',
        "container.rootless-needs-no-cgroups",
        "no-cgroups",
    ),
    (
        # a commenter: a second Docker installed through snap (snap list) was the cause
        "https://github.com/NVIDIA/nvidia-container-toolkit/issues/154",
        "nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot "
        "open shared object file: no such file or directory: unknown.",
        "container.nvml-library-not-found",
        "snap",
    ),
    (
        "https://github.com/NVIDIA/libnvidia-container/issues/231",
        "nvidia-container-cli list\nnvidia-container-cli: initialization error: load library failed: "
        "libnvidia-ml.so.1: cannot open shared object file: no such file or directory",
        "container.nvml-library-not-found",
        "nvidia-smi",
    ),
]


test_a_k8s_docker_or_module_message_gets_its_cause_and_the_knob = source_knob_test(KNOB)


# real messages of other causes the new patterns could catch: they must not get the new cause / fix
LOOKALIKE = [
    (
        # the container hook on a host without the library: not the device plugin's pod
        "https://github.com/NVIDIA/libnvidia-container/issues/231",
        "nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot "
        "open shared object file: no such file or directory",
        "container.nvidia-runtime-not-configured",
    ),
    (
        "https://github.com/NVIDIA/nvidia-container-toolkit/issues/1227",
        "(container) $ nvidia-smi -L\nFailed to initialize NVML: Unknown Error",
        "container.nvidia-runtime-not-configured",
    ),
    (
        "https://github.com/tinygrad/open-gpu-kernel-modules/issues/47",
        "nvidia-smi \nFailed to initialize NVML: Driver/library version mismatch\nNVML library version: 570.124",
        "container.nvml-library-not-found",
    ),
]


@pytest.mark.parametrize(("url", "text", "not_id"), LOOKALIKE, ids=[k[0] for k in LOOKALIKE])
def test_a_look_alike_is_not_read_as_the_new_cause(url, text, not_id) -> None:
    assert triage_text(text + "\n").findings[0].id != not_id, url


def test_the_spec_folder_fix_leads_only_where_the_paste_shows_another_folder() -> None:
    """Without a NixOS / /run/cdi hint the unresolvable-CDI fix stays generating the spec
    (https://github.com/warmshao/FasterLivePortrait/issues/116)."""
    finding = triage_text(KNOB[11][1] + "\n").findings[0]
    assert "--cdi-spec-dir" not in finding.fixes[0].summary + " ".join(finding.fixes[0].commands)
    nix = triage_text(KNOB[10][1] + "\n").findings[0]
    assert "--cdi-spec-dir" in " ".join(nix.fixes[0].commands)
