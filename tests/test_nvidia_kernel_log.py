"""Kernel-log NVRM/Xid lines, /proc/driver/nvidia/version and lspci link lines: real captures."""

from __future__ import annotations

from pathlib import Path

import pytest

from envdoctor.ingest import kernel_log, lspci_link, proc_nvidia_version

TESTS = Path(__file__).resolve().parent


def _misc(real_captures, name):
    return (real_captures / "misc" / name).read_text()


def test_dmesg_t_human_times_loading_and_xids(real_captures):
    text = _misc(
        real_captures,
        "TRUNCATED-dmesg-T-nvrm-loading-535.183.01-xid-43-31-94-akash-support-issue-244.txt",
    )
    assert kernel_log.detect(text)
    data = kernel_log.parse(text)
    assert [x["code"] for x in data["xids"]] == [43, 43, 31, 94]
    first = data["xids"][0]
    assert (first["pci"], first["time"], first["pid"], first["process"]) == (
        "0000:00:05",
        "Wed Jul 31 23:14:18 2024",
        1045242,
        "pt_main_thread",
    )
    assert data["xids"][2]["message"].startswith(
        "Ch 00000008, intr 00000000. MMU Fault: ENGINE GRAPHICS"
    )
    assert data["xids"][3]["process"] is None and data["xids"][3]["pid"] is None
    assert data["xids"][3]["message"] == "Contained: SM (0x1). RST: No, D-RST: No"
    assert data["modules_loaded"] == [
        {
            "version": "535.183.01",
            "kernel_module": "proprietary",
            "time": "Sun Jul 28 09:15:27 2024",
        }
    ]
    assert data["gpu_uuids"]["0000:00:07"] == "GPU-3b6ec030-5adc-1847-e155-79f635584b4e"


def test_mmu_fault_then_62_and_45_run(real_captures):
    data = kernel_log.parse(
        _misc(real_captures, "TRUNCATED-dmesg-xid-31-mmu-fault-62-45-chia-gigahorse-issue-301.txt")
    )
    codes = [x["code"] for x in data["xids"]]
    assert codes == [31, 62] + [45] * 8
    assert (
        data["xids"][0]["time"] == "14328.198504"
        and data["xids"][0]["process"] == "cuda_plot_k32_v"
    )
    assert {x["pci"] for x in data["xids"]} == {"0000:0a:00"}


def test_fallen_off_bus_without_xid_joins_continuation_lines(real_captures):
    data = kernel_log.parse(
        _misc(
            real_captures,
            "dmesg-nvrm-fallen-off-bus-no-xid-open-kernel-module-570.158.01-NVSentinel-issue-155.txt",
        )
    )
    assert data["xids"] == []
    kinds = [m["kind"] for m in data["messages"]]
    assert kinds == ["fallen-off-bus", "probe-failed"]
    fallen = data["messages"][0]
    assert fallen["pci"] == "0000:b3:00.0" and fallen["time"] == "1843.308145"
    assert "(PCI ID: 10de:26b5) installed in this system has fallen off the bus" in fallen["text"]
    assert data["modules_loaded"][0] == {
        "version": "570.158.01",
        "kernel_module": "open",
        "time": "1843.439669",
    }
    assert kernel_log.summary(data) == "fallen-off-bus, probe-failed"


def test_old_xid_format_2015(real_captures):
    data = kernel_log.parse(
        _misc(real_captures, "dmesg-xid-32-31-old-format-2015-Bumblebee-issue-677.txt")
    )
    assert [(x["code"], x["pci"], x["message"]) for x in data["xids"]] == [
        (32, "0000:01:00", "Channel ID 00000000 intr 00004000"),
        (32, "0000:01:00", "Channel ID 00000000 intr 00004000"),
        (31, "0000:01:00", "Ch 00000003, engmask 00000101, intr 10000000"),
    ]


def test_nouveau_owning_the_gpu_in_a_real_paste():
    text = (TESTS / "triage_corpus" / "036-fedora-nouveau-bound-blocks-nvidia.txt").read_text()
    data = kernel_log.parse(text.split("#! ---", 1)[1])
    assert data["nouveau_devices"] == ["0000:01:00.0"]


def test_reader_group(real_captures):
    groups = kernel_log.read(
        _misc(real_captures, "dmesg-xid-32-31-old-format-2015-Bumblebee-issue-677.txt")
    )
    assert [g.name for g in groups] == ["nvidia.events"]
    assert groups[0].source == "pasted:kernel-log"
    assert groups[0].summary == "3 Xid events (31, 32)"
    assert kernel_log.read("just some text") == []


# file -> (module_version, kernel_module, arch, jetson_l4t)
VERSIONS = {
    "proc-driver-nvidia-version-proprietary-384.98-neofetch-issue-876.txt": (
        "384.98",
        "proprietary",
        "x86_64",
        None,
    ),
    "proc-driver-nvidia-version-open-565.57.01-nixGL-issue-186.txt": (
        "565.57.01",
        "open",
        "x86_64",
        None,
    ),
    "proc-driver-nvidia-version-open-525.60.11-arch-no-date-nixGL-issue-121.txt": (
        "525.60.11",
        "open",
        "x86_64",
        None,
    ),
    "proc-driver-nvidia-version-jetson-orin-nx-aarch64-35.3.1-nixGL-issue-139.txt": (
        "35.3.1",
        "open",
        "aarch64",
        "35.3.1",
    ),
    "proc-driver-nvidia-version-580.173.02-truenas-mismatch-truenas-nvidia-drivers-issue-19.txt": (
        "580.173.02",
        "proprietary",
        "x86_64",
        None,
    ),
}


