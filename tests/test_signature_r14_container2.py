"""Round 14 sweep of container / driver messages (a CUDA image newer than the host driver, the
toolkit hook failing, no driver): each message, verbatim from its thread, reaches the cause the
thread confirmed first, and one of that cause's fixes names the knob the confirmed fix turned."""

from __future__ import annotations

import pytest
from triage_lines import source_knob_test, source_lookalike_test

# (thread, message, the finding id first, a string one of its fixes' summaries or commands holds)
KNOB = [
    (
        # a reporter: installing the 570 driver let the CUDA 12.8 image start
        "https://github.com/MauriceNino/dashdot/issues/1226",
        "Error response from daemon: failed to create task for container: failed to create shim task: OCI "
        "runtime create failed: runc create failed: unable to start container process: error during container "
        "init: error running prestart hook #0: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\n"
        "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.8, please update your driver "
        "to a newer version, or use an earlier cuda container: unknown",
        "container.cuda-requirement-unsatisfied",
        "570",
    ),
    (
        # the maintainer: the image needs CUDA 12.4 on the host; update the driver or use an older image
        "https://github.com/Haidra-Org/horde-worker-reGen/issues/349",
        "Error 804: forward compatibility was attempted on non supported HW",
        "cuda.toolkit-newer-than-driver",
        "Update the host driver",
    ),
    (
        # the reporter: the same build tagged for CUDA 12 (cu12) runs on the 580 driver
        "https://github.com/noonghunna/club-3090/issues/633",
        "ggml_cuda_init: failed to initialize CUDA: forward compatibility was attempted on non supported HW\n"
        "CPU: using device CPU",
        "cuda.toolkit-newer-than-driver",
        "earlier tag",
    ),
    (
        # the reporter: restarting the machine solved it
        "https://github.com/NVIDIA/libnvidia-container/issues/103",
        "I have encountered the similar problem as @JerrettLevensalor, the error is <initialization error: cuda "
        'error: unknown error\\\\n\\""": unknown>> !',
        "nvidia.uvm-stale-after-suspend",
        "reboot",
    ),
    (
        # the reporter: the problem was the host's NVIDIA driver
        "https://github.com/HonuRobotics/dockwater/pull/10",
        "This line added to the end solved my problem receiving the error:\n"
        "`stderr: nvidia-container-cli: initialization error: nvml error: driver not loaded: unknown`",
        "nvidia.no-driver-bound",
        "Install the NVIDIA driver",
    ),
]


test_a_container_message_gets_its_cause_and_the_knob = source_knob_test(KNOB)


# real messages of other causes that name an image's CUDA requirement: not the requirement cause
LOOKALIKE = [
    pytest.param(
        # the hook's ldconfig failed; the --require=cuda>=10.0 is only the image's declared requirement
        "https://github.com/NVIDIA/nvidia-docker/issues/914",
        "docker: Error response from daemon: OCI runtime create failed: container_linux.go:348: starting container "
        'process caused "process_linux.go:402: container init caused \\"process_linux.go:385: running prestart hook '
        '1 caused \\\\\\"error running hook: exit status 1, stdout: , stderr: exec command: [/usr/bin/nvidia-container-'
        "cli --load-kmods configure --ldconfig=@/sbin/ldconfig.real --device=all --compute --utility "
        "--require=cuda>=10.0 brand=tesla,driver>=384,driver<385 --pid=34422 /var/lib/docker/120000.120000/overlay2/"
        "6949deb26e3807df64b1a86fd437a1746b112c793fa35871e0c24b86d63e089f/merged]\\\\\\\\nnvidia-container-cli: "
        'ldcache error: process /sbin/ldconfig.real failed with error code: 1\\\\\\\\n\\\\\\"\\"": unknown.',
        "container.cuda-requirement-unsatisfied",
    ),
    pytest.param(
        # the same hook failing on CentOS 7.2 with --require=cuda>=8.0 on the command line
        "https://github.com/NVIDIA/nvidia-docker/issues/659",
        "docker: Error response from daemon: oci runtime error: container_linux.go:265: starting container process "
        'caused "process_linux.go:368: container init caused \\"process_linux.go:351: running prestart hook 0 caused '
        '\\\\\\"error running hook: exit status 1, stdout: , stderr: exec command: [/usr/bin/nvidia-container-cli '
        "--load-kmods configure --ldconfig=@/sbin/ldconfig --device=all --compute --utility --require=cuda>=8.0 "
        "--pid=24908 /data1/yard/docker/aufs/mnt/21e97522ec1a16f3ce86335c3485b5ac35ec32fe30b41b262972dd4eb49ac7ed]"
        '\\\\\\\\nnvidia-container-cli: ldcache error: process /sbin/ldconfig failed with error code: 1\\\\\\\\n\\\\\\"\\"".',
        "container.cuda-requirement-unsatisfied",
    ),
]


test_a_look_alike_is_not_read_as_the_requirement_cause = source_lookalike_test(
    LOOKALIKE, newline=True
)
