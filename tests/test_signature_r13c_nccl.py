"""Round 13 sweep, multi-GPU / distributed training (checks/signatures/{torch,nccl}.toml): frequent
torch.distributed, DDP and NCCL messages from real threads reach the cause the thread confirmed,
first, with a fix naming the knob that fix turned (a launcher, an argument, an NCCL / Gloo
variable, a DDP option)."""

from __future__ import annotations

import pytest

from tests.triage_lines import assert_first_with_command, assert_not_first

# (message verbatim from the thread, the finding id first, a command one of its fixes gives, thread)
KNOB = [
    # ---- the old launcher passes --local_rank / torch 2.x passes --local-rank: argparse refuses it
    (
        "main.py: error: unrecognized arguments: --local-rank=0\nmain.py: error: unrecognized arguments: "
        "--local-rank=1\nERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 2) local_rank: "
        "0 (pid: 622423) of binary: /home/rong/anaconda3/envs/tecogan/bin/python",
        "torch.distributed-local-rank-argument",
        "add_argument('--local-rank'",
        "https://github.com/skycrapers/TecoGAN-PyTorch/issues/31",  # reporter: argparse --local-rank
    ),
    (
        "你好！我电脑只有一个GPU，我就把相应参数改成了单机单卡的训练方式，但是报错main.py: error: "
        "unrecognized arguments: --local-rank=0，请问这该如何解决？",
        "torch.distributed-local-rank-argument",
        "torchrun",
        "https://github.com/OFA-Sys/Chinese-CLIP/issues/74",  # confirmed: launch -> torchrun
    ),
    (
        'I try to run the train code but report this error "train.py: error: unrecognized arguments: '
        "--local_rank=0\", but i didn't use  --local_rank, do you know why this happened?",
        "torch.distributed-local-rank-argument",
        "torchrun",
        "https://github.com/hkchengrex/XMem/issues/18",  # maintainer: torch.distributed.run
    ),
    (
        " `Error: unrecognized arguments: –local_rank=19`",
        "torch.distributed-local-rank-argument",
        "torchrun",
        "https://github.com/airbert-vln/bnb-dataset/issues/6",  # maintainer: run torchrun
    ),
    # ---- env:// rendezvous without the launcher's variables
    (
        "up我想问下 我是用ddp多卡训练时，显示没有\nenvironment variable RANK expected, but not set",
        "torch.distributed-not-initialized",
        "torchrun",
        "https://github.com/bubbliiiing/yolov4-pytorch/issues/313",  # run the given launch command
    ),
    # ---- Gloo cannot find the address of the interface / host name it was given
    (
        "RuntimeError: [enforce fail at ../third_party/gloo/gloo/transport/tcp/device.cc:127] rp != "
        "nullptr. Unable to find address for: dgx-1.ai",
        "nccl.socket-interface-wrong",
        "GLOO_SOCKET_IFNAME",
        "https://github.com/msr-fiddle/pipedream/issues/32",  # reporter: the right interface worked
    ),
    (
        "Running a vLLM recipe in solo mode fails during Gloo initialization:\n\n```text\nRuntimeError: "
        "Unable to find address for: eth0\n```\n\nbecause sparkrun injects:\n\n```text\n"
        "GLOO_SOCKET_IFNAME=eth0\n```\n\nHowever, DGX Spark does not have an interface named `eth0`.",
        "nccl.socket-interface-wrong",
        "GLOO_SOCKET_IFNAME",
        "https://github.com/spark-arena/sparkrun/issues/275",  # fixed: name the real interface
    ),
    (
        "Currently NCCL_SOCKET_IFNAME and GLOO_SOCKET_IFNAME are hardcoded while it could be resolved "
        "with a simple lookup. \n\nThis results in errors:\n- no socket interface found\n- Unable to find "
        "address for: eth0",
        "nccl.socket-interface-wrong",
        "GLOO_SOCKET_IFNAME",
        "https://github.com/Alibaba-NLP/DeepResearch/issues/107",  # the interface name is the cause
    ),
    # ---- DDP + gradient checkpointing: a parameter marked ready twice
    (
        "@BenjaminBossan It works. Thanks. It turns out that gradient_checkpointing cannot be used with "
        '"ddp find_unused_parameters" at the same time, raising \n```RuntimeError: Expected to mark a '
        "variable ready only once. This error is caused by one of the following reasons: 1) Use of a "
        "module parameter outside the `forward` function . Please make sure model parameters are not "
        "shared across multiple concurrent forward-backward passes. or try to use _set_static_graph() as "
        "a workaround if this module graph does not change during training loop.2) Reused parameters in "
        "multiple reentrant backward passes.",
        "torch.ddp-checkpoint-marked-ready-twice",
        "ddp_find_unused_parameters=False",
        "https://github.com/huggingface/accelerate/issues/2017",  # reporter: it works
    ),
    (
        "RuntimeError: Expected to mark a variable ready only once.",
        "torch.ddp-checkpoint-marked-ready-twice",
        "use_reentrant",
        "https://github.com/huggingface/accelerate/issues/389",  # use_reentrant=False: "It works"
    ),
    (
        "Use `find_unused_parameters=True` and you will get \n```\nRuntimeError: Expected to mark a "
        "variable ready only once. This error is caused by use of a module parameter outside the "
        "`forward` function.\n```\n\nUse `find_unused_parameters=False`, and things will work just fine.",
        "torch.ddp-checkpoint-marked-ready-twice",
        "find_unused_parameters=False",
        "https://github.com/huggingface/transformers/pull/4659",  # author: False works
    ),
    # ---- a CPU tensor handed to an NCCL collective
    (
        "Error: Tensors must be CUDA and dense\nErrorType: <class 'RuntimeError'>",
        "nccl.cpu-tensor-collective",
        "gloo",
        "https://github.com/pytorch/elastic/issues/61",  # maintainer (#64): GPU tensors or a gloo group
    ),
    (
        "I can confirm this bug is still present on the current `main` branch. The `length_tensor` is "
        "created on CPU and passed directly to `dist.broadcast()`, which fails with NCCL backend.",
        "nccl.cpu-tensor-collective",
        ".cuda()",
        "https://github.com/mistralai/mistral-inference/issues/252",  # cause stated, fix PR
    ),
]


@pytest.mark.parametrize(("text", "finding_id", "command", "source"), KNOB)
def test_message_reaches_cause_with_knob(text, finding_id, command, source) -> None:
    assert_first_with_command(text + "\n", finding_id, command, source)


@pytest.mark.parametrize(
    ("text", "not_id"),
    [
        # unused parameters without checkpointing stay the find_unused_parameters=True cause
        # (the title of https://github.com/huggingface/accelerate/issues/2017)
        (
            "RuntimeError: Expected to have finished reduction in the prior iteration before starting a "
            "new one. This error indicates that your module has parameters that were not used in "
            "producing loss. You can e",
            "torch.ddp-checkpoint-marked-ready-twice",
        ),
        # accelerate finding no GPU is a CPU-only torch, not a CPU tensor in a collective
        # (https://github.com/bmaltais/kohya_ss/issues/255)
        (
            'File "D:\\AI\\Lora\\kohya_ss\\venv\\lib\\site-packages\\accelerate\\accelerator.py", line 355, in '
            '__init__\n    raise ValueError(err.format(mode="fp16", requirement="a GPU"))',
            "nccl.cpu-tensor-collective",
        ),
    ],
)
def test_a_look_alike_is_not_taken_for_these_causes(text, not_id) -> None:
    assert_not_first(text + "\n", not_id, None, may_be_empty=False)
