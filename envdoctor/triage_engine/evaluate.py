"""Evaluating the causes on one snapshot: one pass over every signature, each match turned into
a finding that carries its score and origin (`Finding.score`, `Finding.origin`).

Score = the signature's score when a canonical line matched (0 when prose alone reached it)
+ the weight of each cue found (negative cues lower it) + the weight of each confirming
condition. A signature without a canonical line applies when its cues add up to `prose_min`;
reached by prose alone, it scores at most its `prose_max` (family fallbacks stay below the
canonical lines, which score 45 and more).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import replace
from typing import Any

from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.snapshot import Confidence, Snapshot
from envdoctor.triage_engine.conditions import evaluate_condition, parse_condition
from envdoctor.triage_engine.facts import Facts
from envdoctor.triage_engine.loader import DATA
from envdoctor.triage_engine.model import Match, Pattern, Signature
from envdoctor.triage_engine.rank import with_fixes

NO_MATCH_ID = "triage.no-signature-matched"
MAX_EVIDENCE_CHARS = 300
# a paste about TensorFlow, Paddle or JAX that never names torch: the torch-build remedies
# (the chooser's torch wheels) cannot fix it
ANOTHER_FRAMEWORK_ONLY = parse_condition(
    "text ~ 'tensorflow|paddlepaddle|import paddle|\\bjax\\b' and text !~ '\\btorch\\b|pytorch'"
)


def evaluate(signature: Signature, facts: Facts) -> Match | None:
    """The match of one signature, or None when it does not apply."""
    line, captures = _find(signature.match, facts)
    cue_sum, cue_lines = _cues(signature, facts)
    if line is None:
        if not cue_lines or cue_sum < signature.prose_min:
            return None
        line, base = cue_lines[0], 0
    else:
        base = signature.score
    for pattern in signature.all:  # a phrasing entry's `all` holds too (it was skipped once)
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
    captures = _with_decoded_versions(captures, facts)
    scoped = facts.with_captures(captures)
    for condition in signature.requires:
        if evaluate_condition(condition, scoped)[0] is not True:
            return None
    for condition in signature.refute:
        if evaluate_condition(condition, scoped)[0] is True:
            return None
    score = base + cue_sum
    confirmed = []
    for condition in signature.confirm:
        outcome, seen = evaluate_condition(condition, scoped)
        if outcome is True:
            score += condition.weight
            confirmed.append((condition, seen))
    if base == 0 and signature.prose_max is not None:
        score = min(score, signature.prose_max)  # a fallback stays below canonical lines
    return Match(signature, score, line, captures, confirmed, cue_lines)


def _cues(
    signature: Signature, facts: Facts, general: Collection[str] = frozenset()
) -> tuple[int, list[str]]:
    """(the summed weight of the cues present, the lines of the positive ones); a cue found
    only by a pattern in `general` does not count."""
    total, lines = 0, []
    for cue in signature.cues:
        patterns = [p for p in cue.patterns if p.text not in general] if general else cue.patterns
        line, _ = _find(patterns, facts)
        if line is not None:
            total += cue.weight
            if cue.weight > 0:
                lines.append(line)
    return total, lines


def holds_all(signature: Signature, facts: Facts) -> bool:
    """Whether the paste holds every `all` line of a signature: what it presupposes beside its
    match (the early GCN Radeon an entry's advice is for)."""
    return all(_find((p,), facts)[0] is not None for p in signature.all)


# the weight entries give an explicit "not this cause" phrasing (lighter negative cues, -24 and
# above, tell sibling entries of one cause apart)
REFUSAL_WEIGHT = -30


def refuses(signature: Signature, facts: Facts) -> bool:
    """Whether a cause's entry was written to turn this paste away: a cue of REFUSAL_WEIGHT or
    below is present ("no GPU wanted", "how do I run it on the CPU" for a CPU-build cause). A
    similar case does not suggest a cause its own entries refuse."""
    return any(
        cue.weight <= REFUSAL_WEIGHT and _find(cue.patterns, facts)[0] is not None
        for cue in signature.cues
    )


def cue_progress(
    signature: Signature, facts: Facts, general: Collection[str] = frozenset()
) -> float:
    """How far the paste's own phrasings went toward a cause that did not apply: the sum of its
    cues present over its `prose_min`, from 0 to 1. Weak on its own (below the threshold the
    cause was written with), it tells apart the causes similar cases suggest: a paste that names
    triton leans to the triton cause among them. 0 when no positive cue is present, a `none`
    line is (or, for an entry without canonical lines, an `all` line is not), or a fact it
    `requires` is not known to hold (its cues then only say what the
    paste is about: "cuda" for a driver-floor cause that needs the versions). `general`: cue
    patterns (their text) not counted, because they name no cause in particular."""
    if not signature.cues or any(_find((p,), facts)[0] is not None for p in signature.none):
        return 0.0
    if not signature.match and not holds_all(signature, facts):
        return 0.0  # a phrasing entry whose `all` is absent cannot apply
    if any(evaluate_condition(c, facts)[0] is not True for c in signature.requires):
        return 0.0
    total, lines = _cues(signature, facts, general)
    if not lines or total <= 0:
        return 0.0
    return min(1.0, total / max(1, signature.prose_min))


def _with_decoded_versions(captures: dict[str, str], facts: Facts | None = None) -> dict[str, str]:
    """A capture named `X_code` holding CUDA's 1000*major + 10*minor ("11000") also gives `X`
    ("11.0") and `X_driver`: the driver NVIDIA pairs with that CUDA release on the paste's OS
    (the one whose cuDriverGetVersion reports it), when the tables list it. A capture named
    `X_ptx` holding a PTX ISA version ("8.1") gives `X`, the CUDA release that writes it
    ("12.1", table ptx_isa), and `X_driver` the same way; one named `X_cuda` holding a CUDA
    release ("12.6.77") gives `X` ("12.6") and `X_driver`."""
    out = dict(captures)
    for name, value in captures.items():
        if name.endswith("_code") and value.isdigit() and name[:-5] not in out:
            number = int(value)
            out[name[:-5]] = f"{number // 1000}.{(number % 1000) // 10}"
        elif name.endswith("_ptx") and name[:-4] not in out and facts is not None:
            from envdoctor.queries.nvidia import cuda_for_ptx

            cuda = cuda_for_ptx(facts.matrices, value)
            if cuda is None:
                continue
            out[name[:-4]] = cuda
        elif name.endswith("_cuda") and name[:-5] not in out and re.match(r"\d+\.\d+", value):
            out[name[:-5]] = ".".join(value.split(".")[:2])
        else:
            continue
        base = name.rsplit("_", 1)[0]
        driver = _driver_for_cuda(out[base], facts)
        if driver and f"{base}_driver" not in out:
            out[f"{base}_driver"] = driver
    return out


def _driver_for_cuda(cuda: str, facts: Facts | None) -> str | None:
    """The driver of CUDA release `cuda` from the tables, for the paste's OS (Windows when it
    says so, else Linux, as `facts._derive_driver_floors` reads it); None when unlisted."""
    from envdoctor.queries.nvidia import min_driver_for_cuda

    if facts is None:
        return None
    system = "windows" if facts.values.get("os.system") == "Windows" else "linux"
    return min_driver_for_cuda(facts.matrices, cuda, system)


def _find(patterns: Iterable[Pattern], facts: Facts) -> tuple[str | None, dict[str, str]]:
    for pattern in patterns:
        for index in facts.index.lines_with(pattern.anchors):  # the lines holding an anchor
            line = facts.lines[index]
            found = pattern.search(line, facts.lowered[index])
            if found is not None:
                return line, {k: v for k, v in found.groupdict().items() if v is not None}
    return None, {}


def match_all(
    snap: Snapshot,
    matrices: Any = None,
    signatures: Iterable[Signature] | None = None,
    facts: Facts | None = None,
) -> list[Match]:
    """Every signature that applies to the snapshot, best score first."""
    if not snap.has("pasted.text"):
        return []
    facts = facts or Facts(snap, matrices)
    if signatures is None:  # those a paste's notable lines can match (the rest cannot apply)
        signatures = DATA.candidates(lambda literal: facts.index.present(literal) >= 0)
    found = [m for m in (evaluate(s, facts) for s in signatures) if m is not None]
    return sorted(found, key=lambda m: (-m.score, m.signature.key))


def signature_findings(
    snap: Snapshot,
    matrices: Any = None,
    signatures: Iterable[Signature] | None = None,
    facts: Facts | None = None,
) -> list[Finding]:
    """One finding per finding id (its best-scoring signature), or the no-match finding when
    the paste holds error lines (or says in words that something is wrong) and nothing applies.
    One pass: every signature evaluated once. `facts`: the paste's facts when the caller has
    them (they are derived from `snap`)."""
    if not snap.has("pasted.text"):
        return []
    facts = facts if facts is not None else Facts(snap, matrices)
    per_id: dict[str, list[Match]] = {}
    for match in match_all(snap, matrices, signatures, facts):
        per_id.setdefault(match.signature.id, []).append(match)
    if not per_id:
        no_match = no_match_finding(snap)
        return [] if no_match is None else [no_match]
    return [_one_finding(matches, facts, snap, matrices) for matches in per_id.values()]


def _one_finding(matches: list[Match], facts: Facts, snap: Snapshot, matrices: Any) -> Finding:
    """The finding of one id: its best-scoring signature's, its fixes completed (up to
    MAX_FIXES) with those of the id's phrasing entries that applied. A canonical line's entry
    and a phrasing's entry of one cause are two ways the field knows it, and the phrasing names
    knobs its threads turned: its fixes are alternatives, listed after the stronger entry's. A
    weaker entry with canonical lines of its own adds nothing: the stronger one is the more
    specific reading of the same lines (an inference OOM's fixes leave out the training levers
    of the generic OOM entry on purpose)."""
    finding = to_finding(matches[0], facts, snap, matrices)
    phrasings = [m for m in matches[1:] if not m.signature.match]
    if not phrasings:
        return finding
    found = [(m, to_finding(m, facts, snap, matrices)) for m in phrasings]
    rest = [fix for _, f in found for fix in f.fixes]
    if matches[0].signature.remedies:  # the chooser's fixes, proven on this paste's facts, lead
        return replace(finding, fixes=tuple(with_fixes(finding.fixes, rest)))
    # a phrasing's fix its author put first for what this paste says ("int4 applied and still out
    # of memory") leads, after the stronger entry's own such fixes
    leading = [
        *_leading(matches[0], facts, finding),
        *(fix for m, f in found for fix in _leading(m, facts, f)),
    ]
    return replace(finding, fixes=tuple(with_fixes(leading, (*finding.fixes, *rest))))


def _leading(match: Match, facts: Facts, finding: Finding) -> list[Fix]:
    """The fixes of `finding` (made from `match`) whose `first_when` holds for this paste."""
    sig = match.signature
    scoped = facts.with_captures(match.captures)
    firsts = {
        template(spec.summary, scoped, sig.defaults)
        for spec in sig.fixes
        if spec.first_when is not None and evaluate_condition(spec.first_when, scoped)[0] is True
    }
    return [fix for fix in finding.fixes if fix.summary in firsts]


def to_finding(
    match: Match, facts: Facts, snap: Snapshot | None = None, matrices: Any = None
) -> Finding:
    """The finding a match reports, its texts filled in from the facts and captures. Its fixes:
    the chooser's for the signature's remedies (with a snapshot), then the written ones; never
    one that reinstalls the wheel already installed."""
    from envdoctor.triage_engine.remedies import (
        installed_wheel_fix,
        is_canned_torch_index,
        resolve_fixes,
        templated,
    )

    sig = match.signature
    scoped = facts.with_captures(match.captures)

    def fill(text: str) -> str:
        return template(text, scoped, sig.defaults)

    def fill_command(text: str) -> str:
        return installed_torch_tags(fill(text), scoped)

    evidence = [Evidence("pasted.text", _clip(match.line))]
    evidence += [Evidence("pasted.text", _clip(line)) for line in match.cue_lines[1:3]]
    shown: set[str] = set()
    for _condition, seen in match.confirmed:
        for fact, value, expected in seen:
            if fact == "pasted.text" or fact in shown:
                continue
            shown.add(fact)
            name = f"match.{fact[2:]}" if fact.startswith("m.") else fact
            evidence.append(Evidence(name, _clip(show(value)), expected))
    ranked: list[tuple[int, Fix]] = []
    chosen = False
    if snap is not None and sig.remedies:
        other_framework = evaluate_condition(ANOTHER_FRAMEWORK_ONLY, scoped)[0] is True
        specs = [
            templated(
                r, lambda t: template(t, scoped, sig.defaults), lambda t: unknown_in(t, scoped)
            )
            for r in sig.remedies
            # a torch build cannot fix a paste about another framework that never names torch
            if not (other_framework and r.kind.startswith("torch-"))
        ]
        resolved = resolve_fixes(specs, snap, matrices, scoped)
        chosen = any(f.commands for f in resolved)
        ranked += [(0, fix) for fix in resolved]
    for spec in sig.fixes:
        when = None if spec.when is None else evaluate_condition(spec.when, scoped)[0]
        if when is False:
            continue
        if spec.unless is not None and evaluate_condition(spec.unless, scoped)[0] is True:
            continue  # known not to apply to this paste's facts (another vendor, OS, ...)
        first = (
            spec.first_when is not None and evaluate_condition(spec.first_when, scoped)[0] is True
        )
        # known to apply first (before the chooser's: the cause's author said so for this
        # case), then fixes for every case, then those whose condition is unknown
        rank = -1 if first else (1 if when is True else (2 if spec.when is None else 3))
        if any(unresolved(t, scoped, sig.defaults) for t in (spec.summary, *spec.commands)):
            continue  # a fact it names is unknown and has no default words: not shown
        # a command naming an unknown fact would run with its default words in it ("whl/its
        # variant"): the summary says it in words, the command is left out
        commands = tuple(fill_command(c) for c in spec.commands if not unknown_in(c, scoped))
        # the summary stays the catalog's words (translated as written); the commands run as given
        written = Fix(fill(spec.summary), commands, spec.risk, spec.url)
        if chosen and is_canned_torch_index(written):  # the chooser's exact commands replace it
            written = replace(written, commands=())
            rank = max(rank, 1)  # ... and its own words come after the chooser's
        ranked.append((rank, written))
    ranked.sort(key=lambda pair: pair[0])
    useful = [f for _, f in ranked if not installed_wheel_fix(f, scoped)] or [f for _, f in ranked]
    useful = [through_pasted_python(f, scoped) for f in useful]
    fixes = tuple(dict((f.summary, f) for f in useful).values())
    return Finding(
        id=sig.id,
        severity=sig.severity,
        title=fill(sig.title),
        detail=fill(sig.detail),
        confidence=Confidence.LOW,
        evidence=tuple(evidence),
        fixes=fixes,
        explains=sig.explains,
        score=match.score,
        origin=f"signature:{sig.key}",
    )


def no_match_finding(snap: Snapshot) -> Finding | None:
    """ "No known error signature matched", with the error lines the paste holds; for a paste
    that only says in words that something is wrong, what to paste to get a diagnosis (None
    when the paste reads as no problem at all)."""
    from envdoctor.triage_engine.problem_words import problem_lines

    text = snap.data("pasted.text") or {}
    errors = [str(e) for e in text.get("errors", [])][:5]
    words: Mapping[str, Any] = DATA.no_match
    if not errors:
        errors = problem_lines(snap)
        if not errors:
            return None
        words = words.get("prose") or {}  # no error line: the words for a report in prose
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
                tuple(str(c) for c in f.get("commands") or ()),
                Risk(f.get("risk", "safe")),
                f.get("url"),
            )
            for f in words.get("fix", []) or []
        ),
        score=0,
        origin="signature:none",
    )


