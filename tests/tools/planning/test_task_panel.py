"""The live panel shows the Task tools' list, as it is after each TaskCreate / TaskUpdate."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from hands.cli.session_view import SessionView
from hands.cli.todo_panel import TodoPanel
from hands.core.session import Session
from hands.pipeline.pool import ToolPool
from hands.tools.planning._task_board import TaskBoard
from hands.tools.planning._todos import TodoItem, TodoList
from hands.tools.planning.task_create import TaskCreateTool
from hands.tools.planning.task_update import TaskUpdateTool
from tools.planning.kit import run, use

pytestmark = pytest.mark.anyio
CREATE, UPDATE = TaskCreateTool.name, TaskUpdateTool.name


@pytest.fixture(autouse=True)
def no_list_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("HANDS_TASK_LIST_ID", "CLAUDE_CODE_TASK_LIST_ID", "HANDS_ENABLE_TASKS"):
        monkeypatch.delenv(name, raising=False)


def frame(panel: TodoPanel) -> list[str]:
    view = SessionView(Console(file=io.StringIO(), width=80), ToolPool([]))
    view.footer = panel
    out = io.StringIO()
    Console(file=out, width=80, color_system=None).print(view)
    return [line.rstrip() for line in out.getvalue().splitlines() if line.strip()]


async def test_the_panel_shows_the_task_list_after_each_change(
    tmp_path: Path, hands_home: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    session = Session(home=hands_home)
    panel = TodoPanel(session)
    assert frame(panel) == []
    await run(
        project,
        [
            use(CREATE, subject="Design the schema", description="d", activeForm="Designing"),
            use(CREATE, subject="Write the migration", description="m"),
            use(UPDATE, taskId="2", addBlockedBy=["1"]),
            use(UPDATE, taskId="1", status="in_progress"),
        ],
        session=session,
    )
    lines = frame(panel)
    assert lines[0] == "Tasks · 0 of 2 done"
    assert lines[1].endswith("Designing…") and lines[1][0] not in "☒☐◼"  # spinning
    assert lines[2] == "☐ #2 Write the migration (blocked by #1)"
    await run(project, [use(UPDATE, taskId="1", status="completed")], session=session)
    lines = frame(panel)
    assert lines == ["Tasks · 1 of 2 done", "☒ #1 Design the schema", "☐ #2 Write the migration"]
    # with a todo list too, both are drawn, the todos first
    session.service(TodoList).replace(
        [TodoItem.model_validate({"content": "Ask", "status": "pending", "activeForm": "Asking"})]
    )
    assert frame(panel)[:2] == ["☐ Ask", "Tasks · 1 of 2 done"]


async def test_a_new_panel_starts_with_the_projects_open_tasks(
    tmp_path: Path, hands_home: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    await run(project, [use(CREATE, subject="Left over", description="x")])
    later = Session(home=hands_home)
    assert frame(TodoPanel.for_project(later, project)) == [
        "Tasks · 0 of 1 done",
        "☐ #1 Left over",
    ]
    await run(project, [use(UPDATE, taskId="1", status="completed")])
    done = Session(home=hands_home)
    assert frame(TodoPanel.for_project(done, project)) == []  # nothing open: not shown
    assert done.service(TaskBoard).tasks  # it was read all the same
