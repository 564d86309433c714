"""The field tests (canonical error lines and descriptions read from real threads, which the
signatures are written to reach) never cite a thread of the frozen test split: a split case whose
thread the signatures were fitted to would measure fitting, not generalisation. Three such
descriptions slipped in once (their URLs were written as `GH + "owner/repo/issues/N"` and a
plain-text check missed them). On failure this says how many, never which."""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
SPLIT = TESTS / "triage_corpus" / "test"
_URL = re.compile(r'"(https?://[^"\s]+)"')
_GH = re.compile(r'GH \+ "([^"]+)"')


def _norm(url: str) -> str:
    return url.strip().split("#")[0].split("?")[0].rstrip("/").lower()


def field_test_threads() -> set[str]:
    return threads_of(
        [
            *TESTS.glob("test_field_*.py"),
            *TESTS.glob("field_prose_*.py"),
            *TESTS.glob("field_fixes_*.py"),
        ]
    )


def threads_of(files: list[Path]) -> set[str]:
    """The thread URLs the files cite (full URLs, and GH + "owner/repo/issues/N" forms)."""
    found: set[str] = set()
    for path in files:
        text = path.read_text(encoding="utf-8")
        found |= {_norm(u) for u in _URL.findall(text)}
        found |= {_norm("https://github.com/" + p) for p in _GH.findall(text)}
    return found


def split_threads() -> set[str]:
    found = set()
    for path in SPLIT.glob("*.txt"):
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines()[:12]:
            if line.startswith("#! url:"):
                found.add(_norm(line.split(":", 1)[1]))
    return found


# Signature files of earlier rounds cite 28 threads that are also cases of the split (the harvest
# took threads from the field by URL, and signature writers had read some of the same threads):
# the split's figure on the 221 others is in README. The count may fall, never grow.
SPLIT_THREADS_CITED_BY_SIGNATURES = 28


def signature_threads() -> set[str]:
    found: set[str] = set()
    for path in (TESTS.parent / "checks" / "signatures").glob("*.toml"):
        found |= {_norm(u) for u in _URL.findall(path.read_text(encoding="utf-8"))}
    return found


def test_no_new_signature_source_is_a_thread_of_the_frozen_split() -> None:
    shared = signature_threads() & split_threads()
    assert len(shared) <= SPLIT_THREADS_CITED_BY_SIGNATURES, (
        f"signature files cite {len(shared)} threads of the frozen test split "
        f"(at most {SPLIT_THREADS_CITED_BY_SIGNATURES})"
    )


def test_the_field_tests_cite_no_thread_of_the_frozen_split() -> None:
    cited = field_test_threads()
    assert len(cited) > 400  # the lines and descriptions were read
    shared = cited & split_threads()
    assert not shared, f"{len(shared)} field-test thread(s) belong to the frozen test split"


def test_the_signature_tests_cite_no_thread_of_the_frozen_split() -> None:
    """The sweeps' tables of verbatim rows (`test_signature_*.py`) too: a row copied from a split
    thread tunes the signatures to a test case (round 18 found one in a round-17 table and one
    in its own, and took both out)."""
    cited = threads_of(sorted(TESTS.glob("test_signature*.py")))
    assert len(cited) > 1000  # the rows' thread URLs were read
    shared = cited & split_threads()
    assert not shared, f"{len(shared)} signature-test thread(s) belong to the frozen test split"
