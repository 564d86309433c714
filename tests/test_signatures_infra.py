"""The infrastructure causes (memory, containers, NCCL, clusters): the facts of a paste choose the
cause and put the fix its context needs first."""

from __future__ import annotations

import pytest

from envdoctor.triage_engine import triage_text

TRAIN_OOM = """  File "train.py", line 80, in train
    loss.backward()
torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 5.94 GiB total capacity; 5.22 GiB already allocated)"""

INFER_OOM = """python generate.py --prompt "a cat"
torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 23.65 GiB total capacity; 21.10 GiB already allocated)"""


def _top(text: str):
    findings = triage_text(text).findings
    assert findings, text
    return findings[0]


def _first_fix(text: str) -> str:
    top = _top(text)
    return " ".join((top.fixes[0].summary, *top.fixes[0].commands))


def test_training_oom_puts_batch_size_first_and_names_the_small_card() -> None:
    top = _top(TRAIN_OOM)
    assert top.id == "memory.out-of-memory"
    texts = [f.summary for f in top.fixes]
    assert "batch size" in texts[0]
    assert any("mixed precision" in t for t in texts[:3])
    assert any("gradient checkpointing" in t for t in texts[:3])
    assert any("5.94 GiB card" in t and "8-bit optimizer" in t for t in texts)


def test_inference_oom_names_no_grad_not_training_levers() -> None:
    top = _top(INFER_OOM)
    assert top.id == "memory.out-of-memory"
    fixes = " ".join(f.summary for f in top.fixes)
    assert "torch.no_grad()" in fixes
    assert "gradient checkpointing" not in fixes


def test_oom_at_batch_one_is_a_card_too_small() -> None:
    text = (
        "即使将batch_size修改为1仍然会提示超出显存\nCUDA out of memory. Tried to allocate 1.20 GiB"
    )
    top = _top(text)
    assert top.id == "memory.workload-does-not-fit"
    assert "显存" in top.fixes[0].summary


@pytest.mark.parametrize(
    ("text", "finding_id", "keyword"),
    [
        (
            "vllm serve Qwen/Qwen2-7B\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 256.00 MiB.",
            "memory.out-of-memory",
            "--max-model-len",
        ),
        (
            "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 14136.04 MiB on device 0: cudaMalloc failed: out of memory",
            "memory.out-of-memory",
            "--n-gpu-layers",
        ),
        (
            "W tensorflow/core/framework/op_kernel.cc:1152] Resource exhausted: OOM when allocating tensor with shape[25088,4096]",
            "memory.out-of-memory",
            "batch size",
        ),
        (
            "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 4770354232 bytes.",
            "memory.out-of-memory",
            "batch size",
        ),
        (
            "RuntimeError: [enforce fail at alloc_cpu.cpp:114] data. DefaultCPUAllocator: not enough memory: you tried to allocate 1073741824 bytes.",
            "memory.host-ram-exhausted",
            "swap",
        ),
    ],
)
def test_each_allocator_gets_its_own_levers(text: str, finding_id: str, keyword: str) -> None:
    top = _top(text)
    assert top.id == finding_id
    assert keyword in _first_fix(text)


@pytest.mark.parametrize(
    ("text", "finding_id"),
    [
        (
            "ERROR: This container was built for NVIDIA Driver Release 450.51 or later, but\n"
            "       version 440.33.01 was detected and compatibility mode is UNAVAILABLE.",
            "container.image-needs-newer-driver",
        ),
        (
            "nvidia-container-cli: mount error: failed to add device rules: unable to find any existing "
            "device filters attached to the cgroup: bpf_prog_query(BPF_CGROUP_DEVICE) failed: operation not permitted: unknown.",
            "container.rootless-needs-no-cgroups",
        ),
        (
            "$ podman run --rm --device nvidia.com/gpu=all ubuntu nvidia-smi\n"
            "Error: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=all",
            "container.podman-no-cdi-spec",
        ),
        ("unknown flag: --gpus\nSee 'docker run --help'.", "container.docker-too-old-for-gpus"),
        (
            "Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: "
            'no runtime for "nvidia" is configured',
            "container.nvidia-runtime-not-configured",
        ),
        (
            "srun -n 4 --gpus-per-task=1 python train.py\nRuntimeError: CUDA error: invalid device ordinal",
            "cluster.slurm-per-task-gpu-binding",
        ),
        (
            'File "/content/drive/MyDrive/train.py", line 10\nRuntimeError: No CUDA GPUs are available',
            "python.notebook-no-gpu-runtime",
        ),
    ],
)
def test_container_and_cluster_errors_name_their_cause(text: str, finding_id: str) -> None:
    assert _top(text).id == finding_id


def test_watchdog_timeout_is_a_desync_after_many_collectives_and_p2p_at_the_first() -> None:
    late = (
        "[Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=7753, "
        "OpType=ALLREDUCE, Timeout(ms)=600000) ran for 600061 milliseconds before timing out."
    )
    first = late.replace("SeqNum=7753", "SeqNum=1")
    assert _top(late).id == "nccl.collective-timeout"
    assert _top(first).id == "nccl.p2p-broken-acs-iommu"
