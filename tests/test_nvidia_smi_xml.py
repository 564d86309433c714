"""`nvidia-smi -q -x` XML: every real capture (DTD v9 to v13) read into the facts it states."""

from __future__ import annotations

import pytest

from envdoctor.diagnosis.enrich import nvidia_compute_capability
from envdoctor.ingest import nvidia_smi_xml as xml
from envdoctor.matrix.loader import load_bundled
from envdoctor.model.snapshot import Confidence

DIR = "nvidia-smi-q-x"

# file -> (driver_version, cuda_driver_max, gpu records parsed, attached_gpus, platform)
DRIVERS = {
    "openpai-geforce-gt730-driver-384.111-util-na.xml": ("384.111", None, 1, 1, "linux"),
    "openpai-geforce-gtx1070-x2-driver-384.66-dtd-v9.xml": ("384.66", None, 2, 6, "linux"),
    "openpai-geforce-rtx2080ti-x2-driver-410.73.xml": ("410.73", "10.0", 2, 2, "linux"),
    "openpai-tesla-k80-x4-driver-430.26-cuda-not-found.xml": ("430.26", None, 4, 4, "linux"),
    "telegraf-a100-sxm4-80gb-mig-driver-535.54.03.xml": ("535.54.03", "12.2", 1, 4, "linux"),
    "telegraf-a10g-driver-515.105.01.xml": ("515.105.01", "11.7", 1, 1, "linux"),
    "telegraf-geforce-gtx-1070ti-trimmed-dtd-v10.xml": (None, None, 1, 1, "linux"),
    "telegraf-geforce-rtx3060-driver-570.124.04.xml": ("570.124.04", "12.8", 1, 1, "linux"),
    "telegraf-geforce-rtx3080-driver-595.58.03-dtd-v13.xml": ("595.58.03", "13.2", 1, 1, "linux"),
    "telegraf-geforce-rtx3080-windows-driver-536.40.xml": ("536.40", "12.2", 1, 1, "windows"),
    "telegraf-geforce-rtx3090-driver-525.147.05.xml": ("525.147.05", "12.0", 1, 1, "linux"),
    "telegraf-gtx-1660ti-graphics-device-driver-418.43.xml": ("418.43", "10.1", 1, 1, "linux"),
    "telegraf-quadro-p2000-driver-525.125.06.xml": ("525.125.06", "12.0", 1, 1, "linux"),
    "telegraf-quadro-p400-driver-418.43.xml": ("418.43", "10.1", 1, 1, "linux"),
    "telegraf-rtx4000-sff-ada-driver-595.84-dtd-v13.xml": ("595.84", "13.2", 1, 1, "linux"),
    "telegraf-tesla-t4-driver-515.105.01.xml": ("515.105.01", "11.7", 1, 1, "linux"),
}

