"""Nothing envdoctor does changes the machine.

- It never writes outside its cache and output paths: `check`, `triage`, `report`, `preflight`,
  `explain`, `matrices list` and `fleet` run as subprocesses with HOME, the XDG folders, TMPDIR
  and the working directory in fresh temporary folders, and a file-tree snapshot of those (and of
  the envdoctor package folders) is the same afterwards, but for the report it was asked to write.
- It runs no command through a shell and starts processes only through the probe context (an AST
  scan of envdoctor/ and checks/), and the commands a full `check --deep` runs are read-only
  queries (fake tools on PATH log every argv, matched against a list).
- It never executes a pasted report's content: triage and fleet of texts and reports full of
  shell and Python payloads run no command at all and create no file.
- A failed write leaves the earlier file intact: a monkeypatched failure at each step of the
  atomic writer, a read-only folder (in a user namespace, where root is refused too) and a full
  disk (a 16 KiB tmpfs in a user and mount namespace).
"""

from __future__ import annotations

import ast
import errno
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from envdoctor import atomic

REPO = Path(__file__).resolve().parent.parent
SOURCE_DIRS = ("envdoctor", "checks")
# The only modules that may start processes, and why.
PROCESS_STARTERS = {
    "envdoctor/probes/context.py": "ProbeContext.run / run_command: argv lists, no shell, a timeout, the group killed",
}
EXEC_CALLERS = {
    "envdoctor/cli.py": "preflight execs the workload's command (os.execvp) after the checks",
    "envdoctor/probes/worker.py": "forks itself (os.fork, no exec) to run part of the probes on a "
    "second core",
}
# The only modules that may create, change or remove files, and why.
FILE_WRITERS = {
    "envdoctor/atomic.py": "every output file: a temporary file in the same folder, renamed over the target",
    "envdoctor/matrix/update.py": "installs and rolls back matrix updates in the cache folder",
    "envdoctor/matrix/cache.py": "creates the cache folder of compiled matrices (entries via atomic.py)",
    "envdoctor/regex_cache.py": "creates the cache folder of compiled regular expressions (its one "
    "file via atomic.py)",
    "envdoctor/diagnosis/image_inspect.py": "unpacks an image's layers into a temporary folder it removes",
    "envdoctor/cli.py": "reopens stdout on os.devnull after a broken pipe",
    "envdoctor/i18n/catalog.py": "the translator's workflow (python -m envdoctor.i18n update) "
    "writes the .po/.mo catalogs in the source tree; no diagnosis calls it",
}
# What each external tool may be asked (argv after the tool's name): queries only.
READ_ONLY_COMMANDS = {
    ("amd-smi", "static", "--json"),
    ("dmesg",),
    ("journalctl", "-k", "-b", "--no-pager", "-q", "-o", "short"),
    ("journalctl", "-u", "ollama", "--no-pager", "-n", "200"),
    ("ldconfig", "-p"),
    ("llama-cli", "--version"),
    ("llama-server", "--version"),
    ("modinfo", "nvidia"),
    ("mokutil", "--sb-state"),
    ("nvcc", "--version"),
    ("nvidia-cdi-hook", "--version"),
    ("nvidia-container-cli", "--version"),
    ("nvidia-container-cli", "info"),
    ("nvidia-container-runtime", "--version"),
    ("nvidia-container-runtime-hook", "-version"),
    ("nvidia-ctk", "--version"),
    ("nvidia-smi", "-q", "-x"),
    ("nvidia-smi", "-q"),
    ("ollama", "--version"),
    ("podman", "--version"),
    ("rocminfo",),
    ("systemd-detect-virt", "--vm"),
    ("vulkaninfo", "--summary"),
    (
        "rocm-smi",
        "--showproductname",
        "--showbus",
        "--showmeminfo",
        "vram",
        "--showuniqueid",
        "--showdriverversion",
        "--json",
    ),
    ("glxinfo", "-B"),
    ("systemctl", "is-active", "nvidia-fabricmanager"),
    ("systemctl", "is-active", "nvidia-gridd"),
}
READ_ONLY_PREFIXES = {
    ("ldd",),
    ("file", "-bL"),
    ("sysctl", "-n"),
    ("getprop",),
}  # then one path or name
PAYLOADS = """\
$(touch {mark}) `touch {mark}` ; touch {mark} && touch {mark} | touch {mark}
```sh
touch {mark}
sudo rm -rf /tmp/envdoctor-never
```
python -c "__import__('os').system('touch {mark}')"
{{{{ __import__('os').system('touch {mark}') }}}} {{touch {mark}}} %(touch {mark})s
Traceback (most recent call last):
  File "<string>", line 1, in <module>
RuntimeError: CUDA error: no kernel image is available for execution on the device; touch {mark}
"""


