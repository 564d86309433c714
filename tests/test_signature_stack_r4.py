"""The framework-stack causes of round 4 (checks/signatures/*.toml), each on lines users
pasted in the issue threads its signature cites: the right cause comes first and its fix names
the knob the thread's fix turned (the env var, flag, package or version)."""

from __future__ import annotations

from pathlib import Path

import pytest
from triage_lines import assert_first_with_knob

from envdoctor.triage_engine import triage_text

FIELD_LINES = [
    # (pasted text, expected finding id, a word the fixes must name)
    (
        "Downloading torch-2.1.0-cp310-cp310-win_amd64.whl (192.3 MB)\n"
        "Installing collected packages: torch\n  Attempting uninstall: torch\n"
        "    Found existing installation: torch 2.1.2+cu121\n    Uninstalling torch-2.1.2+cu121:\n"
        "      Successfully uninstalled torch-2.1.2+cu121",
        "torch.cpu-build-on-gpu-host",
        "--no-deps",
    ),
    (
        "I tensorflow/core/common_runtime/gpu/gpu_device.cc:1283] Ignoring visible gpu device "
        "(device: 0, name: Quadro K2000M, pci bus id: 0000:01:00.0, compute capability: 3.0) with "
        "Cuda compute capability 3.0. The minimum required Cuda capability is 3.5.",
        "torch.gpu-too-old-for-build",
        "TF_CUDA_COMPUTE_CAPABILITIES",
    ),
    (
        "W tensorflow/core/common_runtime/gpu/gpu_device.cc:2052] TensorFlow was not built with "
        "CUDA kernel binaries compatible with compute capability 9.0. CUDA kernels will be "
        "jit-compiled from PTX, which could take 30 minutes or longer.",
        "torch.gpu-too-new-for-build",
        "tensorflow[and-cuda]",
    ),
    (
        "显卡为2080ti22g，cuda12.4，pytorch2.1.2\nRuntimeError: cutlassF: no kernel found to launch!",
        "fit.dtype-unsupported",
        "float16",
    ),
    (
        "RuntimeError: Detected that PyTorch and torch_sparse were compiled with different CUDA "
        "versions. PyTorch has CUDA version 10.2 and torch_sparse has CUDA version 11.1. Please "
        "reinstall the torch_sparse that matches your PyTorch install.",
        "torch.companion-mismatch",
        "data.pyg.org",
    ),
    (
        '    raise RuntimeError("Windows not yet supported for torch.compile")\n'
        "RuntimeError: Windows not yet supported for torch.compile",
        "torch.triton-missing",
        "TORCHDYNAMO_DISABLE",
    ),
    (
        '  File "/home/ease/venv/lib/python3.12/site-packages/torch/__init__.py", line 1866, in compile\n'
        '    raise RuntimeError("Dynamo is not supported on Python 3.12+")\n'
        "RuntimeError: Dynamo is not supported on Python 3.12+",
        "torch.python-unsupported",
        "torch>=2.4",
    ),
    (
        "/usr/bin/ld: cannot find -lcuda: No such file or directory\n"
        "collect2: error: ld returned 1 exit status\n"
        "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:",
        "torch.triton-no-c-compiler",
        "TRITON_LIBCUDA_PATH",
    ),
    (
        "deepspeed.ops.op_builder.builder.MissingCUDAException: CUDA_HOME does not exist, "
        "unable to compile CUDA op(s)",
        "torch.extension-cuda-toolkit-missing",
        "CUDA_HOME",
    ),
    (
        "`ValueError: Unknown CUDA arch (9.0+PTX) or GPU not supported`",
        "cuda.nvcc-too-old-for-gpu",
        "TORCH_CUDA_ARCH_LIST",
    ),
    (
        "tensorflow.python.framework.errors_impl.UnknownError: Failed to get convolution algorithm. "
        "This is probably because cuDNN failed to initialize, so try looking to see if a warning "
        "log message was printed above.",
        "cuda.cudnn-mismatch",
        "TF_FORCE_GPU_ALLOW_GROWTH",
    ),
    (
        "jaxlib.xla_extension.XlaRuntimeError: FAILED_PRECONDITION: DNN library initialization "
        "failed. Look at the errors above for more details.",
        "jax.cudnn-too-old",
        "jax[cuda12]",
    ),
    (
        "RuntimeError: nvrtc: error: failed to open libnvrtc-builtins.so.11.1.\n"
        "  Make sure that libnvrtc-builtins.so.11.1 is installed correctly.",
        "cuda.runtime-lib-major-missing",
        "LD_LIBRARY_PATH",
    ),
    (
        "RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`",
        "memory.out-of-memory",
        "nvidia-smi",
    ),
    (
        "PackagesNotFoundError: The following packages are not available from current channels:\n\n"
        "  - pytorch-cuda=12.1\n",
        "cuda.conda-pip-cuda-mixed",
        "-c nvidia",
    ),
]


