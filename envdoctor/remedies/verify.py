"""The verifier: a fix is shown only when re-diagnosis with its effect applied proves it.

For each finding that has fixes with an effect, each such fix's effect is applied to a copy of the
snapshot (`apply`), and the checks that read the changed fact groups -- plus the check that
raised the finding, and checks the diagnosis did not load that read the changed groups -- run
again. The fix is kept when the finding is gone and those checks leave no error (new, or there
before and not cured by it); otherwise it is dropped and recorded in the finding's
`rejected_fixes` with the reason (the new error's title, or "the finding remains"). A kept fix
says which facts the verdict relied on and, when a check that would judge it could not run for
want of a fact, the assumption the user must make true (`verified` False). Fixes without an
effect (advice, links) are shown unverified (`verified` None).

Lazy by construction: only findings that exist are looked at, tables are read by the checks that
run, and each distinct effect is re-diagnosed once per snapshot.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from envdoctor.fix_effects import Effect
from envdoctor.model.checkdef import Check
from envdoctor.model.findings import Finding, Fix, RejectedFix, Severity
from envdoctor.model.snapshot import FactGroup, Snapshot, Status, collected

_SOURCE = "fix-effect"
# groups a torch build changes / a driver change touches
_TORCH_GROUPS = ("python.torch", "python.packages", "python.deep")
_DRIVER_GROUPS = ("nvidia.driver", "nvidia.pci")


def _variant_backend(variant: str) -> str:
    if variant.startswith("cu"):
        return "cuda"
    if variant.startswith("rocm"):
        return "rocm"
    if variant.startswith("xpu"):
        return "xpu"
    return "cpu"


def _group(snap: Snapshot, name: str) -> FactGroup:
    """A writable copy of group `name` (a new collected one when it was missing)."""
    group = snap.group(name)
    if group is None or not group.collected:
        fresh = collected(name, _SOURCE, {})
        if group is not None:
            fresh.confidence = group.confidence
        snap.groups[name] = fresh
        return fresh
    group = replace(group, data=copy.deepcopy(group.data))
    snap.groups[name] = group
    return group


def _apply_torch(snap: Snapshot, effect: Effect, ms: Any) -> None:
    from envdoctor.queries import torch as tq

    build = effect.torch
    assert build is not None
    torch = _group(snap, "python.torch")
    version = build.version
    backend = _variant_backend(build.variant)
    os_name = str(torch.data.get("os") or "linux")
    wheel_os = "windows" if os_name.startswith("win") else "linux"
    arches = tq.variant_arches(ms, version, build.variant, wheel_os) if backend == "cuda" else None
    torch.data.update(
        {
            "version": f"{version}+{build.variant}",
            "metadata_version": version,
            "variant": build.variant,
            "backend": backend,
            "build": backend,
            "cuda": tq.variant_cuda(ms, build.variant) if backend == "cuda" else None,
            "arch_list": arches,
            "arch_list_source": "matrix:torch_arch (the build the fix installs)",
            "version_py_read": True,
        }
    )
    if arches is None:
        torch.data.pop("arch_list", None)
    # the measured build is gone: what --deep saw belongs to the old one
    snap.groups.pop("python.deep", None)
    packages = _group(snap, "python.packages")
    listed = dict(packages.data.get("packages") or {})
    listed["torch"] = version
    # the reinstall pins the installed companions to the release's minors, from the same index
    for name, minor in tq.companion_versions(ms, version).items():
        if torch.data.get(name) or listed.get(name):
            torch.data[name] = f"{minor}.0+{build.variant}"
            listed[name] = f"{minor}.0"
    packages.data["packages"] = listed


def _apply_driver(snap: Snapshot, effect: Effect, ms: Any, os_name: str) -> None:
    from envdoctor.model.versions import parse
    from envdoctor.queries import nvidia as nq

    driver = _group(snap, "nvidia.driver")
    have = parse(str(driver.data.get("driver_version") or ""))
    want = str(effect.driver_min or (effect.driver_branch or "").lstrip("Rr"))
    wanted = parse(want)
    if wanted is None:
        return
    if effect.driver_branch and have is not None and str(have.release[0]) == want:
        return  # already on that branch
    if not effect.driver_branch and have is not None and have >= wanted:
        return
    driver.data["driver_version"] = want
    driver.data["cuda_driver_max"] = nq.max_cuda_for_driver(ms, want, os_name)
    driver.data["driver_loaded"] = True
    # a newly installed driver binds the NVIDIA GPUs on the bus
    pci = snap.group("nvidia.pci")
    if pci is not None and pci.collected:
        bus = _group(snap, "nvidia.pci")
        bus.data["devices"] = [
            {**d, "driver": "nvidia"} if isinstance(d, dict) and d.get("is_gpu") else d
            for d in bus.data.get("devices") or []
        ]


def _apply_settings(snap: Snapshot, effect: Effect) -> set[str]:
    touched: set[str] = set()
    for key, value in effect.settings.items():
        name, _, field = key.rpartition(".")
        if not name:
            continue
        _group(snap, name).data[field] = value
        touched.add(name)
    return touched


def _apply_env(snap: Snapshot, effect: Effect) -> set[str]:
    """Environment changes land in every group that records variables (`variables` dicts)."""
    touched: set[str] = set()
    for name, group in list(snap.groups.items()):
        if not group.collected or not isinstance(group.data.get("variables"), dict):
            continue
        group = _group(snap, name)
        variables = dict(group.data["variables"])
        variables.update(effect.env_set)
        for var in effect.env_unset:
            variables.pop(var, None)
        group.data["variables"] = variables
        touched.add(name)
    return touched | _apply_cuda_env(snap, effect)


def _apply_cuda_env(snap: Snapshot, effect: Effect) -> set[str]:
    """CUDA's own variables land in cuda.env (made when the snapshot had none), recorded as its
    probe records them, so the checks that read which GPUs CUDA shows judge a fix that narrows
    them."""
    from envdoctor.probes.cuda_env import PLAIN_VARIABLES, plain_entry

    changed = [v for v in PLAIN_VARIABLES if v in effect.env_set or v in effect.env_unset]
    if not changed:
        return set()
    group = _group(snap, "cuda.env")
    for var in changed:
        value = None if var in effect.env_unset else effect.env_set.get(var)
        group.data[var] = plain_entry(var, value)
    return {"cuda.env"}


def _apply_user_groups(snap: Snapshot, effect: Effect) -> set[str]:
    touched: set[str] = set()
    for name, group in list(snap.groups.items()):
        user = group.data.get("user") if group.collected else None
        if not isinstance(user, dict) or "groups" not in user:
            continue
        group = _group(snap, name)
        user = dict(group.data["user"])
        user["groups"] = sorted(set(user.get("groups") or []) | set(effect.groups_joined))
        user["member_of"] = sorted(set(user.get("member_of") or []) | set(effect.groups_joined))
        group.data["user"] = user
        touched.add(name)
    return touched


def apply(effect: Effect, snap: Snapshot, ms: Any) -> tuple[Snapshot, set[str]]:
    """A copy of `snap` with the effect applied, and the names of the groups it changed."""
    after = Snapshot(dict(snap.groups), snap.origin, snap.created_at, snap.envdoctor_version)
    touched: set[str] = set()
    if effect.torch is not None:
        _apply_torch(after, effect, ms)
        touched.update(_TORCH_GROUPS)
    if effect.driver_min or effect.driver_branch:
        windows = str(snap.fact("python", "platform") or "").startswith("win")
        _apply_driver(after, effect, ms, "windows" if windows else "linux")
        touched.update(_DRIVER_GROUPS)
    if effect.python:
        python = _group(after, "python")
        python.data["version"] = f"{effect.python}.0"
        touched.add("python")
    if effect.packages_added or effect.packages_removed:
        packages = _group(after, "python.packages")
        listed = dict(packages.data.get("packages") or {})
        for name, spec in effect.packages_added.items():
            listed[name] = spec.lstrip("=<>~! ") or listed.get(name) or "0"
        for name in effect.packages_removed:
            listed.pop(name, None)
        packages.data["packages"] = listed
        touched.add("python.packages")
        frameworks = after.group("python.frameworks")
        if effect.packages_removed and frameworks is not None and frameworks.collected:
            fw = _group(after, "python.frameworks")
            fw.data["packages"] = {
                k: v
                for k, v in (fw.data.get("packages") or {}).items()
                if k not in effect.packages_removed
            }
            touched.add("python.frameworks")
    if effect.env_set or effect.env_unset:
        touched |= _apply_env(after, effect)
    if effect.groups_joined:
        touched |= _apply_user_groups(after, effect)
    touched |= _apply_settings(after, effect)
    return after, touched


@dataclass(frozen=True)
class Verdict:
    """What re-diagnosis said about one effect: `cleared` finding ids no longer raised,
    `new_errors` (id, title) the re-run checks still raise, `relies_on` the groups they read,
    `unchecked` reasons why a check that would judge the change could not run."""

    remaining: frozenset[str]
    new_errors: tuple[tuple[str, str], ...]
    relies_on: tuple[str, ...]
    unchecked: tuple[str, ...]
    judged: bool = True  # a check on facts (not on pasted text) can raise the finding


def _unknowns(effect: Effect, snap: Snapshot) -> tuple[str, ...]:
    """The facts a fix of this kind is judged against that the snapshot lacks, as assumptions."""
    named = (snap.data("pasted.text") or {}).get("gpus") or []  # GPUs a paste names in words
    gpu_known = (
        snap.has("nvidia.gpus")
        or snap.has("nvidia.pci")
        or any(str(name).startswith("NVIDIA") for name in named)
    )
    out = []
    if effect.torch is not None and effect.torch.variant.startswith("cu"):
        if not snap.has("nvidia.driver"):
            out.append(f"assumes your driver runs {effect.torch.variant}; it was not given")
        if not gpu_known:
            out.append(f"assumes {effect.torch.variant} has kernels for your GPU; it was not given")
    if (effect.driver_min or effect.driver_branch) and not gpu_known:
        out.append(
            "assumes your GPU's architecture is still supported by that driver; "
            "the GPU model was not given"
        )
    return tuple(out)


def _environment_view(snap: Snapshot, python: str) -> Snapshot | None:
    """The machine as seen from an application's venv whose interpreter is `python`."""
    from envdoctor.checks import apps_facts as af

    for entry in snap.fact("apps.detected", "apps") or []:
        if not isinstance(entry, dict):
            continue
        view = af.venv_snapshot(snap, entry)
        if view is not None and view.fact("python", "executable") == python:
            return view
    return None


