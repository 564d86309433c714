"""Redaction of a report document before it is rendered and shared.

Replaced, with pseudonyms that are stable within one document (the same host is `<host-1>`
everywhere, in facts, raw captures and finding texts alike):

- user names (`<user-N>`): from home paths (/home/NAME, /Users/NAME, C:\\Users\\NAME), from keys
  such as USER / username, and those the caller knows (the account running envdoctor);
- host names (`<host-N>`): from keys such as HOSTNAME / hostname / nodename, names with an
  embedded IPv4 (ip-10-0-0-12, dhcp-192-168-0-66), and those the caller knows;
- IPv4 and IPv6 addresses (`<ipv4-N>`, `<ipv6-N>`; loopback and unspecified ones are kept),
  MAC addresses (`<mac-N>`);
- GPU and MIG UUIDs (`<gpu-uuid-N>`, `<mig-uuid-N>`), other UUIDs such as machine or daemon ids
  (`<uuid-N>`), and serial numbers / unique ids
  (`<serial-N>`), in data keys and in raw tool output (nvidia-smi XML and text, rocm-smi, dmesg);
- secrets (`<secret-N>`): values of keys whose name says secret (TOKEN, KEY, SECRET, PASSWORD,
  PASSWD, CREDENTIAL, AUTH, COOKIE, PRIVATE…), `NAME=value` lines of such names, URL
  credentials, Authorization headers, PEM private keys, key-shaped values (hf_…, ghp_…,
  github_pat_…, sk-…, AKIA…, xox…-, glpat-…, AIza…, JWTs, npm_…, pypi-…) and long hex or
  high-entropy base64 strings outside version/commit/digest fields.

- secrets in command lines: the value of a credential-shaped option (`--gradio-auth user:pass`,
  `--api-auth=…`, `--hf-token X`, `--api-key X`, `--db-password X`), wherever the same value
  appears again (a suggested fix command, a raw capture).

Not secrets, though they sit under a secret-sounding name: a file path (`ssl_keyfile =
/etc/ssl/key.pem`, `--ssl-keyfile PATH`: the path is not the key), a number (`--max-tokens 512`)
and a commit hash inside a URL path (`…/commit/<40 hex>`, `git+https://…@<hex>`).

A user or host name that is also a word of envdoctor's own vocabulary (`nvidia`, `cuda`, `gpu`,
`linux`, `vm`, a one- or two-letter name; the words of the document's finding ids, fact-group
names, check ids and finding texts) is replaced only where it is a value: under a host/user
key, in `HOSTNAME=` / `USER=` assignments, in home paths, in `user@host` prompts, in `uname -a`
and `docker info` lines. Elsewhere (`nvidia.no-gpu`, `/proc/driver/nvidia`, "the NVIDIA
driver") it is envdoctor's word, not the machine's name, and stays.

The first pass only discovers identifiers across the whole document, the second replaces
them, so a name first seen in a path late in the document is still replaced early in it.
Generic account and host names (root, ubuntu, localhost…) are kept: they identify no one.
"""

from __future__ import annotations

import ipaddress
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from envdoctor.render import redact_shapes as shapes
from envdoctor.render.redact_shapes import is_secret_name

# -- the redactor --------------------------------------------------------------------------------


# where a token starts in pasted text: after blanks and quotes, and after the brackets and backquotes
# that Markdown wraps links and code in ("[url](url)", "`url`"), so one URL is judged alike everywhere
_TOKEN_STARTS = " \t\n\"'(<[`|"


def _token_before(m: re.Match) -> str:
    """The part of the match's token before it (a URL's scheme, host and path, or nothing)."""
    start = max(m.string.rfind(c, 0, m.start()) for c in _TOKEN_STARTS) + 1
    return m.string[start : m.start()]


