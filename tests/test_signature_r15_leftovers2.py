"""Round 15 leftovers (2): gaps other sweeps found and left (checks/signatures/{apps,containers}.toml
and small edits of existing entries). Each message is verbatim from the thread it cites; each KNOB
row's thread confirms the fix (the reporter says it worked, or a maintainer states cause and fix)."""

from __future__ import annotations

from envdoctor.triage_engine import triage_text
from tests.triage_lines import fixes_text, knob_test, lookalike_test

OLLAMA_WINDOWS_AMD = (
    "How to run Ollama using AMD RX 6600 XT on Windows 11?\n"
    "The responses by all the LLM's are slow as the CPU is prioritised. I wish to make use of my RX "
    "6600 XT GPU but apparently the workaround is only on Linux. Furthermore, ROCm runtime is "
    "available for RX 6600 XT but not HIP SDK which is apparently what is needed for my GPU to run "
    "LLMs. However, the documentation for Ollama says that my GPU is supported. How do I make use "
    "of it then, since it's not utilising it at all?"
)  # https://github.com/ollama/ollama/issues/3781

# (message, the finding id first, a knob one of its fixes names, the thread)
KNOB = [
    # a CUBLAS build of llama-cpp-python sees no device; the fix that "worked" for the reporter and
    # others: rebuild with CUDACXX (and CUDAToolkit_ROOT) pointing at the toolkit that matches the driver
    (
        'Raise Error "no CUDA-capable device is detected" when running a `CUBLAS` compiled version of '
        "llama-cpp-python",
        "app.llamacpp.built-against-other-cuda",
        "CUDACXX",
        "https://github.com/abetlen/llama-cpp-python/issues/880",
    ),
    # the container started without GPUs (closed with the cause in its title)
    (
        "CUDA not detected when running without --gpus all",
        "container.no-gpus-injected",
        "--gpus all",
        "https://github.com/abetlen/llama-cpp-python/issues/1882",
    ),
    # CUDA gone after a suspend while nvidia-smi still shows the GPU; installing nvidia-modprobe
    # "worked for some (including me)" (it loads nvidia_uvm and recreates its device node)
    (
        "GPU becomes unavailable after computer wakes up",
        "nvidia.uvm-stale-after-suspend",
        "nvidia-modprobe",
        "https://github.com/NVIDIA/nvidia-docker/issues/910",
    ),
    # Ollama on Windows with an RX 6600 XT (outside the HIP SDK's libraries): the override is Linux-only;
    # a build that carries the GPU's target (the community ollama-for-amd build) "can run llama3 perfectly"
    (
        OLLAMA_WINDOWS_AMD,
        "app.ollama-amd-unsupported-gfx",
        "ollama-for-amd",
        "https://github.com/ollama/ollama/issues/3781",
    ),
]


test_message_reaches_its_cause_with_the_knob = knob_test(KNOB)


# (message of another cause a new pattern could catch, the cause it must not rank first, thread)
LOOKALIKE = [
    # llama.cpp built in WSL: no-device there is WSL's driver path, not the build's toolkit
    (
        "CUDA error 100 at /mnt/c/ws/ai/llama/llama.cpp/ggml-cuda.cu:485: no CUDA-capable device is "
        "detected\ncurrent device: 0\nGGML_ASSERT: /mnt/c/ws/ai/llama/llama.cpp/ggml-cuda.cu:485: "
        '!"CUDA error"\nAborted',
        "app.llamacpp.built-against-other-cuda",
        "https://github.com/abetlen/llama-cpp-python/issues/1030",
    ),
]


test_lookalike_is_not_caught = lookalike_test(LOOKALIKE, may_be_empty=True)


# An AMD mining rig (RX 550, undervolted): the overclock cause may rank, but its fixes must not give
# nvidia-smi clock resets to an AMD card.
AMD_RIG = (
    "So im running RX 550's underclocked on the gpu core  and undervolted on mem/core you can see "
    "the levels in the logs. For whatever reason after the miner detects a GPU failure it trys to "
    "run the watchdog script to reboot but seems it never gets to it and just locks up."
)  # https://github.com/todxx/teamredminer/issues/44


def test_overclock_fixes_give_no_nvidia_smi_to_an_amd_card() -> None:
    findings = triage_text(AMD_RIG + "\n").findings
    assert findings
    for finding in findings:
        if finding.id == "hardware.overclock-unstable":
            assert "nvidia-smi" not in fixes_text(finding), fixes_text(finding)


def test_ollama_on_windows_gets_no_linux_override() -> None:
    """The HSA_OVERRIDE_GFX_VERSION service override is Linux-only: not proposed on Windows."""
    finding = triage_text(OLLAMA_WINDOWS_AMD + "\n").findings[0]
    assert "HSA_OVERRIDE_GFX_VERSION=10.3.0" not in fixes_text(finding), fixes_text(finding)
