"""Reader for pasted package lists: `pip list`, `pip freeze` (also `uv pip freeze`) and `conda list`.

Fills `python.packages` (packages {normalized name: version}, installers {name: "pip" / "conda"}),
`python.torch` when torch is in the list (version, variant from the local label; for a conda
build, the CUDA version its build string names), `python.frameworks` for the neighbours, and, from
`conda list`, `python` (environment "conda", prefix, Python version; or version and platform from
an interactive interpreter's banner pasted with the list). Versions come from the text as
printed; nothing else is inferred.
"""

from __future__ import annotations

import re
from typing import Any

from envdoctor.model.names import canonical_name
from envdoctor.model.snapshot import Confidence, FactGroup, collected

NAME = "pip-list"
# a header, a rule, `name==version` / `name @ url` rows or a `... list` / `... freeze` command
# line: detect() accepts only texts holding one of these, so a long log without them is skipped
MARKERS = (
    "==",
    " @ ",
    "list",
    "freeze",
    "Package",
    "ackages in",
    "ACKAGES IN",
    "Name",
    "NAME",
    "name",
)
SOURCE = f"pasted:{NAME}"

_PIP_LIST_HEADER = re.compile(r"^\s*Package\s+Version(\s+\S.*)?$")
_PIP_LIST_RULE = re.compile(r"^\s*-{3,}(\s+-{3,})+\s*$")
_PIP_LIST_ROW = re.compile(
    r"^\s*(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)\s+(?P<version>\d[^\s]*)(\s+.*)?$"
)
_FREEZE_ROW = re.compile(
    r"^\s*(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*==\s*(?P<version>[^\s;#]+)"
)
_FREEZE_URL = re.compile(r"^\s*(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)\s*@\s*(?P<url>\S+)")
_CONDA_HEADER = re.compile(
    r"^#\s*packages in environment at\s*(?P<prefix>.+?):?\s*$", re.IGNORECASE
)
_CONDA_COLUMNS = re.compile(r"^#\s*Name\s+Version\s+Build(\s+Channel)?\s*$", re.IGNORECASE)
_CONDA_ROW = re.compile(
    r"^(?P<name>[A-Za-z0-9_][A-Za-z0-9._-]*)\s+(?P<version>\S+)\s+(?P<build>\S+)(\s+(?P<channel>\S+))?\s*$"
)
_CONDA_CUDA = (
    re.compile(r"cuda(?P<major>\d+)\.(?P<minor>\d+)"),  # py3.10_cuda12.1_cudnn8.9.2_0
    re.compile(r"cuda(?P<major>1\d)(?P<minor>\d)(?!\d)"),
)  # cuda126_mkl_py312_... (conda-forge)
_COMMAND = re.compile(r"\b(?P<tool>pip3?|uv pip|conda|mamba|micromamba)\s+(?P<verb>list|freeze)\b")
_PYTHON_BANNER = re.compile(
    r"^Python (?P<version>\d+\.\d+\.\d+)\S* \(.*\).* on (?P<platform>linux|win32|darwin|cygwin)\s*$",
    re.MULTILINE,
)
_WHEEL_URL_VERSION = re.compile(r"/[A-Za-z0-9_.]+?-(?P<version>\d[^-/]*)-[^/]*\.whl$")


def detect(text: str) -> bool:
    """A pip list table, a conda list, mostly `name==version` lines, or rows right after a
    `pip list` / `conda list` command line (`pip list | grep torch` prints no header)."""
    if not any(marker in text for marker in MARKERS):
        return False
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        return False
    if any(_CONDA_HEADER.match(ln) or _CONDA_COLUMNS.match(ln) for ln in lines[:10]):
        return True
    for i, line in enumerate(lines[:-1]):
        if _PIP_LIST_HEADER.match(line) and _PIP_LIST_RULE.match(lines[i + 1]):
            return True
    frozen = sum(1 for ln in lines if _FREEZE_ROW.match(ln) or _FREEZE_URL.match(ln))
    if frozen >= 3 and frozen >= 0.6 * len(lines):
        return True
    kind, rows = _after_command(text.splitlines())
    return kind is not None and len(rows) >= 1


def read(text: str) -> list[FactGroup]:
    """The fact groups a pasted package list holds (see the module docstring)."""
    lines = text.splitlines()
    if any(_CONDA_HEADER.match(ln) or _CONDA_COLUMNS.match(ln) for ln in lines[:10]):
        kind, parsed = "conda list", _conda(lines)
    elif any(_PIP_LIST_HEADER.match(ln) for ln in lines):
        kind, parsed = "pip list", _pip_list(lines)
    else:
        command, rows = _after_command(lines)
        if command == "conda list":
            kind, parsed = command, _conda(rows)
        elif command == "pip list":
            kind, parsed = command, _pip_list(rows, started=True)
        else:
            kind, parsed = "pip freeze", _freeze(rows if command else lines)
    packages, installers, extra = parsed
    if not packages:
        return []
    banner = _PYTHON_BANNER.search(text)
    if banner and not extra.get("python"):  # the interactive interpreter's first line
        extra["python"] = {"version": banner.group("version"), "platform": banner.group("platform")}
    groups = [
        collected(
            "python.packages",
            SOURCE,
            {"packages": packages, "installers": installers, "locations": {}},
            summary=f"{len(packages)} distributions ({kind})",
            confidence=Confidence.MEDIUM,
        )
    ]
    if extra.get("python"):
        where = (
            f"conda {extra['python'].get('prefix')}"
            if extra["python"].get("environment") == "conda"
            else extra["python"].get("platform")
        )
        groups.append(
            collected(
                "python",
                SOURCE,
                extra["python"],
                summary=f"Python {extra['python'].get('version')} ({where})",
                confidence=Confidence.MEDIUM,
            )
        )
    dists = {
        name: {"version": version, "installer": installers.get(name)}
        for name, version in packages.items()
    }
    if "torch" in dists:
        groups.append(_torch_group(dists, extra.get("conda_torch_build")))
    from envdoctor.ingest.framework_metadata import frameworks_facts, summary

    frameworks = frameworks_facts({k: v for k, v in dists.items() if _interesting(k)})
    if frameworks:
        groups.append(
            collected(
                "python.frameworks",
                SOURCE,
                {"packages": frameworks},
                summary=summary(frameworks),
                confidence=Confidence.MEDIUM,
            )
        )
    return groups


