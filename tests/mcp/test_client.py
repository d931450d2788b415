"""The MCP client against real stdio servers: tools, results, progress, lifecycle."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp_helpers import BROKEN, alive, call, children, demo_config

from hands.core.messages import ImageBlock, TextBlock
from hands.core.session import Session
from hands.mcp.config import McpSettings, parse_server
from hands.mcp.manager import McpManager
from hands.mcp.source import McpToolSource
from hands.mcp.tools import McpTool

FAST = McpSettings(startup_timeout_s=15)


def source_for(manager: McpManager) -> McpToolSource:
    return McpToolSource(manager, base=[])


def test_tools_results_and_flags_through_the_pipeline(tmp_path: Path) -> None:
    async def go() -> None:
        session = Session(home=tmp_path)
        async with McpManager([demo_config()], settings=FAST) as manager:
            await manager.wait_ready()
            source = source_for(manager)
            pool = source.current_pool()
            names = set(pool.names)
            assert {"mcp__demo__echo", "mcp__demo__add", "mcp__demo__picture"} <= names
            # resources → the two resource tools are offered
            assert {"ListMcpResourcesTool", "ReadMcpResourceTool"} <= names
            echo = pool.find("mcp__demo__echo")
            assert isinstance(echo, McpTool)
            parsed = echo.parse_input({"text": "x"})
            assert echo.is_read_only(parsed) and echo.is_concurrency_safe(parsed)
            assert echo.input_schema["required"] == ["text"]
            remove = pool.find("mcp__demo__remove")
            assert remove is not None
            parsed = remove.parse_input({"path": "a"})
            assert remove.is_destructive(parsed) and not remove.is_read_only(parsed)
            assert not remove.is_concurrency_safe(parsed)

            out = await call(source, "mcp__demo__echo", {"text": "hello"}, session=session)
            assert not out.is_error and out.block.content == "hello"

            missing = await call(source, "mcp__demo__echo", {}, session=session)
            assert missing.is_error and "text" in missing.block.text

            added = await call(source, "mcp__demo__add", {"a": 2, "b": 3}, session=session)
            assert json.loads(added.block.text) == {"sum": 5}
            assert added.output.structured == {"sum": 5}

            only = await call(source, "mcp__demo__structured_only", {}, session=session)
            assert json.loads(only.block.text) == {"answer": 42}

            pic = await call(source, "mcp__demo__picture", {}, session=session)
            assert isinstance(pic.block.content, tuple)
            kinds = [type(b) for b in pic.block.content]
            assert kinds == [TextBlock, ImageBlock]

            emb = await call(source, "mcp__demo__embedded", {}, session=session)
            assert "inline body" in emb.block.text and "memo://inline" in emb.block.text

            bad = await call(source, "mcp__demo__fail", {"reason": "nope"}, session=session)
            assert bad.is_error and "failed: nope" in bad.block.text

            seen: list[Any] = []
            prog = await call(
                source, "mcp__demo__steps", {"count": 3}, session=session, progress=seen.append
            )
            assert prog.block.text == "did 3 steps"
            assert [str(p) for p in seen] == ["step 1 (1/3)", "step 2 (2/3)", "step 3 (3/3)"]

            listed = await call(source, "ListMcpResourcesTool", {}, session=session)
            items = json.loads(listed.block.text)
            assert {i["uri"] for i in items} == {"memo://readme", "memo://dot.png"}
            read = await call(
                source,
                "ReadMcpResourceTool",
                {"server": "demo", "uri": "memo://readme"},
                session=session,
            )
            assert read.block.content == "hello from the demo server"
            png = await call(
                source,
                "ReadMcpResourceTool",
                {"server": "demo", "uri": "memo://dot.png"},
                session=session,
            )
            assert isinstance(png.block.content, tuple)
            assert isinstance(png.block.content[0], ImageBlock)
            nope = await call(
                source, "ReadMcpResourceTool", {"server": "other", "uri": "x"}, session=session
            )
            assert nope.is_error and "demo" in nope.block.text

    anyio.run(go)


def test_output_over_the_cap_is_spilled_and_an_image_is_sent_once_uncut(tmp_path: Path) -> None:
    async def go() -> None:
        session = Session(home=tmp_path)
        settings = McpSettings(startup_timeout_s=15, max_output_tokens=1000)
        async with McpManager([demo_config()], settings=settings) as manager:
            await manager.wait_ready()
            source = source_for(manager)
            out = await call(
                source, "mcp__demo__big", {"chars": 9000}, session=session, tool_use_id="toolu_big"
            )
            text = out.block.text
            assert "<persisted-output>" in text and "MAX_MCP_OUTPUT_TOKENS" in text
            saved = session.directory / "tool-results" / "toolu_big.txt"
            assert saved.read_text().startswith("0123456789")
            assert len(saved.read_text()) == 9000
            small = await call(source, "mcp__demo__big", {"chars": 100}, session=session)
            assert "<persisted-output>" not in small.block.text
            # an image whose structuredContent repeats it: sent once, never cut
            for padding in (0, 300_000):  # 300 kB: far over the 1,000-token cap as base64
                out = await call(source, "mcp__demo__media", {"padding": padding}, session=session)
                assert not out.is_error
                blocks = out.block.content
                assert isinstance(blocks, tuple) and [type(b) for b in blocks] == [ImageBlock]
                image = blocks[0]
                assert isinstance(image, ImageBlock) and image.media_type == "image/png"
                assert len(image.data) > padding * 4 // 3
                assert "truncated" not in out.block.text and image.data not in out.block.text

    anyio.run(go)


def test_permissions_apply_to_mcp_tools(tmp_path: Path) -> None:
    async def go() -> None:
        async with McpManager([demo_config()], settings=FAST) as manager:
            await manager.wait_ready()
            source = source_for(manager)
            # read-only MCP tools are still not approved by default: nobody to ask → denied
            out = await call(source, "mcp__demo__echo", {"text": "x"}, mode="default")
            assert out.is_error and out.status == "rejected"
            plan = await call(source, "mcp__demo__remove", {"path": "x"}, mode="plan")
            assert plan.is_error and "plan mode" in plan.block.text

    anyio.run(go)


def test_cancellation_sends_mcp_cancel(tmp_path: Path) -> None:
    async def go() -> None:
        config = demo_config("demo", "--marker", str(tmp_path))
        async with McpManager([config], settings=FAST) as manager:
            await manager.wait_ready()
            source = source_for(manager)
            with anyio.move_on_after(0.8):
                await call(source, "mcp__demo__wait", {"seconds": 30})
            for _ in range(50):
                if (tmp_path / "cancelled").exists():
                    break
                await anyio.sleep(0.05)
            assert (tmp_path / "cancelled").read_text() == "yes"
            # the connection is still usable
            out = await call(source, "mcp__demo__echo", {"text": "still here"})
            assert out.block.text == "still here"

    anyio.run(go)


def test_crash_mid_call_reconnects_with_a_new_process() -> None:
    async def go() -> None:
        before = children()
        async with McpManager([demo_config()], settings=FAST) as manager:
            await manager.wait_ready()
            source = source_for(manager)
            first = int((await call(source, "mcp__demo__pid", {})).block.text)
            assert first in children() - before
            crashed = await call(source, "mcp__demo__crash", {})
            assert crashed.is_error
            assert "closed the connection" in crashed.block.text
            assert "reconnecting" in crashed.block.text
            # the next call waits for the reconnection and works
            second = int((await call(source, "mcp__demo__pid", {})).block.text)
            assert second != first
            assert not alive(first)
            assert alive(second)
            assert manager.status()[0].state == "connected"
        # shutdown: every server process is gone
        for _ in range(40):
            if not (children() - before):
                break
            await anyio.sleep(0.05)
        assert not alive(second)
        assert children() - before == set()

    anyio.run(go)


def test_slow_and_broken_servers_do_not_block_others(tmp_path: Path) -> None:
    async def go() -> None:
        slow = demo_config("slow", "--slow-start", "5")
        broken = parse_server("broken", {"command": sys.executable, "args": [str(BROKEN)]}, env={})
        missing = parse_server("missing", {"command": "no-such-command-xyz"}, env={})
        fast = demo_config("fast")
        started = time.perf_counter()
        async with McpManager([slow, broken, missing, fast], settings=FAST) as manager:
            source = source_for(manager)
            # nothing blocks the first request: the pool is available at once
            assert time.perf_counter() - started < 1.5
            await manager.wait_ready(["fast", "broken", "missing"])
            states = {s.name: s for s in manager.status()}
            assert states["fast"].state == "connected"
            assert states["slow"].state == "pending"
            assert states["broken"].state == "failed"
            assert "BROKEN_TOKEN" in states["broken"].error
            assert states["missing"].state == "failed"
            assert "command not found" in states["missing"].error
            assert "mcp__fast__echo" in source.current_pool()
            assert "mcp__slow__echo" not in source.current_pool().names
            # a call to the slow server's tool waits for it
            out = await call(source, "mcp__slow__echo", {"text": "waited"})
            assert out.block.text == "waited"
            assert time.perf_counter() - started >= 4.5
            assert "mcp__slow__echo" in source.current_pool().names
            # a tool of a failed server: an error that says why
            dead = await call(source, "mcp__broken__echo", {})
            assert dead.is_error and "There is no tool named mcp__broken__echo" in dead.block.text

    anyio.run(go)


def test_startup_timeout_marks_the_server_failed() -> None:
    async def go() -> None:
        slow = demo_config("slow", "--slow-start", "5")
        settings = McpSettings(startup_timeout_s=0.7)
        before = children()
        async with McpManager([slow], settings=settings) as manager:
            await manager.wait_ready(limit=3)
            status = manager.status()[0]
            assert status.state == "failed"
            assert "did not finish starting within 0.7 s" in status.error
        await anyio.sleep(0.2)
        assert children() - before == set()

    anyio.run(go)


def test_list_changed_refreshes_the_pool() -> None:
    async def go() -> None:
        async with McpManager([demo_config()], settings=FAST) as manager:
            await manager.wait_ready()
            source = source_for(manager)
            pool = source.current_pool()
            assert "mcp__demo__extra" not in pool.names
            assert source.current_pool() is pool  # unchanged: the same object
            await call(source, "mcp__demo__grow", {})
            for _ in range(50):
                if "mcp__demo__extra" in source.current_pool().names:
                    break
                await anyio.sleep(0.05)
            assert "mcp__demo__extra" in source.current_pool().names
            out = await call(source, "mcp__demo__extra", {"x": 21})
            assert out.block.text == "42"

    anyio.run(go)


def test_session_cleanup_closes_servers() -> None:
    async def go() -> None:
        from hands.mcp.setup import start_mcp

        before = children()
        session = Session()
        source = start_mcp(
            Path.cwd(),
            session=session,
            base=[],
            extra=[demo_config()],
            env={"HOME": "/nonexistent"},
        )
        manager = source.manager
        await manager.wait_ready()
        assert len(children() - before) == 1
        await session.aclose()
        assert children() - before == set()

    anyio.run(go)


@pytest.mark.parametrize("transport", ["http", "sse"])
def test_remote_transports_on_loopback(transport: str) -> None:
    async def body(url: str) -> None:
        config = parse_server(
            "remote", {"type": transport, "url": url, "headers": {"X-Test": "1"}}, env={}
        )
        async with McpManager([config], settings=FAST) as manager:
            await manager.wait_ready()
            status = manager.status()[0]
            assert status.state == "connected", status.error
            source = source_for(manager)
            out = await call(source, "mcp__remote__echo", {"text": transport})
            assert out.block.text == transport
            seen: list[Any] = []
            await call(source, "mcp__remote__steps", {"count": 2}, progress=seen.append)
            assert len(seen) == 2

    _remote_demo_test(body, transport)


def _remote_demo_test(body: Any, transport: str = "http") -> None:
    """Run ``body(url)`` against the demo server on a loopback HTTP or SSE port."""
    from mcp_helpers import DEMO, free_port, wait_for_port

    async def go() -> None:
        port = free_port()
        process = await anyio.open_process(
            [sys.executable, str(DEMO), f"--{transport}", str(port)], stdout=-3, stderr=-3
        )
        try:
            await wait_for_port(port)
            path = "/mcp" if transport == "http" else "/sse"
            await body(f"http://127.0.0.1:{port}{path}")
        finally:
            process.terminate()
            await process.wait()

    anyio.run(go)


def test_headers_helper_output_overrides_static_headers(tmp_path: Path) -> None:
    helper = tmp_path / "helper.sh"
    helper.write_text(
        "#!/usr/bin/env bash\n"
        'printf \'{"Authorization": "Bearer fresh-%s", "X-Static": "from-helper"}\' '
        '"$CLAUDE_CODE_MCP_SERVER_NAME"\n'
    )
    helper.chmod(0o755)

    async def body(url: str) -> None:
        entry = {
            "type": "http",
            "url": url,
            "headers": {"X-Static": "static", "X-Kept": "kept"},
            "headersHelper": str(helper),
        }
        config = parse_server("remote", entry, env={})
        async with McpManager([config], settings=FAST) as manager:
            await manager.wait_ready()
            status = manager.status()[0]
            assert status.state == "connected", status.error
            out = await call(source_for(manager), "mcp__remote__seen_headers", {})
            seen = json.loads(out.block.text)
            assert seen["authorization"] == "Bearer fresh-remote"
            assert seen["x-static"] == "from-helper" and seen["x-kept"] == "kept"

    _remote_demo_test(body)


@pytest.mark.parametrize(
    ("script", "reason"),
    [
        ("echo not-json", "must print a JSON object of strings"),
        ("echo oops >&2; exit 3", "exited with 3: oops"),
    ],
)
def test_a_failing_headers_helper_fails_the_server_with_why(script: str, reason: str) -> None:
    async def body(url: str) -> None:
        config = parse_server(
            "remote", {"type": "http", "url": url, "headersHelper": script}, env={}
        )
        async with McpManager([config], settings=FAST) as manager:
            await manager.wait_ready()
            status = manager.status()[0]
            assert status.state == "failed"
            assert reason in status.error

    _remote_demo_test(body)


def test_a_project_headers_helper_needs_a_trusted_workspace(tmp_path: Path) -> None:
    marker = tmp_path / "ran"

    async def body(url: str) -> None:
        entry = {"type": "http", "url": url, "headersHelper": f"touch {marker}; echo '{{}}'"}
        config = parse_server(
            "remote", entry, env={}, scope="project", source=".mcp.json", cwd=tmp_path
        )
        async with McpManager([config], settings=FAST) as manager:
            await manager.wait_ready()
            status = manager.status()[0]
            assert status.state == "failed"
            assert "runs only in a trusted workspace" in status.error
            assert "hands trust" in status.error
        assert not marker.exists()

    _remote_demo_test(body)
