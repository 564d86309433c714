"""Where CUDA things live on the target system: links, Python site dirs, conda prefixes, wheels.

Shared by the cuda_toolkit and cuda_libraries probes (not a probe itself). Every path here is
as the target system sees it ("/usr/local/cuda"), read through the probe context, so a fake
root tree works like the real one. Nothing here raises for a missing or unreadable file.
"""

from __future__ import annotations

import json
import posixpath
import re
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

from envdoctor.model.names import canonical_name
from envdoctor.probes.context import ProbeContext
from envdoctor.target import ml_metadata_script

_MAX_LINK_HOPS = 40
_SITE_GLOBS = (
    "/usr/lib/python3*/dist-packages",
    "/usr/lib/python3*/site-packages",
    "/usr/local/lib/python3*/dist-packages",
    "/usr/local/lib/python3*/site-packages",
    "/opt/conda/lib/python3*/site-packages",
)
TARGET_TIMEOUT_S = 12.0  # ml_packages' deadline for the same run


def resolve(ctx: ProbeContext, path: str) -> str:
    """`path` with every symbolic link in it followed, inside the target root (like realpath)."""
    parts = [p for p in posixpath.normpath(path).split("/") if p]
    done = "/"
    hops = 0
    while parts:
        part = parts.pop(0)
        if part == "..":
            done = posixpath.dirname(done) or "/"
            continue
        candidate = posixpath.join(done, part)
        target = ctx.readlink(candidate)
        if target is None:
            done = candidate
            continue
        hops += 1
        if hops > _MAX_LINK_HOPS:
            return posixpath.join(candidate, *parts)
        if target.startswith("/"):
            done = "/"
        parts = [p for p in target.split("/") if p and p != "."] + parts
    return done


def link_chain(ctx: ProbeContext, path: str) -> list[str]:
    """The links `path` goes through, itself first ("/usr/local/cuda", "/etc/alternatives/cuda",
    "/usr/local/cuda-12.4"); just [path] when it is not a link."""
    chain = [path]
    current = path
    for _ in range(_MAX_LINK_HOPS):
        target = ctx.readlink(current)
        if target is None:
            break
        current = posixpath.normpath(
            target if target.startswith("/") else posixpath.join(posixpath.dirname(current), target)
        )
        chain.append(current)
    return chain


def exists(ctx: ProbeContext, path: str) -> bool:
    """ctx.exists with links followed inside the target root (a fake root's absolute links
    would otherwise point into the host)."""
    return ctx.exists(resolve(ctx, path))


def is_dir(ctx: ProbeContext, path: str) -> bool:
    """ctx.is_dir with links followed inside the target root."""
    return ctx.is_dir(resolve(ctx, path))


def listdir(ctx: ProbeContext, path: str) -> list[str]:
    """ctx.listdir with links followed inside the target root."""
    return ctx.listdir(resolve(ctx, path))


def read_text(ctx: ProbeContext, path: str, max_bytes: int | None = None) -> str | None:
    """ctx.read_text with links followed inside the target root."""
    real = resolve(ctx, path)
    return ctx.read_text(real) if max_bytes is None else ctx.read_text(real, max_bytes=max_bytes)


def is_executable_file(ctx: ProbeContext, path: str) -> bool:
    """Whether `path` is a regular file with an execute bit (links followed)."""
    info = ctx.stat(resolve(ctx, path))
    return info is not None and stat.S_ISREG(info.st_mode) and bool(info.st_mode & 0o111)


def under(path: str, root: str) -> bool:
    """Whether `path` is `root` or inside it (plain string test on normalised paths)."""
    path, root = posixpath.normpath(path), posixpath.normpath(root)
    return path == root or path.startswith(root.rstrip("/") + "/")


def split_path_list(value: str | None) -> list[str]:
    """A PATH-like variable's entries in order; an empty entry stays "" (the loader and the
    shell read it as the current directory)."""
    if value is None:
        return []
    return value.split(":")


@dataclass(frozen=True)
class TargetPython:
    """The target environment's prefix and the site dirs its interpreter searches, in order."""

    prefix: str | None
    site_dirs: tuple[str, ...]


