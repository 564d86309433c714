"""How Chinese-speaking users describe frequent GPU / ML environment problems (second wave: llama.cpp,
bitsandbytes, PaddlePaddle, Windows DLLs, conda mirrors, out of memory): the first post of a public
thread (title + first sentences + any error line, verbatim) whose fix was confirmed (the reporter
says it worked, or a maintainer states cause and fix). A report in prose reaches its confirmed cause
among the first three findings with a fix that names the knob the confirmed fix turned
(tests/triage_lines.assert_reaches); a report with a canonical error line ranks it first
(assert_first_with_knob). Look-alike rows are Chinese reports of OTHER causes that the new cue
phrasings (checks/signatures/apps.toml) could wrongly catch: the tempting cause must not
rank first."""

from __future__ import annotations

from tests.triage_lines import first_with_knob_test, lookalike_test, reach_test

LLAMACPP_LAYERS = "app.llamacpp.gpu-layers-not-set"
LLAMACPP_CPU = "app.llamacpp.cpu-build-on-gpu-host"
OOM = "memory.out-of-memory"
NOT_FIT = "memory.workload-does-not-fit"
PADDLE_IMPORT = "paddle.core-import-failed"
DLL = "windows.dll-dependency-missing"

# (first post verbatim, accepted causes, text one of the cause's fixes names, thread URL)
REACH = [
    (
        "llama.cpp 使用GPU进行量化部署\n"
        "我想请假下llama.cpp如何使用GPU进行量化部署？我看下面这张图里面是可以用GPU的。\n"
        "是在第一步这里吗？与[BLAS（或cuBLAS如果有GPU）一起编译",
        (LLAMACPP_CPU, LLAMACPP_LAYERS),
        "cublas",
        # maintainer: build with cuBLAS, then -ngl offloads layers to the GPU; reporter: understood, thanks
        "https://github.com/ymcui/Chinese-LLaMA-Alpaca/issues/490",
    ),
    (
        "在 llama.cpp 上运行 qwen1_5-14b-chat-q4_0.gguf 不能使用GPU推理\n"
        "D:\\My_Doc\\PyTorchProj\\ChatGLM\\llama.cpp>build\\bin\\Release\\main -m "
        "D:\\My_Doc\\PyTorchProj\\ChatGLM\\Models\\Qwen\\Qwen1.5-14B-Chat-GGUF\\qwen1_5-14b-chat-q4_0.gguf "
        "-n 512 --color -i -cml -f prompts/chat-with-qwen.txt",
        (LLAMACPP_LAYERS,),
        "-ngl",
        # the same reporter's llama.cpp thread (ggml-org/llama.cpp#6247): 'you forgot to include -ngl',
        # reporter: 'you solved the problem'
        "https://github.com/QwenLM/Qwen3/issues/196",
    ),
    (
        "这个模型跑起来到底要多少显存？我这里有两张40G的A100居然还爆显存",
        (OOM, NOT_FIT),
        "resolution",
        # reporter: changing the training image size from 1000x1000 to 256x256 worked
        "https://github.com/jeya-maria-jose/Medical-Transformer/issues/86",
    ),
    (
        "需要多大的显存 1080ti 爆显存了\n"
        "RuntimeError: CUDA out of memory. Tried to allocate 384.00 MiB (GPU 0; 11.00 GiB total "
        "capacity; 9.52 GiB already allocated; 124.50 MiB free; 9.54 GiB reserved in total by PyTorch)",
        (OOM,),
        "batch",
        # maintainer: lower batch_size
        "https://github.com/z814081807/DeepNER/issues/12",
    ),
    (
        "在运行gen_hard_example.py的时候显存溢出\n"
        "在运行到4900张图片的时候爆出了CUDA_ERROR_OUT_OF_MEMORY的错误，请问该怎么解决这个问题啊",
        (OOM,),
        "batch",
        # answer: the GPU cannot hold the current mini-batch size, reduce it
        "https://github.com/AITTSMD/MTCNN-Tensorflow/issues/271",
    ),
    (
        "CUDA out of memory\n"
        "当我用qwen2.5-vl的3B进行微调时，Qwen2.5-VL-main/qwen-vl-finetune/qwenvl/train  ，运行sft.sh，经常"
        "跑到一半就爆显存，是什么问题呢，有办法能解决吗",
        (OOM,),
        "max_pixels",
        # maintainer: lower max pixels; lower the batch size and raise gradient accumulation
        "https://github.com/QwenLM/Qwen3-VL/issues/1573",
    ),
    (
        "小白求教 训练模型 刚开始正常 两三秒之后就报错RuntimeError: CUDA out of memory.\n"
        "小白求教  训练模型 刚开始正常  两三秒之后就报错\n"
        "-  RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 2.00 GiB total capacity; "
        "1.02 GiB already allocated; 3.96 MiB free; 1.06 GiB reserved in total by PyTorch) If reserved "
        "memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.  See "
        "documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF\n"
        "然后便自行终止   求大神帮忙看看  怎样解决",
        (OOM, NOT_FIT),
        None,
        # answers: the card's 2 GB are too little, about 4 GB are needed (the workload does not fit)
        "https://github.com/babysor/MockingBird/issues/340",
    ),
    (
        "ImportError: DLL load failed while importing core_avx: 找不到指定的模块。\n"
        "window10下from LAC import LAC 在导入LAC的时候报这个错误\n"
        "Error: Can not import avx core while this file exists: "
        "E:\\Anaconda3\\lib\\site-packages\\paddle\\fluid\\core_avx.pyd",
        (PADDLE_IMPORT, DLL, "paddle.cpu-instruction-unsupported"),
        "Visual C++ Redistributable",
        # a user whose CPU has AVX: installing the latest VC_redist.x64 fixed the same error
        "https://github.com/baidu/lac/issues/185",
    ),
    (
        "本地装libpaddle后使用报错：找不到指定模块\n"
        "import paddlehub时报错如下：\n"
        'File "D:\\soft\\python\\lib\\site-packages\\paddle\\fluid\\core.py", line 269, in <module>\n'
        "    from . import libpaddle\n"
        "ImportError: DLL load failed while importing libpaddle: 找不到指定的模块。",
        (PADDLE_IMPORT, DLL),
        "Visual C++ Redistributable",
        # another user with the same error: installing vc_redist.x64 solved it
        "https://github.com/PaddlePaddle/PaddleFormers/issues/2284",
    ),
    (
        "paddlepaddle-gpu 安装问题？\n"
        "   cuda  : 10.1\n   cudnn：7.6.5\n   driver：430.64\n   安装paddlepaddle 2.1.0\n"
        "   测试安装是否成功时报错：\n"
        ">>> import paddle\n"
        "W0624 14:32:46.220422 23029 init.cc:136] Compiled with WITH_GPU, but no GPU found in runtime.\n"
        "/home/hejing/.local/lib/python3.6/site-packages/paddle/fluid/framework.py:298: UserWarning: You "
        "are using GPU version Paddle, but your CUDA device is not set properly. CPU device will be used "
        "by default.\n"
        "  请问是什么原因呢？",
        ("paddle.gpu-not-detected",),
        "driver",
        # maintainer: the GPU driver and the CUDA version are incompatible, upgrade the driver
        "https://github.com/PaddlePaddle/PaddleClas/issues/965",
    ),
]

