"""Hostile use, caches and state: every kind of damage planted in envdoctor's cache folder (the
`active` pointer, the history, installed sets, compiled-table entries with the right key but
the wrong content) falls back to the bundled matrices and says so under -v; `matrices update` /
`rollback` with a cache folder that cannot hold a set end in a one-line error with exit 2, never
an internal error (exit 3)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from envdoctor.matrix import cache as matrix_cache
from envdoctor.matrix.loader import bundled_dir, load_bundled, parse_matrix
from envdoctor.matrix.update import cache_paths, load_active

HEX64 = "0" * 64


def envdoctor(*args: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "envdoctor", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, ENVDOCTOR_PROBE_WORKER="0", **env),
    )


@pytest.fixture()
def env(tmp_path):
    return {"ENVDOCTOR_CACHE_DIR": str(tmp_path / "cache")}


def plant_active(env: dict, kind: str) -> Path:
    paths = cache_paths(env)
    paths.sets.mkdir(parents=True)
    active = paths.active
    if kind == "non-utf8":
        active.write_bytes(b"\xff\xfe\x00\x81garbage")
    elif kind == "folder":
        active.mkdir()
    elif kind == "fifo":
        os.mkfifo(active)
    elif kind == "dev-zero":
        active.symlink_to("/dev/zero")
    elif kind == "path-escape":
        active.write_text("../../../etc")
    elif kind == "nul":
        active.write_bytes(b"set\x00name")
    elif kind == "huge":
        active.write_bytes(b"a" * (1 << 20))
    elif kind == "missing-set":
        active.write_text("20261201T000000Z-0123456789ab")
    elif kind == "damaged-set":
        name = "20261201T000000Z-0123456789ab"
        shutil.copytree(bundled_dir(), paths.sets / name)
        (paths.sets / name / "cuda_driver.toml").write_bytes(b"\xff not toml [[[")
        (paths.sets / name / "nvidia_gpus.toml").unlink()
        (paths.sets / name / "nvidia_gpus.toml").mkdir()
        active.write_text(name)
    elif kind == "fifo-table":
        name = "20261201T000000Z-0123456789ab"
        shutil.copytree(bundled_dir(), paths.sets / name)
        (paths.sets / name / "cuda_driver.toml").unlink()
        os.mkfifo(paths.sets / name / "cuda_driver.toml")
        active.write_text(name)
    return active


ACTIVE_DAMAGE = (
    "non-utf8",
    "folder",
    "fifo",
    "dev-zero",
    "path-escape",
    "nul",
    "huge",
    "missing-set",
    "damaged-set",
    "fifo-table",
)


@pytest.mark.parametrize("kind", ACTIVE_DAMAGE)
def test_damaged_active_state_falls_back_to_the_bundled_set(env, kind):
    plant_active(env, kind)
    matrices = load_active(env)
    assert matrices.origin == "bundled"
    assert matrices.notes and "using the bundled matrices" in matrices.notes[0]
    assert not matrices.errors  # the bundled set, whole


@pytest.mark.parametrize("kind", ["non-utf8", "folder", "fifo", "damaged-set"])
def test_check_with_a_damaged_active_state_runs_and_says_so_under_v(env, kind):
    plant_active(env, kind)
    quiet = envdoctor("check", "--timeout", "10", env=env)
    assert quiet.returncode in (0, 1), quiet.stderr
    assert "bundled matrices" not in quiet.stderr
    loud = envdoctor("check", "-v", "--timeout", "10", env=env)
    assert loud.returncode in (0, 1), loud.stderr
    assert "using the bundled matrices" in loud.stderr and "Traceback" not in loud.stderr


def test_history_of_any_kind_is_read_safely(env):
    paths = cache_paths(env)
    paths.sets.mkdir(parents=True)
    for plant in ("fifo", "dev-zero", "garbage", "wrong-types"):
        if paths.history.exists() or paths.history.is_symlink():
            paths.history.unlink()
        if plant == "fifo":
            os.mkfifo(paths.history)
        elif plant == "dev-zero":
            paths.history.symlink_to("/dev/zero")
        elif plant == "garbage":
            paths.history.write_bytes(b"\xff[[")
        else:
            paths.history.write_text(json.dumps([1, {"a": 2}, "../x", None, "bundled"]))
        before = paths.active.read_bytes() if paths.active.exists() else None
        result = envdoctor("matrices", "rollback", env=env)
        if plant in ("fifo", "dev-zero"):  # not replaced, not read: refused, nothing changed
            assert result.returncode == 2, (plant, result.stderr)
            assert "history.json is not a regular file" in result.stderr
            assert (paths.active.read_bytes() if paths.active.exists() else None) == before
            continue
        assert result.returncode == 0, (plant, result.stderr)
        assert result.stdout == "active matrix set: bundled\n"


# -- compiled-cache entries with the right key and the wrong content ---------------------------


def _mutations(entry: dict) -> dict[str, dict]:
    """Ways to damage one compiled entry while keeping its key."""

    def changed(path: tuple, value: object) -> dict:
        doc = json.loads(json.dumps(entry))
        target = doc["matrix"]
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value
        return doc

    first_row = entry["matrix"]["rows"][0]
    column = next(c for c in first_row if c not in ("source", "checked", "note", "unverified"))
    return {
        "rows-an-object": changed(("rows",), {"a": 1}),
        "row-a-list": changed(("rows", 0), [1, 2]),
        "cell-wrong-type": changed(("rows", 0, column), [{"x": 1}]),
        "checked-a-string": changed(("rows", 0, "checked"), "yesterday"),
        "source-missing": changed(("rows", 0, "source"), None),
        "unknown-column": changed(("rows", 0, "no_such_column"), "x"),
        "key-a-number": changed(("key",), 5),
        "columns-a-list": changed(("columns",), ["a"]),
        "column-type-unknown": changed(("columns", column), "complex"),
        "name-a-number": changed(("name",), 5),
        "row-lines-short": changed(("row_lines",), []),
        "meta-a-list": changed(("meta",), []),
    }


@pytest.mark.parametrize("table", ["cuda_driver", "nvidia_gpus", "torch_releases"])
def test_compiled_entries_with_the_right_key_and_wrong_content_are_parsed_again(
    tmp_path, monkeypatch, table
):
    monkeypatch.setenv("ENVDOCTOR_CACHE_DIR", str(tmp_path / "cache"))
    assert load_bundled().table(table).rows  # parses and stores the entry
    entry_path = tmp_path / "cache" / "compiled" / f"{table}.json"
    entry = json.loads(entry_path.read_text())
    path = bundled_dir() / f"{table}.toml"
    fresh, errors = parse_matrix(path.read_text(), path.name, expected_name=table)
    assert not errors and fresh is not None
    for label, damaged in _mutations(entry).items():
        entry_path.write_text(json.dumps(damaged))
        matrices = load_bundled()
        got = matrices.table(table)
        assert got.rows == fresh.rows and got.columns == fresh.columns, label
        assert any("compiled cache entry" in n for n in matrices.notes), label


def test_a_compiled_entry_that_is_a_fifo_or_a_folder_is_skipped(tmp_path, monkeypatch):
    monkeypatch.setenv("ENVDOCTOR_CACHE_DIR", str(tmp_path / "cache"))
    folder = tmp_path / "cache" / "compiled"
    folder.mkdir(parents=True)
    os.mkfifo(folder / "cuda_driver.json")
    (folder / "nvidia_gpus.json").mkdir()
    (folder / "wsl.json").symlink_to("/dev/zero")
    matrices = load_bundled()
    for table in ("cuda_driver", "nvidia_gpus", "wsl"):
        assert matrices.table(table).rows


def test_check_on_damaged_compiled_entries_says_so_under_v(env):
    envdoctor("check", "--json", "--timeout", "10", env=env)  # fills the compiled cache
    folder = Path(env["ENVDOCTOR_CACHE_DIR"]) / "compiled"
    entries = sorted(folder.glob("*.json"))
    assert entries
    for path in entries:
        doc = json.loads(path.read_text())
        for row in doc["matrix"]["rows"]:
            for column in list(row):
                if column != "checked":
                    row[column] = [1, {"x": 2}]
        path.write_text(json.dumps(doc))
    result = envdoctor("check", "-v", "--json", "--timeout", "10", env=env)
    assert result.returncode in (0, 1), result.stderr
    assert "envdoctor.check-crashed" not in result.stdout
    assert "compiled cache entry" in result.stderr and "is damaged" in result.stderr


# -- update and rollback with a cache folder that cannot take them ------------------------------


def _cache_is_a_file(env: dict) -> None:
    Path(env["ENVDOCTOR_CACHE_DIR"]).write_text("not a folder")


def _active_is_a_folder(env: dict) -> None:
    cache_paths(env).active.mkdir(parents=True)


def _sets_is_a_file(env: dict) -> None:
    cache_paths(env).root.mkdir(parents=True)
    cache_paths(env).sets.write_text("x")


@pytest.mark.parametrize("action", ["update", "rollback"])
@pytest.mark.parametrize("plant", [_cache_is_a_file, _active_is_a_folder, _sets_is_a_file])
def test_update_and_rollback_on_an_unusable_cache_are_a_usage_error(env, action, plant):
    plant(env)
    args = ["matrices", action]
    if action == "update":  # refused before any download: the URL need not answer
        args += ["--url", "https://127.0.0.1:9/none.tar.gz", "--sha256", HEX64]
    result = envdoctor(*args, env=env)
    if action == "rollback" and plant is _sets_is_a_file:
        assert result.returncode == 0  # rollback needs no sets folder
        return
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and ("matrix cache" in lines[0] or "regular file" in lines[0]), lines
    assert "internal error" not in result.stderr


def _user_namespace() -> list[str] | None:
    """`unshare -U` (root inside is nobody to the files outside), when this machine allows it."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return None
    probe = subprocess.run([unshare, "-U", "true"], capture_output=True, timeout=30)
    return [unshare, "-U"] if probe.returncode == 0 else None


