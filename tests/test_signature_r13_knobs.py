"""Round 13 sweep of messages that state the version the fix turns on (checks/signatures/{extensions,python_env}.toml
and the entries it touched): each message, verbatim from its thread, reaches the confirmed cause
first, and one of that cause's fixes names the knob the confirmed fix turned."""

from __future__ import annotations

import pytest
from triage_lines import assert_first_naming, fixes_text

from envdoctor.triage_engine import triage_text

# (thread, message, the finding id first, a string one of its fixes' commands or summaries holds)
KNOB = [
    (
        "https://github.com/wuhuikai/FastFCN/issues/37",
        "AssertionError: \nThe NVIDIA driver on your system is too old (found version 9000).\n"
        "Please update your GPU driver by downloading and installing a new\n"
        "version from the URL: http://www.nvidia.com/Download/index.aspx\n"
        "Alternatively, go to: https://pytorch.org to install\n"
        "a PyTorch version that has been compiled with your version\nof the CUDA driver.",
        "torch.driver-too-old",
        "CUDA 9.0",
    ),
    (
        "https://github.com/tensorflow/tensorflow/issues/41091",
        "Loaded runtime CuDNN library: 7.3.1 but source was compiled with: 7.5.0.  CuDNN library "
        "major and minor version needs to match or have higher minor version in case of CuDNN 7.0 "
        "or later version. If using a binary install, upgrade your CuDNN library.  If building from "
        "sources, make sure the library loaded at runtime is compatible with the version specified "
        "during compile configuration.",
        "cuda.cudnn-mismatch",
        "install cuDNN 7.5.0 ",
    ),
    (
        "https://github.com/bytedeco/javacpp-presets/issues/565",
        "Loaded runtime CuDNN library: 7005 (compatibility version 7000) but source was compiled "
        "with 7101 (compatibility version 7100)",
        "cuda.cudnn-mismatch",
        "cuDNN 7.1.1",
    ),
    (
        "https://github.com/vietanhdev/anylabeling/issues/110",
        "ImportError: /lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.29' not found "
        "(required by /home/zk/conda/envs/anylabeling/lib/python3.8/site-packages/matplotlib/"
        "_path.cpython-38-x86_64-linux-gnu.so)",
        "python.libstdcxx-too-old",
        "conda install -c conda-forge libstdcxx-ng libgcc-ng",
    ),
    (
        "https://github.com/NVlabs/BundleSDF/issues/185",
        "ImportError: /usr/lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.29' not found "
        "(required by /opt/conda/envs/py38/lib/python3.8/site-packages/scipy/spatial/"
        "_ckdtree.cpython-38-x86_64-linux-gnu.so)",
        "python.libstdcxx-too-old",
        "apt-get install -y libstdc++6",
    ),
    (
        "https://github.com/ContinuumIO/anaconda-issues/issues/5191",
        "OSError: /opt/anaconda3/bin/../lib/libstdc++.so.6: version `CXXABI_1.3.9' not found "
        "(required by /opt/anaconda3/lib/python3.6/site-packages/porechop/cpp_functions.so)",
        "python.libstdcxx-too-old",
        "libgcc-ng",
    ),
    (
        "https://github.com/nodesource/distributions/issues/1377",
        "node: /lib/x86_64-linux-gnu/libm.so.6: version `GLIBC_2.27' not found (required by node)\n"
        "node: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.25' not found (required by node)\n"
        "node: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.28' not found (required by node)",
        "python.glibc-too-old",
        "nvm install 16",
    ),
    (
        "https://github.com/volta-cli/volta/issues/1371",
        "#8 0.344 node: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.28' not found "
        "(required by node)",
        "python.glibc-too-old",
        "nvm install 16",
    ),
    (
        "https://github.com/ztxz16/fastllm/issues/367",
        "nvcc fatal   : Unsupported gpu architecture 'compute_89'\n"
        "make[2]: *** [CMakeFiles/fastllm_tools.dir/build.make:273: CMakeFiles/fastllm_tools.dir/"
        "src/devices/cuda/fastllm-cuda.cu.o] Error 1",
        "cuda.nvcc-too-old-for-gpu",
        "cuda-11.8",
    ),
    (
        "https://github.com/ggml-org/llama.cpp/issues/9205",
        "#error -- unsupported GNU version! gcc versions later than 13 are not supported! The nvcc "
        "flag '-allow-unsupported-compiler' can be used to override this version check; however, "
        "using an unsupported host compiler may cause compilation failure or incorrect run time "
        "execution. Use at your own risk.",
        "cuda.host-compiler-unsupported",
        "gcc-13",
    ),
    (
        "https://github.com/tianzhi0549/FCOS/issues/37",
        "/usr/local/cuda-9.0/include/crt/host_config.h:119:2: error: #error -- unsupported GNU "
        "version! gcc versions later than 6 are not supported! #error -- unsupported GNU version! "
        "gcc versions later than 6",
        "cuda.host-compiler-unsupported",
        "gcc-6",
    ),
    (
        "https://github.com/facebookarchive/caffe2/issues/442",
        "/usr/local/cuda-8.0/include/host_config.h:119:2: error: #error -- unsupported GNU version! "
        "gcc versions later than 5 are not supported!\n"
        " #error -- unsupported GNU version! gcc versions later than 5 are not supported!",
        "cuda.host-compiler-unsupported",
        "gcc-5",
    ),
    (
        "https://github.com/kodenii/Responsible-Visual-Editing/issues/4",
        " raise RuntimeError(CUDA_MISMATCH_MESSAGE.format(cuda_str_version, torch.version.cuda))\n"
        "RuntimeError: \nThe detected CUDA version (12.4) mismatches the version that was used to "
        "compile\nPyTorch (11.8). Please make sure to use the same CUDA versions.",
        "cuda.toolkits-disagree",
        "cuda-11.8",
    ),
    (
        "https://github.com/facebookresearch/xformers/issues/800",
        "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
        "    PyTorch 2.1.0+cu121 with CUDA 1201 (you have 2.1.0+cu118)\n"
        "    Python  3.8.18 (you have 3.8.5)\n"
        "  Please reinstall xformers (see https://github.com/facebookresearch/xformers#installing-xformers)",
        "torch.extension-abi-mismatch",
        "xformers==",
    ),
    (
        "https://github.com/wudongming97/Prompt4Driving/issues/5",
        "RuntimeError: FlashAttention is only supported on CUDA 11.7 and above.  Note: make sure "
        "nvcc has a supported version by running nvcc -V.\n\n\ntorch.__version__  = 1.9.0+cu111",
        "flashattn.not-installable",
        "CUDA 11.7+",
    ),
    (
        "https://github.com/openai/consistency_models/issues/23",
        "RuntimeError: FlashAttention is only supported on CUDA 11 and above",
        "flashattn.not-installable",
        "export CUDA_HOME=/usr/local/cuda-<torch.version.cuda>",
    ),
    (
        "https://github.com/RistoranteRist/FastFlow/issues/4",
        "RuntimeError: CUDA out of memory. Tried to allocate 74.00 MiB (GPU 0; 11.91 GiB total "
        "capacity; 10.79 GiB already allocated; 12.94 MiB free; 11.21 GiB reserved in total by "
        "PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid "
        "fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF",
        "memory.out-of-memory",
        "batch size",
    ),
    (
        "https://github.com/xingyizhou/CenterNet/issues/119",
        "RuntimeError: cuDNN version mismatch: PyTorch was compiled against 7102 but linked against 7605",
        "cuda.cudnn-mismatch",
        "unset LD_LIBRARY_PATH",
    ),
    (
        "https://github.com/uzh-rpg/rpg_open_remode/issues/9",
        "./all_tests\nRunning executable: ./all_tests\nChecking available CUDA-capable devices...\n"
        "ERROR: cudaGetDeviceCount CUDA driver version is insufficient for CUDA runtime version",
        "cuda.toolkit-newer-than-driver",
        "NVIDIA driver",
    ),
    (
        "https://github.com/JuergenFleiss/atrain_core/issues/10",
        "A module that was compiled using NumPy 1.x cannot be run in\n"
        "NumPy 2.0.0 as it may crash. To support both 1.x and 2.x\n"
        "versions of NumPy, modules must be compiled with NumPy 2.0.\n"
        "Some module may need to rebuild instead e.g. with 'pybind11>=2.12'.",
        "python.numpy2-abi",
        "pip install 'numpy<2'",
    ),
    (
        "https://github.com/open-mmlab/mmcv/issues/1558",
        "  NVIDIA GeForce RTX 3090 with CUDA capability sm_86 is not compatible with the current "
        "PyTorch installation.\n  The current PyTorch install supports CUDA capabilities sm_37 sm_50 "
        "sm_60 sm_70 sm_75.\n  If you want to use the NVIDIA GeForce RTX 3090 GPU with PyTorch, "
        "please check the instructions at https://pytorch.org/get-started/locally/",
        "torch.gpu-too-new-for-build",
        "sm_86",
    ),
    (
        "https://github.com/AkaliKong/MiniOneRec/issues/5",
        "ERROR: Package 'click' requires a different Python: 3.9.19 not in '>=3.10'",
        "python.no-matching-wheel",
        ">=3.10",
    ),
    (
        "https://github.com/s9roll7/animatediff-cli-prompt-travel/issues/87",
        "ERROR: pip's dependency resolver does not currently take into account all the packages "
        "that are installed. This behaviour is the source of the following dependency conflicts.\n"
        "xformers 0.0.22.post7 requires torch==2.1.0, but you have torch 2.0.1+cu118 which is "
        "incompatible.",
        "torch.extension-abi-mismatch",
        'pip install "torch==2.1.0"',
    ),
    (
        "https://github.com/lewandofskee/DiAD/issues/49",
        "xformers 0.0.18 requires torch==2.0.0, but you'll have torch 1.12.1 which is incompatible.",
        "torch.extension-abi-mismatch",
        'pip install "torch==2.0.0"',
    ),
    (
        "https://github.com/facebookresearch/maskrcnn-benchmark/issues/891",
        "ImportError: /home/ltc/anaconda3/envs/maskrcnn_benchmark_/lib/python3.6/site-packages/"
        "torchvision/_C.cpython-36m-x86_64-linux-gnu.so: undefined symbol: _ZN3c106Device8validateEv",
        "torch.companion-mismatch",
        "torchvision",
    ),
]


