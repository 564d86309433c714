"""llama.cpp family, round 19 second pass (llama5): koboldcpp without --gpulayers, a GPU held by
the ollama daemon while koboldcpp runs, llama-cpp-python installed without CUDA (open-interpreter,
llama-cpp-agent, a 0.3.x upgrade whose cu121 wheel fixed it).
Each opening post (verbatim) reaches its cause first and one of its fixes names the knob the
thread's confirmed fix turned; look-alike rows are real messages of other causes that the new
phrasings must not read as theirs."""

from __future__ import annotations

import pytest
from triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # the reporter: he had not set --gpulayers; offloading layers with it was the fix (maintainer asked, reporter confirmed)
    (
        "when i run the latest prebuilt binary with:\n./koboldcpp-linux-x64 --usecublas \n\nit uses the cpu even though i have the latest drivers/cuda, am i missing some flag or config?",
        "app.llamacpp.gpu-layers-not-set",
        "gpulayers",
        "https://github.com/LostRuins/koboldcpp/issues/723",
    ),
    # the reporter: the ollama daemon held the GPU; uninstalling the ollama service fixed it (maintainer agreed)
    (
        "*SOLVED - CUDA fails after first run.\nNevermind, ollama was installed and the daemon was locking itself onto the GPU after I ran KoboldCPP. After I uninstalled the service for ollama, I'm good.",
        "memory.held-by-other-process",
        "ollama",
        "https://github.com/LostRuins/koboldcpp/issues/1024",
    ),
    # the reporter: reinstalling 0.2.90 from the cu121 wheel index (--extra-index-url .../whl/cu121) made the GPU work again
    pytest.param(
        "updated from 0.2.90 to 0.3.2 and now my GPU won't load\nI've looked through the issues, I do see there are some complaints about this, a lot of different ways to fix it working differently for different users.\n\nIs there a unified, accepted and tested way that can readjust my set up to work with GPUs?\n\nnvcc: NVIDIA (R) Cuda compiler driver\nCopyright (c) 2005-2023 NVIDIA Corporation\nBuilt on Wed_Feb__8_05:53:42_Coordinated_Universal_Time_2023\nCuda compilation tools, release 12.1, V12.1.66\nBuild cuda_12.1.r12.1/compiler.32415258_0",
        "app.llamacpp.cpu-build-on-gpu-host",
        "whl/cu121",
        "https://github.com/abetlen/llama-cpp-python/issues/1835",
        marks=pytest.mark.xfail(
            strict=True,
            reason="the post never names llama-cpp-python: only its version numbers (0.2.90, 0.3.2) and nvcc's output say which package, too incidental for a pattern",
        ),
    ),
    # the reporter: the problem was the llama-cpp-python pip install; reinstalling it with CUDA (privateGPT's instructions) fixed it
    (
        "I was able to get open-interpreter to run locally by installing \n   pip install llama-cpp-python first \nand then installing\n   pip install open-interpreter\n\nIt's working (slowly) but when I run nvidia-smi it show that its not using any gpu memory at all.",
        "app.llamacpp.cpu-build-on-gpu-host",
        "llama-cpp-python",
        "https://github.com/openinterpreter/openinterpreter/issues/139",
    ),
    # the maintainer: pip install --force-reinstall --upgrade llama-cpp-python; the reporter: it works
    pytest.param(
        "cannot use gpu\ni select local mode and download llama and select gpu,but no gpu use,cpu use completely",
        "app.llamacpp.cpu-build-on-gpu-host",
        "--force-reinstall",
        "https://github.com/openinterpreter/openinterpreter/issues/47",
        marks=pytest.mark.xfail(
            strict=True,
            reason="the post says only 'download llama ... select gpu': no llama.cpp / llama-cpp-python name to tell it from a torch CPU build",
        ),
    ),
    # the maintainer: llama-cpp-python was installed without GPU acceleration; reinstall with CMAKE_ARGS (cuBLAS on), FORCE_CMAKE=1
    (
        "I've been messing around with this repo since this morning, reading the readme files and digging into the code. I wanted to see how fast it runs, so I kicked off with `chatbot_using_llama_cpp_python.py` as my starting point. But for some reason, the model isn't loading into the GPU (because I can only see `llm_load_tensors:        CPU buffer size =  2281.66 MiB` and no CUDA line), even though I've got `n_gpu_layers=40` set up. I'd share the script here, but really, the only things I've changed are the model path and setting `predefined_messages_formatter_type` to `MessagesFormatterType.PHI_3`.",
        "app.llamacpp.cpu-build-on-gpu-host",
        "CMAKE_ARGS",
        "https://github.com/Maximilian-Winter/llama-cpp-agent/issues/57",
    ),
]

# (message verbatim from a thread of another cause, the cause it must not be read as, thread)
LOOKALIKE = [
    # Ollama offline, 'failed to initialize CUDA: initialization error' (a driver/CUDA problem, not a CPU-only llama-cpp-python build)
    (
        "I have deployed the large model Ollama on an offline environment with Ubuntu 18.04.3, and when running the llama3:8b model, I found that the GPU was not being used, only the CPU was being utilized. Upon checking the logs, I discovered an error message: 'ggml_cuda_init: failed to initialize CUDA: initialization error'.\"",
        "app.llamacpp.cpu-build-on-gpu-host",
        "https://github.com/meta-llama/llama3/issues/215",
    ),
    # a PyTorch HIP out-of-memory in llama_index, not llama.cpp layer offload
    (
        "torch.cuda.OutOfMemoryError: HIP out of memory. Tried to allocate 224.00 MiB. GPU 0 has a total capacty of 23.98 GiB of which 44.00 MiB is free. Of the allocated memory 23.68 GiB is allocated by PyTorch, and 1.14 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_HIP_ALLOC_CONF",
        "app.llamacpp.gpu-layers-not-set",
        "https://github.com/run-llama/llama_index/issues/10429",
    ),
    # 'system not yet initialized' on an A800 SXM (the CUDA build was made with -DGGML_CUDA=ON): not a CPU-only build
    (
        "run error:\nggml_cuda_init: failed to initialize CUDA: system not yet initialized\nwarning: no usable GPU found, --gpu-layers option will be ignored\nwarning: one possible reason is that llama.cpp was compiled without GPU support\nwarning: consult docs/build.md for compilation instructions",
        "app.llamacpp.cpu-build-on-gpu-host",
        "https://github.com/ggml-org/llama.cpp/issues/13059",
    ),
    # Ollama using the CPU after 'ggml_cuda_init: failed to initialize CUDA': not memory held by another process
    (
        "I have deployed the large model Ollama on an offline environment with Ubuntu 18.04.3, and when running the llama3:8b model, I found that the GPU was not being used, only the CPU was being utilized. Upon checking the logs, I discovered an error message: 'ggml_cuda_init: failed to initialize CUDA: initialization error'.\"",
        "memory.held-by-other-process",
        "https://github.com/meta-llama/llama3/issues/215",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_this_cause = lookalike_test(LOOKALIKE)