def show(value: Any) -> str:
    """A fact's value as text (lists joined by commas)."""
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    return str(value)


def _clip(text: str) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= MAX_EVIDENCE_CHARS else text[: MAX_EVIDENCE_CHARS - 1] + "…"


_PLACEHOLDER = re.compile(r"\{\{\s*([a-z][a-z0-9_.-]*)\s*\}\}")
# the written fixes' placeholders for the installed torch's wheel tags, as the wheel indexes
# spell them: OpenMMLab's dist/<cuXYZ>/torch<X.Y>/ (mmcv 2) and dist/<cuXXX>/<torchX.Y.0>/
# (mmcv-full), PyG's whl/torch-<version>+<cuXYZ>.html (a page per minor release, X.Y.0)
_CU_TAG = re.compile(r"<cu(?:XYZ|XXX)?>")
_TORCH_MINOR = re.compile(r"<torchX\.Y>|torch<X\.Y>")
_TORCH_MINOR0 = re.compile(r"<torchX\.Y\.0>")
_PYG_PAGE = re.compile(r"torch-(?:<torch\.__version__>|<version>\+<cu(?:XYZ|XXX)?>)")


# ComfyUI's Windows portable build runs its own interpreter: a pip or python of PATH installs
# into another Python than the one whose torch the paste shows
_EMBEDDED_PYTHON = ".\\python_embeded\\python.exe"
_PATH_PYTHON = re.compile(r"^(?:python3?(?=\s+-[mc]\s)|pip3?(?=\s))")


