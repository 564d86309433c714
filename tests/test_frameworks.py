"""python.frameworks (probe and pasted lists) and the TensorFlow / JAX / CuPy checks."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_torch_build import LINUX_X86, write_dist
from test_torch_checks import nvidia_from, one, python_groups, run, torch_group
from test_torch_packages import corpus_body

from envdoctor.ingest import framework_metadata, pip_list
from envdoctor.matrix.loader import load_bundled
from envdoctor.model.snapshot import Snapshot, collected
from envdoctor.probes import frameworks
from envdoctor.target import ml_metadata_script

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "python"
PY = "/home/user/venv/bin/python"

# tensorflow/python/platform/build_info.py as gen_build_info.py writes it (tensorflow@2acc3407),
# with the pairs of a real tf.sysconfig.get_build_info() output (see fixtures/python/SOURCES.md)
TF_BUILD_INFO = '''
# Copyright 2020 The TensorFlow Authors. All Rights Reserved.
"""Auto-generated module providing information about the build."""
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import collections

build_info = collections.OrderedDict([('cpu_compiler', 'clang 18'), ('cuda_compute_capabilities', ['sm_60', 'sm_70', 'sm_80', 'sm_89', 'compute_90']), ('cuda_version', '12.5.1'), ('cudnn_version', '9'), ('is_cuda_build', True), ('is_rocm_build', False), ('is_tensorrt_build', False)])
'''


@pytest.fixture(scope="module")
def ms():
    return load_bundled()


def facts(site: Path) -> dict:
    return framework_metadata.frameworks_facts(
        ml_metadata_script.describe([str(site)])["distributions"], LINUX_X86
    )


def group(packages: dict):
    return collected("python.frameworks", "probe:frameworks", {"packages": packages})


# ----------------------------------------------------------------------------- probe facts


def test_tensorflow_build_info_is_read(tmp_path):
    site = tmp_path / "site"
    write_dist(
        site,
        "tensorflow",
        "2.18.0",
        files={"tensorflow/python/platform/build_info.py": TF_BUILD_INFO},
    )
    built = facts(site)["tensorflow"]["built_for"]
    assert built["gpu_build"]["value"] is True and built["cuda"]["value"] == "12.5.1"
    assert (
        built["cudnn"]["value"] == "9"
        and built["compute_capabilities"]["value"][-1] == "compute_90"
    )
    assert built["cuda"]["source"] == "tensorflow/python/platform/build_info.py"


def test_jax_plugin_cupy_bitsandbytes_and_labels(tmp_path):
    site = tmp_path / "site"
    write_dist(site, "jaxlib", "0.7.1")
    write_dist(
        site,
        "jax-cuda12-plugin",
        "0.7.2",
        requires=["jax-cuda12-pjrt==0.7.2", 'nvidia-cudnn-cu12<10.0,>=9.8; extra == "with-cuda"'],
    )
    write_dist(site, "cupy-cuda11x", "13.6.0")
    write_dist(
        site,
        "bitsandbytes",
        "0.45.5",
        files={
            "bitsandbytes/libbitsandbytes_cuda124.so": "",
            "bitsandbytes/libbitsandbytes_cuda118.so": "",
            "bitsandbytes/libbitsandbytes_cpu.so": "",
        },
    )
    write_dist(site, "torch-scatter", "2.1.2+pt25cu124")
    found = facts(site)
    assert found["jax-cuda12-plugin"]["built_for"]["cuda_major"] == {
        "value": 12,
        "source": "package name",
    }
    assert found["jax-cuda12-plugin"]["requires"] == {
        "jax-cuda12-pjrt": "==0.7.2",
        "nvidia-cudnn-cu12": "<10.0,>=9.8",
    }
    assert found["cupy-cuda11x"]["built_for"]["cuda_major"]["value"] == 11
    assert found["bitsandbytes"]["built_for"]["cuda_libraries"]["value"] == ["cuda118", "cuda124"]
    scatter = found["torch-scatter"]["built_for"]
    assert (scatter["torch"]["value"], scatter["cuda"]["value"]) == ("2.5", "12.4")
    assert "torch" not in found and framework_metadata.summary(found).startswith(
        "bitsandbytes 0.45.5"
    )


def test_probe_is_absent_without_frameworks(tmp_path, fake_tools):
    from test_torch_build import fake_python, torch_271_pypi_site

    from envdoctor.probes.context import ProbeContext, ProbeOptions

    python = fake_python(fake_tools, torch_271_pypi_site(tmp_path / "site"))
    group_ = frameworks.collect(ProbeContext(options=ProbeOptions(python=python)))[0]
    assert group_.status.value == "absent" and "no ML framework besides torch" in group_.reason


# ----------------------------------------------------------------------------- pasted lists


def test_pip_freeze_capture(ms):
    text = (
        FIXTURES / "TRUNCATED-pip-freeze-forge-tensorrt-NVIDIA-TensorRT-issue-4329.txt"
    ).read_text()
    assert pip_list.detect(text)
    groups = {g.name: g for g in pip_list.read(text)}
    packages = groups["python.packages"].data["packages"]
    assert packages["bitsandbytes"] == "0.43.3" and packages["cython"] == "3.0.11"
    assert packages["depth-anything"] == "2024.1.22.0"  # from the `name @ url` line
    assert groups["python.frameworks"].data["packages"]["bitsandbytes"]["version"] == "0.43.3"
    assert groups["python.packages"].confidence.value == "medium"


def test_pip_list_capture():
    text = (FIXTURES / "TRUNCATED-pip-list-windows-pytorch-issue-167242.txt").read_text()
    assert pip_list.detect(text)
    packages = {g.name: g for g in pip_list.read(text)}["python.packages"].data["packages"]
    assert packages["accelerate"] == "1.12.0.dev0" and packages["aiohttp-socks"] == "0.10.2"
    assert len(packages) == 29


def test_conda_list_capture():
    text = (FIXTURES / "TRUNCATED-conda-list-pytorch3d-issue-183.txt").read_text()
    groups = {g.name: g for g in pip_list.read(text)}
    packages = groups["python.packages"].data
    assert (
        packages["packages"]["cudatoolkit"] == "10.2.89"
        and packages["installers"]["fvcore"] == "conda"
    )


def test_conda_list_of_a_cpu_pytorch_from_the_pytorch_channel(ms):
    """meta-pytorch/data #315: `conda list | grep pytorch` shows pytorch 1.11.0 py3.8_cpu_0."""
    text = corpus_body("037")
    groups = {g.name: g for g in pip_list.read(text)}
    torch = groups["python.torch"].data
    assert (torch["version"], torch["backend"], torch["conda_build"]) == (
        "1.11.0",
        "cpu",
        "py3.8_cpu_0",
    )
    assert groups["python.packages"].data["installers"]["torch"] == "conda"


