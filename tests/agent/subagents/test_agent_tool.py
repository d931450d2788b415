from __future__ import annotations

from pathlib import Path

import pytest

from hands.agent.loop import QueryOptions, query
from hands.agent.subagents.tool import AgentTool
from hands.core.messages import ToolResultBlock, ToolUseBlock
from hands.orchestration.events import ToolResultEvent
from hands.pipeline.pool import pool_for

from .support import agent_call, routed, run_all, text

pytestmark = pytest.mark.anyio


def project(tmp_path: Path) -> Path:
    (tmp_path / "stock.py").write_text("def remove(n):\n    return n + 1  # BUG\n")
    return tmp_path


async def test_the_parent_sees_only_the_agents_final_text(tmp_path: Path) -> None:
    cwd = project(tmp_path)
    model = routed(
        [[agent_call("locate the bug", subagent_type="explore")], [text("Thanks.")]],
        {
            "locate the bug": [
                [{"type": "tool_use", "name": "Grep", "input": {"pattern": "BUG"}}],
                [text("The bug is at stock.py:2.")],
            ]
        },
    )
    options = QueryOptions(model=model, tools=pool_for(extra=[AgentTool()]), cwd=cwd)
    events = await run_all(query("find it", options))
    results = [e for e in events if isinstance(e, ToolResultEvent)]
    assert [r.tool_use.name for r in results] == ["Agent"]
    outcome = results[0].outcome
    assert not outcome.block.is_error, outcome.block.text
    assert "The bug is at stock.py:2." in outcome.block.text
    assert "1 tool use" in outcome.block.text
    # the parent's second request holds its prompt, its call and the one result, no Grep
    second = model.main.requests[1]
    blocks = [b for m in second.messages for b in m.content]
    assert [b.name for b in blocks if isinstance(b, ToolUseBlock)] == ["Agent"]
    assert len([b for b in blocks if isinstance(b, ToolResultBlock)]) == 1
    # the sub-agent's own conversation began with the prompt alone
    sub = model.routes["locate the bug"].requests[0]
    assert len(sub.messages) == 1 and sub.messages[0].text == "locate the bug"
    assert "read-only" in sub.system
    assert sorted(t.name for t in sub.tools) == sorted(
        t.name for t in pool_for() if not t.edits_files and t.subagent_use == "always"
    )
