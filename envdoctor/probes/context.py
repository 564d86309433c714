"""The probe context: the one door between envdoctor and the system it inspects.

Probes read the environment, run commands and read files only through a `ProbeContext`, so a
test can point them at a fake root tree and fake tools on PATH. Commands never go through a
shell, always have a timeout, and the whole process group is killed when it runs out. Each
command runs and each file is read at most once per context (results are cached).
"""

from __future__ import annotations

import contextlib
import fnmatch
import glob as globlib
import os
import re
import stat
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import subprocess

DEFAULT_COMMAND_TIMEOUT_S = 5.0
STOP_WAIT_S = 2.0  # how long `stop` waits for commands other threads are starting
_MAGIC = re.compile(r"[*?[]")  # glob wildcards
MAX_OUTPUT_BYTES = 16 * 1024 * 1024
MAX_READ_BYTES = 8 * 1024 * 1024


@dataclass(frozen=True)
class CommandResult:
    """What running one command produced. `error` is set when it did not run to completion."""

    argv: tuple[str, ...]
    returncode: int | None
    stdout: str
    stderr: str
    duration_s: float
    error: str | None = None

    @property
    def ok(self) -> bool:
        """True when the command ran and exited 0."""
        return self.error is None and self.returncode == 0

    def describe_failure(self) -> str:
        """A one-line reason for a failed run, with the first bytes of its output."""
        if self.error:
            return self.error
        first = (self.stderr.strip() or self.stdout.strip()).splitlines()[:1]
        tail = f": {first[0][:200]}" if first else ""
        return f"{self.argv[0]} exited {self.returncode}{tail}"

    @classmethod
    def not_run(cls, argv: tuple[str, ...], duration_s: float, error: str) -> CommandResult:
        """A command that did not run to completion: no exit status, no output, `error` why."""
        return cls(argv, None, "", "", duration_s, error)


@dataclass(frozen=True)
class ProbeOptions:
    """What the user asked the probes to look at."""

    python: str | None = None  # target interpreter (--python); None = the one running envdoctor
    # why that interpreter (envdoctor.probes.target_python: "--python", "VIRTUAL_ENV",
    # "CONDA_PREFIX", "PATH", "envdoctor"); "" = not chosen yet
    python_selected_by: str = ""
    deep: bool = False  # run a small script in the target interpreter (--deep)
    timeout_s: float = 20.0  # overall deadline for all probes
    apps: tuple[str, ...] = ()  # --app NAME
    app_dirs: tuple[str, ...] = ()  # --app-dir DIR
    image: str | None = None  # --image IMAGE
    only: tuple[str, ...] = ()  # probe modules to run (empty = all)
    groups: tuple[str, ...] = ()  # fact groups wanted (empty = all): a probe that fills several
    # may skip the work of the others (`ProbeContext.wants`); preflight names what it judges


@dataclass(frozen=True)
class ReadResult:
    """A file read: its text, or why there is none."""

    text: str | None
    error: str | None = None


