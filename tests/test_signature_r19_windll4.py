"""Windows DLL dependencies, round 19: a DLL that fails to initialise (WinError 1114, 0x8007045A,
"动态链接库(DLL)初始化例程失败") for onnxruntime in a C# app and for a bundled native server, both
fixed by the Visual C++ Redistributable; torch's fbgemm.dll that loads only once the MSVC build
tools are installed; faster-whisper's missing cuDNN DLL; and a DLL initialisation failure a
Python downgrade fixed. Each verbatim message reaches its cause first and one of its fixes names
the knob the thread's confirmed fix turned; look-alike rows are real messages of other causes
that the new phrasings must not read as theirs."""

from __future__ import annotations

import pytest
from triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # the reporter answered their own post: install the VC++ runtime (aka.ms vc_redist.x64.exe)
    (
        "启动程序后出现报错：**Unable to load DLL 'onnxruntime'or one of its dependencies: 动态链接库(DLL)初始化例程失败。(0x8007045A)**",
        "windows.dll-dependency-missing",
        "Visual C++ Redistributable",
        "https://github.com/babalae/better-genshin-impact/issues/1741",
    ),
    # the maintainer: the vcredist is too old; update it (FAQ entry for error 1114)
    (
        "使用lip 安装捆绑了 Minecraft Bedrock Server 的 LeviLamina然后启动，它就显示动态链接库(DLL)初始化例程失败\n\n想问一下这是什么原因怎么解决？",
        "windows.dll-dependency-missing",
        "Visual C++ Redistributable",
        "https://github.com/LiteLDev/LeviLamina/issues/1564",
    ),
    # the maintainer verified that installing the MSVC build tools fixes it, and closed the issue
    (
        "[Issue]: Error loading fbgemm.dll",
        "windows.dll-dependency-missing",
        "build tools",
        "https://github.com/ROCm/TheRock/issues/1167",
    ),
    # the reporter: "Purfview's solution did the trick" (the cuBLAS/cuDNN DLLs for faster-whisper)
    (
        "Since a couple of days I get the following message: Could not locate cudnn_ops_infer64_8.dll. Please make sure it is in your library path!\n\nI've reinstalled everything but it keeps showing the message.",
        "cuda.cudnn-missing",
        "cuDNN",
        "https://github.com/jhj0517/Whisper-WebUI/issues/296",
    ),
    # the maintainer: downgrade ctranslate2 below 4.0.0 or upgrade CUDA to 12.x; the reporter
    # replied and the issue was closed
    (
        "can anyone help me fix this issue please, i get it when i use sugio translator?\n\nLibrary cublas64_12.dll is not found or cannot be loaded",
        "windows.cuda-runtime-dll-missing",
        "CUDA Toolkit 12",
        "https://github.com/dmMaze/BallonsTranslator/issues/404",
    ),
    # the maintainer: put the CUDA toolkit's bin folder on PATH; the reporter got it working by
    # making the cuBLAS DLLs findable
    (
        'Try it just now, got "cublas64_11.dll not found" when tried to translate text. Tried installing cuda toolkit but error persist. Not sure where to put the dll from cuda toolkit.',
        "windows.cuda-runtime-dll-missing",
        "PATH",
        "https://github.com/OpenNMT/CTranslate2/issues/623",
    ),
    # the maintainer suggested Python 3.11; the reporter: "好了已经 谢谢" (fixed)
    pytest.param(
        "动态链接库(DLL)初始化例程失败,请问是什么问题呢\n\nPython 3.12.4 感觉像是版本问题",
        "windows.dll-dependency-missing",
        "3.11",
        "https://github.com/lanbinleo/bili2text/issues/81",
        marks=pytest.mark.xfail(
            strict=True,
            reason="the thread names neither the DLL nor the package; a Python 3.11 fix cannot be told from the text",
        ),
    ),
]

# (message verbatim from a thread of another cause, the cause it must not be read as, thread)
LOOKALIKE = [
    # a model file that does not exist, not a DLL
    (
        "onnxruntime.capi.onnxruntime_pybind11_state.NoSuchFile: [ONNXRuntimeError] : 3 : NO_SUCHFILE : Load model from model.onnx failed:Load model model.onnx failed. File doesn't exist",
        "windows.dll-dependency-missing",
        "https://github.com/microsoft/onnxruntime/issues/24691",
    ),
    # Linux: the CUDA runtime shared object, not a Windows DLL
    (
        "Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared object file: No such file or directory",
        "windows.dll-dependency-missing",
        "https://github.com/Fictionarry/TalkingGaussian/issues/58",
    ),
    # Linux: the CUDA runtime shared object, not a Windows DLL
    (
        "Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared object file: No such file or directory",
        "windows.cuda-runtime-dll-missing",
        "https://github.com/Fictionarry/TalkingGaussian/issues/58",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_this_cause = lookalike_test(LOOKALIKE)
