"""The Python environment of a root filesystem (an unpacked image, `--root DIR`), read from files.

With `check --image` / `--root` the interpreter that runs envdoctor is not the target: the image's
is. Its interpreter cannot be run (the image is not started), so everything here is read through
the context under the configured root, never by importing or executing anything:

- the interpreters: a conda base (`/opt/conda`), a venv (`pyvenv.cfg` in `/opt/venv`, `/*/.venv`),
  the `/usr/local` build of the python images, and the distribution's `/usr/bin/python3.X` (with
  Debian's `/usr/local/lib/python3.X/dist-packages` and `/usr/lib/python3/dist-packages`). The
  target is the first that has torch installed, else the first found in that order;
- its version from the site folder (`python3.11`), made exact by `include/python3.X/patchlevel.h`
  when the file is there; its machine from the platform tags of its installed wheels;
- its distributions from their `*.dist-info` / `*.egg-info` folders, and for the ML packages the
  same entries `ml_metadata_script` produces in a live interpreter (version files, library
  listings, Requires-Dist), so torch_build, frameworks and python_env read an image exactly as
  they read a host.

`describe(ctx)` returns interpreter_facts.describe()'s shape (plus `root`, `described_from`
"files", `sites`, `executable_found`: whether the interpreter file itself is there), `ml_scan(ctx)` ml_metadata_script.describe()'s; both None when the root holds no
Python. Paths in the facts are the image's own ("/usr/local/lib/python3.10/dist-packages").
"""

from __future__ import annotations

import json
import posixpath
import re
from dataclasses import dataclass
from typing import Any

from envdoctor.context import ProbeContext
from envdoctor.probes import interpreter_facts, ml_metadata_script

# Where site folders live in images, in the order the target interpreter is chosen.
SITE_PATTERNS = (
    "/opt/conda/lib/python3*/site-packages",
    "/opt/*/lib/python3*/site-packages",
    "/*/.venv/lib/python3*/site-packages",
    "/usr/local/lib/python3*/site-packages",
    "/usr/local/lib/python3*/dist-packages",
    "/usr/lib/python3/dist-packages",
    "/usr/lib/python3*/site-packages",
    "/root/.local/lib/python3*/site-packages",
    "/usr/local/lib64/python3*/site-packages",
)
_PY_DIR = re.compile(r"/lib(?:64)?/python(3\.\d+)/")
_PATCHLEVEL = re.compile(r'#define\s+PY_VERSION\s+"([^"]+)"')
_WHEEL_MACHINE = re.compile(r"_(x86_64|aarch64|ppc64le|s390x|armv7l)$")
_MAX_DISTS = 5000  # distributions read per interpreter (a hostile root cannot make this unbounded)


@dataclass(frozen=True)
class RootInterpreter:
    """One interpreter found under the root: its executable, prefix and site folders, in order."""

    executable: str
    prefix: str
    minor: str  # "3.11"
    kind: str  # "conda" / "venv" / "system"
    sites: tuple[str, ...]


def interpreters(ctx: ProbeContext) -> list[RootInterpreter]:
    """Every interpreter found under the root, in the preference order of the module docstring."""
    found: list[RootInterpreter] = []
    seen_sites: set[str] = set()

    def add(executable: str, prefix: str, minor: str, kind: str, sites: list[str]) -> None:
        sites = [s for s in sites if s not in seen_sites and ctx.is_dir(s)]
        if not sites:
            return
        seen_sites.update(sites)
        found.append(RootInterpreter(executable, prefix, minor, kind, tuple(sites)))

    for site in ctx.glob("/opt/conda/lib/python3*/site-packages") + ctx.glob(
        "/opt/*/lib/python3*/site-packages"
    ):
        prefix = site.split("/lib/", 1)[0]
        minor = _minor_of(site)
        if minor is None:
            continue
        kind = "conda" if ctx.is_dir(f"{prefix}/conda-meta") else _venv_kind(ctx, prefix)
        add(f"{prefix}/bin/python{minor}", prefix, minor, kind, [site])
    for site in ctx.glob("/*/.venv/lib/python3*/site-packages"):
        prefix = site.split("/lib/", 1)[0]
        minor = _minor_of(site)
        if minor is not None:
            add(f"{prefix}/bin/python{minor}", prefix, minor, _venv_kind(ctx, prefix), [site])
    for site in ctx.glob("/usr/local/lib/python3*/site-packages"):
        minor = _minor_of(site)
        if minor is not None:  # the python images; the binary may be a placeholder or absent
            add(f"/usr/local/bin/python{minor}", "/usr/local", minor, "system", [site])
    for folder in sorted(ctx.glob("/usr/lib/python3.*"), key=_minor_key, reverse=True):
        minor = folder.rsplit("python", 1)[-1]
        if not re.fullmatch(r"3\.\d+", minor):
            continue
        sites = [
            f"/usr/local/lib/python{minor}/dist-packages",
            "/usr/lib/python3/dist-packages",
            f"/usr/lib/python{minor}/site-packages",
        ]
        add(f"/usr/bin/python{minor}", "/usr", minor, "system", sites)
    for pattern in ("/root/.local/lib/python3*/site-packages",):
        for site in ctx.glob(pattern):
            minor = _minor_of(site)
            if minor is not None:
                add(f"/usr/bin/python{minor}", "/usr", minor, "system", [site])
    return found


