"""Round 9 field survey (cluster_cloud): do the fixes name what the real fix turned on, for
multi-GPU and distributed launch (torchrun / torch.distributed / DeepSpeed: nproc_per_node larger
than the GPUs, hangs at init, MASTER_PORT in use, Docker shared memory for DataLoader workers and
NCCL), Windows rendezvous without libuv, MIG slices and notebooks?

Every text below is the reporter's own words (an error line and the facts they gave, verbatim,
cut only at whole lines, with no answer text) from the public GitHub thread named beside it, where
the fix was confirmed (the reporter said it worked, or a maintainer stated cause and fix). None of
them comes from the triage corpus. The expected finding must be among the first three findings
of `triage_text(text)`, and its fixes must name the knob the confirmed fix turned on (the env var,
launch flag or Docker option). The second table holds reports whose cause is something ELSE: the
cause a changed cue could be tempted by must not rank first.
"""

from __future__ import annotations

P2P = ("nccl.p2p-broken-acs-iommu",)
SHM = ("nccl.shm-too-small",)
ORD = ("cuda.device-ordinal-exceeds-gpu-count",)
PORT = ("nccl.master-port-in-use",)
LIBUV = ("torch.distributed-libuv-windows",)
MIG = ("nvidia.mig-device-selection",)
CVD = ("cuda.visible-devices-hide-gpus", "cuda.visible-devices-renumbered")