@dataclass
class Redactor:
    """Redacts one document. Seed it with identifiers the caller knows (this machine's user and
    host names), call `redact(doc)`, then `summary()` / `leaks(text)` on what it did."""

    users: set[str] = field(default_factory=set)
    hosts: set[str] = field(default_factory=set)
    # the kinds replaced (None: all); triage replaces only secrets and UUIDs unless --redact
    kinds: frozenset[str] | None = None
    _literals: dict[str, str] = field(default_factory=dict)  # value -> kind, found in pass 1
    _tokens: dict[tuple[str, str], str] = field(default_factory=dict)
    _counts: Counter = field(default_factory=Counter)
    _seen: dict[str, str] = field(default_factory=dict)  # original -> pseudonym
    _literal_re: re.Pattern | None = None
    _literal_kinds: list[str] = field(default_factory=list)
    _vocabulary: set[str] = field(default_factory=lambda: set(shapes.VOCABULARY))
    _word_literals: dict[str, tuple[str, str]] = field(
        default_factory=dict
    )  # lower -> (value, kind)
    _word_contexts: list[tuple[re.Pattern, str | None]] = field(default_factory=list)
    # a report repeats most of its strings (keys, skip reasons): each (text, key) is read once
    _discovered: set[tuple[str, str | None]] = field(default_factory=set)
    _replaced: dict[tuple[str, str | None], str] = field(default_factory=dict)

    # -- public ----------------------------------------------------------------------------------
    def redact(self, doc: Any) -> Any:
        """A redacted copy of a JSON-like document (dicts, lists, strings, numbers)."""
        for user in self.users:
            self._note("user", user)
        for host in self.hosts:
            self._note_host(host)
        self._discover(doc, None)
        self._literal_re = self._build_literal_re()
        self._replaced.clear()  # the literals found may have changed what a text becomes
        return self._walk(doc, None)

    def redact_text(self, text: str, key: str | None = None) -> str:
        """Redact one string (after `redact` has discovered the document's identifiers)."""
        if self._literal_re is None:
            self._discover(text, key)
            self._literal_re = self._build_literal_re()
            self._replaced.clear()
        return self._text(text, key)

    def summary(self) -> dict[str, int]:
        """How many distinct values of each kind were replaced."""
        return dict(sorted(self._counts.items()))

    def leaks(self, text: str) -> list[str]:
        """Kinds of replaced values that still occur in `text` (a rendered report): should be []."""
        found = []
        for original, token in self._seen.items():
            kind = token.strip("<>").rsplit("-", 1)[0]
            if len(original) < 4:
                continue
            if kind in ("user", "host") and self._is_word(original):
                if any(
                    m["v"].lower() == original.lower()
                    for pattern, _kind in _word_contexts(re.escape(original))
                    for m in pattern.finditer(text)
                ):
                    found.append(kind)
            elif kind in ("user", "host"):
                if re.search(_boundary(original, kind), text):
                    found.append(kind)
            elif original in text:
                found.append(kind)
        return sorted(set(found))

    # -- discovery (pass 1) ----------------------------------------------------------------------
    def _discover(self, obj: Any, key: str | None) -> None:
        if isinstance(obj, dict):
            for k, v in obj.items():
                if _ID_LIKE.fullmatch(str(k)):  # a fact-group name: envdoctor's words
                    self._learn_words(str(k))
                self._discover_text(str(k), None)
                self._discover(v, _child_key(key, str(k)))
        elif isinstance(obj, list):
            for index, v in enumerate(obj):
                self._discover(v, key)
                nxt = obj[index + 1] if index + 1 < len(obj) else None
                if isinstance(v, str) and isinstance(nxt, str) and _secret_option(v, nxt):
                    self._note("secret", nxt.strip())  # argv ["--gradio-auth", "user:pass"]
        elif isinstance(obj, str):
            if key in shapes.OWN_KEYS:
                return
            if (
                key is not None
                and key.lower() in shapes.VOCABULARY_KEYS
                and _ID_LIKE.fullmatch(obj)
            ):
                self._learn_words(obj)
            self._discover_text(obj, key)

    def _learn_words(self, identifier: str) -> None:
        """The words of one of envdoctor's ids or group names (`nvidia.no-gpu`: nvidia, no,
        gpu, no-gpu)."""
        for word in re.split(r"[._/]+", identifier.lower()):
            self._vocabulary.add(word)
            self._vocabulary.update(word.split("-"))

    def _is_word(self, value: str) -> bool:
        """Whether a user/host name is one of envdoctor's words (replaced only as a value)."""
        lowered = value.lower()
        return len(lowered) <= 2 or lowered in self._vocabulary

    def _discover_text(self, text: str, key: str | None) -> None:
        if (text, key) in self._discovered:
            return
        self._discovered.add((text, key))
        lowered = (key or "").lower()
        if key is not None and shapes.meaningful(text) and "\n" not in text:
            if lowered in shapes.SERIAL_KEYS:
                self._note("serial", text.strip())
            elif lowered in shapes.HOST_KEYS:
                self._note_host(text.strip())
            elif lowered in shapes.USER_KEYS:
                self._note("user", text.strip())
            elif is_secret_name(key) and len(text.strip()) >= 6 and not _is_path(text):
                self._note("secret", text.strip())
        for pattern in (shapes.HOME, shapes.WINDOWS_HOME):
            for match in pattern.finditer(text):
                self._note("user", match["name"].rstrip(" ."))
        for match in shapes.ASSIGNMENT.finditer(text):
            name, value = match["name"], match["value"]
            if name.upper() in ("HOSTNAME", "NODENAME", "SLURMD_NODENAME") and shapes.meaningful(
                value
            ):
                self._note_host(value)
            elif name.upper() in ("USER", "LOGNAME", "USERNAME", "SUDO_USER") and shapes.meaningful(
                value
            ):
                self._note("user", value)
            elif _secret_assignment(name, value):
                self._note("secret", value)
        for match in shapes.OPTION_VALUE.finditer(text):
            if _secret_option(match["flag"], match["value"]):
                self._note("secret", match["value"])
        for match in shapes.DOCKER_INFO_NAME.finditer(text):
            self._note_host(match.group(1))
        for match in shapes.PROMPT.finditer(text):
            self._note("user", match["user"])
            self._note_host(match["host"])
        for match in shapes.SERIAL_TEXT.finditer(text):
            if shapes.meaningful(match["value"]):
                self._note("serial", match["value"])

    def _note(self, kind: str, value: str) -> None:
        value = value.strip()
        if kind == "secret" and shapes.OWN_VALUE.fullmatch(value):
            return  # a device resource name under a secret-named key ("key: nvidia.com/gpu")
        if not value or shapes.PSEUDONYM.fullmatch(value):
            return
        if kind == "user" and (value.lower() in shapes.GENERIC_USERS or len(value) < 2):
            return
        self._literals.setdefault(value, kind)

    def _note_host(self, value: str) -> None:
        value = value.strip().rstrip(".")
        if not value or value.lower() in shapes.GENERIC_HOSTS or shapes.IPV4.fullmatch(value):
            return
        self._note("host", value)
        short = value.split(".", 1)[0]
        if short != value and short.lower() not in shapes.GENERIC_HOSTS and len(short) >= 2:
            self._note("host", short)

    def _build_literal_re(self) -> re.Pattern | None:
        values = sorted(self._literals.items(), key=lambda p: (-len(p[0]), p[0]))
        words = [(v, k) for v, k in values if k in ("user", "host") and self._is_word(v)]
        self._word_literals = {v.lower(): (v, k) for v, k in words}
        self._word_contexts = (
            _word_contexts("|".join(re.escape(v) for v, _k in words)) if words else []
        )
        values = [(v, k) for v, k in values if (v, k) not in words]
        parts = [f"(?P<l{i}>{_boundary(value, kind)})" for i, (value, kind) in enumerate(values)]
        self._literal_kinds = [kind for _v, kind in values]
        return re.compile("|".join(parts)) if parts else None

    def _word_value(self, m: re.Match, kind: str | None) -> str:
        value, noted = self._word_literals.get(m["v"].lower(), (m["v"], "host"))
        if kind is None:  # HOSTNAME= / USER=: the variable says which
            var = (m.groupdict().get("var") or "").upper()
            kind = "host" if var.startswith(("HOST", "NODE", "SLURMD", "COMPUTER")) else "user"
        token = self._token(kind, m["v"])
        if token != m["v"]:  # kept as is (this kind is not redacted here): nothing was replaced
            self._seen.setdefault(value, token)
        return m["pre"] + token

    # -- substitution (pass 2) -------------------------------------------------------------------
    def _walk(self, obj: Any, key: str | None) -> Any:
        if isinstance(obj, dict):
            return {
                self._text(str(k), None): self._walk(v, _child_key(key, str(k)))
                for k, v in obj.items()
            }
        if isinstance(obj, list):
            return [self._walk(v, key) for v in obj]
        if isinstance(obj, str):
            return self._text(obj, key)
        return obj

    def _text(self, text: str, key: str | None) -> str:
        if not text or key in shapes.OWN_KEYS:
            return text
        done = self._replaced.get((text, key))
        if done is None:
            done = self._replaced[(text, key)] = self._replace(text, key)
        return done

    def _replace(self, text: str, key: str | None) -> str:
        lowered = (key or "").lower()
        if key is not None and shapes.meaningful(text) and "\n" not in text:
            if lowered in shapes.SERIAL_KEYS:
                return self._token("serial", text)
            if is_secret_name(key) and not shapes.EXEMPT_KEY.search(key) and not _is_path(text):
                return self._token("secret", text)
            if (
                lowered in shapes.HOST_KEYS | shapes.USER_KEYS
                and text.strip().lower() in self._word_literals
            ):
                name_kind = "host" if lowered in shapes.HOST_KEYS else "user"
                return self._token(name_kind, text.strip())
        exempt = key is not None and bool(shapes.EXEMPT_KEY.search(key))
        text = shapes.PEM.sub(lambda m: self._token("secret", m.group(0)), text)
        if self._literal_re is not None:  # values found in pass 1, whole (a password with spaces)
            text = self._literal_re.sub(self._literal, text)
        for pattern, context_kind in self._word_contexts:  # envdoctor's words as names: values only
            text = pattern.sub(partial(self._word_value, kind=context_kind), text)
        text = shapes.OPTION_VALUE.sub(self._option, text)
        text = shapes.URL_CREDENTIALS.sub(
            lambda m: m.group(1) + self._token("secret", m.group(2)) + "@", text
        )
        text = shapes.AUTH_HEADER.sub(self._auth_header, text)
        text = shapes.ASSIGNMENT.sub(self._assignment, text)
        text = shapes.KEY_SHAPES.sub(lambda m: self._token("secret", m.group(0)), text)
        text = shapes.MIG_UUID.sub(lambda m: self._token("mig-uuid", m.group(0)), text)
        text = shapes.GPU_UUID.sub(lambda m: self._token("gpu-uuid", m.group(0)), text)
        text = shapes.ANY_UUID.sub(lambda m: self._token("uuid", m.group(0)), text)
        text = shapes.SERIAL_TEXT.sub(self._serial, text)
        text = shapes.HOME.sub(self._home, text)
        text = shapes.WINDOWS_HOME.sub(self._home, text)
        text = shapes.DASHED_IP_HOST.sub(lambda m: self._token("host", m.group(0)), text)
        text = shapes.MAC.sub(self._mac, text)
        if not exempt:
            text = shapes.IPV6_CANDIDATE.sub(self._ipv6, text)
            text = shapes.IPV4.sub(self._ipv4, text)
            text = shapes.HEX.sub(self._hex, text)
            text = shapes.BASE64.sub(self._base64, text)
        return text

    def _token(self, kind: str, value: str) -> str:
        if shapes.PSEUDONYM.fullmatch(value) or (self.kinds is not None and kind not in self.kinds):
            return value
        if kind == "secret" and shapes.OWN_VALUE.fullmatch(value.strip()):
            return value  # a device resource name under a secret-named key ("key: nvidia.com/gpu")
        canonical = (
            value.lower() if kind in ("host", "gpu-uuid", "mig-uuid", "mac", "ipv6") else value
        )
        token = self._tokens.get((kind, canonical))
        if token is None:
            self._counts[kind] += 1
            token = self._tokens[(kind, canonical)] = f"<{kind}-{self._counts[kind]}>"
        self._seen[value] = token
        return token

    def _auth_header(self, m: re.Match) -> str:
        scheme = f"{m.group(3)} " if m.group(3) else ""
        return f"{m.group(1)}{m.group(2)}{scheme}{self._token('secret', m.group(4))}"

    def _option(self, m: re.Match) -> str:
        if not _secret_option(m["flag"], m["value"]) or shapes.PSEUDONYM.fullmatch(m["value"]):
            return m.group(0)
        return f"{m['flag']}{m['sep']}{m['quote'] or ''}{self._token('secret', m['value'])}"

    def _assignment(self, m: re.Match) -> str:
        name, value = m["name"], m["value"]
        if not _secret_assignment(name, value):
            return m.group(0)
        return f"{name}{m['sep']}{m['quote'] or ''}{self._token('secret', value)}"

    def _serial(self, m: re.Match) -> str:
        if not shapes.meaningful(m["value"]) or shapes.PSEUDONYM.fullmatch(m["value"]):
            return m.group(0)
        return f"{m['label']}{m['sep']}{self._token('serial', m['value'])}"

    def _home(self, m: re.Match) -> str:
        name = m["name"].rstrip(" .")
        if name.lower() in shapes.GENERIC_USERS or shapes.PSEUDONYM.fullmatch(name):
            return m.group(0)
        return m["prefix"] + self._token("user", name) + m["name"][len(name) :]

    def _literal(self, m: re.Match) -> str:
        index = int(next(k for k, v in m.groupdict().items() if v is not None)[1:])
        return self._token(self._literal_kinds[index], m.group(0))

    def _mac(self, m: re.Match) -> str:
        digits = re.sub(r"[:-]", "", m.group(0))
        if digits.strip("0") == "" or digits.lower().strip("f") == "":
            return m.group(0)
        return self._token("mac", m.group(0))

    def _ipv4(self, m: re.Match) -> str:
        address = ipaddress.IPv4Address(m.group(0))
        if (
            address.is_loopback
            or address.is_unspecified
            or m.group(0) == "255.255.255.255"
            or m.group(0).startswith("255.")
        ):
            return m.group(0)
        return self._token("ipv4", m.group(0))

    def _ipv6(self, m: re.Match) -> str:
        candidate = m.group(0)
        if candidate.count(":") < 2 or not re.search(r"[0-9A-Fa-f]", candidate):
            return candidate
        try:
            address = ipaddress.IPv6Address(candidate)
        except ValueError:
            return candidate
        if address.is_loopback or address.is_unspecified:
            return candidate
        return self._token("ipv6", candidate)

    def _hex(self, m: re.Match) -> str:
        before = m.string[max(0, m.start() - 24) : m.start()]
        if shapes.HEX_CONTEXT.search(before):
            return m.group(0)
        # a commit or blob hash in a URL's path (…/commit/<hex>, git+https://…@<hex>) names
        # public code; a query value (?token=<hex>) may be a secret
        if shapes.URL_TOKEN.match(_token_before(m)) and before[-1:] in (
            "/",
            "@",
            "#",
        ):
            return m.group(0)
        return self._token("secret", m.group(0))

    def _base64(self, m: re.Match) -> str:
        value = m.group(0)
        # a URL's host and path ("…github.com/AUTOMATIC1111/stable-diffusion-webui") name public
        # pages; a query value (?key=…) may be a secret
        before = _token_before(m)
        if shapes.URL_TOKEN.match(before) and "?" not in before and "=" not in value:
            return value
        if (
            value.startswith("/")
            or value.count("/") > 2
            or not re.search(r"[A-Z]", value)
            or not re.search(r"[a-z]", value)
            or not re.search(r"\d", value)
            or shapes.entropy(value) < 4.3
        ):
            return value
        return self._token("secret", value)


