"""Templates: English messages with `{named}` placeholders, matched against rendered text.

Checks write their words as ordinary f-strings (`f"torch {version} is a CPU-only build"`); the
extractor turns each into the template `torch {version} is a CPU-only build`. At render time a
rendered English text is matched against the templates, the values in the placeholders are kept
(and translated themselves when they are words), and the translation's template is filled with
them. So checks stay plain Python, and a new string in a check is picked up by re-extraction.

A text no template matches whole is cut at sentence and clause boundaries and its pieces are
matched (a detail assembled from several f-strings); what still matches nothing stays English.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

# an escaped brace ("{{", "}}") or a placeholder ("{name}", group 1), read left to right: the one
# reading of a template's braces that `placeholders`, `fill`, `literal` and `Template` share
_TOKEN = re.compile(r"\{\{|\}\}|\{([A-Za-z_][\w.]*)\}")
_WORD = re.compile(r"[A-Za-z]{2,}")
# where a text may be cut into pieces: after a sentence or clause, at a line break, a dash
_CUT = re.compile(r"(?<=[.;:!?,])[ \t]+|\n+|[ \t]+(?=[—(→])|(?<=\))[ \t]+| · ")
_MAX_DEPTH = 3
_CLAUSE = re.compile(r"[.;:!?,][ \t]|\n")
_SENTENCE = re.compile(r"[.!?][ \t]|\n")
_ENGLISH_WORD = re.compile(r"(?<![\w./-])[A-Za-z][a-z]+(?![\w./-])")
# placeholders whose values may hold clauses: lists ("{reasons}", "{items}") and explanations
_LISTY = re.compile(
    r"(s|value|reason|why|detail|what|removeprefix|summary|note|text|error|exc|message)(_\d+)*$"
)
_CJK_CHAR = re.compile(r"[\u4e00-\u9fff]")
# no space between Chinese characters, nor next to full-width punctuation (which carries its own)
_CJK_GAP = re.compile(
    r"(?<=[\u4e00-\u9fff，。；：（）、]) (?=[\u4e00-\u9fff，。；：（）、])"
    r"|(?<=\S) +(?=[，。；：（）、])|(?<=[，。；：（）、]) +(?=\S)"
)


def english_left(text: str) -> int:
    """How many English words a translated text still holds (to prefer the fullest one)."""
    return len(_ENGLISH_WORD.findall(text))


def _tidy(text: str) -> str:
    """No spaces between Chinese characters (a template's space around a value that turned out
    to be Chinese too)."""
    return _CJK_GAP.sub("", text)


def placeholders(template: str) -> list[str]:
    """The placeholder names in `template`, in order (`{{` and `}}` are literal braces)."""
    return [m.group(1) for m in _TOKEN.finditer(template) if m.group(1)]


def fill(template: str, values: Mapping[str, str]) -> str:
    """`template` with each `{name}` replaced by its value (unknown names stay as written)."""

    def one(m: re.Match[str]) -> str:
        token = m.group(0)
        if token in ("{{", "}}"):
            return token[0]
        return values.get(m.group(1), token)

    return _TOKEN.sub(one, template)


def literal(template: str) -> str:
    """The template's fixed text, placeholders removed (what shows it is English prose). Escaped
    braces are read first, as `fill` reads them: "{{sys.executable}}" is the literal text
    "{sys.executable}", not a placeholder inside braces."""
    return _TOKEN.sub(lambda m: m.group(0)[0] if m.group(1) is None else " ", template)


# placeholders that only ever hold a number ("{count} errors", "{n_packages} packages")
_COUNTED = re.compile(r"count|n_\w+")


@dataclass(frozen=True)
class Template:
    """One msgid with placeholders, ready for matching. The regular expression is compiled on
    first use: a run tries a few dozen of the catalog's thousands of templates."""

    msgid: str
    names: tuple[str, ...]
    source: str  # the regular expression, compiled by `pattern`
    prefix: str  # the fixed text before the first placeholder ("" when it starts with one)
    anchor: str  # the longest fixed chunk, a quick test before the regex
    key: str  # the first two whole words of the prefix ("" when it has fewer)

    @property
    def pattern(self) -> re.Pattern[str]:
        return re.compile(self.source, re.S)  # re caches compiled patterns

    @property
    def greedy(self) -> re.Pattern[str]:
        """The same with greedy values: "{names} {rest}" splits "RTX 4090 is old" either way."""
        return re.compile(self.source.replace("(.*?)", "(.*)"), re.S)

    @classmethod
    def compile(cls, msgid: str) -> Template:
        names = placeholders(msgid)
        parts: list[str] = []
        chunks: list[str] = []
        pos = 0
        text = msgid
        tokens = list(_TOKEN.finditer(text))
        for i, m in enumerate(tokens):
            chunk = text[pos : m.start()]
            if m.group(0) in ("{{", "}}"):
                chunk += m.group(0)[0]
                parts.append(re.escape(chunk))
                chunks.append(chunk)
            else:
                parts.append(re.escape(chunk))
                chunks.append(chunk)
                chunks.append("\0")
                follows = i + 1 < len(tokens) and tokens[i + 1].start() == m.end()
                # two values side by side ("torch {release}{where}"): the first is one word
                if _COUNTED.fullmatch(m.group(1)):  # "{count} error" must not read "the error"
                    parts.append(r"(\d[\d,.]*)")
                else:
                    parts.append(
                        r"(\S*[^\s,.;:])" if follows and tokens[i + 1].group(1) else "(.*?)"
                    )
            pos = m.end()
        parts.append(re.escape(text[pos:]))
        chunks.append(text[pos:])
        joined = "".join(chunks)
        pieces = [c for c in joined.split("\0")]
        prefix = pieces[0] if "\0" in joined else joined
        anchor = max(pieces, key=len)
        words = prefix.split()
        if words and prefix[-1:] not in (" ", "\t", "\n"):
            words = words[:-1]  # the last word runs into a placeholder
        key = " ".join(words[:2]) if len(words) >= 2 else ""
        return cls(msgid, tuple(names), "".join(parts), prefix, anchor, key)


