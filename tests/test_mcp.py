"""`envdoctor mcp` end to end: the MCP SDK's own client starts the server over stdio, lists the
tools, and calls each of them."""

from __future__ import annotations

import json
import sys

import pytest

mcp = pytest.importorskip("mcp")


async def _session(calls: list[tuple[str, dict]]) -> tuple[list, list]:
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(command=sys.executable, args=["-m", "envdoctor", "mcp"])
    async with Client(params) as client:
        tools = (await client.list_tools()).tools
        results = [
            await client.call_tool(name, args, read_timeout_seconds=120) for name, args in calls
        ]
    return tools, results


def text_of(result) -> str:  # noqa: ANN001
    return "".join(part.text for part in result.content if getattr(part, "type", "") == "text")


def test_round_trip_over_stdio():
    import anyio

    calls = [
        ("explain", {"finding_id": "nvidia.no-gpu"}),
        (
            "triage",
            {
                "text": "RuntimeError: CUDA error: no kernel image is available for "
                "execution on the device\nuser alice on host gpubox-17 token "
                "hf_abcdefghijklmnopqrstuvwxyz0123456789"
            },
        ),
        ("check", {}),
        ("fit", {"params": "7B", "dtype": "bf16", "task": "inference", "vram_gib": 24}),
        ("preflight", {"requirements": ["gpu"]}),
        ("explain", {"finding_id": "no.such-id"}),
    ]
    tools, results = anyio.run(_session, calls)
    names = {tool.name for tool in tools}
    assert names == {"check", "triage", "explain", "fit", "preflight"}
    assert all(tool.annotations.read_only_hint for tool in tools)

    explain, triage, check, fit, preflight, unknown = results
    assert not explain.is_error and "No NVIDIA GPU" in text_of(explain)

    triaged = json.loads(text_of(triage))
    assert triaged["kind"] == "triage" and triaged["findings"]
    assert "hf_abcdefghijklmnopqrstuvwxyz0123456789" not in text_of(triage)  # redacted

    checked = json.loads(text_of(check))
    assert checked["kind"] == "check" and "python" in checked["snapshot"]["groups"]

    fitted = json.loads(text_of(fit))
    assert fitted["fits"] is True

    judged = json.loads(text_of(preflight))
    assert judged["kind"] == "preflight" and judged["ok"] is False  # no GPU on this machine
    assert judged["starts_command"] is False

    assert unknown.is_error and "no finding id" in text_of(unknown)
