"""Helpers for the MCP tests: real servers started with this interpreter."""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from hands.agent.events import ResultEvent, ToolResultEvent
from hands.agent.options import ToolSource
from hands.core.context import PermissionMode, ToolContext
from hands.core.messages import ToolResultBlock, ToolUseBlock
from hands.core.outcome import ToolCallOutcome
from hands.core.session import Session
from hands.mcp.config import McpServerConfig, parse_server
from hands.permissions.simple import SimplePolicy
from hands.pipeline.execution import run_tool_use
from hands.pipeline.runtime import ToolRuntime

SERVERS = Path(__file__).parent / "servers"
DEMO = SERVERS / "demo.py"
BROKEN = SERVERS / "broken.py"
FAULT = SERVERS / "fault_mcp.py"


def demo_config(name: str = "demo", *args: str, **fields: Any) -> McpServerConfig:
    entry: dict[str, Any] = {"command": sys.executable, "args": [str(DEMO), *args]}
    entry.update(fields)
    return parse_server(name, entry, env=os.environ)


def children() -> set[int]:
    """Live (non-zombie) processes whose parent is this test process."""
    me = os.getpid()
    out: set[int] = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == me and fields[0] != "Z":
            out.add(int(entry))
    return out


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def call(
    source: ToolSource,
    name: str,
    data: Mapping[str, Any],
    *,
    session: Session | None = None,
    mode: PermissionMode = "bypassPermissions",
    progress: Callable[[Any], None] | None = None,
    tool_use_id: str = "toolu_test",
) -> ToolCallOutcome:
    """One call through the whole hands pipeline, with the pool the loop would get."""
    runtime = ToolRuntime(tools=source.current_pool(), policy=SimplePolicy())
    ctx = ToolContext(
        cwd=Path.cwd(), session=session or Session(), permission_mode=mode, tool_use_id=tool_use_id
    )
    block = ToolUseBlock(id=tool_use_id, name=name, input=dict(data))
    return await run_tool_use(block, ctx, runtime, progress or (lambda _d: None))


async def wait_for_port(port: int, seconds: float = 15) -> None:
    """Wait until something listens on the loopback ``port``."""
    import anyio

    with anyio.fail_after(seconds):
        while True:
            try:
                stream = await anyio.connect_tcp("127.0.0.1", port)
            except OSError:
                await anyio.sleep(0.05)
                continue
            await stream.aclose()
            return


class HttpDemo:
    """The demo server over streamable HTTP on one loopback port, stopped and started at will."""

    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        self.process: Any = None

    async def start(self) -> None:
        import anyio

        self.process = await anyio.open_process(
            [sys.executable, str(DEMO), "--http", str(self.port)], stdout=-3, stderr=-3
        )
        await wait_for_port(self.port)

    async def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            await self.process.wait()
            self.process = None


async def run_query(
    model: Any, source: ToolSource, home: Path
) -> tuple[ResultEvent, list[ToolResultBlock]]:
    """Run a query to its end; its result and the tool results in order."""
    from hands.agent.loop import QueryOptions, query

    options = QueryOptions(
        model=model,
        tools=source,
        cwd=home,
        permission_mode="bypassPermissions",
        session=Session(home=home),
    )
    results: list[ToolResultBlock] = []
    final: ResultEvent | None = None
    async for event in query("go", options):
        if isinstance(event, ToolResultEvent):
            results.append(event.outcome.block)
        if isinstance(event, ResultEvent):
            final = event
    assert final is not None
    return final, results
