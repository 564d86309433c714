"""Facts about a Python interpreter, computed inside that interpreter.

This file runs in two ways: imported, to describe the interpreter running envdoctor, and as a
script (`python interpreter_facts.py`) in a target interpreter chosen with `--python`, printing
JSON. It must therefore stay compatible with Python 3.7+ and import nothing heavy: it never
imports torch, TensorFlow or JAX, it only reads their package metadata.
"""

import json
import os
import platform
import sys


def describe():
    """A JSON-ready description of this interpreter and the distributions installed in it."""
    prefix = sys.prefix
    in_venv = getattr(sys, "base_prefix", prefix) != prefix or hasattr(sys, "real_prefix")
    conda_meta = os.path.isdir(os.path.join(prefix, "conda-meta"))
    pyvenv_cfg = os.path.join(prefix, "pyvenv.cfg")
    made_by_uv = False
    if in_venv and os.path.isfile(pyvenv_cfg):
        try:
            with open(pyvenv_cfg, encoding="utf-8", errors="replace") as handle:
                made_by_uv = any(line.split("=")[0].strip() == "uv" for line in handle)
        except OSError:
            pass
    if conda_meta:
        kind = "conda"
    elif in_venv:
        kind = "uv-venv" if made_by_uv else "venv"
    else:
        kind = "system"
    packages, installers, locations = _distributions()
    return {
        "executable": sys.executable,
        "version": platform.python_version(),
        "implementation": platform.python_implementation(),
        "prefix": prefix,
        "base_prefix": getattr(sys, "base_prefix", prefix),
        "environment": kind,
        "conda_env": os.environ.get("CONDA_DEFAULT_ENV") if conda_meta else None,
        "platform": sys.platform,
        "machine": platform.machine(),
        "pointer_bits": 64 if sys.maxsize > 2 ** 32 else 32,
        "packages": packages,
        "installers": installers,
        "locations": locations,
    }


def _distributions():
    packages, installers, locations = {}, {}, {}
    try:
        from importlib import metadata
    except ImportError:  # Python < 3.8
        return packages, installers, locations
    for dist in metadata.distributions():
        try:
            name = dist.metadata["Name"]
        except Exception:  # noqa: BLE001 - broken metadata must not stop the scan
            continue
        if not name:
            continue
        key = _normalize(name)
        if key in packages:
            continue  # the first on sys.path wins, as for imports
        packages[key] = dist.version
        try:
            installer = (dist.read_text("INSTALLER") or "").strip()
        except Exception:  # noqa: BLE001
            installer = ""
        if installer:
            installers[key] = installer
        location = getattr(dist, "_path", None)
        if location is not None:
            locations[key] = str(os.path.dirname(str(location)))
    return packages, installers, locations


def _normalize(name):
    out = []
    for ch in name.lower():
        out.append("-" if ch in "_. " else ch)
    text = "".join(out)
    while "--" in text:
        text = text.replace("--", "-")
    return text


if __name__ == "__main__":
    sys.stdout.write(json.dumps(describe()))
