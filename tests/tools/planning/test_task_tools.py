"""The Task tools through the whole pipeline, and which planning set a session is offered."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from hands.pipeline.pool import pool_for
from hands.tools.planning.task_create import TaskCreateTool
from hands.tools.planning.task_get import TaskGetTool
from hands.tools.planning.task_list import TaskListTool
from hands.tools.planning.task_update import TaskUpdateTool
from hands.tools.planning.todo_write import TodoWriteTool
from tools.planning.kit import run, use

pytestmark = pytest.mark.anyio
CREATE, UPDATE, GET, LIST = (
    TaskCreateTool.name,
    TaskUpdateTool.name,
    TaskGetTool.name,
    TaskListTool.name,
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    return root


@pytest.fixture(autouse=True)
def no_list_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (
        "HANDS_TASK_LIST_ID",
        "CLAUDE_CODE_TASK_LIST_ID",
        "HANDS_ENABLE_TASKS",
        "CLAUDE_CODE_ENABLE_TASKS",
    ):
        monkeypatch.delenv(name, raising=False)


async def test_create_update_get_and_list_without_asking(project: Path) -> None:
    outs = await run(
        project,
        [
            use(CREATE, subject="Design the schema", description="tables", activeForm="Designing"),
            use(CREATE, subject="Write the migration", description="up and down"),
            use(UPDATE, taskId="2", addBlockedBy=["1"], owner="me"),
            use(UPDATE, taskId="2", status="in_progress"),
            use(UPDATE, taskId="1", status="completed"),
            use(UPDATE, taskId="2", status="in_progress"),
            use(GET, taskId="2"),
            use(LIST),
            use(GET, taskId="7"),
        ],
    )
    texts = [o.block.text for o in outs]
    assert [o.is_error for o in outs] == [False] * 3 + [True] + [False] * 4 + [True]
    assert texts[0] == "Created task #1: Design the schema"
    assert "blocked by #1 (Design the schema)" in texts[3]
    assert "status (pending → in_progress)" in texts[5]
    assert texts[6].splitlines() == [
        "#2 Write the migration",
        "state: in_progress",
        "owner: me",
        "waiting on: #1 (done)",
        "",
        "up and down",
    ]
    assert texts[7].splitlines() == [
        "#1 Design the schema — completed",
        "#2 Write the migration — in_progress, owner me",
    ]
    assert "no task #7" in texts[8]


async def test_a_cycle_is_an_error_the_model_can_act_on(project: Path) -> None:
    outs = await run(
        project,
        [
            use(CREATE, subject="a", description=""),
            use(CREATE, subject="b", description=""),
            use(UPDATE, taskId="1", addBlocks=["2"]),
            use(UPDATE, taskId="1", addBlockedBy=["2"]),
        ],
    )
    assert outs[3].is_error and "cycle" in outs[3].block.text


async def test_bad_input_is_refused_before_anything_is_stored(project: Path) -> None:
    outs = await run(
        project,
        [
            use(CREATE, subject="", description="x"),
            use(UPDATE, taskId="1", status="done"),
            use(LIST),
        ],
    )
    assert outs[0].is_error and outs[1].is_error
    assert outs[2].block.text == "The task list is empty."


async def test_the_task_tools_run_in_plan_mode_and_sessions_of_one_project_share_a_list(
    project: Path,
) -> None:
    await run(project, [use(CREATE, subject="a", description="")], mode="plan")
    (listed,) = await run(project, [use(LIST)], mode="dontAsk")
    assert listed.block.text == "#1 a — pending"


async def test_a_named_list_is_shared_across_projects(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = tmp_path / "other"
    other.mkdir()
    await run(project, [use(CREATE, subject="mine", description="")])
    monkeypatch.setenv("CLAUDE_CODE_TASK_LIST_ID", "team")
    await run(project, [use(CREATE, subject="shared", description="")])
    (listed,) = await run(other, [use(LIST)])
    assert listed.block.text == "#1 shared — pending"


def test_task_tools_by_default_todo_write_when_tasks_are_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    names = set(pool_for().names)
    assert {CREATE, UPDATE, GET, LIST} <= names and TodoWriteTool.name not in names
    for variable in ("HANDS_ENABLE_TASKS", "CLAUDE_CODE_ENABLE_TASKS"):
        monkeypatch.setenv(variable, "0")
        names = set(pool_for().names)
        assert TodoWriteTool.name in names and not names & {CREATE, UPDATE, GET, LIST}
        monkeypatch.delenv(variable)


def test_flags_and_deferral_are_declared() -> None:
    get, listing = TaskGetTool(), TaskListTool()
    read = get.parse_input({"taskId": "1"})
    assert get.is_read_only(read) and get.is_concurrency_safe(read)
    empty = listing.parse_input({})
    assert listing.is_read_only(empty) and listing.is_concurrency_safe(empty)
    create = TaskCreateTool()
    made = create.parse_input({"subject": "a", "description": ""})
    assert not create.is_read_only(made) and not create.is_concurrency_safe(made)
    for tool in (get, listing, create, TaskUpdateTool(), TodoWriteTool()):
        assert tool.should_defer


def hands(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hands", *args],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
    )


def test_tasks_persist_across_processes_and_hands_tasks_shows_them(project: Path) -> None:
    made = hands(project, "tool", CREATE, json.dumps({"subject": "Ship it", "description": "d"}))
    assert made.returncode == 0, made.stderr
    hands(project, "tool", CREATE, json.dumps({"subject": "Then rest", "description": ""}))
    blocked = hands(project, "tool", UPDATE, json.dumps({"taskId": "2", "addBlockedBy": ["1"]}))
    assert blocked.returncode == 0, blocked.stdout
    listed = hands(project, "tool", LIST, "{}")
    assert listed.stdout.strip().splitlines() == [
        "#1 Ship it — pending",
        "#2 Then rest — pending, waiting on #1",
    ]
    table = hands(project, "tasks")
    assert table.returncode == 0, table.stderr
    assert "Ship it" in table.stdout and "Then rest" in table.stdout and "#1" in table.stdout
    data = json.loads(hands(project, "tasks", "--json").stdout)
    assert [(t["id"], t["status"], t["blockedBy"]) for t in data["tasks"]] == [
        ("1", "pending", []),
        ("2", "pending", ["1"]),
    ]
    assert data["list"].startswith("project:")
