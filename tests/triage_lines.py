"""The shared check of the signature tests: a pasted line reaches its cause first, and that
cause's fixes name the knob the real fix turns on."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from envdoctor.model.findings import Finding
from envdoctor.triage_engine import triage_text


def fixes_text(finding: Finding) -> str:
    """A finding's fix summaries and commands, as one text."""
    return " ".join(" ".join((f.summary, *f.commands)) for f in finding.fixes)


def finding_ids(text: str) -> list[str]:
    """The finding ids the triage of `text` reports, in rank order."""
    return [f.id for f in triage_text(text).findings]


def finding_origins(text: str) -> list[str]:
    """Where each finding of the triage of `text` came from ("signature:<key>", "case:<url>")."""
    return [f.origin or "" for f in triage_text(text).findings]


def assert_read_instead(text: str, absent: str, present: str) -> None:
    """The triage of `text` reports `present` and not `absent` (a look-alike of `absent`)."""
    ids = finding_ids(text)
    assert absent not in ids, ids
    assert present in ids, ids


def fix_texts(text: str, finding_id: str) -> list[str]:
    """Each fix of the finding `finding_id` in the triage of `text`: its summary and commands."""
    found = next(f for f in triage_text(text).findings if f.id == finding_id)
    return [" ".join((fix.summary, *fix.commands)) for fix in found.fixes]


def assert_first_with_knob(text: str, finding_id: str, knob: str) -> list[Finding]:
    """Triage `text`: `finding_id` ranks first and its fixes name `knob` (any case)."""
    findings = triage_text(text).findings
    assert findings and findings[0].id == finding_id, [f.id for f in findings[:3]]
    fixes = fixes_text(findings[0])
    assert knob.lower() in fixes.lower(), fixes
    return findings


def assert_reaches(text: str, accepted: tuple[str, ...], source: str, knob: str | None) -> None:
    """Triage a field description: an accepted cause is among the first three findings, and its
    fixes name `knob` (any case) when one is given. `source` is the thread it was read from."""
    assert source.startswith(("https://", "http://")), source
    findings = triage_text(text).findings[:3]
    hits = [f for f in findings if f.id in accepted]
    assert hits, (source, [f.id for f in findings])
    if knob is not None:
        assert knob.lower() in fixes_text(hits[0]).lower(), (source, fixes_text(hits[0]))


def assert_not_first(
    text: str, tempting: str, source: str | None, *, may_be_empty: bool = False
) -> None:
    """Triage a description of another cause: the tempting cause is not the first finding (and
    there are findings, unless `may_be_empty`). `source`: the thread it was read from (None for
    a table that cites its threads in comments)."""
    assert source is None or source.startswith(("https://", "http://")), source
    findings = triage_text(text).findings
    assert findings or may_be_empty, source
    if not findings:
        return
    assert findings[0].id != tempting, (source, [f.id for f in findings[:3]])


def assert_first_with_command(text: str, finding_id: str, command: str, source: str) -> Finding:
    """Triage a pasted message: `finding_id` ranks first and one of its fixes' commands holds
    `command` (exact case); `source` is the thread the message was read from."""
    findings = triage_text(text + "\n").findings
    assert findings and findings[0].id == finding_id, (source, [f.id for f in findings[:3]])
    commands = [c for fix in findings[0].fixes for c in fix.commands]
    assert any(command in c for c in commands), (source, commands)
    return findings[0]


def assert_first_naming(text: str, finding_id: str, knob: str, source: str) -> Finding:
    """Triage a pasted message: `finding_id` ranks first and its fixes (summaries or commands)
    name `knob` (exact case); `source` is the thread the message was read from."""
    findings = triage_text(text + "\n").findings
    assert findings and findings[0].id == finding_id, (source, [f.id for f in findings[:3]])
    assert knob in fixes_text(findings[0]), (source, fixes_text(findings[0]))
    return findings[0]


def assert_training_case(
    name: str,
    finding_id: str,
    knob: str | None,
    source: str,
    monkeypatch: Any,
    *,
    first: bool = False,
    keywords: bool = False,
) -> list[Finding]:
    """Triage a training case (tests/triage_corpus/train/`name`, whose thread is `source`) as
    bench/triage_corpus_score.py does, its own thread left out of the case base: `finding_id`, one
    of the case's accepted causes, ranks first (`first`) or in the top 3, and its fixes name `knob`
    (any case) and, with `keywords`, the case's fix keywords."""
    import bench_scripts

    scorer = bench_scripts.load("triage_corpus_score")
    case = scorer.read_case(scorer.CORPUS / "train" / name, "train")
    assert case.header.get("url") == source, (name, case.header.get("url"))
    assert finding_id in case.accepted, (name, case.accepted)
    leave_out_of_case_base(source, monkeypatch)
    findings = triage_text(case.body).findings
    hits = [f for f in findings[: 1 if first else 3] if f.id == finding_id]
    assert hits, (name, [f.id for f in findings[:3]])
    fixes = fixes_text(hits[0]).lower()
    assert knob is None or knob.lower() in fixes, (name, fixes)
    assert not keywords or scorer.names_keywords(fixes, case.keywords), (name, case.keywords)
    return findings


def row_text(table: str, source: str) -> str:
    """The verbatim text another table holds for the thread `source` (its row's longest string
    that is no URL): a table reusing a real message as a look-alike names it instead of copying."""
    import importlib

    module = importlib.import_module(table)
    for rows in vars(module).values():
        if not isinstance(rows, list):
            continue
        for row in rows:
            values = getattr(row, "values", row)  # a pytest.param row keeps its tuple in .values
            if isinstance(values, tuple) and source in values:
                texts = [v for v in values if isinstance(v, str) and not v.startswith("http")]
                return max(texts, key=len)
    raise LookupError(f"{table} has no row for {source}")


