"""nvidia-smi text (both table layouts, Windows, WSL2, -q, -L, topo -m, error messages): every
real capture read into the facts it states."""

from __future__ import annotations

import pytest

from envdoctor.diagnosis.enrich import nvidia_compute_capability
from envdoctor.ingest import nvidia_smi_text as smi
from envdoctor.matrix.loader import load_bundled

DIR = "nvidia-smi-text"

# file -> (smi_version, driver_version, cuda_driver_max, GPU count, platform)
TABLES = {
    "nvexp-h100-mig-linux-590.48.01.txt": ("590.48.01", "590.48.01", "13.1", 1, "linux"),
    "nvexp-h200-linux-590.48.01.txt": ("590.48.01", "590.48.01", "13.1", 1, "linux"),
    "nvexp-l40s-linux-595.80.txt": ("595.80", "595.80", "13.2", 1, "linux"),
    "nvexp-rtx4080super-linux-595.71.05.txt": ("595.71.05", "595.71.05", "13.2", 1, "linux"),
    "nvexp-rtx2080super-windows-591.86.txt": ("591.86", "591.86", "13.1", 1, "windows"),
    "thamada-h100-sxm-x8-linux.txt": ("565.57.01", "565.57.01", "12.7", 8, "linux"),
    "thamada-a40-x10-linux.txt": ("550.127.05", "550.127.05", "12.4", 10, "linux"),
    "thamada-geforce-rtx4090-linux.txt": ("550.127.05", "550.127.05", "12.4", 8, "linux"),
    "unidentified-notes-2x-gtx1050ti-linux-495.29.05-old-layout.txt": (
        "495.29.05",
        "495.29.05",
        "11.5",
        2,
        "linux",
    ),
    "unidentified-blog-wsl2-rtx4060-laptop-smi-545.46-driver-546.80.txt": (
        "545.46",
        "546.80",
        "12.3",
        1,
        "wsl",
    ),
    "unidentified-runai-docker-readme-rtx2080ti-container-cuda-na-418.116.00.txt": (
        "418.116.00",
        "418.116.00",
        None,
        1,
        "linux",
    ),
    "TRUNCATED-wsl2-cuda-version-err-rtx3060-laptop-microsoft-WSL-issue-11589.txt": (
        "545.46",
        "546.80",
        None,
        1,
        "wsl",
    ),
}

# file -> (index, name as printed, bus id, used MiB, total MiB, utilisation %, power W, cap W, temp C)
ROWS = {
    "nvexp-h100-mig-linux-590.48.01.txt": (
        0,
        "NVIDIA H100 80GB HBM3",
        "0000:00:09.0",
        59,
        81559,
        None,
        98.0,
        700.0,
        42,
    ),
    "nvexp-l40s-linux-595.80.txt": (
        0,
        "NVIDIA L40S",
        "0000:01:00.0",
        0,
        46068,
        100,
        242.0,
        350.0,
        64,
    ),
    "nvexp-rtx2080super-windows-591.86.txt": (
        0,
        "NVIDIA GeForce RTX 2080 ...",
        "0000:0c:00.0",
        702,
        8192,
        0,
        38.0,
        250.0,
        40,
    ),
    "thamada-h100-sxm-x8-linux.txt": (
        7,
        "NVIDIA H100 80GB HBM3",
        "0000:db:00.0",
        1,
        81559,
        0,
        75.0,
        700.0,
        29,
    ),
    "unidentified-notes-2x-gtx1050ti-linux-495.29.05-old-layout.txt": (
        1,
        "NVIDIA GeForce ...",
        "0000:02:00.0",
        1,
        4040,
        0,
        None,
        75.0,
        23,
    ),
    "unidentified-runai-docker-readme-rtx2080ti-container-cuda-na-418.116.00.txt": (
        0,
        "GeForce RTX 208...",
        "0000:01:00.0",
        0,
        3296,
        0,
        23.0,
        250.0,
        35,
    ),
    "unidentified-blog-wsl2-rtx4060-laptop-smi-545.46-driver-546.80.txt": (
        0,
        "NVIDIA GeForce RTX 4060 ...",
        "0000:01:00.0",
        76,
        8188,
        0,
        1.0,
        140.0,
        37,
    ),
}


def _parse(real_captures, name, folder=DIR):
    return smi.parse((real_captures / folder / name).read_text())


