"""GPU hardware faults and memory (checks/signatures/{memory,nccl,nvidia_driver}.toml, and a reboot fix for "GPU is
lost" in {hardware,nvidia_driver}.toml): each common message reaches the cause its real threads confirmed,
first, with a fix naming the knob that fix turned (a batch size, the page file, /dev/shm, the GSP
firmware package, a reboot, an XLA allocator variable)."""

from __future__ import annotations

import pytest

from envdoctor.triage_engine import triage_text
from tests.triage_lines import assert_not_first

# (message verbatim from the thread, the finding id first, what one of its fixes names, thread)
KNOB = [
    (
        "RuntimeError: [enforce fail at ..\\c10\\core\\impl\\alloc_cpu.cpp:72] data. DefaultCPUAllocator: not enough memory: you tried to allocate 26214400 bytes.",
        "memory.host-ram-exhausted",
        "SystemPropertiesPerformance",
        "https://github.com/lllyasviel/Fooocus/issues/237",
    ),
    (
        "RuntimeError: [enforce fail at ..\\c10\\core\\CPUAllocator.cpp:72] data. DefaultCPUAllocator: not enough memory: you tried to allocate 113246208 bytes. Buy new RAM!",
        "memory.host-ram-exhausted",
        "batch_size",
        "https://github.com/varunagrawal/tiny-faces-pytorch/issues/12",
    ),
    (
        "RuntimeError: [enforce fail at CPUAllocator.cpp:71] . DefaultCPUAllocator: can't allocate memory: you tried to allocate 64597662208 bytes. Error code 12 (Cannot allocate memory)",
        "memory.host-ram-exhausted",
        "free -h",
        "https://github.com/devnkong/FLAG/issues/8",
    ),
    (
        "ResourceExhaustedError (see above for traceback): OOM when allocating tensor with shape[45,28,28,512]",
        "memory.out-of-memory",
        "batch_size",
        "https://github.com/hizhangp/yolo_tensorflow/issues/71",
    ),
    (
        "2017-07-20 W tensorflow/core/framework/op_kernel.cc:1158] Resource exhausted: OOM when allocating tensor with shape[2304,384]",
        "memory.out-of-memory",
        "batch_size",
        "https://github.com/tensorflow/models/issues/1993",
    ),
    (
        "ResourceExhaustedError (see above for traceback): OOM when allocating tensor with shape[1024,98,98] and type float on /job:localhost/replica:0/task:0/device:CPU:0 by allocator cpu",
        "memory.host-ram-exhausted",
        "batch_size",
        "https://github.com/Kyubyong/transformer/issues/116",
    ),
    (
        "RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`",
        "memory.out-of-memory",
        "nvidia-smi",
        "https://github.com/nerdyrodent/VQGAN-CLIP/issues/92",
    ),
    (
        "torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: -9) local_rank: 0 (pid: 14447) of binary:",
        "memory.host-ram-exhausted",
        "free -h",
        "https://github.com/AkariAsai/self-rag/issues/83",
    ),
    (
        "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -9) local_rank: 0 (pid: 5343) of binary: /root/miniconda3/bin/python",
        "memory.host-ram-exhausted",
        "free -h",
        "https://github.com/OceannTwT/ra-isf/issues/11",
    ),
    (
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 258.00 MiB (GPU 0; 23.54 GiB total capacity; 11.75 GiB already allocated; 572.50 MiB free; 12.40 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF",
        "memory.out-of-memory",
        "batch_size",
        "https://github.com/zihaosheng/VLM-RL/issues/12",
    ),
    (
        "C:\\Program Files\\NVIDIA Corporation\\NVSMI>nvidia-smi\nUnable to determine the device handle for GPU 0000:03:00.0: GPU is lost.  Reboot\n the system to recover this GPU",
        "hardware.gpu-reseat",
        "shutdown /r",
        "https://github.com/AlexeyAB/darknet/issues/86",
    ),
    (
        "Cuda Error in allocate: 2 (out of memory)",
        "memory.out-of-memory",
        "nvidia-smi",
        "https://github.com/NVIDIA/TensorRT/issues/840",
    ),
    (
        "Check failed: error == cudaSuccess (2 vs. 0)  out of memory",
        "memory.out-of-memory",
        "batch_size",
        "https://github.com/yjxiong/caffe/issues/69",
    ),
    (
        "RuntimeError: CUDA error: out of memory",
        "memory.out-of-memory",
        "batch_size",
        "https://github.com/luuuyi/RefineDet.PyTorch/issues/13",
    ),
    (
        "    output = self._norm(x.float()).type_as(x)\nRuntimeError: CUDA error: out of memory\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1.\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.",
        "memory.out-of-memory",
        "batch_size",
        "https://github.com/modelscope/ms-agent/issues/99",
    ),
    (
        "RuntimeError: CUDA out of memory. Tried to allocate 288.00 MiB (GPU 0; 2.00 GiB total capacity; 849.59 MiB already allocated; 87.44 MiB free; 326.41 MiB cached)",
        "memory.out-of-memory",
        "batch_size",
        "https://github.com/Rudrabha/Wav2Lip/issues/221",
    ),
    (
        "nvidia 0000:01:00.0: Direct firmware load for nvidia/555.58.02/gsp_tu10x.bin failed with error -2",
        "nvidia.gsp-firmware-missing",
        "firmware-nvidia-gsp",
        "https://github.com/endlessm/eos-meta/pull/811",
    ),
    (
        "perform_everything_on_device: False\n100%|#####| 12/12 [04:57<00:00, 24.79s/it]\nsending off prediction to background worker for resampling and export\ndone with hdbet-out_bet.nii.gz\nBus error (core dumped)\n(in a docker image)",
        "nccl.shm-too-small",
        "--shm-size",
        "https://github.com/MIC-DKFZ/HD-BET/issues/67",
    ),
    (
        "Error : RuntimeError: unable to write to file </torch_18693_1954506624> at /pytorch/torch/lib/TH/THAllocator.c:271",
        "nccl.shm-too-small",
        "--ipc=host",
        "https://github.com/NVIDIA/flownet2-pytorch/issues/43",
    ),
    (
        'ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).\nTraceback (most recent call last):\n  File "/usr/lib/python3.6/multiprocessing/queues.py", line 234, in _feed\n    obj = _ForkingPickler.dumps(obj)\n    fd, size = storage._share_fd_()\nRuntimeError: unable to write to file </torch_5322_303039809>',
        "nccl.shm-too-small",
        "--ipc=host",
        "https://github.com/mozilla/TTS/issues/135",
    ),
    (
        "reading file...\nlearning bpe...\nnumber of unique characters in the training data: 224\nnumber of deleted characters: 0\nnumber of unique characters left: 224\nKilled",
        "memory.host-ram-exhausted",
        "free -h",
        "https://github.com/VKCOM/YouTokenToMe/issues/71",
    ),
    (
        "Note: You are using GPU for training\n100%|##########| 3000001/3000001 [03:33<00:00, 14061.26it/s]\nKilled",
        "memory.host-ram-exhausted",
        "free -h",
        "https://github.com/castorini/hedwig/issues/70",
    ),
    (
        "(lte) root@401240707274117120-taskrole1-0:/gemini/code/lte-main# python train.py --config configs/train-div2k/train_edsr-baseline-lte.yaml --gpu 0\nconfig loaded.\nKilled",
        "memory.host-ram-exhausted",
        "free -h",
        "https://github.com/jaewon-lee-b/lte/issues/22",
    ),
    (
        "Writing metrics: /home/bzs/logdir/dreamer/20251205T175323/metrics.jsonl\nWriting metrics: /home/bzs/logdir/dreamer/20251205T175323/scores.jsonl\n已杀死",
        "memory.host-ram-exhausted",
        "free -h",
        "https://github.com/danijar/dreamerv3/issues/203",
    ),
    (
        "训练过程中途总是退出（killed），没任何错误提示",
        "memory.host-ram-exhausted",
        "free -h",
        "https://github.com/PaddlePaddle/PaddleDetection/issues/2271",
    ),
    (
        "RuntimeError: CUDA out of memory. Tried to allocate 48.00 MiB (GPU 0; 6.00 GiB total capacity; 4.58 GiB already allocated; 37.63 MiB free; 51.94 MiB cached)\n请问出现这个怎么解决呢",
        "memory.out-of-memory",
        "batch_size",
        "https://github.com/649453932/Bert-Chinese-Text-Classification-Pytorch/issues/114",
    ),
    (
        "RuntimeError: CUDA out of memory",
        "memory.out-of-memory",
        "batch_size",
        "https://github.com/gitabtion/SoftMaskedBert-PyTorch/issues/1",
    ),
    (
        "RuntimeError: CUDA error: out of memory\nI have to resize it to 6 until I can run it on my GTX 860",
        "memory.out-of-memory",
        "batch_size",
        "https://github.com/amdegroot/ssd.pytorch/issues/257",
    ),
    (
        "    predictions = jitted(\njaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 7247809568 bytes.\nBufferAssignment OOM Debugging.\nBufferAssignment stats:\n             parameter allocation:    1.81GiB\n              constant allocation:    36.0KiB\n        maybe_live_out allocation:   25.96MiB\n     preallocated temp allocation:    6.75GiB",
        "memory.out-of-memory",
        "XLA_PYTHON_CLIENT_PREALLOCATE",
        "https://github.com/google-research/scenic/issues/929",
    ),
    (
        "showing error  ( os error 1455 )\nthe paging file is too small for this operation to complete",
        "windows.pagefile-too-small",
        "SystemPropertiesPerformance",
        "https://github.com/Comfy-Org/ComfyUI/issues/7069",
    ),
    (
        "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM",
        "memory.out-of-memory",
        "batch_size",
        "https://github.com/mikevoets/jama16-retina-replication/issues/5",
    ),
    (
        'I train models "without" using docker but I meet "unexpected bus error encountered in worker, This might be caused by insufficient shared memory (shm)"',
        "nccl.shm-too-small",
        "mount -o remount",
        "https://github.com/open-mmlab/mmdetection/issues/6993",
    ),
]


@pytest.mark.parametrize(
    ("text", "finding_id", "knob", "url"), KNOB, ids=[f"{k[1]}-{i}" for i, k in enumerate(KNOB)]
)
def test_a_hardware_or_memory_message_gets_its_cause_and_the_knob(
    text, finding_id, knob, url
) -> None:
    finding = triage_text(text + "\n").findings[0]
    assert finding.id == finding_id, url
    named = [c for fix in finding.fixes for c in fix.commands] + [f.summary for f in finding.fixes]
    assert any(knob in n for n in named), (url, named)


def test_the_gsp_firmware_title_and_fix_carry_the_driver_version_of_the_path() -> None:
    text = (
        "nvidia 0000:01:00.0: Direct firmware load for nvidia/555.58.02/gsp_tu10x.bin failed "
        "with error -2\n"
    )
    finding = triage_text(text).findings[0]
    assert finding.id == "nvidia.gsp-firmware-missing"
    assert "gsp_tu10x.bin of driver 555.58.02" in finding.title
    assert "/lib/firmware/nvidia/555.58.02/" in finding.fixes[0].summary


def test_the_windows_wording_of_the_cpu_allocator_leads_with_the_page_file() -> None:
    text = (
        "RuntimeError: [enforce fail at ..\\c10\\core\\impl\\alloc_cpu.cpp:72] data. "
        "DefaultCPUAllocator: not enough memory: you tried to allocate 26214400 bytes.\n"
    )
    finding = triage_text(text).findings[0]
    assert "SystemPropertiesPerformance.exe" in finding.fixes[0].commands[0]


@pytest.mark.parametrize(
    ("text", "not_id"),
    [
        # a GSP firmware load that was interrupted (-4), the file exists: not a missing file
        # (https://github.com/NVIDIA/open-gpu-kernel-modules/issues/943, its title)
        (
            "loading /lib/firmware/nvidia/570.133.20/gsp_ga10x.bin failed with error -4",
            "nvidia.gsp-firmware-missing",
        ),
        # Caffe's error 8 is a GPU the build has no kernels for, not CUDA error 2
        # (https://github.com/weiliu89/caffe/issues/336)
        (
            "F1208 15:16:46.872542 15643 pooling_layer.cu:212] Check failed: error == cudaSuccess "
            "(8 vs. 0)  invalid device function",
            "memory.out-of-memory",
        ),
        # GPU memory (显存) told in Chinese stays GPU memory, not host RAM
        # (https://github.com/666DZY666/micronet/issues/6)
        (
            " CUDA out of memory.  我将batch size 从原来50调到5 , nvidia-smi显示显存远未用完，"
            "但是第一个epoch快完时报这个错（6G显存），batch size无论调为多少都有错",
            "memory.host-ram-exhausted",
        ),
        # PyTorch's CUDA caching allocator is GPU memory, not the CPU allocator
        # (https://github.com/zihaosheng/VLM-RL/issues/12)
        (
            "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 258.00 MiB (GPU 0; "
            "23.54 GiB total capacity; 11.75 GiB already allocated; 572.50 MiB free; 12.40 GiB "
            "reserved in total by PyTorch)",
            "memory.host-ram-exhausted",
        ),
    ],
)
def test_a_look_alike_is_not_taken_for_these_causes(text, not_id) -> None:
    assert_not_first(text + "\n", not_id, None, may_be_empty=True)
