"""The environment variables that decide which CUDA code runs, and what each one shadows.

Builds the `cuda.env` group for the cuda_libraries probe (which owns the library scan it needs):
- `LD_LIBRARY_PATH` / `LD_PRELOAD`: {set, value, entries: [{index, path, exists, cwd (an empty
  entry: the loader reads it as the current directory), libraries (CUDA sonames found there),
  shadows: [{soname, path, origin, version, package, via}] (copies of the same soname that this
  entry hides: later entries, the pip wheels frameworks would load, the ldconfig cache)}]}.
- `PATH`: {set, value, entries: [{index, path, nvcc}]} and `nvcc_shadowed`: the nvcc binaries
  hidden behind the first one.
- `CUDA_VISIBLE_DEVICES` (with `tokens`), `CUDA_DEVICE_ORDER`, `CUDA_MODULE_LOADING`,
  `CUDA_HOME`, `CUDA_PATH`: {set, value} exactly as set; the last two with `exists` and
  `shadows` ([{what: "/usr/local/cuda" | "nvcc on PATH", path}]: the toolkits that build tools
  reading CUDA_HOME first, such as torch.utils.cpp_extension, no longer use; a PATH nvcc wrapper
  script is not followed here, cuda.toolkits does that).
- `profile_lines`: [{file, line (1-based), text, variables}] — shell start-up files that set
  these variables, so a fix can name the line to delete.
"""

from __future__ import annotations

import posixpath
import re
from typing import Any

from envdoctor.model.snapshot import FactGroup, collected
from envdoctor.probes import cuda_paths
from envdoctor.probes.context import ProbeContext

