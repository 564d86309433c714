"""Round 34's changes: the causes the fresh development samples (tests/triage_corpus/train/) met
that envdoctor did not read (containers' shared memory, IPC and seccomp; TPU, AWS Neuron and
Gaudi; CMake not finding a toolkit; an older nvcc first on PATH), and fixes that could not work
(a llama.cpp rebuild offered without its premise, full-width Chinese punctuation missed)."""

from __future__ import annotations

from envdoctor.ingest.decoding import clean_block, clean_line
from envdoctor.triage_engine import triage_text
from tests.triage_lines import (
    finding_ids,
    finding_origins,
    fix_texts,
    source_knob_test,
    training_case_test,
)

# (thread, text, finding id, knob): canonical lines verbatim from the threads named
ROWS = [
    (
        "https://github.com/triton-inference-server/server/issues/6195",
        "UNAVAILABLE: Internal: Unable to initialize shared memory key "
        "'triton_python_backend_shm_region_3' to requested size (67108864 bytes). If you are "
        "running Triton inside docker, use '--shm-size' flag to control the shared memory region "
        "size.",
        "nccl.shm-too-small",
        "--shm-size",
    ),
    (
        "https://github.com/abetlen/llama-cpp-python/issues/645",
        "docker run --gpus=all -ti -p 8080:8080 llama-cpp-python bash\n"
        "CUDA error 304 at /tmp/pip-install-jyfgheyj/llama-cpp-python/vendor/llama.cpp/"
        "ggml-cuda.cu:5065: OS call failed or operation not supported on this OS",
        "container.seccomp-blocks-cuda",
        "seccomp=unconfined",
    ),
    (
        "https://github.com/PlantSimulationLab/Helios/issues/37",
        "I am using Helios using WSL environment in VS Code.\n"
        "OptiX Error: Failed to load OptiX library",
        "wsl.optix-library-missing",
        "/usr/lib/wsl/lib",
    ),
    (
        "https://github.com/triton-inference-server/server/issues/2296",
        "docker run --gpus all -it --rm --net=host nvcr.io/nvidia/tritonserver:20.09-py3-"
        "clientsdk simple_http_shm_client\nerror: failed to register input shared memory region: "
        "Unable to open shared memory region: '/input_simple'",
        "container.ipc-namespace-not-shared",
        "--ipc=host",
    ),
    (
        "https://github.com/aws-neuron/aws-neuron-sdk/issues/823",
        "ERROR  NEFF:neff_parse  NEFF version: 2.0, features: 0x100 are not supported.  "
        "Currently supporting: 0x8000000",
        "neuron.runtime-lib-too-old",
        "aws-neuronx-runtime-lib",
    ),
    (
        "https://github.com/jax-ml/jax/issues/7247",
        "F external/org_tensorflow/tensorflow/core/tpu/tpu_executor_init_fns.inc:110] "
        "TpuTransferManager_ReadDynamicShapes not available in this library.",
        "tpu.libtpu-needs-update",
        "jax[tpu]",
    ),
    (
        "https://github.com/opea-project/GenAIExamples/issues/137",
        "RuntimeError: synStatus=8 [Device not found] Device acquire failed.",
        "habana.device-held-by-other-container",
        "HABANA_VISIBLE_DEVICES",
    ),
    (
        "https://github.com/GMMTeam/GMM/issues/3",
        "CMake Error at /usr/share/cmake/Modules/FindPackageHandleStandardArgs.cmake:108 "
        '(message):\n  Could NOT find CUDA (missing: CUDA_INCLUDE_DIRS) (found version "6.0")',
        "cuda.cmake-toolkit-not-found",
        "CUDA_TOOLKIT_ROOT_DIR",
    ),
    (
        "https://github.com/ggml-org/llama.cpp/issues/17542",
        "When I installed both cuda-toolkit-12.5 and cuda-compat-12.9, and configured the "
        "environment variables, compiling llama.cpp succeeded\n"
        "ggml_cuda_init: failed to initialize CUDA: system has unsupported display driver / cuda "
        "driver combination",
        "cuda.compat-libcuda-on-geforce",
        "cuda-compat",
    ),
]

test_canonical_lines_reach_their_cause = source_knob_test(ROWS)

