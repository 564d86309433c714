"""Out-of-memory (GPU and host) and GPU hardware messages people paste
(checks/signatures/{memory,amd_rocm,nccl,nvidia_driver}.toml and the entries it extends): each verbatim message from a thread
whose fix was confirmed reaches that cause first, and one of the cause's fixes names the knob the
confirmed fix turned."""

from __future__ import annotations

import pytest
from triage_lines import command_test

from envdoctor.triage_engine import triage_text

# (message verbatim from the thread, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # TensorFlow's GPU OOM on one of two GTX 1070s; batch size 8 worked (reporter)
    (
        "ResourceExhaustedError (see above for traceback): OOM when allocating tensor with "
        "shape[64,372,32,32] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by "
        "allocator GPU_0_bfc",
        "memory.out-of-memory",
        "batch",
        "https://github.com/ikhlestov/vision_networks/issues/25",
    ),
    # the DataLoader's workers killed by the kernel's OOM killer; num_workers 0 worked (reporter)
    (
        "    _error_if_any_worker_fails()\n"
        "RuntimeError: DataLoader worker (pid 19597) is killed by signal: Killed.",
        "memory.host-ram-exhausted",
        "num_workers=0",
        "https://github.com/hezhangsprinter/DCPDN/issues/12",
    ),
    # the old THC allocator's out-of-memory; a smaller batch for evaluation worked (reporter)
    (
        "RuntimeError: cuda runtime error (2) : out of memory at /data/users/soumith/miniconda2/"
        "conda-bld/pytorch-0.1.9_1487346124464/work/torch/lib/THC/generic/THCStorage.cu:66",
        "memory.out-of-memory",
        "with torch.no_grad():",
        "https://github.com/pytorch/pytorch/issues/958",
    ),
    # TensorFlow 1 found 190 MiB free of 7.92 GiB at start: another process held the GPU (member)
    (
        "Total memory: 7.92GiB\n"
        "Free memory: 190.31MiB\n"
        "E tensorflow/stream_executor/cuda/cuda_driver.cc:1002] failed to allocate 190.31M "
        "(199557120 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY",
        "memory.held-by-other-process",
        "nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv",
        "https://github.com/tensorflow/tensorflow/issues/8170",
    ),
    # DeepFaceLab on an RTX 2080 SUPER: a lower batch size helped (reporter and others)
    (
        "2019-08-24 01:11:32.333585: E tensorflow/stream_executor/cuda/cuda_driver.cc:806] failed to "
        "allocate 2.12G (2279250176 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY: out of memory",
        "memory.out-of-memory",
        "nvidia-smi",
        "https://github.com/iperov/DeepFaceLab/issues/369",
    ),
    # RTX 20xx: memory growth (allow_growth) fixed it for many in the thread; the cause entry names
    # both readings (a cuDNN mismatch, or the memory TensorFlow took first)
    (
        "Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR",
        "cuda.cudnn-mismatch",
        "export TF_FORCE_GPU_ALLOW_GROWTH=true",
        "https://github.com/tensorflow/tensorflow/issues/24496",
    ),
    # JAX's preallocation left too little: XLA_PYTHON_CLIENT_MEM_FRACTION=0.7 made it run (commenter,
    # the maintainer points at the same memory-allocation page)
    (
        "Original error: RESOURCE_EXHAUSTED: Failed to allocate request for 176.00MiB (184549376B) "
        "on device ordinal 0",
        "memory.out-of-memory",
        "XLA_PYTHON_CLIENT_MEM_FRACTION",
        "https://github.com/google-deepmind/jax_privacy/issues/10",
    ),
    # a 128 GiB request on a 24 GiB card: the input, not the allocator; --chop_size (tiling) worked
    (
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 128.00 GiB (GPU 0; 24.00 "
        "GiB total capacity; 6.71 GiB already allocated; 12.96 GiB free; 8.74 GiB reserved in total "
        "by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid "
        "fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF",
        "memory.workload-does-not-fit",
        "enable_vae_tiling",
        "https://github.com/zsyOAOA/ResShift/issues/4",
    ),
    # Xid 31 after a driver update; rolling back to the previous driver stopped it (reporter)
    (
        "Xid 31 MMU Fault (FAULT_PDE, fixed per-box VA) on 610.57.04 under rapid Vulkan session "
        "churn; deterministic single-box repro, 580.159.03 clean",
        "nvidia.xid-error",
        "cat /proc/driver/nvidia/version",
        "https://github.com/NVIDIA/open-gpu-kernel-modules/issues/1370",
    ),
    # Strix Halo: HIP sees only the GTT/VRAM split, not the 128 GB; the BIOS carve-out and the
    # GTT size were the knobs (reporter)
    (
        "torch.OutOfMemoryError: HIP out of memory. Tried to allocate 16.00 GiB. GPU 0 has a total "
        "capacity of 15.24 GiB of which 15.09 GiB is free. Of the allocated memory 0 bytes is "
        "allocated by PyTorch, and 0 bytes is reserved by PyTorch but unallocated. If reserved but "
        "unallocated memory is large try setting PYTORCH_HIP_ALLOC_CONF=expandable_segments:True to "
        "avoid fragmentation.  See documentation for Memory Management  "
        "(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)\n"
        "### GPU\n"
        "AMD RYZEN AI MAX+ 395 w/ Radeon 8060S (gfx1151)",
        "rocm.apu-memory-limit",
        "ttm.pages_limit",
        "https://github.com/ROCm/TheRock/issues/1054",
    ),
    # the same split, asked about; amdgpu.gttsize / ttm pages_limit (maintainer)
    (
        "I always get the half of my RAM available for GTT, is that normal?",
        "rocm.apu-memory-limit",
        "amdgpu.gttsize",
        "https://github.com/rjmalagon/ollama-linux-amd-apu/issues/4",
    ),
    # every DDP rank put a context on GPU 0; torch.cuda.set_device(rank) fixed it (commenter, "it works")
    (
        "I noticed that the GPU load is unbalanced. There are 7 additional processes on GPU0, each "
        "requires roughly 500+ Mb of GPU memory. These additional processes are triggered by "
        "self._distributed_broadcast_coalesced() in torch.DistributedDataParallel() when "
        "instantiating a DDP model.",
        "nccl.duplicate-gpu-rank",
        "torch.cuda.set_device(local_rank)",
        "https://github.com/marcoamonteiro/pi-GAN/issues/22",
    ),
    # one script per GPU, all of them also on GPU 0; torch.cuda.set_device in each (maintainer)
    (
        "However, although this should be expected to work fine, but from the second script to the "
        "last, they give a `CUDA Runtime Error with out of memory`. It seems GPU 0 always occupy a lot "
        "of memory for each script even if they are assigned with other GPUs.",
        "nccl.duplicate-gpu-rank",
        "torch.cuda.set_device(local_rank)",
        "https://github.com/pytorch/pytorch/issues/9871",
    ),
    # Lightning with one GPU selected still put memory on GPU 0; torch.cuda.set_device solved it
    (
        "I set Cuda to 5 \nINFO:lightning:CUDA_VISIBLE_DEVICES: [5]\n\n"
        "however, there always a small part of the memory in gpu 0, when gpu 0 has not enough memory, "
        "error is produced.",
        "nccl.duplicate-gpu-rank",
        "torch.cuda.set_device(local_rank)",
        "https://github.com/Lightning-AI/pytorch-lightning/issues/1702",
    ),
    # the GSP firmware's heartbeat stopped, then Xid 154; only a reboot brought the GPU back (reporter)
    (
        "NVRM: _kgspRpcRecvPoll: GSP RM heartbeat timed out\n"
        "NVRM: _kgspIsHeartbeatTimedOut: Heartbeat timed out, currentTimeMs 3175895033 heartbeat "
        "19834604 heartbeatWithOffsetMs 3175815351 diff 79682 timeout 5200\n"
        "NVRM: _kgspRpcRecvPoll: LibOS heartbeat timed out\n"
        "NVRM: Xid (PCI:0000:01:00): 154, GPU recovery action changed from 0x0 (None) to 0x1 "
        "(GPU Reset Required)",
        "nvidia.gsp-rpc-timeout",
        "sudo reboot",
        "https://github.com/NVIDIA/open-gpu-kernel-modules/issues/1200",
    ),
    # vLLM's KV cache did not fit; increasing gpu_memory_utilization (maintainer)
    (
        'vllm-1  | ERROR 11-18 18:07:28 engine.py:366]     raise ValueError("No available memory for '
        'the cache blocks. "\n'
        "vllm-1  | ERROR 11-18 18:07:28 engine.py:366] ValueError: No available memory for the cache "
        "blocks. Try increasing `gpu_memory_utilization` when initializing the engine.",
        "app.vllm.kv-cache-insufficient",
        "--gpu-memory-utilization",
        "https://github.com/vllm-project/vllm/issues/10439",
    ),
    # the same on Ascend: tweaking the memory utilisation made it run (reporter)
    (
        "[Bug]: ValueError: No available memory for the cache blocks\n"
        "GLM-5.1多节点部署权重加载完会报错kv cache不足，还有什么解决办法",
        "app.vllm.kv-cache-insufficient",
        "--gpu-memory-utilization",
        "https://github.com/vllm-project/vllm-ascend/issues/9099",
    ),
    # a 70B model on 32 GB of unified memory: the kernel's OOM killer (maintainers)
    (
        "root@tegra-ubuntu:/# python3 /opt/mlc-llm/benchmark.py --model "
        "/data/models/mlc/dist/models/q4f16_ft/params/ --prompt /data/prompts/completion_16.json "
        "--max-new-tokens 128\n"
        "-- loading /data/models/mlc/dist/models/q4f16_ft/params/\n"
        "Killed\n"
        "root@tegra-ubuntu:/# ",
        "memory.host-ram-exhausted",
        "free -h",
        "https://github.com/mlc-ai/mlc-llm/issues/1678",
    ),
    # a headless server hung after each CUDA run; nvidia-smi -pm 1 fixed it (reporter)
    (
        "I had issues with my headless (no monitor connected) Ubuntu 14.04 multi-gpu setup.\n"
        "Running anything using cutorch would hang when finished or interruped and I would have to "
        "reboot the machine.\n"
        "However the same code would finish fine if a monitor was connected to the machine.",
        "nvidia.persistence-mode-off",
        "sudo nvidia-smi -pm 1",
        "https://github.com/torch/cutorch/issues/346",
    ),
    # out of memory only in validation; torch.no_grad() around it (reporter's own fix)
    (
        '"out of memory" during validation\n'
        'When performing validation for each Epoch, "out of memory" occurs after validation.',
        "memory.out-of-memory",
        "torch.no_grad()",
        "https://github.com/hszhao/semseg/issues/60",
    ),
    (
        "CUDA out of memory when validation\n"
        "After several time OOM error, i set the barch size to 4 and finally can train normally. But "
        "after one epoch, i also met the OOM error in validation.",
        "memory.out-of-memory",
        "torch.no_grad()",
        "https://github.com/gentaiscool/end2end-asr-pytorch/issues/29",
    ),
    # device_map="auto" filled the GPUs to the brim; max_memory (maintainer)
    (
        "This throws a CUDA OOM error simply because it is a very niche case where the GPUs were "
        "maxed out just right on their capacity, even if the other GPUs are free. \n"
        "The actual strategy for getting the `device_map` is to max-out the available GPUs.",
        "memory.out-of-memory",
        "max_memory=",
        "https://github.com/huggingface/accelerate/issues/473",
    ),
    # the same with generate(); device_map="balanced_low_0" keeps GPU 0 free (maintainer)
    (
        'Currently, when using `device_map="auto"` during instantiation of large language models '
        "in the transformers library, accelerate seems to essentially fill up GPUs' RAM such that, "
        "depending on the model and GPUs, a moderate batch size (e.g. 8) will cause a CUDA out of "
        "memory error.",
        "memory.out-of-memory",
        "balanced_low_0",
        "https://github.com/huggingface/accelerate/issues/608",
    ),
]


