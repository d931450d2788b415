"""Background sub-agents get the restricted set of tools Claude Code gives async agents."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from hands import tool
from hands.agent.loop import QueryOptions, query
from hands.agent.subagents.tool import AgentTool
from hands.pipeline.pool import pool_for

from .support import agent_call, routed, run_all, text

pytestmark = pytest.mark.anyio

BACKGROUND_BUILTINS = {
    "Read", "Grep", "Glob", "Bash", "Edit", "Write", "NotebookEdit", "WebFetch", "WebSearch",
    "TodoWrite", "ToolSearch", "TaskStop",
    "MultiEdit",  # the legacy many-edits form of Edit
    "SendMessage", "ListAgents",  # to write to the main agent, and see the others
}  # fmt: skip
NOT_IN_BACKGROUND = {"Agent", "TaskCreate", "TaskUpdate", "TaskList", "TaskGet"}


@tool(read_only=True)
async def lookup(key: str) -> str:
    """Look a key up (a host's own tool)."""
    await anyio.sleep(0)
    return f"value of {key}"


async def offered(tmp_path: Path, *, background: bool) -> set[str]:
    model = routed(
        [
            [agent_call("list your tools", run_in_background=background)],
            [text("waiting")],
            [text("done")],
        ],
        {"list your tools": [[text("these")]]},
    )
    options = QueryOptions(model=model, tools=pool_for(extra=[AgentTool(), lookup]), cwd=tmp_path)
    await run_all(query("go", options))
    first = model.routes["list your tools"].requests[0]  # type: ignore[attr-defined]
    return {t.name for t in first.tools}


async def test_a_background_agent_gets_only_the_background_tools(tmp_path: Path) -> None:
    foreground = await offered(tmp_path, background=False)
    background = await offered(tmp_path, background=True)
    present = BACKGROUND_BUILTINS & foreground
    assert {"Read", "Bash", "Edit", "Write", "Grep", "Glob"} <= present
    assert NOT_IN_BACKGROUND <= foreground  # a foreground general-purpose agent has them
    assert present <= background and "lookup" in background  # a host's tool stays
    assert not NOT_IN_BACKGROUND & background
    assert not {n for n in background if n.startswith("Browser_")}
    assert background - present - {"lookup"} == set(), background - present
