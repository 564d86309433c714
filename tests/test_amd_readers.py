"""The rocminfo and rocm-smi / amd-smi readers on every real capture in tests/fixtures/real."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from envdoctor.diagnosis.enrich import amd_targets
from envdoctor.ingest import ingest_text, rocm_smi, rocminfo
from envdoctor.matrix.loader import load_bundled

FIXTURES = Path(__file__).parent / "fixtures" / "amd"


@pytest.fixture(scope="module")
def ms():
    return load_bundled()


def _parse(text: str, ms) -> dict:
    """rocm_smi.parse, then the enrichment step a diagnosis applies (gfx targets by name)."""
    facts = rocm_smi.parse(text)
    amd_targets(facts["gpus"], ms)
    return facts


def _read(real_captures: Path, folder: str, name: str) -> str:
    return (real_captures / folder / name).read_text()


# -- rocminfo ---------------------------------------------------------------------------------
ROCMINFO = {
    # file: (count, name, gfx, vram MiB of GPU 0, PCI bus of GPU 0, unique id of GPU 0, ROCk line)
    "thamada-rocminfo-mi300x-x4-epyc9474f.txt": (
        4,
        "AMD Instinct MI300X",
        "gfx942",
        196592,
        "0000:26:00.0",
        "0x8d1457e2c20f59d2",
        True,
    ),
    "bankh-rocminfo-radeon-instinct-mi25-x7-threadripper.txt": (
        7,
        "Radeon Instinct MI25",
        "gfx900",
        16368,
        "0000:63:00.0",
        None,
        True,
    ),
    "rocminfo-wsl2-gfx1030-rx6800xt-rocm-6.1.3-rocm-issue-3581.txt": (
        1,
        "AMD Radeon RX 6800 XT",
        "gfx1030",
        16338,
        None,
        None,
        None,
    ),
}


def test_every_rocminfo_capture_is_covered(real_captures):
    assert sorted(p.name for p in (real_captures / "rocminfo").iterdir()) == sorted(ROCMINFO)


@pytest.mark.parametrize("name", sorted(ROCMINFO))
def test_rocminfo_captures(real_captures, name):
    count, product, gfx, vram, pci, unique, rock = ROCMINFO[name]
    text = _read(real_captures, "rocminfo", name)
    assert rocminfo.detect(text)
    facts = rocminfo.parse(text)
    gpus = facts["gpus"]
    assert len(gpus) == count
    assert [g["index"] for g in gpus] == list(range(count))
    assert {g["name"] for g in gpus} == {product}
    assert {g["gfx_target"] for g in gpus} == {gfx}
    assert gpus[0]["vram_mib"] == vram
    assert gpus[0]["pci_bus_id"] == pci
    assert gpus[0]["unique_id"] == unique
    assert facts["rock_loaded"] is rock
    assert facts["runtime_version"] == "1.1"


def test_rocminfo_mi300x_details(real_captures):
    facts = rocminfo.parse(
        _read(real_captures, "rocminfo", "thamada-rocminfo-mi300x-x4-epyc9474f.txt")
    )
    first, last = facts["gpus"][0], facts["gpus"][-1]
    assert (first["kfd_node"], last["kfd_node"]) == (2, 5)  # two EPYC CPU agents come first
    assert first["device_id"] == "0x74a1" and first["compute_units"] == 304
    assert first["gfx_target_version"] == 90402
    assert first["isa"] == "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-"
    assert [g["pci_bus_id"] for g in facts["gpus"]] == [
        "0000:26:00.0",
        "0000:46:00.0",
        "0000:65:00.0",
        "0000:85:00.0",
    ]
    assert facts["cpus"] == ["AMD EPYC 9474F 48-Core Processor"] * 2


def test_rocminfo_mi25_keeps_each_gpu_apart(real_captures):
    gpus = rocminfo.parse(
        _read(real_captures, "rocminfo", "bankh-rocminfo-radeon-instinct-mi25-x7-threadripper.txt")
    )["gpus"]
    assert len({g["pci_bus_id"] for g in gpus}) == 7
    # only the last MI25 prints a Uuid in this capture
    assert [g["unique_id"] for g in gpus].count(None) == 6


def test_rocminfo_slice_without_the_first_agents(real_captures):
    """A paste cut in the middle (the text splitter slices long logs) still numbers GPUs by node."""
    text = _read(real_captures, "rocminfo", "thamada-rocminfo-mi300x-x4-epyc9474f.txt")
    tail = text[text.index("Agent 5") :]
    tail = "*******\n" + tail
    facts = rocminfo.parse(tail)
    assert facts["complete"] is False
    assert [g["kfd_node"] for g in facts["gpus"]] == [4, 5]
    assert [g["index"] for g in facts["gpus"]] == [3, 4]


def test_rocminfo_permission_denied_capture():
    text = (FIXTURES / "rocminfo-kfd-permission-denied-rocm-docker-issue-116.txt").read_text()
    assert rocminfo.detect(text)
    groups = {g.name: g for g in rocminfo.read(text)}
    assert set(groups) == {"amd.kernel"}
    kernel = groups["amd.kernel"].data
    assert kernel["amdgpu"] == {"loaded": True, "version": None}
    assert kernel["kfd"]["accessible"] is False and kernel["kfd"]["error"] == "Permission denied"


def test_rocminfo_groups_in_a_mixed_paste(real_captures):
    text = "here is my rocminfo:\n" + _read(
        real_captures, "rocminfo", "rocminfo-wsl2-gfx1030-rx6800xt-rocm-6.1.3-rocm-issue-3581.txt"
    )
    snap = ingest_text(text)
    gpus = snap.fact("amd.gpus", "gpus")
    assert [(g["name"], g["gfx_target"]) for g in gpus] == [("AMD Radeon RX 6800 XT", "gfx1030")]
    assert snap.group("amd.gpus").source == "pasted:rocminfo"
    assert snap.fact("amd.rocm", "hsa_runtime_version") == "1.1"


def test_rocminfo_detect_rejects_other_text(real_captures):
    assert not rocminfo.detect(
        _read(real_captures, "rocm-smi", "thamada-rocm-smi-concise-mi300x-x4.txt")
    )
    assert not rocminfo.detect(
        'Traceback (most recent call last):\n  File "x.py"\nRuntimeError: boom\n'
    )


# -- rocm-smi / amd-smi -------------------------------------------------------------------------
ROCM_SMI = {
    # file: (format, count, name of GPU 0, gfx of GPU 0, PCI bus of GPU 0, VRAM MiB, driver version)
    "thamada-rocm-smi-concise-mi300x-x4.txt": (
        "rocm-smi-concise",
        4,
        "AMD Instinct MI300X",
        "gfx942",
        None,
        None,
        None,
    ),
    "thamada-rocm-smi-concise-mi300x-x1.txt": (
        "rocm-smi-concise",
        1,
        "AMD Instinct MI300X",
        "gfx942",
        None,
        None,
        None,
    ),
    "thamada-rocm-smi-a-mi300x-x4.txt": (
        "rocm-smi-a",
        4,
        "AMD Instinct MI300X OAM",
        "gfx942",
        "0000:26:00.0",
        None,
        "6.7.0",
    ),
    "telegraf-mi100-rocm571.json": (
        "rocm-smi-json",
        6,
        "Arcturus GL-XL [Instinct MI100]",
        "gfx908",
        "0000:1e:00.0",
        32752,
        "6.2.4",
    ),
    "telegraf-mi100-rocm602.json": (
        "rocm-smi-json",
        4,
        "Arcturus GL-XL [Instinct MI100]",
        "gfx908",
        "0000:83:00.0",
        32752,
        "6.3.6",
    ),
    "telegraf-rx6700xt-rocm430.json": (
        "rocm-smi-json",
        1,
        None,
        None,
        "0000:07:00.0",
        12272,
        "6.3.6",
    ),
    "telegraf-rx6700xt-rocm612.json": (
        "rocm-smi-json",
        1,
        "Navi 22 [Radeon RX 6700/6700 XT / 6800M]",
        "gfx1031",
        "0000:07:00.0",
        12272,
        "6.3.6",
    ),
    "telegraf-vega-10-XT.json": ("rocm-smi-json", 1, None, None, "0000:04:00.0", 16368, "5.9.25"),
    "telegraf-vega-20-WKS-GL-XE.json": (
        "rocm-smi-json",
        1,
        "Radeon Instinct MI50 32GB",
        "gfx906",
        "0000:63:00.0",
        32752,
        "5.9.17",
    ),
    "openpai-rocm-smi-a-json-vega20.json": (
        "rocm-smi-json",
        2,
        "Vega 20",
        None,
        "0000:03:00.0",
        16368,
        "5.3.0-26-generic",
    ),
}


def test_every_rocm_smi_capture_is_covered(real_captures):
    assert sorted(p.name for p in (real_captures / "rocm-smi").iterdir()) == sorted(ROCM_SMI)


@pytest.mark.parametrize("name", sorted(ROCM_SMI))
def test_rocm_smi_captures(real_captures, ms, name):
    fmt, count, product, gfx, pci, vram, driver = ROCM_SMI[name]
    text = _read(real_captures, "rocm-smi", name)
    assert rocm_smi.detect(text)
    facts = _parse(text, ms)
    assert facts["format"] == fmt
    assert len(facts["gpus"]) == count
    first = facts["gpus"][0]
    assert (first["name"], first["gfx_target"], first["pci_bus_id"], first["vram_mib"]) == (
        product,
        gfx,
        pci,
        vram,
    )
    assert facts["driver_version"] == driver


def test_rocm_smi_gfx_source(real_captures, ms):
    printed = _parse(_read(real_captures, "rocm-smi", "telegraf-rx6700xt-rocm612.json"), ms)[
        "gpus"
    ][0]
    assert "gfx_target_source" not in printed  # rocm-smi 6.1 prints "GFX Version: gfx1031" itself
    looked_up = _parse(_read(real_captures, "rocm-smi", "telegraf-mi100-rocm571.json"), ms)["gpus"][
        0
    ]
    assert (
        looked_up["gfx_target_source"] == "product-name"
        and looked_up["gfx_target_version"] == 90008
    )


def test_rocm_smi_unique_ids_and_card_order(real_captures, ms):
    # the 2020 JSON lists card2 before card1; GPUs come out in card order
    gpus = _parse(_read(real_captures, "rocm-smi", "openpai-rocm-smi-a-json-vega20.json"), ms)[
        "gpus"
    ]
    assert [(g["card"], g["unique_id"]) for g in gpus] == [
        (1, "0x7c96610172fc1a8d"),
        (2, "0x249220e172fc1a88"),
    ]
    a = _parse(_read(real_captures, "rocm-smi", "thamada-rocm-smi-a-mi300x-x4.txt"), ms)["gpus"]
    assert [g["unique_id"] for g in a] == [
        "0x8d1457e2c20f59d2",
        "0xb4fa34630e85d42a",
        "0xe8986800e182538a",
        "0xeff71edc82169115",
    ]


def test_rocm_smi_and_rocminfo_of_one_machine_merge(real_captures):
    """The MI300X rocminfo and rocm-smi -a of the same host: one list of 4 GPUs, facts united."""
    text = (
        _read(real_captures, "rocminfo", "thamada-rocminfo-mi300x-x4-epyc9474f.txt")
        + "\n"
        + _read(real_captures, "rocm-smi", "thamada-rocm-smi-a-mi300x-x4.txt")
    )
    snap = ingest_text(text)
    gpus = snap.fact("amd.gpus", "gpus")
    assert len(gpus) == 4
    assert gpus[0]["vram_mib"] == 196592 and gpus[0]["vbios"] == "113-MI3SRIOV-001"
    assert snap.fact("amd.kernel", "amdgpu")["version"] == "6.7.0"


def test_amd_smi_json_shape(ms):
    """Shaped example (no real amd-smi JSON capture found): the CLI's key names, both layouts."""
    doc = [
        {
            "gpu": 0,
            "asic": {
                "market_name": "AMD Instinct MI300X",
                "device_id": "0x74a1",
                "target_graphics_version": "gfx942",
                "asic_serial": "0xABCDEF0123456789",
            },
            "bus": {"bdf": "0000:26:00.0"},
            "vram": {"size": {"value": 196592, "unit": "MB"}},
            "driver": {"name": "amdgpu", "version": "6.8.5"},
        }
    ]
    for text in (json.dumps(doc), json.dumps({"gpu_data": doc})):
        assert rocm_smi.detect(text)
        facts = _parse(text, ms)
        assert facts["format"] == "amd-smi-json" and facts["driver_version"] == "6.8.5"
        [gpu] = facts["gpus"]
        assert (gpu["name"], gpu["gfx_target"], gpu["pci_bus_id"], gpu["vram_mib"]) == (
            "AMD Instinct MI300X",
            "gfx942",
            "0000:26:00.0",
            196592,
        )


def test_rocm_smi_detect_rejects_other_json():
    assert not rocm_smi.detect('{"schema_version": 1, "snapshot": {}}')
    assert not rocm_smi.detect('[{"name": "torch", "version": "2.5.1"}]')
