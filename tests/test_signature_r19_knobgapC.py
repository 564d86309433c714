"""Knob gaps, round 19 (second pass): training cases whose confirmed cause already ranked in the
top 3 but whose fixes named nothing the thread's real fix turned on. Each row reads a case's body
from its training file, triaged as the corpus scorer does (tests/triage_lines.py:
assert_training_case), and asserts the finding ranks first and one of its fixes names the knob; look-alike rows are real messages of other causes (from
earlier tables) that must not be read as the changed cause."""

from __future__ import annotations

import pytest
from triage_lines import assert_not_first, assert_training_case

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
        "The slurm script that is generated using the command: `itwinai generate-slurm -nj` has "
        "`--cpus-per-gpu = 4` which gives the error: `sbatch: error: Batch job submission failed: "
        "Requested node configuration is not available`. However, on changing `--cpus-per-gpu=4` "
        "to `--cpus-per-task=4`, the script runs successfully on running the command: `sbatch "
        "slurm_scripts/ddp-1x4.sh`",
        "app.ollama-cpu-fallback",
        "https://github.com/interTwin-eu/itwinai/issues/415",
    ),
    # Slurm's --gpus without select/cons_tres (tests/test_signature_r16_slurm.py)
    (
        "SLURM sbatch failed. The error message was 'sbatch: error: Requested GRES option "
        "unsupported by configured SelectType plugin'",
        "app.ollama-cpu-fallback",
        "https://github.com/harvardinformatics/cactus-snakemake/issues/17",
    ),
    (
        "vagrant@virtual-login01:~$ srun --gpus 2 -n2 hostname\n"
        "srun: error: Unable to allocate resources: Requested GRES option unsupported by "
        "configured SelectType plugin",
        "app.ollama-cpu-fallback",
        "https://github.com/NVIDIA/deepops/pull/485",
    ),
    # Ollama offloading too many layers: out of memory, not the CPU fallback
    # (tests/test_signature_r19_llama4.py)
    (
        "Hi there, \n\nBased on the logs, it appears that ollama is trying to load too many layers and crashing OOM, this is causing it to revert to CPU only mode, which is not desirable.",
        "app.ollama-cpu-fallback",
        "https://github.com/ollama/ollama/issues/618",
    ),
    # a pod spec with one GPU limit on GKE without the device plugin (tests/test_signature_r17_k8sdrv.py)
    (
        "But now when we are trying to schedule the Pod using the following resource section the "
        "pod becomes un-schedulable with this error `X insufficient nvidia.com/gpu`\n"
        "\n"
        "```\n"
        "requests:\n"
        "    limits:\n"
        '       nvidia.com/gpu: "1"\n'
        "```\n"
        "\n"
        "**Specs:**\n"
        "Node version - v1.18.17-gke.700 (+ v1.17.17-gke.6000) tried on both\n"
        "Instance type - n1-standard-4\n"
        "image - cos\n"
        "GPU - NVIDIA Tesla T4",
        "k8s.pod-requests-more-gpus-than-node",
        "https://github.com/GoogleCloudPlatform/container-engine-accelerators/issues/196",
    ),
    # an untolerated GPU taint (tests/test_signature_r17_k8sdrv.py)
    (
        "FailedScheduling   2m21s (x42 over 60m)  default-scheduler  1 node(s) had untolerated ta"
        "int {nvidia.com/gpu: present}",
        "k8s.pod-requests-more-gpus-than-node",
        "https://github.com/vllm-project/aibrix/pull/909",
    ),
    # the Level Zero loader not installed at all (tests/test_signature_r15_amd.py)
    (
        "libze_loader.so.1: cannot open shared object file: no such file or directory",
        "intel.level-zero-loader-too-old",
        "https://github.com/oneapi-src/level-zero/issues/125",
    ),
    # no XPU device in a container (tests/test_signature_r15_amd.py)
    (
        '  File "/geti_prompt/.venv/lib/python3.12/site-packages/torch/xpu/__init__.py", line 138, '
        "in _lazy_init\n"
        "    torch._C._xpu_init()\n"
        "RuntimeError: No XPU devices are available.",
        "intel.level-zero-loader-too-old",
        "https://github.com/open-edge-platform/geti-instant-learn/issues/583",
    ),
]


@pytest.mark.parametrize(("case", "finding_id", "knob", "source"), KNOB)
def test_case_reaches_cause_with_knob(
    case: str, finding_id: str, knob: str, source: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert_training_case(case, finding_id, knob, source, monkeypatch, first=True)


@pytest.mark.parametrize(("text", "tempting", "source"), LOOKALIKE)
def test_lookalike_is_not_read_as_this_cause(text: str, tempting: str, source: str) -> None:
    assert_not_first(text, tempting, source)