class ProbeContext:
    """Environment, command runner, file reader and clock for probes, with per-run caching."""

    def __init__(
        self,
        root: str | Path = "/",
        env: Mapping[str, str] | None = None,
        options: ProbeOptions | None = None,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.root = Path(root)
        self.env: dict[str, str] = dict(os.environ if env is None else env)
        self.options = options or ProbeOptions()
        self._clock = clock or (lambda: datetime.now(timezone.utc))
        # reentrant: the signal handler (stopped_on_signals) calls stop() on the main thread,
        # which may be inside a locked section at that moment
        self._lock = threading.RLock()
        self._runs: dict[tuple[str, ...], _Pending] = {}
        self._reads: dict[str, _Pending] = {}
        self._memo: dict[str, _Pending] = {}
        self._listings: dict[str, _Pending] = {}
        self._starting = 0  # commands between "about to start" and registered (or killed)
        self._running: dict[int, subprocess.Popen] = {}  # started and not finished, to `stop`
        self._waiting: list[tuple[str, str]] = []  # (thread name, argv[0]) of calls in progress
        self._stopped = False

    # -- clock -------------------------------------------------------------------------------
    def now(self) -> datetime:
        """The current time (injected in tests)."""
        return self._clock()

    # -- files -------------------------------------------------------------------------------
    def path(self, path: str) -> Path:
        """The real location of the target system's `path` (under the configured root)."""
        if self.root == Path("/"):
            return Path(path)
        return self.root / str(path).lstrip("/")

    def read(self, path: str, max_bytes: int = MAX_READ_BYTES) -> ReadResult:
        """Read a text file of the target system once, leniently decoded; never raises."""
        return self._once(
            self._reads, (str(path), max_bytes), lambda: self._read_uncached(path, max_bytes)
        )

    def read_text(self, path: str, max_bytes: int = MAX_READ_BYTES) -> str | None:
        """The file's text, or None when it is missing or unreadable."""
        return self.read(path, max_bytes).text

    def read_bytes(self, path: str, max_bytes: int = MAX_READ_BYTES) -> bytes | None:
        """A binary file of the target system (read once, like `read`), or None."""
        data, _error = self._once(
            self._reads, ("bytes", str(path), max_bytes), lambda: self._read_raw(path, max_bytes)
        )
        return data

    def _read_uncached(self, path: str, max_bytes: int) -> ReadResult:
        data, error = self._read_raw(path, max_bytes)
        return (
            ReadResult(None, error)
            if data is None
            else ReadResult(data.decode("utf-8", errors="replace"))
        )

    def _read_raw(self, path: str, max_bytes: int) -> tuple[bytes | None, str | None]:
        real = self.path(path)
        try:
            # O_NONBLOCK: opening a FIFO does not wait for a writer; only regular files are read
            # (a FIFO, socket or device node in a fake root or unpacked image could block forever)
            fd = os.open(
                real, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
            )
            try:
                mode = os.fstat(fd).st_mode
            except OSError:
                os.close(fd)
                raise
            if not stat.S_ISREG(mode):
                os.close(fd)
                kind = "a directory" if stat.S_ISDIR(mode) else "not a regular file"
                return None, f"{path} is {kind}"
            with open(fd, "rb") as handle:
                data = _read_chunked(handle, max_bytes)
        except FileNotFoundError:
            return None, f"{path} does not exist"
        except PermissionError:
            return None, f"permission denied reading {path}"
        except IsADirectoryError:
            return None, f"{path} is a directory"
        except OSError as exc:
            return None, f"cannot read {path}: {exc.strerror or exc}"
        return data, None

    def exists(self, path: str) -> bool:
        """Whether `path` exists on the target system (a dangling link does not)."""
        try:
            return self.path(path).exists()
        except OSError:
            return False

    def is_dir(self, path: str) -> bool:
        """Whether `path` is a directory on the target system."""
        try:
            return self.path(path).is_dir()
        except OSError:
            return False

    def listdir(self, path: str) -> list[str]:
        """Sorted entry names of a directory, or [] when it is missing or unreadable."""
        return list(self._entries(str(self.path(path))))

    def _entries(self, real_folder: str) -> tuple[str, ...]:
        """A real folder's sorted entry names, listed once per context (() when unreadable)."""

        def listing() -> tuple[str, ...]:
            try:
                return tuple(sorted(os.listdir(real_folder or ".")))
            except (OSError, ValueError):
                return ()

        return self._once(self._listings, real_folder, listing)

    def glob(self, pattern: str) -> list[str]:
        """Paths on the target system matching `pattern` (absolute, as the target sees them)."""
        real_pattern = str(self.path(pattern))
        folder, name = os.path.split(real_pattern)
        if _MAGIC.search(name) and not _MAGIC.search(folder):
            # the common case, wildcards in the last part only: one listing per folder per context
            hidden = name.startswith(".")
            matches = [
                os.path.join(folder, entry)
                for entry in fnmatch.filter(self._entries(folder), name)
                if hidden or not entry.startswith(".")
            ]
        else:
            try:
                matches = sorted(globlib.glob(real_pattern))
            except OSError:
                return []
        if self.root == Path("/"):
            return matches
        prefix = str(self.root)
        return ["/" + m[len(prefix) :].lstrip("/") for m in matches]

    def readlink(self, path: str) -> str | None:
        """The target of a symbolic link, or None."""
        try:
            return os.readlink(self.path(path))
        except OSError:
            return None

    def stat(self, path: str) -> os.stat_result | None:
        """os.stat of the target's `path`, or None."""
        try:
            return os.stat(self.path(path))
        except OSError:
            return None

    # -- commands ----------------------------------------------------------------------------
    def which(self, name: str) -> str | None:
        """The executable `name` would run, searched on this context's PATH (shutil.which's rule:
        a file, not a folder, that may be executed; written out on POSIX, where it saves
        importing shutil and the compression modules it brings)."""
        path = self.env.get("PATH", os.defpath)
        if os.name == "nt":
            import shutil

            return shutil.which(name, path=path)
        candidates = (
            [name]
            if os.sep in name
            else [os.path.join(d, name) for d in dict.fromkeys(path.split(os.pathsep))]
        )
        for candidate in candidates:
            if (
                os.path.exists(candidate)
                and os.access(candidate, os.F_OK | os.X_OK)
                and not os.path.isdir(candidate)
            ):
                return candidate
        return None

    def run(
        self,
        argv: list[str] | tuple[str, ...],
        timeout_s: float = DEFAULT_COMMAND_TIMEOUT_S,
        input_text: str | None = None,
    ) -> CommandResult:
        """Run argv (no shell) once per context, killed with its process group at `timeout_s`."""
        key = tuple(argv) + ((("\0stdin", input_text),) if input_text else ())
        entry = (threading.current_thread().name, str(argv[0]) if argv else "")
        with self._lock:
            self._waiting.append(entry)
        try:
            return self._once(
                self._runs, key, lambda: self._run_tracked(argv, timeout_s, input_text)
            )
        finally:
            with self._lock:
                self._waiting.remove(entry)

    def _run_tracked(
        self, argv: list[str] | tuple[str, ...], timeout_s: float, input_text: str | None
    ) -> CommandResult:
        """run_command, with the process registered while it runs (see `stop`)."""
        token = object()
        pending = [True]  # counted in self._starting until started() has run (or the start failed)
        with self._lock:
            if self._stopped:
                name = os.path.basename(str(argv[0])) if argv else ""
                return CommandResult.not_run(
                    tuple(str(a) for a in argv),
                    0.0,
                    f"{name} not run: the overall deadline had passed",
                )
            self._starting += 1

        def started(proc: subprocess.Popen) -> bool:
            with self._lock:
                pending[0] = False
                if not self._stopped:
                    self._running[id(token)] = proc
                    self._starting -= 1
                    return True
            _kill_group(proc)  # stopped meanwhile: killed before `stop` stops waiting for it
            with self._lock:
                self._starting -= 1
            return False

        try:
            return run_command(argv, timeout_s, self.env, input_text, on_start=started)
        finally:
            with self._lock:
                self._running.pop(id(token), None)
                if pending[0]:  # the command could not start: nothing to wait for
                    self._starting -= 1

    def running(self, thread_name: str | None = None) -> list[str]:
        """The commands (argv[0]) callers are waiting for, all or those thread `thread_name` waits
        for (its own run, or one another probe started first)."""
        with self._lock:
            return [
                cmd for thread, cmd in self._waiting if thread_name is None or thread == thread_name
            ]

    def stop(self) -> None:
        """Kill every command still running (with its process group) and refuse new ones: called
        when the overall deadline abandons probes, so no tool outlives envdoctor."""
        with self._lock:
            self._stopped = True
            procs = list(self._running.values())
        for proc in procs:
            _kill_group(proc)
        # a command another thread is starting right now is killed by that thread as soon as its
        # start returns; wait for that (briefly), so that even a process ending at once with
        # os._exit (the CLI, the probe worker) leaves no tool behind
        end = time.monotonic() + STOP_WAIT_S
        while time.monotonic() < end:
            with self._lock:
                if self._starting <= 0:
                    return
            time.sleep(0.002)

    def wants(self, group: str) -> bool:
        """Whether fact group `group` is wanted (all are, unless `options.groups` names some)."""
        return not self.options.groups or group in self.options.groups

    # -- caching -----------------------------------------------------------------------------
    def once(self, key: str, compute: Callable[[], object]) -> object:
        """`compute()` run once per context under `key` (a scan several probes share, such as the
        in-process metadata scan); the other callers wait for it and get the same value."""
        return self._once(self._memo, key, compute)

    def _once(self, cache: dict, key, compute):  # noqa: ANN001 - internal helper
        with self._lock:
            pending = cache.get(key)
            owner = pending is None
            if pending is None:
                pending = cache[key] = _Pending()
        if owner:
            try:
                pending.value = compute()
            finally:
                pending.done.set()
        else:
            pending.done.wait()
        return pending.value


@dataclass
class _Pending:
    done: threading.Event = field(default_factory=threading.Event)
    value: object = None


def _read_chunked(handle, max_bytes: int) -> bytes:  # noqa: ANN001
    """Read up to `max_bytes` in modest chunks: one huge read() fails with ENOMEM on some
    procfs/sysfs files."""
    parts: list[bytes] = []
    left = max_bytes
    while left > 0:
        chunk = handle.read(min(left, 65536))
        if not chunk:
            break
        parts.append(chunk)
        left -= len(chunk)
    return b"".join(parts)


def run_command(
    argv: list[str] | tuple[str, ...],
    timeout_s: float,
    env: Mapping[str, str] | None = None,
    input_text: str | None = None,
    on_start: Callable[[subprocess.Popen], bool] | None = None,
) -> CommandResult:
    """Run a command without a shell; never raises. Output is decoded leniently and capped.
    `on_start(proc)` is told of the started process; when it returns False the process is killed
    at once (the caller has stopped)."""
    import subprocess  # here, not at the top: a preflight that runs no command never imports it

    argv = tuple(str(a) for a in argv)
    start = time.monotonic()
    if not argv:
        return CommandResult.not_run(argv, 0.0, "empty command")
    run_env = dict(env if env is not None else os.environ)
    run_env.setdefault("LC_ALL", "C")
    try:
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE if input_text is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=run_env,
            start_new_session=True,
        )
    except FileNotFoundError:
        return CommandResult.not_run(argv, time.monotonic() - start, f"{argv[0]} not found")
    except PermissionError:
        return CommandResult.not_run(
            argv, time.monotonic() - start, f"{argv[0]} is not executable (permission denied)"
        )
    except OSError as exc:
        return CommandResult.not_run(
            argv, time.monotonic() - start, f"{argv[0]} could not start: {exc.strerror or exc}"
        )
    if on_start is not None and not on_start(proc):
        _kill_group(proc)
        proc.communicate()
        return CommandResult.not_run(
            argv,
            time.monotonic() - start,
            f"{Path(argv[0]).name} not run: the overall deadline had passed",
        )
    try:
        out, err = proc.communicate(
            input=input_text.encode() if input_text is not None else None, timeout=timeout_s
        )
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        try:
            out, err = proc.communicate(timeout=1.0)
        except (subprocess.TimeoutExpired, OSError, ValueError):
            out, err = b"", b""
        return CommandResult(
            argv,
            None,
            _decode(out),
            _decode(err),
            time.monotonic() - start,
            f"{Path(argv[0]).name} timed out after {_seconds(timeout_s)}",
        )
    return CommandResult(
        argv, proc.returncode, _decode(out), _decode(err), time.monotonic() - start
    )


class Interrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM arrived while probes ran; every command they started has been ended.
    The CLI exits with 128 + `signum`, as a shell reports a process ended by that signal."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"signal {signum}")
        self.signum = signum


@contextmanager
def stopped_on_signals(
    ctx: ProbeContext, also: list[Callable[[], None]] | None = None
) -> Iterator[None]:
    """While the block runs, SIGINT and SIGTERM stop `ctx` (each command it started is killed
    with its process group: they run in their own sessions, so neither Ctrl-C nor a `kill` of
    envdoctor reaches them), call each of `also` (ending a worker process), and raise
    `Interrupted`. Without this a hung tool outlives envdoctor, re-parented to init. Signals
    set to be ignored stay ignored; off the main thread (library use) nothing is installed."""
    import signal

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    extra = also if also is not None else []

    def handler(signum: int, _frame: object) -> None:
        ctx.stop()
        for stop in list(extra):
            stop()
        raise Interrupted(signum)

    previous = {}
    for sig in (signal.SIGINT, signal.SIGTERM):
        current = signal.getsignal(sig)
        if current is not signal.SIG_IGN:
            previous[sig] = current
            signal.signal(sig, handler)
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def start_streaming(argv: list[str], env: Mapping[str, str]) -> subprocess.Popen:
    """Start a long-running command whose output the caller reads as it comes (the acceptance
    load): no shell, stdin closed, stdout and stderr piped, in a process group of its own so that
    `end_process` ends it with everything it started. OSError when it cannot start."""
    import subprocess

    return subprocess.Popen(
        [str(a) for a in argv],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=dict(env),
        start_new_session=True,
    )


def end_process(proc: subprocess.Popen, grace_s: float = 2.0) -> None:
    """End a command from `start_streaming`: SIGTERM to its group, SIGKILL to what is left of the
    group after `grace_s`, then wait for it (it is never left running or unreaped)."""
    import signal
    import subprocess

    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=grace_s)
        except (ProcessLookupError, PermissionError, subprocess.TimeoutExpired):
            pass
    _kill_group(proc)  # anything it left in its group
    proc.wait()


def _kill_group(proc: subprocess.Popen) -> None:
    import signal

    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (
        ProcessLookupError,
        PermissionError,
        OSError,
        AttributeError,
    ):  # no killpg/SIGKILL on Windows
        with contextlib.suppress(OSError):
            proc.kill()


def _decode(data: bytes | None) -> str:
    if not data:
        return ""
    return data[:MAX_OUTPUT_BYTES].decode("utf-8", errors="replace")


def _seconds(value: float) -> str:
    return f"{value:g} s"
