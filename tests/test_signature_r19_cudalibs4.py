"""cuDNN / cuBLAS libraries of CTranslate2 and faster-whisper, round 19: whole opening posts of
threads where cuDNN 9's "Unable to load any of {libcudnn_*.so.9.1.0, ...}" (CTranslate2 4.5+) or
cuDNN 8's "Could not load library libcudnn_ops_infer.so.8" was fixed by pinning ctranslate2 4.4.0
or by putting the pip wheels' nvidia/cudnn/lib folder on LD_LIBRARY_PATH. Each verbatim post
reaches cuda.cudnn-missing first and one of its fixes names the knob the thread's confirmed fix
turned. One more post: CUDNN_STATUS_NOT_INITIALIZED with Ubuntu's libcudnn8 built for CUDA 12.1
beside a driver for CUDA 11.4 (checks/signatures/cuda.toml) reaches cuda.cudnn-mismatch
with a fix naming the +cuda11 build; look-alike rows are real messages of other library causes (a cuBLAS 12 library, an nvcc
too old for the GPU, CUDA_HOME unset) that must not be read as a missing cuDNN."""

from __future__ import annotations

from triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # the reporter: after setting LD_LIBRARY_PATH to site-packages/nvidia/cudnn/lib it ran
    (
        "```\nINFO:faster_whisper:Processing audio with duration 03:52.176\nUnable to load any of {libcudnn_cnn.so.9.1.0, libcudnn_cnn.so.9.1, libcudnn_cnn.so.9, libcudnn_cnn.so}\nInvalid handle. Cannot load symbol cudnnCreateConvolutionDescriptor\n```\nctranslate2==4.5.0\ntorch==2.5.1\nfaster-whisper==1.1.0",
        "cuda.cudnn-missing",
        "LD_LIBRARY_PATH",
        "https://github.com/OpenNMT/CTranslate2/issues/1826",
    ),
    # the reporter (a faster-whisper maintainer): the only solution so far is to downgrade to 4.4.0
    (
        "v4.5.0 is not compatible with `torch==2.5.0+cu121`\nHello\nthe last release works great with versions of pytorch that use python cuda packages, but when torch that is precompiled with cuda binaries is installed, this error appears:\n```\nUnable to load any of {libcudnn_cnn.so.9.1.0, libcudnn_cnn.so.9.1, libcudnn_cnn.so.9, libcudnn_cnn.so}\nInvalid handle. Cannot load symbol cudnnCreateConvolutionDescriptor\n```",
        "cuda.cudnn-missing",
        "4.4.0",
        "https://github.com/OpenNMT/CTranslate2/issues/1806",
    ),
    # the PR's author: downgrading ctranslate2 to 4.4.0 fixes it; the maintainer: or upgrade cuDNN
    (
        "Pin ctranslate2 version in requirements.txt\nTo resolve a cudnn symbol mismatch:\nUnable to load any of {libcudnn_ops.so.9.1.0, libcudnn_ops.so.9.1, libcudnn_ops.so.9, libcudnn_ops.so} Invalid handle. Cannot load symbol cudnnCreateTensorDescriptor",
        "cuda.cudnn-missing",
        "ctranslate2==4.4.0",
        "https://github.com/KoljaB/RealtimeSTT/pull/138",
    ),
    # a commenter: pip install ctranslate2==4.4.0; the reporter: "yes, this fixed it", installing
    # libcudnn8 (the cuDNN 8 that 4.4.0 loads)
    (
        "we did this: pip install --upgrade --no-cache-dir --force-reinstall git+https://github.com/Softcatala/whisper-ctranslate2\n\nbut no matter what we do, the result is this:\n\ntime whisper-ctranslate2 --model large-v2 --language en --word_timestamps True --output_format json childrenatplay_davies_ah_64kb.mp3\nDetected language 'English' with probability 1.000000\nUnable to load any of {libcudnn_ops.so.9.1.0, libcudnn_ops.so.9.1, libcudnn_ops.so.9, libcudnn_ops.so}\nInvalid handle. Cannot load symbol cudnnCreateTensorDescriptor\nAborted (core dumped)\n\nreal    0m6.853s\nuser    0m10.305s\nsys     0m3.037s\n\ndo we need to pin it to a specific version of libcudnn?",
        "cuda.cudnn-missing",
        "4.4.0",
        "https://github.com/Softcatala/whisper-ctranslate2/issues/115",
    ),
    # the reporter: solved by exporting LD_LIBRARY_PATH to nvidia.cublas.lib and nvidia.cudnn.lib;
    # the maintainer agreed and noted it for the FAQ
    (
        "The GPU models need cuda, cuda11 for the time being.\nfor some reason, even though the libraries are installed as dependencies in the virtualenv, both `whisper_online.py` and `whisper_online_server.py` require the path to the `nvidia-cudnn-cu11.so` libraries to be exported.\n\nIf others experience the error:\n```\nCould not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file: No such file or directory\nPlease make sure libcudnn_ops_infer.so.8 is in your library path!\n[1]    16931 IOT instruction (core dumped)  python3.10 whisper_streaming/whisper_online_server.py --min-chunk-size 3\n```",
        "cuda.cudnn-missing",
        "LD_LIBRARY_PATH",
        "https://github.com/ufal/whisper_streaming/issues/17",
    ),
    # the reporter: "First get into venv then add the .so to path worked."
    (
        "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file: No such file or directory. But it is at `home/a/Downloads/Whisper-WebUI/venv/lib/python3.11/site-packages/torch/lib/libcudnn_ops_infer.so.8`\nThe model is loaded, but then the error occurs and the model unloads:",
        "cuda.cudnn-missing",
        "LD_LIBRARY_PATH",
        "https://github.com/jhj0517/Whisper-WebUI/issues/114",
    ),
    # the reporter (libcudnn8 +cuda12.1, driver for CUDA 11.4): "It worked after I installed the
    # right cudnn version" (the cuDNN build for the driver's CUDA 11)
    (
        "RuntimeError: cuDNN failed with status CUDNN_STATUS_NOT_INITIALIZED\nI got this error when i run fast whisper. \n```\nvidia-smi\nThu Jul 20 06:39:18 2023\n+-----------------------------------------------------------------------------+\n| NVIDIA-SMI 470.199.02   Driver Version: 470.161.03   CUDA Version: 11.4     |\n|-------------------------------+----------------------+----------------------+\n\n```\ncudnn:\n\n```\ncudnn-local-repo-ubuntu2004-8.9.3.28/now 1.0-1 amd64 [installed,local]\nlibcudnn8/unknown,now 8.9.3.28-1+cuda12.1 amd64 [installed]\n```\n\nI can run this scrip with CPU and it works well. \nAnd I can run other model with GPU. So  I wonder what",
        "cuda.cudnn-mismatch",
        "+cuda11",
        "https://github.com/SYSTRAN/faster-whisper/issues/362",
    ),
]

