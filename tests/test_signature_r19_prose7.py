"""Prose reports without a clean error line, round 19 (prose7): a GPU that CUDA programs cannot
use after a cold boot until some other CUDA program (run once, often as root) has created the
device nodes; a driver that stopped loading overnight ("it worked fine yesterday"); TensorFlow 1.x
training that leaves the GPU at a few percent because the CPU-only package is what imports; JAX
that falls back to CPU while other CUDA programs see the GPU; and a bare "cuda runtime error (30)"
that reloading nvidia_uvm fixed. Each reporter's own words reach the confirmed cause first and one
of its fixes names the knob the thread's fix turned; look-alike rows are real messages of other
causes that the new phrasings must not read as theirs."""

from __future__ import annotations

from triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # the reporter: running nvidia-smi at startup "makes the card ready" (maintainer suggested it)
    (
        "I have setup cuda environment and all the setups needed for Theano. \n\nStrangely, when I boot the computer and try to use it, I receive an error:\n\n    WARNING (theano.sandbox.cuda): CUDA is installed, but device gpu is not available  (error: cuda unavailable)\n\nThen, If I run one of the CUDA examples (e.g: volumeRender), it works normally.",
        "nvidia.uvm-not-loaded",
        "nvidia-smi",
        "https://github.com/Theano/Theano/issues/3874",
    ),
    # the reporter: "i just reinstall the nvidia driver, then that issue is gone"
    (
        "here is the details:\nmodprobe: ERROR: ../libkmod/libkmod-module.c:832 kmod_module_insert_module() could not find module by name='nvidia_367_uvm'\nmodprobe: ERROR: could not insert 'nvidia_367_uvm': Unknown symbol in module, or unknown parameter (see dmesg)\nE tensorflow/stream_executor/cuda/cuda_driver.cc:491] failed call to cuInit: CUDA_ERROR_UNKNOWN\nI tensorflow/stream_executor/cuda/cuda_diagnostics.cc:140] kernel driver does not appear to be running on this host (gzhao-b1208): /proc/driver/nvidia/version does not exist\nI tensorflow/core/common_runtime/gpu/gpu_init.cc:81] No GPU devices available on machine.\n\nit worked fine yesterday.",
        "nvidia.module-not-built-for-kernel",
        "reinstall",
        "https://github.com/tensorflow/tensorflow/issues/5473",
    ),
    # the reporter: the IDE had broken the pip install; "A native installation of tensorflow-gpu
    # solved the problem"
    (
        "i'm modifying the code for my personal usage for a while now, but encountered very low GPU-usage for training since i cloned the repository.\nTraining uses 2-5% at max. of the GPU (shown in nvidia-smi).\nIt occurs when using a single or multiply processes. Increasing the hard coded values in network.py above 0.2 also has no impact.\n\nCorrect drivers are installed, using a gtx 1080 on Ubuntu 18.04.\nI'm using Tensorflow v. 1.8.0 and  NVIDIA UNIX x86_64 Kernel Module  390.67",
        "tensorflow.cpu-package-shadows-gpu",
        "tensorflow-gpu",
        "https://github.com/ZhengyaoJiang/PGPortfolio/issues/100",
    ),
    # the reporter's fix: pip install --upgrade "jax[cuda12_pip]" from the jax CUDA releases index
    (
        "Hi! As the title says, my GPU is not being recognized `No GPU/TPU found, falling back to CPU. (Set TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)` but any other CUDA code (also OpenAI/whisper) does detect my GPU.",
        "jax.cuda-backend-failed",
        "jax[cuda12",
        "https://github.com/sanchit-gandhi/whisper-jax/issues/6",
    ),
    # the reporter: "Solution was downloading tensor flow version that supports cuda 8.0"
    (
        "Hi there,\nI heavent noticed it earlier, but today I checked system monitor and NVIDIA X server settings. Both on theano and tensorflow beckends I see that only my CPU is running while training, GPU usage is about 2-3% and GPU memory usage is slightly more than 200mb.\nWhat should I change to get it on GPU?",
        "tensorflow.cpu-package-shadows-gpu",
        "CUDA version",
        "https://github.com/MattVitelli/GRUV/issues/26",
    ),
    # the reporter: solved by sudo rmmod nvidia_uvm / sudo modprobe nvidia_uvm, then --resume worked
    (
        "cuda runtime error (30): unknown error\nissue raised when GPU runs at 100% and RAM 7580/7980",
        "nvidia.uvm-stale-after-suspend",
        "nvidia_uvm",
        "https://github.com/xingyizhou/CenterNet/issues/933",
    ),
]

# (message verbatim from a thread of another cause, the cause it must not be read as, thread)
LOOKALIKE = [
    # a commenter's driver upgrade: removing the nvidia-modprobe package tied to the old driver
    # fixed it; nothing says the kernel changed, so not a module missing for the kernel
    (
        "Everything worked fine under `nvidia-384` drivers then suddenly broke with the `CUDA_ERROR_UNKNOWN` error.\nWhat worked for me is the opposite to solutions above - removing `nvidia-modprobe`, probably because it's tied to `nvidia-375` as poster above mentioned.",
        "nvidia.module-not-built-for-kernel",
        "https://github.com/tensorflow/tensorflow/issues/394",
    ),
    # a PyTorch project (SinGAN) with low GPU use: no TensorFlow package involved
    (
        "Hi, I have a GTX 1080Ti like they have stated in the supplementary material, but when I run commands like \n\n`python main_train.py --input_name colusseum.png`\n\nI notice that my GPU usage is almost 0%, but my CPU usage is much higher than idle. Is it supposed to behave like this, or do I need to reinstall some packages?",
        "tensorflow.cpu-package-shadows-gpu",
        "https://github.com/tamarott/SinGAN/issues/92",
    ),
    # a PyTorch training run with little GPU use; a commenter points at the CPU as the limit
    (
        '`python train_gencad.py csr -name test -gpu 0 -ckpt "model/ckpt/ae_ckpt_epoch1000.pth"`\nWhen I run above command, I encountered the same issue as you. I can hardly see any GPU usage. How did you fix the problem you mentioned above? Thank you very much.',
        "tensorflow.cpu-package-shadows-gpu",
        "https://github.com/ferdous-alam/GenCAD/issues/16",
    ),
    # Windows Task Manager does not show CUDA load (the maintainer); not a missing nvidia_uvm
    (
        "I am really use Windows Task manager. now i use  nvidia-smi, GPU usage rate no more than %30. Most of the time it is %0,  Memory-Usage always is 220M/2048M, How should I troubleshoot where the problem is? thank you very much!",
        "nvidia.uvm-not-loaded",
        "https://github.com/deepfakes/faceswap/issues/811",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_this_cause = lookalike_test(LOOKALIKE)
