"""Library checks: LD_LIBRARY_PATH / LD_PRELOAD shadowing wheels, conda+pip CUDA, missing cuDNN."""

from __future__ import annotations

import pytest

from envdoctor.checks import cuda_libraries as checks
from envdoctor.matrix.loader import load_bundled
from envdoctor.model.findings import Severity
from tests.cuda_trees import (
    FIXTURES,
    SITE,
    install_wheel,
    ldconfig_tool,
    link,
    probe,
    put,
    toolkit,
    with_driver,
)

VENV = {"VIRTUAL_ENV": "/opt/venv", "PATH": "/nonexistent"}
TORCH_WHEELS = (
    "torch-2.5.1.dist-info",
    "nvidia_cuda_runtime_cu12-12.4.127.dist-info",
    "nvidia_nvjitlink_cu12-12.4.127.dist-info",
    "nvidia_cusparse_cu12-12.3.1.170.dist-info",
    "nvidia_cudnn_cu12-9.1.0.70.dist-info",
)


@pytest.fixture(scope="module")
def ms():
    return load_bundled()


def _torch_env(root, site=SITE):
    for wheel in TORCH_WHEELS:
        install_wheel(root, wheel, site)


# -- cuda.ld-library-path-shadows-wheel (infiniflow/ragflow#4466) -------------------------------


def _ragflow_case(root):
    _torch_env(root)
    toolkit(root, "/usr/local/cuda-12.1", libs={"libnvJitLink.so.12": "libnvJitLink.so.12.1.105"})
    put(
        root,
        "/root/.bashrc",
        "# ~/.bashrc\nexport PATH=/usr/local/cuda-12.1/bin:$PATH\n"
        "export LD_LIBRARY_PATH=/usr/local/cuda-12.1/lib64:$LD_LIBRARY_PATH\n",
    )


def test_older_nvjitlink_on_ld_library_path_is_an_error_with_exact_fixes(fake_root, ms):
    root = fake_root({})
    _ragflow_case(root)
    snap = probe(root, {**VENV, "LD_LIBRARY_PATH": "/usr/local/cuda-12.1/lib64:"})
    [finding] = checks.ld_library_path_shadows_wheel.run(snap, ms)
    assert finding.severity is Severity.ERROR
    assert finding.title == (
        "LD_LIBRARY_PATH puts /usr/local/cuda-12.1/lib64 ahead of the nvjitlink "
        "libraries that torch bundles"
    )
    assert "/usr/local/cuda-12.1/lib64/libnvJitLink.so.12 (12.1.105, toolkit)" in finding.detail
    assert "undefined symbol: __nvJitLink" in finding.detail
    assert finding.fixes[0].commands == ("unset LD_LIBRARY_PATH",)
    assert finding.fixes[1].commands == ("sed -i.bak -e '3d' /root/.bashrc",)
    assert "line 3 of /root/.bashrc" in finding.fixes[1].summary


def test_other_entries_are_kept_and_ld_preload_is_named(fake_root, ms):
    root = fake_root({})
    _ragflow_case(root)
    put(root, "/opt/other/lib/libfoo.so.1")
    put(root, "/opt/cudnn9/libcudnn.so.9.0.0")
    snap = probe(
        root,
        {
            **VENV,
            "LD_LIBRARY_PATH": "/opt/other/lib:/usr/local/cuda-12.1/lib64",
            "LD_PRELOAD": "/opt/cudnn9/libcudnn.so.9.0.0",
        },
    )
    findings = {f.title.split()[0]: f for f in checks.ld_library_path_shadows_wheel.run(snap, ms)}
    assert findings["LD_LIBRARY_PATH"].fixes[0].commands == (
        "export LD_LIBRARY_PATH=/opt/other/lib",
    )
    preload = findings["LD_PRELOAD"]
    assert preload.fixes[0].commands == ("unset LD_PRELOAD",)
    assert "libcudnn.so.9: /opt/cudnn9/libcudnn.so.9.0.0 (9.0.0, system)" in preload.detail
    assert "cuDNN version incompatibility" in preload.detail


def test_cudnn_folder_without_sub_libraries_predicts_cannot_open(fake_root, ms):
    root = fake_root({})
    _torch_env(root)
    put(root, "/opt/cudnn/lib/libcudnn.so.9.0.0")
    link(root, "/opt/cudnn/lib/libcudnn.so.9", "libcudnn.so.9.0.0")
    snap = probe(root, {**VENV, "LD_LIBRARY_PATH": "/opt/cudnn/lib"})
    [finding] = checks.ld_library_path_shadows_wheel.run(snap, ms)
    assert (
        "libcudnn_ops.so.9" in finding.detail and "cannot open shared object file" in finding.detail
    )