def leave_out_of_case_base(source: str | None, monkeypatch: Any) -> None:
    """Hide the thread `source` from the case base of similar confirmed cases for one test, as
    the corpus scorer does: a row read from a training case must not be found by its own case."""
    from envdoctor.triage_engine import casebase

    rows_of = casebase._rows
    monkeypatch.setattr(
        casebase, "_rows", lambda m: [r for r in rows_of(m) if r.get("source") != source]
    )


def training_case_test(
    rows: Sequence[Any],
    columns: tuple[str, ...] = ("case", "finding_id", "knob", "source"),
    *,
    first: bool = False,
    keywords: bool = False,
) -> Callable[..., None]:
    """A test over rows of (training case file name, finding id, knob, source), in the order
    `columns` names them: `assert_training_case` each, as the corpus scores it. Bind it to a
    `test_` name in the table's module."""

    @pytest.mark.parametrize(columns, rows)
    def case_reaches_its_cause_naming_the_knob(
        case: str, finding_id: str, knob: str, source: str, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        assert_training_case(
            case, finding_id, knob, source, monkeypatch, first=first, keywords=keywords
        )

    return case_reaches_its_cause_naming_the_knob


KNOB_COLUMNS = ("text", "finding_id", "knob", "source")
LOOKALIKE_COLUMNS = ("text", "tempting", "source")


def knob_test(
    rows: Sequence[Any], columns: tuple[str, ...] = KNOB_COLUMNS, ids: list[str] | None = None
) -> Callable[[str, str, str, str], None]:
    """A test over a sweep's rows of (text, finding id, knob, source), in the order `columns`
    names them: `assert_first_naming` each. Bind it to a `test_` name in the sweep's module."""

    @pytest.mark.parametrize(columns, rows, ids=ids)
    def reaches_cause_with_knob(
        text: str, finding_id: str, knob: str, source: str, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        leave_out_of_case_base(source, monkeypatch)
        assert_first_naming(text, finding_id, knob, source)

    return reaches_cause_with_knob


def reach_test(rows: Sequence[Any]) -> Callable[[str, tuple[str, ...], str | None, str], None]:
    """A test over rows of (field description, accepted cause ids, knob or None, source):
    `assert_reaches` each. Bind it to a `test_` name in the table's module."""

    @pytest.mark.parametrize(("text", "accepted", "knob", "source"), rows)
    def reaches_an_accepted_cause(
        text: str, accepted: tuple[str, ...], knob: str | None, source: str
    ) -> None:
        assert_reaches(text, accepted, source, knob)

    return reaches_an_accepted_cause


def first_with_knob_test(rows: Sequence[Any]) -> Callable[[str, str, str, str], None]:
    """A test over rows of (text, finding id, knob, source thread URL): the source is an
    https URL and `assert_first_with_knob` each. Bind it to a `test_` name in the table's module."""

    @pytest.mark.parametrize(("text", "finding_id", "knob", "source"), rows)
    def first_with_knob(text: str, finding_id: str, knob: str, source: str) -> None:
        assert source.startswith("https://")
        assert_first_with_knob(text, finding_id, knob)

    return first_with_knob


def command_test(
    rows: Sequence[Any], ids: list[str] | None = None
) -> Callable[[str, str, str, str], None]:
    """A test over a table's rows of (text, finding id, command, source URL):
    `assert_first_with_command` each. Bind it to a `test_` name in the table's module."""

    @pytest.mark.parametrize(("text", "finding_id", "command", "url"), rows, ids=ids)
    def reaches_cause_with_command(text: str, finding_id: str, command: str, url: str) -> None:
        assert_first_with_command(text, finding_id, command, url)

    return reaches_cause_with_command


def lookalike_test(
    rows: Sequence[Any],
    columns: tuple[str, ...] = LOOKALIKE_COLUMNS,
    ids: list[str] | None = None,
    *,
    may_be_empty: bool = False,
    newline: bool = False,
) -> Callable[[str, str, str], None]:
    """A test over a sweep's rows of (text of another cause, tempting finding id, source), in
    the order `columns` names them: `assert_not_first` each (`newline`: the text is triaged
    with a final newline). Bind it to a `test_` name in the sweep's module."""

    @pytest.mark.parametrize(columns, rows, ids=ids)
    def lookalike_is_not_read_as_the_cause(
        text: str, tempting: str, source: str, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        leave_out_of_case_base(source, monkeypatch)
        end = "\n" if newline else ""
        assert_not_first(text + end, tempting, source, may_be_empty=may_be_empty)

    return lookalike_is_not_read_as_the_cause


SOURCE_KNOB_COLUMNS = ("source", "text", "finding_id", "knob")
SOURCE_LOOKALIKE_COLUMNS = ("source", "text", "tempting")


def source_knob_test(rows: Sequence[tuple[str, ...]]) -> Callable[[str, str, str, str], None]:
    """`knob_test` over rows of (source, text, finding id, knob), each named by its thread."""
    return knob_test(rows, SOURCE_KNOB_COLUMNS, ids=[row[0] for row in rows])


def source_lookalike_test(
    rows: Sequence[tuple[str, ...]], *, may_be_empty: bool = False, newline: bool = False
) -> Callable[[str, str, str], None]:
    """`lookalike_test` over rows of (source, text, tempting finding id), each named by its
    thread."""
    return lookalike_test(
        rows,
        SOURCE_LOOKALIKE_COLUMNS,
        ids=[getattr(row, "values", row)[0] for row in rows],  # a pytest.param row too
        may_be_empty=may_be_empty,
        newline=newline,
    )
