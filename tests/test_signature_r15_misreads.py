"""Round 15 sweep of the misreadings other engineers noticed (checks/signatures/{containers,apps,onnxruntime}.toml
and the entries it touched): nvidia-smi inside a container that cannot find libnvidia-ml.so (the
toolkit's ldconfig did not refresh the container's loader cache), read as a missing cuDNN; Ollama's
own "CUDA GPU is too old" fallback, read as torch's architecture list; a llama.cpp-based binary that
needs glibc's getcpu (glibc 2.29+), read as a torch extension ABI mismatch; ONNX Runtime's input
shape check ("Got invalid dimensions for input"), which is the model's input, not a CUDA library.
Each message is verbatim from its thread; it reaches the cause the thread confirmed first, and one
of that cause's fixes names the knob the confirmed fix turned."""

from __future__ import annotations

from triage_lines import source_knob_test, source_lookalike_test

NVSMI_IN_CONTAINER = (
    "root@banshee:/var/log# docker run --rm --gpus=all nvidia/cuda:9.2-base nvidia-smi\n"
    "NVIDIA-SMI couldn't find libnvidia-ml.so library in your system. Please make sure that the "
    "NVIDIA Display Driver is properly installed and present in your system.\n"
    "Please also try adding directory that contains libnvidia-ml.so to your system PATH."
)

# (thread, message, the finding id first, a string one of its fixes' summaries or commands holds)
KNOB = [
    (
        # lyon667: "@/sbin/ldconfig" -> "/sbin/ldconfig" in /etc/nvidia-container-runtime/config.toml
        # worked (and for regzon, marcinz in #854); klueska (maintainer, #1301): fixed in
        # libnvidia-container 1.9.0
        "https://github.com/NVIDIA/nvidia-docker/issues/1163",
        NVSMI_IN_CONTAINER,
        "container.nvml-library-not-found",
        "/etc/nvidia-container-runtime/config.toml",
    ),
    (
        # the reporter: running ldconfig inside the container fixes it
        "https://github.com/NVIDIA/libnvidia-container/issues/67",
        "When a launch docker container with nvidia-runtime-container, nvidia-smi command inside the "
        "container says : \n\n> \n> NVIDIA-SMI couldn't find libnvidia-ml.so library in your system. "
        "Please make sure that the NVIDIA Display Driver is properly installed and present in your "
        "system.\n> Please also try adding directory that contains libnvidia-ml.so to your system PATH."
        "\n\nI must launch ldconfig within the container and it fix the problem.",
        "container.nvml-library-not-found",
        "ldconfig",
    ),
    (
        # the maintainer (dhiltgen, #1877): compute capability 5.2 was outside Ollama's CUDA build
        # then; PR #2116 (Fixes #1865) built for 5.0+ in a later release: update Ollama
        "https://github.com/ollama/ollama/issues/1992",
        "2024/01/14 19:50:06 gpu.go:94: Nvidia GPU detected\n"
        "2024/01/14 19:50:06 gpu.go:138: CUDA GPU is too old. Falling back to CPU mode. Compute "
        "Capability detected: 5.2\n"
        "2024/01/14 19:50:06 routes.go:953: no GPU detected",
        "app.ollama.gpu-compute-too-old",
        "ollama.com/install.sh",
    ),
    (
        # the maintainer: the getcpu call is the cause, fixed in the next release; a reporter:
        # 1.59 works on Ubuntu 16.04
        "https://github.com/LostRuins/koboldcpp/issues/705",
        "Initializing dynamic library: koboldcpp_cublas.so\n"
        "Traceback (most recent call last):\n"
        '  File "PyInstaller/loader/pyimod03_ctypes.py", line 53, in __init__\n'
        '  File "ctypes/__init__.py", line 373, in __init__\n'
        "OSError: /tmp/_MEIUwJ6Ds/koboldcpp_cublas.so: undefined symbol: getcpu",
        "app.llamacpp.glibc-no-getcpu",
        "ldd --version",
    ),
    (
        # the reporter: raising ggml's glibc guard (getcpu needs a newer glibc there) fixes every setup
        "https://github.com/ggml-org/llama.cpp/issues/10352",
        "ggml/src/ggml-cpu/ggml-cpu.c:2373: error: undefined reference to 'getcpu'\n"
        "collect2: error: ld returned 1 exit status",
        "app.llamacpp.glibc-no-getcpu",
        "glibc",
    ),
    (
        # the maintainer: the converted model's input shape must leave the batch axis free:
        # initial_type = [('float_input', FloatTensorType([None, 4]))]
        "https://github.com/onnx/sklearn-onnx/issues/303",
        "InvalidArgument: [ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Got invalid dimensions for "
        "input: float_input for the following indices\n index: 0 Got: 38 Expected: 1\n Please fix "
        "either the inputs or the model.",
        "onnxruntime.input-shape-mismatch",
        "FloatTensorType([None",
    ),
    (
        # the reporter: passing the size the model expects (-f 3072) works
        "https://github.com/seanghay/uvr-mdx-infer/issues/6",
        "onnxruntime.capi.onnxruntime_pybind11_state.InvalidArgument: [ONNXRuntimeError] : 2 : "
        "INVALID_ARGUMENT : Got invalid dimensions for input: input for the following indices\n "
        "index: 2 Got: 2048 Expected: 3072\n Please fix either the inputs/outputs or the model.",
        "onnxruntime.input-shape-mismatch",
        "3072",
    ),
]


test_a_common_message_gets_its_cause_and_the_knob = source_knob_test(KNOB)


# (thread, a real message the tempting cause must not rank first on)
LOOKALIKE = [
    # the DRA driver's kubelet plugin cannot locate NVML: no cuDNN is involved (no confirmed fix)
    (
        "https://github.com/kubernetes-sigs/dra-driver-nvidia-gpu/issues/65",
        'Defaulted container "plugin" out of: plugin, init (init)\nError: failed to create device '
        'library: failed to locate driver libraries: error locating "libnvidia-ml.so.1"',
        "cuda.cudnn-missing",
    ),
    # an ONNX input shape error names no CUDA library: not a CUDA dependency problem
    (
        "https://github.com/OleehyO/TexTeller/issues/91",
        "InvalidArgument: [ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Got invalid dimensions for "
        "input: image for the following indices index: 2 Got: 1600 Expected: 640 index: 3 Got: 1600 "
        "Expected: 640 Please fix either the inputs/outputs or the model.",
        "onnxruntime.cuda-deps-mismatch",
    ),
]


test_a_look_alike_message_is_not_read_as_the_cause = source_lookalike_test(LOOKALIKE, newline=True)
