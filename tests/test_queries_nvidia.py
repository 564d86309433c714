"""envdoctor.queries.nvidia over the real bundled matrices."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from envdoctor.matrices import load_bundled
from envdoctor.queries import nvidia as q

TABLES = ["cuda_driver", "cuda_compat", "nvidia_driver_branches", "nvidia_gpus", "nvcc_arch"]


@pytest.fixture(scope="module")
def ms():
    matrices = load_bundled()
    for name in TABLES:
        assert matrices.get(name) is not None, f"{name} did not load: {matrices.errors}"
    return matrices


class _Table:
    def __init__(self, rows):
        self.rows = rows


class _Set:
    """A stand-in with only `.table(name).rows`, the interface the queries rely on."""

    def __init__(self, tables):
        self._tables = tables

    def table(self, name):
        return _Table(self._tables[name])


# --- min_driver_for_cuda -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cuda, os, expected",
    [
        ("12.4.1", "linux", "550.54.15"),
        ("12.4.1", "windows", "551.78"),
        ("12.4", "linux", "550.54.14"),  # "12.4" is the GA row 12.4.0
        ("12.4.0", "Windows", "551.61"),
        ("11.8", "linux", "520.61.05"),
        ("13.0.2", "linux", "580.95.05"),
        ("10.0.130", "linux", "410.48"),  # 10.x rows cover their whole minor release
        ("10.2.89", "windows", "441.22"),
        ("12.4.2", "linux", "550.54.15"),  # not listed: nearest lower release of 12.4
        ("12.3.2", "linux", "545.23.08"),  # NVIDIA's table has no 12.3 Update 2 row
        ("9.2", "linux", "396.26"),  # the CUDA 9.x / 8.0 rows (round 18)
        ("9.2", "windows", "397.44"),
        ("8.0", "linux", "367.48"),
    ],
)
def test_min_driver_for_cuda(ms, cuda, os, expected):
    assert q.min_driver_for_cuda(ms, cuda, os) == expected


@pytest.mark.parametrize(
    "cuda, os",
    [
        ("13.0.0", "windows"),  # NVIDIA prints N/A: the exact row wins, no fall-back
        ("13.4", "linux"),  # only a driver branch is published for 13.4
        ("12.7", "linux"),  # there is no CUDA 12.7
        ("11.0", "linux"),  # nothing at or below 11.0.0 (11.0.1 RC is the first row)
        ("7.5", "linux"),  # nothing below CUDA 8.0
        ("12.4", "macos"),
        ("not a version", "linux"),
    ],
)
def test_min_driver_for_cuda_unknown(ms, cuda, os):
    assert q.min_driver_for_cuda(ms, cuda, os) is None


def test_min_driver_for_cuda_on_a_stand_in_set(ms):
    stand_in = _Set({"cuda_driver": ms.table("cuda_driver").rows})
    assert q.min_driver_for_cuda(stand_in, "12.6.3", "linux") == "560.35.05"
    assert q.min_driver_for_cuda(_Set({}), "12.6.3", "linux") is None


# --- compat_floor --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "major, os, expected",
    [
        (13, "linux", "580"),
        (13, "windows", "580"),
        (12, "linux", "525"),
        (11, "linux", "450.80.02"),
        (11, "windows", "452.39"),
        (10, "linux", None),  # no minor-version compatibility before CUDA 11
        (14, "linux", None),
        (12, "solaris", None),
    ],
)
def test_compat_floor(ms, major, os, expected):
    assert q.compat_floor(ms, major, os) == expected


# --- driver_supports_cuda ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "driver, cuda, os, expected",
    [
        ("550.54.15", "12.4.1", "linux", True),  # exactly the release's driver
        ("550.54.14", "12.4.1", "linux", True),  # older than 12.4.1's, but >= the 12.x floor
        ("525.60.13", "12.8", "linux", True),  # minor-version compatibility
        ("520.61.05", "12.0", "linux", False),  # below the 12.x floor
        ("450.80.02", "11.8", "linux", True),
        ("450.51.06", "11.8", "linux", False),  # below 450.80.02
        ("595.71.05", "13.2.2", "linux", True),
        ("575.57.08", "13.0", "linux", False),  # CUDA 13 needs >= 580
        ("580.65.06", "13.5", "linux", True),  # no per-release row, the floor decides
        ("580.88", "13.0", "windows", True),
        ("440.33", "10.2", "linux", True),
        ("418.39", "10.2", "linux", False),  # CUDA 10.x: per-release minimum only
        ("470.82.01", "12.4", "linux", False),
        ("595.58.03", "12.9.1", "linux", True),  # newer drivers are backward compatible
    ],
)
def test_driver_supports_cuda(ms, driver, cuda, os, expected):
    assert q.driver_supports_cuda(ms, driver, cuda, os) is expected


@pytest.mark.parametrize(
    "driver, cuda, os",
    [
        ("999.99", "14.0", "linux"),  # nothing known about CUDA 14
        ("550.54.15", "7.5", "linux"),  # nothing below CUDA 8.0
        ("N/A", "12.4", "linux"),
        ("550.54.15", "12.4", "beos"),
    ],
)
def test_driver_supports_cuda_unknown(ms, driver, cuda, os):
    assert q.driver_supports_cuda(ms, driver, cuda, os) is None


# --- max_cuda_for_driver -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "driver, os, expected",
    [
        ("550.54.15", "linux", "12.4.1"),
        ("550.54.14", "linux", "12.4.0"),
        ("535.104.05", "linux", "12.2.2"),
        ("410.48", "linux", "10.0"),
        ("546.80", "windows", "12.3.1"),
        ("591.86", "windows", "13.1"),  # R590 corresponds to CUDA 13.1 (no Windows values in 13.x)
        (
            "610.43.02",
            "linux",
            "13.3",
        ),  # R610 -> 13.3 although no 13.3 per-release row is published
        ("384.66", "linux", "8.0"),  # below 9.0's 384.81
        ("396.26", "linux", "9.2"),
    ],
)
def test_max_cuda_for_driver(ms, driver, os, expected):
    assert q.max_cuda_for_driver(ms, driver, os) == expected


@pytest.mark.parametrize(
    "driver, os", [("352.39", "linux"), ("garbage", "linux"), ("550.54.15", "amiga")]
)
def test_max_cuda_for_driver_unknown(ms, driver, os):
    assert q.max_cuda_for_driver(ms, driver, os) is None


def _smi_pairs(folder: Path):
    """(driver, CUDA version) pairs from real nvidia-smi captures."""
    for path in sorted((folder / "nvidia-smi-q-x").glob("*.xml")):
        text = path.read_text(errors="replace")
        driver = re.search(r"<driver_version>([\d.]+)</driver_version>", text)
        cuda = re.search(r"<cuda_version>([\d.]+)</cuda_version>", text)
        windows = "<current_dm>WDDM" in text
        if driver and cuda:
            yield path.name, driver.group(1), cuda.group(1), "windows" if windows else "linux"
    for path in sorted((folder / "nvidia-smi-text").glob("*.txt")):
        text = path.read_text(errors="replace")
        match = re.search(r"Driver Version: ([\d.]+)\s+CUDA Version: ([\d.]+)", text)
        if match:
            windows = "WDDM" in text or "wsl" in path.name.lower()
            yield path.name, match.group(1), match.group(2), "windows" if windows else "linux"


def test_max_cuda_for_driver_agrees_with_real_captures(ms, real_captures):
    checked = 0
    for name, driver, reported, os in _smi_pairs(real_captures):
        if driver.startswith("565."):
            continue  # R565 reports CUDA 12.7, a version no toolkit release has; the tables stop at 12.6
        got = q.max_cuda_for_driver(ms, driver, os)
        assert got is not None, name
        assert ".".join(got.split(".")[:2]) == reported, (name, driver, got, reported)
        checked += 1
    assert checked >= 10


# --- gpu_by_name ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "printed, name, cc",
    [
        ("NVIDIA GeForce RTX 4090", "NVIDIA GeForce RTX 4090", "8.9"),
        ("GeForce RTX 4090", "NVIDIA GeForce RTX 4090", "8.9"),
        ("nvidia geforce rtx 4090", "NVIDIA GeForce RTX 4090", "8.9"),
        ("NVIDIA GeForce RTX 4090 D", "NVIDIA GeForce RTX 4090 D", "8.9"),
        ("Tesla T4", "Tesla T4", "7.5"),
        ("NVIDIA H100 80GB HBM3", "NVIDIA H100 80GB HBM3", "9.0"),
        ("NVIDIA A100-SXM4-80GB", "NVIDIA A100-SXM4-80GB", "8.0"),
        ("NVIDIA A100 SXM4 80GB", "NVIDIA A100-SXM4-80GB", "8.0"),
        ("NVIDIA H200 141GB HBM3e", "NVIDIA H200", "9.0"),  # memory suffix dropped
        ("NVIDIA GeForce GTX 1060 6GB", "NVIDIA GeForce GTX 1060", "6.1"),
        ("NVIDIA RTX 4000 SFF Ada Generation", "NVIDIA RTX 4000 SFF Ada Generation", "8.9"),
        (
            "NVIDIA RTX 4000 SFF Ada ...",
            "NVIDIA RTX 4000 SFF Ada Generation",
            "8.9",
        ),  # cut by nvidia-smi
        ("NVIDIA GeForce RTX 2070 Super", "NVIDIA GeForce RTX 2070 SUPER", "7.5"),  # alias
        ("NVIDIA GeForce RTX 3050Ti Laptop GPU", "NVIDIA GeForce RTX 3050 Ti Laptop GPU", "8.6"),
        ("GeForce GTX 1070", "NVIDIA GeForce GTX 1070", "6.1"),
        ("NVIDIA GeForce RTX 5090", "NVIDIA GeForce RTX 5090", "12.0"),
        ("NVIDIA B200", "NVIDIA B200", "10.0"),
        ("Quadro P2000", "Quadro P2000", "6.1"),
    ],
)
def test_gpu_by_name(ms, printed, name, cc):
    row = q.gpu_by_name(ms, printed)
    assert row is not None, printed
    assert row["name"] == name
    assert row["compute_capability"] == cc


@pytest.mark.parametrize(
    "printed",
    [
        "Graphics Device",  # an old driver that does not know the card
        "NVIDIA GeForce RTX 4080 ...",  # cut short: RTX 4080, 4080 SUPER and 4080 Laptop GPU all fit
        "NVIDIA GeForce RTX 40",
        "RTX 4090",  # without "GeForce" it is not a printed name
        "AMD Radeon RX 7900 XTX",
        "",
    ],
)
def test_gpu_by_name_unknown(ms, printed):
    assert q.gpu_by_name(ms, printed) is None


def test_gpu_by_name_never_confuses_4090_and_4090_d(ms):
    stand_in = _Set(
        {
            "nvidia_gpus": [
                r for r in ms.table("nvidia_gpus").rows if r["name"] != "NVIDIA GeForce RTX 4090"
            ]
        }
    )
    assert q.gpu_by_name(stand_in, "NVIDIA GeForce RTX 4090") is None
    assert (
        q.gpu_by_name(stand_in, "NVIDIA GeForce RTX 4090 D")["name"] == "NVIDIA GeForce RTX 4090 D"
    )
    only_4090 = _Set(
        {
            "nvidia_gpus": [
                r for r in ms.table("nvidia_gpus").rows if r["name"] == "NVIDIA GeForce RTX 4090"
            ]
        }
    )
    assert q.gpu_by_name(only_4090, "NVIDIA GeForce RTX 4090 D") is None


def test_every_real_capture_name_resolves(ms, real_captures):
    names = set()
    for path in (real_captures / "nvidia-smi-q-x").glob("*.xml"):
        names.update(
            re.findall(r"<product_name>([^<]+)</product_name>", path.read_text(errors="replace"))
        )
    known_missing = {
        "Graphics Device",
        "GeForce GT 730",
    }  # no row: unknown, ambiguous (GF108 or GK208)
    for name in sorted(names - known_missing):
        assert q.gpu_by_name(ms, name) is not None, name


# --- nvcc_targets --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cuda, expected",
    [
        ("10.2", (30, 75)),
        ("11.8", (35, 90)),
        ("11.8.89", (35, 90)),
        ("12.0", (50, 90)),
        ("12.4.1", (50, 90)),  # unchanged since 12.0
        ("12.8", (50, 120)),
        ("12.9", (50, 121)),
        ("13.0", (75, 121)),
        ("13.5", (75, 121)),
    ],
)
def test_nvcc_targets(ms, cuda, expected):
    assert q.nvcc_targets(ms, cuda) == expected


@pytest.mark.parametrize(
    "cuda, expected",
    [
        # the pre-10 rows (CMake's table, unverified): Fermi until 8.0, dropped at 9.0
        ("7.0", (20, 53)),
        ("8.0", (20, 62)),
        ("9.2", (30, 72)),  # 9.1 and 9.2 are 9.0's range in that table
    ],
)
def test_nvcc_targets_before_cuda_10(ms, cuda, expected):
    assert q.nvcc_targets(ms, cuda) == expected


@pytest.mark.parametrize("cuda", ["6.5", "14.0", "junk"])
def test_nvcc_targets_unknown(ms, cuda):
    assert q.nvcc_targets(ms, cuda) is None
