"""The target Python environment: interpreter, environment kind, installed distributions.

Fills `python` (executable, version, implementation, environment: system / venv / uv-venv /
conda, prefix, platform, machine) and `python.packages` (packages: {normalized name: version},
installers: {name: "pip" / "uv" / "conda"...}, locations: {name: site dir}). The interpreter
running envdoctor is described in-process; one named with `--python` is described by running
`ml_metadata_script.py` in it (which includes `interpreter_facts.describe()`, so the ML probes
share the run), in a subprocess under a deadline. On a root that is not this system's (`check
--image`, `--root`) the target is the image's interpreter, described from its files by
`root_python` (never the interpreter running envdoctor); `python.described_from` is "files".
"""

from __future__ import annotations

import json
from pathlib import Path

from envdoctor.context import ProbeContext
from envdoctor.probes import interpreter_facts
from envdoctor.snapshot import FactGroup, absent, collected, failed

GROUPS = ("python", "python.packages")
TIMEOUT_S = 15.0
TARGET_TIMEOUT_S = 12.0


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Describe the target interpreter and its packages."""
    target = ctx.options.python
    if target is None and str(ctx.root) != "/":  # an image or --root: its Python, from files
        from envdoctor.probes import root_python

        described = ctx.once("root_python.describe", lambda: root_python.describe(ctx))
        source = f"probe:python_env (files under {ctx.root})"
        if not isinstance(described, dict):
            reason = f"no Python interpreter with a site-packages folder under {ctx.root}"
            return [absent(g, source, reason) for g in GROUPS]
        facts = dict(described)
    elif target is None:  # described once per context: apps_detect reads the same package list
        facts = dict(ctx.once("interpreter_facts.describe", interpreter_facts.describe))  # type: ignore[call-overload]
        source = "probe:python_env"
    else:
        # the same run as ml_packages' (ctx.run runs it once): the ML scan plus "interpreter"
        from envdoctor.probes import ml_metadata_script

        result = ctx.run(
            [target, str(Path(ml_metadata_script.__file__))], timeout_s=TARGET_TIMEOUT_S
        )
        if not result.ok:
            reason = f"could not inspect {target}: {result.describe_failure()}"
            return [failed(g, "probe:python_env", reason) for g in GROUPS]
        try:
            facts = json.loads(result.stdout)["interpreter"]
        except (json.JSONDecodeError, KeyError, TypeError):
            return [
                failed(g, "probe:python_env", f"{target} printed no JSON: {result.stdout[:120]!r}")
                for g in GROUPS
            ]
        if not isinstance(facts, dict):
            return [
                failed(g, "probe:python_env", f"{target} described no interpreter") for g in GROUPS
            ]
        source = f"probe:python_env ({target})"
    packages = facts.pop("packages", {})
    installers = facts.pop("installers", {})
    locations = facts.pop("locations", {})
    where = facts.get("environment", "?")
    if where != "system":
        where = f"{where} {facts.get('prefix')}"
    summary = f"Python {facts.get('version')} ({where}), {len(packages)} packages"
    return [
        collected("python", source, facts, summary=summary),
        collected(
            "python.packages",
            source,
            {"packages": packages, "installers": installers, "locations": locations},
            summary=f"{len(packages)} distributions",
        ),
    ]
