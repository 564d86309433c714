"""Out-of-memory reports from applications, round 17 (checks/signatures/memory.toml): a model load
the kernel killed for lack of RAM ("Loading checkpoint shards ... Killed") and ComfyUI's
"Allocation on device" out-of-memory. Each verbatim message reaches its cause first and one of
its fixes names the knob the thread's fix turned; look-alike rows are real messages of other
causes that the new phrasings must not read as theirs."""

from __future__ import annotations

from triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # generate.py killed while loading shards: more RAM (16 GB -> 32 GB) solved it (reporter closed as resolved)
    (
        "Generate.py fails on `Loading checkpoint shards: 52%` with message `killed`.",
        "memory.host-ram-exhausted",
        "RAM",
        "https://github.com/tloen/alpaca-lora/issues/546",
    ),
    # the maintainer: killed by insufficient system memory
    (
        "Loading checkpoint shards:   0%|                                                                                                                              | 0/2 [00:00<?, ?it/s]Killed\nkilled",
        "memory.host-ram-exhausted",
        "RAM",
        "https://github.com/PKU-YuanGroup/Video-LLaVA/issues/13",
    ),
    # a commenter: the VM had too little memory; after adding memory it worked (已解决 ... 增加内存后已正常)
    (
        "我在python web_demo.py时 出现 \nLoading checkpoint shards:   0% 。。。。。.\nKilled ",
        "memory.host-ram-exhausted",
        "RAM",
        "https://github.com/zai-org/ChatGLM-6B/issues/193",
    ),
    # loaded into RAM and killed at 0%: the app's low-memory (8-bit) load (low_resource: True) ran it (reporter)
    (
        "Loading checkpoint shards gets killed at 0%\nAfter debugging, I found out that the model is being load into ram not gpu memory despite having gpu memory.",
        "memory.host-ram-exhausted",
        "8-bit",
        "https://github.com/wenhaochai/MovieChat/issues/21",
    ),
    # merging LoRA weights: the reporter confirmed it was RAM (16 GB is not enough; 32 GB)
    (
        "DefaultCPUAllocator: can't allocate memory",
        "memory.host-ram-exhausted",
        "RAM",
        "https://github.com/ymcui/Chinese-LLaMA-Alpaca/issues/18",
    ),
    # Windows: "Increasing virtual memory on windows fixed this issue for me." (commenter)
    (
        "Extend: RuntimeError: [enforce fail at C:\\cb\\pytorch_1000000000000\\work\\c10\\core\\impl\\alloc_cpu.cpp:81] data. DefaultCPUAllocator: not enough memory: you tried to allocate 151781376 bytes.",
        "memory.host-ram-exhausted",
        "page file",
        "https://github.com/easydiffusion/easydiffusion/issues/289",
    ),
    # YOLOv8 training: batch 120 -> 100 runs (reporter, after the maintainer's "reduce batch size")
    (
        "During the training, there was no problem with the first few epoch, but suddenly OOM happened.",
        "memory.out-of-memory",
        "batch size",
        "https://github.com/ultralytics/ultralytics/issues/467",
    ),
    # LoRA on a 40 GB A100: the maintainer's fix is gradient checkpointing (enable_gradit_checkpoing), issue closed
    (
        "用A100 单卡40G lora 微调4B的模型报OOM，辛苦帮忙看看是什么原因呀",
        "memory.out-of-memory",
        "gradient checkpointing",
        "https://github.com/yafo-ai/y-trainer/issues/11",
    ),
    # ComfyUI upscaling OOM: "--disable-smart-memory --novram --reserve-vram 1.75" got it working (commenter)
    (
        "Just to add to the original report, regardless of 1 or 2 phases of getting the same resolution I am getting OOM. End resulting resolution is 480x736 and this is crashing comfy.",
        "memory.out-of-memory",
        "--novram",
        "https://github.com/chengzeyi/Comfy-WaveSpeed/issues/45",
    ),
]

# ComfyUI's "Allocation on device" out-of-memory (the cudaMallocAsync allocator): the message states
# the cause ("(out of memory)", torch.OutOfMemoryError); the one similar-case guess read it as a
# CPU-only torch build. The fixes name ComfyUI's low-VRAM flags.
CAUSE = [
    (
        "Error occurred when executing KSamplerAdvanced:\n\nAllocation on device 0 would exceed allowed memory. (out of memory)\nCurrently allocated : 5.30 GiB\nRequested : 1.12 MiB\nDevice limit : 6.00 GiB\nFree (according to CUDA): 0 bytes\nPyTorch limit (set by user-supplied memory fraction)\n: 17179869184.00 GiB",
        "memory.out-of-memory",
        "--lowvram",
        "https://github.com/Comfy-Org/ComfyUI/issues/1443",
    ),
    (
        "2024-12-16 17:10:56,767 - root - ERROR - !!! Exception during processing !!! Allocation on device ",
        "memory.out-of-memory",
        "--reserve-vram",
        "https://github.com/Comfy-Org/ComfyUI/issues/6073",
    ),
]

# (message verbatim from a thread of another cause, the cause it must not be read as, thread)
LOOKALIKE = [
    # GPU memory (a smaller / distil model fixed it), not the machine's RAM
    (
        "CUDA out of memory. Tried to allocate 60.00 MiB. GPU 0 has a total capacty of 11.00 GiB of which 4.48 GiB is free. Of the allocated memory 5.19 GiB is allocated by PyTorch, and 283.84 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF",
        "memory.host-ram-exhausted",
        "https://github.com/Vaibhavs10/insanely-fast-whisper/issues/162",
    ),
    # under WSL the kill is WSL's memory cap, which has its own cause
    (
        "主机32G，显卡24G，使用windows 的wsl ，torch没问题，但是运行起来会因为主机内存不足被kill，这个还是因为显卡不能被使用吗",
        "memory.host-ram-exhausted",
        "https://github.com/eosphoros-ai/DB-GPT/issues/63",
    ),
    # faster-whisper's CTranslate2 out of memory: the model does not fit (smaller model / compute type), not RAM
    (
        "RuntimeError: CUDA failed with error out of memory",
        "memory.host-ram-exhausted",
        "https://github.com/Purfview/whisper-standalone-win/issues/141",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB + CAUSE)


test_lookalike_is_not_read_as_this_cause = lookalike_test(LOOKALIKE)
