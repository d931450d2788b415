"""The depth cap: a third-level sub-agent cannot start another, and is told so."""

from __future__ import annotations

from pathlib import Path

import pytest

from hands import tool
from hands.agent.loop import QueryOptions, query
from hands.agent.subagents.builtin import GENERAL_PURPOSE
from hands.agent.subagents.limits import Running
from hands.agent.subagents.runner import Spawn, SpawnRefused, prepare
from hands.agent.subagents.tool import AgentTool
from hands.core.context import ToolContext
from hands.core.messages import ToolResultBlock
from hands.orchestration.events import ToolResultEvent
from hands.pipeline.pool import pool_for

from .support import agent_call, routed, run_all, text

pytestmark = pytest.mark.anyio

refusals: list[tuple[int, str]] = []


@tool(read_only=True)
async def try_spawn(ctx: ToolContext) -> str:
    """Ask to start a sub-agent from here, as the Agent tool would."""
    depth = ctx.session.service(Running).depth_of(ctx.agent_id)
    try:
        prepare(
            Spawn(agent=GENERAL_PURPOSE, prompt="deeper", description="deeper"),
            ctx,
            spawner=AgentTool,
        )
    except SpawnRefused as exc:
        refusals.append((depth, str(exc)))
        return f"refused: {exc}"
    return "it would start"


def spawn_probe() -> dict[str, object]:
    return {"type": "tool_use", "name": "try_spawn", "input": {}}


async def test_a_spawn_at_depth_three_is_refused_with_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("HANDS_MAX_SUBAGENT_DEPTH", raising=False)  # the default, 3
    refusals.clear()
    model = routed(
        [[agent_call("level one")], [text("top done")]],
        {
            "level one": [[spawn_probe(), agent_call("level two")], [text("one done")]],
            "level two": [[agent_call("level three")], [text("two done")]],
            "level three": [
                [spawn_probe(), agent_call("level four")],
                [text("three done")],
            ],
        },
    )
    options = QueryOptions(
        model=model, tools=pool_for(extra=[AgentTool(), try_spawn]), cwd=tmp_path
    )
    events = await run_all(query("go", options))
    top = next(e.outcome.block for e in events if isinstance(e, ToolResultEvent))
    assert "one done" in top.text and not top.is_error
    # level one may spawn (depth 2 would be fine); level three may not (depth 4 > 3)
    assert [d for d, _ in refusals] == [3]
    message = refusals[0][1]
    assert "3 deep" in message and "HANDS_MAX_SUBAGENT_DEPTH" in message
    assert "Do the work here instead" in message
    third = model.routes["level three"]
    assert "Agent" not in {t.name for t in third.requests[0].tools}  # type: ignore[attr-defined]
    answers = [
        b
        for b in third.requests[1].messages[-1].content  # type: ignore[attr-defined]
        if isinstance(b, ToolResultBlock)
    ]
    probe, agent = answers
    assert probe.text.startswith("refused: ") and not probe.is_error
    assert agent.is_error and "Agent" in agent.text  # the model is told the tool is not there
