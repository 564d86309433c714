"""Matrix updates against a real HTTP server on loopback: good, tampered, truncated, slow,
failing and malformed bundles. The active set must never be corrupted; rollback must work."""

from __future__ import annotations

import hashlib
import io
import subprocess
import sys
import tarfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from envdoctor.matrix import update as matrix_update
from envdoctor.matrix.loader import bundled_dir
from envdoctor.matrix.update import UpdateError, cache_paths, load_active, rollback, update


def _bundle(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def _bundled_files(marker: bool = True) -> dict[str, bytes]:
    """The bundled set as an update bundle (same dates: an update of equal age wins); `marker`
    adds a note to one row so the test can tell which set is active."""
    files = {}
    for path in sorted(bundled_dir().glob("*.toml")):
        text = path.read_text()
        if marker and path.name == "cuda_driver.toml":
            text = text.replace('label = "CUDA ', 'label = "(from the update) CUDA ', 1)
        files[f"matrices/{path.name}"] = text.encode()
    return files


class _Server:
    """Serves `routes[path] = (status, body, options)` on 127.0.0.1."""

    def __init__(self) -> None:
        self.routes: dict[str, tuple[int, bytes, dict]] = {}
        routes = self.routes

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802
                status, body, options = routes.get(self.path, (404, b"not found", {}))
                self.send_response(status)
                length = options.get("length", len(body))
                self.send_header("Content-Length", str(length))
                self.end_headers()
                if options.get("slow"):
                    for byte in body:
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                        time.sleep(options["slow"])
                    return
                self.wfile.write(body)

            def log_message(self, *args):  # keep test output quiet
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.httpd.server_port}{path}"

    def add(self, path: str, body: bytes, status: int = 200, **options) -> str:
        self.routes[path] = (status, body, options)
        return hashlib.sha256(body).hexdigest()


@pytest.fixture()
def server():
    srv = _Server()
    yield srv
    srv.httpd.shutdown()
    srv.httpd.server_close()


@pytest.fixture()
def env(tmp_path):
    return {"ENVDOCTOR_CACHE_DIR": str(tmp_path / "cache"), "HOME": str(tmp_path)}


def _state(env) -> tuple[str | None, list[str]]:
    paths = cache_paths(env)
    active = paths.active.read_text() if paths.active.exists() else None
    sets = sorted(p.name for p in paths.sets.glob("*")) if paths.sets.exists() else []
    return active, sets


def test_good_update_then_rollback(server, env):
    digest = server.add("/good.tar.gz", _bundle(_bundled_files()))
    assert load_active(env).origin == "bundled"
    name = update(server.url("/good.tar.gz"), digest, env)
    active = load_active(env)
    assert active.origin == f"update {name}"
    assert active.table("cuda_driver").rows[0]["label"].startswith("(from the update) ")
    assert rollback(env) == "bundled"
    assert load_active(env).origin == "bundled"


def test_update_older_than_bundled_does_not_win(server, env):
    files = {
        k: v.replace(b"checked = 2026-", b"checked = 2020-")
        for k, v in _bundled_files(False).items()
    }
    digest = server.add("/old.tar.gz", _bundle(files))
    # refused before installing: an installed set that load_active never uses would be a lie
    # ("installed and activated"), so the command says why instead
    with pytest.raises(UpdateError, match="before this envdoctor's bundled matrices"):
        update(server.url("/old.tar.gz"), digest, env)
    assert load_active(env).origin == "bundled"
    assert not [p for p in cache_paths(env).sets.iterdir() if not p.name.startswith(".")]


