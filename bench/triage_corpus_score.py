#!/usr/bin/env python3
"""Score `envdoctor triage` on the corpus of real reports (tests/triage_corpus/NNN-slug.txt).

For each case: run triage on the pasted body, find the position of the `expected` finding id in
the ranked findings, and print one table row. Then the figures: the share of cases with the
expected id first, and within the first three. Usage:

    python bench/triage_corpus_score.py [--corpus DIR] [--set all|corpus|holdout] [--json] [-v]

A case's set is its `#! set:` header (`holdout` for the cases collected after the signatures
were written), `corpus` when it has none. `--set` scores one set only; with all sets the
figures are also printed per set. `-v` also prints the first three findings of each case that
misses.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "tests" / "triage_corpus"


@dataclass
class Case:
    """One corpus report: its header fields and the pasted body."""

    path: Path
    header: dict[str, str]
    body: str

    @property
    def expected(self) -> str:
        """The finding id whose fix the thread confirmed."""
        return self.header["expected"]

    @property
    def set(self) -> str:
        """The set the case belongs to: `holdout`, or `corpus` (the default)."""
        return self.header.get("set", "corpus")

    @property
    def also(self) -> list[str]:
        """Other ids an expert would accept in the top three."""
        return [x.strip() for x in self.header.get("also", "").split(",") if x.strip()]


@dataclass
class Result:
    """How triage ranked one case."""

    case: Case
    ids: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def position(self) -> int | None:
        """1-based rank of the expected id, or None when absent."""
        try:
            return self.ids.index(self.case.expected) + 1
        except ValueError:
            return None


def read_case(path: Path) -> Case:
    """Parse a corpus file: `#! key: value` header lines up to `#! ---`, then the body."""
    text = path.read_text(encoding="utf-8")
    header: dict[str, str] = {}
    lines = text.split("\n")
    for number, line in enumerate(lines):
        if line.rstrip() == "#! ---":
            return Case(path, header, "\n".join(lines[number + 1 :]))
        if line.startswith("#! "):
            key, _, value = line[3:].partition(": ")
            header[key.strip()] = value.strip()
    raise ValueError(f"{path.name}: no '#! ---' line ends the header")


def load_corpus(folder: Path = CORPUS, case_set: str = "all") -> list[Case]:
    """Every case file of the corpus in name order, or only those of one set."""
    cases = [read_case(p) for p in sorted(folder.glob("[0-9][0-9][0-9]-*.txt"))]
    return cases if case_set == "all" else [c for c in cases if c.set == case_set]


def score(cases: list[Case]) -> list[Result]:
    """Triage every case."""
    from envdoctor.commands.triage import triage_text

    results = []
    for case in cases:
        start = time.perf_counter()
        report = triage_text(case.body)
        results.append(Result(case, [f.id for f in report.findings], time.perf_counter() - start))
    return results


def figures(results: list[Result]) -> dict[str, float]:
    """first / top3 shares (0..1) and counts."""
    total = len(results)
    first = sum(1 for r in results if r.position == 1)
    top3 = sum(1 for r in results if r.position is not None and r.position <= 3)
    return {
        "cases": total,
        "first": first,
        "top3": top3,
        "first_share": first / total if total else 0.0,
        "top3_share": top3 / total if total else 0.0,
    }


def main(argv: list[str] | None = None) -> int:
    """Print the per-case table and the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument(
        "--set",
        dest="case_set",
        default="all",
        choices=("all", "corpus", "holdout"),
        help="score only the cases of this set (default: all)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON only")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPO))
    results = score(load_corpus(args.corpus, args.case_set))
    summary = figures(results)
    sets = sorted({r.case.set for r in results})
    if args.json:
        if len(sets) > 1:
            summary["sets"] = {
                name: figures([r for r in results if r.case.set == name]) for name in sets
            }
        print(json.dumps(summary, indent=2))
        return 0
    print(f"{'case':<58} {'expected':<40} {'rank':>4}  {'ms':>6}")
    for r in results:
        rank = "-" if r.position is None else str(r.position)
        mark = (
            "" if r.position == 1 else ("  (top 3)" if r.position and r.position <= 3 else "  MISS")
        )
        print(
            f"{r.case.path.name[:58]:<58} {r.case.expected:<40} {rank:>4}  {r.seconds * 1000:6.0f}{mark}"
        )
        if args.verbose and r.position != 1:
            print(f"{'':<6}got: {', '.join(r.ids[:3]) or '(no findings)'}")
    print()
    for name in sets if len(sets) > 1 else ():
        part = figures([r for r in results if r.case.set == name])
        print(f"set {name}: {_line(part)}")
    print(("all sets: " if len(sets) > 1 else "") + _line(summary))
    return 0


def _line(summary: dict[str, float]) -> str:
    """One line of figures: cases, first, top 3."""
    return (
        f"{summary['cases']} cases: expected id first in {summary['first']} "
        f"({summary['first_share']:.0%}), in the top 3 in {summary['top3']} ({summary['top3_share']:.0%})"
    )


if __name__ == "__main__":
    from project import use_project_python

    use_project_python()
    sys.exit(main())