def through_pasted_python(fix: Fix, facts: Facts) -> Fix:
    """`fix` with its `python -m pip` / `python -c` / `pip` commands run by the interpreter the
    paste runs under, where that is ComfyUI portable's embedded Python (python_embeded)."""
    if "python_embeded" not in facts.joined or not fix.commands:
        return fix

    def swap(found: re.Match[str]) -> str:
        return _EMBEDDED_PYTHON + (" -m pip" if found.group(0).startswith("pip") else "")

    commands = tuple(_PATH_PYTHON.sub(swap, command) for command in fix.commands)
    return fix if commands == fix.commands else replace(fix, commands=commands)


def installed_torch_tags(text: str, facts: Facts) -> str:
    """A written fix's command with its wheel-index placeholders filled in from the installed torch
    when the paste gives its version and CUDA build ("dist/<cuXYZ>/torch<X.Y>" ->
    "dist/cu121/torch2.1"), so it runs as written; left as it is otherwise, or for a CPU build (no
    CUDA tag). Summaries keep the placeholders: they are the message catalog's words."""
    if "<" not in text:
        return text
    version = str(facts.get("torch.version") or "")
    variant = str(facts.get("torch.variant") or "")
    found = re.match(r"(\d+)\.(\d+)", version)
    if not found or not re.fullmatch(r"cu\d{2,3}", variant):
        return text
    minor = f"{found.group(1)}.{found.group(2)}"
    text = _PYG_PAGE.sub(f"torch-{minor}.0+{variant}", text)
    text = _TORCH_MINOR0.sub(f"torch{minor}.0", text)
    text = _TORCH_MINOR.sub(f"torch{minor}", text)
    return _CU_TAG.sub(variant, text)


