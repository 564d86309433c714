"""The NVIDIA Container Toolkit: its binaries, its config, and the Docker daemon configs.

Fills `container.toolkit` with:
- binaries: {name: {"path", "version"}} for each of nvidia-ctk, nvidia-container-cli,
  nvidia-container-runtime, nvidia-container-runtime-hook and nvidia-cdi-hook found on PATH
  (each asked for `--version` under a timeout; "error" says why when no version came back);
  installed (any found); missing (names not found).
- config (from /etc/nvidia-container-runtime/config.toml, or NVIDIA_CTK_CONFIG_FILE_PATH): the
  keys that matter, as present in the file: no_cgroups, ldconfig, root, load_kmods (section
  [nvidia-container-cli]), mode, runtimes (section [nvidia-container-runtime]), disable_require;
  config_path; config_error when unreadable.
- daemon_configs: one entry per Docker daemon.json found (/etc/docker/daemon.json and the
  rootless ~/.config/docker/daemon.json): path, runtimes {name: path}, default_runtime,
  cdi_feature (features.cdi, None when unset), cgroup_driver (from exec-opts
  native.cgroupdriver), cdi_spec_dirs, error.
- cli_info: the parsed `nvidia-container-cli info` (driver and GPUs as the container stack sees
  them), or cli_info_error: its `nvidia-container-cli: ... error: ...` line.
- dev_char_nvidia_links: how many /dev/char entries point at NVIDIA device nodes (None when
  /dev/char is missing); oci_hook_file: a leftover OCI hook for Podman; cdi_refresh_unit: the
  nvidia-cdi-refresh systemd units (toolkit >= 1.18) are installed.

Absent when no binary, no config.toml and no daemon.json entry for an NVIDIA runtime exist.
"""

from __future__ import annotations

import json
import re
from pathlib import PurePosixPath
from typing import Any

from envdoctor.ingest import nvidia_container_cli
from envdoctor.model.json_values import as_dict
from envdoctor.probes.context import ProbeContext

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

from envdoctor.model.snapshot import FactGroup, absent, collected

GROUPS = ("container.toolkit",)
TIMEOUT_S = 10.0
VERSION_TIMEOUT_S = 3.0
INFO_TIMEOUT_S = 5.0
SOURCE = "probe:container_toolkit"

BINARIES = (
    "nvidia-ctk",
    "nvidia-container-cli",
    "nvidia-container-runtime",
    "nvidia-container-runtime-hook",
    "nvidia-cdi-hook",
)
CONFIG_PATH = "/etc/nvidia-container-runtime/config.toml"
SYSTEM_DAEMON_JSON = "/etc/docker/daemon.json"
OCI_HOOK_FILE = "/usr/share/containers/oci/hooks.d/oci-nvidia-hook.json"
CDI_REFRESH_UNITS = (
    "/usr/lib/systemd/system/nvidia-cdi-refresh.path",
    "/lib/systemd/system/nvidia-cdi-refresh.path",
    "/etc/systemd/system/nvidia-cdi-refresh.path",
)
_VERSION = re.compile(r"version[:\s]+v?(\d+(?:\.\d+)+(?:[-~+][0-9A-Za-z.~+-]+)?)", re.I)


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Describe the NVIDIA Container Toolkit and Docker's runtime configuration."""
    binaries = {name: _binary(ctx, name) for name in BINARIES}
    found = {name: info for name, info in binaries.items() if info is not None}
    config_path = ctx.env.get("NVIDIA_CTK_CONFIG_FILE_PATH") or CONFIG_PATH
    config, config_error = read_config(ctx, config_path)
    daemon_configs = [
        cfg
        for cfg in (read_daemon_json(ctx, path) for path in daemon_json_paths(ctx))
        if cfg is not None
    ]
    nvidia_in_daemon = any("nvidia" in (cfg.get("runtimes") or {}) for cfg in daemon_configs)
    if not found and config is None and config_error is None and not nvidia_in_daemon:
        return [
            absent(
                GROUPS[0],
                SOURCE,
                "NVIDIA Container Toolkit not installed: none of "
                + ", ".join(BINARIES)
                + f" on PATH, no {CONFIG_PATH}",
            )
        ]
    data: dict[str, Any] = {
        "installed": bool(found),
        "binaries": found,
        "missing": [name for name in BINARIES if name not in found],
        "config_path": config_path if (config is not None or config_error) else None,
        "config": config,
        "daemon_configs": daemon_configs,
        "dev_char_nvidia_links": _dev_char_links(ctx),
        "oci_hook_file": ctx.exists(OCI_HOOK_FILE),
        "cdi_refresh_unit": any(ctx.exists(p) for p in CDI_REFRESH_UNITS),
    }
    if config_error:
        data["config_error"] = config_error
    cli = found.get("nvidia-container-cli")
    if cli is not None:
        data.update(_cli_info(ctx, cli["path"]))
    return [collected(GROUPS[0], SOURCE, data, summary=_summary(data))]


