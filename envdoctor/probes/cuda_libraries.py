"""CUDA runtime and math libraries, cuDNN, NCCL, TensorRT: every copy the loader could pick.

Fills `cuda.libraries` (and `cuda.env`, see cuda_env.py):
- `copies`: one entry per library file, in the dynamic loader's search order: LD_PRELOAD, then
  LD_LIBRARY_PATH entries in order, then the ldconfig cache (`ldconfig -p`), then the default
  dirs; after them the copies no search reaches by itself (pip `nvidia-*` wheels, conda env
  `lib/`, toolkit lib dirs). Each: {library ("libcudnn_ops"), family (cudart / cublas / cudnn /
  nccl / nvjitlink / cusparse / tensorrt / driver), soname ("libcudnn_ops.so.9"), path, real_path,
  version, version_source (file-name / wheel-metadata / header), origin (system / toolkit / conda /
  pip-wheel / pip-bundled), via (the first search step that reaches it: "LD_PRELOAD",
  "LD_LIBRARY_PATH[0]", "ldconfig", "default-dir", "wheel" or "not-searched"), routes (every
  step that reaches it), package / package_version / site (the wheel that installed it),
  wins (the copy a program without RUNPATH loads), shadowed_by (for wheel copies: the
  LD_PRELOAD / LD_LIBRARY_PATH copy that frameworks using the wheel load instead, else None)}.
- `winners`: {soname: path a plain program loads}.
- `wheels`: [{name, version, site, cuda_major, lib_dirs}] for nvidia-* and tensorrt* wheels.
- `conda`: [{prefix, packages: {name: {version, build, cuda_major}}}] for CUDA-related packages.
- `consumers`: packages that need a cuDNN major: [{package, version, site, kind ("vendored": ships
  only cuDNN's front library in <pkg>.libs/ and loads the rest by name; "requires": pins an
  nvidia-cudnn wheel in Requires-Dist), cudnn_major, evidence, has_sublibraries}].
- `framework_requires`: {package: [nvidia-* Requires-Dist lines]} for torch, JAX, TF and others.
- `cudnn_headers`: [{path, version}]; `ldconfig`: {ran, error, entries, how (the cache file read,
  or `ldconfig -p` run), conf_dirs (when the cache could not be listed: the dirs /etc/ld.so.conf
  names, scanned instead)}; `site_dirs`.
Pip wheels put their libraries in site-packages/nvidia/<name>/lib (CUDA 11/12) or
nvidia/cu13/lib (CUDA 13); frameworks find them through their RUNPATH, which the loader
searches after LD_LIBRARY_PATH, so an LD_LIBRARY_PATH entry with the same soname wins.
"""

from __future__ import annotations

import json
import posixpath
import re
from typing import Any

from envdoctor.ingest.ldd_ldconfig import FAMILIES, LIB_NAME_PATTERN
from envdoctor.model.names import canonical_name
from envdoctor.model.snapshot import FactGroup, collected
from envdoctor.probes import cuda_env, cuda_paths
from envdoctor.probes.context import ProbeContext
from envdoctor.probes.cuda_toolkit import HOME_VARIABLES, ROOT_GLOBS

GROUPS = ("cuda.libraries", "cuda.env")
TIMEOUT_S = 10.0
LDCONFIG_TIMEOUT_S = 5.0
SOURCE = "probe:cuda_libraries"

