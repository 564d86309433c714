"""How English-speaking users describe the frequent GPU / ML environment problems in prose: the first
post of a public thread (title + first sentences + any error line, verbatim) whose fix was confirmed
(the reporter says it worked, or a maintainer states cause and fix). A report in prose reaches its
confirmed cause among the first three findings with a fix that names the knob the confirmed fix
turned (tests/triage_lines.assert_reaches); a report with a canonical error line ranks it first.
Look-alike rows are English reports of OTHER causes that the English cue phrasings
(checks/signatures/{apps,windows,python_env}.toml and the extended prose8 entries) could wrongly catch: the
tempting cause must not rank first."""

from __future__ import annotations

from tests.triage_lines import first_with_knob_test, lookalike_test, reach_test

CPU_BUILD = "torch.cpu-build-on-gpu-host"
GPU_NEW = "torch.gpu-too-new-for-build"
GPU_OLD = "torch.gpu-too-old-for-build"
HALF_NAN = "app.sd-webui.half-precision-nan"
SYSMEM = "windows.sysmem-fallback-slow"
NOTEBOOK = "python.notebook-no-gpu-runtime"

# (first post verbatim, accepted causes, text one of the cause's fixes names, thread URL)
REACH = [
    (
        "torch.cuda.is_available() returned False.\n"
        "fresh install, ran the setup.bat file then downloaded 3 models via the download.bat.\n"
        "When i run the webui.bat file i get the error:\n"
        '"Loading facebook_galactica-6.7b...\n'
        "Warning: torch.cuda.is_available() returned False.\n"
        "This means that no GPU has been detected.\n"
        'Falling back to CPU mode."\n'
        "I regularily run stable diffusion, so i have various Python enviroments installed. i believe "
        "3.10.6 currently.\n"
        "System:\nryzen 5800x\nRTX 3080 12gb",
        (CPU_BUILD,),
        "download.pytorch.org/whl/",
        # collect_env in the thread: "PyTorch version: 2.0.0+cpu" (the CPU wheel in the env)
        "https://github.com/oobabooga/textgen/issues/791",
    ),
    (
        "InvokeAI running off CPU by default instead of GPU, how to switch?\n"
        "I recently updated to version 2.02 I deleted my previous install and started fresh install "
        "with Anaconda which I think caused me more headaches than if I had just updated it but "
        "eventually got it to run however it seems to be running off my CPU by default.\n"
        "Is there a command or something that I can use to switch it to my GPU ?(Cuda, 1080ti) it "
        "was working fine in all previous versions.\n"
        ">> Using device_type cpu",
        (CPU_BUILD,),
        "pytorch",
        # reporter: pip uninstall torch, reinstall from the CUDA requirements file fixed it
        "https://github.com/invoke-ai/InvokeAI/issues/1202",
    ),
    (
        "Use CPU\n"
        "When running on my own computer, I use the CPU for calculations throughout the entire "
        "process, rather than the GPU. May I ask how to solve this problem",
        (CPU_BUILD,),
        "download.pytorch.org/whl/",
        # another user, same problem solved: pip install torch ... --index-url .../whl/cu121
        "https://github.com/sczhou/CodeFormer/issues/307",
    ),
    (
        "Windows + Pinokio installs CPU-only PyTorch instead of CUDA version\n"
        "After a fresh installation with Pinokio, Seed-VC was running extremely slowly.\n"
        "Processing 30 seconds of audio took between 6 and 10 minutes, and GPU usage stayed around "
        "0–2%.\n"
        "nvidia-smi showed almost no compute activity.",
        (CPU_BUILD,),
        "download.pytorch.org/whl/",
        # reporter: torch 2.4.0+cpu; --force-reinstall from .../whl/cu124 gave 2.4.0+cu124, True
        "https://github.com/pinokiocomputer/pinokio/issues/1105",
    ),
    (
        "GPU not utilized during model training, resulting in slow performance\n"
        "I have added the CUDA path to ./bashrc and entered the GPU-interactive mode. However, during "
        "automatic model training, the CPU is being used, leading to extremely slow training. This "
        "issue occurs consistently after the initial successful training, which took approximately "
        "1 hour under default settings.\n"
        "Is it because I installed TensorBoard which modified the pytorch version?\n"
        "I ran\nconda install pytorch torchvision -c pytorch\npip install tensorboard",
        (CPU_BUILD,),
        "pytorch-cuda",
        # reporter: solved by setting the environment up again (the conda command gave a CPU torch)
        "https://github.com/ilnehc96/HKU-DASC7606-A1/issues/9",
    ),
    (
        "Errors with RTX 5090 and CUDA\n"
        "It looks like pytorch has trouble working with the new rtx 5090 CUDA version. It looks like "
        "there is a nightly build available in the short term.\n"
        "How can I get the bundled python standalone that runs with this package to use the updated "
        "nightly build that is compatible with RTX 5090s?",
        (GPU_NEW,),
        "cu128",
        # maintainer: pip install --force-reinstall --pre torch ... --index-url .../nightly/cu128;
        # closed with the release that bundles PyTorch 2.7 + cu128
        "https://github.com/YanWenKun/Hunyuan3D-2-WinPortable/issues/35",
    ),
    (
        "After last update training speed slow down\n"
        "After last update with update.bat on 3080... 715 steps with batch 8 ~5h (2k+ steps show "
        "~31h). Roll back on version 21.5.12 and rerun setup.bat with same parameters ~1h\n"
        "Win 11 x64",
        (SYSMEM,),
        "roll back the NVIDIA driver",
        # reporter: the NVIDIA driver update (shared-memory fallback); going back to 532.03 solved it
        "https://github.com/bmaltais/kohya_ss/issues/884",
    ),
    (
        "A possible solution to prevent learning process slowdown\n"
        "Windows 10\nRTX 3060 12GB\nSDXL LoRA\n"
        "1. Launch: increased iteration time + decreased usage during the last 50 steps at the end of "
        "the 0→600 range.\n"
        "   Stopped, restarted.\n"
        "2. Restart from step 600: same situation. Increased iteration time + decreased usage during "
        "the last 50 steps at the end of the 600→1200 range.",
        (SYSMEM,),
        "Sysmem Fallback Policy",
        # reporter and two others: disabling "CUDA: Sysmem Fallback Policy" solved it
        "https://github.com/ostris/ai-toolkit/issues/794",
    ),
    (
        "Get green screen With my 1660 SUPER. (ft16 issue)\n"
        "It looks like my 1660 SUPER does not support ft16 operation, is it possible to add a "
        "parameter to switch to full precision?",
        (HALF_NAN,),
        "--precision full",
        # maintainer: `--precision full` is there
        "https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/28",
    ),
    (
        "The image comes out in green\n"
        "Hello, good, I've been trying to get Stable Diffusion to work but I'm doing something wrong, "
        "the images come out green.\n"
        "I have an NVIDIA GTX 1660 SUPER, could it be the graphics problem?",
        (HALF_NAN,),
        "--precision full",
        # answer: the GTX 16 series lack mixed precision, use --precision full; reporter: thanks
        "https://github.com/invoke-ai/InvokeAI/issues/61",
    ),
    (
        "generting plain green images.\n"
        "1650 gpu\naddon version 0.0.7\nsettings.\n500x500p\n25 steps\n"
        "half precision. (only option that does anything other than b*tch about vram)",
        (HALF_NAN,),
        "full-precision",
        # maintainer: the 1650 does not support half precision; use Automatic or Full Precision
        "https://github.com/carson-katri/dream-textures/issues/308",
    ),
    (
        "Nvidia 1660ti green screens\n"
        "Still looking for a fix for gtx16** series. The problem is, that it doesn't matter what "
        "settings i use, i'm always get a green picture instead of the result.",
        (HALF_NAN,),
        "--no-half",
        # answer: --precision full --no-half (a 1660 Super owner), with the docs' CLI page
        "https://github.com/Sygil-Dev/sygil-webui/issues/34",
    ),
    (
        "Green flat output without `--precision full`\n"
        "If I don't set `--precision full`, I get after the computation a plain green image (a "
        "constant color). I tried 3-4 different combinations, with and without the full precision. "
        "In the latter case, I only got this green output.",
        (HALF_NAN,),
        "--precision full",
        # maintainer: a known issue with GTX 16xx cards (full precision is the way)
        "https://github.com/basujindal/stable-diffusion/issues/121",
    ),
    (
        "Colab GPU unavailable for torch 1.3.1 or tensorflow 1.15.0\n"
        "The default tensorflow and torch on Colab do not appear to be able to use GPU with GPU as "
        "runtime:\n"
        "import tensorflow as tf\nprint(tf.__version__)\ntf.test.is_gpu_available()\n"
        "returns:\n1.15.0\nFalse",
        (NOTEBOOK,),
        "Change runtime type",
        # Colab team: Runtime > Change runtime type > GPU (or factory-reset the runtime)
        "https://github.com/googlecolab/colabtools/issues/930",
    ),
    (
        "I get error message No GPU available of any type...\n"
        "Bug report for Colab: http://colab.research.google.com/.\n"
        "Suddenly my notebook got disconnected and couldnt reconnect with error message No GPU "
        "available.\n"
        "I read in FAQ that high end gpu can get temporarily unavailable but atleast k80 should "
        "always be available.",
        (NOTEBOOK,),
        "CPU runtime",
        # Colab team: no GPU type is guaranteed; try a CPU instance, or a GPU one a day later
        "https://github.com/googlecolab/colabtools/issues/759",
    ),
]

