"""What the torch checks read from a snapshot, gathered once (pure; no check lives here).

`torch_context(snap, ms)` collects the torch build (`python.torch`), the interpreter and its
installer (`python`, `python.packages`), the NVIDIA GPUs with their compute capability
(`nvidia.gpus`, completed from the nvidia_gpus table by name), the driver (`nvidia.driver`),
AMD GPUs (`amd.gpus`) and the `--deep` results (`python.deep`). `reinstall_fixes()` turns ranked
variant choices into exact fixes for this environment's installer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from envdoctor.installers.pip_commands import (
    Installer,
    TorchTarget,
    detect_installer,
    torch_reinstall,
)
from envdoctor.model.findings import Fix, Risk
from envdoctor.model.snapshot import Snapshot
from envdoctor.model.versions import major_minor, release
from envdoctor.queries import torch as tq
from envdoctor.queries.torch_fixes import Choice

GET_STARTED = "https://pytorch.org/get-started/locally/"
PREVIOUS_VERSIONS = "https://pytorch.org/get-started/previous-versions/"


@dataclass
class TorchContext:
    """The facts the torch checks share."""

    torch: dict[str, Any]
    python: dict[str, Any]
    packages: dict[str, Any]
    os: str | None  # "linux" (x86_64), "windows", "macos", "linux-aarch64", ...
    gpus: list[dict[str, Any]] = field(default_factory=list)  # {name, capability}
    gpu_group_status: str | None = None  # status of nvidia.gpus: collected / absent / failed / None
    driver_version: str | None = None
    driver_max_cuda: str | None = None
    amd_gpus: list[dict[str, Any]] = field(default_factory=list)
    deep: dict[str, Any] | None = None
    installer: Installer | None = None
    frameworks: dict[str, Any] = field(default_factory=dict)  # python.frameworks packages

    @property
    def capabilities(self) -> list[str]:
        """Compute capabilities of the NVIDIA GPUs that have one known ("8.6")."""
        return [g["capability"] for g in self.gpus if g.get("capability")]

    @property
    def installed(self) -> dict[str, str]:
        """{normalized name: version} of the environment."""
        return dict(self.packages.get("packages") or {})

    @property
    def python_version(self) -> str | None:
        return self.python.get("version")

    def arches(self, ms: Any) -> tuple[list[str] | None, str | None]:
        """The build's CUDA arch list and where it came from: measured by --deep, else the
        probe's matrix lookup, else the matrix for the version's variant."""
        deep = self.deep or {}
        if deep.get("arch_list"):
            return list(deep["arch_list"]), "torch.cuda.get_arch_list() (--deep)"
        if self.torch.get("arch_list"):
            return list(self.torch["arch_list"]), self.torch.get(
                "arch_list_source"
            ) or "python.torch"
        variant = self.build_variant(ms)
        os_name = self.os if self.os in ("linux", "windows") else None
        if variant and os_name:
            arches = tq.variant_arches(ms, str(self.torch.get("version")), variant, os_name)
            if arches is not None:
                return arches, "matrix:torch_arch"
        return None, None

    def build_variant(self, ms: Any) -> str | None:
        """The installed wheel's variant: its label, else what PyPI ships for this platform."""
        variant = self.torch.get("variant")
        if variant:
            return str(variant)
        installers = self.packages.get("installers") or {}
        conda_builds = self.packages.get("conda_builds") or {}
        if (
            installers.get("torch") == "conda"
            or self.torch.get("conda_build")
            or any(k in conda_builds for k in ("pytorch", "torch"))
        ):
            return None  # a conda package, not one of PyTorch's wheels
        if (
            self.os in ("linux", "windows", "macos")
            and self.torch.get("version_py_read") is not True
        ):
            return tq.pypi_default(ms, str(self.torch.get("version")), self.os)
        return None

    @property
    def backend(self) -> str | None:
        """ "cuda" / "rocm" / "xpu" / "cpu", or None when unknown."""
        return self.torch.get("backend") or self.torch.get("build")


