"""Local LLM runners, round 19 (llama.cpp, llama-cpp-python, Ollama, koboldcpp): whole opening
posts and comments as pasted, prose and logs together: an AMD GPU Ollama skips as unsupported
(HSA_OVERRIDE_GFX_VERSION), Ollama offloading too many layers for the context (num_gpu,
num_ctx), Ollama falling back to the CPU because a scheduler set ROCR_VISIBLE_DEVICES, a
llama-cpp-python wheel built without CUDA (CMAKE_ARGS ... --no-cache-dir) and n_gpu_layers left
at its default of 0. Each text reaches its cause first and one of its fixes names the knob the
thread's confirmed fix turned; look-alike rows are real messages of other causes that the new
phrasings must not read as theirs."""

from __future__ import annotations

import pytest
from triage_lines import knob_test, lookalike_test

# (text verbatim from the thread, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # a commenter with an RX 6750 XT (gfx1031): setting HSA_OVERRIDE_GFX_VERSION=10.3.0 and
    # restarting ollama made it detect the GPU ("the error was gone", his own report)
    (
        'time...source=amd_windows.go:95 msg="amdgpu is not supported" gpu=0 gpu_type=gfx1031 library="C:\\Program Files\\AMD\\ROCm\\5.5\\bin" supported_types="[gfx1030 gfx1100 gfx1101 gfx1102 gfx906]"\ntime...source=amd_windows.go:97 msg="See https://github.com/ollama/ollama/blob/main/docs/troubleshooting.md for HSA_OVERRIDE_GFX_VERSION usage"\ntime...source=types.go:71 msg="inference compute" id=0 library=cpu compute="" driver=0.0 name="" total="255.9 GiB" available="239.4 GiB"',
        "app.ollama-amd-unsupported-gfx",
        "HSA_OVERRIDE_GFX_VERSION",
        "https://github.com/ollama/ollama/issues/2502",
    ),
    # the maintainer: set num_gpu below the model's layer count; a user: "That worked!"
    (
        "Our current calculation for the amount of layers to offload to VRAM does not account for context size, so large context models may fail to load if too many layers are off-loaded.",
        "memory.out-of-memory",
        "num_gpu",
        "https://github.com/ollama/ollama/issues/1385",
    ),
    # a user's own fix: "manually change the model file and offload less layer to the gpu"
    # (PARAMETER num_gpu); another: num_batch 32 in the Modelfile made it work
    (
        "I had this issue last week when loading some extra large models. It seems that when ollama is offloading layers to gpu it does not consider the vram for other stuff like the KV cache or there is a bug that makes it calulate incorrectly?",
        "memory.out-of-memory",
        "num_gpu",
        "https://github.com/ollama/ollama/issues/3765",
    ),
    # the collaborator reading the reporter's log: the 64000 context needs 19.5 GiB of KV
    # cache; reduce num_ctx to fit more layers on the GPU
    (
        'How to offload all layers to GPU?\ntime=2025-02-18T02:29:51.627Z level=INFO source=server.go:130 msg=offload library=cuda layers.requested=-1 layers.model=81 \n  layers.offload=44 layers.split=11,11,11,11 memory.available="[22.0 GiB 22.0 GiB 22.0 GiB 22.0 GiB]" memory.gpu_overhead="0 B" \n  memory.required.full="127.4 GiB" memory.required.partial="87.1 GiB" memory.required.kv="19.5 GiB" \n  memory.required.allocations="[21.8 GiB 21.8 GiB 21.8 GiB 21.8 GiB]" memory.weights.total="87.3 GiB" \n  memory.weights.repeating="86.2 GiB" memory.weights.nonrepeating="1.0 GiB" memory.graph.full="8.2 GiB" \n  memory.graph.partial="8.2 GiB"',
        "app.ollama.partial-offload",
        "num_ctx",
        "https://github.com/ollama/ollama/issues/9181",
    ),
    # the PR author's fix: Slurm set ROCR_VISIBLE_DEVICES=0 on an NVIDIA node and newer Ollama
    # falls back to the CPU when it is set; `unset ROCR_VISIBLE_DEVICES` fixed it
    (
        "However, after it was set up I ran into an issue where Ollama would load models onto the CPU instead of GPU, even if the GPU resources are available. Issue seems to come from Slurm setting `ROCR_VISIBLE_DEVICES=0` incorrectly, and newer versions of Ollama defaulting to CPU if it is set.",
        "app.ollama-cpu-fallback",
        "ROCR_VISIBLE_DEVICES",
        "https://github.com/alan-turing-institute/ollama-hpc-example/pull/1",
    ),
    # the maintainer: llama-cpp-python came in without GPU acceleration; reinstall it with
    # CMAKE_ARGS=-DLLAMA_CUBLAS=on and pip install llama-cpp-python --no-cache-dir
    (
        "I wanted to see how fast it runs, so I kicked off with `chatbot_using_llama_cpp_python.py` as my starting point. But for some reason, the model isn't loading into the GPU (because I can only see `llm_load_tensors:        CPU buffer size =  2281.66 MiB` and no CUDA line), even though I've got `n_gpu_layers=40` set up.",
        "app.llamacpp.cpu-build-on-gpu-host",
        "--no-cache-dir",
        "https://github.com/Maximilian-Winter/llama-cpp-agent/issues/57",
    ),
    # the reporter's own finding: with a CUDA build of llama-cpp-python, passing
    # n_gpu_layers=-1 to Llama() made it use the GPU (the default is 0)
    (
        "So I wound up tinkering with llm / llm-gguf tonight, and I realized that it wasn't utilizing my RTX 4080 16GB GPU, even though I had compiled the llama-cpp-python library with CUDA support. After some poking around in the code base, I found that I needed to specify `n_gpu_layers=-1` in the `Llama()` constructor to get it to prefer the GPU.",
        "app.llamacpp.gpu-layers-not-set",
        "n_gpu_layers",
        "https://github.com/simonw/llm-gguf/issues/8",
    ),
    # Ollama offloaded too many layers and the runner ran out of VRAM (reporter); a maintainer
    # closed it with the layer estimate fixed; the knob users set meanwhile is num_gpu
    (
        "Hi there, \n\nBased on the logs, it appears that ollama is trying to load too many layers and crashing OOM, this is causing it to revert to CPU only mode, which is not desirable.",
        "memory.out-of-memory",
        "num_gpu",
        "https://github.com/ollama/ollama/issues/618",
    ),
]