def sources() -> list[tuple[str, ast.Module]]:
    """(repo-relative path, parsed module) of every Python file in envdoctor/ and checks/."""
    found = []
    for folder in SOURCE_DIRS:
        for path in sorted((REPO / folder).rglob("*.py")):
            if "__pycache__" not in path.parts:
                found.append(
                    (path.relative_to(REPO).as_posix(), ast.parse(path.read_text(encoding="utf-8")))
                )
    return found


def dotted(node: ast.AST) -> str:
    """ "os.path.join" for an attribute chain, "" for anything else."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return ""


# -- static -----------------------------------------------------------------------------------------


def test_no_shell_anywhere():
    offenders = []
    for path, tree in sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = dotted(node.func)
                if any(
                    k.arg == "shell"
                    and not (isinstance(k.value, ast.Constant) and k.value.value is False)
                    for k in node.keywords
                ):
                    offenders.append(f"{path}:{node.lineno} shell=")
                if name in (
                    "os.system",
                    "os.popen",
                    "subprocess.getoutput",
                    "subprocess.getstatusoutput",
                    "eval",
                    "exec",
                    "pty.spawn",
                ):
                    offenders.append(f"{path}:{node.lineno} {name}()")
    assert offenders == []
    assert "shell=True" not in "".join((REPO / f).read_text() for f in PROCESS_STARTERS)


def test_only_the_probe_context_starts_processes():
    starters, execs = set(), set()
    for path, tree in sources():
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            if any(n.split(".")[0] in ("subprocess", "pty", "asyncio") for n in names):
                starters.add(path)
            if isinstance(node, ast.Call):
                name = dotted(node.func)
                if name.startswith(("os.exec", "os.spawn", "os.posix_spawn", "os.fork")):
                    execs.add(path)
    assert starters <= set(PROCESS_STARTERS), starters - set(PROCESS_STARTERS)
    assert execs <= set(EXEC_CALLERS), execs - set(EXEC_CALLERS)


WRITE_CALLS = (
    "os.replace",
    "os.rename",
    "os.remove",
    "os.unlink",
    "os.rmdir",
    "os.makedirs",
    "os.mkdir",
    "os.chmod",
    "os.chown",
    "os.symlink",
    "os.link",
    "os.truncate",
    "shutil.rmtree",
    "shutil.move",
    "shutil.copy",
    "shutil.copy2",
    "shutil.copyfile",
    "shutil.copytree",
    "tempfile.mkstemp",
    "tempfile.mkdtemp",
    "tempfile.NamedTemporaryFile",
    "tempfile.TemporaryDirectory",
)
WRITE_METHODS = (
    "write_text",
    "write_bytes",
    "mkdir",
    "touch",
    "unlink",
    "rmdir",
    "rename",
    "replace",
    "symlink_to",
    "chmod",
)


def _write_mode(node: ast.Call) -> bool:
    mode = (
        node.args[1]
        if len(node.args) > 1
        else next((k.value for k in node.keywords if k.arg == "mode"), None)
    )
    return (
        isinstance(mode, ast.Constant)
        and isinstance(mode.value, str)
        and any(c in mode.value for c in "wax+")
    )


def test_only_known_modules_write_files():
    writers: dict[str, list[str]] = {}
    for path, tree in sources():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = dotted(node.func)
            method = node.func.attr if isinstance(node.func, ast.Attribute) else ""
            if (
                name in WRITE_CALLS
                or (name in ("open", "io.open", "os.fdopen") and _write_mode(node))
                or (
                    method in WRITE_METHODS
                    and name not in ("str.replace",)
                    and not _is_str_replace(node)
                )
            ):
                writers.setdefault(path, []).append(f"{node.lineno}:{name or method}")
    assert set(writers) <= set(FILE_WRITERS), {
        p: w for p, w in writers.items() if p not in FILE_WRITERS
    }


def _is_str_replace(node: ast.Call) -> bool:
    """`text.replace(a, b)` / `dataclasses.replace(obj, ...)`, not Path.replace(target)."""
    return (
        isinstance(node.func, ast.Attribute)
        and node.func.attr == "replace"
        and (len(node.args) != 1 or bool(node.keywords))
    )


# -- file-tree snapshots ------------------------------------------------------------------------------


def tree(root: Path) -> dict[str, tuple[int, int, int]]:
    """{relative path: (mode, size, mtime_ns)} of everything under root (no __pycache__)."""
    out = {}
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = [
            d
            for d in subfolders
            if d not in ("__pycache__", ".git", ".hypothesis", ".pytest_cache")
        ]
        for name in subfolders + files:
            path = Path(folder) / name
            info = path.lstat()
            out[str(path.relative_to(root))] = (
                info.st_mode,
                info.st_size if not path.is_dir() else 0,
                info.st_mtime_ns if not path.is_dir() else 0,
            )
    return out


@pytest.fixture()
def sandbox(tmp_path):
    """HOME, XDG folders, TMPDIR and a working directory in tmp_path, and fake tools on PATH that
    log each argv to their own file."""
    for name in (
        "home",
        "cache",
        "config",
        "data",
        "state",
        "runtime",
        "tmp",
        "work",
        "logs",
        "bin",
    ):
        (tmp_path / name).mkdir()
    log_dir = tmp_path / "logs"
    for tool in (
        "nvidia-smi",
        "podman",
        "docker",
        "nvcc",
        "rocminfo",
        "dmesg",
        "journalctl",
        "ldconfig",
        "modinfo",
        "mokutil",
        "nvidia-ctk",
        "nvidia-container-cli",
        "vulkaninfo",
        "systemd-detect-virt",
        "ollama",
        "glxinfo",
        "sh",
        "bash",
        "touch",
        "rm",
        "sudo",
        "python3",
        "pip",
    ):
        fake = tmp_path / "bin" / tool
        fake.write_text(f'#!/bin/sh\nprintf "%s\\037" "${{0##*/}}" "$@" > "{log_dir}/$$"\nexit 0\n')
        fake.chmod(0o755)
    env = {
        "PATH": str(tmp_path / "bin"),
        "HOME": str(tmp_path / "home"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_RUNTIME_DIR": str(tmp_path / "runtime"),
        "TMPDIR": str(tmp_path / "tmp"),
        "LC_ALL": "C",
        "PYTHONDONTWRITEBYTECODE": "1",
        "DOCKER_HOST": f"unix://{tmp_path}/no-docker.sock",
    }
    return tmp_path, env


def envdoctor(
    env: dict[str, str], cwd: Path, *args: str, prefix: tuple[str, ...] = ()
) -> subprocess.CompletedProcess:
    """`python -m envdoctor ARGS` in `env` and `cwd`."""
    return subprocess.run(
        [*prefix, sys.executable, "-m", "envdoctor", *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


def commands_run(tmp_path: Path) -> list[tuple[str, ...]]:
    """Every argv the fake tools logged (tool name first)."""
    return [
        tuple(p for p in log.read_text().split("\x1f") if p)
        for log in sorted((tmp_path / "logs").iterdir())
    ]


def test_commands_change_nothing_outside_their_output(sandbox, real_captures):
    tmp_path, env = sandbox
    work = tmp_path / "work"
    paste = tmp_path / "paste.txt"
    capture = sorted((real_captures / "nvidia-smi-text").iterdir())[0]
    paste.write_text(capture.read_text() + PAYLOADS.format(mark=work / "x"))
    watched = [tmp_path] + [REPO / d for d in ("envdoctor", "checks", "matrices")]
    before = {str(w): tree(w) for w in watched}
    runs = [
        envdoctor(env, work, "check", "--json"),
        envdoctor(env, work, "triage", str(paste), "--json"),
        envdoctor(env, work, "report", "-o", str(work / "node.json")),
        envdoctor(env, work, "preflight", "--require", "gpu"),
        envdoctor(env, work, "explain", "nvidia.no-gpu"),
        envdoctor(env, work, "matrices", "list"),
    ]
    runs.append(envdoctor(env, work, "fleet", str(work / "node.json"), "--json"))
    for run in runs:
        assert run.returncode in (0, 1), (run.args, run.returncode, run.stderr[-500:])
    after = {str(w): tree(w) for w in watched}
    changed = {}
    for folder in before:
        old, new = before[folder], after[folder]
        diff = sorted(p for p in set(old) | set(new) if old.get(p) != new.get(p))
        if diff:
            changed[folder] = diff
    mine = [
        p for p in changed.pop(str(tmp_path), []) if not p.startswith("logs")
    ]  # the fakes' own logs
    # envdoctor's cache: the compiled matrices, one JSON file per bundled table, the parsed
    # triage signatures (envdoctor.triage_engine.loader.CACHE_NAME) with their tables beside
    # them (the one .bin), the free-text reader's selectors (envdoctor.ingest.free_text.
    # SELECTOR_CACHE), the compiled regular expressions (envdoctor.regex_cache: one file for
    # this interpreter), and nothing else
    tables = {p.stem for p in (REPO / "matrices").glob("*.toml")} | {
        "triage-signatures",
        "triage-selectors",
    }
    cached = [p for p in mine if p.startswith("cache/")]
    regex_store = f"cache/envdoctor/regex/{sys.implementation.cache_tag}.bin"
    signature_tables = "cache/envdoctor/compiled/triage-signatures.bin"
    assert regex_store in cached and signature_tables in cached, cached
    entries = [
        p
        for p in cached
        if p not in ("cache/envdoctor", "cache/envdoctor/compiled", "cache/envdoctor/regex")
        and p not in (regex_store, signature_tables)
    ]
    assert entries and all(
        p.startswith("cache/envdoctor/compiled/")
        and p.endswith(".json")
        and p[len("cache/envdoctor/compiled/") : -len(".json")] in tables
        for p in entries
    ), entries
    assert [p for p in mine if p not in cached] == [
        "work/node.json"
    ]  # the report asked for, nothing
    # else in HOME, XDG, TMPDIR, cwd
    assert changed == {}  # the package folders
    assert list((tmp_path / "tmp").iterdir()) == []
    assert not (work / "x").exists()


def test_check_runs_read_only_commands(sandbox):
    tmp_path, env = sandbox
    run = envdoctor(env, tmp_path / "work", "check", "--json", "--deep")
    assert run.returncode in (0, 1), run.stderr[-500:]
    ran = commands_run(tmp_path)
    assert ran, "the fake tools were not asked anything"
    unexpected = [
        argv
        for argv in ran
        if argv not in READ_ONLY_COMMANDS
        and not (argv[:-1] in READ_ONLY_PREFIXES or argv[:2] in READ_ONLY_PREFIXES)
        and not is_own_probe_script(argv)
    ]
    assert unexpected == []
    # the first python3 on PATH is the inspected interpreter (README, "Which Python is inspected")
    assert any(is_own_probe_script(argv) for argv in ran)


def is_own_probe_script(argv: tuple[str, ...]) -> bool:
    """The target interpreter running one of envdoctor's own read-only probe scripts."""
    import envdoctor.target

    scripts = Path(envdoctor.target.__file__).resolve().parent
    return (
        len(argv) == 2
        and argv[0] in ("python3", "python")
        and Path(argv[1]).parent == scripts
        and argv[1].endswith(("_script.py", "interpreter_facts.py"))
    )


