"""Round 16 sweep of Kubernetes / container-runtime messages (checks/signatures/{nvidia_driver,containers}.toml): each
message, verbatim from its thread, reaches the cause the thread confirmed first, and one of that
cause's fixes names the knob the confirmed fix turned; look-alike messages of other causes do not
rank the new entries first."""

from __future__ import annotations

import pytest
from triage_lines import assert_first_naming, assert_not_first

# (thread, message, the finding id first, a string one of its fixes' summaries or commands holds)
KNOB = [
    (
        # the maintainer: mig-parted cannot reset the GPUs while nvidia_drm is loaded; unload it
        # (rmmod nvidia_drm) before applying the MIG configuration
        "https://github.com/NVIDIA/mig-parted/issues/181",
        "ERRO[0003]\n"
        "The following GPUs could not be reset:\n"
        "  GPU 00000000:01:00.0: In use by another client\n"
        "  GPU 00000000:47:00.0: In use by another client\n"
        "  GPU 00000000:81:00.0: In use by another client\n"
        "  GPU 00000000:C2:00.0: In use by another client\n"
        "\n"
        "4 devices are currently being used by one or more other processes (e.g., Fabric Manager, "
        "CUDA application, graphics application such as an X server, or a monitoring application "
        "such as another instance of nvidia-smi). Please first kill all processes using these devices "
        "and all compute applications running in the system.\n"
        "FATA[0008] Error applying MIG configuration with hooks: error resetting all GPUs: exit status 255",
        "nvidia.mig-mode-pending",
        "nvidia_drm",
    ),
    (
        # the reporter: no other process used the GPU; `sudo modprobe -r nvidia_drm` let
        # mig-parted run
        "https://github.com/ComputeCanada/puppet-magic_castle/issues/387",
        'time="2024-09-30T19:49:46Z" level=error msg="\\nThe following GPUs could not be reset:\\n  GPU '
        "00000000:00:06.0: In use by another client\\n\\n1 device is currently being used by one or more "
        "other processes (e.g., Fabric Manager, CUDA application, graphics application such as an X "
        "server, or a monitoring application such as another instance of nvidia-smi). Please first kill "
        'all processes using this device and all compute applications running in the system.\\n"',
        "nvidia.mig-mode-pending",
        "nvidia_drm",
    ),
    (
        # the reporter (the operator's MIG work): the driver pod's nvidia-persistenced held the GPU;
        # killing it let nvidia-smi --gpu-reset succeed
        "https://github.com/NVIDIA/gpu-operator/issues/118",
        "$ nvidia-smi -mig DISABLED\n"
        "Warning: MIG mode is in pending disable state for GPU 00000000:C1:00.0:In use by another client\n"
        "00000000:C1:00.0 is currently being used by one or more other processes (e.g. CUDA application or "
        "a monitoring application such as another instance of nvidia-smi). Please first kill all "
        "processes using the device and retry the command or reboot the system to make MIG mode "
        "effective.\n"
        "All done.\n"
        "\n"
        "$ nvidia-smi --gpu-reset\n"
        "GPU 00000000:C1:00.0 is currently in use by another process.",
        "nvidia.mig-mode-pending",
        "nvidia-persistenced",
    ),
    (
        # podman 1.9.3 has no --gpus (the maintainers later added it as a no-op, and later still
        # mapped it to CDI); Podman takes the GPUs as a CDI device: --device nvidia.com/gpu=all
        "https://github.com/podman-container-tools/podman/issues/10420",
        "$ docker run --gpus all -it --rm tensorflow/tensorflow:latest-gpu \\\n"
        '  python -c "import tensorflow as tf; print(tf.reduce_sum(tf.random.normal([1000, 1000])))"\n'
        "Error: unknown flag: --gpus\n"
        "$ podman --version\n"
        "podman version 1.9.3",
        "container.no-gpus-injected",
        "--device nvidia.com/gpu=all",
    ),
    (
        # the maintainer: --gpus in podman is a no-op kept for Docker CLI compatibility; the
        # reporter's --device nvidia.com/gpu=all works
        "https://github.com/NVIDIA/nvidia-container-runtime/issues/190",
        "The `--gpus all` commands fail with the following output:\n"
        "```\n"
        "Error: crun: executable file `nvidia-smi` not found in $PATH: No such file or directory: OCI "
        "runtime attempted to invoke a command that was not found\n"
        "```",
        "container.no-gpus-injected",
        "--device nvidia.com/gpu=all",
    ),
    (
        # a commenter (and the reporter's thanks): --runtime=nvidia instead of --gpus all on a Docker
        # older than 19.03
        "https://github.com/NVIDIA/gpu-monitoring-tools/issues/81",
        "I tried to launch the times：unknown flag: --gpus",
        "container.docker-too-old-for-gpus",
        "--runtime=nvidia",
    ),
]


@pytest.mark.parametrize(("url", "text", "finding_id", "knob"), KNOB, ids=[row[0] for row in KNOB])
def test_message_reaches_confirmed_cause_with_its_knob(url, text, finding_id, knob):
    assert_first_naming(text, finding_id, knob, url)


# (thread, a real message of another cause, the new entry's cause it must not rank first)
LOOKALIKE = [
    (
        # Docker (no Podman in the paste): an old Docker without --gpus, not Podman's CDI route
        "https://github.com/NVIDIA/gpu-monitoring-tools/issues/81",
        "I tried to launch the times：unknown flag: --gpus",
        "container.no-gpus-injected",
    ),
    (
        # a scheduling message: the pod's affinity rule and no free GPU, not a GPU reset
        "https://github.com/loft-sh/devpod-provider-kubernetes/issues/63",
        "0/4 nodes are available: 1 node(s) didn't match pod affinity rules, 3 Insufficient "
        "nvidia.com/gpu. preemption: 0/4 nodes are available: 1 Preemption is not helpful for "
        "scheduling, 3 No preemption victims found for incoming pod.",
        "nvidia.mig-mode-pending",
    ),
]


@pytest.mark.parametrize(("url", "text", "tempting"), LOOKALIKE, ids=[row[0] for row in LOOKALIKE])
def test_lookalike_does_not_rank_new_cause_first(url, text, tempting):
    assert_not_first(text, tempting, url)