FIELD_LINES += [
    (
        "Exception: >- DeepSpeed Op Builder: Installed CUDA version 12.0 does not match the version "
        "torch was compiled with 11.7, unable to compile cuda/cpp extensions without a matching "
        "cuda version.",
        "cuda.toolkits-disagree",
        "DS_SKIP_CUDA_CHECK",
    ),
    (
        "RuntimeError: Cuda extensions are being compiled with a version of Cuda that does not "
        "match the version used to compile Pytorch binaries.  Pytorch binaries were compiled with "
        "Cuda 12.1.",
        "cuda.toolkits-disagree",
        "cuda-12.1",
    ),
    (
        "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\n"
        "RuntimeError: Triton Error [CUDA]: device kernel image is invalid",
        "cuda.toolkit-newer-than-driver",
        "TRITON_PTXAS_PATH",
    ),
    (
        "RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions "
        "before calling NumCudaDevices() that might have already set an error? Error 34: CUDA "
        "driver is a stub library",
        "cuda.stub-libcuda-loaded",
        "stubs",
    ),
    (
        '  File "/home/u/miniforge3/envs/open-mmlab/lib/python3.8/site-packages/torch/__init__.py", '
        "line 197, in <module>\n    from torch._C import *  # noqa: F403\nImportError: "
        "/home/u/miniforge3/envs/open-mmlab/lib/python3.8/site-packages/torch/lib/libtorch_cpu.so: "
        "undefined symbol: iJIT_NotifyEvent",
        "torch.conda-mkl-incompatible",
        "mkl==2024.0",
    ),
    (
        "ValueError: Some modules are dispatched on the CPU or the disk. Make sure you have enough "
        "GPU RAM to fit the quantized model. If you want to dispatch the model on the CPU or the "
        "disk while keeping these modules in 32-bit, you need to set "
        "`load_in_8bit_fp32_cpu_offload=True` and pass a custom `device_map` to `from_pretrained`.",
        "memory.workload-does-not-fit",
        "llm_int8_enable_fp32_cpu_offload",
    ),
    (
        "OSError: /home/z/anaconda3/envs/p/lib/python3.6/site-packages/torch_scatter/_version.so: "
        "undefined symbol: _ZN5torch3jit17parseSchemaOrNameERKSs",
        "torch.extension-abi-mismatch",
        "data.pyg.org",
    ),
    (
        "ImportError: /opt/conda/lib/python3.8/site-packages/mmcv/_ext.cpython-38-x86_64-linux-gnu.so: "
        "undefined symbol: _ZN3c106detail19maybe_wrap_dim_slowEllb",
        "torch.extension-abi-mismatch",
        "download.openmmlab.com",
    ),
]


# prose the field writes without a canonical line (English and Chinese)
FIELD_LINES += [
    ("编译的时候nvcc版本和pytorch的cuda版本不一致，装不上", "cuda.toolkits-disagree", "CUDA_HOME"),
    ("flash_attn装不上，编译的时候内存爆了，机器卡死", "flashattn.not-installable", "MAX_JOBS"),
    (
        "Building wheel for flash-attn (setup.py) ... it has been running for 2 hours and my "
        "machine froze, 16GB RAM",
        "flashattn.not-installable",
        "MAX_JOBS",
    ),
    ("torch.compile在windows上报错，提示没有triton", "torch.triton-missing", "TORCHDYNAMO_DISABLE"),
    (
        "在jupyter里用不了gpu，但是命令行里torch.cuda.is_available()是True",
        "python.notebook-kernel-not-active-env",
        "ipykernel",
    ),
    ("用sudo运行脚本就找不到torch了，不用sudo就可以", "python.env-mismatch", "which python"),
    (
        "pip install torch之后is_available是False，windows系统，显卡4090",
        "torch.cpu-build-on-gpu-host",
        "torch.version.cuda",
    ),
]