def _os(snap: Snapshot, torch: dict[str, Any]) -> str | None:
    python = snap.data("python") or {}
    platform = str(python.get("platform") or "").lower()
    machine = str(python.get("machine") or "").lower()
    if not platform:
        system = str(snap.fact("os", "system") or "").lower()
        platform = {"linux": "linux", "windows": "win32", "darwin": "darwin"}.get(system, "")
        machine = machine or str(snap.fact("os", "arch") or "").lower()
    if not platform and torch.get("os"):
        return str(torch["os"])
    if platform.startswith("win"):
        return "windows"
    if platform == "darwin":
        return "macos"
    if platform.startswith("linux"):
        return "linux" if machine in ("", "x86_64", "amd64") else f"linux-{machine}"
    return None


def _gpus(snap: Snapshot, ms: Any) -> list[dict[str, Any]]:
    """NVIDIA GPUs with their compute capability: from the driver (nvidia.gpus), else from the PCI
    bus (nvidia.pci: seen even without a driver), the capability looked up by name or PCI id."""
    from envdoctor.queries.nvidia import capability_by_name

    out = []
    for gpu in snap.fact("nvidia.gpus", "gpus") or []:
        if not isinstance(gpu, dict):
            continue
        name = gpu.get("name")
        capability = gpu.get("compute_capability")
        if not capability and name:
            capability = capability_by_name(ms, str(name))
        out.append(
            {
                "name": name,
                "capability": str(capability) if capability else None,
                "source": "nvidia.gpus",
                "index": gpu.get("index"),
                "uuid": gpu.get("uuid"),
            }
        )
    if out:
        return cuda_visible(snap, out)
    for device in snap.fact("nvidia.pci", "devices") or []:
        if not isinstance(device, dict) or not device.get("is_gpu"):
            continue
        row = _gpu_by_pci_id(ms, str(device.get("device_id") or ""))
        out.append(
            {
                "name": row.get("name") if row else f"NVIDIA GPU {device.get('device_id')}",
                "capability": row.get("compute_capability") if row else None,
                "source": "nvidia.pci",
            }
        )
    return out


