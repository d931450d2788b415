"""TodoWrite: its rules, the session's list, the transcript, --continue and the screen."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from hands.agent.transcript import load, sessions
from hands.cli.session_setup import prepare
from hands.cli.session_view import SessionView
from hands.cli.todo_panel import TodoPanel
from hands.config.settings import load_settings
from hands.core.session import Session
from hands.pipeline.pool import ToolPool
from hands.tools.planning._todos import TodoItem, TodoList
from hands.tools.planning.todo_write import TodoWriteTool
from tools.planning.kit import blocks_of, print_session, run, use

pytestmark = pytest.mark.anyio
TODO = TodoWriteTool.name


def item(content: str, status: str, active: str | None = None) -> dict[str, str]:
    return {"content": content, "status": status, "activeForm": active or content + "ing"}


@pytest.fixture(autouse=True)
def todos_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HANDS_ENABLE_TASKS", "0")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    return root


async def test_the_list_is_kept_in_the_session_whole_each_time(project: Path) -> None:
    session = Session()
    first = [item("Read the code", "completed"), item("Fix the bug", "in_progress", "Fixing")]
    outs = await run(
        project,
        [use(TODO, todos=first), use(TODO, todos=[*first, item("Add a test", "pending")])],
        session=session,
    )
    assert [o.is_error for o in outs] == [False, False]
    assert "1 of 3 done" in outs[1].block.text and "one item in_progress" in outs[1].block.text
    todos = session.service(TodoList)
    assert [i.content for i in todos.items] == ["Read the code", "Fix the bug", "Add a test"]
    assert todos.current is not None and todos.current.active_form == "Fixing"


async def test_several_items_in_progress_are_saved_with_a_note_naming_them(
    project: Path,
) -> None:
    session = Session()
    both = [item("Write docs", "in_progress"), item("Run tests", "in_progress")]
    (out,) = await run(project, [use(TODO, todos=both)], session=session)
    assert not out.is_error
    assert "2 items are in_progress" in out.block.text
    assert "'Write docs'" in out.block.text and "'Run tests'" in out.block.text
    stored = session.service(TodoList).items
    assert [i.content for i in stored] == ["Write docs", "Run tests"]


async def test_one_item_in_progress_gets_no_note(project: Path) -> None:
    (out,) = await run(project, [use(TODO, todos=[item("Write docs", "in_progress")])])
    assert not out.is_error and "items are in_progress" not in out.block.text


async def test_the_older_item_shape_with_id_and_priority_is_saved_as_today(
    project: Path,
) -> None:
    session = Session()
    older = [
        {"id": "1", "content": "Read the code", "status": "completed", "priority": "high"},
        {"id": "2", "content": "Fix the bug", "status": "in_progress", "priority": "medium"},
    ]
    (out,) = await run(project, [use(TODO, todos=older)], session=session)
    assert not out.is_error, out.block.text
    todos = session.service(TodoList)
    assert [(i.content, i.status) for i in todos.items] == [
        ("Read the code", "completed"),
        ("Fix the bug", "in_progress"),
    ]
    assert todos.current is not None and todos.current.active_form == "Fix the bug"
    assert todos.snapshot()[1] == {
        "content": "Fix the bug",
        "status": "in_progress",
        "activeForm": "Fix the bug",
    }


@pytest.mark.parametrize(
    "todos",
    [
        [{"content": "", "status": "pending", "activeForm": "x"}],
        [{"content": "a", "status": "pending", "activeForm": ""}],
        [{"content": "a", "status": "started", "activeForm": "x"}],
        [{"content": "a", "status": "pending", "activeForm": "x", "owner": "me"}],
    ],
)
async def test_items_with_an_empty_field_an_unknown_status_or_key_are_refused(
    project: Path, todos: list[dict[str, Any]]
) -> None:
    (out,) = await run(project, [use(TODO, todos=todos)])
    assert out.is_error and out.status != "ok"


async def test_a_list_with_everything_done_is_cleared_and_it_runs_in_plan_mode(
    project: Path,
) -> None:
    session = Session()
    done = [item("a", "completed"), item("b", "completed")]
    (out,) = await run(project, [use(TODO, todos=done)], session=session, mode="plan")
    assert not out.is_error and "2 of 2 done" in out.block.text
    assert session.service(TodoList).items == ()


def test_the_checklist_redraws_in_place_with_the_current_item_spinning() -> None:
    session = Session()
    todos = session.service(TodoList)
    view = SessionView(Console(file=io.StringIO(), width=80), ToolPool([TodoWriteTool()]))
    view.footer = TodoPanel(session)

    def frame() -> list[str]:
        out = io.StringIO()
        Console(file=out, width=80, color_system=None).print(view)
        return [line.rstrip() for line in out.getvalue().splitlines() if line.strip()]

    assert frame() == []  # no list, nothing drawn
    todos.replace(
        [
            TodoItem.model_validate(item("Read the code", "completed", "Reading")),
            TodoItem.model_validate(item("Fix the bug", "in_progress", "Fixing the bug")),
            TodoItem.model_validate(item("Add a test", "pending", "Adding a test")),
        ]
    )
    first = frame()
    assert first[0] == "☒ Read the code" and first[2] == "☐ Add a test"
    assert first[1].endswith("Fixing the bug…") and first[1][0] not in "☒☐◼"  # a spinner
    todos.replace(
        [
            TodoItem.model_validate(item("Read the code", "completed", "Reading")),
            TodoItem.model_validate(item("Fix the bug", "completed", "Fixing the bug")),
            TodoItem.model_validate(item("Add a test", "in_progress", "Adding a test")),
        ]
    )
    second = frame()
    assert len(second) == 3 and second[1] == "☒ Fix the bug"
    assert second[2].endswith("Adding a test…")


def test_the_result_shows_the_checklist(render: Any) -> None:
    tool = TodoWriteTool()
    items = (
        TodoItem.model_validate(item("Plan", "completed", "Planning")),
        TodoItem.model_validate(item("Build", "in_progress", "Building")),
    )
    from hands.tools.planning.todo_write import TodoWriteResult

    shown = render(tool.render_result(TodoWriteResult(old_todos=(), new_todos=items)))
    assert shown.splitlines() == ["  ⎿ ☒ Plan", "    ◼ Build"]
    assert tool.describe_input(tool.parse_input({"todos": [item("a", "pending")]})) == "0 of 1 done"


def test_the_list_is_in_stream_json_and_the_transcript_and_comes_back_on_continue(
    tmp_path: Path, project: Path, hands_home: Path
) -> None:
    todos = [item("Read", "completed"), item("Write", "in_progress", "Writing")]
    script = tmp_path / "script.json"
    lines = print_session(project, script, use(TODO, todos=todos))
    uses = blocks_of(lines, "assistant", "tool_use")
    assert [(u["name"], u["input"]["todos"]) for u in uses] == [(TODO, todos)]
    (path,) = sessions(hands_home, project)
    assert load(path).states["todos"] == todos
    setup = prepare(
        model_spec=f"scripted:{script}",
        cwd=project,
        settings=load_settings(project),
        continue_last=True,
    )
    restored = setup.session.service(TodoList)
    assert [(i.content, i.status) for i in restored.items] == [
        ("Read", "completed"),
        ("Write", "in_progress"),
    ]
