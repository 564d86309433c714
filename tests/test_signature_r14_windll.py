"""Windows DLL dependencies (round 14 sweep, windll: checks/signatures/windows.toml and the
existing Windows DLL, CUDA DLL and TensorRT causes): each message, verbatim from a public thread
where the fix was confirmed (or a maintainer stated cause and fix), reaches that cause first with a
fix naming the knob it turned; look-alike rows are real messages of other causes."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, the knob one of its fixes names, thread)
KNOB = [
    (
        'OSError: [WinError 126] Das angegebene Modul wurde nicht gefunden. Error loading "C:\\Users\\xyz\\AppData\\Roaming\\Python\\Python312\\site-packages\\torch\\lib\\shm.dll" or one of its dependencies.',
        "windows.dll-dependency-missing",
        "2.3.1",
        "https://github.com/pytorch/pytorch/issues/125109",
    ),
    (
        "`Unable to open library: nvinfer_plugin_10.dll`\nbut I actually find  nvinfer_plugin_10.dll in my RELEASE foldor.",
        "tensorrt.lib-not-on-loader-path",
        "PATH",
        "https://github.com/NVIDIA/TensorRT/issues/4159",
    ),
    (
        "Uncaught exception detected: Unable to open library: nvinfer_plugin.dll",
        "tensorrt.lib-not-on-loader-path",
        "PATH",
        "https://github.com/spacewalk01/depth-anything-tensorrt/issues/19",
    ),
    (
        "提示You are using Paddle compiled with TensorRT, but TensorRT dynamic library is not found.\n但我已经添加了C:\\Program Files\\NVIDIA\\TensorRT-7.2.1.6\\bin到环境变量了，请问是怎么回事呢？",
        "tensorrt.lib-not-on-loader-path",
        "PATH",
        "https://github.com/PaddlePaddle/PaddleDetection/issues/5550",
    ),
    (
        "An import of a Python extension that depends on a DLL that is located in an arbitrary directory will fail, even if the directory containing the DLL has been added to the search path with os.add_dll_directory.  The user gets an ImportError e.g.\n\nImportError: DLL load failed while importing my_module: The specified module could not be found.",
        "windows.dll-dependency-missing",
        "CONDA_DLL_SEARCH_MODIFICATION_ENABLE",
        "https://github.com/ContinuumIO/anaconda-issues/issues/12475",
    ),
    (
        "RuntimeError: Library cublas64_12.dll is not found or cannot be loaded\n\n在conda环境中，pytorch2.2.1+cu118，用funasr转写中文，训练，推理都没有问题，但调用faster whisper时，提示找不到cublas64_12.dll。",
        "windows.cuda-runtime-dll-missing",
        "ctranslate2==3.24.0",
        "https://github.com/RVC-Boss/GPT-SoVITS/issues/607",
    ),
    (
        "v 1.6.0 cublas64_12.dll is not found or cannot be loaded",
        "windows.cuda-runtime-dll-missing",
        "cublas64_12",
        "https://github.com/meizhong986/WhisperJAV/issues/57",
    ),
    (
        'OSError: [WinError 127] The specified procedure could not be found. Error loading "...\\.venv\\lib\\site-packages\\paddle\\..\\nvidia\\cudnn\\bin\\cudnn_cnn64_9.dll" or one of its dependencies.',
        "paddle.cudnn-dll-clash",
        "nvidia-cudnn",
        "https://github.com/PaddlePaddle/Paddle/issues/75939",
    ),
    (
        'HJH Check Python Ver.3.11.8 (tags/v3.11.8:db85d51, Feb 6 2024, 22:03:32) [MSC v.1937 64 bit (AMD64)] HJH Check CUDA Ver.12.1 HJH Check Torch Ver.2.3.1+cu121 HJH Check cuDNN Ver. 8907 HJH Check ONNXRuntime Ver. 1.19.2\n2024-10-26 20:47:00.5657450 [E:onnxruntime:Default, [provider_bridge_ort.cc:1992](http://provider_bridge_ort.cc:1992/) onnxruntime::TryGetProviderInfo_CUDA] D:\\a_work\\1\\s\\onnxruntime\\core\\session[provider_bridge_ort.cc:1637](http://provider_bridge_ort.cc:1637/) onnxruntime::ProviderLibrary::Get [ONNXRuntimeError] : 1 : FAIL : LoadLibrary failed with error 126 "" when trying to load "C:\\Work\\SD-ComfyUI\\python_embeded\\Lib\\site-packages\\onnxruntime\\capi\\onnxruntime_providers_cuda.dll"',
        "onnxruntime.cuda-deps-mismatch",
        "1.18",
        "https://github.com/microsoft/onnxruntime/issues/22491",
    ),
    (
        'OSError: [WinError 127] La procédure spécifiée est introuvable. Error loading "E:\\SSD\\SuperSD2.0\\kohya\\kohya_ss\\venv\\lib\\site-packages\\torch\\lib\\cudnn_adv_infer64_8.dll" or one of its dependencies.',
        "windows.dll-dependency-missing",
        "pip uninstall",
        "https://github.com/bmaltais/kohya_ss/issues/486",
    ),
]

# (real message of another cause, the cause it must not reach first, thread)
LOOKALIKE = [
    (
        "['TensorrtExecutionProvider', 'CUDAExecutionProvider', 'CPUExecutionProvider']\n2024-08-22 13:01:04.2808367 [E:onnxruntime:Default, provider_bridge_ort.cc:1992 onnxruntime::TryGetProviderInfo_CUDA] D:\\a\\_work\\1\\s\\onnxruntime\\core\\session\\provider_bridge_ort.cc:1637 onnxruntime::ProviderLibrary::Get [ONNXRuntimeError] : 1 : FAIL : LoadLibrary failed with error 126 \"\" when trying to load \"c:\\Simon\\Timpi\\test\\myenv\\Lib\\site-packages\\onnxruntime\\capi\\onnxruntime_providers_cuda.dll\"",
        "tensorrt.lib-not-on-loader-path",
        "https://github.com/microsoft/onnxruntime/issues/21825",
    ),
    (
        'OSError: [WinError 127] The specified procedure could not be found. Error loading "...\\.venv\\lib\\site-packages\\paddle\\..\\nvidia\\cudnn\\bin\\cudnn_cnn64_9.dll" or one of its dependencies.',
        "windows.dll-dependency-missing",
        "https://github.com/PaddlePaddle/Paddle/issues/75939",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_caught = lookalike_test(LOOKALIKE)
