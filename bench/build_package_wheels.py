"""Write matrices/package_wheels.toml from PyPI: which Pythons and platforms each recent release of
a GPU / ML package publishes wheels for, read off the files PyPI lists for that release (its JSON
API, the same list as the release's "Download files" page, which each row cites).

"No matching distribution found for faiss-gpu" on Python 3.11 is answered from these rows: the
release's cpXY wheels name the CPython minors it supports, their platform tags the OS and CPU.
Run it when a table update is due (it needs the network):

    python bench/build_package_wheels.py [--checked YYYY-MM-DD]

Only final releases are written, except for a package that has only pre-releases (torch-directml
publishes .devN builds alone). Per package, the newest release of each of its last MINORS minor
lines. A release with no wheel at all (an sdist alone: pip builds it) is written as sdist_only.
"""

from __future__ import annotations

import argparse
import datetime
import re
import sys
from pathlib import Path
from typing import Any

import requests
from packaging.version import InvalidVersion, Version

OUT = Path(__file__).resolve().parent.parent / "matrices" / "package_wheels.toml"
MINORS = 6
PACKAGES = [
    "auto-gptq",
    "autoawq",
    "bitsandbytes",
    "cumm-cu118",
    "cumm-cu120",
    "cupy-cuda12x",
    "decord",
    "faiss-gpu",
    "faiss-gpu-cu11",
    "faiss-gpu-cu12",
    "jaxlib",
    "mediapipe",
    "mlx",
    "onnxruntime",
    "onnxruntime-directml",
    "onnxruntime-gpu",
    "open3d",
    "paddlepaddle",
    "paddlepaddle-gpu",
    "piper-phonemize",
    "spconv-cu118",
    "spconv-cu120",
    "tensorflow-directml-plugin",
    "tensorflow-gpu",
    "tensorflow-io-gcs-filesystem",
    "tensorflow-metal",
    "tensorflow-text",
    "tflite-runtime",
    "torch-directml",
    "torch-xla",
    "triton",
    "xformers",
]
HEADER = '''schema_version = 1
min_envdoctor = "0.1.0"
name = "package_wheels"
title = "Wheels on PyPI: the Pythons and platforms each release of a GPU / ML package publishes"
description = """For the releases of packages that users find no wheel of ("No matching distribution found \\
for faiss-gpu"): python lists the CPython minors of the release's cpXY wheels; python_min the \\
lowest minor of an abi3 wheel (it installs on that Python and every newer one); platforms the OS \\
and CPU of its wheels (linux-x86_64, linux-aarch64, windows-x86_64, macos-arm64, ...); sdist_only \\
a release PyPI has no wheel of (pip builds it from source). Written by bench/build_package_wheels.py \\
from PyPI's JSON API; each row cites the release's file list."""
key = ["package", "version"]
no_overlap = []

[columns]
package = "string"
version = "string"
python = "list[string]"
python_min = "string"
platforms = "list[string]"
sdist_only = "bool"
'''


def platform_of(tag: str) -> str:
    """A wheel's platform tag as OS-CPU ("manylinux_2_17_x86_64" -> "linux-x86_64")."""
    if tag == "any":
        return "any"
    # old macOS tags name the CPU family: macosx_10_6_intel (x86_64, with i386 beside it)
    other = "x86_64" if tag.endswith("_intel") or "amd64" in tag else tag
    cpu = next(
        (c for c in ("x86_64", "aarch64", "arm64", "universal2", "armv7l") if c in tag),
        "win32" if tag == "win32" else other,
    )
    if tag.startswith("win"):
        return f"windows-{cpu}"
    if tag.startswith("macosx"):
        return f"macos-{cpu}"
    if "linux" in tag:
        return f"linux-{cpu}"
    return tag


def wheels_of(files: list[dict[str, Any]]) -> tuple[set[str], set[str], set[str]]:
    """The CPython minors (cpXY), floors (abi3 and pure py3 wheels) and platforms of a release's
    wheel files."""
    pythons: set[str] = set()
    abi3: set[str] = set()
    platforms: set[str] = set()
    for f in files:
        name = str(f.get("filename", ""))
        if f.get("yanked") or not name.endswith(".whl"):
            continue
        parts = name[: -len(".whl")].split("-")
        if len(parts) < 5:
            continue
        py_tags, abi, plat_tags = parts[-3], parts[-2], parts[-1]
        for tag in py_tags.split("."):
            m = re.fullmatch(r"cp3(\d+)", tag)
            if m:
                (abi3 if abi == "abi3" else pythons).add(f"3.{m.group(1)}")
            elif abi == "none" and tag.startswith("py3"):  # any Python 3 from a floor
                abi3.add(_python_floor(tag, str(f.get("requires_python") or "")))
        platforms.update(platform_of(t) for t in plat_tags.split("."))
    return pythons, abi3, platforms


def _python_floor(tag: str, requires_python: str) -> str:
    """The lowest Python a py3 / py3X wheel installs on: its tag's minor, else requires_python's."""
    m = re.fullmatch(r"py3(\d+)", tag) or re.search(r">=\s*3\.(\d+)", requires_python)
    return f"3.{m.group(1)}" if m else "3.0"


def _minor_key(text: str) -> int:
    return int(text.split(".")[1])


def rows_for(package: str, data: dict[str, Any], checked: str) -> list[str]:
    releases: dict[Version, list[dict[str, Any]]] = {}
    for text, files in (data.get("releases") or {}).items():
        try:
            version = Version(text)
        except InvalidVersion:
            continue
        live = [f for f in files if not f.get("yanked")]
        if live:
            releases[version] = live
    finals = {v: f for v, f in releases.items() if not v.is_prerelease}
    chosen = finals or releases
    newest: dict[tuple[int, ...], Version] = {}
    for version in sorted(chosen):
        newest[(*version.release, 0)[:2]] = version
    out = []
    for line in sorted(newest)[-MINORS:]:
        version = newest[line]
        pythons, abi3, platforms = wheels_of(chosen[version])
        fields = [f'package = "{package}"', f'version = "{version}"']
        if pythons:
            fields.append(f"python = {sorted(pythons, key=_minor_key)}".replace("'", '"'))
        if abi3:
            fields.append(f'python_min = "{min(abi3, key=_minor_key)}"')
        if platforms:
            fields.append(f"platforms = {sorted(platforms)}".replace("'", '"'))
        if not pythons and not abi3 and not platforms:
            fields.append("sdist_only = true")
        fields.append(f'source = "https://pypi.org/project/{package}/{version}/#files"')
        fields.append(f"checked = {checked}")
        out.append("[[rows]]\n" + "\n".join(fields) + "\n")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checked", default=datetime.date.today().isoformat())
    args = parser.parse_args(argv)
    blocks = [HEADER]
    for package in PACKAGES:
        reply = requests.get(f"https://pypi.org/pypi/{package}/json", timeout=30)
        reply.raise_for_status()
        blocks += rows_for(package, reply.json(), args.checked)
    OUT.write_text("\n".join(blocks), encoding="utf-8")
    print(f"wrote {OUT} ({len(blocks) - 1} rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