def test_no_shadowing_without_ld_library_path_or_with_the_same_version(fake_root, ms):
    root = fake_root({})
    _ragflow_case(root)
    assert checks.ld_library_path_shadows_wheel.run(probe(root, VENV), ms) == []
    toolkit(root, "/usr/local/cuda-12.4", libs={"libnvJitLink.so.12": "libnvJitLink.so.12.4.127"})
    same = probe(root, {**VENV, "LD_LIBRARY_PATH": "/usr/local/cuda-12.4/lib64"})
    assert checks.ld_library_path_shadows_wheel.run(same, ms) == []
    own = probe(
        root, {**VENV, "LD_LIBRARY_PATH": f"{SITE}/nvidia/nvjitlink/lib"}
    )  # the wheel itself
    assert checks.ld_library_path_shadows_wheel.run(own, ms) == []
    put(root, "/opt/cudnn/lib/libcudnn.so.9.1.0")  # the same cuDNN 9.1.0 as the wheel's 9.1.0.70
    link(root, "/opt/cudnn/lib/libcudnn.so.9", "libcudnn.so.9.1.0")
    for sub in (
        "adv",
        "cnn",
        "engines_precompiled",
        "engines_runtime_compiled",
        "graph",
        "heuristic",
        "ops",
    ):
        put(root, f"/opt/cudnn/lib/libcudnn_{sub}.so.9.1.0")
        link(root, f"/opt/cudnn/lib/libcudnn_{sub}.so.9", f"libcudnn_{sub}.so.9.1.0")
    same_cudnn = probe(root, {**VENV, "LD_LIBRARY_PATH": "/opt/cudnn/lib"})
    assert checks.ld_library_path_shadows_wheel.run(same_cudnn, ms) == []


# -- cuda.conda-pip-cuda-mixed -----------------------------------------------------------------

CONDA_SITE = "/opt/conda/lib/python3.11/site-packages"


def test_conda_cudatoolkit_11_with_pip_cu12_wheels(fake_root, ms):
    root = fake_root({})
    put(root, "/opt/conda/conda-meta/cudatoolkit-11.8.0-h6a678d5_0.json", "{}")
    _torch_env(root, CONDA_SITE)
    snap = probe(root, {"CONDA_PREFIX": "/opt/conda", "PATH": "/nonexistent"})
    [finding] = checks.conda_pip_cuda_mixed.run(snap, ms)
    assert finding.title == "conda env /opt/conda mixes conda CUDA 11 with pip CUDA 12 wheels"
    assert finding.fixes[0].commands == ("conda remove -p /opt/conda --force cudatoolkit",)
    assert (
        finding.fixes[1].commands[0].startswith("/opt/conda/bin/python -m pip uninstall -y nvidia-")
    )


def test_conda_and_pip_of_the_same_major(fake_root, ms):
    root = fake_root({})
    put(root, "/opt/conda/conda-meta/cuda-version-12.4-h3060b56_3.json", "{}")
    _torch_env(root, CONDA_SITE)
    snap = probe(root, {"CONDA_PREFIX": "/opt/conda", "PATH": "/nonexistent"})
    assert checks.conda_pip_cuda_mixed.run(snap, ms) == []


# -- cuda.cudnn-missing ------------------------------------------------------------------------


def test_ctranslate2_4_4_needs_cudnn_8_next_to_torch_cudnn_9(fake_root, ms):
    root = fake_root({})
    _torch_env(root)
    install_wheel(root, "ctranslate2-4.4.0.dist-info")
    snap = probe(root, VENV)
    [finding] = checks.cudnn_missing.run(snap, ms)
    assert finding.severity is Severity.WARNING  # no GPU facts: cannot say it will fail now
    assert (
        finding.title
        == "ctranslate2 4.4.0 needs cuDNN 8, which nothing on the loader path provides"
    )
    assert "ctranslate2.libs/libcudnn-463fd6d5.so.8.9.7" in finding.detail
    assert "cuDNN 9 from nvidia-cudnn-cu12" in finding.detail
    upgrade = finding.fixes[0]
    assert upgrade.commands == (
        "/opt/venv/bin/python -m pip install --upgrade ctranslate2",
        f"export LD_LIBRARY_PATH={SITE}/nvidia/cudnn/lib${{LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}}",
    )
    assert "own virtual environment" in finding.fixes[-1].summary
    gpu = with_driver(snap, "550.54.14", "12.4", gpus=[{"index": 0, "uuid": "GPU-1"}])
    assert checks.cudnn_missing.run(gpu, ms)[0].severity is Severity.ERROR


def test_cudnn_8_in_the_ldconfig_cache_satisfies_ctranslate2(fake_root, fake_tools, ms):
    root = fake_root({})
    _torch_env(root)
    install_wheel(root, "ctranslate2-4.4.0.dist-info")
    listing = FIXTURES / "ldconfig" / "unidentified-ldconfig-p-grep-libcudnn8-cuda-targets.txt"
    for line in listing.read_text().splitlines():
        put(root, line.split("=> ")[1])
    tools = ldconfig_tool(fake_tools, "unidentified-ldconfig-p-grep-libcudnn8-cuda-targets.txt")
    snap = probe(root, {**VENV, "PATH": tools})
    assert checks.cudnn_missing.run(snap, ms) == []


def test_torch_without_its_pinned_cudnn_wheel(fake_root, ms):
    root = fake_root({})
    for wheel in TORCH_WHEELS[:-1]:  # installed with --no-deps, or the cuDNN wheel removed
        install_wheel(root, wheel)
    [finding] = checks.cudnn_missing.run(probe(root, VENV), ms)
    assert (
        finding.title
        == "torch 2.5.1 needs cuDNN 9 (nvidia-cudnn-cu12==9.1.0.70), which is not installed"
    )
    assert finding.fixes[0].commands == (
        '/opt/venv/bin/python -m pip install "nvidia-cudnn-cu12==9.1.0.70"',
    )
    install_wheel(root, TORCH_WHEELS[-1])
    assert checks.cudnn_missing.run(probe(root, VENV), ms) == []
