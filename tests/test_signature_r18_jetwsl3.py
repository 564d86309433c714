"""Jetson / aarch64 and WSL 2, round 18 sweep (checks/signatures/{cuda,jetson,extensions}.toml): each message,
verbatim from a thread whose fix was confirmed, reaches its cause first and that cause's fixes name
the knob the confirmed fix turned (an environment variable, a package, a PATH entry, a build
variable, an image architecture); look-alike messages of other causes are not caught by the new
patterns."""

from __future__ import annotations

import pytest
from triage_lines import assert_not_first, source_knob_test

# (thread, message, the finding id first, a string one of its fixes' summaries or commands holds)
KNOB = [
    (
        # the reporter: "Fixed running: OPENBLAS_CORETYPE=ARMV8 python3 gen_wts_yoloV5.py ..."
        "https://github.com/marcoslucianops/DeepStream-Yolo/issues/164",
        "Running `python3 gen_wts_yoloV5.py -w yolov5n.pt` on a Jetson Xavier AGX we run into an\n\n"
        "```\nInvalid instruction (Core dumped)\n```",
        "jetson.numpy-openblas-illegal-instruction",
        "OPENBLAS_CORETYPE=ARMV8",
    ),
    (
        # the maintainer: ":latest does not support arm arch", pull the arm tag; the reporter: "Perfect"
        "https://github.com/t0mer/deepstack-trainer/issues/3",
        "jason@jetson01:~/deepstack_trainer$ sudo docker-compose up\n"
        'Creating network "deepstack_trainer_default" with the default driver\n'
        "Creating deepstack_trainer ... done\n"
        "Attaching to deepstack_trainer\n"
        "deepstack_trainer    | standard_init_linux.go:219: exec user process caused: exec format error",
        "container.image-wrong-arch",
        "linux/arm64",
    ),
    (
        # a commenter: the image's target platform (x86) is the cause; the reporter: "Yes. Thank you."
        "https://github.com/enesozi/object-detection/issues/3",
        "I ran ./build_docker_container.sh on my Jetson Xavier and received the error:\n\n"
        "Step 5/9 : RUN apt-get update && apt-get install -y --no-install-recommends         "
        "build-essential         cmake         git         wget         sudo         python         "
        "libcudnn7=$CUDNN_VERSION-1+cuda10.0         libcudnn7-dev=$CUDNN_VERSION-1+cuda10.0 &&     "
        "apt-mark hold libcudnn7 &&     rm -rf /var/lib/apt/lists/*\n"
        " ---> Running in 92c8d8acab95\n"
        'standard_init_linux.go:211: exec user process caused "exec format error"',
        "container.image-wrong-arch",
        "linux/arm64",
    ),
    (
        # a commenter: export PATH=/usr/local/cuda/bin:$PATH in ~/.bashrc; the reporter: "Your
        # solution works, after a restart of the jetson"
        "https://github.com/mit-han-lab/temporal-shift-module/issues/75",
        "I have installed all the software as described in the instraction on a Jetson Nano. But "
        "when I run the main.py in online_demo (pyhton3 main.py) I get a very long error message. "
        '(see below). \n\nThe file "nvcc" seems to be missing. Does anyone know how I can correct '
        "the error  ",
        "cuda.env-not-inherited",
        "/usr/local/cuda/bin",
    ),
    (
        # a maintainer: "Jetson wheels are not linked statically with blas library. Installing
        # OpenBlas would likely resolve the issue"
        "https://github.com/pytorch/pytorch/issues/51092",
        "`import cv2`\n`import torch `\n`Traceback (most recent call last):\n"
        "File “”, line 1, in\n"
        "File “/home/dji/.local/lib/python3.6/site-packages/torch/init.py”, line 190, in\n"
        "from torch.C import *\n"
        "ImportError: /home/dji/.local/lib/python3.6/site-packages/torch/lib/libtorch_cpu.so: "
        "undefined symbol: sgesdd`\n\n"
        "3.\n`(gdb) r -c “import torch”`\n"
        "`Starting program: /usr/bin/python3 -c “import torch”`\n"
        "`[Thread debugging using libthread_db enabled]`\n"
        "`Using host libthread_db library “/lib/aarch64-linux-gnu/libthread_db.so.1”.`\n\n"
        "## Environment\n\n"
        " - PyTorch Version (e.g., 1.0):1.7\n"
        " - OS (e.g., Linux):ubuntu 18.04\n"
        " - How you installed PyTorch (`conda`, `pip`, source):nvidia torch whl\n"
        " - Python version:3.6.9\n"
        " - CUDA/cuDNN version:10.2\n"
        " - Any other relevant information:nvidia tx2",
        "jetson.wheel-system-deps-missing",
        "libopenblas",
    ),
    (
        # merged: the JetPack build installs libopenblas before importing torch
        "https://github.com/pytorch/TensorRT/pull/3885",
        "add openblas lib support for Jetpack\n\nadd libopenblas in build script.\n\n"
        "Traceback (most recent call last):\n"
        '  File "/__w/TensorRT/TensorRT/pytorch/tensorrt/setup.py", line 18, in <module>\n'
        "    import torch\n"
        '  File "/__w/_temp/conda_environment_19047342926/lib/python3.10/site-packages/torch/__init__.py", '
        "line 422, in <module>\n"
        "    from torch._C import *  # noqa: F403\n"
        "ImportError: libopenblas.so.0: cannot open shared object file: No such file or directory",
        "jetson.wheel-system-deps-missing",
        "libopenblas",
    ),
    (
        # merged: building with TORCH_CUDA_ARCH_LIST=8.7 gives the Jetson Orin its kernels ("with
        # this change, it succeeds")
        "https://github.com/vllm-project/vllm/pull/19328",
        "Kernels built for compute capability 8.0 will run on 8.6 (and presumably 8.9) hardware, "
        "but not on 8.7 (Jetson Orin).\n\n"
        "This enables kernels to be built for capability 8.7 when it is explicitly requested via "
        "`TORCH_CUDA_ARCH_LIST`.\n\n"
        "## Test Plan\n- Build from source with `TORCH_CUDA_ARCH_LIST=8.7`\n"
        "- Run on Jetson Orin with `VLLM_ATTENTION_BACKEND=FLASH_ATTN` and try generating some output\n\n"
        "## Test Result\n"
        '- on `main` this currently fails with "no kernel image is available for execution on the device".',
        "flashattn.gpu-arch-unsupported",
        "TORCH_CUDA_ARCH_LIST=8.7",
    ),
    (
        # the maintainer: jetson-stats is not well installed and its service is missing; reinstall
        # with sudo -H pip3 install --force-reinstall --no-cache-dir jetson-stats
        "https://github.com/rbonghi/jetson_stats/issues/593",
        "after using the command 'jtop', we have applied command 'sudo systemctl restart "
        "jtop.service' and then 'journalctl -u jtop.service -n 100 --no-pager', but it also "
        "doesn't work\n\nby the way, why 'L4T version not detected' is happening?",
        "jetson.jtop-service-inactive",
        "--force-reinstall",
    ),
]

