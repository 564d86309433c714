"""Local-LLM runners' frequent messages (checks/signatures/apps.toml and the entries it
extends): llama.cpp and llama-cpp-python builds and loads, Ollama's server, model pulls and GPU
discovery, koboldcpp and GPT4All-era model files. Each message is copied from a public thread
whose fix was confirmed (the reporter says it worked, or a maintainer states cause and fix); it
reaches that cause first, and one of the cause's fixes names the knob the confirmed fix turned.
Look-alike rows are real messages of other causes a new pattern could catch: they must not rank
the new cause first."""

from __future__ import annotations

from tests.triage_lines import command_test, lookalike_test

# (message verbatim from the thread, the finding id first, text a command of one of its fixes holds, URL)
KNOB = [
    (
        'On an older CPU I am getting "Illegal Instruction" crashes because AVX instructions are '
        'enabled.\nSpecifically, the "vxorps" causes the crash.',
        "app.llamacpp.cpu-instruction-unsupported",
        "--failsafe",
        "https://github.com/LostRuins/koboldcpp/issues/1277",  # reporter: --failsafe works
    ),
    (
        "[WinError -1073741795] Windows Error 0xc000001d",
        "app.llamacpp.cpu-instruction-unsupported",
        "GGML_AVX2=OFF",
        "https://github.com/1038lab/ComfyUI-QwenVL/issues/86",  # reporter: the non-AVX2 wheel worked
    ),
    (
        "Manual install, and Adding Ollama as a startup service (recommended) but Error: could not "
        "connect to ollama app, is it running?\n"
        '我设置Environment="OLLAMA_HOST=0.0.0.0，监听到11434，ollama list就可以正常启动，这是什么原因，',
        "app.ollama.server-not-running",
        "OLLAMA_HOST",
        "https://github.com/ollama/ollama/issues/9145",  # maintainer: set OLLAMA_HOST for the client too
    ),
    (
        "I am facing this error:- \nError: could not connect to ollama app, is it running?",
        "app.ollama.server-not-running",
        "ollama serve",
        "https://github.com/ollama/ollama/issues/5482",  # reporter: starting the server fixed it
    ),
    (
        "ollama run deepseek-r1\nError: could not connect to ollama app, is it running?",
        "app.ollama.server-not-running",
        "systemctl",
        "https://github.com/ollama/ollama/issues/8813",  # maintainer: the systemd service runs it
    ),
    (
        "Error: listen tcp 127.0.0.1:11434: bind: address already in use\n"
        "Error: listen tcp 127.0.0.1:11434: bind: address already in use",
        "app.ollama.server-already-running",
        "ollama",
        "https://github.com/ollama/ollama/issues/10311",  # maintainer: stop the running server
    ),
    (
        "Error: listen tcp 127.0.0.1:11434: bind: Only one usage of each socket address "
        "(protocol/network address/port) is normally permitted.",
        "app.ollama.server-already-running",
        "ollama",
        "https://github.com/ollama/ollama/issues/2540",  # reporter: it already runs in the background
    ),
    (
        "pulling manifest\nError: pull model manifest: 412:\n\nThe model you are attempting to pull "
        "requires a newer version of Ollama.\n\nPlease download the latest version at:\n\n"
        "        https://ollama.com/download",
        "app.llamacpp.unknown-architecture",
        "ollama",
        "https://github.com/ollama/ollama/issues/6396",  # the message names the fix: a newer Ollama
    ),
    (
        "qua@equa-Swift-SF314-54:~$ ollama run orca\npulling manifest \n"
        "Error: pull model manifest: file does not exist",
        "app.ollama.model-not-found",
        "ollama list",
        "https://github.com/ollama/ollama/issues/2292",  # maintainer: orca is not a model name
    ),
    (
        "> ollama pull granite:3.3\nError: pull model manifest: file does not exist",
        "app.ollama.model-not-found",
        "ollama list",
        "https://github.com/tschechlovdev/rag_chatbot/issues/1",  # maintainer: the name is granite3.3
    ),
    (
        "% ollama pull ollama/llama3.2:3b\n\npulling manifest\n"
        "Error: pull model manifest: file does not exist",
        "app.ollama.model-not-found",
        "ollama list",
        "https://github.com/pingcap/pytidb/pull/102",  # dropping the ollama/ prefix pulled it
    ),
    (
        "ollama pull mistral\npulling manifest\nError: invalid file magic",
        "app.llamacpp.unknown-architecture",
        "ollama",
        "https://github.com/ollama/ollama/issues/623",  # maintainer: newer model format, update Ollama
    ),
    (
        "unknown model architecture: 'granite'",
        "app.llamacpp.unknown-architecture",
        "llama.cpp",
        "https://github.com/mozilla-ai/llamafile/issues/730",  # maintainer: support in the next release
    ),
    (
        "2025-11-20T14:07:26.318944Z ERROR load_from_file: llama-cpp-2: error loading model: error "
        "loading model architecture: unknown model architecture: 'qwen3vlmoe' "
        'module="llama.cpp::llama_model_load"',
        "app.llamacpp.unknown-architecture",
        "llama.cpp",
        "https://github.com/utilityai/llama-cpp-rs/pull/866",  # a newer llama.cpp fixed it
    ),
    (
        "bug: Error loading model: unknown model architecture: 'gemma'",
        "app.llamacpp.unknown-architecture",
        "llama.cpp",
        "https://github.com/Opla/opla/issues/655",  # solution: update to the latest llama.cpp
    ),
    (
        "chat\\gpt4all-lora-unfiltered-quantized-ggml.bin: invalid model file (bad magic [got "
        "0x67676d66 want 0x67676a74])\n        you most likely need to regenerate your ggml files\n"
        "llama_init_from_file: failed to load model",
        "app.llamacpp.model-file-format",
        "gguf",
        "https://github.com/nomic-ai/pygpt4all/issues/17",  # maintainer: convert to the new format
    ),
    (
        "2月 02 19:28:37 lichao ollama[20609]: time=2025-02-02T19:28:37.628+08:00 level=WARN "
        'source=amd_linux.go:378 msg="amdgpu is not supported (supported types:[gfx1030 gfx1100 '
        'gfx1101 gfx1102 gfx900 gfx906 gfx908 gfx90a gfx940 gfx941 gfx942])" gpu_type=gfx1031 '
        "gpu=0 library=/usr/local/lib/ollama\n"
        "2月 02 19:28:37 lichao ollama[20609]: time=2025-02-02T19:28:37.628+08:00 level=INFO "
        'source=gpu.go:392 msg="no compatible GPUs were discovered"',
        "app.ollama-amd-unsupported-gfx",
        "HSA_OVERRIDE_GFX_VERSION",
        "https://github.com/ollama/ollama/issues/8772",  # solved with the gfx override
    ),
    (
        'Error Output\n"model requires more system memory (19.3 GiB) than is available (14.8 GiB)"',
        "memory.host-ram-exhausted",
        "free",
        "https://github.com/continuedev/continue/issues/9668",  # maintainer: the model needs more RAM
    ),
    (
        "      CMake Error at C:/Program Files (x86)/Microsoft Visual Studio/2022/BuildTools/Common7/"
        "IDE/CommonExtensions/Microsoft/CMake/CMake/share/cmake-3.29/Modules/"
        "CMakeDetermineCompilerId.cmake:563 (message):\n        No CUDA toolset found.",
        "app.llamacpp.cuda-vs-integration-missing",
        "MSBuildExtensions",
        "https://github.com/abetlen/llama-cpp-python/issues/1917",  # same message: copying worked in #1352
    ),
    (
        " ollama run mistral\n>>> hello\nError: invalid file magic",
        "app.llamacpp.unknown-architecture",
        "install.sh",
        "https://github.com/ollama/ollama/issues/624",  # maintainer: upgrade Ollama; reporter: new binary worked
    ),
    (
        "`ollama show --modelfile gemma3:27b > gemma3.27b`\n`ollama create gemma3:27b-test -f "
        "gemma3.27b`\nwithout any changes (, and now when I try to run\n`llama run gemma3:27b-test` "
        "i get\npulling manifest \nError: pull model manifest: file does not exist",
        "app.ollama.model-not-found",
        "ollama show --modelfile",
        "https://github.com/ollama/ollama/issues/9758",  # maintainer: fix the FROM line
    ),
]


