"""The Python and system layers beneath the ML stack (checks/signatures/{python_env,torch}.toml and
{cuda,platform}.toml): each common message reaches its own cause first, and that cause's fixes name
the knob the message states."""

from __future__ import annotations

import pytest

from envdoctor.triage_engine import triage_text

# (message, the finding id first, a command one of its fixes gives)
KNOB = [
    (
        "A module that was compiled using NumPy 1.x cannot be run in\n"
        "NumPy 2.1.3 as it may crash. To support both 1.x and 2.x\n"
        "versions of NumPy, modules must be compiled with NumPy 2.0.\n"
        '  File "/opt/venv/lib/python3.11/site-packages/torch/__init__.py", line 1477, in <module>\n'
        "UserWarning: Failed to initialize NumPy: _ARRAY_API not found",
        "python.numpy2-abi",
        "pip install 'numpy<2'",
    ),
    (
        "ValueError: numpy.dtype size changed, may indicate binary incompatibility. Expected 96 from "
        "C header, got 88 from PyObject",
        "python.numpy2-abi",
        "pip install 'numpy<2'",
    ),
    (
        "ImportError: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.34' not found (required by "
        "/opt/venv/lib/python3.10/site-packages/ctranslate2.libs/libctranslate2-fc6d8b9b.so.4.5.0)",
        "python.glibc-too-old",
        "ldd --version",
    ),
    (
        "ERROR: Package 'vllm' requires a different Python: 3.8.10 not in '>=3.9'",
        "python.no-matching-wheel",
        "pip index versions vllm",
    ),
    (
        "ImportError: libGL.so.1: cannot open shared object file: No such file or directory",
        "python.opencv-libgl-missing",
        "pip install opencv-python-headless",
    ),
    (
        "AttributeError: module 'numpy' has no attribute 'int'.",
        "python.numpy-alias-removed",
        "pip install 'numpy<1.24'",  # the second fix: the first names the builtin to use instead
    ),
    (
        "RuntimeError: Ninja is required to load C++ extensions",
        "torch.extension-build-tools-missing",
        "pip install ninja",
    ),
    (
        "W: GPG error: https://developer.download.nvidia.com/compute/cuda/repos/ubuntu2204/x86_64"
        "  InRelease: The following signatures couldn't be verified because the public key is not"
        " available: NO_PUBKEY A4B469963BF863CC",
        "cuda.apt-repo-key-rotated",
        # the folder's own listing picks the keyring file: ubuntu1604 has only 1.0-1
        "wget -qO- https://developer.download.nvidia.com/compute/cuda/repos/ubuntu2204/x86_64/ |"
        " grep -o 'cuda-keyring_[0-9.-]*_all.deb' | sort -u",
    ),
    (
        "RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with "
        "multiprocessing, you must use the 'spawn' start method",
        "torch.cuda-fork-after-init",
        "import torch.multiprocessing as mp; mp.set_start_method('spawn', force=True)",
    ),
    (
        "ERROR: Could not install packages due to an OSError: [Errno 28] No space left on device",
        "system.disk-full",
        "df -h",
    ),
    (
        "ERROR: pip's dependency resolver does not currently take into account all the packages "
        "that are installed. This behaviour is the source of the following dependency conflicts.\n"
        "transformers 4.40.0 requires tokenizers<0.20,>=0.19, but you have tokenizers 0.21.0 which "
        "is incompatible.",
        "python.dependency-conflict",
        "pip install 'tokenizers<0.20,>=0.19'",
    ),
    (
        "OSError: [Errno 24] Too many open files",
        "torch.too-many-open-files",
        "ulimit -n 65535",
    ),
]


@pytest.mark.parametrize(("text", "finding_id", "command"), KNOB, ids=[k[1] for k in KNOB])
def test_a_common_message_gets_its_cause_and_the_knob_it_states(text, finding_id, command) -> None:
    finding = triage_text(text + "\n").findings[0]
    assert finding.id == finding_id
    which = 1 if finding_id == "python.numpy-alias-removed" else 0
    assert command in finding.fixes[which].commands


def test_the_titles_and_summaries_carry_what_the_message_names() -> None:
    glibc = triage_text(KNOB[2][0] + "\n").findings[0]
    assert (
        glibc.title == "libctranslate2-fc6d8b9b.so.4.5.0 needs glibc 2.34, newer than this system's"
    )
    assert "2.34 or newer" in glibc.fixes[0].summary
    python = triage_text(KNOB[3][0] + "\n").findings[0]
    assert python.fixes[0].summary.startswith("Create an environment with a Python in >=3.9")
    alias = triage_text(KNOB[5][0] + "\n").findings[0]
    assert alias.title == "The code uses np.int, an alias NumPy 1.24 removed"


@pytest.mark.parametrize(
    ("text", "not_id"),
    [
        # a Jetson's glibc is its JetPack's (jetson.jetpack-too-old)
        (
            "ImportError: /lib/aarch64-linux-gnu/libc.so.6: version `GLIBC_2.32' not found "
            "(required by /usr/local/lib/python3.8/dist-packages/onnxruntime/capi/"
            "onnxruntime_pybind11_state.so)\nJetson Nano, JetPack 4.6 (L4T R32.7.1)",
            "python.glibc-too-old",
        ),
        # a harmless RuntimeWarning of NumPy 1.x days (a 2018 Python 3.6 log), not NumPy 2's
        (
            "/home/u/venv/lib/python3.6/importlib/_bootstrap.py:219: RuntimeWarning: numpy.dtype "
            "size changed, may indicate binary incompatibility. Expected 96, got 88",
            "python.numpy2-abi",
        ),
        # shared memory filling up is the shm cause, not the disk
        (
            "RuntimeError: unable to write to file </torch_51_3041>: No space left on device (28)",
            "system.disk-full",
        ),
    ],
)
def test_a_look_alike_message_is_not_read_as_the_cause(text, not_id) -> None:
    assert not_id not in [f.id for f in triage_text(text + "\n").findings]


def test_the_lazy_init_device_assert_is_a_device_index_beyond_the_visible_gpus() -> None:
    text = (
        "torch.cuda.DeferredCudaCallError: CUDA call failed lazily at initialization with error: "
        "device >= 0 && device < num_gpus INTERNAL ASSERT FAILED at "
        '"../aten/src/ATen/cuda/CUDAContext.cpp":50\n'
    )
    assert triage_text(text).findings[0].id == "cuda.device-ordinal-exceeds-gpu-count"