# (thread, a real message of another cause, the finding id it must not reach first)
LOOKALIKE = [
    (
        # an x86 desktop (GTX 1050): not the Jetson OpenBLAS core-type detection
        "https://github.com/AlexeyAB/darknet/issues/2156",
        "I’ve compiled with only GPU, CUDDN and OPENCV = 1. after compiling make I can’t use a "
        "single function in yolo; I always get “illegal instruction(core dumped)” error. I’m just "
        "using the same syntax like yolov2, for instance \n“./darknet detector  map obj.data "
        "yolo-obj.cfg yolo-obj_6000.weights “ . Btw I’m using ubuntu 16.04 with gtx 1050, which "
        "works fine in yolov2",
        "jetson.numpy-openblas-illegal-instruction",
    ),
    (
        # nvcc runs but cannot find cicc: its nvvm folder is missing from the image (Yocto), not PATH
        "https://github.com/OE4T/meta-tegra/issues/18",
        "I compiled core-image-sato-sdk system, it boots and everything works except that when I "
        "try to compile in the Jetson board using nvcc it throws an error:\n\n"
        "sh: cicc: command not found",
        "cuda.env-not-inherited",
    ),
    (
        # an x86 build linked against Open MPI: an MPI symbol, not BLAS on an aarch64 wheel
        "https://github.com/pytorch/pytorch/issues/3292",
        "ImportError: /usr/lib/python3/dist-packages/torch/_C.cpython-35m-x86_64-linux-gnu.so: "
        "undefined symbol: ompi_mpi_char",
        "jetson.wheel-system-deps-missing",
    ),
    (
        # bitsandbytes' own aarch64 binary lacks sm_87: not flash-attn / vLLM
        "https://github.com/bitsandbytes-foundation/bitsandbytes/issues/1930",
        "- **Device:** NVIDIA Jetson Orin Nano Super\n"
        "- **bitsandbytes:** 0.46.1 (PyPI aarch64 wheel)\n\n"
        "quantize_4bit(x)\n"
        "# RuntimeError: Error named symbol not found at line 233 in file /src/csrc/ops.cu",
        "flashattn.gpu-arch-unsupported",
    ),
]


test_message_reaches_cause_with_knob = source_knob_test(KNOB)


@pytest.mark.parametrize(
    ("source", "text", "finding_id"), LOOKALIKE, ids=[row[0] for row in LOOKALIKE]
)
def test_lookalike_not_caught(source: str, text: str, finding_id: str) -> None:
    assert_not_first(text, finding_id, source)
