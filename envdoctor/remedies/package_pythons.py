"""A Python that a package release publishes wheels for: "pip finds no tensorflow==2.12.0" on
Python 3.12 becomes a venv with the newest CPython that release lists, with that release installed
in it. The Pythons come from the python_frameworks table (TensorFlow's tested configurations) and
else from package_wheels (the wheels PyPI lists for each release: faiss-gpu, triton,
tensorflow-metal...), which also names the platforms: a release with no wheel for this OS gets that
said instead ("triton publishes wheels for Linux only").

Never the Python the user already runs (then the wheel is missing for another reason: the OS or
the CPU), nothing for a release PyPI has only a source archive of (pip builds it: another cause),
and nothing for a package or release the tables do not have.
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


def _rows(ms: Any, table: str) -> list[dict[str, Any]]:
    try:
        return list(ms.table(table).rows)
    except (KeyError, AttributeError):
        return []


def release_rows(ms: Any, package: str) -> list[dict[str, Any]]:
    """The rows of `package` that say which Pythons its releases have, newest release first: the
    python_frameworks table's where it lists the package, else package_wheels'."""
    mine: list[dict[str, Any]] = []
    for table, listed in (("python_frameworks", "python"), ("package_wheels", "version")):
        mine = [r for r in _rows(ms, table) if _name(r.get("package")) == _name(package)]
        mine = [r for r in mine if r.get(listed)]
        if mine:
            break
    if not mine and _name(package) == "torch":  # torch's Pythons per release: torch_releases
        mine = [
            {
                "package": "torch",
                "version": r["torch"],
                "python": r["python"],
                "source": r.get("source"),
            }
            for r in _rows(ms, "torch_releases")
            if r.get("torch") and r.get("python")
        ]
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
    if row is None or row.get("sdist_only"):
        return []
    release = version or str(row.get("version"))
    elsewhere = _other_platforms(row, host)
    if elsewhere is not None:
        return [_platform_fix(_name(package), release, elsewhere, row, host)]
    pythons = [str(p) for p in row.get("python") or [] if not str(p).endswith("t")]
    have = major_minor(snap.fact("python", "version"))
    floor = minor_of(row.get("python_min")) if row.get("python_min") else None
    if floor is not None:  # abi3 wheels: that Python and every newer one
        if have is None or (minor_of(have) or floor) >= floor:
            return []
        pythons = [*pythons, str(row["python_min"])]
    if not pythons or have in pythons:
        return []
    python = pythons[-1]
    pin = release if re.fullmatch(r"\d+(?:\.\d+){1,3}", release) else f"{release.rstrip('.*')}.*"
    create, venv = new_venv(python, host.os == "windows", folder=".venv")
    supported = ", ".join(pythons)  # each one: a range would hide a Python the release skips
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


OS_NAMES = {"linux": "Linux", "windows": "Windows", "macos": "macOS"}


def _other_platforms(row: dict[str, Any], host: Host) -> list[str] | None:
    """The release's wheel platforms when none is for this host's OS (None when one is, when the
    row lists none, or when the OS is not known)."""
    platforms = [str(p) for p in row.get("platforms") or []]
    if not host.os or not platforms or "any" in platforms:
        return None
    if any(p.split("-")[0] == host.os for p in platforms):
        return None
    return platforms


def _platform_name(platform: str) -> str:
    """ "linux-aarch64" -> "Linux aarch64"."""
    system, _, cpu = platform.partition("-")
    return f"{OS_NAMES.get(system, system)} {cpu}".strip()


def _platform_fix(
    package: str, release: str, platforms: list[str], row: dict[str, Any], host: Host
) -> Fix:
    """No wheel for this OS: say where the release has wheels, and the way there from here."""
    systems = sorted({p.split("-")[0] for p in platforms})
    named = ", ".join(_platform_name(p) for p in platforms)
    here = OS_NAMES.get(str(host.os), str(host.os))
    if host.os == "windows" and "linux" in systems:
        way = "install it inside WSL2 (a Linux environment on this machine) or on a Linux machine"
        commands: tuple[str, ...] = ("wsl --install -d Ubuntu", f"pip install {package}=={release}")
    else:
        way = f"install it on {' or '.join(OS_NAMES.get(s, s) for s in systems)}, or use another package"
        commands = (f"pip download --no-deps {package}=={release} -d /tmp/x",)
    return Fix(
        f"{package} {release} publishes wheels for {named} only, none for {here}: {way}",
        commands,
        url=row.get("source") or PYTHON_DOWNLOADS,
        assumes=Assumes(os=(host.os,) if host.os else None, installer="pip"),
    )