FIELD_LINES += [
    (
        "I set CUDA_VISIBLE_DEVICES in my script but it still uses GPU 0",
        "cuda.visible-devices-renumbered",
        "before import torch",
    ),
    (
        "CondaError: nothing provides __cuda >=12 needed by pytorch-2.4.1-cuda120_py312h1234_300\n"
        "conda install -c conda-forge pytorch-gpu cuda-version=12.4",
        "cuda.conda-pip-cuda-mixed",
        "CONDA_OVERRIDE_CUDA",
    ),
]


def test_a_named_process_eating_the_memory_is_the_cause_of_the_oom() -> None:
    text = (
        "训练时出现了CUDA内存不足的问题\n"
        "我运行nvidia-smi，发现有个VeCarRecoServer进程，把所有内存基本全吃了，杀掉之后又会出现"
    )
    assert triage_text(text).findings[0].id == "memory.held-by-other-process"


FIELD_LINES += [
    (
        "WARNING: tensorflow 2.15.0 does not provide the extra 'and-cuda'",
        "tensorflow.windows-native-no-gpu",
        "wsl",
    ),
    (
        "    return torch.layer_norm(input, normalized_shape, weight, bias, eps, "
        'torch.backends.cudnn.enabled)\nRuntimeError: "LayerNormKernelImpl" not implemented '
        "for 'Half'",
        "torch.cpu-build-on-gpu-host",
        "--no-half",
    ),
    (
        "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling "
        "`cublasGemmStridedBatchedEx(handle, opa, opb, (int)m, (int)n, (int)k, (void*)&falpha, a, "
        "CUDA_R_16BF, (int)lda, stridea, b, CUDA_R_16BF, (int)ldb, strideb, (void*)&fbeta, c, "
        "CUDA_R_16BF, (int)ldc, stridec, (int)num_batches, compute_type, "
        "CUBLAS_GEMM_DEFAULT_TENSOR_OP)`",
        "fit.dtype-unsupported",
        "float16",
    ),
]


FIELD_LINES += [
    (
        "RTX 4090, CUDA 11.3, torch 1.10.0+cu113\n"
        "RuntimeError: nvrtc: error: invalid value for --gpu-architecture (-arch)",
        "torch.gpu-too-new-for-build",
        "11.8",
    ),
    (
        "triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 98304, "
        "Hardware limit: 65536. Reducing block sizes or `num_stages` may help.",
        "fit.triton-shared-memory-exceeded",
        "num_stages",
    ),
]


FIELD_LINES += [
    (
        "pip install flash-attn\n  Getting requirements to build wheel ... error\n"
        "      ModuleNotFoundError: No module named 'torch'",
        "flashattn.not-installable",
        "--no-build-isolation",
    ),
    (
        "用conda装的pytorch和pip装的torch混在一起了，现在import torch报错",
        "cuda.conda-pip-cuda-mixed",
        "conda list",
    ),
]


def test_no_kernel_image_on_a_pascal_card_is_too_old_not_too_new() -> None:
    text = "我的显卡是GTX 1060，装了最新的pytorch 2.8 cu128，报错no kernel image is available"
    assert triage_text(text).findings[0].id == "torch.gpu-too-old-for-build"


FIELD_LINES += [
    (
        "AssertionError: libcuda.so cannot found!\nPossible files are located at "
        "['/lib/x86_64-linux-gnu/libcuda.so.1'].Please create a symlink of libcuda.so to any of "
        "the file.",
        "torch.triton-no-c-compiler",
        "ldconfig",
    ),
]


@pytest.mark.parametrize(("text", "finding_id", "knob"), FIELD_LINES)
def test_field_line_names_its_cause_and_knob(text: str, finding_id: str, knob: str) -> None:
    assert_first_with_knob(text, finding_id, knob)