# (training case, finding id, knob, thread): development cases of round 34's harvests that reach
# their confirmed cause with the case's own fix keywords
CASES = [
    (
        "en-25504-triton-helm-dev-shm-64m.txt",
        "nccl.shm-too-small",
        "emptyDir",
        "https://github.com/triton-inference-server/server/issues/4869",
    ),
    (
        "en-25601-genai-directml-anycpu-dll.txt",
        "directml.old-directml-dll-loaded",
        "AnyCPU",
        "https://github.com/microsoft/onnxruntime-genai/issues/855",
    ),
    (
        "zh-25401-docker-desktop-nonroot-vglusers-nvml.txt",
        "nvidia.device-node-permission",
        "vglusers",
        "https://github.com/gezp/docker-ubuntu-desktop/issues/40",
    ),
    (
        "zh-25702-libtorch-npu-init-npu-symbol.txt",
        "ascend.libtorch-npu-not-in-wheel",
        "build_libtorch_npu.py",
        "https://github.com/Ascend/pytorch/issues/41",
    ),
    (
        "en-25904-ft-backend-docker-without-gpus.txt",
        "container.no-gpus-injected",
        "--gpus",
        "https://github.com/triton-inference-server/fastertransformer_backend/issues/111",
    ),
    (
        "en-26302-whisperx-docker-cudnn8-torch24.txt",
        "cuda.cudnn-missing",
        "torch==2.3.1",
        "https://github.com/m-bain/whisperX/issues/865",
    ),
    (
        "en-26205-aws-neuron-dkms-build-fails-kernel-6-5.txt",
        "neuron.legacy-dkms-package-deprecated",
        "aws-neuronx-dkms",
        "https://github.com/aws-neuron/aws-neuron-sdk/issues/945",
    ),
    (
        "en-26406-tpu-v5e-vm-tpu-vm-base-no-accel-devices.txt",
        "tpu.vm-software-version-wrong",
        "tpu-ubuntu2204-base",
        "https://github.com/jax-ml/jax/issues/13260",
    ),
    (
        "en-26800-isaacsim-container-595-segfault.txt",
        "app.driver-newer-than-validated",
        "Downgrade the driver",
        "https://github.com/isaac-sim/IsaacSim/issues/586",
    ),
    (
        "zh-26500-azurpilot-dll-init-failed-vc-runtime.txt",
        "windows.dll-dependency-missing",
        "Visual C++",
        "https://github.com/wess09/AzurPilot/issues/580",
    ),
]

test_development_cases_reach_their_cause = training_case_test(CASES, keywords=True)


def test_full_width_ascii_forms_are_read_as_ascii() -> None:
    """Chinese input methods and Chinese Windows type full-width forms ("（DLL）", "：", "２"):
    pasted text reads them as their ASCII twins, one character for one, so Windows' localised
    DLL error matches like its ASCII spelling."""
    assert clean_line("驱动版本：５３５（ok）\u3000x") == "驱动版本:535(ok) x"
    assert clean_block("a（b）\nc：d\n") == "a(b)\nc:d"
    text = "OSError: [WinError 1114] 动态链接库（dll）初始化例程失败"
    assert "windows.dll-dependency-missing" in finding_ids(text)


def test_an_older_nvcc_is_named_only_when_the_named_toolkit_knows_the_gpu() -> None:
    """sm_86 refused while the report names CUDA 11.8 (which builds for it) means another,
    older nvcc ran; under CUDA 10.2 (which predates sm_86) the toolkit itself is too old, and
    Triton's own ptxas is not a PATH problem."""
    older = "I have CUDA 11.8 installed\nnvcc fatal   : Unsupported gpu architecture 'compute_86'"
    assert finding_ids(older)[0] == "cuda.old-toolkit-first-on-path"
    assert "which -a nvcc" in fix_texts(older, "cuda.old-toolkit-first-on-path")[0]
    too_old = "I have CUDA 10.2 installed\nnvcc fatal   : Unsupported gpu architecture 'compute_86'"
    assert "cuda.old-toolkit-first-on-path" not in finding_ids(too_old)
    triton = (
        "CUDA 13.0 installed; torch.compile with triton\n"
        "ptxas fatal   : Value 'sm_121a' is not defined for option 'gpu-name'"
    )
    assert "cuda.old-toolkit-first-on-path" not in finding_ids(triton)