# wheel name stem (without -cuNN) -> family, to take a wheel library's version from its wheel
WHEEL_FAMILY = {
    "nvidia-cuda-runtime": "cudart",
    "nvidia-cublas": "cublas",
    "nvidia-cudnn": "cudnn",
    "nvidia-nccl": "nccl",
    "nvidia-nvjitlink": "nvjitlink",
    "nvidia-cusparse": "cusparse",
    "tensorrt-libs": "tensorrt",
    "tensorrt": "tensorrt",
}
_LIB_NAME = LIB_NAME_PATTERN
# CUDA 10/11 libcudart carries major.minor in its soname ("libcudart.so.11.0"); the rest only the major
_SONAME = re.compile(
    rf"^(?:(?P<lib>{_LIB_NAME})\.so\.(?P<major>\d+)|libcudart\.so\.(?:10|11)\.\d)$"
)
_ANY_FILE = re.compile(
    rf"^(?P<lib>{_LIB_NAME})(?:-[0-9a-f]{{8}})?\.so\.(?P<major>\d+)(?P<rest>(?:\.\d+)*)$"
)
_VENDORED_CUDNN = re.compile(
    r"^libcudnn(?P<sub>_[a-z_]+)?-[0-9a-f]{8}\.so\.(?P<major>\d+)(?:\.\d+)*$"
)
_CUDNN_DEFINE = re.compile(
    r"^\s*#\s*define\s+CUDNN_(?P<key>MAJOR|MINOR|PATCHLEVEL)\s+(?P<value>\d+)", re.MULTILINE
)
_REQUIREMENT = re.compile(
    r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*\(?(?P<spec>[^;()]*)\)?\s*(?:;(?P<marker>.*))?$"
)
_CU_SUFFIX = re.compile(r"-cu(?P<major>\d+)$")
DEFAULT_DIR_GLOBS = (
    "/lib/*-linux-gnu",
    "/usr/lib/*-linux-gnu",
    "/lib64",
    "/usr/lib64",
    "/lib",
    "/usr/lib",
)
FRAMEWORK_DIST_GLOBS = (
    "torch",
    "jax_cuda*",
    "jaxlib",
    "tensorflow*",
    "onnxruntime_gpu",
    "paddlepaddle_gpu",
    "cupy_cuda*",
    "ctranslate2",
    "tensorrt*",
    "vllm",
    "xformers",
)
CONDA_CUDA_PACKAGES = (
    "cudatoolkit",
    "cuda-toolkit",
    "cuda-cudart",
    "cuda-version",
    "cuda-runtime",
    "cuda-nvcc",
    "cuda-libraries",
    "cudnn",
    "nccl",
    "libcublas",
    "libcusparse",
    "libnvjitlink",
    "pytorch",
    "pytorch-cuda",
    "tensorrt",
)
_CONDA_MAJOR_BY_VERSION = (
    "cudatoolkit",
    "cuda-toolkit",
    "cuda-cudart",
    "cuda-version",
    "cuda-runtime",
    "cuda-nvcc",
    "cuda-libraries",
    "pytorch-cuda",
    "libcublas",
    "libnvjitlink",
)

