"""Error signatures as data: `checks/signatures/*.toml` turned into checks.

A signature names one cause of an error message. It matches the notable lines of a paste (the
`pasted.text` group the free-text reader fills) and weighs the facts of the snapshot:

```toml
[[signature]]
id = "torch.gpu-too-new-for-build"          # the finding id (shared with fact checks)
key = "torch.no-kernel-image.gpu-too-new"   # unique signature name (default: the id)
severity = "error"                          # error | warning | info
score = 60                                  # how telling the message is on its own (0-100)
title = "The PyTorch build has no kernels for {{gpu.name}} ({{gpu.sm_name}})"
detail = "What it means, why it happens."
match = ['no kernel image is available for execution on the device']  # any one of these
all = []                                    # ... and every one of these, anywhere in the paste
none = []                                   # ... and none of these
capture = ['you have (?P<have>\\S+)\\)']    # optional: named groups for conditions and text
requires = ["gpu.vendor == nvidia"]         # facts that must hold (unknown = not met)
confirm = ["gpu.sm > $torch.sm_max", { when = "torch.cuda < 12.8", weight = 25 }]
refute = ["torch.build == cpu"]             # any that holds rules the signature out
explains = ["app.ollama-cpu-fallback"]
sources = ["https://..."]
example = "a real line the signature must match (tested)"
defaults = { "gpu.name" = "this GPU" }      # text for placeholders whose fact is unknown
[[signature.fix]]
summary = "Install a cu128 build"
commands = ["pip install --upgrade torch --index-url https://download.pytorch.org/whl/cu128"]
risk = "safe"                               # safe | needs-restart | destructive
url = "https://pytorch.org/get-started/locally/"
when = "os.system != Windows"               # shown only when this is not known to be false
first_when = "app.comfyui"                  # moved to the top when this holds
```

Fixes are listed: those whose `first_when` holds, then those whose `when` holds, then those
without a condition, then those whose `when` is unknown (a Fedora command when the distribution
is not known comes after the generic one).

Patterns are Python regular expressions, matched case-insensitively against one line at a time;
each must contain a literal of at least three characters (two for CJK) that every match contains:
the loader extracts these anchors, and the free-text reader keeps only the lines that hold an
anchor (`anchors()`), so the snapshot never carries a whole 50 MB log and each pattern runs only
on lines that can match it. Patterns are compiled once, at import; they must not nest unbounded
repeats (`(a+)+`), which the loader refuses.

Conditions are `FACT OP VALUE` joined by ` and `, `FACT` (truthy), `!FACT`, or
`text ~ 'regex'` (any notable line matches); a bare `m.NAME` is false when the capture is absent.
OP is == != < <= > >= ~ (regex) !~ or `in`. VALUE is a
bare word, a quoted string, or `$fact` for another fact. Versions compare as versions. A condition
on an unknown fact is unknown: it neither confirms nor refutes, and does not meet `requires`.
The facts (see `FACT_NAMES`) come from the structured groups first (collect_env, nvidia-smi,
envdoctor reports, live probes with `--here`) and from what the free text mentions otherwise.

Score = score + the weight of each confirming condition (default 15). Each finding id becomes
one `Check` (needs `pasted.text`) that returns the best-scoring signature with that id; the
triage command ranks findings by that score (`match_scores`). Findings are drawn from free
text, so the engine caps them at low confidence.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from envdoctor.model.checkdef import Check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.snapshot import Confidence, Snapshot
from envdoctor.model.versions import parse as parse_version

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

try:  # the regex parser's module moved in 3.11
    from re import _constants as sre_constants  # type: ignore[attr-defined]
    from re import _parser as sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants
    import sre_parse

SIGNATURE_DIR = Path(__file__).resolve().parent / "signatures"
SCHEMA_VERSION = 1
DEFAULT_SCORE = 50
DEFAULT_WEIGHT = 15
MAX_EVIDENCE_CHARS = 300

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
    "os.system",
    "os.wsl",
    "os.arch",
    "os.distro",
    "os.windows_build",
    "os.container",
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
    "pkg.*",
    "m.*",
)

# ---------------------------------------------------------------------------------------------
# Data model


@dataclass(frozen=True)
class Pattern:
    """One compiled pattern and the lowercase literals one of which any match contains."""

    text: str
    regex: re.Pattern
    anchors: tuple[str, ...]

    def possible_in(self, text: str) -> bool:
        """Whether `text` (lowercased) holds one of the anchors: if not, no line of it can match."""
        return any(a in text for a in self.anchors)

    def search(self, line: str, lowered: str) -> re.Match | None:
        """The match in `line` (its lowercase form `lowered`), trying the regex only when an
        anchor is present."""
        if not any(a in lowered for a in self.anchors):
            return None
        return self.regex.search(line)


@dataclass(frozen=True)
class Clause:
    """FACT OP VALUE, or a bare FACT (op None)."""

    fact: str
    op: str | None = None
    value: str | None = None
    negate: bool = False
    pattern: re.Pattern | None = None


@dataclass(frozen=True)
class Condition:
    """Alternatives joined by `or`, each clauses joined by `and`, with the weight it adds when it
    confirms."""

    text: str
    alternatives: tuple[tuple[Clause, ...], ...]
    weight: int = DEFAULT_WEIGHT

    @property
    def clauses(self) -> tuple[Clause, ...]:
        """Every clause, whatever alternative it belongs to."""
        return tuple(c for alt in self.alternatives for c in alt)


@dataclass(frozen=True)
class FixSpec:
    """A fix as written in the data, before templating."""

    summary: str
    commands: tuple[str, ...] = ()
    risk: Risk = Risk.SAFE
    url: str | None = None
    when: Condition | None = None
    first_when: Condition | None = None


@dataclass(frozen=True)
class Signature:
    """One cause of an error message (see the module docstring)."""

    key: str
    id: str
    severity: Severity
    title: str
    detail: str
    match: tuple[Pattern, ...]
    all: tuple[Pattern, ...] = ()
    none: tuple[Pattern, ...] = ()
    capture: tuple[Pattern, ...] = ()
    requires: tuple[Condition, ...] = ()
    confirm: tuple[Condition, ...] = ()
    refute: tuple[Condition, ...] = ()
    score: int = DEFAULT_SCORE
    explains: tuple[str, ...] = ()
    fixes: tuple[FixSpec, ...] = ()
    defaults: Mapping[str, str] = field(default_factory=dict)
    sources: tuple[str, ...] = ()
    examples: tuple[str, ...] = ()
    origin: str = ""

    def patterns(self) -> Iterable[Pattern]:
        """Every pattern whose lines the free-text reader must keep."""
        yield from self.match
        yield from self.all
        yield from self.none
        yield from self.capture
        fix_conditions = [c for f in self.fixes for c in (f.when, f.first_when) if c is not None]
        for condition in (*self.requires, *self.confirm, *self.refute, *fix_conditions):
            for clause in condition.clauses:
                if clause.pattern is not None and clause.fact == "text":
                    yield Pattern(
                        clause.value or "", clause.pattern, _anchors_of(clause.value or "")
                    )


@dataclass
class Match:
    """A signature that applies to a snapshot."""

    signature: Signature
    score: int
    line: str
    captures: dict[str, str]
    confirmed: list[tuple[Condition, list[tuple[str, Any, str | None]]]]


class SignatureError(ValueError):
    """A signature file that cannot be loaded."""


# ---------------------------------------------------------------------------------------------
# Anchors: the literal every match of a pattern contains


_MAX_REPEAT = sre_constants.MAX_REPEAT
_MIN_REPEAT = sre_constants.MIN_REPEAT
_POSSESSIVE = getattr(sre_constants, "POSSESSIVE_REPEAT", None)


def _required_literals(parsed: Any) -> set[str] | None:
    """A set of lowercase strings one of which every match contains, or None."""
    best: set[str] | None = None
    run = ""

    def consider(candidate: set[str] | None) -> None:
        nonlocal best
        if not candidate:
            return
        if best is None or _strength(candidate) > _strength(best):
            best = candidate

    for op, av in parsed:
        if op is sre_constants.LITERAL:
            run += chr(av).lower()
            continue
        consider({run} if run else None)
        run = ""
        if op is sre_constants.SUBPATTERN:
            consider(_required_literals(av[-1]))
        elif op is sre_constants.BRANCH:
            options: set[str] = set()
            for branch in av[1]:
                found = _required_literals(branch)
                if not found:
                    options = set()
                    break
                options |= found
            consider(options or None)
        elif op in (_MAX_REPEAT, _MIN_REPEAT, _POSSESSIVE) and av[0] >= 1:
            consider(_required_literals(av[2]))
        elif op is sre_constants.IN:
            # a one-character class of case variants only ("[Kk]") continues a run
            chars = {chr(v).lower() for kind, v in av if kind is sre_constants.LITERAL}
            if len(chars) == 1 and all(kind is sre_constants.LITERAL for kind, _ in av):
                run += chars.pop()
                continue
    consider({run} if run else None)
    return best


def _strength(options: set[str]) -> int:
    return min(_literal_length(o) for o in options)


def _literal_length(text: str) -> int:
    return sum(1 if ch.isascii() else 2 for ch in text)


def _anchors_of(pattern: str) -> tuple[str, ...]:
    parsed = sre_parse.parse(pattern, re.IGNORECASE)
    found = _required_literals(parsed)
    if not found or _strength(found) < 3:
        raise SignatureError(
            f"pattern {pattern!r} has no literal of 3+ characters every match contains"
        )
    return tuple(sorted(found))


def _check_backtracking(pattern: str) -> None:
    """Refuse an unbounded repeat inside another one, such as (a+)+ or (\\w*\\s?)*, which can
    backtrack exponentially; bound the outer one instead ({1,40})."""

    def walk(parsed: Any, inside_repeat: bool) -> None:
        for op, av in parsed:
            if op in (_MAX_REPEAT, _MIN_REPEAT, _POSSESSIVE):
                unbounded = av[1] == sre_constants.MAXREPEAT or av[1] > 50
                if unbounded and inside_repeat:
                    raise SignatureError(f"pattern {pattern!r} nests unbounded repeats")
                walk(av[2], inside_repeat or unbounded)
            elif op is sre_constants.SUBPATTERN:
                walk(av[-1], inside_repeat)
            elif op is sre_constants.BRANCH:
                for branch in av[1]:
                    walk(branch, inside_repeat)

    walk(sre_parse.parse(pattern, re.IGNORECASE), False)


def compile_pattern(text: str) -> Pattern:
    """A case-insensitive pattern with its anchors; SignatureError when unusable."""
    try:
        regex = re.compile(text, re.IGNORECASE)
    except re.error as exc:
        raise SignatureError(f"pattern {text!r} is not a valid regular expression: {exc}") from exc
    _check_backtracking(text)
    return Pattern(text, regex, _anchors_of(text))


# ---------------------------------------------------------------------------------------------
# Conditions


_CLAUSE = re.compile(
    r"^\s*(?P<neg>!)?\s*(?P<fact>[a-z][a-z0-9_.*-]*)\s*"
    r"(?:(?P<op>==|!=|<=|>=|<|>|!~|~|\bin\b)\s*(?P<value>'[^']*'|\"[^\"]*\"|\S+))?\s*$"
)


def parse_condition(text: str, weight: int = DEFAULT_WEIGHT) -> Condition:
    """A condition from its text (see the module docstring); SignatureError when malformed."""
    alternatives = []
    for alternative in re.split(r"\s+or\s+", text.strip()):
        alternatives.append(
            tuple(_parse_clause(text, part) for part in re.split(r"\s+and\s+", alternative))
        )
    return Condition(text, tuple(alternatives), weight)


def _parse_clause(text: str, part: str) -> Clause:
    if True:
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
        pattern = None
        if op in ("~", "!~"):
            try:
                pattern = re.compile(value or "", re.IGNORECASE)
            except re.error as exc:
                raise SignatureError(f"condition {text!r}: bad regex: {exc}") from exc
            _check_backtracking(value or "")
            if fact == "text":
                _anchors_of(value or "")
        elif fact == "text":
            raise SignatureError(f"condition {text!r}: text takes only ~ or !~")
        return Clause(fact, op, value, bool(match.group("neg")), pattern)


def _known_fact(name: str) -> bool:
    if name == "text" or name in FACT_NAMES:
        return True
    return (name.startswith("pkg.") and len(name) > 4) or (name.startswith("m.") and len(name) > 2)


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
        matched = found is not None
        if found is not None:
            seen.append(("pasted.text", found, None))
        return matched if clause.op == "~" else not matched
    actual = facts.get(clause.fact)
    if clause.op is None:
        if actual is None and clause.fact.startswith("m."):
            actual = False  # the patterns ran: a capture that is not there is known to be absent
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
    outcome = _compare(actual, clause.op or "==", expected, clause.pattern)
    if outcome is None:
        return None
    if outcome:
        shown = clause.value or ""
        if shown.startswith("$"):
            shown = f"{shown[1:]} = {_show(expected)}"
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


# ---------------------------------------------------------------------------------------------
# Facts: what the conditions and templates can use


class Facts:
    """The facts of one snapshot under the names conditions use (see `FACT_NAMES`), plus the
    notable lines and the captures of the signature being evaluated."""

    def __init__(self, snap: Snapshot, matrices: Any = None) -> None:
        self.text = snap.data("pasted.text") or {}
        self.lines: list[str] = [str(line) for line in self.text.get("lines", [])]
        self.lowered = [line.lower() for line in self.lines]
        self.joined = "\n".join(self.lowered)
        self._source: tuple[Snapshot, Any] | None = (snap, matrices)
        self._values: dict[str, Any] | None = None
        self.captures: dict[str, str] = {}

    @property
    def values(self) -> dict[str, Any]:
        """The derived facts, computed on first use (most signatures match no line and never
        need them)."""
        if self._values is None:
            snap, matrices = self._source if self._source is not None else (Snapshot(), None)
            self._values = _derive(snap, self.text, matrices)
        return self._values

    def get(self, name: str) -> Any:
        """A fact's value, or None when unknown."""
        if name.startswith("m."):
            return self.captures.get(name[2:])
        if name.startswith("pkg."):
            return self.values.get("packages", {}).get(_normalize(name[4:]))
        return self.values.get(name)

    def text_search(self, pattern: re.Pattern) -> str | None:
        """The first notable line the pattern matches."""
        for line in self.lines:
            if pattern.search(line):
                return line
        return None

    def with_captures(self, captures: dict[str, str]) -> Facts:
        """The same facts with a signature's captures (shared lines, no copy)."""
        other = object.__new__(Facts)
        other.text, other.lines, other.lowered, other.joined = (
            self.text,
            self.lines,
            self.lowered,
            self.joined,
        )
        other._source, other._values = self._source, self.values
        other.captures = captures
        return other