class Matcher:
    """Translates English texts with a catalog of (template -> translation)."""

    def __init__(self, messages: Mapping[str, str]) -> None:
        self.messages = dict(messages)
        self._by_prefix: dict[str, list[Template]] = {}
        self._floating: list[Template] = []
        self._cache: dict[str, str] = {}
        for msgid in self.messages:
            if not placeholders(msgid):
                continue
            template = Template.compile(msgid)
            if template.key:
                self._by_prefix.setdefault(template.key, []).append(template)
            else:
                self._floating.append(template)
        for group in (*self._by_prefix.values(), self._floating):
            group.sort(key=lambda t: -len(literal(t.msgid)))
        # the exact messages, also without their final full stop (a caller may add one)
        self._exact = dict(self.messages)
        for msgid, msgstr in self.messages.items():  # "{{0: …}}" in a catalog is "{0: …}" printed
            if ("{{" in msgid or "}}" in msgid) and not placeholders(msgid):
                self._exact.setdefault(literal(msgid), literal(msgstr))

    def __call__(self, text: str) -> str:
        return self.translate(text)

    def translate(self, text: str, depth: int = 0) -> str:
        """`text` in the catalog's language; pieces no message matches stay as they are."""
        if not text or not _WORD.search(text) or depth > _MAX_DEPTH:
            return text
        cached = self._cache.get(text)
        if cached is not None:
            return cached
        lead = text[: len(text) - len(text.lstrip())]
        trail = text[len(text.rstrip()) :]
        core = text.strip()
        best: tuple[tuple[int, int], str] | None = None
        attempts = (
            lambda: self._whole(core, depth, strict=True),
            lambda: self._pieces(core, depth),
            lambda: self._whole(core, depth, strict=False),
        )
        for attempt in attempts:  # a whole match whose values hold no clause first
            found = attempt()
            if found is None:
                continue
            score = (english_left(found), -len(_CJK_CHAR.findall(found)))
            if best is None or score < best[0]:
                best = (score, found)
            if score[0] == 0:
                break
        result = lead + _tidy(best[1] if best else core) + trail
        if len(self._cache) < 20000:
            self._cache[text] = result
        return result

    def known(self, text: str) -> bool:
        """Whether `text` as a whole matches a message."""
        return self._whole(text.strip(), 0, strict=False) is not None

    def _whole(self, text: str, depth: int, strict: bool | None = True) -> str | None:
        """`text` translated as one message. `strict`: values may hold no clause (True), no
        sentence (None), anything (False)."""
        found = self._exact.get(text)
        if found is not None:
            return found
        options = []
        if text[-1:] in ".:;," and len(text) > 1:  # a caller may have added the stop
            inner = self._whole(text[:-1].rstrip(), depth, strict)
            if inner is not None:
                options.append(inner.rstrip("。：；，.:;,") + _ZH_PUNCT[text[-1]])
        whole = self._template(text, depth, strict)
        if whole is not None:
            options.append(whole)
        return min(options, key=english_left) if options else None

    def _template(self, text: str, depth: int, strict: bool | None) -> str | None:
        """The best filling of a template matching `text` whole: of the candidates (and of the
        two ways to split values side by side), the one that leaves the fewest English words."""
        best: tuple[int, str] | None = None
        for candidate in self._candidates(text):
            for pattern in (candidate.pattern, candidate.greedy):
                found = self._fill(candidate, pattern.fullmatch(text), text, depth, strict)
                if found is None:
                    continue
                left = english_left(found)
                if best is None or left < best[0]:
                    best = (left, found)
                if left == 0:
                    return found
        return None if best is None else best[1]

    def _fill(
        self,
        candidate: Template,
        m: re.Match[str] | None,
        text: str,
        depth: int,
        strict: bool | None,
    ) -> str | None:
        if m is None:
            return None
        if strict and any(_CLAUSE.search(v) for v in m.groups()):
            return None
        if strict is None and any(_SENTENCE.search(v) for v in m.groups()):
            return None
        if (
            strict is None
            and len(literal(candidate.msgid)) < 40
            and any(
                _CLAUSE.search(v) and not _LISTY.search(name)
                for name, v in zip(candidate.names, m.groups(), strict=True)
            )
        ):
            return None  # in a short template only a list or a reason holds clauses
        loose = strict is not True and not candidate.prefix  # anchored only at its end
        if loose and sum(map(len, m.groups())) > 3 * len(literal(candidate.msgid)):
            return None  # "{minimum} or newer" must not swallow a paragraph
        values: dict[str, str] = {}
        for name, value in zip(candidate.names, m.groups(), strict=True):
            values.setdefault(name, self.translate(value, depth + 1))
        return fill(self.messages[candidate.msgid], values)

    def _candidates(self, text: str) -> list[Template]:
        found: list[Template] = []
        key = _key(text)
        if key:
            found.extend(t for t in self._by_prefix.get(key, ()) if text.startswith(t.prefix))
        found.extend(t for t in self._floating if t.anchor in text)
        return found

    def _pieces(self, text: str, depth: int) -> str:
        """Cover `text` with the longest matching runs of pieces cut at boundaries."""
        cuts = [0]
        seps: dict[int, tuple[int, str]] = {}
        for m in _CUT.finditer(text):
            if m.start() == 0 or m.end() >= len(text):
                continue
            seps[m.start()] = (m.end(), m.group(0))
            cuts.append(m.start())
        cuts.append(len(text))
        if len(cuts) == 2:
            return text
        starts = [0] + [seps[c][0] for c in cuts[1:-1]]
        ends = cuts[1:]
        n = len(starts)
        # best[i]: ((-English words left, characters matched), pieces) for text[starts[i]:]
        Score = tuple[int, int]
        best: list[tuple[Score, list[tuple[str, bool]]]] = [((0, 0), [])] * (n + 1)
        for i in range(n - 1, -1, -1):
            options: list[tuple[Score, list[tuple[str, bool]]]] = []
            for j in range(min(n - 1, i + 40), i - 1, -1):  # longest run first
                piece = text[starts[i] : ends[j]]
                found = (
                    (self._whole(piece, depth) or self._whole(piece, depth, None))
                    if _WORD.search(piece)
                    else piece
                )
                if found is not None:
                    (left, matched), parts = best[j + 1]
                    score = (left - english_left(found), matched + len(piece))
                    options.append((score, [(found, True), *_sep(j, ends, seps), *parts]))
            (left, matched), parts = best[i + 1]
            piece = text[starts[i] : ends[i]]
            score = (left - english_left(piece), matched)
            options.append((score, [(piece, False), *_sep(i, ends, seps), *parts]))
            best[i] = max(options, key=lambda o: o[0])
        if best[0][0][1] == 0:
            return text
        return _join(best[0][1])