_LOADER_RANK = {"LD_PRELOAD": 0, "LD_LIBRARY_PATH": 1, "ldconfig": 3, "default-dir": 4}
_EARLY_RANK = {"LD_PRELOAD": 0, "LD_LIBRARY_PATH": 1}  # searched before a wheel user's RUNPATH


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Every copy of the CUDA libraries, where the loader finds each, and the environment."""
    target = cuda_paths.target_python(ctx)
    scan = _Scan(ctx, target)
    preload = [p for p in re.split(r"[:\s]+", ctx.env.get("LD_PRELOAD", "")) if p]
    for path in preload:
        scan.add_file(path, "LD_PRELOAD")
    ld_path = cuda_paths.split_path_list(ctx.env.get("LD_LIBRARY_PATH"))
    for index, folder in enumerate(ld_path):
        if folder.startswith("/"):
            scan.add_dir(folder, f"LD_LIBRARY_PATH[{index}]")
    ldconfig = _ldconfig(ctx)
    for soname, path in ldconfig.pop("pairs"):
        scan.add_file(path, "ldconfig", soname)
    if ldconfig["error"]:  # no cache listing (another root, no ldconfig): the dirs it is built from
        ldconfig["conf_dirs"] = _ld_so_conf_dirs(ctx)
        for folder in ldconfig["conf_dirs"]:
            scan.add_dir(folder, "ldconfig")
    for pattern in DEFAULT_DIR_GLOBS:
        for folder in ctx.glob(pattern):
            scan.add_dir(folder, "default-dir")
    wheels = scan.add_wheels()
    conda = []
    for prefix in cuda_paths.conda_prefixes(ctx, target):
        scan.add_dir(posixpath.join(prefix, "lib"), "not-searched")
        conda.append({"prefix": prefix, "packages": _conda_cuda_packages(ctx, prefix)})
    for folder in _toolkit_lib_dirs(ctx):
        scan.add_dir(folder, "not-searched")
    copies = scan.finish()
    headers = _cudnn_headers(ctx, copies)
    winners = _mark_winners(copies)
    consumers, requires = _consumers(ctx, target)
    data = {
        "copies": copies,
        "winners": winners,
        "wheels": wheels,
        "conda": conda,
        "consumers": consumers,
        "framework_requires": requires,
        "cudnn_headers": headers,
        "ldconfig": ldconfig,
        "site_dirs": list(target.site_dirs),
    }
    env_group = cuda_env.describe(ctx, copies, preload, ld_path)
    return [collected("cuda.libraries", SOURCE, data, summary=_summary(copies, winners)), env_group]


class _Scan:
    """Collects library copies in search order; one entry per (soname, real file)."""

    def __init__(self, ctx: ProbeContext, target: cuda_paths.TargetPython) -> None:
        self.ctx = ctx
        self.target = target
        self.copies: dict[tuple[str, str], dict[str, Any]] = {}
        self.owner: dict[str, cuda_paths.DistInfo] = {}  # real path -> wheel that installed it
        self.toolkit_roots = _toolkit_roots(ctx)
        self.conda_prefixes = cuda_paths.conda_prefixes(ctx, target)
        self._manifests: dict[str, dict[str, str]] = {}

    def add_dir(self, folder: str, route: str) -> None:
        for name in cuda_paths.listdir(self.ctx, folder):
            if _SONAME.match(name):
                self.add_file(posixpath.join(folder, name), route, name)

    def add_file(self, path: str, route: str, soname: str | None = None) -> None:
        name = posixpath.basename(path)
        match = _ANY_FILE.match(soname or name)
        if match is None or not cuda_paths.exists(self.ctx, path):
            return
        soname = _soname(match["lib"], match["major"], match["rest"])
        real = cuda_paths.resolve(self.ctx, path)
        key = (soname, real)
        if key in self.copies:
            if route not in self.copies[key]["routes"]:
                self.copies[key]["routes"].append(route)
            return
        real_name = posixpath.basename(real)
        version, source = (
            (None, None) if real_name == soname else _file_name_version(match["lib"], real_name)
        )
        self.copies[key] = {
            "library": match["lib"],
            "family": FAMILIES.get(match["lib"], "cudnn"),
            "soname": soname,
            "path": path,
            "real_path": real,
            "version": version,
            "version_source": source,
            "origin": None,
            "via": route,
            "routes": [route],
            "package": None,
            "package_version": None,
            "site": None,
            "wins": False,
            "shadowed_by": None,
        }

    def add_wheels(self) -> list[dict[str, Any]]:
        wheels = []
        for site in self.target.site_dirs:
            dists = cuda_paths.dist_infos(self.ctx, site, "nvidia_*") + cuda_paths.dist_infos(
                self.ctx, site, "tensorrt*"
            )
            folders: list[str] = []
            for dist in dists:
                lib_dirs = []
                files = cuda_paths.record_files(self.ctx, dist)
                for rel in files:
                    if _ANY_FILE.match(posixpath.basename(rel)):
                        full = posixpath.normpath(posixpath.join(site, rel))
                        self.owner[cuda_paths.resolve(self.ctx, full)] = dist
                        folder = posixpath.dirname(full)
                        if folder not in lib_dirs:
                            lib_dirs.append(folder)
                if lib_dirs or _CU_SUFFIX.search(dist.name):
                    wheels.append(
                        {
                            "name": dist.name,
                            "version": dist.version,
                            "site": site,
                            "cuda_major": _wheel_cuda_major(dist.name, files),
                            "lib_dirs": lib_dirs,
                        }
                    )
                folders.extend(d for d in lib_dirs if d not in folders)
            for pattern in ("nvidia/*/lib", "tensorrt_libs"):
                folders.extend(
                    d for d in self.ctx.glob(posixpath.join(site, pattern)) if d not in folders
                )
            for folder in folders:
                self.add_dir(folder, "wheel")
        return wheels

    def finish(self) -> list[dict[str, Any]]:
        out = []
        for copy in self.copies.values():
            dist = self.owner.get(copy["real_path"])
            site = next(
                (s for s in self.target.site_dirs if cuda_paths.under(copy["real_path"], s)), None
            )
            if dist is not None:
                copy.update(package=dist.name, package_version=dist.version, site=dist.site)
                stem = _CU_SUFFIX.sub("", dist.name)
                if copy["version"] is None and WHEEL_FAMILY.get(stem) == copy["family"]:
                    copy.update(version=dist.version, version_source="wheel-metadata")
            elif site is not None:
                copy["site"] = site
            copy["origin"] = self._origin(copy["real_path"], dist, site)
            if copy["version"] is None and copy["origin"] == "toolkit":
                root = next(r for r in self.toolkit_roots if cuda_paths.under(copy["real_path"], r))
                version = self._toolkit_versions(root).get(copy["family"])
                if version:
                    copy.update(version=version, version_source="toolkit-manifest")
            out.append(copy)
        return out

    def _toolkit_versions(self, root: str) -> dict[str, str]:
        """{family: version} from a toolkit's version.json or the wheel dist-info it was built from."""
        if root not in self._manifests:
            self._manifests[root] = _toolkit_manifest(self.ctx, root)
        return self._manifests[root]

    def _origin(self, real: str, dist: cuda_paths.DistInfo | None, site: str | None) -> str:
        if (
            dist is not None
            or (site is not None and "/nvidia/" in real)
            or "/tensorrt_libs/" in real
        ):
            return "pip-wheel"
        if site is not None:
            return "pip-bundled"
        if any(cuda_paths.under(real, prefix) for prefix in self.conda_prefixes):
            return "conda"
        if any(cuda_paths.under(real, root) for root in self.toolkit_roots):
            return "toolkit"
        return "system"