def test_other_process_holding_gib_is_in_the_top_three_of_an_oom() -> None:
    text = (
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 138.00 MiB. GPU 0 has "
        "a total capacty of 15.90 GiB of which 8.44 MiB is free. Process 1246069 has 9.57 GiB "
        "memory in use. Including non-PyTorch memory, this process has 6.32 GiB memory in use."
    )
    ids = [f.id for f in triage_text(text).findings[:3]]
    assert ids[0] in ("memory.out-of-memory", "memory.workload-does-not-fit")
    assert "memory.held-by-other-process" in ids


def test_cudnn_init_with_a_version_line_is_not_read_as_memory() -> None:
    text = (
        "E external/xla/xla/stream_executor/cuda/cuda_dnn.cc:439] Loaded runtime CuDNN library: "
        "8.5.0 but source was compiled with: 8.6.0.\n"
        "XlaRuntimeError: FAILED_PRECONDITION: DNN library initialization failed."
    )
    ids = [f.id for f in triage_text(text).findings]
    assert ids[0] == "jax.cudnn-too-old"
    assert "memory.out-of-memory" not in ids


def test_uninstalling_a_cuda_torch_on_linux_for_a_cuda_one_is_not_a_cpu_build() -> None:
    """The Windows PyPI wheel is the CPU one; a Linux log that replaces +cu121 scores lower."""
    linux = "      Successfully uninstalled torch-2.1.2+cu121\nSuccessfully installed torch-2.3.0"
    windows = linux + "\nDownloading torch-2.3.0-cp310-cp310-win_amd64.whl (192.3 MB)"
    score = {
        name: next(
            f.score for f in triage_text(t).findings if f.id == "torch.cpu-build-on-gpu-host"
        )
        for name, t in (("linux", linux), ("windows", windows))
    }
    assert score["windows"] > score["linux"]


OOM_NEW_FORMAT = (
    "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate {req}. GPU 0 has a total "
    "capacity of 23.65 GiB of which 1.06 GiB is free. Including non-PyTorch memory, this process "
    "has 22.57 GiB memory in use. Of the allocated memory 15.20 GiB is allocated by PyTorch, and "
    "{unalloc} is reserved by PyTorch but unallocated."
)


@pytest.mark.parametrize(
    ("req", "unalloc", "fragmented"),
    [
        ("2.00 GiB", "6.90 GiB", True),
        ("512.00 MiB", "1.20 GiB", True),
        ("3.00 GiB", "1.20 GiB", False),
    ],
)
def test_fragmentation_leads_when_the_request_fits_in_the_unallocated_cache(
    req: str, unalloc: str, fragmented: bool
) -> None:
    top = triage_text(OOM_NEW_FORMAT.format(req=req, unalloc=unalloc)).findings[0]
    assert (top.id == "memory.allocator-fragmentation") is fragmented, top.id
    if fragmented:
        assert any("expandable_segments:True" in " ".join(f.commands) for f in top.fixes)


def test_an_old_ptxas_on_path_is_named() -> None:
    text = "ptxas fatal   : Unsupported .version 8.4; current version is '8.2'"
    top = triage_text(text).findings[0]
    assert top.id == "cuda.toolkits-disagree"
    assert any("which -a ptxas" in f.commands for f in top.fixes)


def test_a_wrapped_tensorflow_1_cudnn_line_names_the_cudnn_release_it_was_compiled_with() -> None:
    # TensorFlow 1.x prints cuDNN's version codes (major*1000 + minor*100 + patch), and pastes
    # often wrap the line before "(compatibility version ...)"
    text = (
        "E tensorflow/stream_executor/cuda/cuda_dnn.cc:378] Loaded runtime CuDNN library: 5005 \n"
        "(compatibility version 5000) but source was compiled with 5110 (compatibility version "
        "5100).  If using a binary install, upgrade your CuDNN library to match.\n"
    )
    finding = triage_text(text).findings[0]
    assert finding.id == "cuda.cudnn-mismatch"
    assert finding.fixes[0].summary.startswith("TensorFlow / Paddle: install cuDNN 5.1.10 ")


