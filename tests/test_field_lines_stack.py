"""Round 7 field survey of the stack families (CPU-only builds, Windows DLL dependencies,
PaddlePaddle, conda environments): each canonical line, as users pasted it in the cited thread,
reaches its cause among the first two findings, and where the cause has fixes they name the
thing the real fix turns on (the package, flag, env var or command)."""

from __future__ import annotations

import pytest
from triage_lines import fixes_text

from envdoctor.triage_engine import triage_text

# (pasted text, accepted finding ids, a word the cause's fixes must name or None, source URL)
FIELD_LINES: list[tuple[str, tuple[str, ...], str | None, str]] = [
    # ---------------------------------------------------------------- CPU-only builds
    (
        "    self.model = ctranslate2.models.Whisper(\n"
        "ValueError: This CTranslate2 package was not compiled with CUDA support",
        ("ctranslate2.built-without-cuda",),
        'device="cpu"',
        "https://github.com/m-bain/whisperX/issues/575",
    ),
    (
        "fastapi.exceptions.HTTPException: 400: [ERROR: 500: Error transcribing chunk: "
        "This CTranslate2 package was not compiled with CUDA support]",
        ("ctranslate2.built-without-cuda",),
        "WITH_CUDA=ON",
        "https://github.com/open-webui/open-webui/issues/18858",
    ),
    (
        "AttributeError: module 'faiss' has no attribute 'StandardGpuResources'",
        ("faiss.cpu-package-installed",),
        "faiss-cpu",
        "https://github.com/facebookresearch/faiss/issues/3656",
    ),
    (
        "AttributeError: 'module' object has no attribute 'StandardGpuResources'\n\n"
        "faiss-cpu                 1.6.1            py27h6bb024c_0    pytorch",
        ("faiss.cpu-package-installed",),
        "faiss-gpu",
        "https://github.com/facebookresearch/deepcluster/issues/56",
    ),
    (
        "    return faiss.GpuIndexFlatL2(\n"
        "AttributeError: module 'faiss' has no attribute 'GpuIndexFlatL2'",
        ("faiss.cpu-package-installed",),
        "faiss-cpu",
        "https://github.com/amazon-science/patchcore-inspection/issues/30",
    ),
    (
        "xgboost.core.XGBoostError: [07:02:59] /workspace/src/c_api/../common/common.h:174: "
        "XGBoost version not compiled with GPU support.",
        ("xgboost.built-without-gpu",),
        "xgboost-cpu",
        "https://github.com/dmlc/xgboost/issues/11394",
    ),
    (
        "XGBoostError: [12:54:26] /home/lly2014/xgboost/src/learner.cc:180: XGBoost version not "
        "compiled with GPU support.",
        ("xgboost.built-without-gpu",),
        "USE_CUDA",
        "https://github.com/dmlc/xgboost/issues/4355",
    ),
    (
        "[LightGBM] [Fatal] GPU Tree Learner was not enabled in this build.\n"
        "Please recompile with CMake option -DUSE_GPU=1",
        ("lightgbm.built-without-gpu",),
        "cmake.define.USE_GPU=ON",
        "https://github.com/lightgbm-org/LightGBM/issues/3696",
    ),
    (
        "LightGBMError: b'GPU Tree Learner was not enabled in this build. Recompile with CMake "
        "option -DUSE_GPU=1'",
        ("lightgbm.built-without-gpu",),
        "pip install --upgrade lightgbm",
        "https://github.com/lightgbm-org/LightGBM/issues/2070",
    ),
    (
        '    raise ValueError("GPU is not accessible. Was the library installed correctly?")\n'
        "ValueError: GPU is not accessible. Was the library installed correctly?",
        ("spacy.cupy-missing",),
        "spacy[cuda12x]",
        "https://github.com/explosion/thinc/issues/467",
    ),
    (
        "Error: Cannot use GPU, Cupy is not installed",
        ("spacy.cupy-missing",),
        "cupy",
        "https://github.com/explosion/spaCy/issues/13700",
    ),
    (
        "mxnet.base.MXNetError: [11:28:30] src/storage/storage.cc:78: Compile with USE_CUDA=1 to "
        "enable GPU usage",
        ("mxnet.cpu-package-installed",),
        "mxnet-cu",
        "https://github.com/apache/mxnet/issues/3739",
    ),
    (
        "mxnet.base.MXNetError: [16:53:11] src/storage/storage.cc:43: Please compile with CUDA "
        "enabled",
        ("mxnet.cpu-package-installed",),
        "USE_CUDA=1",
        "https://github.com/apache/mxnet/issues/260",
    ),
    (
        "Ultralytics YOLOv8.1.3 🚀 Python-3.10.11 torch-2.1.0+cpu\n"
        "An Error occurred: Invalid CUDA 'device=0' requested. Use 'device=cpu' or pass valid CUDA "
        "device(s) if available, i.e. 'device=0' or 'device=0,1,2,3' for Multi-GPU.",
        ("torch.cpu-build-on-gpu-host",),
        "cu121",
        "https://github.com/ogkalu2/comic-translate/issues/17",
    ),
    (
        "ValueError: Invalid CUDA 'device=0' requested. Use 'device=cpu' or pass valid CUDA "
        "device(s) if available, i.e. 'device=0' or 'device=0,1,2,3' for Multi-GPU.\n\n"
        "torch.cuda.is_available(): False\ntorch.cuda.device_count(): 0\n"
        "os.environ['CUDA_VISIBLE_DEVICES']: None",
        ("torch.cpu-build-on-gpu-host",),
        "torch.version.cuda",
        "https://github.com/ogkalu2/comic-translate/issues/224",
    ),
    (
        "    assert torch.cuda.is_available(), 'CUDA unavailable, invalid device %s requested' % "
        "device  # check availablity\nAssertionError: CUDA unavailable, invalid device 0 requested",
        ("torch.cpu-build-on-gpu-host",),
        "+cpu",
        "https://github.com/ultralytics/yolov5/issues/474",
    ),
    (
        "Ultralytics YOLOv8.2.54 🚀 Python-3.9.13 torch-2.2.0+cpu \n"
        "    results = model.predict(frame, save=False, conf=confidence, half=True, "
        "agnostic_nms=True, iou=0.7",
        ("torch.cpu-build-on-gpu-host",),
        "2.2.0+cpu",
        "https://github.com/Passer1072/RookieAI_yolov8/issues/33",
    ),
    (
        "onnxruntime_inference_collection.py:69: UserWarning: Specified provider "
        "'CUDAExecutionProvider' is not in available provider\nnames.Available providers: "
        "'AzureExecutionProvider, CPUExecutionProvider'",
        ("onnxruntime.cpu-package-shadows-gpu",),
        "onnxruntime-gpu",
        "https://github.com/s9roll7/animatediff-cli-prompt-travel/issues/206",
    ),
    (
        "UserWarning: Specified provider 'CUDAExecutionProvider' is not in available provider "
        "names.Available providers: 'AzureExecutionProvider, CPUExecutionProvider'",
        ("onnxruntime.cpu-package-shadows-gpu",),
        "pip uninstall",
        "https://github.com/microsoft/onnxruntime/issues/23736",
    ),
    (
        "Applied providers: ['CPUExecutionProvider'], with options: {'CPUExecutionProvider': {}}\n"
        "find model: checkpoints/auxiliary/models/buffalo_l/2d106det.onnx landmark_2d_106 "
        "['None', 3, 192, 192] 0.0 1.0",
        ("onnxruntime.cpu-package-shadows-gpu",),
        "onnxruntime-gpu",
        "https://github.com/bytedance/LatentSync/issues/225",
    ),
    (
        "    cpp_module = torch._C.import_ir_module(cu, str(f), map_location, _extra_files, "
        "_restore_shapes)  # type: ignore[call-arg]\nNotImplementedError: Could not run "
        "'aten::empty_strided' with arguments from the 'CUDA' backend. This could be because the "
        "operator doesn't exist for this backend, or was omitted during the selective/custom "
        "build process (if using custom build).",
        ("torch.cpu-build-on-gpu-host",),
        "+cpu",
        "https://github.com/enesmsahin/simple-lama-inpainting/issues/10",
    ),
    (
        "called `Result::unwrap()` on an `Err` value: Torch(\"Could not run 'aten::empty_strided' "
        "with arguments from the 'CUDA' backend. This could be because the operator doesn't exist "
        "for this backend, or was omitted during the selective/custom build process (if using "
        "custom build).",
        ("torch.cpu-build-on-gpu-host",),
        "LIBTORCH",
        "https://github.com/LaurentMazare/tch-rs/issues/923",
    ),
    (
        "RuntimeError: Could not run 'torchvision::nms' with arguments from the 'CUDA' backend. "
        "'torchvision::nms' is only available for these backends: [CPU, BackendSelect, Named, "
        "AutogradOther, AutogradCPU, AutogradCUDA, AutogradXLA, Tracer, Autocast, Batched, "
        "VmapMode].",
        ("torch.companion-mismatch",),
        "torchvision",
        "https://github.com/mikel-brostrom/boxmot/issues/42",
    ),
    (
        "Could not run 'torchvision::nms' with arguments from the 'CUDA' backend. This could be "
        "because the operator doesn't exist for this backend, or was omitted during the "
        "selective/custom build process (if using custom build).",
        ("torch.companion-mismatch",),
        "download.pytorch.org",
        "https://github.com/ltdrdata/ComfyUI-Impact-Pack/issues/915",
    ),
    (
        "RuntimeError: Attempting to deserialize object on CUDA device 0 but "
        "torch.cuda.device_count() is 0. Please use torch.load with map_location to map your "
        "storages to an existing device.",
        ("torch.cpu-build-on-gpu-host", "cuda.device-ordinal-exceeds-gpu-count"),
        "map_location",
        "https://pytorch.org/docs/stable/generated/torch.load.html",
    ),
    # ---------------------------------------------------------------- Windows DLL dependencies
    (
        "OSError: [WinError 126] The specified module could not be found. Error loading "
        '"C:\\Users\\username\\AppData\\Local\\Programs\\Python\\Python312\\Lib\\site-packages'
        '\\torch\\lib\\fbgemm.dll" or one of its dependencies.',
        ("windows.dll-dependency-missing",),
        "libomp140",
        "https://github.com/modelscope/FunClip/issues/105",
    ),
    (
        "Error running job: [WinError 126] 找不到指定的模块。 Error loading "
        '"C:\\Users\\daizh\\Documents\\LORA Traning\\ai-toolkit\\venv\\Lib\\site-packages\\torch'
        '\\lib\\fbgemm.dll" or one of its dependencies.',
        ("windows.dll-dependency-missing",),
        "libomp140",
        "https://github.com/ostris/ai-toolkit/issues/91",
    ),
    (
        "OSError: [WinError 193] %1 不是有效的 Win32 应用程序。 Error loading "
        '"D:\\Program Files\\Python311\\Lib\\site-packages\\torch\\lib\\cublas64_12.dll" or one of '
        "its dependencies.",
        ("windows.dll-dependency-missing",),
        "--force-reinstall",
        "https://github.com/2noise/ChatTTS/issues/886",
    ),
    (
        "OSError: [WinError 193] %1 is not a valid Win32 application. Error loading "
        '"C:\\Users\\lukky\\AppData\\Local\\Programs\\Python\\Python39\\lib\\site-packages\\torch'
        '\\lib\\caffe2_detectron_ops.dll" or one of its dependencies.',
        ("windows.dll-dependency-missing",),
        "64-bit",
        "https://github.com/patrickloeber/pytorch-chatbot/issues/10",
    ),
    (
        "    self._handle = _dlopen(self._name, mode)\n"
        "OSError: [WinError 193] %1 is not a valid Win32 application",
        ("windows.dll-dependency-missing",),
        None,
        "https://github.com/pytorch/pytorch/issues/41585",
    ),
    (
        "OSError: [WinError 1114] 动态链接库(DLL)初始化例程失败。 Error loading "
        '"C:\\Program Files\\Python311\\Lib\\site-packages\\torch\\lib\\c10.dll" or one of its '
        "dependencies.",
        ("windows.dll-dependency-missing",),
        "vc_redist",
        "https://github.com/666ghj/BettaFish/issues/428",
    ),
    (
        "OSError: [WinError 1114] 动态链接库(DLL)初始化例程失败。 Error loading "
        '"D:\\miniconda\\envs\\cosyvoice\\lib\\site-packages\\torch\\lib\\c10.dll" or one of its '
        "dependencies.",
        ("windows.dll-dependency-missing",),
        "VCRedist",
        "https://github.com/QwenAudio/CosyVoice/issues/1836",
    ),
    (
        "ppocr WARNING: When args.layout is false, args.ocr is automatically set to false\n"
        "Could not locate zlibwapi.dll. Please make sure it is in your library path!",
        ("windows.cudnn-zlibwapi-missing",),
        "zlibwapi.dll",
        "https://github.com/PaddlePaddle/PaddleOCR/issues/8400",
    ),
    (
        "CUDA-version: 11070 (11070), cuDNN: 8.4.1, GPU count: 1\n"
        "Could not locate zlibwapi.dll. Please make sure it is in your library path!",
        ("windows.cudnn-zlibwapi-missing",),
        "CUDA_PATH",
        "https://github.com/AlexeyAB/darknet/issues/8551",
    ),
    (
        "Could not load library zlibwapi.dll. Error code 193. Please verify that the library is "
        "built correctly for your processor architecture (32-bit, 64-bit)",
        ("windows.cudnn-zlibwapi-missing",),
        "where zlibwapi.dll",
        "https://github.com/lightvector/KataGo/issues/828",
    ),
    (
        "OSError: cannot load library 'D:/Work/produce/HuiHua25/tests/libapi.dll': error 0x7e",
        ("windows.dll-dependency-missing",),
        "add_dll_directory",
        "https://github.com/python-cffi/cffi/issues/154",
    ),
    (
        "2023-01-30 14:28:27,145 - device.myo_listener - ERROR - cannot load library "
        "'D:/myo/stark-demo/MyoFeaturePlotter/dll/myo64.dll': error 0xc1",
        ("windows.dll-dependency-missing",),
        "64-bit",
        "https://github.com/NiklasRosenstein/myo-python/issues/84",
    ),
    (
        "      building '_driver' extension\n"
        '      error: Microsoft Visual C++ 14.0 or greater is required. Get it with "Microsoft C++ '
        'Build Tools": https://visualstudio.microsoft.com/visual-cpp-build-tools/\n'
        "      [end of output]\n\n"
        "  note: This error originates from a subprocess, and is likely not a problem with pip.\n"
        "  ERROR: Failed building wheel for pycuda",
        ("windows.msvc-build-tools-missing",),
        "pip install --only-binary=:all: pycuda",
        "https://github.com/GVCLab/PersonaLive/issues/30",
    ),
    (
        "`Building wheel for aiohttp` stops with the error \n\n"
        '>  error: Microsoft Visual C++ 14.0 or greater is required. Get it with "Microsoft C++ '
        'Build Tools": https://visualstudio.microsoft.com/visual-cpp-build-tools/',
        ("windows.msvc-build-tools-missing",),
        "Desktop development with C++",
        "https://github.com/microsoft/Codex-CLI/issues/128",
    ),
    # ---------------------------------------------------------------- PaddlePaddle
    (
        "PreconditionNotMetError: Cannot load cudnn shared library. Cannot invoke method "
        "cudnnGetVersion.\n  [Hint: cudnn_dso_handle should not be null.] (at /home/fastdeploy/develop/"
        "paddle_build/v0.0.0/Paddle/paddle/phi/backends/dynload/cudnn.cc:64)",
        ("cuda.cudnn-missing", "paddle.wheel-cuda-mismatch"),
        "LD_LIBRARY_PATH",
        "https://github.com/multimodal-art-projection/MAP-NEO/issues/3",
    ),
    (
        "RuntimeError: (PreconditionNotMet) Cannot load cudnn shared library. Cannot invoke method "
        "cudnnGetVersion.\n  [Hint: cudnn_dso_handle should not be null.] (at "
        "/paddle/paddle/fluid/platform/dynload/cudnn.cc:76)",
        ("cuda.cudnn-missing", "paddle.wheel-cuda-mismatch"),
        "paddlepaddle-gpu",
        "https://github.com/PaddlePaddle/Paddle/issues/36238",
    ),
    (
        "RuntimeError: (PreconditionNotMet) The third-party dynamic library (libcublas.so) that "
        "Paddle depends on is not configured correctly. (error code is libcublas.so: cannot open "
        "shared object file: No such file or directory)",
        ("paddle.wheel-cuda-mismatch", "cuda.cudnn-missing"),
        "LD_LIBRARY_PATH",
        "https://github.com/PaddlePaddle/PaddleNLP/issues/2980",
    ),
    (
        "PreconditionNotMetError: The third-party dynamic library (cudnn64_7.dll) that Paddle "
        "depends on is not configured correctly. (error code is 126)",
        ("cuda.cudnn-missing", "paddle.wheel-cuda-mismatch"),
        "PATH",
        "https://github.com/PaddlePaddle/PaddleOCR/issues/1081",
    ),
    (
        "W0608 17:24:55.806937 14489 device_context.h:360] WARNING: device: 0. The installed Paddle "
        "is compiled with CUDNN 7.6, but CUDNN version in your machine is 7.4, which may cause "
        "serious incompatible bug. Please recompile or reinstall Paddle with compatible CUDNN "
        "version.",
        ("cuda.cudnn-mismatch",),
        "7.6",
        "https://github.com/PaddlePaddle/PaddleDetection/issues/3331",
    ),
    (
        "Error: Can not import avx core while this file exists: "
        "/opt/conda/lib/python3.10/site-packages/paddle/fluid/core_avx.so",
        ("paddle.core-import-failed",),
        "paddlepaddle-gpu",
        "https://github.com/PaddlePaddle/PaddleOCR/issues/10218",
    ),
    (
        "Error: Can not import avx core while this file exists: "
        "D:\\..........\\Python39\\lib\\site-packages\\paddle\\fluid\\core_avx.pyd\n"
        "    from .core_avx import *\n"
        "ImportError: DLL load failed while importing core_avx: 找不到指定的模块。",
        ("paddle.core-import-failed",),
        "VCRedist",
        "https://github.com/PaddlePaddle/Paddle/issues/35570",
    ),
    (
        "Error: Can not import noavx core while this file exists: "
        "/usr/local/lib/python3.7/dist-packages/paddle/fluid/core_noavx.so\n"
        "ImportError: libgfortran.so.4: cannot open shared object file: No such file or directory",
        ("paddle.core-import-failed",),
        "ImportError",
        "https://github.com/PaddlePaddle/Paddle/issues/56609",
    ),
    (
        "Error: AVX is not support on your machine, but you have installed paddlepaddle with avx "
        "core, you should reinstall paddlepaddle by 'python -m pip install -U "
        "paddlepaddle-gpu[==version] -f https://paddlepaddle.org.cn/whl/stable_noavx.html'",
        ("paddle.core-import-failed",),
        "noavx",
        "https://github.com/PaddlePaddle/Paddle/pull/30413",
    ),
    (
        "The conflict is caused by:\n"
        '    torch 2.5.1 depends on nvidia-cuda-runtime-cu12==12.4.127; platform_system == "Linux" '
        'and platform_machine == "x86_64"\n'
        "    paddlepaddle-gpu 3.1.0 depends on nvidia-cuda-runtime-cu12==12.3.101; platform_system "
        '== "Linux" and platform_machine == "x86_64"',
        ("paddle.nvidia-wheel-pin-conflict",),
        "nvidia-cuda-runtime-cu12",
        "https://github.com/PaddlePaddle/Paddle/issues/74894",
    ),
    (
        "paddlepaddle_gpu-3.0.0 对应的预编译whl能提供pytorch版本清单吗\n"
        'torch 2.3.0 requires nvidia-cudnn-cu12==8.9.2.26; platform_system == "Linux" and '
        'platform_machine == "x86_64", but you have nvidia-cudnn-cu12 9.1.1.17 which is '
        "incompatible.",
        ("paddle.nvidia-wheel-pin-conflict",),
        "nvidia-cudnn-cu12",
        "https://github.com/PaddlePaddle/Paddle/issues/71867",
    ),
    (
        'torch 2.4.0+cu118 requires nvidia-cudnn-cu11==9.1.0.70; platform_system == "Linux" and '
        'platform_machine == "x86_64", but you have nvidia-cudnn-cu11 8.9.6.50 which is '
        "incompatible.",
        ("python.nvidia-wheel-pin-conflict",),
        "pip check",
        "https://github.com/Yuliang-Liu/MonkeyOCR/issues/211",
    ),
    (
        "W1010 12:46:29.989503  7242 dynamic_loader.cc:305] The third-party dynamic library "
        "(libcuda.so) that Paddle depends on is not configured correctly. (error code is "
        "libcuda.so: cannot open shared object file: No such file or directory)",
        ("paddle.unversioned-libcuda-missing",),
        "libcuda.so.1",
        "https://github.com/PaddlePaddle/PaddleDetection/issues/7089",
    ),
    (
        "WSL2Ubuntu报警告The third-party dynamic library (libcuda.so) that Paddle depends on is not "
        "configured correctly.\n"
        "W0508 21:40:15.979074  1551 dynamic_loader.cc:412] The third-party dynamic library "
        "(libcuda.so) that Paddle depends on is not configured correctly. (error code is "
        "libcuda.so: cannot open shared object file: No such file or directory)",
        ("paddle.unversioned-libcuda-missing",),
        "/usr/lib/wsl/lib",
        "https://github.com/PaddlePaddle/Paddle/issues/78917",
    ),
    (
        "E0714 16:34:40.972663 31948 pybind.cc:1277] Cannot use GPU because you have installed CPU "
        "version PaddlePaddle.\nIf you want to use GPU, please try to install GPU version "
        "PaddlePaddle by: pip install paddlepaddle-gpu\nIf you only have CPU, please change "
        "CUDAPlace(0) to be CPUPlace().",
        ("paddle.cpu-package-installed",),
        "paddlepaddle-gpu",
        "https://github.com/PaddlePaddle/PARL/issues/929",
    ),
    (
        "2020-09-08 09:14:59 ERROR: You are using paddlepaddle cpu version! Please try to install "
        "paddlepaddle-gpu to run model on GPU.",
        ("paddle.cpu-package-installed",),
        "pip uninstall",
        "https://github.com/PaddlePaddle/PaddleClas/issues/268",
    ),
    (
        "2020-07-23 09:22:17,124-ERROR: Config use_gpu cannot be set as true while you are using "
        "paddlepaddle cpu version !",
        ("paddle.cpu-package-installed",),
        "use_gpu=False",
        "https://github.com/PaddlePaddle/PaddleDetection/issues/1091",
    ),
    (
        "E0224 15:37:10.817626 18616 place.cc:359] Cannot use GPU because you have installed CPU "
        "version PaddlePaddle.",
        ("paddle.cpu-package-installed",),
        "set_device('cpu')",
        "https://github.com/PaddlePaddle/Paddle/issues/50873",
    ),
    (
        "Error: Can not import paddle core while this file exists: "
        "/usr/local/lib/python3.10/dist-packages/paddle/fluid/libpaddle.so\n"
        "ImportError: libssl.so.1.1: cannot open shared object file: No such file or directory",
        ("paddle.core-import-failed",),
        "#56452",
        "https://github.com/PaddlePaddle/Paddle/issues/55597",
    ),
    (
        "from paddlenlp import Taskflow报错ImportError: libssl.so.1.1: cannot open shared object "
        "file: No such file or directory",
        ("paddle.core-import-failed",),
        "openssl1.1",
        "https://github.com/PaddlePaddle/PaddleNLP/issues/7228",
    ),
    # ---------------------------------------------------------------- conda environments
    (
        "UnsatisfiableError: The following specifications were found to be incompatible with your "
        "system:\n\n  - feature:/linux-64::__glibc==2.31=0\n"
        "  - oneclient -> nss -> __glibc[version='>=2.17|>=2.17,<3.0.a0']\n\n"
        "Your installed version is: 2.31",
        ("conda.glibc-unsatisfiable",),
        "libmamba",
        "https://github.com/conda/conda/issues/12912",
    ),
    (
        "conda install pytorch-cuda=11.8\n"
        "UnsatisfiableError: The following specifications were found to be incompatible with your "
        "system:\n\n  - feature:/linux-64::__glibc==2.31=0\n"
        "  - python=3.10 -> libgcc-ng[version='>=11.2.0'] -> __glibc[version='>=2.17']\n\n"
        "Your installed version is: 2.31",
        ("conda.glibc-unsatisfiable", "cuda.conda-pip-cuda-mixed"),
        None,
        "https://github.com/conda/conda/issues/12489",
    ),
    (
        "Found conflicts! Looking for incompatible packages.\n"
        "UnsatisfiableError: The following specifications were found to be incompatible with each "
        "other:\n\n  - feature:/linux-64::__glibc==2.31=0\n"
        "  - feature:|@/linux-64::__glibc==2.31=0\n\nYour installed version is: 2.31",
        ("conda.glibc-unsatisfiable",),
        "channel_priority strict",
        "https://github.com/malonge/RagTag/issues/126",
    ),
    (
        "  - feature:/linux-64::__glibc==2.12=0\n"
        "  - feature:|@/linux-64::__glibc==2.12=0\n"
        "  - libgcc-ng==9.3.0=h5101ec6_17 -> __glibc[version='>=2.17']",
        ("conda.glibc-unsatisfiable",),
        "ldd --version",
        "https://github.com/conda/conda/issues/10934",
    ),
    (
        "ImportError: /home/liut61/miniforge3/envs/open-mmlab/lib/python3.8/site-packages/torch/lib/"
        "libtorch_cpu.so: undefined symbol: iJIT_NotifyEvent",
        ("torch.conda-mkl-incompatible",),
        "mkl==2024.0",
        "https://github.com/open-mmlab/mmpretrain/issues/1900",
    ),
    (
        "ImportError: /root/anaconda3/envs/pikv/lib/python3.11/site-packages/torch/lib/"
        "libtorch_cpu.so: undefined symbol: iJIT_NotifyEvent",
        ("torch.conda-mkl-incompatible",),
        "install torch with pip",
        "https://github.com/NoakLiu/PiKV/issues/2",
    ),
    (
        "OSError: .../anaconda3/bin/../lib/libstdc++.so.6: version `GLIBCXX_3.4.29' not found "
        "(required by ..../anaconda3/lib/python3.6/site-packages/selm_lammps/lammps/liblammps.so)",
        ("python.libstdcxx-too-old",),
        "conda-forge",
        "https://github.com/atzberg/mango-selm/issues/25",
    ),
    (
        "Error while loading conda entry point: conda-libmamba-solver (/lib64/libstdc++.so.6: "
        "version `GLIBCXX_3.4.20' not found (required by /data3/lgb_data_softwear/miniconda/lib/"
        "python3.10/site-packages/libmambapy/bindings.cpython-310-x86_64-linux-gnu.so))",
        ("python.libstdcxx-too-old",),
        "LD_LIBRARY_PATH",
        "https://github.com/conda/conda-libmamba-solver/issues/544",
    ),
    (
        "No action taken.\n\nCondaError: Run 'conda init' before 'conda activate'",
        ("python.env-mismatch",),
        "conda.sh",
        "https://github.com/nagadit/DeepFaceLab_Linux/issues/84",
    ),
    (
        "conda create -n wiseflow python=3.10\nconda activate wiseflow\n"
        "在执行第二行时，提示如标题内容“CondaError: Run 'conda init' before 'conda activate'”，"
        "但是执行 conda  init 之后，依然无效。",
        ("python.env-mismatch",),
        "conda shell.bash hook",
        "https://github.com/TeamWiseFlow/xiaobei/issues/57",
    ),
    (
        "conda env create -f environment.yml\n\nCollecting package metadata (repodata.json): "
        "done\nSolving environment: failed\n\nResolvePackageNotFound:\n  - icc_rt=2019.0.0\n"
        "  - intel-openmp=2019.5\n  - wincertstore=0.2\n  - vs2015_runtime=14.16.27012\n"
        "  - vc=14.1",
        ("conda.env-file-other-platform",),
        "--from-history",
        "https://github.com/EliasNehme/Deep-STORM/issues/2",
    ),
    (
        "D:\\Git\\Neural-Template>conda env create -f environment.yml\n"
        "Solving environment: failed\n\nResolvePackageNotFound:\n"
        "  - pip==22.1.2=py38h06a4308_0\n  - ld_impl_linux-64==2.38=h1181459_1\n"
        "  - lame==3.100=h7b6447c_0",
        ("conda.env-file-other-platform",),
        "ld_impl_linux-64",
        "https://github.com/edward1997104/Neural-Template/issues/9",
    ),
    (
        "ImportError: DLL load failed while importing _ctypes: Can't find specified module.",
        ("conda.env-not-activated",),
        "conda run -n",
        "https://github.com/conda/conda/issues/12531",
    ),
    (
        "    import _ssl             # if we can't import it, let the error pro\n"
        "ImportError: DLL load failed while importing _ssl: 找不到指定的模块。",
        ("conda.env-not-activated",),
        "libssl",
        "https://github.com/nalexandru/api-ms-win-core-path-HACK/issues/10",
    ),
    (
        "`conda search conda` gives an error message:\n"
        "Can't connect to HTTPS URL because the SSL module is not available",
        ("conda.env-not-activated",),
        "System32",
        "https://github.com/conda/conda/issues/8273",
    ),
    (
        "Verifying transaction: failed\n\n"
        "CondaVerificationError: The package for pytorch located at "
        "/home/admin/anaconda3/pkgs/pytorch-1.11.0-py3.8_cuda11.3_cudnn8.2.0_0\n"
        "appears to be corrupted. The path "
        "'lib/python3.8/site-packages/torch-1.11.0-py3.8.egg-info/SOURCES.txt'\n"
        "specified in the package manifest cannot be found.",
        ("conda.package-cache-corrupted",),
        "conda clean",
        "https://github.com/CompVis/stable-diffusion/issues/825",
    ),
    (
        "CondaVerificationError: The package for pytorch located at "
        "C:\\Users\\x\\Anaconda3\\pkgs\\pytorch-1.3.1-py3.7_cuda101_cudnn7_0\n"
        "appears to be corrupted. The path 'Scripts/convert-onnx-to-caffe2.exe'\n"
        "specified in the package manifest cannot be found.",
        ("conda.package-cache-corrupted",),
        "disk",
        "https://github.com/facebookresearch/demucs/issues/62",
    ),
    (
        "'conda' is not recognized as an internal or external command,\n"
        "operable program or batch file.\n\n"
        '"Error activating conda for Easy Diffusion. Sorry about that, please try to:"',
        ("conda.not-on-path",),
        "conda init",
        "https://github.com/easydiffusion/easydiffusion/issues/978",
    ),
    (
        "运行程序时出现：无法将“conda”项识别为cmdlet、函数、脚本文件或可运行程序的名称。请检查……",
        ("conda.not-on-path",),
        "init powershell",
        "https://github.com/selfteaching/selfteaching-python-camp/issues/372",
    ),
    (
        "C:\\Users\\sagar>conda.bat activate\n"
        "'conda.bat' is not recognized as an internal or external command,\n"
        "operable program or batch file.",
        ("conda.not-on-path",),
        "condabin",
        "https://github.com/conda/conda/issues/7230",
    ),
]


