"""Round 17 sweep of Docker on Linux desktops and WSL 2 (checks/signatures/{containers,wsl}.toml and the
entries it touched): a rootless daemon's "devices.allow: permission denied" at the end of a long
OCI runtime error line (the line's quoted end is now kept), docker-compose too old for GPU
reservations in its "does not match any of the regexes" wording, GPU devices put under
deploy.resources.limits, /dev/dxg missing in WSL 2, and "no adapters were found" on a machine
without an NVIDIA GPU. Each message, verbatim from its thread, reaches the cause the thread
confirmed first, and one of that cause's fixes names the knob the confirmed fix turned."""

from __future__ import annotations

from triage_lines import source_knob_test, source_lookalike_test

from envdoctor.ingest.free_text import MAX_LINE_CHARS, cut_line

# (thread, message, the finding id first, a string one of its fixes' summaries or commands holds)
KNOB = [
    (
        # the reporter (a moby maintainer): rootless dockerd may not write the device cgroup; no-cgroups = true in the toolkit's config is the way
        "https://github.com/moby/moby/issues/38729",
        '$ docker -H unix:///run/user/1001/docker.sock run -it --rm --runtime=nvidia nvidia/cuda\n...\ndocker: Error response from daemon: OCI runtime create failed: container_linux.go:344: starting container process caused "process_linux.go:424: container init caused \\"process_linux.go:407: running prestart hook 1 caused \\\\\\"error running hook: exit status 1, stdout: , stderr: exec command: [/usr/bin/nvidia-container-cli --load-kmods configure --ldconfig=@/sbin/ldconfig --device=all --compute --utility --require=cuda>=10.0 brand=tesla,driver>=384,driver<385 --pid=548 /home/suda/.local/share/docker/vfs/dir/122c480857379482f5317caaca55bbf5e43f84991accfa9f3ea586ed63f3fabd]\\\\\\\\nnvidia-container-cli: mount error: open failed: /sys/fs/cgroup/devices/user.slice/devices.allow: permission denied\\\\\\\\n\\\\\\"\\"": unknown.\nERRO[0142] error waiting for container: context canceled',
        "container.rootless-needs-no-cgroups",
        "no-cgroups",
    ),
    (
        # commenter: upgrade docker-compose (GPU reservations since 1.28.0); the reporter thanked
        "https://github.com/NVlabs/instant-ngp/issues/929",
        "root@container-f51f1185ac-98923ed5:~/instant-ngp# docker-compose -f .devcontainer/docker-compose.yml build instant-ngp\nWARNING: The DISPLAY variable is not set. Defaulting to a blank string.\nERROR: The Compose file './.devcontainer/docker-compose.yml' is invalid because:\nservices.instant-ngp.deploy.resources.reservations value 'devices' does not match any of the regexes: '^x-'",
        "container.compose-too-old-for-gpus",
        "docker compose",
    ),
    (
        # the reporter: docker-compose 1.17.1 had to be upgraded to at least 1.28.0
        "https://github.com/docker/compose/issues/8142",
        "ERROR: The Compose file './docker-compose.yml' is invalid because:\nservices.testserver.deploy.resources.reservations value Additional properties are not allowed ('devices' was unexpected)",
        "container.compose-too-old-for-gpus",
        "docker compose",
    ),
    (
        # the reporter fixed it by moving the GPU devices out of deploy.resources.limits
        "https://github.com/manascb1344/zonos-api/issues/2",
        'docker-compose up -d fails with error: "services.api.deploy.resources.limits Additional property devices is not allowed"',
        "container.compose-devices-misplaced",
        "reservations",
    ),
    (
        # commenters: nvidia-container-toolkit had not installed (a failing apt-get update); installing it fixed it
        "https://github.com/NVIDIA/nvidia-docker/issues/1243",
        'docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]].',
        "container.no-nvidia-runtime",
        "nvidia-container-toolkit",
    ),
    (
        # snap Docker: the reporter's update of the system and its snaps (docker's nvidia support) solved it
        "https://github.com/canonical/docker-snap/issues/180",
        "$ sudo snap install docker\ndocker 24.0.5 from Canonical✓ installed\n$ sudo docker run -it --rm --runtime=nvidia tensorflow/tensorflow:latest-gpu python\ndocker: Error response from daemon: unknown or invalid runtime name: nvidia.\nSee 'docker run --help'.",
        "container.no-nvidia-runtime",
        "snap refresh",
    ),
    (
        # labelled wontfix: the image needs CUDA 12.8 (the README was updated to say so); the driver offers 12.4
        "https://github.com/SyneRBI/PETRIC2/issues/27",
        "Status: Downloaded newer image for ghcr.io/synerbi/sirf:petric2\ndocker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running prestart hook #0: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\nnvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.8, please update your driver to a newer version, or use an earlier cuda container",
        "container.cuda-requirement-unsatisfied",
        "12.8",
    ),
    (
        # the reporter: updating to the next Insider build (21359) brought /dev/dxg back
        "https://github.com/microsoft/WSL/issues/6809",
        "The /dev/dxg device is not available in WLS2 Linux distros when I updated to preview build 21354.\n\nI tried to re-install WSL2, no help.",
        "wsl.windows-too-old",
        "winver",
    ),
    (
        # the reporter's laptop has no NVIDIA graphics card (closed): only a CPU run can work there
        "https://github.com/IDEA-Research/Grounded-Segment-Anything/issues/506",
        "I am working in WSL 2 and have cloned the repo to my system.  \nI can build the image without any problems but as soon as I try to run `make run` I get the following error:  \n`nividia-container-cli: initialization error: WSL environment detected but no adapters were found: unknown`  \n\nI'm fairly new to machine learning so it's probably a very obvious mistake.  \nI also can't enable CUDA on my Laptop since it doesn't have an NVIDIA graphics card, so if CUDA is obligatory to get it to work then please tell me as well.",
        "container.gpu-image-on-cpu-host",
        "without --gpus",
    ),
]


