"""CUDA toolkits: every one on the machine, its version, and which one each tool would pick.

Fills `cuda.toolkits`:
- `toolkits`: [{path (as first found), real_path (links followed), version (the most precise one
  known: "12.8.2" from version.json, "10.0.130" from version.txt, "13.0.88" from a wheel's
  dist-info or nvcc), release ("13.0"), version_source (version.json / version.txt / dist-info /
  nvcc / conda-meta), sdk_version (version.json's raw "cuda" entry), nvcc (path or None),
  nvcc_version, origin (system / distro / conda / pip-wheel), found_via (how it was found),
  lib_dirs}]
- `default_path`: the toolkit /usr/local/cuda is or points to (None when missing);
  `default_link`: {path, is_symlink, chain} (the links it goes through).
- `nvcc_on_path`: {path, resolved (wrapper scripts and links followed), via ("wrapper" / "symlink"
  / None), version, release, toolkit (its real root), error}; `nvcc_all_on_path`: every nvcc on
  PATH in order (the first one wins, the others are shadowed). nvcc runs (`--version`) only on the
  live root; under `--root` / `--image` versions come from the files alone.
- `cuda_home`: {"CUDA_HOME": value, "CUDA_PATH": value} as set.
- `conda`: [{prefix, packages: {name: version}}] for cudatoolkit / cuda-toolkit / cuda-nvcc ...;
  `pip`: [{name, version, site, nvcc}] for nvidia-cuda-nvcc wheels.
Absent with the places searched when there is none.
"""

from __future__ import annotations

import json
import posixpath
import re
from typing import Any

from envdoctor.ingest.nvcc_version import parse_nvcc
from envdoctor.model.snapshot import FactGroup, absent, collected
from envdoctor.probes import cuda_paths
from envdoctor.probes.context import ProbeContext

GROUPS = ("cuda.toolkits",)
TIMEOUT_S = 10.0
NVCC_TIMEOUT_S = 4.0
SOURCE = "probe:cuda_toolkit"
NOT_RUN = "not run: binaries under another root (--root, --image) are never executed"

