"""Round 17 sweep of PaddlePaddle and Windows DLL messages (checks/signatures/paddle.toml):
Paddle's "third-party dynamic library ... is not configured correctly" for cuBLAS / cuDNN DLLs,
WinError 127 on a cuDNN DLL inside Paddle's own folder, PaddleOCR 3.x refusing PaddleOCR 2.x
arguments ("Unknown argument: use_gpu"), PaddleOCR against a newer PaddleX
("PaddlePredictorOption.__init__() takes 1 positional argument"), GPU architecture and driver
messages, onnxruntime and torch DLL loads on Windows, long paths. Each message, verbatim from its
thread, reaches the cause the thread confirmed first, and one of that cause's fixes names the knob
the confirmed fix turned."""

from __future__ import annotations

from triage_lines import knob_test, lookalike_test

# (thread, message, the finding id first, a string one of its fixes' commands or summaries holds)
KNOB = [
    (
        # reporter: copying the DLLs of CUDA v11.8\bin where Windows searches made run_check pass
        "https://github.com/PaddlePaddle/Paddle/issues/69102",
        "PreconditionNotMetError: The third-party dynamic library (cublas64_118.dll;cublas64_11.dll) that Paddle depends on is not configured correctly. (error code is 126)\n      Suggestions:\n      1. Check if the third-party dynamic library (e.g. CUDA, CUDNN) is installed correctly and its version is matched with paddlepaddle you installed.\n      2. Configure third-party dynamic library environment variables as follows:\n      - Linux: set LD_LIBRARY_PATH by `export LD_LIBRARY_PATH=...`\n      - Windows: set PATH by `set PATH=XXX; (at ..\\paddle\\phi\\backends\\dynload\\dynamic_loader.cc:312)\n      [operator < matmul_v2 > error]",
        "paddle.wheel-cuda-mismatch",
        "PATH",
    ),
    (
        # maintainer: install cuDNN from NVIDIA and unzip it into the CUDA folder
        "https://github.com/PaddlePaddle/Paddle/issues/34566",
        "RuntimeError: (PreconditionNotMet) The third-party dynamic library (cudnn64_7.dll) that Paddle depends on is not configured correctly. (error code is 126)\n  Suggestions:\n  1. Check if the third-party dynamic library (e.g. CUDA, CUDNN) is installed correctly and its version is matched with paddlepaddle you installed.\n  2. Configure third-party dynamic library environment variables as follows:\n  - Linux: set LD_LIBRARY_PATH by `export LD_LIBRARY_PATH=...`\n  - Windows: set PATH by `set PATH=XXX; (at C:\\home\\workspace\\Paddle_release2\\paddle\\fluid\\platform\\dynload\\dynamic_loader.cc:265)",
        "paddle.wheel-cuda-mismatch",
        "cuDNN",
    ),
    (
        # maintainer: Paddle 3.0 wheels bring their own CUDA / cuDNN; a fresh environment and a
        # reinstall (the reporter had copied a cuDNN DLL into paddle\libs)
        "https://github.com/PaddlePaddle/Paddle/issues/72026",
        '[WinError 127] 找不到指定的程序。 Error loading "D:\\SoftWares\\anaconda3\\envs\\yolov11\\lib\\site-packages\\paddle\\libs\\cudnn_cnn_train64_8.dll" or one of its dependencies.',
        "paddle.cudnn-dll-clash",
        "venv",
    ),
    (
        # reporter: paddlepaddle-gpu 2.6.1.post116 failed to import; 2.5.2.post116 imports
        "https://github.com/PaddlePaddle/PaddleNLP/issues/8449",
        '  File "D:\\app\\miniforge\\envs\\datamining\\lib\\site-packages\\paddle\\base\\core.py", line 268, in <module>\n    from . import libpaddle\nImportError: DLL load failed while importing libpaddle: 找不到指定的程序。',
        "paddle.core-import-failed",
        "paddlepaddle-gpu==",
    ),
    (
        # the same thread: the 2.5.2.post116 wheel's arch list has no Pascal (GTX 1080)
        "https://github.com/PaddlePaddle/PaddleNLP/issues/8449",
        "W0516 14:25:12.999184 11028 gpu_resources.cc:96] The GPU architecture in your current machine is Pascal, which is not compatible with Paddle installation with arch: 70 75 80 86",
        "paddle.gpu-too-old-for-build",
        "cu118",
    ),
    (
        # the message names the fix: the wheel built for this GPU (RTX 5090D, sm_120)
        "https://github.com/PaddlePaddle/Paddle/issues/73687",
        "E0628 11:38:05.609311 27896 gpu_resources.cc:98] Mismatched GPU Architecture: The installed PaddlePaddle package was compiled for 75 80 86 89 ,but your current GPU is 120 Solution: Install the correct wheel package built for your GPU from the official PaddlePaddle website: https://www.paddlepaddle.org.cn/",
        "paddle.gpu-too-new-for-build",
        "cu129",
    ),
    (
        # maintainer: install the build for the CUDA 11.0 of the image; reporter: "done, thx" (A100)
        "https://github.com/PaddlePaddle/Paddle/issues/35632",
        "The exception content is\n:parallel_for failed: cudaErrorNoKernelImageForDevice: no kernel image is available for execution on the device. (at /paddle/paddle/fluid/imperative/tracer.cc:192)",
        "paddle.gpu-too-new-for-build",
        "paddlepaddle-gpu",
    ),
    (
        # maintainer: upgrade the display driver (or the CUDA 10.0 build of paddle)
        "https://github.com/PaddlePaddle/PaddleOCR/issues/2144",
        "OSError: (External) Cuda error(35), CUDA driver version is insufficient for CUDA runtime version.",
        "cuda.toolkit-newer-than-driver",
        "driver",
    ),
    (
        # confirmed by a second user: pip install onnxruntime==1.20.1 (an older onnxruntime)
        "https://github.com/Kedreamix/Linly-Dubbing/issues/58",
        "DLL load failed while importing onnxruntime_pybind11_state: 动态链接库(DLL)初始化例程失败。",
        "windows.dll-dependency-missing",
        "onnxruntime<1.21",
    ),
    (
        # commenters: os.add_dll_directory(CUDA's bin) before importing tensorflow ("saved my day")
        "https://github.com/tensorflow/tensorflow/issues/48868",
        "\"Could not load dynamic library 'cudart64_110.dll'; dlerror: cudart64_110.dll not found\"",
        "windows.cuda-runtime-dll-missing",
        "add_dll_directory",
    ),
    (
        # maintainer: Store Python's deep install path; enable long paths or a shorter install
        "https://github.com/TCDSolar/stixpy/issues/208",
        "ERROR: Could not install packages due to an OSError: [Errno 2] No such file or directory: 'C:\\\\Users\\\\yoges\\\\AppData\\\\Local\\\\Packages\\\\PythonSoftwareFoundation.Python.3.13_qbz5n2kfra8p0\\\\LocalCache\\\\local-packages\\\\Python313\\\\site-packages\\\\stixpy\\\\net\\\\tests\\\\data\\\\L1\\\\2022\\\\01\\\\01\\\\SCI\\\\solo_L1_stix-sci-xray-cpd_20220101T003000-20220101T013000_V01U_2201010007-54548.fits'\nHINT: This error might have occurred since this system does not have Windows Long Path support enabled. You can find information on how to enable this at https://pip.pypa.io/warnings/enable-long-paths.",
        "windows.long-paths-disabled",
        "LongPathsEnabled",
    ),
    (
        # maintainer: PaddleX 3.2 changed an interface that PaddleOCR 3.1 did not cap; install
        # PaddleX below 3.2 (pip install paddleocr "paddlex<3.2") until PaddleOCR 3.2
        "https://github.com/PaddlePaddle/PaddleOCR/issues/16286",
        "TypeError: PaddlePredictorOption.__init__() takes 1 positional argument but 2 were given",
        "paddleocr.paddlex-version-mismatch",
        "paddlex<3.2",
    ),
    (
        # reporter: paddleocr 3.1.0 and 3.1.1 fail, 3.0.1 works (it pins an older PaddleX)
        "https://github.com/PaddlePaddle/PaddleOCR/issues/16287",
        "Got `TypeError: PaddlePredictorOption.__init__() takes 1 positional argument but 2 were given` when init PaddleOCR.\n\nTried paddleocr==3.1.1 and paddleocr==3.1.0, they all have this issue.\nThe latest working version is paddleocr==3.0.1",
        "paddleocr.paddlex-version-mismatch",
        "paddlex<3.2",
    ),
    (
        # commenters: PaddleOCR 3.x dropped the 2.x arguments; pinning paddleocr==2.7.3 runs
        "https://github.com/microsoft/OmniParser/issues/329",
        "ValueError: Unknown argument: use_dilation",
        "paddleocr.v2-argument-removed",
        "paddleocr==2.7.3",
    ),
    (
        "https://github.com/microsoft/OmniParser/issues/329",
        "I'm having the same problem. \n```\nValueError: Unknown argument: det_db_score_mode\n```\n\nName: paddleocr\nVersion: 3.2.0",
        "paddleocr.v2-argument-removed",
        "paddleocr==2.7.3",
    ),
    (
        # maintainer: write the call for PaddleOCR 3.0+ as its documentation shows
        "https://github.com/PaddlePaddle/PaddleOCR/issues/16174",
        '  File "/root/miniforge3/lib/python3.11/site-packages/paddleocr/_common_args.py", line 43, in parse_common_args\n    raise ValueError(f"Unknown argument: {name}")\nValueError: Unknown argument: drop_score',
        "paddleocr.v2-argument-removed",
        "device=",
    ),
]


