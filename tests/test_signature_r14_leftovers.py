"""Round 14 sweep of the leftovers the maintainers listed (checks/signatures/{tensorflow_jax,containers}.toml and
the entries it touched): TensorFlow's illegal instruction / cpu_feature_guard abort on a CPU without
the instruction set its wheel was built for, nvidia-smi missing inside a container started without
the GPUs, JAX's "Unable to load cuSPARSE / cuFFT" at CUDA-plugin start-up, cudaMallocAsync's
"operation not supported", and an sm_120 build choice that states the driver each index needs.
Each message is verbatim from its thread; it reaches the cause the thread confirmed first, and one
of that cause's fixes names the knob the confirmed fix turned."""

from __future__ import annotations

import pytest
from triage_lines import fixes_text, source_knob_test

from envdoctor.triage_engine import triage_text

# (thread, message, the finding id first, a string one of its fixes' summaries or commands holds)
KNOB = [
    (
        # the TensorFlow triager: the CPU (Core i5-480M) lacks AVX, which the pip wheels require
        "https://github.com/tensorflow/tensorflow/issues/44701",
        ">>> import tensorflow as tf\n[1]    3760 illegal hardware instruction  python3",
        "tensorflow.cpu-instruction-unsupported",
        "avx",
    ),
    (
        # the TensorFlow triager: the CPU does not support AVX, a requirement of the pip package
        "https://github.com/tensorflow/tensorflow/issues/23520",
        "- pip install tensorflow per [https://www.tensorflow.org/install/pip](https://www.tensorflow.org/"
        "install/pip)\n- verify install per [https://www.tensorflow.org/install/pip](https://www.tensorflow.org/"
        'install/pip)\n- import of tensorflow causes "illegal instruction" raised.',
        "tensorflow.cpu-instruction-unsupported",
        "avx",
    ),
    (
        # the thread: the pip wheel is compiled with AVX; a TensorFlow without AVX is the way out
        "https://github.com/scale-lab/DRiLLS/issues/9",
        "F tensorflow/core/platform/cpu_feature_guard.cc:37] The TensorFlow library was compiled to use "
        "AVX instructions, but these aren't available on your machine.\nAborted (core dumped)",
        "tensorflow.cpu-instruction-unsupported",
        "AVX",
    ),
    (
        # the maintainer: use the image built without these instructions (the noavx image)
        "https://github.com/snowzach/doods2/issues/46",
        "The TensorFlow library was compiled to use SSE4.2 instructions, but these aren't available on "
        "your machine.",
        "tensorflow.cpu-instruction-unsupported",
        "SSE4.2",
    ),
    (
        # an AMD Opteron 6128 (no SSE4.1) under VMware: the wheel needs an instruction set it lacks
        "https://github.com/tensorflow/tensorflow/issues/26241",
        "tensorflow/core/platform/cpu_feature_guard.cc:37] The TensorFlow library was compiled to use "
        "SSE4.1 instructions, but these aren't available on your machine.\nAborted",
        "tensorflow.cpu-instruction-unsupported",
        "SSE4.1",
    ),
    (
        # the reporter: adding --gpus all to docker run fixed it
        "https://github.com/iot-salzburg/gpu-jupyter/issues/22",
        "I tried building and running them, but despite confirmative output at \n"
        "docker run --gpus all nvidia/cuda:10.1-base-ubuntu18.04 nvidia-smi\n\n"
        "> NVIDIA-SMI 450.51.05    Driver Version: 450.51.05    CUDA Version: 11.0\n\n"
        'cuda is not available in pylabs. "torch.cuda.is_available()" returns "False".\n'
        '"!nvidia-smi" in the notebook does also not work: "/bin/bash: nvidia-smi: command not found"',
        "container.no-gpus-injected",
        "--gpus all",
    ),
    (
        # the reporter: the same image runs nvidia-smi with --gpus all
        "https://github.com/allenai/beaker-cli/issues/326",
        "$ docker run --rm -it my-experiment nvidia-smi\n"
        "docker: Error response from daemon: OCI runtime create failed:\n"
        "container_linux.go:380: starting container process caused: exec:\n"
        '"nvidia-smi": executable file not found in $PATH: unknown.',
        "container.no-gpus-injected",
        "--gpus all",
    ),
    (
        # commenters: unsetting LD_LIBRARY_PATH made the pip CUDA wheels load ("it worked")
        "https://github.com/jax-ml/jax/issues/29843",
        "RuntimeError: Unable to load cuSPARSE. Is it installed?",
        "jax.cuda-backend-failed",
        "LD_LIBRARY_PATH",
    ),
    (
        # the thread's fixes reinstall the CUDA wheels through the jax CUDA extra
        "https://github.com/jax-ml/jax/issues/18027",
        ">>> jax.numpy.array(1)\nCUDA backend failed to initialize: Unable to load cuSOLVER. (Set "
        "TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)\nArray(1, dtype=int32, weak_type=True)",
        "jax.cuda-backend-failed",
        "jax[cuda12]",
    ),
    (
        # ComfyUI on a Tesla M40 with its cudaMallocAsync default: --disable-cuda-malloc
        "https://github.com/Comfy-Org/ComfyUI/issues/2935",
        "Device: cuda:0 Tesla M40 24GB : cudaMallocAsync\n```\nAnd I met this error.\n```\n"
        "Error occurred when executing KSampler:\n\nCUDA error: operation not supported",
        "torch.cuda-malloc-async-unsupported",
        "--disable-cuda-malloc",
    ),
    (
        # the thread (and #6843 citing it): --disable-cuda-malloc
        "https://github.com/Comfy-Org/ComfyUI/issues/1845",
        '  File "C:\\ComfyUI\\comfy\\model_management.py", line 105, in get_total_memory\n'
        "    _, mem_total_cuda = torch.cuda.mem_get_info(dev)\n"
        "RuntimeError: CUDA error: operation not supported",
        "torch.cuda-malloc-async-unsupported",
        "--disable-cuda-malloc",
    ),
    (
        # the reporter: the cu128 (nightly at the time) torch fixed it
        "https://github.com/LykosAI/StabilityMatrix/issues/1344",
        'During first time run it says "NVIDIA GeForce RTX 5070 Ti with CUDA capability sm_120 is not '
        "compatible with the current PyTorch installation.\nThe current PyTorch install supports CUDA "
        'capabilities sm_50 sm_60 sm_61 sm_70 sm_75 sm_80 sm_86 sm_90."',
        "torch.gpu-too-new-for-build",
        "cu128",
    ),
]


