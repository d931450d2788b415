"""After a summary, the first request re-announces the todos, open tasks and plan mode."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hands import QueryOptions, query
from hands.agent.compaction import CompactionSettings
from hands.agent.compaction.summary import SUMMARY_SYSTEM
from hands.agent.events import CompactionEvent, ResultEvent
from hands.core.session import Session
from hands.testing import ScriptedModel
from hands.tools.file.read import ReadTool
from hands.tools.planning.task_create import TaskCreateTool
from hands.tools.planning.task_update import TaskUpdateTool
from hands.tools.planning.todo_write import TodoWriteTool

from .compaction_kit import Summaries

pytestmark = pytest.mark.anyio
LINE = "the quick brown fox jumps over the lazy dog, again and again\n"


@pytest.fixture(autouse=True)
def tasks_on(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("HANDS_TASK_LIST_ID", "CLAUDE_CODE_TASK_LIST_ID", "HANDS_ENABLE_TASKS"):
        monkeypatch.delenv(name, raising=False)


def use(name: str, **data: Any) -> list[dict[str, Any]]:
    return [{"type": "tool_use", "name": name, "input": data}]


async def test_the_request_after_a_summary_carries_the_plan_state(tmp_path: Path) -> None:
    files = []
    for i in range(3):
        path = tmp_path / f"f{i}.txt"
        path.write_text("".join(f"{n} {LINE}" for n in range(50)))
        files.append(path)
    todo = {"content": "Find the bug", "status": "in_progress", "activeForm": "Finding it"}
    later = {"content": "Write the fix", "status": "pending", "activeForm": "Writing it"}
    model = Summaries(
        ScriptedModel.from_turns(
            use("TodoWrite", todos=[todo, later]),
            use("TaskCreate", subject="Review the parser", description="p"),
            use("TaskCreate", subject="Old chore", description="c"),
            use("TaskUpdate", taskId="2", status="completed"),
            *(use("Read", file_path=str(f)) for f in files),
            [{"type": "text", "text": "done"}],
        )
    )
    q = query(
        "plan the fix",
        QueryOptions(
            model=model,
            tools=[ReadTool(), TodoWriteTool(), TaskCreateTool(), TaskUpdateTool()],
            cwd=tmp_path,
            permission_mode="plan",
            compaction=CompactionSettings(window_tokens=6000, percent=50, keep_results=4),
            session=Session(session_id="carry", home=tmp_path / "home"),
        ),
    )
    events = [e async for e in q]
    assert isinstance(events[-1], ResultEvent) and events[-1].subtype == "success"
    outcomes = [e.outcome for e in events if isinstance(e, CompactionEvent)]
    assert [o.status for o in outcomes][-1] == "compacted", outcomes
    at = next(i for i, r in enumerate(model.requests) if r.system == SUMMARY_SYSTEM)
    after = model.requests[at + 1]
    opening = next(m for m in after.messages if m.role == "user").text
    assert "[in_progress] Find the bug" in opening and "[pending] Write the fix" in opening
    assert "#1 Review the parser — pending" in opening
    assert "Old chore" not in opening  # completed tasks are not re-announced
    assert "still in plan mode" in opening and "ExitPlanMode" in opening
    before = model.requests[at - 1]
    assert "still in plan mode" not in " ".join(m.text for m in before.messages)