def _normalize(name: str) -> str:
    return re.sub(r"[-_.\s]+", "-", name.lower()).strip("-")


def _sm(cc: Any) -> int | None:
    match = re.match(r"^\s*(\d+)\.(\d+)", str(cc or ""))
    if match:
        return int(match.group(1)) * 10 + int(match.group(2))
    match = re.match(r"^\s*sm_?(\d+)", str(cc or ""), re.IGNORECASE)
    return int(match.group(1)) if match else None


def _derive(snap: Snapshot, text: Mapping[str, Any], matrices: Any) -> dict[str, Any]:
    values: dict[str, Any] = {}
    mentioned = text.get("versions", {}) or {}
    system_versions = text.get("system_versions", {}) or {}
    torch = snap.data("python.torch") or {}
    packages = {
        _normalize(k): v
        for k, v in ((snap.data("python.packages") or {}).get("packages") or {}).items()
    }
    for name, version in mentioned.items():
        packages.setdefault(_normalize(name), version)
    values["packages"] = packages
    torch_version = torch.get("version") or packages.get("torch")
    values["torch.version"] = torch_version
    variant = torch.get("variant") or _variant_of(torch_version)
    values["torch.variant"] = variant
    cuda = torch.get("cuda") or _cuda_of_variant(variant)
    build = torch.get("build") or (
        {"cpu": "cpu"}.get(variant or "")
        or (
            "cuda"
            if variant and variant.startswith("cu")
            else "rocm"
            if variant and variant.startswith("rocm")
            else None
        )
    )
    values["torch.cuda"] = cuda
    values["torch.build"] = build
    values["torch.cuda_available"] = torch.get("cuda_available")
    arch_list = [a for a in text.get("torch_arch_list", []) or []]
    if not arch_list and torch_version and variant:
        arch_list = _variant_arches(matrices, torch_version, variant, snap)
    sms = [s for s in (_sm(a) for a in arch_list) if s is not None]
    minimum = _sm(text.get("torch_min_cc"))
    if minimum is not None and not sms:
        values["torch.sm_min"] = minimum
    if sms:
        values["torch.sm_max"], values["torch.sm_min"] = max(sms), min(sms)
        values["torch.arch_list"] = arch_list
    elif cuda and build == "cuda" and "torch.sm_min" not in values:
        targets = _nvcc_targets(matrices, cuda)
        if targets:
            values["torch.sm_min"], values["torch.sm_max"] = targets
    values["torch.companion_mismatch"] = _companion_mismatch(
        packages, torch_version, variant, snap, matrices
    )
    _derive_gpu(snap, text, matrices, values)
    driver = snap.data("nvidia.driver") or {}
    values["driver.version"] = driver.get("driver_version") or system_versions.get("driver")
    values["driver.cuda_max"] = driver.get("cuda_driver_max") or system_versions.get("cuda_driver")
    toolkits = snap.data("cuda.toolkits") or {}
    values["cuda.nvcc"] = toolkits.get("nvcc_version") or system_versions.get("nvcc")
    _derive_os(snap, text, values)
    python = snap.data("python") or {}
    values["python.version"] = python.get("version") or system_versions.get("python")
    extensions = list(text.get("extensions", []) or [])
    values["traceback.extensions"] = extensions or None
    values["traceback.extension"] = extensions[0] if extensions else None
    apps = set(text.get("apps", []) or [])
    if snap.has("apps.vllm"):
        apps.add("vllm")
    for app in ("comfyui", "a1111", "ollama", "vllm", "forge"):
        values[f"app.{app}"] = True if app in apps else None
    jetson = snap.has("platform.jetson") or "jetson" in (text.get("platforms", []) or [])
    values["jetson"] = True if jetson else None
    return values