def _soname(lib: str, major: str, rest: str) -> str:
    """The name the loader looks a library up by: "libcudnn.so.9"; CUDA 10/11 cudart "libcudart.so.11.0"."""
    if lib == "libcudart" and major in ("10", "11"):
        minor = rest.split(".")[1] if major == "10" and rest.count(".") >= 1 and rest[1:] else "0"
        return f"libcudart.so.{major}.{minor}"
    return f"{lib}.so.{major}"


def _file_name_version(lib: str, real_name: str) -> tuple[str | None, str | None]:
    """ "libcudart.so.12.4.127" -> "12.4.127"; "libcuda.so.550.54.14" -> "550.54.14"."""
    prefix = f"{lib}.so."
    if real_name.startswith(prefix):
        rest = real_name[len(prefix) :]
        if "." in rest and re.fullmatch(r"\d+(?:\.\d+)+", rest):
            return rest, "file-name"
    return None, None


_MANIFEST_KEYS = {
    "cuda_cudart": "cudart",
    "libcublas": "cublas",
    "libcusparse": "cusparse",
    "libnvjitlink": "nvjitlink",
}
_TOOLKIT_DIST = re.compile(
    r"^(?P<name>nvidia_[a-z_]+?)(?:_cu\d+)?-(?P<version>\d+(?:\.\d+)+)\.dist-info$"
)