DEFAULT_LINK = "/usr/local/cuda"
ROOT_GLOBS = (
    "/usr/local/cuda",
    "/usr/local/cuda-*",
    "/opt/cuda",
    "/opt/cuda-*",
    "/usr/lib/nvidia-cuda-toolkit",
    "/opt/nvidia/hpc_sdk/*/*/cuda/[0-9]*",
)
HOME_VARIABLES = ("CUDA_HOME", "CUDA_PATH", "CUDA_ROOT", "CUDA_TOOLKIT_ROOT_DIR")
CONDA_TOOLKIT_PACKAGES = (
    "cuda-toolkit",
    "cudatoolkit",
    "cudatoolkit-dev",
    "cuda-nvcc",
    "cuda-cudart",
    "cuda-version",
    "cuda-runtime",
    "cuda-libraries",
    "pytorch-cuda",
)
_WRAPPER_EXEC = re.compile(r"""^\s*exec\s+["']?(?P<target>/[^\s"']*/nvcc)["']?""", re.MULTILINE)
_VERSION_TXT = re.compile(r"CUDA Version\s+(?P<version>\d+(?:\.\d+)+)")
_NVCC_DIST = re.compile(
    r"^nvidia_cuda_(?:nvcc|runtime)(?:_cu\d+)?-(?P<version>\d+(?:\.\d+)+)\.dist-info$"
)


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Find the toolkits, their versions, and the one PATH, CUDA_HOME and /usr/local/cuda name."""
    target = cuda_paths.target_python(ctx)
    found: dict[str, dict[str, Any]] = {}  # real root -> toolkit

    def add(root: str, via: str) -> dict[str, Any] | None:
        root = posixpath.normpath(root)
        real = cuda_paths.resolve(ctx, root)
        if real in found:
            if via not in found[real]["found_via"]:
                found[real]["found_via"].append(via)
            return found[real]
        if not _looks_like_toolkit(ctx, real):
            return None
        found[real] = _describe(ctx, root, real, via, target)
        return found[real]

    default = None
    if cuda_paths.exists(ctx, DEFAULT_LINK):
        toolkit = add(DEFAULT_LINK, DEFAULT_LINK)
        default = toolkit["real_path"] if toolkit else None
    for pattern in ROOT_GLOBS:
        for root in ctx.glob(pattern):
            add(root, "directory")
    cuda_home = {var: ctx.env[var] for var in HOME_VARIABLES if var in ctx.env}
    for var, value in cuda_home.items():
        if value and cuda_paths.is_dir(ctx, value):
            add(value, var)

    nvcc_all = _nvccs_on_path(ctx)
    nvcc_on_path = None
    if nvcc_all:
        nvcc_on_path = _describe_path_nvcc(ctx, nvcc_all[0])
        root = posixpath.dirname(posixpath.dirname(nvcc_on_path["resolved"]))
        toolkit = add(root, "PATH")
        if toolkit is not None:
            nvcc_on_path["toolkit"] = toolkit["real_path"]
            if toolkit["nvcc_version"] is None and nvcc_on_path.get("version"):
                toolkit["nvcc_version"] = nvcc_on_path["version"]
                if toolkit["version"] is None:
                    toolkit.update(
                        version=nvcc_on_path["version"],
                        release=nvcc_on_path["release"],
                        version_source="nvcc",
                    )
        for other in nvcc_all[1:]:
            add(
                posixpath.dirname(posixpath.dirname(cuda_paths.resolve(ctx, other))),
                "PATH (shadowed)",
            )

    conda = []
    for prefix in cuda_paths.conda_prefixes(ctx, target):
        packages = cuda_paths.conda_packages(ctx, prefix)
        wanted = {
            name: packages[name]["version"] for name in CONDA_TOOLKIT_PACKAGES if name in packages
        }
        if wanted:
            conda.append({"prefix": prefix, "packages": wanted})
            if any(
                name in wanted
                for name in ("cuda-nvcc", "cudatoolkit", "cuda-toolkit", "cuda-cudart")
            ):
                add(prefix, "conda")

    pip = []
    for site in target.site_dirs:
        for dist in cuda_paths.dist_infos(ctx, site, "nvidia_cuda_nvcc*"):
            nvcc_dirs = [
                posixpath.join(site, "nvidia", sub) for sub in ("cuda_nvcc", "cu13", "cu12")
            ]
            nvcc_root: str | None = next(
                (d for d in nvcc_dirs if cuda_paths.exists(ctx, posixpath.join(d, "bin", "nvcc"))),
                None,
            )
            pip.append(
                {
                    "name": dist.name,
                    "version": dist.version,
                    "site": site,
                    "nvcc": posixpath.join(nvcc_root, "bin", "nvcc") if nvcc_root else None,
                }
            )
            if nvcc_root:
                toolkit = add(nvcc_root, "pip")
                if toolkit is not None and toolkit["version"] is None:
                    toolkit.update(
                        version=dist.version,
                        release=_release(dist.version),
                        version_source="dist-info",
                    )

    for toolkit in found.values():
        _fill_version_from_nvcc(ctx, toolkit)
    toolkits = sorted(found.values(), key=lambda t: t["real_path"])
    if not toolkits:
        places = ", ".join(
            list(ROOT_GLOBS[:4])
            + ["CUDA_HOME/CUDA_PATH", "nvcc on PATH", "conda env", "pip nvidia-cuda-nvcc"]
        )
        return [absent("cuda.toolkits", SOURCE, f"no CUDA toolkit found (looked at {places})")]
    data = {
        "toolkits": toolkits,
        "default_path": default,
        "default_link": _default_link(ctx)
        if cuda_paths.exists(ctx, DEFAULT_LINK) or ctx.readlink(DEFAULT_LINK)
        else None,
        "nvcc_on_path": nvcc_on_path,
        "nvcc_all_on_path": nvcc_all,
        "cuda_home": cuda_home,
        "conda": conda,
        "pip": pip,
    }
    return [
        collected("cuda.toolkits", SOURCE, data, summary=_summary(toolkits, default, nvcc_on_path))
    ]


def _looks_like_toolkit(ctx: ProbeContext, root: str) -> bool:
    markers = (
        "bin/nvcc",
        "version.json",
        "version.txt",
        "lib64/libcudart.so",
        "lib/libcudart.so",
        "conda-meta",
    )
    if any(cuda_paths.exists(ctx, posixpath.join(root, m)) for m in markers):
        return True
    if ctx.glob(posixpath.join(root, "targets", "*", "lib", "libcudart.so*")):
        return True
    return bool(ctx.glob(posixpath.join(root, "dist-info", "nvidia_cuda_*.dist-info")))


def _describe(
    ctx: ProbeContext, root: str, real: str, via: str, target: cuda_paths.TargetPython
) -> dict[str, Any]:
    version, source, sdk = _file_version(ctx, real)
    nvcc = posixpath.join(real, "bin", "nvcc")
    lib_dirs: list[str] = []
    candidates = [posixpath.join(real, "lib64"), posixpath.join(real, "lib")]
    for folder in candidates + ctx.glob(posixpath.join(real, "targets", "*", "lib")):
        folder = cuda_paths.resolve(ctx, folder)
        if cuda_paths.is_dir(ctx, folder) and folder not in lib_dirs:
            lib_dirs.append(folder)
    return {
        "path": root,
        "real_path": real,
        "version": version,
        "release": _release(version),
        "version_source": source,
        "sdk_version": sdk,
        "nvcc": nvcc if cuda_paths.is_executable_file(ctx, nvcc) else None,
        "nvcc_version": None,
        "origin": _origin(ctx, real, target),
        "found_via": [via],
        "lib_dirs": lib_dirs,
    }


def _file_version(ctx: ProbeContext, root: str) -> tuple[str | None, str | None, str | None]:
    """(version, source, raw SDK version) from version.json, version.txt or a wheel's dist-info."""
    text = cuda_paths.read_text(ctx, posixpath.join(root, "version.json"))
    if text:
        try:
            doc = json.loads(text)
        except json.JSONDecodeError:
            doc = None
        if isinstance(doc, dict):
            sdk = _entry_version(doc, "cuda")
            nvcc = _entry_version(doc, "cuda_nvcc") or _entry_version(doc, "cuda_cudart")
            if sdk and not _date_like(sdk):
                return sdk, "version.json", sdk
            if nvcc:
                return nvcc, "version.json", sdk
            if sdk:
                return _release(sdk), "version.json", sdk
    text = cuda_paths.read_text(ctx, posixpath.join(root, "version.txt"))
    match = _VERSION_TXT.search(text or "")
    if match:
        return match["version"], "version.txt", None
    for entry in cuda_paths.listdir(ctx, posixpath.join(root, "dist-info")):
        match = _NVCC_DIST.match(entry)
        if match and entry.startswith("nvidia_cuda_nvcc"):
            return match["version"], "dist-info", None
    for entry in cuda_paths.listdir(ctx, posixpath.join(root, "dist-info")):
        match = _NVCC_DIST.match(entry)
        if match:
            return match["version"], "dist-info", None
    packages = (
        cuda_paths.conda_packages(ctx, root)
        if cuda_paths.is_dir(ctx, posixpath.join(root, "conda-meta"))
        else {}
    )
    for name in ("cuda-nvcc", "cudatoolkit", "cuda-toolkit", "cuda-cudart"):
        if name in packages:
            return packages[name]["version"], "conda-meta", None
    return None, None, None