# (message verbatim, the finding id first, text one of its fixes names, thread URL)
KNOB = [
    (
        "Can't run on RTX 5000 series due to outdated torch etc\n"
        "To use RTX 5000 series, such as 5080 or 5090, one needs to grab a nightly version of "
        "pytorch, e.g. `pip install --pre torch --index-url "
        "https://download.pytorch.org/whl/nightly/cu128 --force-reinstall`.\n"
        "Otherwise you get errors like\n"
        "NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current "
        "PyTorch installation.\n"
        "The current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 "
        "sm_90.\n\n"
        "CUDA error: no kernel image is available for execution on the device",
        GPU_NEW,
        "sm_120",
        # reporter: the nightly cu128 torch (and xformers) made it work on WSL2
        "https://github.com/deepseek-ai/DeepSeek-VL2/issues/59",
    ),
    (
        "Pytorch CUDA P100 GPU Incompatibility\n"
        "The model fails to train on GPU due to a CUDA capability mismatch. The installed version of "
        "PyTorch requires CUDA capability sm_70 or higher, but the available GPU (Tesla "
        "P100-PCIE-16GB) only supports sm_60. Here is traceback:\n"
        "    Found GPU0 Tesla P100-PCIE-16GB which is of cuda capability 6.0.\n"
        "    Minimum and Maximum cuda capability supported by this version of PyTorch is\n"
        "    (7.0) - (12.0)\n"
        "    Please install PyTorch with a following CUDA\n"
        "    configurations:  12.6 following instructions at\n"
        "    https://pytorch.org/get-started/locally/\n"
        "Tesla P100-PCIE-16GB with CUDA capability sm_60 is not compatible with the current PyTorch "
        "installation.\n"
        "The current PyTorch install supports CUDA capabilities sm_70 sm_75 sm_80 sm_86 sm_90 "
        "sm_100 sm_120.",
        GPU_OLD,
        "cu126",
        # Kaggle (kaggle-cli#1151): the image's cu128 torch has no sm_60; a Pascal build or a T4
        "https://github.com/Kaggle/docker-python/issues/1546",
    ),
    (
        "old gpu support ?\n"
        "Hey, i'ù struggle with an old gpu...\n"
        "    Found GPU0 GeForce GTX 660 Ti which is of cuda capability 3.0.\n"
        "    PyTorch no longer supports this GPU because it is too old.\n"
        "    The minimum cuda capability that we support is 3.5.\n"
        "RuntimeError: CUDA error: no kernel image is available for execution on the device",
        GPU_OLD,
        "TORCH_CUDA_ARCH_LIST",
        # maintainer: an old GPU PyTorch's builds do not support (an older or source build)
        "https://github.com/alievk/avatarify-python/issues/58",
    ),
]