def _toolkit_manifest(ctx: ProbeContext, root: str) -> dict[str, str]:
    versions: dict[str, str] = {}
    text = cuda_paths.read_text(ctx, posixpath.join(root, "version.json"))
    if text:
        try:
            doc = json.loads(text)
        except json.JSONDecodeError:
            doc = {}
        for key, family in _MANIFEST_KEYS.items():
            entry = doc.get(key) if isinstance(doc, dict) else None
            if isinstance(entry, dict) and isinstance(entry.get("version"), str):
                versions[family] = entry["version"]
    for name in cuda_paths.listdir(ctx, posixpath.join(root, "dist-info")):
        match = _TOOLKIT_DIST.match(name)
        if match is None:
            continue
        wheel_family = WHEEL_FAMILY.get(canonical_name(match["name"]))
        if wheel_family and wheel_family not in versions:
            versions[wheel_family] = match["version"]
    return versions


def _wheel_cuda_major(name: str, files: list[str]) -> int | None:
    match = _CU_SUFFIX.search(name)
    if match:
        return int(match["major"])
    for rel in files:
        folder = re.match(r"nvidia/cu(\d+)/", rel)
        if folder:
            return int(folder[1])
    return None


def _toolkit_roots(ctx: ProbeContext) -> list[str]:
    roots: list[str] = []
    for pattern in ROOT_GLOBS:
        roots.extend(cuda_paths.resolve(ctx, r) for r in ctx.glob(pattern))
    for var in HOME_VARIABLES:
        value = ctx.env.get(var)
        if value and cuda_paths.is_dir(ctx, value):
            roots.append(cuda_paths.resolve(ctx, value))
    return sorted(set(roots))


def _toolkit_lib_dirs(ctx: ProbeContext) -> list[str]:
    folders = []
    for root in _toolkit_roots(ctx):
        for candidate in [posixpath.join(root, "lib64"), posixpath.join(root, "lib")] + ctx.glob(
            posixpath.join(root, "targets", "*", "lib")
        ):
            real = cuda_paths.resolve(ctx, candidate)
            if cuda_paths.is_dir(ctx, real) and real not in folders:
                folders.append(real)
    return folders


def _ldconfig(ctx: ProbeContext) -> dict[str, Any]:
    """The loader cache's CUDA entries, in cache order, as (soname, path) pairs (`ld_cache.listing`:
    the target's /etc/ld.so.cache, else `ldconfig -p`)."""
    from envdoctor.probes import ld_cache

    rows, how, error = ld_cache.listing(ctx, timeout_s=LDCONFIG_TIMEOUT_S)
    if error is not None:
        return {"ran": how != "not found", "error": error, "entries": 0, "pairs": []}
    return _cache_pairs(rows, how)


def _cache_pairs(rows: list[tuple[str, str, str]], how: str) -> dict[str, Any]:
    """The CUDA entries of the cache's (soname, flags, path) rows, 64-bit ones only when any is."""
    rows = [row for row in rows if _SONAME.match(row[0])]
    wide = any("64" in flags for _, flags, _ in rows)
    pairs = [(soname, path) for soname, flags, path in rows if not wide or "64" in flags]
    return {"ran": True, "error": None, "entries": len(pairs), "pairs": pairs, "how": how}


def _ld_so_conf_dirs(ctx: ProbeContext, conf: str = "/etc/ld.so.conf", depth: int = 0) -> list[str]:
    """The library dirs /etc/ld.so.conf names (following `include` globs), in order."""
    folders: list[str] = []
    for line in (cuda_paths.read_text(ctx, conf) or "").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("include") and depth < 3:
            pattern = line.split(None, 1)[1] if " " in line else ""
            if pattern and not pattern.startswith("/"):
                pattern = posixpath.join(posixpath.dirname(conf), pattern)
            for included in ctx.glob(pattern) if pattern else []:
                folders += [
                    f for f in _ld_so_conf_dirs(ctx, included, depth + 1) if f not in folders
                ]
        elif line.startswith("/") and line not in folders:
            folders.append(line)
    return folders


