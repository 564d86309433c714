"""The `NVIDIA_REQUIRE_*` constraint language of libnvidia-container, evaluated on host facts.

Not a check module (no CHECKS). An expression is space-separated alternatives (OR), each a
comma-separated list of constraints (AND) such as `cuda>=12.4`, `driver>=470,driver<471`,
`brand=tesla`, `arch>=7.0`; separate NVIDIA_REQUIRE_* variables must all hold. When it fails,
nvidia-container-cli names the first alternative: `unsatisfied condition: cuda>=12.4`.
A constraint whose fact is unknown (the GPU brand, here) counts as possibly true, so the
verdict is "unsatisfied" only when every alternative is known to fail.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from envdoctor.model.versions import parse

_TERM = re.compile(r"^(cuda|driver|arch|brand)\s*(>=|<=|!=|==|=|>|<)\s*(\S+)$", re.I)


@dataclass(frozen=True)
class HostFacts:
    """What the constraints are compared with: cuda_driver_max (the driver's highest CUDA, what
    `cuda>=` constraints name), driver version,
    GPU brands and compute capabilities (empty when unknown)."""

    cuda_driver_max: str | None
    driver: str | None
    brands: tuple[str, ...] = ()
    archs: tuple[str, ...] = ()


def requirements(env: dict[str, Any]) -> dict[str, str]:
    """The NVIDIA_REQUIRE_* variables to enforce, with the implicit one of legacy CUDA images
    (CUDA_VERSION without NVIDIA_REQUIRE_CUDA means cuda>=major.minor); {} when
    NVIDIA_DISABLE_REQUIRE is set true."""
    found = {
        k: str(v) for k, v in env.items() if k.startswith("NVIDIA_REQUIRE_") and str(v).strip()
    }
    found.pop("NVIDIA_REQUIRE_JETPACK", None)
    if "NVIDIA_REQUIRE_CUDA" not in found and env.get("CUDA_VERSION"):
        version = parse(str(env["CUDA_VERSION"]))
        if version is not None:
            release = (list(version.release) + [0])[:2]
            found["NVIDIA_REQUIRE_CUDA"] = f"cuda>={release[0]}.{release[1]}"
    return found


def disabled(env: dict[str, Any]) -> bool:
    """Whether NVIDIA_DISABLE_REQUIRE turns the checks off (Go's ParseBool truths)."""
    return str(env.get("NVIDIA_DISABLE_REQUIRE", "")).strip() in (
        "1",
        "t",
        "T",
        "TRUE",
        "true",
        "True",
    )


def unsatisfied(expression: str, host: HostFacts) -> str | None:
    """The alternative nvidia-container-cli would report as unsatisfied, or None when the
    expression holds or may hold."""
    alternatives = expression.split()
    if not alternatives:
        return None
    verdicts = [_alternative(alt, host) for alt in alternatives]
    if all(v is False for v in verdicts):
        return alternatives[0]
    return None


def _alternative(alternative: str, host: HostFacts) -> bool | None:
    result: bool | None = True
    for term in alternative.split(","):
        verdict = _constraint(term.strip(), host)
        if verdict is False:
            return False
        if verdict is None:
            result = None
    return result


def _constraint(term: str, host: HostFacts) -> bool | None:
    match = _TERM.match(term)
    if not match:
        return None
    key, op, value = match.group(1).lower(), match.group(2), match.group(3)
    if key == "brand":
        if not host.brands:
            return None
        equal = value.lower() in (b.lower() for b in host.brands)
        return equal if op in ("=", "==") else (not equal if op == "!=" else None)
    if key == "arch":
        return _any_compare(host.archs, op, value)
    actual = host.cuda_driver_max if key == "cuda" else host.driver
    return _compare(actual, op, value)


def _any_compare(actuals: tuple[str, ...], op: str, wanted: str) -> bool | None:
    verdicts = [_compare(a, op, wanted) for a in actuals]
    if not verdicts or any(v is None for v in verdicts):
        return None
    return all(verdicts)


def _compare(actual: str | None, op: str, wanted: str) -> bool | None:
    a, w = parse(actual), parse(wanted)
    if a is None or w is None:
        return None
    return {
        ">=": a >= w,
        "<=": a <= w,
        ">": a > w,
        "<": a < w,
        "=": a == w,
        "==": a == w,
        "!=": a != w,
    }[op]
