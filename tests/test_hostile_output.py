"""Hostile use, outputs: where envdoctor writes is never replaced when it is not a regular file,
a full or closed stream is a one-line error (preflight still starts its command), and text that
is not going to a terminal is never cut, whatever COLUMNS says.

Real subprocesses on real device nodes, FIFOs and closed descriptors (`/dev/full` is the full
disk every Linux has)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from envdoctor.atomic import write_text_atomically
from envdoctor.model.report import Report
from envdoctor.model.snapshot import Snapshot, collected
from envdoctor.render import render

ENV = {"ENVDOCTOR_PROBE_WORKER": "0"}


def envdoctor(
    *args: str, cwd: Path | None = None, env: dict | None = None, **popen: object
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "envdoctor", *args],
        capture_output="stdout" not in popen and "stderr" not in popen,
        text=True,
        timeout=120,
        cwd=cwd,
        env=dict(os.environ, **ENV, **(env or {})),
        **popen,  # type: ignore[arg-type]
    )


def one_line_error(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    return lines[0]


# -- targets that are not regular files --------------------------------------------------------


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="no /dev/null")
def test_report_to_dev_null_writes_into_the_device_and_keeps_it(tmp_path):
    before = os.stat("/dev/null")
    result = envdoctor("report", "-o", "/dev/null", "--format", "json", "--timeout", "10")
    after = os.stat("/dev/null")
    assert result.returncode == 0, result.stderr
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev
    assert after.st_mode == before.st_mode
    assert not list(Path("/dev").glob(".null.*.tmp"))


def test_report_into_a_fifo_with_a_reader_is_streamed_through_it(tmp_path):
    fifo = tmp_path / "report.fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []

    def read() -> None:
        with open(fifo, "rb") as handle:  # blocks until envdoctor opens it for writing
            got.append(handle.read())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    result = envdoctor("report", "-o", str(fifo), "--format", "json", "--timeout", "10")
    reader.join(30)
    assert result.returncode == 0, result.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)  # still a FIFO, not a regular file
    assert json.loads(got[0])["kind"] == "report"


def test_a_fifo_nobody_reads_is_refused_without_hanging(tmp_path):
    fifo = tmp_path / "nobody.fifo"
    os.mkfifo(fifo)
    result = envdoctor("report", "-o", str(fifo), "--timeout", "10")
    assert result.returncode == 2
    assert "FIFO that nobody reads" in one_line_error(result.stderr)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@pytest.mark.parametrize("kind", ["folder", "socket", "block device"])
def test_other_non_regular_targets_are_refused(tmp_path, kind):
    target = tmp_path / "target"
    if kind == "folder":
        target.mkdir()
    elif kind == "socket":
        import socket

        server = socket.socket(socket.AF_UNIX)
        server.bind(str(target))
    else:
        try:
            os.mknod(target, 0o600 | stat.S_IFBLK, os.makedev(7, 200))
        except (PermissionError, OSError):
            pytest.skip("mknod of a block device needs root")
    mode = os.lstat(target).st_mode
    with pytest.raises(OSError, match=f"is a {kind}"):
        write_text_atomically(target, "text", into_special=True)
    assert os.lstat(target).st_mode == mode  # untouched
    assert [p.name for p in tmp_path.iterdir()] == ["target"]  # no temporary file left


def test_a_symlink_to_a_regular_file_keeps_the_link_and_replaces_the_file(tmp_path):
    real = tmp_path / "real.md"
    real.write_text("old")
    link = tmp_path / "link.md"
    link.symlink_to(real)
    write_text_atomically(link, "new")
    assert link.is_symlink() and real.read_text() == "new"


# Another user's link: in a shared sticky folder like /tmp, anyone can leave `report.md` linking
# to /etc/passwd; root's `envdoctor report -o /tmp/report.md` replaced /etc/passwd with the
# report (found by hand in round 21: the resolve-then-rename bypassed protected_symlinks)
OTHER_UID = 4242
needs_root = pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0,
    reason="giving a link to another user needs root",
)


def _shared_folder(tmp_path: Path) -> Path:
    """A sticky folder everyone may write in, as /tmp is."""
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    return shared


def _others_link(link: Path, points_to: Path) -> None:
    link.symlink_to(points_to)
    os.lchown(link, OTHER_UID, OTHER_UID)


@needs_root
def test_report_through_another_users_link_is_refused_and_its_target_kept(tmp_path):
    victim = tmp_path / "passwd"
    victim.write_text("root:x:0:0:root:/root:/bin/bash\n")
    link = _shared_folder(tmp_path) / "report.md"
    _others_link(link, victim)
    result = envdoctor("report", "-o", str(link), "--timeout", "10")
    assert result.returncode == 2
    assert "owned by another user" in one_line_error(result.stderr)
    assert victim.read_text() == "root:x:0:0:root:/root:/bin/bash\n"
    assert link.is_symlink() and sorted(p.name for p in tmp_path.iterdir()) == ["passwd", "shared"]
    assert [p.name for p in link.parent.iterdir()] == ["report.md"]  # no temporary file left


@needs_root
def test_another_users_link_to_a_folder_on_the_way_is_refused(tmp_path):
    etc = tmp_path / "etc"
    etc.mkdir()
    _others_link(_shared_folder(tmp_path) / "out", etc)
    with pytest.raises(OSError, match="owned by another user"):
        write_text_atomically(tmp_path / "shared" / "out" / "cron-job", "text")
    with pytest.raises(OSError, match="owned by another user"):  # reached by a relative name too
        write_text_atomically(tmp_path / "shared" / "." / "out" / ".." / "out" / "x", "text")
    assert list(etc.iterdir()) == []


@needs_root
def test_another_users_link_to_a_device_is_not_written_into(tmp_path):
    link = _shared_folder(tmp_path) / "report.md"
    _others_link(link, Path("/dev/null"))
    with pytest.raises(OSError, match="owned by another user"):
        write_text_atomically(link, "text", into_special=True)


def test_the_users_own_links_are_followed_on_the_way_and_at_the_name(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "via").symlink_to("real")  # a relative link to a folder
    (real / "to-file.md").symlink_to(real / "report.md")
    (real / "report.md").write_text("old")
    write_text_atomically(tmp_path / "via" / "to-file.md", "new")
    assert (real / "report.md").read_text() == "new" and (real / "to-file.md").is_symlink()
    dangling = tmp_path / "dangling.md"
    dangling.symlink_to(tmp_path / "nowhere" / "x.md")
    write_text_atomically(dangling, "text")  # the link itself is replaced, nothing made elsewhere
    assert not dangling.is_symlink() and dangling.read_text() == "text"
    assert not (tmp_path / "nowhere").exists()


@pytest.mark.parametrize("command", [["report", "--timeout", "10"], ["accept", "--minutes", "1"]])
@pytest.mark.parametrize("empty", ["", " "])
def test_an_empty_output_path_is_a_usage_error(tmp_path, command, empty):
    # `-o ''` had meant the default file (report) or stdout (accept) without a word
    result = envdoctor(*command, "-o", empty, cwd=tmp_path)
    assert result.returncode == 2
    assert "an empty path" in one_line_error(result.stderr)
    assert list(tmp_path.iterdir()) == []


def test_a_loop_of_links_is_an_error_not_a_hang(tmp_path):
    (tmp_path / "a").symlink_to("b")
    (tmp_path / "b").symlink_to("a")
    with pytest.raises(OSError, match="too many levels of symbolic links|symbolic link"):
        write_text_atomically(tmp_path / "a" / "x.md", "text")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "b"]


def test_cache_writes_never_write_into_a_device(tmp_path):
    fifo = tmp_path / "active"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="is a FIFO"):
        write_text_atomically(fifo, "bundled")  # into_special is for reports only


# -- full and closed streams -------------------------------------------------------------------


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("command", [["check"], ["check", "--json"], ["explain", "nvidia.no-gpu"]])
def test_a_full_stdout_is_a_one_line_error(command):
    with open("/dev/full", "w") as full:
        result = envdoctor(*command, stdout=full, stderr=subprocess.PIPE)
    assert result.returncode == 2
    assert "No space left on device" in one_line_error(result.stderr)


@pytest.mark.parametrize(
    "command",
    [
        ["check"],
        ["fit", "--params", "7B", "--dtype", "bf16", "--task", "inference", "--vram", "24"],
    ],
)
def test_a_closed_stdout_is_a_one_line_error(command):
    result = subprocess.run(
        [sys.executable, "-m", "envdoctor", *command],
        stdout=None,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
        env=dict(os.environ, **ENV),
        pass_fds=(),
        preexec_fn=lambda: os.close(1),  # noqa: PLW1509 - `>&-`
    )
    assert result.returncode == 2
    assert "standard output" in one_line_error(result.stderr) and "closed" in result.stderr


def test_preflight_with_stderr_closed_still_starts_the_command(tmp_path):
    marker = tmp_path / "started"
    result = subprocess.run(
        [sys.executable, "-m", "envdoctor", "preflight", "--", "touch", str(marker)],
        stdout=subprocess.PIPE,
        stderr=None,
        timeout=120,
        env=dict(os.environ, **ENV),
        preexec_fn=lambda: os.close(2),  # noqa: PLW1509 - `2>&-`
    )
    assert result.returncode == 0 and marker.exists()


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_preflight_with_a_full_stdout_still_starts_the_command(tmp_path):
    marker = tmp_path / "started"
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "envdoctor", "preflight", "--json", "--", "touch", str(marker)],
            stdout=full,
            stderr=subprocess.PIPE,
            timeout=120,
            env=dict(os.environ, **ENV),
        )
    assert result.returncode == 0 and marker.exists()


# -- nothing cut when not a terminal -----------------------------------------------------------


def long_report() -> Report:
    tail = "glibc 2.36, " + ", ".join(f"fact-{i:03d}" for i in range(40)) + ", the last fact"
    snap = Snapshot(origin="live", created_at="2026-12-03T00:00:00+00:00", envdoctor_version="0")
    snap.add(collected("os", "probe:os_info", {}, summary=f"Debian GNU/Linux 12, {tail}"))
    return Report(snap, [], passed=[], skipped=[], kind="check")


def test_text_output_not_to_a_terminal_is_never_cut(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    text = render(long_report(), "text", color=False)  # stdout here is not a terminal
    assert "the last fact" in text and "…" not in text
    # on a terminal the one-line-per-layer summary may be cut to the width
    clipped = render(long_report(), "text", color=False, width=100, clip=True)
    assert "…" in clipped and "the last fact" not in clipped


def test_check_through_a_pipe_keeps_every_fact_whatever_columns():
    for columns in ("20", "200"):
        result = envdoctor("check", env={"COLUMNS": columns})
        assert result.returncode in (0, 1), result.stderr
        assert "…" not in result.stdout
        doc = json.loads(envdoctor("check", "--json").stdout)
        summary = doc["snapshot"]["groups"]["os"]["summary"]
        assert summary in result.stdout
