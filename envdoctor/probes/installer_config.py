"""The package sources pip, uv and conda are configured to use (mirrors, private indexes).

Read from the environment and the tools' configuration files, never by running the tools (pip
config list starts an interpreter; conda config starts a slow one). Fills `python.index_config`
with `envdoctor.package_index.IndexConfig.to_dict()`.

Sources, as documented by each tool: pip (pip.pypa.io, "Configuration"): PIP_CONFIG_FILE, the
global files /etc/pip.conf and /etc/xdg/pip/pip.conf, the user files ~/.config/pip/pip.conf and
~/.pip/pip.conf, the site file $VIRTUAL_ENV/pip.conf, later ones overriding earlier ones, the
[install] section over [global], and PIP_INDEX_URL / PIP_EXTRA_INDEX_URL over all files. uv
(docs.astral.sh/uv, "Configuration files", "Environment variables"): /etc/uv/uv.toml,
~/.config/uv/uv.toml, UV_DEFAULT_INDEX / UV_INDEX_URL / UV_INDEX / UV_EXTRA_INDEX_URL. conda
(docs.conda.io, "Using the .condarc conda configuration file"): /etc/conda/.condarc,
~/.conda/.condarc, ~/.condarc, $CONDA_PREFIX/.condarc, $CONDARC.
"""

from __future__ import annotations

import configparser

from envdoctor.model.snapshot import FactGroup, collected
from envdoctor.package_index import GROUP, IndexConfig
from envdoctor.probes.context import ProbeContext

GROUPS = (GROUP,)
TIMEOUT_S = 2.0


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """One group: the configured indexes and channels (empty when none are configured)."""
    env = ctx.env
    home = env.get("HOME", "")
    sources: list[str] = []

    pip_index: str | None = None
    pip_extra: tuple[str, ...] = ()
    pip_files = ["/etc/pip.conf", "/etc/xdg/pip/pip.conf"]
    if home:
        pip_files += [f"{home}/.pip/pip.conf", f"{home}/.config/pip/pip.conf"]
    if env.get("VIRTUAL_ENV"):
        pip_files.append(f"{env['VIRTUAL_ENV']}/pip.conf")
    if env.get("PIP_CONFIG_FILE") and env["PIP_CONFIG_FILE"] != "os.devnull":
        pip_files.append(env["PIP_CONFIG_FILE"])
    for path in pip_files:
        text = ctx.read_text(path)
        if text is None:
            continue
        index, extra = _pip_file(text)
        if index or extra:
            sources.append(path)
        pip_index = index or pip_index
        pip_extra = extra or pip_extra
    if env.get("PIP_INDEX_URL"):
        pip_index = env["PIP_INDEX_URL"]
        sources.append("PIP_INDEX_URL")
    if env.get("PIP_EXTRA_INDEX_URL"):
        pip_extra = tuple(env["PIP_EXTRA_INDEX_URL"].split())
        sources.append("PIP_EXTRA_INDEX_URL")

    uv_index: str | None = None
    uv_extra: tuple[str, ...] = ()
    uv_files = ["/etc/uv/uv.toml"]
    xdg = env.get("XDG_CONFIG_HOME") or (f"{home}/.config" if home else "")
    if xdg:
        uv_files.append(f"{xdg}/uv/uv.toml")
    for path in uv_files:
        text = ctx.read_text(path)
        if text is None:
            continue
        index, extra = _uv_file(text)
        if index or extra:
            sources.append(path)
        uv_index = index or uv_index
        uv_extra = extra or uv_extra
    for name in ("UV_INDEX_URL", "UV_DEFAULT_INDEX"):
        if env.get(name):
            uv_index = (
                env[name].split("=", 1)[-1] if "=" in env[name].split("://")[0] else env[name]
            )
            sources.append(name)
    for name in ("UV_EXTRA_INDEX_URL", "UV_INDEX"):
        if env.get(name):
            uv_extra = tuple(env[name].split())
            sources.append(name)

    conda: dict[str, object] = {}
    conda_files = ["/etc/conda/.condarc"]
    if home:
        conda_files += [f"{home}/.conda/.condarc", f"{home}/.condarc"]
    if env.get("CONDA_PREFIX"):
        conda_files.append(f"{env['CONDA_PREFIX']}/.condarc")
    if env.get("CONDARC"):
        conda_files.append(env["CONDARC"])
    for path in conda_files:
        text = ctx.read_text(path)
        if text is None:
            continue
        found = condarc(text)
        if found:
            sources.append(path)
            conda.update(found)

    config = IndexConfig(
        pip_index,
        tuple(pip_extra),
        uv_index,
        tuple(uv_extra),
        tuple(_strings(conda.get("channels"))),
        str(conda["channel_alias"]) if conda.get("channel_alias") else None,
        {str(k): str(v) for k, v in dict(conda.get("custom_channels") or {}).items()},  # type: ignore[call-overload]
        tuple(_strings(conda.get("default_channels"))),
        tuple(sources),
    )
    return [collected(GROUP, "config files", config.to_dict(), summary=config.summary())]


def _strings(value: object) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def _pip_file(text: str) -> tuple[str | None, tuple[str, ...]]:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(text)
    except configparser.Error:
        return None, ()
    index: str | None = None
    extra: tuple[str, ...] = ()
    for section in ("global", "install"):  # [install] applies to pip install, over [global]
        if not parser.has_section(section):
            continue
        for key in ("index-url", "index_url", "i"):
            if parser.has_option(section, key):
                index = parser.get(section, key).strip() or index
        for key in ("extra-index-url", "extra_index_url"):
            if parser.has_option(section, key):
                extra = tuple(parser.get(section, key).split()) or extra
    return index, extra


def _uv_file(text: str) -> tuple[str | None, tuple[str, ...]]:
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None, ()
    data = data.get("pip", {}) | data if isinstance(data.get("pip"), dict) else data
    index = data.get("index-url") or data.get("default-index")
    extra = list(data.get("extra-index-url") or [])
    for entry in data.get("index") or []:
        if isinstance(entry, dict) and entry.get("url"):
            if entry.get("default"):
                index = entry["url"]
            else:
                extra.append(entry["url"])
    return (str(index) if index else None), tuple(str(e) for e in extra)


def condarc(text: str) -> dict[str, object]:
    """The keys envdoctor needs from a .condarc (a YAML subset: top-level scalars, lists of
    scalars, and one level of mapping), without a YAML library. Unknown shapes are skipped."""
    found: dict[str, object] = {}
    key: str | None = None
    for raw in text.splitlines():
        line = raw.split(" #", 1)[0].rstrip()
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line.startswith((" ", "\t", "-")):
            name, _, value = line.partition(":")
            key = name.strip()
            value = value.strip().strip("'\"")
            if value.startswith("[") and value.endswith("]"):
                found[key] = [v.strip().strip("'\"") for v in value[1:-1].split(",") if v.strip()]
            elif value:
                found[key] = value
            continue
        if key is None:
            continue
        item = line.strip()
        if item.startswith("- "):
            current = found.setdefault(key, [])
            if isinstance(current, list):
                current.append(item[2:].strip().strip("'\""))
        elif ":" in item:
            name, _, value = item.partition(":")
            current = found.setdefault(key, {})
            if isinstance(current, dict):
                current[name.strip()] = value.strip().strip("'\"")
    return {
        k: v
        for k, v in found.items()
        if k in ("channels", "channel_alias", "custom_channels", "default_channels")
    }