_ID_LIKE = re.compile(r"[a-z][a-z0-9_-]*(?:\.[a-z0-9][a-z0-9_-]*)+")


def _word_contexts(names: str) -> list[tuple[re.Pattern, str | None]]:
    """Where a user or host name that is one of envdoctor's words is a value (group `v`), with
    the kind of name each place holds (None: by the variable's name, group `var`)."""
    v = rf"(?P<v>(?i:{names}))"
    return [
        (
            re.compile(
                r"(?P<pre>(?P<var>(?i:\b(?:HOSTNAME|NODENAME|SLURMD_NODENAME|COMPUTERNAME|USER|"
                r"LOGNAME|USERNAME|SUDO_USER)))[\"']?\s*[=:]\s*[\"']?)" + v + r"(?![\w.-])"
            ),
            None,
        ),
        (re.compile(r"(?P<pre>(?<![\w.-]))" + v + r"(?=@[A-Za-z0-9][\w.-]*[:\s])"), "user"),
        (
            re.compile(
                r"(?P<pre>(?:(?<![\w.-])[A-Za-z0-9_][\w.-]*|<user-\d+>)@)" + v + r"(?=[:\s]|$)"
            ),
            "host",
        ),
        (re.compile(r"(?P<pre>\b(?:Linux|Darwin)[ \t]+)" + v + r"(?=[ \t]+\d)"), "host"),
        (re.compile(r"(?m)(?P<pre>^ Name: )" + v + r"$"), "host"),
        (
            re.compile(
                r"(?im)(?P<pre>^[ \t]*(?:static[ \t]+)?(?:host[ \t_]?name|node[ \t_]?name)"
                r"[ \t]*[:=][ \t]*)" + v + r"(?=[ \t]*$)"
            ),
            "host",
        ),
    ]


