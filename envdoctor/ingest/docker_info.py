"""Reader of `docker info`: the text form, `docker info --format '{{json .}}'` and the raw
`GET /info` API body.

`facts_from_info(info)` turns the daemon's JSON into the `container.docker` facts; the live probe
(`envdoctor.probes.container_docker`) uses the same function, so a pasted capture and a live
daemon give the same facts. `parse_text` reads the human form into the same keys.

Keys (all optional except `state`): state ("reachable" when the daemon answered; "not-running" /
"permission-denied" when the paste shows the client's error), server_version, os_type,
operating_system, kernel_version, runtimes (sorted names), runtime_paths ({name: path}, JSON
only), default_runtime, cdi_spec_dirs (list, engines >= 25), cdi_devices (fully qualified CDI
names the engine discovered, API >= 1.50), cgroup_driver, cgroup_version, storage_driver,
security_options (names: "apparmor", "seccomp", "rootless", "cgroupns"...), rootless (bool),
docker_desktop (bool), context (the client's context, when the paste shows it), error.
"""

from __future__ import annotations

import json
import re
from typing import Any

from envdoctor.model.snapshot import Confidence, FactGroup, collected

NAME = "docker-info"
# detect() accepts only texts holding one of these (JSON key, text labels, the client's "Server:")
MARKERS = (
    '"ServerVersion"',
    "Server Version:",
    "Runtimes:",
    "Default Runtime:",
    "Storage Driver:",
    "Cgroup Driver:",
    "Server:",
)
GROUP = "container.docker"

_TEXT_MARKERS = (
    "Server Version:",
    "Runtimes:",
    "Default Runtime:",
    "Storage Driver:",
    "Cgroup Driver:",
)
_NOT_RUNNING = re.compile(
    r"Cannot connect to the Docker daemon at (\S+?)\.? Is the docker daemon running\?"
)
_PERMISSION = re.compile(
    r"permission denied while trying to connect to the Docker daemon socket at (\S+?)[:\s]"
)


def detect(text: str) -> bool:
    """Whether `text` holds a `docker info` capture (text, JSON, or the client's error)."""
    stripped = text.lstrip()
    if stripped.startswith("{") and '"ServerVersion"' in text and '"Runtimes"' in text:
        return True
    hits = sum(1 for marker in _TEXT_MARKERS if re.search(rf"^\s*{re.escape(marker)}", text, re.M))
    if hits >= 2:
        return True
    return bool(
        re.search(r"^Server:\s*$", text, re.M)
        and (_NOT_RUNNING.search(text) or _PERMISSION.search(text))
    )


def read(text: str) -> list[FactGroup]:
    """The `container.docker` group from a pasted capture (empty when nothing is recognised)."""
    data = parse(text)
    if data is None:
        return []
    return [
        collected(
            GROUP,
            f"pasted:{NAME}",
            data,
            summary=summarize(data),
            confidence=Confidence.MEDIUM,
            raw={NAME: text[:20000]},
        )
    ]


def parse(text: str) -> dict[str, Any] | None:
    """Facts from any form of `docker info`, or None."""
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            obj = json.loads(stripped)
        except (json.JSONDecodeError, RecursionError):  # RecursionError: nested too deeply
            obj = None
        if isinstance(obj, dict):
            return facts_from_info(obj)
    if not detect(text):
        return None
    return parse_text(text)


def facts_from_info(info: dict[str, Any]) -> dict[str, Any]:
    """`container.docker` facts from the daemon's /info JSON (API body or `--format '{{json .}}'`)."""
    runtimes = info.get("Runtimes") or {}
    names = sorted(runtimes) if isinstance(runtimes, dict) else []
    paths = (
        {
            name: str(spec.get("path"))
            for name, spec in runtimes.items()
            if isinstance(spec, dict) and spec.get("path")
        }
        if isinstance(runtimes, dict)
        else {}
    )
    security = [_security_name(s) for s in info.get("SecurityOptions") or [] if isinstance(s, str)]
    labels = [str(label) for label in info.get("Labels") or []]
    data: dict[str, Any] = {
        "state": "reachable",
        "server_version": _text(info.get("ServerVersion")),
        "os_type": _text(info.get("OSType")),
        "operating_system": _text(info.get("OperatingSystem")),
        "kernel_version": _text(info.get("KernelVersion")),
        "runtimes": names,
        "runtime_paths": paths,
        "default_runtime": _text(info.get("DefaultRuntime")),
        "cgroup_driver": _text(info.get("CgroupDriver")),
        "cgroup_version": _text(info.get("CgroupVersion")),
        "storage_driver": _text(info.get("Driver")),
        "security_options": security,
        "rootless": "rootless" in security,
    }
    if "CDISpecDirs" in info:
        data["cdi_spec_dirs"] = [str(d) for d in info.get("CDISpecDirs") or []]
    if "DiscoveredDevices" in info:
        data["cdi_devices"] = sorted(
            str(d.get("ID"))
            for d in info.get("DiscoveredDevices") or []
            if isinstance(d, dict) and d.get("Source") == "cdi" and d.get("ID")
        )
    client = info.get("ClientInfo")
    if isinstance(client, dict) and client.get("Context"):
        data["context"] = str(client["Context"])
    data["docker_desktop"] = is_docker_desktop(
        data.get("operating_system"), labels, data.get("context")
    )
    return {key: value for key, value in data.items() if value is not None}


