#!/usr/bin/env python3
"""The frozen train/test split of the triage corpus, fixed before any case was collected.

A harvested case is written to `tests/triage_corpus/incoming/`; this script moves it to `train/`
or `test/` by a keyed hash of its thread URL, so the assignment is random with respect to the
case's content and to envdoctor's code, is decided before anyone reads the case for tuning, and
can never move later (the same URL always lands in the same split). About 30% go to `test/`.

The test split is only scored, never read while changing triage (README, "Triage accuracy").
The 85 cases collected before this split (`tests/triage_corpus/NNN-*.txt`) were used to write
signatures and stay training cases.

    python bench/corpus_split.py            # move incoming/* into train/ or test/
    python bench/corpus_split.py --check    # exit 1 if any case sits in the wrong split
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "triage_corpus"
SPLIT_KEY = "envdoctor-triage-split-2026-12-03"
TEST_PERCENT = 30


def normalised_url(url: str) -> str:
    """The URL as compared: no fragment, no trailing slash, no query, lower-case host."""
    url = url.strip().split("#", 1)[0].split("?", 1)[0].rstrip("/")
    scheme, sep, rest = url.partition("://")
    host, slash, path = rest.partition("/")
    return f"{scheme.lower()}{sep}{host.lower()}{slash}{path}"


def is_test(url: str) -> bool:
    """True when the thread at `url` belongs to the frozen test split."""
    digest = hashlib.sha256(f"{SPLIT_KEY}\n{normalised_url(url)}".encode()).hexdigest()
    return int(digest[:8], 16) % 100 < TEST_PERCENT


def case_url(path: Path) -> str:
    """The `#! url:` header of a case file."""
    for line in path.read_text(encoding="utf-8").split("\n"):
        if line.startswith("#! url:"):
            return line.partition(":")[2].strip()
        if line.rstrip() == "#! ---":
            break
    raise ValueError(f"{path}: no '#! url:' header")


def main(argv: list[str] | None = None) -> int:
    """Move incoming cases into their split, or check that every case is where it belongs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only verify the placement")
    args = parser.parse_args(argv)
    wrong = []
    for split in ("train", "test"):
        for path in sorted((CORPUS / split).glob("*.txt")):
            if ("test" if is_test(case_url(path)) else "train") != split:
                wrong.append(path)
    if args.check:
        for path in wrong:
            print(f"{path.relative_to(CORPUS)}: in the wrong split", file=sys.stderr)
        return 1 if wrong else 0
    if wrong:
        print(f"{len(wrong)} case(s) in the wrong split; not moving anything", file=sys.stderr)
        return 1
    moved = {"train": 0, "test": 0}
    for path in sorted((CORPUS / "incoming").glob("*.txt")):
        split = "test" if is_test(case_url(path)) else "train"
        target = CORPUS / split / path.name
        if target.exists():
            print(
                f"{target.relative_to(CORPUS)} exists; {path.name} left in incoming/",
                file=sys.stderr,
            )
            continue
        path.rename(target)
        moved[split] += 1
    print(f"moved {moved['train']} to train/, {moved['test']} to test/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
