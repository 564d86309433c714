"""Quantised-model loading, round 18 sweep (checks/signatures/{quantization,torch,libraries}.toml): each common
message, verbatim from a public thread, reaches its cause first with a fix naming the knob the
thread's fix turned; look-alike messages of other causes are not read as these causes."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

# (message, the finding id first, the knob one of its fixes names, the thread)
KNOB = [
    # the maintainer: a common problem is an outdated bitsandbytes; pip install --upgrade bitsandbytes
    (
        "RuntimeError: \n        CUDA Setup failed despite GPU being available. Inspect the CUDA "
        "SETUP outputs above to fix your environment!\n        If you cannot find any issues and "
        "suspect a bug, please open an issue with detals about your environment:\n        "
        "https://github.com/TimDettmers/bitsandbytes/issues",
        "bitsandbytes.cuda-setup-failed",
        "-U bitsandbytes",
        "https://github.com/bitsandbytes-foundation/bitsandbytes/issues/1522",
    ),
    # the reporter: it works with bitsandbytes==0.43.1 (a released wheel instead of the one in use)
    (
        "Hello, I am trying to finetune Mistral 7b using qlora but m facing this error does anyone "
        "know how to solve it : \nAttributeError: 'NoneType' object has no attribute "
        "'cquantize_blockwise_fp16_nf4'. These are the versions of the packages I am using :\n\n"
        "bitsandbytes==0.43.2\ntransformers==4.34.0\ntorch==2.3.0\naccelerate==0.29.3\n\n"
        "I am using python 3.9",
        "bitsandbytes.cuda-setup-failed",
        "bitsandbytes",
        "https://github.com/bitsandbytes-foundation/bitsandbytes/issues/1210",
    ),
    # the maintainer: this legacy kernel has been removed; use the latest optimum-quanto
    (
        "site-packages\\quanto\\library\\ops.py:66: UserWarning: An exception was raised while "
        "calling the optimized kernel for quanto::dqmm: DLL load failed while importing "
        "quanto_cpp: The specified module could not be found. Falling back to default "
        'implementation.                                 \n  warnings.warn(message + " Falling '
        'back to default implementation.")',
        "quanto.optimized-kernel-unavailable",
        "optimum-quanto",
        "https://github.com/huggingface/optimum-quanto/issues/224",
    ),
    # the maintainer: GPTQ models need compatible versions of auto-gptq and torch (the
    # installation guide); nvcc only for a source build
    (
        "CUDA extension not installed.",
        "autogptq.cuda-ext-not-installed",
        "auto-gptq",
        "https://github.com/QwenLM/Qwen3/issues/558",
    ),
    # the maintainer: torch is a CUDA 11.8 build on a machine with a CUDA 12 toolkit; switch to a
    # CUDA 12.x torch build, or put site-packages/nvidia/cusparse/lib on LD_LIBRARY_PATH
    (
        "Could not load bitsandbytes native library: libcusparse.so.11: cannot open shared object "
        "file: No such file or directory",
        "bitsandbytes.cudart-not-found",
        "nvidia/cusparse/lib",
        "https://github.com/bitsandbytes-foundation/bitsandbytes/issues/1452",
    ),
    # the maintainer: this ROCm wheel isn't ready yet; use one of the older (multi-backend) wheels
    (
        "well, `libbitsandbytes_rocm62.so: undefined symbol: _Z36__device_stub__kOptimizer32bit1S"
        "tateI12hip_bfloat16Li2EEvPT_S2_PfS3_ffffffiffbi`",
        "bitsandbytes.rocm-library-broken",
        "multi-backend",
        "https://github.com/bitsandbytes-foundation/bitsandbytes/issues/1508",
    ),
    # a commenter: fixed by pip install bitsandbytes --upgrade
    (
        "ValueError: You have a version of `bitsandbytes` that is not compatible with 8bit "
        "inference and training make sure you have the latest version of `bitsandbytes` installed",
        "bitsandbytes.transformers-import-check",
        "bitsandbytes",
        "https://github.com/Vaibhavs10/fast-whisper-finetuning/pull/15",
    ),
    # the reporter: the error went away once torch was updated to the latest version (the
    # exllamav2 wheel was built against a newer torch than 2.1.2)
    (
        "ImportError: DLL load failed while importing exllamav2_ext: The specified procedure could "
        "not be found.\nWith torch 2.1.2+cu121 and exllamav2 0.0.15+cu121.\nThe `requirements.txt` "
        "says that torch >= 2.1.0 is ok, but I was getting this error until I updated torch to the "
        "latest version.",
        "torch.extension-abi-mismatch",
        "torch",
        "https://github.com/turboderp-org/exui/issues/37",
    ),
    # the reporter: compiled exllamav2 from source and it runs
    (
        "Hi, when I load a model after installing exllamav2, I get this error:\n\n  File "
        '"c:\\Users\\sa226037\\ai\\lollms-ui\\lollms-webui\\env\\lib\\site-packages\\exllamav2\\'
        'ext.py", line 14, in <module>\n    import exllamav2_ext\nModuleNotFoundError: No module '
        "named 'exllamav2_ext'",
        "torch.extension-cuda-module-missing",
        "exllamav2",
        "https://github.com/turboderp-org/exllamav2/issues/159",
    ),
    # a maintainer: update transformers (pip install -U transformers); the reporter: solved
    (
        "The error message is as follows\n\n`KeyError: 'mixtral'`",
        "python.transformers-too-old-for-model",
        "-U transformers",
        "https://github.com/dropbox/hqq/issues/1",
    ),
    # a commenter: pip install the jllllll bitsandbytes-windows-webui wheel; the reporter thanks
    # them (bitsandbytes had no Windows build before 0.43)
    (
        "存在的问题：1、bitsandbytes目前不支持windows，所以无法量化，希望提供量化版本的模型。\n"
        "2、模型没做切割，所以专用GPU的内容满时，共享GPU无法接着加载。12G的显卡也爆。",
        "bitsandbytes.windows-unsupported",
        "bitsandbytes",
        "https://github.com/QwenLM/Qwen/issues/69",
    ),
    # the AutoAWQ maintainer: use a GPU with the Ampere architecture; V100 is not supported
    (
        "I got this error to run awq model with VLLM on a v100 gpu.\nHow can i resolve this ? \n\n"
        "```\nThe quantization method awq is not supported for the current GPU. Minimum "
        "capability: 75. Current capability: 70.\n```",
        "vllm.quantization-needs-newer-gpu",
        "75",
        "https://github.com/vllm-project/vllm/issues/1488",
    ),
    # the PR author: bitsandbytes 0.45.3 ships CUDA 12.8 builds; upgrading fixes it for users of
    # cu128 torch (RTX 50-series)
    (
        "WARNING:bitsandbytes.cextension:Could not find the bitsandbytes CUDA binary at "
        "WindowsPath('G:/Data/Packages/stable-diffusion-webui-forge/venv/lib/site-packages/"
        "bitsandbytes/libbitsandbytes_cuda128.dll')\nWARNING:bitsandbytes.cextension:The installed "
        "version of bitsandbytes was compiled without GPU support. 8-bit optimizers, 8-bit "
        "multiplication, and GPU quantization are unavailable.",
        "bitsandbytes.cudart-not-found",
        "pip install -U bitsandbytes",
        "https://github.com/lllyasviel/stable-diffusion-webui-forge/pull/2712",
    ),
    # the reporter: solved by pip install auto-gptq --no-build-isolation (and peft==0.10.0)
    (
        "I followed the official procedures to install the environment on my Windows 11 computer, "
        'there is no error during the installation "Successfully installed omniquant-0.1.0". '
        'However, when I tried to test the memory reduction with "--real_quant", it shows '
        '"auto_gptq is required for real quantization" and I tried to debug: "ModuleNotFoundError: '
        "No module named 'auto_gptq'\". Does anyone meet the same issue? Thanks in advance.",
        "transformers.quant-backend-missing",
        "--no-build-isolation",
        "https://github.com/OpenGVLab/OmniQuant/issues/110",
    ),
]

# (message of another cause, the cause it must not be read as, the thread)
LOOKALIKE = [
    # AutoAWQ's kernels failing to load: not quanto's
    (
        "/root/anaconda3/envs/chatglm3_v2/lib/python3.10/site-packages/awq/modules/linear/gemm.py:14: "
        "UserWarning: AutoAWQ could not load GEMM kernels extension. Details: libcudart.so.12: cannot "
        "open shared object file: No such file or directory",
        "quanto.optimized-kernel-unavailable",
        "https://github.com/casper-hansen/AutoAWQ/issues/579",
    ),
    # a ROCm source build that links the wrong C++ standard library (a libc++ symbol), not a
    # missing bitsandbytes kernel
    (
        "Could not load bitsandbytes native library: /run/user/1000/bitsandbytes/bitsandbytes/"
        "libbitsandbytes_rocm61.so: undefined symbol: _ZNSt3__15ctypeIcE2idE",
        "bitsandbytes.rocm-library-broken",
        "https://github.com/ROCm/bitsandbytes/issues/54",
    ),
    # moving a quantised model with an older bitsandbytes: the move, not the version check
    (
        "Calling `to()` is not supported for `4-bit` quantized models with the installed version of "
        "bitsandbytes. The current device is `cuda:0`. If you intended to move the model, please "
        "install bitsandbytes",
        "bitsandbytes.transformers-import-check",
        "https://github.com/huggingface/transformers/issues/35442",
    ),
    # a prebuilt exllamav2 wheel whose DLL does not load: the module is there, built for another
    # torch
    (
        "Windows prebuilt install: DLL load failed while importing exllamav2_ext",
        "torch.extension-cuda-module-missing",
        "https://github.com/turboderp-org/exllamav2/issues/118",
    ),
]


test_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_not_first = lookalike_test(LOOKALIKE)
