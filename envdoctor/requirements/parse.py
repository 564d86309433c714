"""The preflight requirement language: parse what a workload needs (`envdoctor.requirements.judge`
judges a snapshot by it).

One requirement per token; tokens are separated by commas or spaces (several `--require`
options add up):

    gpu                    at least one GPU of any vendor
    gpus>=2                how many GPUs (operators: >= > <= < = == !=)
    vendor=nvidia|amd      at least one GPU of one of these vendors (nvidia, amd, intel)
    compute>=8.0           CUDA compute capability, per GPU
    vram>=24GB             memory per GPU; GiB/MiB/TiB are binary, GB/MB/TB decimal (a "24 GB"
                           card reports about 23.99 GiB, so write 24GB for it, not 24GiB)
    driver>=550            NVIDIA driver version
    cuda-driver>=12.4      the highest CUDA the driver supports (not the toolkit, not torch's)
    torch / torch>=2.4     PyTorch installed / at this version
    torch.cuda             the installed torch can use the GPUs present (see below)
    rocm / rocm>=6.1       ROCm installed / at this version
    app=vllm               the application's requirements, from the matrices
    no:ID  (or !ID)        finding ID must not fire, e.g. no:nvidia.driver-library-mismatch

Per-GPU requirements (compute, vram) and `vendor` narrow the GPUs that count: each is met when
at least as many GPUs satisfy it as `gpus` asks for (one when `gpus` is not given), and `gpus` /
`gpu` count the GPUs that satisfy all of them. Versions compare on as many components as
written: `driver>=550` accepts 550.54.14, `torch<=2.4` accepts 2.4.1, `driver=550` means 550.*.

`torch.cuda` holds when a GPU is present, torch is installed, and none of the torch build
findings fired (a CPU build on a GPU host, a driver too old for the build, a GPU too new or too
old for the build's kernels): the Python-stack checks decide, this module does not re-derive.

A verdict is met, unmet, or unknown (the facts could not be read: a tool hung, a probe failed);
preflight treats unknown as not met.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    pass

MET, UNMET, UNKNOWN = "met", "unmet", "unknown"

# vendor -> the fact group listing its GPUs ({"gpus": [{"index", "name", "compute_capability",
# "memory_total_mib", ...}]}); add a vendor here when a probe fills its group.
GPU_GROUPS: dict[str, str] = {"nvidia": "nvidia.gpus", "amd": "amd.gpus", "intel": "intel.gpus"}
NVIDIA_DRIVER_GROUPS = ("nvidia.driver", "nvidia.gpus")  # driver_version, cuda_driver_max
TORCH_GROUPS = ("python.torch", "python.packages")  # python.torch: version; packages: {"torch": v}
# `torch>=2.4` needs only the installed version, which the package list has: the torch build probe
# (its files, the arch-list matrix) runs for `torch.cuda`, whose checks read the build.
TORCH_VERSION_GROUPS = ("python.packages",)
ROCM_GROUPS = ("amd.rocm", "rocm")  # version (or rocm_version)

# The Python-stack findings that mean "this torch cannot use the GPUs present".
TORCH_CUDA_FINDINGS: tuple[str, ...] = (
    "torch.cpu-build-on-gpu-host",
    "torch.driver-too-old",
    "torch.gpu-too-new-for-build",
    "torch.gpu-too-old-for-build",
)

# Where `app=NAME` looks for an application's requirements (owned by the applications work):
# `preflight_requirements(name, matrices) -> list[str] | None` (None: unknown app) and optionally
# `known_apps(matrices) -> list[str]`.
APP_REQUIREMENTS_MODULE = "envdoctor.queries.apps"

_OPERATORS = (">=", "<=", "==", "!=", ">", "<", "=")
_TOKEN = re.compile(
    r"^(?P<name>[a-z][a-z0-9_.-]*)\s*(?:(?P<op>>=|<=|==|!=|>|<|=)\s*(?P<value>\S+))?$"
)
_FINDING_ID = re.compile(r"^[a-z][a-z0-9_]*(?:\.[a-z0-9][a-z0-9_-]*)+$")
_VERSION = re.compile(r"^\d+(?:\.\d+){0,3}$")
_SIZE = re.compile(r"^(?P<number>\d+(?:\.\d+)?)(?P<unit>[A-Za-z]+)$")
_SIZE_UNITS_MIB = {
    "mib": 1.0,
    "gib": 1024.0,
    "tib": 1024.0**2,
    "mb": 1e6 / 2**20,
    "gb": 1e9 / 2**20,
    "tb": 1e12 / 2**20,
}


class RequirementError(ValueError):
    """A malformed requirement; the message names the bad token."""


@dataclass(frozen=True)
class Requirement:
    """One parsed requirement. `kind` is the left-hand name ("gpus", "vram", "finding", ...)."""

    text: str
    kind: str
    op: str | None = None
    value: str | None = None
    choices: tuple[str, ...] = ()  # vendor alternatives
    origin: str = "--require"  # where it was written (an option, a config file, app=NAME)

    @property
    def finding_id(self) -> str | None:
        """The finding that must not fire, for `no:ID` requirements."""
        return self.value if self.kind == "finding" else None


@dataclass(frozen=True)
class Kind:
    """How one requirement name is written and which fact groups judging it reads."""

    name: str
    ops: tuple[str, ...]  # allowed operators; () = none allowed
    value: Callable[[str], str] | None  # validates/normalises the value; raises ValueError
    groups: tuple[str, ...]
    optional_op: bool = False  # `torch` alone is allowed as well as `torch>=2.4`


def _count(text: str) -> str:
    if not text.isdigit():
        raise ValueError("expected a whole number of GPUs")
    return str(int(text))


def _version(text: str) -> str:
    if not _VERSION.match(text):
        raise ValueError("expected a version such as 12.4")
    return text


def _vram(text: str) -> str:
    size_mib(text)
    return text


def _app(text: str) -> str:
    if not re.match(r"^[a-z0-9][a-z0-9_.-]*$", text.lower()):
        raise ValueError("expected an application name such as vllm")
    return text.lower()


def size_mib(text: str) -> float:
    """A memory size such as "24GiB" or "24GB" in MiB; ValueError without a known unit."""
    match = _SIZE.match(text)
    if not match:
        raise ValueError("expected a size with a unit, e.g. 24GB or 24GiB")
    unit = match["unit"].lower()
    if unit not in _SIZE_UNITS_MIB:
        raise ValueError(f"unknown unit {match['unit']!r} (use GiB, MiB, TiB, GB, MB or TB)")
    return float(match["number"]) * _SIZE_UNITS_MIB[unit]


_ALL_GPU_GROUPS = tuple(GPU_GROUPS.values())
_COMPARE = (">=", "<=", "==", "!=", ">", "<", "=")
KINDS: dict[str, Kind] = {
    k.name: k
    for k in (
        Kind("gpu", (), None, _ALL_GPU_GROUPS),
        Kind("gpus", _COMPARE, _count, _ALL_GPU_GROUPS),
        Kind("vendor", ("=", "=="), None, _ALL_GPU_GROUPS),
        Kind("compute", _COMPARE, _version, _ALL_GPU_GROUPS),
        Kind("vram", _COMPARE, _vram, _ALL_GPU_GROUPS),
        Kind("driver", _COMPARE, _version, NVIDIA_DRIVER_GROUPS),
        Kind("cuda-driver", _COMPARE, _version, NVIDIA_DRIVER_GROUPS),
        Kind("torch", _COMPARE, _version, TORCH_VERSION_GROUPS, optional_op=True),
        Kind("torch.cuda", (), None, _ALL_GPU_GROUPS + TORCH_GROUPS),
        Kind("rocm", _COMPARE, _version, ROCM_GROUPS, optional_op=True),
        Kind("app", ("=", "=="), _app, ()),
    )
}


# -- parsing -------------------------------------------------------------------------------------


def split_specs(specs: Iterable[str]) -> list[str]:
    """Tokens of several spec strings ("gpu, vram>=24GB" -> ["gpu", "vram>=24GB"])."""
    tokens: list[str] = []
    for spec in specs:
        tokens += [t for t in re.split(r"[\s,]+", spec.strip()) if t]
    return tokens


def parse_requirement(token: str, origin: str = "--require") -> Requirement:
    """Parse one token; RequirementError naming it when it is malformed."""
    text = token.strip()
    if text.startswith("!") or text.lower().startswith("no:"):
        fid = text[1:] if text.startswith("!") else text[3:]
        if not _FINDING_ID.match(fid):
            raise RequirementError(
                f"bad requirement {token!r}: {fid!r} is not a finding id "
                "(like nvidia.driver-library-mismatch)"
            )
        return Requirement(text, "finding", value=fid, origin=origin)
    match = _TOKEN.match(text)
    if not match:
        raise RequirementError(
            f"bad requirement {token!r}: expected NAME, NAME>=VALUE or no:FINDING-ID "
            f"(names: {', '.join(KINDS)})"
        )
    name, op, value = match["name"], match["op"], match["value"]
    kind = KINDS.get(name)
    if kind is None:
        hint = (
            f"; to require that finding {name} does not fire, write no:{name}"
            if _FINDING_ID.match(name)
            else ""
        )
        raise RequirementError(f"unknown requirement {token!r} (names: {', '.join(KINDS)}{hint})")
    if op is None:
        if kind.ops and not kind.optional_op:
            raise RequirementError(
                f"bad requirement {token!r}: {name} needs a comparison, "
                f"e.g. {name}{kind.ops[0]}{_EXAMPLES.get(name, 'VALUE')}"
            )
        return Requirement(text, name, origin=origin)
    if op not in kind.ops:
        allowed = " ".join(kind.ops) if kind.ops else "none"
        raise RequirementError(
            f"bad requirement {token!r}: {name} takes no {op!r} (operators allowed: {allowed})"
        )
    op = "=" if op == "==" else op
    assert value is not None
    if name == "vendor":
        choices = tuple(v.lower() for v in value.split("|"))
        unknown = [c for c in choices if c not in GPU_GROUPS]
        if unknown or not choices:
            raise RequirementError(
                f"bad requirement {token!r}: unknown vendor {unknown[0]!r} "
                f"(known: {'|'.join(GPU_GROUPS)})"
                if unknown
                else f"bad requirement {token!r}"
            )
        return Requirement(text, name, op, value.lower(), choices, origin)
    try:
        normal = kind.value(value) if kind.value else value
    except ValueError as exc:
        raise RequirementError(f"bad requirement {token!r}: {exc}") from None
    return Requirement(text, name, op, normal, origin=origin)


_EXAMPLES = {
    "gpus": "2",
    "compute": "8.0",
    "vram": "24GB",
    "driver": "550",
    "cuda-driver": "12.4",
    "app": "vllm",
}


def parse_requirements(specs: Iterable[str], origin: str = "--require") -> list[Requirement]:
    """Parse spec strings (each may hold several tokens); RequirementError on the first bad one."""
    return [parse_requirement(t, origin) for t in split_specs(specs)]


def expand_apps(
    requirements: Sequence[Requirement], matrices_loader: Callable[[], Any]
) -> list[Requirement]:
    """Replace each `app=NAME` by the app's own requirements; RequirementError for an unknown app."""
    if not any(r.kind == "app" for r in requirements):
        return list(requirements)
    try:
        provider = importlib.import_module(APP_REQUIREMENTS_MODULE)
        lookup = provider.preflight_requirements
    except (ImportError, AttributeError):
        provider, lookup = None, None
    matrices = matrices_loader() if lookup is not None else None
    out: list[Requirement] = []
    for req in requirements:
        if req.kind != "app":
            out.append(req)
            continue
        specs = lookup(req.value, matrices) if lookup is not None else None
        if specs is None:
            known = (
                list(getattr(provider, "known_apps", lambda _m: [])(matrices)) if provider else []
            )
            listed = (
                f"known: {', '.join(sorted(known))}"
                if known
                else "this envdoctor knows no application requirements yet"
            )
            raise RequirementError(f"unknown app {req.value!r} in {req.text!r} ({listed})")
        try:
            out += parse_requirements(specs, origin=f"{req.text}")
        except RequirementError as exc:
            raise RequirementError(f"the requirements of {req.text} are malformed: {exc}") from None
    return out


# -- what judging needs --------------------------------------------------------------------------


def groups_needed(requirements: Iterable[Requirement]) -> set[str]:
    """The fact groups the requirements read directly (finding requirements add their checks')."""
    needed: set[str] = set()
    for req in requirements:
        kind = KINDS.get(req.kind)
        if kind is not None:
            needed.update(kind.groups)
    return needed


def finding_ids_needed(requirements: Iterable[Requirement]) -> set[str]:
    """The finding ids whose checks must run."""
    ids: set[str] = set()
    for req in requirements:
        if req.kind == "finding":
            ids.add(req.value or "")
        elif req.kind == "torch.cuda":
            ids.update(TORCH_CUDA_FINDINGS)
    return ids