@pytest.mark.parametrize(
    ("text", "expected", "knob", "source"), FIELD_LINES, ids=[row[3] for row in FIELD_LINES]
)
def test_field_line_reaches_its_cause(
    text: str, expected: tuple[str, ...], knob: str | None, source: str
) -> None:
    findings = triage_text(text).findings
    top = [f.id for f in findings[:2]]
    hits = [f for f in findings[:2] if f.id in expected]
    assert hits, f"{source}: expected one of {expected} in the first two, got {top}"
    if knob is not None:
        fixes = fixes_text(hits[0])
        assert knob.lower() in fixes.lower(), f"{source}: fixes lack {knob!r}: {fixes}"


def test_every_line_cites_a_thread_or_doc() -> None:
    sources = [row[3] for row in FIELD_LINES]
    assert all(s.startswith("https://") for s in sources)


# lines from machines without an NVIDIA GPU (a CPU-only box, a Mac): not a wrong torch build
NO_GPU_LINES = [
    (
        "NotImplementedError: Could not run 'aten::empty_strided' with arguments from the 'CUDA' "
        "backend. This could be because the operator doesn't exist for this backend, or was "
        "omitted during the selective/custom build process (if using custom build). "
        "'aten::empty_strided' is only available for these backends: [CPU, MPS, Meta, "
        "QuantizedCPU, BackendSelect, Python, FuncTorchDynamicLayerBackMode, Functionalize,",
        "https://github.com/kijai/ComfyUI-WanVideoWrapper/issues/1987",
    ),
    (
        "/whisper-dictation/venv/lib/python3.8/site-packages/whisper/transcribe.py:114: "
        "UserWarning: FP16 is not supported on CPU; using FP32 instead",
        "https://github.com/foges/whisper-dictation/issues/9",
    ),
]


@pytest.mark.parametrize(("text", "source"), NO_GPU_LINES, ids=[row[1] for row in NO_GPU_LINES])
def test_lines_without_an_nvidia_gpu_are_not_a_cpu_build(text: str, source: str) -> None:
    ids = [f.id for f in triage_text(text).findings[:2]]
    assert "torch.cpu-build-on-gpu-host" not in ids, f"{source}: {ids}"