def target(ctx: ProbeContext) -> RootInterpreter | None:
    """The interpreter to describe: the first with torch installed, else the first found."""
    found = interpreters(ctx)
    for interp in found:
        if any(_has_dist(ctx, site, "torch") for site in interp.sites):
            return interp
    return found[0] if found else None


def describe(ctx: ProbeContext) -> dict[str, Any] | None:
    """interpreter_facts.describe() for the root's target interpreter, read from files."""
    interp = target(ctx)
    if interp is None:
        return None
    packages: dict[str, str] = {}
    installers: dict[str, str] = {}
    locations: dict[str, str] = {}
    tags: list[str] = []
    for site, dist in _dists(ctx, interp):
        key = interpreter_facts._normalize(dist.name)
        if key in packages:
            continue  # the first on the path wins, as for imports
        packages[key] = dist.version or "?"
        installer = (dist.read_text("INSTALLER") or "").strip()
        if installer:
            installers[key] = installer
        locations[key] = site
        if len(tags) < 50:
            tags.extend(_wheel_tags(dist))
    machine = _machine(tags)
    return {
        "executable": interp.executable,
        "version": _full_version(ctx, interp),
        "implementation": "CPython",
        "prefix": interp.prefix,
        "base_prefix": interp.prefix,
        "environment": interp.kind,
        "conda_env": None,
        "platform": "linux",
        "machine": machine,
        "pointer_bits": 64 if machine in ("x86_64", "aarch64", "ppc64le", "s390x") else None,
        "packages": packages,
        "installers": installers,
        "locations": locations,
        "root": str(ctx.root),
        "described_from": "files",
        "sites": list(interp.sites),
        "executable_found": ctx.exists(interp.executable),
    }


def ml_scan(ctx: ProbeContext) -> dict[str, Any] | None:
    """ml_metadata_script.describe() for the root's target interpreter, read from files."""
    interp = target(ctx)
    if interp is None:
        return None
    version = _full_version(ctx, interp)
    out: dict[str, Any] = {}
    tags: list[str] = []
    entries: list[tuple[str, str, _RootDist]] = []
    for site, dist in _dists(ctx, interp):
        key = interpreter_facts._normalize(dist.name)
        if key in out or not ml_metadata_script.interesting(key):
            continue
        out[key] = {}
        entries.append((site, key, dist))
        tags.extend(_wheel_tags(dist))
    for site, key, dist in entries:
        out[key] = _entry(ctx, site, key, dist)
    machine = _machine(tags)
    environment = {
        "python_version": interp.minor,
        "python_full_version": version,
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
        "sys_platform": "linux",
        "platform_system": "Linux",
        "platform_machine": machine or "",
        "platform_release": "",
        "os_name": "posix",
    }
    return {"environment": environment, "distributions": out}


# -- distributions, read through the context ------------------------------------------------------
class _RootDist:
    """A `*.dist-info` / `*.egg-info` folder under the root, read on demand through the context."""

    def __init__(self, ctx: ProbeContext, path: str) -> None:
        self.ctx = ctx
        self.path = path
        self._headers: dict[str, list[str]] | None = None

    def read_text(self, filename: str) -> str | None:
        return self.ctx.read_text(posixpath.join(self.path, filename))

    @property
    def headers(self) -> dict[str, list[str]]:
        if self._headers is None:
            text = self.read_text("METADATA") or self.read_text("PKG-INFO") or ""
            self._headers = interpreter_facts.parse_headers(text)
        return self._headers

    def header(self, name: str) -> str | None:
        values = self.headers.get(name.lower())
        return values[0] if values else None

    @property
    def name(self) -> str:
        """The Name header, else the folder name's stem ("torch-2.5.1.dist-info" -> "torch")."""
        return self.header("Name") or _folder_parts(self.path)[0]

    @property
    def version(self) -> str | None:
        return self.header("Version") or _folder_parts(self.path)[1]

    @property
    def requires(self) -> list[str]:
        if self.path.lower().endswith(".dist-info"):
            return list(self.headers.get("requires-dist") or [])
        return []


