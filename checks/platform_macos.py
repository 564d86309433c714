"""macOS: an x86_64 Python under Rosetta 2 on Apple silicon, and why torch's MPS backend is not
available (Intel Mac, macOS too old, torch built without MPS)."""

from __future__ import annotations

from envdoctor.checks import platform_facts as pf
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.snapshot import Snapshot

APPLE_PYTORCH = "https://developer.apple.com/metal/pytorch/"
TORCH_RELEASE_OS = "https://github.com/pytorch/pytorch/blob/main/RELEASE.md"
MPS_DOCS = "https://docs.pytorch.org/docs/stable/notes/mps.html"
MPS_MIN_MACOS = "12.3"  # Apple: "macOS 12.3 or later" when MPS arrived (PyTorch 1.12)
MPS_CURRENT_MACOS = (
    "14.0"  # PyTorch RELEASE.md: "MPS support is enabled on macOS 14 (Sonoma) or later"
)


def _rosetta(snap: Snapshot) -> bool:
    mac = snap.data("platform.macos") or {}
    machine = str(snap.fact("python", "machine") or "").lower()
    return mac.get("apple_silicon") is True and machine == "x86_64"


@check("macos.rosetta-python", needs=("platform.macos", "python"))
def rosetta_python(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """An x86_64 Python runs under Rosetta 2 on an Apple silicon Mac.

    Apple silicon runs x86_64 programs through Rosetta 2 translation. An x86_64 Python (an Intel
    Homebrew in /usr/local, an osx-64 Miniconda, a universal2 Python started from a Rosetta terminal)
    installs x86_64 wheels, runs them translated, and cannot use the Apple GPU: PyTorch's macOS builds
    are arm64 only ("macOS | arm64", RELEASE.md), and Apple's MPS requirements name a Mac with Apple
    silicon. `python3 -c "import platform; print(platform.machine())"` must print arm64.
    """
    if not _rosetta(snap):
        return None
    mac = snap.data("platform.macos") or {}
    python = snap.data("python") or {}
    executable = str(python.get("executable") or "python3")
    universal = "universal" in str(mac.get("python_file") or "").lower()
    conda = python.get("environment") == "conda"
    fixes = []
    if universal:
        fixes.append(
            Fix(
                "This Python is a universal binary started as x86_64 (a Rosetta terminal): start it as arm64",
                (
                    f"arch -arm64 {executable} -m venv .venv-arm64",
                    '.venv-arm64/bin/python -c "import platform; print(platform.machine())"',
                ),
            )
        )
    if conda:
        fixes.append(
            Fix(
                "Create the conda environment for osx-arm64 (or install the arm64 Miniforge)",
                (
                    "CONDA_SUBDIR=osx-arm64 conda create -y -n arm64 python=3.12",
                    "conda activate arm64",
                    "conda config --env --set subdir osx-arm64",
                ),
                url="https://github.com/conda-forge/miniforge",
            )
        )
    fixes.append(
        Fix(
            "Install an arm64 Python (Homebrew on Apple silicon lives in /opt/homebrew) and recreate the "
            "environment with it",
            (
                "/opt/homebrew/bin/brew install python@3.12",
                "/opt/homebrew/bin/python3.12 -m venv .venv",
                '.venv/bin/python -c "import platform; print(platform.machine())"',
            ),
            Risk.SAFE,
            "https://docs.brew.sh/Installation",
        )
    )
    torch = pf.torch_facts(snap)
    return Finding(
        id="macos.rosetta-python",
        severity=Severity.ERROR if torch.get("version") else Severity.WARNING,
        title="This Python is x86_64, running under Rosetta 2 on an Apple silicon Mac",
        detail=(
            "Everything this interpreter runs is translated from x86_64, and it cannot use the Apple GPU: "
            "PyTorch's macOS builds are arm64 only and MPS needs an arm64 process on Apple silicon."
        ),
        evidence=(
            Evidence("python.machine", "x86_64", "arm64"),
            Evidence("platform.macos.apple_silicon", "true"),
            Evidence("python.executable", executable),
        )
        + ((Evidence("file", str(mac.get("python_file"))),) if mac.get("python_file") else ()),
        fixes=tuple(fixes),
        explains=("macos.mps-unavailable", "torch.cuda-unavailable"),
    )


@check("macos.mps-unavailable", needs=("platform.macos",))
def mps_unavailable(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """torch cannot use the Mac's GPU through MPS (Metal Performance Shaders).

    `torch.backends.mps.is_built()` says whether the build includes MPS; `is_available()` whether it
    can run here. MPS arrived with PyTorch 1.12 for macOS 12.3 or later (Apple's original
    requirements); PyTorch's release notes now say "MPS support is enabled on macOS 14 (Sonoma) or
    later", and torch 2.10 raises "The MPS backend is supported on macOS 14.0+". Apple's current
    requirements name a Mac with Apple silicon: on an Intel Mac torch runs on the CPU. An x86_64
    Python under Rosetta is reported as macos.rosetta-python. With `--deep`, envdoctor also shows
    what is_available() said.
    """
    mac = snap.data("platform.macos") or {}
    torch = pf.torch_facts(snap)
    if not torch.get("version") or _rosetta(snap):
        return None
    version = mac.get("macos_version")
    deep = ((snap.data("python.deep") or {}).get("backends") or {}).get("mps") or {}
    evidence = [
        Evidence("platform.macos.macos_version", str(version)),
        Evidence("platform.macos.apple_silicon", str(mac.get("apple_silicon")).lower()),
    ]
    if deep:
        evidence.append(
            Evidence(
                "torch.backends.mps",
                f"built={deep.get('built')}, available={deep.get('available')}",
                "built=True, available=True",
            )
        )
    if mac.get("apple_silicon") is False:
        return Finding(
            id="macos.mps-unavailable",
            severity=Severity.INFO,
            title="This is an Intel Mac: torch runs on the CPU here (MPS needs Apple silicon)",
            detail="Apple's requirements for accelerated PyTorch on Mac name a Mac with Apple silicon.",
            evidence=tuple(evidence),
            fixes=(
                Fix("Use an Apple silicon Mac (or a CUDA machine) for GPU work", url=APPLE_PYTORCH),
            ),
        )
    if version and pf.version_lt(version, MPS_MIN_MACOS):
        return Finding(
            id="macos.mps-unavailable",
            severity=Severity.ERROR,
            title=f"macOS {version} is too old for torch's MPS backend (macOS {MPS_MIN_MACOS} at the very least)",
            detail="MPS needs macOS 12.3 or later; current PyTorch releases enable it on macOS 14 or later.",
            evidence=tuple(evidence + [Evidence("macOS", str(version), f">= {MPS_CURRENT_MACOS}")]),
            fixes=(
                Fix(
                    "Update macOS (System Settings > General > Software Update)",
                    ("softwareupdate --list",),
                    Risk.NEEDS_RESTART,
                    TORCH_RELEASE_OS,
                ),
            ),
        )
    if version and pf.version_lt(version, MPS_CURRENT_MACOS):
        return Finding(
            id="macos.mps-unavailable",
            severity=Severity.WARNING,
            title=f"macOS {version}: current PyTorch releases enable MPS only on macOS 14 (Sonoma) or later",
            detail=(
                'PyTorch\'s release notes: "MPS support is enabled on macOS 14 (Sonoma) or later"; recent torch '
                'raises "The MPS backend is supported on macOS 14.0+" on older systems.'
            ),
            evidence=tuple(evidence + [Evidence("macOS", str(version), f">= {MPS_CURRENT_MACOS}")]),
            fixes=(
                Fix(
                    "Update macOS to 14 or newer",
                    ("softwareupdate --list",),
                    Risk.NEEDS_RESTART,
                    TORCH_RELEASE_OS,
                ),
                Fix(
                    "Or keep this macOS and pin an older torch that still enables MPS on it (check its release notes)",
                    url="https://pytorch.org/get-started/previous-versions/",
                ),
            ),
        )
    if deep and deep.get("available") is False:
        built = deep.get("built")
        return Finding(
            id="macos.mps-unavailable",
            severity=Severity.WARNING,
            title="torch.backends.mps.is_available() is False"
            + (" (this torch was built without MPS)" if built is False else ""),
            detail=(
                "torch "
                + str(torch.get("version"))
                + (
                    " has no MPS support compiled in."
                    if built is False
                    else " has MPS but could not start it here."
                )
                + (f" It said: {deep.get('error')}" if deep.get("error") else "")
            ),
            evidence=tuple(evidence),
            fixes=(
                Fix(
                    "Reinstall the official macOS arm64 torch from PyPI (it includes MPS)",
                    (
                        "pip uninstall -y torch",
                        "pip install torch",
                        'python -c "import torch; print(torch.backends.mps.is_available())"',
                    ),
                    Risk.SAFE,
                    MPS_DOCS,
                ),
            ),
        )
    return None


CHECKS = [rosetta_python, mps_unavailable]
