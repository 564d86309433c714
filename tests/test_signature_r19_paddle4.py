"""Round 19 sweep of PaddlePaddle environment messages (checks/signatures/jetson.toml): Paddle
cannot open the unversioned libcudnn.so (run_check / PaddleOCR training), paddlepaddle-gpu on a
Jetson asked in prose (no PyPI wheel: Paddle Inference's aarch64 JetPack wheels), Paddle's "CUDA
driver version is insufficient" when the default wheel's CUDA is newer than the driver, and an
RTX 30 GPU under a CUDA 10.2 Paddle image (no kernel image). Each message, verbatim from its
thread's opening post, reaches the cause the thread confirmed first, and one of that cause's fixes
names the knob the confirmed fix turned; look-alike rows are real messages of other causes that
the new phrasings must not read as theirs."""

from __future__ import annotations

from triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # the reporter: export LD_LIBRARY_PATH=<the conda env's lib>:$LD_LIBRARY_PATH fixed it
    (
        "The third-party dynamic library (libcudnn.so) that Paddle depends on is not configured correctly.(error code is /usr/local/cuda/lib64/libcudnn.so: cannot open shared object file: No such file or direc\n运行train.py 第74行exe.run(startup_program)时，出现这个错误，请教下该怎么解决呢?",
        "cuda.cudnn-missing",
        "LD_LIBRARY_PATH",
        "https://github.com/PaddlePaddle/PaddleOCR/issues/1304",
    ),
    # the reporter: after export LD_LIBRARY_PATH='<conda env>/lib/' the libcudnn.so error was gone
    (
        "运行paddle.utils.run_check() 出现如下问题\n\npaddle.utils.run_check()\nRunning verify PaddlePaddle program ... \nW1215 14:25:46.643707 14556 gpu_resources.cc:61] Please NOTE: device: 0, GPU Compute Capability: 7.5, Driver API Version: 11.7, Runtime API Version: 11.7\nW1215 14:25:46.644002 14556 dynamic_loader.cc:307] The third-party dynamic library (libcudnn.so) that Paddle depends on is not configured correctly. (error code is /usr/local/cuda/lib64/libcudnn.so: cannot open shared object file: No such file or directory)\n  Suggestions:\n  1. Check if the third-party dynamic library (e.g. CUDA, CUDNN) is installed correctly and its version is matched with paddlepaddle you installed.\n  2. Configure third-party dynamic library environment variables as follows:\n  - Linux: set LD_LIBRARY_PATH by `export LD_LIBRARY_PATH=...`\n  - Windows: set PATH by `set PATH=XXX;",
        "cuda.cudnn-missing",
        "LD_LIBRARY_PATH",
        "https://github.com/PaddlePaddle/Paddle/issues/49106",
    ),
    # the reporter: "Solved": the Jetson wheels are on Paddle Inference's download page (download_lib)
    (
        "Jetson Deployment for PaddleOCR CANT FIND .WHL\nhttps://github.com/PaddlePaddle/PaddleOCR/tree/release/2.6/deploy/Jetson\nIn the paddle ocr jetson deploy tutorial, there is a link to download paddlepaddle_gpu-2.3.0rc0-cp36-cp36m-linux_aarch64.whl., but i cant find the file to download there.\n\nWhere can i find paddlepaddle_gpu-2.3.0rc0-cp36-cp36m-linux_aarch64.whl.?",
        "jetson.pypi-wheel",
        "download_lib",
        "https://github.com/PaddlePaddle/PaddleOCR/issues/8326",
    ),
    # the maintainer (closed): on a Jetson the whl package must be downloaded by hand and installed
    (
        "在英伟达的jetson NX上安装Paddlepaddle遇到的问题\n问题图片描述：(pip 安装)\n\nPaddlePaddle：最新\nCPU：NVIDIA Carmel ARM v8.2\nGPU：NVIDIA Volta GPU\ncuda：10.2\npython: 3.6.9\n操作系统：ubuntu 18.04",
        "jetson.pypi-wheel",
        "linux_aarch64.whl",
        "https://github.com/PaddlePaddle/Paddle/issues/31472",
    ),
    # a user: 1.5.1 defaults to CUDA 10, install paddlepaddle-gpu==1.5.1post97; another: "楼上正解"
    (
        "paddle 报错：\npaddle.fluid.core_avx.EnforceNotMet: cudaGetDeviceCount failed in paddle::platform::GetCUDADeviceCount: CUDA driver version is insufficient for CUDA runtime version at [/paddle/paddle/fluid/platform/gpu_info.cc:97] \n\n请问paddle 1.5.1 支持的cuda 和driver版本是什么",
        "cuda.toolkit-newer-than-driver",
        "paddlepaddle-gpu",
        "https://github.com/PaddlePaddle/Paddle/issues/19718",
    ),
    # the reporter: upgrading the driver and moving to the CUDA 11.2 docker image fixed inference
    (
        "多卡/单卡OCR训练错误： no kernel image is available for execution on the device\n环境：\n使用dockerhub安装：镜像[2.4.2-gpu-cuda10.2-cudnn7.6-trt7.0]\npaddleocr是2.6\n报错情况：\n使用3090显卡2和3训练PP-OCRv3，报错：",
        "paddle.gpu-too-new-for-build",
        "CUDA 11",
        "https://github.com/PaddlePaddle/PaddleOCR/issues/9247",
    ),
]