def _entry_version(doc: dict[str, Any], key: str) -> str | None:
    entry = doc.get(key)
    if isinstance(entry, dict) and isinstance(entry.get("version"), str):
        return entry["version"]
    return None


def _date_like(version: str) -> bool:
    """Run-file installs write "12.6.20241114": a date, not an update number."""
    parts = version.split(".")
    return len(parts) >= 3 and parts[2].isdigit() and int(parts[2]) >= 19000000


def _release(version: str | None) -> str | None:
    if not version:
        return None
    match = re.match(r"(\d+)\.(\d+)", version)
    return f"{match[1]}.{match[2]}" if match else None


def _origin(ctx: ProbeContext, real: str, target: cuda_paths.TargetPython) -> str:
    if cuda_paths.is_dir(ctx, posixpath.join(real, "conda-meta")):
        return "conda"
    if any(cuda_paths.under(real, site) for site in target.site_dirs) or "/site-packages/" in real:
        return "pip-wheel"
    if real == "/usr" or cuda_paths.under(real, "/usr/lib"):
        return "distro"
    return "system"


def _nvccs_on_path(ctx: ProbeContext) -> list[str]:
    """Every nvcc on PATH, in search order (as the target system sees the paths)."""
    found = []
    for entry in cuda_paths.split_path_list(ctx.env.get("PATH")):
        if not entry.startswith("/"):
            continue
        candidate = posixpath.join(entry, "nvcc")
        if cuda_paths.is_executable_file(ctx, candidate) and candidate not in found:
            found.append(candidate)
    return found


