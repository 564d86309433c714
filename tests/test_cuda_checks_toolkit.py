"""Toolkit checks: without a driver, newer than the driver, toolkits that disagree."""

from __future__ import annotations

import pytest

from envdoctor.checks import cuda_toolkit as checks
from envdoctor.diagnosis.engine import run_checks
from envdoctor.matrix.loader import load_bundled
from envdoctor.model.findings import Severity
from envdoctor.model.snapshot import collected
from tests.cuda_trees import (
    install_wheel,
    ldconfig_tool,
    link,
    probe,
    put,
    this_machine,
    toolkit,
    with_driver,
)


@pytest.fixture(scope="module")
def ms():
    return load_bundled()


def _debian(snap):
    snap.add(
        collected("os", "test", {"system": "Linux", "distro_id": "debian", "distro_version": "12"})
    )
    return snap


# -- cuda.toolkit-without-driver ---------------------------------------------------------------


def test_this_machine_toolkit_without_driver_is_info_and_says_what_it_means(fake_root, ms):
    root = fake_root({})
    this_machine(root)
    snap = _debian(with_driver(probe(root, {"PATH": "/usr/local/bin"}), None, None))
    [finding] = checks.toolkit_without_driver.run(snap, ms)
    assert finding.severity is Severity.INFO
    assert (
        finding.title
        == "CUDA 13.0 toolkit installed, but no NVIDIA driver: nothing can run on a GPU here"
    )
    assert "CUDA 13.0.88 at /usr/local/cuda-13.0" in finding.detail
    assert (
        "nothing (code built with this toolkit, PyTorch, any CUDA container) can use a GPU"
        in finding.detail
    )
    assert "nvidia-smi not found" in finding.detail
    assert (
        "580.65.06" in finding.detail
    )  # NVIDIA's CUDA 13.0 GA minimum, from the cuda_driver matrix
    assert finding.fixes[0].commands == ("docker run --gpus all IMAGE",)
    assert finding.fixes[1].commands[-1] == "sudo apt-get install cuda-drivers"
    assert "repos/debian12/x86_64/cuda-keyring_1.1-1_all.deb" in finding.fixes[1].commands[0]
    outcome = run_checks(snap, ms, checks.CHECKS)
    assert [f.id for f in outcome.findings] == ["cuda.toolkit-without-driver"]
    snap.add(collected("container.inside", "test", {"in_container": True, "engine": "docker"}))
    [inside] = checks.toolkit_without_driver.run(snap, ms)
    assert [f.commands for f in inside.fixes] == [("docker run --gpus all IMAGE",)]
    assert inside.fixes[0].summary.startswith("This runs in a container")


def test_toolkit_with_a_driver_is_fine(fake_root, ms):
    root = fake_root({})
    this_machine(root)
    snap = with_driver(probe(root, {"PATH": "/usr/local/bin"}), "580.95.05", "13.0")
    assert checks.toolkit_without_driver.run(snap, ms) == []


def test_without_driver_facts_libcuda_on_the_loader_path_decides(fake_root, fake_tools, ms):
    root = fake_root({})
    this_machine(root)
    bare = probe(root, {"PATH": "/usr/local/bin"})  # no nvidia.driver group, no libcuda anywhere
    assert checks.toolkit_without_driver.run(bare, ms)[0].id == "cuda.toolkit-without-driver"
    put(root, "/usr/lib/x86_64-linux-gnu/libcuda.so.580.95.05")
    link(root, "/usr/lib/x86_64-linux-gnu/libcuda.so.1", "libcuda.so.580.95.05")
    tools = ldconfig_tool(fake_tools, "ldconfig-p-debian12-cuda13.0-container.txt")
    with_lib = probe(root, {"PATH": f"/usr/local/bin:{tools}"})
    assert checks.toolkit_without_driver.run(with_lib, ms) == []


# -- cuda.toolkit-newer-than-driver ------------------------------------------------------------


def _toolkit_12_8(root):
    toolkit(
        root,
        "/usr/local/cuda-12.8",
        version_json="version.json-12.8.2",
        nvcc_capture="nvcc-version-12.4.131-pytorch-issue-134929.txt",
    )
    link(root, "/usr/local/cuda", "/usr/local/cuda-12.8")


def test_toolkit_of_a_newer_major_than_the_driver_warns(fake_root, ms):
    root = fake_root({})
    _toolkit_12_8(root)
    install_wheel(root, "torch-2.5.1.dist-info")
    install_wheel(root, "nvidia_cuda_runtime_cu12-12.4.127.dist-info")
    snap = _debian(
        with_driver(
            probe(root, {"PATH": "/usr/bin", "VIRTUAL_ENV": "/opt/venv"}), "470.82.01", "11.4"
        )
    )
    [finding] = checks.toolkit_newer_than_driver.run(snap, ms)
    assert finding.severity is Severity.WARNING
    assert finding.title == "CUDA 12.8 toolkit is newer than the NVIDIA driver 470.82.01 supports"
    assert "cudaErrorInsufficientDriver" in finding.detail
    assert "This does not affect torch: pip wheels bundle their own CUDA runtime" in finding.detail
    assert finding.evidence[1].expected.startswith(">= 570.")  # CUDA 12.8.x minimum from the matrix
    assert finding.fixes[0].commands[-1] == "sudo apt-get install cuda-drivers"
    assert finding.fixes[-1].commands[0] == "sudo apt-get install cuda-toolkit-11-4"


