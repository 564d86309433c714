"""envdoctor.queries.rocm: gfx arithmetic and the ROCm support tables."""

from __future__ import annotations

import pytest

from envdoctor.matrix.loader import load_bundled
from envdoctor.model import amd_gfx
from envdoctor.queries import rocm as rq


@pytest.fixture(scope="module")
def ms():
    return load_bundled()


# test vectors of the decoding rule (ollama's discover code): 90012 -> gfx90c, 110000 -> gfx1100 ...
@pytest.mark.parametrize(
    "number, gfx",
    [
        (90000, "gfx900"),
        (90010, "gfx90a"),
        (90012, "gfx90c"),
        (90402, "gfx942"),
        (100300, "gfx1030"),
        (110000, "gfx1100"),
        (110003, "gfx1103"),
        (110501, "gfx1151"),
        (120001, "gfx1201"),
    ],
)
def test_target_version_round_trip(number, gfx):
    assert amd_gfx.gfx_from_target_version(number) == gfx
    assert amd_gfx.target_version_of(gfx) == number


@pytest.mark.parametrize("value", [0, "0", None, "x", 91600, -1])
def test_target_version_rejects(value):
    assert amd_gfx.gfx_from_target_version(value) is None


@pytest.mark.parametrize(
    "text, gfx",
    [
        ("amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-", "gfx942"),
        ("GFX1100", "gfx1100"),
        ("gfx90a:xnack-", "gfx90a"),
        ("AMD Radeon", None),
    ],
)
def test_normalize(text, gfx):
    assert amd_gfx.normalize_gfx(text) == gfx


@pytest.mark.parametrize(
    "value, gfx",
    [
        ("10.3.0", "gfx1030"),
        ("11.0.0", "gfx1100"),
        ("9.0.10", "gfx90a"),
        ("9.4.2", "gfx942"),
        ("12.0.1", "gfx1201"),
        ("9.0.16", None),
        ("10.3", None),
    ],
)
def test_override_values(value, gfx):
    assert amd_gfx.gfx_from_override(value) == gfx
    if gfx:
        assert amd_gfx.override_string(gfx) == value


@pytest.mark.parametrize(
    "gfx, rocm, status",
    [
        ("gfx1100", "5.7.1", "unlisted"),
        ("gfx1100", "6.0.0", "supported"),
        ("gfx942", "6.0.2", "supported"),
        ("gfx906", "5.7.0", "supported"),
        ("gfx906", "6.2.4", "deprecated"),
        ("gfx900", "6.1.0", "unsupported"),
        ("gfx1031", "6.3.3", "unlisted"),
        ("gfx1101", "6.2.4", "unlisted"),
        ("gfx1030", "6.3.0", "supported"),
        ("gfx1100", "6.4.0", None),
        ("gfx1100", "7.2.0", None),
    ],
)
def test_is_gfx_supported_by_release(ms, gfx, rocm, status):
    """'Is gfx target T supported by ROCm R': None where the tables stop (6.4 and later)."""
    assert rq.target_status(ms, gfx, rocm) == status
    assert rq.is_supported(ms, gfx, rocm) == (
        None if status is None else status in ("supported", "deprecated")
    )


def test_supported_targets_per_release(ms):
    assert rq.supported_targets(ms, "5.7.1") == ["gfx1030", "gfx906", "gfx908", "gfx90a"]
    assert rq.supported_targets(ms, "6.2.4") == [
        "gfx1030",
        "gfx1100",
        "gfx906",
        "gfx908",
        "gfx90a",
        "gfx942",
    ]
    assert rq.supported_targets(ms, "6.2.4", include_deprecated=False) == [
        "gfx1030",
        "gfx1100",
        "gfx908",
        "gfx90a",
        "gfx942",
    ]
    assert rq.supported_targets(ms, "6.4.1") is None


def test_products_and_reverse_lookup(ms):
    assert rq.products(ms, "gfx942") == [
        "AMD Instinct MI300X",
        "AMD Instinct MI300A",
        "AMD Instinct MI325X",
    ]
    assert rq.products(ms, "gfx1031") == [
        "AMD Radeon RX 6750 XT",
        "AMD Radeon RX 6700 XT",
        "AMD Radeon RX 6700",
    ]
    assert rq.architecture(ms, "gfx90a") == "CDNA2" and rq.architecture(ms, "gfx1201") == "RDNA4"
    for name, gfx in [
        ("AMD Instinct MI300X OAM", "gfx942"),
        ("Arcturus GL-XL [Instinct MI100]", "gfx908"),
        ("AMD Radeon RX 7900 XT", "gfx1100"),
        ("AMD Radeon RX 7900 XTX", "gfx1100"),
        ("AMD Radeon™ RX 6800 XT", "gfx1030"),
        ("Vega 20", None),
        ("", None),
    ]:
        assert rq.gfx_for_product(ms, name) == gfx, name


def test_apu_flags(ms):
    assert rq.is_apu(ms, "gfx1103") is True and rq.is_apu(ms, "gfx1151") is True
    assert rq.is_apu(ms, "gfx1100") is False and rq.is_apu(ms, "gfx1999") is None


def test_product_status(ms):
    assert rq.product_status(ms, "AMD Radeon RX 7900 GRE", "6.0.0") == "unlisted"
    assert rq.product_status(ms, "AMD Radeon RX 7900 GRE", "6.0.2") == "supported"
    assert (
        rq.product_status(ms, "AMD Radeon PRO W7900 Dual Slot", "6.1.0") == "supported"
    )  # contains "PRO W7900"
    assert rq.product_status(ms, "AMD Radeon Pro VII", "6.1.2") == "deprecated"
    assert rq.product_status(ms, "AMD Radeon RX 6800 XT", "6.2.4") == "unlisted"


def test_override_for_an_unlisted_card(ms):
    rdna2 = rq.override_for(ms, "gfx1032")
    assert (rdna2["value"], rdna2["runs_as"]) == ("10.3.0", "gfx1030")
    assert "Unsupported workaround" in rdna2["note"]
    rdna3 = rq.override_for(ms, "gfx1102")
    assert (rdna3["value"], rdna3["runs_as"], rdna3["source"]) == (
        "11.0.0",
        "gfx1100",
        "https://github.com/ROCm/ROCm/discussions/4188",
    )
    assert rq.override_for(ms, "gfx942") is None and rq.override_for(ms, "gfx1201") is None


def test_release_history(ms):
    assert rq.newest_release_supporting(ms, "gfx1100") == "6.2.4"
    assert rq.newest_release_supporting(ms, "gfx1031") is None
    assert rq.releases_supporting(ms, "gfx942")[0] == "6.0.0-6.0.2"
    assert rq.status_without_release(ms, "gfx900") == "unsupported"
    assert rq.status_without_release(ms, "gfx1032") == "unlisted"
    assert rq.status_without_release(ms, "gfx1201") is None  # current docs list it


def test_os_support(ms):
    assert rq.os_supported(ms, "6.3.1", "debian", "12") is True
    assert rq.os_supported(ms, "6.2.4", "debian", "12") is False
    assert rq.os_supported(ms, "6.2.0", "ubuntu", "22.04") is True
    assert rq.os_supported(ms, "5.7.1", "ubuntu", "24.04") is False
    assert rq.os_supported(ms, "7.0.0", "ubuntu", "24.04") is None


def test_ollama_targets(ms):
    targets = rq.app_targets(ms, "ollama")
    assert "gfx1103" in targets and "gfx1031" not in targets and "gfx900" not in targets
    assert rq.app_targets(ms, "comfyui") is None
