"""Notebook runtimes: Jupyter kernels, Google Colab, Kaggle and SageMaker notebooks.

Fills `python.notebook` when envdoctor runs inside a notebook kernel (the Python API called from a
cell) or on a hosted notebook runtime (`!envdoctor check` in Colab): which runtime, the kernel's
interpreter, the interpreter that the `pip` on PATH installs into (its script's `#!` line: what
`!pip install` in a cell runs), and the environment activated in the shell that started the
server (VIRTUAL_ENV / CONDA_PREFIX).

Runtime markers, each as the vendor's own code or docs use it:
- Colab sets COLAB_RELEASE_TAG, Kaggle sets KAGGLE_KERNEL_RUN_TYPE (both read by Kaggle's
  kagglehub, https://github.com/Kaggle/kagglehub/blob/main/src/kagglehub/env.py);
- SageMaker notebook instances and Studio write /opt/ml/metadata/resource-metadata.json
  (https://docs.aws.amazon.com/sagemaker/latest/dg/nbi-metadata.html);
- a Jupyter kernel is this process when `ipykernel` is imported in it; jupyter_client sets
  JPY_PARENT_PID in the environment of the kernels it starts.
"""

from __future__ import annotations

import os
import sys

from envdoctor.model.snapshot import FactGroup, absent, collected
from envdoctor.probes.context import ProbeContext

GROUPS = ("python.notebook",)
TIMEOUT_S = 2.0
SOURCE = "probe:python_notebook"
SAGEMAKER_METADATA = "/opt/ml/metadata/resource-metadata.json"


def runtime_kind(ctx: ProbeContext, in_kernel: bool) -> str | None:
    """colab / kaggle / sagemaker / jupyter, or None outside any notebook."""
    if ctx.env.get("COLAB_RELEASE_TAG"):
        return "colab"
    if ctx.env.get("KAGGLE_KERNEL_RUN_TYPE"):
        return "kaggle"
    if ctx.exists(SAGEMAKER_METADATA):
        return "sagemaker"
    if in_kernel or ctx.env.get("JPY_PARENT_PID"):
        return "jupyter"
    return None


def script_interpreter(ctx: ProbeContext, script: str) -> str | None:
    """The interpreter named on a console script's `#!` line (pip's), or None."""
    head = ctx.read_text(script, max_bytes=512)
    if not head or not head.startswith("#!"):
        return None
    line = head[2:].split("\n", 1)[0].strip()
    if line.startswith("/bin/sh"):  # pip's launcher for long paths: `exec "/path/python" "$0"`
        for part in head.split("\n")[1:4]:
            if part.startswith("'''exec' ") or part.startswith("exec "):
                quoted = part.split('"')
                return quoted[1] if len(quoted) > 2 else None
        return None
    return line.split()[0] if line else None


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Describe the notebook runtime this process runs in, if any."""
    # this process is a kernel only when describing the machine it runs on (not an image)
    in_kernel = "ipykernel" in sys.modules and str(ctx.root) == "/"
    kind = runtime_kind(ctx, in_kernel)
    if kind is None:
        return [absent("python.notebook", SOURCE, "not a notebook kernel or notebook runtime")]
    pip = ctx.which("pip")
    pip_python = script_interpreter(ctx, pip) if pip else None
    active_env = ctx.env.get("VIRTUAL_ENV") or ctx.env.get("CONDA_PREFIX")
    facts = {
        "kind": kind,
        "in_kernel": in_kernel,
        "kernel_python": sys.executable if in_kernel else None,
        "kernel_prefix": sys.prefix if in_kernel else None,
        "pip_on_path": pip,
        "pip_python": pip_python,
        "active_env_prefix": active_env,
        # None when unknown (not in a kernel, no pip on PATH, no active environment)
        "pip_installs_into_kernel": (
            same_environment(pip_python, sys.prefix) if in_kernel and pip_python else None
        ),
        "kernel_in_active_env": (
            same_environment(sys.executable, active_env) if in_kernel and active_env else None
        ),
    }
    where = "this kernel" if in_kernel else "a notebook runtime"
    return [collected("python.notebook", SOURCE, facts, summary=f"{kind} ({where})")]


def same_environment(interpreter: str, prefix: str) -> bool:
    """Whether `interpreter` lives in the environment at `prefix` (bin/, Scripts/ or the root)."""
    folder = os.path.dirname(os.path.abspath(interpreter))
    real = os.path.realpath(prefix)
    return real in (os.path.realpath(folder), os.path.realpath(os.path.dirname(folder)))