test_message_reaches_its_cause_with_the_knob = knob_test(
    KNOB, columns=("source", "text", "finding_id", "knob")
)


# (thread, a real message of another cause, the cause a new pattern could wrongly put first)
LOOKALIKE = [
    (
        # PaddleOCR 3.0.0 named this 3.x argument text_line_orientation_model_dir (renamed in
        # 3.0.1): a 3.x argument, not a removed 2.x one
        "https://github.com/PaddlePaddle/PaddleOCR/issues/15416",
        "Getting `ValueError: Unknown argument: textline_orientation_model_dir` when trying to use a downloaded local version of the textline orientation model in my local",
        "paddleocr.v2-argument-removed",
    ),
    (
        # WinError 126 on torch's own cuDNN DLL: a missing DLL, not a second cuDNN in Paddle's folder
        "https://github.com/SunOner/sunone_aimbot/issues/66",
        'OSError: [WinError 126] Не найден указанный модуль. Error loading "C:\\Users\\USER\\AppData\\Local\\Programs\\Python\\Python311\\Lib\\site-packages\\torch\\lib\\cudnn_cnn_infer64_8.dll" or one of its dependencies.',
        "paddle.cudnn-dll-clash",
    ),
]


test_lookalike_is_not_read_as_the_new_cause = lookalike_test(
    LOOKALIKE, columns=("source", "text", "tempting")
)
