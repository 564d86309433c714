"""Round 16 libcuda sweep (checks/signatures/nvidia_driver.toml): the driver's own libraries
(libcuda.so.1, libnvidia-ml.so) not found outside containers and WSL reach the machine's cause
(no driver or no GPU, the driver's CUDA library package left out, the unversioned link missing)
with fixes naming the package, the GPU node or the link; containers and WSL keep their own causes.
Each row is verbatim from the thread it cites."""

from __future__ import annotations

import pytest

from tests.triage_lines import assert_first_naming, assert_not_first

# (message, the finding id first, a knob its fixes name, the thread)
KNOB = [
    (
        # fixed by logging in to the cluster's server that has the GPUs
        "OSError: libcuda.so.1: cannot open shared object file: No such file or directory",
        "nvidia.no-driver-bound",
        "srun --gres=gpu:1",
        "https://github.com/apache/mxnet/issues/6787",
    ),
    (
        "I'm on a multi-machine cluster where not all the machines have gpus. Previously with 0.11 I "
        "could use one tensorflow-gpu installation (either from source or from the provided wheel) on "
        "all the machines. I've now upgraded to 1.1, and tensorflow crashes at import on the non-gpu "
        "machines:\n\n    ImportError: libcuda.so.1: cannot open shared object file: No such file or "
        "directory",
        "nvidia.no-driver-bound",
        "tensorflow-cpu",
        "https://github.com/tensorflow/tensorflow/issues/9969",
    ),
    (
        "I just installed molgrad on a Linux VM w/o any GPU.\n\nI'm running into this error:\n"
        "`OSError: libcuda.so.1: cannot open shared object file: No such file or directory`",
        "nvidia.no-driver-bound",
        "CPU build",
        "https://github.com/josejimenezluna/molgrad/issues/7",
    ),
    (
        "./excavator: error while loading shared libraries: libcuda.so.1: cannot open shared object "
        "file: No such file or directory\nnuxhashd fails to run and when I run excavtor I get the "
        "libcuda.so.1 error.  I have installed the latest NVIDIA 460.39 driver on Fedora 32, and this "
        "library is not part of that package.",
        "nvidia.no-driver-bound",
        "xorg-x11-drv-nvidia-cuda",
        "https://github.com/YoRyan/nuxhash/issues/75",
    ),
    (
        "I tensorflow/stream_executor/dso_loader.cc:102] Couldn't open CUDA library libcuda.so.1. "
        "LD_LIBRARY_PATH: /usr/local/cuda-7.5/lib64:\n"
        "I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:160] hostname: Y700\n"
        "I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:185] libcuda reported version is: Not "
        "found: was unable to find libcuda.so DSO loaded into this program",
        "nvidia.no-driver-bound",
        "libcuda1-",
        "https://github.com/tensorflow/tensorflow/issues/4267",
    ),
    (
        "20210817 09:44:36 WARN: Can't load NVML library, dlopen(2): failed to load libnvidia-ml.so, "
        "libnvidia-ml.so: cannot open shared object file: No such file or directory\n"
        "20210817 09:44:36 WARN: NVML error, code 12\n"
        "20210817 09:44:36 WARN: Can't initialize NVML. GPU monitoring will be disabled.",
        "nvidia.unversioned-driver-link-missing",
        "ln -s libnvidia-ml.so.1",
        "https://github.com/trexminer/T-Rex/issues/577",
    ),
    (
        'called `Result::unwrap()` on an `Err` value: "Failed to initialize NVML: a libloading error '
        'occurred: libnvidia-ml.so: cannot open shared object file: No such file or directory"',
        "nvidia.unversioned-driver-link-missing",
        "ln -s libnvidia-ml.so.1",
        "https://github.com/WickedLukas/nvidia-tuner/issues/5",
    ),
    (
        # fixed by installing libnvidia-ml-dev (the unversioned link) in the container
        "I'm using Unraid, I updated to the new version and got this error: \n\n`20211025 09:25:39 "
        "WARN: Can't load NVML library, dlopen(25): failed to load libnvidia-ml.so, libnvidia-ml.so: "
        "cannot open shared object file: No such file or directory`",
        "nvidia.unversioned-driver-link-missing",
        "libnvidia-ml-dev",
        "https://github.com/PTRFRLL/nv-docker-trex/issues/31",
    ),
    (
        "Failed to dlopen libcuda.so in WSL environment\nRuntimeError: Failed to dlopen libcuda.so",
        "wsl.lib-not-on-loader-path",
        "/usr/lib/wsl/lib",
        "https://github.com/NVIDIA/cuda-python/issues/17",
    ),
    (
        "I was running mistral.rs on a WSL machine when I ran into this error:\n\n```\nthread 'main' "
        "panicked at /home/mbuehler/.cargo/registry/src/index.crates.io-6f17d22bba15001f/"
        "cudarc-0.11.5/src/driver/sys/mod.rs:61:9:\nUnable to find cuda lib under the names "
        '["cuda", "nvcuda"]. Please open GitHub issue.\n```',
        "wsl.lib-not-on-loader-path",
        "LD_LIBRARY_PATH",
        "https://github.com/chelsea0x3b/cudarc/issues/255",
    ),
]

# (a message of another cause, the cause it must not reach first, the thread)
LOOKALIKE = [
    (
        # a container started without the GPU: the container's causes, not the host's driver
        "Docker llama-cpp libcuda.so.1: cannot open shared object file: No such file or directory\n"
        "RuntimeError: Failed to load shared library "
        "'/home/worker/app/.venv/lib/python3.11/site-packages/llama_cpp/libllama.so': libcuda.so.1: "
        "cannot open shared object file: No such file or directory",
        "nvidia.no-driver-bound",
        "https://github.com/abetlen/llama-cpp-python/issues/1169",
    ),
    (
        # a library of the container toolkit not in the loader cache: not the driver's NVML link
        "nvidia-container-cli: error while loading shared libraries: libnvidia-container.so.1: cannot "
        "open shared object file: No such file or directory",
        "nvidia.unversioned-driver-link-missing",
        "https://github.com/NVIDIA/libnvidia-container/issues/2",
    ),
    (
        "Failed to dlopen libcuda.so in WSL environment\nRuntimeError: Failed to dlopen libcuda.so",
        "nvidia.no-driver-bound",
        "https://github.com/NVIDIA/cuda-python/issues/17",
    ),
]


@pytest.mark.parametrize(("text", "finding_id", "knob", "source"), KNOB)
def test_libcuda_message_reaches_its_cause_with_the_knob(text, finding_id, knob, source):
    assert_first_naming(text, finding_id, knob, source)


@pytest.mark.parametrize(("text", "tempting", "source"), LOOKALIKE)
def test_lookalike_is_not_caught(text, tempting, source):
    assert_not_first(text, tempting, source, may_be_empty=True)
