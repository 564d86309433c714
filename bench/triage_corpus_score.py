#!/usr/bin/env python3
"""Score `envdoctor triage` on the corpus of real reports (tests/triage_corpus/).

The corpus has three parts: the 85 legacy cases (`NNN-slug.txt`, used to write the signatures:
training), `train/` and `test/` (the frozen split of `bench/corpus_split.py`). `--split train`
scores the legacy cases and `train/`; `--split test` scores `test/` and prints the aggregate
figures only (never a case, its name or its findings: the test split is not read while tuning);
`--split all` scores everything (aggregates only, since it holds test cases).

For each case: triage the pasted body and find the rank of the `expected` id (or an `also` id).
A *loose* hit is such an id in the top 3; a *strict* hit also needs that finding's fixes (their
summaries and commands) to name the case's fix `keywords`: `;` separates required items, `|`
alternatives, compared case-insensitively. A case without keywords (the legacy ones) needs none.
Figures: first / top-3, strict and loose, overall, per language and per family, and the share of
problem reports that got "no signature matched" (or nothing at all).

    python bench/triage_corpus_score.py [--split train|test|all] [--json] [-v] [--repo DIR]

`--title` puts each thread's title above its body (unless the body holds it): the first post as
its reporter typed it, for a helpdesk that pastes the whole post. The corpus's figures, the
frozen split's floors and README's tables are the body's alone; this is a second view.

Each case is triaged with its own thread left out of the case base of similar confirmed cases
(built from the training cases), so the training figure is a leave-one-out figure.

`--repo DIR` scores the envdoctor checkout in DIR (e.g. an older commit) on this corpus: the
triage entry point is `envdoctor.triage_engine.triage_text`, or `envdoctor.commands.triage.triage_text`
in checkouts older than the triage package.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the scorer is also loaded by path
from corpus_families import family_of  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "tests" / "triage_corpus"
NO_MATCH_ID = "triage.no-signature-matched"
SPLITS = ("train", "test", "all")
_CJK = re.compile(r"[\u4e00-\u9fff]")


@dataclass
class Case:
    """One corpus report: its header fields, the pasted body and the part it belongs to."""

    path: Path
    header: dict[str, str]
    body: str
    part: str = "legacy"  # legacy | train | test

    @property
    def expected(self) -> str:
        """The finding id whose fix the thread confirmed."""
        return self.header.get("expected", "")

    @property
    def set(self) -> str:
        """The legacy cases' set: `holdout` or `corpus`; for train/ and test/ the part's name."""
        if self.part != "legacy":
            return self.part
        return self.header.get("set", "corpus")

    @property
    def also(self) -> list[str]:
        """Other ids an expert would accept in the top three."""
        return [x.strip() for x in self.header.get("also", "").split(",") if x.strip()]

    @property
    def accepted(self) -> list[str]:
        """The expected id and the `also` ids."""
        return [self.expected, *self.also]

    @property
    def keywords(self) -> list[list[str]]:
        """The fix keywords: required items, each a list of lower-case alternatives."""
        items = [i.strip() for i in self.header.get("keywords", "").split(";")]
        return [[a.strip().lower() for a in i.split("|") if a.strip()] for i in items if i]

    @property
    def lang(self) -> str:
        """`zh` or `en`: the header's, else `zh` when the body holds Chinese text."""
        lang = self.header.get("lang", "").strip().lower()
        if lang:
            return "zh" if lang.startswith("zh") else lang
        return "zh" if len(_CJK.findall(self.body)) >= 4 else "en"

    @property
    def family(self) -> str:
        """The case's family in one vocabulary (`bench/corpus_families.py`)."""
        return family_of(self.header.get("family", ""), self.expected)

    @property
    def problem(self) -> bool:
        """Whether the report describes a problem (a case expecting nothing does not)."""
        return self.expected not in ("", "none", NO_MATCH_ID)