# (message verbatim, the finding id first, text one of its fixes names, thread URL)
KNOB = [
    (
        "v100安装bitsandbytes0.39失败\n"
        "bitsandbytes0.38可以顺利安装\n"
        "但是装0.39后会有如下错误\n"
        "`CUDA SETUP: CUDA runtime path found: /home/hubo/miniconda3/envs/firefly/lib/libcudart.so.11.0\n"
        "CUDA SETUP: Highest compute capability among GPUs detected: 7.0\n"
        "CUDA SETUP: Detected CUDA version 113\n"
        "/home/hubo/miniconda3/envs/firefly/lib/python3.9/site-packages/bitsandbytes/cuda_setup/main.py:149: "
        "UserWarning: WARNING: Compute capability < 7.5 detected! Only slow 8-bit matmul is supported for "
        "your GPU!\n"
        "  warn(msg)\n"
        "CUDA SETUP: Required library version not found: libbitsandbytes_cuda113_nocublaslt.so. Maybe you "
        "need to compile it from source?\n"
        "CUDA SETUP: Defaulting to libbitsandbytes_cpu.so...```",
        "bitsandbytes.cuda-setup-failed",
        "pip install -U",
        # maintainer: upgrading via pip install -U bitsandbytes resolves it
        "https://github.com/bitsandbytes-foundation/bitsandbytes/issues/498",
    ),
    (
        "anaconda添加了清华大学的镜像源，但安装时经常显示网络错误\n"
        "我每次安装都会出现类似下面的代码，显示CondaHTTPError，每次要尝试好几十遍，好花好久的时间才能安装好第三方库。。。"
        "能帮我找找原因么？我记得以前安装时很快的。谢谢了\n\n"
        "C:\\Users\\Administrator>conda install -c conda-forge basemap-data-hires\n"
        "Fetching package metadata ..........\n\n"
        "CondaHTTPError: HTTP None None\n"
        "for url <None>\n\n"
        "An HTTP error occurred when trying to retrieve this URL.\n"
        "ConnectTimeout(MaxRetryError(\"HTTPSConnectionPool(host='repo.continuum.io', port\n"
        "=443): Max retries exceeded with url: /pkgs/free/win-64/repodata.json.bz2 (Cause\n"
        "d by ConnectTimeoutError(<requests.packages.urllib3.connection.VerifiedHTTPSConn\n"
        "ection object at 0x00000000051A5C88>, 'Connection to repo.continuum.io timed out\n"
        ". (connect timeout=6.1)'))\",),)",
        "python.package-index-unreachable",
        "channels",
        # mirror maintainer: it is the official channel that fails to connect, drop it (the channels
        # in .condarc); reporter: thanks
        "https://github.com/tuna/mirror-web/issues/59",
    ),
]

