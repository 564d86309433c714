"""GPU hardware and memory, round 19 (hwoom4): whole opening posts, English and Chinese, of
out-of-memory threads whose confirmed fix was the batch size, a smaller model, gradient
checkpointing or an application's low-VRAM setting, and of machines that reboot under a training
load that a stronger power supply or a lower power limit fixed. Each verbatim message reaches its
cause first and one of its fixes names the knob the thread's confirmed fix turned; look-alike rows
are real messages of other causes (allocator bugs around PYTORCH_CUDA_ALLOC_CONF) that the new
phrasings must not read as out of memory."""

from __future__ import annotations

import pytest
from triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # the maintainer: fit_generator takes a batch_size parameter (lower it), or run on the CPU
    (
        "用gpu训练显存爆满怎么解决，这个怎么改批次大小？？",
        "memory.out-of-memory",
        "batch size",
        "https://github.com/jayeew/Chinese-ChatBot/issues/20",
    ),
    # the maintainer (RVC-Boss): lower the inference batch size, split the text finer, or a larger GPU
    (
        '`Traceback (most recent call last):\n  File "/root/GPT-SoVITS/ttt.py", line 272, in <module>\n    pred_semantic_list, idx_list = t2s_model.model.infer_panel_batch_infer(\n  File "/root/GPT-SoVITS/GPT_SoVITS/AR/models/t2s_model.py", line 215, in decode_next_token\n    attn = F.linear(attn, self.out_w, self.out_b)\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 MiB. GPU 0 has a total capacity of 23.68 GiB of which 2.69 MiB is free. Process 951046 has 23.68 GiB memory in use. Of the allocated memory 22.52 GiB is allocated by PyTorch, and 609.17 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)`\n\n有什么好的思路来解决这个问题吗？',
        "memory.out-of-memory",
        "batch size",
        "https://github.com/RVC-Boss/GPT-SoVITS/issues/1516",
    ),
    # the maintainer: at batch size 4 the model does not fit 1080s; run the lightest version
    # (num_layers=1); the reporter: it ran after that change
    (
        "您好，我使用了4块1080并行训练，并且设置将batchsize改小为4，可每次训练显存还是会不足，根据代码可知batchsize设置为4已经是最小值，您有什么建议？",
        "memory.out-of-memory",
        "smaller model",
        "https://github.com/Rubics-Xuan/TransBTS/issues/14",
    ),
    # the maintainer (cswry): use gradient checkpointing to reduce memory
    pytest.param(
        'I get an out-of-memory error with 24GB VRAM.  \n```\npython test_osediff.py \n-i "../full dataset/upscale_banners_test" \n-o "../full dataset/upscale_banners_output" \n--osediff_path preset/models/osediff.pkl\n --pretrained_model_name_or_path preset/models/sd21base \n--ram_ft_path preset/models/dape.pth \n--ram_path preset/models/ram_swin_large_14m.pth\n```\nHow much VRAM do I need for inference?  \nDo you have any ideas for running with lower VRAM?',
        "memory.out-of-memory",
        "gradient checkpointing",
        "https://github.com/cswry/OSEDiff/issues/69",
        marks=pytest.mark.xfail(
            strict=True,
            reason="an inference post asking how much VRAM it needs reads as a model that does not"
            " fit (fair); gradient checkpointing is a training knob, so that cause does not name it",
        ),
    ),
    # the maintainer (cmdr2): a smaller image and VRAM Usage Level "low" in the Settings tab
    (
        "Im running easydiffusion on a gtx 1660 6Gb end get following error:\n\nError: CUDA out of memory. Tried to allocate 26.00 MiB (GPU 0; 6.00 GiB total capacity; 5.18 GiB already allocated; 0 bytes free; 5.29 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation. See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF\n\nwhere can I set max_split_size_mb?",
        "memory.out-of-memory",
        "VRAM Usage Level",
        "https://github.com/easydiffusion/easydiffusion/issues/1830",
    ),
    # a user: the power supply was not beefy enough, a more capable one solved it; the maintainer
    # closed the issue with that as the answer
    (
        "I have set up alphafold in my CentOS system, and I have successfully finished one structure prediction task. However, I ran another task and found that the computer reboot automatically 12 after the task started. The phenomenon  have appeared twice. \n\nDo you have any clue that why this strange thing occurs?",
        "hardware.power-insufficient",
        "power supply",
        "https://github.com/google-deepmind/alphafold/issues/317",
    ),
    # users with the same reboot: a larger PSU; meanwhile `nvidia-smi -pl 150` (power limit) held
    (
        "So I have a 100% repeatable system crash (reboot) when trying to run the imagenet example (2012 dataset). resnet18 defaults. The crash seems to happen at Variable.py at torch.autograd.backward(..) (line 158).\n\nI am able to run the basic mnist example successfully. ",
        "hardware.power-insufficient",
        "nvidia-smi -pl",
        "https://github.com/pytorch/pytorch/issues/3022",
    ),
    # the reporter's colleague: a power limit of 350 W (from 370) on the 3090 stopped the outages;
    # the opening post only says the docker container crashes: nothing in it names a power fault
    pytest.param(
        "I've been training and running inference with nnunet successfully for a few months but after some recent improvements to our server, 3d models crash the docker container right after training or inference begins. \n\nOur recent upgrade included installation of new RAM/CPU, updated nvidia drivers, and install of nvidia-runtime-patch.",
        "hardware.power-insufficient",
        "power limit",
        "https://github.com/MIC-DKFZ/nnUNet/issues/527",
        marks=pytest.mark.xfail(
            strict=True,
            reason="the opening post names a docker crash after a server upgrade, nothing of power",
        ),
    ),
]

# (message verbatim from a thread of another cause, the cause it must not be read as, thread)
LOOKALIKE = [
    # an allocator bug with expandable_segments and max_split_size_mb together, not a lack of memory
    (
        'export PYTORCH_CUDA_ALLOC_CONF="expandable_segments:True,max_split_size_mb:32"\n```\n\nThis results in the very strange error:\n```\nRuntimeError: !block->expandable_segment_ INTERNAL ASSERT FAILED at "../c10/cuda/CUDACachingAllocator.cpp":2814, please report a bug to PyTorch. \n```',
        "memory.out-of-memory",
        "https://github.com/pytorch/pytorch/issues/119452",
    ),
    # torch_memory_saver's pause ignores memory allocated with expandable segments: a tool bug
    (
        "When PYTORCH_CUDA_ALLOC_CONF set to `expandable_segments:True`, the `pause` won't work. I guess torch allcoated memory on other places, which are not tracked by region tag in sglang.",
        "memory.out-of-memory",
        "https://github.com/fzyzcjy/torch_memory_saver/issues/24",
    ),
    # allocator bug: release_block frees expandable segments with cudaFree instead of unmapping them
    (
        "`block2` is continuously allocated and allocated memory close to the upper limit triggers oom. The `release_available_cached_blocks` function is called.But using release_block in this function to release the memory is problematic.\nIn `release_block`, the `cudaFree` function is used to release the memory. The correct method is to use the `unmap` function.\n\nIn addition, I did not find in the documentation that the two environment variables cannot be shared.",
        "memory.out-of-memory",
        "https://github.com/pytorch/pytorch/issues/123548",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_this_cause = lookalike_test(LOOKALIKE)
