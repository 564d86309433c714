"""Known applications on this machine, found cheaply (no app is started).

Fills `apps.detected`:
- `requested`: the canonical names asked for with `--app NAME` (the checks answer for them even
  when nothing is installed: "can this machine run vLLM?"); `unknown_requested`: names envdoctor
  has no knowledge of.
- `apps`: one entry per application found: `name` (canonical: comfyui, webui, textgen, vllm,
  torchserve, llamacpp, ollama, halcon; None for an `--app-dir` envdoctor does not recognise,
  with `error`), `version` and `version_source`, `where` (folder, package location or binary),
  `how` ("app-dir", "current directory", "python-package", "binary", "HALCONROOT", ...),
  `launch_args` / `launch_file` / `launch_line` (webui-user.sh's COMMANDLINE_ARGS,
  text-generation-webui's CMD_FLAGS.txt), and `venv`: the app's own interpreter described like
  any target environment (the core python_env and torch_build probes run with that interpreter):
  {python, status collected / failed / not-run, reason, python_facts, packages (the torch family
  and GPU extensions only), installers, package_count, torch (python.torch's facts or None),
  torch_status, torch_reason}. Apps installed as packages of the target environment
  (vllm, torchserve, llama-cpp-python) have no `venv`: they use the `python.*` groups.
- `cpu_flags`: the x86 vector flags of /proc/cpuinfo that apps' CPU modes name (avx2, avx512f...).

Absent when nothing was asked for and nothing was found.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any

from envdoctor.model.apps import canonical
from envdoctor.model.snapshot import FactGroup, absent, collected
from envdoctor.probes import (
    apps_halcon,
    apps_layout,
    apps_llamacpp,
    apps_ollama,
    python_env,
    torch_build,
)
from envdoctor.probes.context import ProbeContext

GROUPS = ("apps.detected",)
TIMEOUT_S = 30.0  # every app venv is described by its own interpreter (two short subprocesses)
SOURCE = "probe:apps_detect"

# distribution name in the target environment -> app
PACKAGE_APPS = {"vllm": "vllm", "torchserve": "torchserve", "llama-cpp-python": "llamacpp"}
VENV_APPS = ("comfyui", "webui", "textgen")
# what is kept of an app venv's package list
RELEVANT_PACKAGES = (
    "torch",
    "torchvision",
    "torchaudio",
    "xformers",
    "triton",
    "bitsandbytes",
    "accelerate",
    "onnxruntime",
    "onnxruntime-gpu",
    "torch-directml",
    "comfyui-frontend-package",
)
CPU_FLAGS = ("avx", "avx2", "avx512f", "avx512_bf16", "avx512_vnni", "amx_bf16", "amx_tile")


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Find the applications asked for, pointed at, installed as packages, or on PATH."""
    requested, unknown = [], []
    for name in ctx.options.apps:
        app = canonical(name)
        if app is None:
            unknown.append(name)
        elif app not in requested:
            requested.append(app)
    apps: list[dict[str, Any]] = []
    notes: list[str] = []
    apps += _package_apps(ctx, notes)
    apps += _folder_apps(ctx)
    apps += _binary_apps(ctx, {a["name"] for a in apps})
    if not requested and not unknown and not apps:
        why = "; ".join(
            notes
            + [
                "no ollama or llama.cpp binary on PATH, no HALCONROOT",
                "no --app-dir given and the current directory is no app checkout",
            ]
        )
        return [absent("apps.detected", SOURCE, f"no known application found: {why}")]
    data = {
        "requested": requested,
        "unknown_requested": unknown,
        "apps": apps,
        "cpu_flags": _cpu_flags(ctx),
        "notes": notes,
    }
    shown = [
        f"{a['name'] or '?'}{' ' + a['version'] if a.get('version') else ''} ({a['how']})"
        for a in apps
    ]
    summary = ", ".join(shown) or "no application found"
    if requested:
        summary += "; asked about " + ", ".join(requested)
    return [collected("apps.detected", SOURCE, data, summary=summary)]


def _target_packages(ctx: ProbeContext) -> tuple[dict[str, Any] | None, str | None]:
    """python.packages of the target environment (the core probe's own logic), or (None, why)."""
    for group in python_env.collect(ctx):
        if group.name == "python.packages":
            return (group.data, None) if group.collected else (None, group.reason)
    return None, "python_env returned no package list"


def _package_apps(ctx: ProbeContext, notes: list[str]) -> list[dict[str, Any]]:
    packages, why = _target_packages(ctx)
    if packages is None:
        notes.append(f"target environment not read ({why})")
        return []
    installed = packages.get("packages") or {}
    locations = packages.get("locations") or {}
    out = []
    for dist, app in PACKAGE_APPS.items():
        if dist not in installed:
            continue
        entry: dict[str, Any] = {
            "name": app,
            "version": installed[dist],
            "version_source": f"{dist} metadata",
            "where": locations.get(dist),
            "how": "python-package",
            "package": dist,
            "venv": None,
            "launch_args": None,
        }
        if dist == "llama-cpp-python" and locations.get(dist):
            entry["backend_libs"] = [
                n
                for n in ctx.listdir(apps_layout.join(locations[dist], "llama_cpp", "lib"))
                if n.startswith(("libggml", "ggml", "libllama", "llama"))
            ]
        out.append(entry)
    if not out:
        notes.append(
            f"no {', '.join(PACKAGE_APPS)} package in {ctx.options.python or 'this interpreter'}"
        )
    return out