# (message verbatim from a thread of another cause, the cause it must not be read as, thread)
LOOKALIKE = [
    # nvcc 11.5 cannot build for an RTX 4090 (compute_89): an old toolkit, not cuDNN
    (
        "I am not very sure why I keep getting this error:\nnvcc fatal: Unsupported gpu architecture 'compute_89'\n\n**Error occur while running:**\ncd third_party/pointnet2 && python setup.py install\n\nMy GPU: RTX 4090\n\nNVCC version:\nnvcc: NVIDIA (R) Cuda compiler driver\nCopyright (c) 2005-2021 NVIDIA Corporation\nBuilt on Thu_Nov_18_09:45:30_PST_2021\nCuda compilation tools, release 11.5, V11.5.119\nBuild cuda_11.5.r11.5/compiler.30672275_0",
        "cuda.cudnn-missing",
        "https://github.com/facebookresearch/3detr/issues/59",
    ),
    # a CUDA 12 cuBLAS library missing beside a CUDA 11.8 Paddle: not cuDNN
    (
        "按照官网要求，选择2.6-Linux-pip-英伟达-CUDA 11.8下载后，执行：\n```\n>>> import paddle\n>>> paddle.utils.run_check()\n\n```\n结果正常：`PaddlePaddle is installed successfully! Let's start deep learning with PaddlePaddle now.`\n\n然后使用paddleocr操作后报错：\n```\nCould not load library libcublasLt.so.12. Error: libcublasLt.so.12: cannot open shared object file: No such file or directory\n```",
        "cuda.cudnn-missing",
        "https://github.com/PaddlePaddle/PaddleOCR/issues/12641",
    ),
    # a program built with CUDA 12.3 cannot find its cuBLAS (ldconfig found it): not cuDNN
    (
        "The CUDA toolkit is installed as 12.3, and this phenomenon occurred while running the gst file after cmake and make.\n\nAre there any new environment variables that need to be added?\n\nroot@node001:~/GPUStressTest# ./gst\n./gst: error while loading shared libraries: libcublasLt.so.12: cannot open shared object file: No such file or directory",
        "cuda.cudnn-missing",
        "https://github.com/NVIDIA/GPUStressTest/issues/7",
    ),
    # CUDA_HOME unset in training (the maintainer: an incomplete WSL CUDA download): not cuDNN
    (
        "训练时报错：OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root.\n希望可以加一个自动安装CUDA的功能吧",
        "cuda.cudnn-missing",
        "https://github.com/josStorer/RWKV-Runner/issues/188",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_this_cause = lookalike_test(LOOKALIKE)
