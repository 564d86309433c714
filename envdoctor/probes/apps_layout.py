"""What an application checkout looks like on disk: which app a folder holds, its version, the
launch arguments its own settings files carry, and the Python environment it runs in.

Pure reading through the probe context (no command runs here). Layouts, from the apps' own trees:
- ComfyUI: `main.py`, `comfy/`, `comfyui_version.py` (`__version__ = "0.38.1"`); its venv in
  `venv/` or `.venv/`, or the Windows portable build's `../python_embeded/python.exe`.
- stable-diffusion-webui (and Forge): `launch.py`, `modules/`, `webui.sh` / `webui.bat`,
  `webui-user.sh` (`export COMMANDLINE_ARGS="..."`, `venv_dir=`) / `webui-user.bat`
  (`set COMMANDLINE_ARGS=...`, `set VENV_DIR=`); the venv defaults to `venv/`; the release in
  `CHANGELOG.md`'s first `## x.y.z` heading.
- text-generation-webui: `server.py`, `one_click.py`, `modules/`; its installer's conda env in
  `installer_files/env`; flags in `user_data/CMD_FLAGS.txt` (older: `CMD_FLAGS.txt`).
- llama.cpp: `ggml/` with `build/bin/llama-server` or `llama-cli` (see apps_llamacpp).
- TorchServe: a `config.properties` (see apps_torchserve).
"""

from __future__ import annotations

import re
import shlex
from typing import Any

from envdoctor.probes.context import ProbeContext

_VERSION_PY = re.compile(r"""^__version__\s*=\s*["']([^"']+)["']""", re.MULTILINE)
_PYPROJECT_VERSION = re.compile(r"""^version\s*=\s*["']([^"']+)["']""", re.MULTILINE)
_CHANGELOG = re.compile(r"^##\s+v?(\d+\.\d+(?:\.\d+)?)\b", re.MULTILINE)
_SH_ARGS = re.compile(
    r"""^\s*(?:export\s+)?COMMANDLINE_ARGS=(?P<value>"[^"]*"|'[^']*'|\S*)\s*(?:#.*)?$"""
)
_SH_VENV = re.compile(r"""^\s*(?:export\s+)?venv_dir=(?P<value>"[^"]*"|'[^']*'|\S*)""")
_BAT_SET = re.compile(
    r"""^\s*set\s+"?(?P<name>COMMANDLINE_ARGS|VENV_DIR)=(?P<value>[^"\r\n]*)"?\s*$""", re.IGNORECASE
)


def join(folder: str, *parts: str) -> str:
    """`folder/part/...` with single slashes."""
    return "/".join([folder.rstrip("/")] + [p.strip("/") for p in parts])


def identify(ctx: ProbeContext, folder: str) -> str | None:
    """The canonical name of the app checked out in `folder`, or None."""
    has = ctx.exists
    if has(join(folder, "main.py")) and ctx.is_dir(join(folder, "comfy")):
        return "comfyui"
    if (
        has(join(folder, "launch.py"))
        and ctx.is_dir(join(folder, "modules"))
        and any(
            has(join(folder, f))
            for f in ("webui.sh", "webui.bat", "webui-user.sh", "webui-user.bat", "webui.py")
        )
    ):
        return "webui"
    if (
        has(join(folder, "server.py"))
        and ctx.is_dir(join(folder, "modules"))
        and any(
            has(join(folder, f)) for f in ("one_click.py", "start_linux.sh", "start_windows.bat")
        )
    ):
        return "textgen"
    if ctx.is_dir(join(folder, "ggml")) and (
        ctx.is_dir(join(folder, "build")) or has(join(folder, "CMakeLists.txt"))
    ):
        return "llamacpp"
    if has(join(folder, "config.properties")):
        return "torchserve"
    return None


def version(ctx: ProbeContext, app: str, folder: str) -> tuple[str | None, str | None]:
    """(version, the file it came from) of a checkout, or (None, None)."""
    candidates: list[tuple[str, re.Pattern]] = []
    if app == "comfyui":
        candidates = [("comfyui_version.py", _VERSION_PY), ("pyproject.toml", _PYPROJECT_VERSION)]
    elif app == "webui":
        candidates = [("CHANGELOG.md", _CHANGELOG)]
    elif app == "textgen":
        candidates = [("pyproject.toml", _PYPROJECT_VERSION)]
    for name, pattern in candidates:
        text = ctx.read_text(join(folder, name), max_bytes=256 * 1024)
        match = pattern.search(text or "")
        if match:
            return match.group(1), name
    return None, None


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def _split(args: str) -> list[str]:
    try:
        return shlex.split(args)
    except ValueError:
        return args.split()


