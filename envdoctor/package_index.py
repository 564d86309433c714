"""Where the user's installers download from, and fix commands that keep using it.

Many users (most in mainland China) point pip, uv and conda at a mirror: a `pip.conf` with
`index-url = https://pypi.tuna.tsinghua.edu.cn/simple`, `PIP_INDEX_URL`, `UV_DEFAULT_INDEX`, a
`.condarc` whose channels are mirror URLs. A fix command that hard-codes another index silently
overrides that choice, and one that needs PyTorch's own wheel index (download.pytorch.org, which
PyPI mirrors do not copy) must say so. The probe `installer_config` fills the fact group
`python.index_config` with `IndexConfig.to_dict()`; `adapt_commands` rewrites a fix's commands:

- pip with `--index-url https://download.pytorch.org/whl/…` (or `-i`): the PyTorch index stays the
  index torch comes from, and the user's mirror is added as `--extra-index-url`, so torch's
  dependencies (numpy, …) keep coming from it; a note says the PyTorch index must be reachable.
- pip with `--index-url https://pypi.org/simple`: the override is dropped (pip.conf applies).
- uv does not read pip.conf: with a pip mirror and no uv index configured, `uv pip install` gets
  `--index-url MIRROR` (and a PyTorch index is passed as `--extra-index-url`, which uv searches
  first); with a uv index configured, nothing is added.
- conda `-c URL` on `conda.anaconda.org`/`repo.anaconda.com` becomes the channel's name when the
  user's `.condarc` sets `channel_alias`, `custom_channels` or mirror `default_channels`, so conda
  resolves it through the mirror.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from envdoctor.model.findings import Finding, Fix
from envdoctor.model.snapshot import Snapshot

PYPI_HOSTS = ("pypi.org", "pypi.python.org", "files.pythonhosted.org")
PYTORCH_INDEX_HOST = "download.pytorch.org"
ANACONDA_HOSTS = ("conda.anaconda.org", "repo.anaconda.com", "anaconda.org")
GROUP = "python.index_config"


@dataclass(frozen=True)
class IndexConfig:
    """The package sources the user configured (empty: the tools' defaults).

    `pip_index_url` / `pip_extra_index_urls`: from PIP_INDEX_URL / PIP_EXTRA_INDEX_URL, else
    the pip configuration files (site > user > global, [install] over [global]); `uv_index_url`
    / `uv_extra_index_urls`: UV_DEFAULT_INDEX / UV_INDEX_URL / UV_INDEX / UV_EXTRA_INDEX_URL or
    uv.toml; `conda_channels`, `conda_channel_alias`, `conda_custom_channels`,
    `conda_default_channels`: from .condarc; `sources`: the files and variables read."""

    pip_index_url: str | None = None
    pip_extra_index_urls: tuple[str, ...] = ()
    uv_index_url: str | None = None
    uv_extra_index_urls: tuple[str, ...] = ()
    conda_channels: tuple[str, ...] = ()
    conda_channel_alias: str | None = None
    conda_custom_channels: Mapping[str, str] = field(default_factory=dict)
    conda_default_channels: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()

    @property
    def pip_mirror(self) -> str | None:
        """The pip index when it is not PyPI itself (a mirror or a private index)."""
        url = self.pip_index_url
        return url if url and not _is_host(url, PYPI_HOSTS) else None

    @property
    def uv_mirror(self) -> str | None:
        url = self.uv_index_url
        return url if url and not _is_host(url, PYPI_HOSTS) else None

    @property
    def conda_mirrored(self) -> bool:
        """Whether .condarc sends channel names to a mirror."""
        urls = [
            self.conda_channel_alias or "",
            *self.conda_custom_channels.values(),
            *self.conda_default_channels,
            *self.conda_channels,
        ]
        return any(
            u.startswith(("http://", "https://", "file:")) and not _is_host(u, ANACONDA_HOSTS)
            for u in urls
        )

    def to_dict(self) -> dict[str, Any]:
        """The fact group's data."""
        return {
            "pip_index_url": self.pip_index_url,
            "pip_extra_index_urls": list(self.pip_extra_index_urls),
            "uv_index_url": self.uv_index_url,
            "uv_extra_index_urls": list(self.uv_extra_index_urls),
            "conda_channels": list(self.conda_channels),
            "conda_channel_alias": self.conda_channel_alias,
            "conda_custom_channels": dict(self.conda_custom_channels),
            "conda_default_channels": list(self.conda_default_channels),
            "sources": list(self.sources),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> IndexConfig:
        """From the fact group's data (None or malformed parts: the defaults)."""
        data = data or {}

        def strings(key: str) -> tuple[str, ...]:
            value = data.get(key) or []
            return tuple(str(v) for v in value) if isinstance(value, list) else ()

        def text(key: str) -> str | None:
            value = data.get(key)
            return str(value) if value else None

        custom = data.get("conda_custom_channels") or {}
        return cls(
            text("pip_index_url"),
            strings("pip_extra_index_urls"),
            text("uv_index_url"),
            strings("uv_extra_index_urls"),
            strings("conda_channels"),
            text("conda_channel_alias"),
            {str(k): str(v) for k, v in custom.items()} if isinstance(custom, Mapping) else {},
            strings("conda_default_channels"),
            strings("sources"),
        )

    def summary(self) -> str:
        """One line for people."""
        parts = []
        if self.pip_index_url:
            parts.append(f"pip index {self.pip_index_url}")
        if self.uv_index_url:
            parts.append(f"uv index {self.uv_index_url}")
        if self.conda_mirrored:
            parts.append("conda channels from a mirror")
        return ", ".join(parts) or "installers use their default indexes"


@dataclass(frozen=True)
class Adapted:
    """A fix's commands after adapting them, and what the user should know about them."""

    commands: tuple[str, ...]
    notes: tuple[str, ...] = ()
    needs_pytorch_index: bool = False


NOTE_PYTORCH_INDEX = (
    "This needs PyTorch's own wheel index (https://download.pytorch.org/whl/): PyPI mirrors "
    "do not copy it. If it is slow or blocked here, download the wheel elsewhere and install "
    "the file, or use a mirror of download.pytorch.org that you trust."
)


def mirror_note(mirror: str) -> str:
    """The note on a fix that keeps the user's index beside the PyTorch one."""
    return f"Your configured package index ({mirror}) is kept for the other packages."


def adapt_commands(commands: Sequence[str], config: IndexConfig | None) -> Adapted:
    """`commands` rewritten to keep the user's configured index or channels (see the module
    docstring); commands that are not pip/uv/conda installs pass unchanged. Never raises."""
    config = config or IndexConfig()
    out: list[str] = []
    notes: list[str] = []
    needs_torch = False
    for command in commands:
        try:
            # a Windows interpreter path first (.\python_embeded\python.exe) is read with forward
            # slashes: POSIX quoting would drop its backslashes as escapes
            program, space, rest = command.partition(" ")
            words = shlex.split(program.replace("\\", "/") + space + rest)
        except ValueError:
            out.append(command)
            continue
        tool = _installer(words)
        if tool is None:
            out.append(command)
            continue
        if tool == "conda":
            out.append(_join(_adapt_conda(words, config)))
            continue
        new_words, torch_index = _adapt_pip(words, config, tool)
        needs_torch = needs_torch or torch_index
        out.append(_join(new_words) if new_words != words else command)
        if torch_index:
            mirror = config.pip_mirror if tool == "pip" else (config.uv_mirror or config.pip_mirror)
            if mirror:
                note = mirror_note(mirror)
                if note not in notes:
                    notes.append(note)
    if needs_torch:
        notes.insert(0, NOTE_PYTORCH_INDEX)
    return Adapted(tuple(out), tuple(notes), needs_torch)


def _installer(words: list[str]) -> str | None:
    """ "pip", "uv" or "conda" when the command installs packages, else None."""
    rest = [w for w in words if w != "sudo"]
    if not rest:
        return None
    head = rest[0].rsplit("/", 1)[-1].lower()
    if head.startswith("python") or head == "py":  # python -m pip install …
        if len(rest) > 3 and rest[1] == "-m" and rest[2] == "pip" and rest[3] == "install":
            return "pip"
        return None
    if head in ("pip", "pip3") and "install" in rest[1:3]:
        return "pip"
    if head == "uv" and len(rest) > 2 and rest[1] == "pip" and rest[2] == "install":
        return "uv"
    if head == "uv" and len(rest) > 1 and rest[1] in ("add", "sync"):
        return "uv"
    if (
        head in ("conda", "mamba", "micromamba")
        and len(rest) > 1
        and rest[1] in ("install", "create", "update")
    ):
        return "conda"
    return None


def _adapt_pip(words: list[str], config: IndexConfig, tool: str) -> tuple[list[str], bool]:
    """(new words, whether the command uses the PyTorch index)."""
    index: str | None = None
    kept: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        if word in ("--index-url", "-i") and i + 1 < len(words):
            index = words[i + 1]
            i += 2
            continue
        if word.startswith("--index-url="):
            index = word.split("=", 1)[1]
            i += 1
            continue
        kept.append(word)
        i += 1
    extras = [kept[j + 1] for j, w in enumerate(kept[:-1]) if w == "--extra-index-url"]
    torch_index = any(_is_host(u, (PYTORCH_INDEX_HOST,)) for u in [index or "", *extras])
    mirror = config.pip_mirror if tool == "pip" else (config.uv_mirror or None)
    uv_needs_pip_mirror = tool == "uv" and not config.uv_index_url and config.pip_mirror
    if index is None:
        if uv_needs_pip_mirror:  # uv does not read pip.conf
            return [*kept, "--index-url", str(config.pip_mirror)], torch_index
        return words, torch_index
    if _is_host(index, PYPI_HOSTS):  # a plain "use PyPI" override: let the configuration decide
        if uv_needs_pip_mirror:
            return [*kept, "--index-url", str(config.pip_mirror)], torch_index
        return kept, torch_index
    if not _is_host(index, (PYTORCH_INDEX_HOST,)):
        return words, torch_index  # someone else's index on purpose: keep as written
    if tool == "uv":
        user = config.uv_mirror or (None if config.uv_index_url else config.pip_mirror)
        if user is None:
            return words, True
        # uv searches --extra-index-url before --index-url: torch comes from the PyTorch index
        return [*kept, "--index-url", user, "--extra-index-url", index], True
    if mirror is None:
        return words, True
    return [*kept, "--index-url", index, "--extra-index-url", mirror], True


def _adapt_conda(words: list[str], config: IndexConfig) -> list[str]:
    if not config.conda_mirrored:
        return words
    out: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        if word in ("-c", "--channel") and i + 1 < len(words):
            out += [word, _channel_name(words[i + 1])]
            i += 2
            continue
        out.append(word)
        i += 1
    return out


def _channel_name(channel: str) -> str:
    """`https://conda.anaconda.org/pytorch` -> `pytorch` (resolved through the user's alias)."""
    if _is_host(channel, ("conda.anaconda.org",)):
        return channel.rstrip("/").rsplit("/", 1)[-1]
    return channel


def _is_host(url: str, hosts: Sequence[str]) -> bool:
    rest = url.split("://", 1)[-1]
    host = rest.split("/", 1)[0].split("@")[-1].split(":")[0].lower()
    return any(host == h or host.endswith("." + h) for h in hosts)


def _join(words: list[str]) -> str:
    return " ".join(shlex.quote(w) for w in words)


def fix_with_user_index(fix: Fix, config: IndexConfig) -> Fix:
    """`fix` whose pip/uv/conda commands keep the user's index; the notes (the PyTorch index
    needed, the mirror kept) are added to its stated assumptions."""
    if not fix.commands:
        return fix
    adapted = adapt_commands(fix.commands, config)
    if adapted.commands == fix.commands and not adapted.notes:
        return fix
    notes = tuple(n for n in adapted.notes if n not in fix.assumptions)
    return replace(fix, commands=adapted.commands, assumptions=fix.assumptions + notes)


def keep_user_index(findings: list[Finding], snap: Snapshot) -> list[Finding]:
    """Every finding's fixes adapted to the installer configuration in `snap` (the group
    `python.index_config`; without it the commands only gain the PyTorch-index note)."""
    group = snap.group(GROUP)
    config = IndexConfig.from_dict(group.data if group is not None and group.collected else None)
    out = []
    for finding in findings:
        fixes = tuple(fix_with_user_index(f, config) for f in finding.fixes)
        out.append(finding if fixes == finding.fixes else replace(finding, fixes=fixes))
    return out
