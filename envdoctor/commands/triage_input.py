"""What `envdoctor triage` does with input that is not what it seems, and with what it echoes.

- An input with no length known in advance (stdin, a FIFO, `/dev/urandom`) is read in full,
  counting as it reads, before any reader parses it: one byte over the limit ends the reading
  with a usage error, instead of the readers working through 50 MiB first.
- Input that is mostly not text (random or compressed bytes: replacement characters and control
  codes) is refused as such, instead of "58 checks passed".
- An input that is an envdoctor report (JSON, or Markdown/HTML with the report JSON embedded) but
  that the report reader could not use (truncated, wrong-typed, a newer schema) is refused with
  the damage named, the way `envdoctor fleet` names it, instead of being read as a clean paste.
- What triage prints never echoes the secrets and UUIDs of the pasted text (tokens, passwords,
  keys, `--gradio-auth` values, GPU/MIG/other UUIDs); `--redact` also pseudonymises user and host
  names, addresses and serials (`envdoctor.render.redact`, as `envdoctor report` does).
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, BinaryIO

from envdoctor.commands import UsageError

if TYPE_CHECKING:
    from envdoctor.model.findings import Finding

# Above this share of replacement characters and control codes the input is not text. A real
# log with some binary noise (a terminal capture, a progress bar) stays far below it.
NOT_TEXT_SHARE = 0.25
# Kinds of value triage never echoes; --redact adds the identifiers.
SECRET_KINDS = frozenset({"secret", "gpu-uuid", "mig-uuid", "uuid"})
_CONTROL_OK = {"\t", "\n", "\r", "\f", "\x1b"}
# what is not text, deleted by str.translate to count it (C speed on a 10 MiB log): the
# replacement character (undecodable bytes) and the other control codes
_NOT_TEXT = dict.fromkeys([0xFFFD, *(c for c in range(32) if chr(c) not in _CONTROL_OK)])


def read_counted(stream: BinaryIO, label: str, limit_bytes: int) -> BinaryIO:
    """All of `stream` in memory, refused (UsageError) as soon as it passes `limit_bytes`."""
    buffer = io.BytesIO()
    try:
        while True:
            chunk = stream.read(min(1 << 20, limit_bytes + 1 - buffer.tell()) or 1)
            if not chunk:
                break
            buffer.write(chunk)
            if buffer.tell() > limit_bytes:
                raise UsageError(
                    f"triage: {label} is larger than {limit_bytes / 1048576:g} MiB, the most "
                    "triage reads (cut the log to the part around the error)"
                )
    except OSError as exc:
        raise UsageError(f"triage: cannot read {label}: {exc.strerror or exc}") from exc
    buffer.seek(0)
    return buffer


class InputWatch:
    """Passes the input's blocks through, counting what is not text and keeping the text of an
    input that looks like an envdoctor report (to name its damage if the reader rejects it)."""

    def __init__(self, blocks: Iterable[str], label: str) -> None:
        self._blocks = blocks
        self.label = label
        self.chars = 0
        self.not_text = 0
        self._report_text: list[str] | None = None
        self._first = True

    def __iter__(self) -> Iterator[str]:
        for block in self._blocks:
            self.chars += len(block)
            self.not_text += len(block) - len(block.translate(_NOT_TEXT))
            if self._first and block.strip():
                self._first = False
                if _looks_like_report(block):
                    self._report_text = []
            if self._report_text is not None:
                self._report_text.append(block)
            yield block

    def problem(self, report) -> str | None:  # noqa: ANN001 - the triage Report
        """Why the input cannot be triaged (after it was read), or None. Mostly-binary input is
        refused only when nothing in it was recognised: a core dump around one error line
        still triages on that line."""
        groups = report.snapshot.groups
        pasted_report_read = "pasted.report" in groups
        recognised = any(not name.startswith("pasted.") for name in groups) or any(
            _matched_an_error_line(f) for f in report.findings
        )
        if self.chars and self.not_text / self.chars > NOT_TEXT_SHARE and not recognised:
            share = 100 * self.not_text / self.chars
            return (
                f"triage: {self.label} is not text ({share:.0f}% of it is undecodable bytes or "
                "control codes); give a log, a paste or a report"
            )
        if self._report_text is not None and not pasted_report_read:
            reason = report_damage("\n".join(self._report_text))
            if reason:
                return f"triage: {self.label}: an envdoctor report that cannot be read: {reason}"
        return None


def _matched_an_error_line(finding: Finding) -> bool:
    """Whether a cause's error pattern matched a line of the input (its origin names the cause);
    a cause reached by cue words alone does not count: random bytes decode to stray words."""
    from envdoctor.triage_engine.loader import DATA

    if not finding.from_signature:
        return False
    key = (finding.origin or "").removeprefix("signature:")
    signature = DATA.of_key(key)
    return signature is not None and bool(signature.match)


def _looks_like_report(head: str) -> bool:
    from envdoctor.model.report import EMBED_START

    start = head.lstrip()[: 1 << 16]
    return (
        EMBED_START in start
        or _rendered_report(start)
        or (
            start.startswith("{")
            and (
                '"schema_version"' in start
                or '"envdoctor_version"' in start
                or ('"checks"' in start and '"passed"' in start)  # the sorted keys' first
                or ('"snapshot"' in start and '"groups"' in start)
            )
        )
    )


def _rendered_report(start: str) -> bool:
    """The head of a Markdown or HTML report (whose JSON is embedded at the end)."""
    return start.startswith("## envdoctor ") or (
        start.startswith("<!DOCTYPE html") and "<title>envdoctor " in start[:1024]
    )


def report_damage(text: str) -> str | None:
    """What is wrong with an envdoctor report's text (truncated, not JSON, wrong-typed, a newer
    schema), or None when it reads back."""
    from envdoctor.model.report import EMBED_END, EMBED_START, Report, extract_embedded
    from envdoctor.model.snapshot import SCHEMA_VERSION, Snapshot

    candidate = extract_embedded(text)
    if candidate is None:
        if EMBED_START in text and EMBED_END not in text:
            return "truncated: the embedded report JSON has no end marker"
        if _rendered_report(text.lstrip()):
            return "truncated: the report JSON embedded at its end is missing"
        candidate = text.strip()
    try:
        document = json.loads(candidate)
    except json.JSONDecodeError as exc:
        cut = " (truncated?)" if exc.pos >= len(candidate) - 1 else ""
        return f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno}){cut}"
    except RecursionError:
        return "not valid JSON: nested too deeply"
    if not isinstance(document, dict):
        return "the JSON is not an object"
    version = document.get("schema_version")
    if not isinstance(version, int) or isinstance(version, bool) or version > SCHEMA_VERSION:
        return (
            f"unsupported report schema_version {version!r} "
            f"(this envdoctor reads up to {SCHEMA_VERSION}; a newer envdoctor wrote it?)"
        )
    try:
        if "snapshot" in document:
            Report.from_dict(document)
        elif "groups" in document:
            Snapshot.from_dict(document)
        else:
            return "no 'snapshot' and no 'groups' in it"
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        return f"malformed report: {' '.join(str(exc).split()) or type(exc).__name__}"
    return None


def redacted(report, identifiers: bool):  # noqa: ANN001, ANN201 - Report in, Report out
    """`report` with the pasted secrets and UUIDs replaced (and, with `identifiers`, user and host
    names, addresses and serials too); a value that survives rendering is caught by the caller."""
    from envdoctor.model.report import Report
    from envdoctor.render.redact import Redactor

    redactor = Redactor(kinds=None if identifiers else SECRET_KINDS)
    doc = redactor.redact(report.to_dict(include_raw=True))
    return Report.from_dict(doc), redactor