test_a_docker_or_wsl_message_gets_its_cause_and_the_knob = source_knob_test(KNOB)


# real messages of other causes the new patterns could catch: they must not rank the new cause first
LOOKALIKE = [
    (
        # GPU devices under reservations read by a docker-compose older than 1.28 (not under limits)
        "https://github.com/docker/compose/issues/8142",
        "ERROR: The Compose file './docker-compose.yml' is invalid because:\n"
        "services.testserver.deploy.resources.reservations value Additional properties are not allowed "
        "('devices' was unexpected)",
        "container.compose-devices-misplaced",
    ),
    (
        # WSL 2 on a Windows 10 build (1909) without GPU support: the machine has an NVIDIA GPU
        "https://github.com/NVIDIA/nvidia-docker/issues/1437",
        "after compiling resourses with the makefile, I try to run ./BlackScholes but i have this error:\n"
        "```\nCUDA error at ../../common/inc/helper_cuda.h:777 code=35(cudaErrorInsufficientDriver) "
        '"cudaGetDeviceCount(&device_count)"\n```\n\n'
        "I'm running the program on **Ubuntu 18.04** (On windows with wsl2) \n"
        "**Nvidia driver** version **465.21**\nWindows 10 Version 1909 **build 18363**\nCUDA **11.0.228**",
        "container.gpu-image-on-cpu-host",
    ),
]


test_a_look_alike_is_not_read_as_the_new_cause = source_lookalike_test(LOOKALIKE, newline=True)


def test_a_long_line_quoting_nested_lines_keeps_its_end() -> None:
    """Docker's OCI runtime errors quote the hook's stderr with escaped newlines after a long exec
    command: the cut line keeps the quoted error at its end (moby/moby#38729)."""
    line = KNOB[0][1].splitlines()[2]
    assert len(line) > MAX_LINE_CHARS
    cut = cut_line(line)
    assert len(cut) <= MAX_LINE_CHARS
    assert cut.startswith("docker: Error response from daemon")
    assert "devices.allow: permission denied" in cut
    plain = "x" * (MAX_LINE_CHARS + 50)
    assert cut_line(plain) == plain[:MAX_LINE_CHARS]
