"""Where an out-of-memory's memory went (checks/workload_facts.oom_memory_facts), read off PyTorch's
own message in its three formats, and the cause it decides: most of the card held outside this
process's PyTorch. Every line is a real report's (the thread beside it; training threads of the
corpus, none of the frozen split)."""

from __future__ import annotations

import pytest
from triage_lines import fixes_text

from envdoctor.checks.workload_facts import oom_memory_facts
from envdoctor.triage_engine import triage_text

OCCUPIED = (  # https://github.com/KaiyangZhou/deep-person-reid/issues/556
    "RuntimeError: CUDA out of memory. Tried to allocate 2.00 MiB (GPU 0; 47.54 GiB total "
    "capacity; 194.45 MiB already allocated; 4.88 MiB free; 686.00 MiB reserved in total by "
    "PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb"
)


@pytest.mark.parametrize(
    ("line", "total", "elsewhere", "share"),
    [
        (OCCUPIED, 48, 46, 98),
        (  # https://github.com/junyanz/pytorch-CycleGAN-and-pix2pix/issues/962
            "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 10.76 GiB total "
            "capacity; 2.42 GiB already allocated; 26.12 MiB free; 2.75 GiB reserved in total by "
            "PyTorch).",
            11,
            7,
            74,
        ),
        (  # the older 'cached' form: https://github.com/ultralytics/yolov3/issues/491
            "RuntimeError: CUDA out of memory. Tried to allocate 338.00 MiB (GPU 0; 3.95 GiB total "
            "capacity; 1.62 GiB already allocated; 23.00 MiB free; 9.10 MiB cached)",
            4,
            2,
            58,
        ),
        (  # torch 2.1+ without 'this process has': https://github.com/derrian-distro/LoRA_Easy_Training_Scripts/issues/178
            "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 90.00 MiB. GPU 0 has a "
            "total capacity of 8.00 GiB of which 0 bytes is free. Of the allocated memory 7.13 GiB is "
            "allocated by PyTorch, and 127.09 MiB is reserved by PyTorch but unallocated.",
            8,
            0,
            9,
        ),
    ],
)
def test_the_oom_message_tells_what_is_held_elsewhere(
    line: str, total: int, elsewhere: int, share: int
) -> None:
    assert oom_memory_facts([line]) == {
        "memory.total_gib": total,
        "memory.elsewhere_gib": elsewhere,
        "memory.elsewhere_share": share,
    }


def test_a_card_held_by_someone_else_gets_nvidia_smi_and_another_gpu_first() -> None:
    text = "Command used: CUDA_VISIBLE_DEVICES=0,1,2,3,4 python main.py\n" + OCCUPIED
    findings = triage_text(text).findings
    assert findings[0].id == "memory.held-by-other-process", [f.id for f in findings[:3]]
    assert "46 GiB" in findings[0].title, findings[0].title
    fixes = fixes_text(findings[0])
    assert "nvidia-smi" in fixes and "CUDA_VISIBLE_DEVICES" in fixes, fixes


def test_a_batch_too_large_is_not_called_someone_elses_memory() -> None:
    """58% of a 4 GiB card outside PyTorch (a desktop's share, the CUDA context) is below the
    bar: the thread's fix was a smaller batch (ultralytics/yolov3#491)."""
    text = (
        "RuntimeError: CUDA out of memory. Tried to allocate 338.00 MiB (GPU 0; 3.95 GiB total "
        "capacity; 1.62 GiB already allocated; 23.00 MiB free; 9.10 MiB cached)"
    )
    ids = [f.id for f in triage_text(text).findings]
    assert ids[0] == "memory.out-of-memory" and "memory.held-by-other-process" not in ids, ids
