"""Round 18 sweep of Docker and Podman with NVIDIA GPUs on Linux (checks/signatures/containers.toml):
a CDI spec whose hooks name a binary the installed toolkit package lacks (nvidia-cdi-hook), the
create-symlinks hook of NVIDIA Container Toolkit 1.17.0 refusing a link the image already has,
and NVENC transcoding failing with CUDA_ERROR_NO_DEVICE because the Compose GPU reservation lacks
the video capability. Each message, verbatim from its thread, reaches the cause the thread
confirmed first, and one of that cause's fixes names the knob the confirmed fix turned."""

from __future__ import annotations

from triage_lines import source_knob_test, source_lookalike_test

# (thread, message, the finding id first, a string one of its fixes' summaries or commands holds)
KNOB = [
    (
        # a commenter rebuilt the distribution's toolkit package with cmd/nvidia-cdi-hook (split out
        # in 1.16.0, per the toolkit's CHANGELOG) and the example worked; the maintainer accepted it
        "https://github.com/void-linux/void-packages/issues/55062",
        "Error: runc: runc create failed: unable to start container process: error during container "
        "init: error running hook #0: fork/exec /usr/bin/nvidia-cdi-hook: no such file or directory: "
        "OCI runtime attempted to invoke a command that was not found",
        "container.cdi-spec-stale",
        "nvidia-cdi-hook",
    ),
    (
        # the maintainer: the image already has the link (to Mesa); the hook now forces the link
        # (PR #773, backported in #776), released in 1.17.1
        "https://github.com/NVIDIA/nvidia-container-toolkit/issues/772",
        "failed to create task for container: failed to create shim task: OCI runtime create failed: "
        "runc create failed: unable to start container process: error during container init: error "
        'running hook #1: error running hook: exit status 1, stdout: , stderr: time="yyyy-mm-ddThh:mm:ss+hh:mm" '
        'level=error msg="failed to create link [libGLX_nvidia.so.535.183.01 '
        "/usr/lib/x86_64-linux-gnu/libGLX_indirect.so.0]: failed to check if link exists: unexpected "
        'link target: libGLX_mesa.so.0": unknown"',
        "container.cdi-hook-symlink-conflict",
        "1.17.1",
    ),
    (
        # the merged PR (maintainers): adding video to the GPU reservation's capabilities fixed a
        # user's NVENC transcoding
        "https://github.com/immich-app/immich/pull/3612",
        "On Linux servers, it may be necessary to pass `video` to the list of capabilities for NVIDIA "
        "GPUs in `hwaccel.yml`. Otherwise, it may not expose the Video Codec SDK regardless of the "
        "value of `NVIDIA_DRIVER_CAPABILITIES`, leading transcoding to fail with "
        "`CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected`.",
        "container.driver-libs-not-injected",
        "capabilities: [gpu, video]",
    ),
]


test_a_container_gpu_message_gets_its_cause_and_the_knob = source_knob_test(KNOB)


# real messages of other causes the new patterns could catch: they must not rank the new cause first
LOOKALIKE = [
    (
        # the legacy hook cannot find nvidia-container-cli (a toolkit package missing), not a CDI spec
        "https://github.com/NVIDIA/nvidia-docker/issues/1364",
        "docker: Error response from daemon: OCI runtime create failed: container_linux.go:349: starting "
        'container process caused "process_linux.go:449: container init caused \\"process_linux.go:432: '
        'running prestart hook 0 caused \\\\\\"error running hook: exit status 1, stdout: , stderr: '
        "couldn't find binary nvidia-container-cli in /usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:"
        "/sbin:/bin:/snap/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin : exec: "
        '\\\\\\\\\\\\\\"nvidia-container-cli\\\\\\\\\\\\\\": executable file not found in $PATH\\\\\\\\n\\\\\\"\\"": unknown.',
        "container.cdi-spec-stale",
    ),
    (
        # CUDA_ERROR_NO_DEVICE from a Rust CUDA binding, nothing about transcoding
        "https://github.com/chelsea0x3b/cudarc/issues/253",
        'CUDA_ERROR_NO_DEVICE "no CUDA-capable device is detected"',
        "container.driver-libs-not-injected",
    ),
    (
        # the GPU operator's validator warning about /dev/char links that already exist
        "https://github.com/NVIDIA/gpu-operator/issues/531",
        'time="2023-05-22T13:37:43Z" level=warning msg="Could not create symlink: symlink '
        '/run/nvidia/driver/dev/nvidia-caps/nvidia-cap16 /host-dev-char/511:16: file exists"',
        "container.cdi-hook-symlink-conflict",
    ),
]


test_a_look_alike_is_not_read_as_the_new_cause = source_lookalike_test(LOOKALIKE, newline=True)
