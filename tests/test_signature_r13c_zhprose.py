"""Chinese prose reports of frequent GPU / ML environment problems (checks/signatures/{hardware,extensions}.toml
and the entries it extends): the first post of a public thread (verbatim) whose fix was confirmed
(the reporter says it worked, or a maintainer states cause and fix). Each reaches its confirmed cause
first, and one of that cause's fixes names the knob the confirmed fix turned. Look-alike rows are
Chinese reports of OTHER causes that the new cue phrasings could catch: the new cause must not rank
first."""

from __future__ import annotations

from tests.triage_lines import first_with_knob_test, lookalike_test

STARVED = "perf.gpu-starved-by-input"

# (first post verbatim, the finding id first, text one of its fixes names, thread URL)
KNOB = [
    (
        "GPU memory用掉了，但是utilization一直在2%左右，怎么办？\n"
        "网上查跟data_loader和num_workers有关，找不到相关的code，求问怎么把gpu跑满？",
        STARVED,
        "torchrun",
        # maintainer: single-process DataParallel cannot fill the GPUs, use multi-process DDP
        "https://github.com/Morizeyao/GPT2-Chinese/issues/126",
    ),
    (
        "GPU 利用率低，有什么办法改善？\n"
        "训练时的指标： \n"
        "batch_size = 960、print_batch_step=3\n"
        "epoch: [3/100], iter: 594, lr: 0.000998, loss: 5.181252, acc: 0.655729, norm_edit_dis: "
        "0.869380, reader_cost: 0.02042 s, batch_cost: 1.83910 s, samples: 2880, ips: 521.99307\n"
        "\n"
        "显卡的使用情况：\n"
        "\n"
        "请问 GPU 使用率一直在 40% 以下，这种情况怎么改善？",
        STARVED,
        "num_workers",
        # maintainer: raise num_workers in the config
        "https://github.com/PaddlePaddle/PaddleOCR/issues/4353",
    ),
    (
        "训练时GPU占用低，显存可以跑满，但是GPU利用率很低，如何多线程跑？（尝试过把num_works改成24，但是比原来更慢了）",
        STARVED,
        "Cuda",
        # reply: look at the Cuda utilisation; reporter: the Cuda graph shows 100%
        "https://github.com/svc-develop-team/so-vits-svc/issues/101",
    ),
    (
        "安装环境卡在 Building wheel for flash-attn (setup.py) 4个小时以上了~\n"
        "如题，cpu是AMD Ryzen 9 7950X 16-Core Processor。一上午都卡在这步，也没报错，最关键的是我通关htop查看"
        "cpu占用率，常年0%，占用cpu最多的进程竟然就是htop本身~ 虽然我早就知道flash-attn编译老慢了，但这种cpu动都"
        "不动的情况还是让我大吃一惊，有没有其他人和我相同情况？",
        "flashattn.not-installable",
        "https_proxy",
        # reporter: with a proxy to GitHub the wheel downloaded and the install finished
        "https://github.com/deepseek-ai/DeepSeek-OCR/issues/18",
    ),
    (
        "您好，我使用您提供配置docker的教程，但遇到：\n"
        "\n"
        "E1210 12:48:08.426810  4204 pybind.cc:1261] Cannot use GPU because there is no GPU detected on "
        "your machine.",
        "paddle.gpu-not-detected",
        "nvidia-container-toolkit",
        # maintainer: install nvidia-docker to use the GPU in the container
        "https://github.com/yeyupiaoling/PaddlePaddle-DeepSpeech/issues/6",
    ),
    (
        "运行install_torch_gpu.bat文件后，还是无法开启cuda加速\n"
        "pip install -U torch --index-url=https://download.pytorch.org/whl/cu118\n"
        "pause\n"
        "\n"
        "up我在运行这行代码后，torch依旧没有安装成功，检查发现好像是安装到系统环境中去了，这个软件好像有个单独的环境"
        "（我也不是很懂程序这块，个人猜测），于是我查了下怎么在指定环境下安装包。",
        "python.env-mismatch",
        "sys.executable",
        # reporter: installing with that environment's own python -m pip enabled the GPU
        "https://github.com/chn-lee-yumi/MaterialSearch/issues/81",
    ),
]

# (Chinese report of another cause, the new cause that must not rank first, thread URL)
LOOKALIKE = [
    (
        "您好，我使用您提供配置docker的教程，但遇到：\n"
        "\n"
        "E1210 12:48:08.426810  4204 pybind.cc:1261] Cannot use GPU because there is no GPU detected on "
        "your machine.",
        STARVED,
        "https://github.com/yeyupiaoling/PaddlePaddle-DeepSpeech/issues/6",  # no GPU in the container
    ),
    (
        "运行install_torch_gpu.bat文件后，还是无法开启cuda加速\n"
        "pip install -U torch --index-url=https://download.pytorch.org/whl/cu118\n"
        "pause\n"
        "\n"
        "up我在运行这行代码后，torch依旧没有安装成功，检查发现好像是安装到系统环境中去了，这个软件好像有个单独的环境"
        "（我也不是很懂程序这块，个人猜测），于是我查了下怎么在指定环境下安装包。",
        STARVED,
        "https://github.com/chn-lee-yumi/MaterialSearch/issues/81",  # torch went to another Python
    ),
]


test_zh_report_first_with_knob = first_with_knob_test(KNOB)


test_zh_lookalike_not_first = lookalike_test(LOOKALIKE, may_be_empty=True)
