"""A real Docker daemon for the container tests: Debian's docker.io `dockerd` on a private socket.

`docker_daemon` (session scope) starts one daemon in a temporary folder — its own data root, exec
root, pid file, socket and empty daemon.json, vfs storage, no iptables, no bridge — and stops it at
the end of the session. `start_daemon(...)` starts further ones (e.g. with `--add-runtime`).
Images are built locally with `docker import` of a small root filesystem made here (`rootfs_tar`):
there is no registry to pull from. Where no daemon can start, the tests skip with the reason,
except when the CI environment variable is set: then they fail.
"""

from __future__ import annotations

import ctypes
import io
import os
import shutil
import signal
import subprocess
import tarfile
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

START_TIMEOUT_S = 60.0
PR_SET_PDEATHSIG = 1  # prctl option (linux/prctl.h)
STOP_TIMEOUT_S = 30.0


@dataclass
class Daemon:
    """One running dockerd and the client that talks to it."""

    base: Path
    process: subprocess.Popen
    cli: str
    log: Path
    images: list[str] = field(default_factory=list)

    @property
    def socket(self) -> Path:
        """The daemon's unix socket."""
        return self.base / "docker.sock"

    @property
    def host(self) -> str:
        """DOCKER_HOST for this daemon."""
        return f"unix://{self.socket}"

    def env(self, **extra: str) -> dict[str, str]:
        """The environment for a client of this daemon."""
        env = {k: v for k, v in os.environ.items() if k not in ("DOCKER_CONTEXT", "DOCKER_CONFIG")}
        env.update(DOCKER_HOST=self.host, DOCKER_CONFIG=str(self.base / "client-config"), **extra)
        return env

    def docker(
        self, *args: str, timeout: float = 120.0, check: bool = False
    ) -> subprocess.CompletedProcess:
        """Run the docker CLI against this daemon."""
        result = subprocess.run(
            [self.cli, *args], env=self.env(), capture_output=True, text=True, timeout=timeout
        )
        if check and result.returncode != 0:
            raise AssertionError(
                f"docker {' '.join(args)} failed ({result.returncode}): {result.stderr}"
            )
        return result

    def import_rootfs(self, tar: Path, tag: str, changes: tuple[str, ...] = ()) -> str:
        """`docker import` a root filesystem tar as `tag`."""
        args = ["import"]
        for change in changes:
            args += ["--change", change]
        self.docker(*args, str(tar), tag, check=True)
        self.images.append(tag)
        return tag

    def stop(self) -> None:
        """Stop the daemon (SIGTERM, then SIGKILL) and remove its folder."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        shutil.rmtree(self.base, ignore_errors=True)


def start_daemon(extra_args: tuple[str, ...] = ()) -> Daemon | str:
    """Start a private dockerd; the Daemon, or why it could not start."""
    dockerd = shutil.which("dockerd") or next(
        (p for p in ("/usr/sbin/dockerd", "/usr/bin/dockerd") if os.access(p, os.X_OK)), None
    )
    if dockerd is None:
        return "dockerd is not installed (apt-get install docker.io)"
    if os.geteuid() != 0:
        return "dockerd needs root here (the tests start a rootful daemon)"
    base = Path(tempfile.mkdtemp(prefix="edd-", dir="/tmp"))
    (base / "client-config").mkdir()
    (base / "daemon.json").write_text("{}\n")
    log = base / "dockerd.log"
    argv = [
        dockerd,
        "--data-root",
        str(base / "data"),
        "--exec-root",
        str(base / "exec"),
        "--pidfile",
        str(base / "docker.pid"),
        "-H",
        f"unix://{base / 'docker.sock'}",
        "--config-file",
        str(base / "daemon.json"),
        "--storage-driver=vfs",
        "--iptables=false",
        "--ip6tables=false",
        "--bridge=none",
        *extra_args,
    ]
    with open(log, "wb") as out:
        process = subprocess.Popen(
            argv,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            tail = log.read_text(errors="replace").strip().splitlines()[-3:]
            shutil.rmtree(base, ignore_errors=True)
            return f"dockerd exited with {process.returncode}: " + " | ".join(tail)
        if (base / "docker.sock").exists():
            cli = _compatible_cli(dockerd, base)
            if cli is not None:
                return Daemon(base, process, cli, log)
        time.sleep(0.25)
    daemon = Daemon(base, process, "docker", log)
    daemon.stop()
    return f"dockerd did not answer within {START_TIMEOUT_S:g} s"


def _die_with_parent() -> None:
    """In the child before exec: have the kernel send SIGTERM to dockerd when the test process
    dies, so a killed pytest (a timeout, ^C) never leaves a daemon behind."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        pass


