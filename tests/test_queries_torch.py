"""envdoctor.queries.torch on the bundled matrices, and on tiny stand-in tables for the edge rules."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from packaging.version import Version

from envdoctor.matrices import load_bundled
from envdoctor.queries import torch as tq


@pytest.fixture(scope="module")
def ms():
    matrices = load_bundled()
    for name in ("torch_releases", "torch_arch", "torch_index"):
        assert matrices.get(name) is not None, f"{name} did not load: {matrices.errors}"
    return matrices


class _Set:
    """The smallest thing the queries accept: `.table(name).rows`."""

    def __init__(self, **tables: list[dict]) -> None:
        self._tables = tables

    def table(self, name: str) -> SimpleNamespace:
        if name not in self._tables:
            raise KeyError(name)
        return SimpleNamespace(rows=self._tables[name])


# -- releases -------------------------------------------------------------------------------------
@pytest.mark.parametrize("spelling", ["2.7", "2.7.0", "2.7.1+cu128", "2.7.1+cpu", " 2.7.1 "])
def test_release_row_by_major_minor(ms, spelling: str) -> None:
    assert tq.release_row(ms, spelling)["torch"] == "2.7"


def test_release_row_keeps_2_1_and_2_10_apart(ms) -> None:
    assert tq.release_row(ms, "2.10.0+cu128")["torch"] == "2.10"
    assert tq.release_row(ms, "2.1.2")["torch"] == "2.1"


def test_release_row_unknown_or_garbage(ms) -> None:
    assert tq.release_row(ms, "0.4.1") is None
    assert tq.release_row(ms, "not a version") is None
    assert tq.release_row(ms, None) is None  # type: ignore[arg-type]


def test_supported_pythons(ms) -> None:
    assert tq.supported_pythons(ms, "2.7.1") == ["3.9", "3.10", "3.11", "3.12", "3.13", "3.13t"]
    assert "3.12" not in tq.supported_pythons(
        ms, "2.1.0"
    )  # no 3.12 wheels before 2.2 (triage case 040)
    assert "3.12" in tq.supported_pythons(ms, "2.2.0")
    # 1.9-1.12: the Python column of torchvision's README table; 1.8 and older have no row
    assert tq.supported_pythons(ms, "1.12") == ["3.7", "3.8", "3.9", "3.10"]
    assert tq.supported_pythons(ms, "1.8") is None


@pytest.mark.parametrize(
    "version, variant",
    [
        ("2.7.1+cu128", "cu128"),
        ("2.5.1+rocm6.2", "rocm6.2"),
        ("2.11.0+cpu", "cpu"),
        ("2.6.0+xpu", "xpu"),
        ("2.8.0", None),
        ("", None),
        (None, None),
    ],
)
def test_parse_local_variant(version, variant) -> None:
    assert tq.parse_local_variant(version) == variant


def test_pypi_defaults_follow_the_build_matrix(ms) -> None:
    assert tq.pypi_default(ms, "2.7.1", "linux") == "cu126"
    assert tq.pypi_default(ms, "2.8.0", "linux_x86_64") == "cu128"
    assert tq.pypi_default(ms, "2.11.0", "linux") == "cu130"
    assert tq.pypi_default(ms, "2.4.1", "linux") == "cu121"
    for version in ("1.13.1", "2.7.1", "2.13.0"):
        assert tq.pypi_default(ms, version, "win32") == "cpu"
        assert tq.pypi_default(ms, version, "darwin") == "cpu"
    assert tq.pypi_default(ms, "2.7", "solaris") is None
    assert tq.pypi_default(ms, "2.14", "linux") is None  # left out: sources disagree


def test_index_url(ms) -> None:
    assert tq.index_url(ms, "cu128") == "https://download.pytorch.org/whl/cu128"
    assert tq.index_url(ms, "CPU") == "https://download.pytorch.org/whl/cpu"
    assert tq.index_url(ms, "rocm6.2.4") == "https://download.pytorch.org/whl/rocm6.2.4"
    assert tq.index_url(ms, "cu999") is None


def test_variant_cuda(ms) -> None:
    assert tq.variant_cuda(ms, "cu128") == "12.8"
    assert tq.variant_cuda(ms, "cu130") == "13.0"
    assert tq.variant_cuda(ms, "rocm6.3") is None


def test_companion_versions(ms) -> None:
    assert tq.companion_versions(ms, "2.7.1+cu128") == {"torchvision": "0.22", "torchaudio": "2.7"}
    assert tq.companion_versions(ms, "1.13.1") == {"torchvision": "0.14", "torchaudio": "0.13"}
    # TorchAudio 2.11 serves every later torch
    assert tq.companion_versions(ms, "2.12.0")["torchaudio"] == "2.11"
    assert tq.companion_versions(ms, "3.0") == {}


# -- arch lists -----------------------------------------------------------------------------------
def test_variant_arches(ms) -> None:
    assert tq.variant_arches(ms, "2.8.0+cu128", "cu128", "linux") == [
        "sm_70",
        "sm_75",
        "sm_80",
        "sm_86",
        "sm_90",
        "sm_100",
        "sm_120",
    ]
    assert "sm_61" in tq.variant_arches(ms, "2.4.1", "cu121", "windows")
    assert "sm_61" not in tq.variant_arches(ms, "2.4.1", "cu121", "linux")
    assert tq.variant_arches(ms, "2.12", "cu130", "linux")[-1] == "compute_120"
    assert "compute_120" not in tq.variant_arches(
        ms, "2.12", "cu130", "windows"
    )  # +PTX on Linux only
    assert tq.variant_arches(ms, "2.8", "cu130", "linux") is None
    assert tq.variant_arches(ms, "2.8", "cu128", "freebsd") is None


def test_published_lists_agree_with_measured_get_arch_list(ms) -> None:
    # pytorch/pytorch#182250: torch.cuda.get_arch_list() of these wheels
    assert tq.variant_arches(ms, "2.11.0", "cu126", "linux") == [
        "sm_50",
        "sm_60",
        "sm_70",
        "sm_75",
        "sm_80",
        "sm_86",
        "sm_90",
    ]
    assert tq.variant_arches(ms, "2.11.0", "cu128", "linux") == [
        "sm_75",
        "sm_80",
        "sm_86",
        "sm_90",
        "sm_100",
        "sm_120",
    ]
    assert tq.variant_arches(ms, "2.10.0", "cu128", "linux") == [
        "sm_70",
        "sm_75",
        "sm_80",
        "sm_86",
        "sm_90",
        "sm_100",
        "sm_120",
    ]


@pytest.mark.parametrize(
    "arches, cc, expected",
    [
        (["sm_80"], "8.6", True),  # same major, lower minor SASS
        (["sm_80"], "8.9", True),
        (["sm_86"], "8.0", False),  # never downwards
        (["sm_90"], "10.0", False),  # no SASS across majors
        (["sm_90"], "12.0", False),
        (["sm_90", "compute_90"], "12.0", True),  # PTX JIT for any CC >= 9.0
        (["compute_120"], "12.1", True),
        (["compute_120"], "10.0", False),
        (["sm_120"], "12.1", True),  # DGX Spark GB10 runs sm_120 SASS
        (["sm_90a"], "9.0", True),  # arch-specific: exactly that CC
        (["sm_90a"], "10.0", False),
        (["sm_60"], "6.1", True),  # GTX 10xx on a Linux sm_60 build (triage case 003 remedy)
        (["sm_50", "sm_60", "sm_70"], "7.5", True),
        ([], "8.6", False),
        (["garbage", "sm_"], "8.6", False),
        (["sm_86"], "86", True),
        (["sm_86"], "sm_86", True),
        (["sm_86"], "not a cc", False),
    ],
)
def test_has_kernels(arches, cc, expected) -> None:
    assert tq.has_kernels(arches, cc) is expected


def test_rtx50_on_pypi_torch_27_has_no_kernels_but_28_has(ms) -> None:
    # triage case 002: RTX 5090 (sm_120) with a build listing sm_50..sm_90
    default_27 = tq.pypi_default(ms, "2.7.1", "linux")
    assert not tq.has_kernels(tq.variant_arches(ms, "2.7.1", default_27, "linux"), "12.0")
    default_28 = tq.pypi_default(ms, "2.8.0", "linux")
    assert tq.has_kernels(tq.variant_arches(ms, "2.8.0", default_28, "linux"), "12.0")


def test_gtx1050_on_pypi_torch_28_has_no_kernels(ms) -> None:
    # triage case 003: GTX 1050 (6.1), torch 2.8.0+cu128 -> "no kernel image is available"
    assert not tq.has_kernels(tq.variant_arches(ms, "2.8.0+cu128", "cu128", "linux"), "6.1")
    assert tq.has_kernels(tq.variant_arches(ms, "2.4.1", "cu121", "linux"), "6.1")


# -- best_variant: agrees with PyTorch's published build matrix -----------------------------------
def test_rtx5090_with_cuda_12_8_driver_gets_a_cu128_build(ms) -> None:
    torch, variant = tq.best_variant(ms, "12.0", "12.8", "linux")
    assert variant == "cu128"
    assert Version(torch) >= Version("2.7")
    assert "sm_120" in tq.variant_arches(ms, torch, variant, "linux")
    # cu130 needs a CUDA 13 driver; cu126 has no sm_120
    assert tq.best_variant(ms, "12.0", "12.8", "linux", torch="2.12") is None


def test_gtx1080_with_new_driver_stays_on_cu126_from_28(ms) -> None:
    for torch in ("2.8", "2.9", "2.10", "2.11", "2.12", "2.13", "2.14"):
        assert tq.best_variant(ms, "6.1", "13.2", "linux", torch=torch) == (torch, "cu126")
    torch, variant = tq.best_variant(ms, "6.1", "13.2", "linux")
    assert variant == "cu126"
    # before 2.8 nothing newer than cu12x existed either, but the choice is still a 12.x build
    assert tq.best_variant(ms, "6.1", "13.2", "linux", torch="2.5")[1].startswith("cu12")


def test_rtx4090_with_cuda_12_2_driver_gets_a_cu12x_build_not_cu130(ms) -> None:
    torch, variant = tq.best_variant(ms, "8.9", "12.2", "linux")
    assert variant.startswith("cu12") and variant != "cu130"
    # minor-version compatibility: a 12.8 build is fine on a driver that supports CUDA 12.2
    assert tq.best_variant(ms, "8.9", "12.2", "linux", torch="2.11") == ("2.11", "cu128")
    assert tq.best_variant(ms, "8.9", "12.2", "linux", torch="2.12") == ("2.12", "cu126")


def test_t4_with_cuda_13_driver_may_use_cu130(ms) -> None:
    assert tq.best_variant(ms, "7.5", "13.0", "linux", torch="2.11") == ("2.11", "cu130")
    torch, variant = tq.best_variant(ms, "7.5", "13.0", "linux")
    assert tq.variant_cuda(ms, variant).startswith("13.")


def test_v100_leaves_cu128_from_211(ms) -> None:
    # Volta (7.0) was dropped from cu128 in 2.11 (pytorch/pytorch#172352)
    assert tq.best_variant(ms, "7.0", "12.8", "linux", torch="2.10") == ("2.10", "cu128")
    assert tq.best_variant(ms, "7.0", "12.8", "linux", torch="2.11") == ("2.11", "cu126")


def test_rocm_variants_give_their_gfx_targets(ms) -> None:
    # torch_arch gfx_targets (astral-sh/uv#14086: get_arch_list() of 2.7.1+rocm6.3); ROCm wheels are Linux-only
    gfx = tq.variant_arches(ms, "2.7.1+rocm6.3", "rocm6.3", "linux")
    assert gfx is not None and {"gfx1100", "gfx1201", "gfx942"} <= set(gfx) and "gfx1031" not in gfx
    assert tq.variant_arches(ms, "2.7.1+rocm6.3", "rocm6.3", "windows") is None


def test_windows_uses_windows_lists(ms) -> None:
    torch, variant = tq.best_variant(ms, "6.1", "13.0", "windows")
    assert variant == "cu126" and "sm_61" in tq.variant_arches(ms, torch, variant, "windows")
    assert tq.best_variant(ms, "12.0", "12.8", "windows") == (
        "2.10",
        "cu128",
    )  # newest Windows cu128 row


def test_ptx_only_needs_the_full_cuda_of_the_build(ms) -> None:
    # A CC 13.0 GPU runs the Linux cu130/cu132 wheels only through compute_120 PTX, and the JIT
    # needs a driver that supports the build's CUDA: cu132 needs 13.2, cu130 is fine on 13.0.
    assert tq.best_variant(ms, "13.0", "13.0", "linux", torch="2.14") == ("2.14", "cu130")
    assert tq.best_variant(ms, "13.0", "13.2", "linux", torch="2.14") == ("2.14", "cu132")
    assert tq.best_variant(ms, "13.0", "13.2", "windows", torch="2.14") is None  # no PTX on Windows


def test_unknown_driver_does_not_filter(ms) -> None:
    torch, variant = tq.best_variant(ms, "8.6", None, "linux")
    assert tq.has_kernels(tq.variant_arches(ms, torch, variant, "linux"), "8.6")


def test_driver_version_checked_against_the_cuda_compat_floor(ms) -> None:
    if ms.get("cuda_compat") is None:
        pytest.skip("cuda_compat not bundled")
    # a driver below the CUDA 12 floor (525) cannot run any 12.x build; a CUDA 11.8 build remains
    torch, variant = tq.best_variant(ms, "8.6", "12.0", "linux", driver_version="510.47.03")
    assert variant == "cu118"


def test_best_variant_bad_input(ms) -> None:
    assert tq.best_variant(ms, "not a cc", "12.8", "linux") is None
    assert tq.best_variant(ms, "8.6", "garbage", "linux") is None
    assert tq.best_variant(ms, "8.6", "12.8", "macos") is None
    assert tq.best_variant(ms, "8.6", "12.8", "linux", torch="9.9") is None
    assert tq.best_variant(ms, "3.5", "12.8", "linux") is None  # Kepler: no build left


# -- stand-in tables: rules that the bundled data do not exercise ------------------------------------
def _standin(**extra: list[dict]) -> _Set:
    arch = [
        {
            "torch": "1.12",
            "variant": "cu102",
            "os": "linux",
            "cuda_arches": ["sm_37", "sm_50", "sm_60", "sm_70"],
        },
        {
            "torch": "1.12",
            "variant": "cu116",
            "os": "linux",
            "cuda_arches": ["sm_37", "sm_50", "sm_60", "sm_70"],
        },
        {
            "torch": "1.13",
            "variant": "cu117",
            "os": "linux",
            "cuda_arches": ["sm_50"],
            "unverified": True,
        },
    ]
    index = [
        {"variant": "cu102", "cuda": "10.2"},
        {"variant": "cu116", "cuda": "11.6"},
        {"variant": "cu117", "cuda": "11.7"},
    ]
    return _Set(torch_arch=arch, torch_index=index, **extra)


def test_cuda_10_has_no_minor_version_compatibility() -> None:
    compat = [{"cuda_major": 11, "linux_min_driver": "450.80.02"}, {"cuda_major": 10}]
    ms = _standin(cuda_compat=compat)
    assert tq.best_variant(ms, "7.0", "10.1", "linux") is None
    assert tq.best_variant(ms, "7.0", "10.2", "linux") == ("1.12", "cu102")
    assert tq.best_variant(ms, "7.0", "11.0", "linux") == ("1.12", "cu116")


def test_without_cuda_compat_majors_from_11_are_minor_compatible() -> None:
    ms = _standin()
    assert tq.best_variant(ms, "7.0", "11.1", "linux") == ("1.12", "cu116")
    assert tq.best_variant(ms, "7.0", "10.1", "linux") is None


def test_unverified_rows_are_not_recommended_but_are_listed() -> None:
    ms = _standin()
    assert tq.best_variant(ms, "5.0", "11.7", "linux") == ("1.12", "cu116")
    assert tq.variant_arches(ms, "1.13.1+cu117", "cu117", "linux") == ["sm_50"]


def test_missing_tables_give_none() -> None:
    empty = _Set()
    assert tq.release_row(empty, "2.7") is None
    assert tq.supported_pythons(empty, "2.7") is None
    assert tq.variant_arches(empty, "2.7", "cu128", "linux") is None
    assert tq.pypi_default(empty, "2.7", "linux") is None
    assert tq.index_url(empty, "cu128") is None
    assert tq.companion_versions(empty, "2.7") == {}
    assert tq.best_variant(empty, "8.6", "12.8", "linux") is None
    assert tq.variant_cuda(empty, "cu128") == "12.8"  # naming rule of the build matrix


def test_sass_wins_over_newer_ptx_only_build() -> None:
    arch = [
        {"torch": "2.0", "variant": "cu118", "os": "linux", "cuda_arches": ["sm_86"]},
        {"torch": "2.1", "variant": "cu121", "os": "linux", "cuda_arches": ["sm_80", "compute_80"]},
    ]
    ms = _Set(
        torch_arch=arch,
        torch_index=[{"variant": "cu118", "cuda": "11.8"}, {"variant": "cu121", "cuda": "12.1"}],
    )
    assert tq.best_variant(ms, "8.6", "12.1", "linux") == ("2.1", "cu121")  # sm_80 SASS runs on 8.6
    assert tq.best_variant(ms, "8.9", "12.1", "linux") == ("2.1", "cu121")
    assert tq.best_variant(ms, "9.0", "12.1", "linux") == (
        "2.1",
        "cu121",
    )  # PTX only, nothing better


def test_old_ptx_is_no_remedy_when_a_newer_toolkit_knows_the_gpu() -> None:
    arch = [
        {
            "torch": "2.0",
            "variant": "cu118",
            "os": "windows",
            "cuda_arches": ["sm_37", "sm_86", "sm_90", "compute_37"],
        }
    ]
    nvcc = [
        {"cuda": "11.8", "min_sm": 35, "max_sm": 90},
        {"cuda": "12.8", "min_sm": 50, "max_sm": 120},
    ]
    index = [{"variant": "cu118", "cuda": "11.8"}]
    ms = _Set(torch_arch=arch, torch_index=index, nvcc_arch=nvcc)
    assert tq.has_kernels(arch[0]["cuda_arches"], "12.0")  # NVIDIA's rule: PTX JIT is possible
    assert (
        tq.best_variant(ms, "12.0", "12.8", "windows") is None
    )  # but CUDA 12.8 is what knows sm_120
    # a GPU no listed toolkit knows can only be reached through PTX, so the PTX build stays eligible
    assert tq.best_variant(ms, "13.0", "12.8", "windows") == ("2.0", "cu118")
