"""Round 13d sweep of Docker / Compose / container GPU messages (checks/signatures/containers.toml
and the entry it touched): each message, verbatim from its thread, reaches the cause the thread
confirmed first, and one of that cause's fixes names the knob the confirmed fix turned."""

from __future__ import annotations

import pytest
from triage_lines import source_knob_test

from envdoctor.triage_engine import triage_text

# (thread, message, the finding id first, a string one of its fixes' summaries or commands holds)
KNOB = [
    (
        # the reporter: resolved by installing the toolkit and configuring docker
        "https://github.com/nv-tlabs/3dgrut/issues/71",
        "docker: Error response from daemon: unknown or invalid runtime name: nvidia.",
        "container.no-nvidia-runtime",
        "nvidia-ctk runtime configure --runtime=docker",
    ),
    (
        # the maintainer: install the NVIDIA container toolkit
        "https://github.com/sair-lab/AirSLAM/issues/113",
        "However, docker gives me:\n"
        "docker: Error response from daemon: unknown or invalid runtime name: nvidia.",
        "container.no-nvidia-runtime",
        "nvidia-ctk runtime configure",
    ),
    (
        # NVIDIA's notice https://github.com/NVIDIA/nvidia-docker/issues/1730 names the cause (systemd
        # cgroup reload drops the device rules) and the /dev/char symlinks workaround
        "https://github.com/NVIDIA/nvidia-docker/issues/1650",
        "(inside same running container):\n```\nroot@098b49afe624:/# nvidia-smi \n"
        "Failed to initialize NVML: Unknown Error\n```",
        "container.nvml-unknown-error-cgroup",
        "create-dev-char-symlinks",
    ),
    (
        # merged docs fix: the image needs a newer host driver
        "https://github.com/open-webui/docs/pull/507",
        "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.8, please update "
        "your driver to a newer version, or use an earlier cuda container: unknown",
        "container.cuda-requirement-unsatisfied",
        "570.26",
    ),
    (
        # the answer: CUDA 10.2 needs driver >= 440.33 (the release notes' table)
        "https://github.com/nodefluxio/vortex/issues/106",
        'OCI runtime create failed: container_linux.go:349: starting container process caused "process_linux.go:449: '
        'container init caused \\"process_linux.go:432: running prestart hook 1 caused \\\\\\"error running hook: exit '
        "status 1, stdout: , stderr: nvidia-container-cli: requirement error: unsatisfied condition: cuda>=10.2, "
        'please update your driver to a newer version, or use an earlier cuda container\\\\\\\\n\\\\\\"\\"": unknown',
        "container.cuda-requirement-unsatisfied",
        "440.33",
    ),
    (
        # the reporter: removing the driver's compute package from the image fixed it
        "https://github.com/BIOP/BIOP-desktop/issues/2",
        "docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI "
        "runtime create failed: runc create failed: unable to start container process: error during container init: "
        "error running hook #0: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'"
        "        \nnvidia-container-cli: mount error: file creation failed: /var/lib/docker/overlay2/36b6fcd35cb3d156b3"
        "25203e5766197a4c32259e1efd25567305af74aa3f5e80/merged/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1: file "
        "exists: unknown.",
        "container.image-bundles-driver-libs",
        "libnvidia-ml.so",
    ),
    (
        # the maintainer points to the Compose v2 file format's runtime key (version 2.3+)
        "https://github.com/docker/compose/issues/6436",
        "docker-compose up\n----------------------------------------\n"
        "ERROR: The Compose file './docker-compose.yml' is invalid because:\n"
        "Unsupported config option for services.hello: 'runtime'",
        "container.compose-too-old-for-gpus",
        "version: '2.3'",
    ),
    (
        # the reporter: upgrading docker-compose (1.17.1 to 1.27.4) solved it
        "https://github.com/docker/compose/issues/6691",
        "$ sudo docker-compose up -d --build\n"
        "ERROR: The Compose file './docker-compose.yml' is invalid because:\n"
        "Unsupported config option for services.engine: 'runtime'",
        "container.compose-too-old-for-gpus",
        "docker compose version",
    ),
    (
        # the reporter: solved by starting the container with nvidia-docker (the GPU runtime)
        "https://github.com/pytorch/pytorch/issues/3221",
        "Traceback (most recent call last):\n"
        '  File "<stdin>", line 1, in <module>\n'
        '  File "/opt/conda/envs/pytorch-py3.6/lib/python3.6/site-packages/torch/__init__.py", line 53, in '
        "<module>\n    from torch._C import *\n"
        "ImportError: libcuda.so.1: cannot open shared object file: No such file or directory",
        "nvidia.no-driver-bound",
        "--gpus all",
    ),
    (
        # the maintainer: no NVIDIA driver in the container; run it with nvidia-docker
        "https://github.com/pytorch/pytorch/issues/2985",
        '`  File "/opt/conda/envs/pytorch-py3.6/lib/python3.6/site-packages/torch/__init__.py", line 53, '
        "in <module>\n    from torch._C import *`  \n"
        "`  ImportError: libcuda.so.1: cannot open shared object file: No such file or directory\n`",
        "nvidia.no-driver-bound",
        "--gpus all",
    ),
]


test_a_docker_message_gets_its_cause_and_the_knob = source_knob_test(KNOB)


# real messages of other causes the new patterns could catch: they must not rank the new cause first
LOOKALIKE = [
    (
        # a compose run whose daemon lacks the nvidia runtime: the runtime key was read
        "https://github.com/duixcom/Duix-Avatar/issues/247",
        "执行 这个命令 docker-compose up -d 报错 Error response from daemon: unknown or invalid runtime name: "
        "nvidia 请问怎么解决",
        "container.compose-too-old-for-gpus",
    ),
    (
        # TensorFlow's loader message for the driver library (a different message and loader)
        "https://github.com/tensorflow/tensorflow/issues/4931",
        "I tensorflow/stream_executor/dso_loader.cc:105] Couldn't open CUDA library libcuda.so.1. "
        "LD_LIBRARY_PATH: /usr/local/nvidia/lib:/usr/local/nvidia/lib64:",
        "python.libstdcxx-too-old",
    ),
]


@pytest.mark.parametrize(("url", "text", "not_id"), LOOKALIKE, ids=[k[0] for k in LOOKALIKE])
def test_a_look_alike_is_not_read_as_the_new_cause(url, text, not_id) -> None:
    findings = triage_text(text + "\n").findings
    assert not findings or findings[0].id != not_id, url