def _binary(ctx: ProbeContext, name: str) -> dict[str, Any] | None:
    path = ctx.which(name)
    if path is None:
        return None
    flag = "-version" if name == "nvidia-container-runtime-hook" else "--version"
    result = ctx.run([path, flag], timeout_s=VERSION_TIMEOUT_S)
    found = {"path": path, "version": parse_version(result.stdout + "\n" + result.stderr)}
    if found["version"] is None:  # say why it is unknown
        found["error"] = (
            result.describe_failure() if not result.ok else f"{flag} printed no version"
        )
    return found


def parse_version(text: str) -> str | None:
    """The version in a toolkit binary's `--version` output ("NVIDIA Container Toolkit CLI
    version 1.17.6", "cli-version: 1.17.6", "NVIDIA CDI Hook version 1.18.0")."""
    match = _VERSION.search(text or "")
    return match.group(1) if match else None


def read_config(ctx: ProbeContext, path: str) -> tuple[dict[str, Any] | None, str | None]:
    """The keys of config.toml that matter, or (None, reason) when it is unreadable."""
    text = ctx.read_text(path)
    if text is None:
        return None, None
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return None, f"{path} is not valid TOML: {exc}"
    cli = as_dict(doc.get("nvidia-container-cli"))
    runtime = as_dict(doc.get("nvidia-container-runtime"))
    picked = {
        "no_cgroups": cli.get("no-cgroups"),
        "ldconfig": cli.get("ldconfig"),
        "root": cli.get("root"),
        "load_kmods": cli.get("load-kmods"),
        "mode": runtime.get("mode"),
        "runtimes": runtime.get("runtimes"),
        "disable_require": doc.get("disable-require"),
    }
    return {k: v for k, v in picked.items() if v is not None}, None


def daemon_json_paths(ctx: ProbeContext) -> list[str]:
    """The system daemon.json and the rootless one of this user."""
    paths = [SYSTEM_DAEMON_JSON]
    config_home = ctx.env.get("XDG_CONFIG_HOME") or (
        f"{ctx.env['HOME'].rstrip('/')}/.config" if ctx.env.get("HOME") else None
    )
    if config_home:
        paths.append(f"{config_home}/docker/daemon.json")
    return paths


def read_daemon_json(ctx: ProbeContext, path: str) -> dict[str, Any] | None:
    """The GPU-relevant settings of one daemon.json, or None when it does not exist."""
    text = ctx.read_text(path)
    if text is None:
        return None
    entry: dict[str, Any] = {"path": path}
    try:
        doc = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as exc:
        entry["error"] = f"{path} is not valid JSON: {exc.msg} at line {exc.lineno}"
        return entry
    if not isinstance(doc, dict):
        entry["error"] = f"{path} is not a JSON object"
        return entry
    runtimes = as_dict(doc.get("runtimes"))
    entry["runtimes"] = {
        str(name): str(spec.get("path")) if isinstance(spec, dict) else None
        for name, spec in runtimes.items()
    }
    entry["default_runtime"] = doc.get("default-runtime")
    features = as_dict(doc.get("features"))
    entry["cdi_feature"] = features.get("cdi")
    for opt in doc.get("exec-opts") or []:
        if isinstance(opt, str) and opt.startswith("native.cgroupdriver="):
            entry["cgroup_driver"] = opt.split("=", 1)[1]
    if isinstance(doc.get("cdi-spec-dirs"), list):
        entry["cdi_spec_dirs"] = [str(d) for d in doc["cdi-spec-dirs"]]
    return entry


def _cli_info(ctx: ProbeContext, cli: str) -> dict[str, Any]:
    result = ctx.run([cli, "info"], timeout_s=INFO_TIMEOUT_S)
    text = result.stdout + "\n" + result.stderr
    info = nvidia_container_cli.parse_info(result.stdout)
    if result.ok and info is not None:
        return {"cli_info": info}
    reason = nvidia_container_cli.error_line(text) or result.describe_failure()
    return {"cli_info_error": reason}


def _dev_char_links(ctx: ProbeContext) -> int | None:
    if not ctx.is_dir("/dev/char"):
        return None
    count = 0
    for entry in ctx.listdir("/dev/char"):
        target = ctx.readlink(f"/dev/char/{entry}")
        if target and PurePosixPath(target).name.startswith("nvidia"):
            count += 1
    return count


def _summary(data: dict[str, Any]) -> str:
    if not data["installed"]:
        return "NVIDIA Container Toolkit binaries not on PATH (config files only)"
    versions = sorted({b["version"] for b in data["binaries"].values() if b.get("version")})
    parts = [f"NVIDIA Container Toolkit {', '.join(versions) or '(version unknown)'}"]
    if data.get("missing"):
        parts.append("missing " + ", ".join(data["missing"]))
    if data.get("cli_info_error"):
        parts.append(data["cli_info_error"][:120])
    return "; ".join(parts)
