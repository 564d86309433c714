"""Local-LLM runners' frequent messages, round 17 (checks/signatures/apps.toml and the
entries it extends): an Ollama older than the model it is asked to load (the load fails with
"unable to load model" / "error loading model" on a blob, or the runner aborts right after the
pull), a llama.cpp Metal backend that cannot find its shader source (ggml-metal.metal,
ggml-common.h), and Metal kernels that an Intel Mac's GPU cannot compile. Each message is copied
from a public thread whose fix was confirmed (the reporter says it worked, or a maintainer states
cause and fix); it reaches that cause first, and one of the cause's fixes names the knob the
confirmed fix turned. Look-alike rows are real messages of other causes a new pattern could catch:
they must not rank the new cause first."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, text its fixes name, URL)
KNOB = [
    (
        "ResponseError: unable to load model: /usr/share/ollama/.ollama/models/blobs/"
        "sha256-9811e90b0eecf2b194aafad5bb386279f338a45412a9e6f86b718cca6626c495 (status code: 500)",
        "app.llamacpp.unknown-architecture",
        "Update Ollama",
        "https://github.com/ollama/ollama/issues/12693",  # reporter: it worked with the updated version
    ),
    (
        "`Error: error loading model /Users/francoislenne/.ollama/models/blobs/"
        "sha256:8934d96d3f08982e95922b2b7a2c626a1fe873d7c3b06e8e56d7bc0a1f`",
        "app.llamacpp.unknown-architecture",
        "Update Ollama",
        "https://github.com/ollama/ollama/issues/3254",  # reporter: downloading the last Ollama fixed it
    ),
    (
        " ValueError: Ollama call failed with status code 500. Details: llama runner: failed to load "
        "model '/root/.ollama/models/blobs/sha256:c1864a5eb19305c40519da12cc543519e48a0697ecd30e15d5ac"
        "228644957d12': this model may be incompatible with your version of Ollama. If you previously "
        "pulled this model, try updating it by running `ollama pull gemma:2b`",
        "app.llamacpp.unknown-architecture",
        "Update Ollama",
        "https://github.com/docker/genai-stack/issues/138",  # commenter: reinstalling Ollama worked
    ),
    (
        'At the command ollama run qwen7b says "failed to load model this model may be incompatible '
        'with your version of Ollama"',
        "app.llamacpp.unknown-architecture",
        "install.sh",
        "https://github.com/QwenLM/Qwen-Agent/issues/132",  # reporter: install.sh upgrade runs fine
    ),
    (
        "ollama run x/llama3.2-vision:11b-instruct-fp16\n"
        "pulling manifest\n"
        "verifying sha256 digest\n"
        "writing manifest\n"
        "success\n"
        "Error: llama runner process has terminated: signal: aborted (core dumped)",
        "app.ollama.runner-crashed",
        "Update Ollama",
        "https://github.com/ollama/ollama/issues/7334",  # maintainer: the model needs Ollama 0.4.0
    ),
    (
        "ollama run gemma2:27b-instruct-q8_0\n,....\n"
        "Error: llama runner process has terminated: signal: aborted (core dumped) ",
        "app.ollama.runner-crashed",
        "Update Ollama",
        "https://github.com/ollama/ollama/issues/5367",  # maintainer: gemma2 needs Ollama 0.1.47
    ),
    (
        "ollama run deepseek-v2:16b Error: llama runner process has terminated: signal: aborted "
        "(core dumped)",
        "app.ollama.runner-crashed",
        "Update Ollama",
        "https://github.com/ollama/ollama/issues/4765",  # maintainer: fixed in the v0.1.40 release
    ),
    (
        'ggml_metal_init: error: Error Domain=MTLLibraryErrorDomain Code=3 "program_source:3:10: '
        "fatal error: 'ggml-common.h' file not found\n"
        '#include "ggml-common.h"\n'
        "         ^~~~~~~~~~~~~~~\n"
        "\" UserInfo={NSLocalizedDescription=program_source:3:10: fatal error: 'ggml-common.h' file "
        "not found\n"
        '#include "ggml-common.h"\n'
        "         ^~~~~~~~~~~~~~~\n"
        "}\n"
        "llama_new_context_with_model: failed to initialize Metal backend\n"
        "Error creating server: failed creating the server application: Failed to create "
        "llama_context",
        "app.llamacpp.metal-shader-source-missing",
        "METAL_EMBED_LIBRARY",
        "https://github.com/instructlab/instructlab/issues/698",  # rebuilt with the embedded library
    ),
    (
        'ggml_metal_init: error: Error Domain=NSCocoaErrorDomain Code=260 "The file '
        '“ggml-metal.metal” couldn’t be opened because there is no such file." '
        "UserInfo={NSFilePath=ggml-metal.metal, NSUnderlyingError=0x600001c4af40 {Error "
        'Domain=NSPOSIXErrorDomain Code=2 "No such file or directory"}}\n'
        "llama_new_context_with_model: failed to initialize Metal backend",
        "app.llamacpp.metal-shader-source-missing",
        "GGML_METAL_PATH_RESOURCES",
        "https://github.com/LostRuins/koboldcpp/issues/964",  # reporter: GGML_METAL_PATH_RESOURCES solved it
    ),
    (
        "Metal fails to initialize with: ggml_metal_init: error: Error Domain=NSCocoaErrorDomain "
        'Code=258 "The file name is invalid."',
        "app.llamacpp.metal-shader-source-missing",
        "ggml-metal.metal",
        "https://github.com/mudler/LocalAI/issues/755",  # moving ggml-metal.metal beside the binary fixed it
    ),
    (
        "ggml_metal_init: loaded kernel_mul_mat_q6_K_f32            0x7ff6c411c160 | th_max = 1024 "
        "| th_width =   32\n"
        "ggml_metal_init: loaded kernel_mul_mm_f16_f32                         0x0 | th_max =    0 "
        "| th_width =    0\n"
        'ggml_metal_init: load pipeline error: Error Domain=CompilerError Code=2 "SC compilation '
        "failure\n"
        'There is a call to an undefined label" UserInfo={NSLocalizedDescription=SC compilation '
        "failure\n"
        "There is a call to an undefined label}\n"
        "llama_new_context_with_model: ggml_metal_init() failed\n"
        "llama_init_from_gpt_params: error: failed to create context with model "
        "'/Users/mayulu/Documents/GPT4ALL/llama-2-7b.ggmlv3.q4_K_M.gguf'\n"
        "main: error: unable to load model",
        "app.llamacpp.metal-unsupported-gpu",
        "-ngl 0",
        "https://github.com/ggml-org/llama.cpp/issues/3092",  # reporter: Intel Mac Metal unsupported, CPU works
    ),
    (
        'level=WARN source=sched.go:646 msg="gpu VRAM usage didn\'t recover within timeout"',
        "app.ollama.vram-recovery-warning",
        "Update Ollama",
        "https://github.com/ollama/ollama/issues/9160",  # maintainer: only a warning; reporter: updating fixed it
    ),
    # already reached before this round (checked, kept as rows): a pull refused as too new
    (
        "dhruv@Dhruvs-MacBook-Pro-5 ~ % ollama run gemma4:12b-mxfp8\n"
        "pulling manifest \n"
        "Error: pull model manifest: 412: \n"
        "The model you are attempting to pull requires a newer version of Ollama.\n"
        "\n"
        "Please download the latest version at:\n"
        "\n"
        "\thttps://ollama.com/download",
        "app.llamacpp.unknown-architecture",
        "Update Ollama",
        "https://github.com/ollama/ollama/issues/16652",  # maintainer: upgrade Ollama for this model
    ),
    (
        "ollama --version\n"
        "ollama version is 0.3.14\n"
        "Warning: client version is 0.4.0\n"
        "\n"
        "ollama pull llama3.2-vision\n"
        "pulling manifest \n"
        "Error: pull model manifest: 412: \n"
        "\n"
        "The model you are attempting to pull requires a newer version of Ollama.",
        "app.llamacpp.unknown-architecture",
        "systemctl restart ollama",
        "https://github.com/ollama/ollama/issues/7539",  # maintainer: restart the server (old one still runs)
    ),
]


test_a_frequent_message_reaches_its_cause_and_names_the_knob = knob_test(
    KNOB, ids=[k[3] for k in KNOB]
)


# (message verbatim from the thread, the cause it must not be read as first, URL)
LOOKALIKE = [
    # a Metal buffer larger than the GPU allows: memory, not kernels the GPU cannot compile
    (
        "Inference always fails with the error:\n"
        "`ggml_metal_add_buffer: buffer 'data' size 18300780544 is larger than buffer maximum of "
        "17179869184`",
        "app.llamacpp.metal-unsupported-gpu",
        "https://github.com/abetlen/llama-cpp-python/issues/362",
    ),
    # the Metal context of an Apple-silicon Mac that ran out of memory: not a missing shader source
    (
        "ggml_gallocr_reserve_n: failed to allocate Metal buffer of size 8891928576\n"
        "llama_init_from_gpt_params: error: failed to create context with model "
        "'/Users/username/.cache/huggingface/hub/models--bullerwins--Meta-Llama-3.1-8B-Instruct-GGUF/"
        "snapshots/a4ac94cf28701b385c9028d49d314a361e0974a6/Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf'\n"
        "fatal error: bodhi_context: failed to load the model",
        "app.llamacpp.metal-shader-source-missing",
        "https://github.com/BodhiSearch/BodhiApp/issues/4",
    ),
    # a layer that failed its checksum: pull it again, not an Ollama too old for the model
    (
        "Error: digest mismatch, file must be downloaded again: want "
        "sha256:8de95da68dc485c0889c205384c24642f83ca18d089559c977ffc6a3972a71a8, got "
        "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b",
        "app.llamacpp.unknown-architecture",
        "https://github.com/ollama/ollama/issues/9846",
    ),
]


test_a_look_alike_message_is_not_read_as_the_new_cause = lookalike_test(
    LOOKALIKE, ids=[k[2] for k in LOOKALIKE], may_be_empty=True
)
