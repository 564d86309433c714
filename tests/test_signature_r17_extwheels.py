"""Round 17 sweep of prebuilt extension wheels and their builds (checks/signatures/{torch,extensions,python_env}.toml and
the entries it extends in torch.toml and checks/signatures/*.toml): each message, verbatim from a thread whose fix
was confirmed, reaches that cause first, and one of its fixes names the knob the confirmed fix turned (the
wheel, index, flag or command). Look-alike rows are real messages of other causes the new phrasings must
not read as theirs."""

from __future__ import annotations

from triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # flash-attn cxx11abiTRUE wheel with pip torch 2.4: the cxx11abiFALSE wheel worked (commenter: "It works.")
    (
        "ImportError: /home/linjl/anaconda3/envs/sd/lib/python3.10/site-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basic_stri",
        "torch.extension-abi-mismatch",
        "cxx11abi",
        "https://github.com/Dao-AILab/flash-attention/issues/975",
    ),
    # mamba-ssm 2.2.x wheel vs torch 2.5.1: the matching release wheel from the releases page fixed it (commenter)
    (
        "ImportError: /vol/bitbucket/nc624/resurgsam2/ReSurgSAM2/venv/lib/python3.12/site-packages/selective_scan_cuda.cpython-312-x86_64-linux-gnu.so: undefined symbol: _ZN3c107WarningC1ESt7variantIJNS0_11UserWarningENS0_18DeprecationWarningEEERKNS_14SourceLocationENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEb",
        "torch.extension-abi-mismatch",
        "mamba-ssm",
        "https://github.com/state-spaces/mamba/issues/764",
    ),
    # causal-conv1d wheel not matching the environment: build it from source at a release tag (reporter thanked)
    (
        "ImportError: /anaconda3/lib/python3.11/site-packages/causal_conv1d_cuda.cpython-311-x86_64-linux-gnu.so: undefined symbol: _ZN3c107WarningC1ENS_7variantIJNS0_11UserWarningENS0_18DeprecationWarningEEEERKNS_14SoureLocationENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEb",
        "torch.extension-abi-mismatch",
        "causal-conv1d",
        "https://github.com/state-spaces/mamba/issues/465",
    ),
    # maintainer: install the causal_conv1d / mamba_ssm wheels built for the torch 1.13 + cu118 pair
    (
        "ImportError: /public/home/ncu_418000230030/anaconda3/envs/Uvmunet/lib/python3.8/site-packages/causal_conv1d_cuda.cpython-38-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda20CUDACachingAllocator9allocatorE",
        "torch.extension-abi-mismatch",
        "cxx11abi",
        "https://github.com/wurenkai/UltraLight-VM-UNet/issues/13",
    ),
    # vllm 0.7.2 pins torch 2.5.1 and xformers 0.0.28.post3; the xformers installed was built for torch 2.6.0 (reporter)
    (
        "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n    PyTorch 2.6.0+cu124 with CUDA None (you have 2.5.1+cu121)\n    Python  3.11.0 (you have 3.11.5)\n  Please reinstall xformers (see https://github.com/facebookresearch/xformers#installing-xformers)\n  Memory-efficient attention, SwiGLU, sparse and more won't be available.\n  Set XFORMERS_MORE_DETAILS=1 for more details",
        "torch.extension-abi-mismatch",
        "0.0.28.post3",
        "https://github.com/vllm-project/vllm/issues/13116",
    ),
    # maintainer: an environment installation problem (torchvision); reporter: training succeeded after reinstalling
    (
        "RuntimeError: operator torchvision::nms does not exist",
        "torch.companion-mismatch",
        "torchvision",
        "https://github.com/RaymondJiangkw/COGS/issues/24",
    ),
    # pip compiled flash-attn from source: installing the prebuilt release wheel matching torch/CUDA/Python fixed it (commenter)
    (
        "I tried to install FlashAttention 2 on WSL (Windows 11) with:\n\n`pip install flash-attn --no-build-isolation`\n\nresulted in the following error:\n\n`OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root.`",
        "torch.extension-cuda-toolkit-missing",
        "releases page",
        "https://github.com/Dao-AILab/flash-attention/issues/1736",
    ),
    # binary wheels fail when CUDA_HOME is not set (flash-attn maintainers fixed setup.py; a toolkit or the prebuilt wheel avoids it)
    (
        '        File "/tmp/pip-install-56tllxed/flash-attn_e3fae8fde0f54220827a3730f9387260/setup.py", line 249, in run\n          raise_if_cuda_home_none("flash_attn")',
        "torch.extension-cuda-toolkit-missing",
        "CUDA_HOME",
        "https://github.com/Dao-AILab/flash-attention/issues/447",
    ),
    # reporter: the vllm pin conflicts with torch 2.4; answer: install vllm first so it brings its torch
    (
        "vllm 0.7.3 requires torch==2.5.1, but you have torch 2.4.0+cu124 which is incompatible.",
        "torch.extension-abi-mismatch",
        "2.5.1",
        "https://github.com/hiyouga/EasyR1/issues/27",
    ),
    # maintainer: set MAX_JOBS (README); reporter: "Thanks. Solved."
    (
        "On a machine with about 39 GB CPU memory, `Building wheels for collected packages` of `flash-attn` 2.0.1 rapidly takes up all the memory and causes the machine to crash.",
        "flashattn.not-installable",
        "MAX_JOBS",
        "https://github.com/Dao-AILab/flash-attention/issues/382",
    ),
    # maintainer: set MAX_JOBS to a small number (README)
    (
        "I have a PC with 32gb of RAM. Any time I try to install or compile flash attention it exaust the RAM and the PC crashes. There is a way to limit the resources used by build?",
        "flashattn.not-installable",
        "MAX_JOBS",
        "https://github.com/Dao-AILab/flash-attention/issues/1811",
    ),
    # no prebuilt detectron2 wheel for torch 2.0: building from the git repository worked (commenter)
    (
        "Looking in links: https://dl.fbaipublicfiles.com/detectron2/wheels/cu118/torch2.0/index.html\nERROR: Could not find a version that satisfies the requirement detectron2 (from versions: none)\nERROR: No matching distribution found for detectron2",
        "python.no-matching-wheel",
        "git+https://github.com/facebookresearch/detectron2.git",
        "https://github.com/facebookresearch/detectron2/issues/4901",
    ),
    # installing the SageAttention wheel (woct0rdho releases) and triton into ComfyUI's Python fixed it (commenters)
    (
        "Can't import SageAttention: No module named 'sageattention'",
        "sageattention.not-installed",
        "triton-windows",
        "https://github.com/Comfy-Org/ComfyUI/issues/9826",
    ),
    # SageAttention needs triton: triton-windows into python_embeded fixed it
    (
        "Can't import SageAttention: No module named 'triton'",
        "torch.triton-missing",
        "triton-windows",
        "https://github.com/Tencent-Hunyuan/HunyuanVideo/issues/110",
    ),
    # the update reverted torch+cu121 to torch+cpu (maintainer: the cu121 pin; CUDA torch is the fix)
    (
        "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n    PyTorch 2.1.0+cu121 with CUDA 1201 (you have 2.1.0+cpu)\n    Python  3.10.11 (you have 3.10.6)\n  Please reinstall xformers (see https://github.com/facebookresearch/xformers#installing-xformers)\n  Memory-efficient attention, SwiGLU, sparse and more won't be available.\n  Set XFORMERS_MORE_DETAILS=1 for more details",
        "torch.cpu-build-on-gpu-host",
        "download.pytorch.org/whl/cu121",
        "https://github.com/invoke-ai/InvokeAI/issues/5065",
    ),
    # maintainer: install xformers for cu121 / the torch it was built for; commenter fixed it by reinstalling the pair
    (
        "WARNING:xformers:WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n    PyTorch 2.1.0+cu121 with CUDA 1201 (you have 2.1.0+cu118)\n    Python  3.10.13 (you have 3.10.12)\n  Please reinstall xformers (see https://github.com/facebookresearch/xformers#installing-xformers)",
        "torch.extension-abi-mismatch",
        "xformers",
        "https://github.com/facebookresearch/xformers/issues/899",
    ),
    # maintainer: the xformers install is not working: reinstall it (or uninstall it)
    (
        "NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:\n     query       : shape=(1, 5617, 16, 64) (torch.float32)\n     key         : shape=(1, 5617, 16, 64) (torch.float32)\n     value       : shape=(1, 5617, 16, 64) (torch.float32)\n     attn_bias   : <class 'NoneType'>\n     p           : 0.0\n`fa3F@0.0.0` is not supported because:\n    xFormers wasn't build with CUDA support\n    dtype=torch.float32 (supported: {torch.float16, torch.bfloat16})\n    operator wasn't built - see `python -m xformers.info` for more info\n`fa2F@0.0.0` is not supported because:\n    xFormers wasn't build with CUDA support\n    dtype=torch.float32 (supported: {torch.float16, torch.bfloat16})\n    operator wasn't built - see `python -m xformers.info` for more info\n`cutlassF-pt` is not supported because:\n    xFormers wasn't build with CUDA support",
        "torch.extension-abi-mismatch",
        "xformers",
        "https://github.com/kijai/ComfyUI-DepthAnythingV2/issues/27",
    ),
    # maintainer: the xformers install is not working: fix (reinstall) it or uninstall it
    (
        "`fa2F@0.0.0` is not supported because:\n    xFormers wasn't build with CUDA support\n    requires device with capability > (8, 0) but your GPU has capability (7, 5) (too old)\n    dtype=torch.float32 (supported: {torch.bfloat16, torch.float16})\n    operator wasn't built - see `python -m xformers.info` for more info\n`cutlassF` is not supported because:\n    xFormers wasn't build with CUDA support\n    operator wasn't built - see `python -m xformers.info` for more info\n这是GPU不够吗",
        "torch.extension-abi-mismatch",
        "xformers",
        "https://github.com/kijai/ComfyUI-SUPIR/issues/167",
    ),
    # maintainer: following the install instructions (pip install mamba-ssm) builds the CUDA extension selective_scan_cuda
    (
        "No module named 'selective_scan_cuda'",
        "torch.extension-cuda-module-missing",
        "mamba-ssm",
        "https://github.com/state-spaces/mamba/issues/237",
    ),
    # reporter: the selective_scan kernels had been built with a mismatched CUDA; reinstalling them with CUDA 11.7 worked
    (
        '"ModuleNotFoundError: No module named \'selective_scan_cuda_core"',
        "torch.extension-cuda-module-missing",
        "kernels/selective_scan",
        "https://github.com/zifuwan/Sigma/issues/3",
    ),
    # reporter: installing the repository's kernels/selective_scan package fixed it
    (
        "NameError: name 'selective_scan_cuda_core' is not defined,but I am installed causal-conv1d 1.2.0.post2,still can't run",
        "torch.extension-cuda-module-missing",
        "kernels/selective_scan",
        "https://github.com/EnzeZhu2001/UNetMamba/issues/6",
    ),
    # maintainer: install the causal_conv1d / mamba_ssm release wheels for the torch and CUDA pair
    (
        "out, x, *rest = selective_scan_cuda.fwd(u, delta, A, B, C, D, None, delta_bias, delta_softplus)\nNameError: name 'selective_scan_cuda' is not defined，您好，运行train.py一直出现这个问题 请问怎么解决？",
        "torch.extension-cuda-module-missing",
        "mamba-ssm",
        "https://github.com/xwmaxwma/rschange/issues/15",
    ),
    # MMCV_WITH_OPS=1 pip install -e . built the ops ("works for me")
    (
        "ModuleNotFoundError: No module named 'mmcv._ext'",
        "mmcv.ops-not-built",
        "MMCV_WITH_OPS",
        "https://github.com/open-mmlab/mmcv/issues/204",
    ),
    # DS_BUILD_CPU_ADAM=1 when installing deepspeed builds the op
    (
        "AttributeError: 'DeepSpeedCPUAdam' object has no attribute 'ds_opt_adam'",
        "deepspeed.cpu-adam-not-built",
        "DS_BUILD_CPU_ADAM",
        "https://github.com/haotian-liu/LLaVA/issues/1239",
    ),
    # maintainer: pyg-lib 0.7.0 was released; install it from the torch-2.12.0+cu132 wheel page
    (
        "Wheels for `pyg-lib` not available for `torch-2.12.0` for any cuda runtime version from 12.6 to 13.2\n\nhttps://data.pyg.org/whl/",
        "python.no-matching-wheel",
        "data.pyg.org/whl/torch-2.12.0",
        "https://github.com/pyg-team/pyg-lib/issues/676",
    ),
]

