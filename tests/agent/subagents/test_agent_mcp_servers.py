"""An agent file's ``mcpServers``: the session's servers by name, or servers of its own."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from hands.agent.loop import QueryOptions, query
from hands.agent.subagents.catalog import AgentCatalog
from hands.agent.subagents.tool import AgentTool
from hands.core.messages import ToolResultBlock
from hands.mcp.agent_servers import AgentMcpServers
from hands.mcp.config import parse_server
from hands.mcp.manager import McpManager
from hands.pipeline.pool import pool_for

from .support import agent_call, routed, run_all, text

pytestmark = pytest.mark.anyio

DEMO = Path(__file__).parents[2] / "mcp" / "servers" / "demo.py"
SERVER = {"command": sys.executable, "args": [str(DEMO)]}


def write_agent(project: Path, front: dict[str, Any]) -> None:
    path = project / ".claude" / "agents" / f"{front['name']}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\n{json.dumps(front)}\n---\nYou use the demo tools.\n")


def echo(server: str) -> dict[str, Any]:
    return {"type": "tool_use", "name": f"mcp__{server}__echo", "input": {"text": "hi there"}}


async def run_agent(
    project: Path, agent: str, call: dict[str, Any], manager: McpManager | None, *, trusted: bool
) -> tuple[Any, str]:
    """Run ``agent`` making ``call``; the scripted model, and the call's result text."""
    catalog = AgentCatalog.load(cwd=project, home=project / "home", trusted=trusted)
    servers = AgentMcpServers(lambda: manager, cwd=project)
    model = routed(
        [[agent_call("use the demo", subagent_type=agent)], [text("done")]],
        {"use the demo": [[call], [text("echoed")]]},
    )
    options = QueryOptions(
        model=model,
        tools=pool_for(extra=[AgentTool(catalog, servers=servers)]),
        cwd=project,
        permission_mode="bypassPermissions",
    )
    await run_all(query("go", options))
    inner = model.routes["use the demo"].requests[1].messages  # type: ignore[attr-defined]
    answer = "".join(b.text for b in inner[-1].content if isinstance(b, ToolResultBlock))
    return model, answer


def running_with(token: str) -> list[int]:
    """Live processes whose command line holds ``token``."""
    found: list[int] = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().decode(errors="replace")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if token in cmdline and state != "Z":
            found.append(int(entry.name))
    return found


def tool_names(request: Any) -> set[str]:
    return {t.name for t in request.tools}


async def test_a_named_server_adds_its_tools_past_the_agents_allowlist(tmp_path: Path) -> None:
    write_agent(
        tmp_path,
        {"name": "demo-user", "description": "d", "tools": ["Read"], "mcpServers": ["demo"]},
    )
    config = parse_server("demo", SERVER, env=os.environ)
    async with McpManager([config]) as manager:
        model, answer = await run_agent(tmp_path, "demo-user", echo("demo"), manager, trusted=True)
        assert manager.connections["demo"].state == "connected"  # shared: still up
    first = model.routes["use the demo"].requests[0]
    names = tool_names(first)
    assert "Read" in names and "mcp__demo__echo" in names
    assert "Bash" not in names  # the allowlist still holds for the rest
    assert "hi there" in answer
    assert not any(n.startswith("mcp__") for n in tool_names(model.main.requests[0]))


async def test_an_inline_server_runs_for_the_sub_agent_only_and_stops_with_it(
    tmp_path: Path,
) -> None:
    marker = tmp_path / "marker"
    own = {"command": sys.executable, "args": [str(DEMO), "--marker", str(marker)]}
    write_agent(tmp_path, {"name": "own-demo", "description": "d", "mcpServers": [{"mine": own}]})
    model, answer = await run_agent(tmp_path, "own-demo", echo("mine"), None, trusted=True)
    assert "hi there" in answer
    assert "mcp__mine__echo" in tool_names(model.routes["use the demo"].requests[0])
    assert "mcp__mine__echo" not in tool_names(model.main.requests[1])  # never the parent's
    assert running_with(str(marker)) == []  # its process ended with the sub-agent


async def test_an_untrusted_agent_files_own_server_is_not_started(tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    own = {"command": sys.executable, "args": [str(DEMO), "--marker", str(marker)]}
    write_agent(tmp_path, {"name": "own-demo", "description": "d", "mcpServers": [{"mine": own}]})
    # an untrusted project's agent files are project input: the type is not even offered
    catalog = AgentCatalog.load(cwd=tmp_path, home=tmp_path / "home", trusted=False)
    assert catalog.find("own-demo") is None and "own-demo" not in AgentTool(catalog).description
    assert running_with(str(marker)) == []