def _torch_checks() -> list[Check]:
    from envdoctor.checks import load_checks

    return load_checks(("torch_gpu", "torch_packages"))


def _real(chk: Check) -> Check:
    module = getattr(chk.function, "stand_in_for", None)
    if module is None:
        return chk
    from envdoctor.checks import load_checks

    return next((c for c in load_checks((module,)) if c.id == chk.id), chk)


class Verifier:
    """Re-diagnoses fixes of one snapshot (see module doc); reuse it for all of its findings."""

    def __init__(self, snap: Snapshot, ms: Any, checks: Sequence[Check]) -> None:
        self.snap = snap
        self.ms = ms
        self.checks = list(checks)
        self._before_errors: set[str] | None = None
        self._verdicts: dict[str, Verdict] = {}
        self._index: dict[str, Any] | None = None

    def _relevant(self, touched: set[str], finding_id: str) -> list[Check]:
        """The checks that read a changed group or raised the finding; a check standing in for a
        module the diagnosis did not import (its needs were missing) is loaded for real."""
        out = []
        for c in self.checks:
            if any(n.startswith("pasted.") for n in c.needs):
                continue  # a pasted error message stays in the paste: it cannot judge a fix
            if finding_id in c.ids or touched & set(c.needs) or touched & set(c.needs_any):
                out.append(_real(c))
        return out

    def _unloaded(self, after: Snapshot, touched: set[str]) -> list[Check]:
        """Checks outside the diagnosis' set (preflight loads only some modules) that can run on
        the changed facts and read one of the changed groups: they judge the fix too."""
        from envdoctor.checks import (
            CHECK_MODULES,
            TEXT_ONLY_CHECK_MODULES,
            load_checks,
            modules_runnable,
            read_index,
        )

        have = {c.id for c in self.checks}
        collected = {n for n in after.groups if after.has(n)}
        modules = tuple(m for m in CHECK_MODULES if m not in TEXT_ONLY_CHECK_MODULES)
        if self._index is None:
            self._index = read_index() or {}
        out = []
        runnable = modules_runnable(collected, modules, touching=touched, index=self._index or None)
        for module in runnable:
            for chk in load_checks((module,)):
                if chk.id not in have and set(chk.needs + chk.needs_any) & touched:
                    out.append(chk)
        return out

    def verdict(self, effect: Effect, finding_id: str, before: Iterable[Finding]) -> Verdict:
        """Re-diagnose with `effect` applied (cached per effect and finding). An effect on another
        environment (an application's own venv) is applied to that venv's view of the machine
        and judged by the torch checks there: the finding is gone when no torch error is left."""
        from envdoctor.diagnosis.engine import missing_reason, not_applicable

        key = json.dumps([effect.to_dict(), finding_id], sort_keys=True, default=str)
        if key in self._verdicts:
            return self._verdicts[key]
        base = self.snap
        own = str(self.snap.fact("python", "executable") or "")
        judge_id = finding_id
        if effect.environment and effect.environment != own:
            view = _environment_view(self.snap, effect.environment)
            if view is not None:
                base, judge_id = view, "torch.cpu-build-on-gpu-host"
        after, touched = apply(effect, base, self.ms)
        if base is self.snap:
            checks = self._relevant(touched, finding_id) + self._unloaded(after, touched)
        else:
            checks = _torch_checks()
        remaining: set[str] = set()
        new_errors: list[tuple[str, str]] = []
        relies: set[str] = set()
        unchecked: list[str] = []
        for chk in checks:
            if not_applicable(chk, after):
                continue
            reason = missing_reason(chk, after, self.ms)
            if reason is not None:
                if touched & (set(chk.needs) | set(chk.needs_any)):
                    unchecked.append(f"{chk.id} not re-checked ({reason})")
                continue
            relies.update(n for n in chk.needs + chk.needs_any if after.has(n))
            try:
                found = chk.run(after, self.ms)
            except Exception:  # noqa: BLE001 - a check crashing on the new facts proves nothing
                unchecked.append(f"{chk.id} could not judge the change")
                continue
            for f in found:
                remaining.add(f.id)
                # an error left by a check that reads what the fix changed means the machine is
                # still broken after it: new, or there before and not cured by it
                if f.severity is Severity.ERROR and f.id != finding_id:
                    new_errors.append((f.id, f.title))
        if base is not self.snap:
            # the app finding is gone when the venv's torch is left without an error
            remaining.discard(judge_id)
            if not new_errors:
                remaining.discard(finding_id)
            judged = True
        else:
            judged = any(finding_id in c.ids for c in checks)
        verdict = Verdict(
            frozenset(remaining),
            tuple(new_errors),
            tuple(sorted(relies)),
            tuple(unchecked),
            judged,
        )
        self._verdicts[key] = verdict
        return verdict

    def check_fix(self, fix: Fix, finding: Finding, before: Sequence[Finding]) -> Fix | RejectedFix:
        """The fix annotated with its verdict, or why it is rejected."""
        if fix.effect is None or fix.effect.empty:
            return fix
        verdict = self.verdict(fix.effect, finding.id, before)
        what = fix.effect.describe()
        if verdict.new_errors:
            _, title = verdict.new_errors[0]
            return RejectedFix(fix.summary, f"{what}: {title}")
        if finding.id in verdict.remaining:
            return RejectedFix(fix.summary, f"{what}: {finding.id} remains after it")
        said = " ".join(fix.assumptions)
        unknown = [u for u in _unknowns(fix.effect, self.snap) if u.split(" ")[2] not in said]
        if not verdict.judged:
            unknown.append(
                f"no check on facts judges {finding.id}: that this clears it is not proven"
            )
        assumptions = tuple(dict.fromkeys((*fix.assumptions, *unknown)))
        return replace(
            fix,
            verified=not assumptions,
            relies_on=tuple(dict.fromkeys((*fix.relies_on, *verdict.relies_on))),
            assumptions=assumptions,
        )