# (message verbatim from a thread of another cause, the cause it must not be read as, thread)
LOOKALIKE = [
    # the official Jetson wheel is installed already (the crash on import was numpy's): not a
    # question of where the wheel is
    (
        "- 版本、环境信息：\n    1）PaddlePaddle版本：Paddlepaddle2.0.0-gpu（直接安装官方编译好的whl）\n    2）系统环境：NVIDIA Jetson AGX Xavier JetPack4.3 Ubuntu18.04、Python3.6.9\n\n- 安装方式信息：\n1）pip安装官方whl\n\n- 复现信息：如为报错，请给出复现环境、复现步骤",
        "jetson.pypi-wheel",
        "https://github.com/PaddlePaddle/Paddle/issues/31856",
    ),
    # a Jetson TX2 image built by hand, CUDA installed, no Paddle at all: not the Paddle wheel entry
    # (whose `all` pattern the engine once skipped for an entry without canonical lines)
    (
        "I have been working on creating a custom image for my Jetson TX2.  I have been able to compile my own CUDA code and the samples.  I am not sure what I am missing in my image but when I run the deviceQuery sample I just get a cudaGetDeviceCount return 35 error.  I have seen this issue on x86 when the nvidia-uvm and nvidia-uvm-tools devices don't exist but the Jetson doesn't seem to have that.  I am installing the following CUDA pacakges into my image:",
        "jetson.pypi-wheel",
        "https://github.com/OE4T/meta-tegra/issues/95",
    ),
    # an x86 Ubuntu server with a 2080 Ti: GPU not found at runtime, not a Jetson wheel
    (
        "安装环境信息：ubuntu16.04，cuda10.0，cudnn7.6.5，显卡驱动版本410.18，安装的paddle版本2.0.2或2.1.0，显卡是2080ti，多卡，pip离线安装，python版本3.8.5，anaconda环境；\n进入python环境后，import　paddle，出现警告信息：\nW0531 10:12:09.354604  8224 init.cc:136]　Compiled with WITH_GPU, but no GPU found in runtime.",
        "jetson.pypi-wheel",
        "https://github.com/PaddlePaddle/Paddle/issues/33209",
    ),
    # the GPU is too old for Paddle 2.0 ("卡太老了"), not a missing Jetson wheel nor cuDNN
    (
        "paddle2.0rc1总是在装gpu版本时报错驱动太老，但1.8版本可以安装\ncuda: 10.0.130\n\npaddle: 2.0.0.rc1\n\n如果安装的是paddle-1.8.5的版本，就可以正常运行。",
        "jetson.pypi-wheel",
        "https://github.com/PaddlePaddle/Paddle/issues/29787",
    ),
    # H100 (sm_90) with the cu118 wheel: a GPU too new for the build, not the driver
    (
        "GPU 3.0 版本在H100 运行出错，内容如下：\nCUDA error (/paddle/third_party/flashattn/csrc/flash_attn/src/flash_fwd_launch_template.h:56): no kernel image is available for execution on the device",
        "cuda.toolkit-newer-than-driver",
        "https://github.com/PaddlePaddle/PaddleOCR/issues/15814",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_this_cause = lookalike_test(LOOKALIKE)
