"""Local-LLM runners' frequent messages, round 18 (checks/signatures/{apps,memory}.toml and the
entries it extends): Ollama turning the GPU off because the (virtual) CPU reports no AVX, LM
Studio's engine exiting while it loads a model ("Exit code: N"), LM Studio's compute buffers that
do not fit, llama.cpp's Vulkan backend out of device memory, GPT4All running a model on the CPU,
and llama.cpp's KV cache full for the conversation. Each message is copied from a public thread
whose fix was confirmed (the reporter says it worked, or a maintainer states cause and fix); it
reaches that cause first, and one of the cause's fixes names the knob the confirmed fix turned.
Look-alike rows are real messages of other causes a new pattern could catch: they must not rank
the new cause first."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, text its fixes name, URL)
KNOB = [
    (
        '`WARN source=gpu.go:222 msg="CPU does not have minimum vector extensions, GPU inference '
        'disabled" required=avx detected="no vector extensions"\n`',
        "app.ollama-cpu-fallback",
        "from source",
        "https://github.com/ollama/ollama/issues/6827",  # maintainer: rebuild with custom CPU flags
    ),
    (
        '```\nmsg="CPU does not have minimum vector extensions, GPU inference disa\n```',
        "app.ollama-cpu-fallback",
        "CPU passthrough",
        "https://github.com/ollama/ollama/issues/7989",  # reporter: enabled CPU passthrough in the VM
    ),
    (
        "I have been suffering 3 hours this morning to make nvidia work with ollama fresh install.  "
        "Whatever model i tried It did not use the nvidia H100 GPUs even if the systemctl status "
        "ollama is nicely showing the GPUs. For this you need to install nvidia toolkit. I have "
        "picked the latest of driver, toolkit, cuda and ollama did not load in the GPUs. Then i "
        "discovered I dont have the AVX enabled in my CPU of the VM. So, i said, its really good to "
        "have, so i enabled it and BINGO !!!! , ollama got loaded into the GPU!! Now all good!!",
        "app.ollama-cpu-fallback",
        "CPU passthrough",
        "https://github.com/ollama/ollama/issues/8399",  # reporter: enabling AVX in the VM fixed it
    ),
    (
        "(Exit code: 134). Please check settings and try loading the model again.",
        "app.lmstudio.gpu-runtime",
        "CPU llama.cpp",
        "https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/394",  # reporter: CPU runtime works
    ),
    (
        "🥲 Failed to load the model\n\nError loading model.\n\n(Exit code: 18446744072635812000). "
        "Unknown error. Try a different model and/or config.",
        "app.lmstudio.gpu-runtime",
        "GPU offload",
        "https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/297",  # reporter: GPU offload 0 loads
    ),
    (
        "Get the following error when trying to run any model.\n\n```\n🥲 Failed to load the model\n\n"
        "Error loading model.\n\n(Exit code: 18446744073709515000). Unknown error. Try a different "
        "model and/or config.\n```",
        "app.lmstudio.gpu-runtime",
        "previous version",
        "https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/531",  # reporter: revert the runtime
    ),
    (
        "The model has crashed without additional information. (Exit code: 18446744072635812000)",
        "app.lmstudio.gpu-runtime",
        "previous version",
        "https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/1057",  # downgrading Vulkan runtime
    ),
    (
        "🥲 Failed to load the model\nFailed to load model\nFailed to initialize the context: failed "
        "to allocate compute pp buffers",
        "memory.out-of-memory",
        "Evaluation Batch Size",
        "https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/688",  # batch 512 -> 256 loaded
    ),
    (
        "ggml_vulkan: Device memory allocation of size 118497280 failed.\n"
        "ggml_vulkan: vk::Device::allocateMemory: ErrorOutOfDeviceMemory\n"
        "double free or corruption (out)",
        "memory.out-of-memory",
        "fewer layers",
        "https://github.com/ggml-org/llama.cpp/issues/15256",  # reporter: too many GPU layers set
    ),
    (
        "ggml_vulkan: Device memory allocation of size 1610612736 failed.\n"
        "ggml_vulkan: vk::Device::allocateMemory: ErrorOutOfDeviceMemory",
        "memory.out-of-memory",
        "smaller model",
        "https://github.com/ggml-org/llama.cpp/issues/8492",  # reporter: a smaller model works
    ),
    (
        "GPT4all not using my GPU\n\nRTX 3060 12 GB is available as a selection, but queries are run "
        "through the cpu and are very slow.\n\nCuda compilation tools, release 12.2, V12.2.128\n"
        "Build cuda_12.2.r12.2/compiler.33053471_0",
        "app.gpt4all.gpu-fallback",
        "Q4_0",
        "https://github.com/nomic-ai/gpt4all/issues/1688",  # maintainer: GPU backend runs Q4_0/Q4_1 only
    ),
    (
        "root@ollama:/# nvidia-smi\nFailed to initialize NVML: Unknown Error\n\n"
        "    cuda driver library failed to get device context 800time=2025-07-11T07:00:00.476Z "
        'level=WARN source=gpu.go:434 msg="error looking up nvidia GPU memory"\n'
        "    cuda driver library failed to get device context 800time=2025-07-11T07:00:00.491Z "
        'level=WARN source=gpu.go:434 msg="error looking up nvidia GPU memory"',
        "container.nvml-unknown-error-cgroup",
        "cgroupdriver",
        "https://github.com/ollama/ollama/issues/11373",  # maintainer: the docs' Linux Docker section
    ),
    (
        'When using llama.cpp via LocalAI, "failed to find free space in the KV cache" will be '
        "displayed after using it for a while, and the string that can respond will gradually become "
        "shorter, and eventually it will not be possible to respond.",
        "app.llamacpp.kv-cache-full",
        "--ctx-size",
        "https://github.com/ggml-org/llama.cpp/issues/6603",  # maintainer: raise it with --ctx-size
    ),
]


test_a_frequent_message_reaches_its_cause_and_names_the_knob = knob_test(
    KNOB, ids=[k[3] for k in KNOB]
)


# (message verbatim from the thread, the cause it must not be read as first, URL)
LOOKALIKE = [
    # a CPU that has AVX2: nothing lacks, not the AVX cause
    (
        'time=2024-01-30T12:27:26.016-05:00 level=INFO source=/tmp/ollama/gpu/gpu.go:146 msg="CUDA '
        'Compute Capability detected: 6.1"\n'
        "time=2024-01-30T12:27:26.016-05:00 level=INFO source=/tmp/ollama/gpu/cpu_common.go:11 "
        'msg="CPU has AVX2"',
        "app.ollama-cpu-fallback",
        "https://github.com/ollama/ollama/issues/2281",
    ),
    # LM Studio's context that does not fit: memory, not the engine exiting
    (
        "🥲 Failed to load the model\n\nFailed to load model\n\nFailed to initialize the context: "
        "failed to allocate buffer for kv cache",
        "app.lmstudio.gpu-runtime",
        "https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/943",
    ),
    # a Vulkan device lost: not the Vulkan backend out of memory
    (
        "Misc. bug: terminate called after throwing an instance of 'vk::DeviceLostError'",
        "memory.out-of-memory",
        "https://github.com/ggml-org/llama.cpp/issues/13248",
    ),
    # a context whose KV cache could not be allocated: memory, not a full cache
    (
        "🥲 Failed to load the model\n\nFailed to load model\n\nFailed to initialize the context: "
        "failed to allocate buffer for kv cache",
        "app.llamacpp.kv-cache-full",
        "https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/943",
    ),
]


test_a_look_alike_message_is_not_read_as_the_new_cause = lookalike_test(
    LOOKALIKE, ids=[k[2] for k in LOOKALIKE], may_be_empty=True
)