def _companion_mismatch(
    packages: Mapping[str, str],
    torch_version: Any,
    variant: str | None,
    snap: Snapshot,
    matrices: Any,
) -> bool | None:
    """Whether torchvision / torchaudio belong to another release or variant than torch (None
    when unknown). Releases pair as the torchvision README's table does: torch 2.N with
    torchvision 0.(N+15) and torchaudio 2.N; torch 1.N with torchvision 0.(N+1), torchaudio 0.N."""
    if not torch_version:
        return None
    torch_release = parse_version(str(torch_version))
    if torch_release is None:
        return None
    major, minor = (list(torch_release.release) + [0])[:2]
    expected = _companion_versions(matrices, str(torch_version))
    if not expected:
        if major == 2:
            expected = {"torchvision": f"0.{minor + 15}", "torchaudio": f"2.{minor}"}
        elif major == 1 and minor >= 4:
            expected = {"torchvision": f"0.{minor + 1}", "torchaudio": f"0.{minor}"}
    system = (snap.data("os") or {}).get("system")
    seen = False
    for name in ("torchvision", "torchaudio"):
        version = packages.get(name)
        if not version:
            continue
        seen = True
        want = expected.get(name)
        have = parse_version(str(version))
        if want and have is not None:
            want_v = parse_version(want)
            if want_v is not None and tuple(have.release[:2]) != tuple(want_v.release[:2]):
                return True
        companion_variant = _variant_of(version)
        if variant and companion_variant and variant != companion_variant:
            return True
        if variant == "cpu" and companion_variant is None and system not in ("Windows", "Darwin"):
            return True
    return False if seen else None