def test_error_803_is_the_compat_library_only_when_one_is_on_the_path() -> None:
    """Error 803 without a cuda-compat library in the report stays the driver-mismatch finding;
    the forward-compatibility error (804) is not claimed by the 803 entry."""
    plain = "CUDA error: system has unsupported display driver / cuda driver combination"
    assert "cuda.compat-libcuda-on-geforce" not in finding_ids(plain)
    compat804 = (
        "export LD_LIBRARY_PATH=/usr/local/cuda-12.9/compat:$LD_LIBRARY_PATH\n"
        "cudaErrorCompatNotSupportedOnDevice: forward compatibility was attempted on non "
        "supported HW"
    )
    assert "cuda.compat-libcuda-on-geforce" not in finding_ids(compat804)


def test_a_ctranslate2_built_for_cudnn9_beside_cudnn9_is_no_finding() -> None:
    """The package-list entry turns on ctranslate2 4.0-4.4 (cuDNN 8 builds): 4.5 with cuDNN 9
    is the pair that works."""
    key = "signature:cuda.cudnn-missing.ctranslate2-cudnn8-build-beside-cudnn9"
    assert key not in finding_origins("ctranslate2 4.5.0\nnvidia-cudnn-cu12 9.1.0.70\ntorch 2.4.0")
    assert key in finding_origins("ctranslate2 4.3.1\nnvidia-cudnn-cu12 9.1.0.70\ntorch 2.4.0")


def test_a_docker_run_line_with_gpus_is_not_told_to_add_them() -> None:
    """'Driver version is insufficient' after a docker run that requests the GPUs is a real
    driver / image pairing question, not a missing --gpus."""
    key = "signature:container.docker-run-without-gpus-insufficient-driver"
    asked = (
        "docker run --gpus all -it nvcr.io/nvidia/pytorch:24.05-py3 bash\n"
        "RuntimeError: CUDA driver version is insufficient for CUDA runtime version"
    )
    assert key not in finding_origins(asked)
    bare = asked.replace("--gpus all ", "")
    assert key in finding_origins(bare)


def test_isaac_sim_on_its_validated_branch_is_not_told_to_downgrade() -> None:
    """Only a driver branch above the validated 580 is the cause."""
    key = "signature:app.isaacsim.driver-above-validated-branch"
    base = "Isaac Sim 5.1.0 segmentation fault at startup\nDriver Version: {}   CUDA Version: 13.0"
    assert key in finding_origins(base.format("595.58.03"))
    assert key not in finding_origins(base.format("580.65.06"))


def test_seccomp_is_not_blamed_under_wsl() -> None:
    """Error 304 under WSL is not a container's seccomp profile."""
    text = (
        "WSL2 Ubuntu, docker run --gpus all\n"
        "CUDA error 304: OS call failed or operation not supported on this OS\n"
        "Linux 5.15.153.1-microsoft-standard-WSL2"
    )
    assert "container.seccomp-blocks-cuda" not in finding_ids(text)


def test_the_current_neuron_driver_package_is_not_the_retired_one() -> None:
    """aws-neuronx-dkms (with the x) failing is not the retired-package finding."""
    text = "dpkg: error processing package aws-neuronx-dkms (--configure): returned error"
    assert "neuron.legacy-dkms-package-deprecated" not in finding_ids(text)


def test_the_llama_cpp_rebuild_fix_weighs_its_premise() -> None:
    """The rebuild-against-another-toolkit cause assumes the driver works elsewhere: with
    nvidia-smi's table in the paste it scores higher than without."""
    bare = (
        "llama.cpp\nggml_cuda_init: failed to initialize CUDA: no CUDA-capable device is detected"
    )
    smi = bare + "\n| NVIDIA-SMI 550.54.14   Driver Version: 550.54.14   CUDA Version: 12.4 |"
    key = "signature:app.llamacpp.built-against-other-cuda.no-device"

    def score(text: str) -> float:
        found = [f for f in triage_text(text).findings if f.origin == key]
        assert found, finding_origins(text)
        return float(found[0].score)

    assert score(smi) > score(bare)


def test_a_chinese_question_mark_still_asks_after_the_full_width_fold() -> None:
    """ "...的原因吗？" reads as "...的原因吗?" once full-width forms are folded: a question mark
    right after a Chinese character still makes the report a request for help (the fold had
    left such a report with no finding at all)."""
    text = (
        "在不同的机子上运行，出来的声音相差很大。不知这是因为显卡不同的原因吗？机1(2080TI)，机2（3070）。\n"
        "环境：win10"
    )
    assert triage_text(text).findings, "a question in Chinese is a problem report"