def template(text: str, facts: Facts, defaults: Mapping[str, str]) -> str:
    """`text` with each {{fact}} filled in (the signature's or the shared default words when the
    fact is unknown)."""

    def fill_one(found: re.Match[str]) -> str:
        name = found.group(1)
        value = facts.get(name)
        if value is None or value == [] or value == "":
            value = defaults.get(name, DATA.defaults.get(name, name))
        return show(value)

    return _PLACEHOLDER.sub(fill_one, text)


def unknown_facts(text: str, facts: Facts) -> list[str]:
    """The facts `text` names ({{fact}}) that the paste does not give."""
    out = []
    for found in _PLACEHOLDER.finditer(text):
        value = facts.get(found.group(1))
        if value is None or value == [] or value == "":
            out.append(found.group(1))
    return out


def unknown_in(text: str, facts: Facts) -> bool:
    """Whether `text` names a fact the paste does not give (default words or not)."""
    return bool(unknown_facts(text, facts))


def unresolved(text: str, facts: Facts, defaults: Mapping[str, str]) -> bool:
    """Whether `text` names a fact that is unknown and has no default words."""
    return any(n not in defaults and n not in DATA.defaults for n in unknown_facts(text, facts))


def help_text(signatures: list[Signature]) -> str:
    """The `envdoctor explain` page of one finding id's signatures."""
    empty = Facts()
    blocks = []
    for sig in signatures:
        lines = [template(sig.title, empty, sig.defaults), "", sig.detail.strip(), ""]
        if sig.match:
            lines.append("Recognised by: " + " | ".join(p.text for p in sig.match))
        if sig.cues:
            lines.append(
                "Phrasings weighed: "
                + " | ".join(
                    f"{'/'.join(p.text for p in c.patterns)} ({c.weight:+d})" for c in sig.cues
                )
            )
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
            lines.append(f"  {rank}. {template(fix.summary, empty, sig.defaults)}")
        if sig.sources:
            lines.append("Sources: " + ", ".join(sig.sources))
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)
