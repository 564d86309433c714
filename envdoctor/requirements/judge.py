"""Judging a snapshot by preflight requirements (`envdoctor.requirements.parse` parses them).

A verdict is met, unmet, or unknown (the facts could not be read: a tool hung, a probe failed);
preflight treats unknown as not met. Per-GPU requirements (compute, vram) and `vendor` narrow the
GPUs that count; `torch.cuda` is decided by the Python-stack checks' findings, not re-derived here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from envdoctor.requirements.parse import (
    GPU_GROUPS,
    MET,
    NVIDIA_DRIVER_GROUPS,
    ROCM_GROUPS,
    TORCH_CUDA_FINDINGS,
    UNKNOWN,
    UNMET,
    Requirement,
    size_mib,
)

if TYPE_CHECKING:
    from envdoctor.model.findings import Finding
    from envdoctor.model.report import CheckOutcome
    from envdoctor.model.snapshot import Snapshot

# -- judging -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """The answer for one requirement: met / unmet / unknown, why, and what to do."""

    requirement: Requirement
    state: str
    reason: str
    evidence: tuple[tuple[str, str, str | None], ...] = ()  # (fact, actual, expected)
    finding: Finding | None = None  # the finding that decided it, when one did

    @property
    def ok(self) -> bool:
        """Whether the requirement is met."""
        return self.state == MET


@dataclass(frozen=True)
class Gpu:
    """One GPU as the requirements see it. Memory in MiB."""

    vendor: str
    index: Any
    name: str
    compute_capability: str | None
    memory_total_mib: float | None

    @property
    def label(self) -> str:
        """'GPU 0 (NVIDIA GeForce RTX 4090)'."""
        return (
            f"{self.vendor} GPU {self.index} ({self.name})"
            if self.name
            else f"{self.vendor} GPU {self.index}"
        )


@dataclass
class Inventory:
    """The GPUs the snapshot lists, and why some vendors could not be listed."""

    gpus: list[Gpu] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)  # "nvidia.gpus: failed (nvidia-smi timed out)"
    absent: list[str] = field(default_factory=list)  # "nvidia.gpus: no NVIDIA GPU on the PCI bus"
    missing: list[str] = field(default_factory=list)  # groups no probe filled


def inventory(snap: Snapshot) -> Inventory:
    """Every GPU of every vendor in the snapshot."""
    inv = Inventory()
    for vendor, name in GPU_GROUPS.items():
        group = snap.group(name)
        if group is None:
            inv.missing.append(name)
            continue
        if not group.collected:
            (inv.failed if group.status.value == "failed" else inv.absent).append(
                f"{name}: {group.reason or group.status.value}"
            )
            continue
        for i, gpu in enumerate(group.data.get("gpus") or []):
            if not isinstance(gpu, dict):
                continue
            inv.gpus.append(
                Gpu(
                    vendor,
                    gpu.get("index", i),
                    str(gpu.get("name") or ""),
                    _opt_str(gpu.get("compute_capability")),
                    _memory_mib(gpu),
                )
            )
    return inv


def _memory_mib(gpu: dict) -> float | None:
    value = gpu.get("memory_total_mib")
    if isinstance(value, (int, float)):
        return float(value)
    value = gpu.get("memory_total_bytes")
    if isinstance(value, (int, float)):
        return float(value) / 2**20
    return None


def _opt_str(value: Any) -> str | None:
    return None if value is None or value == "" else str(value)


_PLAIN_VERSION = re.compile(
    r"(\d+(?:\.\d+)*)(?:[+-][0-9A-Za-z.+-]*)?"
)  # 550.54.14, 2.13.0+cpu, 6.2.4-120


def release_numbers(actual: str) -> list[int] | None:
    """The release components of a version as `packaging` reads them (None when unparsable):
    the common spellings directly, anything else (V13.0, 2.8.0.dev1, epochs) through packaging."""
    plain = _PLAIN_VERSION.fullmatch(str(actual).strip())
    if plain:
        return [int(p) for p in plain.group(1).split(".")]
    from envdoctor.model.versions import parse as parse_version

    version = parse_version(actual)
    return list(version.release) if version is not None else None


def compare_versions(actual: str, op: str, wanted: str) -> bool | None:
    """`actual op wanted` on as many components as `wanted` has; None when actual is unparsable."""
    release = release_numbers(actual)
    if release is None:
        return None
    want = [int(p) for p in wanted.split(".")]
    have = (release + [0] * len(want))[: len(want)]
    return _apply(have, op, want)


def _apply(have: Any, op: str, want: Any) -> bool:
    return {
        ">=": have >= want,
        ">": have > want,
        "<=": have <= want,
        "<": have < want,
        "=": have == want,
        "!=": have != want,
    }[op]


class Judge:
    """Judges requirements against one snapshot and the outcome of the finding checks."""

    def __init__(
        self,
        snap: Snapshot,
        requirements: Sequence[Requirement],
        checks_outcome: CheckOutcome | None = None,
        emitters: dict[str, list[Any]] | None = None,
    ) -> None:
        self.snap = snap
        self.requirements = list(requirements)
        self.outcome = checks_outcome
        self.emitters = emitters or {}  # finding id -> checks that emit it
        self.inv = inventory(snap)
        self.vendors = self._vendor_filter()
        self.count_needed = self._count_needed()

    # -- helpers ---------------------------------------------------------------------------------
    def _vendor_filter(self) -> tuple[str, ...] | None:
        choices = [set(r.choices) for r in self.requirements if r.kind == "vendor"]
        if not choices:
            return None
        allowed = set.intersection(*choices)
        return tuple(v for v in GPU_GROUPS if v in allowed)

    def _count_needed(self) -> int:
        need = 1
        for req in self.requirements:
            if req.kind == "gpus" and req.value is not None:
                n = int(req.value)
                need = max(need, {">=": n, ">": n + 1, "=": n}.get(req.op or "", 1))
        return need

    def _candidates(self) -> list[Gpu]:
        return [g for g in self.inv.gpus if self.vendors is None or g.vendor in self.vendors]

    def _per_gpu(self, req: Requirement, gpu: Gpu) -> tuple[bool, str]:
        if req.kind == "compute":
            if gpu.compute_capability is None:
                return False, f"{gpu.label}: no CUDA compute capability known"
            ok = compare_versions(gpu.compute_capability, req.op or ">=", req.value or "0")
            return bool(ok), f"{gpu.label}: compute capability {gpu.compute_capability}"
        if req.kind == "vram":
            if gpu.memory_total_mib is None:
                return False, f"{gpu.label}: memory size unknown"
            ok = _apply(gpu.memory_total_mib, req.op or ">=", size_mib(req.value or "0MiB"))
            return (
                ok,
                f"{gpu.label}: {gpu.memory_total_mib / 1024:.1f} GiB ({gpu.memory_total_mib:.0f} MiB)",
            )
        return True, gpu.label

    def qualifying(self) -> list[Gpu]:
        """The GPUs that satisfy the vendor and every per-GPU requirement."""
        per_gpu = [r for r in self.requirements if r.kind in ("compute", "vram")]
        return [g for g in self._candidates() if all(self._per_gpu(r, g)[0] for r in per_gpu)]

    def _no_gpu(self, req: Requirement, what: str = "no GPU found") -> Verdict:
        if self.inv.failed:
            return Verdict(req, UNKNOWN, f"could not list GPUs: {'; '.join(self.inv.failed)}")
        if not self.inv.absent:
            return Verdict(
                req, UNKNOWN, f"no probe listed GPUs ({', '.join(self.inv.missing)} not collected)"
            )
        detail = "; ".join(self.inv.absent)
        return Verdict(req, UNMET, f"{what} ({detail})", (("gpus", "0", "at least 1"),))

    # -- the verdicts ----------------------------------------------------------------------------
    def judge(self, req: Requirement) -> Verdict:
        """The verdict for one requirement."""
        method = {
            "gpu": self._gpus,
            "gpus": self._gpus,
            "vendor": self._vendor,
            "compute": self._per_gpu_req,
            "vram": self._per_gpu_req,
            "driver": self._driver,
            "cuda-driver": self._driver,
            "torch": self._torch,
            "torch.cuda": self._torch_cuda,
            "rocm": self._rocm,
            "finding": self._finding,
        }.get(req.kind)
        if method is None:
            return Verdict(req, UNKNOWN, f"{req.kind} requirements cannot be judged here")
        return method(req)

    def judge_all(self) -> list[Verdict]:
        """Verdicts for every requirement, in the order given."""
        return [self.judge(r) for r in self.requirements]

    def _gpus(self, req: Requirement) -> Verdict:
        found = self.qualifying()
        if req.kind == "gpu":
            op, want = ">=", 1
        else:
            op, want = req.op or ">=", int(req.value or 0)
        if _apply(len(found), op, want):
            names = ", ".join(g.label for g in found) or "none"
            return Verdict(
                req,
                MET,
                f"{len(found)} GPU(s): {names}",
                (("gpus", str(len(found)), f"{op} {want}"),),
            )
        if not self.inv.gpus:
            return self._no_gpu(req)
        narrowed = len(found) != len(self.inv.gpus)
        why = " that meet the other requirements" if narrowed else ""
        return Verdict(
            req,
            UNMET,
            f"{len(found)} GPU(s){why}, need {op} {want}",
            (("gpus", str(len(found)), f"{op} {want}"),),
        )

    def _vendor(self, req: Requirement) -> Verdict:
        found = [g for g in self.inv.gpus if g.vendor in req.choices]
        if found:
            return Verdict(req, MET, ", ".join(g.label for g in found))
        if not self.inv.gpus:
            return self._no_gpu(req, f"no {'/'.join(req.choices)} GPU found")
        seen = ", ".join(g.label for g in self.inv.gpus)
        return Verdict(
            req,
            UNMET,
            f"no {' or '.join(req.choices)} GPU; found {seen}",
            (
                (
                    "gpu.vendor",
                    ", ".join(sorted({g.vendor for g in self.inv.gpus})),
                    "|".join(req.choices),
                ),
            ),
        )

    def _per_gpu_req(self, req: Requirement) -> Verdict:
        candidates = self._candidates()
        if not candidates:
            return self._no_gpu(req)
        results = [(g, *self._per_gpu(req, g)) for g in candidates]
        good = [r for r in results if r[1]]
        expected = f"{req.op} {req.value}"
        if len(good) >= self.count_needed:
            return Verdict(req, MET, "; ".join(r[2] for r in good))
        bad = [r for r in results if not r[1]]
        many = (
            f"{len(good)} of {len(candidates)} GPU(s) meet it, need {self.count_needed}: "
            if self.count_needed > 1 or len(candidates) > 1
            else ""
        )
        return Verdict(
            req,
            UNMET,
            f"{many}" + "; ".join(r[2] for r in bad) + f" (needs {expected})",
            tuple(
                (f"{req.kind}[{g.index}]", text.split(": ", 1)[-1], expected)
                for g, _ok, text in bad
            ),
        )

    def _driver(self, req: Requirement) -> Verdict:
        key = "driver_version" if req.kind == "driver" else "cuda_driver_max"
        value, failures, absences = None, [], []
        for name in NVIDIA_DRIVER_GROUPS:
            group = self.snap.group(name)
            if group is None:
                continue
            if group.collected:
                value = value or _opt_str(group.data.get(key))
            elif group.status.value == "failed":
                failures.append(f"{name}: {group.reason}")
            else:
                absences.append(f"{name}: {group.reason}")
        what = (
            "NVIDIA driver version" if req.kind == "driver" else "highest CUDA the driver supports"
        )
        if value is None:
            if failures:
                return Verdict(req, UNKNOWN, f"could not read the {what}: {'; '.join(failures)}")
            detail = "; ".join(absences) or "no NVIDIA probe ran"
            return Verdict(
                req,
                UNMET,
                f"no NVIDIA driver found ({detail})",
                ((key, "none", f"{req.op} {req.value}"),),
            )
        return self._version_verdict(req, key, value, what)

    def _version_verdict(self, req: Requirement, fact: str, value: str, what: str) -> Verdict:
        ok = compare_versions(value, req.op or ">=", req.value or "0")
        if ok is None:
            return Verdict(req, UNKNOWN, f"the {what} {value!r} is not a version")
        state = MET if ok else UNMET
        return Verdict(
            req,
            state,
            f"{what} is {value}" + ("" if ok else f", needs {req.op} {req.value}"),
            ((fact, value, f"{req.op} {req.value}"),),
        )

    def torch_version(self) -> tuple[str | None, str | None]:
        """(torch version, why unknown) from python.torch or the package list."""
        group = self.snap.group("python.torch")
        if group is not None and group.collected and group.data.get("version"):
            return str(group.data["version"]), None
        packages = self.snap.group("python.packages")
        if packages is not None and packages.collected:
            version = (packages.data.get("packages") or {}).get("torch")
            return (str(version), None) if version else (None, None)
        reasons = [
            f"{g.name}: {g.reason}" for g in (group, packages) if g is not None and not g.collected
        ]
        return None, "; ".join(reasons) or "no Python probe ran"

    def _torch_missing(self, req: Requirement, why: str | None) -> Verdict:
        if why is not None:
            return Verdict(req, UNKNOWN, f"could not tell whether torch is installed: {why}")
        where = self.snap.fact("python", "prefix") or self.snap.fact("python", "executable")
        place = f" in {where}" if where else ""
        return Verdict(
            req,
            UNMET,
            f"torch is not installed{place}",
            (("python.packages.torch", "none", "installed"),),
        )

    def _torch(self, req: Requirement) -> Verdict:
        version, why = self.torch_version()
        if version is None:
            return self._torch_missing(req, why)
        if req.op is None:
            return Verdict(req, MET, f"torch {version}")
        return self._version_verdict(req, "python.torch.version", version, "torch version")

    def _rocm(self, req: Requirement) -> Verdict:
        value, reasons, failed = None, [], False
        for name in ROCM_GROUPS:
            group = self.snap.group(name)
            if group is None:
                continue
            if group.collected:
                value = value or _opt_str(
                    group.data.get("version") or group.data.get("rocm_version")
                )
            else:
                failed = failed or group.status.value == "failed"
                reasons.append(f"{name}: {group.reason}")
        if value is None:
            detail = "; ".join(reasons) or "no ROCm probe ran"
            return Verdict(req, UNKNOWN if failed else UNMET, f"ROCm not found ({detail})")
        if req.op is None:
            return Verdict(req, MET, f"ROCm {value}")
        return self._version_verdict(req, "rocm.version", value, "ROCm version")

    def _torch_cuda(self, req: Requirement) -> Verdict:
        if not self.inv.gpus:
            return self._no_gpu(req, "no GPU for torch to use")
        version, why = self.torch_version()
        if version is None:
            return self._torch_missing(req, why)
        known = [fid for fid in TORCH_CUDA_FINDINGS if fid in self.emitters]
        if not known:
            return Verdict(
                req, UNKNOWN, "this envdoctor has no checks of torch builds to decide it"
            )
        unknowns = []
        for fid in known:
            verdict = self._finding(Requirement(f"no:{fid}", "finding", value=fid, origin=req.text))
            if verdict.state == UNMET:
                return Verdict(req, UNMET, verdict.reason, verdict.evidence, verdict.finding)
            if verdict.state == UNKNOWN:
                unknowns.append(verdict.reason)
        if unknowns:
            return Verdict(req, UNKNOWN, "; ".join(unknowns))
        return Verdict(
            req, MET, f"torch {version} can use {', '.join(g.label for g in self.inv.gpus)}"
        )

    def _finding(self, req: Requirement) -> Verdict:
        fid = req.value or ""
        fired = [f for f in (self.outcome.findings if self.outcome else []) if f.id == fid]
        if fired:
            f = fired[0]
            return Verdict(
                req,
                UNMET,
                f"{f.title}",
                tuple((e.fact, e.actual, e.expected) for e in f.evidence),
                f,
            )
        checks = self.emitters.get(fid, [])
        if not checks:
            return Verdict(req, UNKNOWN, f"no check in this envdoctor reports {fid}")
        missing = []
        runnable = 0
        for chk in checks:
            groups = [self.snap.group(name) for name in chk.needs]
            failed = [g for g in groups if g is not None and g.status.value == "failed"]
            if failed:
                return Verdict(
                    req, UNKNOWN, f"{fid} not checked: {failed[0].name} failed ({failed[0].reason})"
                )
            absent_names = [n for n, g in zip(chk.needs, groups, strict=True) if g is None]
            if absent_names:
                missing += absent_names  # no probe fills it: this check cannot judge a live machine
            else:
                runnable += 1
        if not runnable:
            return Verdict(
                req,
                UNKNOWN,
                f"{fid} not checked: no probe collected {', '.join(sorted(set(missing)))}",
            )
        return Verdict(req, MET, f"{fid} did not fire")