def cuda_visible(snap: Snapshot, gpus: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The GPUs a CUDA process sees under CUDA_VISIBLE_DEVICES (cuda.env): the entries up to the
    first that names no GPU, each a GPU UUID (or unique prefix) or, with
    CUDA_DEVICE_ORDER=PCI_BUS_ID, an nvidia-smi index (CUDA's default order is fastest first, so
    a bare index is not mapped without it). `gpus` unchanged when the variable is unset, names
    GPUs this way not at all, or would hide every GPU (cuda.visible-devices-hide-gpus says so)."""
    env = snap.data("cuda.env") or {}
    var = env.get("CUDA_VISIBLE_DEVICES") or {}
    value = str(var.get("value") or "") if var.get("set") else ""
    by_pci = str((env.get("CUDA_DEVICE_ORDER") or {}).get("value") or "") == "PCI_BUS_ID"
    shown: list[dict[str, Any]] = []
    for token in (t.strip().lower() for t in value.split(",") if value.strip()):
        if token.isdigit():
            hits = [g for g in gpus if by_pci and str(g.get("index")) == token]
        else:
            hits = [
                g
                for g in gpus
                if token.startswith("gpu-") and str(g.get("uuid") or "").lower().startswith(token)
            ]
        if len(hits) != 1:
            break
        shown.append(hits[0])
    return shown or gpus


def _gpu_by_pci_id(ms: Any, device_id: str) -> dict[str, Any] | None:
    wanted = device_id.strip().lower()
    if not wanted:
        return None
    try:
        rows = ms.table("nvidia_gpus").rows
    except (KeyError, AttributeError):
        return None
    return next(
        (r for r in rows if wanted in [str(i).lower() for i in r.get("pci_device_ids") or []]), None
    )


def torch_context(snap: Snapshot, ms: Any) -> TorchContext:
    """Gather the facts (absent groups give empty values)."""
    torch = dict(snap.data("python.torch") or {})
    python = dict(snap.data("python") or {})
    packages = dict(snap.data("python.packages") or {})
    gpu_group = snap.group("nvidia.gpus")
    ctx = TorchContext(
        torch=torch,
        python=python,
        packages=packages,
        os=_os(snap, torch),
        gpus=_gpus(snap, ms),
        gpu_group_status=gpu_group.status.value if gpu_group else None,
        driver_version=snap.fact("nvidia.driver", "driver_version"),
        driver_max_cuda=snap.fact("nvidia.driver", "cuda_driver_max"),
        amd_gpus=[g for g in snap.fact("amd.gpus", "gpus") or [] if isinstance(g, dict)],
        deep=snap.data("python.deep"),
        frameworks=dict((snap.data("python.frameworks") or {}).get("packages") or {}),
    )
    ctx.installer = detect_installer(python, packages, "torch")
    return ctx


def _pinned_elsewhere(ctx: TorchContext, choice: Choice) -> dict[str, str]:
    """Installed extensions whose exact torch pin (`torch==2.7.0`) the new torch breaks."""
    out = {}
    for name, entry in ctx.frameworks.items():
        match = re.fullmatch(
            r"==\s*(\d+(?:\.\d+)+)", str(entry.get("requires_torch") or "").strip()
        )
        if not match:
            continue
        pinned = match.group(1)
        keeps = (
            str(release(pinned)) == str(release(choice.exact))
            if choice.exact
            else major_minor(pinned) == choice.release
        )
        if not keeps:
            out[name] = pinned
    return out


def target_of(choice: Choice) -> TorchTarget:
    """The install target of a chosen torch build (its release, wheel variant, index and
    companions; pinned exactly when the chooser named one build)."""
    return TorchTarget(
        choice.torch,
        choice.variant,
        choice.index_url,
        choice.torchvision,
        choice.torchaudio,
        exact=choice.exact is not None,
        find_links=choice.find_links,
        torchvision_exact=choice.torchvision_exact,
        torchaudio_exact=choice.torchaudio_exact,
    )


def reinstall_fixes(ctx: TorchContext, choices: list[Choice], why: str) -> tuple[Fix, ...]:
    """One fix per choice: uninstall, install the pinned wheel from its index, verify. Extensions
    pinned to the old torch are removed with it (they could not load with the new one)."""
    fixes = []
    installers = {str(k): str(v) for k, v in (ctx.packages.get("installers") or {}).items()}
    installed = ctx.installed or {"torch": str(ctx.torch.get("version"))}
    for choice in choices:
        target = target_of(choice)
        broken = _pinned_elsewhere(ctx, choice)
        commands = torch_reinstall(
            ctx.installer or detect_installer({}, {}),
            target,
            {**installed, **{n: "" for n in broken}},
            installers,
            extra_remove=broken,
        )
        if choice.find_links:
            # a -f page release (1.9, 1.10): the patch that page installs, maybe not the one here
            summary = f"Install torch {choice.exact} with {choice.variant} ({why})"
        elif choice.exact:
            summary = f"Keep torch {choice.exact}, switch to its {choice.variant} build ({why})"
        else:
            summary = f"Install torch {choice.release} with {choice.variant} ({why})"
        if broken:
            summary += (
                "; this removes "
                + ", ".join(f"{n} (built for torch {v})" for n, v in sorted(broken.items()))
                + ": reinstall them for the new torch"
            )
        fixes.append(
            Fix(
                summary,
                commands,
                Risk.SAFE,
                url=GET_STARTED if not choice.exact else PREVIOUS_VERSIONS,
            )
        )
    return tuple(fixes)
