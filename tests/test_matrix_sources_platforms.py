"""matrices/torch_platforms.toml and cuda_forward_compat.toml say what their sources say.

tests/data/source_quotes/platforms.toml holds the verbatim lines; each test reads the value out of a
quote the way a reader of that source would and compares it with the row (tomllib, not the loader).
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parents[1]


def _table(name: str) -> dict:
    return tomllib.loads((ROOT / "matrices" / f"{name}.toml").read_text(encoding="utf-8"))


PLATFORMS = {r["platform"]: r for r in _table("torch_platforms")["rows"]}
COMPAT = {r["segment"]: r for r in _table("cuda_forward_compat")["rows"]}
QUOTES = tomllib.loads(
    (ROOT / "tests" / "data" / "source_quotes" / "platforms.toml").read_text(encoding="utf-8")
)["quotes"]


def _cites(row: dict, url: str) -> bool:
    return url == row["source"] or url in row.get("sources", [])


@pytest.mark.parametrize(
    "quote", [q for q in QUOTES if q["table"] == "torch_platforms"], ids=lambda q: q["key"]
)
def test_torch_platform_rows(quote):
    row = PLATFORMS[quote["key"]]
    assert _cites(row, quote["url"]), quote["key"]
    text = quote["quote"]
    if quote["kind"] == "last-release":
        match = re.search(r"PyTorch (\d+\.\d+)\.x will be the last version", text)
        assert match and row["last_torch"] == match.group(1)
        assert row["kinds"] == ["cpu"]
    elif quote["kind"] == "matrix-arches":
        if 'arches = ["cpu"]' in text:  # the default: an OS with no branch of its own gets CPU only
            assert row["os"] not in re.findall(r'os == "(\w+)"', text)
            assert row["kinds"] == ["cpu"]
        else:
            assert f'os == "{row["os"]}"' in text
            assert ("cuda" in row["kinds"]) == ("CUDA_ARCHES" in text)
            assert ("rocm" in row["kinds"]) == ("ROCM_ARCHES" in text)
    elif quote["kind"] == "pypi-promote":
        assert f"manylinux_2_28_{row['machine']}" in text and 'ARCH="cu' in text
        assert "cuda" in row["kinds"]
    elif quote["kind"] == "vendor-wheels":
        assert "Jetson" in text and row["kinds"] == []
    else:
        raise AssertionError(quote["kind"])


def test_forward_compat_rows_follow_nvidias_list():
    quote = next(q for q in QUOTES if q["table"] == "cuda_forward_compat")
    listed = quote["quote"]
    expected = {
        "datacenter": "yes" if "Data Center GPUs" in listed else "no",
        "jetson": "yes" if "Jetson boards" in listed else "no",
        "workstation": "conditional" if "Select NGC Server Ready SKUs of RTX" in listed else "no",
        "geforce": "yes" if "GeForce" in listed else "no",
        "geforce-laptop": "yes" if "GeForce" in listed else "no",
        "titan": "yes" if "TITAN" in listed else "no",
    }
    assert {k: r["supported"] for k, r in COMPAT.items()} == expected
    assert all(_cites(r, quote["url"]) for r in COMPAT.values())


@pytest.mark.parametrize(
    "rows", [PLATFORMS, COMPAT], ids=["torch_platforms", "cuda_forward_compat"]
)
def test_rows_have_provenance(rows):
    for key, row in rows.items():
        assert row["source"].startswith("https://"), key
        assert isinstance(row["checked"], date), key
        assert all(s.startswith("https://") for s in row.get("sources", [])), key
