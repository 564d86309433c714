"""Finding English sentences left in a translated text (what a translator still has to do).

A sentence is English prose when it has four or more consecutive words with two or more
English function words among them ("the driver is not loaded"); commands, paths, URLs,
versions, ids, environment variables, flags and anything quoted (`code`, "an error message
the tool printed") are removed first, because they stay as they are in every language.
"""

from __future__ import annotations

import re

_QUOTED = re.compile(r"`[^`]*`|\"[^\"]*\"|“[^”]*”|'[^'\n]{3,}'|<[^>\s]+>")
_NOT_WORDS = re.compile(
    r"https?://\S+|\S*[/\\]\S*|\S*\d\S*|--?[\w-]+|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\S+\.\S+|\S+_\S+"
)
_WORD = re.compile(r"[A-Za-z][a-z]+")
_ACRONYM = re.compile(r"[A-Z]{2,}[a-z]?")  # GPU, NVIDIA, ROCm: carry a run, count as no word
FUNCTION_WORDS = frozenset(
    [
        "the",
        "a",
        "an",
        "to",
        "of",
        "and",
        "or",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "not",
        "no",
        "for",
        "with",
        "on",
        "in",
        "into",
        "this",
        "that",
        "these",
        "it",
        "its",
        "can",
        "cannot",
        "could",
        "from",
        "by",
        "as",
        "at",
        "has",
        "have",
        "had",
        "will",
        "would",
        "when",
        "only",
        "but",
        "than",
        "then",
        "so",
        "does",
        "do",
        "did",
        "which",
        "what",
        "there",
        "their",
        "they",
        "you",
        "your",
        "any",
        "all",
        "every",
    ]
)


def english_sentences(text: str, min_words: int = 4) -> list[str]:
    """The runs of English prose in `text` (empty when it reads as translated)."""
    plain = _NOT_WORDS.sub(" | ", _QUOTED.sub(" | ", text))
    found: list[str] = []
    run: list[str] = []

    def close() -> None:
        if len(run) >= min_words and sum(w.lower() in FUNCTION_WORDS for w in run) >= 2:
            found.append(" ".join(run))
        run.clear()

    for token in re.split(r"(\s+|[，。；：、（）()\[\]{}|!?])", plain):
        if not token or token.isspace():
            continue
        bare = token.strip(",.;:")
        if _ACRONYM.fullmatch(bare) and run:
            continue
        if _WORD.fullmatch(bare):
            run.append(bare)
            if token != bare and token[-1] in ".;:":
                close()
        else:
            close()
    close()
    return found
