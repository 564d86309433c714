"""Knob gaps, round 20 (knobs): dev cases whose cause ranks first but whose fixes named none of
what the thread's confirmed fix turned. ONNX Runtime's CUDA provider DLL failing on Windows (the
latest Visual C++ runtime, and cuDNN 8.9 for CUDA 12 behind a pre-1.19 release's wording); pip
compiling a package from source on Windows (pip install --prefer-binary takes a release that ships
a wheel); a PyTorch index folder written as a dotted CUDA version (whl/cu12.6: never published; the
nearest published build of the pinned release, cu124 for torch 2.4.0); Wan2.1's generate.py running
out of GPU memory (its own --offload_model True --t5_cpu). Look-alike rows are real messages of
other causes (a real CUDA index folder, triton's missing wheel, faster-whisper's cuDNN DLL) that
the dotted-index reading and the new fixes must not take as these causes."""

from __future__ import annotations

from triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # onnxruntime-gpu on Windows with CUDA 12.4: the ORT maintainer: install cuDNN 8.9 for CUDA 12
    # and the latest VC runtime; the reporter: "It works dude, thanks~"
    (
        "`2024-06-15 03:51:08.7326342 [E:onnxruntime:Default, provider_bridge_ort.cc:1744 onnxruntime::TryGetProviderInfo_CUDA] C:\\a\\_work\\1\\s\\onnxruntime\\core\\session\\provider_bridge_ort.cc:1426 onnxruntime::ProviderLibrary::Get [ONNXRuntimeError] : 1 : FAIL : LoadLibrary failed with error 126 \"\" when trying to load \"c:\\Users\\usr\\AppData\\Local\\Programs\\Python\\Python310\\lib\\site-packages\\onnxruntime\\capi\\onnxruntime_providers_cuda.dll\"\n\n*************** EP Error ***************\nEP Error C:\\a\\_work\\1\\s\\onnxruntime\\python\\onnxruntime_pybind_state.cc:866 onnxruntime::python::CreateExecutionProviderInstance CUDA_PATH is set but CUDA wasnt able to be loaded. Please install the correct version of CUDA andcuDNN as mentioned in the GPU requirements page  (https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html#requirements),  make sure they're in the PATH, and that your GPU is supported.\n when using ['CUDAExecutionProvider']\nFalling back to ['CUDAExecutionProvider', 'CPUExecutionProvider'] and retrying.\n****************************************",
        "onnxruntime.cuda-deps-mismatch",
        "vc_redist",
        "https://github.com/microsoft/onnxruntime/issues/21049",
    ),
    (
        "`2024-06-15 03:51:08.7326342 [E:onnxruntime:Default, provider_bridge_ort.cc:1744 onnxruntime::TryGetProviderInfo_CUDA] C:\\a\\_work\\1\\s\\onnxruntime\\core\\session\\provider_bridge_ort.cc:1426 onnxruntime::ProviderLibrary::Get [ONNXRuntimeError] : 1 : FAIL : LoadLibrary failed with error 126 \"\" when trying to load \"c:\\Users\\usr\\AppData\\Local\\Programs\\Python\\Python310\\lib\\site-packages\\onnxruntime\\capi\\onnxruntime_providers_cuda.dll\"\n\n*************** EP Error ***************\nEP Error C:\\a\\_work\\1\\s\\onnxruntime\\python\\onnxruntime_pybind_state.cc:866 onnxruntime::python::CreateExecutionProviderInstance CUDA_PATH is set but CUDA wasnt able to be loaded. Please install the correct version of CUDA andcuDNN as mentioned in the GPU requirements page  (https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html#requirements),  make sure they're in the PATH, and that your GPU is supported.\n when using ['CUDAExecutionProvider']\nFalling back to ['CUDAExecutionProvider', 'CPUExecutionProvider'] and retrying.\n****************************************",
        "onnxruntime.cuda-deps-mismatch",
        "cuDNN 8.9",
        "https://github.com/microsoft/onnxruntime/issues/21049",
    ),
    # ComfyUI-InstantID, insightface compiled from source on Windows: the reporter: "installing
    # insightface manually with --prefer-binary so it didn't compile"
    (
        "      copying insightface\\thirdparty\\face3d\\mesh\\cython\\setup.py -> build\\lib.win-amd64-cpython-311\\insightface\\thirdparty\\face3d\\mesh\\cython\n      running build_ext\n      building 'insightface.thirdparty.face3d.mesh.cython.mesh_core_cython' extension\n      error: Microsoft Visual C++ 14.0 or greater is required. Get it with \"Microsoft C++ Build Tools\": https://visualstudio.microsoft.com/visual-cpp-build-tools/\n      [end of output]\n\n  note: This error originates from a subprocess, and is likely not a problem with pip.\n  ERROR: Failed building wheel for insightface\nFailed to build insightface\nERROR: Could not build wheels for insightface, which is required to install pyproject.toml-based projects```\n```",
        "windows.msvc-build-tools-missing",
        "--prefer-binary",
        "https://github.com/ZHO-ZHO-ZHO/ComfyUI-InstantID/issues/14",
    ),
    # ComfyUI_LayerStyle, torch 2.4.0 from whl/cu12.6: the node author: no such index, CUDA 12.4 is
    # the highest torch is built for; the reporter reinstalled from a real CUDA index: "After
    # reinstallation ComfyUI now works"
    (
        "You proposed that I should use the command ../../../python_embeded/python.exe -s -m pip install torch==2.4.0 torchaudio==2.4.0 torchvision==0.19.0 -i https://download.pytorch.org/whl/cu12.6.4 and replacing the end number with the number of the driver of my Cuda.\n\nI checked the version of the Cuda driver in the Nvidia Control Panel and it shows 12.6.65\n\nI tried this \n\n../../../python_embeded/python.exe -s -m pip install torch==2.4.0 torchaudio==2.4.0 torchvision==0.19.0 -i https://download.pytorch.org/whl/cu12.6.65 and get this result:\n\nC:\\ComfyUI\\ComfyUI\\custom_nodes\\ComfyUI_LayerStyle>python.exe -s -m pip install torch==2.4.0 torchaudio==2.4.0 torchvision==0.19.0 -i https://download.pytorch.org/whl/cu12.6\nLooking in indexes: https://download.pytorch.org/whl/cu12.6, https://pypi.ngc.nvidia.com/\nERROR: Could not find a version that satisfies the requirement torch==2.4.0 (from versions: none)\nERROR: No matching distribution found for torch==2.4.0",
        "torch.index-variant-missing",
        "cu124",
        "https://github.com/chflame163/ComfyUI_LayerStyle/issues/295",
    ),
    # Wan2.1-T2V-1.3B filling a 24 GB 4090: a contributor: --offload_model True --t5_cpu; the
    # reporter: "感谢，显存降下来了。"
    (
        "如题，为什么我本地运行Wan2.1-T2V-1.3B模型，4090的24G显存都跑满了",
        "memory.workload-does-not-fit",
        "--t5_cpu",
        "https://github.com/Wan-Video/Wan2.1/issues/42",
    ),
]