def _bad_cases(server) -> list[tuple[str, str, str]]:
    good = _bundle(_bundled_files())
    cases = []
    digest_good = hashlib.sha256(good).hexdigest()
    server.add("/tampered.tar.gz", good[:-10] + b"0123456789")
    cases.append(("/tampered.tar.gz", digest_good, "digest mismatch"))
    server.add("/truncated.tar.gz", good[: len(good) // 2], length=len(good))
    cases.append(("/truncated.tar.gz", digest_good, "download"))
    server.add("/missing.tar.gz", b"gone", status=404)
    cases.append(("/missing.tar.gz", digest_good, "HTTP 404"))
    server.add("/error.tar.gz", b"oops", status=500)
    cases.append(("/error.tar.gz", digest_good, "HTTP 500"))
    garbage = b"this is not an archive" * 10
    cases.append(("/garbage.bin", server.add("/garbage.bin", garbage), "not a .tar.gz archive"))
    future = {
        k: v.replace(b"schema_version = 1", b"schema_version = 99")
        for k, v in _bundled_files().items()
    }
    cases.append(("/future.tar.gz", server.add("/future.tar.gz", _bundle(future)), "does not lint"))
    unsourced = dict(_bundled_files())
    key = next(iter(unsourced))
    unsourced[key] = unsourced[key].replace(b"source = ", b"sauce = ", 1)
    cases.append(
        ("/unsourced.tar.gz", server.add("/unsourced.tar.gz", _bundle(unsourced)), "does not lint")
    )
    partial = dict(list(_bundled_files().items())[:1])
    cases.append(
        ("/partial.tar.gz", server.add("/partial.tar.gz", _bundle(partial)), "lacks matrices")
    )
    evil = dict(_bundled_files())
    evil["../../escape.toml"] = b"x"
    cases.append(("/evil.tar.gz", server.add("/evil.tar.gz", _bundle(evil)), "not allowed"))
    return cases


def test_bad_bundles_are_refused_and_leave_the_active_set_intact(server, env):
    digest = server.add("/good.tar.gz", _bundle(_bundled_files()))
    name = update(server.url("/good.tar.gz"), digest, env)
    before = _state(env)
    for path, digest, message in _bad_cases(server):
        with pytest.raises(UpdateError, match=message):
            update(server.url(path), digest, env)
        assert _state(env) == before, path
        assert load_active(env).origin == f"update {name}"
    assert not (Path(env["ENVDOCTOR_CACHE_DIR"]).parent / "escape.toml").exists()


def test_slow_and_oversized_downloads_are_cut_off(server, env, monkeypatch):
    body = _bundle(_bundled_files())
    digest = server.add("/slow.tar.gz", body, slow=0.05)
    monkeypatch.setattr(matrix_update, "TOTAL_TIMEOUT_S", 0.5)
    start = time.monotonic()
    with pytest.raises(UpdateError, match="longer than"):
        update(server.url("/slow.tar.gz"), digest, env)
    assert time.monotonic() - start < 5
    monkeypatch.setattr(matrix_update, "MAX_BUNDLE_BYTES", 1000)
    digest = server.add("/big.tar.gz", body)
    with pytest.raises(UpdateError, match="too large"):
        update(server.url("/big.tar.gz"), digest, env)
    assert _state(env) == (None, [])


def test_only_https_or_loopback_http(env):
    with pytest.raises(UpdateError, match="https only"):
        update("http://example.org/m.tar.gz", "0" * 64, env)
    with pytest.raises(UpdateError, match="64 hex digits"):
        update("https://example.org/m.tar.gz", "abc", env)


def test_damaged_cache_falls_back_to_bundled(server, env):
    digest = server.add("/good.tar.gz", _bundle(_bundled_files()))
    name = update(server.url("/good.tar.gz"), digest, env)
    victim = next((cache_paths(env).sets / name).glob("*.toml"))
    victim.write_text("garbage = [")
    assert load_active(env).origin == "bundled"


def test_cli_update_and_rollback(server, env):
    digest = server.add("/good.tar.gz", _bundle(_bundled_files()))

    def cli(*args):
        return subprocess.run(
            [sys.executable, "-m", "envdoctor", "matrices", *args],
            capture_output=True,
            text=True,
            timeout=60,
            env={**env, "PATH": "/usr/bin:/bin"},
        )

    bad = cli("update", "--url", server.url("/good.tar.gz"), "--sha256", "f" * 64)
    assert bad.returncode == 1 and "digest mismatch" in bad.stderr
    assert cli("update").returncode == 2
    ok = cli("update", "--url", server.url("/good.tar.gz"), "--sha256", digest)
    assert ok.returncode == 0, ok.stderr
    assert "set: update" in cli("list").stdout
    assert cli("rollback").stdout.strip() == "active matrix set: bundled"
    assert "set: bundled" in cli("list").stdout