def test_conda_build_strings_name_their_cuda():
    assert pip_list._conda_build_cuda("py3.7_cuda10.1.243_cudnn7.6.3_0") == "10.1"  # pytorch #28321
    assert (
        pip_list._conda_build_cuda("cuda129_mkl_py311_hb55e5d5_301") == "12.9"
    )  # conda-forge #390
    assert pip_list._conda_build_cuda("py3.8_cpu_0") is None


def test_prose_is_not_a_package_list():
    assert not pip_list.detect("I ran pip install torch==2.1.0 and it failed\nplease help\n")
    assert not pip_list.detect(corpus_body("017"))


# ----------------------------------------------------------------------------- TensorFlow


def _tf_snapshot(real_captures, platform: str, version: str):
    snap = nvidia_from(real_captures, "nvidia-smi-q-x/telegraf-quadro-p2000-driver-525.125.06.xml")
    snap.extend(
        python_groups(
            {"tensorflow": version},
            platform=platform,
            version="3.10.10",
            executable=r"C:\Users\u\tf\Scripts\python.exe" if platform == "win32" else PY,
        )
    )
    snap.add(group({"tensorflow": {"version": version, "requires": {}, "built_for": {}}}))
    return snap


def test_case_023_tensorflow_2_12_on_native_windows(real_captures, ms):
    """tensorflow #60237: TF 2.12.0 on Windows 10 with a GTX 1050 Ti sees no GPU."""
    assert "2.12.0" in corpus_body("023") and "Windows 10" in corpus_body("023")
    finding = one(
        run(_tf_snapshot(real_captures, "win32", "2.12.0"), ms), "tensorflow.windows-native-no-gpu"
    )
    assert finding.severity.value == "error" and "2.11.0" in finding.detail
    assert finding.fixes[0].commands == (
        "wsl --install -d Ubuntu",
        'wsl -d Ubuntu -- python3 -m pip install "tensorflow[and-cuda]"',
    )
    assert (
        finding.fixes[1].commands[1]
        == r'C:\Users\u\tf\Scripts\python.exe -m pip install "tensorflow<2.11"'
    )


def test_tensorflow_on_linux_or_2_10_on_windows_passes(real_captures, ms):
    assert (
        "tensorflow.windows-native-no-gpu"
        in run(_tf_snapshot(real_captures, "linux", "2.12.0"), ms).passed
    )
    assert (
        "tensorflow.windows-native-no-gpu"
        in run(_tf_snapshot(real_captures, "win32", "2.10.1"), ms).passed
    )


