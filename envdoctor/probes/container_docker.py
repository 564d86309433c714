"""The Docker daemon this user's `docker` would talk to, read through the Docker SDK.

Fills `container.docker`: the facts of `envdoctor.ingest.docker_info.facts_from_info` (server
version, runtimes and default runtime, CDI spec dirs and discovered CDI devices, cgroup driver
and version, rootless, Docker Desktop...) plus: state ("reachable", "not-running",
"permission-denied", "unresponsive", "error"), error (one line), host (the endpoint used),
host_source ("DOCKER_HOST", "context", "default"), context (name, when one is in use),
cli_path (the `docker` on PATH), snap (Docker installed as a snap), systemd (whether systemd
runs this machine, for the restart command).

The endpoint follows the CLI's rules: `DOCKER_HOST`, else `DOCKER_CONTEXT`, else the
`currentContext` of `$DOCKER_CONFIG/config.json` (`~/.docker`), whose endpoint is in
`contexts/meta/<sha256 of the name>/meta.json`. The SDK is imported lazily and every call has a
short timeout; without the SDK the probe runs `docker info --format '{{json .}}'`.
The group is absent only when nothing of Docker is here (no CLI, no dockerd, no socket, no
DOCKER_HOST or context).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from envdoctor.context import ProbeContext
from envdoctor.ingest import docker_info
from envdoctor.snapshot import FactGroup, absent, collected

GROUPS = ("container.docker",)
TIMEOUT_S = 8.0
API_TIMEOUT_S = 3.0
DEFAULT_HOST = "unix:///var/run/docker.sock"
SOURCE = "probe:container_docker"


@dataclass(frozen=True)
class Endpoint:
    """Where the Docker client would connect, and why."""

    host: str
    source: str  # "DOCKER_HOST", "context" or "default"
    context: str | None = None


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Describe the Docker daemon (or why it cannot be reached)."""
    endpoint = resolve_endpoint(ctx)
    cli = ctx.which("docker")
    dockerd = ctx.which("dockerd")
    socket = _socket_path(endpoint.host)
    socket_there = socket is not None and ctx.exists(socket)
    if cli is None and dockerd is None and not socket_there and endpoint.source == "default":
        return [
            absent(
                GROUPS[0],
                SOURCE,
                f"Docker is not installed: no docker or dockerd on PATH and no socket at {socket}",
            )
        ]
    base = {
        "host": endpoint.host,
        "host_source": endpoint.source,
        "context": endpoint.context,
        "cli_path": cli,
        "dockerd_path": dockerd,
        "snap": any(p is not None and p.startswith("/snap/") for p in (cli, dockerd)),
        "systemd": ctx.is_dir("/run/systemd/system"),
    }
    if socket is not None and not socket_there:
        facts = {"state": "not-running", "error": f"no Docker socket at {socket}"}
    else:
        facts = _query(ctx, endpoint, socket, cli)
    data = dict(facts)
    data.update({key: value for key, value in base.items() if key != "context"})
    if endpoint.context:
        data["context"] = endpoint.context
    data["rootless"] = bool(facts.get("rootless")) or endpoint.host.startswith("unix:///run/user/")
    data["docker_desktop"] = (
        bool(facts.get("docker_desktop"))
        or "/.docker/desktop/" in endpoint.host
        or bool(endpoint.context and endpoint.context.startswith("desktop-"))
    )
    return [collected(GROUPS[0], SOURCE, data, summary=docker_info.summarize(data))]


def resolve_endpoint(ctx: ProbeContext) -> Endpoint:
    """The daemon address the `docker` CLI would use for this environment."""
    host = ctx.env.get("DOCKER_HOST", "").strip()
    if host:
        return Endpoint(host, "DOCKER_HOST")
    name = ctx.env.get("DOCKER_CONTEXT", "").strip() or _current_context(ctx)
    if name and name != "default":
        meta = _context_meta(ctx, name)
        if meta:
            return Endpoint(meta, "context", name)
    return Endpoint(DEFAULT_HOST, "default", name or None)


