"""Round 15 sweep of Kubernetes / container-runtime messages (checks/signatures/containers.toml and the
runtime entry of checks/signatures/*.toml): each message, verbatim from its thread, reaches the cause the thread
confirmed first, and one of that cause's fixes names the knob the confirmed fix turned; look-alike
messages of other causes do not rank the new causes first."""

from __future__ import annotations

import pytest
from triage_lines import assert_first_naming, assert_not_first

# (thread, message, the finding id first, a string one of its fixes' summaries or commands holds)
KNOB = [
    (
        # the reporter: resolved by making the fabric manager match; a commenter: check
        # systemctl status nvidia-fabricmanager on NVSwitch systems
        "https://github.com/NVIDIA/gpu-operator/issues/1043",
        "Failed to allocate device vector A (error code system not yet initialized)! [Vector addition of "
        "5000 elements]",
        "nvidia.fabric-manager-not-running",
        "nvidia-fabricmanager",
    ),
    (
        # the maintainer: the cluster's container runtime (containerd) must be configured with the
        # nvidia runtime handler, as the Docker daemon is
        "https://github.com/NVIDIA/k8s-device-plugin/issues/1805",
        "Nvml init failed: ERROR_LIBRARY_NOT_FOUND and how to install on k8s 1.36.1",
        "container.nvidia-runtime-not-configured",
        "nvidia-ctk runtime configure --runtime=containerd",
    ),
    (
        # the maintainer: with the driver container, point nvidia-ctk at the driver root
        "https://github.com/NVIDIA/nvidia-container-toolkit/issues/118",
        "failed to initalize NVML: ERROR_LIBRARY_NOT_FOUND\n"
        "But `sudo nvidia-ctk --debug cdi generate` to generate the CDI spec fails due to an inability to "
        "locate the NVML shared library.",
        "container.cdi-generate-nvml-not-found",
        "--driver-root=/run/nvidia/driver",
    ),
    (
        # the maintainer: for kind, unmount the /proc/driver/nvidia tmpfs in the node; the reporter: DONE
        "https://github.com/NVIDIA/nvidia-container-toolkit/issues/198",
        "/proc/driver/nvidia/capabilities: no such file or directory: unknown\n"
        "kind cluster with gpu followed by [issue](https://github.com/kubernetes-sigs/kind/pull/3257"
        "#issuecomment-1862264879)",
        "container.nested-proc-driver-masked",
        "umount -R /proc/driver/nvidia",
    ),
]


@pytest.mark.parametrize(("url", "text", "finding_id", "knob"), KNOB, ids=[row[0] for row in KNOB])
def test_message_reaches_confirmed_cause_with_its_knob(url, text, finding_id, knob):
    assert_first_naming(text, finding_id, knob, url)


# (thread, a real message of another cause, the new cause it must not rank first)
LOOKALIKE = [
    (
        # a GPU bus id truncated in the mount path (an old libnvidia-container bug), not a nested node
        "https://github.com/NVIDIA/nvidia-docker/issues/1316",
        'nvidia-container-cli: mount error by running any nvidia-docker image; "proc/driver/nvidia/gpus/'
        'cfdd:00:00.0" bus id is diffferent in mount path and the available bus id is (03f8cfdd:00:00.0).',
        "container.nested-proc-driver-masked",
    ),
    (
        # dcgm-exporter on GKE: the image's library path, not nvidia-ctk's CDI generation
        "https://github.com/NVIDIA/dcgm-exporter/issues/484",
        "ERROR Cannot init NVML library; err: ERROR_LIBRARY_NOT_FOUND # HERE",
        "container.cdi-generate-nvml-not-found",
    ),
    (
        # the device plugin's own NVML load (the pod's runtime), not nvidia-ctk's CDI generation
        "https://github.com/NVIDIA/k8s-device-plugin/issues/1805",
        "Nvml init failed: ERROR_LIBRARY_NOT_FOUND and how to install on k8s 1.36.1",
        "container.cdi-generate-nvml-not-found",
    ),
]


@pytest.mark.parametrize(("url", "text", "tempting"), LOOKALIKE, ids=[row[0] for row in LOOKALIKE])
def test_lookalike_is_not_the_new_cause(url, text, tempting):
    assert_not_first(text, tempting, url, may_be_empty=True)