@pytest.mark.parametrize("action", ["update", "rollback"])
def test_a_read_only_cache_is_a_usage_error(env, action):
    prefix = _user_namespace()
    if os.geteuid() == 0 and prefix is None:
        pytest.skip("root writes anywhere and user namespaces are off")
    root = cache_paths(env).root
    root.mkdir(parents=True)
    root.chmod(0o555)
    args = ["matrices", action]
    if action == "update":
        args += ["--url", "https://127.0.0.1:9/none.tar.gz", "--sha256", HEX64]
    try:
        result = subprocess.run(
            [*(prefix or []), sys.executable, "-m", "envdoctor", *args],
            capture_output=True,
            text=True,
            timeout=120,
            env=dict(os.environ, **env),
        )
    finally:
        root.chmod(0o755)
    assert result.returncode == 2, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "matrix cache" in result.stderr


def test_an_update_older_than_the_bundled_set_is_not_said_to_be_activated(env, tmp_path):
    import hashlib
    import io
    import tarfile
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for path in sorted(bundled_dir().glob("*.toml")):
            data = path.read_bytes().replace(b"checked = 2026-", b"checked = 2019-")
            info = tarfile.TarInfo(f"matrices/{path.name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    body = buffer.getvalue()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{httpd.server_port}/old.tar.gz"
        result = envdoctor(
            "matrices",
            "update",
            "--url",
            url,
            "--sha256",
            hashlib.sha256(body).hexdigest(),
            env=env,
        )
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert result.returncode == 1
    assert "activated" not in result.stdout + result.stderr
    assert "before this envdoctor's bundled matrices" in result.stderr
    assert load_active(env).origin == "bundled"
    assert not [p for p in cache_paths(env).sets.glob("*") if not p.name.startswith(".")]


def test_the_cache_module_reads_regular_files_only(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(OSError):
        matrix_cache.read_regular_file(fifo, 100)
    big = tmp_path / "big"
    big.write_bytes(b"x" * 101)
    with pytest.raises(OSError):
        matrix_cache.read_regular_file(big, 100)
    assert matrix_cache.read_regular_file(big, 101) == b"x" * 101


def test_a_home_that_does_not_exist_is_never_made_by_a_cache(tmp_path):
    # system users' HOME is /nonexistent: a triage made /nonexistent/.cache/envdoctor (found by
    # hand in round 21, when a later test needed /nonexistent to be missing)
    home = tmp_path / "nonexistent"
    env = {
        k: v for k, v in os.environ.items() if k not in ("XDG_CACHE_HOME", "ENVDOCTOR_CACHE_DIR")
    }
    env["HOME"] = str(home)
    result = subprocess.run(
        [sys.executable, "-m", "envdoctor", "triage", "-"],
        input="RuntimeError: CUDA error: out of memory\n",
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert result.returncode == 1 and "out of GPU memory" in result.stdout, result.stderr
    assert not home.exists()
    with pytest.raises(OSError, match="home folder does not exist"):
        matrix_cache.make_folder(home / ".cache" / "envdoctor" / "compiled", env)
    made = tmp_path / "xdg" / "envdoctor" / "compiled"  # $XDG_CACHE_HOME is made when missing
    matrix_cache.make_folder(made, {**env, "XDG_CACHE_HOME": str(tmp_path / "xdg")})
    assert made.is_dir() and not home.exists()
