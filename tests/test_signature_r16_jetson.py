"""Round 16 sweep of Jetson and aarch64 messages (checks/signatures/{containers,jetson,torch,onnxruntime}.toml): each
message, verbatim from its thread, reaches the cause the thread confirmed first, and one of that
cause's fixes names the knob the confirmed fix turned (a daemon.json key, a package, an image
tag, a wheel index, a service)."""

from __future__ import annotations

from triage_lines import source_knob_test, source_lookalike_test

# (thread, message, the finding id first, a string one of its fixes' summaries or commands holds)
KNOB = [
    (
        # maintainer: on JetPack 4 the CUDA/cuDNN/TensorRT files are mounted into the container
        # from the device by --runtime nvidia, so they must be installed on the device; the
        # reporter: "I tried your advice and fixed the problem"
        "https://github.com/dusty-nv/jetson-inference/issues/1733",
        "./imagenet: error while loading shared libraries: /usr/lib/aarch64-linux-gnu/libnvinfer.so.7.1.3 file too short\n"
        "I tested the dustynv/jetson-inference:r32.4.4, r32.7.1 and also the l4t-pytorch:r32.4.4, and **found that the libnvinf.so file size is all 0.**",
        "container.nvidia-runtime-not-configured",
        "nvidia-jetpack",
    ),
    (
        # reporter: adding "default-runtime": "nvidia" to /etc/docker/daemon.json fixed it
        "https://github.com/dusty-nv/jetson-inference/issues/1061",
        "./segnet-console: error while loading shared libraries: /usr/lib/aarch64-linux-gnu/libnvinfer.so.7: file too short\n"
        "```\n\ndocker image that I use: `dustynv/jetson-inference:r32.4.4`",
        "container.nvidia-runtime-not-configured",
        '"default-runtime": "nvidia"',
    ),
    (
        # reporter: the README says the default runtime must be changed to nvidia
        "https://github.com/dusty-nv/jetson-containers/issues/93",
        'I\'m running the container "dustynv/ros:noetic-pytorch-l4t-r32.5.0" (and I also tried the previous one) as I want to use ros-noetic together with pytorch on a Jetson AGX.\n'
        ">>> import torch\n"
        "OSError: libcurand.so.10: cannot open shared object file: No such file or directory",
        "container.nvidia-runtime-not-configured",
        '"default-runtime": "nvidia"',
    ),
    (
        # maintainer: fixed in jetson-stats 4.0, update with pip install -U jetson-stats
        "https://github.com/rbonghi/jetson_stats/issues/263",
        "[WARN] Board missing P2822-0000 (press CTRL + Click)\n"
        "[WARN] jetson-stats not supported for [L4T 35.1.0]\n"
        "  Please, try: sudo -H pip install -U jetson-stats\n"
        "  or open an issue on Github (press CTRL + Click)",
        "jetson.jtop-l4t-unsupported",
        "pip3 install -U jetson-stats",
    ),
    (
        # maintainer: with 4.3.2 restart jtop.service; a user: "This solves the issue"
        "https://github.com/rbonghi/jetson_stats/issues/613",
        "> [WARN] jetson-stats not supported for [L4T 35.6.1]\n"
        "  Please, try: sudo pip3 install -U jetson-stats or\n"
        "  open a Github issue (press CTRL + Click)\n\n"
        "Jetson Version: jetson-stats-4.3.2",
        "jetson.jtop-l4t-unsupported",
        "systemctl restart jtop.service",
    ),
    (
        # the repository's upgrade script (jtop from master) fixed it; the reporter: "ty"
        "https://github.com/rbonghi/jetson_stats/issues/870",
        "jetson-stats not supported for [L4T 36.4.7]\n"
        "Please update jetson-stats with new jetpack\n\n"
        "### Linux for Tegra\n\n - L4T: 36.4.7\n\n### Jetson-Stats\n\n - Version: 4.3.2",
        "jetson.jtop-l4t-unsupported",
        "upgrade-jtop.sh",
    ),
    (
        # maintainer: reinstall jetson-stats with sudo -H pip install --no-cache-dir -U; a user:
        # "Worked for me"
        "https://github.com/rbonghi/jetson_stats/issues/86",
        "agx1@agx1-desktop:~$ jtop\n"
        "The jetson_stats.service is not active. Please run:\n"
        "sudo systemctl restart jetson_stats.service\n"
        "2. agx1@agx1-desktop:~$ sudo systemctl restart jetson_stats.service\n"
        "Failed to restart jetson_stats.service: Unit jetson_stats.service not found.",
        "jetson.jtop-service-inactive",
        "--no-cache-dir jetson-stats",
    ),
    (
        # the reporter: the x86 nvidia/cuda image fails on the TX2, nvcr.io/nvidia/l4t-base works
        "https://github.com/NVIDIA/nvidia-docker/issues/1116",
        "when run `sudo docker run --rm --runtime=nvidia -ti nvidia/cuda`, it produce the error "
        '`standard_init_linux.go:211: exec user process caused "exec format error"`\n'
        "but it works well under `nvcr.io/nvidia/l4t-base:r32.2`",
        "container.image-wrong-arch",
        "l4t-base",
    ),
    (
        # the reporter: "I'm running software built for x86 on an arm64 platform"
        "https://github.com/clue/docker-h5ai/issues/9",
        "When running the image with the reccomended commandline syntax as per the README results in\n\n"
        '`standard_init_linux.go:178: exec user process caused "exec format error"`\n\n'
        "Environment:\nCentOS Linux release 7.4.1708 (AltArch)\n"
        "Linux fyptams-vps 4.4.96-mainline-rev1 #1 SMP Thu Nov 2 11:51:37 UTC 2017 aarch64 aarch64 aarch64 GNU/Linux",
        "container.image-wrong-arch",
        "docker image inspect",
    ),
    (
        # maintainers: exec format error is a CPU binary mismatch; that image is the x86 build
        # image, build on the aarch64 device itself instead
        "https://github.com/PaddlePaddle/Paddle-Lite/issues/10408",
        "Host：比特大陆BMBM1684 (aarch64)\nOS：Ubuntu 20.04\n"
        "2、$ sudo docker run -it \\\n     --name work_bm \\\n     -v $HOME:/code \\\n     --net=host \\\n"
        "     paddlepaddle/paddle-lite:latest /bin/bash\n"
        '报错standard_init_linux.go:211: exec user process caused "exec format error”',
        "container.image-wrong-arch",
        "arm64",
    ),
    (
        # the merged fix: Jetson Thor (sm_110) has no kernels in the cu128 build; route torch to cu130
        "https://github.com/OpenRAL/openral/pull/167",
        "torch 2.9.1+cu128   arch_list: ['sm_80', 'sm_90', 'sm_100', 'sm_120']\n"
        ">>> a @ b  ->  CUDA error: no kernel image is available for execution on the device\n\n"
        "Every op — matmul, `sum`, `softmax`, `conv2d`, SDPA — not the jiterator subset\n"
        "the page documents. Measured on a Jetson Thor (L4T R38.4 / JetPack 7, CUDA 13.0).",
        "torch.gpu-too-new-for-build",
        "cu130",
    ),
    (
        # maintainer: PyTorch's cu121 wheels do not run on JetPack 6; use the l4t-pytorch container
        "https://github.com/dusty-nv/jetson-containers/issues/391",
        "I am in the process of building my own container and have used your `build.sh` to create a container for Jetson Orin nano running JP60 preview.\n"
        "Installing torch and torchvision with cuda 12.1 \n"
        "`pip install torch==2.1.0 torchvision==0.16.0 torchaudio==2.1.0 --index-url https://download.pytorch.org/whl/cu121` gives `torch.cuda.is_available()` as False",
        "jetson.pypi-wheel",
        "l4t-pytorch",
    ),
    (
        # PyPI has no aarch64 onnxruntime-gpu wheel; ONNX Runtime's maintainers publish the Jetson
        # builds to the Jetson Zoo (jywu-msft in microsoft/onnxruntime#20503)
        "https://github.com/microsoft/onnxruntime/issues/6124",
        "failed to install onnxruntime-gpu on Jetson Nano with the latest image (Jetpack 4.4.1)\n"
        "pip3 install onnxruntime-gpu\n"
        "Defaulting to user installation because normal site-packages is not writeable\n"
        "ERROR: Could not find a version that satisfies the requirement onnxruntime-gpu\n"
        "ERROR: No matching distribution found for onnxruntime-gpu",
        "onnxruntime.jetson-no-gpu-build",
        "Jetson_Zoo",
    ),
    (
        # the author's tested fix: the SBSA torch wheel on Jetson Thor links NVPL LAPACK and cuDSS
        # without declaring them; add nvpl-blas / nvpl-lapack (and cuDSS)
        "https://github.com/pollen-robotics/microduck_rl/pull/39",
        "- **The SBSA wheel links NVPL BLAS/LAPACK and cuDSS without declaring them** (`import torch` → "
        "`libnvpl_lapack_lp64_gomp.so.0: cannot open shared object file`, then `libcudss.so.0`). "
        "Add `nvpl-blas`, `nvpl-lapack`, `nvidia-cudss-cu13` under the Jetson marker",
        "jetson.wheel-system-deps-missing",
        "nvpl-lapack",
    ),
    (
        # the reporter: installing the distribution's numpy (apt python3-numpy) made it work
        "https://github.com/ultralytics/yolov5/issues/10981",
        "On the Jetson, I have yolov5 installed. It's able to run the example DeepStream Configuration for YOLOv5 shown in the NVIDIA Jetson tutorial. "
        "However, when I run `python3 detect.py --weights yolov5s.pt --source 0` with my webcam plugged in I receive the message `Illegal instruction (core dumped`",
        "jetson.numpy-openblas-illegal-instruction",
        "python3-numpy",
    ),
]


