"""The triage start-up caches: the parsed signature files (`loader.CACHE_NAME`) and the free-text
reader's selectors (`loader.SELECTOR_CACHE`). What is read back equals a fresh parse, and
anything odd (another file, a damaged entry, an unwritable or switched-off cache) falls back to
parsing, never to an error or another result."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from envdoctor.ingest import free_text
from envdoctor.matrix import cache as matrix_cache
from envdoctor.triage_engine import loader, patterns


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ENVDOCTOR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv(matrix_cache.SWITCH, raising=False)
    return tmp_path / "cache" / "compiled"


@pytest.fixture
def signatures(tmp_path) -> Path:
    """A copy of the signature folder (so a test may change a file)."""
    folder = tmp_path / "signatures"
    shutil.copytree(loader.SIGNATURE_DIR, folder)
    return folder


def _sources(words: list[str], deep: list[str]) -> tuple[str, ...]:
    return loader.selector_sources(
        (words, deep), (free_text._keyword_regex, free_text._trie_regex), free_text.SELECTOR_FORMAT
    )


def _entry(cache: Path, name: str) -> Path:
    return cache / f"{name}.json"


def _tables(cache: Path, name: str) -> Path:
    """The signatures' tables kept beside the entry (`matrix_cache.store_bytes`)."""
    return cache / f"{name}.bin"


def test_signatures_read_back_equal_the_parsed_ones(cache, signatures):
    first = loader.load(signatures)  # parses and stores
    assert first.errors == () and _entry(cache, loader.CACHE_NAME).is_file()
    second = loader.load(signatures)  # from the cache
    assert second == first
    assert second.signatures and second.signatures == loader.DATA.signatures


def test_a_cached_load_parses_no_file(cache, signatures, monkeypatch):
    """Read back, every signature is built from the cached tables: a parse of the files (the
    rescue of a damaged table) would give the same signatures, only slower."""
    first = loader.load(signatures)

    def no_parse(texts):  # noqa: ANN001, ANN202
        raise AssertionError("parsed the signature files although the cache holds them")

    monkeypatch.setattr(loader, "_parse", no_parse)
    second = loader.load(signatures)
    assert second.signatures == first.signatures


def test_a_changed_signature_file_misses_the_cache(cache, signatures):
    before = loader.load(signatures)
    path = signatures / "torch.toml"
    title = before.signatures[[s.origin for s in before.signatures].index("torch.toml")].title
    path.write_text(
        path.read_text(encoding="utf-8").replace(title, "A changed title", 1), encoding="utf-8"
    )
    after = loader.load(signatures)
    assert after.errors == ()
    assert "A changed title" in [s.title for s in after.signatures]
    assert "A changed title" not in [s.title for s in before.signatures]


def test_a_renamed_signature_file_misses_the_cache(cache, signatures):
    before = loader.load(signatures)
    (signatures / "torch.toml").rename(signatures / "torch2.toml")
    after = loader.load(signatures)
    assert {s.origin for s in after.signatures} - {s.origin for s in before.signatures} == {
        "torch2.toml"
    }


def _damaged_entries(entry: dict) -> dict[str, object]:
    """Entries with the right key and wrong content."""
    matrix = entry["matrix"]
    documents, rows = matrix["documents"], matrix["signatures"]
    size = sum(row[5][1] for row in rows)
    past_the_end = [[*row[:5], [size - 10, 20, row[5][2]]] for row in rows]
    return {
        "not-a-table": [],
        "documents-missing": {"key": entry["key"], "matrix": {"anchors": {}}},
        "documents-a-string": {**entry, "matrix": {**matrix, "documents": "x"}},
        "file-names-shuffled": {
            **entry,
            "matrix": {**matrix, "documents": list(reversed(documents))},
        },
        "signatures-not-rows": {**entry, "matrix": {**matrix, "signatures": [[1, 2]] * len(rows)}},
        "a-row-missing": {**entry, "matrix": {**matrix, "signatures": rows[1:]}},
        "a-table-past-the-end": {**entry, "matrix": {**matrix, "signatures": past_the_end}},
        "a-place-not-numbers": {
            **entry,
            "matrix": {**matrix, "signatures": [[*row[:5], ["0", 1, 2]] for row in rows]},
        },
        "a-table-shortened": {
            **entry,
            "matrix": {**matrix, "signatures": [[*rows[0][:5], [0, 1, rows[0][5][2]]], *rows[1:]]},
        },
        "anchors-not-lists": {**entry, "matrix": {**matrix, "anchors": {"a": 1}}},
        "all-anchors-missing": {**entry, "matrix": {**matrix, "all_anchors": None}},
    }


