"""`envdoctor mcp`: a Model Context Protocol server over stdio, for coding assistants.

Tools: check, triage, explain, fit, preflight. All are read-only (nothing is installed,
changed or started: preflight judges and never runs a command) and their reports are redacted
unless the caller passes `redact=False`. Needs the optional extra: `pip install 'envdoctor[mcp]'`
(the MCP Python SDK, https://github.com/modelcontextprotocol/python-sdk, 2.x).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any

INSTRUCTIONS = (
    "envdoctor diagnoses GPU/ML environments: drivers, CUDA, PyTorch builds, containers, "
    "WSL, ROCm. Use `check` for this machine, `triage` for an error message or log the user "
    "pasted, `explain` for a finding id, `fit` for whether a model fits in GPU memory, "
    "`preflight` to test requirements such as 'gpu' or 'torch>=2.4'. Reports are redacted."
)


def _document(report: Any, redact: bool) -> dict[str, Any]:
    """A report's JSON document, redacted unless asked otherwise."""
    from envdoctor import api

    return (api.redacted(report) if redact else report).to_dict()


def check(python: str | None = None, redact: bool = True) -> dict[str, Any]:
    """Diagnose this machine (`envdoctor check --json`): ranked findings with fixes, and the facts
    of every layer. `python` names the interpreter to inspect (default: the active environment)."""
    from envdoctor import api

    return _document(api.check(python), redact)


def triage(text: str, redact: bool = True) -> dict[str, Any]:
    """Diagnose pasted text: an error message, a traceback, a log, `nvidia-smi` or
    `python -m torch.utils.collect_env` output, or an envdoctor report."""
    from envdoctor import api

    return _document(api.triage(text), redact)


def explain(finding_id: str) -> str:
    """The help page of a finding id, e.g. `torch.cpu-build-on-gpu-host`."""
    from envdoctor import api

    return api.explain(finding_id)


def fit(
    params: str,
    dtype: str = "bf16",
    task: str = "inference",
    gpu: str | None = None,
    vram_gib: float | None = None,
    gpus: int = 1,
) -> dict[str, Any]:
    """Whether a model of `params` parameters (e.g. "7B") fits for `task` (inference, full,
    lora, qlora) in `dtype` on `gpu` (a GPU name) or `vram_gib`, else on this machine's GPU."""
    from envdoctor.cli import build_parser
    from envdoctor.commands import UsageError
    from envdoctor.commands import fit as fit_command

    argv = ["fit", "--params", params, "--dtype", dtype, "--task", task, "--gpus", str(gpus)]
    if gpu:
        argv += ["--gpu", gpu]
    if vram_gib is not None:
        argv += ["--vram", repr(float(vram_gib))]
    try:
        outcome = fit_command.run(build_parser("fit").parse_args(argv + ["--format", "json"]))
    except UsageError as exc:
        raise ValueError(str(exc)) from None
    if not outcome.stdout.strip():
        raise ValueError(outcome.stderr.strip() or "fit produced no result")
    result: dict[str, Any] = json.loads(outcome.stdout)
    if outcome.stderr.strip():
        result["note"] = outcome.stderr.strip()
    return result


def preflight(
    requirements: list[str], python: str | None = None, redact: bool = True
) -> dict[str, Any]:
    """Judge requirements on this machine ("gpu", "torch>=2.4", "vram>=24", "cuda>=12.1",
    "app:comfyui", ...): each one met or not, why, and the likely cause with its fix. Starts no
    command."""
    from envdoctor import api
    from envdoctor.commands.report import machine_identifiers
    from envdoctor.render.redact import redact_document

    document = api.preflight(requirements, python=python).document
    if redact:
        import os

        users, hosts = machine_identifiers(os.environ)
        document, _ = redact_document(document, users, hosts)
    return document


def build_server() -> Any:
    """The MCP server with envdoctor's tools registered (read-only hints on each)."""
    from mcp.server.mcpserver import MCPServer
    from mcp_types import ToolAnnotations

    from envdoctor import __version__

    server = MCPServer(name="envdoctor", version=__version__, instructions=INSTRUCTIONS)
    read_only = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)
    for function in (check, triage, explain, fit, preflight):
        server.tool(annotations=read_only)(_usage_errors_to_the_model(function))
    return server


def _usage_errors_to_the_model(function: Callable[..., Any]) -> Callable[..., Any]:
    """Bad arguments (ValueError, with the command line's one-line message) reach the assistant
    as a tool error it can act on; anything else stays a generic crash, logged on the server."""
    from mcp.server.mcpserver.exceptions import ToolError

    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except ValueError as exc:
            raise ToolError(str(exc)) from None

    return call


def serve() -> None:
    """Serve over stdin/stdout until the client closes the stream."""
    build_server().run("stdio")