def _describe_path_nvcc(ctx: ProbeContext, path: str) -> dict[str, Any]:
    """The nvcc PATH resolves, followed through links and exec-wrapper scripts, and its version."""
    resolved = cuda_paths.resolve(ctx, path)
    via = "symlink" if resolved != path else None
    for _ in range(3):
        head = cuda_paths.read_text(ctx, resolved, max_bytes=4096) or ""
        match = _WRAPPER_EXEC.search(head) if head.startswith("#!") else None
        if not match or match["target"] == resolved:
            break
        resolved = cuda_paths.resolve(ctx, match["target"])
        via = "wrapper"
    info: dict[str, Any] = {
        "path": path,
        "resolved": resolved,
        "via": via,
        "version": None,
        "release": None,
        "toolkit": None,
        "error": None,
    }
    if not _live(ctx):
        info["error"] = NOT_RUN
        return info
    result = ctx.run([str(ctx.path(resolved)), "--version"], timeout_s=NVCC_TIMEOUT_S)
    parsed = parse_nvcc(result.stdout) if result.ok else None
    if parsed:
        info.update(version=parsed["version"], release=parsed["release"])
    else:
        info["error"] = result.describe_failure() if not result.ok else "printed no version line"
    return info


def _live(ctx: ProbeContext) -> bool:
    """Binaries are run only on this machine's own root, never from another root (an image)."""
    return str(ctx.root) == "/"


def _fill_version_from_nvcc(ctx: ProbeContext, toolkit: dict[str, Any]) -> None:
    if toolkit["nvcc"] is None or toolkit["nvcc_version"] is not None or not _live(ctx):
        return
    if toolkit["version"] is not None and toolkit["version_source"] != "conda-meta":
        return
    result = ctx.run([str(ctx.path(toolkit["nvcc"])), "--version"], timeout_s=NVCC_TIMEOUT_S)
    parsed = parse_nvcc(result.stdout) if result.ok else None
    if parsed:
        toolkit["nvcc_version"] = parsed["version"]
        if toolkit["version"] is None:
            toolkit.update(
                version=parsed["version"], release=parsed["release"], version_source="nvcc"
            )


def _default_link(ctx: ProbeContext) -> dict[str, Any]:
    chain = cuda_paths.link_chain(ctx, DEFAULT_LINK)
    return {
        "path": DEFAULT_LINK,
        "is_symlink": len(chain) > 1,
        "chain": chain,
        "dangling": not cuda_paths.exists(ctx, DEFAULT_LINK),
    }


def _summary(
    toolkits: list[dict[str, Any]], default: str | None, nvcc: dict[str, Any] | None
) -> str:
    parts = []
    for tk in toolkits:
        tags = []
        if tk["real_path"] == default:
            tags.append("/usr/local/cuda")
        if nvcc and nvcc.get("toolkit") == tk["real_path"]:
            tags.append("nvcc on PATH")
        label = f"CUDA {tk['version'] or '?'} at {tk['real_path']}"
        parts.append(label + (f" ({', '.join(tags)})" if tags else ""))
    return "; ".join(parts)