@pytest.mark.parametrize(
    ("url", "text", "finding_id", "knob"), KNOB, ids=[k[0].split("github.com/")[1] for k in KNOB]
)
def test_a_message_stating_its_knob_gets_its_cause_and_a_fix_naming_it(
    url, text, finding_id, knob
) -> None:
    assert_first_naming(text, finding_id, knob, url)


def test_the_titles_carry_the_version_the_message_states() -> None:
    flash = triage_text(KNOB[14][1] + "\n").findings[0]
    assert (
        flash.title == "flash-attn's build needs CUDA 11.7 or newer, but the nvcc it found is older"
    )
    node = triage_text(KNOB[7][1] + "\n").findings[0]
    assert node.title == "This Node.js binary needs glibc 2.28, newer than this system's"
    # the XLA line's compiled version is captured without the sentence's full stop
    jax = triage_text(
        "E external/xla/xla/stream_executor/cuda/cuda_dnn.cc:439] Loaded runtime CuDNN library: "
        "8.5.0 but source was compiled with: 8.6.0.  CuDNN library needs to have matching major "
        "version and equal or higher minor version.\n"
    ).findings[0]
    assert jax.id == "jax.cudnn-too-old"
    assert "(8.6.0)" in jax.title


@pytest.mark.parametrize(
    ("text", "not_id"),
    [
        # a Python wheel's glibc is not Node's (https://github.com/ali-vilab/videocomposer/issues/18)
        (
            "ImportError: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.34' not found (required "
            "by /opt/venv/lib/python3.10/site-packages/ctranslate2.libs/libctranslate2-fc6d8b9b.so.4.5.0)",
            "nvm install 16",
        ),
        # flash-attn on a pre-Ampere GPU is the GPU, not the build's nvcc
        (
            "RuntimeError: FlashAttention only supports Ampere GPUs or newer.",
            "flash-attn's build needs CUDA",
        ),
        # a conda environment's own libstdc++ is not the system's: no apt fix for it
        # (https://github.com/cvg/pixel-perfect-sfm/issues/11)
        (
            "ImportError: /home/kevin/anaconda3/envs/pixSfM/lib/libstdc++.so.6: version "
            "`GLIBCXX_3.4.29' not found (required by /home/kevin/pixel-perfect-sfm/pixsfm/"
            "_pixsfm.cpython-38-x86_64-linux-gnu.so)",
            "ubuntu-toolchain-r",
        ),
    ],
)
def test_a_look_alike_does_not_get_the_new_fix(text, not_id) -> None:
    finding = triage_text(text + "\n").findings[0]
    assert not_id not in finding.title + fixes_text(finding)