def test_a_pod_that_finds_no_driver_and_no_nvidia_smi_asks_for_the_nvidia_runtime() -> None:
    # the two standard answers: request nvidia.com/gpu, and run the pod under the NVIDIA runtime
    text = (
        "$ kubectl -n ml exec -it trainer-0 -- python -c 'import torch; torch.zeros(1).cuda()'\n"
        "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA "
        "GPU and installed a driver from http://www.nvidia.com/Download/index.aspx\n"
        "$ kubectl -n ml exec -it trainer-0 -- nvidia-smi\n"
        "bash: nvidia-smi: command not found\n"
    )
    findings = triage_text(text).findings[:3]
    runtime = next(f for f in findings if f.id == "k8s.runtimeclass-not-set")
    assert "runtimeClassName: nvidia" in runtime.fixes[0].summary


# the error message states the knob; the first fix names it (summary start, a command)
KNOB_IN_MESSAGE = [
    (
        "/usr/local/cuda/include/crt/host_config.h:132:2: error: #error -- unsupported GNU version!"
        " gcc versions later than 12 are not supported! The nvcc flag '-allow-unsupported-compiler'"
        " can be used to override this version check\n",
        "cuda.host-compiler-unsupported",
        "Install an older gcc, gcc 12 or earlier ",
        "sudo apt-get install -y gcc-12 g++-12",
    ),
    (
        "host_config.h(153): fatal error C1189: #error:  -- unsupported Microsoft Visual Studio "
        "version! Only the versions between 2017 and 2022 (inclusive) are supported! The nvcc "
        "flag '-allow-unsupported-compiler' can be used to override this version check\n",
        # round 40: its own cause; the years it names do not say the installed one is outside
        # them (a later Visual Studio 2022 update is refused too), so the range leads
        "windows.msvc-cuda-version-mismatch",
        "Build with Visual Studio 2017 to 2022 ",
        None,
    ),
    (
        "ValueError: The model's max seq len (32768) is larger than the maximum number of tokens "
        "that can be stored in KV cache (20608). Try increasing `gpu_memory_utilization` or "
        "decreasing `max_model_len` when initializing the engine.\n",
        "app.vllm.kv-cache-insufficient",
        "Set max_model_len to 20608 or less",
        "vllm serve MODEL --max-model-len 20608",
    ),
]


@pytest.mark.parametrize(("text", "finding_id", "summary", "command"), KNOB_IN_MESSAGE)
def test_a_fix_names_the_knob_the_message_states(text, finding_id, summary, command) -> None:
    finding = triage_text(text).findings[0]
    assert finding.id == finding_id
    assert finding.fixes[0].summary.startswith(summary)
    assert command is None or command in finding.fixes[0].commands


def test_an_nvcc_message_without_the_gcc_number_keeps_the_general_fix() -> None:
    other = triage_text("nvcc fatal: error -- unsupported GNU version\n").findings[0]
    assert other.fixes[0].summary.startswith("Install a gcc the CUDA release supports")


def _corpus_body(name: str) -> str:
    """A real report of the triage corpus's training part (its thread URL in the header)."""
    path = Path(__file__).resolve().parent / "triage_corpus" / "train" / name
    return path.read_text(encoding="utf-8").split("#! ---\n", 1)[1]


def test_real_wrapped_tensorflow_cudnn_report_names_the_compiled_cudnn() -> None:
    # smallcorgi/Faster-RCNN_TF#12: "... CuDNN library: 5006 \n(compatibility version 5000) but
    # source was compiled with 5103"; the thread's fix was cuDNN 5.1
    findings = triage_text(_corpus_body("en-2308-faster-rcnn-tf-cudnn-5.0-vs-5.1.txt")).findings
    assert findings[0].id == "cuda.cudnn-mismatch"
    assert findings[0].fixes[0].summary.startswith("TensorFlow / Paddle: install cuDNN 5.1.3 ")


def test_real_kubeflow_pod_without_a_driver_reaches_the_runtime_class() -> None:
    # kubeflow/notebooks#68: no NVIDIA driver found in the notebook pod; the fix was
    # runtimeClassName: nvidia
    ids = [
        f.id
        for f in triage_text(
            _corpus_body("en-2303-kubeflow-notebook-no-runtimeclass.txt")
        ).findings[:3]
    ]
    assert "k8s.runtimeclass-not-set" in ids
