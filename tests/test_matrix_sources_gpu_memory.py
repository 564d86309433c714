"""nvidia_gpus' memory_mib_measured says what the real captures print, and fit uses it.

Each measured row cites the upstream file of a capture kept in tests/fixtures/real; this test
finds that capture by its upstream file name (SOURCES.md) and compares the framebuffer total it
prints for that product with the row. A typo, or a value for the wrong product, fails.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

from envdoctor.fit import plan as fit_plan
from envdoctor.matrices import load_bundled
from envdoctor.queries import gpu_memory

ROOT = Path(__file__).resolve().parents[1]
ROWS = tomllib.loads((ROOT / "matrices" / "nvidia_gpus.toml").read_text(encoding="utf-8"))["rows"]
MEASURED = [row for row in ROWS if "memory_mib_measured" in row]

_XML_TOTAL = re.compile(r"<fb_memory_usage>\s*<total>\s*(\d+) MiB\s*</total>")
_TABLE_TOTAL = re.compile(r"\d+MiB\s*/\s*(\d+)MiB")
_XML_NAME = re.compile(r"<product_name>([^<]+)</product_name>")


def _capture_for(real_captures: Path, url: str) -> Path:
    """The fixture whose SOURCES.md line names the upstream file of `url`."""
    upstream = url.rsplit("/", 1)[-1]
    sources = (real_captures / "SOURCES.md").read_text(encoding="utf-8")
    for line in sources.splitlines():
        if upstream in line and line.startswith("| "):
            name = line.split("|")[1].strip()
            hits = list(real_captures.glob(f"*/{name}"))
            if hits:
                return hits[0]
    raise AssertionError(f"no fixture for {upstream}")


def _printed_totals(text: str, product: str) -> set[int]:
    if "<product_name>" in text:
        gpus = text.split("<gpu id=")[1:]
        return {
            int(m.group(1))
            for gpu in gpus
            if (name := _XML_NAME.search(gpu)) and name.group(1).strip() == product
            for m in [_XML_TOTAL.search(gpu)]
            if m
        }
    return {int(v) for v in _TABLE_TOTAL.findall(text)}


def _printed_names(text: str) -> set[str]:
    names = {n.strip() for n in _XML_NAME.findall(text)}
    names |= {m.strip() for m in re.findall(r"\|\s+\d+\s+(NVIDIA [^|]+?|Tesla [^|]+?)\s{2,}", text)}
    return names


@pytest.mark.parametrize("row", MEASURED, ids=lambda r: r["name"])
def test_measured_memory_matches_the_capture(row, real_captures):
    urls = [u for u in row.get("sources", []) if "/testdata/" in u or "/test/data/" in u]
    urls += [u for u in row.get("sources", []) if "thamada/nvidia-smi" in u or "captures/" in u]
    assert urls, f"{row['name']}: no capture URL among its sources"
    capture = _capture_for(real_captures, urls[0])
    text = capture.read_text(encoding="utf-8", errors="replace")
    printed = {re.sub(r"^NVIDIA ", "", n) for n in _printed_names(text)}
    wanted = re.sub(r"^NVIDIA ", "", row["name"])
    assert any(p == wanted or p.replace("GeForce ", "") == wanted for p in printed), (
        row["name"],
        printed,
    )
    product = next(n for n in _printed_names(text) if n.endswith(wanted))
    assert set(row["memory_mib_measured"]) == _printed_totals(text, product), row["name"]


@pytest.mark.parametrize(
    "name, gib",
    [
        ("RTX 4090", 24564 / 1024),
        ("NVIDIA GeForce RTX 4090", 24564 / 1024),
        ("T4", 15.0),
        ("H100 80GB HBM3", 80.0),  # stated in the name wins over the measured total
        ("Tesla K80", 11441 / 1024),
        ("GTX 1070", 8112 / 1024),  # the smaller of two boards
    ],
)
def test_fit_takes_the_memory_from_the_table(name, gib):
    ms = load_bundled()
    target = fit_plan.target_from_name(ms, name)
    assert target is not None and target.vram_gib == pytest.approx(gib)
    assert gpu_memory.memory_gib_for_gpu(ms, target.name) == pytest.approx(gib)


def test_unknown_memory_still_asks_for_vram():
    ms = load_bundled()
    target = fit_plan.target_from_name(ms, "RTX 3060")  # sold with 8 and 12 GB: left out
    assert target is not None and target.vram_gib is None
    assert "--vram" in (target.note or "")