def _companion_versions(matrices: Any, torch: str) -> dict[str, str]:
    if matrices is None:
        return {}
    try:
        from envdoctor.queries.torch import companion_versions

        found = companion_versions(matrices, torch) or {}
        return {str(k): str(v) for k, v in found.items()}
    except Exception:  # noqa: BLE001
        return {}


def _variant_of(version: Any) -> str | None:
    if not version or "+" not in str(version):
        return None
    match = re.match(r"(cpu|cu\d+|rocm\d+(?:\.\d+)*|xpu)", str(version).split("+", 1)[1].lower())
    return match.group(1) if match else None


def _cuda_of_variant(variant: str | None) -> str | None:
    match = re.match(r"cu(\d+)(\d)$", variant or "")
    return f"{match.group(1)}.{match.group(2)}" if match else None


def _derive_gpu(
    snap: Snapshot, text: Mapping[str, Any], matrices: Any, values: dict[str, Any]
) -> None:
    nvidia = (snap.data("nvidia.gpus") or {}).get("gpus") or []
    amd = (snap.data("amd.gpus") or {}).get("gpus") or []
    names = [g.get("name") for g in nvidia + amd if g.get("name")]
    ccs = [g.get("compute_capability") for g in nvidia if g.get("compute_capability")]
    mentioned_gpus = [str(n) for n in text.get("gpus", []) or []]
    if not names:
        names = mentioned_gpus
    if not ccs:
        ccs = list(text.get("compute_capabilities", []) or [])
        for name in names:
            row = _gpu_row(matrices, name)
            if row and row.get("compute_capability"):
                ccs.append(str(row["compute_capability"]))
    vendor = "nvidia" if nvidia else ("amd" if amd else None)
    if vendor is None and names:
        vendor = _vendor_of(names[0])
    sms = [s for s in (_sm(c) for c in ccs) if s is not None]
    values["gpu.names"] = names or None
    values["gpu.name"] = names[0] if names else None
    values["gpu.count"] = len(nvidia + amd) or None
    values["gpu.vendor"] = vendor or ("nvidia" if sms else None)
    if sms:
        top = max(sms)
        values["gpu.sm"], values["gpu.sm_min"] = top, min(sms)
        values["gpu.cc"] = f"{top // 10}.{top % 10}"
        values["gpu.sm_name"] = f"sm_{top}"
    gfx = [g.get("gfx_target") for g in amd if g.get("gfx_target")] + list(
        text.get("gfx_targets", []) or []
    )
    values["gpu.gfx"] = gfx[0] if gfx else None


