"""How a sub-agent shows: its progress under the Agent call, its questions labelled."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import RenderableType

from hands.agent.subagents.progress import SubagentUpdate
from hands.agent.subagents.tool import AgentInput, AgentTool
from hands.core.context import ToolContext
from hands.core.decision import AskRequest
from hands.permissions.asking import PromptAskHandler
from hands.pipeline.pool import pool_for


def test_the_agent_call_shows_the_type_the_task_and_the_current_tool(
    render: Callable[[RenderableType], str],
) -> None:
    tool = AgentTool()
    call = AgentInput(description="find the bug", prompt="p", subagent_type="explore")
    assert render(tool.render_use(call)).strip() == "● Explore(find the bug)"
    update = SubagentUpdate(
        agent_id="a1",
        agent_type="Explore",
        description="find the bug",
        parent_tool_use_id="t",
        tool_uses=3,
        current="Grep(BUG)",
    )
    assert render(tool.render_progress(update)).strip() == "⎿ Explore: Grep(BUG) · 3 tool uses"


@pytest.mark.anyio
async def test_a_sub_agents_question_names_the_agent(tmp_path: Path) -> None:
    asked: list[str] = []

    async def prompt(text: str) -> str:
        asked.append(text)
        return "1"

    bash = pool_for().find("Bash")
    assert bash is not None
    handler = PromptAskHandler(prompt=prompt, project_dir=tmp_path, engine=None)
    ctx = ToolContext(cwd=tmp_path, agent_id="a1", agent_type="Explore")
    answer = await handler(
        AskRequest(tool=bash, input=bash.parse_input({"command": "make"}), context=ctx, message="")
    )
    assert answer.behavior == "allow"
    assert asked[0].startswith("[Explore agent] Bash(make) needs permission.")
