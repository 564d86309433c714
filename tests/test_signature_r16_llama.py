"""Local-LLM runners' frequent messages, round 16 (checks/signatures/{platform,containers,apps}.toml and the entries
it extends): llama.cpp builds for a GPU the toolkit does not know, ggml programs that cannot load a
shared library at start (the OpenMP runtime, the driver's libcuda in a container started without a
GPU), and Ollama's runner crashing with a C++ exception under an old driver. Each message is copied
from a public thread whose fix was confirmed (the reporter says it worked, or a maintainer states
cause and fix); it reaches that cause first, and one of the cause's fixes names the knob the
confirmed fix turned. Look-alike rows are real messages of other causes a new pattern could catch:
they must not rank the new cause first."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, text its fixes name, URL)
KNOB = [
    (
        "After replacing 3090 with 5070 I see compilation error:\n"
        "`nvcc fatal : Unsupported gpu architecture 'compute_120'`",
        "cuda.nvcc-too-old-for-gpu",
        "CMAKE_CUDA_ARCHITECTURES",
        "https://github.com/ggml-org/llama.cpp/issues/13271",  # reporter: -DCMAKE_CUDA_ARCHITECTURES solved it
    ),
    (
        "Build error - nvcc fatal : Unsupported gpu architecture 'compute_121a' - with fix",
        "cuda.nvcc-too-old-for-gpu",
        "CMAKE_CUDA_ARCHITECTURES",
        "https://github.com/ServeurpersoCom/acestep.cpp/issues/11",  # reporter: -DCMAKE_CUDA_ARCHITECTURES fixed it
    ),
    (
        "Error: 500 Internal Server Error: llama-server process has terminated: exit status "
        "0xe06d7363: NTSTATUS 0xe06d7363",
        "app.ollama.runner-crashed",
        "driver",
        "https://github.com/ollama/ollama/issues/16645",  # maintainer: driver too old; reporter: updating it fixed it
    ),
    (
        "$ docker run -it --rm ghcr.io/leejet/stable-diffusion.cpp:master-cuda\n```\n```\n"
        "/sd-cli: error while loading shared libraries: libcuda.so.1: cannot open shared object "
        "file: No such file or directory",
        "container.no-nvidia-runtime",
        "--gpus all",
        "https://github.com/leejet/stable-diffusion.cpp/issues/1352",  # reporter: adding --gpus all fixed it
    ),
    (
        "llama-1  | + llama-server --model /models/llama-2-13b-chat.Q5_K_M.gguf --ctx-size 2048 "
        "--n-gpu-layers 99 --host 0.0.0.0\n"
        "llama-1  | llama-server: error while loading shared libraries: libgomp.so.1: cannot open "
        "shared object file: No such file or directory\n"
        "llama-1 exited with code 127",
        "system.openmp-runtime-missing",
        "libgomp1",
        "https://github.com/fboulnois/llama-cpp-docker/issues/8",  # maintainer: apt-get libgomp1 in the image
    ),
    (
        "> /app/portable_env/lib/python3.11/site-packages/llama_cpp_binaries/bin/llama-server: error "
        "while loading shared libraries: libgomp.so.1: cannot open shared object file: No such file "
        "or directory",
        "system.openmp-runtime-missing",
        "libgomp1",
        "https://github.com/oobabooga/textgen/issues/6917",  # reporter: installing libgomp1 resolved it
    ),
]


test_a_frequent_message_reaches_its_cause_and_names_the_knob = knob_test(
    KNOB, ids=[k[3] for k in KNOB]
)


# (message verbatim from the thread, the cause it must not be read as first, URL)
LOOKALIKE = [
    # a link step of a conda build that cannot find libgomp: the conda compiler_compat linker,
    # not a runtime library missing at start
    (
        "/home/user/anaconda3/envs/morphik-server/compiler_compat/ld: warning: libgomp.so.1, needed "
        "by vendor/llama.cpp/ggml/src/libggml-cpu.so, not found (try using -rpath or -rpath-link)\n"
        "/home/user/anaconda3/envs/morphik-server/compiler_compat/ld: "
        "vendor/llama.cpp/ggml/src/libggml-cpu.so: undefined reference to `GOMP_barrier@GOMP_1.0'",
        "system.openmp-runtime-missing",
        "https://github.com/morphik-org/morphik-core/issues/76",
    ),
    # the Windows fail-fast exit of an Ollama older than the model: not the driver's exception
    (
        "Error: llama runner process has terminated: exit status 0xc0000409",
        "container.no-nvidia-runtime",
        "https://github.com/ollama/ollama/issues/4442",
    ),
]


test_a_look_alike_message_is_not_read_as_the_new_cause = lookalike_test(
    LOOKALIKE, ids=[k[2] for k in LOOKALIKE], may_be_empty=True
)
