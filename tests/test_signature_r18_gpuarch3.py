"""Round 18 sweep (gpuarch3): GPUs too new or too old for the build, across frameworks
(checks/signatures/{cuda,apps,torch}.toml). Each KNOB row is a message pasted verbatim in the thread
it cites: it reaches the confirmed cause first, and that cause's fixes name the knob the confirmed
fix turned on. LOOKALIKE rows are real messages of other causes a new pattern must not catch."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

# (message, the finding id first, a knob its fixes name, the thread)
KNOB = [
    (
        "/usr/local/lib/python3.10/site-packages/torch/cuda/__init__.py:146: UserWarning: \n"
        "A100-SXM4-40GB with CUDA capability sm_80 is not compatible with the current PyTorch"
        " installation.\n"
        "The current PyTorch install supports CUDA capabilities sm_37 sm_50 sm_60 sm_70.\n"
        "If you want to use the A100-SXM4-40GB GPU with PyTorch, please check the instructions at"
        " https://pytorch.org/get-started/locally/\n\n"
        '  warnings.warn(incompatible_device_warn.format(device_name, capability, " ".join(arch_list),'
        " device_name))",
        "torch.gpu-too-new-for-build",
        "cu11",  # the reporter: solved with torch==1.12.1+cu116 (a CUDA 11 wheel has sm_80)
        "https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/702",
    ),
    (
        "UserWarning:\n"
        "A100-SXM4-40GB with CUDA capability sm_80 is not compatible with the current PyTorch"
        " installation.\n"
        "The current PyTorch install supports CUDA capabilities sm_37 sm_50 sm_60 sm_61 sm_70 sm_75"
        " compute_37.\n\n"
        "When running a100 server, should I only use images provided by nvidia?\n"
        "Can't I install torch myself?",
        "torch.gpu-too-new-for-build",
        "cu11",  # the maintainer: binaries built with CUDA > 11.0 (the reporter had 1.8.1+cu102)
        "https://github.com/pytorch/pytorch/issues/57922",
    ),
    (
        ".venv/lib/python3.7/site-packages/torch/cuda/__init__.py:146: UserWarning: \n"
        "NVIDIA GeForce RTX 3080 Laptop GPU with CUDA capability sm_86 is not compatible with the"
        " current PyTorch installation.\n"
        "The current PyTorch install supports CUDA capabilities sm_37 sm_50 sm_60 sm_70.\n"
        "If you want to use the NVIDIA GeForce RTX 3080 Laptop GPU GPU with PyTorch, please check the"
        " instructions at https://pytorch.org/get-started/locally/",
        "torch.gpu-too-new-for-build",
        "cu11",  # the reporter: torch==1.12.0+cu116 fixed it
        "https://github.com/meituan/YOLOv6/issues/350",
    ),
    (
        "GPU RTX 5070 user Unable to resolve this issue\n"
        "CUDA error: no kernel image is available for execution on the device",
        "torch.gpu-too-new-for-build",
        "cu128",  # the answer: nightly PyTorch with CUDA 12.8 (--index-url .../nightly/cu128)
        "https://github.com/Comfy-Org/ComfyUI/issues/7380",
    ),
    (
        "3.1 核心错误:架构不兼容\n\n"
        "当 PyTorch 版本低于 2.9.0 时,Python 能够导入 torch,但在初始化 CUDA 时抛出警告并导致后续计算失败:\n\n"
        "UserWarning: NVIDIA GeForce RTX 5060 Ti with CUDA capability sm_120 is not compatible with"
        " the current PyTorch installation. The current PyTorch install supports CUDA capabilities"
        " sm_50 ... sm_90.",
        "torch.gpu-too-new-for-build",
        "cu128",  # the post's fix: a PyTorch built with CUDA 12.8+ (sm_120 kernels)
        "https://jishuzhan.net/article/2000064284244639746",
    ),
    (
        '用户在使用PyTorch 2.0.0和CUDA 11.8环境时,系统报告了明显的兼容性警告: "NVIDIA GeForce RTX 5090'
        ' with CUDA capability sm_120 is not compatible with the current PyTorch installation"。\n'
        "具体错误表现为:\n"
        '- NCCL报告"named symbol not found"警告\n'
        "- NCCL回退到内部实现(无法加载libnccl-net.so插件)\n"
        '- 最终导致"unhandled cuda error"运行时错误',
        "torch.gpu-too-new-for-build",
        "cu128",  # the post: PyTorch 2.7.0+ with CUDA 12.8
        "https://blog.gitcode.com/3b4a1f6e94846276aec7aa2a374c2494.html",
    ),
    (
        "getting this error after git pull\n\n"
        "RuntimeError: CUDA error: no kernel image is available for execution on the device\n"
        "CUDA kernel errors might be asynchronously reported at some other API call,so the stacktrace"
        " below might be incorrect.\n"
        "For debugging consider passing CUDA_LAUNCH_BLOCKING=1\n\n"
        "Card is a 1660S\n"
        "running below in the command line argument\n"
        " --precision full --no-half --medvram --xformers\n\n"
        "xformers issue? card issue?",
        "torch.extension-abi-mismatch",
        "xformers",  # the maintainer: uninstall xformers (the wheel lacked the card's kernels)
        "https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/2202",
    ),
    (
        "modules.devices.NansException: A tensor with all NaNs was produced in Unet. This could be"
        " either because there's not enough precision to represent the picture, or because your video"
        ' card does not support half type. Try setting the "Upcast cross attention layer to float32"'
        " option in Settings > Stable Diffusion or using the --no-half commandline argument to fix"
        " this. Use --disable-nan-check commandline argument to disable this check.",
        "app.sd-webui.half-precision-nan",
        "--no-half",  # GTX 16xx: --no-half --precision full
        "https://github.com/zhixuhao/unet/issues/251",
    ),
    (
        "Hello ! There is a bug already known about some GC like my 1660 Super (7.5 capability)\n\n"
        "It generates black images with half-precisions\n\n"
        'Is there a way to launch with " --precision full --no-half " like we can do with'
        " automatic1111 ?",
        "app.sd-webui.half-precision-nan",
        "full",  # the reporter's fix: run without half-precision autocast (full precision)
        "https://github.com/hassan-sd/sd-video-install/issues/7",
    ),
    (
        "NaN loss on 1660 super\n\n"
        "When training the GUI shows a nan loss and the preview is empty. It reminds me of SD's"
        " behavior when using float16 on the 16XX series.",
        "app.sd-webui.half-precision-nan",
        "fp16",  # the maintainer: disable fp16 (fp16 = False)
        "https://github.com/dreamgaussian/dreamgaussian/issues/36",
    ),
    (
        "It is a gfx1032 GPU, not officially supported. But you can override it to gfx1030 which is"
        " officially supported. That actually works.\n\n"
        ">>> import torch\n"
        ">>> torch.cuda.is_available()\n"
        '"hipErrorNoBinaryForGpu: Unable to find code object for all current devices!"\n'
        "Aborted (core dumped)",
        "rocm.no-binary-for-gpu",
        "HSA_OVERRIDE_GFX_VERSION=10.3.0",
        "https://github.com/ROCm/legacy-rocm-build/issues/1797",
    ),
    (
        "It runs, but gives the wrong result. cudaGetErrorString(cudaGetLastError()) after the kernel"
        " call returns:\n\n"
        "`Device Variable Copying: no kernel image is available for execution on the device`\n\n"
        "The runtime uses a Tesla K80 GPU.\n"
        "The CUDA version is 11.",
        "cuda.gpu-too-new-for-binary",
        "sm_37",  # the reporter: nvcc -arch=sm_37 -gencode=arch=compute_37,code=sm_37 works
        "https://github.com/googlecolab/colabtools/issues/2377",
    ),
    (
        "[BUG] ptxas fatal error, sm_89 not defined for gpu-name\n\n"
        "Getting error when running the default project. Very similar to #516 , but in the reverse."
        " Essentially, it seems my version of the cuda toolkit doesn't support sm_89.",
        "cuda.nvcc-too-old-for-gpu",
        "11.8",  # sm_89 needs a CUDA 11.8+ ptxas
        "https://github.com/AccelerateHS/accelerate/issues/540",
    ),
    (
        "Error in forward_face_index_map_1: no kernel image is available for execution on the device\n"
        "Error in forward_face_index_map_2: no kernel image is available for execution on the device\n"
        "Win10系统\n"
        "2070super\n"
        "Driver Version: 460.89\n"
        "CUDA Version: 11.2\n"
        "如何解决",
        "cuda.gpu-too-new-for-binary",
        "TORCH_CUDA_ARCH_LIST",  # the maintainer: the prebuilt extension only has GeForce 10 kernels
        "https://github.com/iPERDance/iPERCore/issues/47",
    ),
    (
        "RuntimeError: FlashAttention only supports Ampere GPUs or newer.\n"
        "Testing DataLoader 0:   0%|          | 0/7872 [00:03<?, ?it/s]",
        "flashattn.gpu-arch-unsupported",
        "sdpa",  # the maintainer merged an SDPA path for pre-Ampere GPUs
        "https://github.com/ai4ce/GARF/issues/23",
    ),
    (
        "RuntimeError: FlashAttention only supports Ampere GPUs or newer.\n\n"
        "启动脚本里面把use_flash_attn改成false就行了",
        "flashattn.gpu-arch-unsupported",
        "flash",  # the answer: set use_flash_attn to false in the launch script
        "https://github.com/LlamaChinese/Llama-Chinese/issues/307",
    ),
    (
        "/comfy/mnt/venv/lib/python3.12/site-packages/torch/cuda/__init__.py:283: UserWarning: \n"
        "    Found GPU0 NVIDIA GeForce GTX 1080 Ti which is of cuda capability 6.1.\n"
        "    Minimum and Maximum cuda capability supported by this version of PyTorch is\n"
        "    (7.0) - (12.0)\n"
        "    \n"
        "  warnings.warn(\n"
        "/comfy/mnt/venv/lib/python3.12/site-packages/torch/cuda/__init__.py:304: UserWarning: \n"
        "    Please install PyTorch with a following CUDA\n"
        "    configurations:  12.6 following instructions at\n"
        "    https://pytorch.org/get-started/locally/",
        "torch.gpu-too-old-for-build",
        "cu126",  # a cu126 wheel still has sm_61 kernels (the cu128 one starts at 7.0)
        "https://github.com/mmartial/ComfyUI-Nvidia-Docker/issues/61",
    ),
    (
        "The bundled version of Pytorch does not support modern NVIDIA cards, giving the error:\n"
        "`NVIDIA GeForce RTX 5060 Ti with CUDA capability sm_120 is not compatible with the current"
        " PyTorch installation.\n"
        "The current PyTorch install supports CUDA capabilities sm_37 sm_50 sm_60 sm_61 sm_70 sm_75"
        " sm_80 sm_86 sm_90 compute_37.\n"
        "If you want to use the NVIDIA GeForce RTX 5060 Ti GPU with PyTorch, please check the"
        " instructions at https://pytorch.org/get-started/locally/`",
        "torch.gpu-too-new-for-build",
        "cu128",  # fixed by a release bundling a torch built with CUDA 12.8
        "https://github.com/stemrollerapp/stemroller/issues/102",
    ),
    (
        "I can't run this with a 5070 Ti Laptop GPU. It looks like the project would need to support"
        " CUDA 12.8. I googled the blender error and it let me here.\n\n"
        "Instead of this version: https://download.pytorch.org/whl/cu121, it would need to be"
        " https://download.pytorch.org/whl/cu128.",
        "torch.gpu-too-new-for-build",
        "cu128",
        "https://github.com/xy-gao/vggt-blender/issues/1",
    ),
    (
        "ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your"
        " Tesla T4 GPU has compute capability 7.5. You can use float16 instead by explicitly setting"
        " the`dtype` flag in CLI, for example: --dtype=half.",
        "fit.dtype-unsupported",
        "half",
        "https://github.com/canopyai/Orpheus-TTS/issues/74",
    ),
    (
        "My device is Tesla V100-SXM2-32GB with CUDA=12.2. Environment:  verl==0.4.1.x  torch==2.4.0"
        "  tensordict==0.5.0  vllm==0.6.3\n"
        "I tried training a qwen-2.5-0.5b-instruct with grpo on gsm8k, and it raised an ValueError:\n\n"
        "ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your"
        " Tesla V100-SXM2-32GB GPU has compute capability 7.0. You can use float16 instead by"
        " explicitly setting the`dtype` flag in CLI, for example: --dtype=half.",
        "fit.dtype-unsupported",
        "half",
        "https://github.com/verl-project/verl/issues/2594",
    ),
    (
        "    nvcc fatal   : Unsupported gpu architecture 'compute_61'\n"
        "    CMake Error at THC_generated_THCSleep.cu.o.cmake:207 (message):\n"
        "      Error generating\n"
        "      /is/ps2/dstutz/pytorch/torch/lib/build/THC/CMakeFiles/THC.dir//./THC_generated_THCSleep.cu.o",
        "cuda.nvcc-too-old-for-gpu",
        "8.0",  # CUDA 7.5 predates Pascal: compute_61 needs CUDA 8.0
        "https://github.com/pytorch/pytorch/issues/553",
    ),
    (
        "Well, I followed the github instructions to day and successfully compiled it in a venv but"
        " I'm still getting \n\n"
        "> 'sm_120' is not a recognized processor for this target (ignoring processor)\n\n"
        "When I try to use it but am using Torch nightly on WSL / Linux sucessfully otherwise on the"
        " RTX 5080 without sm_120 errors when not using Triton so it seems like the support is spotty?",
        "torch.gpu-too-new-for-build",
        "3.3",  # fixed by removing the old pytorch-triton: torch nightly cu128 brings Triton 3.3.0
        "https://github.com/triton-lang/triton/issues/5950",
    ),
    (
        "F0817 22:53:22.694056 24820 cudnn_conv_layer.cpp:32] Check failed: status =="
        " CUDNN_STATUS_SUCCESS (6 vs. 0)  CUDNN_STATUS_ARCH_MISMATCH\n"
        "*** Check failure stack trace: ***\n"
        "Aborted (core dumped)\n\n"
        "It seems I got a CUDNN_STATUS_ARCH_MISMATCH, I googled this one it seems it's due to my"
        " hardware. I am running this demo on a Nvidia Tesla M2090 GPU, whose CUDA compute capability"
        " is 2.0. How can I fix this problem?",
        "cuda.gpu-too-old-for-binary",
        "3.0",  # the answer: cuDNN needs compute capability 3.0
        "https://github.com/rbgirshick/fast-rcnn/issues/44",
    ),
    (
        "在运行python main.py train时出现如下问题,系统环境为ubuntu16.04+cuda9.0+cudnn7.0.5,百度之后发现该问题可能是因为"
        "cuda计算能力不够,cudnn需要计算能力达到3.0的cuda,但是cuda9.0的计算能力为2.1,是不足以支持的\n"
        "RuntimeError: cuDNN error: CUDNN_STATUS_ARCH_MISMATCH",
        "cuda.gpu-too-old-for-binary",
        "3.0",
        "https://github.com/chenyuntc/pytorch-best-practice/issues/12",
    ),
    (
        "GPU:  GeForce GTX 550 Ti\n"
        "CUDA: 8.0\n"
        "CuDNN: 5.1\n"
        "OS: Ubuntu\n\n"
        "Starting OpenPose demo...\n"
        "Auto-detecting all available GPUs... Detected 1 GPU(s), using 1 of them starting at GPU 0.\n"
        "Starting thread(s)...\n"
        "F0628 13:44:06.798274 24168 cudnn_conv_layer.cpp:53] Check failed: status =="
        " CUDNN_STATUS_SUCCESS (6 vs. 0)  CUDNN_STATUS_ARCH_MISMATCH",
        "cuda.gpu-too-old-for-binary",
        "3.0",  # GTX 550 Ti is compute capability 2.1: below cuDNN's minimum
        "https://github.com/CMU-Perceptual-Computing-Lab/openpose/issues/681",
    ),
    (
        "I originally had four 2080s and have  xformerx built,  and now I've added an additional four"
        " 3090s. [...] However, when I run with the 3090s, I encountered an error:\n\n"
        "FATAL: kernel fmha_cutlassF_f16_aligned_64x128_rf_sm80 is for sm80-sm100, but was built for"
        " sm75.\n\n"
        "So, should I just rebuild the Xformer directly? Would this affect the ability of the 2080s to"
        " run?",
        "torch.extension-abi-mismatch",
        "TORCH_CUDA_ARCH_LIST",  # the reporter: rebuilt with TORCH_CUDA_ARCH_LIST="7.5 8.6"
        "https://github.com/facebookresearch/xformers/issues/1045",
    ),
    (
        "I had this error but once I got rid of what was inside the additional_argument, it worked.\n\n"
        "FATAL: this function is for sm80, but was built for sm750\n"
        "FATAL: this function is for sm80, but was built for sm750\n"
        "FATAL: this function is for sm80, but was built for sm750",
        "torch.extension-abi-mismatch",
        "xformers",  # the maintainer: the notebook's xformers wheel is built for the T4 only
        "https://github.com/Linaqruf/kohya-trainer/issues/34",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


# (message of another cause, the new cause it must not rank first, the thread)
LOOKALIKE = [
    (
        # Triton's own bundled ptxas (a Thor GPU): not a CUDA toolkit on PATH to upgrade
        "[Doc] Add troubleshooting for Triton PTX error about undefined gpu-name\n\n"
        "## Purpose\n"
        "- Add troubleshooting for error: `ptxas fatal: Value 'sm_110a' is not defined for option"
        " 'gpu-name'`",
        "cuda.nvcc-too-old-for-gpu",
        "https://github.com/vllm-project/vllm/pull/31338",
    ),
    (
        # fp16 NaNs of a model trained in bf16, on any card: not a GTX 16xx in half precision
        "Trying the sample code using fp16 instead of bf16, latents are generated as all NaN. Is fp16"
        " expected to work?",
        "app.sd-webui.half-precision-nan",
        "https://github.com/jy0205/Pyramid-Flow/issues/25",
    ),
    (
        # a libtorch built from source without the T4's architecture: PyTorch's own kernels
        "terminate called after throwing an instance of 'c10::Error'\n"
        "  what():  CUDA error: no kernel image is available for execution on the device\n"
        "Exception raised from launch_unrolled_kernel at"
        " /cfs_asr_2020/kyzhan/soft/pytorch1_6/pytorch/aten/src/ATen/native/cuda/CUDALoops.cuh:157"
        " (most recent call first):",
        "cuda.gpu-too-new-for-binary",
        "https://github.com/pytorch/pytorch/issues/52598",
    ),
]


test_lookalike_not_caught = lookalike_test(LOOKALIKE)