def test_a_jax_paste_keeps_its_cudnn_cause() -> None:
    """A JAX paste with the same cuDNN 8 line still reaches jax.cudnn-too-old (the cuDNN 7 refute
    is for TensorFlow 1.x / 2.x era builds)."""
    text = (
        "jax 0.4.20\nE external/xla/xla/stream_executor/cuda/cuda_dnn.cc:439] Loaded runtime CuDNN "
        "library: 8.5.0 but source was compiled with: 8.6.0.\n"
    )
    assert triage_text(text).findings[0].id == "jax.cudnn-too-old"


def test_pytorch_cudnn_codes_are_named_as_releases_in_a_pytorch_fix() -> None:
    """PyTorch prints cuDNN as a version code (7102 = 7.1.2) or a tuple: the fix names the
    releases, and the TensorFlow / Paddle fix is not offered for a PyTorch message
    (https://github.com/xingyizhou/CenterNet/issues/119)."""
    text = "RuntimeError: cuDNN version mismatch: PyTorch was compiled against 7102 but linked against 7605"
    finding = triage_text(text + "\n").findings[0]
    assert finding.id == "cuda.cudnn-mismatch"
    texts = fixes_text(finding)
    assert "cuDNN 7.1.2 but loaded 7.6.5" in texts
    assert "7102" not in texts and "TensorFlow / Paddle" not in texts


def test_the_gpu_name_of_a_capability_warning_stops_at_its_prefix() -> None:
    """An issue title (or a log line) puts "UserWarning:" and more before the GPU's name: the
    title names the GPU alone
    (https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/16884)."""
    text = (
        "[Bug]: UserWarning: NVIDIA GeForce RTX 5070 Ti with CUDA capability sm_120 is not "
        "compatible with the current PyTorch installation. The current PyTorch install supports "
        "CUDA capabilities sm_50 sm_60 s"
    )
    finding = triage_text(text + "\n").findings[0]
    assert finding.id == "torch.gpu-too-new-for-build"
    assert "kernels for NVIDIA GeForce RTX 5070 Ti (sm_120)" in finding.title, finding.title
