"""Prose about where it works and where it does not, and about speed, round 17 (prose4): a Lightning
DataLoader-workers warning with GPU-Util at 0%, nvcc switched but nvidia-smi "still" shows another CUDA,
a GPU slower than the CPU on a tiny workload, pip3 and python3 being two interpreters, a render node the
user may not open, an executable found in the terminal but not from the IDE, a machine whose only GPU is
Intel / integrated graphics, and CUDA_VISIBLE_DEVICES set after torch is imported. Each row is verbatim from
one public thread whose fix was confirmed (the reporter says it worked, or a maintainer states cause and
fix); the cause ranks first and its fixes name the knob the confirmed fix turned. Look-alike rows are real
texts of other matters that the new entries (checks/signatures/*.toml) could wrongly catch."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

# (message verbatim, the finding id first, text one of its fixes names, thread URL)
KNOB = [
    (
        "Hi guys, \nI hope you are doing well. I have a question about a warning that I have when I tried to train a model. \n\nackages/pytorch_lightning/utilities/distributed.py:37: UserWarning: The dataloader, val dataloader 0, does not have many workers which may be a bottleneck. Consider increasing the value of the `num_workers` argument` (try 32 which is the number of cpus on this machine) in the `DataLoader` init to improve performance.\n      warnings.warn(*args, **kwargs)\n\nAnd when I tried to verify the gpu usage, with nvidia-smi, the Memory-Usage is full but Volatile GPU-util indicates 0% ( in other words, it seems that the gpu doesn't work )\nDo you have some ideas about this warning ?\nThanks in advance.",
        "perf.gpu-starved-by-input",
        "num_workers",
        # maintainer: increase num_workers (and pin_memory) of the train and validation loaders
        "https://github.com/NVIDIA-NeMo/Speech/issues/1204",
    ),
    (
        "Hi! Great tips by the way but unfortunately it only change the nvcc and not the CUDA version itself. If you look closely in `nvcc --version` yes it does change to the desired version, but if you use `nvidia-smi` function, it still use the latest version.",
        "cuda.toolkits-disagree",
        "nvidia-smi",
        # maintainer: nvcc's and nvidia-smi's versions are unrelated (nvidia-smi shows the driver's CUDA)
        "https://github.com/bycloudai/SwapCudaVersionWindows/issues/1",
    ),
    (
        "GPU slower than CPU?\nHi, I'm new to CNTK and am trying with the Simple2D sample with the pre-compiled v1.6 binary for Windows. \nWhen I run the sample on my CPU (i7-6700K) it reaches >40k samples per second, but when I run it on my GPU (GTX980Ti) it only reaches ~35k samples per second. Am I doing anything wrong?",
        "perf.gpu-slower-than-cpu-small-workload",
        "hidden units",
        # maintainer: the network is too small; 500 hidden units instead of 50 makes the GPU faster
        "https://github.com/microsoft/CNTK/issues/751",
    ),
    (
        "slower on GPU using tensorflow backend?\nI tried several machines, but with CUDA 9 and 10 it seems to be a lot slower on GPU.\nWhy is this the case? Am I the only one getting this behavior?",
        "perf.gpu-slower-than-cpu-small-workload",
        "batch",
        # maintainer: expected, a tiny network predicted one sample at a time; the GPU helps with larger batches
        "https://github.com/keon/deep-q-learning/issues/28",
    ),
    (
        "gpu is slower than cpu for your codes\nHi,\nThanks for all your response. When I tested your codes, gpu was almost 8 times slower than cpu. Can you guess why?",
        "perf.gpu-slower-than-cpu-small-workload",
        "batch",
        # maintainer: small parameter sizes and no batches, so the GPU has little to gain
        "https://github.com/ofirnachum/sequence_gan/issues/8",
    ),
    (
        'I resolved this, though sharing in case anyone runs into a similar issue. The error could absolutely be due to an unconventional configuration of `pip` on my system or old pip installation:\n\n### To recreate\n```bash\npip3 install svix-ksuid\npython3\n```\nThrows `ModuleNotFoundError`\n```python\nPython 3.7.0 (v3.7.0:1bf9cc5093, Jun 26 2018, 23:26:24) \n[Clang 6.0 (clang-600.0.57)] on darwin\nType "help", "copyright", "credits" or "license" for more information.\n>>> from ksuid import Ksuid\nTraceback (most recent call last):\n  File "<stdin>", line 1, in <module>\nModuleNotFoundError: No module named \'ksuid\'\n```',
        "python.env-mismatch",
        "python3 -m pip",
        # reporter: installing with `python3 -m pip` made the import work
        "https://github.com/svix/python-ksuid/issues/22",
    ),
    (
        'I followed pretty basic directions and now when I run it, it doesn\'t detect my GPU.\n\n```\nsudo apt install libdrm-dev\ncurl https://sh.rustup.rs -sSf | sh\ncargo install amdgpu_top\n```\n\nHere is the error:\n\n```\n➜  ~ amdgpu_top -d                     \namdgpu_top v0.9.0\n\n--------\n#0 DevicePath { render: "/dev/dri/renderD128", card: "/dev/dri/card1", pci: "0000:04:00.0" }\nthread \'main\' panicked at /home/user/.cargo/registry/src/index.crates.io-6f17d22bba15001f/amdgpu_top-0.9.0/src/dump_info.rs:122:41:\ncalled `Result::unwrap()` on an `Err` value: Permission denied (os error 13)\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n```',
        "rocm.kfd-permission",
        "render",
        # maintainer: the user is not in the render group; reporter: that solved it (after a new login)
        "https://github.com/Umio-Yasuno/amdgpu_top/issues/92",
    ),
    (
        'I can sucessfully run the command "python3 examples/memnn_luatorch_cpu/full_task_train.py -t babi:task10k:1 -nt 1" in the terminal,but when I run it by pycharm,it occures the error  as follows:\nFileNotFoundError: [Errno 2] No such file or directory: \'luajit\nDo you know why?@alexholdenmiller',
        "cuda.env-not-inherited",
        "PATH",
        # maintainer: PATH differs between the terminal and PyCharm; set PyCharm's PATH to the terminal's
        "https://github.com/facebookresearch/ParlAI/issues/87",
    ),
    (
        "Hello,\n\nFirst of all great work on the package, you are really making most of the images' resolutions. After a long struggle a realized that I cannot run the package as I have an Intel graphics card rather than NVIDIA. Are you planning to extend the code to other graphics card too? On top of that, it may be good to flag this issue in the man pages to save others the trouble.",
        "nvidia.no-driver-bound",
        "device='cpu'",
        # maintainer: PyTorch needs an NVIDIA card for CUDA; use device='cpu'; reporter: ok thanks
        "https://github.com/bioFAM/FISHFactor/issues/3",
    ),
    (
        'I use a Dell XPS 13 9300 with the GPU: "Intel Corporation Iris Plus Graphics G7 (rev 07)" -- on Ubuntu 20.04. When I try to run HD-BET it gives an error "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx". \n\nIs there a way to get it to recognize and use my GPU? Or does it have to be NVIDIA based? \n\nI understand I can use my CPU, and plan on using that if the GPU cannot work, but I wanted to check!',
        "nvidia.no-driver-bound",
        "cpu",
        # maintainer: pytorch needs an NVIDIA GPU; run the prediction on the CPU; reporter: makes sense
        "https://github.com/MIC-DKFZ/HD-BET/issues/16",
    ),
    (
        "机器是集成显卡，没有gpu，怎样运行例子文件？\n我的机器是集成显卡的，运行train_maskable_ppo.py时出如下错误：\n看样子是需要gpu。\n\n我的问题是：要做什么修改才能让这个例子在集成显卡的机器上运行？是否换特定版本的torch就可以在集成显卡的机器运行？",
        "nvidia.no-driver-bound",
        "torch.device('cpu')",
        # maintainer: device=torch.device('cpu'); reporter: 谢谢，可以了
        "https://github.com/ICT-FinD-Lab/alphagen/issues/22",
    ),
    (
        "os.environ['CUDA_VISIBLE_DEVICES'] = '3,4' 一定要在 import torchreid 之前设置\nos.environ['CUDA_VISIBLE_DEVICES'] = '3,4' 一定要在 import torchreid 之前设置，否则设置无效",
        "cuda.visible-devices-renumbered",
        "before import torch",
        # reporter states the fix (set it before the import); maintainer points to the same answer in #267
        "https://github.com/KaiyangZhou/deep-person-reid/issues/297",
    ),
    (
        "It seems that after running set_GPU_device the process will use all the gpus that the server has instead of the gpu ids I choose (In other words, os.environ['cuda_visible_devices'] does not have any effect). Maybe it is because when train.py import NetworkTrainer from network_trainer, it imports torch simultaneously. Thanks.",
        "cuda.visible-devices-renumbered",
        "before import torch",
        # reporter: torch was imported before the variable was set; maintainer fixed the order
        "https://github.com/hust-linyi/MedISeg/issues/9",
    ),
]

# (a real text of another matter, the cause it must not be read as, thread URL)
LOOKALIKE = [
    (
        "onnxruntime-gpu inference is more slow then CPU\n## 🐛 Bug\n\nWhen I use onnxruntime-GPU to inference, It's slowly then CPU.\n\n### To Reproduce\n\nSteps to reproduce the behavior (**always include the command you ran**):\n\nGPU takes 2800ms,but cpu only task 128ms to inference.",
        "perf.gpu-slower-than-cpu-small-workload",
        # onnxruntime's own slowness (maintainer: a bug of onnxruntime), not a small workload
        "https://github.com/QwenAudio/SenseVoice/issues/76",
    ),
    (
        "转换成onnx模型后使用gpu推理速度比cpu还慢\n系统环境/System Environment：\nonnxruntime-gpu==1.9.0\n在使用onnxruntime-gpu进行推理时发现一张图片耗时在3s以上，继续传入相同图片耗时下降到0.5s。更换图片传入耗时又在3s左右,模型是动态模型，为什么不同图片推理速度会变慢？",
        "perf.gpu-slower-than-cpu-small-workload",
        # a dynamic-shape model re-tuned for every new image (onnxruntime), not a small workload
        "https://github.com/PaddlePaddle/Paddle2ONNX/issues/893",
    ),
    (
        "In Windows 10, from vscode running python file (debug and without debug) gives the following:\n`   with open('hyperparams/{}.yml'.format(args.algo), 'r') as f:\nFileNotFoundError: [Errno 2] No such file or directory: 'hyperparams/ppo2.yml'`\n\nRunning from the folder that holds the file.\nRunning the python file from command line works fine, no issue.",
        "cuda.env-not-inherited",
        # a data file by a relative path: the working directory differs, not PATH
        "https://github.com/microsoft/vscode-python/issues/9048",
    ),
    (
        "## Actual behaviour\nVS Code is returning the following in the terminal:\n```\nTraceback (most recent call last):\nFile \"/Filepath/10-1_learning_python.py\", line 3, in <module>\nwith open(filename) as file_content:\nFileNotFoundError: [Errno 2] No such file or directory: 'learning_python.txt'\n```",
        "cuda.env-not-inherited",
        # a data file by a relative path: the working directory differs, not PATH
        "https://github.com/microsoft/vscode-python/issues/12173",
    ),
]


test_reaches_the_cause_with_its_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_the_new_cause = lookalike_test(LOOKALIKE, may_be_empty=True)