def _folders(ctx: ProbeContext) -> list[tuple[str, str]]:
    """(folder, how found): every --app-dir, then the current directory when it is a checkout."""
    pwd = ctx.env.get("PWD") or (os.getcwd() if ctx.root == Path("/") else "/")
    out = []
    for folder in ctx.options.app_dirs:
        path = folder if folder.startswith("/") else os.path.normpath(os.path.join(pwd, folder))
        out.append((path.rstrip("/") or "/", "app-dir"))
    if (
        ctx.root == Path("/")
        and pwd
        and pwd not in [f for f, _ in out]
        and apps_layout.identify(ctx, pwd)
    ):
        out.append((pwd, "current directory"))
    return out


def _folder_apps(ctx: ProbeContext) -> list[dict[str, Any]]:
    out = []
    for folder, how in _folders(ctx):
        if not ctx.is_dir(folder):
            out.append(
                {"name": None, "where": folder, "how": how, "error": f"{folder} is not a directory"}
            )
            continue
        app = apps_layout.identify(ctx, folder)
        if app is None:
            out.append(
                {
                    "name": None,
                    "where": folder,
                    "how": how,
                    "error": "not a checkout envdoctor recognises (ComfyUI, stable-diffusion-webui, "
                    "text-generation-webui, llama.cpp, a TorchServe config.properties)",
                }
            )
            continue
        version, version_source = apps_layout.version(ctx, app, folder)
        entry: dict[str, Any] = {
            "name": app,
            "version": version,
            "version_source": version_source,
            "where": folder,
            "how": how,
            "venv": None,
            "launch_args": None,
        }
        if app in VENV_APPS:
            settings = apps_layout.launch_settings(ctx, app, folder)
            entry.update({k: settings[k] for k in ("launch_args", "launch_file", "launch_line")})
            python = apps_layout.venv_python(ctx, app, folder, settings.get("venv_dir"))
            entry["venv"] = (
                inspect_venv(ctx, python)
                if python
                else {
                    "python": None,
                    "status": "absent",
                    "reason": "no venv/, .venv/ or installer env in the checkout (the launcher creates it on first start)",
                }
            )
        out.append(entry)
    return out


def inspect_venv(ctx: ProbeContext, python: str) -> dict[str, Any]:
    """Describe an app's own interpreter with the core probes' logic (`ProbeOptions(python=...)`)."""
    venv: dict[str, Any] = {
        "python": python,
        "status": "not-run",
        "reason": None,
        "python_facts": None,
        "packages": {},
        "installers": {},
        "package_count": None,
        "torch": None,
        "torch_status": None,
        "torch_reason": None,
    }
    if ctx.root != Path("/"):
        venv["reason"] = "not run: the interpreter belongs to the tree inspected with --root"
        return venv
    if python.lower().endswith(".exe") and os.name != "nt":
        venv["reason"] = "not run: a Windows interpreter"
        return venv
    child = ProbeContext(
        root=ctx.root, env=ctx.env, options=replace(ctx.options, python=python, deep=False)
    )
    groups = {g.name: g for g in python_env.collect(child)}
    py, pkgs = groups.get("python"), groups.get("python.packages")
    if py is None or not py.collected:
        venv.update(status="failed", reason=(py.reason if py else "no facts"))
        return venv
    packages = (pkgs.data if pkgs is not None and pkgs.collected else {}) or {}
    installed = packages.get("packages") or {}
    installers = packages.get("installers") or {}
    venv.update(
        status="collected",
        python_facts=py.data,
        packages={k: installed[k] for k in RELEVANT_PACKAGES if k in installed},
        installers={k: installers[k] for k in RELEVANT_PACKAGES if k in installers},
        package_count=len(installed),
    )
    for group in torch_build.collect(child):
        venv.update(
            torch=group.data if group.collected else None,
            torch_status=group.status.value,
            torch_reason=group.reason,
        )
    return venv


def _binary_apps(ctx: ProbeContext, already: set[str]) -> list[dict[str, Any]]:
    out = []
    ollama = apps_ollama.binary(ctx)
    if ollama and "ollama" not in already:
        out.append(
            {
                "name": "ollama",
                "version": None,
                "where": ollama,
                "how": "binary",
                "venv": None,
                "launch_args": None,
                "details": "apps.ollama",
            }
        )
    if "llamacpp" not in already:
        for path in apps_llamacpp.binaries_on_path(ctx)[:1]:
            out.append(
                {
                    "name": "llamacpp",
                    "version": None,
                    "where": path,
                    "how": "binary",
                    "venv": None,
                    "launch_args": None,
                    "details": "apps.llamacpp",
                }
            )
    root, how = apps_halcon.root(ctx)
    if root:
        out.append(
            {
                "name": "halcon",
                "version": apps_halcon.version_from_path(root),
                "where": root,
                "how": how,
                "venv": None,
                "launch_args": None,
                "details": "apps.halcon",
            }
        )
    return out


def _cpu_flags(ctx: ProbeContext) -> list[str] | None:
    text = ctx.read_text("/proc/cpuinfo", max_bytes=1024 * 1024)
    if not text:
        return None
    for line in text.splitlines():
        if line.startswith(("flags", "Features")):
            present = set(line.split(":", 1)[-1].split())
            return [f for f in CPU_FLAGS if f in present]
    return []