test_a_jetson_message_gets_its_cause_and_the_knob = source_knob_test(KNOB)


# real messages of other causes that a new pattern could catch: (thread, message, the cause
# that must not be first)
LOOKALIKE = [
    (
        # a script without its shebang's '#' (confirmed: "That worked"), not a foreign-arch image
        "https://github.com/moby/moby/issues/10738",
        "Exec format error : Cannot start container <id> : exec format error\n"
        "Here's the startup script called startup-stanbol.sh which has execute permission.\n\n"
        "!/usr/bin/env bash",
        "container.image-wrong-arch",
    ),
    (
        # an ENTRYPOINT script lacking a shebang line on an amd64 host
        "https://github.com/opencontainers/runc/issues/1773",
        'standard_init_linux.go:195: exec user process caused "exec format error"\n'
        "Server:\n Version:      17.12.1-ce\n OS/Arch:      linux/amd64",
        "container.image-wrong-arch",
    ),
    (
        # the service stops after a while; jetson-stats knows this L4T
        "https://github.com/rbonghi/jetson_stats/issues/525",
        "$ jtop\nI can't access jtop.service.\nPlease logout or reboot this board.\n$ sudo jtop\n"
        "The jtop.service is not active. Please run:\nsudo systemctl restart jtop.service",
        "jetson.jtop-l4t-unsupported",
    ),
    (
        # JetPack's PyTorch install script run on the Jetson itself (no container); the reporter
        # accepted the maintainer's answer
        "https://github.com/dusty-nv/jetson-inference/issues/622",
        "install-pytorch.sh ImportError: libcudart.so.10.0",
        "container.nvidia-runtime-not-configured",
    ),
]


test_a_lookalike_is_not_taken_for_the_new_cause = source_lookalike_test(LOOKALIKE)