def _replacements(
    finding: Finding,
    kept: list[Fix],
    rejected: list[RejectedFix],
    verifier: Verifier,
    findings: Sequence[Finding],
    snap: Snapshot,
    ms: Any,
    host: Any,
) -> list[Fix]:
    """For plain fixes that cannot work here, the chooser's fix of the same kind, verified."""
    from envdoctor.remedies import RemedySpec, resolve
    from envdoctor.remedies.adapt import replacement

    plain = {f.summary: f for f in finding.fixes if f.assumes is None}
    kinds = []
    for r in rejected:
        fix = plain.get(r.summary)
        kind = replacement(fix) if fix is not None else None
        if kind and kind not in kinds:
            kinds.append(kind)
    out: list[Fix] = []
    for kind in kinds:
        found = resolve(RemedySpec(kind), snap, ms, host)
        for fix in found if isinstance(found, list) else []:
            if any(fix.summary == k.summary for k in (*kept, *out)):
                continue
            result = verifier.check_fix(fix, finding, findings)
            if isinstance(result, Fix):
                out.append(result)
    return out


def verify_findings(
    findings: Sequence[Finding], snap: Snapshot, ms: Any, checks: Sequence[Check]
) -> list[Finding]:
    """Every finding with its fixes verified: unproven ones moved to `rejected_fixes`. Fixes
    without declared assumptions (written before the chooser) are held to the host first."""
    from envdoctor.remedies.adapt import NO_GPU_GIVEN, adapt
    from envdoctor.remedies.host import host_of

    if not any(finding.fixes for finding in findings):
        return list(findings)
    host = host_of(snap)
    verifier = Verifier(snap, ms, checks)
    out = []
    for finding in findings:
        if not finding.fixes:
            out.append(finding)
            continue
        kept: list[Fix] = []
        rejected = list(finding.rejected_fixes)
        for fix in finding.fixes:
            adapted = adapt(fix, host, snap, ms)
            result = (
                adapted
                if isinstance(adapted, RejectedFix)
                else verifier.check_fix(adapted, finding, findings)
            )
            if isinstance(result, RejectedFix):
                rejected.append(result)
            else:
                kept.append(result)
        kept += _replacements(finding, kept, rejected, verifier, findings, snap, ms, host)
        if not kept and any(r.reason == NO_GPU_GIVEN for r in rejected):
            # nothing can be claimed without the GPU: say which fact would let envdoctor choose
            from envdoctor.remedies.spec import NeedsFact

            needs = NeedsFact(
                "the GPU model and driver",
                "run `nvidia-smi` on that machine (or `envdoctor check` there) and paste its output",
            )
            kept.append(Fix(needs.sentence(), ()))
        out.append(replace(finding, fixes=tuple(kept), rejected_fixes=tuple(rejected)))
    return out


__all__ = ["Verifier", "apply", "verify_findings", "Status"]