def test_every_capture_is_covered(real_captures):
    names = {p.name for p in (real_captures / DIR).glob("*.txt")}
    errors = {n for n in names if n.startswith("error-")}
    assert names - errors - {"nvexp-nvidia-smi-q-rtx2080super-windows-591.86.txt"} == set(TABLES)
    assert len(errors) == 3


@pytest.mark.parametrize("name", sorted(TABLES))
def test_table_banner(real_captures, name):
    smi_version, driver_version, cuda, count, platform = TABLES[name]
    assert smi.detect((real_captures / DIR / name).read_text())
    driver, gpus = _parse(real_captures, name)
    assert (driver["smi_version"], driver["driver_version"], driver["cuda_driver_max"]) == (
        smi_version,
        driver_version,
        cuda,
    )
    assert len(gpus) == count == driver["gpu_count"]
    assert driver["platform"] == platform
    assert driver["driver_loaded"] is True


@pytest.mark.parametrize("name", sorted(ROWS))
def test_table_rows(real_captures, name):
    index, gpu_name, bus, used, total, util, power, cap, temp = ROWS[name]
    _, gpus = _parse(real_captures, name)
    gpu = next(g for g in gpus if g["index"] == index)
    assert (gpu["name"], gpu["pci_bus_id"], gpu["memory_used_mib"], gpu["memory_total_mib"]) == (
        gpu_name,
        bus,
        used,
        total,
    )
    assert (
        gpu["utilization_gpu_pct"],
        gpu["power_draw_w"],
        gpu["power_limit_w"],
        gpu["temperature_c"],
    ) == (util, power, cap, temp)


def test_cuda_version_placeholders(real_captures):
    driver, _ = _parse(
        real_captures,
        "TRUNCATED-wsl2-cuda-version-err-rtx3060-laptop-microsoft-WSL-issue-11589.txt",
    )
    assert driver["cuda_version_printed"] == "ERR!"
    driver, _ = _parse(
        real_captures, "unidentified-runai-docker-readme-rtx2080ti-container-cuda-na-418.116.00.txt"
    )
    assert driver["cuda_version_printed"] == "N/A"


def test_h100_mig_table(real_captures):
    _, gpus = _parse(real_captures, "nvexp-h100-mig-linux-590.48.01.txt")
    gpu = gpus[0]
    assert gpu["mig_mode"] == "enabled"
    assert [
        (d["index"], d["gpu_instance_id"], d["memory_total_mib"]) for d in gpu["mig_devices"]
    ] == [(0, 2, 40448), (1, 3, 20096), (2, 9, 9984), (3, 10, 9984)]
    assert gpu["persistence_mode"] is True
    assert gpu["process_count"] == 0


def test_h100_sxm_mig_disabled_and_ecc(real_captures):
    _, gpus = _parse(real_captures, "thamada-h100-sxm-x8-linux.txt")
    assert {g["mig_mode"] for g in gpus} == {"disabled"}
    assert {g["ecc"]["volatile_uncorrected"] for g in gpus} == {0}
    assert [g["pci_bus_id"] for g in gpus][:3] == ["0000:18:00.0", "0000:2a:00.0", "0000:3a:00.0"]


def test_windows_table_processes_and_driver_model(real_captures):
    _, gpus = _parse(real_captures, "nvexp-rtx2080super-windows-591.86.txt")
    assert gpus[0]["driver_model"] == "WDDM"
    assert gpus[0]["process_count"] == 10
    assert gpus[0]["name_truncated"] is True


def test_query_text_windows(real_captures):
    driver, gpus = _parse(real_captures, "nvexp-nvidia-smi-q-rtx2080super-windows-591.86.txt")
    assert (driver["driver_version"], driver["cuda_driver_max"], driver["gpu_count"]) == (
        "591.86",
        "13.1",
        1,
    )
    assert driver["platform"] == "windows"
    gpu = gpus[0]
    assert gpu["name"] == "NVIDIA GeForce RTX 2080 SUPER"
    assert gpu["pci_bus_id"] == "0000:0c:00.0"
    assert gpu["device_id"] == "0x1e81"
    assert gpu["architecture"] == "Turing"
    assert (gpu["memory_total_mib"], gpu["memory_used_mib"]) == (8192, 702)
    assert gpu["pcie"] == {
        "gen_current": 3,
        "gen_max": 3,
        "width_current": 16,
        "width_max": 16,
        "replay_counter": 0,
    }
    assert gpu["throttle_reasons"] == ["gpu_idle"]
    assert gpu["temperature_c"] == 40
    assert (gpu["power_draw_w"], gpu["power_limit_w"]) == (38.92, 250.0)
    assert gpu["virtualization_mode"] == "none"
    assert gpu["driver_model"] == "WDDM"
    assert gpu["process_count"] == 10
    assert gpu["serial"] is None