# file -> (first GPU's name, pci_bus_id, memory_total_mib, memory_used_mib)
FIRST_GPU = {
    "openpai-geforce-gt730-driver-384.111-util-na.xml": (
        "GeForce GT 730",
        "0000:01:00.0",
        None,
        None,
    ),
    "openpai-geforce-gtx1070-x2-driver-384.66-dtd-v9.xml": (
        "GeForce GTX 1070",
        "0000:01:00.0",
        8112,
        2028,
    ),
    "openpai-geforce-rtx2080ti-x2-driver-410.73.xml": (
        "GeForce RTX 2080 Ti",
        "0000:02:00.0",
        10989,
        0,
    ),
    "openpai-tesla-k80-x4-driver-430.26-cuda-not-found.xml": (
        "Tesla K80",
        "1580:00:00.0",
        11441,
        587,
    ),
    "telegraf-a100-sxm4-80gb-mig-driver-535.54.03.xml": (
        "NVIDIA A100-SXM4-80GB",
        "0000:01:00.0",
        81920,
        50,
    ),
    "telegraf-a10g-driver-515.105.01.xml": ("NVIDIA A10G", "0000:00:1e.0", 23028, 22),
    "telegraf-geforce-gtx-1070ti-trimmed-dtd-v10.xml": (
        "GeForce GTX 1070 Ti",
        "0000:01:00.0",
        4096,
        42,
    ),
    "telegraf-geforce-rtx3060-driver-570.124.04.xml": (
        "NVIDIA GeForce RTX 3060",
        "0000:2d:00.0",
        12288,
        116,
    ),
    "telegraf-geforce-rtx3080-driver-595.58.03-dtd-v13.xml": (
        "NVIDIA GeForce RTX 3080",
        "0000:0c:00.0",
        10240,
        9184,
    ),
    "telegraf-geforce-rtx3080-windows-driver-536.40.xml": (
        "NVIDIA GeForce RTX 3080",
        "0000:04:00.0",
        10240,
        1128,
    ),
    "telegraf-geforce-rtx3090-driver-525.147.05.xml": (
        "NVIDIA GeForce RTX 3090",
        "0000:00:10.0",
        24576,
        1,
    ),
    "telegraf-gtx-1660ti-graphics-device-driver-418.43.xml": (
        "Graphics Device",
        "0000:43:00.0",
        5912,
        0,
    ),
    "telegraf-quadro-p2000-driver-525.125.06.xml": ("Quadro P2000", "0000:17:00.0", 5120, 1),
    "telegraf-quadro-p400-driver-418.43.xml": ("Quadro P400", "0000:43:00.0", 1998, 0),
    "telegraf-rtx4000-sff-ada-driver-595.84-dtd-v13.xml": (
        "NVIDIA RTX 4000 SFF Ada Generation",
        "0000:06:00.0",
        20475,
        3534,
    ),
    "telegraf-tesla-t4-driver-515.105.01.xml": ("Tesla T4", "0000:00:1e.0", 15360, 1032),
}


def _parse(real_captures, name):
    return xml.parse((real_captures / DIR / name).read_text())


def test_every_capture_is_covered(real_captures):
    names = {p.name for p in (real_captures / DIR).glob("*.xml")}
    assert names == set(DRIVERS) == set(FIRST_GPU)


@pytest.mark.parametrize("name", sorted(DRIVERS))
def test_driver_facts(real_captures, name):
    version, cuda, parsed, attached, platform = DRIVERS[name]
    driver, gpus = _parse(real_captures, name)
    assert driver["driver_version"] == version
    assert driver["cuda_driver_max"] == cuda
    assert len(gpus) == parsed
    assert driver["gpu_count"] == attached
    assert driver["platform"] == platform
    assert driver["sources"] == ["nvidia-smi"]


@pytest.mark.parametrize("name", sorted(FIRST_GPU))
def test_first_gpu(real_captures, name):
    gpu_name, bus, total, used = FIRST_GPU[name]
    _, gpus = _parse(real_captures, name)
    gpu = gpus[0]
    assert (gpu["name"], gpu["pci_bus_id"], gpu["memory_total_mib"], gpu["memory_used_mib"]) == (
        gpu_name,
        bus,
        total,
        used,
    )
    assert gpu["index"] == 0


def test_a100_mig_devices(real_captures):
    _, gpus = _parse(real_captures, "telegraf-a100-sxm4-80gb-mig-driver-535.54.03.xml")
    gpu = gpus[0]
    assert gpu["mig_mode"] == "enabled" and gpu["mig_mode_pending"] == "enabled"
    assert [d["gpu_instance_id"] for d in gpu["mig_devices"]] == [3, 4, 5, 6]
    assert {d["memory_total_mib"] for d in gpu["mig_devices"]} == {19968}
    assert gpu["uuid"] == "GPU-513536b6-7d19-9063-b049-1e69664bb298"
    assert gpu["serial"] == "1650522003820"
    assert gpu["ecc"]["mode"] == "enabled"
    assert gpu["ecc"]["aggregate_uncorrected"] == 0
    assert gpu["pcie"] == {
        "gen_current": 4,
        "gen_max": 4,
        "width_current": 16,
        "width_max": 16,
        "replay_counter": 0,
    }
    assert gpu["device_id"] == "0x20b2"
    assert gpu["power_draw_w"] == 67.03 and gpu["power_limit_w"] == 500.0
    assert gpu["temperature_c"] == 27
    assert gpu["utilization_gpu_pct"] is None  # N/A under MIG
    assert gpu["remapped_rows"]["pending"] is None  # "N/A" with MIG instances
    assert gpu["display_mode"] is True and gpu["persistence_mode"] is False


