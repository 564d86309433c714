"""Similar confirmed cases: the closest reports of the case base, shown as evidence, and the
causes they suggest when no signature applies.

The case base is the matrix table `triage_cases` (`matrices/triage_cases.toml`: one row per real
thread of the training corpus, its URL as `source`, the finding id of its confirmed cause and
the confirmed fix in our own words, and the distinctive words of its pasted text). Being a
matrix, it is replaced by `envdoctor matrices update` like any table. It is written by
`bench/build_case_base.py` from the training cases only (never the frozen test split).

Words are lower-case tokens of 4+ characters and Chinese character pairs, so an English and a
Chinese report are compared on the same footing. Each word weighs its inverse document frequency
over the case base (a word most cases share, "https" or "可以", weighs little; "bitsandbytes" or
"shmutils" much), and a case's closeness to a paste is the cosine of the two weighted word sets.
A cause's support is the sum of its two closest cases (two similar threads agreeing say more than
one). A supported cause is suggested only on evidence of its own (`real_evidence`): words that
tell it (most cases holding them confirmed it) or a phrasing of its own that is not every cause's
("cuda", "the GPU is not used"); general words let the causes with many cases through as filler.
The thresholds were chosen on the training corpus with each thread, and each repository, left out
of the case base (`bench/casebase_cv.py`, which also counts the suggestions shown and right).
Weights over word sets are summed with `math.fsum`: a plain sum depends on the order a set is
walked, which changes with each interpreter's string hashing, and ties at a threshold or between
fixes then fell differently from run to run.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from envdoctor.model.findings import SEVERITY_ORDER, Evidence, Finding, Fix, Severity
from envdoctor.model.snapshot import Snapshot
from envdoctor.triage_engine.problem_words import is_problem_report
from envdoctor.triage_engine.rank import MAX_FIXES, with_fixes

TABLE = "triage_cases"
MIN_SIMILARITY = 0.30  # a case this close (cosine) is shown as evidence
MIN_WORDS = 4  # ... when it shares at least this many words with the paste
MAX_SHOWN = 2
SUGGEST_SUPPORT = 0.10  # a cause this well supported is suggested when no signature applied
SUGGEST_WEIGHT = 4.0  # the shared words' summed weight (inverse document frequencies)
SUGGEST_SCORE = 20  # suggested causes score 20-40: below every signature's finding
MAX_SUGGESTED = 3
PHRASING_WEIGHT = 0.25  # a cause's own phrasings in the paste add up to this to its support
# When is a suggestion's evidence real (each chosen with every thread, and every repository, left
# out of the case base: bench/casebase_cv.py)? Most words a paste shares with a case are general
# ("such", "tesla", "codes", "安装"), and most causes' cues include the topic ("cuda", "torch") or
# the family's symptom ("the GPU is not used"): both let the causes with many cases through as
# filler. So a suggestion needs words that tell its cause, or a phrasing of its own:
GUESS_PHRASING = 0.75  # below a prose guess: the paste's phrasings went this far toward the cause
TELLING_SHARE = 0.5  # a shared word tells a cause when this share of the cases holding it are its
TELLING_WEIGHT = 4.0  # ... and the telling words shared weigh this much (one rare word is enough)
GENERAL_CUE_CAUSES = 8  # a cue phrasing the entries of this many causes share names none of them
# a Chinese character pair only one case holds is mostly the seam of two words ("的环" of "我的
# 环境"): it tells a cause when this many of its cases hold it
TELLING_PAIR_CASES = 2
# ... and, as a suggestion's only evidence, a word of any script tells its cause when this many
# of the cause's cases hold it. 2 cut a word one case holds ("attributeerror" of an InternVL
# model error), but by repository cross-validation it also cut 2 of the 30 right suggestions
# (wrong ones 193 -> 176): kept at 1
TELLING_CASES = 1
# a cause's own phrasings are evidence for a suggestion when they went further than this toward
# it (`evaluate.cue_progress`, general cues left out). 0.34 halved the wrong suggestions but
# lost strict hits (by repository: strict first 79% -> 78%, right suggestions 30 -> 22)
CUE_EVIDENCE = 0.0
ROW_EXP = 0.5
ROW_REF = 23.0
_WORD = re.compile(r"[a-z_][a-z0-9_.+-]{3,40}")
_CJK_RUN = re.compile(r"[\u4e00-\u9fff]{2,}")
_PARTS = re.compile(r"[-_.+]+")
_APPLE = r"\bmps\b|apple|macos|mac ?os|macbook|\bmac\b|\bm[1-4]\b|metal|darwin|osx"
# Causes that exist only in one setting (a Slurm job, a pod, WSL, Windows, a container, an AMD,
# Apple, Intel or Jetson GPU, a virtual machine), by their ids' prefix, and the words a paste
# about that setting holds. A similar case does not suggest such a cause for a paste that never
# names its setting: the words it shares with the case are about something else.
SETTINGS = {
    prefix: re.compile(words, re.IGNORECASE | re.ASCII)
    for prefix, words in {
        "cluster.": r"slurm|srun|sbatch|salloc|SBATCH|squeue|\bpbs\b|qsub|\bbsub|\bhpc\b|"
        r"cluster|集群|作业|compute node|login node",
        "k8s.": r"kubernetes|k8s|kubectl|kubelet|\bpods?\b|helm|daemonset|gpu.operator|k3s|"
        r"k0s|\beks\b|\baks\b|\bgke\b|openshift",
        "wsl.": r"\bwsl|/usr/lib/wsl|microsoft-standard|windows subsystem",
        "windows.": r"windows|\bwin(?:32|64|_amd64|1[01])\b|\.dll\b|\.exe\b|\b[a-z]:\\|"
        r"powershell|\bcmd\b|visual studio|msvc|\bwin\d*\b",
        "container.": r"docker|container|podman|nvidia-ctk|dockerfile|compose|containerd|cri-o|"
        r"singularity|apptainer|nvcr\.io|\bimage\b|kubernetes|k8s|\bpods?\b|\bcdi\b|容器|镜像",
        "rocm.": r"rocm|\bhip|amdgpu|\bamd\b|radeon|gfx\d|\bhsa_|/dev/kfd|rocminfo|"
        r"\brx ?\d{3,4}|instinct|\bmi\d{2,3}",
        "apple.": _APPLE,
        "macos.": _APPLE,
        "jetson.": r"jetson|tegra|jetpack|\bl4t\b|xavier|orin|aarch64|\bnano\b",
        "vm.": r"\bvms?\b|virtual|vfio|qemu|\bkvm|proxmox|esxi|hyper-?v|passthrough|"
        r"pass-through|libvirt|unraid|vmware|virtualbox|\bwsl|虚拟机|直通",
        "intel.": r"intel|\bxpu|ipex|oneapi|sycl|level.?zero|\barc\b|iris|openvino",
    }.items()
}
# Causes of one product (an application or a library, by their ids' prefix) and the words that
# name it: a similar case does not suggest a vLLM, Ollama or bitsandbytes cause for a paste that
# never names the product (an InternVL model-class error shares "int8" with a bitsandbytes thread)
PRODUCTS = {
    prefix: re.compile(words, re.IGNORECASE | re.ASCII)
    for prefix, words in {
        "app.vllm": r"vllm",
        "vllm.": r"vllm",
        "app.ollama": r"ollama",
        "app.llamacpp": r"llama[._-]?cpp|llama-(?:server|cli)|gguf|ggml|n_gpu_layers|n-gpu-layers",
        "app.lmdeploy": r"lmdeploy",
        "app.chattts": r"chattts",
        "bitsandbytes.": r"bitsandbytes|\bbnb\b|load_in_[48]bit|libbitsandbytes",
        "paddle.": r"paddle|飞桨",
        "jax.": r"\bjax",
        "flashattn.": r"flash[-_ ]?attn|flash[-_ ]?attention",
        "mmcv.": r"mmcv|\bmm(?:det|seg|pose|engine)",
        "dlib.": r"dlib",
        "apex.": r"apex",
        "colmap.": r"colmap",
        "autogptq.": r"auto[-_]?gptq",
    }.items()
}
# A word of a cause's id that names a setting (SETTINGS) binds it as its prefix does:
# "bitsandbytes.windows-unsupported" exists on Windows only
ID_SETTINGS = {
    "windows": "windows.",
    "wsl": "wsl.",
    "jetson": "jetson.",
    "rocm": "rocm.",
    "amd": "rocm.",
    "k8s": "k8s.",
    "slurm": "cluster.",
    "docker": "container.",
    "mps": "apple.",
    "macos": "macos.",
    "apple": "apple.",
    "intel": "intel.",
    "xpu": "intel.",
}
# Causes of the Linux kernel module (DKMS, Secure Boot signing, nouveau, the module's build and
# loading): no cause of a paste from native Windows, which names Windows and no Linux at all
LINUX_KERNEL_CAUSES = re.compile(
    r"nvidia\.(?:dkms-|module-|secure-boot|nouveau|uvm-|driver-too-old-for-kernel|preempt-rt|"
    r"gpu-requires-open-module|open-module-unsupported)"
)
LINUX = re.compile(
    r"linux|ubuntu|debian|fedora|centos|rhel|rocky|\barch\b|manjaro|\bwsl|dkms|modprobe|lsmod|"
    r"\bkernel\b|uname|/lib/modules|/usr/|/etc/|/home/|/root\b|\bapt\b|apt-get|\bdnf\b|\byum\b|"
    r"\.so\b|\.ko\b|dmesg|journalctl|systemctl",
    re.IGNORECASE,
)
USE_PRODUCTS = True  # bench/casebase_cv.py toggles it to measure the gate
# A torch cause is not suggested for a paste that names another framework and never torch (a
# TensorFlow report "the GPU is never used" is not a CPU-only torch build)
OTHER_FRAMEWORK = re.compile(r"tensorflow|keras|paddle|飞桨|\bjax|mxnet|onnxruntime", re.I)
TORCH = re.compile(r"torch", re.IGNORECASE)
# Words and Chinese pairs any report uses, whatever its cause: kept out of the comparison so a
# paste's distinctive word ("bitsandbytes", "显存") is what decides
STOP = frozenset(
    [
        "this",
        "that",
        "with",
        "from",
        "have",
        "been",
        "were",
        "when",
        "what",
        "your",
        "file",
        "line",
        "most",
        "last",
        "call",
        "none",
        "true",
        "false",
        "self",
        "return",
        "error",
        "errors",
        "failed",
        "python",
        "site-packages",
        "traceback",
        "recent",
        "doesn",
        "work",
        "works",
        "working",
        "worked",
        "does",
        "didn",
        "isn",
        "wasn",
        "aren",
        "won",
        "can't",
        "cannot",
        "could",
        "would",
        "should",
        "using",
        "used",
        "tried",
        "trying",
        "after",
        "before",
        "still",
        "also",
        "just",
        "only",
        "some",
        "then",
        "than",
        "them",
        "they",
        "there",
        "here",
        "into",
        "about",
        "help",
        "please",
        "thanks",
        "thank",
        "anyone",
        "someone",
        "issue",
        "issues",
        "problem",
        "problems",
        "fix",
        "fixed",
        "get",
        "got",
        "getting",
        "make",
        "makes",
        "made",
        "need",
        "needs",
        "want",
        "trying",
        "running",
        "runs",
        "same",
        "again",
        "问题",
        "请问",
        "谢谢",
        "如何",
        "怎么",
        "什么",
        "为什",
        "无法",
        "可以",
        "运行",
        "使用",
        "出现",
        "一下",
        "这个",
        "那个",
        "但是",
        "已经",
        "还是",
    ]
)


def words_of(lines: Iterable[str]) -> set[str]:
    """The comparable words of some text: a compound ("onnxruntime-gpu", "flash_attn_2_cuda")
    also gives its parts of 4+ characters, so "flash-attn" and "flash_attn" meet."""
    out: set[str] = set()
    for line in lines:
        low = line.lower()[:2000]
        for word in _WORD.findall(low):
            word = word.strip(".-+")
            if word in STOP:
                continue
            out.add(word)
            out.update(p for p in _PARTS.split(word) if len(p) >= 4 and p not in STOP)
        for run in _CJK_RUN.findall(low):
            out.update(p for p in (run[i : i + 2] for i in range(len(run) - 1)) if p not in STOP)
    out.discard("")
    return out


@dataclass(frozen=True)
class Index:
    """The case base ready to compare: each word's weight (inverse document frequency) and each
    row with its word set; the length of a row's weighted vector is computed the first time a
    paste shares enough words with it (most rows share none: building them all was a fifth of a
    short paste's triage)."""

    idf: Mapping[str, float]
    rows: tuple[tuple[Mapping[str, Any], frozenset[str]], ...] = ()
    norms: dict[int, float] = field(default_factory=dict, compare=False)
    causes: list[Any] = field(default_factory=list, compare=False)  # [words, their counts]

    @classmethod
    def of(cls, rows: Iterable[Mapping[str, Any]]) -> Index:
        """The index of `rows` (the last one built is reused while the rows are the same: a
        triage compares its paste twice, and the table is the same from one paste to the
        next). Weights are the rows' own (`weights`, 100 x each word's inverse document
        frequency over the whole training corpus), else computed over the rows (a word in every
        row still weighs log 2)."""
        rows = [r for r in rows if r.get("words")]
        key = tuple((str(r.get("source") or id(r)), str(r.get("words"))[:40]) for r in rows)
        if _LAST and _LAST[0] == key:
            return _LAST[1]
        idf: dict[str, float] = {}
        sets = []
        for row in rows:
            words, weights = _listed(row.get("words")), _listed(row.get("weights"))
            sets.append(frozenset(words))
            if weights and len(weights) == len(words):
                idf.update((w, int(x) / 100) for w, x in zip(words, weights, strict=True))
        frequency = Counter(w for words in sets for w in words if w not in idf)
        idf.update((w, math.log(1 + len(sets) / n)) for w, n in frequency.items())
        index = cls(idf, tuple(zip(rows, sets, strict=True)))
        _LAST[:] = [key, index]
        return index

    def norm(self, words: Iterable[str]) -> float:
        """The length of a word set's weighted vector (words the case base lacks weigh 0)."""
        return math.sqrt(math.fsum(self.idf.get(w, 0.0) ** 2 for w in words))

    def row_norm(self, position: int) -> float:
        """The length of row `position`'s weighted vector (computed once)."""
        found = self.norms.get(position)
        if found is None:
            found = self.norms[position] = self.norm(self.rows[position][1])
        return found

    def telling(self, present: Iterable[str], cause: str, min_cases: int = 1) -> float:
        """The summed weight of the words of `present` that tell `cause`: at least TELLING_SHARE
        of the cases holding the word confirmed it ("fbgemm.dll" tells a Windows DLL cause; "such"
        and "tesla" are in cases of every cause). The counts are of the paste's words only, made
        once per paste (one set intersection per row: all words' counts took a tenth of a short
        paste's triage)."""
        present = frozenset(present)
        if not self.causes or self.causes[0] != present:
            found: dict[str, Counter[str]] = {}
            for row, words in self.rows:
                for word in present.intersection(words):
                    found.setdefault(word, Counter())[str(row.get("cause"))] += 1
            self.causes[:] = [present, found]
        weights = []
        for word in present:
            counts = self.causes[1].get(word)
            if counts and counts[cause] and counts[cause] >= TELLING_SHARE * counts.total():
                if counts[cause] < TELLING_PAIR_CASES and _CJK_RUN.match(word):
                    continue
                if counts[cause] < min_cases:
                    continue
                weights.append(self.idf.get(word, 0.0))
        return math.fsum(weights)

    def cosine(
        self, present: set[str], present_norm: float, words: Iterable[str], norm: float
    ) -> float:
        """How alike a paste's words and a case's words (`norm` long) are: 0 to 1."""
        shared = math.fsum(self.idf.get(w, 0.0) ** 2 for w in present.intersection(words))
        denominator = present_norm * (norm**ROW_EXP) * (ROW_REF ** (1 - ROW_EXP))
        return min(1.0, shared / denominator) if denominator else 0.0


_LAST: list[Any] = []  # [key, Index] of the last rows indexed


def _listed(value: Any) -> list[str]:
    """A row's words or weights: a list, or one string of space-separated items (the shipped
    table's compact form: one cell per row for the matrix loader to check, not a hundred)."""
    if isinstance(value, str):
        return value.split()
    return [str(v) for v in value or ()]


def similar_cases(
    lines: Iterable[str],
    rows: Iterable[Mapping[str, Any]],
    min_similarity: float = MIN_SIMILARITY,
    min_words: int = MIN_WORDS,
    min_weight: float = 0.0,
) -> list[tuple[float, Mapping[str, Any]]]:
    """(similarity, row) for the cases at least `min_similarity` alike that share at least
    `min_words` words, weighing at least `min_weight` together, with the paste; closest first."""
    index = Index.of(rows)
    present = words_of(lines)
    present_norm = index.norm(present)
    found = []
    for position, (row, words) in enumerate(index.rows):
        shared = present.intersection(words)
        if len(shared) < min_words or math.fsum(index.idf.get(w, 0.0) for w in shared) < min_weight:
            continue
        similarity = index.cosine(present, present_norm, words, index.row_norm(position))
        if similarity >= min_similarity:
            found.append((similarity, row))
    return sorted(found, key=lambda pair: -pair[0])


def cause_support(
    lines: Iterable[str], rows: Iterable[Mapping[str, Any]]
) -> list[tuple[float, str, Mapping[str, Any]]]:
    """(support, cause, its closest case) for each cause of the case base, best supported
    first: the sum of the similarities of its two closest cases, each sharing words that weigh
    SUGGEST_WEIGHT together (one distinctive word, "bitsandbytes", or a few common ones)."""
    per_cause: dict[str, list[tuple[float, Mapping[str, Any]]]] = {}
    for similarity, row in similar_cases(lines, rows, 0.0, 1, SUGGEST_WEIGHT):
        per_cause.setdefault(str(row.get("cause")), []).append((similarity, row))
    ranked = [
        (sum(s for s, _ in close[:2]), cause, close[0][1]) for cause, close in per_cause.items()
    ]
    return sorted(ranked, key=lambda item: (-item[0], item[1]))


def with_similar_cases(
    findings: list[Finding], snap: Snapshot, matrices: Any = None
) -> list[Finding]:
    """The findings with the closest confirmed cases added as evidence (`similar.case`)."""
    if not findings or not snap.has("pasted.text"):
        return findings
    rows = _rows(matrices)
    if not rows:
        return findings
    lines = [str(x) for x in (snap.data("pasted.text") or {}).get("lines", [])]
    close = similar_cases(lines, rows)[:MAX_SHOWN]
    if not close:
        return findings
    out = list(findings)
    positions = {f.id: i for i, f in enumerate(out)}
    for similarity, row in close:
        where = positions.get(str(row.get("cause")), 0)
        target = out[where]
        evidence = Evidence("similar.case", _case_text(row, similarity))
        if any(e.actual == evidence.actual for e in target.evidence):
            continue
        out[where] = replace(target, evidence=(*target.evidence, evidence))
    return out


def _case_text(row: Mapping[str, Any], similarity: float) -> str:
    return f"{row.get('source')} ({similarity:.0%} alike): {row.get('cause')}: {row.get('fix')}"


def with_suggestions(found: list[Finding], snap: Snapshot, matrices: Any = None) -> list[Finding]:
    """The signature findings, completed with the causes that similar confirmed cases support
    when no signature applied ("no signature matched" stays only when none does) or when each
    applied by prose alone (guesses, below rank.CANONICAL_SCORE): then the suggestions rank below every
    guess, filling the places a guess leaves (the family fallbacks "the GPU is not used in the
    container" apply to many causes; the similar cases name the one their threads confirmed)."""
    from envdoctor.triage_engine.evaluate import NO_MATCH_ID
    from envdoctor.triage_engine.rank import CANONICAL_SCORE

    causes = [f for f in found if f.id != NO_MATCH_ID]
    if not causes:
        return suggested_by_cases(snap, matrices) or found
    if any((f.score or 0) >= CANONICAL_SCORE for f in causes):
        return found
    floor = min(f.score or 0 for f in causes)
    have = {f.id for f in causes}
    extra = [f for f in suggested_by_cases(snap, matrices, below_guesses=True) if f.id not in have]
    below = [replace(f, score=min(f.score or 0, floor - 1 - n)) for n, f in enumerate(extra)]
    return causes + below


def suggested_by_cases(
    snap: Snapshot, matrices: Any = None, below_guesses: bool = False
) -> list[Finding]:
    """When no cause matched a problem report, the causes its closest confirmed cases support
    (at least SUGGEST_SUPPORT, raised by the paste's own phrasings of each cause), as findings
    with a low score and the closest case as evidence: a report worded like known ones gets
    their diagnosis, unless its facts rule it out, or its evidence is only general words
    (`real_evidence`; `below_guesses`: they would be listed below prose guesses)."""
    from envdoctor.triage_engine.evaluate import to_finding, unresolved
    from envdoctor.triage_engine.facts import Facts
    from envdoctor.triage_engine.loader import by_id
    from envdoctor.triage_engine.model import Match

    if not snap.has("pasted.text") or not is_problem_report(snap):
        return []
    rows = _rows(matrices)
    text = snap.data("pasted.text") or {}
    lines = [str(x) for x in text.get("lines", [])]
    shown = [str(x) for x in text.get("errors", [])] or lines  # the paste's own words first
    causes = by_id()
    facts = Facts(snap, matrices)
    present = words_of(lines)
    out: list[Finding] = []
    for weight, support, cause, row in _weighed(cause_support(lines, rows), causes, facts, lines):
        if weight < SUGGEST_SUPPORT:
            break
        if not real_evidence(cause, causes[cause], facts, present, rows, below_guesses):
            continue
        score = SUGGEST_SCORE + round(20 * min(1.0, weight / 2))
        if out:  # the better supported cause ranks first even when both round alike
            score = max(SUGGEST_SCORE - MAX_SUGGESTED, min(score, (out[-1].score or 0) - 1))
        line = shown[0] if shown else ""
        signatures = [_without_capture_fixes(s, facts) for s in _with_premise(causes[cause], facts)]
        findings = [
            to_finding(Match(sig, score, line, {}, [], shown[:3]), facts, snap, matrices)
            for sig in signatures
        ]
        # the title of an entry whose facts the paste lacks would show their names
        readable = [
            f
            for f, sig in zip(findings, signatures, strict=True)
            if not unresolved(sig.title, facts, sig.defaults)
        ]
        finding = _with_all_fixes(
            findings, str(row.get("fix") or ""), Index.of(rows).idf, readable, present
        )
        evidence = (Evidence("similar.case", _case_text(row, support)), *finding.evidence)
        severity = min(finding.severity, Severity.WARNING, key=lambda s: -SEVERITY_ORDER[s])
        out.append(
            replace(
                finding,
                fixes=_as_guessed(finding.fixes, str(row.get("source") or "")),
                evidence=evidence,
                severity=severity,  # a guess from similar reports, never an error on its own
                origin=f"case:{row.get('source')}",
            )
        )
        if len(out) >= MAX_SUGGESTED:
            break
    return out


def _with_premise(signatures: list[Any], facts: Any) -> list[Any]:
    """A cause's entries whose fixes a suggestion may offer: those whose `all` lines (what an
    entry presupposes besides its match: the early GCN Radeon an entry's advice is for) the paste
    holds. Without them the entry cannot apply, and its fixes answer another report (the gfx6
    advice for an RX 6700 XT). All of them when none qualifies."""
    from envdoctor.triage_engine.evaluate import holds_all

    kept = [s for s in signatures if holds_all(s, facts)]
    return kept or list(signatures)


def _without_capture_fixes(signature: Any, facts: Any) -> Any:
    """The entry without the fixes meant for what its match captures (`when = "m.ext ~ mamba"`:
    the mamba-ssm wheel advice) unless the paste names it: a suggestion matched no line, so only
    the paste's own words (a `~` pattern found in it) say they apply."""

    def named(clause: Any) -> bool:
        return clause.op == "~" and facts.text_search(clause.pattern) is not None

    def needs_capture(when: Any) -> bool:
        return when is not None and all(
            any(c.fact.startswith("m.") and not named(c) for c in alternative)
            for alternative in when.alternatives
        )

    kept = tuple(f for f in signature.fixes if not needs_capture(f.when))
    return signature if len(kept) == len(signature.fixes) else replace(signature, fixes=kept)


def _as_guessed(fixes: Iterable[Fix], source: str) -> tuple[Fix, ...]:
    """A suggestion's fixes, each stating what it rests on: the paste names nothing of the cause,
    a similar confirmed report does (a fix is a claim; this one is a guess, so it says so)."""
    note = (
        f"assumes the cause of similar confirmed reports (closest: {source}): "
        "no line of the paste names it; check that it fits before running this"
    )
    return tuple(replace(fix, assumptions=(note, *fix.assumptions)) for fix in fixes)


def _weighed(
    supported: list[tuple[float, str, Mapping[str, Any]]],
    causes: Mapping[str, list[Any]],
    facts: Any,
    lines: Iterable[str] = (),
) -> list[tuple[float, float, str, Mapping[str, Any]]]:
    """(weight, support, cause, its closest case) for the supported causes the facts do not rule
    out, heaviest first: the weight is the support raised by how far the paste's own phrasings
    went toward the cause (`evaluate.cue_progress`, PHRASING_WEIGHT at most). Similar cases share
    many words with a paste, most of them not about its cause; the cues are written about the
    cause, so they tell which similar case to believe (checked on the training cases, each left
    out of the case base, and on a batch no signature had been written from)."""
    from envdoctor.triage_engine.evaluate import cue_progress

    lines = list(lines)
    out: list[tuple[float, float, str, Mapping[str, Any]]] = []
    for support, cause, row in sorted(supported, key=lambda item: -item[0]):
        # the places shown, and as many again for causes a prose guess already names
        best = sorted((w for w, *_ in out), reverse=True)[: 2 * MAX_SUGGESTED]
        bar = max(SUGGEST_SUPPORT, best[-1] if len(best) == 2 * MAX_SUGGESTED else 0)
        if support + PHRASING_WEIGHT < bar:
            break  # no cause supported less can reach those places
        if cause not in causes or any(_ruled_out(sig, facts) for sig in causes[cause]):
            continue
        if not in_its_setting(cause, lines):
            continue
        progress = max(cue_progress(sig, facts) for sig in causes[cause])
        out.append((support + PHRASING_WEIGHT * progress, support, cause, row))
    return sorted(out, key=lambda item: (-item[0], item[2]))


def real_evidence(
    cause: str,
    signatures: list[Any],
    facts: Any,
    present: set[str],
    rows: Iterable[Mapping[str, Any]],
    below_guesses: bool = False,
) -> bool:
    """Whether a supported cause has evidence of its own beyond the general words any report
    shares with its cases. Below prose guesses (which already name the paste's family): the
    paste's phrasings went GUESS_PHRASING toward it. Otherwise: a phrasing of its own that the
    entries of fewer than GENERAL_CUE_CAUSES causes share, or shared words that tell it
    (`Index.telling`)."""
    from envdoctor.triage_engine.evaluate import cue_progress, refuses

    if any(refuses(sig, facts) for sig in signatures):
        return False  # the cause's own entries were written to turn this paste away
    if below_guesses:
        return max(cue_progress(sig, facts) for sig in signatures) >= GUESS_PHRASING
    general = general_cues()
    if any(cue_progress(sig, facts, general) > CUE_EVIDENCE for sig in signatures):
        return True
    return Index.of(rows).telling(present, cause, TELLING_CASES) >= TELLING_WEIGHT


_GENERAL: list[Any] = []  # [the signatures' identity, their general cue patterns]


def general_cues() -> frozenset[str]:
    """The positive cue patterns (their text) that name no cause in particular: each literal
    the pattern is found by (its anchors) is one the cues of GENERAL_CUE_CAUSES causes or more
    are found by: the topic ("cuda", "driver", "docker", "显存"), a word of every report
    ("error") or a family's symptom ("falls back to the CPU"). They say what a paste is about,
    not which cause it is. (Chosen over the patterns' exact texts: "error" and "driver" are
    spelled in many ways, and let the causes with many cases through as filler.)"""
    from envdoctor.triage_engine.loader import DATA

    key = (id(DATA), len(DATA.selectors), GENERAL_CUE_CAUSES)
    if _GENERAL and _GENERAL[0] == key:
        return _GENERAL[1]
    from envdoctor.triage_engine.patterns import anchors_of

    named: dict[str, set[str]] = {}
    literals: dict[str, tuple[str, ...]] = {}
    for selector in DATA.selectors:  # the positive cues' patterns, no signature built
        for text in selector.cues:
            literals[text] = anchors_of(text)
            for anchor in literals[text]:
                named.setdefault(anchor, set()).add(selector.id)
    found = frozenset(
        text
        for text, its in literals.items()
        if its and all(len(named[a]) >= GENERAL_CUE_CAUSES for a in its)
    )
    _GENERAL[:] = [key, found]
    return found


def in_its_setting(cause: str, lines: Iterable[str]) -> bool:
    """Whether the paste names the setting a cause exists in (SETTINGS, by the id's prefix or a
    word of the id: ID_SETTINGS) and the product it is a cause of (PRODUCTS), and is not from
    native Windows when the cause is the Linux kernel module's; True for a cause that exists
    anywhere. Measured by bench/casebase_cv.py by repository: the product gate cut
    the suggestions shown in the top 3 from 201 to 193 (cases with only wrong ones 56 -> 54),
    with the 30 right ones and the strict hit rates kept."""
    lines = list(lines)
    setting = next((rx for prefix, rx in SETTINGS.items() if cause.startswith(prefix)), None)
    if setting is not None and not any(setting.search(line) for line in lines):
        return False
    if LINUX_KERNEL_CAUSES.match(cause) and _native_windows(lines):
        return False
    if not USE_PRODUCTS:
        return True
    other = any(OTHER_FRAMEWORK.search(x) for x in lines)
    if cause.startswith("torch.") and other and not any(TORCH.search(x) for x in lines):
        return False
    named = [SETTINGS[ID_SETTINGS[w]] for w in re.split(r"[.-]", cause) if w in ID_SETTINGS]
    product = next((rx for prefix, rx in PRODUCTS.items() if cause.startswith(prefix)), None)
    return all(
        any(rx.search(line) for line in lines) for rx in [*named, *([product] if product else [])]
    )


def _native_windows(lines: list[str]) -> bool:
    """Whether the paste names Windows (a drive path, a DLL, PowerShell...) and nothing of Linux."""
    windows = SETTINGS["windows."]
    return any(windows.search(x) for x in lines) and not any(LINUX.search(x) for x in lines)


def _with_all_fixes(
    findings: list[Finding],
    confirmed: str = "",
    idf: Mapping[str, float] | None = None,
    readable: list[Finding] | None = None,
    present: Iterable[str] = (),
) -> Finding:
    """One cause's findings, one per signature, as one: the one with the most fixes (among the
    `readable` ones, whose titles name no fact the paste lacks, when there are any), completed
    with the others'. A suggestion has no matched line to pick a signature, so it offers the
    fixes its cause is known by: those closest to the fix the similar thread `confirmed` first
    (the words they share, each weighing its rarity), then among equals those closest to the
    paste's own words (`present`: a paste that names NCCL_IB_DISABLE gets the fix naming it); at
    most MAX_FIXES."""
    base = max(readable or findings, key=lambda f: len(f.fixes))
    fixes = with_fixes(base.fixes, (fix for f in findings for fix in f.fixes), limit=None)
    if (confirmed or present) and len(fixes) > 1:
        wanted, said, weights = words_of([confirmed]), set(present), idf or {}

        def closeness(fix: Fix, to: set[str]) -> float:
            return math.fsum(
                weights.get(w, 1.0) for w in to & words_of([fix.summary, *fix.commands])
            )

        # stable: the entries' order among equals
        fixes.sort(key=lambda fix: (-closeness(fix, wanted), -closeness(fix, said)))
        # the settings the paste names (MASTER_ADDR, NCCL_IB_DISABLE, rdzv_backend: a word
        # with an underscore): the fix naming most of them keeps a place (the last) when the
        # cut would drop it and no kept fix names as much of them
        settings = {w for w in said if "_" in w.strip("_")}
        dropped = fixes[MAX_FIXES:]
        if settings and dropped:
            nearest = max(dropped, key=lambda fix: closeness(fix, settings))
            kept = max(closeness(fix, settings) for fix in fixes[:MAX_FIXES])
            if closeness(nearest, settings) > kept:
                fixes.remove(nearest)
                fixes.insert(MAX_FIXES - 1, nearest)
    return replace(base, fixes=tuple(fixes[:MAX_FIXES]))


def _ruled_out(signature: Any, facts: Any) -> bool:
    """Whether the paste rules the cause out: its canonical line is there but the signature did
    not apply (its facts refuted it), a refuting condition holds, or a required one is known to
    be false. A similar case does not override the facts."""
    from envdoctor.triage_engine.conditions import evaluate_condition
    from envdoctor.triage_engine.evaluate import _find

    if signature.match and _find(signature.match, facts)[0] is not None:
        return True  # the line was seen and evaluated: it did not apply

    if any(evaluate_condition(c, facts)[0] is True for c in signature.refute):
        return True
    return any(evaluate_condition(c, facts)[0] is False for c in signature.requires)


def _rows(matrices: Any) -> list[Mapping[str, Any]]:
    if matrices is None:
        from envdoctor.diagnosis.pipeline import active_matrices

        matrices = active_matrices()
    if not matrices.has(TABLE):
        return []
    return list(matrices.table(TABLE).rows)