def test_same_major_newer_minor_is_minor_version_compatibility_info(fake_root, ms):
    root = fake_root({})
    _toolkit_12_8(root)
    put(root, "/etc/ld.so.conf.d/none.conf", "")
    snap = with_driver(
        probe(root, {"PATH": "/usr/bin", "LD_LIBRARY_PATH": "/usr/local/cuda-12.8/lib64"}),
        "535.104.05",
        "12.2",
    )
    [finding] = checks.toolkit_newer_than_driver.run(snap, ms)
    assert finding.severity is Severity.INFO
    assert (
        "minor-version compatibility" in finding.detail
        and "cudaErrorUnsupportedPtxVersion" in finding.detail
    )


def test_driver_new_enough_for_the_toolkit(fake_root, ms):
    root = fake_root({})
    _toolkit_12_8(root)
    snap = with_driver(probe(root, {"PATH": "/usr/bin"}), "570.124.04", "12.8")
    assert checks.toolkit_newer_than_driver.run(snap, ms) == []


# -- cuda.toolkits-disagree --------------------------------------------------------------------


def _two_toolkits(root):
    toolkit(
        root,
        "/usr/local/cuda-12.8",
        version_json="version.json-12.8.2",
        nvcc_capture="nvcc-version-12.4.131-pytorch-issue-134929.txt",
    )
    toolkit(root, "/usr/local/cuda-11.0", version_txt="version.txt-11.0.207")
    link(root, "/usr/local/cuda", "/usr/local/cuda-11.0")


def test_path_nvcc_and_cuda_home_name_different_toolkits(fake_root, ms):
    root = fake_root({})
    _two_toolkits(root)
    put(
        root,
        "/root/.bashrc",
        "export PATH=/usr/local/cuda-12.8/bin:$PATH\nexport CUDA_HOME=/usr/local/cuda-11.0\n",
    )
    snap = probe(
        root, {"PATH": "/usr/local/cuda-12.8/bin:/usr/bin", "CUDA_HOME": "/usr/local/cuda-11.0"}
    )
    # /usr/local/cuda is cuda-11.0 too, so CUDA_HOME overrides only the nvcc on PATH
    assert snap.fact("cuda.env", "CUDA_HOME")["shadows"] == [
        {"what": "nvcc on PATH", "path": "/usr/local/cuda-12.8"}
    ]
    [finding] = checks.toolkits_disagree.run(snap, ms)
    assert finding.severity is Severity.WARNING
    assert "nvcc on PATH: /usr/local/cuda-12.8 (CUDA 12.8)" in finding.detail
    assert "CUDA_HOME: /usr/local/cuda-11.0 (CUDA 11.0)" in finding.detail
    commands = [c for fix in finding.fixes for c in fix.commands]
    assert "export CUDA_HOME=/usr/local/cuda-12.8" in commands
    assert "sed -i.bak '2s|.*|export CUDA_HOME=/usr/local/cuda-12.8|' /root/.bashrc" in commands
    assert "export PATH=/usr/local/cuda-11.0/bin:$PATH" in commands
    assert "ln -sfn /usr/local/cuda-12.8 /usr/local/cuda" in commands


def test_cuda_home_pointing_nowhere(fake_root, ms):
    root = fake_root({})
    toolkit(
        root,
        "/usr/local/cuda-12.8",
        version_json="version.json-12.8.2",
        nvcc_capture="nvcc-version-12.4.131-pytorch-issue-134929.txt",
    )
    snap = probe(root, {"PATH": "/usr/local/cuda-12.8/bin", "CUDA_HOME": "/usr/local/cuda-12.1"})
    [finding] = checks.toolkits_disagree.run(snap, ms)
    assert finding.title == "CUDA_HOME / CUDA_PATH does not point at a CUDA toolkit"
    assert finding.fixes[0].commands == ("export CUDA_HOME=/usr/local/cuda-12.8",)


def test_toolkits_that_agree(fake_root, ms):
    root = fake_root({})
    _two_toolkits(root)
    (root / "usr/local/cuda").unlink()
    link(root, "/usr/local/cuda", "/usr/local/cuda-12.8")
    snap = probe(
        root, {"PATH": "/usr/local/cuda-12.8/bin:/usr/bin", "CUDA_HOME": "/usr/local/cuda"}
    )
    assert checks.toolkits_disagree.run(snap, ms) == []


def test_this_machine_toolkits_agree(fake_root, ms):
    root = fake_root({})
    this_machine(root)
    assert checks.toolkits_disagree.run(probe(root, {"PATH": "/usr/local/bin"}), ms) == []