test_a_common_message_gets_its_cause_and_the_knob = source_knob_test(KNOB)


def test_an_sm120_build_chosen_without_the_driver_names_the_driver_each_index_needs() -> None:
    # no driver in the paste: each build's summary says the driver branch it needs (the tables')
    text = KNOB[-1][1] + "\n"
    finding = triage_text(text).findings[0]
    summaries = [f.summary for f in finding.fixes if "with cu1" in f.summary]
    assert summaries and all("needs driver" in s for s in summaries), summaries
    assert any("cu128" in s for s in summaries), summaries


def test_an_sm120_build_chosen_for_a_known_driver_does_not_state_a_floor() -> None:
    text = (
        KNOB[-1][1]
        + "\n| NVIDIA-SMI 570.86.10              Driver Version: 570.86.10      CUDA Version: 12.8     |\n"
    )
    finding = triage_text(text).findings[0]
    assert "cu128" in finding.fixes[0].summary and "570.86.10" in finding.fixes[0].summary
    assert "needs driver" not in fixes_text(finding)


# (thread, a real message of another cause, the new cause that must not rank first)
LOOKALIKE = [
    # TensorFlow's informational line: the CPU has instructions the wheel does not use
    (
        "https://github.com/llSourcell/deep_dream_challenge/issues/6",
        "2018-03-19 14:44:16.835465: W C:\\tf_jenkins\\home\\workspace\\rel-win\\M\\windows\\PY\\36\\"
        "tensorflow\\core\\platform\\cpu_feature_guard.cc:45] The TensorFlow library wasn't compiled to use "
        "AVX instructions, but these are available on your machine and could speed up CPU computations.",
        "tensorflow.cpu-instruction-unsupported",
    ),
]


@pytest.mark.parametrize(("url", "text", "not_id"), LOOKALIKE, ids=[k[0] for k in LOOKALIKE])
def test_a_look_alike_message_is_not_read_as_the_new_cause(
    url: str, text: str, not_id: str
) -> None:
    findings = triage_text(text + "\n").findings
    assert not findings or findings[0].id != not_id, (url, [f.id for f in findings[:3]])