def test_a_damaged_signature_entry_is_parsed_again(cache, signatures):
    fresh = loader.load(signatures)
    path = _entry(cache, loader.CACHE_NAME)
    entry = json.loads(path.read_text(encoding="utf-8"))
    for label, damaged in _damaged_entries(entry).items():
        path.write_text(json.dumps(damaged), encoding="utf-8")
        got = loader.load(signatures)
        assert got == fresh, label
        path.write_text(json.dumps(entry), encoding="utf-8")


def test_damaged_or_foreign_tables_beside_the_entry_are_parsed_again(cache, signatures):
    fresh = loader.load(signatures)
    path = _tables(cache, loader.CACHE_NAME)
    good = path.read_bytes()
    header, _, body = good.partition(b"\n")
    for label, damaged in {
        "empty": b"",
        "no-header": body,
        "another-entry's": b"another key\n" + body,
        "truncated": good[: len(good) // 2],
        "longer": good + b" ",
    }.items():
        path.write_bytes(damaged)
        assert loader.load(signatures) == fresh, label
    path.unlink()
    assert loader.load(signatures) == fresh, "missing"
    path.unlink()  # that load stored the pair again; the entry alone is no entry
    assert _entry(cache, loader.CACHE_NAME).is_file()
    assert loader.load(signatures) == fresh, "missing again"


def _damage_tables(cache: Path, count: int, keep_crc: bool) -> list[int]:
    """Give `count` cached tables a severity no signature has (same length: every place stays
    right), fixing their CRC-32 in the entry when `keep_crc`; returns their rows."""
    import zlib

    entry_path, tables_path = _entry(cache, loader.CACHE_NAME), _tables(cache, loader.CACHE_NAME)
    entry = json.loads(entry_path.read_text(encoding="utf-8"))
    header, _, tables = tables_path.read_bytes().partition(b"\n")
    tables = bytearray(tables)
    rows = entry["matrix"]["signatures"]
    damaged = []
    for i, row in enumerate(rows):
        offset, length, _crc = row[5]
        table = bytes(tables[offset : offset + length])
        if b'"severity":"error"' in table and len(damaged) < count:
            table = table.replace(b'"severity":"error"', b'"severity":"xxxxx"')
            tables[offset : offset + length] = table
            if keep_crc:
                row[5][2] = zlib.crc32(table)
            damaged.append(i)
    entry_path.write_text(json.dumps(entry), encoding="utf-8")
    tables_path.write_bytes(header + b"\n" + bytes(tables))
    return damaged


@pytest.mark.parametrize("keep_crc", [False, True], ids=["crc-fails", "behind-its-crc"])
def test_a_damaged_table_is_taken_from_the_files(cache, signatures, keep_crc):
    fresh = loader.load(signatures)
    damaged = _damage_tables(cache, 3, keep_crc)
    got = loader.load(signatures)  # the entry passes its checks: the tables are built lazily
    assert len(damaged) == 3 and got.built == {}
    assert got == fresh  # the damaged ones came from a parse of the files, the rest from the cache


def test_a_cached_load_builds_only_the_signatures_a_paste_can_reach(cache, signatures):
    from envdoctor.triage_engine.patterns import LineIndex

    fresh = loader.load(signatures)
    cached = loader.load(signatures)
    line = "RuntimeError: CUDA error: no kernel image is available for execution on the device"
    index = LineIndex([line.lower()])
    reached = cached.candidates(lambda literal: index.present(literal) >= 0)
    assert 0 < len(reached) < len(fresh.signatures) / 4
    assert len(cached.built) == len(reached)
    # every signature left out has no gate literal in the line, so neither a canonical line
    # nor a positive cue of it can be found there
    for signature in fresh.signatures:
        if signature not in reached:
            cues = [p for cue in signature.cues if cue.weight > 0 for p in cue.patterns]
            assert not any(p.search(line, line.lower()) for p in (*signature.match, *cues))
    assert "torch.no-kernel-image.gpu-too-new" in {s.key for s in reached}


def test_an_entry_that_is_a_folder_or_unwritable_cache_is_ignored(tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    monkeypatch.setenv("ENVDOCTOR_CACHE_DIR", str(blocker))
    fresh = loader.load()
    assert fresh.errors == () and fresh.signatures == loader.DATA.signatures
    words, deep = ["error", "no kernel image"], ["no kernel image"]
    assert _sources(words, deep) == (
        free_text._keyword_regex(words),
        free_text._trie_regex(deep),
    )


def test_switched_off_cache_writes_nothing(cache, signatures, monkeypatch):
    monkeypatch.setenv(matrix_cache.SWITCH, "off")
    assert loader.load(signatures).errors == ()
    assert _sources(["abc"], ["abc"])
    assert not cache.exists()


def test_the_memo_of_anchors_matches_a_fresh_analysis():
    for signature in loader.DATA.signatures:
        for pattern in loader._own_patterns(signature):
            parsed = patterns.sre_parse.parse(pattern.text, re.IGNORECASE)
            assert patterns._required_literals(parsed) == set(pattern.anchors), pattern.text


def test_selectors_read_back_equal_the_built_ones(cache):
    words = sorted(loader.anchors())
    deep = sorted(loader.match_anchors())
    built = (free_text._keyword_regex(words), free_text._trie_regex(deep))
    assert _sources(words, deep) == built  # builds and stores
    assert _entry(cache, loader.SELECTOR_CACHE).is_file()
    assert _sources(words, deep) == built  # from the cache
    assert _sources(words[1:], deep) == (free_text._keyword_regex(words[1:]), built[1])


@pytest.mark.parametrize(
    "change",
    [
        lambda e: {**e, "matrix": {**e["matrix"], "sources": ["(unclosed", "x"]}},
        lambda e: {**e, "matrix": {**e["matrix"], "sources": [5, "x"]}},
        lambda e: {**e, "matrix": {**e["matrix"], "sources": ["x"]}},
        lambda e: {**e, "matrix": {**e["matrix"], "digest": "0" * 64}},
        lambda e: {**e, "matrix": []},
    ],
    ids=["bad-regex", "not-a-string", "one-source", "wrong-digest", "not-a-table"],
)
def test_a_damaged_selector_entry_is_built_again(cache, change):
    words, deep = ["error", "failed", "no kernel image"], ["no kernel image"]
    built = _sources(words, deep)
    path = _entry(cache, loader.SELECTOR_CACHE)
    path.write_text(json.dumps(change(json.loads(path.read_text(encoding="utf-8")))))
    assert _sources(words, deep) == built


def _regex_clauses(data: loader.SignatureData) -> list:
    return [
        clause
        for sig in data.signatures
        for condition in (*sig.requires, *sig.refute, *sig.confirm)
        for clause in condition.clauses
        if clause.op in ("~", "!~")
    ]


def test_a_cached_load_compiles_condition_regexes_only_when_used(cache, signatures):
    fresh = loader.load(signatures)
    cached = loader.load(signatures)
    clauses = _regex_clauses(cached)
    assert clauses and not any("pattern" in vars(c) for c in clauses)  # none compiled yet
    for clause, same in zip(clauses, _regex_clauses(fresh), strict=True):
        assert clause.pattern is not None and clause.pattern.pattern == same.pattern.pattern


def test_a_bad_condition_regex_is_still_rejected_after_a_cached_load(cache, signatures):
    loader.load(signatures)  # stores the checked files
    path = signatures / "torch.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('refute = ["m.have ~ cpu"]', 'refute = ["m.have ~ (cpu"]', 1))
    after = loader.load(signatures)
    assert any("bad regex" in e for e in after.errors)


def test_a_signature_file_that_is_not_utf8_is_an_error_not_a_crash(cache, signatures):
    fresh = loader.load(signatures)
    (signatures / "zz_broken.toml").write_bytes(b"schema_version = 1\n# \xff\xfe not UTF-8\n")
    got = loader.load(signatures)
    assert any(e.startswith("zz_broken.toml: not UTF-8") for e in got.errors), got.errors
    assert got.signatures == fresh.signatures  # the other files load as before


def test_a_phrase_set_reaches_every_cue_that_names_it(cache, signatures):
    """A phrasing added once to a [phrases] set is a pattern of every cue naming the set (read
    back from the cache too); a cue naming an unknown set is an error of that signature only."""
    common = signatures / "_common.toml"
    text = common.read_text(encoding="utf-8")
    common.write_text(
        text.replace(
            '"gpu-not-used" = [\n', "\"gpu-not-used\" = [\n  'never touches the gpu',\n", 1
        ),
        encoding="utf-8",
    )
    first = loader.load(signatures)
    naming = [
        s
        for s in first.signatures
        if any(p.text == "never touches the gpu" for cue in s.cues for p in cue.patterns)
    ]
    assert first.errors == () and len(naming) >= 10, [s.key for s in naming]
    assert {"torch.cpu-build.prose-gpu-not-used", "paddle.prose-gpu-not-used"} <= {
        s.key for s in naming
    }
    assert loader.load(signatures).signatures == first.signatures  # the cached expansion
    families = signatures / "families.toml"
    families.write_text(
        families.read_text(encoding="utf-8").replace(
            'phrases = ["gpu-not-used"]', 'phrases = ["gpu-not-usd"]', 1
        ),
        encoding="utf-8",
    )
    broken = loader.load(signatures)
    assert len(broken.errors) == 1 and "unknown phrase set" in broken.errors[0], broken.errors
    assert len(broken.signatures) == len(first.signatures) - 1
