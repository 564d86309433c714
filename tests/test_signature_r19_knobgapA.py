"""Right cause, fix that names nothing, round 19 (checks/signatures/containers.toml and a fix
added to checks/signatures/*.toml): a Docker container asked for an NVIDIA GPU (--gpus, a CUDA image) on a
machine whose only graphics is Intel. The cause was found, but its fixes named neither the knob the
confirmed fixes turned: the program's CPU device option (--device cpu) or the project's CPU image.
Each verbatim message reaches its cause first and one of its fixes names that knob; look-alike rows
are real "could not select device driver" messages from machines that do have an NVIDIA GPU (or do
not say), which must not be read as a GPU-less host."""

from __future__ import annotations

from triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # the CUDA-labelled ComfyUI image on an Intel-only machine; the reporter: "I was using the cuda
    # label instead of cpu" (the CPU image fixed it)
    (
        "I'm very new to Comfy UI and got the docker container up and running but it fails due to no Nvidia GPU:\n\n> RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx\n\nThis isn't unexpected; however my Intel CPU also has an integrated GPU and I'd like to use that. What configuration changes should I make in order to get it working?",
        "nvidia.no-driver-bound",
        "CPU image",
        "https://github.com/ai-dock/comfyui/issues/79",
    ),
]

# (message verbatim from a thread of another cause, the cause it must not be read as, thread)
LOOKALIKE = [
    # Windows 10 with a Titan-V: the host has an NVIDIA GPU, Docker lacks the GPU runtime
    (
        'I get the following issue when running: docker run --gpus 2 nvidia/cuda:10.2-base nvidia-smi\n**docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]].**\n\nI am running Docker on my Windows 10 machine and I have a Titan-V GPU',
        "container.gpu-image-on-cpu-host",
        "https://github.com/NVIDIA/nvidia-docker/issues/1352",
    ),
    # the GPU compose file; nothing says the host lacks an NVIDIA GPU
    (
        'Hi, when i tried to run docker: `docker compose -f docker-compose-gpu.yml up -d`\ni get this error: `Error response from daemon: could not select device driver "nvidia" with capabilities: [[gpu]]`',
        "container.gpu-image-on-cpu-host",
        "https://github.com/infiniflow/ragflow/issues/9573",
    ),
    # the same, in Chinese
    (
        'docker-compose -f docker-compose.gpu.yaml up -d 报错：\n\nError response from daemon: could not select device driver "nvidia" with capabilities: [[gpu]]',
        "container.gpu-image-on-cpu-host",
        "https://github.com/jianchang512/ChatTTS-ui/issues/212",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_this_cause = lookalike_test(LOOKALIKE)
