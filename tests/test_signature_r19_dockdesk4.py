"""Round 19 sweep of Docker on Linux desktops and WSL graphics: Docker Desktop on Linux, whose VM
has no GPU (the reporter went back to Docker Engine), and rootless Docker with the NVIDIA runtime,
which needs no-cgroups in the toolkit's config.toml. Each message, verbatim from the reporter's
own words, reaches the cause its thread confirmed first, and one of that cause's fixes names the
knob the confirmed fix turned; look-alike rows are real messages of other causes that the new
phrasings must not read as these."""

from __future__ import annotations

from triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # the reporter: Docker Desktop on Linux has no GPU in its VM; the workaround that works for
    # them is "Using docker engine and/or moby"
    (
        "I love docker desktop but many workflows in the ML/AI space requires the use of a hardware "
        "accelerator, e.g GPU, currently due to the virtualization in Linux, docker desktop does not "
        "support GPU accelerated containers but it is supported in WSL2.",
        "container.docker-desktop-linux-no-gpu",
        "Docker Engine",
        "https://github.com/docker/roadmap/issues/497",
    ),
    # the reporter (comment): "I have to set `no-cgroups` in
    # `/etc/nvidia-container-runtime/config.toml` to make it work when docker is rootless"
    (
        "NVIDIA Container Toolkit doesn't work in rootless mode by default, because cgroup is not "
        "supported in rootless mode, disabling its use fixed the issue",
        "container.rootless-needs-no-cgroups",
        "no-cgroups",
        "https://github.com/NVIDIA/nvidia-docker/issues/1615",
    ),
]

# (message verbatim from a thread of another cause, the cause it must not be read as, thread)
LOOKALIKE = [
    # Docker Engine (not Desktop) on a fresh Ubuntu 24.04: the toolkit's install, not a Desktop VM
    (
        "Working from a fresh Ubuntu 24.04 install, I can't get nvidia-container-toolkit working.\n\n"
        "I've tried a bunch of times, no matter what I follow I get:\n"
        "Error response from daemon: failed to create task for container: failed to create shim "
        "task: OCI runtime create failed: runc create failed: unable to start container process: "
        "error during container init: error running prestart hook #0: exit status 1, stdout: , "
        "stderr: Auto-detected mode as 'legacy'\nnvidia-container-cli: initialization error: load "
        "library failed: libnvidia-ml.so.1: cannot open shared object file: no such file or "
        "directory: unknown",
        "container.docker-desktop-linux-no-gpu",
        "https://github.com/NVIDIA/nvidia-container-toolkit/issues/1092",
    ),
    # a plain --gpus failure; the maintainer asked whether the toolkit is installed (not rootless)
    (
        "I am trying to install a software that needs to run on GPU. when I check whether that "
        "software is able to use a GPU uisng follwoing command; \ndocker run --rm --gpus all "
        "nvidia/cuda:11.0-base nvidia-smi\n\nI get following error; \ndocker: Error response from "
        "daemon: could not select device driver with capabilities: [[gpu]].",
        "container.rootless-needs-no-cgroups",
        "https://github.com/NVIDIA/nvidia-docker/issues/1642",
    ),
    # WSL2 nvidia-smi cannot reach the driver: not a Docker Desktop VM
    (
        "I have install WSL2 VM at a none c:/ disk,which the ext4 image located at e(due to my c:/ "
        "drive doesn't have enough space to store my files).\n"
        "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure "
        "that the latest NVIDIA driver is installed and running.\n\n"
        "Failed to properly shut down NVML: Driver Not Loaded",
        "container.docker-desktop-linux-no-gpu",
        "https://github.com/microsoft/WSL/issues/9640",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_this_cause = lookalike_test(LOOKALIKE)
