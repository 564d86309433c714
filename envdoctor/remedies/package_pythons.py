"""A Python that a framework release publishes wheels for (TensorFlow and the other packages of the
python_frameworks table): "pip finds no tensorflow==2.12.0" on Python 3.12 becomes a venv with the
newest CPython that release lists, with that release installed in it.

Never the Python the user already runs (then the wheel is missing for another reason: the OS or
the CPU), and nothing for a package or release the table does not have.
"""

from __future__ import annotations

import re
from typing import Any

from packaging.version import InvalidVersion, Version

from envdoctor.fix_effects import Assumes, Effect
from envdoctor.installers.pip_commands import install, new_venv
from envdoctor.model.findings import Fix
from envdoctor.model.snapshot import Snapshot
from envdoctor.model.versions import major_minor
from envdoctor.remedies.host import Host
from envdoctor.remedies.spec import RemedySpec

PYTHON_DOWNLOADS = "https://www.python.org/downloads/"


def _name(text: Any) -> str:
    return re.sub(r"[-_.]+", "-", str(text or "").strip().lower())


def minor_of(text: Any) -> Version | None:
    try:
        release = Version(str(text).replace(".*", "")).release + (0,)
    except InvalidVersion:
        return None
    return Version(f"{release[0]}.{release[1]}")


def release_rows(ms: Any, package: str) -> list[dict[str, Any]]:
    """The python_frameworks rows of `package` that list Pythons, newest release first."""
    try:
        rows = list(ms.table("python_frameworks").rows)
    except (KeyError, AttributeError):
        return []
    mine = [r for r in rows if _name(r.get("package")) == _name(package) and r.get("python")]
    return sorted(mine, key=lambda r: minor_of(r.get("version")) or Version("0"), reverse=True)


def row_for(ms: Any, package: str, version: str | None) -> dict[str, Any] | None:
    """The row of the release `version` names (its major.minor), or the newest when none given."""
    rows = release_rows(ms, package)
    if not version:
        return rows[0] if rows else None
    wanted = minor_of(version)
    return next((r for r in rows if minor_of(r.get("version")) == wanted), None)


def given(value: Any) -> str | None:
    """A parameter's value, None when empty or an unfilled template ("{{m.ver}}")."""
    text = str(value or "").strip()
    return text if text and "{{" not in text else None


def package_python_fixes(spec: RemedySpec, snap: Snapshot, ms: Any, host: Host) -> list[Fix]:
    """ "python-for-package": params package*, version (the release asked for)."""
    package, version = (given(spec.param(k)) for k in ("package", "version"))
    if package is None:
        return []
    if version is not None and not re.fullmatch(r"\d+(?:\.\d+){0,3}(?:\.\*)?", version):
        version = None  # a placeholder the paste did not fill ("m.ver"): no release was named
    row = row_for(ms, package, version)
    if row is None:
        return []
    pythons = [str(p) for p in row.get("python") or [] if not str(p).endswith("t")]
    have = major_minor(snap.fact("python", "version"))
    if not pythons or have in pythons:
        return []
    python = pythons[-1]
    release = version or str(row.get("version"))
    pin = release if re.fullmatch(r"\d+(?:\.\d+){1,3}", release) else f"{release.rstrip('.*')}.*"
    create, venv = new_venv(python, host.os == "windows", folder=".venv")
    supported = f"{pythons[0]}-{pythons[-1]}" if len(pythons) > 1 else pythons[0]
    return [
        Fix(
            f"{_name(package)} {release} publishes wheels for Python {supported}"
            + (f", not {have}" if have else "")
            + f": create an environment with Python {python} and install it there",
            (create, install(venv, [f"{_name(package)}=={pin}"])),
            url=row.get("source") or PYTHON_DOWNLOADS,
            effect=Effect(python=python, packages_added={_name(package): f"=={pin}"}),
            assumes=Assumes(os=(host.os,) if host.os else None, installer="pip"),
            assumptions=(f"assumes Python {python} is installed (python.org or your OS packages)",),
        )
    ]
