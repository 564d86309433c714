"""Round 16 sweep of conda environments and the CUDA toolkit / nvcc
(checks/signatures/{windows,cuda}.toml): conda solving the CPU build of PyTorch (cpuonly,
pytorch-mutex cpu), nvcc finding no host compiler on Windows (cl.exe), an nvcc older than the
build flags PyTorch's ninja build passes, and the common nvcc / conda messages the sweep checked
that already reached their cause. Each message is verbatim from its thread; the finding first
is the cause the thread confirmed, and one of its fixes names the knob the confirmed fix turned."""

from __future__ import annotations

import pytest
from triage_lines import assert_first_naming, assert_not_first

# (thread, message, the finding id first, a string one of its fixes' commands or summaries holds)
KNOB = [
    (
        # merged fix: build with gcc 11 for CUDA 11.8
        "https://github.com/vectorch-ai/ScaleLLM/pull/185",
        "/usr/local/cuda/bin/../targets/x86_64-linux/include/crt/host_config.h:132:2: error: #error -- unsupported GNU version! gcc versions later than 11 are not supported! The nvcc flag '-allow-unsupported-compiler' can be used to override this version check; however, using an unsupported host compiler may cause compilation failure or incorrect run time execution. Use at your own risk.",
        "cuda.host-compiler-unsupported",
        "gcc-11",
    ),
    (
        # maintainer: the CUDA installed does not support compute_86 (CUDA 11.1 added it)
        "https://github.com/mapillary/inplace_abn/issues/192",
        "nvcc fatal   : Unsupported gpu architecture 'compute_86'",
        "cuda.nvcc-too-old-for-gpu",
        "11.1",
    ),
    (
        # reporter: replaced the conda env's libstdc++.so.6 with the system's libstdc++.so.6.0.30
        "https://github.com/ztxz16/fastllm/issues/301",
        "OSError: /home/suser/.conda/envs/llm/bin/../lib/libstdc++.so.6: version `GLIBCXX_3.4.30' not found",
        "python.libstdcxx-too-old",
        "libstdc++",
    ),
    (
        # reporter (Chinese): nvcc 11 builds it, nvcc 10 does not (the flag is newer than that nvcc)
        "https://github.com/levihsu/OOTDiffusion/issues/65",
        "编译报错 nvcc fatal   : Unknown option '-generate-dependencies-with-compile'",
        "cuda.toolkits-disagree",
        "CUDA_HOME",
    ),
    (
        # maintainer: put the MSVC compiler (cl.exe) on PATH; nvcc needs a host C++ compiler
        "https://github.com/elda27/pydrr/issues/6",
        "pycuda.driver.CompileError:\ncommand: nvcc --cubin --ptxas-options=-v -arch sm_61 -m64 ...\nstdout:\nnvcc fatal   : Cannot find compiler 'cl.exe' in PATH",
        "windows.msvc-build-tools-missing",
        "cl.exe",
    ),
    (
        # maintainer (labelled has-workaround): check for the cpuonly package and uninstall it
        "https://github.com/pytorch/pytorch/issues/67108",
        "    The following NEW packages will be INSTALLED:\n```\n    pytorch            pytorch/win-64::pytorch-1.10.0-py3.8_cpu_0\n    torchaudio         pytorch/win-64::torchaudio-0.10.0-py38_cpu\n    torchvision        pytorch/win-64::torchvision-0.11.1-py38_cpu\n```",
        "torch.cpu-build-on-gpu-host",
        "cpuonly",
    ),
]

# (thread, a real message of another cause, the cause a new pattern could wrongly rank first)
LOOKALIKE = [
    (
        # the same thread's expected CUDA builds in conda's download table: not a CPU build
        "https://github.com/pytorch/pytorch/issues/67108",
        "    pytorch-1.10.0             |       py3.8_cuda11.3_cudnn8.2.0_0        1.21 GB  pytorch\n    torchaudio-0.10.0        |       py38_cu113         4.5 MB  pytorch\n    torchvision-0.11.1        |       py38_cu113        30.4 MB  pytorch",
        "torch.cpu-build-on-gpu-host",
    ),
    (
        # nvcc is given the dependency flag and knows it: the paste's command line is no error
        "https://github.com/erikwijmans/Pointnet2_PyTorch/issues/141",
        "  [2/9] /usr/local/cuda/bin/nvcc --generate-dependencies-with-compile --dependency-output /tmp/pip-req-build-pswb_xue/build/temp.linux-x86_64-3.8/pointnet2_ops/_ext-src/src/interpolate_gpu.o.d -I/tmp/pip-req-build-pswb_xue/pointnet2_ops/_ext-src/include",
        "cuda.toolkits-disagree",
    ),
    (
        # Visual Studio is there but too new for this nvcc: the version check, not a missing cl.exe
        "https://github.com/bycloudai/instant-ngp-Windows/issues/14",
        "Visual Studio Community 2022 v17.10 throws up an error stating only VS 2017 to 2022 is supported.",
        "windows.msvc-build-tools-missing",
    ),
]


@pytest.mark.parametrize(("source", "message", "finding_id", "knob"), KNOB)
def test_message_reaches_confirmed_cause(
    source: str, message: str, finding_id: str, knob: str
) -> None:
    assert_first_naming(message, finding_id, knob, source)


@pytest.mark.parametrize(("source", "message", "tempting"), LOOKALIKE)
def test_lookalike_is_not_caught(source: str, message: str, tempting: str) -> None:
    assert_not_first(message, tempting, source, may_be_empty=True)
