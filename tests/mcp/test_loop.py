"""MCP tools in the agent loop: the first request is not held up by a connecting server,
a call to its tool waits for it, and its tools show up on the next turn."""

from __future__ import annotations

import time
from pathlib import Path

import anyio
from mcp_helpers import demo_config, run_query

from hands.mcp.config import McpSettings
from hands.mcp.manager import McpManager
from hands.mcp.source import McpToolSource
from hands.models.scripted import ScriptedModel


def test_query_with_a_server_still_connecting(tmp_path: Path) -> None:
    async def go() -> None:
        model = ScriptedModel.from_turns(
            [{"type": "tool_use", "name": "mcp__slow__echo", "input": {"text": "through"}}],
            [{"type": "text", "text": "done"}],
        )
        slow = demo_config("slow", "--slow-start", "1.5")
        async with McpManager([slow], settings=McpSettings(startup_timeout_s=15)) as manager:
            source = McpToolSource(manager, base=[])
            started = time.perf_counter()
            final, results = await run_query(model, source, tmp_path)
            assert final.subtype == "success"
            first, second = model.requests
            assert not any(t.name.startswith("mcp__") for t in first.tools)
            assert "mcp__slow__echo" in {t.name for t in second.tools}
            assert [r.content for r in results] == ["through"]
            assert time.perf_counter() - started >= 1.4

    anyio.run(go)
