"""Round 16 sweep, NVIDIA driver and device leftovers (checks/signatures/{kubernetes,nvidia_driver}.toml): a pasted
message reaches its cause first with a fix naming the knob the confirmed fix turned on; look-alike
messages of other causes do not rank the new entries first. Rows are verbatim from the cited threads."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

# (thread, message, the finding id first, a knob its fixes name)
KNOB = [
    (
        # the PR bumps the driver to the newest release of the 470 branch, which builds again
        "https://github.com/mesosphere/konvoy-image-builder/pull/1200",
        "MODPOST /opt/dkp/nvidia/NVIDIA-Linux-x86_64-470.199.02/kernel/Module.symvers\n"
        "ERROR: modpost: GPL-incompatible module nvidia.ko uses GPL-only symbol "
        "'rcu_read_unlock_strict'",
        "nvidia.driver-too-old-for-kernel",
        "latest stable release of a branch",
    ),
]

# (thread, message of another cause, the cause that must not rank first)
LOOKALIKE = [
    (
        # gdrcopy's own module (fixed on its master branch), not the NVIDIA driver
        "https://github.com/NVIDIA/gdrcopy/issues/254",
        "ERROR: modpost: GPL-incompatible module gdrdrv.ko uses GPL-only symbol 'cc_mkdec'\n"
        "make[2]: *** [scripts/Makefile.modpost:134: /usr/src/gdrdrv-2.3/Module.symvers] Error 1",
        "nvidia.driver-too-old-for-kernel",
    ),
    (
        # a MIG node whose plugin lacked NVIDIA_MIG_MONITOR_DEVICES=all: not a missing MIG layout
        "https://github.com/NVIDIA/k8s-device-plugin/issues/399",
        "error starting plugins: unable to add default resources to config: error visiting devices: "
        "error visiting device: error visiting device: error getting device memory info: "
        "Insufficient Pemmissions",
        "nvidia.mig-no-instances",
    ),
    (
        # the plugin without the nvidia runtime: not the toolkit's containerd config version
        "https://github.com/NVIDIA/k8s-device-plugin/issues/444",
        "2023/10/19 03:11:54 Loading NVML\n"
        "2023/10/19 03:11:54 Failed to initialize NVML: could not load NVML library.\n"
        "2023/10/19 03:11:54 If this is a GPU node, did you set the docker default runtime to "
        "`nvidia`?",
        "k8s.toolkit-containerd-config-version",
    ),
]


test_message_reaches_its_cause_with_the_knob = knob_test(
    KNOB, columns=("source", "text", "finding_id", "knob")
)


test_lookalike_is_not_read_as_the_new_cause = lookalike_test(
    LOOKALIKE, columns=("source", "text", "tempting"), may_be_empty=True
)
