"""Notebook runtimes: a hosted runtime without a GPU, and installs that miss the kernel."""

from __future__ import annotations

from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Severity
from envdoctor.model.snapshot import Snapshot

_PIP_MAGIC_URL = "https://ipython.readthedocs.io/en/stable/interactive/magics.html#magic-pip"
_KERNEL_INSTALL_URL = "https://ipython.readthedocs.io/en/stable/install/kernel_install.html"
# where each hosted runtime's accelerator is chosen
_ACCELERATOR = {
    "colab": (
        "In Colab choose Runtime > Change runtime type, pick a GPU hardware accelerator, and run "
        "the notebook again (the runtime restarts: installed packages and files are lost)",
        "https://research.google.com/colaboratory/faq.html",
    ),
    "kaggle": (
        "In Kaggle open the notebook's settings, set Accelerator to a GPU, and run the notebook "
        "again (GPU sessions need a phone-verified account and count against a weekly quota)",
        "https://www.kaggle.com/docs/notebooks",
    ),
}


def _no_nvidia_gpu(snap: Snapshot) -> bool:
    """The PCI bus was read and holds no NVIDIA device, and no driver reported a GPU."""
    pci = snap.data("nvidia.pci")
    if pci is None or pci.get("devices"):
        return False
    return not (snap.data("nvidia.gpus") or {}).get("gpus")


@check(
    "python.notebook-no-gpu-runtime",
    needs=("python.notebook",),
    needs_any=("nvidia.pci",),
)
def hosted_runtime_without_gpu(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """This Colab or Kaggle notebook runs on a runtime without a GPU.

    Hosted notebooks start on a CPU-only runtime unless a GPU accelerator is chosen for the
    session; code written for CUDA then fails ("Torch not compiled with CUDA enabled" does not
    apply: the wheel has CUDA, the machine has no GPU) or silently runs on the CPU. No package or
    driver change helps: only the runtime type does. The PCI bus of the runtime was read and
    holds no NVIDIA device.
    """
    kind = snap.fact("python.notebook", "kind")
    if kind not in _ACCELERATOR or not _no_nvidia_gpu(snap):
        return None
    summary, url = _ACCELERATOR[kind]
    return Finding(
        id="python.notebook-no-gpu-runtime",
        severity=Severity.ERROR,
        title=f"This {kind.capitalize()} runtime has no GPU: choose a GPU accelerator",
        detail=(
            f"The notebook runs on a {kind.capitalize()} runtime whose PCI bus shows no NVIDIA "
            "device, so CUDA code cannot run; the session's accelerator decides it."
        ),
        evidence=(
            Evidence("python.notebook", str(kind), "a runtime with a GPU accelerator"),
            Evidence("nvidia.pci", "no NVIDIA device", "an NVIDIA GPU"),
        ),
        fixes=(Fix(summary, url=url),),
        explains=("nvidia.no-gpu",),
    )


@check("python.notebook-pip-other-interpreter", needs=("python.notebook",))
def pip_installs_elsewhere(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """`!pip install` in this notebook installs into another interpreter than the kernel's.

    A `!pip` cell runs the first `pip` on the PATH of the notebook server, whose `#!` line names
    the interpreter it installs into. When that is not the kernel's interpreter, the install
    succeeds and `import` in the next cell still fails (or finds an old version). IPython's
    `%pip` magic always installs with the running kernel's interpreter.
    """
    notebook = snap.data("python.notebook") or {}
    if notebook.get("pip_installs_into_kernel") is not False:
        return None
    kernel = notebook.get("kernel_python") or "the kernel's interpreter"
    return Finding(
        id="python.notebook-pip-other-interpreter",
        severity=Severity.WARNING,
        title="`!pip install` in this notebook installs into another Python than the kernel's",
        detail=(
            f"The pip on PATH ({notebook.get('pip_on_path')}) installs into "
            f"{notebook.get('pip_python')}, but this kernel runs {kernel}: packages installed "
            "with `!pip install` are not importable here."
        ),
        evidence=(Evidence("python.notebook", str(notebook.get("pip_python")), kernel),),
        fixes=(
            Fix(
                "Install from a cell with the %pip magic, which uses the kernel's interpreter",
                commands=("%pip install PACKAGE",),
                url=_PIP_MAGIC_URL,
            ),
            Fix(
                "Or name the kernel's interpreter explicitly",
                commands=(f"!{kernel} -m pip install PACKAGE",),
                url=_PIP_MAGIC_URL,
            ),
        ),
    )


@check("python.notebook-kernel-not-active-env", needs=("python.notebook",))
def kernel_outside_active_env(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """The notebook kernel runs another interpreter than the environment that was activated.

    Jupyter was started from a shell with an activated venv or conda environment, but the kernel
    chosen for this notebook is another interpreter (a kernelspec registered earlier, or the
    base environment's). Packages installed into the activated environment — torch with CUDA, say
    — are invisible to the kernel. Registering the environment as a kernel and selecting it makes
    the notebook use it.
    """
    notebook = snap.data("python.notebook") or {}
    if notebook.get("kernel_in_active_env") is not False:
        return None
    env = str(notebook.get("active_env_prefix"))
    kernel = str(notebook.get("kernel_python"))
    return Finding(
        id="python.notebook-kernel-not-active-env",
        severity=Severity.WARNING,
        title="The notebook kernel is not the environment you activated",
        detail=(
            f"The shell that started Jupyter activated {env}, but this kernel runs {kernel}: "
            "what is installed in the activated environment is not visible here."
        ),
        evidence=(Evidence("python.notebook", kernel, f"an interpreter of {env}"),),
        fixes=(
            Fix(
                "Register the activated environment as a Jupyter kernel, then pick it in the "
                "notebook (Kernel > Change kernel)",
                commands=(
                    f"{env}/bin/python -m pip install ipykernel",
                    f"{env}/bin/python -m ipykernel install --user --name my-env "
                    '--display-name "Python (my-env)"',
                ),
                url=_KERNEL_INSTALL_URL,
            ),
        ),
    )


CHECKS = [hosted_runtime_without_gpu, pip_installs_elsewhere, kernel_outside_active_env]
