"""Compiled regular expressions kept between runs (`envdoctor.regex_cache`): a pattern built from
its stored code behaves exactly as `re` builds it (checked on the patterns a real triage compiles,
matched against that paste's lines), and every kind of damage to the stored file (garbage, a
flipped byte, another interpreter's file, a FIFO, an unwritable folder) means compiling as before,
never a wrong pattern, a hang or an error. Exact timing is measured in benchmarks, not here."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from envdoctor import regex_cache
from envdoctor.regex_cache import RegexStore, kept_regexes, read_store

pytestmark = pytest.mark.skipif(
    regex_cache.engine_tag() is None or regex_cache._re_hook() is None,
    reason="this Python's re has no compiler hook (the store is off here)",
)

CASE = Path(__file__).parent / "triage_corpus" / "069-gpt-sovits-zh-driver-too-old-11040.txt"
GENERATE = re._compiler.compile  # type: ignore[attr-defined]


def store_path(cache: Path) -> Path:
    return cache / "regex" / f"{sys.implementation.cache_tag}.bin"


def fresh_patterns(tag: str, count: int = 5) -> list[str]:
    """Patterns `re` has certainly not compiled in this process (its own cache is per pattern)."""
    return [rf"(?P<word>{tag}{n})\s+(\d+)|[a-f]{{{n + 1}}}" for n in range(count)]


def same_pattern(left: re.Pattern[str], right: re.Pattern[str], lines: list[str]) -> None:
    assert (left.pattern, left.flags, left.groups, left.groupindex) == (
        right.pattern,
        right.flags,
        right.groups,
        right.groupindex,
    )
    for line in lines:
        assert [m.span() + m.groups() for m in left.finditer(line)] == [
            m.span() + m.groups() for m in right.finditer(line)
        ], (left.pattern, line)


TRIAGE_IN_A_FRESH_PROCESS = """
import json, sys
from envdoctor.regex_cache import kept_regexes
from envdoctor.triage_engine import triage_text
with kept_regexes() as store:
    result = triage_text(open(sys.argv[1], encoding="utf-8").read())
print(json.dumps({"ids": [f.id for f in result.findings], "rows": len(store.rows),
                  "added": store.added}))
