"""Round 16 sweep of misreadings outside NVIDIA's own stack (checks/signatures/{platform,nvidia_driver,windows}.toml):
Vulkan programs (llama.cpp's ggml_vulkan, gpt4all, vulkaninfo) that find no Vulkan device because
no Vulkan driver (ICD) for the GPU is installed, or a container image lacks the Mesa driver's GL
dispatch libraries, read as a Jetson L4T mismatch or a torch extension ABI problem, or matched by
nothing; and a Jetson container whose non-root user is not in the video group ("no CUDA-capable
device is detected" as that user only), read as a kernel driver that is not loaded; the device
string "dml" (DirectML) with stock PyTorch, read as an unsupported ROCm GPU. Each message is
verbatim from its thread; it reaches the cause the thread confirmed first, and one of that cause's
fixes names the knob the confirmed fix turned."""

from __future__ import annotations

from triage_lines import knob_test, lookalike_test

# (thread, message, the finding id first, a string one of its fixes' summaries or commands holds)
KNOB = [
    (
        # the reporter: installing libglvnd0 libgl1 libglx0 libegl1 libgles2 in the image fixes it;
        # merged in llama.cpp's Vulkan Dockerfile by PR #18664 (Fixes #17761)
        "https://github.com/ggml-org/llama.cpp/issues/17761",
        "load_backend: loaded RPC backend from /app/libggml-rpc.so\n"
        "ggml_vulkan: No devices found.\n"
        "load_backend: loaded Vulkan backend from /app/libggml-vulkan.so\n"
        "load_backend: loaded CPU backend from /app/libggml-cpu-haswell.so",
        "vulkan.no-driver-for-gpu",
        "libglvnd0",
    ),
    (
        # the reporter: resolved by installing libnvidia-gl-440 (the NVIDIA driver's Vulkan ICD)
        "https://github.com/nomic-ai/gpt4all/issues/1990",
        "`ggml_vk_available_devices_internal: ignoring Vulkan exception: "
        "vk::Instance::enumeratePhysicalDevices: ErrorInitializationFailed`",
        "vulkan.no-driver-for-gpu",
        "libnvidia-gl",
    ),
    (
        # the reporter: `sudo apt install mesa-vulkan-drivers` and it works
        "https://github.com/PolyMeilex/Neothesia/issues/8",
        "Vulkan Instance Version: 1.1.70\n\n"
        "Cannot create Vulkan instance.\n"
        "/build/vulkan-UL09PJ/vulkan-1.1.70+dfsg1/demos/vulkaninfo.c:768: failed with "
        "VK_ERROR_INCOMPATIBLE_DRIVER",
        "vulkan.no-driver-for-gpu",
        "mesa-vulkan-drivers",
    ),
    (
        # the reporter's fix (rapidsai/node PR #87): add the container user to the video group on
        # Jetson, "necessary for non-root users to execute GPU programs inside a container"
        "https://github.com/NVIDIA/nvidia-docker/issues/1449",
        "# Compile deviceQuery sample as root user, run as non-root user\n"
        "$ docker run --runtime nvidia --rm -it nvcr.io/nvidia/l4t-base:r32.4.4 bash -c '\\\n"
        "    apt update && apt install -y --no-install-recommends make g++ \\\n"
        " && cp -r /usr/local/cuda/samples /tmp/ && cd /tmp/samples/1_Utilities/deviceQuery && make \\\n"
        " && useradd --uid 1000 -G sudo --shell $SHELL --user-group --create-home user \\\n"
        ' && su - user -c "/tmp/samples/1_Utilities/deviceQuery/deviceQuery"\'\n'
        "/tmp/samples/1_Utilities/deviceQuery/deviceQuery Starting...\n\n"
        " CUDA Device Query (Runtime API) version (CUDART static linking)\n\n"
        "cudaGetDeviceCount returned 100\n"
        "-> no CUDA-capable device is detected\n"
        "Result = FAIL",
        "nvidia.device-node-permission",
        "--group-add video",
    ),
    (
        # the docs' example used pytorch-directml's "dml" string; Microsoft's DirectML team
        # replaced it with torch-directml (torch_directml.device()) in PR #93
        "https://github.com/MicrosoftDocs/windows-ai-docs/issues/82",
        "Traceback (most recent call last):\n"
        '  File "mike_pytorch_test.py", line 2, in <module>\n'
        '    tensor1 = torch.tensor([1]).to("dml")\n'
        "RuntimeError: Expected one of cpu, cuda, xpu, mkldnn, opengl, opencl, ideep, hip, msnpu, "
        "xla, vulkan device type at start of device string: dml",
        "directml.dml-device-string",
        "torch_directml.device()",
    ),
]


test_message_reaches_its_cause_and_knob = knob_test(
    KNOB, columns=("source", "text", "finding_id", "knob")
)


# (thread, a real message of another cause, the cause a new pattern could wrongly rank first)
LOOKALIKE = [
    (
        # a Vulkan driver that is there but fails to build a shader pipeline: not a missing driver
        "https://github.com/ggml-org/llama.cpp/pull/8119",
        "[1720599202] llama_model_load: error loading model: vk::Device::createComputePipeline: "
        "ErrorUnknown\n"
        "[1720599202] llama_load_model_from_file: failed to load model\n"
        "[1720599202] main: error: unable to load model",
        "vulkan.no-driver-for-gpu",
    ),
    (
        # a Jetson with a hand-built root filesystem, run directly: not a container user's group
        "https://github.com/idavis/jetson-containers/issues/17",
        "./deviceQuery \n./deviceQuery Starting...\n\n"
        " CUDA Device Query (Runtime API) version (CUDART static linking)\n\n"
        "cudaGetDeviceCount returned 38\n"
        "-> no CUDA-capable device is detected\n"
        "Result = FAIL",
        "nvidia.device-node-permission",
    ),
    (
        # a Jetson container as root, started without the device nodes: not a group
        "https://github.com/NVIDIA/nvidia-docker/issues/1021",
        "root@f14d48a29224:/cppflow/examples/mnist/build# ./example\n"
        "2019-07-22 19:35:15.461566: E tensorflow/stream_executor/cuda/cuda_driver.cc:300] failed "
        "call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected",
        "nvidia.device-node-permission",
    ),
    (
        # a device string built from the wrong config field: a bug in the script, not DirectML
        "https://github.com/PytorchConnectomics/pytorch_connectomics/issues/40",
        "RuntimeError: Expected one of cpu, cuda, mkldnn, opengl, opencl, ideep, hip, msnpu device "
        "type at start of device string: train",
        "directml.dml-device-string",
    ),
]


test_lookalike_is_not_read_as_the_new_cause = lookalike_test(
    LOOKALIKE, columns=("source", "text", "tempting"), may_be_empty=True
)
