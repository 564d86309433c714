"""English prose reports, second sweep: the families where the first sweep found envdoctor weakest
(llama.cpp / Ollama / LM Studio not using the GPU, bitsandbytes on Windows, Windows DLL
dependencies, Kubernetes GPU allocation, out of memory, overheating). Each row is the first post
of a public thread (title + first sentences + any error line, verbatim) whose fix was confirmed
(the reporter says it worked, or a maintainer states cause and fix). A report in prose reaches
its confirmed cause among the first three findings with a fix that names the knob the confirmed
fix turned (tests/triage_lines.assert_reaches); a report with a canonical error line ranks it
first (assert_first_with_knob). Look-alike rows are reports of OTHER causes that the new cue
phrasings (checks/signatures/{apps,hardware,kubernetes}.toml) could wrongly catch: the tempting cause must not
rank first."""

from __future__ import annotations

from tests.triage_lines import first_with_knob_test, lookalike_test, reach_test

LAYERS = "app.llamacpp.gpu-layers-not-set"
LMSTUDIO = "app.lmstudio.gpu-runtime"
PARTIAL = "app.ollama.partial-offload"
BNB_WIN = "bitsandbytes.windows-unsupported"
NOFIT = "memory.workload-does-not-fit"
UNHEALTHY = "k8s.device-plugin-marked-gpu-unhealthy"
HEAT = "hardware.gpu-overheating"
DLL = "windows.dll-dependency-missing"
TOOLKITS = "cuda.toolkits-disagree"

