"""Users' own words for "the GPU is not used / it runs on the CPU" (Chinese first, English too), with
little or no error text (checks/signatures/{torch,amd_rocm}.toml and the entries it extends): the
message of a public thread, verbatim, whose fix was confirmed (the reporter says it worked, or a
maintainer states cause and fix). Each reaches its confirmed cause first, or, where the words
alone cannot tell the causes apart, the family's leading cause whose fixes name the knob the
confirmed fix turned (the driver, the interpreter the app runs). Look-alike rows are real
messages of OTHER causes (running on the CPU on purpose, a CPU-bound program, Task Manager or an
app's graph, Ollama's AMD build): the tempting cause must not rank first."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

CPU_BUILD = "torch.cpu-build-on-gpu-host"
DRIVER = "torch.driver-too-old"

# (message verbatim, the finding id first, text one of its fixes names, thread URL)
KNOB = [
    (
        "Windows上跑CPU使用100%，GPU使用却是1%，这是什么原因呢？\n你好，首先感谢大佬分享！\n\n我在Windows上跑CPU使用100%，GPU使用却是1%，这是什么原因呢？",
        CPU_BUILD,
        "download.pytorch.org",
        # maintainer: the pytorch installed is most likely not the GPU version
        "https://github.com/thunlp/OpenNRE/issues/343",
    ),
    (
        "运行时gpu不工作，cpu和内存跑满\n我在使用\npython inference_realesrgan.py --model_path experiments/pretrained_models/RealESRGAN_x4plus_anime_6B.pth --input inputs\n这个命令时，cpu和内存直接跑满，gpu却一点都不工作，我想让cpu工作，请问怎么解决？",
        CPU_BUILD,
        "download.pytorch.org",
        # reporter: it was the pytorch install, solved
        "https://github.com/xinntao/Real-ESRGAN/issues/94",
    ),
    (
        "The renderer is using my CPU instead of RTX 5090 on Windows 11. Is this expected behaviour? I can’t find any way to specify what is used.",
        CPU_BUILD,
        "cu12",
        # reply: the default setup installed torch without CUDA; the cu12x wheel made it use the GPU
        "https://github.com/apple/ml-sharp/issues/18",
    ),
    (
        "So up until yesterday, i've been using a backup Intel card (B580) and it's been mostly fine... However, I now have my main GPU again (after it was on RMA, a 4070ti) and i was trying to use it now as usual, but even when i try to force the program to use my nvidia gpu now (using **--use-cuda**), it keeps on using my CPU for some explicable reason...\nKeeps on loading everything to RAM instead of VRAM and uses 50% of my CPU instead of GPU when generating...\nDo i need to reinstall torch or what's happening?",
        CPU_BUILD,
        "download.pytorch.org",
        "https://github.com/vladmandic/sdnext/issues/4002",
    ),
    (
        "Installed everything needed, except xformers. When I try to run the `txt2img.py`, the CPU is used instead of the Nvidia RTX 3060 GPU. Is this the default behaviour? If not, then what should be done to force the task to the GPU?",
        CPU_BUILD,
        "download.pytorch.org",
        # reporter: the CUDA version was not the one of the PyTorch build
        "https://github.com/Stability-AI/stablediffusion/issues/158",
    ),
    (
        "V2版本怎么是cpu训练啊？\n貌似是没识别出这张显卡，4060ti 16g",
        CPU_BUILD,
        "download.pytorch.org",
        # reporter: torch did not match the CUDA; the right torch build fixed it
        "https://github.com/RVC-Boss/GPT-SoVITS/issues/1425",
    ),
    (
        "请问我训练的时候发现机器使用了CPU来进行训练，我的GPU是8GB的，原因是因为GPU大小不够吗？还是说需要手动配置呢",
        CPU_BUILD,
        "download.pytorch.org",
        # maintainer: first check for the CPU build (then the env); reporter: solved
        "https://github.com/troublemaker-r/Chinese_Coreference_Resolution/issues/5",
    ),
    (
        "I'm training a neural network with coco128 dataset and yolov5s ...actually yolo is using only Cpu for traning instead of my gpu (gtx 1080 ) and it works fine.How can i use my gpu...i think the problem is the torch version\nas displayed in this code line\n`YOLOv5  2022-4-22 torch 1.11.0+cpu CPU`\n generated after\n`python train.py --img 640 --batch 16 --epochs 3 --data coco128.yaml --weights yolov5s.p` \nAny idea? Thank you",
        CPU_BUILD,
        "download.pytorch.org",
        "https://github.com/ultralytics/yolov5/issues/7639",
    ),
    (
        "@Laughing-q  No. it is returning False \nmaybe there is a version compatibility issue. \nCUDA Version: 11.6\nPython 3.8.15\npytorch 1.13.1+cpu",
        CPU_BUILD,
        "download.pytorch.org",
        "https://github.com/ultralytics/ultralytics/issues/227",
    ),
    (
        "install onnxruntime-gpu to avoid prepare_ubc.py use cpu\n`pip install onnxruntime`  can only use device cpu.",
        "onnxruntime.cpu-package-shadows-gpu",
        "onnxruntime-gpu",
        "https://github.com/fenghan0430/Open-AnimateAnyone/issues/1",
    ),
    (
        "为什么安装requirements之前print(torch.cuda.is_available())为True 安装之后变成了False 无法调用GPU",
        CPU_BUILD,
        "download.pytorch.org",
        "https://github.com/chatchat-space/Langchain-Chatchat/issues/1858",
    ),
    (
        'A卡不能用嘛？6800显卡部署出错\nAMD 6800显卡部署出错，AMD显卡是否可以使用该项目？\nraise AssertionError("Torch not compiled with CUDA enabled")\nAssertionError: Torch not compiled with CUDA enabled',
        "rocm.cuda-torch-on-amd",
        "rocm",
        "https://github.com/zai-org/ChatGLM-6B/issues/814",
    ),
    (
        "When training with the default setting, GPU usage is 0% while CPU is 100%.\n\nThe training code seems to be using CUDA, however, it doesn't seem helpful in boosting the speed.\n\nWhy?",
        CPU_BUILD,
        "driver",
        # reporter: it was the GPU driver (the leading cause of the words; its fixes name the driver check)
        "https://github.com/tkipf/pygcn/issues/40",
    ),
    (
        "Hello, I have an amd 6700xt GPU and for God's sake I can't run the program on the GPU.. I already installed ubuntu through the terminal to find the path and everything around .. But I'm stuck on ROCm .. for God's sake I can't install .. I've been installing all day together with CHATGPT and I uninstall everything possible and nothing.. does anyone have experience with this? How to get it working on AMD 6700xt .. Thanks for your reply",
        "rocm.cuda-torch-on-amd",
        "DirectML",
        # maintainer: on AMD GPUs use DirectML
        "https://github.com/C0untFloyd/roop-unleashed/issues/938",
    ),
    (
        "Why is only the CPU recognized here and not my GPU? The CPU can be used, but it's too slow.",
        CPU_BUILD,
        "sys.executable",
        # reporter: a second Python ran the app (the leading cause of the words; its fixes name the interpreter check)
        "https://github.com/nagadomi/nunif/issues/74",
    ),
    (
        "CUDA_VISIBLE_DEVICES=0 python src/train_web.py\n\n出现日志\n\n/root/anaconda3/lib/python3.9/site-packages/torch/cuda/__init__.py:138: UserWarning: CUDA initialization: The NVIDIA driver on your system is too old (found version 11040). Please update your GPU driver by downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx Alternatively, go to: https://pytorch.org to install a PyTorch version that has been compiled with your version of the CUDA driver. (Triggered internally at ../c10/cuda/CUDAFunctions.cpp:108.)\n  return torch._C._cuda_getDeviceCount() > 0\n\n观察nvitop\n发现服务没有运行到GPU上，全部占用了CPU",
        DRIVER,
        "driver",
        "https://github.com/hiyouga/LlamaFactory/issues/1573",
    ),
    (
        "启动后没有吃GPU，运行速度也很慢，是怎么回事呢\nCUDA 10020，py 3.10\n/.conda/envs/py310/lib/python3.10/site-packages/torch/cuda/__init__.py:141: UserWarning: CUDA initialization: The NVIDIA driver on your system is too old (found version 10020). Please update your GPU driver by downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx Alternatively, go to: https://pytorch.org to install a PyTorch version that has been compiled with your version of the CUDA driver. (Triggered internally at ../c10/cuda/CUDAFunctions.cpp:108.)\n\n怎么样可以加速分析呢",
        DRIVER,
        "driver",
        "https://github.com/thu-coai/CharacterGLM-6B/issues/21",
    ),
    (
        "就是我的显卡是RTX3050的，但是我下了很多版本的cuda都无法跑通代码，也不是无法跑通，是一直用cpu再跑，我下载的是gpu版本对应的torch和torchvision，11.7，10.2的都无法用gpu跑不知为什么",
        DRIVER,
        "driver",
        # maintainer: match the torch build to the NVIDIA driver (the reporter already has the GPU build)
        "https://github.com/pkuCactus/BDCN/issues/63",
    ),
    (
        "作者你好，我train.py后训练数据调用的是cpu，没有调用到GPU，我用paddle.fluid.install_check.run_check()检查显示在GPU或CPU上运行良好。希望你能解答一下，谢谢！",
        "paddle.cpu-package-installed",
        "paddlepaddle-gpu",
        "https://github.com/yeyupiaoling/PPASR/issues/39",
    ),
    (
        'I have GTX 1080 TI and windows 7. But no compatible GPU found. I can\'t switch "Use CPU (not GPU)" button.',
        CPU_BUILD,
        "driver",
        # maintainer: update the NVIDIA driver (the leading cause of the words; its fixes name the driver)
        "https://github.com/easydiffusion/easydiffusion/issues/1177",
    ),
]

# (message of another cause, verbatim, the cause that must not rank first, thread URL)
LOOKALIKE = [
    (
        "怎样使用cpu而不是cuda训练环境？",
        CPU_BUILD,
        "https://github.com/hiyouga/LlamaFactory/issues/6051",
    ),
    (
        "您好，请问如果使用cpu训练该如何设置",
        CPU_BUILD,
        "https://github.com/tsinghua-fib-lab/Traffic-Benchmark/issues/16",
    ),
    (
        "什么时候支持不要显卡的，吃CPU都行\n想处理单张图片没有显卡难搞哦，什么时候可以支持不要显卡的，占用CPU和内存都行",
        CPU_BUILD,
        "https://github.com/YaoFANGUK/video-subtitle-remover/issues/29",
    ),
    (
        "Hi, does it need to change any setting before pressing Transcribe with CPU?  \nBecause the progress bar didn't move after I pressed Transcribe. I only use a minute audio to do this.",
        CPU_BUILD,
        "https://github.com/Const-me/Whisper/issues/55",
    ),
    (
        "求大神帮助，为什么我的CPU100%,但是显存没用多少",
        CPU_BUILD,
        "https://github.com/kleinlee/DH_live/issues/32",
    ),
    (
        "设置cuda，但是cpu占用高\n如图\n已经尝试重启过程序，也重启过电脑",
        CPU_BUILD,
        "https://github.com/WEIFENG2333/VideoCaptioner/issues/133",
    ),
    (
        "安装了完整的CUDA驱动 9.0版本的    显卡驱动也安装了  \n但是检测显卡后显示：未检测到可用的GPU\n用waifu2x-caffe也和贴吧的许多人一样  提示：无法使用GPU转换  没有安装独立的CUDA驱动",
        CPU_BUILD,
        "https://github.com/AaronFeng753/Waifu2x-Extension-GUI/issues/52",
    ),
    # round 25 marked this a strict xfail (the case base suggested the CPU-only torch wheel from a
    # similar thread); round 26's rebuilt case base no longer does, so it runs as a plain row
    (
        "In the process of running this program, I found that this program takes up a lot of CPU resources and causes stuttering, while the GPU (Nvidia) occupancy rate is very low.I wonder if this is because the program only supports calling the CPU without adapting the GPU, or if there is something wrong with my computer.",
        CPU_BUILD,
        "https://github.com/ColorfulSoft/DeOldify.NET/issues/18",
    ),
    (
        "100%CPU，gpu的利用率偶尔100%（很少，而且显卡温度也没升高），这个情况是正常的吗？\n用的是WINDOW  GPU版本",
        CPU_BUILD,
        "https://github.com/YaoFANGUK/video-subtitle-extractor/issues/178",
    ),
    (
        "GPU-Util is 0% given by `nvidia-smi`, while both `next(module.parameters()).is_cuda()` and `variable.data.is_cuda()` print True. \n\nIs there any other way I can debug or make sure the GPU usage?",
        CPU_BUILD,
        "https://github.com/pytorch/pytorch/issues/4194",
    ),
    (
        "GPU识别正常，但实际是CPU在运算\n将0.5.13的`lib\\ollama\\rocm\\ggml-base.dll`重新替换进去后，重新恢复为只有CPU运行。",
        "rocm.cuda-torch-on-amd",
        "https://github.com/likelovewant/ollama-for-amd/issues/63",
    ),
]


test_gpu_not_used_report_first_with_knob = knob_test(KNOB)


test_gpu_not_used_lookalike_not_first = lookalike_test(LOOKALIKE, may_be_empty=True)