# (message verbatim from a thread of another cause, the cause it must not be read as, thread)
LOOKALIKE = [
    # a real CUDA folder (cu121) with no wheel for this interpreter: not an unpublished folder
    (
        "pip install torch torchvision torchaudio --index-url https://download.pytorch.org/whl/cu121\n\n### Versions\n\n**Ошибка:**\nERROR: Could not find a version that satisfies the requirement torch (from versions: none)\nERROR: No matching distribution found for torch\n\nWindows 11, версия драйвера 576.52, Python 3.10.11, pip 25.1.1",
        "torch.index-variant-missing",
        "https://github.com/pytorch/pytorch/issues/156024",
    ),
    # triton has no Windows wheel: a commenter: triton-windows resolved it
    (
        "ERROR: Could not find a version that satisfies the requirement triton>=2.1.0 (from versions: none)\nERROR: No matching distribution found for triton>=2.1.0",
        "torch.index-variant-missing",
        "https://github.com/khanfar/DeepSeek-V3-Windows-Installation-Guide/issues/3",
    ),
    # cuDNN 8 missing for faster-whisper: the reporter set the local model to cpu, which solved it
    (
        "Could not load library cudnn_ops_infer64_8.dll. Error code 126\nPlease make sure cudnn_ops_infer64_8.dll is in your library path!\n\nTried on Windows 10 and 11.",
        "onnxruntime.cuda-deps-mismatch",
        "https://github.com/savbell/whisper-writer/issues/29",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_this_cause = lookalike_test(LOOKALIKE)