test_a_common_message_gets_its_cause_and_the_knob_it_states = command_test(
    KNOB, ids=[k[3] for k in KNOB]
)


# (message of another cause, verbatim, the cause it must not be read as first, URL)
LOOKALIKE = [
    # `ollama create` of a file that is only a Git LFS pointer: not an old Ollama
    (
        "$ollama create musicllm -f Modelfile\ntransferring model data\ncreating model layer\n"
        "Error: invalid file magic",
        "app.llamacpp.unknown-architecture",
        "https://github.com/ollama/ollama/issues/3010",
    ),
    # safetensors of an architecture the importer did not convert
    (
        "> ollama create test -f Modelfile\ntransferring model data\ncreating model layer\n"
        "Error: invalid file magic\n\nModelfile content\n`FROM ./model.safetensors`",
        "app.llamacpp.unknown-architecture",
        "https://github.com/ollama/ollama/issues/3246",
    ),
    # TensorFlow's own AVX check: the TensorFlow wheel, not a llama.cpp runner
    (
        "2018-01-17 08:21:49.120154: F tensorflow/core/platform/cpu_feature_guard.cc:35] The "
        "TensorFlow library was compiled to use AVX2 instructions, but these aren't available on "
        'your machine.\nAborted (core dumped)"',
        "app.llamacpp.cpu-instruction-unsupported",
        "https://github.com/tensorflow/tensorflow/issues/6896",
    ),
    # a pull refused because the server is too old: the name exists
    (
        '"pull model manifest: 412: The model you are attempting to pull requires a newer version '
        'of Ollama. Please download the latest version at: https://ollama.com/download"',
        "app.ollama.model-not-found",
        "https://github.com/ollama/ollama/issues/12826",
    ),
]


test_a_look_alike_message_is_not_read_as_the_new_cause = lookalike_test(
    LOOKALIKE, ids=[k[2] for k in LOOKALIKE], may_be_empty=True
)
