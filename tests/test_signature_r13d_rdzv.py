"""torch.distributed rendezvous and launch (checks/signatures/{nccl,torch,cuda}.toml and a few patterns
added to existing causes): the rendezvous store that cannot be reached or that not every rank
joined, rank variables read by a script started without its launcher, more GPUs in one
peer-to-peer group than CUDA allows, and ranks calling different collectives. Each message, verbatim
from the thread cited, reaches the cause the thread confirmed first, with a fix naming the knob
that fix turned."""

from __future__ import annotations

import pytest

from envdoctor.triage_engine import triage_text
from tests.triage_lines import assert_not_first

# (message verbatim from the thread, the finding id first, a command one of its fixes gives, thread)
KNOB = [
    # ---- the rendezvous store: not reachable, or not every rank joined it
    (
        "Error message in training: The connection to the C10d store has failed.",
        "nccl.socket-interface-wrong",
        "--rdzv_endpoint",
        # maintainer: several jobs on one machine each need their own --rdzv_endpoint
        "https://github.com/hpcaitech/ColossalAI/issues/778",
    ),
    (
        'print("creating store")\ntorch.distributed.DistStoreError: Timed out after 6 seconds '
        "waiting for workers. 1/2 workers joined.",
        "nccl.socket-interface-wrong",
        "--nnodes",
        # maintainer: the store now fails when not all of world_size clients join within the timeout
        "https://github.com/pytorch/pytorch/pull/111805",
    ),
    # ---- rank variables read by a script started with plain python
    (
        '---> 30 self.local_rank = int(os.environ["LOCAL_RANK"])\n'
        "     31 self.world_size = dist.get_world_size()\n"
        "     32 self.clip_grad_norm = clip_grad_norm\n\n"
        "File ~\\anaconda3\\envs\\pytorch-fast\\lib\\os.py:680, in _Environ.__getitem__(self, key)\n"
        "    677     value = self._data[self.encodekey(key)]\n"
        "    678 except KeyError:\n"
        "    679     # raise KeyError with the original key value\n"
        "--> 680     raise KeyError(key) from None\n"
        "    681 return self.decodevalue(value)\n\n"
        "KeyError: 'LOCAL_RANK'",
        "torch.distributed-not-initialized",
        "torchrun",
        # maintainer: not a distributed launch; start it the way run.sh does
        "https://github.com/OpenLMLab/LOMO/issues/31",
    ),
    (
        '>>> import os\n>>> os.environ["RANK"]\nTraceback (most recent call last):\n'
        '  File "<stdin>", line 1, in <module>\n'
        '  File "/anaconda/envs/azureml_py38/lib/python3.8/os.py", line 675, in __getitem__\n'
        "    raise KeyError(key) from None\nKeyError: 'RANK'",
        "torch.distributed-not-initialized",
        "torchrun",
        # maintainer: launch the script with torchrun (or torch.distributed.launch)
        "https://github.com/The-AI-Summer/pytorch-ddp/issues/2",
    ),
    # ---- more GPUs in one peer-to-peer group than CUDA allows
    (
        "hi, when I change gpu ids from [0, 1] to [0, 1, 2, 3] to run my program, it arises "
        "`RuntimeError: cuda runtime error (60) : peer mapping resources exhausted at "
        "/opt/conda/conda-bld/pytorch_1556653114079/work/aten/src/THC/THCGeneral.cpp:164`, what is "
        "it? I can't find solution on google or stackoverflow. does somebody know it? thx!",
        "cuda.too-many-p2p-peers",
        "CUDA_VISIBLE_DEVICES",
        # answer: at most 8 GPUs in one peer-to-peer ensemble; run separate groups
        "https://github.com/pytorch/pytorch/issues/25019",
    ),
    (
        "RuntimeError: [enforce fail at context_gpu.cu:239] . peer mapping resources exhausted",
        "cuda.too-many-p2p-peers",
        "CUDA_VISIBLE_DEVICES",
        # reporter: fixed by giving the container fewer GPUs
        "https://github.com/pytorch/pytorch/issues/38223",
    ),
    (
        "When i use 5 gpus no error, but when i set 8 gpus , error `peer mapping resources exhausted`?",
        "cuda.too-many-p2p-peers",
        "CUDA_VISIBLE_DEVICES",
        # commenter: export CUDA_VISIBLE_DEVICES=0 and all work well
        "https://github.com/facebookresearch/Detectron/issues/842",
    ),
    (
        "I am running a NCCL reduction across multiple GPUs on an Amazon P2 16x instance in a "
        "multi-process context (one MPI rank per GPU). When I added small arrays together across 16 "
        'workers I got the error "peer mapping resources exhausted".',
        "cuda.too-many-p2p-peers",
        "CUDA_VISIBLE_DEVICES",
        # maintainer: each device supports a system-wide maximum of eight peer connections
        "https://github.com/NVIDIA/nccl/issues/51",
    ),
    # ---- ranks calling different collectives
    (
        "`init.cc:1247 NCCL WARN Mismatched collective detected, please check your collective calls "
        "at and around rank 39. You can use NCCL_DEBUG=INFO and NCCL_DEBUG_SUBSYS=COLL to see the "
        "collective logs`",
        "torch.distributed-collective-mismatch",
        "NCCL_DEBUG_SUBSYS=COLL",
        # maintainer: tensors of different sizes, or collectives in a different order, across ranks
        "https://github.com/NVIDIA/nccl/issues/296",
    ),
]

