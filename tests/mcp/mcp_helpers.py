"""Helpers for the MCP tests: real servers started with this interpreter."""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from hands.agent.options import ToolSource
from hands.core.context import PermissionMode, ToolContext
from hands.core.messages import ToolUseBlock
from hands.core.outcome import ToolCallOutcome
from hands.core.session import Session
from hands.mcp.config import McpServerConfig, parse_server
from hands.permissions.simple import SimplePolicy
from hands.pipeline.execution import run_tool_use
from hands.pipeline.runtime import ToolRuntime

SERVERS = Path(__file__).parent / "servers"
DEMO = SERVERS / "demo.py"
BROKEN = SERVERS / "broken.py"


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