SOURCE = "probe:cuda_libraries"
PLAIN_VARIABLES = ("CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "CUDA_MODULE_LOADING")
HOME_VARIABLES = ("CUDA_HOME", "CUDA_PATH")
PROFILE_FILES = (
    "~/.bashrc",
    "~/.bash_profile",
    "~/.bash_login",
    "~/.profile",
    "~/.zshrc",
    "~/.zshenv",
    "~/.zprofile",
    "/etc/profile",
    "/etc/bash.bashrc",
    "/etc/environment",
    "/etc/profile.d/*.sh",
    "/etc/zsh/zshenv",
    "/etc/zsh/zshrc",
)
WATCHED = (
    "LD_LIBRARY_PATH",
    "LD_PRELOAD",
    "CUDA_HOME",
    "CUDA_PATH",
    "CUDA_VISIBLE_DEVICES",
    "CUDA_MODULE_LOADING",
    "CUDA_DEVICE_ORDER",
    "PATH",
)
_ASSIGNMENT = re.compile(r"(?:^|[\s;])(?:export\s+|declare\s+-x\s+)?(?P<var>[A-Z_]+)\s*\+?=")
_PROFILE_MAX_BYTES = 256 * 1024


def plain_entry(var: str, value: str | None) -> dict[str, Any]:
    """cuda.env's record of one of PLAIN_VARIABLES (value None: unset); CUDA_VISIBLE_DEVICES also
    gets its comma-separated `tokens`. The verifier writes a fix's settings through it too."""
    entry: dict[str, Any] = {"set": value is not None, "value": value}
    if var == "CUDA_VISIBLE_DEVICES":
        text = value or ""
        entry["tokens"] = [t.strip() for t in text.split(",")] if text.strip() else []
    return entry


def describe(
    ctx: ProbeContext, copies: list[dict[str, Any]], preload: list[str], ld_path: list[str]
) -> FactGroup:
    """The cuda.env group, from the process environment, the library copies and shell profiles."""
    data: dict[str, Any] = {
        "LD_LIBRARY_PATH": _search_variable(ctx, "LD_LIBRARY_PATH", ld_path, copies),
        "LD_PRELOAD": _search_variable(ctx, "LD_PRELOAD", preload, copies),
    }
    data.update(_path_variable(ctx))
    nvccs = [e["nvcc"] for e in data["PATH"]["entries"] if e["nvcc"]]
    for var in PLAIN_VARIABLES:
        data[var] = plain_entry(var, ctx.env.get(var))
    for var in HOME_VARIABLES:
        value = ctx.env.get(var)
        data[var] = {
            "set": var in ctx.env,
            "value": value,
            "exists": bool(value and cuda_paths.is_dir(ctx, value)),
            "shadows": _home_shadows(ctx, value, nvccs[0] if nvccs else None) if value else [],
        }
    data["profile_lines"] = _profile_lines(ctx)
    set_vars = [
        v
        for v in ("LD_LIBRARY_PATH", "LD_PRELOAD", *PLAIN_VARIABLES, *HOME_VARIABLES)
        if data[v]["set"]
    ]
    summary = ("set: " + ", ".join(set_vars)) if set_vars else "no CUDA-related variables set"
    return collected("cuda.env", SOURCE, data, summary=summary)


def _search_variable(
    ctx: ProbeContext, var: str, entries: list[str], copies: list[dict[str, Any]]
) -> dict[str, Any]:
    out = []
    for index, path in enumerate(entries):
        route = "LD_PRELOAD" if var == "LD_PRELOAD" else f"LD_LIBRARY_PATH[{index}]"
        here = [
            c for c in copies if route in c["routes"] and (var != "LD_PRELOAD" or c["path"] == path)
        ]
        shadows = []
        for copy in here:
            if copy["via"] != route:
                continue  # an earlier entry already provides this file
            for other in copies:
                if other["soname"] != copy["soname"] or other["real_path"] == copy["real_path"]:
                    continue
                if other["via"] == "not-searched" or _earlier(other["via"], route):
                    continue
                shadows.append(
                    {
                        "soname": other["soname"],
                        "path": other["path"],
                        "origin": other["origin"],
                        "version": other["version"],
                        "package": other["package"],
                        "via": other["via"],
                    }
                )
        out.append(
            {
                "index": index,
                "path": path,
                "exists": bool(path) and cuda_paths.exists(ctx, path),
                "cwd": path == "",
                "libraries": sorted({c["soname"] for c in here}),
                "shadows": shadows,
            }
        )
    return {"set": var in ctx.env, "value": ctx.env.get(var), "entries": out}


def _earlier(via: str, route: str) -> bool:
    """Whether search step `via` comes before `route` (both LD_PRELOAD / LD_LIBRARY_PATH[i])."""
    order = {"LD_PRELOAD": (0, 0)}

    def key(step: str) -> tuple[int, int]:
        if step in order:
            return order[step]
        if step.startswith("LD_LIBRARY_PATH["):
            return (1, int(step[len("LD_LIBRARY_PATH[") : -1]))
        return (9, 0)

    return key(via) < key(route)


def _home_shadows(ctx: ProbeContext, value: str, nvcc: str | None) -> list[dict[str, str]]:
    """The toolkits a CUDA_HOME / CUDA_PATH value overrides for build tools that read it first."""
    mine = cuda_paths.resolve(ctx, value)
    shadows = []
    if cuda_paths.exists(ctx, "/usr/local/cuda"):
        default = cuda_paths.resolve(ctx, "/usr/local/cuda")
        if default != mine:
            shadows.append({"what": "/usr/local/cuda", "path": default})
    if nvcc:
        root = posixpath.dirname(posixpath.dirname(cuda_paths.resolve(ctx, nvcc)))
        if root != mine:
            shadows.append({"what": "nvcc on PATH", "path": root})
    return shadows


def _path_variable(ctx: ProbeContext) -> dict[str, Any]:
    entries = []
    nvccs = []
    for index, path in enumerate(cuda_paths.split_path_list(ctx.env.get("PATH"))):
        nvcc = posixpath.join(path, "nvcc") if path.startswith("/") else None
        has = nvcc is not None and cuda_paths.is_executable_file(ctx, nvcc)
        entries.append({"index": index, "path": path, "nvcc": nvcc if has else None})
        if has:
            nvccs.append(nvcc)
    return {
        "PATH": {
            "set": "PATH" in ctx.env,
            "value": ctx.env.get("PATH"),
            "entries": entries,
            "nvcc_shadowed": nvccs[1:],
        }
    }


def _profile_lines(ctx: ProbeContext) -> list[dict[str, Any]]:
    home = ctx.env.get("HOME")
    files: list[str] = []
    for pattern in PROFILE_FILES:
        if pattern.startswith("~/"):
            if not home:
                continue
            pattern = posixpath.join(home, pattern[2:])
        files.extend(
            p for p in (ctx.glob(pattern) if "*" in pattern else [pattern]) if p not in files
        )
    lines = []
    for path in files:
        text = cuda_paths.read_text(ctx, path, max_bytes=_PROFILE_MAX_BYTES)
        if not text:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            stripped = line.strip()
            if not stripped or stripped.startswith("#"):
                continue
            variables = [m["var"] for m in _ASSIGNMENT.finditer(stripped) if m["var"] in WATCHED]
            if "PATH" in variables and not re.search(r"cuda|nvcc", stripped, re.IGNORECASE):
                variables.remove("PATH")
            if variables:
                lines.append(
                    {"file": path, "line": number, "text": stripped, "variables": variables}
                )
    return lines
