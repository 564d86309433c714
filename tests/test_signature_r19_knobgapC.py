"""Knob gaps, round 19 (second pass): training cases whose confirmed cause already ranked in the
top 3 but whose fixes named nothing the thread's real fix turned on. Each row reads a case's body
from its training file, triaged as the corpus scorer does (tests/triage_lines.py:
assert_training_case), and asserts the finding ranks first and one of its fixes names the knob; look-alike rows are real messages of other causes (from
earlier tables) that must not be read as the changed cause."""

from __future__ import annotations

from triage_lines import lookalike_test, row_text, training_case_test

# (training case file, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # Slurm set ROCR_VISIBLE_DEVICES=0 on NVIDIA nodes and Ollama 0.9.3 fell back to the CPU;
    # jakehlee in the thread: "patch with `unset ROCR_VISIBLE_DEVICES` or add
    # `Flags=nvidia_gpu_env` to your `gres.conf`" (tested in the thread)
    (
        "en-1510-ollama-093-slurm-rocr-visible-devices.txt",
        "app.ollama-cpu-fallback",
        "ROCR_VISIBLE_DEVICES",
        "https://github.com/ollama/ollama/issues/11220",
    ),
    # a pod spec whose two containers each set nvidia.com/gpu: 1 on a one-GPU node; flx42
    # (NVIDIA): "Your pod is effectively requesting 2 GPUs. GPUs are assigned per-container, and
    # are not shared."; the reporter thanked him
    (
        "en-1224-k8s-two-containers-each-request-gpu-insufficient.txt",
        "k8s.pod-requests-more-gpus-than-node",
        "per container",
        "https://github.com/NVIDIA/k8s-device-plugin/issues/71",
    ),
    # xpumcli on Windows failed with the ze_loader.dll 1.2.3 a oneAPI installer left; the
    # maintainer (testdig): "xpumcli depends on ze_loader with version 1.7.x and above, 1.2.3 is
    # too old"; the ze_loader.dll of the Intel GPU driver package worked (reporter)
    (
        "en-1503-xpumcli-windows-ze-loader-too-old.txt",
        "intel.level-zero-loader-too-old",
        "ze_loader",
        "https://github.com/intel/xpumanager/issues/31",
    ),
]

# (message verbatim from a thread of another cause, the cause it must not be read as, thread)
LOOKALIKE = [
    # a Slurm CPU request no node offers: not Ollama on the CPU (tests/test_signature_r16_slurm.py)
    (
        row_text("test_signature_r16_slurm", "https://github.com/interTwin-eu/itwinai/issues/415"),
        "app.ollama-cpu-fallback",
        "https://github.com/interTwin-eu/itwinai/issues/415",
    ),
    # Slurm's --gpus without select/cons_tres (tests/test_signature_r16_slurm.py)
    (
        row_text(
            "test_signature_r16_slurm",
            "https://github.com/harvardinformatics/cactus-snakemake/issues/17",
        ),
        "app.ollama-cpu-fallback",
        "https://github.com/harvardinformatics/cactus-snakemake/issues/17",
    ),
    (
        row_text("test_signature_r16_slurm", "https://github.com/NVIDIA/deepops/pull/485"),
        "app.ollama-cpu-fallback",
        "https://github.com/NVIDIA/deepops/pull/485",
    ),
    # Ollama offloading too many layers: out of memory, not the CPU fallback
    # (tests/test_signature_r19_llama4.py)
    (
        row_text("test_signature_r19_llama4", "https://github.com/ollama/ollama/issues/618"),
        "app.ollama-cpu-fallback",
        "https://github.com/ollama/ollama/issues/618",
    ),
    # a pod spec with one GPU limit on GKE without the device plugin (tests/test_signature_r17_k8sdrv.py)
    (
        row_text(
            "test_signature_r17_k8sdrv",
            "https://github.com/GoogleCloudPlatform/container-engine-accelerators/issues/196",
        ),
        "k8s.pod-requests-more-gpus-than-node",
        "https://github.com/GoogleCloudPlatform/container-engine-accelerators/issues/196",
    ),
    # an untolerated GPU taint (tests/test_signature_r17_k8sdrv.py)
    (
        row_text("test_signature_r17_k8sdrv", "https://github.com/vllm-project/aibrix/pull/909"),
        "k8s.pod-requests-more-gpus-than-node",
        "https://github.com/vllm-project/aibrix/pull/909",
    ),
    # the Level Zero loader not installed at all (tests/test_signature_r15_amd.py)
    (
        row_text("test_signature_r15_amd", "https://github.com/oneapi-src/level-zero/issues/125"),
        "intel.level-zero-loader-too-old",
        "https://github.com/oneapi-src/level-zero/issues/125",
    ),
    # no XPU device in a container (tests/test_signature_r15_amd.py)
    (
        row_text(
            "test_signature_r15_amd",
            "https://github.com/open-edge-platform/geti-instant-learn/issues/583",
        ),
        "intel.level-zero-loader-too-old",
        "https://github.com/open-edge-platform/geti-instant-learn/issues/583",
    ),
]


test_case_reaches_cause_with_knob = training_case_test(KNOB, first=True)


test_lookalike_is_not_read_as_this_cause = lookalike_test(LOOKALIKE)