def test_every_version_capture_is_covered(real_captures):
    assert {p.name for p in (real_captures / "misc").glob("proc-driver-nvidia-version-*")} == set(
        VERSIONS
    )


@pytest.mark.parametrize("name", sorted(VERSIONS))
def test_proc_version(real_captures, name):
    text = _misc(real_captures, name)
    assert proc_nvidia_version.detect(text)
    parsed = proc_nvidia_version.parse(text)
    assert (
        parsed["module_version"],
        parsed["kernel_module"],
        parsed["arch"],
        parsed["jetson_l4t"],
    ) == VERSIONS[name]
    assert parsed["gcc_version"].startswith("gcc version ")
    driver = proc_nvidia_version.read(text)[0].data
    assert driver["module_version"] == VERSIONS[name][0]
    assert driver["driver_version"] == (None if VERSIONS[name][3] else VERSIONS[name][0])


def test_proc_version_gcc_and_build(real_captures):
    parsed = proc_nvidia_version.parse(
        _misc(real_captures, "proc-driver-nvidia-version-open-565.57.01-nixGL-issue-186.txt")
    )
    assert parsed["gcc_version"] == "gcc version 13.3.0 (Ubuntu 13.3.0-6ubuntu2~24.04)"
    assert parsed["build"].startswith("Release Build  (dvs-builder@U16-A24-9-2)")
    assert proc_nvidia_version.parse("NVRM: Xid (PCI:0000:01:00): 79") is None


def test_lspci_riser_downgraded_speed(real_captures):
    text = _misc(
        real_captures, "lspci-lnkcap-lnksta-rtx4090-riser-downgraded-2.5GT-janhq-jan-issue-183.txt"
    )
    assert lspci_link.detect(text)
    device = lspci_link.parse(text)[0]
    assert device["link"] == {
        "speed_current_gts": 2.5,
        "gen_current": 1,
        "width_current": 16,
        "speed_max_gts": 16.0,
        "gen_max": 4,
        "width_max": 16,
        "speed_downgraded": True,
        "width_downgraded": False,
    }
    assert device["address"] is None and device["driver_unknown"] is True


def test_lspci_tab_fragment_width_x1(real_captures):
    text = _misc(
        real_captures,
        "FRAGMENT-lspci-vv-quadro-rtx8000-rpi-x1-downgraded-geerlingguy-issue-480.txt",
    )
    device = lspci_link.parse(text)[0]
    assert (device["link"]["gen_current"], device["link"]["width_current"]) == (2, 1)
    assert device["link"]["width_downgraded"] and device["link"]["speed_downgraded"]
    assert device["link"]["gen_max"] is None
    group = lspci_link.read(text)[0]
    assert group.name == "nvidia.pci" and group.source == "pasted:lspci"


def test_lspci_header_and_driver_line():
    text = (
        "01:00.0 VGA compatible controller [0300]: NVIDIA Corporation AD102 [GeForce RTX 4090] [10de:2684] (rev a1)\n"
        "\tLnkCap:\tPort #0, Speed 16GT/s, Width x16, ASPM L1\n"
        "\tLnkSta:\tSpeed 16GT/s, Width x16\n"
        "\tKernel driver in use: nvidia\n"
        "02:00.0 Ethernet controller [0200]: Intel Corporation I210 [8086:1533]\n"
        "\tLnkSta:\tSpeed 2.5GT/s, Width x1\n"
    )
    devices = lspci_link.parse(text)
    assert len(devices) == 1
    assert (
        devices[0]["address"],
        devices[0]["device_id"],
        devices[0]["class"],
        devices[0]["driver"],
    ) == ("0000:01:00.0", "0x2684", "0x0300", "nvidia")
    assert devices[0]["driver_unknown"] is False


@pytest.mark.parametrize(
    "module,pattern",
    [
        ("nvidia_smi_xml", "nvidia-smi-q-x/*.xml"),
        ("nvidia_smi_text", "nvidia-smi-text/*.txt"),
        ("nvidia_smi_text", "misc/nvexp-nvidia-smi-*"),
        ("proc_nvidia_version", "misc/proc-driver-nvidia-version-*"),
        ("kernel_log", "misc/*dmesg*"),
        ("lspci_link", "misc/*lspci*"),
    ],
)
def test_markers_cover_every_capture_the_reader_accepts(real_captures, module, pattern):
    """The ingest driver skips detect() on parts without a MARKERS string: none may be lost."""
    import importlib

    reader = importlib.import_module(f"envdoctor.ingest.{module}")
    files = sorted(real_captures.glob(pattern))
    assert files
    for path in files:
        text = path.read_text()
        assert reader.detect(text), path.name
        assert any(marker in text for marker in reader.MARKERS), path.name