# (a real message of another cause, verbatim from its thread, the id it must not reach first)
LOOKALIKE = [
    # the port is taken on this machine: its own cause, not an unreachable rendezvous
    (
        "torch.distributed.DistNetworkError: The server socket has failed to listen on any local "
        "network address. The server socket has failed to bind to [::]:29500 (errno: 98 - Address "
        "already in use). The server socket has failed to bind to ?UNKNOWN? (errno: 98 - Address "
        "already in use).",
        "nccl.socket-interface-wrong",
        "https://github.com/meta-pytorch/torchtune/issues/1025",
    ),
    # P2P not supported between two GPUs is the PCIe path, not too many peers
    (
        "(pid=909608) z-pc:909608:910337 [0] transport/p2p.cc:238 NCCL WARN failed to open CUDA IPC "
        "handle : 217 peer access is not supported between these two devices",
        "cuda.too-many-p2p-peers",
        "https://github.com/ray-project/ray_lightning/issues/24",
    ),
    # the port is taken: not ranks out of step
    (
        "torch.distributed.DistNetworkError: The server socket has failed to listen on any local "
        "network address. The server socket has failed to bind to [::]:29500 (errno: 98 - Address "
        "already in use). The server socket has failed to bind to ?UNKNOWN? (errno: 98 - Address "
        "already in use).",
        "torch.distributed-collective-mismatch",
        "https://github.com/meta-pytorch/torchtune/issues/1025",
    ),
]


@pytest.mark.parametrize(
    ("text", "finding_id", "command", "url"),
    KNOB,
    ids=[k[3].split("github.com/")[-1] for k in KNOB],
)
def test_a_rendezvous_or_launch_message_gets_its_cause_and_knob(text, finding_id, command, url):
    findings = triage_text(text + "\n").findings
    assert findings and findings[0].id == finding_id, [f.id for f in findings[:3]]
    commands = " ".join(c for fix in findings[0].fixes for c in fix.commands)
    assert command in commands, url


@pytest.mark.parametrize(
    ("text", "not_id", "url"), LOOKALIKE, ids=[f"{k[1]}-{i}" for i, k in enumerate(LOOKALIKE)]
)
def test_a_look_alike_is_not_taken_for_these_causes(text, not_id, url) -> None:
    assert_not_first(text + "\n", not_id, None, may_be_empty=False)
