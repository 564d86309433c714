"""Round 10 field survey (topic `sysmem`): do the fixes of a reached cause name the knob the real
fix turned on, for CUDA allocator / out-of-memory reports (memory that grows across steps,
evaluation or inference without autograd switched off, memory held by another process),
NCCL (P2P, shared memory in containers, socket interface), hardware (a GPU lost from nvidia-smi,
ECC errors), Kubernetes and Slurm reports?

Every text below is the reporter's own words, copied verbatim (an issue title and whole lines of
the description or of the reporter's later comments: error output and the facts they gave, never
the answer) from the public GitHub thread named beside it. Each thread holds a confirmed fix: the
reporter says it worked, or a maintainer states cause and fix. The knob is what that fix turned
on (a call, flag, env variable or command). None of these threads are in the triage corpus or in
an earlier round's rows. The expected cause must be among the first three findings of
`triage_text(text)` and its fixes must name the knob. The second table holds reports whose cause
is something ELSE: the cause a cue could be tempted by must not rank first.
"""

from __future__ import annotations

OOM = ("memory.out-of-memory", "memory.workload-does-not-fit")
HELD = ("memory.held-by-other-process",)
P2P = ("nccl.p2p-broken-acs-iommu",)
SHM = ("nccl.shm-too-small",)
ECC = ("nvidia.ecc-uncorrected", "hardware.gpu-faulty", "nvidia.xid-error")

# (text, accepted ids, source URL, knob the fixes must name)
CASES = [
    # ------------------------------------------------ memory kept across steps / evaluation with autograd on
    (
        "RuntimeError: CUDA error: out of memory\n"
        "I'm experiencing `RuntimeError: CUDA error: out of memory` when I use a `batch_size` of "
        "96-128. I can only fit 64 examples in GPU memory. But, the real issue is that the training "
        "loop works perfectly fine with `batch_size`s ranging from 96-128. It's only when the "
        "[`validate()`](https://github.com/sgrvinod/a-PyTorch-Tutorial-to-Image-Captioning/blob/"
        "master/train.py#L119) function is called, which happens after each epoch, I get this error.",
        OOM,
        "https://github.com/sgrvinod/a-PyTorch-Tutorial-to-Image-Captioning/issues/57",
        "no_grad",
    ),
    (
        "I'm very new to both PyTorch and Skorch. I have started with the quickstart example and it "
        "worked fine, so I proceeded to implement an actual network that I care about (Pointnet). "
        'Unfortunately, `fit()` fails with "out of memory" error:\n\n'
        "```\nRuntimeError: cuda runtime error (2) : out of memory at "
        "/pytorch/aten/src/THC/generic/THCStorage.cu:58\n```\n\n"
        "I narrowed down the source to be the validation step. After each validation batch the GPU "
        "memory consumption increases until nothing in left.",
        OOM,
        "https://github.com/skorch-dev/skorch/issues/218",
        "no_grad",
    ),
    (
        "Model.eval() get more and more gpu memory\n"
        "I use this example https://github.com/pytorch/examples/blob/master/imagenet/main.py\n"
        "but I found in validation phase, the gpu get more and more memory.",
        OOM,
        "https://github.com/pytorch/pytorch/issues/4932",
        "no_grad",
    ),
    (
        "GPU memory leakage (CUDA out of memory after 2 epochs)\n"
        "Unfortunately, I am unable to train this repo for more than ~2 epochs, at the end I keep "
        "getting CUDA out of memory.\n"
        "Tracking the GPU memory consumption a slow and steady increase is visible.",
        OOM,
        "https://github.com/microsoft/SpareNet/issues/12",
        "item()",
    ),
    (
        "Memory leak in training loop\n"
        "For a large enough training set my GPU runs out of memory (the python process simply exit "
        "with no exception method).",
        OOM,
        "https://github.com/BatsResearch/labelmodels/issues/4",
        "item()",
    ),
    (
        "关于显存占用逐渐增大的问题\n"
        "你好，在实际使用的过程中发现显存占用逐渐增大。对于小数据集还好，但是对于很大的训练集，比如几十万个语句，"
        "即使batch_size=1也会出现CUDA_OUT_OF_MEMORY。",
        OOM,
        "https://github.com/ljynlp/W2NER/issues/31",
        "cpu()",
    ),
    (
        "inference OOM\n"
        "When I process 1920×1080 videos, the 40GB GPU memory runs out (OOM). Is there any way to "
        "reduce memory usage?",
        OOM,
        "https://github.com/msu-video-group/memfof/issues/5",
        "inference_mode",
    ),
    (
        "Validation out of memory",
        OOM,
        "https://github.com/dmlc/dgl/issues/745",
        "no_grad",
    ),
    # ------------------------------------------------ NCCL
    (
        "Training process gets stuck at step=0\n"
        "I am training pi0_fast using the LoRA method. When I perform training on a single GPU, "
        "everything works normally and the entire training process can be completed. However, "
        "when I use 2 or 4 GPUs for training, the process gets stuck. I think i have correctly "
        "modified the config.py.\n\n"
        "The issue does not occur consistently — I have had successful runs in the past. Since "
        "there is no error being thrown, it has become difficult for me to pinpoint the cause of "
        "the problem.",
        P2P,
        "https://github.com/Physical-Intelligence/openpi/issues/483",
        "NCCL_P2P_DISABLE",
    ),
    (
        "Crash with `--tensor-parallel-size` in the docker container",
        SHM,
        "https://github.com/vllm-project/vllm/issues/1710",
        "--shm-size",
    ),
    # ------------------------------------------------ hardware
    (
        "[Usage]: RuntimeError: CUDA error: uncorrectable ECC error encountered",
        ECC,
        "https://github.com/vllm-project/vllm/issues/5222",
        None,
    ),
]

# (text, tempting id, source URL): reports of another cause
OTHER_CAUSE: list[tuple[str, str, str]] = [
    # a multi-GPU GRPO run stuck in the NCCL watchdog, solved by a newer trl release (maintainer)
    (
        "grpo with multiple GPUs got stuck\n"
        "grpo with 8GPUs，The training got stuck midway.\n\n"
        "[rank0]:[E306 00:30:11.701177518 ProcessGroupNCCL.cpp:1484] [PG ID 0 PG GUID "
        "0(default_pg) Rank 0] ProcessGroupNCCL's watchdog got stuck for 480 seconds without "
        "making progress in monitoring enqueued collectives.",
        "nccl.p2p-broken-acs-iommu",
        "https://github.com/huggingface/open-r1/issues/478",
    ),
]

# a bare title may reach no cause at all; it must only not lead with the tempting one
TITLE_ONLY: set[str] = set()

# the shared names tests/test_field_fixes.py reads
REPORTS_ROWS = CASES
OTHER_ROWS = OTHER_CAUSE
MAY_BE_EMPTY = TITLE_ONLY