def _files(ctx: ProbeContext, folder: str, names: tuple[str, ...]) -> list[tuple[str, str]]:
    """(path, text) of the files of `names` that exist in `folder`, in that order."""
    out = []
    for name in names:
        path = join(folder, name)
        text = ctx.read_text(path, max_bytes=256 * 1024)
        if text is not None:
            out.append((path, text))
    return out


def launch_settings(ctx: ProbeContext, app: str, folder: str) -> dict[str, Any]:
    """What the app's own settings files say about how it starts: {launch_args, launch_file,
    launch_line, venv_dir}. The last active (uncommented) assignment wins, as in the shell."""
    out: dict[str, Any] = {
        "launch_args": None,
        "launch_file": None,
        "launch_line": None,
        "venv_dir": None,
    }
    if app == "webui":
        for path, text in _files(ctx, folder, ("webui-user.sh", "webui-user.bat")):
            args, line_seen, venv = _webui_assignments(text, path.endswith(".bat"))
            first = out["launch_file"] is None
            if first:
                out["launch_file"] = path
            if out["venv_dir"] is None:
                out["venv_dir"] = venv
            if line_seen is not None and (args or first):
                out.update(launch_args=args, launch_file=path, launch_line=line_seen)
            if args:
                break
        if out["launch_file"] is not None and out["launch_args"] is None:
            out["launch_args"] = []
    elif app == "textgen":
        for path, text in _files(ctx, folder, ("user_data/CMD_FLAGS.txt", "CMD_FLAGS.txt")):
            lines = [
                ln.strip()
                for ln in text.splitlines()
                if ln.strip() and not ln.lstrip().startswith("#")
            ]
            out.update(
                launch_args=_split(" ".join(lines)),
                launch_file=path,
                launch_line=" ".join(lines) or None,
            )
            break
    return out


def _webui_assignments(text: str, bat: bool) -> tuple[list[str], str | None, str | None]:
    """(COMMANDLINE_ARGS as a list, the line that set it, venv dir) of one webui-user file; the
    last active (uncommented) assignment wins, as in the shell."""
    args: list[str] = []
    line_seen = venv = None
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", "::")) or stripped.lower().startswith("rem "):
            continue
        if bat:
            match = _BAT_SET.match(line)
            if match and match.group("name").upper() == "VENV_DIR":
                venv = match.group("value").strip() or None
            elif match:
                args, line_seen = _split(match.group("value")), stripped
            continue
        match = _SH_ARGS.match(line)
        if match:
            args, line_seen = _split(_unquote(match.group("value"))), stripped
        match = _SH_VENV.match(line)
        if match:
            venv = _unquote(match.group("value")) or None
    return args, line_seen, venv


def venv_python(
    ctx: ProbeContext, app: str, folder: str, venv_dir: str | None = None
) -> str | None:
    """The interpreter the app runs in (a path on the target system), or None when none is there.

    A relative `venv_dir` (webui-user's venv_dir / VENV_DIR) is taken inside the checkout; "-"
    (webui's "use the system Python") gives None."""
    if venv_dir == "-":
        return None
    dirs: list[str] = []
    if venv_dir:
        dirs.append(
            venv_dir
            if venv_dir.startswith("/") or re.match(r"^[A-Za-z]:[\\/]", venv_dir)
            else join(folder, venv_dir)
        )
    if app == "textgen":
        dirs.append(join(folder, "installer_files", "env"))
    dirs += [join(folder, "venv"), join(folder, ".venv")]
    for env_dir in dirs:
        for exe in ("bin/python", "bin/python3", "Scripts/python.exe", "python.exe"):
            candidate = join(env_dir, exe)
            if ctx.exists(candidate):
                return candidate
    if (
        app == "comfyui"
    ):  # the Windows portable build: ComfyUI_windows_portable/{ComfyUI,python_embeded}
        parent = folder.rstrip("/").rsplit("/", 1)[0] or "/"
        candidate = join(parent, "python_embeded", "python.exe")
        if ctx.exists(candidate):
            return candidate
    return None