def _vendor_of(name: str) -> str | None:
    low = name.lower()
    if any(k in low for k in ("radeon", "instinct", "amd ", "gfx")):
        return "amd"
    if any(k in low for k in ("intel", " arc ", "iris", "uhd graphics")):
        return "intel"
    if any(k in low for k in ("nvidia", "geforce", "rtx", "gtx", "quadro", "tesla", "titan")):
        return "nvidia"
    return None


def _derive_os(snap: Snapshot, text: Mapping[str, Any], values: dict[str, Any]) -> None:
    os_facts = snap.data("os") or {}
    mentions = [str(m) for m in text.get("os_mentions", []) or []]
    system = os_facts.get("system")
    wsl = os_facts.get("virtualization") == "wsl" if os_facts else None
    if "wsl" in mentions:
        wsl = True
    if system is None:
        if "wsl" in mentions or "linux" in mentions:
            system = "Linux"
        elif "windows" in mentions:
            system = "Windows"
        elif "macos" in mentions:
            system = "Darwin"
    values["os.system"] = system
    values["os.wsl"] = True if wsl else None
    values["os.arch"] = os_facts.get("arch") or (text.get("arch") or None)
    values["os.distro"] = os_facts.get("distro_id") or (text.get("distro") or None)
    values["os.windows_build"] = os_facts.get("windows_build") or text.get("windows_build")
    opengl = snap.data("platform.opengl") or {}
    if opengl.get("d3d12"):
        values["os.wsl"] = True
        values["os.system"] = values["os.system"] or "Linux"
    values["opengl.software"] = opengl.get("software")
    virtualization = os_facts.get("virtualization")
    container = (
        virtualization in ("docker", "podman", "kubernetes", "lxc") or "container" in mentions
    )
    values["os.container"] = True if container else None


def _gpu_row(matrices: Any, name: str) -> dict[str, Any] | None:
    if matrices is None:
        return None
    try:
        from envdoctor.queries.nvidia import gpu_by_name
    except ImportError:
        return None
    try:
        return gpu_by_name(matrices, name)
    except Exception:  # noqa: BLE001 - a query bug must not hide the signature
        return None


def _variant_arches(matrices: Any, torch: str, variant: str, snap: Snapshot) -> list[str]:
    if matrices is None:
        return []
    try:
        from envdoctor.queries.torch import variant_arches
    except ImportError:
        return []
    system = (snap.data("os") or {}).get("system") or "Linux"
    try:
        return list(variant_arches(matrices, torch, variant, system.lower()) or [])
    except Exception:  # noqa: BLE001
        return []


def _nvcc_targets(matrices: Any, cuda: str) -> tuple[int, int] | None:
    if matrices is not None:
        try:
            from envdoctor.queries.nvidia import nvcc_targets

            found = nvcc_targets(matrices, cuda)
            if found:
                return found
        except Exception:  # noqa: BLE001
            pass
    return _fallback_nvcc_targets(cuda)