# (message verbatim from the thread, the cause it must not be read as first, thread)
LOOKALIKE = [
    # an undefined torch symbol in selective_scan_cuda is an ABI mismatch, not a missing module
    (
        "ImportError: /vol/bitbucket/nc624/resurgsam2/ReSurgSAM2/venv/lib/python3.12/site-packages/selective_scan_cuda.cpython-312-x86_64-linux-gnu.so: undefined symbol: _ZN3c107WarningC1ESt7variantIJNS0_11UserWarningENS0_18DeprecationWarningEEERKNS_14SourceLocationENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEb",
        "torch.extension-cuda-module-missing",
        "https://github.com/state-spaces/mamba/issues/764",
    ),
    # mmcv's ops missing is mmcv's own cause
    (
        "ModuleNotFoundError: No module named 'mmcv._ext'",
        "torch.extension-cuda-module-missing",
        "https://github.com/open-mmlab/mmcv/issues/204",
    ),
    # SageAttention present, triton missing: the triton cause
    (
        "Can't import SageAttention: No module named 'triton'",
        "sageattention.not-installed",
        "https://github.com/Tencent-Hunyuan/HunyuanVideo/issues/110",
    ),
    # xformers built for another CUDA torch (not +cpu) is not the CPU-only torch
    (
        "WARNING:xformers:WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n    PyTorch 2.1.0+cu121 with CUDA 1201 (you have 2.1.0+cu118)\n    Python  3.10.13 (you have 3.10.12)\n  Please reinstall xformers (see https://github.com/facebookresearch/xformers#installing-xformers)",
        "torch.cpu-build-on-gpu-host",
        "https://github.com/facebookresearch/xformers/issues/899",
    ),
    # a plain CUDA_HOME error without flash-attn: the toolkit cause, not a missing module
    (
        "OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root.",
        "torch.extension-cuda-module-missing",
        "https://github.com/Dao-AILab/flash-attention/issues/1736",
    ),
]


test_extension_wheel_message_reaches_its_cause_with_the_knob = knob_test(KNOB)
test_lookalike_is_not_read_as_the_new_cause = lookalike_test(LOOKALIKE)