def test_error_couldnt_communicate_wsl1(real_captures):
    driver, gpus = _parse(
        real_captures, "error-couldnt-communicate-wsl1-microsoft-WSL-issue-3847.txt"
    )
    assert driver["driver_loaded"] is False
    assert driver["smi_error"] == "couldn't communicate with the NVIDIA driver"
    assert driver["nvml_error"] is None and gpus == []


def test_error_driver_not_loaded(real_captures):
    driver, _ = _parse(
        real_captures,
        "error-couldnt-communicate-driver-not-loaded-wsl2-microsoft-WSL-issue-9134.txt",
    )
    assert driver["driver_loaded"] is False
    assert driver["nvml_error"]["code"] == 9 and driver["nvml_error"]["name"] == "DRIVER_NOT_LOADED"


def test_error_library_mismatch(real_captures):
    text = (
        real_captures
        / DIR
        / "error-nvml-driver-library-version-mismatch-580-truenas-nvidia-drivers-issue-19.txt"
    ).read_text()
    driver, gpus = smi.parse(text)
    assert driver["nvml_error"]["code"] == 18
    assert driver["library_version"] == "580.178"
    assert driver["driver_version"] is None and gpus == []
    groups = smi.read(text)
    assert [g.name for g in groups] == ["nvidia.driver"]
    assert groups[0].source == "pasted:nvidia-smi"


def test_listing_with_mig(real_captures):
    driver, gpus = _parse(real_captures, "nvexp-nvidia-smi-L-h100-mig-590.48.01.txt", "misc")
    assert driver["gpu_count"] == 1
    gpu = gpus[0]
    assert gpu["name"] == "NVIDIA H100 80GB HBM3" and gpu["uuid"].startswith("GPU-0000")
    assert [(d["index"], d["profile"]) for d in gpu["mig_devices"]] == [
        (0, "3g.40gb"),
        (1, "2g.20gb"),
        (2, "1g.10gb"),
        (3, "1g.10gb"),
    ]
    assert gpu["mig_devices"][1]["uuid"] == "MIG-00000001-0000-0000-0000-000000000001"


def test_topology_with_ansi(real_captures):
    text = (real_captures / "misc" / "nvexp-nvidia-smi-topo-m-h200-590.48.01.txt").read_text()
    assert smi.detect(text)
    driver, gpus = smi.parse(text)
    assert driver["gpu_count"] == 1
    assert (gpus[0]["index"], gpus[0]["cpu_affinity"], gpus[0]["numa_affinity"]) == (0, "0-23", "0")


def test_reader_fills_compute_capability_by_name(real_captures):
    groups = {
        g.name: g for g in smi.read((real_captures / DIR / "thamada-a40-x10-linux.txt").read_text())
    }
    gpus = groups["nvidia.gpus"].data["gpus"]
    assert {g["compute_capability"] for g in gpus} == {None}  # filled by the enrichment step:
    nvidia_compute_capability(gpus, load_bundled())
    assert {g["compute_capability"] for g in gpus} == {"8.6"}
    assert groups["nvidia.driver"].data["driver_version"] == "550.127.05"


def test_not_nvidia_smi():
    assert not smi.detect('Traceback (most recent call last):\n  File "x.py"\n')
    assert smi.parse("hello world") is None
    assert smi.read("hello world") == []


@pytest.mark.parametrize(
    "name,count",
    [
        ("nvexp-nvidia-smi-q-rtx2080super-windows-591.86.txt", 1),
        ("thamada-a40-x10-linux.txt", 10),
        ("nvexp-h100-mig-linux-590.48.01.txt", 1),
    ],
)
def test_whole_paste_through_the_ingest_driver(real_captures, name, count):
    """The splitter keeps a whole table or -q log in one part, so every GPU reaches the reader."""
    from envdoctor.ingest import ingest_text

    snap = ingest_text((real_captures / DIR / name).read_text())
    assert snap.group("nvidia.gpus").source == "pasted:nvidia-smi"
    assert len(snap.fact("nvidia.gpus", "gpus")) == count
