"""Lenient version parsing for the many spellings GPU tools print.

Drivers print "550.54.14", nvcc "V13.0.88", torch "2.13.0+cpu", ROCm "6.2.4-120", TensorFlow
"2.16.1", nvidia-smi "12.4" and sometimes "N/A". All of them become `packaging` versions here, or
None when nothing version-like is present.
"""

from __future__ import annotations

import re
from functools import lru_cache

from packaging.version import InvalidVersion, Version

_LEADING_RELEASE = re.compile(r"(\d+(?:\.\d+){0,3})")


@lru_cache(maxsize=4096)
def parse(text: str | None) -> Version | None:
    """Parse `text` as a version, tolerating prefixes ("V13.0"), local labels and suffixes."""
    if text is None:
        return None
    text = str(text).strip()
    if not text:
        return None
    try:
        return Version(text)
    except InvalidVersion:
        pass
    match = _LEADING_RELEASE.search(text)
    if not match:
        return None
    try:
        return Version(match.group(1))
    except InvalidVersion:  # pragma: no cover - the regex only admits digits and dots
        return None


@lru_cache(maxsize=4096)
def release(text: str | None) -> Version | None:
    """The public release part only: "2.7.1+cu128" -> 2.7.1, "2.8.0.dev20250601" -> 2.8.0."""
    version = parse(text)
    if version is None:
        return None
    return Version(".".join(str(p) for p in version.release))


def major_minor(text: str | None) -> str | None:
    """ "12.4.1" -> "12.4"; "2.7.1+cu128" -> "2.7"; None when unparsable."""
    version = parse(text)
    if version is None:
        return None
    parts = (list(version.release) + [0])[:2]
    return f"{parts[0]}.{parts[1]}"


def at_least(actual: str | None, minimum: str | None) -> bool | None:
    """actual >= minimum on release numbers, or None when either side is unknown."""
    a, m = release(actual), release(minimum)
    if a is None or m is None:
        return None
    return a >= m


def is_valid(text: str) -> bool:
    """Strict check used by the matrix linter: a PEP 440 version, nothing more."""
    try:
        Version(text)
    except (InvalidVersion, TypeError):
        return False
    return True


def is_valid_specifier(text: str) -> bool:
    """Strict check used by the matrix linter: a PEP 440 specifier set."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet  # its import costs ~5 ms

    try:
        SpecifierSet(text)
    except (InvalidSpecifier, TypeError):
        return False
    return True


def version_key(text: str | None) -> Version:
    """A sort key: the parsed version, or 0 when `text` is not a version (it sorts first)."""
    return parse(text) or Version("0")


def release_major(text: str | None) -> int | None:
    """The first release number: "12.4.1" -> 12, "2.7.1+cu128" -> 2; None when not a version."""
    version = parse(text)
    return version.release[0] if version is not None else None


# A version's end that is a file's name or a web page, not the version: "torch-1.4.0+cu101.html"
# (PyG's wheel index page), "torch-2.1.0+cu121-cp310-cp310-linux_x86_64.whl" (a wheel's tags)
_FILE_SUFFIX = re.compile(
    r"(?:\.(?:html?|whl|tar\.gz|tgz|zip|egg|txt|json|ya?ml|toml|exe|msi))+$|[.-]+$", re.IGNORECASE
)


def clean_version(version: str) -> str:
    """A version as the package reports it: a local label ends at a wheel's tags ("+cu121-cp310"),
    and no file suffix follows ("1.4.0+cu101.html" -> "1.4.0+cu101")."""
    base, plus, local = version.partition("+")
    if plus:
        local = re.split(r"[-_]", local, maxsplit=1)[0]
    return _FILE_SUFFIX.sub("", base + plus + local) or version
