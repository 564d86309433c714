#!/usr/bin/env python3
"""Write the case base of similar confirmed cases (matrices/triage_cases.toml) from the TRAINING
cases of the triage corpus only: the legacy cases (tests/triage_corpus/NNN-*.txt) and train/.
The frozen test split (test/) is never opened.

Each row: the thread URL (`source`), the finding id of the confirmed cause (`cause`), the
confirmed fix in our own words (the case's `fix` header), its language and family, and the
`words` that make it recognisable: the distinctive words of the lines the free-text reader keeps
(rarest across the case base first, at most MAX_WORDS), with their `weights` (100 x the inverse
document frequency of each word over all the training cases); both are written as one string of
space-separated items, so the matrix loader checks one cell per row instead of a hundred.

    python bench/build_case_base.py            # rewrite matrices/triage_cases.toml
    python bench/build_case_base.py --check    # exit 1 if the file is not what it would write
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "matrices" / "triage_cases.toml"
CHECKED = "2026-12-03"
MAX_WORDS = 64
MIN_WORDS = 6
MAX_SHARE = 0.3  # a word in more than this share of the cases tells none apart

HEADER = '''schema_version = 1
min_envdoctor = "0.1.0"
name = "triage_cases"
title = "Confirmed triage cases: a real thread's cause and fix, and the words that recognise it"
description = """One row per real problem report of envdoctor's triage training corpus (never its frozen test \\
split): the thread (source), the finding id of the cause the thread confirmed, the confirmed fix in envdoctor's own \\
words, and the distinctive words of the pasted text. `envdoctor triage` shows the closest cases as evidence. Written \\
by bench/build_case_base.py; replaced with the other tables by `envdoctor matrices update`."""
key = ["thread"]
no_overlap = []

[columns]
thread = "url"
cause = "string"
fix = "string"
lang = "string"
family = "string"
words = "string"
weights = "string"
'''


def _quote(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's)."""
    return json.dumps(text, ensure_ascii=False)


def _useful(word: str, frequency: int, total: int) -> bool:
    """Not a word most reports share, not mostly digits (timestamps, addresses, hashes)."""
    digits = sum(ch.isdigit() for ch in word)
    return frequency <= max(2, int(total * MAX_SHARE)) and digits * 2 < len(word)


def case_rows(cases: list[Any]) -> list[dict[str, Any]]:
    """One row per thread of `cases` (the scorer's `Case`s): its cause, fix and distinctive words
    (the rarest among these cases first); a case whose kept lines give too few words is left out."""
    from envdoctor.ingest import free_text
    from envdoctor.triage_engine.casebase import words_of

    case_words = []
    for case in cases:
        groups = free_text.read(case.body)
        lines = groups[0].data.get("lines", []) if groups else []
        case_words.append(words_of(str(x) for x in lines))
    frequency = Counter(w for words in case_words for w in words)
    total = len(cases)
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    for case, words in zip(cases, case_words, strict=True):
        url = case.header.get("url", "")
        if not url or url in seen:
            continue
        seen.add(url)
        # the rarest words first: they tell this case from the others
        useful = [w for w in words if _useful(w, frequency[w], total)]
        ranked = sorted(useful, key=lambda w: (frequency[w], w))[:MAX_WORDS]
        # each word's weight: its inverse document frequency over all these cases (x100), so
        # that a word common in reports but rare in the rows' short lists still weighs little
        weights = [round(100 * math.log(1 + total / frequency[w])) for w in ranked]
        if len(ranked) < MIN_WORDS:
            continue
        rows.append(
            {
                "thread": url,
                "cause": case.expected,
                "fix": case.header.get("fix", ""),
                "lang": case.lang,
                "family": case.family,
                "words": ranked,
                "weights": weights,
                "source": url,
            }
        )
    return rows


def training_cases() -> list[Any]:
    """The problem reports of the training split (legacy + train/; never test/)."""
    sys.path.insert(0, str(REPO))
    sys.path.insert(0, str(REPO / "bench"))
    import triage_corpus_score as scorer

    return [c for c in scorer.load_corpus(split="train") if c.problem]


def build() -> str:
    """The TOML text of the case base."""
    rows = case_rows(training_cases())
    blocks = []
    for row in rows:
        blocks.append(
            "\n".join(
                (
                    "[[rows]]",
                    f"thread = {_quote(row['thread'])}",
                    f"cause = {_quote(row['cause'])}",
                    f"fix = {_quote(row['fix'])}",
                    f"lang = {_quote(row['lang'])}",
                    f"family = {_quote(row['family'])}",
                    f"words = {_quote(' '.join(row['words']))}",
                    f"weights = {_quote(' '.join(str(w) for w in row['weights']))}",
                    f"source = {_quote(row['source'])}",
                    f"checked = {CHECKED}",
                )
            )
        )
    return HEADER + "\n" + "\n\n".join(blocks) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write (or check) matrices/triage_cases.toml."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    text = build()
    if args.check:
        return 0 if OUT.exists() and OUT.read_text(encoding="utf-8") == text else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(REPO)} ({text.count('[[rows]]')} cases)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
