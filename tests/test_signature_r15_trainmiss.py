"""Round 15 sweep of the training set's misses (checks/signatures/{amd_rocm,nvidia_driver}.toml and the entry
it touched): rocminfo inside WSL failing with HSA_STATUS_ERROR_OUT_OF_RESOURCES, which is a ROCm /
Ubuntu / GPU combination AMD's WSL support does not cover (not /dev/kfd permissions, which a
native install's same error means); and nvidia_uvm that cannot be loaded after a reboot, where the
fix must also name the DKMS rebuild for the running kernel. Each message is verbatim from its
thread; it reaches the cause the thread confirmed first, and one of that cause's fixes names the
knob the confirmed fix turned."""

from __future__ import annotations

from triage_lines import source_knob_test, source_lookalike_test

HSA_WSL = (
    "WSL environment detected.\n"
    "hsa api call failure at: /long_pathname_so_that_rpms_can_package_the_debug_info/src/rocminfo/rocminfo.cc:1306\n"
    "Call returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources. "
    "This error may also occur when the core runtime library needs to spawn threads or create internal "
    "OS-specific events."
)

# (thread, message, the finding id first, a string one of its fixes' summaries or commands holds)
KNOB = [
    (
        # AMD (schung-amd): this configuration is unsupported; use the Ubuntu / ROCm release the WSL
        # compatibility page lists and follow the WSL install guide (amdgpu-install --usecase=wsl,rocm)
        "https://github.com/ROCm/legacy-rocm-build/issues/3561",
        HSA_WSL,
        "rocm.wsl-release-unsupported",
        "--usecase=wsl,rocm",
    ),
    (
        # the reporter: caused by the kernel update; a collaborator: the same as nvidia-docker#137,
        # whose maintainer fix is reinstalling the driver with DKMS; closed as documented
        "https://github.com/NVIDIA/nvidia-docker/issues/139",
        "After a system reboot none of the nvidia-docker containers would restart and would give an "
        "error along the lines of.\n\n```\nlstat /dev/nvidia-uvm: no such file or directory\n```\n\n"
        "I think that it is caused by the linux kernel is updating (running ubuntu trusty), it took me an "
        "hour to resolve.",
        "nvidia.uvm-not-loaded",
        "dkms",
    ),
    (
        # the maintainer (flx42): not nvidia-docker, the driver installation: reinstall the driver
        "https://github.com/NVIDIA/nvidia-docker/issues/291",
        "[root@localhost ~]# nvidia-docker run --rm nvidia/cuda nvidia-smi\n"
        "nvidia-docker | 2017/01/16 16:55:02 Error: Could not load UVM kernel module\n\n"
        "[root@localhost ~]# nvidia-smi\nmodprobe: FATAL: Module nvidia not found.\n"
        "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the "
        "latest NVIDIA driver is installed and running.",
        "nvidia.module-not-built-for-kernel",
        "dkms",
    ),
    (
        # the maintainer (3XX0): run `nvidia-modprobe -u -c=0`; after it the UVM error was gone
        "https://github.com/NVIDIA/nvidia-docker/issues/106",
        "sudo nvidia-docker run --rm nvidia/cuda nvidia-smi\n"
        "nvidia-docker | 2016/06/06 22:49:17 Error: Could not load UVM kernel module",
        "nvidia.uvm-not-loaded",
        "nvidia-modprobe -u -c=0",
    ),
]


test_a_common_message_gets_its_cause_and_the_knob = source_knob_test(KNOB)


# (thread, a real message of another cause, the cause that must not rank first)
LOOKALIKE = [
    # native Linux: the same HSA error as a user, while sudo rocminfo works (a /dev/kfd permission)
    (
        "https://github.com/ROCm/legacy-rocm-build/issues/1070",
        "$ /opt/rocm/bin/rocminfo\nROCk module is loaded\naresminos is member of video group\n"
        "hsa api call failure at: /data/jenkins-workspace/compute-rocm-rel-3.3/rocminfo/rocminfo.cc:1102\n"
        "Call returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary "
        "resources. This error may also occur when the core runtime library needs to spawn threads or create "
        "internal OS-specific events.",
        "rocm.wsl-release-unsupported",
    ),
    # the driver module is missing for this kernel: that cause, not the UVM module, ranks first
    (
        "https://github.com/NVIDIA/nvidia-docker/issues/291",
        "nvidia-docker | 2017/01/16 16:55:02 Error: Could not load UVM kernel module\n\n"
        "[root@localhost ~]# nvidia-smi\nmodprobe: FATAL: Module nvidia not found.",
        "nvidia.uvm-not-loaded",
    ),
]


test_a_look_alike_message_is_not_read_as_the_cause = source_lookalike_test(LOOKALIKE, newline=True)
