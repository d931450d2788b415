"""Servers that come late, change their tools, or go away and come back, with real servers.

- a tool of a server that finished connecting during the model's turn is found;
- a tool added by ``notifications/tools/list_changed`` is found by an instant next turn;
- ``alwaysLoad`` servers and ``MCP_CONNECTION_NONBLOCKING=0`` hold the first request
  (up to ``MCP_CONNECT_TIMEOUT_MS``);
- a streamable-HTTP server restarted mid-session (HTTP 404 for the old session id) is
  initialised anew and the call sent again; one down at the start or for a while is
  retried for the whole session and its tools come back.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import anyio
from mcp_helpers import HttpDemo, call, demo_config, run_query

from hands.mcp.config import McpSettings, parse_server
from hands.mcp.manager import McpManager
from hands.mcp.source import McpToolSource
from hands.models.scripted import ScriptedModel

FAST = McpSettings(startup_timeout_s=20, reconnect_cap_s=0.5)


def test_a_tool_of_a_server_that_connected_during_the_turn_is_found(tmp_path: Path) -> None:
    async def go() -> None:
        model = ScriptedModel.from_turns(
            # the model takes longer than the server's start: by the time the call
            # arrives the server is connected, but the request's pool did not list it
            [
                {
                    "type": "tool_use",
                    "name": "mcp__slow__echo",
                    "input": {"text": "late"},
                    "delay_ms": 9000,
                }
            ],
            [{"type": "text", "text": "done"}],
        )
        async with McpManager([demo_config("slow", "--slow-start", "3")], settings=FAST) as m:
            source = McpToolSource(m, base=[])
            final, results = await run_query(model, source, tmp_path)
            first = model.requests[0]
            assert "mcp__slow__echo" not in {t.name for t in first.tools}
            assert m.status()[0].state == "connected"
            assert [r.content for r in results] == ["late"], results
            assert final.subtype == "success"

    anyio.run(go)


def test_a_tool_added_by_list_changed_is_found_by_an_instant_next_turn(tmp_path: Path) -> None:
    async def go() -> None:
        model = ScriptedModel.from_turns(
            [{"type": "tool_use", "name": "mcp__demo__grow", "input": {}}],
            [{"type": "tool_use", "name": "mcp__demo__extra", "input": {"x": 4}}],
            [{"type": "text", "text": "done"}],
        )
        async with McpManager([demo_config()], settings=FAST) as manager:
            await manager.wait_ready()
            source = McpToolSource(manager, base=[])
            _, results = await run_query(model, source, tmp_path)
            assert [r.content for r in results] == ["grown", "8"], results
            assert "mcp__demo__extra" in source.current_pool().names

    anyio.run(go)


def test_a_connected_server_without_the_tool_still_says_no_such_tool(tmp_path: Path) -> None:
    async def go() -> None:
        async with McpManager([demo_config()], settings=FAST) as manager:
            await manager.wait_ready()
            out = await call(McpToolSource(manager, base=[]), "mcp__demo__nothing", {})
            assert out.is_error and "There is no tool named mcp__demo__nothing" in out.block.text

    anyio.run(go)


def _first_request_tools(model: ScriptedModel) -> set[str]:
    return {t.name for t in model.requests[0].tools}


def test_always_load_servers_are_waited_for_before_the_first_request(tmp_path: Path) -> None:
    async def go() -> None:
        slow = demo_config("slow", "--slow-start", "3", alwaysLoad=True)
        other = demo_config("other", "--slow-start", "30")
        settings = McpSettings(startup_timeout_s=40, connect_wait_s=20)
        model = ScriptedModel.from_turns([{"type": "text", "text": "hi"}])
        async with McpManager([slow, other], settings=settings) as manager:
            started = time.perf_counter()
            await run_query(model, McpToolSource(manager, base=[]), tmp_path)
            waited = time.perf_counter() - started
            names = _first_request_tools(model)
            assert "mcp__slow__echo" in names
            assert not any(n.startswith("mcp__other__") for n in names)
            assert 2.9 <= waited < 20  # the alwaysLoad server, not the other one

    anyio.run(go)


def test_nonblocking_off_waits_for_every_server_up_to_the_connect_timeout(tmp_path: Path) -> None:
    async def go() -> None:
        settings = McpSettings.from_env(
            {"MCP_CONNECTION_NONBLOCKING": "0", "MCP_CONNECT_TIMEOUT_MS": "1500"}
        )
        assert not settings.nonblocking and settings.connect_wait_s == 1.5
        never = demo_config("never", "--slow-start", "30")
        model = ScriptedModel.from_turns([{"type": "text", "text": "hi"}])
        async with McpManager([demo_config(), never], settings=settings) as manager:
            started = time.perf_counter()
            await run_query(model, McpToolSource(manager, base=[]), tmp_path)
            waited = time.perf_counter() - started
            names = _first_request_tools(model)
            assert "mcp__demo__echo" in names or manager.connections["demo"].state != "connected"
            assert not any(n.startswith("mcp__never__") for n in names)
            assert 1.4 <= waited < 4  # bounded by MCP_CONNECT_TIMEOUT_MS

    anyio.run(go)


def test_the_default_does_not_hold_the_first_request(tmp_path: Path) -> None:
    async def go() -> None:
        model = ScriptedModel.from_turns([{"type": "text", "text": "hi"}])
        async with McpManager([demo_config("slow", "--slow-start", "3")], settings=FAST) as m:
            await run_query(model, McpToolSource(m, base=[]), tmp_path)
            assert m.status()[0].state == "pending"
            assert not any(n.startswith("mcp__") for n in _first_request_tools(model))

    anyio.run(go)


def _remote(url: str) -> Any:
    return parse_server("remote", {"type": "http", "url": url}, env={})


async def _until(check: Any, seconds: float = 20) -> None:
    with anyio.fail_after(seconds):
        while not check():
            await anyio.sleep(0.05)


def _with_server(body: Any, *, running: bool = True) -> None:
    """``body(server, manager, source)`` with a manager for the loopback HTTP demo server."""

    async def go() -> None:
        server = HttpDemo()
        if running:
            await server.start()
        try:
            async with McpManager([_remote(server.url)], settings=FAST) as manager:
                await manager.wait_ready()
                await body(server, manager, McpToolSource(manager, base=[]))
        finally:
            await server.stop()

    anyio.run(go)


def test_a_restarted_http_server_gets_a_new_session_and_the_call_goes_through() -> None:
    async def body(server: HttpDemo, manager: McpManager, source: McpToolSource) -> None:
        first = await call(source, "mcp__remote__pid", {})
        assert not first.is_error, first.block.text
        await server.stop()
        await server.start()  # same port, a new process that never saw the session
        second = await call(source, "mcp__remote__pid", {})
        assert not second.is_error, second.block.text
        assert second.block.text != first.block.text
        assert manager.status()[0].state == "connected"
        third = await call(source, "mcp__remote__echo", {"text": "still"})
        assert third.block.text == "still"

    _with_server(body)


def test_an_http_server_that_goes_away_is_retried_and_its_tools_come_back() -> None:
    async def body(server: HttpDemo, manager: McpManager, source: McpToolSource) -> None:
        assert not (await call(source, "mcp__remote__echo", {"text": "a"})).is_error
        await server.stop()
        down = await call(source, "mcp__remote__echo", {"text": "b"})
        assert down.is_error
        assert 'MCP server "remote"' in down.block.text
        # a later call while it is down: unavailable, with the attempt number
        await _until(lambda: manager.connections["remote"].retrying)
        later = await call(source, "mcp__remote__echo", {"text": "c"})
        assert later.is_error
        assert "unavailable (reconnecting, attempt" in later.block.text, later.block.text
        status = manager.status()[0]
        assert status.state == "reconnecting" and "reconnecting (attempt" in status.error
        # its tools stay listed meanwhile, and work again once it is back
        assert "mcp__remote__echo" in source.current_pool().names
        await server.start()
        await _until(lambda: manager.status()[0].state == "connected")
        back = await call(source, "mcp__remote__echo", {"text": "d"})
        assert back.block.text == "d"

    _with_server(body)


def test_an_http_server_down_at_the_start_is_retried_for_the_whole_session() -> None:
    async def body(server: HttpDemo, manager: McpManager, source: McpToolSource) -> None:
        status = manager.status()[0]
        assert status.state == "failed"
        assert server.url in status.error
        assert "mcp__remote__echo" not in source.current_pool().names
        await _until(lambda: manager.connections["remote"].attempt >= 3)
        out = await call(source, "mcp__remote__echo", {"text": "x"})
        assert out.is_error
        assert "unavailable (reconnecting, attempt" in out.block.text, out.block.text
        await server.start()
        await _until(lambda: manager.status()[0].state == "connected")
        assert "mcp__remote__echo" in source.current_pool().names
        back = await call(source, "mcp__remote__echo", {"text": "y"})
        assert back.block.text == "y"

    _with_server(body, running=False)
