"""The one fix chooser: a remedy named as data in, exact fixes for this machine out.

    resolve(RemedySpec("torch-build-for-gpu"), snapshot, matrices) -> list[Fix] | NeedsFact

Every fix envdoctor shows comes from here -- fact checks, application checks, preflight, the
platform fallbacks and the error signatures of triage -- so a wheel variant, a driver version
or a distribution command is decided in one place, from the facts and the matrices. Each fix
carries its `effect` and `assumes` (envdoctor.fix_effects); `envdoctor.remedies.verify` then
re-diagnoses with the effect applied before the fix is shown.

A signature refers to a remedy in TOML (see `spec.KINDS` for the kinds and their parameters):

    [[signature.remedy]]
    kind = "torch-build-for-gpu"
    capability = "{{m.sm}}"      # optional; templated from the match like the signature's text

`resolve` returns fixes ranked least disruptive first (`rank`), honouring the host's OS, GPU
vendor, privileges, WSL2, container and installer; a NeedsFact when it cannot choose without a
fact ("the GPU model"); an empty list when no remedy of that kind applies on this host.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from envdoctor.model.findings import Fix, Risk
from envdoctor.remedies.spec import KINDS, NeedsFact, RemedySpec

if TYPE_CHECKING:
    from envdoctor.model.snapshot import Snapshot
    from envdoctor.remedies.host import Host


def host_of(snap: Snapshot) -> Host:
    """The host the facts describe (see envdoctor.remedies.host)."""
    from envdoctor.remedies.host import host_of as read

    return read(snap)


__all__ = [
    "KINDS",
    "NeedsFact",
    "RemedySpec",
    "fixes_for",
    "host_of",
    "rank",
    "resolve",
    "resolve_all",
    "signature_fixes",
]

Resolver = Callable[[RemedySpec, "Snapshot", Any, "Host"], "list[Fix] | NeedsFact"]


def _torch(spec: RemedySpec, snap: Snapshot, ms: Any, host: Host) -> list[Fix] | NeedsFact:
    from envdoctor.remedies.torch_builds import torch_fixes

    return torch_fixes(spec, snap, ms, host)


def _source(spec: RemedySpec, snap: Snapshot, ms: Any, host: Host) -> list[Fix] | NeedsFact:
    from envdoctor.remedies.torch_builds import _capability, _source_build

    cc = _capability(spec.param("capability"))
    if cc is None:
        from envdoctor.checks.torch_context import torch_context

        caps = torch_context(snap, ms).capabilities
    else:
        caps = [cc]
    return [_source_build(caps)] if caps else NeedsFact("the GPU model", "run `nvidia-smi`")


def _python(spec: RemedySpec, snap: Snapshot, ms: Any, host: Host) -> list[Fix] | NeedsFact:
    from envdoctor.remedies.python_envs import python_fixes

    return python_fixes(spec, snap, ms, host)


def _package_python(spec: RemedySpec, snap: Snapshot, ms: Any, host: Host) -> list[Fix] | NeedsFact:
    from envdoctor.remedies.package_pythons import package_python_fixes

    return package_python_fixes(spec, snap, ms, host)


def _framework_libs(spec: RemedySpec, snap: Snapshot, ms: Any, host: Host) -> list[Fix] | NeedsFact:
    from envdoctor.remedies.framework_libs import framework_lib_fixes

    return framework_lib_fixes(spec, snap, ms, host)


def _app_release(spec: RemedySpec, snap: Snapshot, ms: Any, host: Host) -> list[Fix] | NeedsFact:
    from envdoctor.remedies.app_releases import app_release_fixes

    return app_release_fixes(spec, snap, ms, host)


def _platform_release(
    spec: RemedySpec, snap: Snapshot, ms: Any, host: Host
) -> list[Fix] | NeedsFact:
    from envdoctor.remedies.python_envs import release_for_platform

    return release_for_platform(spec, snap, ms, host)


def _system(name: str) -> Resolver:
    def run(spec: RemedySpec, snap: Snapshot, ms: Any, host: Host) -> list[Fix] | NeedsFact:
        from envdoctor.remedies import system

        return getattr(system, name)(spec, snap, ms, host)

    return run


def _package(spec: RemedySpec, snap: Snapshot, ms: Any, host: Host) -> list[Fix] | NeedsFact:
    from envdoctor.fix_effects import Assumes, Effect
    from envdoctor.installers.pip_commands import install, uninstall

    name = str(spec.param("name") or "")
    if not name:
        return NeedsFact("the package's name", "the remedy names none")
    inst = host.installer
    if spec.kind == "remove-package":
        return [
            Fix(
                str(spec.param("summary") or f"Uninstall {name}"),
                uninstall(inst, [name], dict(snap.fact("python.packages", "installers") or {})),
                Risk.SAFE,
                spec.param("url"),
                effect=Effect(packages_removed=(name,)),
                assumes=Assumes(installer=inst.tool),
            )
        ]
    wanted = str(spec.param("spec") or "")
    return [
        Fix(
            str(spec.param("summary") or f"Install {name}{wanted}"),
            (install(inst, [f"{name}{wanted}"]),),
            Risk.SAFE,
            spec.param("url"),
            effect=Effect(packages_added={name: wanted}),
            assumes=Assumes(installer=inst.tool),
        )
    ]


_RESOLVERS: dict[str, Resolver] = {
    "torch-build-for-gpu": _torch,
    "torch-build-for-driver": _torch,
    "driver-for-torch": _system("driver_fixes"),
    "driver": _system("driver_fixes"),
    "python-for-torch": _python,
    "python-for-package": _package_python,
    "cuda-libs-for-package": _framework_libs,
    "torch-release-for-platform": _platform_release,
    "app-release": _app_release,
    "package": _package,
    "remove-package": _package,
    "env-set": _system("env_fixes"),
    "env-unset": _system("env_fixes"),
    "join-group": _system("join_group"),
    "start-docker": _system("start_docker"),
    "container-toolkit": _system("container_toolkit"),
    "source-build": _source,
}


def resolve(
    spec: RemedySpec, snap: Snapshot, ms: Any, host: Host | None = None
) -> list[Fix] | NeedsFact:
    """Exact fixes for `spec` on the machine `snap` describes, ranked (see module doc)."""
    from envdoctor.remedies.host import host_of

    resolver = _RESOLVERS.get(spec.kind)
    if resolver is None:
        raise ValueError(f"unknown remedy kind {spec.kind!r}")
    host = host or host_of(snap)
    found = resolver(spec, snap, ms, host)
    if isinstance(found, NeedsFact):
        return found
    return rank([f for f in found if fits(f, host)])


def resolve_all(
    specs: Iterable[RemedySpec], snap: Snapshot, ms: Any
) -> tuple[list[Fix], list[NeedsFact]]:
    """Several remedies of one finding, in the order named; fixes ranked within each kind and
    kinds kept in the order given (a check names the least disruptive kind first)."""
    from envdoctor.remedies.host import host_of

    host = host_of(snap)
    fixes: list[Fix] = []
    needs: list[NeedsFact] = []
    for spec in specs:
        found = resolve(spec, snap, ms, host)
        if isinstance(found, NeedsFact):
            needs.append(found)
        else:
            fixes += [f for f in found if f.summary not in {x.summary for x in fixes}]
    return fixes, needs


def fixes_for(snap: Snapshot, ms: Any, *kinds: str | RemedySpec, **params: Any) -> tuple[Fix, ...]:
    """The fixes a check shows for these remedy kinds (in the order named; `params` apply to
    kinds given by name). When the chooser needs a fact it lacks, one fix says which and how to
    get it (no commands: nothing is claimed)."""
    specs = [k if isinstance(k, RemedySpec) else RemedySpec(k, params) for k in kinds]
    fixes, needs = resolve_all(specs, snap, ms)
    if not fixes and needs:
        return tuple(Fix(n.sentence(), ()) for n in needs[:1])
    return tuple(fixes)


def signature_fixes(
    entries: Iterable[Mapping[str, Any]],
    snap: Snapshot,
    ms: Any,
    fill: Callable[[str], str] | None = None,
) -> tuple[Fix, ...]:
    """The fixes for a signature's `[[signature.remedy]]` tables: string parameters are filled
    by `fill` (the signature's templating: "{{m.sm}}" -> "120") first; a parameter left empty
    or unfilled is dropped, so the chooser falls back to the snapshot's facts."""
    specs = []
    for entry in entries:
        params: dict[str, Any] = {}
        for key, value in entry.items():
            if isinstance(value, str) and fill is not None and key != "kind":
                value = fill(value)
            if isinstance(value, str) and (not value.strip() or "{{" in value):
                continue
            params[key] = value
        specs.append(RemedySpec.from_toml(params))
    return fixes_for(snap, ms, *specs)


def fits(fix: Fix, host: Host) -> bool:
    """Whether a fix's assumptions can hold on this host (unknown host facts do not exclude)."""
    a = fix.assumes
    if a is None:
        return True
    if a.os is not None and host.os is not None and host.os not in a.os:
        return False
    if a.wsl is not None and host.wsl is not None and bool(host.wsl) != a.wsl:
        return False
    if a.container is not None and host.container is not None and host.container != a.container:
        return False
    return not (a.vendor is not None and host.vendor is not None and a.vendor != host.vendor)


# least disruptive first: a package change before a setting, a driver last (reboot)
_DISRUPTION = {Risk.SAFE: 0, Risk.NEEDS_RESTART: 1, Risk.DESTRUCTIVE: 2}


def disruption(fix: Fix) -> tuple[int, int]:
    """How much a fix disturbs: (risk, scope) -- a driver change outranks everything else."""
    effect = fix.effect
    if effect is None:
        return (_DISRUPTION[fix.risk], 0)
    scope = 3 if (effect.driver_min or effect.driver_branch) else 0
    if effect.python:
        scope = max(scope, 2)
    if effect.torch and not effect.torch.exact:
        scope = max(scope, 1)  # a new torch release may break code pinned to the old one
    return (_DISRUPTION[fix.risk], scope)


def rank(fixes: list[Fix]) -> list[Fix]:
    """Least disruptive first; ties keep the chooser's order (its preference)."""
    return sorted(fixes, key=disruption)
