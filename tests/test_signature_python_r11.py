"""The Python layer beneath the ML stack (checks/signatures/r11_python.toml): NumPy 2 against a
module built for NumPy 1.x, a wheel built for a newer glibc, pip's "requires a different Python".
Each fix names what the message states."""

from __future__ import annotations

from envdoctor.triage_engine import triage_text


def test_a_module_built_for_numpy_1_under_numpy_2_pins_numpy_below_2() -> None:
    text = (
        "A module that was compiled using NumPy 1.x cannot be run in\n"
        "NumPy 2.1.3 as it may crash. To support both 1.x and 2.x\n"
        "versions of NumPy, modules must be compiled with NumPy 2.0.\n"
        '  File "/opt/venv/lib/python3.11/site-packages/torch/__init__.py", line 1477, in <module>\n'
        "UserWarning: Failed to initialize NumPy: _ARRAY_API not found\n"
    )
    finding = triage_text(text).findings[0]
    assert finding.id == "python.numpy2-abi"
    assert "pip install 'numpy<2'" in finding.fixes[0].commands


def test_a_wheel_for_a_newer_glibc_names_the_glibc_and_the_library() -> None:
    text = (
        "ImportError: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.34' not found (required by "
        "/opt/venv/lib/python3.10/site-packages/ctranslate2.libs/libctranslate2-fc6d8b9b.so.4.5.0)\n"
    )
    finding = triage_text(text).findings[0]
    assert finding.id == "python.glibc-too-old"
    assert (
        finding.title
        == "libctranslate2-fc6d8b9b.so.4.5.0 needs glibc 2.34, newer than this system's"
    )
    assert "2.34 or newer" in finding.fixes[0].summary
    assert "ldd --version" in finding.fixes[0].commands


def test_a_jetson_glibc_message_stays_the_jetpack_cause() -> None:
    text = (
        "ImportError: /lib/aarch64-linux-gnu/libc.so.6: version `GLIBC_2.32' not found (required "
        "by /usr/local/lib/python3.8/dist-packages/onnxruntime/capi/onnxruntime_pybind11_state.so)"
        "\nJetson Nano, JetPack 4.6 (L4T R32.7.1)\n"
    )
    assert "python.glibc-too-old" not in [f.id for f in triage_text(text).findings]


def test_requires_a_different_python_names_the_range_and_the_interpreter() -> None:
    finding = triage_text(
        "ERROR: Package 'vllm' requires a different Python: 3.8.10 not in '>=3.9'\n"
    )
    first = finding.findings[0]
    assert first.id == "python.no-matching-wheel"
    assert first.fixes[0].summary.startswith("Create an environment with a Python in >=3.9")


def test_numpy_1_era_dtype_size_warning_is_not_the_numpy_2_abi() -> None:
    # a harmless RuntimeWarning of NumPy 1.x days (a 2018 Python 3.6 log), not NumPy 2's ValueError
    text = (
        "/home/u/venv/lib/python3.6/importlib/_bootstrap.py:219: RuntimeWarning: numpy.dtype size "
        "changed, may indicate binary incompatibility. Expected 96, got 88\n"
    )
    assert "python.numpy2-abi" not in [f.id for f in triage_text(text).findings]
    numpy2 = (
        "ValueError: numpy.dtype size changed, may indicate binary incompatibility. Expected 96 from "
        "C header, got 88 from PyObject\n"
    )
    assert triage_text(numpy2).findings[0].id == "python.numpy2-abi"


def test_common_messages_of_the_python_and_system_layers_get_their_own_cause() -> None:
    cases = {
        "ImportError: libGL.so.1: cannot open shared object file: No such file or directory": (
            "python.opencv-libgl-missing",
            "pip install opencv-python-headless",
        ),
        "AttributeError: module 'numpy' has no attribute 'int'.": (
            "python.numpy-alias-removed",
            "pip install 'numpy<1.24'",
        ),
        "RuntimeError: Ninja is required to load C++ extensions": (
            "torch.extension-build-tools-missing",
            "pip install ninja",
        ),
        "W: GPG error: https://developer.download.nvidia.com/compute/cuda/repos/ubuntu2204/x86_64"
        "  InRelease: The following signatures couldn't be verified because the public key is not"
        " available: NO_PUBKEY A4B469963BF863CC": (
            "cuda.apt-repo-key-rotated",
            "wget https://developer.download.nvidia.com/compute/cuda/repos/ubuntu2204/x86_64/"
            "cuda-keyring_1.1-1_all.deb",
        ),
    }
    for text, (finding_id, command) in cases.items():
        finding = triage_text(text + "\n").findings[0]
        assert finding.id == finding_id, text
        assert command in [c for fix in finding.fixes for c in fix.commands], text
    alias = triage_text("AttributeError: module 'numpy' has no attribute 'int'.\n").findings[0]
    assert alias.title == "The code uses np.int, an alias NumPy 1.24 removed"


def test_cuda_in_a_forked_child_asks_for_the_spawn_method() -> None:
    text = (
        "RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with "
        "multiprocessing, you must use the 'spawn' start method\n"
    )
    finding = triage_text(text).findings[0]
    assert finding.id == "torch.cuda-fork-after-init"
    assert "mp.set_start_method('spawn', force=True)" in finding.fixes[0].commands[0]


def test_the_lazy_init_device_assert_is_a_device_index_beyond_the_visible_gpus() -> None:
    text = (
        "torch.cuda.DeferredCudaCallError: CUDA call failed lazily at initialization with error: "
        "device >= 0 && device < num_gpus INTERNAL ASSERT FAILED at "
        '"../aten/src/ATen/cuda/CUDAContext.cpp":50\n'
    )
    assert triage_text(text).findings[0].id == "cuda.device-ordinal-exceeds-gpu-count"


def test_disk_full_conflicts_and_open_files_name_their_knob() -> None:
    disk = "ERROR: Could not install packages due to an OSError: [Errno 28] No space left on device"
    assert triage_text(disk + "\n").findings[0].id == "system.disk-full"
    shm = "RuntimeError: unable to write to file </torch_51_3041>: No space left on device (28)"
    assert "system.disk-full" not in [f.id for f in triage_text(shm + "\n").findings]
    conflict = (
        "ERROR: pip's dependency resolver does not currently take into account all the packages "
        "that are installed. This behaviour is the source of the following dependency conflicts.\n"
        "transformers 4.40.0 requires tokenizers<0.20,>=0.19, but you have tokenizers 0.21.0 which "
        "is incompatible.\n"
    )
    finding = triage_text(conflict).findings[0]
    assert finding.id == "python.dependency-conflict"
    assert "pip install 'tokenizers<0.20,>=0.19'" in finding.fixes[0].commands
    files = triage_text("OSError: [Errno 24] Too many open files\n").findings[0]
    assert files.id == "torch.too-many-open-files"
    assert "ulimit -n 65535" in files.fixes[0].commands