def _cudnn_headers(ctx: ProbeContext, copies: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """cudnn_version.h (cudnn.h before cuDNN 8) next to each cuDNN copy and in the system
    include dirs; fills the version of cuDNN copies whose file name does not carry one."""
    candidates: list[str] = []
    for copy in copies:
        if copy["family"] == "cudnn":
            include = posixpath.join(
                posixpath.dirname(posixpath.dirname(copy["real_path"])), "include"
            )
            candidates += [
                posixpath.join(include, "cudnn_version.h"),
                posixpath.join(include, "cudnn.h"),
            ]
    candidates += ["/usr/include/cudnn_version.h", "/usr/include/cudnn.h"]
    candidates += ctx.glob("/usr/include/*-linux-gnu/cudnn_version*.h")
    headers = []
    seen = set()
    for path in candidates:
        if path in seen or not cuda_paths.exists(ctx, path):
            continue
        seen.add(path)
        defines = {
            m["key"]: m["value"]
            for m in _CUDNN_DEFINE.finditer(cuda_paths.read_text(ctx, path) or "")
        }
        if "MAJOR" in defines:
            version = ".".join(defines.get(k, "0") for k in ("MAJOR", "MINOR", "PATCHLEVEL"))
            headers.append({"path": path, "version": version})
    for copy in copies:
        if copy["family"] != "cudnn" or copy["version"] is not None:
            continue
        include = posixpath.join(posixpath.dirname(posixpath.dirname(copy["real_path"])), "include")
        major = copy["soname"].rsplit(".", 1)[1]
        for header in headers:
            near = posixpath.dirname(header["path"]) == include
            system = copy["origin"] == "system" and header["path"].startswith("/usr/include/")
            if (near or system) and header["version"].split(".")[0] == major:
                copy.update(version=header["version"], version_source="header")
                break
    return headers


def _route_kind(route: str) -> str:
    return route.split("[", 1)[0]


def _rank(copy: dict[str, Any], ranks: dict[str, int]) -> tuple[int, int] | None:
    best = None
    for route in copy["routes"]:
        kind = _route_kind(route)
        if kind not in ranks:
            continue
        index = int(route[route.index("[") + 1 : -1]) if "[" in route else 0
        candidate = (ranks[kind], index)
        if best is None or candidate < best:
            best = candidate
    return best


def _mark_winners(copies: list[dict[str, Any]]) -> dict[str, str]:
    """Mark the copy a plain program loads per soname, and for wheel copies the earlier copy that
    frameworks using the wheel (through RUNPATH) load instead."""
    winners: dict[str, str] = {}
    by_soname: dict[str, list[dict[str, Any]]] = {}
    for copy in copies:
        by_soname.setdefault(copy["soname"], []).append(copy)
    for soname, group in by_soname.items():
        ranked = [(r, c) for c in group if (r := _rank(c, _LOADER_RANK)) is not None]
        if ranked:
            winner = min(ranked, key=lambda rc: rc[0])[1]
            winner["wins"] = True
            winners[soname] = winner["path"]
        for copy in group:
            if copy["origin"] != "pip-wheel":
                continue
            earlier = [
                (r, c)
                for c in group
                if c["real_path"] != copy["real_path"] and (r := _rank(c, _EARLY_RANK)) is not None
            ]
            if earlier:
                first = min(earlier, key=lambda rc: rc[0])[1]
                copy["shadowed_by"] = {
                    "path": first["path"],
                    "via": first["via"],
                    "version": first["version"],
                    "origin": first["origin"],
                    "package": first["package"],
                    "site": first["site"],
                }
    return winners


def _conda_cuda_packages(ctx: ProbeContext, prefix: str) -> dict[str, dict[str, Any]]:
    packages = cuda_paths.conda_packages(ctx, prefix)
    out: dict[str, dict[str, Any]] = {}
    for name in CONDA_CUDA_PACKAGES:
        if name not in packages:
            continue
        entry: dict[str, Any] = dict(packages[name])
        major = None
        if name in _CONDA_MAJOR_BY_VERSION:
            head = re.match(r"(\d+)\.", entry["version"])
            major = int(head[1]) if head else None
        else:
            build = re.search(r"cuda(\d+)", entry["build"])
            if build:  # "cuda11_0", "py3.10_cuda11.8_cudnn8.7.0_0", "cuda120_py310h..."
                digits = build[1]
                major = int(digits[:2]) if len(digits) >= 3 else int(digits)
        entry["cuda_major"] = major
        out[name] = entry
    return out


def _consumers(
    ctx: ProbeContext, target: cuda_paths.TargetPython
) -> tuple[list[dict[str, Any]], dict[str, list[str]]]:
    """Packages that need a cuDNN major, and the nvidia-* requirements of ML frameworks."""
    consumers: list[dict[str, Any]] = []
    requires: dict[str, list[str]] = {}
    for site in target.site_dirs:
        for path in ctx.glob(posixpath.join(site, "*.libs", "libcudnn*")):
            match = _VENDORED_CUDNN.match(posixpath.basename(path))
            if not match or match["sub"]:
                continue
            folder = posixpath.dirname(path)
            package = posixpath.basename(folder)[: -len(".libs")]
            dist = next(
                iter(
                    cuda_paths.dist_infos(ctx, site, f"{package}-*")
                    or cuda_paths.dist_infos(ctx, site, f"{package.replace('-', '_')}-*")
                ),
                None,
            )
            subs = [n for n in cuda_paths.listdir(ctx, folder) if n.startswith("libcudnn_")]
            consumers.append(
                {
                    "package": dist.name if dist else canonical_name(package),
                    "version": dist.version if dist else None,
                    "site": site,
                    "kind": "vendored",
                    "cudnn_major": int(match["major"]),
                    "evidence": path,
                    "has_sublibraries": bool(subs),
                }
            )
        for pattern in FRAMEWORK_DIST_GLOBS:
            for dist in cuda_paths.dist_infos(ctx, site, f"{pattern}-*"):
                lines = [
                    line
                    for line in cuda_paths.requires_dist(ctx, dist)
                    if line.lower().startswith(("nvidia-", "nvidia_", "tensorrt"))
                ]
                if not lines or dist.name in requires:
                    continue
                requires[dist.name] = lines
                for line in lines:
                    req = _REQUIREMENT.match(line)
                    if not req or not canonical_name(req["name"]).startswith("nvidia-cudnn"):
                        continue
                    if "extra" in (req["marker"] or ""):
                        continue
                    major = re.search(r"(?:==|>=|~=|===)\s*(\d+)", req["spec"] or "")
                    consumers.append(
                        {
                            "package": dist.name,
                            "version": dist.version,
                            "site": site,
                            "kind": "requires",
                            "cudnn_major": int(major[1]) if major else None,
                            "evidence": f"Requires-Dist: {line}",
                            "requirement": canonical_name(req["name"]),
                            "spec": (req["spec"] or "").strip(),
                            "has_sublibraries": None,
                        }
                    )
    return consumers, requires


def _summary(copies: list[dict[str, Any]], winners: dict[str, str]) -> str:
    families = sorted({c["family"] for c in copies})
    shadowed = sum(1 for c in copies if c["shadowed_by"])
    text = f"{len(copies)} library copies ({', '.join(families) or 'none'}), {len(winners)} on the loader path"
    return text + (f", {shadowed} wheel copies shadowed" if shadowed else "")