def _secret_assignment(name: str, value: str) -> bool:
    """Whether `name=value` in a text holds a secret: one rule for finding such values (pass 1)
    and replacing them (pass 2), so that no value is replaced in one place and left in another
    (the leak check stops the report then). A value shorter than six characters is a word, not a
    credential ("-keys=cuda,gpu" in a TVM target string); a version / hash under a secret-sounding
    name, a path, or a pseudonym already given is none either."""
    value = value.strip()
    return (
        is_secret_name(name)
        and not shapes.EXEMPT_KEY.search(name)
        and shapes.meaningful(value)
        and not shapes.PSEUDONYM.fullmatch(value)
        and not _is_path(value)
        and len(value) >= 6
    )


def _is_path(value: str) -> bool:
    """A file path (`/etc/ssl/key.pem`, `~/.cache/token`, `C:\\keys\\a.json`): under a
    secret-sounding name it says where a secret is, not what it is."""
    text = value.strip().strip("\"'")
    return bool(shapes.PATH_VALUE.fullmatch(text)) and not shapes.PSEUDONYM.fullmatch(text)


def _secret_option(flag: str, value: str) -> bool:
    """Whether `flag value` passes a credential (`--gradio-auth user:pass`, `--hf-token X`)."""
    if not flag.startswith("--") or not re.fullmatch(r"--[A-Za-z][\w-]*", flag):
        return False
    parts = [p for p in re.split(r"[-_]+", flag[2:].upper()) if p]
    # a part that ends with a secret word (HFTOKEN, APIKEY, PASSWORD), not one that only starts
    # with it (--tokenized_path, --keyfile)
    if not any(part.endswith(word) for part in parts for word in shapes.OPTION_SECRET_PARTS):
        return False
    if any(part in shapes.OPTION_NOT_SECRET_PARTS for part in parts):
        return False
    text = value.strip().strip("\"'")
    return (
        shapes.meaningful(text)
        and not text.startswith("-")
        and not _is_path(text)
        and not shapes.NUMBER_VALUE.fullmatch(text.lower())
    )