def _query(
    ctx: ProbeContext, endpoint: Endpoint, socket: str | None, cli: str | None
) -> dict[str, Any]:
    """Ask the daemon for /info, through the SDK, else the CLI."""
    try:
        import docker  # noqa: F401 - lazy: only when a daemon may be there
    except ImportError:
        return _query_cli(ctx, endpoint, cli)
    base_url = endpoint.host
    if socket is not None and str(ctx.root) != "/":
        base_url = "unix://" + str(ctx.path(socket))
    return query_sdk(base_url, API_TIMEOUT_S)


def query_sdk(base_url: str, timeout_s: float) -> dict[str, Any]:
    """/info and /version of the daemon at `base_url` as `container.docker` facts; never raises."""
    import docker

    try:
        client = docker.APIClient(base_url=base_url, version="auto", timeout=timeout_s)
    except Exception as exc:  # noqa: BLE001 - the SDK wraps every transport error differently
        return _failure(exc, timeout_s)
    try:
        info = client.info()
        version = client.version()
    except Exception as exc:  # noqa: BLE001
        return _failure(exc, timeout_s)
    finally:
        client.close()
    facts = docker_info.facts_from_info(info)
    if isinstance(version, dict):
        facts["api_version"] = version.get("ApiVersion")
        facts["server_version"] = facts.get("server_version") or version.get("Version")
    return facts


def _query_cli(ctx: ProbeContext, endpoint: Endpoint, cli: str | None) -> dict[str, Any]:
    if cli is None:
        return {
            "state": "error",
            "error": "the docker Python SDK is not installed and no docker CLI is on PATH",
        }
    result = ctx.run(
        [cli, "--host", endpoint.host, "info", "--format", "{{json .}}"],
        timeout_s=API_TIMEOUT_S + 2,
    )
    text = (result.stdout or "").strip()
    if text.startswith("{"):
        try:
            info = json.loads(text)
        except json.JSONDecodeError:
            info = None
        if isinstance(info, dict) and info.get("ServerVersion"):
            return docker_info.facts_from_info(info)
    return classify_error(result.stderr or result.error or text)


def _failure(exc: Exception, timeout_s: float) -> dict[str, Any]:
    return classify_error(f"{type(exc).__name__}: {exc}", timeout_s)


def classify_error(message: str, timeout_s: float | None = None) -> dict[str, Any]:
    """A connection error as a state and a one-line reason."""
    text = " ".join(str(message).split())[:300]
    lowered = text.lower()
    if "permission denied" in lowered:
        state = "permission-denied"
    elif "timed out" in lowered or "timeout" in lowered:
        state = "unresponsive"
        if timeout_s is not None:
            text = f"the daemon did not answer within {timeout_s:g} s ({text[:160]})"
    elif any(
        s in lowered
        for s in (
            "connection refused",
            "no such file",
            "cannot connect",
            "is the docker daemon running",
            "filenotfounderror",
        )
    ):
        state = "not-running"
    else:
        state = "error"
    return {"state": state, "error": text}


def _socket_path(host: str) -> str | None:
    return host[len("unix://") :] if host.startswith("unix://") else None


def _docker_config_dir(ctx: ProbeContext) -> str | None:
    configured = ctx.env.get("DOCKER_CONFIG", "").strip()
    if configured:
        return configured
    home = ctx.env.get("HOME", "").strip()
    return f"{home.rstrip('/')}/.docker" if home else None


def _current_context(ctx: ProbeContext) -> str | None:
    folder = _docker_config_dir(ctx)
    text = ctx.read_text(f"{folder}/config.json") if folder else None
    if not text:
        return None
    try:
        config = json.loads(text)
    except json.JSONDecodeError:
        return None
    name = config.get("currentContext") if isinstance(config, dict) else None
    return str(name) if name else None


def _context_meta(ctx: ProbeContext, name: str) -> str | None:
    folder = _docker_config_dir(ctx)
    if not folder:
        return None
    import hashlib  # only when a docker context is named (its import costs ~3 ms)

    digest = hashlib.sha256(name.encode()).hexdigest()
    text = ctx.read_text(f"{folder}/contexts/meta/{digest}/meta.json")
    if not text:
        return None
    try:
        meta = json.loads(text)
        host = meta["Endpoints"]["docker"]["Host"]
    except (json.JSONDecodeError, KeyError, TypeError):
        return None
    return str(host) if host else None