"""


def triage_in_a_fresh_process(cache: Path) -> dict:
    """A triage in a new interpreter (this one compiled its patterns long ago), through the store."""
    import json

    done = subprocess.run(
        [sys.executable, "-c", TRIAGE_IN_A_FRESH_PROCESS, str(CASE)],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, ENVDOCTOR_CACHE_DIR=str(cache)),
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_patterns_of_a_real_triage_behave_as_re_builds_them(tmp_path):
    first = triage_in_a_fresh_process(tmp_path)
    assert first["added"] and first["rows"] >= 300 and store_path(tmp_path).is_file()
    reread = read_store(store_path(tmp_path), regex_cache.engine_tag() or "")
    assert len(reread.rows) == first["rows"]
    text = CASE.read_text(encoding="utf-8")
    lines = text.splitlines() + ["", "CUDA error: no kernel image is available", "驱动版本 470"]
    for (pattern, flags), row in reread.rows.items():
        same_pattern(regex_cache._engine_compile(pattern, row), GENERATE(pattern, flags), lines)
    again = triage_in_a_fresh_process(tmp_path)
    assert not again["added"]  # every pattern came from the file
    assert again["ids"] == first["ids"] and first["ids"]


def test_a_new_pattern_is_kept_and_the_compiler_is_restored(tmp_path):
    env = {"ENVDOCTOR_CACHE_DIR": str(tmp_path)}
    patterns = fresh_patterns("keptxyz")
    with kept_regexes(env) as store:
        assert re._compiler.compile is not GENERATE  # type: ignore[attr-defined]
        compiled = [re.compile(p, re.IGNORECASE) for p in patterns]
    assert re._compiler.compile is GENERATE  # type: ignore[attr-defined]
    assert store is not None and store.added
    assert all((p, int(re.IGNORECASE)) in store.rows for p in patterns)
    assert compiled[2].search("x KEPTXYZ2  41").group("word") == "KEPTXYZ2"


def test_the_compiler_is_restored_when_the_block_raises(tmp_path):
    with pytest.raises(KeyError), kept_regexes({"ENVDOCTOR_CACHE_DIR": str(tmp_path)}):
        raise KeyError("x")
    assert re._compiler.compile is GENERATE  # type: ignore[attr-defined]


def test_off_switch_leaves_re_alone(tmp_path):
    env = {"ENVDOCTOR_CACHE_DIR": str(tmp_path), regex_cache.SWITCH: "off"}
    with kept_regexes(env) as store:
        assert store is None and re._compiler.compile is GENERATE  # type: ignore[attr-defined]
        re.compile(fresh_patterns("offswitch")[0])
    assert not (tmp_path / "regex").exists()


def written_store(tmp_path: Path, tag: str) -> tuple[dict, Path]:
    env = {"ENVDOCTOR_CACHE_DIR": str(tmp_path)}
    with kept_regexes(env):
        for pattern in fresh_patterns(tag):
            re.compile(pattern)
    return env, store_path(tmp_path)


@pytest.mark.parametrize(
    "damage",
    ["garbage", "flipped byte in the code", "truncated", "another interpreter", "empty"],
)
def test_a_damaged_store_means_compiling_as_before(tmp_path, damage):
    env, path = written_store(tmp_path, f"damage{abs(hash(damage)) % 10**6}x")
    data = path.read_bytes()
    if damage == "garbage":
        path.write_bytes(os.urandom(4096))
    elif damage == "flipped byte in the code":
        path.write_bytes(data[:-3] + bytes([data[-3] ^ 0x5A]) + data[-2:])
    elif damage == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "another interpreter":
        path.write_bytes(data.replace(sys.version.encode(), b"2.7.18 (default)", 1))
    else:
        path.write_bytes(b"")
    assert read_store(path, regex_cache.engine_tag() or "").rows == {}
    pattern = fresh_patterns(f"after{abs(hash(damage)) % 10**6}y")[0]
    with kept_regexes(env) as store:
        compiled = re.compile(pattern)
    assert store is not None and compiled.search("after0 12")
    assert read_store(path, regex_cache.engine_tag() or "").rows  # written again, whole


def test_a_stored_row_the_engine_refuses_is_generated_again():
    pattern = "(a+)b"
    good = regex_cache._generate(pattern, 0)
    assert good is not None
    bad = (good[0], b"\x07\x00\x00\x00" * 3, good[2], good[3], good[4])  # not valid engine code
    store = RegexStore(regex_cache.engine_tag() or "", {(pattern, 0): bad})
    compiled = store.compile(pattern, 0, GENERATE)
    assert compiled.match("aab").group(1) == "aa" and store.added


def test_a_fifo_in_place_of_the_store_neither_hangs_nor_is_replaced(tmp_path):
    path = store_path(tmp_path)
    path.parent.mkdir(parents=True)
    os.mkfifo(path)
    with kept_regexes({"ENVDOCTOR_CACHE_DIR": str(tmp_path)}) as store:
        re.compile(fresh_patterns("fifo")[0])
    assert store is not None and store.added
    assert path.is_fifo()


def test_a_cache_folder_that_is_a_file_costs_nothing(tmp_path):
    blocker = tmp_path / "cache"
    blocker.write_text("not a folder")
    with kept_regexes({"ENVDOCTOR_CACHE_DIR": str(blocker)}) as store:
        assert re.compile(fresh_patterns("blocked")[1]).search("blocked1 7")
    assert store is not None and blocker.read_text() == "not a folder"


def test_a_full_store_keeps_this_runs_patterns_first(tmp_path, monkeypatch):
    monkeypatch.setattr(regex_cache, "MAX_PATTERNS", 4)
    env, path = written_store(tmp_path, "oldrun")
    with kept_regexes(env):
        newer = fresh_patterns("newrun", 3)
        for pattern in newer:
            re.compile(pattern)
    kept = [key[0] for key in read_store(path, regex_cache.engine_tag() or "").rows]
    assert kept[:3] == newer and len(kept) == 4


def test_triage_prints_the_same_with_and_without_the_store(tmp_path):
    def triage(**extra: str) -> str:
        result = subprocess.run(
            [sys.executable, "-m", "envdoctor", "triage", str(CASE)],
            capture_output=True,
            text=True,
            timeout=120,
            env=dict(os.environ, ENVDOCTOR_CACHE_DIR=str(tmp_path), **extra),
        )
        assert result.returncode in (0, 1), result.stderr
        return result.stdout

    cold = triage()
    assert store_path(tmp_path).stat().st_size > 10_000
    assert triage() == cold == triage(ENVDOCTOR_REGEX_CACHE="off")


def test_a_start_decodes_only_the_rows_it_asks_for(tmp_path, monkeypatch):
    env, path = written_store(tmp_path, "lazyrows")
    decoded: list[int] = []
    stored = regex_cache.StoredRows._stored

    def counting(self, position):  # noqa: ANN001, ANN202
        decoded.append(position)
        return stored(self, position)

    monkeypatch.setattr(regex_cache.StoredRows, "_stored", counting)
    re.purge()  # this process compiled them when writing the store: ask the store again
    with kept_regexes(env) as store:
        assert re.compile(fresh_patterns("lazyrows")[3]).search("lazyrows3 9")
    assert store is not None and not store.added and len(decoded) == 1


def test_keys_sharing_an_index_digest_each_find_their_row(tmp_path, monkeypatch):
    monkeypatch.setattr(regex_cache, "key_digest", lambda pattern, flags: 7)
    env, path = written_store(tmp_path, "samedigest")
    re.purge()
    with kept_regexes(env) as store:
        compiled = [re.compile(p) for p in fresh_patterns("samedigest")]
    assert store is not None and not store.added and len(store.used) == 5  # all from the file
    assert compiled[4].search("x samedigest4 5").group("word") == "samedigest4"
    assert [p.pattern for p in compiled] == fresh_patterns("samedigest")
