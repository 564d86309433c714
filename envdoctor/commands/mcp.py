"""`envdoctor mcp`: serve envdoctor's tools to coding assistants over MCP (stdio)."""

from __future__ import annotations

import argparse

from envdoctor.commands import Outcome, UsageError


def add_parser(subparsers) -> None:  # noqa: ANN001
    """Register `mcp`."""
    subparsers.add_parser(
        "mcp",
        help="serve check/triage/explain/fit/preflight to coding assistants (MCP over stdio)",
        description=(
            "Run a Model Context Protocol server on stdin/stdout with read-only tools: check, "
            "triage, explain, fit, preflight (reports redacted by default). Needs the optional "
            "extra: pip install 'envdoctor[mcp]'."
        ),
    )


def run(args: argparse.Namespace) -> Outcome:
    """Serve until the client closes stdin."""
    try:
        import mcp.server.mcpserver  # noqa: F401 - only to say clearly when the extra is missing
    except ImportError:
        raise UsageError("envdoctor mcp needs the MCP SDK: pip install 'envdoctor[mcp]'") from None
    from envdoctor.mcp_server import serve

    serve()
    return Outcome()