# (text, accepted ids, source URL, knob the fixes must name)
FIELD = [
    (
        "Multi-GPU training hangs\nWhen I start multi gpu training. I run the following command.\npython -m torch.distributed.launch --nproc_per_node=2 train.py --split eigen_zhou --learning_rate 1e-4 --height 320 --width 1024 --scheduler_step_size 14  --batch_size 2  --model_name mono_model --png --data_path ../4_monodepth2/data/KITTI/ --num_epochs 40 --log_dir weights_logs\n\nIf I set **--nproc_per_node=1**, then it runs alright on single GPU, but if I set **--nproc_per_node=2**, then it just prints the comments before it initializes distributed training but after that, it just stucks. \nFrom nvidia-smi, I can see the GPUs are 100% occupied, but training does not start (weight_logs also does not get created)",
        P2P,
        "https://github.com/brandleyzhou/DIFFNet/issues/10",
        "NCCL_P2P_DISABLE",
    ),
    (
        "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).\nI'm getting `ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).` when trying to launch this after following the steps on your README. \n\nMy setup is [this docker image](https://gitlab.com/nvidia/container-images/cuda/blob/master/dist/ubuntu18.04/10.1/devel/cudnn7/Dockerfile) ran with `docker run --gpus all -it --ipc=host nvidia/cuda:10.1-cudnn7-devel /bin/bash`. Host operating system is Ubuntu 18.04. 128 GB of RAM and an NVIDIA RTX 2080 Ti.",
        SHM,
        "https://github.com/microsoft/RepPoints/issues/18",
        "ipc=host",
    ),
    (
        "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).",
        SHM,
        "https://github.com/nianticlabs/simplerecon/issues/3",
        "shm-size",
    ),
    (
        'invalid device ordinal\nI use 3 GPUs to train it. But the error occurs. Do you have any solution?\n\nRuntimeError: cuda runtime error (10) : invalid device ordinal at /pytorch/torch/csrc/cuda/Module.cpp:33\nTHCudaCheck FAIL file=/pytorch/torch/csrc/cuda/Module.cpp line=33 error=10 : invalid device ordinal\nTraceback (most recent call last):\n  File "tools/train.py", line 289, in <module>\n    main()\n  File "tools/train.py", line 98, in main\n    torch.cuda.set_device(args.local_rank)',
        ORD,
        "https://github.com/HRNet/HRNet-Semantic-Segmentation/issues/171",
        "nproc_per_node",
    ),
    (
        "CUDA error: invalid device ordinal in train.py\ntorchrun --standalone --nproc_per_node=8 train.py \n    --outdir=training-runs \\\n    --data=datasets/cifar10-32x32.zip \n    --cond=1 \n    --arch=ddpmpp\n    \n    while running this script it gives me CUDA error: invalid device ordinal. \n    I have checked the compatibality of versions too.",
        ORD,
        "https://github.com/yunqing-me/WatermarkDM/issues/8",
        "nproc_per_node",
    ),
    (
        'invalid device ordinal\nwhen i test your code with the commend:\n"python -m runx.runx scripts/eval_cityscapes.yml -i"\n\ni got the error:\n"THCudaCheck FAIL file=/opt/conda/conda-bld/pytorch_1595629403081/work/torch/csrc/cuda/Module.cpp line=59 error=101 : invalid device ordinal"',
        ORD,
        "https://github.com/NVIDIA/semantic-segmentation/issues/68",
        "nproc_per_node",
    ),
    (
        "RuntimeError: Address already in use\n执行中报错：RuntimeError: Address already in use",
        PORT,
        "https://github.com/thu-coai/CDial-GPT/issues/103",
        "master_port",
    ),
    (
        'RuntimeError: Address already in use\nI am running distributed pertaining script. And got problem as shown. Any suggestions? thanks.\n\nMy config:\nMASTER_ADDR=localhost\nMASTER_PORT=8514\nNNODES=1\nNODE_RANK=0\nWORLD_SIZE=$(($GPUS_PER_NODE*$NNODES))\n\nFile "/megatron/initialize.py", line 181, in _initialize_distributed\ntorch.distributed.init_process_group(\nstore = TCPStore(result.hostname, result.port, world_size, start_daemon, timeout)\nRuntimeError: Address already in use',
        PORT,
        "https://github.com/NVIDIA/Megatron-LM/issues/343",
        "MASTER_PORT",
    ),
    (
        "Struk during training on multi-GPUs with deepspeed, but work with single GPU\nDuring the training with the offical LLaVA code (https://github.com/haotian-liu/LLaVA), it stucks with multi-GPUs (2 or 4 A6000), but works with a single GPU.\n- PyTorch version (GPU?): 2.0.1+cu117 (True)\ntried to run the following code, stuck with backend `nccl`, but works with `gloo`",
        P2P,
        "https://github.com/huggingface/transformers/issues/28280",
        "NCCL_P2P_DISABLE",
    ),
    (
        'PyTorch defaults to using libuv but is built without support for it on Windows\n  File "C:\\hostedtoolcache\\windows\\Python\\3.12.7\\x64\\Lib\\site-packages\\torch\\distributed\\rendezvous.py", line 189, in _create_c10d_store\n    return TCPStore(\nRuntimeError: use_libuv was requested but PyTorch was build without libuv support\nPyTorch 2.5',
        LIBUV,
        "https://github.com/pytorch/pytorch/issues/139990",
        "USE_LIBUV=0",
    ),
    (
        "Help with CUDA error: invalid device ordinal\nI'm encountering an error in my code that says \"RuntimeError: CUDA error: invalid device ordinal\nCUDA kernel errors might be asynchronously reported at some other API call,so the stacktrace below might be incorrect.\n\". I've checked that I have a compatible GPU and that it is properly installed on my machine, and I've installed the correct version of CUDA and the NVIDIA driver.",
        ORD,
        "https://github.com/tatsu-lab/stanford_alpaca/issues/67",
        "nproc_per_node",
    ),
    (
        '[BUG]: Dreambooth startup fails with "CUDA error: invalid device ordinal"',
        ORD,
        "https://github.com/hpcaitech/ColossalAI/issues/2439",
        "nproc_per_node",
    ),
    (
        'Invalid device ordinal\nusing device: cuda:3\nusing device: cuda:1\nusing device: cuda:2\nW1226 16:52:43.205000 7 site-packages/torch/distributed/elastic/multiprocessing/api.py:897] Sending process 74 closing signal SIGTERM\nE1226 16:52:45.454000 7 site-packages/torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 7 (pid: 81) of binary: /usr/local/bin/python\nTraceback (most recent call last):\n  File "/usr/local/bin/torchrun", line 8, in <module>',
        ORD,
        "https://github.com/KellerJordan/modded-nanogpt/issues/61",
        "nproc_per_node",
    ),
    (
        "Runtime Error: No CUDA GPUs are avialable (even when GPU runtime is selected)\n----> 9 images = torch.from_numpy(images).to(torch.float32).permute(0, 3, 1, 2).cuda()\n\n/usr/local/lib/python3.7/dist-packages/torch/cuda/__init__.py in _lazy_init()\n--> 170         torch._C._cuda_init()\n\nRuntimeError: No CUDA GPUs are available\n\nThis happened after running the line:\nimages = torch.from_numpy(images).to(torch.float32).permute(0, 3, 1, 2).cuda()\n\nin rainbow_dalle.ipynb colab.",
        CVD,
        "https://github.com/lucidrains/DALLE-pytorch/issues/111",
        "CUDA_VISIBLE_DEVICES",
    ),
    (
        "Torch.cudaa.device_count() shows only one gpu in MIG A100\nHi, I have an a100 machine and the configuration for MIG is following.\nand `torch.cuda.device_count()` shows only one gpu. How could I solve it?\ntorch is 1.13.1",
        MIG,
        "https://github.com/pytorch/pytorch/issues/102715",
        "CUDA_VISIBLE_DEVICES=MIG-",
    ),
]