# (first post verbatim, accepted causes, text one of the cause's fixes names, thread URL)
REACH = [
    (
        "not offloading to GPU on jetson orin\n"
        "I am trying to run my code with GPU support, I am running it on Jetson orin  but it's not "
        "offloading the GPU My CUDA is 11.4 see attached files for screenshot and code:\n"
        "models i use:\nllama-2-13b.Q2_K.gguf\nllama2-13b-chat.Q5_K_S.gguf",
        (LAYERS,),
        "n_gpu_layers",
        # maintainer: use the n_gpu_layers parameter to set how many layers to offload
        "https://github.com/abetlen/llama-cpp-python/issues/674",
    ),
    (
        "No GPUs Detected\n"
        "Which version of LM Studio?\nExample: LM Studio 0.3.30\n"
        "Which operating system?\nWindows 11 24H2\n"
        "What is the bug?\n"
        "In recent version of LM Studio, no GPUs are detected. Previous version (I forget how far "
        "back) successfully detected my AMD Radeon 4GB card without issue, and used it to offload "
        "LLM.",
        (LMSTUDIO,),
        ".lmstudio",
        # reporter: deleted all traces of LM Studio from %USERPROFILE%, reinstalled: fixed
        "https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/1171",
    ),
    (
        "CUDA 12 llama.cpp (Windows) v1.53.1 - GPU survey unsuccessful\n"
        "Which version of LM Studio?\nExample: LM Studio 0.3.31(Build 2)\n"
        "Which operating system?\nWindows 11\n"
        "What is the bug?\n"
        "CUDA 12 llama.cpp (Windows) v1.53.1 - GPU survey unsuccessful \n"
        "I can see the GPU in the LM studio, but when i run the LLM, GPU usage = 0\n"
        "GPU\nRTX Blackwell Pro 6000",
        (LMSTUDIO,),
        "%APPDATA%",
        # reporter: a plain reinstall did not help; deleting everything in AppData/Roaming did
        "https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/1131",
    ),
    (
        "Bitsandbytes does not work in Windows\n"
        "There is currently a problem with bitsandbytes in windows. For anyone with the same issue "
        "it is enough to change the requirement to bitsandbytes-windows.",
        (BNB_WIN,),
        "0.43.0",
        # fixed by the requirement change (PR 268); bitsandbytes 0.43.0 made the unofficial
        # Windows build unnecessary (official Windows wheels)
        "https://github.com/PromtEngineer/localGPT/issues/265",
    ),
    (
        "Pretrained models giving Out of memory error.\n"
        "Is there a way to reduce the memory requirements to that of a 4 GB card?\n"
        "RuntimeError: CUDA out of memory. Tried to allocate 5.72 GiB",
        (NOFIT,),
        "resolution",
        # maintainer: lower the batch size, or the image resolution (256 -> 224)
        "https://github.com/FilipAndersson245/cartoon-gan/issues/9",
    ),
    (
        "Cuda VRAM requirement\n"
        "Hello,\nthis is more a _question_ than an _issue_:\n"
        "I managed it to run the **small model** with cuda successfully on different nVidia cards.\n"
        "When I try the **large model** on a card with 16GByte VRAM, I get the error message: "
        '"torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 11.38 GiB. GPU"\n'
        "So my question is: Is there any chance to get the large model running on a card with "
        "16GByte VRAM?",
        (NOFIT,),
        "resolution",
        # maintainer: reduce --input_size (378 or smaller); reporter: works up to 514, thanks
        "https://github.com/DepthAnything/Video-Depth-Anything/issues/37",
    ),
    (
        "k8s-device-plugin reports that a gpu is unhealthy, why it becomes healthy after i restart "
        "my k8s-device-plugin?\n"
        "k8s-device-plugin reports that a gpu is unhealthy, then i restart my k8s-device-plugin "
        "pod, this gpu becomes healthy immediatedly.\n"
        "so i want to ask is that gpu really unhealthy? because i do not restart any gpu in my "
        "machine, i just rerunning the k8s-device-plugin code.",
        (UNHEALTHY,),
        "DP_DISABLE_HEALTHCHECKS",
        # maintainer: the plugin marks a GPU unhealthy on its errors and assumes healthy on
        # restart; DP_DISABLE_HEALTHCHECKS=all disables the health checks
        "https://github.com/NVIDIA/k8s-device-plugin/issues/111",
    ),
    (
        "After a few days of running,the num of GPU Registered changed\n"
        "1. Issue or feature description\n"
        "the num of GPU Registered first is 8. but after a few days of running, it changed to 4 "
        "or 6 or 5 .\n"
        "Capacity:\n  cpu:                104\n  nvidia.com/gpu:     8\n  pods:               110\n"
        "Allocatable:\n  cpu:                104\n  nvidia.com/gpu:     6\n  pods:               110\n"
        "After I deleted nvidia-device-plugin, the num of GPU Registered  became 8\n"
        "kubectl delete pods nvidia-device-plugin-daemonset-fs97f -n kube-system",
        (UNHEALTHY,),
        "restart the device plugin",
        # maintainer: a GPU that reports an Xid outside the plugin's skip list is marked
        # unhealthy for good; restarting the plugin is the way out for now
        "https://github.com/NVIDIA/k8s-device-plugin/issues/234",
    ),
    (
        "Low GPU / High CPU Utilization ==> Slow Performance\n"
        "What is the issue?\n"
        "The Ollama on Ubuntu 22.04 can detect my Cuda GPU, and loads the model to its memory, but "
        "the processing seems to be mostly on CPU. Is this a normal behavior?  The overall "
        "performance is not satisfying, like 1-token-per-second or so ... much slower than a human "
        "reading speed.\n"
        "OS\nLinux\nGPU\nNvidia\nCPU\nIntel\nOllama version\n0.1.38",
        (PARTIAL,),
        "quantisation",
        # maintainer: the model does not fit the GPU, part runs on the CPU (ollama ps); reporter:
        # makes sense now, 43%/57% CPU/GPU
        "https://github.com/ollama/ollama/issues/4668",
    ),
    (
        "Ollama GPU not loding properly\n"
        "What is the issue?\n"
        "I am facing an issue with the Ollama service. I have an **RTX 4090 GPU** with 80GB of RAM "
        "and 24GB of VRAM. When I run the Llama 3 70B model and ask it a question, it initially "
        "loads on the GPU, but after 5-10 seconds, it shifts entirely to the CPU. This causes the "
        "response time to be slow. Please provide me with a solution for this. Thank you in "
        "advance.\n"
        "Note:- GPU load is 6-12 % and CPU load is 70% .\n"
        "OS\nWindows\nGPU\nNvidia\nCPU\nIntel\nOllama version\nv0.1.43",
        (PARTIAL,),
        "smaller model",
        # answers: 24 GB of VRAM is too little for a 70B model (40 GB at 4 bit), it is only
        # partially on the GPU; use a smaller model
        "https://github.com/ollama/ollama/issues/4995",
    ),
    (
        "Graphics card overload\n"
        "Why do I just use 1/3 of the graphics card memory when I train CycleGan, but the power "
        "and utilization are almost full, causing the temperature to be very high after a while? "
        "My configuration is two GTX1080Ti.",
        (HEAT,),
        "cooling",
        # maintainer: not the code; add cooling (the fast.ai GPU cooling thread)
        "https://github.com/junyanz/pytorch-CycleGAN-and-pix2pix/issues/682",
    ),
]

