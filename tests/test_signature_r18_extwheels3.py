"""Round 18 sweep of prebuilt extension wheels, third pass (checks/signatures/{torch,cuda}.toml and
the libstdc++ pattern added to checks/signatures/*.toml): each message, verbatim from a thread whose fix was
confirmed (reporter or maintainer), reaches that cause first, and one of its fixes names the knob the
confirmed fix turned (the package, wheel, index, flag or command). Look-alike rows are real messages
of other causes the new phrasings must not read as theirs."""

from __future__ import annotations

from triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # maintainer: run without FlashAttention (vanilla attention) on a pre-Ampere GPU
    (
        "Thank you very much for your work. I would like to know when my server is training the model, it prompts: **FlashAttention only supports Ampere GPUs or newer**, so can I train the model without changing the server? For example, without using FlashAttention，Thank you very much.",
        "flashattn.gpu-arch-unsupported",
        "attn",
        "https://github.com/InternRobotics/PointLLM/issues/47",
    ),
    # reporter: after installing ninja it works
    (
        "```\nRuntimeError: Ninja is required to load C++ extensions\n```\nwhen running section `Tensor Parallel with DeepSpeed\n` in `Inference with PyTorch`",
        "torch.extension-build-tools-missing",
        "pip install ninja",
        "https://github.com/InternLM/lmdeploy/issues/242",
    ),
    # maintainer: no CPU-only prebuilt pytorch3d; build it from source (git+...pytorch3d.git@stable)
    (
        "Could not find name `_C` in `pytorch3d`\n\npip install pytorch3d -f https://dl.fbaipublicfiles.com/pytorch3d/packaging/wheels/py36_cu101_pyt170/download.html\nwhat should it be if my pytorch is cpu_only?",
        "torch.extension-cuda-module-missing",
        "pytorch3d.git@stable",
        "https://github.com/facebookresearch/pytorch3d/issues/676",
    ),
    # maintainer: torch and CUDA must be exactly the same between the pytorch3d build and the run
    (
        "ImportError: cannot import name '_C' from 'pytorch3d' (/lxy02/GenPose-main_/GenPose-main/pytorch3d/__init__.py)",
        "torch.extension-cuda-module-missing",
        "pip install --no-build-isolation -e .",
        "https://github.com/facebookresearch/pytorch3d/issues/1876",
    ),
    # maintainer: install detectron2 following INSTALL.md (build it against the installed torch)
    (
        "When i run demo.py , there is an error  \"ImportError: cannot import name '_C' from 'detectron2'\". Does anybody know this mistake?",
        "torch.extension-abi-mismatch",
        "detectron2.git",
        "https://github.com/facebookresearch/detectron2/issues/444",
    ),
    # reporter: building detectron2 from source worked (源码安装成功)
    (
        '  File "C:\\Users\\XXX\\miniconda3\\lib\\site-packages\\detectron2\\layers\\deform_conv.py", line 11, in <module>\n    from detectron2 import _C\nImportError: DLL load failed while importing _C: 找不到指定的模块。',
        "windows.dll-dependency-missing",
        "rebuild it against this torch",
        "https://github.com/opendatalab/PDF-Extract-Kit/issues/5",
    ),
    # reporter: `conda install libgcc` (a newer libstdc++) solved it
    (
        'Hi! I have installed torch-scatter by following your suggestion.But I still met the problem that "undefined symbol: _ZNSt13runtime_errorC2EPKc"',
        "python.libstdcxx-too-old",
        "libgcc",
        "https://github.com/pyg-team/pytorch_geometric/issues/506",
    ),
    # commenter: following triton-windows resolved it ("This resolved my problem")
    (
        "ERROR: Could not find a version that satisfies the requirement triton>=2.1.0 (from versions: none)\nERROR: No matching distribution found for triton>=2.1.0",
        "torch.triton-missing",
        "triton-windows",
        "https://github.com/khanfar/DeepSeek-V3-Windows-Installation-Guide/issues/3",
    ),
    # commenter: the prebuilt flash-attn wheel must match torch; reporter: recompiling it worked
    (
        "    import flash_attn_2_cuda as flash_attn_cuda\nImportError: DLL load failed while importing flash_attn_2_cuda",
        "windows.dll-dependency-missing",
        "flash-attn",
        "https://github.com/turboderp-org/exllamav2/issues/358",
    ),
    # maintainer: use a prebuilt wheel; commenter: the prebuilt flash-attn wheel runs without errors
    (
        "Hai I am Using windows and I got this error while running \nYUE_Stage_A_Loader\n\nFlashAttention2 has been toggled on, but it cannot be used due to the following error: the package flash_attn seems to be not installed. Please refer to the documentation of https://huggingface.co/docs/transformers/perf_infer_gpu_one#flashattention-2 to install Flash Attention 2.",
        "flashattn.not-installable",
        "prebuilt flash-attn wheel",
        "https://github.com/smthemex/ComfyUI_YuE/issues/6",
    ),
    # maintainer: install a prebuilt Windows flash-attn wheel
    (
        "Failed to load model even with eager attention: FlashAttention2 has been toggled on, but it cannot be used due to the following error: the package flash_attn seems to be not installed. Please refer to the documentation of https://huggingface.co/docs/transformers/perf_infer_gpu_one#flashattention-2 to install Flash Attention 2.\n\ni tried with pip but build failed because i think flash-attn v2 is not supported on native Windows",
        "flashattn.not-installable",
        "prebuilt flash-attn wheel",
        "https://github.com/wildminder/ComfyUI-VibeVoice/issues/44",
    ),
    # reporter: installing the CUDA Toolkit (nvcc) from NVIDIA made the DeepSpeed install succeed
    (
        "installation problem: No such file or directory: '/usr/local/cuda/bin/nvcc'\n\nHi, I met this problem as shown. But I actually have nvcc in my conda environment. \n\nconda list |grep nvcc\nnvidia-cuda-nvcc-cu11     11.7.99                  pypi_0    pypi",
        "torch.extension-cuda-toolkit-missing",
        "cuda-toolkit",
        "https://github.com/deepspeedai/DeepSpeed/issues/4553",
    ),
    # reporter: installing mmcv from the OpenMMLab index of the torch/CUDA pair (not a source build) works
    (
        "When installing the MMCV, MIM will automatically retrieve the highest current CUDA, which may be different from the actual CUDA version, and there will be an error.\n#  is not ture\nmim install mmcv==2.1.0 \n# it is ture.\nmim install mmcv==2.1.0 -f https://download.openmmlab.com/mmcv/dist/cu117/torch1.13/index.html\nor \npip  install mmcv==2.1.0 -f https://download.openmmlab.com/mmcv/dist/cu117/torch1.13/index.html\nand make sure the version of cuda and torch.\nthe Exception may be:\n          raise RuntimeError(CUDA_MISMATCH_MESSAGE, cuda_str_version, torch.version.cuda)\n      RuntimeError: ('The detected CUDA version (%s) mismatches the version that was used to compilePyTorch (%s). Please make sure to use the same CUDA versions.', '11.3', '12.8')\n      [end of output]",
        "cuda.toolkits-disagree",
        "download.openmmlab.com/mmcv/dist",
        "https://github.com/circleLZY/JL1-CD/issues/5",
    ),
    # reporter: only building the ops by hand (MMCV_WITH_OPS=1 FORCE_CUDA=1) made mmcv._ext appear
    (
        "I followed the instructions exactly to install everything on an A100. The PyTorch and CUDA versions match the requirements, but when running the code I get the error: “ModuleNotFoundError: No module named 'mmcv._ext'”.\n\nI’ve already tried mim install mmcv-full==1.4.7 and pip install mmcv-full==1.4.7 -f https://download.openmmlab.com/mmcv/dist/cu116/torch1.13.0/index.html, but neither of them worked.",
        "mmcv.ops-not-built",
        "MMCV_WITH_OPS",
        "https://github.com/zhipeixu/FakeShield/issues/64",
    ),
]

# (message verbatim from the thread, the cause it must not be read as first, thread)
LOOKALIKE = [
    # an undefined torch (at::) symbol is an extension built for another torch, not an old libstdc++
    (
        "ImportError: /home/yemz/anaconda3/envs/geo/lib/python3.7/site-packages/scatter_cpu.cpython-37m-x86_64-linux-gnu.so: undefined symbol: _ZN2at5ErrorC1ENS_14SourceLocationESs",
        "python.libstdcxx-too-old",
        "https://github.com/pyg-team/pytorch_geometric/issues/33",
    ),
    # detectron2's _C is not pytorch3d's
    (
        "When i run demo.py , there is an error  \"ImportError: cannot import name '_C' from 'detectron2'\". Does anybody know this mistake?",
        "torch.extension-cuda-module-missing",
        "https://github.com/facebookresearch/detectron2/issues/444",
    ),
]


test_extension_wheel_message_reaches_its_cause_with_the_knob = knob_test(KNOB)
test_lookalike_is_not_read_as_the_new_cause = lookalike_test(LOOKALIKE)
