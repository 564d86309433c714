"""The NVIDIA matrices agree with the text they cite, and every row carries its provenance.

Reads the TOML files with tomllib directly, so it does not depend on the matrix loader.
"""

from __future__ import annotations

import datetime
import re
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

REPO = Path(__file__).resolve().parent.parent
MATRICES = REPO / "matrices"
QUOTES = REPO / "tests" / "data" / "source_quotes" / "cuda_driver.toml"
NVIDIA_TABLES = ["cuda_driver", "cuda_compat", "nvidia_driver_branches", "nvidia_gpus", "nvcc_arch"]

_DRIVER_CELL = re.compile(r">=\s*(\d+(?:\.\d+)+)|\bN/A\b")


def _load(name: str) -> dict:
    with open(MATRICES / f"{name}.toml", "rb") as handle:
        return tomllib.load(handle)


def _quotes() -> list[dict]:
    with open(QUOTES, "rb") as handle:
        return tomllib.load(handle)["quotes"]


def _cells(quote: str) -> list[str | None]:
    """The driver cells of one table line, in order: a version, or None for N/A."""
    return [m.group(1) for m in _DRIVER_CELL.finditer(quote)]


def normalize(name: str) -> str:
    text = re.sub(r"[\s\-]+", " ", name.strip().lower()).strip()
    return text[len("nvidia ") :] if text.startswith("nvidia ") else text


@pytest.mark.parametrize("name", NVIDIA_TABLES)
def test_file_header_matches_its_name(name):
    table = _load(name)
    assert table["name"] == name
    assert table["schema_version"] == 1
    assert table["rows"], name


@pytest.mark.parametrize("name", NVIDIA_TABLES)
def test_every_row_has_https_source_and_checked_date(name):
    for row in _load(name)["rows"]:
        label = {k: row.get(k) for k in _load(name)["key"]}
        assert str(row.get("source", "")).startswith("https://"), label
        for extra in row.get("sources", []):
            assert extra.startswith("https://"), (label, extra)
        assert row["source"] in row.get("sources", [row["source"]]), label
        assert isinstance(row.get("checked"), datetime.date), label


@pytest.mark.parametrize("name", NVIDIA_TABLES)
def test_keys_are_unique(name):
    table = _load(name)
    keys = [tuple(row[k] for k in table["key"]) for row in table["rows"]]
    assert len(keys) == len(set(keys))


def test_every_cuda_driver_row_has_exactly_one_quote():
    rows = [row["cuda"] for row in _load("cuda_driver")["rows"]]
    quoted = [quote["cuda"] for quote in _quotes()]
    assert sorted(quoted) == sorted(rows)
    assert len(quoted) == len(set(quoted))


def test_quotes_match_rows():
    rows = {row["cuda"]: row for row in _load("cuda_driver")["rows"]}
    for quote in _quotes():
        row = rows[quote["cuda"]]
        text = quote["quote"]
        assert quote["url"] == row["source"], quote["cuda"]
        assert text.startswith(row["label"] + " "), (row["label"], text)
        cells = _cells(text[len(row["label"]) :])
        assert len(cells) == 2, text
        linux, windows = cells
        assert linux == row.get("linux_min_driver"), text
        assert windows == row.get("windows_min_driver"), text


def test_quote_parser_reads_both_spellings():
    assert _cells("CUDA 12.4 Update 1 >=550.54.15 >=551.78") == ["550.54.15", "551.78"]
    assert _cells("CUDA 11.0.3 Update 1 >= 450.51.06 >= 451.82") == ["450.51.06", "451.82"]
    assert _cells("CUDA 13.0 GA >=580.65.06 N/A") == ["580.65.06", None]


def test_cuda_driver_rows_are_newest_first_and_minimums_never_decrease():
    rows = _load("cuda_driver")["rows"]
    from packaging.version import Version

    versions = [Version(row["cuda"]) for row in rows]
    assert versions == sorted(versions, reverse=True)
    linux = [Version(row["linux_min_driver"]) for row in rows]
    assert linux == sorted(linux, reverse=True)


def test_nvidia_gpu_names_unique_after_normalisation():
    seen: dict[str, str] = {}
    for row in _load("nvidia_gpus")["rows"]:
        for spelling in [row["name"], *row.get("aliases", [])]:
            key = normalize(spelling)
            assert seen.get(key, row["name"]) == row["name"], (spelling, seen.get(key))
            seen[key] = row["name"]
    names = [normalize(row["name"]) for row in _load("nvidia_gpus")["rows"]]
    assert len(names) == len(set(names))


def test_nvidia_gpu_cells_are_well_formed():
    allowed_segments = {"geforce", "geforce-laptop", "workstation", "datacenter", "jetson", "titan"}
    for row in _load("nvidia_gpus")["rows"]:
        assert re.fullmatch(r"\d+\.\d", row["compute_capability"]), row["name"]
        assert row["segment"] in allowed_segments, row["name"]
        for pci in row.get("pci_device_ids", []):
            assert re.fullmatch(r"0x[0-9A-F]{4}", pci), (row["name"], pci)
        for size in row.get("memory_gib", []):
            assert isinstance(size, int) and size > 0, row["name"]


def test_an_old_geforce_with_no_kernel_image_reads_as_too_old() -> None:
    """A Kepler GeForce (GTX 770, sm_30) in NVIDIA's pre-split table: "no kernel image" on it
    is a build that dropped it, never "install a build for a newer CUDA"."""
    from envdoctor.triage_engine import triage_text

    text = (
        "My GPU is a GeForce GTX 770, torch 2.1.0+cu121\n"
        "RuntimeError: CUDA error: no kernel image is available for execution on the device\n"
    )
    findings = triage_text(text).findings
    assert findings[0].id == "torch.gpu-too-old-for-build", [f.id for f in findings]
    fixes = " ".join(f.summary for f in findings[0].fixes)
    assert 'TORCH_CUDA_ARCH_LIST="3.0"' in fixes and "newer CUDA" not in findings[0].title