test_a_memory_or_hardware_message_reaches_its_cause_and_the_knob = command_test(
    KNOB, ids=[k[3] for k in KNOB]
)


# real messages of other causes that a new pattern could wrongly catch
LOOKALIKE = [
    # the shared-memory form of a killed worker is /dev/shm, not RAM exhausted
    (
        "RuntimeError: DataLoader worker (pid 3855) is killed by signal: Bus error. It is possible "
        "that dataloader's workers are out of shared memory. Please try to raise your shared memory "
        "limit.",
        "memory.host-ram-exhausted",
        "https://github.com/ultralytics/yolov3/issues/1151",
    ),
    # a request smaller than the card (22.78 of 31.47 GiB) is not "larger than the GPU"
    (
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 22.78 GiB. GPU 0 has a total "
        "capacity of 31.47 GiB of which 12.73 GiB is free. Including non-PyTorch memory, this process "
        "has 18.73 GiB memory in use. Of the allocated memory 9.08 GiB is allocated by PyTorch, and "
        "9.35 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large "
        "try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.",
        "memory.workload-does-not-fit",
        "https://github.com/murong-xu/CADS/issues/4",
    ),
    # HIP out of memory on a discrete Radeon is not the APU's carve-out / GTT split
    (
        "torch.OutOfMemoryError: HIP out of memory. Tried to allocate 124.00 MiB. GPU 0 has a total "
        "capacity of 19.94 GiB of which 554.47 MiB is free. Of the allocated memory 15.87 GiB is "
        "allocated by PyTorch, and 165.29 MiB is reserved by PyTorch but unallocated. If reserved but "
        "unallocated memory is large try setting PYTORCH_HIP_ALLOC_CONF=expandable_segments:True to "
        "avoid fragmentation.",
        "rocm.apu-memory-limit",
        "https://github.com/huggingface/autotrain-advanced/issues/737",
    ),
    # CUDA_VISIBLE_DEVICES set too late stays its own cause, not memory on GPU 0
    (
        "I set CUDA_VISIBLE_DEVICES in my script but it still uses GPU 0",
        "nccl.duplicate-gpu-rank",
        "tests/test_signature_stack_r4.py",
    ),
    # a game's Xid 31 line from the kernel log keeps the application reading
    (
        "NVRM: Xid (PCI:0000:0c:00): 31, pid=11461, Ch 00000053, intr 10000000. MMU Fault: ENGINE "
        "GRAPHICS GPCCLIENT_T1_2 faulted @ 0x0_00000000. Fault is of type FAULT_PDE ACCESS_TYPE_READ",
        "nvidia.gsp-rpc-timeout",
        "https://github.com/doitsujin/dxvk/issues/2495",
    ),
]


@pytest.mark.parametrize(("text", "not_id", "url"), LOOKALIKE, ids=[k[2] for k in LOOKALIKE])
def test_a_look_alike_message_is_not_read_as_the_cause(text, not_id, url) -> None:
    findings = triage_text(text + "\n").findings
    assert not findings or findings[0].id != not_id, url
