"""Tool lists cached per server; servers started only when one of their tools is needed."""

from __future__ import annotations

import sys
from pathlib import Path

import anyio
import pytest
from mcp_helpers import BROKEN, call, children, demo_config

from hands.core.session import Session
from hands.discovery.deferral import DeferringSource
from hands.mcp.config import McpSettings, parse_server
from hands.mcp.manager import McpManager
from hands.mcp.source import McpToolSource
from hands.mcp.tool_cache import ToolListCache, config_key
from hands.mcp.tools import McpToolDef

SETTINGS = McpSettings(startup_timeout_s=20)


async def fill_cache(cache: ToolListCache, *configs: object) -> None:
    manager = McpManager(configs, settings=SETTINGS, tool_cache=cache)  # type: ignore[arg-type]
    async with manager:
        await manager.wait_ready()
        assert all(s.state == "connected" for s in manager.status())


def test_cache_round_trip_and_key(tmp_path: Path) -> None:
    cache = ToolListCache(tmp_path)
    config = demo_config()
    assert cache.load(config) is None
    tool = McpToolDef(name="echo", description="Echo.", input_schema={"type": "object"})
    cache.store(config, [tool])
    assert cache.load(config) == [tool]
    other = demo_config("demo", "--marker", str(tmp_path))
    assert config_key(other) != config_key(config)
    assert cache.load(other) is None
    cache.store(other, [tool])  # the server's new config replaces its old list
    assert not cache.path(config).exists() and cache.path(other).exists()
    cache.invalidate(other)
    assert cache.load(other) is None


@pytest.mark.slow
def test_lazy_server_starts_only_when_selected(tmp_path: Path) -> None:
    cache = ToolListCache(tmp_path / "cache")
    config = demo_config()

    async def go() -> None:
        await fill_cache(cache, config)
        assert cache.load(config)
        before = children()
        manager = McpManager([config], settings=SETTINGS, tool_cache=cache)
        source = DeferringSource(McpToolSource(manager, base=[]), mode="true")
        assert source.active
        manager.start(lazy=True)
        session = Session(home=tmp_path)
        manager.attach(session)
        try:
            await anyio.sleep(0.5)
            assert children() == before  # no server process
            assert "mcp__demo__echo" not in source.current_pool().names
            assert {t.name for t in source.pending_tools()} >= {"mcp__demo__echo"}
            status = manager.status()[0]
            assert status.state == "pending" and "not started" in status.error
            assert source.waiting_servers() == []
            out = source.search_tool().search("select:mcp__demo__echo")  # type: ignore[attr-defined]
            assert out.names == ("mcp__demo__echo",)
            with anyio.fail_after(20):
                while children() == before:
                    await anyio.sleep(0.05)
            outcome = await call(source, "mcp__demo__echo", {"text": "hi"}, session=session)
            assert outcome.block.content == "hi"
            assert manager.status()[0].state == "connected"
        finally:
            await session.aclose()

    anyio.run(go)


@pytest.mark.slow
def test_a_call_starts_a_lazy_server_and_waits(tmp_path: Path) -> None:
    cache = ToolListCache(tmp_path / "cache")
    config = demo_config()

    async def go() -> None:
        await fill_cache(cache, config)
        before = children()
        manager = McpManager([config], settings=SETTINGS, tool_cache=cache)
        source = DeferringSource(McpToolSource(manager, base=[]), mode="true")
        manager.start(lazy=True)
        try:
            assert children() == before
            outcome = await call(source, "mcp__demo__add", {"a": 2, "b": 3})
            assert '"result": 5' in str(outcome.block.content) or "5" in str(outcome.block.content)
            assert children() != before
        finally:
            await manager.aclose()

    anyio.run(go)


def test_changed_config_is_a_cache_miss(tmp_path: Path) -> None:
    cache = ToolListCache(tmp_path)
    config = demo_config()
    cache.store(config, [McpToolDef(name="echo")])
    changed = demo_config("demo", "--marker", str(tmp_path))
    manager = McpManager([changed], settings=SETTINGS, tool_cache=cache)
    assert manager.tools() == []  # nothing known: the server must start to list its tools
    same = McpManager([config], settings=SETTINGS, tool_cache=cache)
    assert [t.name for t in same.tools()] == ["mcp__demo__echo"]


def test_not_lazy_when_tools_are_not_all_deferred(tmp_path: Path) -> None:
    cache = ToolListCache(tmp_path)
    config = parse_server(
        "demo", {"command": sys.executable, "args": ["-c", "pass"], "alwaysLoad": True}, env={}
    )
    cache.store(config, [McpToolDef(name="echo")])

    async def go() -> None:
        manager = McpManager([config], settings=SETTINGS, tool_cache=cache)
        manager.start(lazy=True)
        try:
            assert not manager.connections["demo"].idle  # alwaysLoad: started at once
        finally:
            await manager.aclose()

    anyio.run(go)


def test_failed_start_invalidates_the_cache(tmp_path: Path) -> None:
    cache = ToolListCache(tmp_path)
    config = parse_server("broken", {"command": sys.executable, "args": [str(BROKEN)]}, env={})
    cache.store(config, [McpToolDef(name="echo")])

    async def go() -> None:
        manager = McpManager([config], settings=SETTINGS, tool_cache=cache)
        assert [t.name for t in manager.tools()] == ["mcp__broken__echo"]
        manager.start(lazy=True)
        assert manager.connections["broken"].idle
        manager.warm(["mcp__broken__echo"])
        try:
            await manager.wait_ready(["broken"], limit=20)
            assert manager.status()[0].state == "failed"
            assert cache.load(config) is None
            assert manager.tools() == []
        finally:
            await manager.aclose()

    anyio.run(go)
