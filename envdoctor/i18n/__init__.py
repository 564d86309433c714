"""envdoctor in other languages: message catalogs (gettext `.po`/`.mo`) and the translator.

English is the source language: checks, signatures and renderers write English, and JSON stays
English unless `--lang` asks otherwise, so tools never depend on the language. A human format
(terminal, Markdown, HTML) follows `--lang`, else the locale (`LC_ALL`, `LC_MESSAGES`, `LANG`,
`LANGUAGE`: `zh_*` means Chinese). Commands, paths, versions and finding ids are never
translated. See `envdoctor/i18n/extract.py` for how messages are found and README ("Translating
envdoctor") for the one command that re-extracts them and lists the untranslated ones.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

LANGUAGES = ("en", "zh")
HUMAN_FORMATS = frozenset({"text", "markdown", "html"})


def lang_from_locale(env: Mapping[str, str]) -> str:
    """The language the locale asks for: the first of LC_ALL, LC_MESSAGES, LANG that is set
    decides (POSIX precedence); LANGUAGE (GNU's list, e.g. "zh_CN:en") is read first when the
    locale is not "C"/"POSIX". `zh_*` -> "zh", anything else -> "en"."""
    chosen = ""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            chosen = value
            break
    if chosen.split(".")[0] not in ("C", "POSIX"):
        first = env.get("LANGUAGE", "").split(":")[0]
        if first:
            chosen = first
    return "zh" if chosen.lower().startswith("zh") else "en"


def resolve_lang(explicit: str | None, fmt: str, env: Mapping[str, str]) -> str:
    """The language to write in: `--lang` when given; else the locale's for a human format;
    English for JSON and other machine formats."""
    if explicit:
        return explicit
    return lang_from_locale(env) if fmt in HUMAN_FORMATS else "en"


class Translator:
    """Turns envdoctor's English texts into one language. English passes through unchanged.

    `tr(text)` translates a rendered message (an f-string's result, a sentence built from
    several); `tr.gettext(msgid)` looks up one exact message."""

    def __init__(self, lang: str, messages: Mapping[str, str] | None = None) -> None:
        from envdoctor.i18n.templates import Matcher

        self.lang = lang if lang in LANGUAGES else "en"
        self._matcher = Matcher({} if self.lang == "en" else (messages or {}))

    @property
    def active(self) -> bool:
        """Whether anything is translated (not English)."""
        return self.lang != "en"

    def __call__(self, text: str) -> str:
        return self._matcher.translate(text) if self.active and text else text

    def gettext(self, msgid: str) -> str:
        """The exact message's translation, or `msgid` itself."""
        return self._matcher.messages.get(msgid, msgid) if self.active else msgid

    def known(self, text: str) -> bool:
        """Whether `text` matches a translated message as a whole."""
        return self._matcher.known(text)


@lru_cache(maxsize=4)
def translator(lang: str | None) -> Translator:
    """The translator for `lang` ("en", "zh"; None = English), its catalog loaded once."""
    if not lang or lang == "en":
        return Translator("en")
    from envdoctor.i18n.catalog import load_messages

    return Translator(lang, load_messages(lang))
