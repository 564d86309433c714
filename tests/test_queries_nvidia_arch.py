"""envdoctor.queries.nvidia_arch over the real bundled matrices, and the driver -> CUDA 13 floor.

The expected values are NVIDIA's, read from the pages the rows cite: Kepler ends at R470 (Tesla K80,
GTX 780), Maxwell, Pascal and Volta at R580, Fermi at R390; Turing and newer are "Ongoing". CUDA 13.x
needs a 580+ driver (minor-version-compatibility floor 'CUDA 13.x >= 580').
"""

from __future__ import annotations

import pytest

from envdoctor.matrices import load_bundled
from envdoctor.queries import nvidia
from envdoctor.queries import nvidia_arch as q


@pytest.fixture(scope="module")
def ms():
    matrices = load_bundled()
    for name in ("nvidia_arch_support", "nvidia_driver_branches", "cuda_driver", "nvidia_gpus"):
        assert matrices.get(name) is not None, f"{name} did not load: {matrices.errors}"
    return matrices


@pytest.mark.parametrize(
    "arch_or_cc, last",
    [
        ("Kepler", 470),
        ("3.7", 470),
        ("sm_37", 470),
        ((3, 5), 470),
        ("Maxwell", 580),
        ("5.2", 580),
        ("Pascal", 580),
        ("6.1", 580),
        ("volta", 580),
        ("Fermi", 390),
        ("Turing", None),
        ("Ampere", None),
        ("Ada", None),
        ("Hopper", None),
        ("Blackwell", None),
        ("12.0", None),
        ("no such arch", None),
        ("", None),
        (None, None),
    ],
)
def test_last_driver_branch(ms, arch_or_cc, last):
    assert q.last_driver_branch_for_arch(ms, arch_or_cc) == last


def test_newest_branch_is_the_last_one_or_the_newest_listed(ms):
    newest_listed = max(r["major"] for r in ms.table("nvidia_driver_branches").rows)
    assert q.newest_driver_branch_for_arch(ms, "Kepler") == 470
    assert q.newest_driver_branch_for_arch(ms, "Pascal") == 580
    assert q.newest_driver_branch_for_arch(ms, "Ada Lovelace") == newest_listed
    assert q.newest_driver_branch_for_arch(ms, "8.9") == newest_listed
    assert q.newest_driver_branch_for_arch(ms, "Unknown") is None


@pytest.mark.parametrize(
    "driver, arch, expected",
    [
        ("525.60.13", "Kepler", False),  # the trap: no 525 driver exists for a K80
        ("525", "3.7", False),
        ("R535", "Kepler", False),
        ("470.256.02", "3.7", True),
        ("470.82.01", "Kepler", True),
        ("590.44.01", "Pascal", False),  # R590 dropped Maxwell, Pascal and Volta
        ("595.45.04", "7.0", False),
        ("580.95.05", "Pascal", True),
        ("580.126.09", "5.2", True),
        ("620.10", "Turing", True),
        ("570.153.02", "12.0", True),
        ("560.35.03", "12.0", None),  # older than the 12.8 driver: not known to support Blackwell
        ("396.54", "Fermi", False),
        ("390.157", "Fermi", True),
        ("not a driver", "Kepler", None),
        ("470.256.02", "Unknown", None),
    ],
)
def test_driver_supports_arch(ms, driver, arch, expected):
    assert q.driver_supports_arch(ms, driver, arch) is expected


def test_arch_of_gpu_names_and_capabilities(ms):
    assert q.arch_for_gpu(ms, "NVIDIA GeForce RTX 4090") == "Ada Lovelace"
    assert q.arch_for_gpu(ms, "NVIDIA GeForce RTX 5090") == "Blackwell"
    assert q.arch_for_gpu(ms, "Tesla V100-SXM2-16GB") == "Volta"
    assert q.arch_for_gpu(ms, "No Such GPU") is None
    assert q.arch_for_cc(ms, "3.7") == "Kepler"
    assert q.arch_for_cc(ms, "12.1") == "Blackwell"  # not in the matrix: from nvidia_gpus (GB10)
    assert q.arch_for_cc(ms, "1.0") is None
    assert q.arch_for_cc(ms, "garbage") is None


def test_supported_branches_stop_at_the_last_one(ms):
    kepler = q.supported_driver_branches(ms, "3.7")
    assert kepler and max(kepler) == 470 and 525 not in kepler
    pascal = q.supported_driver_branches(ms, "Pascal")
    assert max(pascal) == 580 and 590 not in pascal
    blackwell = q.supported_driver_branches(ms, "Blackwell")
    assert min(blackwell) == 570  # derived: CUDA 12.8 (first Blackwell toolkit) came with 570.26
    assert q.supported_driver_branches(ms, "Unknown") == []


def test_newest_cuda_for_ended_architectures(ms):
    assert q.newest_cuda_for_arch(ms, "3.7") == "11.4"  # R470 corresponds to CUDA 11.4
    assert q.newest_cuda_for_arch(ms, "3.0") == "10.2"  # last toolkit for sm_30
    assert q.newest_cuda_for_arch(ms, "Pascal") == "12.9"  # R580 runs 13.0, but 13.x drops sm_6x
    assert q.newest_cuda_for_arch(ms, "Ada") is None


def test_derived_min_driver(ms):
    assert q.derived_min_driver_for_arch(ms, "Blackwell") == "570.26"
    assert q.derived_min_driver_for_arch(ms, "Blackwell", "windows") == "570.65"
    assert q.derived_min_driver_for_arch(ms, "Kepler") is None  # CUDA 6.0 is not in cuda_driver


# --- CUDA 13.x needs a 580+ driver -------------------------------------------------------------


@pytest.mark.parametrize(
    "driver, os, highest",
    [
        ("570.153.02", "linux", "12.8.1"),
        ("575.57.08", "linux", "12.9.1"),
        ("580.65.06", "linux", "13.0.0"),
        ("590.44.01", "linux", "13.1.0"),
        ("470.256.02", "linux", "11.4.4"),
    ],
)
def test_highest_cuda_for_driver(ms, driver, os, highest):
    assert nvidia.max_cuda_for_driver(ms, driver, os) == highest


@pytest.mark.parametrize("cuda", ["13.0", "13.0.2", "13.2"])
@pytest.mark.parametrize(
    "driver, os", [("570.153.02", "linux"), ("575.57.08", "linux"), ("576.57", "windows")]
)
def test_cuda13_needs_580(ms, cuda, driver, os):
    assert nvidia.driver_supports_cuda(ms, driver, cuda, os) is False


@pytest.mark.parametrize("driver, os", [("580.65.06", "linux"), ("580.88", "windows")])
def test_cuda13_runs_on_580(ms, driver, os):
    assert nvidia.driver_supports_cuda(ms, driver, "13.0", os) is True
