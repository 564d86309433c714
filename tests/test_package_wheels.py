"""The package_wheels table and its builder (bench/build_package_wheels.py): rows read off PyPI's
file list of a release, tested on a real capture of PyPI's JSON (trimmed; tests/fixtures/python)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
import tomllib

from envdoctor.matrix.loader import load_bundled

REPO = Path(__file__).resolve().parent.parent
CAPTURE = REPO / "tests" / "fixtures" / "python" / "TRIMMED-pypi-json-faiss-gpu.json"


def _builder() -> Any:
    spec = importlib.util.spec_from_file_location("bpw", REPO / "bench" / "build_package_wheels.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _rows(text: str) -> list[dict[str, Any]]:
    return tomllib.loads(text)["rows"]


def test_rows_name_the_cpython_minors_abi3_floor_and_platforms_of_a_release() -> None:
    builder = _builder()
    blocks = builder.rows_for("faiss-gpu", json.loads(CAPTURE.read_text()), "2026-12-04")
    old, new = _rows("\n".join(blocks))
    # 1.7.2: cp36..cp310 manylinux x86_64 wheels (cp310 sorts after cp39, by number)
    assert old["python"] == ["3.6", "3.7", "3.8", "3.9", "3.10"]
    assert old["platforms"] == ["linux-x86_64"] and "python_min" not in old
    assert old["source"] == "https://pypi.org/project/faiss-gpu/1.7.2/#files"
    # 1.14.3: one cp310-abi3 wheel: 3.10 and every newer CPython, no list of minors
    assert new["python_min"] == "3.10" and "python" not in new
    assert str(new["checked"]) == "2026-12-04"


@pytest.mark.parametrize(
    ("tag", "platform"),
    [
        ("manylinux_2_17_x86_64", "linux-x86_64"),
        ("manylinux2014_aarch64", "linux-aarch64"),
        ("win_amd64", "windows-x86_64"),
        ("macosx_11_0_arm64", "macos-arm64"),
        ("macosx_10_9_universal2", "macos-universal2"),
        ("macosx_10_6_intel", "macos-x86_64"),  # decord 0.0.1's old fat-binary tag
        ("any", "any"),
    ],
)
def test_platform_tags_read_as_os_and_cpu(tag: str, platform: str) -> None:
    assert _builder().platform_of(tag) == platform


def test_pure_python_3_wheels_give_a_floor() -> None:
    """A py3-none wheel with a platform tag (bitsandbytes' binaries) installs on every Python 3
    from its requires_python (else any Python 3): a floor, like abi3."""
    files = [
        {
            "filename": "bitsandbytes-0.46.1-py3-none-manylinux_2_24_x86_64.whl",
            "requires_python": ">=3.9",
            "yanked": False,
        },
        {"filename": "decord-0.6.0-py3-none-win_amd64.whl", "yanked": False},
    ]
    pythons, floors, platforms = _builder().wheels_of(files)
    assert not pythons and floors == {"3.9", "3.0"}
    assert platforms == {"linux-x86_64", "windows-x86_64"}


def test_a_release_without_wheels_is_source_only() -> None:
    # tensorflow-gpu 2.12.0's whole file list on PyPI (https://pypi.org/pypi/tensorflow-gpu/json)
    data = {"releases": {"2.12.0": [{"filename": "tensorflow-gpu-2.12.0.tar.gz", "yanked": False}]}}
    [row] = _rows("\n".join(_builder().rows_for("tensorflow-gpu", data, "2026-12-04")))
    assert row["sdist_only"] is True and "python" not in row


def test_every_shipped_row_says_what_it_has() -> None:
    rows = load_bundled().table("package_wheels").rows
    assert len(rows) >= 50
    for row in rows:
        assert row.get("python") or row.get("python_min") or row.get("sdist_only"), row
        assert str(row["source"]).startswith(f"https://pypi.org/project/{row['package']}/")