@dataclass
class Result:
    """How triage ranked one case: the ids in order and each one's fix text (lower-case)."""

    case: Case
    ids: list[str] = field(default_factory=list)
    fix_texts: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def position(self) -> int | None:
        """1-based rank of the first accepted id, or None when absent."""
        ranks = [self.ids.index(i) + 1 for i in self.case.accepted if i in self.ids]
        return min(ranks) if ranks else None

    @property
    def strict_position(self) -> int | None:
        """1-based rank of the first accepted id whose fixes name the keywords, or None."""
        for rank, (finding_id, text) in enumerate(
            zip(self.ids, self.fix_texts, strict=True), start=1
        ):
            if finding_id in self.case.accepted and names_keywords(text, self.case.keywords):
                return rank
        return None

    @property
    def no_match(self) -> bool:
        """Whether triage said "no signature matched" (or found nothing at all)."""
        return not self.ids or NO_MATCH_ID in self.ids


def names_keywords(text: str, keywords: list[list[str]]) -> bool:
    """Whether `text` (lower-case) holds one alternative of every required item."""
    return all(any(alt in text for alt in item) for item in keywords)


def read_case(path: Path, part: str = "legacy") -> Case:
    """Parse a corpus file: `#! key: value` header lines up to `#! ---`, then the body."""
    text = path.read_text(encoding="utf-8")
    header: dict[str, str] = {}
    lines = text.split("\n")
    for number, line in enumerate(lines):
        if line.rstrip() == "#! ---":
            return Case(path, header, "\n".join(lines[number + 1 :]), part)
        if line.startswith("#! "):
            key, _, value = line[3:].partition(": ")
            header[key.strip()] = value.strip()
    raise ValueError(f"{path.name}: no '#! ---' line ends the header")


def with_title(case: Case) -> Case:
    """The case as its reporter typed it on the tracker: the thread's title above the body (unless
    the body already holds it). The corpus's figures are the body's alone; this is the view of a
    helpdesk that pastes the whole first post (`--title`)."""
    title = case.header.get("title", "").strip()
    if not title or title.lower() in case.body.lower():
        return case
    return replace(case, body=f"{title}\n{case.body}")


def load_corpus(folder: Path = CORPUS, split: str = "train") -> list[Case]:
    """The cases of a split: `train` = legacy + train/, `test` = test/, `all` = all three. The
    legacy value names `all`, `corpus`, `holdout` select among the legacy cases only."""
    if split in ("corpus", "holdout"):
        return [c for c in _part(folder, "legacy") if c.set == split]
    if split == "legacy":
        return _part(folder, "legacy")
    parts = {"train": ("legacy", "train"), "test": ("test",), "all": ("legacy", "train", "test")}
    return [case for part in parts[split] for case in _part(folder, part)]


_URL = re.compile(r"https?://[^\s\"'<>)\]]+")


def thread_key(url: str) -> str:
    """A thread's URL as compared across files: no fragment or query, no trailing slash, lower case."""
    return url.strip().split("#")[0].split("?")[0].rstrip("/.,;").lower()


def cited_threads(signatures: Path = REPO / "checks" / "signatures") -> set[str]:
    """The threads the signature files cite (sources, comments): a case whose thread is among
    them measures a signature written on it, not generalisation."""
    found: set[str] = set()
    for path in sorted(signatures.glob("*.toml")):
        found |= {thread_key(u) for u in _URL.findall(path.read_text(encoding="utf-8"))}
    return found


def uncited(cases: Iterable[Case], cited: set[str]) -> list[Case]:
    """The cases whose thread no signature file cites."""
    return [c for c in cases if thread_key(c.header.get("url", "")) not in cited]


def _part(folder: Path, part: str) -> list[Case]:
    if part == "legacy":
        paths = sorted(folder.glob("[0-9][0-9][0-9]-*.txt"))
    else:
        paths = sorted((folder / part).glob("*.txt"))
    return [read_case(p, part) for p in paths]


def triage_entry(repo: Path | None = None) -> Callable[[str], Any]:
    """The triage function of the checkout in `repo` (default: this one): the triage package's
    entry point, else the command module's in checkouts that predate the package."""
    if repo is not None:
        sys.path.insert(0, str(repo))
        _map_source_folders(Path(repo))
    try:
        from envdoctor.triage_engine import triage_text
    except ImportError:
        from envdoctor.commands.triage import triage_text  # commit e6ad5a4 and before
    return triage_text


