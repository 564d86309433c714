"""Round 9 field survey (zh): Chinese reports from Chinese GitHub projects (Baichuan, PaddlePaddle,
Chinese-CLIP, MiniCPM-V, PICK, Taiyi, BELLE, HCP-Diffusion) reach their cause, and that cause's
fixes name the knob the confirmed fix turned on (the flag, env var, package or CUDA tag).

Every text is the reporter's own words from the thread named beside it (title, error lines and
the facts they gave, verbatim, cut at whole lines; no answer text). The thread confirms the fix:
the reporter says it worked, or a maintainer states cause and fix (five threads whose confirmation
was weaker, a commenter's or a link, were dropped at review). The second table holds
reports of other causes: the cause a changed cue could be tempted by must not rank first.
"""

from __future__ import annotations

OOM = ("memory.out-of-memory",)
CUDNN = ("cuda.cudnn-missing", "paddle.wheel-cuda-mismatch")
P2P = ("nccl.p2p-broken-acs-iommu",)
WIN_NCCL = ("nccl.windows-no-nccl",)
ORDINAL = ("cuda.device-ordinal-exceeds-gpu-count", "cuda.visible-devices-hide-gpus")

# (text, accepted ids, source URL, knob the fixes must name or None)
REPORTS = [
    (
        "量化部署无效\n显卡配置：4090 24G显存\n代码添加了int8量化，启动的时候还是报错现存不足\n"
        "OutOfMemoryError: CUDA out of memory. Tried to allocate 300.00 MiB (GPU 0; 23.65 GiB total "
        "capacity; 22.36 GiB already allocated; 188.56 MiB free; 22.36 GiB reserved in total by "
        "PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid "
        "fragmentation. See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF",
        OOM,
        "https://github.com/baichuan-inc/Baichuan-13B/issues/85",
        "device_map",
    ),
    (
        "Red hat 4.85nGetVersion at (/paddle/paddle/fluid/platform/dynload/cudnn.cc:63)\n"
        "说是 Can not find library: libcudnn.so. 我也查了之前几个相同问题的，我按CENTOS系统装的1.8.1 "
        "GPU版本，CUDA 10.0， CUDNN 7.6.5, 也按照之前提问的在/etc/profile 里添加了环境变量\n"
        "export CUDNN=/usr/local/cuda/lib64/libcudnn.so.7.6.5:$CUDNN\n"
        "然后激活了，可是并没有什么卵用，再次运行还是报同样错误， 请问是什么原因",
        CUDNN,
        "https://github.com/PaddlePaddle/Paddle/issues/24953",
        "LD_LIBRARY_PATH",
    ),
    (
        "paddle.get_cudnn_version()报错：code is /usr/local/cuda/lib64/libcudnn.so: cannot open "
        "shared object file: No such file or directory\n"
        "3）GPU：2080，裸机CUDA11.2和CUDNN7.6.1，\n4）系统环境：请docker容器内\n"
        "在docker市场中，找到tensorflow的镜像，通过镜像启动容器，进入容器后通过pip安装"
        "paddlepaddle-gpu==2.2。进入python终端，import paddle正常。\n"
        "W0121 11:28:26.123500   524 dynamic_loader.cc:287] The third-party dynamic library "
        "(libcudnn.so) that Paddle depends on isnot configured correctly. (error code is "
        "/usr/local/cuda/lib64/libcudnn.so: cannot open shared object file: No such file or directory)",
        CUDNN,
        "https://github.com/PaddlePaddle/Paddle/issues/39102",
        "LD_LIBRARY_PATH",
    ),
    (
        "paddle安装cudnn错误\n在ununtu20上安装paddle的develop版本，cuda是11.7版本，cudnn是8.6，在torch"
        "环境下已经测试成功，但是paddle下一直报错，错误如下：RuntimeError: (PreconditionNotMet) Cannot "
        "load cudnn shared library. Cannot invoke method cudnnGetVersion.\n"
        "  [Hint: cudnn_dso_handle should not be null.] (at "
        "/paddle/paddle/phi/backends/dynload/cudnn.cc:64)\npaddle.version.cudnn()   8.4.1\ncuda:11.7",
        CUDNN,
        "https://github.com/PaddlePaddle/Paddle/issues/51127",
        "LD_LIBRARY_PATH",
    ),
    (
        "windows单机单卡训练报错RuntimeError: Distributed package doesn't have NCCL built in\n"
        "RuntimeError: Distributed package doesn't have NCCL built in",
        WIN_NCCL,
        "https://github.com/OFA-Sys/Chinese-CLIP/issues/279",
        "gloo",
    ),
    (
        "RuntimeError: Distributed package doesn't have NCCL bulit in\n"
        "貌似windows下没法进行训练，还是有解决的解决方案？",
        WIN_NCCL,
        "https://github.com/IrisRainbowNeko/HCP-Diffusion/issues/28",
        None,
    ),
    (
        "3*4090全量微调报错，请教是否参数问题？\nrun finetune_ds.sh。\n"
        "[rank1]:     raise NotImplementedError(\n[rank1]: NotImplementedError: Using RTX 4000 series "
        "doesn't support faster communication broadband via P2P or IB. Please set "
        '`NCCL_P2P_DISABLE="1"` and `NCCL_IB_DISABLE="1" or use `accelerate launch` which will do '
        "this automatically.",
        P2P,
        "https://github.com/OpenBMB/MiniCPM-V/issues/325",
        "NCCL_P2P_DISABLE",
    ),
    (
        "RuntimeError: cuda runtime error (101) : invalid device ordinal at "
        "/pytorch/torch/csrc/cuda/Module.cpp:59咋处理？\n照着readme用的\n"
        "CUDA_VISIBLE_DEVICES=1,2 python -m torch.distributed.launch --nnode=1 --node_rank=0 "
        "--nproc_per_node=4 \\\n--master_addr=127.0.0.1 --master_port=5555 \\\n"
        "train.py -c config.json --local_world_size 2\n报标题错误",
        ORDINAL,
        "https://github.com/wenwenyu/PICK-pytorch/issues/14",
        "nproc_per_node",
    ),
    (
        "运行报错，在哪里修改占用显卡的个数呢？\nRuntimeError: CUDA error: invalid device ordinal\n"
        "CUDA kernel errors might be asynchronously reported at some other API call, so the "
        "stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1.",
        ORDINAL,
        "https://github.com/IDEA-CCNL/Taiyi-Diffusion-XL/issues/3",
        "num_processes",
    ),
    (
        "RuntimeError: CUDA error: invalid device ordinal\n怎么解决。。。是在单机多卡跑",
        ORDINAL,
        "https://github.com/LianjiaTech/BELLE/issues/197",
        None,
    ),
]