# (English report of another cause, the cause an English cue could wrongly put first, thread URL)
LOOKALIKE = [
    (
        "not detecting my amd gpu\n"
        "i have an amd radeon rx 6600 gpu but voicebox is not detecting it and its using my CPU to "
        "generate the voices, how can i make it so that it uses my AMD gpu instead?",
        CPU_BUILD,
        "https://github.com/jamiepine/voicebox/issues/368",  # no ROCm support on Windows yet
    ),
    (
        "Apple GPU\n"
        "It seems to be running on CPU only on my Macbook Pro M1 Max, although it is stated that "
        "apple GPUs are supported.\n"
        "How can I configure it to run on the GPU?",
        CPU_BUILD,
        "https://github.com/C0untFloyd/bark-gui/issues/43",  # maintainer: pass -enablemps
    ),
    (
        "Fooocus became really slow out of sudden after installing the latest Nvidia driver. I "
        "rolled back, but it's still very slow.\n"
        "Been using Fooocus for a while now. Up until yesterday I was getting around 1.35 it/s on my "
        "RTX 2060 SUPER 8GB, but now it's 3.5 **Second Per Iteration**. Earlier today I updated the "
        "Nvidia driver to 551.61, and installed some other software, like Marvelous Designer, "
        "Plasicity, Daz3D. Other than these I haven't changed anything on my PC, yet Fooocus became "
        "really slow and sluggish.",
        SYSMEM,
        "https://github.com/lllyasviel/Fooocus/issues/2340",  # reporter: a full reinstall fixed it
    ),
    (
        "Reduced training efficiency in v25.0.3\n"
        "I noticed most of my model now takes almost 2x longer to train, this does not happen when "
        "on v24. Did I missed anything? I am using the same training config file as v24. And I also "
        "noticed my GPU is running 30-40% less utilization and ran much cooler, caused by the latest "
        "Nvidia driver too? (GPU: RTX3090)",
        SYSMEM,
        "https://github.com/bmaltais/kohya_ss/issues/3169",  # maintainer: sd-scripts changed; use v24
    ),
    (
        "Immediate reboot (Hard Crash) when training on 5090. Transient Spikes?\n"
        "I got myself a RTX 5090, one of last in the shops and I called myself lucky. Speed up lora "
        "training was one of my motivations. Well I'm not so sure anymore..\n"
        "I have tried to adapt the trainer to Flux2 and while I was able to get it done somehow, I "
        "couldn't get it stable. I experienced hard grashes that would immediately reboot my PC.",
        GPU_NEW,
        "https://github.com/kijai/ComfyUI-FluxTrainer/issues/208",  # power transients, not kernels
    ),
]


test_en_report_reaches_cause_with_knob = reach_test(REACH)


test_en_line_first_with_knob = first_with_knob_test(KNOB)


test_en_lookalike_not_first = lookalike_test(LOOKALIKE, may_be_empty=True)