def parse_text(text: str) -> dict[str, Any]:
    """`container.docker` facts from the human-readable `docker info`."""
    lines = text.splitlines()
    data: dict[str, Any] = {}
    blocks = _blocks(lines)
    scalar = {
        "Server Version": "server_version",
        "OSType": "os_type",
        "Operating System": "operating_system",
        "Kernel Version": "kernel_version",
        "Default Runtime": "default_runtime",
        "Cgroup Driver": "cgroup_driver",
        "Cgroup Version": "cgroup_version",
        "Storage Driver": "storage_driver",
        "Context": "context",
    }
    for key, (value, _children) in blocks.items():
        if key in scalar and value:
            data[scalar[key]] = value
    if "Runtimes" in blocks:
        data["runtimes"] = sorted(blocks["Runtimes"][0].split())
    if "Security Options" in blocks:
        value, children = blocks["Security Options"]
        names = value.split() if value else [c.strip() for c, depth in children if depth == 0]
        data["security_options"] = [n for n in names if n]
        data["rootless"] = "rootless" in data["security_options"]
    if "CDI spec directories" in blocks:
        data["cdi_spec_dirs"] = [
            c.strip() for c, depth in blocks["CDI spec directories"][1] if depth == 0
        ]
    if "Discovered Devices" in blocks:
        found = []
        for child, depth in blocks["Discovered Devices"][1]:
            source, _, ident = child.strip().partition(":")
            if depth == 0 and source.strip() == "cdi" and ident.strip():
                found.append(ident.strip())
        data["cdi_devices"] = sorted(found)
    labels = [c.strip() for c, depth in blocks.get("Labels", ("", []))[1] if depth == 0]
    refused = _NOT_RUNNING.search(text)
    denied = _PERMISSION.search(text)
    if data.get("server_version") or data.get("runtimes"):
        data["state"] = "reachable"
    elif denied:
        data.update(state="permission-denied", host=denied.group(1), error=denied.group(0).strip())
    elif refused:
        data.update(state="not-running", host=refused.group(1), error=refused.group(0).strip())
    else:
        data["state"] = "reachable"
    if data["state"] == "reachable":
        data["docker_desktop"] = is_docker_desktop(
            data.get("operating_system"), labels, data.get("context")
        )
    return data


def is_docker_desktop(operating_system: str | None, labels: list[str], context: str | None) -> bool:
    """Whether the engine is Docker Desktop's VM (its OS name, its labels, or its context)."""
    if operating_system and operating_system.strip() == "Docker Desktop":
        return True
    if any(label.startswith("com.docker.desktop.") for label in labels):
        return True
    return bool(context and context.startswith("desktop-"))


def summarize(data: dict[str, Any]) -> str:
    """One line for people: "Docker 28.0.0 reachable, runtimes: nvidia, runc"."""
    state = data.get("state")
    if state != "reachable":
        return f"Docker daemon {state}" + (f" at {data['host']}" if data.get("host") else "")
    parts = [f"Docker {data.get('server_version') or '?'}"]
    if data.get("docker_desktop"):
        parts.append("(Docker Desktop)")
    if data.get("rootless"):
        parts.append("(rootless)")
    if data.get("runtimes"):
        parts.append("runtimes: " + ", ".join(data["runtimes"]))
    if data.get("cgroup_driver"):
        parts.append(
            f"cgroup {data['cgroup_driver']}"
            + (f" v{data['cgroup_version']}" if data.get("cgroup_version") else "")
        )
    return ", ".join(parts)


def _blocks(lines: list[str]) -> dict[str, tuple[str, list[tuple[str, int]]]]:
    """Top-level `Key: value` entries of the server part, each with its indented children.

    Indentation varies by version (1.12 has none; 20.10+ indents the server part by one space),
    so a child's depth is counted from the shallowest child of its key (0 = directly under it).
    The client part is skipped except for its `Context:` line. A key seen twice keeps its first
    occurrence.
    """
    out: dict[str, tuple[str, list[tuple[str, int]]]] = {}
    current: tuple[str, int] | None = None
    in_client = False
    for raw in lines:
        if not raw.strip():
            continue
        indent = len(raw) - len(raw.lstrip(" "))
        text = raw.strip()
        if indent == 0 and (text in ("Client:", "Server:") or raw.startswith("Client: ")):
            in_client = text.startswith("Client")
            current = None
            continue
        if text.startswith(("WARNING:", "ERROR:")):
            current = None
            continue
        if current is not None and indent > current[1]:
            out[current[0]][1].append((text, indent))
            continue
        current = None
        match = re.match(r"^([A-Za-z][A-Za-z0-9 ()._-]*?):(?:\s(.*))?$", text)
        if not match:
            continue
        key, value = match.group(1), (match.group(2) or "").strip()
        if (in_client and key != "Context") or key in out:
            continue
        out[key] = (value, [])
        current = (key, indent)
    normalised: dict[str, tuple[str, list[tuple[str, int]]]] = {}
    for key, (value, children) in out.items():
        first = min((depth for _, depth in children), default=0)
        normalised[key] = (value, [(child, depth - first) for child, depth in children])
    return normalised


def _security_name(option: str) -> str:
    """ "name=seccomp,profile=builtin" -> "seccomp"; a bare name stays as it is."""
    first = option.split(",", 1)[0]
    return first.split("=", 1)[1] if first.startswith("name=") else first


def _text(value: Any) -> str | None:
    return None if value in (None, "") else str(value)
