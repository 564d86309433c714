"""Facts about a Python interpreter, computed inside that interpreter.

This file runs in two ways: imported, to describe the interpreter running envdoctor, and as a
script (`python interpreter_facts.py`) in a target interpreter chosen with `--python`, printing
JSON. It must therefore stay compatible with Python 3.7+ and import nothing heavy: it never
imports torch, TensorFlow or JAX, it only reads their package metadata.
"""

import json
import os
import sys

_IMPLEMENTATIONS = {
    "cpython": "CPython",
    "pypy": "PyPy",
    "ironpython": "IronPython",
    "jython": "Jython",
}


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
        "version": sys.version.split()[
            0
        ],  # what platform.python_version() gives, without importing it
        "implementation": _implementation(),
        "prefix": prefix,
        "base_prefix": getattr(sys, "base_prefix", prefix),
        "environment": kind,
        "conda_env": os.environ.get("CONDA_DEFAULT_ENV") if conda_meta else None,
        "platform": sys.platform,
        "machine": _machine(),
        "pointer_bits": 64 if sys.maxsize > 2**32 else 32,
        "packages": packages,
        "installers": installers,
        "locations": locations,
    }


def _implementation():
    name = sys.implementation.name
    if name in _IMPLEMENTATIONS:
        return _IMPLEMENTATIONS[name]
    import platform

    return platform.python_implementation()


def _machine():
    if hasattr(os, "uname"):
        return os.uname().machine
    import platform  # Windows

    return platform.machine()


def _distributions():
    packages, installers, locations = {}, {}, {}
    for dist in distributions():
        name = dist.name
        if not name:
            continue
        key = _normalize(name)
        if key in packages:
            continue  # the first on sys.path wins, as for imports
        packages[key] = dist.version
        installer = (dist.read_text("INSTALLER") or "").strip()
        if installer:
            installers[key] = installer
        locations[key] = os.path.dirname(dist.path)
    return packages, installers, locations


def distributions(paths=None):
    """The installed distributions on `paths` (default: sys.path), in the order importlib.metadata
    finds them: each directory's `*.dist-info` and `*.egg-info` entries, and an `.egg` entry's
    EGG-INFO. Reading them this way spares the import of importlib.metadata (and email) and the
    parse of each whole METADATA file, which dominate a scan's cost."""
    for entry in list(paths) if paths else list(sys.path):
        folder = entry or "."
        try:
            names = os.listdir(folder)
        except (OSError, TypeError, ValueError):
            continue
        if folder.lower().endswith(".egg") and "EGG-INFO" in names:
            yield Dist(os.path.join(folder, "EGG-INFO"))
        for name in names:
            low = name.lower()
            if low.endswith(".dist-info") or low.endswith(".egg-info"):
                yield Dist(os.path.join(folder, name))


class Dist:
    """One installed distribution's metadata folder (or egg-info file), read on demand."""

    def __init__(self, path):
        self.path = path
        self._headers = None

    def read_text(self, filename):
        """A metadata file's text, or None."""
        path = self.path if os.path.isfile(self.path) else os.path.join(self.path, filename)
        if os.path.isfile(self.path) and filename not in ("PKG-INFO", "METADATA"):
            return None
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                return handle.read()
        except (OSError, ValueError):
            return None

    @property
    def headers(self):
        """The metadata headers (lowercased names -> values, in order), the body left unread."""
        if self._headers is None:
            self._headers = parse_headers(
                self.read_text("METADATA") or self.read_text("PKG-INFO") or ""
            )
        return self._headers

    def header(self, name):
        """The first value of header `name`, or None."""
        values = self.headers.get(name.lower())
        return values[0] if values else None

    @property
    def name(self):
        """The distribution's Name header."""
        return self.header("Name")

    @property
    def version(self):
        """The distribution's Version header."""
        return self.header("Version")

    @property
    def requires(self):
        """Requires-Dist lines (an egg-info's requires.txt through importlib.metadata), or None."""
        if self.path.lower().endswith(".dist-info"):
            return self.headers.get("requires-dist") or None
        from importlib import metadata  # egg-info: requires.txt with its [extra:marker] sections

        return metadata.PathDistribution(_PurePath(self.path)).requires


def parse_headers(text):
    """RFC 822 style headers as email.parser reads them (up to the first blank or non-header
    line; folded lines joined): {lowercased name: [values in order]}."""
    headers = {}  # type: dict[str, list[str]]
    last = None
    for line in text.split("\n"):
        line = line[:-1] if line.endswith("\r") else line
        if not line:
            break
        if line[0] in " \t":
            if last is None:
                break
            values = headers[last]
            values[-1] = values[-1] + "\n" + line
            continue
        name, sep, value = line.partition(":")
        if not sep or not name or not all("!" <= ch <= "~" for ch in name):
            break
        last = name.lower()
        headers.setdefault(last, []).append(value.lstrip(" \t"))
    return headers


def _PurePath(path):
    import pathlib

    return pathlib.Path(path)


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