def target_python(ctx: ProbeContext) -> TargetPython:
    """Site dirs of the target interpreter (`--python`, else the one running envdoctor on a live
    root), then those of an active venv or conda env, then the system's usual ones."""
    sites: list[str] = []
    prefix: str | None = None
    live = str(ctx.root) == "/"
    if ctx.options.python:
        # the run python_env and the ML probes make too (ctx.run runs it once)
        script = str(Path(ml_metadata_script.__file__))
        result = ctx.run([ctx.options.python, script], timeout_s=TARGET_TIMEOUT_S)
        if result.ok:
            try:
                facts = json.loads(result.stdout)
                prefix = str(facts["interpreter"].get("prefix") or "") or None
                sites.extend(str(p) for p in facts.get("sys_path", []) if _looks_like_site(str(p)))
            except (json.JSONDecodeError, AttributeError, KeyError, TypeError):
                pass
    elif live:
        prefix = sys.prefix
        sites.extend(p for p in sys.path if p and _looks_like_site(p))
    for var in ("VIRTUAL_ENV", "CONDA_PREFIX"):
        env_prefix = ctx.env.get(var)
        if env_prefix:
            sites.extend(ctx.glob(posixpath.join(env_prefix, "lib", "python3*", "site-packages")))
            prefix = prefix or env_prefix
    home = ctx.env.get("HOME")
    if home:
        sites.extend(ctx.glob(posixpath.join(home, ".local", "lib", "python3*", "site-packages")))
    for pattern in _SITE_GLOBS:
        sites.extend(ctx.glob(pattern))
    unique: list[str] = []
    for site in sites:
        site = posixpath.normpath(site)
        if site not in unique and is_dir(ctx, site):
            unique.append(site)
    return TargetPython(prefix, tuple(unique))


def _looks_like_site(path: str) -> bool:
    return path.rstrip("/").endswith(("site-packages", "dist-packages"))


def conda_prefixes(ctx: ProbeContext, target: TargetPython) -> list[str]:
    """Conda environments that matter here: the active one, the target interpreter's."""
    found: list[str] = []
    for prefix in (ctx.env.get("CONDA_PREFIX"), target.prefix):
        if prefix and prefix not in found and is_dir(ctx, posixpath.join(prefix, "conda-meta")):
            found.append(prefix)
    return found


_CONDA_META = re.compile(r"^(?P<name>.+)-(?P<version>[^-]+)-(?P<build>[^-]+)\.json$")


def conda_packages(ctx: ProbeContext, prefix: str) -> dict[str, dict[str, str]]:
    """Packages recorded in `prefix`/conda-meta: {name: {"version", "build"}} (from file names)."""
    packages: dict[str, dict[str, str]] = {}
    for entry in listdir(ctx, posixpath.join(prefix, "conda-meta")):
        match = _CONDA_META.match(entry)
        if match:
            packages[match["name"]] = {"version": match["version"], "build": match["build"]}
    return packages


@dataclass(frozen=True)
class DistInfo:
    """One installed distribution found through its .dist-info folder."""

    name: str  # normalized ("nvidia-cudnn-cu12")
    version: str
    site: str
    path: str  # the .dist-info folder


_DIST_INFO = re.compile(r"^(?P<name>[^-]+)-(?P<version>[^-]+)\.dist-info$")


def dist_infos(ctx: ProbeContext, site: str, pattern: str = "*") -> list[DistInfo]:
    """Distributions in `site` whose folder name matches `pattern` ("nvidia_*")."""
    found: list[DistInfo] = []
    for path in ctx.glob(posixpath.join(site, f"{pattern}.dist-info")):
        match = _DIST_INFO.match(posixpath.basename(path))
        if match:
            found.append(DistInfo(canonical_name(match["name"]), match["version"], site, path))
    return found


def record_files(ctx: ProbeContext, dist: DistInfo) -> list[str]:
    """Files a distribution installed, as paths relative to its site dir (from RECORD)."""
    text = read_text(ctx, posixpath.join(dist.path, "RECORD"))
    if not text:
        return []
    files = []
    for line in text.splitlines():
        name = line.rsplit(",", 2)[0] if line.count(",") >= 2 else line
        if name:
            files.append(name.strip('"'))
    return files


def requires_dist(ctx: ProbeContext, dist: DistInfo) -> list[str]:
    """The `Requires-Dist:` lines of a distribution's METADATA, as written."""
    text = read_text(ctx, posixpath.join(dist.path, "METADATA")) or ""
    head = text.split("\n\n", 1)[0]
    return [
        line.split(":", 1)[1].strip()
        for line in head.splitlines()
        if line.startswith("Requires-Dist:")
    ]