def _fallback_nvcc_targets(cuda: str) -> tuple[int, int] | None:
    """(min_sm, max_sm) from signatures/_arch.toml for the release of `cuda` (same major, the
    nearest release at or below it)."""
    wanted = parse_version(str(cuda))
    if wanted is None:
        return None
    major_minor = tuple((list(wanted.release) + [0])[:2])
    best = None
    for row in DATA.arch_rows:
        have = parse_version(str(row["cuda"]))
        if have is None:
            continue
        key = tuple((list(have.release) + [0])[:2])
        if key[0] != major_minor[0] or key > major_minor:
            continue
        if best is None or key > best[0]:
            best = (key, row)
    return (int(best[1]["min_sm"]), int(best[1]["max_sm"])) if best else None


# ---------------------------------------------------------------------------------------------
# Evaluation


def evaluate(signature: Signature, facts: Facts) -> Match | None:
    """The match of one signature, or None when it does not apply."""
    line, captures = _find(signature.match, facts)
    if line is None:
        return None
    for pattern in signature.all:
        found, more = _find((pattern,), facts)
        if found is None:
            return None
        captures = {**more, **captures}
    for pattern in signature.none:
        if _find((pattern,), facts)[0] is not None:
            return None
    for pattern in signature.capture:
        found, more = _find((pattern,), facts)
        if found is not None:
            captures = {**more, **captures}
    captures = _with_decoded_versions(captures)
    scoped = facts.with_captures(captures)
    for condition in signature.requires:
        if evaluate_condition(condition, scoped)[0] is not True:
            return None
    for condition in signature.refute:
        if evaluate_condition(condition, scoped)[0] is True:
            return None
    score = signature.score
    confirmed = []
    for condition in signature.confirm:
        outcome, seen = evaluate_condition(condition, scoped)
        if outcome is True:
            score += condition.weight
            confirmed.append((condition, seen))
    return Match(signature, score, line, captures, confirmed)


def _with_decoded_versions(captures: dict[str, str]) -> dict[str, str]:
    """A capture named `X_code` holding CUDA's 1000*major + 10*minor ("11000") also gives `X`
    ("11.0")."""
    out = dict(captures)
    for name, value in captures.items():
        if name.endswith("_code") and value.isdigit() and name[:-5] not in out:
            number = int(value)
            out[name[:-5]] = f"{number // 1000}.{(number % 1000) // 10}"
    return out


def _find(patterns: Iterable[Pattern], facts: Facts) -> tuple[str | None, dict[str, str]]:
    for pattern in patterns:
        if not pattern.possible_in(facts.joined):
            continue
        for line, lowered in zip(facts.lines, facts.lowered, strict=True):
            found = pattern.search(line, lowered)
            if found is not None:
                return line, {k: v for k, v in found.groupdict().items() if v is not None}
    return None, {}


def match_all(
    snap: Snapshot, matrices: Any = None, signatures: Iterable[Signature] | None = None
) -> list[Match]:
    """Every signature that applies to the snapshot, best score first."""
    if not snap.has("pasted.text"):
        return []
    facts = Facts(snap, matrices)
    found = [
        m for m in (evaluate(s, facts) for s in (signatures or DATA.signatures)) if m is not None
    ]
    return sorted(found, key=lambda m: (-m.score, m.signature.key))


def match_scores(snap: Snapshot, matrices: Any = None) -> dict[str, int]:
    """finding id -> the best score of a signature with that id that applies."""
    scores: dict[str, int] = {}
    for match in match_all(snap, matrices):
        scores.setdefault(match.signature.id, match.score)
    return scores


def to_finding(match: Match, facts: Facts) -> Finding:
    """The finding a match reports, its texts filled in from the facts and captures."""
    sig = match.signature
    scoped = facts.with_captures(match.captures)

    def fill(text: str) -> str:
        return _template(text, scoped, sig.defaults)

    evidence = [Evidence("pasted.text", _clip(match.line)), Evidence("signature", sig.key)]
    shown: set[str] = set()
    for _condition, seen in match.confirmed:
        for fact, value, expected in seen:
            if fact == "pasted.text" or fact in shown:
                continue
            shown.add(fact)
            name = f"match.{fact[2:]}" if fact.startswith("m.") else fact
            evidence.append(Evidence(name, _clip(_show(value)), expected))
    fixes = []
    for spec in sig.fixes:
        when = None if spec.when is None else evaluate_condition(spec.when, scoped)[0]
        if when is False:
            continue
        first = (
            spec.first_when is not None and evaluate_condition(spec.first_when, scoped)[0] is True
        )
        # known to apply first, then fixes for every case, then those whose condition is unknown
        rank = 0 if first else (1 if when is True else (2 if spec.when is None else 3))
        fixes.append(
            (
                rank,
                Fix(fill(spec.summary), tuple(fill(c) for c in spec.commands), spec.risk, spec.url),
            )
        )
    fixes.sort(key=lambda pair: pair[0])
    return Finding(
        id=sig.id,
        severity=sig.severity,
        title=fill(sig.title),
        detail=fill(sig.detail),
        confidence=Confidence.LOW,
        evidence=tuple(evidence),
        fixes=tuple(fix for _, fix in fixes),
        explains=sig.explains,
    )