# (text, the cause a cue could wrongly rank first, source URL)
OTHER_CAUSES = [
    (
        "模型INT4量化被Killed\n服务器内存有128G，打算部署在两张A6000-48g上，使用convert_tp.py量化为"
        "INT4模型时内存不够了，至少需要多少内存，或者有其它方法减少内存进行模型转换吗？",
        "memory.out-of-memory",
        "https://github.com/zai-org/GLM-130B/issues/137",
    ),
    (
        "GLM4-9B，量化int4运行，显存占用与不用int4一样\nGLM4-9B，int4运行，显存占用与不用int4一样，"
        "似乎量化并没有起作用。\nThe `load_in_4bit` and `load_in_8bit` arguments are deprecated and "
        "will be removed in the future versions. Please, pass a `BitsAndBytesConfig` object in "
        "`quantization_config` argument instead.\n"
        "Loading checkpoint shards: 100%|███████████████| 10/10 [00:06<00:00,  1.53it/s]",
        "memory.out-of-memory",
        "https://github.com/xorbitsai/inference/issues/1768",
    ),
    (
        "Windows 提示Distributed package doesn't have NCCL \"Distributed package doesn't have NCCL "
        "built in\n是不是Windows不能用NCCL的backend呢？如果是这样，请问Windows 想用多GPU怎么解决呢？",
        "nccl.p2p-broken-acs-iommu",
        "https://github.com/tczhangzhi/pytorch-distributed/issues/15",
    ),
    (
        "3*4090全量微调报错，请教是否参数问题？\n[rank1]: NotImplementedError: Using RTX 4000 series "
        "doesn't support faster communication broadband via P2P or IB. Please set "
        '`NCCL_P2P_DISABLE="1"` and `NCCL_IB_DISABLE="1" or use `accelerate launch` which will do '
        "this automatically.",
        "nccl.windows-no-nccl",
        "https://github.com/OpenBMB/MiniCPM-V/issues/325",
    ),
    (
        "运行报错，在哪里修改占用显卡的个数呢？\nRuntimeError: CUDA error: invalid device ordinal",
        "cuda.visible-devices-hide-gpus",
        "https://github.com/IDEA-CCNL/Taiyi-Diffusion-XL/issues/3",
    ),
    (
        "说是 Can not find library: libcudnn.so. 我按CENTOS系统装的1.8.1 GPU版本，CUDA 10.0， "
        "CUDNN 7.6.5, 也按照之前提问的在/etc/profile 里添加了环境变量",
        "paddle.cpu-package-installed",
        "https://github.com/PaddlePaddle/Paddle/issues/24953",
    ),
    (
        "安装问题\n使用pip安装1.7.1版本时，ubuntu16.04系统，cuda10.1，cudnn7.6.5版本，"
        "paddle.fluid.install_check.run_check()报错：Error: Cannot load cudnn shared library. Cannot "
        "invoke method cudnnGetVersion at",
        "paddle.cpu-package-installed",
        "https://github.com/PaddlePaddle/Paddle/issues/24728",
    ),
    (
        "[BUG/Help] <title> 用int4量化微调，12G显存仍然不够\n--model_name_or_path "
        "D:\\hzt\\pycodes\\ChatGLM2-6B\\chatglm2-6b-int4 ^\n--per_device_train_batch_size 1 ^\n"
        "--pre_seq_len 128 ^\n--quantization_bit 4 ^",
        "memory.host-ram-exhausted",
        "https://github.com/zai-org/ChatGLM2-6B/issues/447",
    ),
]

# the shared names tests/test_field_fixes.py reads
REPORTS_ROWS = REPORTS
OTHER_ROWS = OTHER_CAUSES
MAY_BE_EMPTY = True
