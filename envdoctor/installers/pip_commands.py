"""Exact install / uninstall commands for the installer of one Python environment.

`detect_installer()` decides from the `python` and `python.packages` facts how packages got into
the environment (pip, `uv pip`, conda / mamba) and which interpreter the commands must name. The
builders then write commands for that installer only: `<python> -m pip ...` (never a bare `pip`,
which may belong to another environment), `uv pip ... --python <python>`, or `conda remove -p
<prefix>` for conda-installed packages followed by pip inside the same environment (PyTorch
publishes its wheels on its pip index, one index URL per variant).

`torch_reinstall()` builds the whole fix for a torch variant: uninstall torch and the installed
companions, install torch pinned to a release that exists with the variant's index URL and the
companions pinned to the matching minors, then the command that verifies the result.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from envdoctor.model.versions import parse

PIP, UV, CONDA, MAMBA = "pip", "uv", "conda", "mamba"
TORCH_FAMILY = ("torch", "torchvision", "torchaudio")
_CONDA_NAMES = {
    "torch": "pytorch"
}  # pip distribution name -> conda package name, where they differ
_UV_ENVIRONMENTS = ("uv-venv",)


@dataclass(frozen=True)
class Installer:
    """How to (un)install packages in one environment.

    `tool` installs new packages ("pip" or "uv"); `conda_tool` ("conda" / "mamba") is set when some
    packages came from conda and must be removed with it; `python` is the interpreter the commands
    name; `prefix` the environment's location; `windows` picks the quoting.
    """

    tool: str
    python: str
    prefix: str | None = None
    windows: bool = False
    conda_tool: str | None = None
    reason: str = ""


def detect_installer(
    python: Mapping[str, Any] | None, packages: Mapping[str, Any] | None, package: str = "torch"
) -> Installer:
    """The installer to use for `package` in the environment the facts describe."""
    python = python or {}
    packages = packages or {}
    installers = {
        str(k): str(v).strip().lower() for k, v in (packages.get("installers") or {}).items()
    }
    executable = str(python.get("executable") or "python")
    platform = str(python.get("platform") or "")
    windows = platform.startswith("win") or executable.lower().endswith(".exe")
    prefix = python.get("prefix")
    kind = str(python.get("environment") or "")
    own = installers.get(package, "")
    conda_tool = None
    if kind == "conda" and own in ("conda", "mamba", "micromamba"):
        conda_tool = MAMBA if own in ("mamba", "micromamba") else CONDA
    if own == "uv" or kind in _UV_ENVIRONMENTS:
        why = f"{package} was installed by uv" if own == "uv" else "the environment was made by uv"
        return Installer(UV, executable, prefix, windows, conda_tool, why)
    if conda_tool:
        return Installer(
            PIP,
            executable,
            prefix,
            windows,
            conda_tool,
            f"{package} came from conda; PyTorch's own wheels install with pip",
        )
    if own:
        return Installer(
            PIP, executable, prefix, windows, None, f"{package} was installed by {own}"
        )
    if kind == "conda":
        return Installer(
            PIP, executable, prefix, windows, None, "a conda environment (pip inside it)"
        )
    return Installer(PIP, executable, prefix, windows, None, f"a {kind or 'Python'} environment")


def new_venv(
    python_minor: str, windows: bool, folder: str = ".venv-torch"
) -> tuple[str, Installer]:
    """The command creating a venv with CPython `python_minor` ("3.13") and an Installer for it."""
    if windows:
        return (
            f"py -{python_minor} -m venv {folder}",
            Installer(PIP, f"{folder}\\Scripts\\python.exe", folder, True, None, "a new venv"),
        )
    return (
        f"python{python_minor} -m venv {folder}",
        Installer(PIP, f"{folder}/bin/python", folder, False, None, "a new venv"),
    )


def quote(inst: Installer, arg: str) -> str:
    """One argument quoted for the environment's shell (POSIX sh, or cmd/PowerShell on Windows)."""
    if inst.windows:
        return f'"{arg}"' if re.search(r"[\s&()^%!;,]", arg) else arg
    return shlex.quote(arg)


def _pip_prefix(inst: Installer) -> list[str]:
    if inst.tool == UV:
        return ["uv", "pip"]
    return [quote(inst, inst.python), "-m", "pip"]


def _target(inst: Installer) -> list[str]:
    return ["--python", quote(inst, inst.python)] if inst.tool == UV else []


def uninstall(
    inst: Installer, names: Sequence[str], installers: Mapping[str, str] | None = None
) -> tuple[str, ...]:
    """Commands removing `names`: conda removes what conda installed, pip/uv the rest."""
    if not names:
        return ()
    installers = installers or {}
    from_conda = [
        n
        for n in names
        if inst.conda_tool
        and str(installers.get(n, "")).lower() in ("conda", "mamba", "micromamba")
    ]
    rest = [n for n in names if n not in from_conda]
    commands = []
    if from_conda:
        where = ["-p", quote(inst, inst.prefix)] if inst.prefix else []
        commands.append(
            " ".join(
                [
                    inst.conda_tool or CONDA,
                    "remove",
                    "-y",
                    *where,
                    *(_CONDA_NAMES.get(n, n) for n in from_conda),
                ]
            )
        )
    if rest:
        yes = [] if inst.tool == UV else ["-y"]
        commands.append(" ".join([*_pip_prefix(inst), "uninstall", *yes, *_target(inst), *rest]))
    return tuple(commands)


