"""Chinese users' reports, round 15 (checks/signatures/{other_accelerators,python_env,windows}.toml): Ascend NPU (昇腾) stacks,
where a torch_npu that does not pair with torch / CANN, CANN's Python dependencies or libraries
missing from the environment, or a source checkout shadowing the installed torch_npu were read as
CUDA causes or matched nothing (flash-attn, the NVIDIA driver),
and ChatGLM's cpm_kernels failing on a Windows PATH entry that is a file. Each row is the text of one
public thread, verbatim, whose fix was confirmed (the reporter or another user says it worked, or a
maintainer states cause and fix): its cause ranks first and one of that cause's fixes names the
knob the confirmed fix turned. Look-alike rows are real messages of OTHER causes that the new
patterns could catch: the new cause must not rank first."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

NPU_PAIR = "ascend.torch-npu-mismatch"
CANN_ENV = "ascend.cann-env-incomplete"
SOURCE_TREE = "python.import-shadowed-by-source-tree"
PATH_FILE = "windows.path-entry-is-a-file"

# (message verbatim, the finding id first, text one of its fixes names, thread URL)
KNOB = [
    (
        "[Bug]: AttributeError: module 'torch_npu' has no attribute '_npu_flash_attention'\n"
        "```\ntorch                                    2.5.1\n"
        "torch-npu                                2.5.1rc1\n"
        "torchaudio                               2.5.1\n"
        "torchvision                              0.20.1\n```\n"
        '[rank0]:   File "/home/xxx/anaconda3/envs/PyTorch-2.1.0/lib/python3.9/site-packages/vllm_ascend/attention.py", line 845, in forward\n'
        "[rank0]:     torch_npu._npu_flash_attention(\n"
        "[rank0]: AttributeError: module 'torch_npu' has no attribute '_npu_flash_attention'\n"
        "[ERROR] 2025-03-16-11:32:36 (PID:80511, Device:0, RankID:-1) ERR99999 UNKNOWN applicaiton exception",
        NPU_PAIR,
        "torch_npu",
        # maintainer: an unpaired torch-npu; closed as resolved by installing the documented versions
        "https://github.com/vllm-project/vllm-ascend/issues/340",
    ),
    (
        "triton-ascend main分支的quick_start里面的torch-npu版本2.7.1与文档中 推荐的CANN 9.0.0不匹配，"
        "详细配套说明里面部分版本匹配关系缺失\n"
        "torch-npu==2.7.1导入时报错undefined symbol: MsprofSysCycleTime",
        NPU_PAIR,
        "CANN",
        # the report states the cause (torch-npu vs the CANN release) and the pairing fix; closed
        "https://github.com/triton-lang/triton-ascend/issues/328",
    ),
    (
        "transformers高于 4.49 的版本对 Ascend NPU 不兼容\n"
        "系统信息 910B1，python==3.10，变压器==4.51.0\n"
        "当 torch==2.2.0 且 torch-npu==2.2.0 且 transformers>4.49 时，将出现错误“AssertionError： Torch not "
        "compiled with CUDA enabled”。transformers<=4.49 没有问题，但是我现在想要训练Qwen3必须>4.51。",
        NPU_PAIR,
        "torch_npu",
        # maintainer: the fix is in a newer torch_npu (upgrade torch npu)
        "https://github.com/hiyouga/LlamaFactory/issues/7986",
    ),
    (
        'torch版本2.1 python版本3.8 执行python3 -c "import torch;import torch_npu; a = torch.randn(3, 4).npu(); '
        'print(a + a);"命令时，产生错误：\n'
        "`Traceback (most recent call last):\n"
        '  File "/data/package/pytorch/torch_npu/__init__.py", line 14, in <module>\n'
        "    import torch_npu.npu\n"
        '  File "/data/package/pytorch/torch_npu/npu/__init__.py", line 111, in <module>\n'
        "    from .utils import (synchronize, device_count, can_device_access_peer, set_device, "
        "current_device, get_device_name,\n"
        '  File "/data/package/pytorch/torch_npu/npu/utils.py", line 11, in <module>\n'
        "    import torch_npu._C\n"
        "ModuleNotFoundError: No module named 'torch_npu._C'",
        SOURCE_TREE,
        "another directory",
        # maintainer: run it outside the build folder; another user: that solved it
        "https://github.com/Ascend/pytorch/issues/24",
    ),
    (
        "torch版本是2.1.0，驱动版本也核对无误7.0.RC1.alpha003， python3.8\n"
        "上周初可以运行，这周发现如下报错：\n"
        ">>> x = torch.randn(2,2).npu()\n"
        ">>> y = torch.randn(2,2).npu()\n"
        ">>> print(x)\n"
        "EH9999: Inner Error!\n"
        "EH9999  [Init][Env]init env failed![FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]\n"
        "        TraceBack (most recent call last):\n"
        "        build op model failed, result = 500001[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]\n"
        "\n"
        "Aborted (core dumped)\n"
        "\n"
        "请问如何解决，谢谢！",
        CANN_ENV,
        "decorator",
        # maintainer: CANN's Python dependencies were not all installed (numpy, decorator, sympy, ...)
        "https://github.com/Ascend/pytorch/issues/7",
    ),
    (
        "找不到lac_dvpp,lascendcl库文件",
        CANN_ENV,
        "set_env.sh",
        # reporter: an NPU environment variable was not set (CANN's set_env.sh)
        "https://github.com/Ascend/samples/issues/19",
    ),
    (
        "[BUG/Help] <title>加载cpm_kernels时路径指向python.exe提示[WinError 267] 目录名称无效",
        PATH_FILE,
        "PATH",
        # another user with the same error: a PATH entry that is a file; adding C:\Windows\System32
        # to the environment variables solved it
        "https://github.com/zai-org/ChatGLM-6B/issues/1454",
    ),
    (
        "Cannot load cudnn shared library. Cannot invoke method cudnnGetVersion.",
        "cuda.cudnn-missing",
        "LD_LIBRARY_PATH",
        # maintainer: the cuDNN path in the environment variables, and the CUDA / cuDNN Paddle expects
        "https://github.com/PaddlePaddle/Paddle/issues/35608",
    ),
]

# (a real message of another cause, the new cause that must not rank first, thread URL)
LOOKALIKE = [
    (
        "When I run: python datasets/combine_A_and_B.py --fold_A ./datasets/blurred_sharp/blurred "
        "--fold_B ./datasets/blurred_sharp/sharp --fold_AB ./datasets/blurred_sharp/combined\n"
        "it shows: \n"
        "[fold_A] =  ./datasets/blurred_sharp/blurred\n"
        "[fold_B] =  ./datasets/blurred_sharp/sharp\n"
        "[fold_AB] =  ./datasets/blurred_sharp/combined\n"
        "[num_imgs] =  1000000\n"
        "[use_AB] =  False\n"
        "Traceback (most recent call last):\n"
        '  File "datasets/combine_A_and_B.py", line 24, in <module>\n'
        "    img_list = os.listdir(img_fold_A)\n"
        "NotADirectoryError: [WinError 267] 目录名称无效。: './datasets/blurred_sharp/blurred\\\\1.png'",
        PATH_FILE,
        # a dataset folder argument that names an image: the script's own listdir, not PATH
        "https://github.com/KupynOrest/DeblurGAN/issues/158",
    ),
    (
        "我的电脑Win10  Driver Version: 551.76      CUDA Version: 12.4\n"
        "安装cuda版本为11.8.0，将模型启动设置：\n"
        '    "chatglm3-6b-32k": {\n'
        '        "device": "cuda",\n'
        '        # "device": "cpu",\n'
        "    },\n"
        "重新运行时最后报错提示是：Torch not compiled with CUDA enabled",
        NPU_PAIR,
        # an NVIDIA GPU and a CPU build of torch: nothing Ascend in it
        "https://github.com/chatchat-space/Langchain-Chatchat/issues/3484",
    ),
    (
        "ModuleNotFoundError: No module named 'vllm._C'\nwindows上运行报错\n请问如何解决？",
        SOURCE_TREE,
        # vLLM on native Windows (no CUDA build there), not a source checkout
        "https://github.com/Ksuriuri/index-tts-vllm/issues/6",
    ),
]


test_zh_r15_report_first_with_knob = knob_test(KNOB)


test_zh_r15_lookalike_not_first = lookalike_test(LOOKALIKE, may_be_empty=True)