# ----------------------------------------------------------------------------- JAX


def _jax_snapshot(plugin: str, jaxlib: str, cudnn: str | None = None):
    installed = {
        "jax": jaxlib,
        "jaxlib": jaxlib,
        "jax-cuda12-plugin": plugin,
        "jax-cuda12-pjrt": plugin,
    }
    if cudnn:
        installed["nvidia-cudnn-cu12"] = cudnn
    snap = Snapshot()
    snap.extend(python_groups(installed))
    snap.add(
        group(
            {
                "jax": {
                    "version": jaxlib,
                    "requires": {"jaxlib": f"<={jaxlib},>={jaxlib}"},
                    "built_for": {},
                },
                "jaxlib": {"version": jaxlib, "requires": {}, "built_for": {}},
                "jax-cuda12-plugin": {
                    "version": plugin,
                    "built_for": {"cuda_major": {"value": 12, "source": "package name"}},
                    "requires": {
                        "jax-cuda12-pjrt": f"=={plugin}",
                        "nvidia-cudnn-cu12": "<10.0,>=9.8",
                    },
                },
            }
        )
    )
    return snap


def test_jax_plugin_newer_than_jaxlib(ms):
    """The warning of jaxlib/plugin_support.py: plugin 0.7.2 with jaxlib 0.7.1 is not used."""
    finding = one(run(_jax_snapshot("0.7.2", "0.7.1"), ms), "jax.cuda-plugin-mismatch")
    assert "JAX runs on the CPU" in finding.title
    assert finding.fixes[0].commands == (
        f"{PY} -m pip install 'jax-cuda12-plugin[with-cuda]==0.7.1' jax-cuda12-pjrt==0.7.1",
    )


def test_jax_plugin_matching_jaxlib_passes(ms):
    outcome = run(_jax_snapshot("0.7.1", "0.7.1", cudnn="9.10.2.21"), ms)
    assert "jax.cuda-plugin-mismatch" in outcome.passed


def test_jax_cudnn_older_than_the_plugin_declares(ms):
    finding = one(run(_jax_snapshot("0.7.1", "0.7.1", cudnn="9.1.0.70"), ms), "jax.cudnn-too-old")
    assert finding.fixes[0].commands == (f"{PY} -m pip install 'nvidia-cudnn-cu12<10.0,>=9.8'",)


# ----------------------------------------------------------------------------- CuPy


def _cupy_snapshot(real_captures, names: dict[str, str], torch: tuple[str, str] | None = None):
    snap = nvidia_from(
        real_captures, "nvidia-smi-q-x/telegraf-geforce-rtx3060-driver-570.124.04.xml"
    )
    snap.extend(python_groups(dict(names)))
    snap.add(group({n: {"version": v, "requires": {}, "built_for": {}} for n, v in names.items()}))
    if torch:
        snap.add(torch_group(load_bundled(), torch[0], torch[1]))
    return snap


def test_cupy_for_cuda_13_on_a_cuda_12_8_driver(real_captures, ms):
    finding = one(
        run(_cupy_snapshot(real_captures, {"cupy-cuda13x": "13.6.0"}), ms),
        "cupy.cuda-major-mismatch",
    )
    assert "supports CUDA 12.8" in finding.detail
    assert finding.fixes[0].commands == (
        f"{PY} -m pip uninstall -y cupy-cuda13x",
        f"{PY} -m pip install cupy-cuda12x",
    )


def test_cupy_for_cuda_11_next_to_a_cuda_12_torch(real_captures, ms):
    snap = _cupy_snapshot(real_captures, {"cupy-cuda11x": "13.6.0"}, torch=("2.5.1+cu124", "12.4"))
    finding = one(run(snap, ms), "cupy.cuda-major-mismatch")
    assert "CUDA 12.4 libraries" in finding.detail


def test_two_cupy_packages(real_captures, ms):
    snap = _cupy_snapshot(real_captures, {"cupy-cuda11x": "13.6.0", "cupy-cuda12x": "13.6.0"})
    titles = [f.title for f in run(snap, ms).findings if f.id == "cupy.cuda-major-mismatch"]
    assert "Several CuPy packages are installed: cupy-cuda11x, cupy-cuda12x" in titles


def test_matching_cupy_passes(real_captures, ms):
    assert (
        "cupy.cuda-major-mismatch"
        in run(_cupy_snapshot(real_captures, {"cupy-cuda12x": "13.6.0"}), ms).passed
    )