def _boundary(value: str, kind: str) -> str:
    """A pattern for `value` as a whole word (host names in any case; users exactly as written)."""
    if kind == "host":
        return rf"(?i:(?<![\w.-]){re.escape(value)}(?![\w-]))"
    if kind == "user":
        return rf"(?<![\w.-]){re.escape(value)}(?![\w-])"
    return re.escape(value)


def _child_key(parent: str | None, key: str) -> str:
    """The key a value is judged by: a package list's values are versions, whatever the name."""
    return "version" if parent == "packages" else key


def masked_argv(argv: Sequence[str]) -> list[str]:
    """The words of a command line with the credentials in them replaced by pseudonyms
    (`--hf-token X`, `--password=X`, `HF_TOKEN=X`, a URL's user:password, secret-shaped
    tokens), everything else as given: for showing a command (preflight's message and JSON go
    to shared container logs), never for running it. The whole line is read first, so a value
    is known as a secret by the flag before it."""
    redactor = Redactor(kinds=frozenset({"secret"}))
    redactor.redact_text(" ".join(argv))
    return [redactor.redact_text(word) for word in argv]


def redact_document(
    doc: Any, users: Iterable[str] = (), hosts: Iterable[str] = ()
) -> tuple[Any, Redactor]:
    """Redact a JSON-like report document; returns it and the redactor (for summary/leaks)."""
    redactor = Redactor(users={u for u in users if u}, hosts={h for h in hosts if h})
    return redactor.redact(doc), redactor