def _compatible_cli(dockerd: str, base: Path) -> str | None:
    """The first docker CLI that talks to the new daemon: the one beside dockerd, docker.io's,
    then the one on PATH (a newer static client negotiates the API version down)."""
    candidates = [str(Path(dockerd).with_name("docker")), "/usr/bin/docker", shutil.which("docker")]
    env = {
        **os.environ,
        "DOCKER_HOST": f"unix://{base / 'docker.sock'}",
        "DOCKER_CONFIG": str(base / "client-config"),
    }
    env.pop("DOCKER_CONTEXT", None)
    for cli in dict.fromkeys(c for c in candidates if c and os.access(c, os.X_OK)):
        try:
            result = subprocess.run(
                [cli, "version", "--format", "{{.Server.Version}}"],
                env=env,
                capture_output=True,
                text=True,
                timeout=15,
            )
        except (OSError, subprocess.TimeoutExpired):
            continue
        if result.returncode == 0 and result.stdout.strip():
            return cli
    return None


def unavailable(reason: str) -> None:
    """Skip with the reason, or fail under CI (where the daemon must run)."""
    if os.environ.get("CI"):
        pytest.fail(f"the real Docker daemon is required under CI: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def docker_daemon() -> Iterator[Daemon]:
    """One private Docker daemon for the whole session."""
    daemon = start_daemon()
    if isinstance(daemon, str):
        unavailable(daemon)
    try:
        yield daemon
    finally:
        daemon.stop()


def rootfs_tar(path: Path, files: dict[str, str] | None = None) -> Path:
    """A tiny root filesystem (merged-/usr symlinks, /etc/passwd, /tmp, plus `files`) as a tar, for
    `docker import`. Containers from it run the host's programs through a read-only /usr mount."""
    with tarfile.open(path, "w") as tar:
        for name, target in (
            ("bin", "usr/bin"),
            ("lib", "usr/lib"),
            ("lib64", "usr/lib64"),
            ("sbin", "usr/sbin"),
        ):
            info = tarfile.TarInfo(name)
            info.type, info.linkname = tarfile.SYMTYPE, target
            tar.addfile(info)
        for folder, mode in (
            ("usr", 0o755),
            ("etc", 0o755),
            ("tmp", 0o1777),
            ("proc", 0o755),
            ("sys", 0o755),
            ("dev", 0o755),
            ("root", 0o700),
        ):
            info = tarfile.TarInfo(folder)
            info.type, info.mode = tarfile.DIRTYPE, mode
            tar.addfile(info)
        contents = {"etc/passwd": "root:x:0:0:root:/root:/bin/sh\n", **(files or {})}
        made: set[str] = set()
        for name, text in sorted(contents.items()):
            parts = name.split("/")[:-1]
            for depth in range(1, len(parts) + 1):
                folder = "/".join(parts[:depth])
                if folder not in made and folder not in ("usr", "etc", "tmp", "root"):
                    info = tarfile.TarInfo(folder)
                    info.type, info.mode = tarfile.DIRTYPE, 0o755
                    tar.addfile(info)
                    made.add(folder)
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size, info.mode = len(data), 0o644
            tar.addfile(info, io.BytesIO(data))
    return path
