"""Which Python environment the user means when they did not say (`--python`).

envdoctor is often installed as a tool (pipx, `uv tool install`) in an environment of its own,
while the user's torch lives in a project venv or a conda env. Describing envdoctor's own
interpreter then answers a question nobody asked ("torch is not installed"). The rule, in order:

1. `--python PATH`, when given;
2. an activated virtual environment (`VIRTUAL_ENV`, set by every venv/virtualenv/uv activate
   script);
3. an active conda environment (`CONDA_PREFIX`, set by `conda activate`);
4. the first `python3` / `python` on PATH, when it is not envdoctor's own interpreter;
5. envdoctor's own interpreter.

The choice and the reason travel in `ProbeOptions` (`python`, `python_selected_by`) so that every
probe inspects the same interpreter and the `python` fact group can say why it was chosen.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, replace

from envdoctor.probes.context import ProbeContext, ProbeOptions

# the selected_by values (stable: they appear in the JSON snapshot)
BY_OPTION = "--python"
BY_VIRTUAL_ENV = "VIRTUAL_ENV"
BY_CONDA_PREFIX = "CONDA_PREFIX"
BY_PATH = "PATH"
BY_OWN = "envdoctor"
BY_FILES = "files"  # an image's or unpacked root's interpreter, read from its files

EXPLANATIONS = {
    BY_OPTION: "chosen with --python",
    BY_VIRTUAL_ENV: "the active venv (VIRTUAL_ENV)",
    BY_CONDA_PREFIX: "the active conda env (CONDA_PREFIX)",
    BY_PATH: "the first python on PATH",
    BY_OWN: "envdoctor's own interpreter",
    BY_FILES: "the image's own interpreter, read from its files",
}


@dataclass(frozen=True)
class TargetChoice:
    """The interpreter to inspect: `executable` None means envdoctor's own (in-process)."""

    executable: str | None
    selected_by: str


def env_python(ctx: ProbeContext, prefix: str) -> str | None:
    """The interpreter of an environment prefix (venv or conda), when it exists."""
    windows = ctx.env.get("OS") == "Windows_NT" or sys.platform == "win32"
    candidates = (
        [os.path.join(prefix, "Scripts", "python.exe"), os.path.join(prefix, "python.exe")]
        if windows
        else [os.path.join(prefix, "bin", "python3"), os.path.join(prefix, "bin", "python")]
    )
    return next((c for c in candidates if os.path.isfile(c)), None)


def is_own(executable: str) -> bool:
    """Whether `executable` belongs to the environment running envdoctor. Environments are
    compared, not files: two venvs made from one base interpreter hold symlinks to the same file."""
    if not sys.executable:
        return False
    own_prefix = os.path.realpath(sys.prefix)
    exe_dir = os.path.dirname(os.path.abspath(executable))  # abspath: keep a venv's symlink
    # <prefix>/bin/python (POSIX), <prefix>/Scripts/python.exe (venv), <prefix>/python.exe (conda)
    return own_prefix in (os.path.realpath(os.path.dirname(exe_dir)), os.path.realpath(exe_dir))


def choose(ctx: ProbeContext) -> TargetChoice:
    """Apply the rule of this module's docstring to the context's environment."""
    if ctx.options.python:
        return TargetChoice(ctx.options.python, BY_OPTION)
    for variable, selected_by in (
        ("VIRTUAL_ENV", BY_VIRTUAL_ENV),
        ("CONDA_PREFIX", BY_CONDA_PREFIX),
    ):
        prefix = ctx.env.get(variable)
        if not prefix:
            continue
        executable = env_python(ctx, prefix)
        if executable is not None:
            return TargetChoice(None if is_own(executable) else executable, selected_by)
    for name in ("python3", "python"):
        found = ctx.which(name)
        if found:
            if is_own(found):
                return TargetChoice(None, BY_OWN)
            return TargetChoice(found, BY_PATH)
    return TargetChoice(None, BY_OWN)


def resolved_options(ctx: ProbeContext) -> ProbeOptions:
    """The context's options with the target interpreter chosen (live collection of `/` only:
    an image or unpacked root describes its own interpreters)."""
    options = ctx.options
    if options.python_selected_by:
        return options
    if options.image is not None or str(ctx.root) != "/":
        return options
    choice = choose(ctx)
    return replace(options, python=choice.executable, python_selected_by=choice.selected_by)
