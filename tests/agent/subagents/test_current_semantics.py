"""Agent as Claude Code 2.1.332 has it: background by default, the claude type, isolation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hands.agent.events import ResultEvent
from hands.agent.loop import QueryOptions, query
from hands.agent.subagents.tool import AgentTool
from hands.core.messages import TextBlock
from hands.orchestration.events import ToolResultEvent
from hands.pipeline.pool import pool_for
from hands.testing import ScriptedModel

from .support import routed, run_all, text

pytestmark = pytest.mark.anyio


def call(prompt: str, **extra: Any) -> dict[str, Any]:
    """An Agent call as Claude Code sends it: no run_in_background unless given."""
    return {
        "type": "tool_use",
        "name": "Agent",
        "input": {"description": "a task", "prompt": prompt, **extra},
    }


async def test_an_agent_runs_in_the_background_by_default_and_its_result_comes_as_a_notice(
    tmp_path: Path,
) -> None:
    model = routed(
        [[call("count the files")], [text("I will wait for it.")], [text("It found 3.")]],
        {"count the files": [[text("There are 3 files.")]]},
    )
    options = QueryOptions(model=model, tools=pool_for(extra=[AgentTool()]), cwd=tmp_path)
    events = await run_all(query("go", options))
    (started,) = [e.outcome for e in events if isinstance(e, ToolResultEvent)]
    assert not started.is_error and started.output.status == "async_launched"
    assert "in the background" in started.block.text
    # the notice comes as a user turn before the next request (whether the agent ended
    # before the model's second turn or the run waited for it), and the run ends after it
    assert isinstance(model.main, ScriptedModel)
    requests = model.main.requests
    said = [None, "I will wait for it.", "It found 3."]
    heard = [
        " ".join(b.text for m in r.messages if m.role == "user" for b in m.content
                 if isinstance(b, TextBlock))
        for r in requests
    ]  # fmt: skip
    first = next(i for i, h in enumerate(heard) if "<task-notification>" in h)
    assert "There are 3 files." in heard[first] and "<status>completed</status>" in heard[first]
    assert len(requests) == first + 1
    result = [e for e in events if isinstance(e, ResultEvent)][-1]
    assert result.result == said[first]


async def test_run_in_background_false_waits_for_the_result(tmp_path: Path) -> None:
    model = routed(
        [[call("count the files", run_in_background=False)], [text("ok")]],
        {"count the files": [[text("There are 3 files.")]]},
    )
    options = QueryOptions(model=model, tools=pool_for(extra=[AgentTool()]), cwd=tmp_path)
    events = await run_all(query("go", options))
    (done,) = [e.outcome for e in events if isinstance(e, ToolResultEvent)]
    assert done.output.status == "completed" and "There are 3 files." in done.block.text


async def test_the_claude_type_is_the_general_agent_and_remote_isolation_is_refused(
    tmp_path: Path,
) -> None:
    model = routed(
        [
            [call("say hi", subagent_type="claude", run_in_background=False, model="fable")],
            [call("say hi", isolation="remote")],
            [text("ok")],
        ],
        {"say hi": [[text("hi")]]},
    )
    options = QueryOptions(model=model, tools=pool_for(extra=[AgentTool()]), cwd=tmp_path)
    events = await run_all(query("go", options))
    general, remote = [e.outcome for e in events if isinstance(e, ToolResultEvent)]
    assert not general.is_error and "(general-purpose)" in general.block.text
    assert general.output.resolved_model == model.name or general.output.resolved_model
    assert remote.is_error and "isolation 'worktree'" in remote.block.text