# -- pasted content -----------------------------------------------------------------------------------


def test_pasted_content_is_never_executed(sandbox):
    tmp_path, env = sandbox
    work = tmp_path / "work"
    mark = tmp_path / "PWNED"
    text = PAYLOADS.format(mark=mark)
    (work / "paste.txt").write_text(text)
    report = json.loads(envdoctor(env, work, "check", "--json").stdout)
    report["findings"].append(
        {
            "id": "nvidia.no-gpu",
            "severity": "error",
            "confidence": "high",
            "title": f"$(touch {mark})",
            "detail": f"`touch {mark}`",
            "evidence": [],
            "fixes": [
                {
                    "rank": 1,
                    "summary": "run this",
                    "commands": [f"touch {mark}", text],
                    "risk": "safe",
                }
            ],
        }
    )
    (work / "report.json").write_text(json.dumps(report))
    (work / "report.md").write_text(
        f"# envdoctor report\n\n```sh\ntouch {mark}\n```\n\n<!-- envdoctor-report-json\n"
        f"{json.dumps(report)}\nenvdoctor-report-json -->\n"
    )
    for log in (tmp_path / "logs").iterdir():
        log.unlink()
    for args in (
        ("triage", "paste.txt", "--json"),
        ("triage", "report.json"),
        ("triage", "report.md", "--format", "markdown"),
        ("fleet", "report.json", "report.md", "--json"),
    ):
        run = envdoctor(env, work, *args)
        assert run.returncode in (0, 1), (args, run.stderr[-500:])
    assert not mark.exists()
    assert commands_run(tmp_path) == []  # triage and fleet run no command at all


