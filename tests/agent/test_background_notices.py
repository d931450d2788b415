"""A background shell command that ends tells the model, through the library's query()."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest

from hands import QueryOptions, query
from hands.agent.events import ResultEvent
from hands.core.messages import ToolResultBlock
from hands.testing import ScriptedModel
from hands.tools.bash.bash import BashTool

pytestmark = pytest.mark.anyio


def bash(command: str, **extra: Any) -> dict[str, Any]:
    return {"type": "tool_use", "name": "Bash", "input": {"command": command, **extra}}


def done(text: str = "done") -> list[dict[str, Any]]:
    return [{"type": "text", "text": text}]


def options(model: ScriptedModel, cwd: Path, **kw: Any) -> QueryOptions:
    return QueryOptions(
        model=model, tools=[BashTool()], cwd=cwd, permission_mode="bypassPermissions", **kw
    )


async def finish(q: Any) -> ResultEvent:
    with anyio.fail_after(30):
        events = [event async for event in q]
    result = events[-1]
    assert isinstance(result, ResultEvent)
    return result


async def test_the_next_request_carries_the_notice_with_the_exit_status(tmp_path: Path) -> None:
    model = ScriptedModel.from_turns(
        [bash("sleep 0.5; echo done", run_in_background=True, description="short job")],
        [bash("sleep 1.5")],
        done(),
    )
    q = query("go", options(model, tmp_path))
    assert (await finish(q)).subtype == "success"
    third = model.requests[2].messages
    # the foreground call's result, then the notice
    assert any(isinstance(b, ToolResultBlock) for b in third[-2].content)
    notice = third[-1].text
    assert notice.startswith("<task-notification>")
    assert "<tool-use-id>toolu_s00_00</tool-use-id>" in notice
    assert "<status>completed</status>" in notice
    assert 'Background task "short job" is over (exit code 0).' in notice
    path = Path(notice.split("<output-file>")[1].split("</output-file>")[0])
    assert path.read_text() == "done\n[hands: exit code 0]\n"


async def test_a_run_whose_model_is_done_waits_for_the_running_job(tmp_path: Path) -> None:
    model = ScriptedModel.from_turns(
        [bash("sleep 0.3; exit 2", run_in_background=True)], done("started"), done("heard")
    )
    q = query("go", options(model, tmp_path))
    result = await finish(q)
    assert result.result == "heard" and len(model.requests) == 3
    notice = model.requests[2].messages[-1].text
    assert "<status>failed</status>" in notice and "(exit code 2)" in notice


async def test_a_run_that_does_not_wait_leaves_the_job_to_the_session(tmp_path: Path) -> None:
    model = ScriptedModel.from_turns([bash("sleep 30", run_in_background=True)], done())
    q = query("go", options(model, tmp_path, wait_for_background=False))
    assert (await finish(q)).result == "done" and len(model.requests) == 2
    with anyio.fail_after(10):
        await q.session.aclose()
