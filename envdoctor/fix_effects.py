"""What a fix changes (its effect on the facts) and what it takes for granted (its assumptions).

A fix is a claim: "run these commands and this finding goes away". To check the claim before it
is shown, each fix declares its `Effect` -- the facts it changes, in the snapshot's own terms --
and its `Assumes` -- where its commands work at all. The verifier (`envdoctor.remedies.verify`)
applies the effect to a copy of the snapshot and re-runs the checks that read those facts; the
chooser (`envdoctor.remedies.resolve`) writes fixes whose assumptions match the machine.

These are model records (no I/O, no tables): findings carry them, renderers print them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class TorchBuild:
    """The torch wheel a fix installs: `release` is a minor ("2.13") or `exact` the full release
    ("2.7.1"); `variant` is the wheel's label ("cu126", "rocm6.4", "cpu", "xpu")."""

    release: str
    variant: str
    exact: str | None = None

    @property
    def version(self) -> str:
        """The version the wheel reports: the exact release, else the minor's first patch."""
        return self.exact or f"{self.release}.0"

    def label(self) -> str:
        """ "torch 2.13.x (cu130)" for people."""
        return f"torch {self.exact or self.release + '.x'} ({self.variant})"


@dataclass(frozen=True)
class Effect:
    """The facts a fix changes. Every field is optional; an empty Effect changes nothing
    the verifier can see (advice, documentation) and such a fix is shown unverified.

    torch: the torch build installed afterwards. driver_min: the NVIDIA driver version the fix
    installs at least ("580"); driver_branch: the branch it installs ("R470"). python: the CPython
    minor of the new environment ("3.12"). packages_added: {name: version or specifier};
    packages_removed: names. env_set: {VAR: value}; env_unset: names. groups_joined: Unix groups
    the user joins. services_started: services running afterwards ("docker"). settings: other
    changed facts as {"group.key": value} (e.g. {"container.toolkit.installed": True,
    "platform.wsl.version": 2}); the verifier writes them into those groups.
    """

    torch: TorchBuild | None = None
    driver_min: str | None = None
    driver_branch: str | None = None
    python: str | None = None
    packages_added: Mapping[str, str] = field(default_factory=dict)
    packages_removed: tuple[str, ...] = ()
    env_set: Mapping[str, str] = field(default_factory=dict)
    env_unset: tuple[str, ...] = ()
    groups_joined: tuple[str, ...] = ()
    services_started: tuple[str, ...] = ()
    settings: Mapping[str, Any] = field(default_factory=dict)
    environment: str | None = None  # the interpreter whose packages change, when not the target's

    @property
    def empty(self) -> bool:
        """True when the fix changes no fact the verifier can apply."""
        return not (
            self.torch
            or self.driver_min
            or self.driver_branch
            or self.python
            or self.packages_added
            or self.packages_removed
            or self.env_set
            or self.env_unset
            or self.groups_joined
            or self.services_started
            or self.settings
        )

    def describe(self) -> str:
        """One line naming what changes ("torch 2.13.x (cu126); driver >= 580")."""
        parts = []
        if self.torch:
            parts.append(self.torch.label())
        if self.driver_branch or self.driver_min:
            parts.append(f"driver {self.driver_branch or '>= ' + str(self.driver_min)}")
        if self.python:
            parts.append(f"Python {self.python}")
        parts += [f"+{n} {s}".rstrip() for n, s in sorted(self.packages_added.items())]
        parts += [f"-{n}" for n in self.packages_removed]
        parts += [f"{k}={v}" for k, v in sorted(self.env_set.items())]
        parts += [f"unset {k}" for k in self.env_unset]
        parts += [f"group {g}" for g in self.groups_joined]
        parts += [f"{s} running" for s in self.services_started]
        parts += [f"{k}={v}" for k, v in sorted(self.settings.items())]
        return "; ".join(parts) or "no fact changes"

    def to_dict(self) -> dict[str, Any]:
        """JSON form (only the fields set)."""
        out: dict[str, Any] = {}
        if self.torch:
            out["torch"] = {
                "release": self.torch.release,
                "variant": self.torch.variant,
                "exact": self.torch.exact,
            }
        for key in ("driver_min", "driver_branch", "python", "environment"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        for key in ("packages_added", "env_set", "settings"):
            if getattr(self, key):
                out[key] = dict(getattr(self, key))
        for key in ("packages_removed", "env_unset", "groups_joined", "services_started"):
            if getattr(self, key):
                out[key] = list(getattr(self, key))
        return out

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any]) -> Effect:
        """Rebuild from JSON (unknown keys ignored)."""
        torch = obj.get("torch")
        return cls(
            torch=TorchBuild(str(torch["release"]), str(torch["variant"]), torch.get("exact"))
            if isinstance(torch, Mapping)
            else None,
            driver_min=obj.get("driver_min"),
            driver_branch=obj.get("driver_branch"),
            python=obj.get("python"),
            packages_added=dict(obj.get("packages_added") or {}),
            packages_removed=tuple(obj.get("packages_removed") or ()),
            env_set=dict(obj.get("env_set") or {}),
            env_unset=tuple(obj.get("env_unset") or ()),
            groups_joined=tuple(obj.get("groups_joined") or ()),
            services_started=tuple(obj.get("services_started") or ()),
            settings=dict(obj.get("settings") or {}),
            environment=obj.get("environment"),
        )


@dataclass(frozen=True)
class Assumes:
    """Where a fix's commands work. None means "any".

    os: the systems the commands are written for ("linux", "windows", "macos"); installer: "pip",
    "uv" or "conda"; privilege: "root" (run as root, no sudo), "sudo" (a sudo prefix), "user"
    (no privilege); wsl: True for commands meant inside WSL2, False for those that must not run
    there (a Linux driver install); container: the same for inside a container; vendor: the GPU
    vendor the commands are for ("nvidia", "amd", "intel", "apple"); needs: tools the commands run
    ("systemctl", "dockerd", "apt-get").
    """

    os: tuple[str, ...] | None = None
    installer: str | None = None
    privilege: str | None = None
    wsl: bool | None = None
    container: bool | None = None
    vendor: str | None = None
    needs: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON form (only the fields set)."""
        out: dict[str, Any] = {}
        for key in ("installer", "privilege", "wsl", "container", "vendor"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.os is not None:
            out["os"] = list(self.os)
        if self.needs:
            out["needs"] = list(self.needs)
        return out

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any]) -> Assumes:
        """Rebuild from JSON (unknown keys ignored)."""
        os_list = obj.get("os")
        return cls(
            os=tuple(str(x) for x in os_list) if isinstance(os_list, list) else None,
            installer=obj.get("installer"),
            privilege=obj.get("privilege"),
            wsl=obj.get("wsl"),
            container=obj.get("container"),
            vendor=obj.get("vendor"),
            needs=tuple(str(x) for x in obj.get("needs") or ()),
        )