# (message verbatim, the finding id first, text one of its fixes names, thread URL)
KNOB = [
    (
        "ImportError: DLL load failed while importing _rawpy\n"
        "First of all! Awesome library. I really like it and would test out some things on "
        "Windows. So I installed a fresh version of Windows 10, installed Python 3.10.5 and Visual "
        "Studio Code (the machine is empty). With ``pip install rawpy`` I installed rawpy and "
        "trying to import it gives me this result:\n"
        ">>> import rawpy\n"
        "Traceback (most recent call last):\n"
        '  File "C:\\Python310\\lib\\site-packages\\rawpy\\__init__.py", line 5, in <module>\n'
        "    import rawpy._rawpy\n"
        "ImportError: DLL load failed while importing _rawpy: The specified module was not found.\n"
        "What can I do about it? Do I miss some dependencies?",
        DLL,
        "Visual C++",
        # maintainer: install the latest Visual C++ redistributable; reporter: worked fine
        "https://github.com/letmaik/rawpy/issues/178",
    ),
    (
        "import error on windows machines\n"
        "Describe the bug\n"
        "ImportError: DLL load failed: The specified module could not be found.\n"
        "Environment (please complete the following information):\n"
        "- Operating System: [Windows]\n"
        "- what compiler or setup process did you use[Anaconda Prompt - python]",
        DLL,
        "Visual C++",
        # reporter: after installing the latest Visual C++ Redistributable the issue is solved
        "https://github.com/GMLC-TDC/HELICS/issues/1529",
    ),
    (
        "[BUG] When pressing the mediapipe button\n"
        " DLL load failed while importing _framework_bindings: The specified module could not be "
        "found.",
        DLL,
        "Visual C++",
        # author: the missing Visual C++ redistributable (vc_redist.x64.exe); closed as fixed
        "https://github.com/Nor-s/Anim/issues/11",
    ),
    (
        "Pytorch picks wrong cuda version.\n"
        "I have on my arch linux system cuda 12.6\n"
        "nvcc: NVIDIA (R) Cuda compiler driver\n"
        "Cuda compilation tools, release 12.6, V12.6.68\n"
        "However, I want to build pytorch extension with a cuda 11.8\n"
        "So, I create a conda environment with this env.yml\n"
        "Then I clone a simple repo with pytorch extension and install it with pip install:\n"
        "It returns\n"
        "The detected CUDA version (12.6) mismatches the version that was used to compile\n"
        "      PyTorch (11.8). Please make sure to use the same CUDA versions.\n"
        "Even if nvcc --version shows correctly 11.8 not 12.6",
        TOOLKITS,
        "CUDA_HOME",
        # reporter: export CUDA_HOME=$CONDA_PREFIX is the workaround (the env's toolkit)
        "https://github.com/pytorch/pytorch/issues/136845",
    ),
]

# (report of another cause, the cause a new cue could wrongly put first, thread URL)
LOOKALIKE = [
    (
        "Create a pod,but allocatable gpu are always there?\n"
        "I install this plugin follow its official installation guideline,and create a pod with 1 "
        "nvidia.com/gpu successfully on a node with only one gpu. But there is still one gpu on "
        "this node allocatable.",
        UNHEALTHY,
        # allocatable is the node's healthy total, not what is free: nothing is wrong
        "https://github.com/NVIDIA/k8s-device-plugin/issues/112",
    ),
    (
        "Low GPU / High CPU Utilization ==> Slow Performance\n"
        "The Ollama on Ubuntu 22.04 can detect my Cuda GPU, and loads the model to its memory, but "
        "the processing seems to be mostly on CPU.",
        LAYERS,
        # Ollama sets the layers itself: the model did not fit (partial offload)
        "https://github.com/ollama/ollama/issues/4668",
    ),
    (
        "In version 0.7.0, the GPU is not working, and the CPU usage rate is 100%",
        PARTIAL,
        # maintainer: no CPU or GPU backends found (/usr/local/lib/ollama was cleaned up by the
        # upgrade); nothing of the model was on the GPU
        "https://github.com/ollama/ollama/issues/10798",
    ),
]


test_en2_report_reaches_cause_with_knob = reach_test(REACH)


test_en2_line_first_with_knob = first_with_knob_test(KNOB)


test_en2_lookalike_not_first = lookalike_test(LOOKALIKE, may_be_empty=True)