def _after_command(lines: list[str]) -> tuple[str | None, list[str]]:
    """("pip list" / "pip freeze" / "conda list", the row lines right after that command line)."""
    for i, line in enumerate(lines):
        match = _COMMAND.search(line)
        if not match:
            continue
        verb = match.group("verb")
        conda = match.group("tool") in ("conda", "mamba", "micromamba")
        if conda and verb == "freeze":
            continue
        kind = "conda list" if conda else f"pip {verb}"
        row = _CONDA_ROW if conda else (_PIP_LIST_ROW if verb == "list" else _FREEZE_ROW)
        rows: list[str] = []
        for follower in lines[i + 1 :]:
            if not follower.strip():
                if rows:
                    break
                continue
            if row.match(follower.strip()) or (verb == "freeze" and _FREEZE_URL.match(follower)):
                rows.append(follower)
            elif follower.lstrip().startswith("#") and conda:
                continue
            else:
                break
        if rows:
            return kind, rows
    return None, []


def _interesting(name: str) -> bool:
    from envdoctor.target.ml_metadata_script import interesting

    return interesting(name)


def _torch_group(dists: dict[str, dict[str, Any]], conda_build: str | None) -> FactGroup:
    from envdoctor.ingest.torch_metadata import summary, torch_facts

    data = torch_facts(dists)
    data["version_py_read"] = False
    if conda_build:
        data["conda_build"] = conda_build
        cuda = _conda_build_cuda(conda_build)
        if cuda:
            data.update(cuda=cuda, backend="cuda", cuda_source="conda build string")
        elif "cpu" in conda_build.lower():
            data.update(backend="cpu")
    return collected(
        "python.torch", SOURCE, data, summary=summary(data), confidence=Confidence.MEDIUM
    )


def _conda_build_cuda(build: str) -> str | None:
    for pattern in _CONDA_CUDA:
        match = pattern.search(build)
        if match:
            return f"{int(match.group('major'))}.{match.group('minor')}"
    return None


def _pip_list(
    lines: list[str], started: bool = False
) -> tuple[dict[str, str], dict[str, str], dict[str, Any]]:
    packages: dict[str, str] = {}
    for line in lines:
        if _PIP_LIST_RULE.match(line):
            started = True
            continue
        if not started or _PIP_LIST_HEADER.match(line):
            continue
        match = _PIP_LIST_ROW.match(line)
        if match:
            packages.setdefault(canonical_name(match.group("name")), match.group("version"))
    return packages, {}, {}


def _freeze(lines: list[str]) -> tuple[dict[str, str], dict[str, str], dict[str, Any]]:
    packages: dict[str, str] = {}
    for line in lines:
        match = _FREEZE_ROW.match(line)
        if match:
            packages.setdefault(canonical_name(match.group("name")), match.group("version"))
            continue
        match = _FREEZE_URL.match(line)
        if match:  # name @ file:///.../torch-2.7.1%2Bcu128-cp312-...whl
            url = match.group("url").replace("%2B", "+").replace("%2b", "+")
            version = _WHEEL_URL_VERSION.search(url)
            if version:
                packages.setdefault(canonical_name(match.group("name")), version.group("version"))
    return packages, {}, {}


def _conda(lines: list[str]) -> tuple[dict[str, str], dict[str, str], dict[str, Any]]:
    packages: dict[str, str] = {}
    installers: dict[str, str] = {}
    extra: dict[str, Any] = {}
    prefix = None
    for line in lines:
        header = _CONDA_HEADER.match(line)
        if header:
            prefix = header.group("prefix").strip()
            continue
        if line.startswith("#") or not line.strip():
            continue
        match = _CONDA_ROW.match(line.strip())
        if not match:
            continue
        conda_name = match.group("name")
        channel = match.group("channel") or ""
        pip_installed = channel == "pypi" or match.group("build").startswith("pypi_")
        name = canonical_name(conda_name)
        if name == "pytorch" and not pip_installed:
            name = "torch"  # the conda package of torch
            extra["conda_torch_build"] = match.group("build")
        if name == "python" and not pip_installed:
            extra["python"] = {
                "version": match.group("version"),
                "environment": "conda",
                "prefix": prefix,
            }
            continue
        if name in packages and not pip_installed:
            continue  # a pip-installed copy is the one Python imports
        packages[name] = match.group("version")
        installers[name] = "pip" if pip_installed else "conda"
    return packages, installers, extra