def _show(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    return str(value)


def _clip(text: str) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= MAX_EVIDENCE_CHARS else text[: MAX_EVIDENCE_CHARS - 1] + "…"


_PLACEHOLDER = re.compile(r"\{\{\s*([a-z][a-z0-9_.-]*)\s*\}\}")


def _template(text: str, facts: Facts, defaults: Mapping[str, str]) -> str:
    def replace(found: re.Match) -> str:
        name = found.group(1)
        value = facts.get(name)
        if value is None or value == [] or value == "":
            value = defaults.get(name, DATA.defaults.get(name, name))
        return _show(value)

    return _PLACEHOLDER.sub(replace, text)


# ---------------------------------------------------------------------------------------------
# Loading


@dataclass(frozen=True)
class SignatureData:
    """Everything loaded from signatures/: the signatures, shared default texts, the fallback
    nvcc architecture table, the no-match texts, and any load errors."""

    signatures: tuple[Signature, ...]
    defaults: Mapping[str, str]
    arch_rows: tuple[Mapping[str, Any], ...]
    no_match: Mapping[str, Any]
    errors: tuple[str, ...]


def load(folder: Path | None = None) -> SignatureData:
    """Load every signature file; broken signatures are left out and reported in `errors`."""
    folder = folder or SIGNATURE_DIR
    signatures: list[Signature] = []
    errors: list[str] = []
    defaults: dict[str, str] = {}
    arch_rows: list[Mapping[str, Any]] = []
    no_match: dict[str, Any] = {}
    keys: set[str] = set()
    for path in sorted(folder.glob("*.toml")):
        try:
            document = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            errors.append(f"{path.name}: {exc}")
            continue
        if document.get("schema_version") != SCHEMA_VERSION:
            errors.append(f"{path.name}: schema_version must be {SCHEMA_VERSION}")
            continue
        defaults.update({str(k): str(v) for k, v in (document.get("defaults") or {}).items()})
        arch_rows.extend(document.get("nvcc_arch", []) or [])
        no_match.update(document.get("no_match") or {})
        for position, entry in enumerate(document.get("signature", []) or [], start=1):
            label = f"{path.name} signature #{position} ({entry.get('key') or entry.get('id')})"
            try:
                signature = _signature(entry, path.name)
            except (SignatureError, KeyError, TypeError, ValueError) as exc:
                errors.append(f"{label}: {exc}")
                continue
            if signature.key in keys:
                errors.append(f"{label}: duplicate key {signature.key}")
                continue
            keys.add(signature.key)
            signatures.append(signature)
    return SignatureData(tuple(signatures), defaults, tuple(arch_rows), no_match, tuple(errors))


_ALLOWED = {
    "id",
    "key",
    "severity",
    "score",
    "title",
    "detail",
    "match",
    "all",
    "none",
    "capture",
    "requires",
    "confirm",
    "refute",
    "explains",
    "sources",
    "example",
    "examples",
    "defaults",
    "fix",
}
_FIX_ALLOWED = {"summary", "commands", "risk", "url", "when", "first_when"}


def _signature(entry: Mapping[str, Any], origin: str) -> Signature:
    unknown = set(entry) - _ALLOWED
    if unknown:
        raise SignatureError(f"unknown keys {sorted(unknown)}")
    finding_id = str(entry["id"])
    if not re.match(r"^[a-z0-9]+(?:\.[a-z0-9-]+)+$", finding_id):
        raise SignatureError(f"id {finding_id!r} is not area.kebab-name")
    match = tuple(compile_pattern(p) for p in _strings(entry.get("match")))
    if not match:
        raise SignatureError("needs at least one pattern in 'match'")
    fixes = []
    for fix in entry.get("fix", []) or []:
        extra = set(fix) - _FIX_ALLOWED
        if extra:
            raise SignatureError(f"fix has unknown keys {sorted(extra)}")
        fixes.append(
            FixSpec(
                str(fix["summary"]),
                tuple(_strings(fix.get("commands"))),
                Risk(fix.get("risk", "safe")),
                fix.get("url"),
                parse_condition(fix["when"]) if fix.get("when") else None,
                parse_condition(fix["first_when"]) if fix.get("first_when") else None,
            )
        )
    if not fixes:
        raise SignatureError("needs at least one fix")
    examples = tuple(_strings(entry.get("examples"))) + tuple(_strings(entry.get("example")))
    signature = Signature(
        key=str(entry.get("key") or finding_id),
        id=finding_id,
        severity=Severity(entry["severity"]),
        title=str(entry["title"]),
        detail=str(entry.get("detail", "")),
        match=match,
        all=tuple(compile_pattern(p) for p in _strings(entry.get("all"))),
        none=tuple(compile_pattern(p) for p in _strings(entry.get("none"))),
        capture=tuple(compile_pattern(p) for p in _strings(entry.get("capture"))),
        requires=tuple(_conditions(entry.get("requires"))),
        confirm=tuple(_conditions(entry.get("confirm"))),
        refute=tuple(_conditions(entry.get("refute"))),
        score=int(entry.get("score", DEFAULT_SCORE)),
        explains=tuple(_strings(entry.get("explains"))),
        fixes=tuple(fixes),
        defaults={str(k): str(v) for k, v in (entry.get("defaults") or {}).items()},
        sources=tuple(_strings(entry.get("sources"))),
        examples=examples,
        origin=origin,
    )
    if not examples:
        raise SignatureError("needs an example line it matches")
    return signature


def _strings(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value]


def _conditions(value: Any) -> Iterable[Condition]:
    for item in value or []:
        if isinstance(item, str):
            yield parse_condition(item)
        else:
            yield parse_condition(str(item["when"]), int(item.get("weight", DEFAULT_WEIGHT)))


def anchors() -> frozenset[str]:
    """Every literal a signature line can be recognised by: the free-text reader keeps a line
    holding any of them."""
    found: set[str] = set()
    for signature in DATA.signatures:
        for pattern in signature.patterns():
            found.update(pattern.anchors)
    return frozenset(found)


def match_anchors() -> frozenset[str]:
    """The anchors of the patterns that make a signature apply (match, all, capture), without
    those of its conditions: what the free-text reader still looks for deep in a long log."""
    found: set[str] = set()
    for signature in DATA.signatures:
        for pattern in (*signature.match, *signature.all, *signature.capture):
            found.update(pattern.anchors)
    return frozenset(found)


# ---------------------------------------------------------------------------------------------
# Checks


def _help(signatures: list[Signature]) -> str:
    blocks = []
    for sig in signatures:
        lines = [
            _template(sig.title, _EMPTY_FACTS, sig.defaults),
            "",
            sig.detail.strip(),
            "",
            "Recognised by: " + " | ".join(p.text for p in sig.match),
        ]
        if sig.all:
            lines.append("Together with: " + " | ".join(p.text for p in sig.all))
        if sig.requires:
            lines.append("Only when: " + "; ".join(c.text for c in sig.requires))
        if sig.confirm:
            lines.append("Confirmed by: " + "; ".join(c.text for c in sig.confirm))
        if sig.refute:
            lines.append("Ruled out by: " + "; ".join(c.text for c in sig.refute))
        lines.append("Fixes, in order:")
        for rank, fix in enumerate(sig.fixes, start=1):
            lines.append(f"  {rank}. {_template(fix.summary, _EMPTY_FACTS, sig.defaults)}")
        if sig.sources:
            lines.append("Sources: " + ", ".join(sig.sources))
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def _make_check(finding_id: str, signatures: list[Signature]) -> Check:
    chosen = tuple(signatures)

    def run(snap: Snapshot, matrices: Any) -> Finding | None:
        facts = Facts(snap, matrices)
        best: Match | None = None
        for sig in chosen:
            found = evaluate(sig, facts)
            if found is not None and (best is None or found.score > best.score):
                best = found
        return None if best is None else to_finding(best, facts)

    run.__doc__ = _help(signatures)
    run.__name__ = "signature_" + re.sub(r"\W", "_", finding_id)
    return Check((finding_id,), ("pasted.text",), run)


def _no_match_check() -> Check:
    def run(snap: Snapshot, matrices: Any) -> Finding | None:
        if match_all(snap, matrices):
            return None
        text = snap.data("pasted.text") or {}
        errors = [str(e) for e in text.get("errors", [])][:5]
        if not errors:
            return None
        words = DATA.no_match
        return Finding(
            id=NO_MATCH_ID,
            severity=Severity.INFO,
            title=str(words.get("title", NO_MATCH_ID)),
            detail=str(words.get("detail", "")),
            confidence=Confidence.LOW,
            evidence=tuple(Evidence("pasted.text", _clip(e)) for e in errors),
            fixes=tuple(
                Fix(
                    str(f["summary"]),
                    tuple(_strings(f.get("commands"))),
                    Risk(f.get("risk", "safe")),
                    f.get("url"),
                )
                for f in words.get("fix", []) or []
            ),
        )

    run.__doc__ = str(
        DATA.no_match.get("help", "No known error signature matched the pasted text.")
    )
    return Check((NO_MATCH_ID,), ("pasted.text",), run)


NO_MATCH_ID = "triage.no-signature-matched"
DATA = load()


class _NoSnapshot(Facts):
    def __init__(self) -> None:  # noqa: D401 - facts of nothing, for help pages
        self.text, self.lines, self.lowered, self.captures, self.joined = {}, [], [], {}, ""
        self._source, self._values = None, {}


_EMPTY_FACTS = _NoSnapshot()


def _build_checks() -> list[Check]:
    by_id: dict[str, list[Signature]] = {}
    for sig in DATA.signatures:
        by_id.setdefault(sig.id, []).append(sig)
    return [_make_check(fid, sigs) for fid, sigs in by_id.items()] + [_no_match_check()]


CHECKS: list[Check] = _build_checks()

__all__ = [
    "CHECKS",
    "DATA",
    "Facts",
    "Match",
    "Signature",
    "SignatureError",
    "anchors",
    "match_anchors",
    "compile_pattern",
    "evaluate",
    "load",
    "match_all",
    "match_scores",
    "parse_condition",
    "to_finding",
]
