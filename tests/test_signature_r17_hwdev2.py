"""Round 17 sweep, hardware and the NVIDIA kernel driver at runtime (checks/signatures/nvidia_driver.toml):
a pasted message reaches its cause first with a fix naming the knob the confirmed fix turned on;
look-alike messages of other causes do not rank the tempting cause first. Rows are verbatim from the
cited threads."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

# (thread, message, the finding id first, a knob its fixes name)
KNOB = [
    (
        # the maintainers' fix (CachyOS/chwd#280, "Fixes #270"): stop setting
        # NVreg_DynamicPowerManagement=0x02 on GPUs it does not suit
        "https://github.com/CachyOS/CachyOS-Settings/issues/270",
        "18:24:34  NVRM: krcWatchdog_IMPL: RC watchdog: GPU is probably locked!\n"
        "          Notify Timeout Seconds: 7\n"
        "          ... repeats every 1-4 minutes ...\n"
        "19:29:50  NVRM: krcWatchdog_IMPL: RC watchdog: GPU is probably locked!\n"
        "19:33:46  (last log line — reset button)\n"
        "```\n"
        "\n"
        "1. Desktop system, Turing dGPU, no iGPU, CachyOS defaults (`cachyos-settings` supplies "
        "`NVreg_DynamicPowerManagement=0x02`).",
        "nvidia.rc-watchdog-gpu-locked",
        "NVreg_DynamicPowerManagement",
    ),
    (
        # the daemon must run as root to write auto_online_blocks (closed; the cause and the fix
        # restated in ComputeCanada/puppet-magic_castle#383)
        "https://github.com/NVIDIA/nvidia-persistenced/issues/11",
        "Aug 27 21:35:25 ubuntu nvidia-persistenced[1405]: Started (1405)\n"
        "Aug 27 21:35:25 ubuntu nvidia-persistenced[1405]: NUMA: Enabling NUMA memory Auto-Online "
        "due to GPU requirement\n"
        "Aug 27 21:35:25 ubuntu nvidia-persistenced[1405]: NUMA: Failed to open "
        "/sys/devices/system/memory/auto_online_blocks: Permission denied\n"
        "Aug 27 21:35:25 ubuntu nvidia-persistenced[1405]: NUMA: Failed to enable NUMA memory "
        "Auto-Online\n"
        "Aug 27 21:35:25 ubuntu nvidia-persistenced[1400]: nvidia-persistenced failed to "
        "initialize. Check syslog for more details.\n"
        "Aug 27 21:35:25 ubuntu nvidia-persistenced[1405]: PID file unlocked.\n"
        "Aug 27 21:35:25 ubuntu systemd[1]: nvidia-persistenced.service: Control process exited, "
        "code=exited, status=1/FAILURE\n"
        "Aug 27 21:35:25 ubuntu nvidia-persistenced[1405]: PID file closed.",
        "nvidia.persistenced-numa-needs-root",
        "--user",
    ),
    (
        # the reporter: nvidia-smi -pm 0 made the same reset succeed seconds later (fixed by
        # NVIDIA/NVSentinel#1692)
        "https://github.com/NVIDIA/NVSentinel/issues/1690",
        "The following GPUs could not be reset:\n"
        "  GPU 00000000:1A:00.0: In use by another client\n"
        "\n"
        "1 device is currently being used by one or more other processes (e.g. Fabric\n"
        "Manager, CUDA application, graphics application such as an X server, or a\n"
        "monitoring application such as another instance of nvidia-smi). Please first kill\n"
        "all processes using this device and all compute applications running in the\n"
        "system.\n"
        "exit=255",
        "nvidia.gpu-reset-blocked-by-client",
        "nvidia-smi -pm 0",
    ),
    (
        # the maintainer: this GPU requires a reset to actually remap the rows
        "https://github.com/leptonai/gpud/pull/80",
        "    Remapped Rows\n"
        "        Correctable Error                 : 0\n"
        "        Uncorrectable Error               : 4\n"
        "        Pending                           : Yes",
        "nvidia.row-remap-pending",
        "nvidia-smi -r",
    ),
]

# (thread, message of another cause, the cause that must not rank first)
LOOKALIKE = [
    (
        # nvidia-persistenced found no usable device nodes: not a PyTorch extension built for
        # another torch (a similar-case guess read it so)
        "https://github.com/NVIDIA/ansible-role-nvidia-driver/issues/3",
        "* `Failed to start NVIDIA Persistence Daemon.`\n"
        "* `Failed to query NVIDIA devices. Please ensure that the NVIDIA device files "
        "(/dev/nvidia*) exist, and that user 0 has read and write permissions for those files.`",
        "torch.extension-abi-mismatch",
    ),
    (
        # the maintainer: an idle GPU drops to a lower link generation to save power; not a
        # degraded link
        "https://github.com/Syllo/nvtop/issues/6",
        "Device 0 [GeForce GTX 1080 Ti] PCIe GEN 3@16x \n"
        "Device 1 [GeForce GTX 1080 Ti] _**PCIe GEN 1@16x**_ \n"
        "\n"
        "but we know it works at GEN 3",
        "nvidia.pcie-link-degraded",
    ),
]


test_message_reaches_its_cause_with_the_knob = knob_test(
    KNOB, columns=("source", "text", "finding_id", "knob")
)


test_lookalike_is_not_read_as_the_tempting_cause = lookalike_test(
    LOOKALIKE, columns=("source", "text", "tempting"), may_be_empty=True
)