# (message verbatim from a thread of another cause, the cause it must not be read as, thread)
LOOKALIKE = [
    # a Maxwell GPU the CUDA 11 backend's kernels were not built for: the GPU is used, so this is
    # not a CPU-only build (a strict xfail in rounds 23 and 25 while the case base suggested the
    # CPU-only build from llama-cpp-python#787; round 26's rebuilt case base no longer does)
    pytest.param(
        "I've successfully run the model using the CPU backend, but switching to the CUDA 11 backend is causing an error. \nInterestingly, my computer can execute the same model when using the llama-cppy-python with the cuBLAS backend.\nDevice 0: Quadro P400, compute capability 6.1\nDevice 1: Quadro K620, compute capability 5.0",
        "app.llamacpp.cpu-build-on-gpu-host",
        "https://github.com/SciSharp/LLamaSharp/issues/162",
    ),
    # a Metal segfault on an Intel Mac (the request: a CPU-only flag), not an offload estimate
    (
        "ggml_metal_init: allocating\nggml_metal_init: found device: Intel(R) UHD Graphics 630\nggml_metal_init: found device: AMD Radeon Pro 5500M\nggml_metal_init: picking default device: AMD Radeon Pro 5500M\nggml_metal_init: default.metallib not found, loading from source\n2023/11/08 16:22:47 llama.go:399: signal: segmentation fault\n2023/11/08 16:22:47 llama.go:407: error starting llama runner: llama runner process has terminated",
        "memory.out-of-memory",
        "https://github.com/ollama/ollama/issues/1046",
    ),
    # an RTX 5090 lmdeploy has no kernels for: not a ROCm scheduler variable
    (
        "I installed latest version of lmdeploy 0.9.2. But getting following error:\n\n```\nno kernel image is available for execution on the device\nAborted (core dumped)\n```\non my `NVIDIA GeForce RTX 5090`.",
        "app.ollama-cpu-fallback",
        "https://github.com/InternLM/lmdeploy/issues/3806",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_this_cause = lookalike_test(LOOKALIKE)
