"""Facts from prose, round 19 (envdoctor/triage_engine/prose.py, prose_gpu.py and the torch-build
chooser): a report's own words name the GPU ("My GPU is 4090"), the CUDA toolkit it installed
("cuda is 12.4", "my system's cuda is 11.7") and the driver; the free-text facts read them, and
the chooser then names the build for that toolkit (cu124) beside the newest one the driver runs.
KNOB rows reach their cause first with a fix naming the knob the thread's confirmed fix turned;
FACT rows are lines read to the facts they state; LOOKALIKE rows are real messages of other causes
that the stated toolkit must not turn into a torch-build finding; NOT_FACT rows are phrasings that
must not be read as the fact (nvidia-smi's "CUDA Version", a device index that is no card)."""

from __future__ import annotations

import pytest
from triage_lines import knob_test, lookalike_test

from envdoctor.triage_engine.prose import prose_facts

FOOTSTEP = "https://github.com/hojae-io/ModelBasedFootstepPlanning-IROS2024/issues/2"
TGI = "https://github.com/huggingface/text-generation-inference/issues/398"
SIM2REAL = "https://github.com/AIR-DISCOVER/ICRA2024-Sim2Real-AXS/issues/5"
TF_WINDOWS = "https://github.com/tensorflow/tensorflow/issues/64536"
INSIGHTFACE = "https://github.com/deepinsight/insightface/issues/1824"
PADDLE_V2 = "https://github.com/PaddlePaddle/Paddle/issues/11068"
OLLAMA_AMD = "https://github.com/ollama/ollama/issues/8679"

# (message verbatim from the thread, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # the reporter (kassasin): "I have fixed this problem by reinstall torch torchvision torchaudio
    # to match my cuda version", with --index-url https://download.pytorch.org/whl/cu124
    (
        'When I run train scrip which using GPU,an error occured."nvrtc: error: invalid value for '
        '--gpu-architecture (-arch)"\n\nMy GPU is 4090,nvidia driver is 525.60.11,cuda is 12.4 .',
        "torch.gpu-too-new-for-build",
        "cu124",
        FOOTSTEP,
    ),
]

# (line verbatim from the thread, the fact, the value it must read, thread)
FACT = [
    ("My GPU is 4090,nvidia driver is 525.60.11,cuda is 12.4 .", "gpu.prose_name",
     "NVIDIA GeForce RTX 4090", FOOTSTEP),
    ("My GPU is 4090,nvidia driver is 525.60.11,cuda is 12.4 .", "cuda.runtime", "12.4", FOOTSTEP),
    ("My GPU is 4090,nvidia driver is 525.60.11,cuda is 12.4 .", "driver.version", "525.60.11",
     FOOTSTEP),
    ("， If it is a problem if my system's cuda is 11.7 and container's cuda is 11.8?",
     "cuda.runtime", "11.7", TGI),
    ("I use the RTX3090 whose version of the driver is 525 and the cuda version is 12.1 both in my "
     "PC and in the docker environment.", "gpu.prose_name", "NVIDIA GeForce RTX 3090", SIM2REAL),
    ("I use the RTX3090 whose version of the driver is 525 and the cuda version is 12.1 both in my "
     "PC and in the docker environment.", "driver.version", "525", SIM2REAL),
]  # fmt: skip

# (message verbatim from a thread of another cause, the cause it must not be read as, thread)
LOOKALIKE = [
    # TGI maintainer: "V100 are not supported by flash attention" (the GPU too old, not a build)
    (
        "Hi, When I docker run a container, its something wrong with\n\n` GPU with CUDA is "
        "capability 7 0 is not supported`\n\n， If it is a problem if my system's cuda is 11.7 and "
        "container's cuda is 11.8?",
        "torch.gpu-too-new-for-build",
        TGI,
    ),
    # the reporter: "fixed by updating the driver" (error 804 in the image, a 525 host driver)
    (
        "Whenever I run the pytorch with cuda in the baseline docker, it shows the error:\n\n"
        '"RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions '
        "before calling NumCudaDevices() that might have already set an error? Error 804: forward "
        'compatibility was attempted on non supported HW"\n\nI use the RTX3090 whose version of the '
        "driver is 525 and the cuda version is 12.1 both in my PC and in the docker environment.",
        "torch.gpu-too-new-for-build",
        SIM2REAL,
    ),
    # the reporter: "the version of my cuda is 10.1", downgraded onnxruntime-gpu and insightface
    (
        "when I run detection model, only cpu is used.\nmy package version：\ninsightface==0.5\n"
        "onnx==1.10.2\nonnxruntime-gpu==1.9.0\n\neven if I uninstalled insightface and installed it "
        "again.",
        "torch.gpu-too-new-for-build",
        INSIGHTFACE,
    ),
]

# (line, the fact it must not read, thread or None for a constructed phrasing)
NOT_FACT = [
    # nvidia-smi's "CUDA Version" in words is the driver's CUDA, not an installed toolkit
    ("CUDA Version is 12.3.", "cuda.runtime", TF_WINDOWS),
    # a device index after "gpu=" is no card (a Paddle v2 launch line; Ollama's AMD log line)
    ("gpu=1 --rnn_use_batch=True --trainer_count=8 ", "gpu.prose_name", PADDLE_V2),
    (
        'time=2025-01-29T21:15:25.522-03:00 level=WARN source=amd_linux.go:378 msg="amdgpu is not '
        "supported (supported types:[gfx1010 gfx1012 gfx1030 gfx1100 gfx1101 gfx1102 gfx900 gfx906 "
        'gfx908 gfx90a gfx940 gfx941 gfx942])" gpu_type=gfx1031 gpu=0 library=/opt/rocm/lib',
        "gpu.prose_name",
        OLLAMA_AMD,
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


@pytest.mark.parametrize(("line", "fact", "value", "source"), FACT)
def test_prose_states_fact(line: str, fact: str, value: str, source: str) -> None:
    assert source.startswith("https://")
    assert prose_facts([line]).get(fact) == value, (source, prose_facts([line]))


test_lookalike_is_not_read_as_this_cause = lookalike_test(LOOKALIKE)


@pytest.mark.parametrize(("line", "fact", "source"), NOT_FACT)
def test_phrasing_is_not_the_fact(line: str, fact: str, source: str) -> None:
    assert fact not in prose_facts([line]), (source, prose_facts([line]))