def _sep(j: int, ends: list[int], seps: dict[int, tuple[int, str]]) -> list[tuple[str, bool]]:
    if j + 1 >= len(ends):
        return []
    return [(seps[ends[j]][1], False)] if ends[j] in seps else []


_CJK = re.compile(r"[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]")
_ZH_PUNCT = {",": "，", ";": "；", ":": "：", ".": "。"}


def _join(parts: list[tuple[str, bool]]) -> str:
    """Join translated and untouched pieces; between Chinese pieces no spaces, full-width marks."""
    out = ""
    for i, (piece, _done) in enumerate(parts):
        if piece.strip() == "" and i > 0 and i + 1 < len(parts):
            before, after = out[-1:], parts[i + 1][0][:1]
            if "\n" in piece or piece.strip(" \t") == "·":
                out += piece
            elif (before and before in "，。；：（）") or (
                _CJK.match(before) and _CJK.match(after)
            ):
                out += ""
            else:
                out += piece
            continue
        if out and _CJK.match(piece[:1] or " ") and out[-1:] in _ZH_PUNCT:
            out = out[:-1] + _ZH_PUNCT[out[-1]]
        if piece in _ZH_PUNCT and any(done for _, done in parts):  # a lone "," of a clause
            piece = _ZH_PUNCT[piece]
        if piece[:1] in _ZH_PUNCT and _CJK.match(out[-1:] or " "):
            piece = _ZH_PUNCT[piece[0]] + piece[1:]
        out += piece
    return out


def _key(text: str) -> str:
    """The index key: the first two words (templates and texts must share them to match)."""
    words = text.split()[:2]
    return " ".join(words) if len(words) == 2 else ""
