"""Ollama: its binary and version, its systemd service's environment, its bundled GPU libraries,
and what its server log says about GPU discovery.

Fills `apps.ollama` (absent when there is no binary, no unit file and no log):
- `path`, `version` (`ollama --version`, 5 s; "ollama version is 0.5.7" or, with no server
  running, "Warning: client version is 0.12.3"), `version_error`.
- `service_files` (the unit, then its drop-ins `/etc/systemd/system/ollama.service.d/*.conf` in
  the order systemd applies them), `service_env` {NAME: value} after all of them (an empty
  `Environment=` clears what came before, as in systemd), `service_env_files` {NAME: file}.
- `library_dir` and `libraries`: the GPU runtimes bundled beside the binary (`lib/ollama/cuda_v12`,
  `cuda_v13`, `rocm`, `vulkan`...).
- From the server log (`journalctl -u ollama --no-pager -n 200`, 5 s, on the live machine; else
  `~/.ollama/logs/server.log`): `log_source`, `server_version` ("Listening on ... (version X)"),
  `server_env` (the GPU-related variables of its "server config" line), `discovered`: one entry
  per `msg="inference compute"` line of the latest start {id, library, variant, compute, driver,
  name, total, available}, `library` (cuda_v12 / cuda_v13 / rocm / vulkan / cpu: what that start
  uses), `cpu_only`, and `problems` [{kind, line}]: no-compatible-gpu, cpu-no-avx,
  no-nvidia-devices, amd-unsupported (with gfx), discovery-timeout, gpu-library-failed.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from envdoctor.model.snapshot import FactGroup, absent, collected
from envdoctor.probes.context import ProbeContext

GROUPS = ("apps.ollama",)
TIMEOUT_S = 12.0
SOURCE = "probe:apps_ollama"
UNITS = (
    "/etc/systemd/system/ollama.service",
    "/usr/lib/systemd/system/ollama.service",
    "/lib/systemd/system/ollama.service",
)
DROP_INS = "/etc/systemd/system/ollama.service.d/*.conf"
BINARIES = ("/usr/local/bin/ollama", "/usr/bin/ollama", "/bin/ollama")
LOG_LINES = 200
SERVER_ENV_KEYS = (
    "CUDA_VISIBLE_DEVICES",
    "GPU_DEVICE_ORDINAL",
    "HIP_VISIBLE_DEVICES",
    "ROCR_VISIBLE_DEVICES",
    "HSA_OVERRIDE_GFX_VERSION",
    "OLLAMA_LLM_LIBRARY",
    "OLLAMA_VULKAN",
    "OLLAMA_INTEL_GPU",
    "OLLAMA_NUM_GPU",
    "OLLAMA_SCHED_SPREAD",
)

_VERSION = re.compile(r"version is\s+v?(\d+\.\d+(?:\.\d+)?[\w.+-]*)")
_ENV_LINE = re.compile(r"^\s*Environment\s*=\s*(.*)$")
_ASSIGN = re.compile(r'"([A-Za-z_][A-Za-z0-9_]*)=([^"]*)"|([A-Za-z_][A-Za-z0-9_]*)=(\S*)')
_FIELD = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|\S+)')
_LISTENING = re.compile(r"Listening on .*\(version ([^)\s]+)\)")
_PROBLEMS = (
    ("no-compatible-gpu", re.compile(r"no compatible GPUs were discovered")),
    ("cpu-no-avx", re.compile(r"CPU does not have (?:minimum vector extensions|AVX or AVX2)")),
    ("no-nvidia-devices", re.compile(r"no nvidia devices detected")),
    ("amd-unsupported", re.compile(r"amdgpu is not supported")),
    ("discovery-timeout", re.compile(r"failed to finish discovery before timeout")),
    (
        "gpu-library-failed",
        re.compile(
            r"unable to load cuda driver library|Unable to load cudart|"
            r"unable to verify rocm library",
            re.IGNORECASE,
        ),
    ),
)


def binary(ctx: ProbeContext) -> str | None:
    """The ollama executable: on PATH, else in the install script's locations."""
    return ctx.which("ollama") or next((p for p in BINARIES if ctx.exists(p)), None)


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Describe the Ollama installation, its service and its last GPU discovery."""
    path = binary(ctx)
    files = [u for u in UNITS if ctx.exists(u)][:1] + ctx.glob(DROP_INS)
    if path is None and not files:  # its server log is read only when something of it is here
        return [
            absent(
                "apps.ollama",
                SOURCE,
                "Ollama is not installed: no ollama binary, no ollama.service",
            )
        ]
    env, env_files = service_environment(ctx, files)
    log_source, lines = _log(ctx)
    data: dict[str, Any] = {
        "path": path,
        "version": None,
        "version_error": None,
        "service_files": files,
        "service_env": env,
        "service_env_files": env_files,
    }
    if path is not None and (ctx.root == Path("/") or ctx.which("ollama") == path):
        result = ctx.run([path, "--version"], timeout_s=5.0)
        match = _VERSION.search(result.stdout + "\n" + result.stderr)
        data["version"] = match.group(1) if match else None
        data["version_error"] = (
            None
            if match
            else result.describe_failure()
            if not result.ok
            else f"no version in: {(result.stdout or result.stderr).strip()[:120]!r}"
        )
    data.update(_libraries(ctx, path))
    data.update(parse_log(lines))
    data["log_source"] = log_source
    summary = f"Ollama {data['version'] or data.get('server_version') or '(version unknown)'}"
    if data.get("library"):
        summary += f", last start used {data['library']}"
    if env:
        summary += f", service sets {', '.join(sorted(env))}"
    return [collected("apps.ollama", SOURCE, data, summary=summary)]


def service_environment(
    ctx: ProbeContext, files: list[str]
) -> tuple[dict[str, str], dict[str, str]]:
    """{NAME: value} set by `Environment=` lines of [Service] sections, in file order, and the
    file each final value came from."""
    env: dict[str, str] = {}
    origin: dict[str, str] = {}
    for file in files:
        section = None
        for raw in (ctx.read_text(file) or "").splitlines():
            line = raw.strip()
            if line.startswith("[") and line.endswith("]"):
                section = line[1:-1]
                continue
            match = _ENV_LINE.match(line)
            if section != "Service" or not match:
                continue
            if not match.group(1).strip():
                env.clear()
                origin.clear()
                continue
            for quoted_name, quoted_value, name, value in _ASSIGN.findall(match.group(1)):
                key = quoted_name or name
                env[key] = quoted_value if quoted_name else value
                origin[key] = file
    return env, origin


def _libraries(ctx: ProbeContext, path: str | None) -> dict[str, Any]:
    if path is None:
        return {"library_dir": None, "libraries": []}
    prefix = str(Path(path).parent.parent)
    for lib in (f"{prefix.rstrip('/')}/lib/ollama", "/usr/lib/ollama", "/usr/local/lib/ollama"):
        if ctx.is_dir(lib):
            subdirs = [n for n in ctx.listdir(lib) if ctx.is_dir(f"{lib}/{n}")]
            return {"library_dir": lib, "libraries": subdirs}
    return {"library_dir": None, "libraries": []}


def _log(ctx: ProbeContext) -> tuple[str | None, list[str]]:
    if ctx.root == Path("/") and ctx.which("journalctl"):
        result = ctx.run(
            ["journalctl", "-u", "ollama", "--no-pager", "-n", str(LOG_LINES)], timeout_s=5.0
        )
        lines = [ln for ln in result.stdout.splitlines() if "ollama" in ln.lower() or "msg=" in ln]
        if result.ok and any("msg=" in ln or "routes.go" in ln for ln in lines):
            return f"journalctl -u ollama --no-pager -n {LOG_LINES}", lines
    home = ctx.env.get("HOME")
    if home:
        path = f"{home.rstrip('/')}/.ollama/logs/server.log"
        text = ctx.read_text(path)
        if text:
            return path, text.splitlines()[-LOG_LINES:]
    return None, []


def _fields(line: str) -> dict[str, str]:
    return {
        k: v[1:-1] if v.startswith('"') and v.endswith('"') else v for k, v in _FIELD.findall(line)
    }


def _server_env(line: str) -> dict[str, str]:
    out = {}
    for key in SERVER_ENV_KEYS:
        match = re.search(rf"(?:^|[\s\[]){key}:([^\s\]]*)", line)
        if match:
            out[key] = match.group(1)
    return out


def _library_of(entry: dict[str, str]) -> str:
    library = (entry.get("library") or "").lower()
    libdirs = [d for d in (entry.get("libdirs") or "").split(",") if d and d != "ollama"]
    if libdirs:
        return libdirs[-1].lower()
    variant = entry.get("variant") or ""
    if library == "cuda" and variant.startswith("v"):
        return f"cuda_{variant}"
    return library or "unknown"


def parse_log(lines: list[str]) -> dict[str, Any]:
    """Discovery facts of the latest server start in Ollama log lines (journal or server.log)."""
    starts = [i for i, line in enumerate(lines) if "server config" in line] or [
        i for i, line in enumerate(lines) if _LISTENING.search(line)
    ]
    block = lines[starts[-1] :] if starts else lines
    out: dict[str, Any] = {
        "server_version": None,
        "server_env": {},
        "discovered": [],
        "library": None,
        "cpu_only": None,
        "problems": [],
        "log_lines_read": len(lines),
    }
    for line in block:
        listening = _LISTENING.search(line)
        if listening:
            out["server_version"] = listening.group(1)
        if "server config" in line:
            out["server_env"] = _server_env(line)
        if 'msg="inference compute"' in line:
            fields = _fields(line.split('msg="inference compute"', 1)[1])
            entry = {
                k: fields.get(k)
                for k in (
                    "id",
                    "library",
                    "variant",
                    "compute",
                    "driver",
                    "name",
                    "description",
                    "libdirs",
                    "total",
                    "available",
                )
            }
            entry["library_used"] = _library_of(fields)
            out["discovered"].append(entry)
        for kind, pattern in _PROBLEMS:
            if pattern.search(line):
                problem = {"kind": kind, "line": line.strip()[-400:]}
                gfx = re.search(r"gpu_type=(gfx[0-9a-f]+)", line)
                if gfx:
                    problem["gfx"] = gfx.group(1)
                out["problems"].append(problem)
    gpus = [d for d in out["discovered"] if d["library_used"] not in ("cpu", "unknown")]
    if out["discovered"]:
        out["cpu_only"] = not gpus
        out["library"] = gpus[-1]["library_used"] if gpus else "cpu"
    elif any(p["kind"] == "no-compatible-gpu" for p in out["problems"]):
        out["cpu_only"], out["library"] = True, "cpu"
    return out
