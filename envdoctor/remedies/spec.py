"""The remedy vocabulary: what a finding needs, said as data, not as commands.

A `RemedySpec` names a kind of remedy and its parameters; `envdoctor.remedies.resolve` turns it
into exact fixes for one machine (its OS, installer, privileges, GPU and driver) or says which
fact it is missing (`NeedsFact`). Checks build specs in code; error signatures write them in TOML:

```toml
[[signature.remedy]]
kind = "torch-build-for-gpu"        # one of KINDS below
capability = "{{m.sm}}"             # optional parameters, templated like the signature's text
[[signature.remedy]]
kind = "driver-for-torch"
```
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# kind -> what it asks for, and the parameters it reads (all optional unless marked *)
KINDS: dict[str, str] = {
    "torch-build-for-gpu": (
        "a torch build with kernels for this machine's GPUs that this driver runs (the installed "
        "release's variant first, then the newest release); params: capability ('8.6' or '86', "
        "overrides the GPUs' own), gpu_names (GPUs known by name only), vendor ('nvidia' | 'amd'), "
        "installed (the torch version a report printed, when the facts have none)"
    ),
    "torch-build-for-driver": (
        "a torch build whose CUDA this driver runs and that still has kernels for the GPUs"
    ),
    "driver-for-torch": (
        "an NVIDIA driver that supports this torch build's CUDA and supports this GPU's "
        "architecture (never inside WSL2: there the Windows driver is updated)"
    ),
    "driver": (
        "an NVIDIA driver for this GPU: at least `min` when given (e.g. an application's floor), "
        "the architecture's last branch when NVIDIA ended it (Kepler: 470), else the "
        "distribution's current one; params: min, reason, repo (NVIDIA's CUDA repository for this "
        "distribution, e.g. 'debian12': its cuda-drivers packages)"
    ),
    "python-for-torch": "a Python the torch release publishes wheels for, in a new venv",
    "cuda-libs-for-package": (
        "the CUDA and cuDNN a framework release was built and tested with (python_frameworks: "
        "TensorFlow), as wheels where the release has an [and-cuda] extra; params: package*, "
        "version (the installed or asked-for release), cudnn (without a version: the cuDNN that "
        "was loaded; names the releases built for its major)"
    ),
    "python-for-package": (
        "a Python that a framework release (python_frameworks table: tensorflow...) publishes "
        "wheels for, in a new venv with that release; params: package*, version"
    ),
    "torch-release-for-platform": (
        "the newest torch release with an official wheel for this OS and machine (an Intel Mac "
        "ends at 2.2), for this Python or in a new venv; params: torch (the release asked for)"
    ),
    "app-release": (
        "the release of an application package that has what the report lacks (app_releases "
        "table: the torch a vLLM release pins, the first bitsandbytes release with a binary for a "
        "CUDA or with Windows / ROCm / XPU wheels, llama-cpp-python's CUDA CMake option); params: "
        "app*, need* (torch | cuda | feature | cuda-flag | cuda-wheel | host), version (installed), value, torch, reverse"
    ),
    "package": "install or upgrade a package; params: name*, spec ('>=2.4'), reason",
    "remove-package": "uninstall a package; params: name*",
    "env-set": "set an environment variable; params: name*, value*",
    "env-unset": "unset an environment variable; params: name*",
    "join-group": "add the user to a Unix group; params: group*",
    "start-docker": "start the Docker daemon this client talks to (systemd, SysV, rootless, Desktop)",
    "container-toolkit": "install and configure the NVIDIA Container Toolkit for Docker (NVIDIA GPUs)",
    "source-build": "build torch from source for this GPU (when no official wheel fits)",
}


@dataclass(frozen=True)
class RemedySpec:
    """One remedy a finding needs: `kind` (a key of KINDS) and its parameters."""

    kind: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def param(self, key: str, default: Any = None) -> Any:
        """A parameter, or `default`."""
        return self.params.get(key, default)

    @classmethod
    def from_toml(cls, entry: Mapping[str, Any]) -> RemedySpec:
        """From a `[[signature.remedy]]` table; raises ValueError on an unknown kind."""
        kind = str(entry.get("kind", ""))
        if kind not in KINDS:
            raise ValueError(f"unknown remedy kind {kind!r} (known: {', '.join(sorted(KINDS))})")
        return cls(kind, {str(k): v for k, v in entry.items() if k != "kind"})


@dataclass(frozen=True)
class NeedsFact:
    """The chooser could not write a fix: it needs this fact ("nvidia.gpus: the GPU model")
    and says how to get it ("run `nvidia-smi` and paste its output")."""

    fact: str
    how: str

    def sentence(self) -> str:
        """For people."""
        return f"To choose a fix envdoctor needs {self.fact}: {self.how}"
