"""Windows DLL load failures, round 18 sweep (windll3: checks/signatures/windows.toml and the
existing Windows DLL entries it extends): each message, verbatim from a public thread where the fix
was confirmed (the reporter said it worked, or a maintainer stated cause and fix), reaches its cause
first with a fix naming the knob that fix turned (the package version, the conda package, the
import order, the folder on PATH); look-alike rows are real messages of other causes that the new
DLL patterns must not take."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, the knob one of its fixes names, thread)
KNOB = [
    (
        'Traceback (most recent call last):\n  File "C:\\Users\\ryzz\\git\\phi3-qa.py", line 1, in <module>\n    import onnxruntime_genai as og\n  File "C:\\Users\\ryzz\\anaconda3\\envs\\onnxdml\\lib\\site-packages\\onnxruntime_genai\\__init__.py", line 20, in <module>\n    raise e\n  File "C:\\Users\\ryzz\\anaconda3\\envs\\onnxdml\\lib\\site-packages\\onnxruntime_genai\\__init__.py", line 10, in <module>\n    from onnxruntime_genai.onnxruntime_genai import *\nImportError: DLL load failed while importing onnxruntime_genai: A dynamic link library (DLL) initialization routine failed.',
        "windows.dll-dependency-missing",
        "vs2015_runtime",
        "https://github.com/microsoft/onnxruntime-genai/issues/657",
    ),
    (
        'Installed latest version 0.3.0 of the package with directml and I am getting the following import error:\n```python\n>>> import onnxruntime_genai\nTraceback (most recent call last):\n  File "<stdin>", line 1, in <module>\n  File "C:\\ProgramData\\miniconda3\\envs\\dml\\lib\\site-packages\\onnxruntime_genai\\__init__.py", line 20, in <module>\n    raise e\n  File "C:\\ProgramData\\miniconda3\\envs\\dml\\lib\\site-packages\\onnxruntime_genai\\__init__.py", line 10, in <module>\n    from onnxruntime_genai.onnxruntime_genai import *\nImportError: DLL load failed while importing onnxruntime_genai: A dynamic link library (DLL) initialization routine failed.\n```\nNot sure which DLL is missing',
        "windows.dll-dependency-missing",
        "vs2015_runtime",
        "https://github.com/microsoft/onnxruntime-genai/issues/642",
    ),
    (
        "在运行程序时：\npython .\\background\\main.py\n遇到报错：\nImportError: DLL load failed while importing onnxruntime_pybind11_state: 动态链接库(DLL)初始化例程失败。",
        "windows.dll-dependency-missing",
        "vs2015_runtime",
        "https://github.com/lazydog28/mc_auto_boss/issues/205",
    ),
    (
        'I\'m encountering a dll load error with onnxruntime-directml 1.18.1 on a Windows11 system:\n```\nFile "C:\\Users\\Default\\miniconda3\\envs\\onnx\\Lib\\site-packages\\onnxruntime\\capi\\_pybind_state.py", line 32, in <module>\n    from .onnxruntime_pybind11_state import *  # noqa\n    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\nImportError: DLL load failed while importing onnxruntime_pybind11_state: A dynamic link library (DLL) initialization routine failed.\n```',
        "windows.dll-dependency-missing",
        "Redistributable",
        "https://github.com/microsoft/onnxruntime/issues/21270",
    ),
    (
        "Importing `spaCy` directly works as expected, but importing `spaCy` after importing `PyQt5` produces a DLL error for `PyTorch`.\n\nThe same reproduction script only produces an error with `PyTorch` >= 2.9.0. It works with `PyTorch` 2.8.0.",
        "windows.dll-dependency-missing",
        "PyQt",
        "https://github.com/explosion/spaCy/issues/13894",
    ),
    (
        '我在 Windows 10 环境下，用 Python 3.10 安装了 PyQt5 GUI 程序，并在程序中使用了 EasyOCR（依赖 PyTorch）来识别价格。程序运行时直接报错：\nOSError: [WinError 1114] 动态链接库(DLL)初始化例程失败。 \nError loading "E:\\python\\py_jsq\\Python310\\lib\\site-packages\\torch\\lib\\c10.dll" or one of its dependencies.',
        "windows.dll-dependency-missing",
        "PyQt",
        "https://github.com/XiaoGu-G2020/DeltaForceMarketBot/issues/46",
    ),
    (
        "2023-12-09 17:18:49,676 - modelscope - INFO - PyTorch version 2.1.1 Found.\nOMP: Error #15: Initializing libiomp5md.dll, but found libiomp5md.dll already initialized.\nOMP: Hint This means that multiple copies of the OpenMP runtime have been linked into the program. That is dangerous, since it can degrade performance or cause incorrect results. The best thing to do is to ensure that only a single OpenMP runtime is linked into the process, e.g. by avoiding static linking of the OpenMP runtime in any library. As an unsafe, unsupported, undocumented workaround you can set the environment variable KMP_DUPLICATE_LIB_OK=TRUE to allow the program to continue to execute, but that may cause crashes or silently produce incorrect results. For more information, please see http://www.intel.com/software/products/support/.",
        "platform.duplicate-openmp-runtime",
        "KMP_DUPLICATE_LIB_OK",
        "https://github.com/modelscope/ms-agent/issues/175",
    ),
    (
        "I encountered environment  bug that is OMP: Error #15: Initializing libiomp5md.dll, but found libiomp5md.dll already initialized.",
        "platform.duplicate-openmp-runtime",
        "KMP_DUPLICATE_LIB_OK",
        "https://github.com/kuaikuaikim/dface/issues/36",
    ),
    (
        'OSError: [WinError 126] The specified module could not be found. Error loading "C:\\ComfyUI-Zluda\\venv\\lib\\site-packages\\torch\\lib\\caffe2_nvrtc.dll" or one of its dependencies.\nPS C:\\ComfyUI-Zluda>',
        "windows.dll-dependency-missing",
        "ROCm",
        "https://github.com/patientx/ComfyUI-Zluda/issues/5",
    ),
    (
        'OSError: [WinError 126] The specified module could not be found. Error loading "E:\\ComfyUI-Zluda\\venv\\Lib\\site-packages\\torch\\lib\\caffe2_nvrtc.dll" or one of its dependencies.',
        "windows.dll-dependency-missing",
        "ROCm",
        "https://github.com/patientx/ComfyUI-Zluda/issues/9",
    ),
    (
        "2022-08-11 14:21:29.345331: W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library 'cudart64_110.dll'; dlerror: cudart64_110.dll not found\n2022-08-11 14:21:29.345439: I tensorflow/stream_executor/cuda/cudart_stub.cc:29] Ignore above cudart dlerror if you do not have a GPU set up on your machine.\nTensorFlow version: 2.9.1",
        "tensorflow.cuda-libs-not-found",
        "CUDA 11.2",
        "https://github.com/tensorflow/tensorflow/issues/57103",
    ),
    (
        "I needed to install the [CUDA  11.3 library](https://developer.nvidia.com/cuda-11.3.0-download-archive) to fix the following error message for my RTX 3080ti\n\"Could not load dynamic library 'cudart64_110.dll'\"",
        "windows.cuda-runtime-dll-missing",
        "CUDA 11",
        "https://github.com/volotat/DiffMorph/issues/19",
    ),
    (
        "2022-06-22 15:44:53.578885: W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library 'cudart64_110.dll'; dlerror: cudart64_110.dll not found",
        "tensorflow.cuda-libs-not-found",
        "cudart64_110.dll",
        "https://github.com/google/lightweight_mmm/issues/23",
    ),
    (
        '$ python\nPython 3.10.7 (tags/v3.10.7:6cc6b13, Sep  5 2022, 14:08:36) [MSC v.1933 64 bit (AMD64)] on win32\nType "help", "copyright", "credits" or "license" for more information.\n>>> import jax\n2022-09-18 11:52:21.036734: W external/org_tensorflow/tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library \'cudart64_110.dll\'; dlerror: cudart64_110.dll not found',
        "tensorflow.cuda-libs-not-found",
        "PATH",
        "https://github.com/cloudhan/jax-windows-builder/issues/16",
    ),
    (
        'error: Microsoft Visual C++ 14.0 or greater is required. Get it with "Microsoft C++ Build Tools": https://visualstudio.microsoft.com/visual-cpp-build-tools/\n\nI have installed, unistalled and reinstalled the Microsoft Visual Studio with standard options and with all options. I have trying install the Redistribuible C++ too, but dont repair the problem.',
        "windows.msvc-build-tools-missing",
        "Build Tools",
        "https://github.com/3rdIteration/btcrecover/issues/327",
    ),
    (
        'The specified module could not be found. Error loading "torch\\lib\\caffe2_detectron_ops.dll" or one of its dependencies.\nI had to download https://aka.ms/vs/16/release/vc_redist.x64.exe on a fresh install of Win10 on a K80 VM to resolve this issue.',
        "windows.dll-dependency-missing",
        "Redistributable",
        "https://github.com/Djdefrag/QualityScaler/issues/9",
    ),
    (
        'On x64 win10 and 11, I got the follow error even if I only try the CPU version. I have installed VC_redist.x64.exe while win 11 is a clean system.\n\n[WinError 126] The specified module could not be found. Error loading "C:\\Users\\vm\\Downloads\\DeepMosaics_0.5.1_gpu\\core\\torch\\lib\\caffe2_detectron_ops_gpu.dll" or one of its dependencies.',
        "windows.dll-dependency-missing",
        "CUDA",
        "https://github.com/HypoX64/DeepMosaics/issues/117",
    ),
    (
        'Python.Runtime.PythonException: OSError : [WinError 126] 找不到指定的模块。 Error loading "C:\\Anaconda3\\envs\\mtscript\\Lib\\site-packages\\torch\\lib\\caffe2_detectron_ops_gpu.dll" or one of its dependencies.',
        "windows.dll-dependency-missing",
        "Dependencies",
        "https://github.com/pytorch/pytorch/issues/54233",
    ),
    (
        "Windows 10 error:\n\nFileNotFoundError: [WinError 206] The filename or extension is too long: 'C:\\\\Users\\\\User_Name\\\\AppData\\\\Local\\\\Temp\\\\pip-build-ur7jw515\\\\ansible\\\\test/integration/targets/copy/files/subdir/subdir1/circles/subdir1/circles/subdir1/circles/subdir1/circles/subdir1/circles/subdir1/circles/subdir1/circles/subdir1/circles/subdir1/'",
        "windows.long-paths-disabled",
        "LongPathsEnabled",
        "https://github.com/Azure/azure-cli/issues/1221",
    ),
    (
        'ImportError: DLL load failed while importing onnx_cpp2py_export: A dynamic link library (DLL) initialization routine failed.\nvenv\\Lib\\site-packages\\onnx\\__init__.py", line 77, in <module>\n    from onnx.onnx_cpp2py_export import ONNX_ML\n\nworking with all solutions, but no lock to bypass this error',
        "windows.dll-dependency-missing",
        "onnx==1.16.1",
        "https://github.com/tonykipkemboi/ollama_pdf_rag/issues/21",
    ),
    (
        "My PDF is not uploading. It's giving following error:\n\nImportError: DLL load failed while importing onnx_cpp2py_export: A dynamic link library (DLL) initialization routine failed.",
        "windows.dll-dependency-missing",
        "onnx==1.16.1",
        "https://github.com/tonykipkemboi/ollama_pdf_rag/issues/16",
    ),
    (
        "ImportError: DLL load failed while importing onnx_cpp2py_export: 动态链接库(DLL)初始化例程失败。\nwin11 ，\nconda python=3.10.14\n加载模型报错。。安装的是 cpu版本",
        "windows.dll-dependency-missing",
        "onnx==1.16.1",
        "https://github.com/CVHub520/X-AnyLabeling/issues/564",
    ),
    (
        "## 问题描述\nImportError: DLL load failed while importing onnx_cpp2py_export: 动态链接库(DLL)初始化例程失败。\n\n请问这该如何解决",
        "windows.dll-dependency-missing",
        "onnx==1.16.1",
        "https://github.com/PDFMathTranslate/PDFMathTranslate/issues/178",
    ),
    (
        'Traceback (most recent call last):\n  File "C:\\Users\\Domin\\Desktop\\convert_stable_diffusion_checkpoint_to_onnx.py", line 20, in <module>\n    import onnx\n  File "C:\\Users\\Domin\\miniconda3\\envs\\sd39new\\lib\\site-packages\\onnx\\__init__.py", line 77, in <module>\n    from onnx.onnx_cpp2py_export import ONNX_ML\nImportError: DLL load failed while importing onnx_cpp2py_export: A dynamic link library (DLL) initialization routine failed.',
        "windows.dll-dependency-missing",
        "Redistributable",
        "https://github.com/onnx/onnx/issues/6279",
    ),
]

# (real message of another cause, the cause it must not reach first, thread)
LOOKALIKE = [
    # onnxruntime.cuda-deps-mismatch / CUDA not installed
    (
        '[E:onnxruntime:Default, provider_bridge_ort.cc:1745 onnxruntime::TryGetProviderInfo_CUDA] D:\\a\\_work\\1\\s\\onnxruntime\\core\\session\\provider_bridge_ort.cc:1426 onnxruntime::ProviderLibrary::Get [ONNXRuntimeError] : 1 : FAIL : LoadLibrary failed with error 126 "" when trying to load "D:\\MingChao\\envs\\mc\\lib\\site-packages\\onnxruntime\\capi\\onnxruntime_providers_cuda.dll"',
        "windows.dll-dependency-missing",
        "https://github.com/lazydog28/mc_auto_boss/issues/205",
    ),
    # two OpenMP runtimes
    (
        "遇到报错：\nOMP: Error #15: Initializing libiomp5md.dll, but found libiomp5md.dll already initialized.\nOMP: Hint This means that multiple copies of the OpenMP runtime have been linked into the program. That is dangerous, since it can degrade performance or cause incorrect results. The best thing to do is to ensure that only a single OpenMP runtime is linked into the process, e.g. by avoiding static linking of the OpenMP runtime in any library. As an unsafe, unsupported, undocumented workaround you can set the environment variable KMP_DUPLICATE_LIB_OK=TRUE to allow the program to continue to execute, but that may cause crashes or silently produce incorrect results. For more information, please see http://www.intel.com/software/products/support/.\n请问是什么问题呢？",
        "windows.dll-dependency-missing",
        "https://github.com/hpc203/10kinds-light-face-detector-align-recognition/issues/14",
    ),
    # TensorFlow's CUDA runtime not installed
    (
        "W tensorflow/stream_executor/platform/default/dso_loader.cc:59] Could not load dynamic library 'cudart64_110.dll'; dlerror: cudart64_110.dll not found",
        "windows.dll-dependency-missing",
        "https://github.com/tensorflow/tensorflow/issues/43193",
    ),
    # WSL: libcuda.so not on the loader path
    (
        '"Could not load library libcudnn_cnn_infer.so.8. Error: libcuda.so: cannot open shared object file: No such file or directory"\n\ni\'m using Python 3.10.12 and followed the instructions as it shows to run on a Ubuntu Subsystem on Windows.',
        "windows.dll-dependency-missing",
        "https://github.com/facebookresearch/seamless_communication/issues/167",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_caught = lookalike_test(LOOKALIKE)
