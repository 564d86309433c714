"""TorchServe's config.properties: how many GPUs it may use and how devices are assigned.

Fills `apps.torchserve` (absent when no config is found) with `configs`: one entry per
config.properties read — the file named by TS_CONFIG_FILE, `config.properties` in the current
directory and in every `--app-dir` — {path, how, number_of_gpu (int or None when not set: TorchServe
then uses all GPUs), properties (the GPU- and device-related keys: number_of_gpu, any *device*
key, default_workers_per_model, models), errors}; and `cuda_visible_devices` /
`cuda_device_order` from the environment TorchServe would be started from.
"""

from __future__ import annotations

import os

from envdoctor.model.snapshot import FactGroup, absent, collected
from envdoctor.probes.context import ProbeContext

GROUPS = ("apps.torchserve",)
TIMEOUT_S = 5.0
SOURCE = "probe:apps_torchserve"
_KEEP = ("number_of_gpu", "default_workers_per_model", "models", "inference_address", "model_store")


def _paths(ctx: ProbeContext) -> list[tuple[str, str]]:
    out = []
    if ctx.env.get("TS_CONFIG_FILE"):
        out.append((ctx.env["TS_CONFIG_FILE"], "TS_CONFIG_FILE"))
    pwd = ctx.env.get("PWD")
    if pwd:
        out.append((f"{pwd.rstrip('/')}/config.properties", "current directory"))
    for folder in ctx.options.app_dirs:
        path = folder if folder.startswith("/") else os.path.join(pwd or "/", folder)
        out.append((f"{path.rstrip('/')}/config.properties", "app-dir"))
    seen, unique = set(), []
    for path, how in out:
        if path not in seen:
            seen.add(path)
            unique.append((path, how))
    return unique


def parse_properties(text: str) -> dict[str, str]:
    """key=value (or key: value) lines of a Java properties file; # and ! start comments; a
    trailing backslash continues the value on the next line."""
    props: dict[str, str] = {}
    pending = ""
    for raw in text.splitlines():
        line = pending + raw.strip()
        pending = ""
        if not line or line.startswith(("#", "!")):
            continue
        if line.endswith("\\"):
            pending = line[:-1]
            continue
        for i, ch in enumerate(line):
            if ch in "=:":
                props[line[:i].strip()] = line[i + 1 :].strip()
                break
        else:
            props[line] = ""
    return props


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Read the TorchServe configs that apply here."""
    configs = []
    for path, how in _paths(ctx):
        text = ctx.read_text(path, max_bytes=512 * 1024)
        if text is None:
            continue
        props = parse_properties(text)
        errors = []
        number = props.get("number_of_gpu")
        try:
            number_of_gpu = int(number) if number not in (None, "") else None
        except ValueError:
            number_of_gpu = None
            errors.append(f"number_of_gpu={number!r} is not a whole number")
        keep = {k: v for k, v in props.items() if k in _KEEP or "device" in k.lower()}
        configs.append(
            {
                "path": path,
                "how": how,
                "number_of_gpu": number_of_gpu,
                "properties": keep,
                "errors": errors,
            }
        )
    if not configs:
        return [
            absent(
                "apps.torchserve",
                SOURCE,
                "no TorchServe config.properties (TS_CONFIG_FILE, the "
                "current directory, --app-dir)",
            )
        ]
    data = {
        "configs": configs,
        "cuda_visible_devices": ctx.env.get("CUDA_VISIBLE_DEVICES"),
        "cuda_device_order": ctx.env.get("CUDA_DEVICE_ORDER"),
    }
    shown = [
        f"{c['path']} (number_of_gpu={c['number_of_gpu'] if c['number_of_gpu'] is not None else 'all'})"
        for c in configs
    ]
    return [
        collected("apps.torchserve", SOURCE, data, summary="TorchServe config: " + "; ".join(shown))
    ]