def _dists(ctx: ProbeContext, interp: RootInterpreter) -> list[tuple[str, _RootDist]]:
    out: list[tuple[str, _RootDist]] = []
    for site in interp.sites:
        for name in ctx.listdir(site):
            low = name.lower()
            if low.endswith((".dist-info", ".egg-info")):
                out.append((site, _RootDist(ctx, f"{site}/{name}")))
                if len(out) >= _MAX_DISTS:
                    return out
    return out


def _entry(ctx: ProbeContext, site: str, key: str, dist: _RootDist) -> dict[str, Any]:
    """One distribution as ml_metadata_script._entry describes it."""
    entry: dict[str, Any] = {
        "name": dist.name,
        "version": dist.version,
        "location": site,
        "installer": (dist.read_text("INSTALLER") or "").strip() or None,
        "requires": dist.requires,
        "requires_python": dist.header("Requires-Python"),
        "wheel_tags": _wheel_tags(dist),
        "direct_url": _direct_url(dist),
        "files": {},
        "listings": {},
    }
    for rel in ml_metadata_script.FILES.get(key, ()):
        text = ctx.read_text(posixpath.join(site, rel), max_bytes=ml_metadata_script.MAX_FILE_BYTES)
        if text is not None:
            entry["files"][rel] = text
    for rel in ml_metadata_script.LISTINGS.get(key, ()):
        names = sorted(ctx.listdir(posixpath.normpath(posixpath.join(site, rel))))
        if rel == ".":
            stem = key.replace("-", "_")
            names = [n for n in names if n.startswith(stem)]
        if names:
            entry["listings"][rel] = names[: ml_metadata_script.MAX_LISTING]
    return entry


def _has_dist(ctx: ProbeContext, site: str, key: str) -> bool:
    return any(
        _folder_parts(name)[0] and interpreter_facts._normalize(_folder_parts(name)[0]) == key
        for name in ctx.listdir(site)
        if name.lower().endswith((".dist-info", ".egg-info"))
    )


def _folder_parts(path: str) -> tuple[str, str | None]:
    """("torch", "2.5.1+cu124") for ".../torch-2.5.1+cu124.dist-info"."""
    stem = posixpath.basename(path).rsplit(".", 1)[0]
    name, _, version = stem.partition("-")
    return name, (version.split("-", 1)[0] or None)


def _wheel_tags(dist: _RootDist) -> list[str]:
    text = dist.read_text("WHEEL") or ""
    return [line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("Tag:")]


def _direct_url(dist: _RootDist) -> dict[str, Any] | None:
    text = dist.read_text("direct_url.json")
    if not text:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _machine(tags: list[str]) -> str | None:
    """The machine the installed binary wheels were built for ("x86_64"), when they agree."""
    found = {m.group(1) for tag in tags if (m := _WHEEL_MACHINE.search(tag))}
    return found.pop() if len(found) == 1 else None


def _minor_of(site: str) -> str | None:
    match = _PY_DIR.search(site + "/")
    return match.group(1) if match else None


def _minor_key(folder: str) -> tuple[int, int]:
    match = re.search(r"python3\.(\d+)$", folder)
    return (3, int(match.group(1))) if match else (0, 0)


def _venv_kind(ctx: ProbeContext, prefix: str) -> str:
    cfg = ctx.read_text(f"{prefix}/pyvenv.cfg")
    if cfg is None:
        return "system"
    made_by_uv = any(line.split("=")[0].strip() == "uv" for line in cfg.splitlines())
    return "uv-venv" if made_by_uv else "venv"


def _full_version(ctx: ProbeContext, interp: RootInterpreter) -> str:
    """ "3.11.4" from the interpreter's patchlevel.h or pyvenv.cfg, else the minor ("3.11")."""
    for header in (
        f"{interp.prefix}/include/python{interp.minor}/patchlevel.h",
        f"/usr/include/python{interp.minor}/patchlevel.h",
        f"/usr/local/include/python{interp.minor}/patchlevel.h",
    ):
        match = _PATCHLEVEL.search(ctx.read_text(header) or "")
        if match and match.group(1).startswith(interp.minor):
            return match.group(1)
    cfg = ctx.read_text(f"{interp.prefix}/pyvenv.cfg") or ""
    match = re.search(r"^version(?:_info)?\s*=\s*(3\.\d+\.\d+)", cfg, re.M)
    if match and match.group(1).startswith(interp.minor + "."):
        return match.group(1)
    return interp.minor