# (text, the cause a changed cue could wrongly lead with, source URL)
OTHER_CAUSE = [
    (
        "RuntimeError: Distributed package doesn't have NCCL built in\nHello, I am trying to test/train a model and I get the error \"RuntimeError: Distributed package doesn't have NCCL built in\". I am training on Windows with one GPU using torch1.11.0+cu113.\nNOTE: Redirects are currently not supported in Windows or MacOs.\n[W C:\\actions-runner\\_work\\pytorch\\pytorch\\builder\\windows\\pytorch\\torch\\csrc\\distributed\\c10d\\socket.cpp:558] [c10d] The client socket has failed to connect to [DESKTOP-7BNNAUJ]:29995 (system error: \n10049 - The requested address is not valid in its context.).",
        "torch.distributed-libuv-windows",
        "https://github.com/kennymckormick/pyskl/issues/79",
    ),
    (
        "[Windows]: RuntimeError: Distributed package doesn't have NCCL built in\nUnder Windows I get the error message: RuntimeError: Distributed package doesn't have NCCL built in\n  File \"C:\\Users\\frank\\anaconda3\\envs\\dreambooth\\lib\\site-packages\\pytorch_lightning\\trainer\\trainer.py\", line 740, in fit",
        "torch.distributed-libuv-windows",
        "https://github.com/XavierXiao/Dreambooth-Stable-Diffusion/issues/65",
    ),
    (
        'Multi-gpu training error\nIs multi-gpu training supported on Windows? I can train with 1 GPU but trying multiple devices leads to "RuntimeError: Distributed package doesn\'t have NCCL built in". Tried setting the environment variable `PL_TORCH_DISTRIBUTED_BACKEND=gloo` but that does not help either.\nInitializing distributed: GLOBAL_RANK: 0, MEMBER: 1/2\n[W C:\\actions-runner\\_work\\pytorch\\pytorch\\builder\\windows\\pytorch\\torch\\csrc\\distributed\\c10d\\socket.cpp:601] [c10d] The client socket has failed to connect to [t2]:58152 (system error: 10049 - The requested address is not valid in its context.).',
        "torch.distributed-libuv-windows",
        "https://github.com/torchgeo/torchgeo/issues/1198",
    ),
    (
        'RuntimeError: DataLoader worker is killed by signal: Killed.\n  File "/usr/local/lib/python3.5/dist-packages/torch/utils/data/dataloader.py", line 178, in handler\n    _error_if_any_worker_fails()\nRuntimeError: DataLoader worker (pid 4161) is killed by signal: Killed.\nPyTorch version: 0.4.0',
        "nccl.shm-too-small",
        "https://github.com/pytorch/pytorch/issues/8976",
    ),
    (
        "CUDA_VISIBLE_DEVICES environment variable not passed in to Docker containers\nWhen NOT using containers the environment variables are set:\nsrun --partition=big --gres=gpu:2 printenv | grep CUDA_VISIBLE_DEVICES\nCUDA_VISIBLE_DEVICES=2,3\nbut when using a docker container e.g. Caffe, the same command does not show the environment variable:\nI've also tested using the `deviceQuery` from the CUDA sample code and it shows that 8 devices are detected instead of just the 2 that was requested.",
        "cuda.device-ordinal-exceeds-gpu-count",
        "https://github.com/jade-hpc-gpu/jade-hpc-gpu.github.io/issues/13",
    ),
    (
        "RendezvousConnectionError when use C10d on multi nodes\n[E socket.cpp:860] [c10d] The client socket has timed out after 60s while trying to connect to 192.0.0.1:1234\ntorch.distributed.elastic.rendezvous.api.RendezvousConnectionError: The connection to the C10d store has failed. See inner exception for details.",
        "torch.distributed-libuv-windows",
        "https://github.com/pytorch/pytorch/issues/69197",
    ),
    (
        'cuda.device_count() == 0 when in MIG mode\n`torch.cuda.device_count()` returns `0`, when used on an A100 in MIG-Mode:\nCUDA_VISIBLE_DEVICES=MIG-feee0c61-26ec-5616-bb59-b6d777cc4f34 ipython\nIn [7]: torch.cuda.device_count()\nOut[7]: 0\nHowever, `Tensor.to("cuda")` still works as expected:\n`torch.cuda.device_count()` works as expected on `torch==1.12.1`\nNvidia driver version: 515.86.01',
        "nvidia.mig-device-selection",
        "https://github.com/pytorch/pytorch/issues/95784",
    ),
    (
        'mig config failed\ni have two A30 gpu\nif i config with below, it will success\nversion: v1\nmig-configs:\n  node1:\n  - devices:\n    - 0\n    mig-enabled: true\n    mig-devices:\n      1g.6gb: 4\nbut if i config with below, it will failed\n  - devices:\n    - 1\ntime="2024-12-31T06:44:08Z" level=debug msg="Walking MigConfig for (devices=[1])"',
        "nvidia.mig-device-selection",
        "https://github.com/NVIDIA/mig-parted/issues/157",
    ),
    (
        'Torchrun / torch.distributed.run throws RendezvousConnectionError / DistNetworkError (Connection reset by peer)\nI have the main_machine started with rdzv server (I can see the port binding), but the worker node encounters a "Connection reset by peer" error as soon as it tries to connect to rdzv server. There are no firewall rules, no hostname resolution issues.\npython3 -m torch.distributed.run --rdzv_backend=c10d --rdzv_endpoint=maindumbmachine:29400 --rdzv_id=1 --nnodes=2 --nproc_per_node=1 --rdzv_conf timeout=20 --monitor_interval 3 echo.py',
        "torch.distributed-libuv-windows",
        "https://github.com/pytorch/pytorch/issues/128970",
    ),
    (
        "多机多卡集群训练RendezvousTimeoutError()\nWARNING:torch.distributed.elastic.rendezvous.dynamic_rendezvous:The node '38049eef641b_3140_0' has failed to shutdown the rendezvous '304504801270300669882724678499925037384' due to an error of type RendezvousConnectionError.\nRuntimeError: Connection reset by peer",
        "torch.distributed-libuv-windows",
        "https://github.com/ymcui/Chinese-LLaMA-Alpaca-2/issues/274",
    ),
]

# the shared names tests/test_field_fixes.py reads
REPORTS_ROWS = FIELD
OTHER_ROWS = OTHER_CAUSE
MAY_BE_EMPTY = True