def _map_source_folders(repo: Path) -> None:
    """Import `envdoctor.checks` and `envdoctor.matrices` from `repo`'s `checks/` and `matrices/`
    (pyproject's package-dir), as an install of that checkout would. Without this an editable
    install of another checkout in the running venv maps them to ITS folders, and `--repo` scored
    the older engine with today's signatures and tables."""
    import importlib.util

    import envdoctor  # the checkout's own package (first on sys.path)

    if Path(envdoctor.__file__).resolve().parent != (repo / "envdoctor").resolve():
        raise SystemExit(f"--repo {repo}: envdoctor was already imported from {envdoctor.__file__}")
    for name, folder in (("checks", repo / "checks"), ("matrices", repo / "matrices")):
        init = folder / "__init__.py"
        if not init.is_file():
            continue
        spec = importlib.util.spec_from_file_location(
            f"envdoctor.{name}", init, submodule_search_locations=[str(folder)]
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[f"envdoctor.{name}"] = module
        setattr(envdoctor, name, module)
        spec.loader.exec_module(module)


def _leave_one_out() -> Callable[[str | None], None] | None:
    """A switch that hides one thread from the case base of similar confirmed cases (which is
    built from the training cases, so a training case would otherwise find itself); None in
    checkouts without a case base."""
    try:
        from envdoctor.triage_engine import casebase
    except ImportError:
        return None
    rows_of = casebase._rows
    hidden: dict[str, str | None] = {"url": None}

    def rows(matrices: Any) -> list[Any]:
        return [r for r in rows_of(matrices) if r.get("source") != hidden["url"]]

    casebase._rows = rows  # type: ignore[assignment]

    def hide(url: str | None) -> None:
        hidden["url"] = url

    return hide


def score(cases: Iterable[Case], repo: Path | None = None) -> list[Result]:
    """Triage every case, each with its own thread left out of the case base."""
    triage_text = triage_entry(repo)
    hide = _leave_one_out()
    results = []
    for case in cases:
        if hide is not None:
            hide(case.header.get("url"))
        start = time.perf_counter()
        report = triage_text(case.body)
        seconds = time.perf_counter() - start
        ids = [f.id for f in report.findings]
        texts = [
            " ".join(" ".join((fix.summary, *fix.commands)) for fix in f.fixes).lower()
            for f in report.findings
        ]
        results.append(Result(case, ids, texts, seconds))
    return results


def figures(results: list[Result]) -> dict[str, Any]:
    """first / top3 shares (0..1), strict and loose, and the no-match share."""
    total = len(results)
    problems = [r for r in results if r.case.problem]

    def share(count: int, of: int) -> float:
        return count / of if of else 0.0

    first = sum(1 for r in results if r.position == 1)
    top3 = sum(1 for r in results if r.position is not None and r.position <= 3)
    strict_first = sum(1 for r in results if r.strict_position == 1)
    strict_top3 = sum(
        1 for r in results if r.strict_position is not None and r.strict_position <= 3
    )
    no_match = sum(1 for r in problems if r.no_match)
    return {
        "cases": total,
        "first": first,
        "top3": top3,
        "first_share": share(first, total),
        "top3_share": share(top3, total),
        "strict_first": strict_first,
        "strict_top3": strict_top3,
        "strict_first_share": share(strict_first, total),
        "strict_top3_share": share(strict_top3, total),
        "problem_reports": len(problems),
        "no_match": no_match,
        "no_match_share": share(no_match, len(problems)),
    }


def breakdown(results: list[Result], key: Callable[[Case], str]) -> dict[str, dict[str, Any]]:
    """The figures per value of `key` (language, family, part)."""
    groups: dict[str, list[Result]] = {}
    for result in results:
        groups.setdefault(key(result.case), []).append(result)
    return {name: figures(part) for name, part in sorted(groups.items())}


def summary(results: list[Result]) -> dict[str, Any]:
    """Overall figures with the per-language, per-family and per-part breakdowns."""
    out = figures(results)
    out["languages"] = breakdown(results, lambda c: c.lang)
    out["families"] = breakdown(results, lambda c: c.family)
    out["parts"] = breakdown(results, lambda c: c.part)
    return out


def family_table(figs: dict[str, Any]) -> str:
    """The per-family figures as a Markdown table, largest family first."""
    rows = [
        "| family | n | strict first | strict top 3 | no signature matched |",
        "|---|---|---|---|---|",
    ]
    for name, part in sorted(figs["families"].items(), key=lambda kv: (-kv[1]["cases"], kv[0])):
        rows.append(
            f"| {name} | {part['cases']} | {part['strict_first_share']:.0%} | "
            f"{part['strict_top3_share']:.0%} | {part['no_match_share']:.0%} |"
        )
    return "\n".join(rows)


def _line(figs: dict[str, Any]) -> str:
    return (
        f"{figs['cases']:>4} cases  strict first {figs['strict_first_share']:4.0%}  "
        f"strict top3 {figs['strict_top3_share']:4.0%}  first {figs['first_share']:4.0%}  "
        f"top3 {figs['top3_share']:4.0%}  no-match {figs['no_match_share']:4.0%}"
    )


def main(argv: list[str] | None = None) -> int:
    """Print the figures (and, for the training cases only, one row per case)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--split", default="train", choices=SPLITS)
    parser.add_argument("--repo", type=Path, help="score the envdoctor checkout in this folder")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON only")
    parser.add_argument(
        "--markdown", action="store_true", help="print the per-family figures as a Markdown table"
    )
    parser.add_argument(
        "--title",
        action="store_true",
        help="put each thread's title above its body (the first post as typed), not the body alone",
    )
    parser.add_argument(
        "--uncited",
        action="store_true",
        help="only the cases whose thread no signature file of this checkout cites (the same "
        "cases whichever checkout --repo scores)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="train: show misses' top 3")
    parser.add_argument(
        "--only",
        type=Path,
        help="train: score only the train/ cases named in this file (one file name a line), "
        "e.g. a batch scored before any signature was written for it",
    )
    args = parser.parse_args(argv)
    if args.repo is None:
        sys.path.insert(0, str(REPO))
    cases = load_corpus(args.corpus, args.split)
    if args.only is not None:
        if args.split != "train":
            parser.error("--only selects training cases: use it with --split train")
        lines = args.only.read_text(encoding="utf-8").splitlines()
        names = {n.strip() for n in lines if n.strip() and not n.lstrip().startswith("#")}
        cases = [c for c in cases if c.part == "train" and c.path.name in names]
    if args.uncited:
        cases = uncited(cases, cited_threads())
    if args.title:
        cases = [with_title(c) for c in cases]
    results = score(cases, args.repo)
    figs = summary(results)
    if args.json:
        print(json.dumps(figs, indent=2))
        return 0
    if args.markdown:
        print(family_table(figs))
        return 0
    if args.split == "train":  # per-case rows only for cases that may be read
        print(f"{'case':<58} {'expected':<40} {'rank':>4} {'strict':>6} {'ms':>6}")
        for r in results:
            rank = "-" if r.position is None else str(r.position)
            strict = "-" if r.strict_position is None else str(r.strict_position)
            name = f"{r.case.part}/{r.case.path.name}"[:58]
            print(
                f"{name:<58} {r.case.expected[:40]:<40} {rank:>4} {strict:>6} {r.seconds * 1000:6.0f}"
            )
            if args.verbose and r.strict_position != 1:
                print(f"{'':<6}got: {', '.join(r.ids[:3]) or '(no findings)'}")
        print()
    for title, key in (("part", "parts"), ("language", "languages"), ("family", "families")):
        for name, part in figs[key].items():
            print(f"{title:>8} {name:<22} {_line(part)}")
    print(f"{'all':>8} {args.split:<22} {_line(figs)}")
    return 0


if __name__ == "__main__":
    from project import use_project_python

    use_project_python()
    sys.exit(main())