def install(
    inst: Installer,
    specs: Sequence[str],
    index_url: str | None = None,
    extra_index_url: str | None = None,
) -> str:
    """The command installing `specs` ("torch==2.7.1"), from `index_url` when given."""
    args = [*_pip_prefix(inst), "install", *_target(inst), *(quote(inst, s) for s in specs)]
    if index_url:
        args += ["--index-url", index_url]
    if extra_index_url:
        args += ["--extra-index-url", extra_index_url]
    return " ".join(args)


def pin(name: str, version: str, exact: bool) -> str:
    """`name==version` (exact) or `name==major.minor.*` (the newest patch of that minor)."""
    if exact:
        release = parse(version)
        text = ".".join(str(p) for p in release.release) if release is not None else version
        return f"{name}=={text}"
    parts = str(version).split(".")
    return f"{name}=={'.'.join(parts[:2])}.*"


_VERIFY_CODE = {
    "cuda": (
        'import torch; x = torch.ones(256, 256, device="cuda"); '
        "print(torch.__version__, torch.version.cuda, torch.cuda.get_device_name(0), "
        "torch.cuda.get_device_capability(0), torch.cuda.get_arch_list(), (x @ x).sum().item())"
    ),
    "rocm": (
        'import torch; x = torch.ones(256, 256, device="cuda"); '
        "print(torch.__version__, torch.version.hip, torch.cuda.get_device_name(0), "
        "(x @ x).sum().item())"
    ),
    "xpu": (
        'import torch; x = torch.ones(256, 256, device="xpu"); '
        "print(torch.__version__, torch.xpu.get_device_name(0), (x @ x).sum().item())"
    ),
    "mps": (
        'import torch; x = torch.ones(256, 256, device="mps"); '
        "print(torch.__version__, torch.backends.mps.is_available(), (x @ x).sum().item())"
    ),
    "cpu": "import torch; print(torch.__version__, torch.version.cuda, torch.cuda.is_available())",
}


def verify_torch(inst: Installer, backend: str = "cuda") -> str:
    """A one-line check to run afterwards: prints the build and a matmul result (16777216.0 for
    a 256x256 matrix of ones) on the device, or fails with the exact error."""
    code = _VERIFY_CODE.get(backend, _VERIFY_CODE["cuda"])
    quoted = f'"{code.replace(chr(34), chr(39))}"' if inst.windows else f"'{code}'"
    return f"{quote(inst, inst.python)} -c {quoted}"


def backend_of_variant(variant: str | None) -> str:
    """ "cu128" -> "cuda", "rocm6.3" -> "rocm", "xpu", "cpu"; None (PyPI default) -> "cuda"."""
    if not variant:
        return "cuda"
    if variant.startswith("cu"):
        return "cuda"
    if variant.startswith("rocm"):
        return "rocm"
    return variant if variant in ("xpu", "cpu") else "cuda"


@dataclass(frozen=True)
class TorchTarget:
    """What to install: torch release, variant, its index URL and companion minors."""

    torch: str  # an exact release ("2.7.1") or a minor ("2.8") meaning its newest patch
    variant: str
    index_url: str
    torchvision: str | None = None  # a minor ("0.22")
    torchaudio: str | None = None
    exact: bool = False  # pin torch exactly (True) or to the minor's newest patch
    # a release served from a -f (find-links) page (torch 1.9 / 1.10): pip is given `-f` instead
    # of an index, and torch / torchvision are pinned with the variant's local tag, as that page's
    # own commands do (PyPI holds the same versions without the tag)
    find_links: str | None = None
    torchvision_exact: str | None = None
    torchaudio_exact: str | None = None


def torch_install(
    inst: Installer, target: TorchTarget, companions: Iterable[str] = ()
) -> tuple[str, str]:
    """Install the target torch (+ `companions` among torchvision / torchaudio), then verify.

    Each companion is pinned to its minor (`torchvision==0.22.*`), or left unpinned when the minor
    is unknown, in which case pip picks the one whose own exact torch pin matches.
    """
    wanted = set(companions)
    if target.find_links:
        specs = [f"torch=={target.torch}+{target.variant}"]
        for name, exact, tag in (
            ("torchvision", target.torchvision_exact, f"+{target.variant}"),
            ("torchaudio", target.torchaudio_exact, ""),
        ):
            if name in wanted:
                specs.append(f"{name}=={exact}{tag}" if exact else name)
        command = install(inst, specs) + f" -f {target.find_links}"
        return command, verify_torch(inst, backend_of_variant(target.variant))
    specs = [pin("torch", target.torch, target.exact)]
    for name, minor in (("torchvision", target.torchvision), ("torchaudio", target.torchaudio)):
        if name in wanted:
            specs.append(pin(name, minor, False) if minor else name)
    return install(inst, specs, target.index_url), verify_torch(
        inst, backend_of_variant(target.variant)
    )


def torch_reinstall(
    inst: Installer,
    target: TorchTarget,
    installed: Mapping[str, str],
    installers: Mapping[str, str] | None = None,
    extra_remove: Iterable[str] = (),
) -> tuple[str, ...]:
    """Uninstall torch (+ installed companions, + `extra_remove`), install the target, verify.

    Companions are reinstalled only when they are installed now.
    """
    remove = [n for n in TORCH_FAMILY if n in installed] or ["torch"]
    remove += [n for n in extra_remove if n in installed and n not in remove]
    return (*uninstall(inst, remove, installers), *torch_install(inst, target, installed))
