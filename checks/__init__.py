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
    "nvidia_driver_arch",
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


INDEX_FILE = "index.json"  # beside this file; `python -m envdoctor.checks` rewrites it


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


# -- the index: which module holds which checks, without importing them ------------------------
# A narrow caller (preflight) reads `index.json` to import only the modules it needs: those that
# emit a finding id, or whose checks can run on the groups collected. tests/test_check_index.py
# keeps the file equal to the registry; a missing or unreadable index means "import them all".


def build_index() -> dict[str, list[dict[str, list[str]]]]:
    """{module: [{ids, needs, needs_any} per check]} from the imported registry."""
    return {
        name: [
            {"ids": list(c.ids), "needs": list(c.needs), "needs_any": list(c.needs_any)}
            for c in importlib.import_module(f"envdoctor.checks.{name}").CHECKS
        ]
        for name in CHECK_MODULES
    }


def read_index() -> dict[str, list[dict[str, list[str]]]] | None:
    """The index shipped beside the modules, or None when it is missing, unreadable or stale
    (a module of the registry not in it)."""
    import json
    import os

    try:
        with open(os.path.join(os.path.dirname(__file__), INDEX_FILE), encoding="utf-8") as handle:
            index = json.load(handle)
    except (OSError, ValueError):
        return None
    if not isinstance(index, dict) or any(
        not isinstance(index.get(m), list) for m in CHECK_MODULES
    ):
        return None
    return index


def modules_emitting(ids: set[str], modules: tuple[str, ...]) -> tuple[str, ...]:
    """Those of `modules` with a check that may emit one of `ids` (all of them without an index)."""
    index = read_index()
    if index is None:
        return modules
    return tuple(m for m in modules if any(set(c["ids"]) & ids for c in index[m]))


def load_checks_for(collected: set[str], modules: tuple[str, ...] | None = None) -> list[Check]:
    """The checks of `modules` (default: all), in registry order, for a snapshot whose collected
    groups are `collected`: a module with a check that can run is imported; one none of whose
    checks can is not, and its checks stand in from the index (ids and needs, which is all the
    engine reads of a check it skips). Without an index every module is imported."""
    modules = modules or CHECK_MODULES
    index = read_index()
    if index is None:
        return load_checks(modules)
    runnable = set(modules_runnable(collected, modules, index=index))
    checks: list[Check] = []
    for name in modules:
        if name in runnable:
            checks.extend(load_checks((name,)))
        else:
            checks.extend(
                Check(
                    tuple(c["ids"]), tuple(c["needs"]), _not_imported(name), tuple(c["needs_any"])
                )
                for c in index[name]
            )
    return checks


def _not_imported(module: str):  # noqa: ANN202 - returns a CheckFunction
    def skipped(_snap, _matrices):  # noqa: ANN001, ANN202
        """A check whose module was not imported: the engine skips it before calling this."""
        raise RuntimeError(
            f"envdoctor.checks.{module} was not imported: its needs are not collected"
        )

    skipped.stand_in_for = module  # type: ignore[attr-defined]  # the verifier loads the real one
    return skipped


def modules_runnable(
    collected: set[str],
    modules: tuple[str, ...],
    touching: set[str] | None = None,
    index: dict[str, list[dict[str, list[str]]]] | None = None,
) -> tuple[str, ...]:
    """Those of `modules` with a check whose needs are all in `collected` (and one of whose
    `needs_any`, if it has them) and, with `touching`, that reads one of those groups; all of
    them without an index (`index`: one already read)."""
    index = index if index is not None else read_index()
    if index is None:
        return modules

    def runs(c: dict[str, list[str]]) -> bool:
        reads = set(c["needs"]) | set(c["needs_any"])
        return (
            set(c["needs"]) <= collected
            and (not c["needs_any"] or bool(set(c["needs_any"]) & collected))
            and (touching is None or bool(reads & touching))
        )

    return tuple(m for m in modules if any(runs(c) for c in index[m]))


def write_index() -> str:
    """Rewrite index.json from the registry; returns its path."""
    import json
    import os

    from envdoctor.atomic import write_text_atomically

    path = os.path.join(os.path.dirname(__file__), INDEX_FILE)
    write_text_atomically(
        path, json.dumps(build_index(), indent=1, sort_keys=True) + "\n", mode=0o644
    )
    return path