# -- failed writes ------------------------------------------------------------------------------------


@pytest.mark.parametrize("step", ["write", "fsync", "chmod", "replace"])
def test_failed_atomic_write_keeps_the_earlier_file(tmp_path, monkeypatch, step):
    target = tmp_path / "envdoctor-report.md"
    target.write_text("earlier report\n")

    def disk_full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    if step == "write":
        real_fdopen = os.fdopen

        class Full:
            def __init__(self, *args, **kwargs):
                self.handle = real_fdopen(*args, **kwargs)

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                self.handle.close()

            def write(self, text):
                self.handle.write(text[: len(text) // 2])
                disk_full()

        monkeypatch.setattr(atomic.os, "fdopen", Full)
    else:
        monkeypatch.setattr(atomic.os, step, disk_full)
    with pytest.raises(OSError):
        atomic.write_text_atomically(target, "new report\n" * 1000, mode=0o644)
    assert target.read_text() == "earlier report\n"
    assert [p.name for p in tmp_path.iterdir()] == [target.name]


def test_report_command_reports_a_failed_write(tmp_path, monkeypatch, capsys):
    from envdoctor import cli

    target = tmp_path / "node.md"
    target.write_text("earlier report\n")
    monkeypatch.setattr(
        atomic.os, "replace", lambda *a: (_ for _ in ()).throw(OSError(errno.EIO, "I/O error"))
    )
    code = cli.main(["report", "-o", str(target), "--timeout", "10"])
    assert code == 2
    assert "nothing was changed" in capsys.readouterr().err
    assert target.read_text() == "earlier report\n"
    assert [p.name for p in tmp_path.iterdir()] == ["node.md"]


def _namespace(*flags: str) -> list[str] | None:
    """`unshare FLAGS` when this machine allows it, else None."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return None
    probe = subprocess.run([unshare, *flags, "true"], capture_output=True, timeout=30)
    return [unshare, *flags] if probe.returncode == 0 else None


def test_read_only_folder_keeps_the_earlier_report(sandbox):
    tmp_path, env = sandbox
    prefix = [] if os.geteuid() != 0 else _namespace("-U")
    if prefix is None:
        pytest.skip("running as root without user namespaces: root writes into a read-only folder")
    folder = tmp_path / "reports"
    folder.mkdir()
    (folder / "node.md").write_text("earlier report\n")
    folder.chmod(0o555)
    try:
        run = envdoctor(
            env, tmp_path / "work", "report", "-o", str(folder / "node.md"), prefix=tuple(prefix)
        )
    finally:
        folder.chmod(0o755)
    assert run.returncode == 2 and "nothing was changed" in run.stderr, run.stderr[-500:]
    assert (folder / "node.md").read_text() == "earlier report\n"
    assert [p.name for p in folder.iterdir()] == ["node.md"]


def test_full_disk_keeps_the_earlier_report(sandbox):
    tmp_path, env = sandbox
    prefix = _namespace("-U", "-r", "-m")
    if prefix is None:
        pytest.skip("no user and mount namespaces here to mount a tiny tmpfs")
    disk = tmp_path / "disk"
    disk.mkdir()
    script = (
        f'mount -t tmpfs -o size=16k tmpfs "{disk}" || exit 99; printf "earlier report\\n" > "{disk}/node.md"; '
        f'"{sys.executable}" -m envdoctor report -o "{disk}/node.md"; echo "rc=$?"; cat "{disk}/node.md"; ls -a "{disk}"'
    )
    run = subprocess.run(
        [*prefix, "/bin/sh", "-c", script],
        env={**env, "PATH": "/usr/bin:/bin"},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    if "rc=" not in run.stdout:
        pytest.skip(f"cannot mount a tmpfs in a user namespace here: {run.stderr.strip()[:200]}")
    assert "rc=2" in run.stdout and "No space left on device" in run.stderr, (
        run.stdout,
        run.stderr[-500:],
    )
    listing = run.stdout.split("rc=2", 1)[1].split()
    assert listing[:2] == ["earlier", "report"] and sorted(listing[2:]) == [".", "..", "node.md"]
