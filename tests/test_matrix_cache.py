"""The compiled-matrix cache: a validated table read back as JSON equals the TOML parse, and
anything odd (another file, another version, a damaged entry, an unwritable folder) falls back to
parsing the TOML."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from envdoctor.matrix import cache as matrix_cache
from envdoctor.matrix.loader import bundled_dir, load_file, parse_matrix

TABLES = sorted(Path(str(bundled_dir())).glob("*.toml"))


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ENVDOCTOR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv(matrix_cache.SWITCH, raising=False)
    return tmp_path / "cache" / "compiled"


@pytest.mark.parametrize("path", TABLES, ids=[p.stem for p in TABLES])
def test_cached_table_equals_the_parsed_one(cache, path):
    parsed, errors = parse_matrix(
        path.read_text(encoding="utf-8"), path.name, expected_name=path.stem
    )
    assert parsed is not None and errors == []
    first, _ = load_file(path)  # parses and stores
    assert (cache / f"{path.stem}.json").is_file()
    second, errors = load_file(path)  # from the cache
    assert errors == [] and first == parsed and second == parsed


def test_another_file_content_misses_and_overwrites(cache, tmp_path):
    copy = tmp_path / "wsl.toml"
    shutil.copy(bundled_dir() / "wsl.toml", copy)
    original, _ = load_file(copy)
    text = copy.read_text(encoding="utf-8")
    copy.write_text(
        text.replace(f'title = "{original.title}"', 'title = "Changed title"', 1), encoding="utf-8"
    )
    changed, errors = load_file(copy)
    assert errors == [] and changed.title == "Changed title" and original.title != "Changed title"
    assert "Changed title" in (cache / "wsl.json").read_text(
        encoding="utf-8"
    )  # the slot was overwritten


def test_other_version_misses(cache, monkeypatch):
    path = bundled_dir() / "wsl.toml"
    load_file(path)
    from envdoctor import __version__

    assert matrix_cache.load("wsl", matrix_cache.files_key([path], __version__)) is not None
    assert matrix_cache.load("wsl", matrix_cache.files_key([path], "999.0")) is None


@pytest.mark.parametrize("garbage", [b"", b"\x00\xff\xfe", b'{"key": 1}', b"[1, 2]", b"{" * 100000])
def test_damaged_entry_means_parsing(cache, garbage):
    path = bundled_dir() / "cudnn.toml"
    cache.mkdir(parents=True)
    (cache / "cudnn.json").write_bytes(garbage)
    matrix, errors = load_file(path)
    assert matrix is not None and errors == [] and matrix.rows


def test_wrong_fields_mean_parsing(cache):
    path = bundled_dir() / "cudnn.toml"
    load_file(path)
    entry = cache / "cudnn.json"
    entry.write_text(
        entry.read_text(encoding="utf-8").replace('"rows":', '"rowz":'), encoding="utf-8"
    )
    matrix, errors = load_file(path)
    assert matrix is not None and errors == [] and matrix.rows


def test_unwritable_cache_still_loads(tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    monkeypatch.setenv("ENVDOCTOR_CACHE_DIR", str(blocker))
    matrix, errors = load_file(bundled_dir() / "cudnn.toml")
    assert matrix is not None and errors == []


def test_invalid_file_is_never_cached(cache, tmp_path):
    bad = tmp_path / "broken.toml"
    bad.write_text('schema_version = 1\nname = "broken"\n', encoding="utf-8")
    matrix, errors = load_file(bad)
    assert matrix is None and errors and not (cache / "broken.json").exists()


def test_switch_off_writes_nothing(cache, monkeypatch):
    monkeypatch.setenv(matrix_cache.SWITCH, "off")
    matrix, _ = load_file(bundled_dir() / "cudnn.toml")
    assert matrix is not None and not cache.exists()


def _aged(path: Path, seconds: float = 3600.0) -> None:
    """Set the file's modification time back (as an unpacked or long-installed file has)."""
    import os
    import time

    old = time.time() - seconds
    os.utime(path, (old, old))


def test_files_key_of_an_old_file_reads_no_byte(tmp_path, monkeypatch):
    path = tmp_path / "table.toml"
    path.write_text("a = 1\n", encoding="utf-8")
    _aged(path)
    first = matrix_cache.files_key([path], "1")

    def no_read(*_args):  # noqa: ANN202
        raise AssertionError("read the file although its status is old enough to key it")

    monkeypatch.setattr(matrix_cache, "read_regular_file", no_read)
    assert matrix_cache.files_key([path], "1") == first
    assert matrix_cache.files_key([path], "2") != first


def test_files_key_changes_with_a_same_size_edit_in_the_same_moment(tmp_path):
    """A rewrite within one timestamp tick keeps size and times: a recent file is keyed by its
    bytes."""
    path = tmp_path / "table.toml"
    path.write_text("a = 1\n", encoding="utf-8")
    first = matrix_cache.files_key([path], "1")
    path.write_text("a = 2\n", encoding="utf-8")
    assert matrix_cache.files_key([path], "1") != first


def test_files_key_changes_when_an_edit_sets_the_old_time_back(tmp_path):
    import os

    path = tmp_path / "table.toml"
    path.write_text("a = 1\n", encoding="utf-8")
    _aged(path)
    times = os.stat(path)
    first = matrix_cache.files_key([path], "1")
    path.write_text("a = 2\n", encoding="utf-8")
    os.utime(path, ns=(times.st_atime_ns, times.st_mtime_ns))  # the status-change time moves on
    assert os.stat(path).st_mtime_ns == times.st_mtime_ns
    assert matrix_cache.files_key([path], "1") != first


def test_files_key_refuses_a_fifo_at_once(tmp_path):
    import os

    fifo = tmp_path / "table.toml"
    os.mkfifo(fifo)
    with pytest.raises(OSError):
        matrix_cache.files_key([fifo], "1")
    matrix, errors = load_file(fifo)
    assert matrix is None and errors and "cannot read" in errors[0].message


@pytest.mark.parametrize(
    ("column", "bad"),
    [
        ("cuda", 12),  # a version cell that is a number
        ("cuda", "twelve"),  # ... or not a version
        ("source", "http://example.com"),  # a row's source that is not https
        ("linux_min_driver", ["525.60.13"]),  # a list where a version belongs
        ("no_such_column", "x"),  # a cell of a column the table does not have
    ],
)
def test_a_forged_cell_means_parsing(cache, column, bad):
    import json

    path = bundled_dir() / "cuda_driver.toml"
    parsed, _ = load_file(path)
    entry = cache / "cuda_driver.json"
    doc = json.loads(entry.read_text(encoding="utf-8"))
    doc["matrix"]["rows"][-1][column] = bad
    entry.write_text(json.dumps(doc), encoding="utf-8")
    notes: list[str] = []
    matrix, errors = load_file(path, notes)
    assert errors == [] and matrix == parsed and "damaged" in notes[0]