def test_k80_ecc_and_retired_pages(real_captures):
    _, gpus = _parse(real_captures, "openpai-tesla-k80-x4-driver-430.26-cuda-not-found.xml")
    assert [g["ecc"]["aggregate_uncorrected"] for g in gpus][:2] == [7, 4]
    assert gpus[0]["ecc"]["volatile_uncorrected"] == 0
    assert gpus[0]["retired_pages"] == {"single_bit": 1, "double_bit": 1, "pending": False}
    assert gpus[0]["throttle_reasons"] == ["applications_clocks_setting"]
    assert gpus[0]["virtualization_mode"] == "pass-through"
    assert gpus[0]["power_draw_w"] == 135.72 and gpus[0]["power_limit_w"] == 149.0


def test_v13_remapped_rows_and_nested_power(real_captures):
    _, gpus = _parse(real_captures, "telegraf-rtx4000-sff-ada-driver-595.84-dtd-v13.xml")
    assert gpus[0]["remapped_rows"] == {
        "correctable": 0,
        "uncorrectable": 0,
        "pending": False,
        "failure": False,
    }
    _, gpus = _parse(real_captures, "telegraf-geforce-rtx3080-driver-595.58.03-dtd-v13.xml")
    gpu = gpus[0]
    assert gpu["power_draw_w"] == 142.33 and gpu["power_limit_w"] == 320.0
    assert gpu["utilization_gpu_pct"] == 65
    assert gpu["throttle_reasons"] == []


def test_busy_gtx1070_on_x1_risers(real_captures):
    _, gpus = _parse(real_captures, "openpai-geforce-gtx1070-x2-driver-384.66-dtd-v9.xml")
    assert [
        (g["pcie"]["width_current"], g["pcie"]["width_max"], g["utilization_gpu_pct"]) for g in gpus
    ] == [(1, 16, 100), (1, 16, 98)]
    assert [g["process_count"] for g in gpus] == [3, 1]


def test_windows_driver_model(real_captures):
    _, gpus = _parse(real_captures, "telegraf-geforce-rtx3080-windows-driver-536.40.xml")
    assert gpus[0]["driver_model"] == "WDDM"


def test_reader_groups_and_compute_capability(real_captures):
    groups = {
        g.name: g
        for g in xml.read(
            (real_captures / DIR / "telegraf-tesla-t4-driver-515.105.01.xml").read_text()
        )
    }
    assert set(groups) == {"nvidia.driver", "nvidia.gpus"}
    assert groups["nvidia.driver"].source == "pasted:nvidia-smi-xml"
    assert groups["nvidia.gpus"].confidence is Confidence.MEDIUM
    gpu = groups["nvidia.gpus"].data["gpus"][0]
    assert gpu["compute_capability"] is None  # the XML does not say; the GPU table does:
    nvidia_compute_capability(groups["nvidia.gpus"].data["gpus"], load_bundled())
    assert gpu["compute_capability"] == "7.5" and gpu["compute_capability_source"] == "matrix"


def test_detect_and_embedded_and_truncated(real_captures):
    text = (real_captures / DIR / "telegraf-quadro-p400-driver-418.43.xml").read_text()
    assert xml.detect(text)
    assert not xml.detect("Driver Version: 550.54.14")
    driver, _ = xml.parse("$ nvidia-smi -q -x\n" + text + "\n$ exit\n")
    assert driver["driver_version"] == "418.43"
    cut = text[: text.index("</gpu>") + len("</gpu>") + 20]
    driver, gpus = xml.parse(cut)
    assert driver["driver_version"] == "418.43" and gpus[0]["name"] == "Quadro P400"
    assert xml.read("<nvidia_smi_log><gpu") == []
