"""The checks envdoctor runs, listed explicitly (installed as `envdoctor.checks`).

Each module defines `CHECKS: list[Check]`. Add a module to `CHECK_MODULES` when you add one.
"""

from __future__ import annotations

import importlib

from envdoctor.checkdef import Check

CHECK_MODULES: tuple[str, ...] = (
    "python_versions",
    "torch_gpu",
    "torch_packages",
    "torch_deep",
    "frameworks",
    "cuda_toolkit",
    "cuda_libraries",
    "cuda_devices",
    "container_docker",
    "container_cdi",
    "container_inside",
    "container_image",
    "nvidia_presence",
    "nvidia_driver_load",
    "nvidia_devices",
    "nvidia_health",
    "nvidia_xid",
    "nvidia_pcie",
    "nvidia_fabric",
    "amd_gfx",
    "amd_access",
    "amd_visible",
    "amd_torch",
    "amd_ollama",
    "intel_xpu",
    "platform_wsl",
    "platform_graphics",
    "platform_windows",
    "platform_macos",
    "platform_jetson",
    "platform_android",
    "platform_vm",
    "platform_identify",
    "workload_fit",
    "workload_precision",
    "apps_gpu",
    "apps_vllm",
    "apps_torch",
    "apps_webui",
    "apps_ollama",
    "apps_llamacpp",
    "apps_halcon",
    "apps_torchserve",
    "apps_cad",
    "signatures",
)

# Modules whose checks judge pasted text only (they need `pasted.text`, which a live machine never
# has): a live diagnosis and preflight do not load them.
TEXT_ONLY_CHECK_MODULES: tuple[str, ...] = ("signatures",)


def load_checks(modules: tuple[str, ...] | None = None) -> list[Check]:
    """The checks of `modules` (default: all), in registry order."""
    checks: list[Check] = []
    for name in modules or CHECK_MODULES:
        module = importlib.import_module(f"envdoctor.checks.{name}")
        checks.extend(module.CHECKS)
    return checks


def find_check(finding_id: str) -> Check | None:
    """The check that emits `finding_id`, or None."""
    for chk in load_checks():
        if finding_id in chk.ids:
            return chk
    return None
