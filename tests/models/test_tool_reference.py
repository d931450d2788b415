"""Deferred tools with the Anthropic API: sent flagged, loaded by tool_reference."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hands import QueryOptions, build_tool, query
from hands.agent.events import QueryEvent, ResultEvent
from hands.core.schema import ToolInput
from hands.core.tool import Tool, ToolSpec
from hands.discovery.deferral import DeferringSource
from hands.models.anthropic import AnthropicModel, tools_to_wire
from hands.models.retry import RetryPolicy
from models.loopback import LoopbackServer, sse_reply
from models.wire import a_end, a_start, a_text, a_tool

pytestmark = pytest.mark.anyio


class Ping(ToolInput):
    target: str


def fake_mcp_tool(name: str, description: str) -> Tool[Any, Any]:
    async def call(inp: Ping, ctx: Any, progress: Any) -> str:
        return f"{name} pinged {inp.target}"

    return build_tool(
        name=name,
        description=description,
        input_model=Ping,
        call=call,
        read_only=True,
        concurrency_safe=True,
        should_defer=True,
    )


def tools() -> list[Tool[Any, Any]]:
    return [
        fake_mcp_tool("mcp__net__ping_host", "Send an ICMP ping to a host and report latency."),
        fake_mcp_tool("mcp__net__trace_route", "Trace the network route to a host."),
        fake_mcp_tool("mcp__time__now", "The current time in a time zone."),
    ]


def test_breakpoint_goes_on_the_last_loaded_tool() -> None:
    specs = [
        ToolSpec(name="Read", description="", input_schema={}),
        ToolSpec(name="ToolSearch", description="", input_schema={}),
        ToolSpec(name="mcp__a__x", description="", input_schema={}, defer_loading=True),
    ]
    wire = tools_to_wire(specs)
    assert wire[1]["cache_control"] == {"type": "ephemeral"}
    assert "cache_control" not in wire[2] and wire[2]["defer_loading"] is True
    assert "defer_loading" not in wire[0]


async def test_found_tools_load_by_reference_and_the_tool_list_never_changes(
    server: LoopbackServer, tmp_path: Path
) -> None:
    server.queue(
        sse_reply(
            a_start(),
            *a_tool(0, "toolu_search", "ToolSearch", '{"query": "select:mcp__net__ping_host"}'),
            *a_end("tool_use"),
        )
    )
    server.queue(
        sse_reply(
            a_start(),
            *a_tool(0, "toolu_ping", "mcp__net__ping_host", '{"target": "example.org"}'),
            *a_end("tool_use"),
        )
    )
    server.queue(sse_reply(a_start(), *a_text(0, "Pinged."), *a_end()))
    model = server.adopt(
        AnthropicModel(
            "claude-sonnet-4-6",
            api_key="k",
            base_url=server.url,
            retry=RetryPolicy(max_retries=0, initial_delay=0.01),
        )
    )
    source = DeferringSource(tools(), mode="true", facts=model.facts)
    events: list[QueryEvent] = [
        e
        async for e in query(
            "ping example.org", QueryOptions(model=model, tools=source, cwd=tmp_path)
        )
    ]
    final = events[-1]
    assert isinstance(final, ResultEvent)
    assert final.subtype == "success", final.error
    bodies = [r.body for r in server.requests]
    assert len(bodies) == 3
    names = [[t["name"] for t in b["tools"]] for b in bodies]
    # every request sends the same tools in the same order: loaded first, deferred after
    assert (
        names[0]
        == names[1]
        == names[2]
        == [
            "ToolSearch",
            "mcp__net__ping_host",
            "mcp__net__trace_route",
            "mcp__time__now",
        ]
    )
    flags = [bool(t.get("defer_loading")) for t in bodies[2]["tools"]]
    assert flags == [False, True, True, True]
    assert bodies[2]["tools"][0]["cache_control"] == {"type": "ephemeral"}
    # the search result names the tool; the API expands it into its definition
    # (after the results, a reminder lists the tools still deferred)
    result = bodies[1]["messages"][-2]["content"][0]
    assert result["type"] == "tool_result" and result["tool_use_id"] == "toolu_search"
    assert {"type": "tool_reference", "tool_name": "mcp__net__ping_host"} in result["content"]
    ping = next(
        block
        for message in bodies[2]["messages"]
        for block in message["content"]
        if block.get("tool_use_id") == "toolu_ping"
    )
    assert ping["tool_use_id"] == "toolu_ping"
    assert "mcp__net__ping_host pinged example.org" in str(ping["content"])
