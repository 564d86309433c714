"""Conditions on facts: `FACT OP VALUE` joined by ` and ` / ` or `, `FACT` (truthy), `!FACT`, or
`text ~ 'regex'` (any notable line matches); a bare `m.NAME` is false when the capture is absent.

OP is == != < <= > >= ~ (regex) !~ or `in`. VALUE is a bare word, a quoted string, or `$fact` for
another fact. Versions compare as versions. A condition on an unknown fact is unknown: it neither
confirms nor refutes, and does not meet `requires`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from envdoctor.model.versions import parse as parse_version
from envdoctor.triage_engine.libraries import FACT_NAMES as LIBRARY_FACTS
from envdoctor.triage_engine.model import DEFAULT_WEIGHT, FLAGS, Clause, Condition, SignatureError
from envdoctor.triage_engine.ngc import FACT_NAMES as NGC_FACTS
from envdoctor.triage_engine.patterns import anchors_of, check_backtracking

if TYPE_CHECKING:
    from envdoctor.triage_engine.facts import Facts

FACT_NAMES = (
    "torch.version",
    "torch.variant",
    "torch.cuda",
    "torch.build",
    "torch.cuda_available",
    "torch.sm_max",
    "torch.sm_min",
    "torch.arch_list",
    "gpu.name",
    "gpu.names",
    "gpu.vendor",
    "gpu.cc",
    "gpu.sm",
    "gpu.sm_min",
    "gpu.sm_name",
    "gpu.count",
    "gpu.gfx",
    "driver.version",
    "driver.cuda_max",
    "cuda.nvcc",
    "cuda.runtime",
    "cuda.min_driver",
    "torch.min_driver",
    "cuda.driver_runs",
    "torch.driver_runs",
    "torch.cu_tag",
    "torch.index_variant_missing",
    "torch.index_variant_nearest",
    "cuda.pinned",
    # the GPU against the toolkit (triage_engine.gpu_toolkit)
    "cuda.toolkit",
    "cuda.sm_min",
    "cuda.sm_max",
    "gpu.cuda_first",
    "gpu.cuda_last",
    "gpu.newest",
    "gpu.oldest",
    "gpu.cc_min",
    "nvcc.refused_sm",
    "nvcc.refused_cuda_first",
    "nvcc.refused_cuda_last",
    "ext.name",
    "ext.torch_needed",
    "ext.for_torch",
    "cudnn.version",
    "cudnn.compiled",
    "rocm.version",
    "tf.version",
    "jax.version",
    "paddle.version",
    "paddle.cuda",
    "tf.cuda",
    "tf.cudnn",
    "tf.windows_gpu",
    "tf.python",
    "tf.for_cuda",
    "tf.for_cudnn",
    "ort.version",
    "ort.cuda",
    "ort.cudnn",
    "os.system",
    "os.wsl",
    "os.arch",
    "os.distro",
    "os.release",
    "os.pre_manylinux_2_28",
    "os.windows_build",
    "os.container",
    "ctx.docker_desktop",
    "ctx.slurm",
    "ctx.kubernetes",
    "ctx.conda",
    "ctx.grace",
    "python.version",
    "jetson",
    "traceback.extension",
    "traceback.extensions",
    "torch.companion_mismatch",
    "opengl.software",
    "app.comfyui",
    "app.a1111",
    "app.ollama",
    "app.vllm",
    "app.forge",
    *LIBRARY_FACTS,  # libraries.py
    *NGC_FACTS,  # ngc.py: an NGC container release, its CUDA and driver
    # where an out-of-memory's memory went (checks/workload_facts.oom_memory_facts)
    "memory.total_gib",
    "memory.elsewhere_gib",
    "memory.elsewhere_share",
    "pkg.*",
    "m.*",
    "env.*",
)

_CLAUSE = re.compile(
    r"^\s*(?P<neg>!)?\s*(?P<fact>[a-z][a-z0-9_.*-]*)\s*"
    r"(?:(?P<op>==|!=|<=|>=|<|>|!~|~|\bin\b)\s*(?P<value>'[^']*'|\"[^\"]*\"|\S+))?\s*$"
)


def parse_condition(text: str, weight: int = DEFAULT_WEIGHT, checked: bool = False) -> Condition:
    """A condition from its text (see the module docstring); SignatureError when malformed.
    `checked`: the text passed these checks in an earlier load (envdoctor's cache), so its
    regular expressions are not compiled and analysed again."""
    alternatives = []
    for alternative in re.split(r"\s+or\s+", text.strip()):
        alternatives.append(
            tuple(
                _parse_clause(text, part, checked) for part in re.split(r"\s+and\s+", alternative)
            )
        )
    return Condition(text, tuple(alternatives), weight)


def _parse_clause(text: str, part: str, checked: bool = False) -> Clause:
    match = _CLAUSE.match(part)
    if match is None:
        raise SignatureError(f"condition {text!r}: cannot read {part!r}")
    fact, op, value = match.group("fact"), match.group("op"), match.group("value")
    if not _known_fact(fact):
        raise SignatureError(f"condition {text!r}: unknown fact {fact!r}")
    if value is not None and value[:1] in "'\"":
        value = value[1:-1]
    if value is not None and value.startswith("$") and not _known_fact(value[1:]):
        raise SignatureError(f"condition {text!r}: unknown fact {value!r}")
    if op in ("~", "!~") and not checked:
        try:
            re.compile(value or "", FLAGS)
        except re.error as exc:
            raise SignatureError(f"condition {text!r}: bad regex: {exc}") from exc
        check_backtracking(value or "")
        if fact == "text":
            anchors_of(value or "")
    elif fact == "text" and op not in ("~", "!~"):
        raise SignatureError(f"condition {text!r}: text takes only ~ or !~")
    _check_unit(text, fact, op, value)
    return Clause(fact, op, value, bool(match.group("neg")))


# The two spellings of a GPU's capability: sm facts are whole numbers (86, 120), cc facts are
# "major.minor" (8.6, 12.0). Versions compare part by part, so "gpu.sm >= 12.0" holds for every
# GPU (86 > 12) and "gpu.cc >= 86" for none: a literal in the other spelling is a mistake.
SM_FACTS = frozenset(
    (
        "gpu.sm",
        "gpu.sm_min",
        "torch.sm_max",
        "torch.sm_min",
        "cuda.sm_min",
        "cuda.sm_max",
        "nvcc.refused_sm",
    )
)
CC_FACTS = frozenset(("gpu.cc", "gpu.cc_min"))
_ORDER_OPS = ("<", "<=", ">", ">=", "==", "!=")


def _check_unit(text: str, fact: str, op: str | None, value: str | None) -> None:
    """SignatureError when a capability is compared with a literal in the other spelling."""
    if op not in _ORDER_OPS or value is None or value.startswith("$"):
        return
    if fact in SM_FACTS and re.fullmatch(r"\d+\.\d+", value):
        raise SignatureError(f"condition {text!r}: {fact} is a whole number (86, 120), not {value}")
    if fact in CC_FACTS and re.fullmatch(r"\d{2,3}", value):
        raise SignatureError(f"condition {text!r}: {fact} is major.minor (8.6, 12.0), not {value}")


def _known_fact(name: str) -> bool:
    if name == "text" or name in FACT_NAMES:
        return True
    return any(name.startswith(p) and len(name) > len(p) for p in ("pkg.", "m.", "env."))


def evaluate_condition(
    condition: Condition, facts: Facts
) -> tuple[bool | None, list[tuple[str, Any, str | None]]]:
    """(True / False / None for unknown, the facts it looked at)."""
    outcome: bool | None = False
    for alternative in condition.alternatives:
        result: bool | None = True
        seen: list[tuple[str, Any, str | None]] = []
        for clause in alternative:
            value = _clause_value(clause, facts, seen)
            if value is False:
                result = False
                break
            if value is None:
                result = None
        if result is True:
            return True, seen
        if result is None:
            outcome = None
    return outcome, []


def _clause_value(
    clause: Clause, facts: Facts, seen: list[tuple[str, Any, str | None]]
) -> bool | None:
    if clause.fact == "text":
        found = facts.text_search(clause.pattern) if clause.pattern is not None else None
        outcome = found is not None
        if found is not None:
            seen.append(("pasted.text", found, None))
        return outcome if clause.op == "~" else not outcome
    actual = facts.get(clause.fact)
    if clause.op is None:
        if actual is None and clause.fact.startswith(("m.", "lib.")):
            # the patterns ran: a capture (or a library name, libraries.py) that is not there is
            # known to be absent
            actual = False
        if actual is None:
            return None
        truth = bool(actual)
        if truth:
            seen.append((clause.fact, actual, None))
        return (not truth) if clause.negate else truth
    expected: Any = clause.value
    if isinstance(expected, str) and expected.startswith("$"):
        expected = facts.get(expected[1:])
        if expected is None:
            return None
    if actual is None:
        return None
    compared = _compare(actual, clause.op or "==", expected, clause.pattern)
    if compared is None:
        return None
    outcome = compared
    if outcome:
        shown = clause.value or ""
        if shown.startswith("$"):
            shown = f"{shown[1:]} = {', '.join(map(str, expected)) if isinstance(expected, (list, tuple)) else expected}"
        seen.append((clause.fact, actual, f"{clause.op} {shown}"))
    return (not outcome) if clause.negate else outcome


def _compare(actual: Any, op: str, expected: Any, pattern: re.Pattern | None) -> bool | None:
    if op in ("~", "!~"):
        values = actual if isinstance(actual, (list, tuple)) else [actual]
        hit = any(pattern.search(str(v)) for v in values) if pattern is not None else False
        return hit if op == "~" else not hit
    if op == "in":
        options = [o.strip().lower() for o in str(expected).split(",")]
        return str(actual).lower() in options
    if isinstance(actual, bool) or str(expected).lower() in ("true", "false"):
        if op not in ("==", "!="):
            return None
        same = str(actual).lower() == str(expected).lower()
        return same if op == "==" else not same
    a, b = _as_version(actual), _as_version(expected)
    if a is not None and b is not None:
        return {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]
    if op in ("==", "!="):
        same = str(actual).lower() == str(expected).lower()
        return same if op == "==" else not same
    return None


def _as_version(value: Any) -> Any:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return parse_version(str(value))
    text = str(value)
    if not re.match(r"^\s*v?\d", text):
        return None
    version = parse_version(text)
    if version is None:
        return None
    return parse_version(".".join(str(p) for p in version.release))