# (Chinese report of another cause, the cause a new cue could wrongly put first, thread URL)
LOOKALIKE = [
    (
        "WINDOWS版本的OLLAMA配置文件在哪里？？？我想把CPU运行改成GPU，我的显卡是NVIDIA A5000，DOCKER方法并没有起作用，"
        "或者我要怎么把CPU运行改成GPU运行",
        LLAMACPP_LAYERS,
        # Ollama, not llama.cpp run by hand: maintainer points to the server log (Ollama picks the GPU itself)
        "https://github.com/ollama/ollama/issues/7462",
    ),
    (
        "请问该模型推理时使用的是CPU还是GPU？\n"
        "使用默认的./main中的程序运行，过程中发现GPU没有工作（包括核心和vram都没有工作），但是生成速度已然很快，"
        "虽然我在环境中配置了cuda，但是显然并没有调用，请问如何启用cuda参与推理？",
        "bitsandbytes.windows-unsupported",
        # llama.cpp (early 2023, CPU only by design): no bitsandbytes, no Windows
        "https://github.com/ymcui/Chinese-LLaMA-Alpaca/issues/46",
    ),
    (
        "关于Anaconda镜像速度慢的问题\n"
        "我最近在 `https://mirrors.tuna.tsinghua.edu.cn/anaconda/` 下载 `anaconda`以及`conda install`的过程中，"
        "都发现速度及其慢，和不用差不多，不知道是不是除了什么问题",
        "python.package-index-unreachable",
        # a slow mirror (server maintenance), not an unreachable index: answer suggests another mirror
        "https://github.com/tuna/issues/issues/1041",
    ),
]


test_zh_report_reaches_cause_with_knob = reach_test(REACH)


test_zh_line_first_with_knob = first_with_knob_test(KNOB)


test_zh_lookalike_not_first = lookalike_test(LOOKALIKE, may_be_empty=True)
